"""Reads over conversations, always through an Owner: nobody reads another's conversation."""

from __future__ import annotations

import functools
import json
import uuid
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.db.models import Case, Exists, F, OuterRef, Q, QuerySet, TextField, When
from django.db.models.functions import Cast

from askapp.errors import Invalid, NotFound
from askapp.models import Conversation, Entity, Feedback, Turn
from askapp.owners import Owner
from askapp.permissions import PUBLIC_ONLY
from askapp.selectors.clearance import cites_beyond, turns_shown, visible_entities, withheld
from askapp.selectors.compiled import CompiledRead, Slot


def conversation_list(
    *, owner: Owner | None, search: str = "", clearance: frozenset[str] = PUBLIC_ONLY
) -> QuerySet[Conversation]:
    """The owner's conversations, most recently active first; `search` matches the title or
    the text of any turn the owner may still read (case-insensitive). No owner (a visitor
    without a session) owns none."""
    if owner is None:
        return Conversation.objects.none()
    conversations = Conversation.objects.filter(owner.conversations()).select_related("scope")
    search = search.strip()
    if search:
        in_turns = Turn.objects.filter(
            turns_shown(clearance), conversation=OuterRef("pk"), text__icontains=search
        )
        conversations = conversations.filter(Q(title__icontains=search) | Exists(in_turns))
    return conversations.order_by("-updated", "-pk")


def conversation_get(*, owner: Owner, conversation_id: uuid.UUID | str) -> Conversation:
    """The owner's conversation with its scope, in one query; NotFound for anyone else's."""
    try:
        return Conversation.objects.select_related("scope").get(
            owner.conversations(), pk=_uuid(conversation_id)
        )
    except Conversation.DoesNotExist:
        raise _no_conversation() from None


def _no_conversation() -> NotFound:
    return NotFound(
        "No conversation with this id belongs to you (it may have been deleted).",
        code="conversation_not_found",
        field="conversation",
    )


def _uuid(value: uuid.UUID | str) -> uuid.UUID:
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise _no_conversation() from None


def conversation_turns(
    *,
    conversation: Conversation,
    clearance: frozenset[str] = PUBLIC_ONLY,
    positions: tuple[int, int] | None = None,
) -> list[Turn]:
    """The turns (those at `positions`, first and last, when given), oldest first, each marked
    `withheld` when its exchange cites material the reader may no longer see
    (askapp.selectors.clearance)."""
    turns = Turn.objects.filter(conversation=conversation).annotate(withheld=withheld(clearance))
    if positions is not None:
        turns = turns.filter(position__gte=positions[0], position__lte=positions[1])
    return list(turns.order_by("position"))


TURNS_PER_PAGE = 50  # a page of a conversation: its latest 50 turns, with links to the rest


@dataclass(frozen=True, slots=True)
class TurnPage:
    """One page of a conversation's turns, by position: gap-free from 1, so the conversation's
    last position counts them without a query."""

    number: int
    count: int  # pages in all
    size: int

    @property
    def positions(self) -> tuple[int, int]:
        return (self.number - 1) * self.size + 1, self.number * self.size

    @property
    def previous(self) -> int | None:
        return self.number - 1 if self.number > 1 else None

    @property
    def next(self) -> int | None:
        return self.number + 1 if self.number < self.count else None


def turn_page(
    *, conversation: Conversation, asked: str | int | None, size: int = TURNS_PER_PAGE
) -> TurnPage:
    """The page `asked` (a number), the latest when absent or out of range."""
    count = turn_page_count(conversation=conversation, size=size)
    number = int(asked) if str(asked or "").isdigit() else count
    return TurnPage(number=min(max(number, 1), count), count=count, size=size)


def turn_page_count(*, conversation: Conversation, size: int = TURNS_PER_PAGE) -> int:
    """How many pages of `size` turns the conversation fills (one when it has none)."""
    return max(1, -(-conversation.last_position // size))


def questions_before(*, question: Turn) -> list[Turn]:
    """The conversation's questions before this one, oldest first (their text and position)."""
    return list(
        Turn.objects.filter(
            conversation_id=question.conversation_id,
            role=Turn.Role.USER,
            position__lt=question.position,
        )
        .order_by("position")
        .only("id", "text", "position")
    )


def question_answers(*, question: Turn, clearance: frozenset[str] = PUBLIC_ONLY) -> list[Turn]:
    """The question's answers, each marked `withheld` as `conversation_turns` marks them."""
    answers = question.answer_turns.annotate(withheld=withheld(clearance))
    return list(answers.order_by("position"))


def owner_verdicts(*, owner: Owner | None, turns: list[Turn]) -> dict[str, str]:
    """The owner's own feedback (up or down) on each of these answers, by turn id."""
    answers = [t.pk for t in turns if t.role == Turn.Role.ASSISTANT]
    if owner is None or not answers:
        return {}
    mine = Feedback.objects.filter(turn_id__in=answers)
    if owner.user_id is not None:
        mine = mine.filter(user_id=owner.user_id)
    else:
        mine = mine.filter(user__isnull=True, visitor=owner.visitor)
    return {str(turn_id): value for turn_id, value in mine.values_list("turn_id", "value")}


class RecentTurn(NamedTuple):
    """What rebuilding a session reads of a stored turn (see services.asking). The intent
    and figures come as their stored JSON text: session_from_turns decodes a text once a
    process (askapp/models/conversations.py). A named tuple, made from the row's slice as it
    is: a frozen dataclass's init cost 2 us a turn, 40 us a window (docs/adr/0073)."""

    pk: Any  # as the database gives it (hex text on SQLite), only compared with the same read's
    role: str
    text: str
    status: str
    intent_json: str | None  # a question's; None for an answer
    figures_json: str | None  # an answer's figures: the results a later question may name
    withheld: bool  # its exchange cites what the asker may no longer see (0 or 1 on SQLite)

    @property
    def intent(self) -> dict[str, Any] | None:
        return None if self.intent_json is None else json.loads(self.intent_json)

    @property
    def figures(self) -> list[Any]:
        return json.loads(self.figures_json) if self.figures_json else []


_recent_turn = RecentTurn._make


@dataclass(frozen=True, slots=True)
class Recent:
    """A conversation, the name of its scope, and its last turns, oldest first."""

    conversation: Conversation
    scope: str | None
    turns: list[RecentTurn]


# A question's intent only: an answer's is never read back into a session, and decoding it
# was a third of the read's cost.
_TURN_COLUMNS = ("pk", "role", "text", "status", "question_intent", "figures_json", "withheld")
# Read as `cites` (the turn's own citations beyond the clearance) and the question a turn
# answers: a question is withheld with its answer, and its answers are in the window whenever
# it is (they come after it), so one subquery a row marks both (docs/adr/0080).
_READ_COLUMNS = (*_TURN_COLUMNS[:-1], "cites", "answers_id")
# What an ask needs of the conversation; the rest (title, counter, timestamps) stays deferred,
# as converting two timestamps on each of the window's rows cost more than the query. Its id
# is the one asked for, not read (nor converted) on every row.
_CONVERSATION_FIELDS = ("owner_id", "visitor", "scope_id")


def conversation_with_recent_turns(
    *,
    owner: Owner,
    conversation_id: uuid.UUID | str,
    limit: int,
    clearance: frozenset[str] = PUBLIC_ONLY,
) -> Recent:
    """The owner's conversation, its scope's name and its last `limit` turns, oldest first,
    each marked `withheld` when its exchange cites material beyond `clearance` now.

    One query: the turns come with their conversation joined, through the (conversation,
    position) index, so the cost is the same for 2 turns or 2,000; the withheld mark is a
    subquery of the same statement, compiled to SQL once a process (askapp/selectors/
    compiled.py). Rows come as values, not model instances (a Turn and a Conversation per
    row cost more than the query), and only the columns a session is rebuilt from (figures
    among them: an answer's results are operands of later questions); frozen sources stay
    in the database. A conversation without turns (or a window of 0) costs a second, small
    query.
    """
    rows: list[tuple[Any, ...]] = []
    asked = _uuid(conversation_id)
    if limit > 0:
        read = _recent_turns_read(owner.user_id is not None, clearance, limit, Turn.objects.db)
        rows = read.rows(owner=owner.user_id or owner.visitor, conversation=asked)
    if not rows:
        conversation = conversation_get(owner=owner, conversation_id=conversation_id)
        scope = conversation.scope.name if conversation.scope_id else None
        return Recent(conversation, scope, [])
    width = len(_READ_COLUMNS)
    newest = rows[0]
    conversation = Conversation.from_db(
        Turn.objects.db, ["id", *_CONVERSATION_FIELDS], (asked, *newest[width:-1])
    )
    return Recent(conversation, newest[-1], _marked(rows))


_CITES, _ANSWERS = len(_TURN_COLUMNS) - 1, len(_TURN_COLUMNS)


def _marked(rows: list[tuple[Any, ...]]) -> list[RecentTurn]:
    """The window's turns, oldest first, each withheld when it or an answer to it cites
    beyond the clearance (as clearance.withheld marks them)."""
    answered_beyond = {row[_ANSWERS] for row in rows if row[_CITES]}
    return [
        _recent_turn((*row[:_CITES], bool(row[_CITES]) or row[0] in answered_beyond))
        for row in reversed(rows)
    ]


_QUESTION_INTENT = Cast(
    Case(When(role=Turn.Role.USER, then=F("intent")), output_field=Turn._meta.get_field("intent")),
    TextField(),
)
_FIGURES_TEXT = Cast("figures", TextField())
# Stand-ins the recent-turns read is compiled with, replaced by each call's own values.
_SOME_USER = -(2**31) + 7
_SOME_VISITOR = "\x00a visitor"
_SOME_CONVERSATION = uuid.UUID("5e471ce1-0000-4000-8000-00000000c0de")


@functools.lru_cache(maxsize=64)
def _recent_turns_read(
    by_user: bool, clearance: frozenset[str], limit: int, using: str
) -> CompiledRead:
    """The recent-turns statement for one kind of owner, clearance and window, compiled once."""
    owner = Owner(user_id=_SOME_USER) if by_user else Owner(visitor=_SOME_VISITOR)
    turns = Turn.objects.using(using).filter(owner.turns(), conversation_id=_SOME_CONVERSATION)
    columns = (*_READ_COLUMNS, *(f"conversation__{f}" for f in _CONVERSATION_FIELDS))
    queryset = (
        turns.annotate(
            cites=cites_beyond(clearance),
            question_intent=_QUESTION_INTENT,
            figures_json=_FIGURES_TEXT,
        )
        .order_by("-position")
        .values_list(*columns, "conversation__scope__name")[:limit]
    )
    owner_field = get_user_model()._meta.pk if by_user else Conversation._meta.get_field("visitor")
    return CompiledRead(
        queryset,
        {
            "owner": Slot(_SOME_USER if by_user else _SOME_VISITOR, owner_field),
            "conversation": Slot(_SOME_CONVERSATION, Conversation._meta.pk),
        },
        # A turn's id only tells the window's withheld turns apart (session_from_turns):
        # never made a UUID, 20 a read; the withheld mark is only tested for truth (SQLite's
        # 0 or 1). No row is converted.
        # The question a turn answers is only compared with the same read's ids.
        unconverted=frozenset({_READ_COLUMNS.index(c) for c in ("pk", "cites", "answers_id")}),
    )


def turn_get(*, owner: Owner, turn_id: uuid.UUID | str) -> Turn:
    missing = NotFound("No turn with this id belongs to you.", code="turn_not_found")
    try:
        return Turn.objects.get(owner.turns(), pk=uuid.UUID(str(turn_id)))
    except (Turn.DoesNotExist, ValueError):
        raise missing from None


def entity_by_name(*, name: str, clearance: frozenset[str]) -> Entity:
    """The entity a scope names: by name, ignoring case, or by one of its aliases; among
    those the reader may learn exist (a name only material above their clearance names is
    answered exactly as a name nobody knows)."""
    wanted = name.strip()
    entities = visible_entities(clearance=clearance)
    match = entities.filter(name__iexact=wanted).first()
    if match is not None:
        return match
    folded = wanted.casefold()
    for entity in entities.exclude(aliases=[]):
        if any(str(alias).casefold() == folded for alias in entity.aliases):
            return entity
    raise Invalid(
        f"No entity in the knowledge base is called {wanted!r}.",
        code="unknown_entity",
        field="scope",
    )
