"""A name that only material above the asker's clearance introduces is unknown to the answer:
never linked, never offered as a choice, never in the intent, the text or the sources. A
company known only from RESTRICTED facts answers exactly as a company nobody ever heard of."""

from __future__ import annotations

from decimal import Decimal

from engine import INTERNAL, PUBLIC, RESTRICTED, Engine, Fact, InMemoryStore, MockProvider, Passage
from engine.types import Term, Vocabulary, least_restrictive

WITH_INTERNAL = frozenset({PUBLIC, INTERNAL})
PUBLIC_ONLY = frozenset({PUBLIC})


def _fact(n: int, entity: str, metric: str, classification: str) -> Fact:
    return Fact(f"fact:{n}", entity, metric, "FY2023", Decimal(1000 + n), "USD", classification)


def _engine() -> Engine:
    store = InMemoryStore(
        facts=[
            _fact(1, "Apple", "Revenue", PUBLIC),
            _fact(2, "Microsoft", "Revenue", PUBLIC),
            _fact(3, "Zephyr Holdings", "Revenue", RESTRICTED),
            _fact(4, "Quillon Partners", "Revenue", INTERNAL),
            _fact(5, "Apple", "Walnut fee", RESTRICTED),
        ],
        passages=[
            Passage(
                "chunk:1",
                "1",
                "Deal memo",
                "Harbour Labs talks.",
                RESTRICTED,
                entity="Harbour Labs",
            ),
        ],
    )
    return Engine(store, MockProvider())


def _everything(answer: object) -> str:
    return repr(answer)


def test_a_restricted_only_company_is_never_offered_as_a_choice() -> None:
    answer = _engine().answer("What was revenue in FY2023?", clearance=WITH_INTERNAL)
    assert answer.status == "clarify"
    assert "Zephyr" not in _everything(answer)
    assert "Harbour" not in _everything(answer)
    assert "Quillon Partners" in [choice.label for choice in answer.choices]


def test_an_internal_only_company_needs_internal_clearance() -> None:
    answer = _engine().answer("What was revenue in FY2023?", clearance=PUBLIC_ONLY)
    assert "Quillon" not in _everything(answer)
    assert {choice.label for choice in answer.choices} == {"Apple", "Microsoft"}


def test_a_restricted_only_company_answers_as_an_unknown_one() -> None:
    engine = _engine()
    secret = engine.answer("What was Zephyr Holdings' revenue in FY2023?", clearance=WITH_INTERNAL)
    unknown = engine.answer("What was Yarrow Holdings' revenue in FY2023?", clearance=WITH_INTERNAL)
    assert secret.intent["entities"] == []
    # The same answer, word for word, once the typed name is swapped: nothing tells them apart.
    assert repr(secret).replace("Zephyr", "Yarrow") == repr(unknown)


def test_a_restricted_only_metric_is_never_linked() -> None:
    answer = _engine().answer("What was Apple's walnut fee in FY2023?", clearance=WITH_INTERNAL)
    assert "Walnut fee" not in repr(answer)
    assert answer.sources == ()


def test_a_name_carries_the_least_restrictive_classification_of_what_names_it() -> None:
    assert least_restrictive([RESTRICTED, INTERNAL]) == INTERNAL
    assert least_restrictive([RESTRICTED, PUBLIC, INTERNAL]) == PUBLIC
    assert least_restrictive([RESTRICTED]) == RESTRICTED
    assert least_restrictive([None, "SECRET"]) == ""
    assert least_restrictive([]) == ""


def test_a_vocabulary_everyone_may_see_is_kept_as_it_is() -> None:
    vocabulary = Vocabulary((Term("Apple"),), (Term("Revenue"),), (), "v1")
    assert vocabulary.visible_to(PUBLIC_ONLY) is vocabulary
    hidden = Vocabulary((Term("Apple"), Term("Zephyr", (), RESTRICTED)), (), (), "v1")
    visible = hidden.visible_to(PUBLIC_ONLY)
    assert [t.name for t in visible.entities] == ["Apple"]
    assert visible.version != hidden.version
    assert hidden.visible_to(WITH_INTERNAL).version != visible.version
