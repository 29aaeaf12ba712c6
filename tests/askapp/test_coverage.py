"""What the knowledge base holds, as a visitor may see it: the coverage table and the landing
page's example questions, each asked through the real ask flow (the no-JavaScript form)."""

from __future__ import annotations

import re
from decimal import Decimal
from html import unescape
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from askapp.models import Classification, Turn
from askapp.services.knowledge import document_upsert
from tests.factories import PASSWORD, EntityFactory, FactFactory, MetricFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def held(db: None, settings: Any) -> None:
    """Apple: Revenue FY2021-FY2023 and Net income FY2023 PUBLIC, Operating income INTERNAL,
    Gross profit RESTRICTED; Shanghai Co: RESTRICTED figures only."""
    settings.ASKAPP_ANONYMOUS_CHAT = True
    apple = EntityFactory(name="Apple", aliases=["Apple", "AAPL"])
    microsoft = EntityFactory(name="Microsoft", aliases=["Microsoft", "MSFT"])
    revenue = MetricFactory(name="Revenue", aliases=["Revenue", "Net sales"])
    income = MetricFactory(name="Net income", aliases=["Net income", "Net earnings"])
    for year, value in (("FY2021", "365"), ("FY2022", "394"), ("FY2023", "383")):
        FactFactory(entity=apple, metric=revenue, period=year, value=Decimal(value))
        FactFactory(entity=microsoft, metric=revenue, period=year, value=Decimal(value) / 2)
    FactFactory(entity=apple, metric=income, period="FY2023", value=Decimal("97"))
    FactFactory(
        entity=apple,
        metric=MetricFactory(name="Operating income"),
        period="FY2023",
        classification=Classification.INTERNAL,
    )
    FactFactory(
        entity=apple,
        metric=MetricFactory(name="Gross profit"),
        period="FY2023",
        classification=Classification.RESTRICTED,
    )
    FactFactory(
        entity=EntityFactory(name="Shanghai Co"),
        metric=revenue,
        period="FY2023",
        classification=Classification.RESTRICTED,
    )
    document_upsert(
        key="apple-services",
        title="Apple services growth",
        body="Apple said its services business kept growing, with more paid subscriptions.",
        classification=Classification.PUBLIC,
        entity=apple,
    )


def _cells(page: str, row: str) -> list[str]:
    match = re.search(rf">{re.escape(row)}</a></th>(.*?)</tr>", page, re.S)
    assert match, f"no row {row}"
    return [
        unescape(re.sub(r"<[^>]+>", "", c)).strip()
        for c in re.findall(r"<td[^>]*>(.*?)</td>", match.group(1), re.S)
    ]


def test_the_coverage_counts_only_what_the_visitor_may_see(client: Client, held: None) -> None:
    page = client.get("/coverage/").content.decode()

    assert "Shanghai" not in page  # RESTRICTED figures only: not listed at all
    # Apple in FY2023: Revenue and Net income; not the INTERNAL or the RESTRICTED one
    assert _cells(page, "Apple") == ["1", "1", "2"]
    assert "in up to 2 metrics a year" in page
    assert "Gross profit" not in page and "Operating income" not in page


def test_internal_clearance_counts_internal_figures_but_never_restricted_ones(
    client: Client, held: None
) -> None:
    user = UserFactory()
    user.user_permissions.add(Permission.objects.get(codename="view_internal"))
    client.login(username=user.username, password=PASSWORD)

    page = client.get("/coverage/").content.decode()

    assert _cells(page, "Apple") == ["1", "1", "3"]
    assert "Shanghai" not in page
    company = client.get("/coverage/?company=Apple").content.decode()
    assert "Operating income" in company and "Gross profit" not in company


def test_a_company_the_visitor_may_not_see_is_not_found(client: Client, held: None) -> None:
    response = client.get("/coverage/?company=Shanghai+Co")

    assert response.status_code == 404
    assert "Shanghai Co" not in response.content.decode().split("<main")[1].split("</h1>")[0]


def test_each_held_figure_of_a_company_is_a_question_that_answers(
    client: Client, held: None
) -> None:
    page = client.get("/coverage/?company=Apple").content.decode()
    questions = [unescape(q) for q in re.findall(r'name="question" value="([^"]+)"', page)]

    assert questions == [
        "What was Apple's Net income in FY2023?",
        "What was Apple's Revenue in FY2021?",
        "What was Apple's Revenue in FY2022?",
        "What was Apple's Revenue in FY2023?",
    ]
    client.post("/ask", {"question": questions[0]})
    answer = Turn.objects.get(role=Turn.Role.ASSISTANT)
    assert answer.status == Turn.Status.FOUND and "97" in answer.text


def test_the_coverage_reads_in_a_fixed_number_of_queries(
    client: Client, held: None, django_assert_num_queries: Any
) -> None:
    client.get("/coverage/")
    with django_assert_num_queries(2):  # the metrics the visitor may see, the counts
        client.get("/coverage/")
    for year in ("FY2018", "FY2019", "FY2020"):
        FactFactory(entity=EntityFactory(), period=year)
    with django_assert_num_queries(2):
        client.get("/coverage/")


def test_every_landing_example_is_answered_through_the_ask_flow(client: Client, held: None) -> None:
    page = client.get("/").content.decode()
    examples = [unescape(q) for q in re.findall(r'value="([^"]+)" class="example"', page)]
    assert len(examples) >= 4, examples

    for question in examples:
        client.post("/ask", {"question": question})
        answer = Turn.objects.filter(role=Turn.Role.ASSISTANT).latest("created")
        assert answer.answers.text == question
        assert answer.status in (Turn.Status.FOUND, Turn.Status.ANSWERED), (question, answer.text)
