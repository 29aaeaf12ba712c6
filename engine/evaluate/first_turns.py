"""ConvFinQA first turns that fail although every operand is in the page's table.

`python -m engine.evaluate.first_turns` prints, for each dialogue of the TUNING part only
(held-out pages are never read), its first turn when it is not answered correctly: the
table's column headings and row labels, the engine's answer and its parsed intent. A refused
first turn fails every follow-up too, so these are the turns to read first; the last line
counts them by outcome and by how the answer begins (the cause, roughly).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, TextIO

from engine.answer import Engine
from engine.evaluate.cli import load_convfinqa
from engine.evaluate.convfinqa import (
    dialogue_store,
    operands_in_table,
    page_of,
    score_turn,
    table_numbers,
)
from engine.evaluate.split import TUNE, part_of
from engine.evaluate.tatqa import ENTITY
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.types import Answer

# Words of an answer, most telling first, and the cause they show (the engine's wording).
_CAUSES = (
    ("holds no figure for “", "words no line holds"),
    ("holds no figure for", "a line linked, the period not held"),
    ("as a whole, not a separate figure", "a word beside the line read as narrowing it"),
    ("but not a figure that answers this", "a line linked, more asked than it holds"),
    ("Which figure should I set", "a second operand not linked"),
    ("Which figure do you mean", "asked back among lines"),
    ("does not forecast", "read as unsupported"),
)
_WIDTH = 240


def tune_dialogues(dialogues: Iterable[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """The tuning part only: a held-out page is never asked here."""
    return (d for d in dialogues if part_of(page_of(d["id"])) == TUNE)


def failing_first_turns(
    dialogues: Iterable[Mapping[str, Any]],
) -> Iterator[tuple[Mapping[str, Any], str, Answer]]:
    """Each tuning dialogue whose first turn's operands are all in its table but is not
    answered correctly, with the outcome and the answer."""
    provider = MockProvider()
    for dialogue in tune_dialogues(dialogues):
        turn = dialogue["turns"][0]
        if not operands_in_table(turn["program"], table_numbers(dialogue["table"])):
            continue
        session = ConversationSession(scope=ENTITY)
        engine = Engine(dialogue_store(dialogue), provider)
        answer = engine.answer(turn["question"], session=session, history=session.history())
        outcome = score_turn(answer, turn["answer"], turn["question"])
        if outcome != "correct":
            yield dialogue, outcome, answer


def cause(outcome: str, answer: Answer) -> str:
    """A rough cause to group by, read from how the answer begins."""
    text = answer.text or ""
    found = next((name for needle, name in _CAUSES if needle in text), "")
    if found:
        return found
    if outcome == "off-target":
        return "passages quoted"
    return f"{outcome}: {answer.status}"


def report(dialogues: Iterable[Mapping[str, Any]], out: TextIO = sys.stdout) -> Counter[str]:
    causes: Counter[str] = Counter()
    for dialogue, outcome, answer in failing_first_turns(dialogues):
        turn = dialogue["turns"][0]
        table = dialogue["table"]
        print("=" * 80, file=out)
        print(f"{dialogue['id']} {outcome}: {turn['question']}", file=out)
        print(f"  gold {turn['answer']} = {turn['program']}", file=out)
        print(f"  columns: {[str(c) for c in table[0]]}"[:_WIDTH], file=out)
        print(f"  rows: {[str(r[0]) for r in table[1:]]}"[:_WIDTH], file=out)
        print_answer(answer, out)
        causes[cause(outcome, answer)] += 1
    print_causes(causes, out)
    return causes


def print_answer(answer: Answer, out: TextIO) -> None:
    """The answer's status and first words, and the parts of its intent that are set."""
    intent = answer.intent if isinstance(answer.intent, dict) else {}
    held = {k: v for k, v in intent.items() if v not in ((), [], None, "", False)}
    print(f"  {answer.status}: {(answer.text or '')[:_WIDTH]}", file=out)
    print(f"  intent: {held}"[: _WIDTH * 2], file=out)


def print_causes(causes: Counter[str], out: TextIO) -> None:
    for line, count in causes.most_common():
        print(f"{count:4d}  {line}", file=out)


if __name__ == "__main__":
    report(load_convfinqa())
