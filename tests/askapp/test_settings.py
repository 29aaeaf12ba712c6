"""Settings come from the environment; a bad value stops start-up and names the variable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
START = "import django; django.setup(); print('started')"


def _start(**env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "project.settings", **env}
    environment.setdefault("SECRET_KEY", "settings-test-key")
    return subprocess.run(
        [sys.executable, "-c", START],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "maybe"}, "DEBUG must be true or false, got 'maybe'"),
        ({"ASKAPP_HISTORY_TURNS": "-1"}, "ASKAPP_HISTORY_TURNS must be between 0 and 200, got -1"),
        ({"ASKAPP_HISTORY_TURNS": "many"}, "ASKAPP_HISTORY_TURNS must be a whole number"),
        ({"DATABASE_URL": "nonsense://"}, "DATABASE_URL names an unknown database scheme"),
        ({"ASKAPP_PROVIDER": "oracle"}, "ASKAPP_PROVIDER must be one of mock, openai"),
        ({"ASKAPP_THROTTLE_ANON": "lots"}, "ASKAPP_THROTTLE_ANON must look like 120/min"),
        ({"ASKAPP_ANONYMOUS_CHAT": "sometimes"}, "ASKAPP_ANONYMOUS_CHAT must be true or false"),
        ({"DEBUG": "false", "SECRET_KEY": ""}, "SECRET_KEY must be set when DEBUG is off"),
        (
            {"ASKAPP_SEC_USER_AGENT": "askapp"},
            "ASKAPP_SEC_USER_AGENT must name you and a contact e-mail address",
        ),
        ({"ASKAPP_SEC_BASE_URL": "data.sec.gov"}, "ASKAPP_SEC_BASE_URL must be an http://"),
        (
            {"ASKAPP_PROVIDER": "openai", "ASKAPP_OPENAI_API_KEY": ""},
            "ASKAPP_OPENAI_API_KEY must be set when ASKAPP_PROVIDER is openai",
        ),
    ],
    ids=lambda value: "-".join(value) if isinstance(value, dict) else None,
)
def test_a_bad_value_stops_start_up_naming_the_variable(env: dict[str, str], message: str) -> None:
    started = _start(**env)
    assert started.returncode != 0
    assert "ImproperlyConfigured" in started.stderr
    assert message in started.stderr


def test_good_values_start() -> None:
    started = _start(DEBUG="true", ASKAPP_HISTORY_TURNS="5", DATABASE_URL="sqlite:///:memory:")
    assert started.stdout.strip() == "started", started.stderr


CONN_MAX_AGE = (
    "import django; django.setup(); from django.db import connection; "
    "print(connection.settings_dict['CONN_MAX_AGE'])"
)


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"DATABASE_URL": "sqlite:///:memory:"}, "600"),  # a thread keeps its connection
        ({"DATABASE_URL": "sqlite:///:memory:", "CONN_MAX_AGE": "0"}, "0"),
        ({"DATABASE_URL": "postgres://u@127.0.0.1:1/x", "CONN_MAX_AGE": "60"}, "0"),  # pooled
    ],
)
def test_connections_are_kept_on_sqlite_and_pooled_on_postgresql(
    env: dict[str, str], expected: str
) -> None:
    inherited = {k: v for k, v in os.environ.items() if k != "CONN_MAX_AGE"}
    environment = {**inherited, "DJANGO_SETTINGS_MODULE": "project.settings", **env}
    environment.setdefault("SECRET_KEY", "settings-test-key")
    started = subprocess.run(
        [sys.executable, "-c", CONN_MAX_AGE], cwd=ROOT, env=environment,
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert started.stdout.strip() == expected, started.stderr
