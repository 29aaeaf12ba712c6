"""What every importer shares: the `file:line: what is wrong` failure, one transaction per file,
progress lines, header checks and the parsing of fields several formats hold."""

from __future__ import annotations

import csv
import difflib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO

from django.core.exceptions import ValidationError
from django.db import models, transaction

from askapp.models import Classification
from engine import normalise_period

Write = Callable[[str], None]


class ImportFailure(Exception):
    """A file that cannot be imported, with the line that stopped it when there is one."""

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path, self.line, self.message = path, line, message
        super().__init__(f"{path}:{line}: {message}" if line else f"{path}: {message}")


class Invalid(ValueError):
    """Something in one row is wrong; the importer adds the file and, unless given, the line."""

    def __init__(self, message: str, *, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class ImportReport:
    path: str
    noun: str
    dry_run: bool = False
    created: int = 0
    updated: int = 0
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        verb = "would import" if self.dry_run else "imported"
        total = self.created + self.updated
        lines = [
            f"{self.path}: {verb} {total} {self.noun} ({self.created} new, {self.updated} updated)"
        ]
        lines.extend(f"{self.path}: {note}" for note in self.notes)
        return "\n".join(lines)


@contextmanager
def import_transaction(*, dry_run: bool) -> Iterator[None]:
    """All of a file or none of it. A dry run does the whole import, then rolls it back, so it
    checks everything a real run would (database constraints included) and keeps nothing."""
    with transaction.atomic():
        yield
        if dry_run:
            transaction.set_rollback(True)


@contextmanager
def open_text(path: str) -> Iterator[IO[str]]:
    """The file as UTF-8 text (a byte-order mark is skipped), failing with the path, not a trace."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            yield handle
    except FileNotFoundError:
        raise ImportFailure(path, None, "no such file") from None
    except IsADirectoryError:
        raise ImportFailure(path, None, "is a directory, expected a file") from None
    except UnicodeDecodeError as exc:
        raise ImportFailure(
            path, None, f"is not UTF-8 text (bad byte at offset {exc.start})"
        ) from None


class Progress:
    """A line on stderr every `every` rows, so only large files print any."""

    def __init__(self, path: str, *, every: int, write: Write | None) -> None:
        self.path, self.every, self.write = path, every, write

    def tick(self, count: int) -> None:
        if self.write and self.every > 0 and count % self.every == 0:
            self.write(f"{self.path}: {count:,} rows read")


def csv_records(handle: IO[str]) -> Iterator[tuple[int, list[str]]]:
    """(first line number, cells) for each non-blank CSV record; quoted newlines are allowed."""
    reader = csv.reader(handle, strict=True)
    next_line = 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise Invalid(f"not valid CSV ({exc})", line=reader.line_num) from None
        line, next_line = next_line, reader.line_num + 1
        if any(cell.strip() for cell in row):
            yield line, row


def known_fields(
    names: Sequence[str], *, required: Sequence[str], optional: Sequence[str], noun: str
) -> list[str]:
    """Check the fields a header (or a record) names; return the ones this format ignores.

    An unknown name close to a known one ("clasification") is an error rather than ignored,
    so a typo can never silently drop a field such as the classification.
    """
    known = [*required, *optional]
    for name in names:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.8)
            if close:
                raise Invalid(f"unknown {noun} '{name}' (did you mean '{close[0]}'?)")
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise Invalid(f"{noun} '{repeated[0]}' appears twice")
    missing = [name for name in required if name not in names]
    if missing:
        plural = "s" if len(missing) > 1 else ""
        listed = ", ".join(f"'{name}'" for name in missing)
        raise Invalid(f"missing {noun}{plural} {listed} (expected {', '.join(known)})")
    return [name for name in names if name not in known]


def parse_classification(text: str, *, default: str) -> str:
    cleaned = text.strip().upper()
    if not cleaned:
        return default
    if cleaned not in Classification.values:
        expected = ", ".join(Classification.values)
        raise Invalid(f"unknown classification '{text.strip()}' (expected {expected})")
    return cleaned


def parse_period(text: str) -> str:
    period = normalise_period(text)
    if period is None:
        raise Invalid(f"'{text.strip()}' is not a period (expected e.g. FY2023 or FY2023 Q3)")
    return period


def check_fields(instance: models.Model, *, exclude: Sequence[str] = ()) -> None:
    """The model's own field rules (lengths, digits, choices), as one readable Invalid."""
    try:
        instance.full_clean(
            exclude=list(exclude), validate_unique=False, validate_constraints=False
        )
    except ValidationError as exc:
        name, messages = next(iter(exc.message_dict.items()))
        raise Invalid(f"{name}: {messages[0]}") from None
