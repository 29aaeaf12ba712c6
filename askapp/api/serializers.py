"""Input and output shapes of the API. Plain Serializers: the hot path maps stored JSON as is.

Figures, sources, intent and carried slots were frozen as JSON at answer time; the output
returns them unchanged (so the stream's `sources` event and the final turn agree byte for
byte), and the `*Doc` serializers only describe their shape in the OpenAPI schema.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.validators import ProhibitNullCharactersValidator
from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.validators import ProhibitSurrogateCharactersValidator

from askapp.models import Feedback, Turn
from askapp.selectors.clearance import WITHHELD_TEXT
from engine import Choice

QUESTION_MAX = 4000
HISTORY_MAX_TURNS = 50
HISTORY_TEXT_MAX = 8000
TITLE_MAX = 200
COMMENT_MAX = 4000


class StrictCharField(serializers.CharField):
    """A CharField that refuses numbers and booleans instead of turning them into text."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictUUIDField(serializers.UUIDField):
    """A UUIDField that takes text only (DRF's turns any integer into a UUID)."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            self.fail("invalid", value=data)
        return super().to_internal_value(data)


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "string"},
        "minItems": 2,
        "maxItems": 2,
        "description": "[role, text]: role user or assistant (any other role counts as user), "
        f"text at most {HISTORY_TEXT_MAX} characters.",
        "example": ["user", "What was Apple's revenue in FY2023?"],
    }
)
class HistoryTurnField(serializers.Field):
    """One turn of client-supplied history: `[role, text]`, both strings."""

    default_error_messages = {
        "shape": "Each history turn must be a [role, text] pair of two strings.",
        "too_long": f"A history turn's text may be at most {HISTORY_TEXT_MAX} characters.",
        "characters": "A history turn may not contain NUL or lone surrogate characters.",
    }

    def to_internal_value(self, data: Any) -> tuple[str, str]:
        if not isinstance(data, list) or len(data) != 2:
            self.fail("shape")
        role, text = data
        if not isinstance(role, str) or not isinstance(text, str) or len(role) > 50:
            self.fail("shape")
        if len(text) > HISTORY_TEXT_MAX:
            self.fail("too_long")
        try:
            for value in (role, text):
                ProhibitNullCharactersValidator()(value)
                ProhibitSurrogateCharactersValidator()(value)
        except Exception:
            self.fail("characters")
        return role.strip().lower(), text

    def to_representation(self, value: Any) -> list[str]:
        return list(value)


# --- documentation of the stored JSON -------------------------------------------------------


class FigureDoc(serializers.Serializer):
    label = serializers.CharField()
    value = serializers.CharField(help_text="A decimal, as text so no precision is lost.")
    unit = serializers.CharField()
    kind = serializers.ChoiceField(choices=["fact", "computed"])
    sources = serializers.ListField(
        child=serializers.CharField(), help_text="Ids of the sources the figure comes from."
    )
    display = serializers.CharField()
    entity = serializers.CharField(allow_null=True)
    metric = serializers.CharField(allow_null=True)
    period = serializers.CharField(allow_null=True)


class SpanDoc(serializers.Serializer):
    start = serializers.IntegerField(help_text="Offset of the first character, in code points.")
    end = serializers.IntegerField(help_text="Offset just past the last character.")


class SourceDoc(serializers.Serializer):
    id = serializers.CharField(help_text="Stable id: fact:<n> or chunk:<n>.")
    kind = serializers.ChoiceField(choices=["fact", "passage"])
    title = serializers.CharField()
    reference = serializers.CharField()
    document_id = serializers.CharField(allow_null=True)
    classification = serializers.CharField()
    excerpt = serializers.CharField(
        required=False,
        help_text="Passages: the excerpt exactly as the model was given it, cleaned of page "
        "footers and flattened tables.",
    )
    cited_spans = SpanDoc(
        many=True,
        required=False,
        help_text="Passages: where the sentences the answer cites stand in `excerpt` "
        "(excerpt[start:end]); empty when no sentence could be placed. Answers stored "
        "before this field existed have none.",
    )
    entity = serializers.CharField(
        required=False, allow_null=True, help_text="The company the fact or passage is about."
    )
    metric = serializers.CharField(required=False, allow_null=True)
    period = serializers.CharField(
        required=False, allow_null=True, help_text="The period of the fact, or of the document."
    )
    value = serializers.CharField(required=False, allow_null=True)
    unit = serializers.CharField(required=False, allow_null=True)


class CarriedDoc(serializers.Serializer):
    slot = serializers.ChoiceField(choices=["entity", "metric", "period", "operation", "scope"])
    value = serializers.CharField()
    from_turn = serializers.IntegerField(help_text="The earlier question (1-based); 0: scope.")
    question = serializers.CharField()


class ChoiceDoc(serializers.Serializer):
    label = serializers.CharField(help_text="What a button offering the choice shows.")
    question = serializers.CharField(
        help_text="The question to ask for it: a whole question, or a bare reply that "
        "completes the question asked back when asked in the same conversation."
    )


@extend_schema_field(FigureDoc(many=True))
class FiguresField(serializers.JSONField):
    pass


@extend_schema_field(SourceDoc(many=True))
class SourcesField(serializers.JSONField):
    pass


@extend_schema_field(CarriedDoc(many=True))
class CarriedField(serializers.JSONField):
    pass


@extend_schema_field(ChoiceDoc(many=True))
class ChoicesField(serializers.JSONField):
    """Choices as {label, question}; answers stored before choices had questions hold bare
    strings, which read as a label that is its own question."""

    def to_representation(self, value: Any) -> list[dict[str, str]]:
        return choices_body(value)


def choices_body(stored: Any) -> list[dict[str, str]]:
    return [Choice.from_stored(item).to_dict() for item in stored or ()]


# --- output -----------------------------------------------------------------------------------


class TurnOutput(serializers.Serializer):
    id = serializers.UUIDField()
    position = serializers.IntegerField()
    role = serializers.ChoiceField(choices=Turn.Role.choices)
    origin = serializers.ChoiceField(choices=Turn.Origin.choices)
    text = serializers.CharField()
    status = serializers.ChoiceField(
        choices=Turn.Status.choices,
        help_text="found, answered, not_found, blocked, clarify or error; empty for history "
        "a stateless client supplied. A question shares its answer's status.",
    )
    refused = serializers.BooleanField(help_text="True when status is not_found.")
    figures = FiguresField()
    sources = SourcesField()
    intent = serializers.JSONField(help_text="How the question was understood (resolved).")
    carried = CarriedField()
    reason = serializers.CharField(help_text="blocked or error: why.")
    choices = ChoicesField(
        help_text="clarify: the valid answers to the question asked back; not_found: what "
        "the knowledge base holds nearby (the company's periods for the metric, or its "
        "metrics for the period) as next questions. Empty otherwise."
    )
    answers = serializers.UUIDField(
        source="answers_id", allow_null=True, help_text="An answer: the id of its question."
    )
    created = serializers.DateTimeField()
    withheld = serializers.BooleanField(
        default=False,
        help_text="True when the exchange cites material you may no longer see (it was "
        "reclassified after the answer was given): an answer's text is then a notice, and "
        "its figures, sources, intent, carried slots and choices are empty; a question keeps "
        "its text.",
    )

    def to_representation(self, instance: Any) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        if data["withheld"]:
            data.update(intent={}, carried=[], figures=[], sources=[], choices=[])
            if data["role"] == Turn.Role.ASSISTANT:
                data["text"] = WITHHELD_TEXT
        return data


class ConversationOutput(serializers.Serializer):
    id = serializers.UUIDField()
    title = serializers.CharField()
    scope = serializers.CharField(
        source="scope.name", allow_null=True, default=None, help_text="The default entity."
    )
    created = serializers.DateTimeField()
    updated = serializers.DateTimeField()


class TurnPageOutput(serializers.Serializer):
    """Which page of the conversation's turns `turns` holds (pages of 50, oldest first)."""

    number = serializers.IntegerField()
    count = serializers.IntegerField(help_text="Pages in all.")
    size = serializers.IntegerField(help_text="Turns a page holds.")
    previous = serializers.IntegerField(allow_null=True, help_text="The page before, if any.")
    next = serializers.IntegerField(allow_null=True, help_text="The page after, if any.")


class ConversationDetailOutput(ConversationOutput):
    turns = TurnOutput(many=True)
    page = TurnPageOutput()


class AskOutput(serializers.Serializer):
    """The schema of an ask's body; `ask_body` renders it."""

    conversation = serializers.UUIDField(source="conversation.pk")
    turn = TurnOutput(source="answer")


def turn_body(turn: Turn) -> dict[str, Any]:
    """`TurnOutput(turn).data`, as a plain dict, for the ask's hot path: the serializer deep
    copies its fields for every call and walks them one by one; the stored JSON goes out as is
    either way. Same keys, order and values (tests/service/api/test_api_bodies.py)."""
    answers = turn.answers_id
    return {
        "id": str(turn.id),
        "position": turn.position,
        "role": str(turn.role),
        "origin": str(turn.origin),
        "text": turn.text,
        "status": str(turn.status),
        "refused": turn.refused,
        "figures": turn.figures,
        "sources": turn.sources,
        "intent": turn.intent,
        "carried": turn.carried,
        "reason": turn.reason,
        "choices": choices_body(turn.choices),
        "answers": None if answers is None else str(answers),
        "created": _datetime(turn.created),
        "withheld": False,  # an answer just given cites only what its asker may see
    }


def ask_body(stored: Any) -> dict[str, Any]:
    """`AskOutput(stored).data` as a plain dict: the conversation and the answer turn."""
    return {"conversation": str(stored.conversation.pk), "turn": turn_body(stored.answer)}


def _datetime(value: datetime) -> str:
    """DRF's DateTimeField rendering: ISO 8601 in the current time zone, UTC as Z."""
    if settings.USE_TZ and timezone.is_aware(value):
        value = value.astimezone(timezone.get_current_timezone())
    text = value.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


class FeedbackOutput(serializers.Serializer):
    id = serializers.IntegerField()
    turn = serializers.UUIDField(source="turn_id")
    value = serializers.ChoiceField(choices=Feedback.Value.choices)
    comment = serializers.CharField()
    created = serializers.DateTimeField()


class ErrorDetailDoc(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    field = serializers.CharField(required=False, help_text="The request field at fault.")


class ErrorDoc(serializers.Serializer):
    error = ErrorDetailDoc()


class AskErrorDoc(ErrorDoc):
    conversation = serializers.UUIDField(help_text="Where the failed question was stored.")
    turn = serializers.UUIDField(help_text="The stored question (status error).")


# --- input ------------------------------------------------------------------------------------


class AskInput(serializers.Serializer):
    question = StrictCharField(max_length=QUESTION_MAX, help_text="1 to 4,000 characters.")
    conversation = StrictUUIDField(required=False, help_text="Continue this stored conversation.")
    history = serializers.ListField(
        child=HistoryTurnField(),
        required=False,
        max_length=HISTORY_MAX_TURNS,
        help_text="Stateless clients: earlier turns as [role, text] pairs, oldest first "
        "(role user or assistant). Stored as client history in a new conversation.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "conversation" in attrs and "history" in attrs:
            raise serializers.ValidationError(
                {"history": "Give conversation or history, not both."}, code="conflict"
            )
        return attrs


def ask_input(data: Any) -> dict[str, Any]:
    """AskInput's validated data. The common body, a question and perhaps a conversation id
    that are plainly valid, is read here without building the serializer, whose fields DRF
    deep-copies on every request; anything else (history, unknown keys, anything DRF would
    refuse or change) goes through AskInput, so errors and edge cases are DRF's own."""
    plain = _plain_ask(data)
    if plain is not None:
        return plain
    serializer = AskInput(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


_PLAIN_KEYS = frozenset({"question", "conversation"})


def _plain_ask(data: Any) -> dict[str, Any] | None:
    if type(data) is not dict or not data.keys() <= _PLAIN_KEYS:
        return None
    question = data.get("question")
    if not isinstance(question, str):
        return None
    question = question.strip()  # CharField's trim_whitespace
    if not question or len(question) > QUESTION_MAX or "\x00" in question:
        return None
    try:
        question.encode()  # a lone surrogate cannot be encoded
    except UnicodeEncodeError:
        return None
    plain: dict[str, Any] = {"question": question}
    if "conversation" in data:
        conversation = data["conversation"]
        if not isinstance(conversation, str):
            return None
        try:
            plain["conversation"] = uuid.UUID(hex=conversation)  # UUIDField's hex_verbose
        except ValueError:
            return None
    return plain


class ConversationInput(serializers.Serializer):
    title = StrictCharField(max_length=TITLE_MAX, required=False, allow_blank=True)
    scope = StrictCharField(
        max_length=200, required=False, allow_null=True, help_text="The name of an entity."
    )


class RenameInput(serializers.Serializer):
    title = StrictCharField(max_length=TITLE_MAX, allow_blank=True)


class ConversationListQuery(serializers.Serializer):
    search = StrictCharField(max_length=200, required=False, allow_blank=True)


class TurnPageQuery(serializers.Serializer):
    page = serializers.IntegerField(min_value=1, max_value=10**9, required=False)


class FeedbackInput(serializers.Serializer):
    value = serializers.ChoiceField(choices=Feedback.Value.choices)
    comment = StrictCharField(max_length=COMMENT_MAX, required=False, allow_blank=True)
