"""The API's schema and its interactive docs, served by the app itself (no CDN): Swagger UI at
/v1/docs and Redoc at /v1/redoc, both from drf-spectacular-sidecar's static files, so they load
with no network beyond the server.

/v1/schema is YAML, sent as text/plain to a browser (which then shows it rather than
downloading it) and as application/vnd.oai.openapi or application/yaml to a client that asks
for those; `?format=json` (or `Accept: application/json`) gives JSON. The API's own views ignore
`?format=`; only the schema honours it.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.renderers import (
    OpenApiJsonRenderer,
    OpenApiJsonRenderer2,
    OpenApiYamlRenderer,
    OpenApiYamlRenderer2,
)
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)
from rest_framework.negotiation import DefaultContentNegotiation


class ReadableYamlRenderer(OpenApiYamlRenderer):
    """The schema's YAML as plain text: what a browser asking for anything (*/*) gets."""

    media_type = "text/plain"
    charset = "utf-8"


class FormatParameter(DefaultContentNegotiation):
    """`?format=json` or `?format=yaml` picks the schema's format over the Accept header."""

    def select_renderer(self, request: Any, renderers: Any, format_suffix: Any = None) -> Any:
        chosen = format_suffix or request.query_params.get("format")
        return super().select_renderer(request, renderers, chosen)


class SchemaView(SpectacularAPIView):
    renderer_classes = [
        ReadableYamlRenderer,
        OpenApiYamlRenderer,
        OpenApiYamlRenderer2,
        OpenApiJsonRenderer2,  # application/json first among the JSON ones
        OpenApiJsonRenderer,
    ]
    content_negotiation_class = FormatParameter
    throttle_classes: list[Any] = []


# The docs pages may load from the server only. Both UIs inject their own <style> elements,
# and Redoc builds its search worker from a blob; an image from elsewhere (Redoc's footer logo
# comes from its CDN) is refused by the browser before any request leaves it.
DOCS_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "worker-src 'self' blob:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    )
)


class SelfOnly:
    """Sends DOCS_POLICY with the page."""

    def finalize_response(self, request: Any, response: Any, *args: Any, **kwargs: Any) -> Any:
        response = super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]
        response.headers.setdefault("Content-Security-Policy", DOCS_POLICY)
        return response


class SwaggerView(SelfOnly, SpectacularSwaggerSplitView):
    """Swagger UI; its start-up script is a second request, so the page has no inline script."""

    url_name = "api-schema"
    throttle_classes: list[Any] = []


class RedocView(SelfOnly, SpectacularRedocView):
    """Redoc, without the web fonts its stock page fetches from a font CDN."""

    url_name = "api-schema"
    template_name = "api/redoc.html"
    throttle_classes: list[Any] = []
