"""What the answer page shows beside the frozen turn: provenance, how the question was
understood, the history window, the figures and readers' feedback.

Everything here is plain data for the templates, which escape it. The one piece of markup
built in Python is a passage excerpt with the cited figures wrapped in <mark> and the cited
sentences in a span, made with format_html so every bit of the excerpt is escaped.

Clearance (docs/adr/0029): an excerpt is shown only when both the classification frozen with
the source and the document's classification today are within the reader's clearance
(askapp.permissions.admin_clearance). An answer that cites material beyond it now is withheld
whole: the page shows no provenance, interpretation or figures for it, and its history panel
shows earlier withheld answers as a notice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from askapp.models import Citation, Document, Fact, Feedback, Turn
from askapp.selectors.reviews import Window
from askapp.services.citations import source_pointer
from engine import (
    Ambiguity,
    Answer,
    Carried,
    Intent,
    Mention,
    Source,
    cited_pieces,
    decimal_text,
    figure_spans,
    figures_in,
    format_value,
    intent_topic,
)

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


def provenance(turn: Turn, *, clearance: frozenset[str]) -> tuple[list[FactRow], list[PassageRow]]:
    """One row per frozen source, with what the knowledge base holds today. Two queries."""
    answer = turn.to_engine()
    pointers = [source_pointer(s) for s in answer.sources]
    fact_ids = {p.fact_id for p in pointers if p and p.fact_id is not None}
    document_ids = {p.document_id for p in pointers if p and p.document_id is not None}
    facts = Fact.objects.select_related("entity", "metric").in_bulk(fact_ids)
    documents = Document.objects.only("pk", "classification").in_bulk(document_ids)
    cited = cited_figures(answer)
    fact_rows, passage_rows = [], []
    for source, pointer in zip(answer.sources, pointers, strict=True):
        if pointer is None:
            continue
        if pointer.kind == "fact":
            fact_rows.append(_fact_row(source, facts.get(pointer.fact_id or 0)))
        else:
            document = documents.get(pointer.document_id or 0)
            passage_rows.append(_passage_row(source, document, cited, clearance))
    return fact_rows, passage_rows


def _fact_row(source: Source, fact: Fact | None) -> FactRow:
    value = decimal_text(source.value) or ""
    value_now = None
    if fact is not None and decimal_text(fact.value) != value:
        value_now = f"{decimal_text(fact.value)} {fact.unit}".strip()
    unit = source.unit or ""
    return FactRow(
        source_id=source.id,
        entity=source.entity or "",
        metric=source.metric or "",
        period=source.period or "",
        value=value,
        unit=unit,
        display=value if source.value is None else format_value(source.value, unit),
        reference=source.reference,
        classification=source.classification,
        url=reverse("admin:askapp_fact_change", args=[fact.pk]) if fact else "",
        value_now=value_now,
    )


def _passage_row(
    source: Source,
    document: Document | None,
    cited: set[Mention],
    clearance: frozenset[str],
) -> PassageRow:
    frozen = source.classification
    now = document.classification if document else ""
    hidden = ""
    if frozen not in clearance:
        hidden = f"its classification when cited was {frozen or 'unknown'}"
    elif now and now not in clearance:
        hidden = f"the document is {now} now"
    return PassageRow(
        source_id=source.id,
        title=source.title,
        reference=source.reference,
        classification=frozen,
        document_url=(
            reverse("admin:askapp_document_change", args=[document.pk]) if document else ""
        ),
        classification_now=now if now != frozen else "",
        excerpt=None if hidden else highlight(source.excerpt, cited, source.spans),
        hidden_because=hidden,
    )


def cited_figures(answer: Answer) -> set[Mention]:
    """The figures the answer states: in its text and in its figures list."""
    texts = [answer.text, *(f.display for f in answer.figures)]
    return {figure for text in texts for figure in figures_in(text)}


def highlight(
    text: str, cited: set[Mention], sentences: Sequence[tuple[int, int]] = ()
) -> SafeString:
    """`text`, escaped, with each figure the answer cites wrapped in <mark> and each sentence
    it cites (`sentences`: offsets into `text`) in <span class="cited-sentence">."""
    segments = []
    for start, end, sentence in cited_pieces(text, sentences):
        marked = _marked_figures(text, start, end, cited)
        segments.append(
            (format_html('<span class="cited-sentence">{}</span>', marked) if sentence else marked,)
        )
    return format_html_join("", "{}", segments)


def _marked_figures(text: str, start: int, end: int, cited: set[Mention]) -> SafeString:
    pieces: list[tuple[str, str]] = []
    position = start
    for begin, stop, figure in figure_spans(text[start:end]):
        if _is_cited(figure, cited):
            pieces.append((text[position : start + begin], text[start + begin : start + stop]))
            position = start + stop
    marked = format_html_join("", "{}<mark>{}</mark>", pieces)
    return format_html("{}{}", marked, text[position:end])


def _is_cited(figure: Mention, cited: set[Mention]) -> bool:
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
    ambiguous: Sequence[Ambiguity] = ()
    qualifiers: Sequence[str] = ()
    loose: Sequence[str] = ()
    topic: Sequence[str] = ()  # the words passages were measured against (narrative answers)
    carried: Sequence[CarriedRow] = field(default_factory=list)


def interpretation(turn: Turn, window: Window) -> Interpretation:
    """The resolved intent frozen with the answer, and where each carried slot came from.
    One query (the answers to the earlier questions, for their links)."""
    if not turn.intent:
        return Interpretation(parsed=False)
    answer = turn.to_engine()
    intent = Intent.from_dict(turn.text, answer.intent)
    return Interpretation(
        parsed=True,
        kind=intent.kind,
        operation=intent.operation or "",
        entities=intent.entities,
        metrics=intent.metrics,
        periods=intent.periods,
        period_range=intent.period_range,
        follow_up=intent.follow_up,
        ambiguous=intent.ambiguous,
        qualifiers=intent.qualifiers,
        loose=intent.loose,
        topic=intent_topic(intent.topic).written if intent.kind == "narrative" else (),
        carried=_carried_rows(answer.carried, window),
    )


def _carried_rows(carried: Sequence[Carried], window: Window) -> list[CarriedRow]:
    questions = {c.from_turn: window.question(c.from_turn) for c in carried}
    answers = dict(
        Turn.objects.filter(answers__in=[q for q in questions.values() if q is not None])
        .values_list("answers", "pk")
    ) if any(questions.values()) else {}  # fmt: skip
    rows = []
    for item in carried:
        question = questions.get(item.from_turn)
        answer = answers.get(question.pk) if question is not None else None
        rows.append(
            CarriedRow(
                slot=item.slot,
                value=item.value,
                from_turn=item.from_turn,
                question=question.text if question is not None else item.question,
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
    role: str = ""  # fact, change, ratio, share, sum ... (what a later question may name)
    formula: str = ""  # a computed figure: how, with each operand's value and source


def figure_rows(turn: Turn) -> list[FigureRow]:
    return [
        FigureRow(
            label=f.label,
            display=f.display,
            value=decimal_text(f.value) or "",
            unit=f.unit,
            kind=f.kind,
            sources=[(s, _fact_url(s)) for s in f.sources],
            role=f.role_or_kind,
            formula=f.formula,
        )
        for f in turn.to_engine().figures
    ]


def _fact_url(source_id: str) -> str:
    """A fact's admin page; for a figure read from a passage's sentence (ADR 0041), the
    provenance panel on this page, where the passage shows that sentence marked."""
    pointer = source_pointer({"id": source_id})
    if pointer is None:
        return ""
    if pointer.fact_id is None:
        return "#provenance" if pointer.kind == Citation.Kind.PASSAGE else ""
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
    withheld: bool = False


def answer_panels(turn: Turn, window: Window, *, clearance: frozenset[str]) -> Panels:
    if getattr(turn, "withheld", False):
        return Panels(
            facts=[],
            passages=[],
            interpretation=Interpretation(parsed=False),
            window=window,
            figures=[],
            feedback=feedback_rows(turn),
            withheld=True,
        )
    facts, passages = provenance(turn, clearance=clearance)
    return Panels(
        facts=facts,
        passages=passages,
        interpretation=interpretation(turn, window),
        window=window,
        figures=figure_rows(turn),
        feedback=feedback_rows(turn),
    )
