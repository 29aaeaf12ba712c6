"""The real server for browser tests: the server on project.asgi, as bin/serve runs it, over a
fresh SQLite file migrated and loaded with the demo data, driven by Debian's Chromium.

Nothing here shares the test process's Django: the server is a subprocess with its own
environment (DEBUG off, a SECRET_KEY, anonymous chat on), so what the browser sees is what a
deployment serves, static files through WhiteNoise included.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.browser.pages import Chat
from tests.live import LiveServer, copy_database, demo_database, manage

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts" / "browser"
# The screenshots docs/screenshots/README.md names: refreshed in place only when asked
# (ASKAPP_REFRESH_SCREENSHOTS=1), so that running the suite leaves the checkout as it was.
DOC_SCREENSHOTS = (
    ROOT / "docs" / "screenshots"
    if os.environ.get("ASKAPP_REFRESH_SCREENSHOTS") == "1"
    else ROOT / "test-artifacts" / "docs-screenshots"
)
DOC_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
REVIEWER = ("reviewer", "a-reviewer-password-16")  # a superuser in the server's database
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated database with the demo data and a reviewer (a superuser), and the static
    files collected: each server below runs on a copy of it."""
    database = demo_database(tmp_path_factory.mktemp("askapp-template"))
    username, password = REVIEWER
    create = (
        "from django.contrib.auth import get_user_model as m; "
        f"m().objects.create_superuser({username!r}, '', {password!r})"
    )
    manage(database, "shell", "-c", create)
    manage(database, "collectstatic", "--noinput")
    return database


@pytest.fixture(scope="session")
def live_server_url(demo_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real askapp: migrated, demo loaded, static files collected."""
    database = copy_database(demo_template, tmp_path_factory.mktemp("askapp-server"))
    with LiveServer(database=database, env={"ASKAPP_PROVIDER": "mock"}) as server:
        yield server.url


@pytest.fixture(scope="session")
def throttled_server_url(
    demo_template: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A real askapp that lets an anonymous visitor ask 2 questions a minute."""
    database = copy_database(demo_template, tmp_path_factory.mktemp("askapp-throttled"))
    env = {"ASKAPP_PROVIDER": "mock", "ASKAPP_THROTTLE_ANON": "2/min"}
    with LiveServer(database=database, env=env) as server:
        yield server.url


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (bin/test does).")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A 1280 by 900 browser window of its own."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context
    context.close()


@pytest.fixture
def page(context: BrowserContext, live_server_url: str) -> Iterator[Page]:
    """The chat page, opened; the test fails if the page's script throws."""
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server_url}/")
    yield page
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def plain_page(browser: Browser, live_server_url: str) -> Iterator[Page]:
    """The chat page with JavaScript off: every control is a plain form or link."""
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 1280, "height": 900}
    )
    page = context.new_page()
    page.goto(f"{live_server_url}/")
    yield page
    context.close()


@pytest.fixture
def phone_page(browser: Browser, live_server_url: str) -> Iterator[Page]:
    """The chat page on a 375-pixel phone screen, touch and all."""
    context = browser.new_context(
        viewport={"width": 375, "height": 812}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.goto(f"{live_server_url}/")
    yield page
    context.close()


@pytest.fixture
def chat(page: Page, screenshot_dir: Path) -> Chat:
    return Chat(page, screenshot_dir)


@pytest.fixture
def screenshot_dir() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def axe_violations(page: object) -> list[str]:
    """axe-core's violations on the page as it is now (axe-playwright-python bundles it),
    one line each: the rule, its impact and the first offending elements."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:3]]}"
        for v in results.response["violations"]
    ]
