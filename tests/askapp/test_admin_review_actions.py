"""The answer list's actions: set a verdict on many answers, export reviewed answers as cases
the evaluation command runs, and replay answers with today's engine."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.messages import get_messages
from django.core.management import call_command
from django.urls import reverse

from askapp.models import AnswerTurn, Review, Turn
from tests.askapp.reviewing import (
    FY2022,
    FY2023,
    ask,
    knowledge_base,
    reviewer_client,
    staff_client,
)

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:askapp_answerturn_changelist"


def _act(client, action: str, answers, **data):  # type: ignore[no-untyped-def]
    return client.post(
        reverse(CHANGELIST),
        {"action": action, "_selected_action": [a.pk for a in answers], **data},
    )


# --- verdicts -------------------------------------------------------------------------------


def test_the_verdict_action_asks_for_the_verdict_on_an_intermediate_page() -> None:
    knowledge_base()
    answers = [ask("What was Apple's revenue in FY2023?"), ask("What was Apple's revenue?")]
    client, _ = reviewer_client()

    response = _act(client, "set_verdict", answers)

    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="verdict"' in html and 'name="note"' in html and 'name="apply"' in html
    for answer in answers:
        assert f'name="_selected_action" value="{answer.pk}"' in html
    assert not Review.objects.exists()


def test_the_verdict_action_sets_one_verdict_on_every_selected_answer() -> None:
    knowledge_base()
    chosen = [ask("What was Apple's revenue in FY2023?"), ask("What was Apple's revenue?")]
    other = ask("What was Apple's revenue in FY2022?")
    client, reviewer = reviewer_client()

    response = _act(
        client, "set_verdict", chosen, apply="1", verdict="should_have_refused", note="Too sure"
    )

    assert response.status_code == 302
    reviews = Review.objects.order_by("turn__created")
    assert [r.turn_id for r in reviews] == [a.pk for a in chosen]
    assert {(r.verdict, r.note, r.reviewer_id) for r in reviews} == {
        ("should_have_refused", "Too sure", reviewer.pk)
    }
    assert all(r.reviewed_at is not None for r in reviews)
    assert not Review.objects.filter(turn=other).exists()
    assert "Verdict set on 2 answers." in [m.message for m in get_messages(response.wsgi_request)]


def test_a_new_verdict_replaces_the_old_one() -> None:
    knowledge_base()
    answer = ask("What was Apple's revenue in FY2023?")
    client, _ = reviewer_client()
    _act(client, "set_verdict", [answer], apply="1", verdict="wrong", note="first look")

    _act(client, "set_verdict", [answer], apply="1", verdict="correct", note="")

    assert list(Review.objects.values_list("turn", "verdict", "note")) == [
        (answer.pk, "correct", "")
    ]


def test_a_right_figure_goes_only_with_the_verdict_wrong() -> None:
    knowledge_base()
    answer = ask("What was Apple's revenue in FY2023?")
    client, _ = reviewer_client()

    response = _act(
        client, "set_verdict", [answer], apply="1", verdict="correct", expected_value="12"
    )

    assert response.status_code == 200
    assert "A right figure only goes with the verdict wrong." in response.content.decode()
    assert not Review.objects.exists()


def test_staff_who_may_only_read_answers_cannot_set_verdicts() -> None:
    knowledge_base()
    answer = ask("What was Apple's revenue in FY2023?")
    client, _ = staff_client("view_answerturn")

    listing = client.get(reverse(CHANGELIST)).content.decode()
    _act(client, "set_verdict", [answer], apply="1", verdict="wrong")

    assert 'value="set_verdict"' not in listing
    assert not Review.objects.exists()


# --- export ---------------------------------------------------------------------------------


def _reviewed_answers() -> dict[str, AnswerTurn]:
    knowledge_base()
    found = ask("What was Apple's revenue in FY2023?")
    answers = {
        "found": found,
        "follow_up": ask("and in FY2022?", conversation=found.conversation),
        "refused": ask("What was Apple's revenue in FY1990?"),
        "too_sure": ask("What was Apple's revenue in FY2022?"),
        "wrong": ask("What was Apple's revenue in FY2023?"),
        "wrong_unknown": ask("What was Apple's revenue in FY2022?"),
        "unreviewed": ask("What was Apple's revenue in FY2022?"),
    }
    client, _ = reviewer_client()
    for name, verdict, extra in (
        ("found", "correct", {}),
        ("follow_up", "correct", {}),
        ("refused", "correct", {}),
        ("too_sure", "should_have_refused", {}),
        ("wrong", "wrong", {"expected_value": "383285000000"}),
        ("wrong_unknown", "wrong", {}),
    ):
        _act(client, "set_verdict", [answers[name]], apply="1", verdict=verdict, **extra)
    return answers


def _export(answers) -> tuple[list[dict], list[str]]:  # type: ignore[no-untyped-def]
    client, _ = reviewer_client()
    response = _act(client, "export_cases", answers)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/jsonl")
    assert response["Content-Disposition"].startswith('attachment; filename="askapp-cases-')
    lines = response.content.decode().splitlines()
    warnings = [m.message for m in get_messages(response.wsgi_request)]
    return [json.loads(line) for line in lines], warnings


def test_the_export_writes_what_each_verdict_expects() -> None:
    answers = _reviewed_answers()

    cases, warnings = _export(answers.values())

    by_turn = {case["turn"]: case for case in cases}
    found = by_turn[str(answers["found"].pk)]
    assert found["question"] == "What was Apple's revenue in FY2023?"
    assert found["history"] == []
    assert found["expected_status"] == "found"
    assert [f["value"] for f in found["expected_figures"]] == [str(FY2023)]
    assert found["expected_sources"] == answers["found"].figures[0]["sources"]
    follow_up = by_turn[str(answers["follow_up"].pk)]
    assert follow_up["history"] == [
        ["user", "What was Apple's revenue in FY2023?"],
        ["assistant", answers["found"].text],
    ]
    assert [f["value"] for f in follow_up["expected_figures"]] == [str(FY2022)]
    assert by_turn[str(answers["refused"].pk)]["expected_status"] == "not_found"
    too_sure = by_turn[str(answers["too_sure"].pk)]
    assert (too_sure["expected_status"], too_sure["expected_figures"]) == ("not_found", [])
    wrong = by_turn[str(answers["wrong"].pk)]
    assert wrong["expected_status"] == "found"
    assert [f["value"] for f in wrong["expected_figures"]] == ["383285000000"]
    assert str(answers["wrong_unknown"].pk) not in by_turn
    assert str(answers["unreviewed"].pk) not in by_turn
    assert any(str(answers["wrong_unknown"].pk) in w and "right figure" in w for w in warnings)


def test_exported_cases_run_through_the_evaluation_command(tmp_path: Path) -> None:
    answers = _reviewed_answers()
    first_questions = [a for name, a in answers.items() if name != "follow_up"]
    cases, _ = _export(first_questions)
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(json.dumps(case) + "\n" for case in cases), encoding="utf-8")
    out = StringIO()

    call_command("evaluate_cases", str(path), stdout=out)

    table = out.getvalue()
    assert f"{path}: 4 cases" in table
    totals = re.search(r"\| all\s*\|\s*(\d+) \|\s*(\d+) \|\s*(\d+) \|\s*(\d+) \|\s*(\d+) \|", table)
    assert totals is not None, table
    total, correct, wrong, refused, other = map(int, totals.groups())
    # found, refused and the right-figure case come out correct; the answer a reviewer said
    # should have been refused is still answered with a figure: wrong.
    assert (total, correct, wrong, refused, other) == (4, 3, 1, 0, 0)


def test_exporting_unreviewed_answers_exports_nothing() -> None:
    knowledge_base()
    answer = ask("What was Apple's revenue in FY2023?")
    client, _ = reviewer_client()

    response = _act(client, "export_cases", [answer])

    assert response.status_code == 302
    messages = [m.message for m in get_messages(response.wsgi_request)]
    assert any("only reviewed answers become cases" in m for m in messages)


# --- replay ---------------------------------------------------------------------------------


def test_replay_shows_a_changed_figure_after_the_fact_is_edited() -> None:
    kb = knowledge_base()
    answer = ask("What was Apple's revenue in FY2023?")
    fact = kb["facts"]["FY2023"]
    fact.value = Decimal("390000000000")
    fact.save()
    turns = Turn.objects.count()
    client, _ = reviewer_client()

    response = client.get(reverse("admin:askapp_answerturn_replay", args=[answer.pk]))

    html = response.content.decode()
    row = re.search(r'<tr class="figure-change (\w+)">(.*?)</tr>', html, re.S)
    assert row is not None, html
    assert row.group(1) == "changed"
    assert re.findall(r"<td>([^<]*)</td>", row.group(2)) == [
        "Apple Revenue FY2023", "383285000000 USD", "390000000000 USD",
    ]  # fmt: skip
    assert '<strong class="changed">Changed</strong>' in html
    assert Turn.objects.count() == turns  # a replay is never stored


def test_the_replay_action_replays_the_selected_answers_with_their_history() -> None:
    knowledge_base()
    first = ask("What was Apple's revenue in FY2023?")
    follow_up = ask("and in FY2022?", conversation=first.conversation)
    turns = Turn.objects.count()
    client, _ = reviewer_client()

    response = _act(client, "replay", [first, follow_up])

    html = response.content.decode()
    assert response.status_code == 200
    assert html.count('<strong class="changed">') == 0
    assert html.count("Unchanged") == 2
    # Without the rebuilt session the follow-up would not know whose revenue it asks about.
    assert "<td>Apple Revenue FY2022</td><td>394328000000 USD</td><td>394328000000 USD</td>" in html
    assert Turn.objects.count() == turns


def test_the_answer_page_links_to_its_replay() -> None:
    knowledge_base()
    answer = ask("What was Apple's revenue in FY2023?")
    client, _ = reviewer_client()

    html = client.get(reverse("admin:askapp_answerturn_change", args=[answer.pk])).content
    assert reverse("admin:askapp_answerturn_replay", args=[answer.pk]) in html.decode()
