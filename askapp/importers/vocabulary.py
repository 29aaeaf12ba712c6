"""Importing the parser's vocabulary: `entity,aliases` and `metric,aliases` CSV files.

Aliases are split by `|`. The file is the truth for the names it lists: re-importing replaces
their aliases. No label (name or alias) may stand for two different rows, in the file or
against the rows already stored, because the question parser could not tell them apart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO

from askapp.importers.base import (
    ImportFailure,
    ImportReport,
    Invalid,
    check_fields,
    csv_records,
    import_transaction,
    known_fields,
    open_text,
)
from askapp.models import Entity, Metric
from askapp.services.knowledge import Term, entity_upsert, metric_upsert


@dataclass(frozen=True, slots=True)
class TermRow:
    line: int
    name: str
    aliases: tuple[str, ...]


def import_entities(path: str, *, dry_run: bool = False) -> ImportReport:
    return _import_terms(path, Entity, entity_upsert, column="entity", dry_run=dry_run)


def import_metrics(path: str, *, dry_run: bool = False) -> ImportReport:
    return _import_terms(path, Metric, metric_upsert, column="metric", dry_run=dry_run)


def _import_terms(
    path: str,
    model: type[Term],
    upsert: Callable[..., tuple[Term, bool]],
    *,
    column: str,
    dry_run: bool,
) -> ImportReport:
    report = ImportReport(path=path, noun=str(model._meta.verbose_name_plural), dry_run=dry_run)
    with open_text(path) as handle, import_transaction(dry_run=dry_run):
        try:
            rows = list(_term_rows(handle, column))
            _check_labels(rows, model)
            for row in rows:
                _, created = upsert(name=row.name, aliases=list(row.aliases))
                report.created += created
                report.updated += not created
        except Invalid as exc:
            raise ImportFailure(path, exc.line or 1, str(exc)) from None
    return report


def _term_rows(handle: IO[str], column: str) -> Iterator[TermRow]:
    records = csv_records(handle)
    _, header = next(records, (1, []))
    names = [cell.strip().lower() for cell in header]
    known_fields(names, required=(column, "aliases"), optional=(), noun="column")
    if len(names) != 2:
        raise Invalid(f"expected the columns {column},aliases and no others", line=1)
    name_at, aliases_at = names.index(column), names.index("aliases")
    first_line: dict[str, int] = {}
    for line, cells in records:
        if len(cells) != 2:
            raise Invalid(f"has {len(cells)} cells, expected 2 ({column},aliases)", line=line)
        name, aliases = " ".join(cells[name_at].split()), _split_aliases(cells[aliases_at])
        row = TermRow(line=line, name=name, aliases=aliases)
        if not row.name:
            raise Invalid(f"{column} is empty", line=line)
        if row.name in first_line:
            message = f"duplicate {column} '{row.name}' (first on line {first_line[row.name]})"
            raise Invalid(message, line=line)
        first_line[row.name] = line
        yield row


def _split_aliases(text: str) -> tuple[str, ...]:
    aliases = (" ".join(alias.split()) for alias in text.split("|"))
    return tuple(dict.fromkeys(alias for alias in aliases if alias))


def _check_labels(rows: list[TermRow], model: type[Term]) -> None:
    """Every label (name or alias, ignoring case) belongs to one row only."""
    owners: dict[str, tuple[str, int | None]] = {}
    in_file = {row.name for row in rows}
    for term in model.objects.exclude(name__in=in_file):
        for label in (term.name, *term.aliases):
            owners[label.casefold()] = (term.name, None)
    for row in rows:
        check_fields(model(name=row.name, aliases=list(row.aliases)))
        for label in (row.name, *row.aliases):
            owner, line = owners.setdefault(label.casefold(), (row.name, row.line))
            if owner != row.name:
                where = f"line {line}" if line else "already stored"
                raise Invalid(f"'{label}' already stands for {owner} ({where})", line=row.line)
