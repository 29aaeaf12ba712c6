"""The real server for tests and benchmarks: granian on project.asgi, started by the same
`project.serve.command` bin/serve uses, on a free loopback port, over a SQLite file database
prepared with the demo data (or any DATABASE_URL given in `env`).

    template = demo_database(folder)                # migrate + load_demo, once (slow: ~15 s)
    with LiveServer(database=copy_database(template, elsewhere), env={...}) as server:
        httpx.get(f"{server.url}/healthz")
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from urllib.parse import urlsplit, urlunsplit

import httpx

from project import serve

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def base_env(database: Path, **extra: str) -> dict[str, str]:
    """The environment of a demo server: the database, a secret, anonymous chat, no throttle."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("ASKAPP_", "DJANGO_")) and key not in {"DATABASE_URL", "DEBUG"}
    }
    env.update(
        SECRET_KEY="live-test-secret-key-not-for-production",
        DEBUG="false",
        DATABASE_URL=f"sqlite:///{database}",
        ALLOWED_HOSTS=HOST,
        ASKAPP_ANONYMOUS_CHAT="true",
        ASKAPP_THROTTLE_USER="1000000/min",
        ASKAPP_THROTTLE_ANON="1000000/min",
        DJANGO_SETTINGS_MODULE="project.settings",
    )
    env.update(extra)
    return env


def _static_collected(database: Path) -> None:
    """A real server (DEBUG off) names static files from collectstatic's manifest, so a page
    500s without one: collect once when no earlier test (the browser suite's) has."""
    if not (ROOT / "staticfiles" / "staticfiles.json").exists():
        manage(database, "collectstatic", "--noinput", "--verbosity", "0")


def manage(database: Path, *args: str, env: Mapping[str, str] | None = None) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=base_env(database, **dict(env or {})),
        check=True,
        stdout=subprocess.DEVNULL,
    )


def demo_database(folder: Path) -> Path:
    """A migrated SQLite file holding the demo data (and its search index beside it)."""
    database = folder / "demo.sqlite3"
    manage(database, "migrate", "--noinput", "--verbosity", "0")
    manage(database, "load_demo")
    return database


def api_token(database: Path, username: str = "bench", env: Mapping[str, str] | None = None) -> str:
    """A user (created if missing) and their API token, in a server's database (`env` as
    given to LiveServer, say a DATABASE_URL)."""
    create = (
        "from django.contrib.auth import get_user_model as m; "
        f"m().objects.filter(username={username!r}).exists() "
        f"or m().objects.create_user({username!r})"
    )
    command = [sys.executable, "manage.py"]
    environment = base_env(database, **dict(env or {}))
    subprocess.run(
        [*command, "shell", "-c", create], cwd=ROOT, env=environment, check=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    out = subprocess.run(
        [*command, "create_api_token", username],
        cwd=ROOT, env=environment, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return out.stdout.strip()


def postgres_demo_database(base_url: str, name: str) -> str:
    """A PostgreSQL database `name` on base_url's server, made afresh, migrated and loaded
    with the demo data; its URL (give it to LiveServer as DATABASE_URL)."""
    import psycopg

    parts = urlsplit(base_url)
    url = urlunsplit(parts._replace(path=f"/{name}"))
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        db.execute(f'CREATE DATABASE "{name}"')
    env = {"DATABASE_URL": url}
    scratch = Path(tempfile.gettempdir())  # the SQLite path base_env wants; not used
    manage(scratch / "unused.sqlite3", "migrate", "--noinput", "--verbosity", "0", env=env)
    manage(scratch / "unused.sqlite3", "load_demo", env=env)
    return url


def copy_database(template: Path, folder: Path) -> Path:
    """A private copy of `template`, with its WAL and its search index folder if any."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / template.name
    for suffix in ("", "-wal", "-shm"):
        source = template.with_name(template.name + suffix)
        if source.exists():
            shutil.copy2(source, target.with_name(target.name + suffix))
    index = template.with_name(template.name + ".search")
    if index.is_dir():
        shutil.copytree(index, target.with_name(target.name + ".search"))
    return target


class LiveServer:
    """The server as bin/serve starts it (project.serve), serving `application`."""

    def __init__(
        self,
        *,
        database: Path,
        env: Mapping[str, str] | None = None,
        workers: int = 1,
        application: str = serve.APPLICATION,
    ) -> None:
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.database = database
        self._env = base_env(database, **dict(env or {}))
        self._workers = workers
        self._application = application
        self._process: subprocess.Popen[bytes] | None = None
        self._log = database.with_name(f"server-{self.port}.log")

    def start(self, *, timeout: float = 60.0) -> LiveServer:
        _static_collected(self.database)
        command = serve.command(
            host=HOST, port=self.port, workers=self._workers, application=self._application
        )
        with self._log.open("wb") as log:
            # Its own process group, so that a kill reaches granian's workers too.
            self._process = subprocess.Popen(
                command, cwd=ROOT, env=self._env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        self._wait_until_up(timeout)
        return self

    def _wait_until_up(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self._process is not None
            if self._process.poll() is not None:
                raise RuntimeError(f"the server exited at start:\n{self.log()}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not answer within {timeout} s:\n{self.log()}")

    @property
    def pid(self) -> int:
        assert self._process is not None, "the server is not started"
        return self._process.pid

    def log(self) -> str:
        return self._log.read_text(errors="replace") if self._log.exists() else ""

    def crash(self) -> None:
        """kill -9 the server and its workers at once, as a machine or container dies."""
        assert self._process is not None, "the server is not started"
        os.killpg(self._process.pid, signal.SIGKILL)
        self._process.wait()

    def stop(self) -> None:
        if self._process is None:
            return
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        with contextlib.suppress(ProcessLookupError):  # workers the main process left behind
            os.killpg(self._process.pid, signal.SIGKILL)

    def __enter__(self) -> LiveServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
