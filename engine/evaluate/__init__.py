"""Evaluate the engine on public financial QA sets, and on cases exported by reviewers.

    python -m engine.evaluate tatqa|pacific|convfinqa|democonv|all [--data PATH] [--limit N]
                                                          [--show OUTCOME]
    python -m engine.evaluate cases FILE.jsonl   (needs a store: see askapp's evaluate_cases)

Every set is reported whole and in its two parts (engine/evaluate/split.py): the tuning part,
whose items `--show` lists, and the held-out part, whose items are never listed. Wrong answers
are the product's worst failure; see docs/evaluation.md for what each outcome means.
"""

from engine.evaluate.cases import run_cases
from engine.evaluate.cli import DATA, main
from engine.evaluate.convfinqa import run_convfinqa
from engine.evaluate.scoring import OUTCOMES, Scored, score, table
from engine.evaluate.split import HELD_OUT, PARTS, TUNE, part_of
from engine.evaluate.tatqa import context_store, run_pacific, run_tatqa

__all__ = [
    "DATA",
    "HELD_OUT",
    "OUTCOMES",
    "PARTS",
    "TUNE",
    "Scored",
    "context_store",
    "main",
    "part_of",
    "run_cases",
    "run_convfinqa",
    "run_pacific",
    "run_tatqa",
    "score",
    "table",
]
