"""What a changelist URL may ask: only the filters each admin offers, never a body, never a
regular expression, and never anything that keeps the server busy.

Django lets a changelist URL filter on any of the model's own fields unless the admin's
`lookup_allowed` says otherwise; `?body__icontains=` on documents told a reviewer, row by row,
which words a RESTRICTED body held, and `?body__regex=((.*)*)*x` on SQLite ran Python's regex
engine over every body with the process's lock held.
"""

from __future__ import annotations

import time

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from askapp.admin.guard import GuardedAdmin
from askapp.services.knowledge import document_upsert
from tests.askapp.reviewing import ask, knowledge_base, reviewer_client, staff_client
from tests.canaries import CANARY_RESTRICTED

pytestmark = pytest.mark.django_db

CATASTROPHIC = "((.*)*)*x"


def _restricted_memo() -> None:
    document_upsert(
        key="deal-memo",
        title="Deal memo",
        body=f"Restricted: deal team only. {CANARY_RESTRICTED} " + "a" * 40,
        classification="RESTRICTED",
    )


def _changelists() -> list[tuple[str, type]]:
    return [
        (reverse(f"admin:{m._meta.app_label}_{m._meta.model_name}_changelist"), m)
        for m in admin.site._registry
    ]


def test_a_body_lookup_in_the_document_list_url_is_refused() -> None:
    _restricted_memo()
    client, _ = reviewer_client()
    url = reverse("admin:askapp_document_changelist")
    for lookup in ("body__icontains", "body__startswith", "chunks__text__contains"):
        response = client.get(url, {lookup: "walnut"})
        assert response.status_code == 400, lookup
        assert "Deal memo" not in response.content.decode()


def test_no_admin_answers_a_regex_lookup_on_any_field() -> None:
    client, _ = staff_client(superuser=True)
    for url, model in _changelists():
        for field in model._meta.concrete_fields:
            for lookup in ("regex", "iregex"):
                response = client.get(url, {f"{field.name}__{lookup}": "x"})
                assert response.status_code == 400, (url, field.name, lookup)


def test_every_registered_admin_keeps_an_allow_list_of_url_lookups() -> None:
    unguarded = [type(a).__name__ for a in admin.site._registry.values()]
    unguarded = [
        name
        for name, model_admin in zip(unguarded, admin.site._registry.values(), strict=True)
        if not isinstance(model_admin, GuardedAdmin)
    ]
    assert unguarded == []


def test_a_catastrophic_pattern_in_any_admin_url_answers_within_a_second() -> None:
    # A denial-of-service guard, so it is timed: the regex above froze the whole process for
    # minutes before, and a bound of a second is generous for a refusal (about 10 ms here).
    _restricted_memo()
    knowledge_base()
    ask("What was Apple's revenue in FY2023?")
    client, _ = staff_client(superuser=True)
    slowest = (0.0, "")
    for url, model in _changelists():
        client.get(url)  # templates compiled and caches warm: only the refusal is timed
        queries = [{f"{f.name}__regex": CATASTROPHIC} for f in model._meta.concrete_fields]
        queries += [{"q": " ".join([CATASTROPHIC] * 500)}, {"q": "%_" * 2000}]
        for query in queries:
            started = time.monotonic()
            client.get(url, query)
            slowest = max(slowest, (time.monotonic() - started, f"{url} {list(query)}"))
    assert slowest[0] < 1.0, slowest


def test_every_filter_an_admin_offers_still_works() -> None:
    """Each link in a changelist's filter sidebar is on that admin's allow-list."""
    knowledge_base()
    ask("What was Apple's revenue in FY2023?")
    client, _ = staff_client(superuser=True)
    for url, _model in _changelists():
        page = client.get(url)
        assert page.status_code == 200, url
        for spec in page.context["cl"].filter_specs:
            for choice in spec.choices(page.context["cl"]):
                response = client.get(url + choice["query_string"])
                assert response.status_code == 200, (url, choice["query_string"])


def test_a_long_search_is_cut_to_its_first_words() -> None:
    knowledge_base()
    answer = ask("What was Apple's revenue in FY2023?")
    client, _ = reviewer_client()
    url = reverse("admin:askapp_answerturn_changelist")
    words = "Apple " * 8 + "nothing-matches-this " * 50
    response = client.get(url, {"q": words})
    assert response.status_code == 200
    assert answer.pk in {row.pk for row in response.context["cl"].result_list}


@pytest.mark.parametrize("selection", ["not-a-uuid", "1; DROP TABLE", ""])
def test_a_bulk_action_on_a_malformed_selection_says_so_instead_of_failing(
    selection: str,
) -> None:
    client, _ = reviewer_client()
    url = reverse("admin:askapp_answerturn_changelist")
    response = client.post(
        url, {"action": "set_verdict", "_selected_action": [selection]}, follow=True
    )
    assert response.status_code == 200
    shown = [str(m) for m in response.context["messages"]]
    assert any("selection" in m.lower() or "selected" in m.lower() for m in shown), shown


def test_a_staff_client_with_no_permission_gets_no_changelist() -> None:
    client = Client()
    assert client.get(reverse("admin:askapp_document_changelist")).status_code == 302
