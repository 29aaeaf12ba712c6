"""Content negotiation that answers the common case without parsing: a request with no
Accept header, `*/*`, or exactly the first renderer's media type gets the first renderer,
as DRF's DefaultContentNegotiation would conclude (after reading the query string for a
format override askapp does not use, and parsing the header). Anything else is DRF's."""

from __future__ import annotations

from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request


class ContentNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self, request: Request, renderers: list[BaseRenderer], format_suffix: Any = None
    ) -> tuple[BaseRenderer, str]:
        if renderers and not format_suffix and self.settings.URL_FORMAT_OVERRIDE is None:
            first = renderers[0]
            accept = request.META.get("HTTP_ACCEPT")
            if accept is None or accept == "*/*":
                return first, first.media_type
            if accept == first.media_type:
                return first, accept
        return super().select_renderer(request, renderers, format_suffix)  # type: ignore[no-any-return]
