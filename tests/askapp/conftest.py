"""Fixtures for askapp tests."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from textwrap import dedent

import pytest

from askapp.models import Fact
from tests.factories import EntityFactory, FactFactory, MetricFactory


@pytest.fixture
def write_file(tmp_path: Path) -> Callable[[str, str], str]:
    """Write `text` (dedented, leading newline dropped) to tmp_path/name; return its path."""

    def write(name: str, text: str) -> str:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dedent(text).lstrip("\n"), encoding="utf-8")
        return str(path)

    return write


@pytest.fixture
def stored_fact() -> Fact:
    """A fact stored before the import under test: a failed import must leave it as it was."""
    return FactFactory(
        entity=EntityFactory(name="Apple"),
        metric=MetricFactory(name="Revenue"),
        period="FY2023",
        value=Decimal("1"),
        source="earlier import",
    )
