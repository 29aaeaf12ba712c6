"""The mock model acts from the facts the engine's system prompt names (docs/adr/0051):
get_facts for each, without find_names and without reading the question again; a prompt
naming none is read as before."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import MockProvider
from engine.parser import IntentParser
from engine.prompts import facts_to_fetch, structured_system
from engine.providers.base import Message
from engine.tools import TOOL_SCHEMAS

QUESTION = "What was Apple's revenue in FY2023?"


def _messages(system: str) -> list[Message]:
    return [{"role": "system", "content": system}, {"role": "user", "content": QUESTION}]


def _calls(messages: list[Message]) -> list[tuple[str, dict[str, Any]]]:
    completion = MockProvider().complete(messages, tools=TOOL_SCHEMAS)
    return [(c.name, json.loads(c.arguments)) for c in completion.tool_calls]


@pytest.fixture
def no_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: IntentParser, question: str, **kwargs: Any) -> Any:
        raise AssertionError(f"parsed {question!r}")

    monkeypatch.setattr(IntentParser, "parse", refuse)


def test_the_facts_named_are_fetched_without_reading_the_question(no_parse: None) -> None:
    fetch = (("Apple", "Revenue", ("FY2022", "FY2023")), ("Apple", "Net income", ("FY2023",)))
    system = structured_system((), ("Revenue", "Net income"), fetch)
    assert facts_to_fetch(system) == fetch
    assert _calls(_messages(system)) == [
        ("get_facts", {"entity": "Apple", "metric": "Revenue", "periods": ["FY2022", "FY2023"]}),
        ("get_facts", {"entity": "Apple", "metric": "Net income", "periods": ["FY2023"]}),
    ]


def test_a_period_get_facts_does_not_take_fetches_the_whole_series(no_parse: None) -> None:
    fetch = (("Apple", "Revenue", ("",)), ("Apple", "Cost", ("2019 restated",)))
    calls = _calls(_messages(structured_system((), (), fetch)))
    assert calls == [
        ("get_facts", {"entity": "Apple", "metric": "Revenue"}),
        ("get_facts", {"entity": "Apple", "metric": "Cost"}),
    ]


def test_once_the_facts_are_back_it_answers(no_parse: None) -> None:
    messages = _messages(structured_system((), (), (("Apple", "Revenue", ("FY2023",)),)))
    first = MockProvider().complete(messages, tools=TOOL_SCHEMAS)
    call = first.tool_calls[0]
    messages += [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": call.id, "type": "function",
             "function": {"name": call.name, "arguments": call.arguments}}]},
        {"role": "tool", "tool_call_id": call.id, "content": '{"facts": [], "missing": []}'},
    ]  # fmt: skip
    done = MockProvider().complete(messages, tools=TOOL_SCHEMAS)
    assert done.tool_calls == () and done.content


def test_a_prompt_naming_no_facts_is_read_as_before() -> None:
    assert _calls(_messages(structured_system((), ("Revenue",)))) == [
        ("find_names", {"text": QUESTION})
    ]


def test_a_malformed_block_names_nothing() -> None:
    system = structured_system((), ()) + "\n\nFacts this answer rests on, by canonical names " \
        "(fetch each with get_facts): [1, 2]"  # fmt: skip
    assert facts_to_fetch(system) == ()
    assert _calls(_messages(system)) == [("find_names", {"text": QUESTION})]
