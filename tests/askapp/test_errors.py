"""Engine failures reach clients as HTTP statuses chosen by the failure's class, never by its
name: renaming an engine error cannot silently turn a 503 into a 500."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from askapp.errors import FAILURE_RESPONSES, AskFailed
from engine import EngineError, ProviderError, ProviderTimeout
from engine.errors import failure_classes

ERRORS_MODULE = Path(__file__).resolve().parents[2] / "askapp" / "errors.py"


def failed(failure: type[Exception]) -> AskFailed:
    return AskFailed("it failed", failure=failure, conversation=None, turn=None)


def test_every_failure_the_engine_reports_has_a_status_of_its_own() -> None:
    unmapped = [cls.__name__ for cls in failure_classes() if cls not in FAILURE_RESPONSES]

    assert not unmapped, f"askapp/errors.py gives no HTTP status to {unmapped}"


def test_the_engine_reports_its_whole_tree_and_the_two_foreign_failures() -> None:
    classes = failure_classes()

    assert EngineError in classes and ProviderTimeout in classes
    assert all(issubclass(cls, EngineError) for cls in classes[:-2])
    assert classes[-2:] == [TimeoutError, ConnectionError]


@pytest.mark.parametrize(
    ("failure", "status", "code"),
    [
        (ProviderTimeout, 503, "provider_timeout"),
        (ProviderError, 502, "provider_error"),
        (EngineError, 500, "internal_error"),
        (TimeoutError, 503, "timeout"),
        (ValueError, 500, "internal_error"),
    ],
)
def test_a_failure_class_chooses_the_status_and_code(
    failure: type[Exception], status: int, code: str
) -> None:
    assert (failed(failure).status, failed(failure).code) == (status, code)
    assert failed(failure).reason == failure.__name__


def test_a_class_that_merely_shares_an_engine_error_name_is_unexpected() -> None:
    impostor = type("ProviderTimeout", (Exception,), {})

    assert (failed(impostor).status, failed(impostor).code) == (500, "internal_error")


def test_the_errors_module_names_no_failure_class_in_a_string() -> None:
    names = {cls.__name__ for cls in failure_classes()}
    tree = ast.parse(ERRORS_MODULE.read_text(encoding="utf-8"))
    strings = {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }

    assert not names & strings
