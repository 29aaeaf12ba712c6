"""The answer page for reviewing at speed: the verdict first, and beside a refused or asked-back
answer what the knowledge base holds for that company and metric, so a false refusal shows."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from askapp.models import Classification, Turn
from tests.askapp.reviewing import ask, knowledge_base, reviewer_client, staff_client
from tests.factories import FactFactory, MetricFactory

pytestmark = pytest.mark.django_db


def _page(client: Client, turn: Turn) -> str:
    response = client.get(reverse("admin:askapp_answerturn_change", args=[turn.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _held(html: str) -> str:
    start = html.index('id="held"')
    return html[start : html.index("</fieldset>", start)]


def _rows(panel: str, css: str) -> list[list[str]]:
    rows = re.findall(rf'<tr class="{css}[^"]*">(.*?)</tr>', panel, re.S)
    return [
        [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td>(.*?)</td>", r, re.S)]
        for r in rows
    ]


@pytest.fixture
def kb() -> dict:  # type: ignore[type-arg]
    held = knowledge_base()
    income = MetricFactory(name="Net income", aliases=["Net income"])
    FactFactory(entity=held["apple"], metric=income, period="FY2023", value=Decimal("96995000000"))
    FactFactory(
        entity=held["apple"],
        metric=MetricFactory(name="Gross profit"),
        period="FY2023",
        value=Decimal("169148000000"),
        classification=Classification.RESTRICTED,
    )
    FactFactory(
        entity=held["apple"],
        metric=MetricFactory(name="Operating income"),
        period="FY2023",
        value=Decimal("114301000000"),
        classification=Classification.INTERNAL,
    )
    return held


def test_a_refused_answer_shows_the_company_s_figures_for_the_metric_and_the_period(
    kb: dict,  # type: ignore[type-arg]
) -> None:
    answer = ask("What was Apple's revenue in FY2020?")
    assert answer.status == Turn.Status.NOT_FOUND
    client, _ = reviewer_client()

    held = _held(_page(client, answer))

    assert [row[:4] for row in _rows(held, "held-fact")] == [
        ["Apple", "Revenue", "FY2022", "USD 394.3 billion"],
        ["Apple", "Revenue", "FY2023", "USD 383.3 billion"],
    ]
    assert "may be a false refusal" not in held
    assert "Other figures for Apple in FY2020" in held


def test_a_figure_held_for_exactly_what_was_asked_is_flagged(kb: dict) -> None:  # type: ignore[type-arg]
    """The answer was stored as a refusal (say, by an older engine) though the knowledge base
    holds the figure the asker could see: the page says so."""
    answer = ask("What was Apple's revenue in FY2020?")
    answer.intent = {**answer.intent, "periods": ["FY2023"]}
    answer.save()
    client, _ = reviewer_client()

    held = _held(_page(client, answer))

    assert "Apple · Revenue · FY2023. This answer may be a false refusal." in held
    assert '<tr class="held-fact asked">' in held


def test_restricted_figures_stay_hidden_and_internal_ones_are_marked_beyond_clearance(
    kb: dict,  # type: ignore[type-arg]
) -> None:
    answer = ask("What was Apple's cost of goods in FY2023?")  # no such metric held
    answer.intent = {
        **answer.intent,
        "entities": ["Apple"],
        "metrics": ["Capex"],
        "periods": ["FY2023"],
    }
    answer.status = Turn.Status.NOT_FOUND
    answer.save()
    client, _ = reviewer_client()

    others = _rows(_held(_page(client, answer)), "held-other")

    assert [row[1] for row in others] == ["Net income", "Operating income", "Revenue"]
    assert "Gross profit" not in str(others)  # RESTRICTED: this reviewer may not read it
    internal = next(row for row in others if row[1] == "Operating income")
    assert internal[4] == "INTERNAL (beyond the asker's clearance)"
    superuser, _ = staff_client(superuser=True)  # may read RESTRICTED material
    assert "Gross profit" in _held(_page(superuser, answer))


def test_a_found_answer_has_no_such_panel(kb: dict) -> None:  # type: ignore[type-arg]
    answer = ask("What was Apple's revenue in FY2023?")
    client, _ = reviewer_client()

    assert 'id="held"' not in _page(client, answer)


def test_the_verdict_comes_before_the_frozen_fields_and_panels(kb: dict) -> None:  # type: ignore[type-arg]
    answer = ask("What was Apple's revenue in FY2020?")
    client, _ = reviewer_client()

    html = _page(client, answer)

    order = [html.index(marker) for marker in (
        'id="summary"', 'name="review-0-verdict"', 'name="_save"', 'id="held"',
        "<h2", 'id="interpreted-as"', 'id="provenance"',
    )]  # fmt: skip
    assert order[:4] == sorted(order[:4])
    assert html.index('id="held"') < html.index('id="interpreted-as"')
    assert html.count('name="review-0-verdict"') == 1


def test_setting_the_verdict_from_the_top_of_the_page_saves_it(kb: dict) -> None:  # type: ignore[type-arg]
    answer = ask("What was Apple's revenue in FY2020?")
    client, _ = reviewer_client()
    url = reverse("admin:askapp_answerturn_change", args=[answer.pk])

    response = client.post(url, {
        "review-TOTAL_FORMS": "1", "review-INITIAL_FORMS": "0", "review-MIN_NUM_FORMS": "0",
        "review-MAX_NUM_FORMS": "1", "review-0-verdict": "correct", "review-0-note": "",
        "review-0-expected_value": "", "review-0-turn": str(answer.pk), "_save": "Save",
    })  # fmt: skip

    assert response.status_code == 302
    answer.refresh_from_db()
    assert answer.review.verdict == "correct"
