"""The ratchet: answers on the public sets, and on the demo's conversations and off-target
questions, never get worse than the figures recorded here.

Each set runs whole (about 10 s of CPU for all of them). A change that costs correct answers,
or adds wrong (ConvFinQA and democonv: wrong or off-target) ones, fails here. A change that
earns better figures raises the bar in the same commit: edit the set's line below.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import pytest

from engine.evaluate import Scored, run_convfinqa, run_pacific, run_tatqa
from engine.evaluate.cli import load_convfinqa, load_democonv, load_pacific, load_tatqa
from engine.evaluate.demo import demo_store
from engine.evaluate.democonv import run_democonv
from engine.evaluate.offtarget import load_offtarget, run_offtarget

# set: (correct at least, bad at most), where bad is wrong, and for ConvFinQA wrong + off-target.
RECORDED = {
    # A line printed with dashes heads no lines under it (ADR 0077): one held-out turn.
    "tatqa": (950, 17),
    # Two turns ask "What was the X?" right after an answer about FY2019 (one of them a
    # not-found answer) and are answered for FY2019, where PACIFIC's gold asks back which
    # year (the period just answered is carried, see engine/session.py
    # `_period_just_answered`; ADR 0047 chose the analyst's convention, democonv gains).
    # A page whose knowledge base holds one period answers a question naming none for it
    # (ADR 0076): two held-out turns turned correct and one, unread, wrong. "Across all 3
    # years" sums the line the conversation is on, where the gold sums another line it
    # also takes for its turn before (ADR 0076).
    "pacific": (1059, 36),
    # One turn asks a figure "again" that the page's text states as 137 and the gold as 133,
    # though the gold program of the turn before it takes 137 for that year: the engine's 137
    # is scored wrong (ADR 0056). Another asks "what percentage of the total ... was due to
    # long-term debt?" and its gold is the debt's amount, not its share: the engine's share
    # (52.77%, the debt over the table's total) is scored wrong (ADR 0076). A third asks
    # "that change in relation to this number" right after "the ending number of stores in
    # 2012", which the table prints as 3,576 and the gold takes as 3,460 (the beginning
    # number): the engine's 116 / 3,576 is scored wrong (ADR 0078; it was refused before).
    # A footnote mark spaced out ("new stores ( 1 )") is no word of its line (ADR 0077): four
    # held-out turns turned correct, and "the number of new stores in 2008 and 2012" now
    # lists the line's two figures where it was asked back; its gold is their sum, so the
    # listing is scored wrong.
    "convfinqa": (501, 47),
    # The demo's off-target questions (issue 13): wrong is an answer about a company the
    # question did not name, or from another period, or any answer to an unknown company.
    "offtarget": (166, 0),
    # Conversations over the demo data written without reading the parser (issue 12):
    # bad is wrong + off-target, including a figure where the gold is not found.
    "democonv": (187, 2),
}
BAD = ("wrong", "off-target")
RUNS: dict[str, Callable[[], Sequence[Scored]]] = {
    "tatqa": lambda: run_tatqa(load_tatqa()),
    "pacific": lambda: run_pacific(load_pacific()),
    "convfinqa": lambda: run_convfinqa(load_convfinqa()),
    "offtarget": lambda: run_offtarget(load_offtarget(), demo_store()),
    "democonv": lambda: run_democonv(load_democonv()),
}


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_answers_on_the_public_sets_never_get_worse(name: str) -> None:
    correct_at_least, bad_at_most = RECORDED[name]

    outcomes = Counter(result.outcome for result in RUNS[name]())

    bad = sum(outcomes[o] for o in BAD)
    assert outcomes["correct"] >= correct_at_least, f"{name}: {dict(outcomes)}"
    assert bad <= bad_at_most, f"{name}: {dict(outcomes)}"
