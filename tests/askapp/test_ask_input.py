"""The ask's input, read without building the serializer on the common body, means what
AskInput means: the same validated data, and the same error for anything AskInput refuses."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.exceptions import ValidationError

from askapp.api import serializers
from askapp.api.serializers import QUESTION_MAX, AskInput, ask_input

ID = "6f1c2a9e-8d3b-4f1a-9c2e-7b5d4a3e2f10"
BODIES: list[Any] = [
    {"question": "How much did the orchard earn in 2021?"},
    {"question": "  padded on both sides \n"},
    {"question": "x" * QUESTION_MAX},
    {"question": " " + "x" * QUESTION_MAX + " "},
    {"question": "x" * (QUESTION_MAX + 1)},
    {"question": ""},
    {"question": "   "},
    {"question": "nul \x00 inside"},
    {"question": "lone \ud800 surrogate"},
    {"question": "accents: café, 数字"},
    {"question": 42},
    {"question": None},
    {"question": True},
    {},
    {"question": "q", "conversation": ID},
    {"question": "q", "conversation": ID.upper()},
    {"question": "q", "conversation": ID.replace("-", "")},
    {"question": "q", "conversation": "{" + ID + "}"},
    {"question": "q", "conversation": "urn:uuid:" + ID},
    {"question": "q", "conversation": "not-an-id"},
    {"question": "q", "conversation": 12},
    {"question": "q", "conversation": None},
    {"question": "q", "history": [["user", "earlier"]]},
    {"question": "q", "conversation": ID, "history": []},
    {"question": "q", "extra": "ignored"},
    ["question"],
    "question",
]


def _drf(data: Any) -> Any:
    serializer = AskInput(data=data)
    if serializer.is_valid():
        return dict(serializer.validated_data)
    return serializer.errors


def _ours(data: Any) -> Any:
    try:
        return ask_input(data)
    except ValidationError as exc:
        return exc.detail


@pytest.mark.parametrize("data", BODIES)
def test_it_reads_a_body_as_askinput_does(data: Any) -> None:
    assert _ours(data) == _drf(data)


def test_the_common_bodies_skip_the_serializer(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the serializer was built")

    monkeypatch.setattr(serializers.AskInput, "__init__", refuse)
    assert ask_input({"question": " q "}) == {"question": "q"}
    assert str(ask_input({"question": "q", "conversation": ID})["conversation"]) == ID
