"""Names that only RESTRICTED material introduces stay unknown to the chat page and the API:
importing a RESTRICTED fact or document about a new company (or a new metric) creates the
name, and no visitor may tell it from a name that does not exist. An INTERNAL-only name is
known to users cleared for INTERNAL and to no one else."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

SECRET_COMPANY = "Zephyr Holdings"  # only a RESTRICTED fact and a RESTRICTED memo name it
SECRET_METRIC = "Walnut fee"  # only a RESTRICTED fact names it
INTERNAL_COMPANY = "Quillon Partners"  # only INTERNAL material names it
UNKNOWN_COMPANY = "Yarrow Holdings"  # nothing names it


@pytest.fixture
def imported(kb: None, tmp_path: Path) -> None:
    facts = tmp_path / "secret.csv"
    facts.write_text(
        "entity,metric,period,value,unit,classification,source\n"
        f"{SECRET_COMPANY},Revenue,FY2023,5000000,USD,RESTRICTED,deal room\n"
        f"Apple,{SECRET_METRIC},FY2023,7000,USD,RESTRICTED,deal room\n"
        f"{INTERNAL_COMPANY},Revenue,FY2023,6000000,USD,INTERNAL,coverage model\n",
        encoding="utf-8",
    )
    memo = tmp_path / "memo.md"
    memo.write_text(
        "title: Harbour memo\nclassification: RESTRICTED\nentity: Harbour Labs\n\n"
        "Harbour Labs is on the shortlist.\n",
        encoding="utf-8",
    )
    call_command("import_facts", str(facts), stdout=None)
    call_command("import_documents", str(memo), stdout=None)


def _internal_user() -> Any:
    user = UserFactory()
    user.user_permissions.add(Permission.objects.get(codename="view_internal"))
    return user


def _page(client: Client) -> str:
    response = client.get("/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_company_select_lists_only_names_the_visitor_may_learn(
    imported: None, client: Client
) -> None:
    anonymous = _page(client)
    assert "Apple" in anonymous
    for name in (SECRET_COMPANY, "Harbour Labs", INTERNAL_COMPANY):
        assert name not in anonymous
    cleared = Client()
    cleared.force_login(_internal_user())
    page = _page(cleared)
    assert INTERNAL_COMPANY in page
    assert SECRET_COMPANY not in page and "Harbour Labs" not in page


def test_a_scope_naming_a_restricted_only_company_answers_as_an_unknown_name(
    imported: None, api: APIClient
) -> None:
    secret = api.post("/v1/conversations", {"scope": SECRET_COMPANY}, format="json")
    unknown = api.post("/v1/conversations", {"scope": UNKNOWN_COMPANY}, format="json")
    assert secret.status_code == unknown.status_code == 400
    assert secret.content.decode().replace("Zephyr", "Yarrow") == unknown.content.decode()
    memo_only = api.post("/v1/conversations", {"scope": "Harbour Labs"}, format="json")
    assert memo_only.status_code == 400


def test_an_internal_only_company_is_a_scope_only_with_internal_clearance(
    imported: None, api: APIClient
) -> None:
    assert (
        api.post("/v1/conversations", {"scope": INTERNAL_COMPANY}, format="json").status_code == 400
    )
    api.force_authenticate(_internal_user())
    created = api.post("/v1/conversations", {"scope": INTERNAL_COMPANY}, format="json")
    assert created.status_code == 201
    assert created.json()["scope"] == INTERNAL_COMPANY


def test_the_chat_form_refuses_a_restricted_only_scope_as_an_unknown_one(
    imported: None, client: Client
) -> None:
    bodies = []
    for name in (SECRET_COMPANY, UNKNOWN_COMPANY):
        response = client.post("/ask", {"question": "What was revenue in FY2023?", "scope": name})
        assert response.status_code == 400
        bodies.append(response.content.decode().replace("Zephyr", "Yarrow"))
    assert SECRET_COMPANY not in bodies[0]


def test_answers_never_name_a_restricted_only_company_or_metric(
    imported: None, api: APIClient
) -> None:
    api.force_authenticate(_internal_user())
    for question in (
        "What was revenue in FY2023?",
        "Which companies do you hold?",
        "What was Apple's walnut fee in FY2023?",
        "What did the memo say about the shortlist?",
    ):
        for path in ("/v1/ask", "/v1/ask/stream"):
            response = api.post(path, {"question": question}, format="json")
            assert response.status_code == 200
            body = b"".join(response.streaming_content) if response.streaming else response.content
            text = body.decode()
            for name in (SECRET_COMPANY, SECRET_METRIC, "Harbour Labs"):
                assert name not in text, (question, path, name)


def test_the_landing_page_counts_only_what_the_visitor_may_see(
    imported: None, client: Client
) -> None:
    page = _page(client)
    # Apple's three PUBLIC facts and one PUBLIC document, about Apple alone (Microsoft has
    # neither a fact nor a document), with Revenue and Net income.
    assert "holds 3 facts about 1 company (2 metrics) and 1 document." in page
