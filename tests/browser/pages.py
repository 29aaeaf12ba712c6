"""The chat page as a visitor uses it, for the browser tests: asking, waiting for the answer,
and a canary check on every state looked at."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, expect

from tests.canaries import ALL_CANARIES, CANARY_CODES


class Chat:
    """The page as a visitor uses it, with a canary check on every state it looks at."""

    def __init__(self, page: Page, shots: Path) -> None:
        self.page = page
        self.shots = shots
        self.streams: list[str] = []
        page.on(
            "request",
            lambda request: (
                self.streams.append(request.url) if request.url.endswith("/v1/ask/stream") else None
            ),
        )

    def ask(self, question: str) -> Locator:
        """Type the question and send it with the Ask button; the new answer, once shown."""
        before = self.page.locator("li.exchange").count()
        self.page.get_by_label("Your question").fill(question)
        self.page.get_by_role("button", name="Ask", exact=True).click()
        return self.last_answer(before + 1)

    def last_answer(self, count: int) -> Locator:
        expect(self.page.locator("li.exchange")).to_have_count(count)
        answer = self.page.locator("li.exchange").last.locator("article.answer")
        expect(answer).not_to_have_attribute("aria-busy", "true")
        expect(answer).to_have_attribute("data-status", re.compile(r".+"))
        self.no_canaries()
        return answer

    def no_canaries(self) -> None:
        html = self.page.content()
        for phrase in ALL_CANARIES:
            assert phrase not in html
        for code in CANARY_CODES["RESTRICTED"]:
            assert code not in html

    def shot(self, name: str, *, full_page: bool = False) -> None:
        self.page.screenshot(path=str(self.shots / f"{name}.png"), full_page=full_page)


class HeldStream:
    """The answer stream, answered by the server in full (so the turn is stored) but held
    back from the page until `release`: the page stays in its streaming state meanwhile."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.held: list[tuple[Any, Any]] = []

    def hold(self, route: Any) -> None:
        self.held.append((route, route.fetch()))

    def wait(self) -> None:
        for _ in range(400):  # a readiness wait for the server's answer, not an assertion
            if self.held:
                break
            self.page.wait_for_timeout(50)
        assert self.held and self.held[0][1].status == 200

    def release(self) -> None:
        route, response = self.held.pop(0)
        route.fulfill(response=response)


@contextmanager
def held_stream(page: Page) -> Iterator[HeldStream]:
    held = HeldStream(page)
    page.route("**/v1/ask/stream", held.hold)
    try:
        yield held
    finally:
        page.unroute("**/v1/ask/stream")
