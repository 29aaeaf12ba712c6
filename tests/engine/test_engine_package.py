"""The engine's front door: one package face, and the README's example runs as written."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
from pathlib import Path

import engine
from engine import Answer, Engine, MockProvider, answer_question, answer_question_stream
from tests.demo_store import demo_store

ROOT = Path(__file__).resolve().parents[2]
QUESTION = "What was Apple's revenue in FY2023?"


def test_every_public_name_is_importable_from_the_package() -> None:
    missing = [name for name in engine.__all__ if not hasattr(engine, name)]
    assert not missing
    assert {"answer_question", "answer_question_stream", "Engine", "Answer"} <= set(engine.__all__)


def test_the_functional_form_gives_what_the_engine_gives() -> None:
    store, provider = demo_store(), MockProvider()

    built = Engine(store, provider)

    assert answer_question(QUESTION, store, provider) == built.answer(QUESTION)
    assert list(answer_question_stream(QUESTION, store, provider)) == list(built.stream(QUESTION))


def test_the_functional_form_passes_engine_parts_and_question_options_apart() -> None:
    class CountingGate:
        def __init__(self) -> None:
            self.seen: list[str] = []

        def screen(self, question: str):  # type: ignore[no-untyped-def]
            self.seen.append(question)
            return engine.SecurityGate().screen(question)

    gate = CountingGate()

    answer = answer_question(QUESTION, demo_store(), MockProvider(), gate=gate, history=[])

    assert isinstance(answer, Answer) and answer.status == "found"
    assert gate.seen == [QUESTION]


def test_importing_the_engine_loads_no_openai_client() -> None:
    code = "import sys, engine; print('openai' in sys.modules, 'engine.evaluate' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["False", "False"]
    assert engine.OpenAICompatibleProvider.__name__ == "OpenAICompatibleProvider"


def test_the_readme_engine_section_runs_as_written() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("\n## The engine\n") :]
    section = section[: section.index("\n## ", 1)]
    blocks = re.findall(r"```pycon\n(.*?)```", section, re.DOTALL)
    assert blocks, "README.md's engine section shows no example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, block in enumerate(blocks):
        example = doctest.DocTestParser().get_doctest(block, {}, f"README-{number}", "README.md", 0)
        report: list[str] = []
        runner.run(example, out=report.append)
        assert runner.failures == 0, "".join(report)
