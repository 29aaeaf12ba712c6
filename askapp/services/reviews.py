"""Reviewers' verdicts on answers."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from askapp.models import Review, Turn

REVIEW_FIELDS = ("verdict", "note", "expected_value", "reviewer", "reviewed_at")


def review_set(
    *,
    turns: QuerySet[Any] | Iterable[Turn],
    verdict: str,
    reviewer: Any,
    note: str = "",
    expected_value: Decimal | None = None,
    clock: Callable[[], datetime] = timezone.now,
) -> int:
    """Give every answer turn in `turns` this verdict, replacing any earlier one.

    Question turns are skipped: only answers are reviewed. Returns how many answers now
    carry the verdict. One statement however many turns.
    """
    if verdict not in Review.Verdict.values:
        raise ValueError(f"unknown verdict {verdict!r}")
    if expected_value is not None and verdict != Review.Verdict.WRONG:
        raise ValueError("a right figure only goes with the verdict wrong")
    if isinstance(turns, QuerySet):
        answers = list(turns.filter(role=Turn.Role.ASSISTANT).values_list("pk", flat=True))
    else:
        answers = [t.pk for t in turns if t.role == Turn.Role.ASSISTANT]
    now = clock()
    rows = [
        Review(
            turn_id=pk,
            verdict=verdict,
            note=note,
            expected_value=expected_value,
            reviewer=reviewer,
            reviewed_at=now,
        )
        for pk in answers
    ]
    Review.objects.bulk_create(
        rows, update_conflicts=True, unique_fields=["turn"], update_fields=REVIEW_FIELDS
    )
    return len(rows)


def review_clear(*, turns: Iterable[Turn]) -> int:
    """Take the verdicts off these answer turns; how many there were."""
    deleted, _ = Review.objects.filter(turn__in=[t.pk for t in turns]).delete()
    return deleted
