"""Compact cells for the answer list, so fifty answers fit a 1280-pixel screen: a status chip
instead of a status and a refused column, text cut to one line with the whole of it in the
cell's title (a tooltip), and short figures for feedback, latency and time.

Every function returns markup made with format_html, so all the text in it is escaped.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.text import Truncator

from askapp.models import Review, Turn
from engine import Choice

# What each status is called on a chip: short, and never a bare cross or tick.
STATUS_CHIPS = {
    Turn.Status.FOUND: ("found", "Found: figures from facts"),
    Turn.Status.ANSWERED: ("answered", "Answered from documents"),
    Turn.Status.NOT_FOUND: ("not found", "Not found: refused, with no figure"),
    Turn.Status.BLOCKED: ("blocked", "Blocked by the security gate"),
    Turn.Status.CLARIFY: ("asked back", "Clarify: asked which figure, period or company"),
    Turn.Status.ERROR: ("error", "The answer failed"),
}
VERDICT_CHIPS = {
    Review.Verdict.CORRECT: "correct",
    Review.Verdict.WRONG: "wrong",
    Review.Verdict.SHOULD_HAVE_REFUSED: "should refuse",
    Review.Verdict.SHOULD_HAVE_ANSWERED: "should answer",
}


def clipped(text: str, limit: int, *, css: str = "clip") -> SafeString:
    """One line of `text`, cut at `limit` characters (and by CSS at the cell's width), with
    the whole text as the tooltip."""
    whole = " ".join(text.split())
    return format_html(
        '<span class="{}" title="{}">{}</span>', css, whole, Truncator(whole).chars(limit)
    )


def exchange_cell(question: str, answer: str) -> SafeString:
    """The question on one line and the answer under it, each cut to one line."""
    return format_html(
        "{}{}", clipped(question, 90, css="clip clip--question"), clipped(answer, 110)
    )


def status_chip(turn: Turn) -> SafeString:
    word, meaning = STATUS_CHIPS.get(turn.status, (turn.status or "history", "Supplied as history"))
    return format_html(
        '<span class="chip chip--{}" title="{}">{}</span>', turn.status or "none", meaning, word
    )


def verdict_chip(review: Review | None) -> SafeString:
    if review is None:
        return format_html('<span class="muted" title="{}">{}</span>', "Not reviewed yet", "–")
    return format_html(
        '<span class="chip verdict--{}" title="{}{}">{}</span>',
        review.verdict,
        review.get_verdict_display(),
        f": {review.note}" if review.note else "",
        VERDICT_CHIPS.get(review.verdict, review.verdict),
    )


def feedback_cell(up: int, down: int) -> SafeString:
    if not up and not down:
        return format_html('<span class="muted" title="{}">{}</span>', "No reader feedback", "–")
    return format_html(
        '<span title="{} helpful, {} not helpful">▲{} ▼{}</span>', up, down, up, down
    )


def latency_cell(turn: Turn) -> SafeString:
    where = " / ".join(part for part in (turn.provider, turn.model) if part) or "no provider"
    shown = "–" if turn.latency_ms is None else _duration(turn.latency_ms)
    return format_html('<span title="{}">{}</span>', where, shown)


def _duration(ms: int) -> str:
    return f"{ms} ms" if ms < 1000 else f"{ms / 1000:.1f} s"


def when_cell(moment: Any) -> SafeString:
    local = timezone.localtime(moment)
    return format_html(
        '<time datetime="{}" title="{}">{}</time>',
        local.isoformat(),
        local.strftime("%Y-%m-%d %H:%M:%S %Z"),
        local.strftime("%d %b %H:%M").lstrip("0"),
    )


def choices_list(stored: Any) -> SafeString:
    """An answer's choices as the asker saw them: each button's words and what it asks."""
    choices = [Choice.from_stored(item) for item in stored or ()]
    if not choices:
        return format_html("{}", "–")
    items = format_html_join(
        "",
        "<li>{} <span class='muted'>asks</span> “{}”</li>",
        ((c.label, c.question) for c in choices),
    )
    return format_html("<ul class='choices-list'>{}</ul>", items)
