"""The real server for browser tests: the server on project.asgi, as bin/serve runs it, over a
fresh SQLite file migrated and loaded with the demo data, driven by Debian's Chromium.

Nothing here shares the test process's Django: the server is a subprocess with its own
environment (DEBUG off, a SECRET_KEY, anonymous chat on), so what the browser sees is what a
deployment serves, static files through WhiteNoise included.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live import LiveServer, demo_database, manage

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts" / "browser"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def live_server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real askapp: migrated, demo loaded, static files collected."""
    database = demo_database(tmp_path_factory.mktemp("askapp-server"))
    manage(database, "collectstatic", "--noinput")
    with LiveServer(database=database, env={"ASKAPP_PROVIDER": "mock"}) as server:
        yield server.url


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
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
def screenshot_dir() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
