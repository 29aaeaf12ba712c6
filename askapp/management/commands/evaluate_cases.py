"""manage.py evaluate_cases FILE: run reviewer-exported cases against the knowledge base."""

from __future__ import annotations

import json
from argparse import ArgumentParser
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from askapp.engine_setup import the_engine
from engine import OUTCOMES, Scored, run_cases, table


class Command(BaseCommand):
    help = (
        "Run evaluation cases (JSON lines: question, history, expected_status, "
        "expected_figures; the admin's export of reviewed answers writes them) through the "
        "engine askapp answers with (the configured provider, over this database's knowledge "
        "base), and print how many came out correct, wrong, refused or other."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("path", metavar="FILE", help="a .jsonl file of cases")
        parser.add_argument(
            "--show", choices=OUTCOMES, help="also list the cases with this outcome"
        )
        parser.add_argument(
            "--fail-on-wrong",
            action="store_true",
            help="exit with an error when any case comes out wrong (for CI)",
        )

    def handle(self, *args: Any, path: str, show: str | None, **options: Any) -> None:
        cases = read_cases(path)
        if not cases:
            raise CommandError(f"{path}: no cases")
        results = run_cases(cases, the_engine())
        self.stdout.write(f"{path}: {len(results)} cases\n")
        self.stdout.write(table(results))
        if show:
            self.stdout.write("")
            for result in results:
                if result.outcome == show:
                    self.stdout.write(_shown(result))
        wrong = sum(result.outcome == "wrong" for result in results)
        if wrong and options["fail_on_wrong"]:
            raise CommandError(f"{wrong} of {len(results)} cases came out wrong")


def read_cases(path: str) -> list[Mapping[str, Any]]:
    """The cases in a JSON-lines file; a bad line stops the run as `file:line: what`."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise CommandError(f"{path}: {exc.strerror}") from None
    cases = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            case = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CommandError(f"{path}:{number}: not JSON ({exc.msg})") from None
        if not isinstance(case, dict) or not isinstance(case.get("question"), str):
            raise CommandError(f"{path}:{number}: a case is an object with a question")
        if not _is_history(case.get("history", [])):
            raise CommandError(f"{path}:{number}: history is a list of [role, text] pairs")
        cases.append(case)
    return cases


def _is_history(history: Any) -> bool:
    return isinstance(history, list) and all(
        isinstance(turn, list) and len(turn) == 2 and all(isinstance(x, str) for x in turn)
        for turn in history
    )


def _shown(result: Scored) -> str:
    return (
        f"[{result.kind}] {result.question}\n    expected: {result.gold}\n    gave: {result.given}"
    )
