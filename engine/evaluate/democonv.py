"""democonv: conversations over the shipped demo knowledge base that nobody tuned for.

The conversations (data/eval/democonv/) were written for askapp by one helper, as different
analysts would type them, before reading how the engine parses anything. Each turn carries a
program over the demo's fact rows in ConvFinQA's style, and its gold is computed from
data/demo/facts.csv by `gold_of` (data/eval/democonv/write.py writes the file), never typed:

- an operand is a fact row, written TICKER.metric.PERIOD ("AAPL.rev.FY2021", keys below);
- steps are add, subtract, multiply, divide (ConvFinQA's), `#N` is step N's result and
  `const_N` the number N: "subtract(AAPL.rev.FY2021, AAPL.rev.FY2020), divide(#0, ...)";
- `list(a, b, ...)`: the turn asks for several figures, all of which must be stated;
- `max(a, b)` / `min(a, b)`: "which was bigger": the winner's figure, and the winner named
  before the other;
- `absent(a)`: the row is not held (checked), so the gold is not_found; `clarify`: a careful
  analyst would ask back (which company?).

Each turn is scored as ConvFinQA's (engine/evaluate/convfinqa.py): correct, wrong figure,
off-target (answered without a figure), refused (not found, clarify, blocked, error). A turn
whose gold is not_found is correct when the engine refuses without a figure and wrong when it
gives a figure; one whose gold is clarify is correct only when the engine asks back. Ratio
golds are fractions (0.25 and 25% are the same answer). A figure matches its gold at the
precision it is stated in, if that is at least two significant digits (or 0.05 percentage
points); a difference, or a turn that asks for a fall or a loss, may state the amount without
its sign. The conversation is the unit of the held-out split (engine/evaluate/split.py).
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, localcontext
from pathlib import Path
from typing import Any

from engine.answer import Engine
from engine.evaluate.demo import DEMO, demo_store
from engine.evaluate.scoring import Scored, scored
from engine.evaluate.split import part_of
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.store import InMemoryStore
from engine.types import Answer

OUTCOMES = ("correct", "wrong", "off-target", "refused")
KINDS = ("lookup", "difference", "ratio or percent", "other arithmetic", "refusal expected")
NOT_FOUND = "not_found"
CLARIFY = "clarify"
SCOPED = "scoped"
UNSCOPED = "unscoped"

ENTITIES = {
    "GOOGL": "Alphabet",
    "AMZN": "Amazon",
    "AAPL": "Apple",
    "BA": "Boeing",
    "JPM": "JPMorgan Chase",
    "MRVL": "Marvell",
    "MSFT": "Microsoft",
    "NVDA": "NVIDIA",
    "NFLX": "Netflix",
    "PG": "Procter & Gamble",
    "SNOW": "Snowflake",
    "TSLA": "Tesla",
    "WMT": "Walmart",
}
METRICS = {
    "rev": "Revenue",
    "cogs": "Cost of revenue",
    "gp": "Gross profit",
    "rd": "Research and development expense",
    "opinc": "Operating income",
    "ni": "Net income",
    "eps": "Diluted EPS",
    "dilshares": "Diluted weighted-average shares",
    "ocf": "Operating cash flow",
    "capex": "Capital expenditure",
    "assets": "Total assets",
    "liab": "Total liabilities",
    "equity": "Stockholders' equity",
    "cash": "Cash and cash equivalents",
    "cashr": "Cash, cash equivalents and restricted cash",
    "ltd": "Long-term debt (non-current)",
    "shares": "Shares outstanding",
}

_STEP = re.compile(r"([a-z_]+)\(([^()]*)\)")
_OPERAND = re.compile(r"^([A-Z]+)\.([a-z]+)\.(FY\d{4})$")
_REFUSALS = ("not_found", "clarify", "blocked", "error")
_DECREASE = re.compile(r"\b(?:decrease|decline|drop|fall|fell|loss|lose|lost|lower|less)", re.I)
_PLACES = 10  # ratio golds are stored to ten decimal places


class ProgramError(ValueError):
    """A program that names a row the demo does not hold, or that cannot be read."""


@dataclass(frozen=True, slots=True)
class Row:
    entity: str
    metric: str
    period: str
    value: Decimal
    unit: str


Facts = Mapping[tuple[str, str, str], Row]


def demo_facts(folder: Path = DEMO) -> dict[tuple[str, str, str], Row]:
    with (folder / "facts.csv").open(encoding="utf-8") as handle:
        rows = [
            Row(r["entity"], r["metric"], r["period"], Decimal(r["value"]), r["unit"])
            for r in csv.DictReader(handle)
        ]
    return {(r.entity, r.metric, r.period): r for r in rows}


def operand(token: str) -> tuple[str, str, str]:
    """A fact row's key from its token: AAPL.rev.FY2021 -> (Apple, Revenue, FY2021)."""
    match = _OPERAND.match(token.strip())
    if not match or match[1] not in ENTITIES or match[2] not in METRICS:
        raise ProgramError(f"not an operand: {token!r}")
    return ENTITIES[match[1]], METRICS[match[2]], match[3]


def gold_of(program: str, facts: Facts) -> dict[str, Any]:
    """A turn's gold, kind and operands, computed from the fact rows its program names."""
    program = program.strip()
    if program == CLARIFY:
        return {"gold": CLARIFY, "kind": "refusal expected", "operands": {}}
    steps = _STEP.findall(program)
    if not steps:
        row = _row(program, facts)
        return {"gold": _text(row.value), "kind": "lookup", "operands": _operands([program], facts)}
    tokens = [a.strip() for _, args in steps for a in args.split(",")]
    names = [name for name, _ in steps]
    if names == ["absent"]:
        key = operand(tokens[0])
        if key in facts:
            raise ProgramError(f"{tokens[0]} is held: {facts[key].value}")
        return {"gold": NOT_FOUND, "kind": "refusal expected", "operands": {}}
    operands = _operands([t for t in tokens if _OPERAND.match(t)], facts)
    if names == ["list"]:
        golds = [_text(_row(t, facts).value) for t in tokens]
        return {"gold": golds, "kind": "lookup", "operands": operands}
    if names[0] in ("max", "min"):
        if len(steps) != 1 or len(tokens) != 2:
            raise ProgramError(f"{names[0]} takes two operands: {program}")
        rows = [_row(t, facts) for t in tokens]
        pick = max if names[0] == "max" else min
        winner = pick(rows, key=lambda r: r.value)
        loser = rows[1] if winner is rows[0] else rows[0]
        label = "entity" if winner.entity != loser.entity else "period"
        return {
            "gold": _text(winner.value),
            "kind": "other arithmetic",
            "winner": getattr(winner, label),
            "loser": getattr(loser, label),
            "operands": operands,
        }
    results: list[Decimal] = []
    for name, args in steps:
        values = [_value(a.strip(), results, facts) for a in args.split(",")]
        results.append(_apply(name, values))
    return {"gold": _text(results[-1]), "kind": kind_of(program), "operands": operands}


def kind_of(program: str) -> str:
    steps = _STEP.findall(program)
    names = [name for name, _ in steps]
    if not steps or names == ["list"]:
        return "lookup"
    if names == ["subtract"]:
        return "difference"
    divisors = [args.split(",")[1].strip() for name, args in steps if name == "divide"]
    if any(not d.startswith("const_") for d in divisors):
        return "ratio or percent"
    return "other arithmetic"


def build(conversations: Iterable[Mapping[str, Any]], facts: Facts) -> list[dict[str, Any]]:
    """The data file's records: each written conversation with every turn's gold computed."""
    records = []
    for conversation in conversations:
        turns = []
        for question, program in conversation["turns"]:
            turns.append({"question": question, "program": program, **gold_of(program, facts)})
        records.append({"id": conversation["id"], "scope": conversation.get("scope"),
                        "turns": turns})  # fmt: skip
    return records


def load_democonv(path: Path) -> list[dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def run_democonv(
    conversations: Iterable[Mapping[str, Any]],
    store: InMemoryStore | None = None,
    *,
    limit: int | None = None,
) -> list[Scored]:
    """Ask every conversation's turns in order through one session, as the chat page would
    (scoped to the conversation's company when it has one), and score each turn."""
    engine = Engine(store or demo_store(), MockProvider())
    results: list[Scored] = []
    for conversation in conversations:
        part = part_of(conversation["id"])
        scope = conversation.get("scope")
        session = ConversationSession(scope=scope)
        tags = (SCOPED if scope else UNSCOPED,)
        for turn in conversation["turns"]:
            question = turn["question"]
            answer = engine.answer(question, session=session, history=session.history())
            outcome = score_turn(answer, turn)
            results.append(scored(turn["kind"], question, outcome, turn["gold"], answer,
                                  part=part, tags=tags))  # fmt: skip
            if limit and len(results) >= limit:
                return results
    return results


def score_turn(answer: Answer, turn: Mapping[str, Any]) -> str:
    gold = turn["gold"]
    refused = answer.status in _REFUSALS
    if gold in (NOT_FOUND, CLARIFY):
        if answer.figures:
            return "wrong"
        if gold == CLARIFY and answer.status != CLARIFY:
            return "refused" if refused else "off-target"
        return "correct" if refused else "off-target"
    if refused:
        return "refused"
    if not answer.figures:
        return "off-target"
    figures = list(answer.figures)
    if isinstance(gold, list):
        hits = all(any(_equal(f.value, f.unit, Decimal(g), False) for f in figures) for g in gold)
        return "correct" if hits else "wrong"
    target = Decimal(gold)
    if "winner" in turn:
        stated = any(_equal(f.value, f.unit, target, False) for f in figures)
        return "correct" if stated and _named_first(answer.text, turn) else "wrong"
    computed = [f for f in figures if f.kind == "computed"]
    candidates = computed[-1:] or figures
    magnitude = turn["kind"] == "difference" or bool(_DECREASE.search(turn["question"]))
    if any(_equal(f.value, f.unit, target, magnitude) for f in candidates):
        return "correct"
    return "wrong"


def _named_first(text: str, turn: Mapping[str, Any]) -> bool:
    """Whether the answer names the winner before the other (a period also as "2021")."""

    def first(label: str) -> int:
        spots = [text.find(s) for s in {label, label.removeprefix("FY")} if s in text]
        return min(spots) if spots else len(text) + 1

    winner, loser = first(turn["winner"]), first(turn["loser"])
    return winner <= len(text) and winner < loser


def _equal(value: Decimal, unit: str, gold: Decimal, magnitude: bool) -> bool:
    readings = [(value, _half_unit(value))]
    if unit == "%":
        readings = [(value / 100, _half_unit(value) / 100)]
    if magnitude:
        readings += [(-r, h) for r, h in readings]
    exact = abs(gold) * Decimal("1e-6") + Decimal("1e-9")
    coarsest = max(abs(gold) * Decimal("0.01"), Decimal("0.0005") if unit == "%" else 0)
    for reading, half in readings:
        if abs(reading - gold) <= exact:
            return True
        if half <= coarsest and abs(reading - gold) <= half + exact:
            return True
    return False


def _half_unit(value: Decimal) -> Decimal:
    """Half a unit of the last digit a figure is stated to: 25.3 -> 0.05."""
    exponent = value.normalize().as_tuple().exponent
    return Decimal(5).scaleb(int(exponent) - 1) if isinstance(exponent, int) else Decimal(0)


def _row(token: str, facts: Facts) -> Row:
    key = operand(token)
    if key not in facts:
        raise ProgramError(f"{token} is not held")
    return facts[key]


def _operands(tokens: Sequence[str], facts: Facts) -> dict[str, dict[str, str]]:
    out = {}
    for token in tokens:
        row = _row(token, facts)
        out[token] = {"entity": row.entity, "metric": row.metric, "period": row.period,
                      "value": _text(row.value), "unit": row.unit}  # fmt: skip
    return out


def _value(arg: str, results: Sequence[Decimal], facts: Facts) -> Decimal:
    if arg.startswith("#"):
        return results[int(arg[1:])]
    if arg.startswith("const_"):
        return Decimal(arg.removeprefix("const_"))
    return _row(arg, facts).value


def _apply(name: str, values: Sequence[Decimal]) -> Decimal:
    if len(values) != 2:
        raise ProgramError(f"{name} takes two arguments")
    a, b = values
    with localcontext() as context:
        context.prec = 40
        if name == "add":
            return a + b
        if name == "subtract":
            return a - b
        if name == "multiply":
            return a * b
        if name == "divide":
            return a / b
    raise ProgramError(f"unknown step: {name}")


def _text(value: Decimal) -> str:
    if value == value.to_integral_value():
        return str(value.quantize(Decimal(1)))
    return format(value.quantize(Decimal(1).scaleb(-_PLACES)).normalize(), "f")
