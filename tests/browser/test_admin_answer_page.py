"""The admin's answer page in headless Chromium: the review panels render, and a screenshot
is kept under test-artifacts/ for people to look at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse

from tests.askapp.reviewing import ask, knowledge_base
from tests.factories import UserFactory

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts" / "admin"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is not installed"),
]


@pytest.fixture
def answer_pages(transactional_db: None, settings: Any) -> dict[str, str]:
    """A reviewer's session cookie and the answer pages of a short conversation."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    knowledge_base()
    first = ask("What was Apple's revenue in FY2023?")
    ask("and in FY2022?", conversation=first.conversation)
    change = ask("what was the change?", conversation=first.conversation)
    narrative = ask("Why did Apple's revenue dip in fiscal 2023?", conversation=first.conversation)
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return {
        "session": client.cookies[django_settings.SESSION_COOKIE_NAME].value,
        "change": reverse("admin:askapp_answerturn_change", args=[change.pk]),
        "narrative": reverse("admin:askapp_answerturn_change", args=[narrative.pk]),
    }


def test_the_answer_page_renders_its_panels_in_chromium(
    live_server: Any, answer_pages: dict[str, str]
) -> None:
    from playwright.sync_api import expect, sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
            context.add_cookies(
                [
                    {
                        "name": django_settings.SESSION_COOKIE_NAME,
                        "value": answer_pages["session"],
                        "url": live_server.url,
                    }
                ]
            )
            page = context.new_page()

            page.goto(live_server.url + answer_pages["change"])
            expect(page.locator("#interpreted-as")).to_contain_text("difference")
            expect(page.locator("#interpreted-as tr.carried")).to_have_count(4)
            expect(page.locator("#provenance tr.fact-source")).to_have_count(2)
            expect(page.locator("#figures tr.figure")).to_have_count(3)
            page.screenshot(path=str(ARTIFACTS / "answer-page.png"), full_page=True)

            page.goto(live_server.url + answer_pages["narrative"])
            expect(page.locator("#provenance mark").first).to_be_visible()
            page.screenshot(path=str(ARTIFACTS / "answer-page-narrative.png"), full_page=True)
        finally:
            browser.close()

    assert (ARTIFACTS / "answer-page.png").stat().st_size > 10_000
