"""The command line of `python -m engine.evaluate`: run the sets, print their tables."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.evaluate import convfinqa, democonv, offtarget
from engine.evaluate.demo import demo_store
from engine.evaluate.scoring import OUTCOMES, Scored, table
from engine.evaluate.split import TUNE
from engine.evaluate.tatqa import run_pacific, run_tatqa

DATA = Path(__file__).resolve().parent.parent.parent / "data" / "eval"
SETS = ("tatqa", "pacific", "convfinqa", "democonv", "offtarget")


def load_tatqa(data: Path = DATA) -> list[Mapping[str, Any]]:
    return _json(data / "tatqa" / "tatqa_dataset_dev.json")


def load_pacific(data: Path = DATA) -> list[Mapping[str, Any]]:
    return _json(data / "pacific" / "pacific_validation.json")


def load_convfinqa(data: Path = DATA) -> list[Mapping[str, Any]]:
    path = data / "convfinqa" / "dialogues.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def load_democonv(data: Path = DATA) -> list[dict[str, Any]]:
    return democonv.load_democonv(data / "democonv" / "conversations.jsonl")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.evaluate", description=__doc__)
    parser.add_argument("set", choices=(*SETS, "all"))
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--limit", type=int)
    parser.add_argument(
        "--show",
        choices=sorted({*OUTCOMES, *convfinqa.OUTCOMES}),
        help="list the tuning part's items with this outcome (held-out items are never listed)",
    )
    args = parser.parse_args(argv)
    chosen = SETS if args.set == "all" else (args.set,)
    if "tatqa" in chosen:
        results = run_tatqa(load_tatqa(args.data), limit=args.limit)
        _report("TAT-QA dev", results, OUTCOMES, args.show)
    if "pacific" in chosen:
        results = run_pacific(load_pacific(args.data), limit=args.limit)
        _report("PACIFIC validation", results, OUTCOMES, args.show)
    if "convfinqa" in chosen:
        results = convfinqa.run_convfinqa(load_convfinqa(args.data), limit=args.limit)
        _report("ConvFinQA", results, convfinqa.OUTCOMES, args.show)
    if "democonv" in chosen:
        results = democonv.run_democonv(load_democonv(args.data), limit=args.limit)
        _report("Demo conversations (unseen, demo knowledge base)", results,
                democonv.OUTCOMES, args.show, parts=_part_and_kind_rows)  # fmt: skip
    if "offtarget" in chosen:
        results = offtarget.run_offtarget(offtarget.load_offtarget(), demo_store(),
                                          limit=args.limit)  # fmt: skip
        _report("Off-target (demo knowledge base)", results, OUTCOMES, args.show,
                parts=_part_and_kind_rows)  # fmt: skip
        text = [r for r in run_tatqa(load_tatqa(args.data)) if r.kind.endswith("/text")]
        _report("TAT-QA dev, questions answered from text", text, OUTCOMES, None)
    return 0


def _report(
    title: str,
    results: Sequence[Scored],
    outcomes: Sequence[str],
    show: str | None,
    *,
    parts: Callable[[Scored], tuple[str, ...]] | None = None,
) -> None:
    print(f"\n{title}: {len(results)} questions\n")
    print(table(results, outcomes=outcomes, rows=lambda r: (r.kind, *r.tags)))
    print()
    print(table(results, outcomes=outcomes, rows=parts or _part_rows, title="part"))
    if show:
        print()
        for line in _show(results, show):
            print(line)


def _part_and_kind_rows(result: Scored) -> tuple[str, ...]:
    return (*_part_rows(result), f"{result.part}: {result.kind}")


def _part_rows(result: Scored) -> tuple[str, ...]:
    return (result.part, *(f"{result.part}: {tag}" for tag in result.tags))


def _show(results: Sequence[Scored], outcome: str) -> Iterator[str]:
    for result in results:
        if result.outcome == outcome and result.part == TUNE:
            yield (
                f"[{result.kind}] {result.question}\n"
                f"    gold: {result.gold}\n    gave: {result.given}"
            )


def _json(path: Path) -> list[Mapping[str, Any]]:
    data: list[Mapping[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return data
