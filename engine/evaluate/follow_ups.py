"""ConvFinQA follow-up turns that fail although every operand is in the page's table.

`python -m engine.evaluate.follow_ups` prints, for each dialogue of the TUNING part only
(held-out pages are never read), its first failing turn after the first when every earlier turn
was answered correctly and this turn's operands are all printed in the table: the earlier
questions with the figure each answer stood on, the engine's answer and its parsed intent.
These are the turns a conversation loses by how it carries one question into the next, not by
how it reads a page; the last lines count them by outcome and by how the answer begins.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, TextIO

from engine.answer import Engine
from engine.evaluate.cli import load_convfinqa
from engine.evaluate.convfinqa import dialogue_store, operands_in_table, score_turn, table_numbers
from engine.evaluate.first_turns import cause, print_answer, print_causes, tune_dialogues
from engine.evaluate.tatqa import ENTITY
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.types import Answer

_WIDTH = 240


def failing_follow_ups(
    dialogues: Iterable[Mapping[str, Any]],
) -> Iterator[tuple[Mapping[str, Any], int, str, list[Answer]]]:
    """Each tuning dialogue's first turn after the first that fails with every earlier turn
    correct and its own operands in the table: the dialogue, the turn's index, its outcome and
    the answers given up to it."""
    provider = MockProvider()
    for dialogue in tune_dialogues(dialogues):
        printed = table_numbers(dialogue["table"])
        session = ConversationSession(scope=ENTITY)
        engine = Engine(dialogue_store(dialogue), provider)
        answers: list[Answer] = []
        for index, turn in enumerate(dialogue["turns"]):
            answer = engine.answer(turn["question"], session=session, history=session.history())
            answers.append(answer)
            outcome = score_turn(answer, turn["answer"], turn["question"])
            if outcome == "correct":
                continue
            if index and operands_in_table(turn["program"], printed):
                yield dialogue, index, outcome, answers
            break


def _stood_on(answer: Answer) -> str:
    computed = [f for f in answer.figures if f.kind == "computed"]
    figures = computed[-1:] or list(answer.figures)[:2]
    return ", ".join(f"{f.value} {f.unit}".strip() for f in figures)


def report(dialogues: Iterable[Mapping[str, Any]], out: TextIO = sys.stdout) -> Counter[str]:
    causes: Counter[str] = Counter()
    for dialogue, index, outcome, answers in failing_follow_ups(dialogues):
        turns = dialogue["turns"]
        answer = answers[-1]
        print("=" * 80, file=out)
        print(f"{dialogue['id']} turn {index + 1} {outcome}", file=out)
        for earlier, given in zip(turns[:index], answers, strict=False):
            print(f"  earlier: {earlier['question']}  -> {_stood_on(given)}", file=out)
        print(f"  asked: {turns[index]['question']}", file=out)
        print(f"  gold {turns[index]['answer']} = {turns[index]['program']}", file=out)
        print_answer(answer, out)
        causes[cause(outcome, answer)] += 1
    print_causes(causes, out)
    return causes


if __name__ == "__main__":
    report(load_convfinqa())
