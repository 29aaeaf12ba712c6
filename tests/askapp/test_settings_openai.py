"""The OpenAI-compatible provider's settings, Azure's included: a bad value or a half-given
pair stops start-up naming the variable; good values reach django.conf.settings as given."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOW = (
    "import django, json; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({n: getattr(s, n) for n in dir(s) if n.startswith('ASKAPP_OPENAI_')}))"
)
AZURE = {
    "ASKAPP_PROVIDER": "openai",
    "ASKAPP_OPENAI_API_KEY": "azure-key-0123456789abcdef",
    "ASKAPP_OPENAI_MODEL": "finance-gpt-4o",
    "ASKAPP_OPENAI_AZURE_ENDPOINT": "https://askapp-finance.openai.azure.com",
    "ASKAPP_OPENAI_API_VERSION": "2024-10-21",
}


def _start(**env: str) -> subprocess.CompletedProcess[str]:
    cleared = {k: v for k, v in os.environ.items() if not k.startswith("ASKAPP_")}
    environment = {
        **cleared,
        "DJANGO_SETTINGS_MODULE": "project.settings",
        "SECRET_KEY": "settings-test-key",
        "DATABASE_URL": "sqlite:///:memory:",
        # Set, even if empty, so a developer's .env (read with setdefault) cannot fill them in.
        "ASKAPP_PROVIDER": "mock",
        "ASKAPP_OPENAI_BASE_URL": "",
        "ASKAPP_OPENAI_AZURE_ENDPOINT": "",
        "ASKAPP_OPENAI_API_VERSION": "",
        **env,
    }
    return subprocess.run(
        [sys.executable, "-c", SHOW],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )


def _settings(**env: str) -> dict[str, Any]:
    started = _start(**env)
    assert started.returncode == 0, started.stderr
    values: dict[str, Any] = json.loads(started.stdout)
    return values


@pytest.mark.parametrize(
    ("env", "message"),
    [
        pytest.param(
            {"ASKAPP_OPENAI_BASE_URL": "localhost:11434/v1"},
            "ASKAPP_OPENAI_BASE_URL must be an http:// or https:// URL",
            id="base-url-without-scheme",
        ),
        pytest.param(
            {"ASKAPP_OPENAI_BASE_URL": "ftp://models.example/v1"},
            "ASKAPP_OPENAI_BASE_URL must be an http:// or https:// URL",
            id="base-url-wrong-scheme",
        ),
        pytest.param(
            {**AZURE, "ASKAPP_OPENAI_AZURE_ENDPOINT": "askapp-finance.openai.azure.com"},
            "ASKAPP_OPENAI_AZURE_ENDPOINT must be an http:// or https:// URL",
            id="azure-endpoint-without-scheme",
        ),
        pytest.param(
            {**AZURE, "ASKAPP_OPENAI_API_VERSION": "latest"},
            "ASKAPP_OPENAI_API_VERSION must look like 2024-10-21 or 2025-04-01-preview",
            id="api-version-not-a-date",
        ),
        pytest.param(
            {**AZURE, "ASKAPP_OPENAI_API_VERSION": ""},
            "ASKAPP_OPENAI_AZURE_ENDPOINT and ASKAPP_OPENAI_API_VERSION must be set together",
            id="azure-endpoint-alone",
        ),
        pytest.param(
            {"ASKAPP_OPENAI_API_VERSION": "2024-10-21"},
            "ASKAPP_OPENAI_AZURE_ENDPOINT and ASKAPP_OPENAI_API_VERSION must be set together",
            id="api-version-alone",
        ),
        pytest.param(
            {**AZURE, "ASKAPP_OPENAI_BASE_URL": "https://api.openai.com/v1"},
            "set ASKAPP_OPENAI_BASE_URL or ASKAPP_OPENAI_AZURE_ENDPOINT, not both",
            id="azure-and-base-url",
        ),
        pytest.param(
            {**AZURE, "ASKAPP_OPENAI_MODEL": " "},
            "ASKAPP_OPENAI_MODEL must be set when ASKAPP_PROVIDER is openai",
            id="no-model",
        ),
    ],
)
def test_a_bad_provider_setting_stops_start_up_naming_the_variable(
    env: dict[str, str], message: str
) -> None:
    started = _start(**env)

    assert started.returncode != 0
    assert "ImproperlyConfigured" in started.stderr
    assert message in started.stderr


def test_azure_settings_reach_django_as_given() -> None:
    values = _settings(**AZURE)

    assert values["ASKAPP_OPENAI_AZURE_ENDPOINT"] == "https://askapp-finance.openai.azure.com"
    assert values["ASKAPP_OPENAI_API_VERSION"] == "2024-10-21"
    assert values["ASKAPP_OPENAI_MODEL"] == "finance-gpt-4o"
    assert values["ASKAPP_OPENAI_BASE_URL"] is None


@pytest.mark.parametrize(
    "base_url",
    [
        "http://localhost:11434/v1",  # Ollama
        "https://askapp-finance.openai.azure.com/openai/v1/",  # Azure's v1 API
    ],
)
def test_a_local_or_compatible_server_is_one_base_url_and_a_placeholder_key(base_url: str) -> None:
    values = _settings(
        ASKAPP_PROVIDER="openai", ASKAPP_OPENAI_BASE_URL=base_url, ASKAPP_OPENAI_API_KEY="x"
    )

    assert values["ASKAPP_OPENAI_BASE_URL"] == base_url
    assert (values["ASKAPP_OPENAI_AZURE_ENDPOINT"], values["ASKAPP_OPENAI_API_VERSION"]) == (
        None,
        None,
    )
