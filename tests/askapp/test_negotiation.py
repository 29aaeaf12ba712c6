"""askapp's content negotiation answers as DRF's does, header by header."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from askapp.api.negotiation import ContentNegotiation
from askapp.api.views import EventStreamRenderer

ACCEPTS = [
    None, "*/*", "application/json", "application/json; indent=4", "application/*",
    "text/event-stream", "text/html", "text/html,*/*;q=0.8", "", "application/json, */*",
    "*/*; q=0.5", "image/png",
]  # fmt: skip
RENDERERS: list[list[BaseRenderer]] = [
    [JSONRenderer()],
    [JSONRenderer(), EventStreamRenderer()],
    [EventStreamRenderer(), JSONRenderer()],
]


def _choice(negotiator: Any, request: Request, renderers: list[BaseRenderer]) -> Any:
    try:
        renderer, media_type = negotiator.select_renderer(request, renderers)
    except NotAcceptable:
        return "406"
    return type(renderer), media_type


@pytest.mark.parametrize("accept", ACCEPTS)
def test_the_same_renderer_and_media_type_as_drf(accept: str | None) -> None:
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    request = Request(APIRequestFactory().post("/v1/ask", **headers))
    for renderers in RENDERERS:
        ours = _choice(ContentNegotiation(), request, renderers)
        assert ours == _choice(DefaultContentNegotiation(), request, renderers)
