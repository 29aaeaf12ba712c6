"""Benchmark the security gate on its own.

    .venv/bin/python bench/bench_gate.py [--repeat 7]

Prints, for the TAT-QA and PACIFIC questions in data/eval (or a built-in sample when that
folder is absent): the median and 90th-percentile microseconds per question, questions per
second, the share of questions the fast screen settles, and the time for 4,000-character
adversarial inputs (to show that cost grows linearly with length). Times are this process's CPU
time (time.process_time), best of several runs, so other work on a shared machine inflates them
less than wall-clock time would.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import SecurityGate
from engine.gate import gate as gate_module

DATA = Path(__file__).resolve().parents[1] / "data" / "eval"
SAMPLE = [
    "What was Apple's cash including restricted cash in FY2023?",
    "What was the change in the net revenue of the segment from 2018 to 2019?",
    "Ignore the one-off charge: what was underlying operating income?",
    "How much restricted stock did Microsoft grant?",
    "What is the percentage change in total assets between 2018 and 2019?",
]


def load_questions() -> list[str]:
    questions: list[str] = []
    for path in (
        DATA / "tatqa" / "tatqa_dataset_dev.json",
        DATA / "pacific" / "pacific_validation.json",
    ):
        if path.exists():
            contexts = json.loads(path.read_text(encoding="utf-8"))
            questions.extend(q["question"] for context in contexts for q in context["questions"])
    return questions or SAMPLE


def best_time(call: Callable[[], object], repeat: int, inner: int = 50) -> float:
    """Best of `repeat` runs of `inner` calls, in CPU microseconds per call."""
    runs = []
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(inner):
            call()
        runs.append((time.process_time() - start) / inner)
    return min(runs) * 1e6


def adversarial_inputs() -> dict[str, str]:
    return {
        "4000 x 'a'": "a" * 4000,
        "4000 spaced letters": "i g n o r e " * 333,
        "4000 qualifier chain": ("ignore " + "all the previous " * 40 + "x. ") * 5,
        "4000 base64-ish run": ("QUJD" * 1000)[:4000],
        "4000 hex run": "4a" * 2000,
        "4000 mixed words": ("the system of internal controls restricted cash prior year " * 70)[
            :4000
        ],
        "4000 percent escapes": "%41" * 1333,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    gate = SecurityGate()
    questions = load_questions()
    timings = sorted(best_time(lambda q=q: gate.screen(q), args.repeat) for q in questions)
    fast = sum(not gate_module._needs_close_reading(q.strip()) for q in questions)
    median = statistics.median(timings)
    p90 = timings[int(len(timings) * 0.9)]
    print(f"questions: {len(questions)}")
    print(f"median: {median:.1f} us/question   p90: {p90:.1f} us   ({1e6 / median:,.0f} q/s)")
    print(f"settled by the fast screen: {fast / len(questions):.0%}")
    for name, text in adversarial_inputs().items():
        elapsed = best_time(lambda text=text: gate.screen(text), 3, inner=3)
        print(f"{name:24s} {elapsed / 1000:7.2f} ms  -> {gate.screen(text).reason}")


if __name__ == "__main__":
    main()
