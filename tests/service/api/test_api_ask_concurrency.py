"""Concurrent asks on one conversation keep a strict, gap-free order (PostgreSQL).

On PostgreSQL each ask takes the conversation's row lock when it reserves its positions, so
asks that finish together queue there; SQLite serialises writers by its IMMEDIATE
transactions instead (see docs/adr/0020).
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from askapp.models import Turn

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 8
ASKS_PER_THREAD = 25
QUESTIONS = [
    "What was Apple's revenue in FY2023?",
    "What was Apple's revenue in FY2022?",
    "What was Apple's net income in FY2023?",
    "Why did Apple's revenue dip in fiscal 2023?",
    "What was Microsoft's revenue in FY2023?",
]


@pytest.fixture(autouse=True)
def _postgres_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: set DATABASE_URL=postgres://...")


def test_concurrent_asks_leave_a_gap_free_order_with_each_answer_after_its_question(
    kb: None, user: Any
) -> None:
    owner = APIClient()
    owner.force_authenticate(user)
    conversation = owner.post("/v1/conversations", {}, format="json").json()["id"]
    start = threading.Barrier(THREADS)
    failures: list[str] = []

    def asker(number: int) -> None:
        client = APIClient()
        client.force_authenticate(user)
        start.wait()
        try:
            for ask in range(ASKS_PER_THREAD):
                question = QUESTIONS[(number + ask) % len(QUESTIONS)]
                body = {"question": question, "conversation": conversation}
                response = client.post("/v1/ask", body, format="json")
                if response.status_code != 200:
                    failures.append(f"{response.status_code}: {response.content[:200]!r}")
        finally:
            connection.close()

    threads = [threading.Thread(target=asker, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert failures == []
    turns = list(Turn.objects.filter(conversation_id=conversation).order_by("position"))
    total = THREADS * ASKS_PER_THREAD * 2
    assert [t.position for t in turns] == list(range(1, total + 1))
    by_id = {t.pk: t for t in turns}
    for question, answer in zip(turns[::2], turns[1::2], strict=True):
        assert question.role == "user"
        assert answer.role == "assistant"
        assert answer.answers_id == question.pk
        assert answer.position == question.position + 1
        assert answer.intent["question"] == question.text
        assert by_id[answer.answers_id] is question
    assert turns[0].conversation.last_position == total
