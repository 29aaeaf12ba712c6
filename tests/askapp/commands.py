"""Running management commands in tests and reading how they ended."""

from __future__ import annotations

from dataclasses import dataclass
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


@dataclass(frozen=True)
class Output:
    stdout: str
    stderr: str


def run(command: str, *args: str) -> Output:
    stdout, stderr = StringIO(), StringIO()
    call_command(command, *args, stdout=stdout, stderr=stderr)
    return Output(stdout.getvalue(), stderr.getvalue())


def failure(command: str, *args: str) -> str:
    """The CommandError message a command stops with (the test fails if it succeeds)."""
    with pytest.raises(CommandError) as caught:
        run(command, *args)
    return str(caught.value)
