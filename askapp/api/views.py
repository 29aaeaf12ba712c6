"""API v1: one thin view per resource. Validation is the serializers', work the services' and
selectors', error formatting the exception handler's (askapp/api/errors.py)."""

from __future__ import annotations

from typing import Any

from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from askapp import trace
from askapp.api import sse
from askapp.api.serializers import (
    AskErrorDoc,
    AskInput,
    AskOutput,
    ConversationDetailOutput,
    ConversationInput,
    ConversationListQuery,
    ConversationOutput,
    ErrorDoc,
    FeedbackInput,
    FeedbackOutput,
    RenameInput,
    TurnOutput,
    TurnPageOutput,
    TurnPageQuery,
    ask_body,
    ask_input,
)
from askapp.auth import KNOWLEDGE_VERSION_ATTRIBUTE
from askapp.errors import NotFound
from askapp.owners import Owner, existing_owner, request_owner
from askapp.permissions import clearance_for
from askapp.selectors.conversations import (
    conversation_get,
    conversation_list,
    conversation_turns,
    entity_by_name,
    turn_get,
    turn_page,
    turn_page_count,
)
from askapp.services.asking import PreparedAsk, ask, ask_prepare
from askapp.services.conversations import (
    conversation_create,
    conversation_delete,
    conversation_rename,
    feedback_submit,
)

_ERRORS: dict[int, Any] = {
    code: OpenApiResponse(ErrorDoc, description=text)
    for code, text in (
        (400, "Invalid request: the error names the field at fault."),
        (401, "Not logged in and no valid token (and anonymous chat is off)."),
        (403, "CSRF check failed for a browser session."),
        (404, "No such conversation or turn, or it is not yours."),
        (429, "Too many requests: see the Retry-After header."),
    )
}
SSE_EVENT: dict[str, Any] = {
    "type": "object",
    "required": ["event", "data"],
    "properties": {
        "event": {"type": "string", "enum": ["meta", "delta", "sources", "done", "error"]},
        "data": {"type": "string", "description": "One line of JSON (see the description)."},
    },
}
_CONVERSATION_ID = OpenApiParameter("conversation_id", OpenApiTypes.UUID, OpenApiParameter.PATH)
_TURN_ID = OpenApiParameter("turn_id", OpenApiTypes.UUID, OpenApiParameter.PATH)
_ASK_FAILURES: dict[int, Any] = {
    413: OpenApiResponse(ErrorDoc, description="The body is over 2.5 MB (request_too_large)."),
    502: OpenApiResponse(AskErrorDoc, description="The model provider failed."),
    503: OpenApiResponse(
        AskErrorDoc,
        description="The provider timed out, is unavailable or rate limited us; try again later.",
    ),
}


def api_index(request: HttpRequest) -> JsonResponse:
    """GET /v1/: where the schema and the docs are."""
    return JsonResponse({"schema": "/v1/schema", "docs": "/v1/docs", "redoc": "/v1/redoc"})


def _owner_or_404(request: Request) -> Owner:
    owner = existing_owner(request)
    if owner is None:
        raise NotFound("Nothing here belongs to this session.", code="not_found")
    return owner


def _valid(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _prepare(request: Request) -> PreparedAsk:
    data = ask_input(request.data)
    return ask_prepare(
        owner=request_owner(request),
        question=data["question"],
        clearance=clearance_for(request.user),
        conversation_id=data.get("conversation"),
        history=data.get("history"),
        knowledge_version=getattr(request.user, KNOWLEDGE_VERSION_ATTRIBUTE, None),
    )


class AskView(APIView):
    @extend_schema(
        operation_id="ask",
        summary="Ask a question",
        description="Give `conversation` to continue a stored conversation, `history` for a "
        "stateless client, or neither to start a new conversation (both: 400). The answer "
        "and its question are stored; the response carries the answer turn.",
        request=AskInput,
        responses={200: AskOutput, **_ERRORS, **_ASK_FAILURES},
    )
    def post(self, request: Request) -> HttpResponse:
        stored = ask(prepared=_prepare(request))
        return json_response(request, ask_body(stored))


def json_response(request: Request, body: Any) -> HttpResponse:
    """`Response(body)` as DRF would render it for a client that accepts plain JSON, made
    directly: the same bytes (JSONRenderer's) and Content-Type, without a Response's template
    rendering cycle (about 3% of an ask, docs/adr/0080). Any other accepted media type (JSON
    with an indent, say) gets DRF's Response."""
    if request.accepted_media_type != JSONRenderer.media_type:
        return Response(body)
    renderer = JSONRenderer()
    return HttpResponse(renderer.render(body), content_type=renderer.media_type)


class EventStreamRenderer(BaseRenderer):
    """Lets a client send `Accept: text/event-stream`; the stream itself is not rendered."""

    media_type = "text/event-stream"
    format = "event-stream"

    def render(self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None):  # type: ignore[no-untyped-def]
        return data


class AskStreamView(APIView):
    renderer_classes = [JSONRenderer, EventStreamRenderer]

    @extend_schema(
        operation_id="ask_stream",
        summary="Ask a question, streaming the answer (server-sent events)",
        description="The body is the same as POST /v1/ask. The response is text/event-stream: "
        "`meta` (the conversation id and how the question was understood), `delta` "
        '(`{"text": ...}`, the answer piece by piece), `sources`, then `done` (exactly the '
        "body POST /v1/ask returns) or `error` (what failed, and the stored question). "
        "Comment lines `: keepalive` come during pauses. The answer is stored even when the "
        "client disconnects. Errors found before the stream starts are JSON, as for /v1/ask.",
        request=AskInput,
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                SSE_EVENT, description="Server-sent events; the schema describes one event."
            ),
            **_ERRORS,
        },
    )
    def post(self, request: Request) -> StreamingHttpResponse:
        prepared = _prepare(request)
        if isinstance(request._request, ASGIRequest):
            record = trace.of(request._request.scope)
            trace.stamp(record, "prepared")
            body: Any = sse.answer_frames_async(prepared, trace=record)
        else:
            body = sse.answer_frames(prepared)
        response = StreamingHttpResponse(body, content_type="text/event-stream")
        for name, value in sse.HEADERS.items():
            response[name] = value
        return response

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(response, Response):  # errors before the stream starts are JSON
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)


class ConversationPagination(PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100


class ConversationListView(APIView):
    pagination_class = ConversationPagination

    @extend_schema(
        operation_id="conversations_list",
        summary="Your conversations, most recently active first",
        parameters=[
            OpenApiParameter("search", str, description="Words in the title or any turn."),
        ],
        responses={200: ConversationOutput(many=True), **_ERRORS},
    )
    def get(self, request: Request) -> Response:
        query = _valid(ConversationListQuery, request.query_params)
        rows = conversation_list(
            owner=existing_owner(request),
            search=query.get("search", ""),
            clearance=clearance_for(request.user),
        )
        paginator = ConversationPagination()
        page = paginator.paginate_queryset(rows, request, view=self)
        return paginator.get_paginated_response(ConversationOutput(page, many=True).data)

    @extend_schema(
        operation_id="conversations_create",
        summary="Start a conversation",
        request=ConversationInput,
        responses={201: ConversationOutput, **_ERRORS},
    )
    def post(self, request: Request) -> Response:
        data = _valid(ConversationInput, request.data)
        clearance = clearance_for(request.user)
        scope = (
            entity_by_name(name=data["scope"], clearance=clearance) if data.get("scope") else None
        )
        conversation = conversation_create(
            owner=request_owner(request),
            title=data.get("title", ""),
            scope=scope,
        )
        return Response(ConversationOutput(conversation).data, status=status.HTTP_201_CREATED)


class ConversationDetailView(APIView):
    @extend_schema(
        operation_id="conversations_retrieve",
        summary="A conversation with one page of its turns (the latest 50 unless `page` says)",
        parameters=[
            _CONVERSATION_ID,
            OpenApiParameter("page", int, description="Page of 50 turns, 1 the oldest."),
        ],
        responses={200: ConversationDetailOutput, **_ERRORS},
    )
    def get(self, request: Request, conversation_id: str) -> Response:
        conversation = conversation_get(
            owner=_owner_or_404(request), conversation_id=conversation_id
        )
        asked = _valid(TurnPageQuery, request.query_params).get("page")
        if asked is not None and asked > turn_page_count(conversation=conversation):
            raise NotFound(
                f"page: this conversation has {turn_page_count(conversation=conversation)}"
                " page(s) of turns."
            )
        page = turn_page(conversation=conversation, asked=asked)
        turns = conversation_turns(
            conversation=conversation,
            clearance=clearance_for(request.user),
            positions=page.positions,
        )
        return Response(
            {
                **ConversationOutput(conversation).data,
                "turns": TurnOutput(turns, many=True).data,
                "page": TurnPageOutput(page).data,
            }
        )

    @extend_schema(
        operation_id="conversations_rename",
        parameters=[_CONVERSATION_ID],
        summary="Rename a conversation",
        request=RenameInput,
        responses={200: ConversationOutput, **_ERRORS},
    )
    def patch(self, request: Request, conversation_id: str) -> Response:
        conversation = conversation_get(
            owner=_owner_or_404(request), conversation_id=conversation_id
        )
        data = _valid(RenameInput, request.data)
        conversation = conversation_rename(conversation=conversation, title=data["title"])
        return Response(ConversationOutput(conversation).data)

    @extend_schema(
        operation_id="conversations_delete",
        parameters=[_CONVERSATION_ID],
        summary="Delete a conversation and its turns",
        responses={204: None, **_ERRORS},
    )
    def delete(self, request: Request, conversation_id: str) -> Response:
        conversation = conversation_get(
            owner=_owner_or_404(request), conversation_id=conversation_id
        )
        conversation_delete(conversation=conversation)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TurnFeedbackView(APIView):
    @extend_schema(
        operation_id="turns_feedback",
        parameters=[_TURN_ID],
        summary="Rate an answer: up or down, with an optional comment",
        description="One verdict per reader per answer: a second one replaces the first "
        "(200 instead of 201). Feedback on a question is a 400.",
        request=FeedbackInput,
        responses={201: FeedbackOutput, 200: FeedbackOutput, **_ERRORS},
    )
    def post(self, request: Request, turn_id: str) -> Response:
        owner = _owner_or_404(request)
        turn = turn_get(owner=owner, turn_id=turn_id)
        data = _valid(FeedbackInput, request.data)
        feedback, created = feedback_submit(
            turn=turn,
            owner=owner,
            value=data["value"],
            comment=data.get("comment", ""),
        )
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(FeedbackOutput(feedback).data, status=code)
