"""Importing an SEC XBRL companyfacts document: one company's reported figures.

The document is read and checked whole (askapp/importers/xbrl.py), one figure is chosen per
metric and period (askapp/importers/selection.py), and the figures are written as PUBLIC facts
(SEC filings are public) of one entity, each naming its filing, in one transaction like every
other import (docs/adr/0002). The entity is found by its CIK alias, its name or a ticker, or
created; it gains its CIK (`CIK 0001640147`), the SEC's name for it and its tickers as aliases.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from askapp.importers.base import (
    ImportFailure,
    ImportReport,
    Invalid,
    Progress,
    Write,
    check_fields,
    import_transaction,
    open_text,
)
from askapp.importers.concept_map import ConceptMap
from askapp.importers.facts import FactInput, FactWriter
from askapp.importers.names import Names, entity_names, metric_names
from askapp.importers.selection import select_facts
from askapp.importers.xbrl import CompanyFacts, read_companyfacts
from askapp.models import Classification, Entity, Metric
from askapp.services.knowledge import entity_upsert

_STATE_TAG = re.compile(r"\s*/[A-Z]{2,3}/?\s*$")
_LEGAL_FORM = re.compile(
    r"[\s,]+(?:&\s*)?(?:inc|incorporated|corp|corporation|co|company|ltd|limited|plc|llc|"
    r"l\.?p|n\.?v|s\.?a|ag|se)\.?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class CompanyFactsOptions:
    concept_map: ConceptMap = field(default_factory=ConceptMap.load)
    all_concepts: bool = False
    quarters: bool = False
    entity: str | None = None  # the entity's name, when it is not the SEC's
    aliases: tuple[str, ...] = ()  # more aliases for the entity (tickers, short names)


def import_companyfacts(
    path: str,
    *,
    options: CompanyFactsOptions | None = None,
    text: str | None = None,
    dry_run: bool = False,
    progress_every: int = 10_000,
    write_progress: Write | None = None,
) -> ImportReport:
    """Import one companyfacts document: all its chosen figures, or (at its first bad row)
    none. `text` is the document when it did not come from a file (EDGAR); `path` then only
    names it in messages."""
    options = options or CompanyFactsOptions()
    report = ImportReport(path=path, noun="facts", dry_run=dry_run)
    progress = Progress(path, every=progress_every, write=write_progress)
    with _document(path, text) as document, import_transaction(dry_run=dry_run):
        try:
            company = read_companyfacts(document, tick=progress.tick)
            _import(company, options, report)
        except Invalid as exc:
            raise ImportFailure(path, exc.line, str(exc)) from None
    return report


@contextmanager
def _document(path: str, text: str | None) -> Iterator[str]:
    if text is not None:
        yield text
        return
    with open_text(path) as handle:
        yield handle.read()


def _import(company: CompanyFacts, options: CompanyFactsOptions, report: ImportReport) -> None:
    metrics = metric_names()
    selection = select_facts(
        company,
        options.concept_map,
        same_metric=lambda name: _key(metrics.find(name), name),
        all_concepts=options.all_concepts,
        quarters=options.quarters,
    )
    entity = _entity(company, options, report)
    writer = FactWriter(report)
    for chosen in sorted(selection.facts, key=lambda c: (c.metric, c.period)):
        fact = FactInput(
            entity=entity.name,
            metric=chosen.metric,
            period=chosen.period,
            value=chosen.row.value,
            unit=chosen.unit,
            classification=Classification.PUBLIC,
            source=chosen.row.source,
        )
        try:
            writer.add(fact, where=chosen.row.where)
        except Invalid as exc:
            raise Invalid(f"{chosen.row.where}: {exc}") from None
    writer.finish()
    report.notes.extend(selection.notes(quarters=options.quarters))


def _key(found: Metric | None, name: str) -> str:
    """One key for a metric however a map or label spells it (name, alias, case)."""
    return (found.name if found is not None else " ".join(name.split())).casefold()


def cik_alias(cik: int) -> str:
    """How the entity carries its CIK: as EDGAR writes it, `CIK 0000320193`."""
    return f"CIK {cik:010d}"


def _entity(company: CompanyFacts, options: CompanyFactsOptions, report: ImportReport) -> Entity:
    """The company's entity: the one `--entity` names, else the one its CIK, its name or a
    ticker names; a new one when none does. Its CIK, SEC name, tickers and any `--alias` join
    its aliases; a label that already stands for another entity is an error (ADR 0003)."""
    names = entity_names()
    cik = cik_alias(company.cik)
    wanted = [options.entity] if options.entity else [cik, company.name, *company.tickers]
    entity = next((found for name in wanted if (found := names.find(name))), None)
    created = entity is None
    if entity is None:
        name = options.entity or company.name
        check_fields(Entity(name=name), exclude=["aliases"])
        entity, _ = entity_upsert(name=name)
    labels = [company.name, cik, *company.tickers, *options.aliases]
    added = _new_aliases(entity, labels, names)
    # The short name lets "Snowflake's revenue" find SNOWFLAKE INC.; it is a convenience,
    # so it is left out rather than refused when another entity already answers to it.
    short = short_name(company.name)
    held = {label.casefold() for label in (entity.name, *entity.aliases, *added)}
    if short and short.casefold() not in held and (names.find(short) or entity).pk == entity.pk:
        added.append(short)
    if added:
        entity, _ = entity_upsert(name=entity.name, aliases=[*entity.aliases, *added])
    state = "new entity" if created else "entity"
    listed = f", aliases added: {', '.join(added)}" if added else ""
    report.notes.insert(0, f"{state} {entity.name}{listed}")
    return entity


def _new_aliases(entity: Entity, labels: Sequence[str], names: Names[Entity]) -> list[str]:
    held = {label.casefold() for label in (entity.name, *entity.aliases)}
    added: list[str] = []
    for label in (" ".join(label.split()) for label in labels):
        if not label or label.casefold() in held:
            continue
        owner = names.find(label)
        if owner is not None and owner.pk != entity.pk:
            raise Invalid(f"alias '{label}' already stands for the entity {owner.name}")
        held.add(label.casefold())
        added.append(label)
    return added


def short_name(name: str) -> str | None:
    """The name without its legal form or EDGAR's state tag ("SNOWFLAKE INC." is Snowflake,
    "Tesla, Inc." Tesla), as questions write it; None when nothing is left to drop."""
    short = _STATE_TAG.sub("", name)
    while (stripped := _LEGAL_FORM.sub("", short)) != short:
        short = stripped
    short = short.strip(" ,.&")
    if short.isupper():
        short = " ".join(word.capitalize() if word.isalpha() else word for word in short.split())
    return short if short and short.casefold() != name.casefold() else None
