"""Tool calls are validated; bad ones get an error object, never a crash or a made-up value."""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import Decimal

import pytest

from engine.answer import answer_question
from engine.providers.base import Completion, Message, ToolCall, ToolSchema
from engine.store import InMemoryStore
from engine.tools import Toolbox
from engine.types import Fact, Passage, Term
from tests.canaries import CANARY_RESTRICTED
from tests.demo_store import demo_store


def _toolbox(store: InMemoryStore | None = None) -> Toolbox:
    store = store or demo_store()
    return Toolbox(store=store, vocabulary=store.vocabulary(), clearance=frozenset({"PUBLIC"}))


def _run(toolbox: Toolbox, name: str, arguments: str) -> dict[str, object]:
    result: dict[str, object] = json.loads(toolbox.run(ToolCall("c1", name, arguments)))
    return result


def test_get_facts_returns_facts_with_their_ids() -> None:
    toolbox = _toolbox()

    result = _run(
        toolbox,
        "get_facts",
        '{"entity": "AAPL", "metric": "net sales", "periods": ["fiscal 2023"]}',
    )

    assert result["facts"] == [
        {
            "id": result["facts"][0]["id"],  # type: ignore[index]
            "entity": "Apple",
            "metric": "Revenue",
            "period": "FY2023",
            "value": "383285000000",
            "unit": "USD",
            "source": result["facts"][0]["source"],  # type: ignore[index]
        }
    ]
    assert set(toolbox.facts) == {result["facts"][0]["id"]}  # type: ignore[index]


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        ("get_facts", '{"entity": "Apple", "metric": ', "not valid JSON"),
        ("get_facts", "[1, 2]", "must be a JSON object"),
        ("get_facts", '{"entity": "Apple"}', "missing argument(s): metric"),
        ("get_facts", '{"entity": "Apple", "metric": "Revenue", "x": 1}', "unexpected"),
        ("get_facts", '{"entity": 7, "metric": "Revenue"}', "entity must be a non-empty string"),
        ("get_facts", '{"entity": "Shanghai", "metric": "Revenue"}', "unknown entity"),
        ("get_facts", '{"entity": "Apple", "metric": "Revenue", "periods": ["1320"]}',
         "not a period"),
        ("delete_everything", "{}", "unknown tool"),
        ("compute", '{"operation": "difference", "fact_ids": ["fact:1", "fact:2"]}',
         "call get_facts first"),
        ("compute", '{"operation": "magic", "fact_ids": ["fact:1"]}', "operation must be"),
    ],
)  # fmt: skip
def test_an_unusable_call_gets_an_error_object(name: str, arguments: str, message: str) -> None:
    toolbox = _toolbox()

    result = _run(toolbox, name, arguments)

    assert message in str(result["error"])
    assert toolbox.facts == {}


def test_a_repeated_call_is_answered_once() -> None:
    toolbox = _toolbox()
    arguments = '{"entity": "Apple", "metric": "Revenue", "periods": ["FY2023"]}'

    first = _run(toolbox, "get_facts", arguments)
    again = _run(toolbox, "get_facts", arguments.replace(" ", ""))

    assert "facts" in first
    assert again == {"error": "repeated call: the result is above", "repeated": True}


def test_compute_works_only_on_facts_it_returned() -> None:
    toolbox = _toolbox()
    facts = _run(
        toolbox,
        "get_facts",
        '{"entity": "Apple", "metric": "Revenue", "periods": ["FY2022", "FY2023"]}',
    )["facts"]
    ids = [f["id"] for f in facts]  # type: ignore[attr-defined]

    result = _run(toolbox, "compute", json.dumps({"operation": "difference", "fact_ids": ids}))

    assert Decimal(str(result["value"])) == Decimal("383285000000") - Decimal("394328000000")
    assert result["fact_ids"] == ids


def _restricted_store() -> InMemoryStore:
    return InMemoryStore(
        entities=[Term("Apple")],
        metrics=[Term("Revenue")],
        facts=[
            Fact("fact:pub", "Apple", "Revenue", "FY2023", Decimal(1), "USD"),
            Fact("fact:sec", "Apple", "Revenue", "FY2099", Decimal(999), "USD",
                 classification="RESTRICTED"),
        ],
        passages=[
            Passage("chunk:9", "doc:secret", "Memo", f"Apple memo {CANARY_RESTRICTED}",
                    "RESTRICTED"),
            Passage("chunk:1", "doc:public", "Note", "Apple note", "PUBLIC"),
        ],
    )  # fmt: skip


def test_a_restricted_document_id_gets_nothing() -> None:
    toolbox = _toolbox(_restricted_store())

    result = _run(toolbox, "get_document", '{"document_id": "doc:secret"}')

    assert result == {"error": "no document with that id is available to you"}
    assert CANARY_RESTRICTED not in toolbox.run(
        ToolCall("c2", "get_document", '{"document_id": "doc:secret "}')
    )
    assert _run(toolbox, "get_document", '{"document_id": "doc:public"}')["passages"]


def test_a_restricted_fact_is_never_returned() -> None:
    toolbox = _toolbox(_restricted_store())

    result = _run(toolbox, "get_facts", '{"entity": "Apple", "metric": "Revenue"}')

    assert [f["id"] for f in result["facts"]] == ["fact:pub"]  # type: ignore[attr-defined]
    assert "fact:sec" not in toolbox.facts


class Loop:
    """A model that calls get_facts forever, with the same arguments."""

    name = "looper"
    model = "loop-1"

    def __init__(self) -> None:
        self.calls = 0

    def complete(
        self, messages: Sequence[Message], *, tools: Sequence[ToolSchema] | None = None
    ) -> Completion:
        self.calls += 1
        args = '{"entity": "Apple", "metric": "Revenue", "periods": ["FY2023"]}'
        return Completion(None, (ToolCall(f"c{self.calls}", "get_facts", args),))

    def stream(self, messages: Sequence[Message]):  # type: ignore[no-untyped-def]
        yield ""


def test_a_model_that_never_stops_calling_is_cut_off_and_answered_from_facts() -> None:
    model = Loop()

    answer = answer_question("What was Apple's revenue in FY2023?", demo_store(), model)

    assert model.calls == 6
    assert answer.status == "found"
    assert "383.3 billion" in answer.text


class Fabricator(Loop):
    """A model that answers at once, with its own number, calling no tool."""

    def complete(
        self, messages: Sequence[Message], *, tools: Sequence[ToolSchema] | None = None
    ) -> Completion:
        return Completion("Apple's revenue in FY2023 was USD 999 billion.")


def test_a_model_that_calls_no_tool_gets_not_found_never_its_own_number() -> None:
    answer = answer_question("What was Apple's revenue in FY2023?", demo_store(), Fabricator())

    assert answer.status == "not_found"
    assert "999" not in answer.text
    assert answer.figures == () and answer.sources == ()
