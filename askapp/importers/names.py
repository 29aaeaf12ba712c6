"""Resolving the entity and metric names an import file uses to rows, creating unknown ones."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic

from askapp.importers.base import Invalid, check_fields
from askapp.models import Entity, Metric
from askapp.services.knowledge import Term, entity_upsert, metric_upsert


class Names(Generic[Term]):
    """Entities (or metrics) by name or alias, read once per import.

    A name matches its row exactly, then case-insensitively, then by an alias no other row
    shares ("AAPL" is Apple). A name nothing matches becomes a new row, listed in `created`
    so the import's report shows it (docs/adr/0003-imports-create-unknown-names.md).
    """

    def __init__(self, model: type[Term], upsert: Callable[..., tuple[Term, bool]]) -> None:
        self.noun = str(model._meta.verbose_name)
        self.noun_plural = str(model._meta.verbose_name_plural)
        self.created: list[str] = []
        self._model, self._upsert = model, upsert
        self._names: dict[str, Term] = {}
        self._aliases: dict[str, set[Term]] = {}
        for term in model.objects.all():
            self._remember(term)

    def resolve(self, text: str) -> Term:
        name = " ".join(text.split())
        if not name:
            raise Invalid(f"{self.noun} is empty")
        return self.find(name) or self._create(name)

    def find(self, text: str) -> Term | None:
        """The row `text` names (by name, then alias), or None; never creates one."""
        name = " ".join(text.split())
        folded = name.casefold()
        return self._names.get(folded) or self._by_alias(name, folded)

    def _by_alias(self, name: str, folded: str) -> Term | None:
        matches = self._aliases.get(folded, set())
        if len(matches) > 1:
            listed = ", ".join(sorted(term.name for term in matches))
            raise Invalid(f"{self.noun} '{name}' is ambiguous: it is an alias of {listed}")
        return next(iter(matches), None)

    def _create(self, name: str) -> Term:
        check_fields(self._model(name=name), exclude=["aliases"])
        term, _ = self._upsert(name=name)
        self.created.append(name)
        self._remember(term)
        return term

    def _remember(self, term: Term) -> None:
        self._names[term.name.casefold()] = term
        for alias in term.aliases:
            self._aliases.setdefault(alias.casefold(), set()).add(term)


def entity_names() -> Names[Entity]:
    return Names(Entity, entity_upsert)


def metric_names() -> Names[Metric]:
    return Names(Metric, metric_upsert)
