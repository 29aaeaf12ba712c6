"""The real server for browser tests: uvicorn on project.asgi, as bin/serve runs it, over a
fresh SQLite file migrated and loaded with the demo data, driven by Debian's Chromium.

Nothing here shares the test process's Django: the server is a subprocess with its own
environment (DEBUG off, a SECRET_KEY, anonymous chat on), so what the browser sees is what a
deployment serves, static files through WhiteNoise included.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

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
START_DEADLINE = 60.0  # seconds for uvicorn to answer /healthz; a readiness wait, not a test


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _server_environment(database: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("ASKAPP_", "DJANGO_")) and key not in {"DATABASE_URL", "DEBUG"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="project.settings",
        DATABASE_URL=f"sqlite:///{database}",
        SECRET_KEY="browser-tests-only-not-a-real-secret-key-0123456789",
        DEBUG="false",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        ASKAPP_ANONYMOUS_CHAT="true",
        ASKAPP_PROVIDER="mock",
        ASKAPP_THROTTLE_ANON="10000/min",
        ASKAPP_THROTTLE_USER="10000/min",
        PYTHONUNBUFFERED="1",
    )
    return env


def _manage(env: dict[str, str], *args: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )


def _wait_until_up(url: str, server: subprocess.Popen[str], log: Path) -> None:
    deadline = time.monotonic() + START_DEADLINE
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"uvicorn exited with {server.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"uvicorn did not answer within {START_DEADLINE}s:\n{log.read_text()}")


@pytest.fixture(scope="session")
def live_server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real askapp: migrated, demo loaded, static files collected."""
    home = tmp_path_factory.mktemp("askapp-server")
    env = _server_environment(home / "askapp.sqlite3")
    _manage(env, "migrate", "--noinput")
    _manage(env, "collectstatic", "--noinput")
    _manage(env, "load_demo")
    port = _free_port()
    log = home / "uvicorn.log"
    with log.open("w") as output:
        server = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "project.asgi:application", "--lifespan", "off",
             "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, server, log)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


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
