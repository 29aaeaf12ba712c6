"""What the admin review tests share: a small knowledge base, asking through the real ask
flow, and clients with the permissions a reviewer holds."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import Permission
from django.test import Client

from askapp.models import AnswerTurn, Classification, Conversation
from askapp.owners import Owner
from askapp.permissions import clearance_for
from askapp.services.asking import ask as ask_service
from askapp.services.asking import ask_prepare
from askapp.services.citations import turn_citations_record
from askapp.services.knowledge import document_upsert
from tests.factories import EntityFactory, FactFactory, MetricFactory, StaffFactory, UserFactory

FY2023 = Decimal("383285000000")
FY2022 = Decimal("394328000000")
DIP_NOTE = (
    "Apple's revenue fell to $383.3 billion in fiscal 2023 from $394.3 billion in fiscal "
    "2022, a decline of 2.8%. Weaker demand for Mac and iPad explains most of the dip."
)
REVIEWER_PERMISSIONS = (
    "view_answerturn", "change_answerturn", "add_review", "change_review", "view_review",
    "view_conversation", "view_fact", "view_document",
)  # fmt: skip


def knowledge_base() -> dict[str, Any]:
    """Apple's revenue for FY2022 and FY2023 and a PUBLIC note on the FY2023 dip."""
    apple = EntityFactory(name="Apple", aliases=["Apple", "Apple Inc.", "AAPL"])
    revenue = MetricFactory(name="Revenue", aliases=["Revenue", "Net sales", "Sales"])
    facts = {
        "FY2023": FactFactory(entity=apple, metric=revenue, period="FY2023", value=FY2023,
                              source="10-K filed 2023-11-03"),
        "FY2022": FactFactory(entity=apple, metric=revenue, period="FY2022", value=FY2022,
                              source="10-K filed 2022-10-28"),
    }  # fmt: skip
    note, _ = document_upsert(
        key="apple-dip",
        title="Apple revenue: the FY2023 dip",
        body=DIP_NOTE,
        classification=Classification.PUBLIC,
        entity=apple,
        period="FY2023",
        source="Analyst note",
    )
    return {"apple": apple, "revenue": revenue, "facts": facts, "note": note}


def ask(question: str, *, owner: Any = None, conversation: Conversation | None = None) -> Any:
    """Ask through the ask service, as the API does; the stored answer turn."""
    owner = owner or (conversation.owner if conversation else UserFactory())
    prepared = ask_prepare(
        owner=Owner(user_id=owner.pk),
        question=question,
        clearance=clearance_for(owner),
        conversation_id=conversation.pk if conversation else None,
    )
    stored = ask_service(prepared=prepared)
    turn_citations_record(turn=stored.answer)  # repeatable: harmless once the ask flow does it
    return AnswerTurn.objects.get(pk=stored.answer.pk)


def staff_client(*codenames: str, superuser: bool = False) -> tuple[Client, Any]:
    user = StaffFactory(is_superuser=superuser)
    user.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    client = Client()
    client.force_login(user)
    return client, user


def reviewer_client(*extra: str) -> tuple[Client, Any]:
    return staff_client(*REVIEWER_PERMISSIONS, *extra)


def listed(response: Any) -> set[Any]:
    """The rows a changelist response shows."""
    assert response.status_code == 200, response.content.decode()[:1000]
    return {row.pk for row in response.context["cl"].result_list}


def pks(rows: Iterable[Any]) -> set[Any]:
    return {row.pk for row in rows}
