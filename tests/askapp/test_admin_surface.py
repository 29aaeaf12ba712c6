"""Every door of the admin, walked by every role: each changelist (with each of its filter
links), each object's page, each answer's replay and the export, as a superuser, a reviewer
without clearance, a reviewer cleared for INTERNAL and an editor. No page shows a canary
phrase, or a name only material above the role's clearance introduces, to a role that may not
see it; the superuser sees them all, so the walk is not vacuous.

The same walk over the chat pages and the API, as a visitor and as a user cleared for
INTERNAL, with names that only RESTRICTED material introduces.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from askapp.models import AnswerTurn, Classification, Document
from askapp.services.knowledge import document_save, document_upsert
from askapp.services.reviews import review_set
from tests.askapp.reviewing import REVIEWER_PERMISSIONS, ask, knowledge_base, staff_client
from tests.canaries import CANARY_CODES
from tests.factories import EntityFactory, FactFactory, MetricFactory, UserFactory

pytestmark = pytest.mark.django_db

# Names only RESTRICTED material introduces, and one only INTERNAL material introduces.
RESTRICTED_NAMES = ("Zephyr Holdings", "Walnut fee", "Harbour Labs")
INTERNAL_NAMES = ("Quillon Partners",)
RESTRICTED_CODES = CANARY_CODES["RESTRICTED"]
INTERNAL_CODES = CANARY_CODES["INTERNAL"]
EDITOR_PERMISSIONS = tuple(
    f"{action}_{model}"
    for model in ("entity", "metric", "fact", "document")
    for action in ("add", "change", "view", "delete")
)


@dataclass
class Role:
    name: str
    client: Client
    forbidden: tuple[str, ...]
    pages: list[str] = field(default_factory=list)


def _internal_user() -> Any:
    user = UserFactory()
    user.user_permissions.add(Permission.objects.get(codename="view_internal"))
    return user


def _material() -> None:
    """Apple's PUBLIC figures and note, INTERNAL and RESTRICTED documents with canary
    phrases, and names only INTERNAL or RESTRICTED material introduces."""
    held = knowledge_base()
    zephyr = EntityFactory(name="Zephyr Holdings", aliases=["Zephyr Holdings", "ZPH"])
    quillon = EntityFactory(name="Quillon Partners", aliases=["Quillon Partners"])
    harbour = EntityFactory(name="Harbour Labs", aliases=["Harbour Labs"])
    walnut = MetricFactory(name="Walnut fee", aliases=["Walnut fee"])
    FactFactory(entity=zephyr, metric=held["revenue"], period="FY2023",
                value=Decimal("5000000"), classification=Classification.RESTRICTED)  # fmt: skip
    FactFactory(entity=held["apple"], metric=walnut, period="FY2023",
                value=Decimal("7000"), classification=Classification.RESTRICTED)  # fmt: skip
    FactFactory(entity=quillon, metric=held["revenue"], period="FY2023",
                value=Decimal("6000000"), classification=Classification.INTERNAL)  # fmt: skip
    document_upsert(
        key="internal-plan", title="Apple services margin plan",
        body=f"Apple's services margin plan is internal. {INTERNAL_CODES[0]} marks it.",
        classification=Classification.INTERNAL, entity=held["apple"],
    )  # fmt: skip
    document_upsert(
        key="deal-room", title="Harbour Labs deal memo",
        body=f"Harbour Labs is on the shortlist. {RESTRICTED_CODES[0]} walnut harbour.",
        classification=Classification.RESTRICTED, entity=harbour,
    )  # fmt: skip


def _answers() -> list[AnswerTurn]:
    """A PUBLIC answer, an INTERNAL one, and one whose PUBLIC document became RESTRICTED."""
    public = ask("What was Apple's revenue in FY2023?")
    internal = ask("What is Apple's services margin plan?", owner=_internal_user())
    assert INTERNAL_CODES[0] in json.dumps(internal.sources)
    tollgate, _ = document_upsert(
        key="board-briefing", title="Apple board briefing on pricing",
        body=f"Apple's pricing review names the {RESTRICTED_CODES[1]} amber tollgate scenario.",
        classification=Classification.PUBLIC, entity=Document.objects.get(key="apple-dip").entity,
    )  # fmt: skip
    reclassified = ask("What does the Apple pricing review name?")
    assert RESTRICTED_CODES[1] in reclassified.text, reclassified.text
    tollgate.classification = Classification.RESTRICTED
    document_save(document=tollgate)
    answers = [public, internal, reclassified]
    review_set(turns=answers, verdict="correct", reviewer=None)
    return answers


def _admin_urls(answers: list[AnswerTurn]) -> list[str]:
    """Every changelist with each of its filter links, every object's page, every replay."""
    superuser, _ = staff_client(superuser=True)
    urls = []
    for model, model_admin in admin.site._registry.items():
        opts = model._meta
        changelist = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
        urls.append(changelist)
        page = superuser.get(changelist)
        for spec in page.context["cl"].filter_specs:
            urls += [changelist + c["query_string"] for c in spec.choices(page.context["cl"])]
        for pk in model_admin.get_queryset(page.wsgi_request).values_list("pk", flat=True):
            urls.append(reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[pk]))
    urls += [reverse("admin:askapp_answerturn_replay", args=[a.pk]) for a in answers]
    return urls


def _export(client: Client, answers: list[AnswerTurn]) -> str:
    response = client.post(
        reverse("admin:askapp_answerturn_changelist"),
        {"action": "export_cases", "_selected_action": [str(a.pk) for a in answers]},
        follow=True,
    )
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return body.decode()


def _roles() -> list[Role]:
    everything = (*RESTRICTED_CODES, *INTERNAL_CODES, *RESTRICTED_NAMES, *INTERNAL_NAMES)
    return [
        Role("superuser", staff_client(superuser=True)[0], ()),
        Role(
            "reviewer",
            staff_client(*REVIEWER_PERMISSIONS, "view_entity", "view_metric")[0],
            everything,
        ),
        Role(
            "reviewer with INTERNAL",
            staff_client(*REVIEWER_PERMISSIONS, "view_entity", "view_metric", "view_internal")[0],
            (*RESTRICTED_CODES, *RESTRICTED_NAMES),
        ),
        Role("editor", staff_client(*EDITOR_PERMISSIONS)[0], everything),
    ]


def test_no_admin_page_shows_a_role_what_its_clearance_does_not_hold() -> None:
    _material()
    answers = _answers()
    urls = _admin_urls(answers)
    assert len(urls) > 40
    seen_by_superuser = ""
    for role in _roles():
        for url in urls:
            response = role.client.get(url, follow=True)
            assert response.status_code in (200, 403), (role.name, url, response.status_code)
            page = response.content.decode()
            for secret in role.forbidden:
                assert secret not in page, (role.name, url, secret)
            if role.name == "superuser":
                seen_by_superuser += page
        exported = _export(role.client, answers)
        for secret in role.forbidden:
            assert secret not in exported, (role.name, "export", secret)
    for secret in (*RESTRICTED_CODES, *INTERNAL_CODES, *RESTRICTED_NAMES, *INTERNAL_NAMES):
        assert secret in seen_by_superuser, secret  # the walk reached every secret


def test_no_chat_page_or_api_response_names_what_only_restricted_material_introduces() -> None:
    _material()
    answers = _answers()
    visitor, cleared = APIClient(), APIClient()
    cleared.force_login(_internal_user())
    visitor.force_login(UserFactory())
    questions = (
        "What was revenue in FY2023?",
        "What was ZPH revenue in FY2023?",
        "What was Apple's walnut fee in FY2023?",
        "What does the deal memo say about the shortlist?",
        "Which companies are in the knowledge base?",
    )
    # An alias the asker typed may be echoed ("no figure for ZPH"): their own word, while the
    # name it stands for is never given away.
    forbidden = (*RESTRICTED_NAMES, *RESTRICTED_CODES)
    for client, extra in ((visitor, INTERNAL_NAMES + INTERNAL_CODES), (cleared, ())):
        texts = []
        for question in questions:
            for path in ("/v1/ask", "/v1/ask/stream"):
                response = client.post(path, {"question": question}, format="json")
                assert response.status_code == 200
                body = (
                    b"".join(response.streaming_content) if response.streaming else response.content
                )
                texts.append(body.decode().replace(json.dumps(question)[1:-1], ""))
        listing = client.get("/v1/conversations", {"page_size": 100}).json()["results"]
        for conversation in listing:
            detail = client.get(f"/v1/conversations/{conversation['id']}").content.decode()
            page = client.get(f"/c/{conversation['id']}/").content.decode()
            texts += [_without_questions(detail, questions), _without_questions(page, questions)]
        texts += [
            _without_questions(client.get(path).content.decode(), questions)
            for path in ("/", "/conversations/", "/coverage/")
        ]
        for text in texts:
            for secret in (*forbidden, *extra):
                assert secret not in text, secret
    assert answers
    # A name the asker types is theirs: the answer may say it holds nothing about it, exactly
    # as it says for a name nobody holds (another user, whose pages are not walked above).
    typed = APIClient()
    typed.force_login(_internal_user())
    secret, unknown = (
        typed.post(
            "/v1/ask", {"question": f"What was {name}' revenue in FY2023?"}, format="json"
        ).json()["turn"]
        for name in ("Zephyr Holdings", "Yarrow Holdings")
    )
    assert secret["text"].replace("Zephyr", "Yarrow") == unknown["text"]
    assert (secret["status"], secret["choices"], secret["sources"]) == (
        unknown["status"], unknown["choices"], unknown["sources"],
    )  # fmt: skip


def _without_questions(text: str, questions: tuple[str, ...]) -> str:
    """The questions are the asker's own words (a name typed is not a name learnt)."""
    for question in questions:
        text = text.replace(question, "").replace(question.replace("'", "&#x27;"), "")
        text = text.replace(json.dumps(question)[1:-1], "")
    return text
