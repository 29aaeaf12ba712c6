"""Evaluate the engine on public financial QA sets, and on cases exported by reviewers.

    python -m engine.evaluate tatqa   [--data PATH] [--limit N] [--show wrong|refused|other]
    python -m engine.evaluate pacific [--data PATH] ...
    python -m engine.evaluate cases FILE.jsonl       (needs a store: see askapp's evaluate command)

TAT-QA: each context is one entity; its table becomes facts and its paragraphs passages.
PACIFIC: each dialogue runs turn by turn through one ConversationSession scoped to the entity.
Every answer is scored as correct, wrong (it states a figure that differs from the gold
answer), refused (not found, clarify or blocked) or other (answered in words we cannot score).
Wrong answers are the product's worst failure.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from engine.answer import Engine
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.store import InMemoryStore, KnowledgeStore
from engine.tables import read_table, table_scale
from engine.types import DEFAULT_CLEARANCE, PUBLIC, Answer, Fact, Passage, Term

DATA = Path(__file__).resolve().parent.parent / "data" / "eval"
ENTITY = "Company"
OUTCOMES = ("correct", "wrong", "refused", "other")
_NUMBER = re.compile(r"-?\(?\$?\d[\d,]*(?:\.\d+)?\)?")


@dataclass(frozen=True, slots=True)
class Scored:
    kind: str
    question: str
    outcome: str
    gold: str
    given: str


def context_store(context: Mapping[str, Any]) -> InMemoryStore:
    """One TAT-QA context as a knowledge store: one entity, the table as facts."""
    rows = context["table"]["table"]
    text = " ".join(p["text"] for p in context["paragraphs"])
    facts = read_table(rows, scale=table_scale(rows, text))
    uid = context["table"]["uid"]
    aliases: dict[str, set[str]] = defaultdict(set)
    for fact in facts:
        aliases[fact.metric].update(fact.aliases)
    passages = [
        Passage(
            id=f"passage:{p['uid']}",
            document_id=uid,
            title="Annual report excerpt",
            text=p["text"],
            classification=PUBLIC,
            entity=ENTITY,
        )
        for p in context["paragraphs"]
    ]
    return InMemoryStore(
        entities=[Term(ENTITY)],
        metrics=[Term(m, tuple(sorted(a))) for m, a in aliases.items()],
        facts=[
            Fact(f"fact:{uid}:{i}", ENTITY, f.metric, f.period, f.value, f.unit, source=uid)
            for i, f in enumerate(facts)
        ],
        passages=passages,
    )


_MULTIPLIERS = {"": 1, "thousand": 10**3, "million": 10**6, "billion": 10**9, "percent": 1}


def score(
    answer: Answer, gold: Any, answer_type: str, *, scale: str = "", wants_clarify: bool = False
) -> str:
    if wants_clarify:
        return "correct" if answer.status == "clarify" else _unexpected(answer)
    if answer.status in ("not_found", "clarify", "blocked", "error"):
        return "refused"
    golds = _gold_numbers(gold, scale)
    if len(golds) > 1 and answer.figures:
        found = [f for f in answer.figures if f.kind == "fact"]
        hits = all(any(_matches(f.value, f.unit, g) for f in found) for g in golds)
        return "correct" if hits else "wrong"
    main = _main_figure(answer)
    if main is not None:
        if not golds:
            return _winner_matches(answer, gold) or "wrong"
        value, unit = main
        if any(_matches(value, unit, g) for g in golds):
            return "correct"
        if _magnitude_convention(answer, value, unit, golds):
            return "correct"
        trend = answer.intent.get("operation") == "trend"
        return "other" if trend else "wrong"
    if answer_type in ("span", "multi-span") and _contains(answer.text, gold):
        return "correct"
    if golds and any(_close_in_text(answer.text, g) for g in golds):
        return "correct"
    return "other"


def _unexpected(answer: Answer) -> str:
    return "wrong" if answer.figures else "other"


def _magnitude_convention(
    answer: Answer, value: Decimal, unit: str, golds: list[tuple[Decimal, int, str]]
) -> bool:
    """TAT-QA's gold drops the parentheses of figures filed as negatives, and states a
    decrease as a positive amount. askapp keeps signs as filed, so an answer equal in
    magnitude is scored correct when every fact it used is negative or it was asked for a
    decrease."""
    facts = [f for f in answer.figures if f.kind == "fact"]
    all_negative = bool(facts) and all(f.value < 0 for f in facts)
    asked_decrease = bool(_DECREASE.search(str(answer.intent.get("question", ""))))
    if not (all_negative or asked_decrease):
        return False
    return any(_matches(-value, unit, g) for g in golds)


_DECREASE = re.compile(r"\b(decrease|decline|drop|fall|fell|reduction|lower)", re.IGNORECASE)


def _main_figure(answer: Answer) -> tuple[Decimal, str] | None:
    computed = [f for f in answer.figures if f.kind == "computed"]
    if computed:
        return computed[0].value, computed[0].unit
    if len(answer.figures) == 1:
        return answer.figures[0].value, answer.figures[0].unit
    return None


def _matches(value: Decimal, unit: str, gold: tuple[Decimal, int, str]) -> bool:
    """Equal at the gold answer's precision, read in the same scale or converted to it."""
    number, places, scale = gold
    if _close(value, (number, places)):
        return True
    ours = _MULTIPLIERS.get(unit)
    theirs = _MULTIPLIERS.get(scale)
    if ours is None or not theirs or ours == theirs:
        return False
    if unit == "" and scale not in ("", "percent"):
        # The table's scale was not written where we could read it: allow its usual scales.
        return any(_close(value * m / theirs, (number, places)) for m in (10**3, 10**6))
    return _close(value * ours / theirs, (number, places))


def _winner_matches(answer: Answer, gold: Any) -> str | None:
    spans = gold if isinstance(gold, list) else [gold]
    if answer.intent.get("operation") in ("higher", "lower") and answer.figures:
        winner = answer.figures[0]
        period = (winner.period or "").replace("FY", "")
        if any(str(s).strip() in (period, winner.entity) for s in spans):
            return "correct"
    return None


_GOLD = re.compile(
    r"^(?P<number>-?\(?-?\$?\s?\(?\d[\d,]*(?:\.\d+)?\)?)\s*(?P<unit>%|percent|thousand|million|billion)?"
    r"(?:\s+\w+){0,3}$",
    re.IGNORECASE,
)


def _gold_numbers(gold: Any, scale: str = "") -> list[tuple[Decimal, int, str]]:
    """Numbers a gold answer states, with their decimal places and the scale they are in."""
    items = gold if isinstance(gold, list) else [gold]
    numbers = []
    for item in items:
        text = str(item).strip()
        match = _GOLD.match(text)
        if isinstance(item, (int, float)) or match:
            raw = match.group("number") if match else text
            value = _decimal(raw)
            if value is None:
                continue
            unit = ((match.group("unit") or "") if match else "").lower()
            unit = "percent" if unit in ("%", "percent") else unit or scale
            places = len(raw.split(".")[1].rstrip(")")) if "." in raw else 0
            numbers.append((value, places, unit))
    return numbers


def _decimal(text: str) -> Decimal | None:
    negative = text.startswith("(") or text.startswith("-")
    digits = re.sub(r"[^\d.]", "", text)
    try:
        value = Decimal(digits)
    except InvalidOperation:
        return None
    return -value if negative else value


def _close(ours: Decimal, gold: tuple[Decimal, int]) -> bool:
    value, places = gold
    tolerance = Decimal("0.5") * Decimal(10) ** -places + Decimal("1e-9")
    return abs(ours - value) <= tolerance


def _close_in_text(text: str, gold: tuple[Decimal, int, str]) -> bool:
    for match in _NUMBER.finditer(text):
        value = _decimal(match.group())
        if value is not None and _close(value, gold[:2]):
            return True
    return False


def _contains(text: str, gold: Any) -> bool:
    spans = gold if isinstance(gold, list) else [gold]
    lowered = _squash(text)
    return all(_squash(str(span)) in lowered for span in spans if str(span).strip())


def _squash(text: str) -> str:
    return re.sub(r"\W+", " ", text.lower()).strip()


def run_tatqa(contexts: Iterable[Mapping[str, Any]], *, limit: int | None = None) -> list[Scored]:
    provider = MockProvider()
    results: list[Scored] = []
    for context in contexts:
        engine = Engine(context_store(context), provider)
        for item in context["questions"]:
            answer = engine.answer(item["question"])
            kind = f"{item['answer_type']}/{item['answer_from']}"
            outcome = score(answer, item["answer"], item["answer_type"], scale=item["scale"])
            results.append(_scored(kind, item["question"], outcome, item["answer"], answer))
            if limit and len(results) >= limit:
                return results
    return results


def run_pacific(
    dialogues: Iterable[Mapping[str, Any]], *, limit: int | None = None
) -> list[Scored]:
    provider = MockProvider()
    results: list[Scored] = []
    for dialogue in dialogues:
        engine = Engine(context_store(dialogue), provider)
        session = ConversationSession(scope=ENTITY)
        for turn in dialogue["questions"]:
            answer = engine.answer(turn["question"], session=session, history=session.history())
            clarify = turn["answer_type"] == "question"
            kind = (
                "clarify"
                if clarify
                else f"{turn['answer_type']}/" + ("follow-up" if turn.get("follow_up") else "first")
            )
            outcome = score(answer, turn["answer"], turn["answer_type"], scale=turn["scale"],
                            wants_clarify=clarify)  # fmt: skip
            results.append(_scored(kind, turn["question"], outcome, turn["answer"], answer))
            if limit and len(results) >= limit:
                return results
    return results


def run_cases(
    cases: Iterable[Mapping[str, Any]],
    engine: Engine | KnowledgeStore,
    *,
    clearance: frozenset[str] = DEFAULT_CLEARANCE,
) -> list[Scored]:
    """Reviewer-exported cases: {question, history, scope?, expected_status, expected_figures},
    answered by `engine` (a bare store is answered with MockProvider, like the public sets).

    The earlier questions of a case are asked again through one session first, so a
    follow-up ("and in FY2022?") gets the slots it carried when it was answered."""
    if not isinstance(engine, Engine):
        engine = Engine(engine, MockProvider())
    results = []
    for case in cases:
        history = [(str(role), str(text)) for role, text in case.get("history", [])]
        session = ConversationSession(scope=case.get("scope"))
        for role, text in history:
            if role == "user":
                engine.answer(text, session=session, clearance=clearance)
        answer = engine.answer(
            case["question"], history=history, session=session, clearance=clearance
        )
        outcome = _case_outcome(answer, case)
        results.append(
            _scored(
                case.get("expected_status", "?"),
                case["question"],
                outcome,
                case.get("expected_figures"),
                answer,
            )
        )
    return results


def _case_outcome(answer: Answer, case: Mapping[str, Any]) -> str:
    expected = case.get("expected_status")
    figures = [str(f.get("value")) for f in case.get("expected_figures", [])]
    given = [format(f.value, "f") for f in answer.figures]
    if answer.status != expected:
        if answer.figures and expected in ("not_found", "clarify", "blocked"):
            return "wrong"
        return "refused" if answer.status in ("not_found", "clarify", "blocked") else "other"
    if figures and not all(_same_number(f, given) for f in figures):
        return "wrong"
    return "correct"


def _same_number(expected: str, given: Sequence[str]) -> bool:
    value = _decimal(expected)
    return any(value is not None and _decimal(g) == value for g in given)


def _scored(kind: str, question: str, outcome: str, gold: Any, answer: Answer) -> Scored:
    shown = answer.text if not answer.figures else f"{answer.text} {{{answer.figures[0].value}}}"
    return Scored(kind, question, outcome, json.dumps(gold, ensure_ascii=False), shown[:300])


def table(results: Sequence[Scored]) -> str:
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for result in results:
        counts[result.kind][result.outcome] += 1
        counts["all"][result.outcome] += 1
    width = max(len(k) for k in counts) + 2
    lines = [f"| {'question type':<{width}}| total | " + " | ".join(OUTCOMES) + " |"]
    lines.append(
        "|"
        + "-" * (width + 1)
        + "|------:|"
        + "|".join("-" * (len(o) + 1) + ":" for o in OUTCOMES)
        + "|"
    )
    for kind in sorted(counts, key=lambda k: (k == "all", k)):
        row = counts[kind]
        total = sum(row.values())
        cells = " | ".join(f"{row[o]:>{len(o)}}" for o in OUTCOMES)
        lines.append(f"| {kind:<{width}}| {total:>5} | {cells} |")
    return "\n".join(lines)


def _load(path: Path) -> list[Mapping[str, Any]]:
    data: list[Mapping[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _show(results: Sequence[Scored], outcome: str) -> Iterator[str]:
    for result in results:
        if result.outcome == outcome:
            yield (
                f"[{result.kind}] {result.question}\n"
                f"    gold: {result.gold}\n    gave: {result.given}"
            )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.evaluate", description=__doc__)
    parser.add_argument("set", choices=("tatqa", "pacific", "all"))
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--show", choices=OUTCOMES)
    args = parser.parse_args(argv)
    if args.set in ("tatqa", "all"):
        results = run_tatqa(_load(args.data / "tatqa" / "tatqa_dataset_dev.json"), limit=args.limit)
        _report("TAT-QA dev", results, args.show)
    if args.set in ("pacific", "all"):
        results = run_pacific(
            _load(args.data / "pacific" / "pacific_validation.json"), limit=args.limit
        )
        _report("PACIFIC validation", results, args.show)
    return 0


def _report(title: str, results: Sequence[Scored], show: str | None) -> None:
    print(f"\n{title}: {len(results)} questions\n")
    print(table(results))
    if show:
        print()
        for line in _show(results, show):
            print(line)


if __name__ == "__main__":
    sys.exit(main())
