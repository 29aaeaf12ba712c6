"""'What the knowledge base holds' beside a refused or asked-back answer: the company's figures
for the metric asked, and its figures in the period asked, as the knowledge base holds them
today. A false refusal shows at a glance: a figure held for exactly what was asked.

Each figure says whether the asker could have been given it: RESTRICTED never, INTERNAL only
with the owner's clearance as it is today. RESTRICTED figures are listed only to readers
allowed to see RESTRICTED material (ADR 0004).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.urls import reverse

from askapp.models import Classification, Fact, Turn
from askapp.permissions import clearance_for
from engine import format_value, period_sort_key, showable

SHOWN = (Turn.Status.NOT_FOUND, Turn.Status.CLARIFY)
MOST = 4  # companies and metrics of one question looked up, at most


@dataclass(frozen=True, slots=True)
class HeldFact:
    entity: str
    metric: str
    period: str
    shown: str  # the value as answers write it
    classification: str
    url: str
    asked: bool  # exactly what the question asked for
    beyond_clearance: bool  # the asker could not have been given it


@dataclass(frozen=True, slots=True)
class HeldPanel:
    entities: Sequence[str]
    metrics: Sequence[str]
    periods: Sequence[str]
    series: Sequence[HeldFact]  # the companies' figures for the metrics asked
    in_period: Sequence[HeldFact]  # the companies' other figures in the periods asked

    @property
    def asked_and_held(self) -> list[HeldFact]:
        """Figures held for exactly what was asked that the asker may see: a refusal with
        any of these deserves a second look."""
        return [f for f in self.series if f.asked and not f.beyond_clearance]


def held_panel(turn: Turn, *, may_see_restricted: bool) -> HeldPanel | None:
    """The panel for a not-found or clarify answer (None for others): two queries for the
    figures, and the owner's clearance (their row and permission)."""
    if turn.status not in SHOWN:
        return None
    intent = turn.intent or {}
    entities = list(intent.get("entities") or ())[:MOST]
    metrics = list(intent.get("metrics") or ())[:MOST]
    periods = list(intent.get("periods") or ())
    if not entities:
        return HeldPanel(entities, metrics, periods, (), ())
    clearance = clearance_for(turn.conversation.owner if turn.conversation.owner_id else None)
    facts = Fact.objects.select_related("entity", "metric").filter(entity__name__in=entities)
    if not may_see_restricted:
        facts = facts.exclude(classification=Classification.RESTRICTED)
    series = facts.filter(metric__name__in=metrics) if metrics else facts.none()
    in_period = facts.filter(period__in=periods).exclude(metric__name__in=metrics)

    def rows(queryset: object) -> list[HeldFact]:
        made = [_held(f, periods, metrics, clearance) for f in queryset]  # type: ignore[attr-defined]
        return sorted(made, key=lambda f: (f.entity, f.metric, period_sort_key(f.period)))

    return HeldPanel(entities, metrics, periods, rows(series), rows(in_period) if periods else [])


def _held(
    fact: Fact, periods: Sequence[str], metrics: Sequence[str], clearance: frozenset[str]
) -> HeldFact:
    return HeldFact(
        entity=fact.entity.name,
        metric=fact.metric.name,
        period=fact.period,
        shown=format_value(fact.value, fact.unit),
        classification=fact.classification,
        url=reverse("admin:askapp_fact_change", args=[fact.pk]),
        asked=fact.period in periods and fact.metric.name in metrics,
        beyond_clearance=not showable(fact.classification, clearance),
    )
