"""import_companyfacts --cik: fetching from EDGAR as the SEC asks, against a fake EDGAR on
127.0.0.1 (never the internet)."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

from askapp.importers.edgar import EdgarClient, EdgarError
from askapp.models import Entity, Fact
from tests.askapp.commands import failure, run
from tests.askapp.companyfacts import SNOWFLAKE
from tests.fakes.edgar_server import FakeEdgar, edgar_fixture, error
from tests.fakes.openai_server import refused_base_url

__all__ = ["edgar_fixture"]

AGENT = "Example Corp analyst@example.com"
FACTS = "/api/xbrl/companyfacts/CIK0001640147.json"
SUBMISSIONS = "/submissions/CIK0001640147.json"


class FakeTime:
    """A clock that moves only when the client sleeps, so no test waits."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


@pytest.fixture
def time() -> FakeTime:
    return FakeTime()


def _client(edgar: FakeEdgar, time: FakeTime, **kwargs: Any) -> EdgarClient:
    return EdgarClient(
        user_agent=AGENT, base_url=edgar.base_url, clock=time.clock, sleep=time.sleep, **kwargs
    )


def _publish_snowflake(edgar: FakeEdgar) -> None:
    edgar.publish(FACTS, SNOWFLAKE.read_bytes())
    edgar.publish(SUBMISSIONS, json.dumps({"cik": "0001640147", "tickers": ["SNOW"]}).encode())


def test_every_request_carries_the_user_agent_the_sec_requires(
    edgar: FakeEdgar, time: FakeTime
) -> None:
    _publish_snowflake(edgar)
    with _client(edgar, time) as client:
        assert json.loads(client.companyfacts(1640147))["entityName"] == "SNOWFLAKE INC."
        assert client.tickers(1640147) == ("SNOW",)
    assert [(r.path, r.header("User-Agent")) for r in edgar.requests] == [
        (FACTS, AGENT),
        (SUBMISSIONS, AGENT),
    ]


def test_a_user_agent_without_a_contact_address_is_refused() -> None:
    with pytest.raises(EdgarError, match="contact e-mail address"):
        EdgarClient(user_agent="askapp")


def test_a_429_is_retried_after_the_wait_the_server_asks_for(
    edgar: FakeEdgar, time: FakeTime
) -> None:
    _publish_snowflake(edgar)
    edgar.fail(FACTS, error(429, retry_after="3"))
    with _client(edgar, time) as client:
        assert client.companyfacts(1640147).startswith("{")
    assert len(edgar.requests) == 2
    assert time.sleeps == [3.0]


def test_server_errors_are_retried_with_growing_backoff(edgar: FakeEdgar, time: FakeTime) -> None:
    _publish_snowflake(edgar)
    edgar.fail(FACTS, error(503), error(502), error(500))
    with _client(edgar, time) as client:
        client.companyfacts(1640147)
    assert time.sleeps == [1.0, 2.0, 4.0]
    assert len(edgar.requests) == 4


def test_retries_end_with_a_clear_error(edgar: FakeEdgar, time: FakeTime) -> None:
    edgar.fail(FACTS, *[error(503)] * 3)
    with _client(edgar, time, retries=2) as client, pytest.raises(EdgarError) as caught:
        client.companyfacts(1640147)
    assert str(caught.value) == (
        f"EDGAR answered HTTP 503 for {edgar.base_url}{FACTS} (3 attempts)"
    )


def test_a_retry_after_longer_than_allowed_is_not_waited_for(
    edgar: FakeEdgar, time: FakeTime
) -> None:
    edgar.fail(FACTS, error(429, retry_after="3600"))
    with _client(edgar, time) as client, pytest.raises(EdgarError, match="HTTP 429"):
        client.companyfacts(1640147)
    assert time.sleeps == []


def test_requests_are_spaced_to_at_most_ten_a_second(edgar: FakeEdgar, time: FakeTime) -> None:
    _publish_snowflake(edgar)
    with _client(edgar, time) as client:
        for _ in range(5):
            client.tickers(1640147)
    assert len(edgar.requests) == 5
    assert time.sleeps == pytest.approx([0.1] * 4)  # five starts span 0.4 s


def test_offline_is_a_clear_error_after_the_retries(time: FakeTime) -> None:
    client = EdgarClient(
        user_agent=AGENT, base_url=refused_base_url(), clock=time.clock, sleep=time.sleep
    )
    with client, pytest.raises(EdgarError) as caught:
        client.companyfacts(320193)
    message = str(caught.value)
    assert message.startswith("cannot reach 127.0.0.1 for http://127.0.0.1:")
    assert "ConnectError" in message and "2 attempts" in message
    assert message.endswith(
        "are you offline? Check the network connection (or a proxy) and try again"
    )
    assert time.sleeps == [1.0]


def test_an_unknown_cik_is_a_clear_error(edgar: FakeEdgar, time: FakeTime) -> None:
    with _client(edgar, time) as client, pytest.raises(EdgarError) as caught:
        client.companyfacts(99)
    assert str(caught.value) == "EDGAR has no XBRL financial data for CIK 0000000099 (HTTP 404)"


def test_a_403_says_to_check_the_user_agent(edgar: FakeEdgar, time: FakeTime) -> None:
    edgar.fail(FACTS, error(403))
    with _client(edgar, time) as client, pytest.raises(EdgarError, match="ASKAPP_SEC_USER_AGENT"):
        client.companyfacts(1640147)
    assert len(edgar.requests) == 1  # a refusal is not retried


# --- the command ---------------------------------------------------------------------------


@pytest.fixture
def sec(settings: Any, edgar: FakeEdgar) -> FakeEdgar:
    settings.ASKAPP_SEC_USER_AGENT = AGENT
    settings.ASKAPP_SEC_BASE_URL = edgar.base_url
    return edgar


@pytest.mark.django_db
def test_cik_fetches_and_imports_the_company_with_its_tickers(sec: FakeEdgar) -> None:
    _publish_snowflake(sec)
    sec.fail(FACTS, error(429, retry_after="0"))

    output = run("import_companyfacts", "--cik", "1640147")

    url = f"{sec.base_url}{FACTS}"
    assert f"{url}: imported 104 facts (104 new, 0 updated)" in output.stdout
    assert output.stderr.splitlines()[0] == f"fetching {url}"
    entity = Entity.objects.get()
    assert entity.aliases == ["CIK 0001640147", "SNOW", "Snowflake"]
    revenue = Fact.objects.get(metric__name="Revenue", period="FY2025")
    assert (revenue.value, revenue.source) == (
        Decimal(3626396000),
        "10-K filed 2025-03-21, accession 0001640147-25-000052",
    )
    assert {r.header("User-Agent") for r in sec.requests} == {AGENT}


@pytest.mark.django_db
def test_cik_refuses_to_run_without_a_user_agent(settings: Any, edgar: FakeEdgar) -> None:
    settings.ASKAPP_SEC_USER_AGENT = ""
    settings.ASKAPP_SEC_BASE_URL = edgar.base_url
    message = failure("import_companyfacts", "--cik", "1640147")
    assert message.startswith("ASKAPP_SEC_USER_AGENT is not set: the SEC requires")
    assert edgar.requests == ()


@pytest.mark.django_db
def test_cik_offline_is_a_clear_error_and_imports_nothing(settings: Any) -> None:
    settings.ASKAPP_SEC_USER_AGENT = AGENT
    settings.ASKAPP_SEC_BASE_URL = refused_base_url()
    message = failure("import_companyfacts", "--cik", "320193", "--progress-every", "0")
    assert message.startswith("cannot reach 127.0.0.1") and "are you offline?" in message
    assert not Entity.objects.exists()


@pytest.mark.django_db
def test_a_malformed_fetched_document_is_named_by_its_url(sec: FakeEdgar) -> None:
    sec.publish(FACTS, b'{"cik": 1640147, "entityName": "X", "facts": {"us-gaap": []}}')
    message = failure("import_companyfacts", "--cik", "CIK0001640147")
    assert message == f"{sec.base_url}{FACTS}: facts.us-gaap: expected an object, got a list"


@pytest.mark.django_db
def test_a_bad_cik_is_refused_before_any_request(sec: FakeEdgar) -> None:
    message = failure("import_companyfacts", "--cik", "AAPL")
    assert message == "--cik AAPL: not a CIK (expected e.g. 320193 or CIK0000320193)"
    assert sec.requests == ()


@pytest.mark.django_db
def test_a_file_or_a_cik_is_required() -> None:
    assert failure("import_companyfacts") == "name a companyfacts FILE or give --cik CIK"
