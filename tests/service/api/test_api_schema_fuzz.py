"""The API fuzzed from its own OpenAPI schema (schemathesis): no generated input, valid or
not, gets a 5xx, and every response conforms to the schema (status codes, content types,
bodies, each server-sent event, and 401 without credentials).

Two checks are left out because a schema cannot say what the API rightly refuses: that a
question is not blank *after trimming*, holds no NUL or lone surrogate, or that a scope names
an entity that exists (positive_data_acceptance); and that a question of 4,001 characters
whose spaces trim it to 4,000 is fine (negative_data_rejection).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

EXAMPLES_PER_OPERATION = 25


@pytest.fixture
def _one_connection() -> Iterator[None]:
    """The WSGI app closes the database connection after each request, as a server should;
    the test's transaction lives on that connection, so keep it open (Django's test client
    does the same)."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


@pytest.fixture
def token(user: Any) -> str:
    return Token.objects.get_or_create(user=user)[0].key


# Read over WSGI from the running app (no database needed for the schema itself).
schema = schemathesis.openapi.from_wsgi("/v1/schema", get_wsgi_application())


@pytest.mark.django_db
@pytest.mark.usefixtures("_one_connection")
@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_no_generated_request_gets_a_server_error(
    case: Any, kb: None, token: str, settings: Any
) -> None:
    settings.ASKAPP_ANONYMOUS_CHAT = False  # as when the schema was read: credentials needed
    case.call_and_validate(
        headers={"Authorization": f"Token {token}"},
        excluded_checks=[positive_data_acceptance, negative_data_rejection],
    )
