"""How stored turns read on the chat page: exchanges, carried slots, sources and charts.

Pure functions over stored turns (no queries, no writes; a turn read with the `withheld` mark
of askapp.selectors.clearance shows only that it is withheld), so the conversation page and the
single-answer fragment the script fetches after a stream render an answer from one source of
truth: the turn as stored, read back as the engine's values (`Turn.to_engine()`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from askapp.models import Turn
from askapp.selectors.clearance import WITHHELD_TEXT
from engine import SCOPE, Answer, Carried, Choice, Figure, Source, cited_pieces, format_value

SLOT_WORDS = {
    "entity": "company",
    "metric": "metric",
    "period": "period",
    "operation": "calculation",
    "scope": "scope",
    "result": "",  # its value says what it is: "the change of USD 35.80"
}
ORDINALS = (
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
)
# What each status is called on the page; the engine's statuses, plus the question-only error.
STATUS_LABELS = {
    Turn.Status.FOUND: "Found in the knowledge base",
    Turn.Status.ANSWERED: "Answered from documents",
    Turn.Status.NOT_FOUND: "Not in the knowledge base",
    Turn.Status.BLOCKED: "Not answered",
    Turn.Status.CLARIFY: "A question back",
    Turn.Status.ERROR: "Could not answer",
}
_CITATION = re.compile(r"\[(\d{1,3})\]")


# --- exchanges ------------------------------------------------------------------------------


@dataclass
class Exchange:
    """A question and what answered it (nothing, when the answer failed)."""

    question: Turn | None
    answers: list[Turn] = field(default_factory=list)
    ordinal: int = 0  # the question's number among the conversation's questions

    @property
    def failed(self) -> bool:
        return (
            self.question is not None
            and not self.answers
            and self.question.status == Turn.Status.ERROR
        )

    @property
    def supplied(self) -> bool:
        """Turns a stateless client gave as history: shown, but nothing here answered them."""
        first = self.question or (self.answers[0] if self.answers else None)
        return first is not None and first.origin == Turn.Origin.CLIENT_HISTORY


def exchanges(turns: Iterable[Turn], *, asked_before: int = 0) -> list[Exchange]:
    """Group turns (in position order) into question-and-answers exchanges; `asked_before`
    counts the questions before the first turn given."""
    grouped: list[Exchange] = []
    ordinal = asked_before
    for turn in turns:
        if turn.role == Turn.Role.USER:
            ordinal += 1
            grouped.append(Exchange(question=turn, ordinal=ordinal))
        elif grouped and (turn.answers_id is None or turn.answers_id == _question_id(grouped)):
            grouped[-1].answers.append(turn)
        else:
            grouped.append(Exchange(question=None, answers=[turn]))
    return grouped


def _question_id(grouped: list[Exchange]) -> Any:
    question = grouped[-1].question
    return question.pk if question is not None else None


# --- how the question was understood --------------------------------------------------------


@dataclass(frozen=True)
class CarriedNote:
    """'company and metric carried from your first question' and the question it names, or
    for a slot that came from no question, why it was filled ('the only company ...')."""

    slots: str
    source: str
    question: str
    reason: str = ""

    @property
    def sentence(self) -> str:
        """The note as one line of plain text (for the copied Markdown)."""
        slots = self.slots[:1].upper() + self.slots[1:]
        if self.reason:
            return f"{slots}: {self.reason}."
        asked = f": “{self.question}”" if self.question else ""
        return f"{slots} carried from {self.source}{asked}."


def understood(intent: Mapping[str, Any] | None) -> str:
    """The resolved slots, 'Apple · Revenue · FY2022', or '' when the intent names none."""
    intent = intent or {}
    parts = [
        ", ".join(str(v) for v in intent.get(key) or ())
        for key in ("entities", "metrics", "periods")
    ]
    return " · ".join(part for part in parts if part)


def carried_notes(
    carried: Sequence[Carried], earlier_questions: Sequence[Turn]
) -> list[CarriedNote]:
    """What the session filled in for an answer, grouped by the question it came from.

    `earlier_questions` are the conversation's question turns before this one, oldest first:
    the stored question text names which of them a slot came from (the session's own
    `from_turn` counts only the questions inside its window).
    """
    groups: dict[tuple[int, str], list[str]] = {}
    for item in carried:
        word = SLOT_WORDS.get(item.slot, item.slot)
        groups.setdefault((item.from_turn, item.question), []).append(
            f"{word} {item.value}".strip()
        )
    notes = []
    for (from_turn, question), slots in groups.items():
        if from_turn == 0 and question not in ("", SCOPE):
            notes.append(CarriedNote(slots=_and(slots), source="", question="", reason=question))
            continue
        if from_turn == 0:
            source, question = "this conversation's scope", ""
        else:
            number = _question_number(question, from_turn, earlier_questions)
            source = f"your {_ordinal(number)} question"
        notes.append(CarriedNote(slots=_and(slots), source=source, question=question))
    return notes


def _question_number(text: str, from_turn: int, earlier: Sequence[Turn]) -> int:
    for number in range(len(earlier), 0, -1):
        if earlier[number - 1].text == text:
            return number
    return from_turn


def _ordinal(number: int) -> str:
    return ORDINALS[number - 1] if 1 <= number <= len(ORDINALS) else f"number {number}"


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def reason_label(reason: str) -> str:
    """A gate or failure reason code as words: 'instruction_override' -> 'instruction override'."""
    return reason.replace("_", " ").strip()


# --- sources and citations ------------------------------------------------------------------


@dataclass(frozen=True)
class ExcerptPart:
    text: str
    cited: bool  # a sentence the answer cites: marked on the page


@dataclass(frozen=True)
class SourceView:
    number: int
    anchor: str
    data: Source
    value: str = ""  # a fact's exact value with its unit: "USD 383,285,000,000"
    shown_as: str = ""  # how the answer states it: "USD 383.3 billion"

    @property
    def is_fact(self) -> bool:
        return self.data.kind == "fact"

    @property
    def excerpt(self) -> list[ExcerptPart]:
        """A passage's excerpt cut where the sentences the answer cites begin and end."""
        return excerpt_parts(self.data.excerpt, self.data.spans)


def excerpt_parts(excerpt: str, spans: Sequence[tuple[int, int]]) -> list[ExcerptPart]:
    """The excerpt as plain and cited parts, in order."""
    return [ExcerptPart(excerpt[a:b], cited) for a, b, cited in cited_pieces(excerpt, spans)]


def sources(turn: Turn, answer: Answer) -> list[SourceView]:
    """The answer's sources, numbered as its citations number them."""
    displays: dict[str, str] = {}
    for figure in answer.figures:
        if figure.kind == "fact":
            for source_id in figure.sources:
                displays.setdefault(source_id, figure.display)
    views = []
    for number, source in enumerate(answer.sources, start=1):
        value = ""
        if source.kind == "fact":
            value = exact_value(source.value, source.unit or "")
        views.append(
            SourceView(
                number=number,
                anchor=f"answer-{turn.pk}-source-{number}",
                data=source,
                value=value,
                shown_as=displays.get(source.id, ""),
            )
        )
    return views


def exact_value(number: Decimal | None, unit: str) -> str:
    """A fact's value grouped in thousands, never rounded: 'USD 383,285,000,000'."""
    if number is None:
        return ""
    grouped = f"{number:,f}"
    if unit == "%":
        return f"{grouped}%"
    if unit.isalpha() and unit.isupper():
        return f"{unit} {grouped}"
    return f"{grouped} {unit}".strip()


def citation_parts(text: str, count: int) -> list[tuple[str, int]]:
    """Split an answer into (text, 0) and (marker, source number) parts; a marker with no
    source behind it stays plain text."""
    parts: list[tuple[str, int]] = []
    last = 0
    for match in _CITATION.finditer(text):
        number = int(match.group(1))
        if not 1 <= number <= count:
            continue
        if match.start() > last:
            parts.append((text[last : match.start()], 0))
        parts.append((match.group(0), number))
        last = match.end()
    if last < len(text):
        parts.append((text[last:], 0))
    return parts


# --- charts ---------------------------------------------------------------------------------

CHART_WIDTH = 360
CHART_PAD = 4
ROW_HEIGHT = 40
BAR_HEIGHT = 14


@dataclass(frozen=True)
class Bar:
    label: str
    display: str
    value: Decimal
    x: float
    width: float
    label_y: float
    bar_y: float
    negative: bool


@dataclass(frozen=True)
class Chart:
    title: str
    description: str
    bars: tuple[Bar, ...]
    width: int
    height: int
    zero_x: float
    bar_height: int
    has_negative: bool
    anchor: str

    @property
    def right(self) -> int:
        return self.width - CHART_PAD


def chart(turn: Turn, answer: Answer) -> Chart | None:
    """A bar chart when the answer states two or more figures of one metric and unit (across
    periods or companies); None otherwise. Computed figures (a change, a ratio) are left out:
    they are in the text, and a change drawn beside the values it came from would mislead."""
    if answer.status != Turn.Status.FOUND:
        return None
    groups: dict[tuple[str, str], list[Figure]] = {}
    for figure in answer.figures:
        if figure.kind == "fact":
            groups.setdefault((figure.metric or "", figure.unit), []).append(figure)
    if not groups:
        return None
    (metric, unit), figures = max(groups.items(), key=lambda item: len(item[1]))
    if len(figures) < 2:
        return None
    entities = {f.entity or "" for f in figures}
    periods = {f.period or "" for f in figures}
    if len(entities) == 1:
        labels = [f.period or f.label for f in figures]
        (entity,) = entities
        title = f"{entity} · {metric} by period".strip(" ·")
    elif len(periods) == 1:
        labels = [f.entity or f.label for f in figures]
        (period,) = periods
        title = f"{metric} in {period} by company".strip()
    else:
        labels = [f"{f.entity} {f.period}" for f in figures]
        title = f"{metric} by company and period"
    if len(set(labels)) != len(labels):
        return None
    return _layout(turn, title, unit, labels, figures)


def _layout(turn: Turn, title: str, unit: str, labels: list[str], figures: list[Figure]) -> Chart:
    values = [f.value for f in figures]
    low, high = min(Decimal(0), *values), max(Decimal(0), *values)
    span = (high - low) or Decimal(1)
    inner = CHART_WIDTH - 2 * CHART_PAD

    def x_of(value: Decimal) -> float:
        return CHART_PAD + float((value - low) / span) * inner

    zero_x = x_of(Decimal(0))
    bars = []
    for row, (label, figure, value) in enumerate(zip(labels, figures, values, strict=True)):
        end = x_of(value)
        top = row * ROW_HEIGHT
        bars.append(
            Bar(
                label=label,
                display=figure.display or format_value(value, unit),
                value=value,
                x=round(min(zero_x, end), 1),
                width=round(max(abs(end - zero_x), 1.0), 1),
                label_y=top + 14,
                bar_y=top + 20,
                negative=value < 0,
            )
        )
    described = "; ".join(f"{bar.label}: {bar.display}" for bar in bars)
    has_negative = any(bar.negative for bar in bars)
    note = " Hatched bars are below zero." if has_negative else ""
    return Chart(
        title=title,
        description=f"Bar chart of {len(bars)} values. {described}.{note}",
        bars=tuple(bars),
        width=CHART_WIDTH,
        height=len(bars) * ROW_HEIGHT + 4,
        zero_x=round(zero_x, 1),
        bar_height=BAR_HEIGHT,
        has_negative=has_negative,
        anchor=f"chart-{turn.pk}",
    )


# --- one answer, ready for its template -----------------------------------------------------


@dataclass(frozen=True)
class Citation:
    text: str
    source: SourceView | None = None


@dataclass(frozen=True)
class AnswerView:
    turn: Turn
    label: str
    understood: str
    carried: list[CarriedNote]
    text: list[Citation]
    sources: list[SourceView]
    chart: Chart | None
    reason: str
    verdict: str = ""  # the reader's own feedback: up, down or empty
    choices: list[Choice] = field(default_factory=list)
    ordinal: int = 0  # the number of the question it answers, for unique region names
    withheld: bool = False  # it cites material the reader may no longer see

    @property
    def status(self) -> str:
        return "withheld" if self.withheld else self.turn.status

    @property
    def markdown(self) -> str:
        return answer_markdown(self)

    @property
    def entity(self) -> str:
        """The first company the question was understood to be about, or ''."""
        entities = () if self.withheld else (self.turn.intent or {}).get("entities") or ()
        return str(entities[0]) if entities else ""


CHOOSING = (Turn.Status.CLARIFY, Turn.Status.NOT_FOUND)


def answer_view(
    turn: Turn, earlier_questions: Sequence[Turn] = (), *, verdict: str = "", ordinal: int = 0
) -> AnswerView:
    """Everything the answer template shows. A not-found or blocked answer never shows a
    figure, a source or a chart, whatever the stored turn holds; a withheld one (it cites
    material the reader may no longer see) shows only the notice that it is withheld."""
    if getattr(turn, "withheld", False):
        return withheld_view(turn, verdict=verdict, ordinal=ordinal)
    status = turn.status
    answer = turn.to_engine()
    plain = status in (Turn.Status.NOT_FOUND, Turn.Status.BLOCKED, Turn.Status.ERROR)
    numbered = [] if plain else sources(turn, answer)
    by_number = {view.number: view for view in numbered}
    text = [
        Citation(part, by_number.get(number))
        for part, number in citation_parts(turn.text, len(numbered))
    ]
    return AnswerView(
        turn=turn,
        label=STATUS_LABELS.get(status, status),
        understood="" if status == Turn.Status.BLOCKED else understood(turn.intent),
        carried=carried_notes(answer.carried, earlier_questions),
        text=text,
        sources=numbered,
        chart=None if plain else chart(turn, answer),
        reason=reason_label(turn.reason),
        verdict=verdict,
        choices=list(answer.choices) if status in CHOOSING else [],
        ordinal=ordinal,
    )


def withheld_view(turn: Turn, *, verdict: str = "", ordinal: int = 0) -> AnswerView:
    return AnswerView(
        turn=turn,
        label="Withheld",
        understood="",
        carried=[],
        text=[Citation(WITHHELD_TEXT)],
        sources=[],
        chart=None,
        reason="",
        verdict=verdict,
        ordinal=ordinal,
        withheld=True,
    )


def answer_markdown(view: AnswerView) -> str:
    """The answer as Markdown: its text with the citation numbers, what was carried, and the
    numbered sources the numbers point to (what Copy puts on the clipboard)."""
    if view.withheld:
        return WITHHELD_TEXT + "\n"
    lines = [view.turn.text.strip()]
    if view.carried:
        lines += ["", *(f"_{note.sentence}_" for note in view.carried)]
    if view.sources:
        lines += ["", "Sources:", ""]
        lines += [f"{source.number}. {_source_line(source)}" for source in view.sources]
    return "\n".join(lines) + "\n"


def _source_line(source: SourceView) -> str:
    data = source.data
    if source.is_fact:
        parts = [data.title, source.value, data.reference]
        return ", ".join(part for part in parts if part)
    excerpt = " ".join(data.excerpt.split())
    if len(excerpt) > EXCERPT_IN_MARKDOWN:
        excerpt = excerpt[: EXCERPT_IN_MARKDOWN - 1].rsplit(" ", 1)[0] + "…"
    head = ", ".join(part for part in (data.title, data.reference) if part)
    return f"{head}: “{excerpt}”" if excerpt else head


EXCERPT_IN_MARKDOWN = 240


@dataclass
class ExchangeView:
    exchange: Exchange
    answers: list[AnswerView]

    @property
    def question(self) -> Turn | None:
        return self.exchange.question


def exchange_views(
    turns: Sequence[Turn],
    *,
    earlier: Sequence[Turn] = (),
    verdicts: Mapping[str, str] | None = None,
) -> list[ExchangeView]:
    """The exchanges of these turns, each answer with what its template shows. `earlier`
    are the conversation's questions before the first turn given, oldest first; `verdicts`
    the reader's feedback by answer id."""
    verdicts = verdicts or {}
    views = []
    asked: list[Turn] = list(earlier)
    for exchange in exchanges(turns, asked_before=len(asked)):
        answers = [
            answer_view(
                turn, asked, verdict=verdicts.get(str(turn.pk), ""), ordinal=exchange.ordinal
            )
            for turn in exchange.answers
        ]
        views.append(ExchangeView(exchange, answers))
        if exchange.question is not None:
            asked.append(exchange.question)
    return views
