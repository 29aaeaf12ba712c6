"""The admin: saving a document re-chunks it; RESTRICTED text needs its own permission."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from askapp.models import Chunk, Document
from askapp.services.knowledge import document_upsert
from tests.canaries import CANARY_RESTRICTED
from tests.factories import StaffFactory, UserFactory

pytestmark = pytest.mark.django_db


def _document(classification: str = "PUBLIC") -> Document:
    body = f"Apple revenue memo. {CANARY_RESTRICTED}" if classification == "RESTRICTED" else ""
    document, _ = document_upsert(
        key=f"{classification.lower()}-memo",
        title=f"{classification.title()} memo",
        body=body or "Revenue rose because iPhone sold well.",
        classification=classification,
    )
    return document


def _client_for(*codenames: str) -> Client:
    staff = StaffFactory()
    staff.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    client = Client()
    client.force_login(staff)
    return client


def _superuser_client() -> Client:
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def _change_form(document: Document, **changes: str) -> dict[str, str | int]:
    chunks = list(document.chunks.all())
    data: dict[str, str | int] = {
        "key": document.key,
        "title": document.title,
        "body": document.body,
        "classification": document.classification,
        "entity": "",
        "period": document.period,
        "source": document.source,
        "chunks-TOTAL_FORMS": len(chunks),
        "chunks-INITIAL_FORMS": len(chunks),
        "chunks-MIN_NUM_FORMS": 0,
        "chunks-MAX_NUM_FORMS": 1000,
    }
    for index, chunk in enumerate(chunks):
        data[f"chunks-{index}-id"] = chunk.pk
        data[f"chunks-{index}-document"] = document.pk
    data.update(changes)
    return data


def _change_url(document: Document) -> str:
    return reverse("admin:askapp_document_change", args=[document.pk])


def test_saving_a_document_in_the_admin_cuts_its_chunks_afresh() -> None:
    document = _document()
    response = _superuser_client().post(
        _change_url(document), _change_form(document, body="Services drove the growth.")
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert list(Chunk.objects.values_list("document", "text")) == [
        (document.pk, "Services drove the growth.")
    ]


def test_adding_a_document_in_the_admin_chunks_it() -> None:
    response = _superuser_client().post(
        reverse("admin:askapp_document_add"),
        {
            "key": "new-note",
            "title": "New note",
            "body": "Margins widened.",
            "classification": "INTERNAL",
            "chunks-TOTAL_FORMS": 0,
            "chunks-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Document.objects.get(key="new-note").chunks.get().text == "Margins widened."


def test_staff_without_the_restricted_permission_never_see_the_row_nor_its_title() -> None:
    """ADR 0029 (superseding ADR 0004's listed-but-bodiless row): a document beyond the
    reader's clearance is not in the list, and its page does not exist for them."""
    document = _document("RESTRICTED")
    client = _client_for("view_document", "change_document", "delete_document")
    listing = client.get(reverse("admin:askapp_document_changelist"))
    assert "Restricted memo" not in listing.content.decode()
    page = client.get(_change_url(document), follow=True)
    assert "Restricted memo" not in page.content.decode()
    assert CANARY_RESTRICTED not in page.content.decode()
    assert "Apple revenue memo" not in page.content.decode()


def test_staff_without_the_restricted_permission_cannot_change_or_delete_it() -> None:
    document = _document("RESTRICTED")
    client = _client_for("view_document", "change_document", "delete_document")
    edit = client.post(_change_url(document), _change_form(document, body="Overwritten."))
    assert edit.status_code == 302  # to the admin's "does not exist", unchanged
    delete_url = reverse("admin:askapp_document_delete", args=[document.pk])
    client.post(delete_url, {"post": "yes"})
    client.post(
        reverse("admin:askapp_document_changelist"),
        {"action": "delete_selected", "_selected_action": [document.pk], "post": "yes"},
    )
    document.refresh_from_db()
    assert CANARY_RESTRICTED in document.body


def test_internal_documents_need_internal_clearance_in_the_admin() -> None:
    document = _document("INTERNAL")
    without = _client_for("view_document")
    assert (
        "Internal memo"
        not in without.get(reverse("admin:askapp_document_changelist")).content.decode()
    )
    cleared = _client_for("view_document", "view_internal")
    assert "Revenue rose because iPhone" in cleared.get(_change_url(document)).content.decode()


def test_staff_without_the_restricted_permission_cannot_classify_a_document_restricted() -> None:
    client = _client_for("view_document", "change_document", "add_document", "view_internal")
    page = client.get(reverse("admin:askapp_document_add")).content.decode()
    assert 'value="INTERNAL"' in page
    assert 'value="RESTRICTED"' not in page
    public_only = _client_for("view_document", "change_document", "add_document")
    page = public_only.get(reverse("admin:askapp_document_add")).content.decode()
    assert 'value="PUBLIC"' in page
    assert 'value="INTERNAL"' not in page


def test_the_restricted_permission_shows_and_edits_the_text() -> None:
    document = _document("RESTRICTED")
    client = _client_for("view_document", "change_document", "change_restricted_document")
    assert CANARY_RESTRICTED in client.get(_change_url(document)).content.decode()
    response = client.post(_change_url(document), _change_form(document, body="Rewritten."))
    assert response.status_code == 302
    assert document.chunks.get().text == "Rewritten."


def test_public_documents_show_their_text_to_any_staff_reader() -> None:
    document = _document()
    page = _client_for("view_document").get(_change_url(document)).content.decode()
    assert "Revenue rose because iPhone sold well." in page
