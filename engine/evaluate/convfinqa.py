"""ConvFinQA: conversations over real 10-K report pages, each turn with the program of its answer.

Each dialogue's page is one entity ("Company"): its table read into facts by engine/tables.py
(cells as printed), its text around the table one document, cut into passages. The turns are
asked in order through one ConversationSession scoped to the page, with
`history=session.history()`, as a user of the chat page would ask them.

Each turn is scored in the product's own terms:
- correct: the figure the answer stands on equals the gold answer (the last computed figure when
  the answer computed any, else any fact figure it states). Ratio golds are fractions, so
  0.0362 and 3.62% are the same answer;
- wrong: the answer states figures and the one that counts differs from the gold;
- off-target: answered without a figure (passages quoted where a number was asked);
- refused: not found, clarify, blocked or error.

Turn kinds come from the gold program: a bare number is a lookup, a lone subtract a difference,
any divide a ratio or percent, anything else other arithmetic. A turn whose every operand (the
program's numbers, not its constants or references to earlier steps) is a number printed in the
page's table also counts under "operands in table": the knowledge base plainly holds those.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from engine.answer import Engine
from engine.evaluate.scoring import Scored, scored
from engine.evaluate.split import part_of
from engine.evaluate.tatqa import ENTITY, page_store
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.store import InMemoryStore
from engine.tables import parse_number
from engine.types import PUBLIC, Answer, Passage

OUTCOMES = ("correct", "wrong", "off-target", "refused")
KINDS = ("lookup", "difference", "ratio or percent", "other arithmetic")
IN_TABLE = "operands in table"
_REFUSALS = ("not_found", "clarify", "blocked", "error")
_STEP = re.compile(r"([a-z_]+)\(([^()]*)\)")
_PAGE_PREFIX = re.compile(r"^(?:Single|Double)_")
_DIALOGUE_SUFFIX = re.compile(r"-\d+$")
_SENTENCE_END = re.compile(r"(?<=\s\.)\s+|(?<=[a-z0-9]\.)\s+(?=[a-z(])")
_PASSAGE_CHARS = 600
_DECREASE = re.compile(r"\b(?:decrease|decline|drop|fall|fell|reduction|lower|less)", re.I)
# Golds are rounded to five decimals; an answer computed from the same operands lands within
# half a unit of the fifth decimal (a hair more after our own rounding to six places).
_TOLERANCE = Decimal("0.00006")
_SCALE_WORDS = {"thousand": Decimal(10**3), "million": Decimal(10**6), "billion": Decimal(10**9)}


def page_of(dialogue_id: str) -> str:
    """The report page a dialogue is about: "Double_HII/2017/page_104.pdf" -> "HII/2017/..."."""
    return _DIALOGUE_SUFFIX.sub("", _PAGE_PREFIX.sub("", dialogue_id))


def dialogue_store(dialogue: Mapping[str, Any]) -> InMemoryStore:
    page = page_of(dialogue["id"])
    rows = [[_cell(c) for c in row] for row in dialogue["table"]]
    text = f"{dialogue.get('pre_text', '')} {dialogue.get('post_text', '')}".strip()
    passages = [
        Passage(
            id=f"passage:{page}:{index}",
            document_id=page,
            title="Annual report page",
            text=chunk,
            classification=PUBLIC,
            entity=ENTITY,
        )
        for index, chunk in enumerate(_chunks(text))
    ]
    return page_store(page, rows, text, passages, before=dialogue.get("pre_text", ""))


def run_convfinqa(
    dialogues: Iterable[Mapping[str, Any]], *, limit: int | None = None
) -> list[Scored]:
    provider = MockProvider()
    results: list[Scored] = []
    for dialogue in dialogues:
        engine = Engine(dialogue_store(dialogue), provider)
        part = part_of(page_of(dialogue["id"]))
        printed = table_numbers(dialogue["table"])
        session = ConversationSession(scope=ENTITY)
        for turn in dialogue["turns"]:
            question = turn["question"]
            answer = engine.answer(question, session=session, history=session.history())
            outcome = score_turn(answer, turn["answer"], question)
            tags = [f"split {dialogue['split']}"]
            if operands_in_table(turn["program"], printed):
                tags.append(IN_TABLE)
            result = scored(turn_kind(turn["program"]), question, outcome, turn["program"],
                            answer, part=part, tags=tuple(tags))  # fmt: skip
            results.append(result)
            if limit and len(results) >= limit:
                return results
    return results


def score_turn(answer: Answer, gold: Any, question: str) -> str:
    if answer.status in _REFUSALS:
        return "refused"
    if not answer.figures:
        return "off-target"
    target = _decimal(gold)
    if target is None:
        return "wrong"
    computed = [f for f in answer.figures if f.kind == "computed"]
    candidates = computed[-1:] or list(answer.figures)
    # The convention TAT-QA's scoring states (docs/evaluation.md): a table files a figure as
    # negative where the gold states its amount, so an answer equal in magnitude counts when
    # every fact it used is negative, or the question asked for a decrease.
    facts = [f for f in answer.figures if f.kind == "fact"]
    all_negative = bool(facts) and all(f.value < 0 for f in facts)
    magnitude = bool(_DECREASE.search(question)) or all_negative
    if any(_equal(f.value, f.unit, target, magnitude) for f in candidates):
        return "correct"
    return "wrong"


def turn_kind(program: str) -> str:
    operations = [name for name, _ in _STEP.findall(program)]
    if not operations:
        return "lookup"
    if operations == ["subtract"]:
        return "difference"
    if "divide" in operations:
        return "ratio or percent"
    return "other arithmetic"


def operands_in_table(program: str, printed: frozenset[Decimal]) -> bool:
    operands = list(_operands(program))
    return bool(operands) and all(abs(o) in printed for o in operands)


def table_numbers(table: Sequence[Sequence[Any]]) -> frozenset[Decimal]:
    """Every number printed in a table's cells, as magnitudes (a table may print a negative
    as "( 56 )" while a program writes 56)."""
    numbers = set()
    for row in table:
        for cell in row[1:]:
            parsed = parse_number(_cell(cell))
            if parsed is not None:
                numbers.add(abs(parsed[0]).normalize())
    return frozenset(numbers)


def _operands(program: str) -> Iterator[Decimal]:
    steps = _STEP.findall(program)
    arguments = [a.strip() for _, args in steps for a in args.split(",")] if steps else [program]
    for argument in arguments:
        if argument.startswith(("#", "const_")):
            continue
        value = _decimal(argument)
        if value is not None:
            yield value.normalize()


def _equal(value: Decimal, unit: str, gold: Decimal, magnitude: bool) -> bool:
    readings = [value, value / 100] if unit == "%" else [value]
    if unit in _SCALE_WORDS:
        # "1,060 thousand" is the gold's 1060000 (a program that multiplies by 1000).
        readings.append(value * _SCALE_WORDS[unit])
    if magnitude:
        readings += [-r for r in readings]
    return any(abs(r - gold) <= _TOLERANCE + abs(gold) * Decimal("1e-6") for r in readings)


def _decimal(value: Any) -> Decimal | None:
    try:
        return Decimal(str(value).replace(",", ""))
    except InvalidOperation:
        return None


def _cell(value: Any) -> str:
    """A cell as printed. The reformatted split gives numbers as floats: 2014.0 -> "2014"."""
    if isinstance(value, (int, float)):
        text = format(Decimal(repr(value)), "f")
        return text.rstrip("0").rstrip(".") if "." in text else text
    return str(value)


def _chunks(text: str) -> Iterator[str]:
    """The page's text in passages of a few sentences."""
    chunk = ""
    for sentence in _SENTENCE_END.split(text):
        if chunk and len(chunk) + len(sentence) > _PASSAGE_CHARS:
            yield chunk
            chunk = ""
        chunk = f"{chunk} {sentence}".strip()
    if chunk:
        yield chunk
