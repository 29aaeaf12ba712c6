"""What the answer page shows beside the frozen turn: provenance, how the question was
understood, the history window, the figures and readers' feedback.

Everything here is plain data for the templates, which escape it. The one piece of markup
built in Python is a passage excerpt with the cited figures wrapped in <mark> and the cited
sentences in a span, made with format_html so every bit of the excerpt is escaped.

RESTRICTED (ADR 0004): an excerpt is shown only when both the classification frozen with the
source and the document's classification today are on the allow-list (PUBLIC, INTERNAL), or
the reader holds askapp.change_restricted_document. No RESTRICTED passage reaches an answer,
so a hidden excerpt means the document was reclassified after it was cited, or the frozen
record is damaged; either way its words stay out of view.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from askapp.models import Document, Fact, Feedback, Turn
from askapp.selectors.reviews import Window
from askapp.services.citations import source_pointer
from engine.grounding import Figure, figure_spans, figures_in
from engine.numbers import format_value
from engine.topic import intent_topic
from engine.types import SHOWABLE

# --- provenance ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FactRow:
    source_id: str
    entity: str
    metric: str
    period: str
    value: str
    unit: str
    display: str  # the value as answers write it: "USD 383.3 billion"
    reference: str
    classification: str
    url: str = ""  # the Fact in the admin; empty when it was deleted since
    value_now: str | None = None  # today's value, when it differs from the cited one


@dataclass(frozen=True, slots=True)
class PassageRow:
    source_id: str
    title: str
    reference: str
    classification: str
    document_url: str = ""
    classification_now: str = ""
    excerpt: SafeString | None = None  # None: hidden from this reader
    hidden_because: str = ""


def provenance(turn: Turn, *, may_see_restricted: bool) -> tuple[list[FactRow], list[PassageRow]]:
    """One row per frozen source, with what the knowledge base holds today. Two queries."""
    pointers = [source_pointer(s) for s in turn.sources]
    fact_ids = {p.fact_id for p in pointers if p and p.fact_id is not None}
    document_ids = {p.document_id for p in pointers if p and p.document_id is not None}
    facts = Fact.objects.select_related("entity", "metric").in_bulk(fact_ids)
    documents = Document.objects.only("pk", "classification").in_bulk(document_ids)
    cited = cited_figures(turn)
    fact_rows, passage_rows = [], []
    for source, pointer in zip(turn.sources, pointers, strict=True):
        if pointer is None:
            continue
        if pointer.kind == "fact":
            fact_rows.append(_fact_row(source, facts.get(pointer.fact_id or 0)))
        else:
            document = documents.get(pointer.document_id or 0)
            passage_rows.append(_passage_row(source, document, cited, may_see_restricted))
    return fact_rows, passage_rows


def _fact_row(source: Mapping[str, Any], fact: Fact | None) -> FactRow:
    value = str(source.get("value") or "")
    value_now = None
    if fact is not None and _number(fact.value) != value:
        value_now = f"{_number(fact.value)} {fact.unit}".strip()
    return FactRow(
        source_id=str(source.get("id")),
        entity=str(source.get("entity") or ""),
        metric=str(source.get("metric") or ""),
        period=str(source.get("period") or ""),
        value=value,
        unit=str(source.get("unit") or ""),
        display=_display(value, str(source.get("unit") or "")),
        reference=str(source.get("reference") or ""),
        classification=str(source.get("classification") or ""),
        url=reverse("admin:askapp_fact_change", args=[fact.pk]) if fact else "",
        value_now=value_now,
    )


def _passage_row(
    source: Mapping[str, Any],
    document: Document | None,
    cited: set[Figure],
    may_see_restricted: bool,
) -> PassageRow:
    frozen = str(source.get("classification") or "")
    now = document.classification if document else ""
    hidden = ""
    if not may_see_restricted:
        if frozen not in SHOWABLE:
            hidden = f"its classification when cited was {frozen or 'unknown'}"
        elif now and now not in SHOWABLE:
            hidden = f"the document is {now} now"
    excerpt = str(source.get("excerpt") or "")
    return PassageRow(
        source_id=str(source.get("id")),
        title=str(source.get("title") or ""),
        reference=str(source.get("reference") or ""),
        classification=frozen,
        document_url=(
            reverse("admin:askapp_document_change", args=[document.pk]) if document else ""
        ),
        classification_now=now if now != frozen else "",
        excerpt=None if hidden else highlight(excerpt, cited, cited_sentences(source)),
        hidden_because=hidden,
    )


def cited_figures(turn: Turn) -> set[Figure]:
    """The figures the answer states: in its text and in its figures list."""
    texts = [turn.text, *(str(f.get("display") or "") for f in turn.figures)]
    return {figure for text in texts for figure in figures_in(text)}


def highlight(
    text: str, cited: set[Figure], sentences: Sequence[tuple[int, int]] = ()
) -> SafeString:
    """`text`, escaped, with each figure the answer cites wrapped in <mark> and each sentence
    it cites (`sentences`: offsets into `text`) in <span class="cited-sentence">."""
    segments = []
    for start, end, sentence in excerpt_segments(text, sentences):
        marked = _marked_figures(text, start, end, cited)
        segments.append(
            (format_html('<span class="cited-sentence">{}</span>', marked) if sentence else marked,)
        )
    return format_html_join("", "{}", segments)


def excerpt_segments(
    text: str, sentences: Sequence[tuple[int, int]]
) -> list[tuple[int, int, bool]]:
    """(start, end, cited) pieces covering `text`; spans outside it are ignored."""
    pieces: list[tuple[int, int, bool]] = []
    position = 0
    for start, end in sorted(s for s in sentences if 0 <= s[0] < s[1] <= len(text)):
        start = max(start, position)
        if start >= end:
            continue
        if start > position:
            pieces.append((position, start, False))
        pieces.append((start, end, True))
        position = end
    pieces.append((position, len(text), False))
    return pieces


def _marked_figures(text: str, start: int, end: int, cited: set[Figure]) -> SafeString:
    pieces: list[tuple[str, str]] = []
    position = start
    for begin, stop, figure in figure_spans(text[start:end]):
        if _is_cited(figure, cited):
            pieces.append((text[position : start + begin], text[start + begin : start + stop]))
            position = start + stop
    marked = format_html_join("", "{}<mark>{}</mark>", pieces)
    return format_html("{}{}", marked, text[position:end])


def cited_sentences(source: Mapping[str, Any]) -> list[tuple[int, int]]:
    """The frozen source's cited_spans as (start, end) pairs; anything malformed is dropped."""
    spans = []
    for span in source.get("cited_spans") or ():
        try:
            spans.append((int(span["start"]), int(span["end"])))
        except (KeyError, TypeError, ValueError):
            continue
    return spans


def _is_cited(figure: Figure, cited: set[Figure]) -> bool:
    """The engine's grounding rule, read from the answer's side: a figure the answer states
    without a qualifier ("1,234") is cited by the same number written with one."""
    return any(c == figure or (not c.qualifier and c.number == figure.number) for c in cited)


# --- how the question was understood -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CarriedRow:
    slot: str
    value: str
    from_turn: int
    question: str  # the earlier question's text, or what a slot with from_turn 0 came from
    position: int | None = None  # the earlier question's position in the conversation
    url: str = ""  # the answer to the earlier question, in the admin


@dataclass(frozen=True, slots=True)
class Interpretation:
    parsed: bool
    kind: str = ""
    operation: str = ""
    entities: Sequence[str] = ()
    metrics: Sequence[str] = ()
    periods: Sequence[str] = ()
    period_range: bool = False
    follow_up: bool = False
    ambiguous: Sequence[Mapping[str, Any]] = ()
    qualifiers: Sequence[str] = ()
    loose: Sequence[str] = ()
    topic: Sequence[str] = ()  # the words passages were measured against (narrative answers)
    carried: Sequence[CarriedRow] = field(default_factory=list)


def interpretation(turn: Turn, window: Window) -> Interpretation:
    """The resolved intent frozen with the answer, and where each carried slot came from.
    One query (the answers to the earlier questions, for their links)."""
    intent = turn.intent or {}
    if not intent:
        return Interpretation(parsed=False)
    return Interpretation(
        parsed=True,
        kind=str(intent.get("kind") or ""),
        operation=str(intent.get("operation") or ""),
        entities=list(intent.get("entities") or ()),
        metrics=list(intent.get("metrics") or ()),
        periods=list(intent.get("periods") or ()),
        period_range=bool(intent.get("period_range")),
        follow_up=bool(intent.get("follow_up")),
        ambiguous=list(intent.get("ambiguous") or ()),
        qualifiers=list(intent.get("qualifiers") or ()),
        loose=list(intent.get("loose") or ()),
        topic=intent_topic(intent.get("topic") or ()).written
        if intent.get("kind") == "narrative"
        else (),
        carried=_carried_rows(turn.carried or [], window),
    )


def _carried_rows(carried: Iterable[Mapping[str, Any]], window: Window) -> list[CarriedRow]:
    carried = list(carried)
    questions = {
        int(c.get("from_turn") or 0): window.question(int(c.get("from_turn") or 0)) for c in carried
    }
    answers = dict(
        Turn.objects.filter(answers__in=[q for q in questions.values() if q is not None])
        .values_list("answers", "pk")
    ) if any(questions.values()) else {}  # fmt: skip
    rows = []
    for item in carried:
        number = int(item.get("from_turn") or 0)
        question = questions.get(number)
        answer = answers.get(question.pk) if question is not None else None
        rows.append(
            CarriedRow(
                slot=str(item.get("slot") or ""),
                value=str(item.get("value") or ""),
                from_turn=number,
                question=question.text if question is not None else str(item.get("question")),
                position=question.position if question is not None else None,
                url=reverse("admin:askapp_answerturn_change", args=[answer]) if answer else "",
            )
        )
    return rows


# --- figures and feedback ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FigureRow:
    label: str
    display: str
    value: str
    unit: str
    kind: str
    sources: Sequence[tuple[str, str]]  # (source id, its Fact in the admin or "")


def figure_rows(turn: Turn) -> list[FigureRow]:
    return [
        FigureRow(
            label=str(f.get("label") or ""),
            display=str(f.get("display") or ""),
            value=str(f.get("value") or ""),
            unit=str(f.get("unit") or ""),
            kind=str(f.get("kind") or ""),
            sources=[(str(s), _fact_url(str(s))) for s in f.get("sources") or ()],
        )
        for f in turn.figures
    ]


def _fact_url(source_id: str) -> str:
    pointer = source_pointer({"id": source_id})
    if pointer is None or pointer.fact_id is None:
        return ""
    return reverse("admin:askapp_fact_change", args=[pointer.fact_id])


def feedback_rows(turn: Turn) -> list[Feedback]:
    return list(Feedback.objects.filter(turn=turn).select_related("user").order_by("-created"))


# --- the page -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Panels:
    facts: list[FactRow]
    passages: list[PassageRow]
    interpretation: Interpretation
    window: Window
    figures: list[FigureRow]
    feedback: list[Feedback]


def answer_panels(turn: Turn, window: Window, *, may_see_restricted: bool) -> Panels:
    facts, passages = provenance(turn, may_see_restricted=may_see_restricted)
    return Panels(
        facts=facts,
        passages=passages,
        interpretation=interpretation(turn, window),
        window=window,
        figures=figure_rows(turn),
        feedback=feedback_rows(turn),
    )


def _display(value: str, unit: str) -> str:
    try:
        return format_value(Decimal(value), unit)
    except (InvalidOperation, ValueError):
        return value


def _number(value: Any) -> str:
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"
