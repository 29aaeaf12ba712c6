"""The chat page as a daily tool, in headless Chromium against the real server: never a dead
end (choices and coverage), focus where the user types, no question ever lost (Stop, 429,
failure), every landing example answering, accessible by axe-core's rules, and the API docs
loading with no network but the server's.

The screenshots named in docs/screenshots/README.md are refreshed from here (SCREENSHOTS).
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import DOC_SCREENSHOTS, axe_violations
from tests.browser.pages import Chat

pytestmark = pytest.mark.browser

SCREENSHOTS = DOC_SCREENSHOTS
Q_TESLA_2023 = "What was Tesla's revenue in FY2023?"  # the demo holds Tesla FY2012-FY2021
Q_APPLE_2023 = "What was Apple's revenue in FY2023?"


def test_focus_returns_to_the_composer_and_the_page_catches_up_without_a_reload(
    chat: Chat,
) -> None:
    page = chat.page
    composer = page.get_by_label("Your question")

    answer = chat.ask(Q_APPLE_2023)

    expect(answer).to_have_attribute("data-status", "found")
    expect(composer).to_be_focused()
    expect(page.locator("#announcer")).to_contain_text(
        "Answer ready. Found in the knowledge base. Apple's Revenue in FY2023 was USD 383.3"
    )
    # the header, the tab's title, the actions and the sidebar, as a reload would show them
    expect(page.get_by_role("heading", level=1)).to_have_text(Q_APPLE_2023)
    expect(page).to_have_title(f"{Q_APPLE_2023} · askapp")
    expect(page.locator(".conversation-actions summary")).to_have_text(["Rename", "Delete"])
    expect(page.locator(".recent a[aria-current=page]")).to_have_text(Q_APPLE_2023)
    # a follow-up typed straight away is asked, with no Tab or click in between
    page.keyboard.type("and in FY2022?")
    page.keyboard.press("Enter")
    follow_up = chat.last_answer(2)
    expect(follow_up.locator(".answer-text")).to_contain_text("USD 394.3 billion")
    expect(composer).to_be_focused()


def test_stop_keeps_what_arrived_and_ask_again_asks_it_anew(chat: Chat) -> None:
    """The stand-in stream sends part of an answer and then nothing (as a slow model would);
    Stop keeps those words on the page, and Ask again asks the real server."""
    page = chat.page
    page.add_init_script(
        """
        const realFetch = window.fetch;
        window.fetch = (url, options) => {
          if (!String(url).endsWith("/v1/ask/stream") || window.__realStreams) {
            return realFetch(url, options);
          }
          window.__realStreams = true;  // one stand-in, then the real server
          const body = new ReadableStream({
            start(controller) {
              const text = 'event: delta\\ndata: {"text": "Apple\\'s Revenue in FY2023 was"}\\n\\n';
              controller.enqueue(new TextEncoder().encode(text));
              options.signal.addEventListener("abort", () =>
                controller.error(new DOMException("stopped", "AbortError")));
            },
          });
          return Promise.resolve(new Response(body, {
            status: 200, headers: {"Content-Type": "text/event-stream"}}));
        };
        """
    )
    page.reload()
    page.get_by_label("Your question").fill(Q_APPLE_2023)
    page.get_by_role("button", name="Ask", exact=True).click()
    streaming = page.locator("li.exchange").last.locator("article.answer")
    expect(streaming.locator(".answer-text")).to_have_text("Apple's Revenue in FY2023 was")

    page.get_by_role("button", name="Stop").click()

    expect(streaming.locator(".status")).to_have_text(re.compile("Stopped"))
    expect(streaming.locator(".answer-text")).to_have_text("Apple's Revenue in FY2023 was")
    expect(page.get_by_label("Your question")).to_be_focused()
    streaming.get_by_role("button", name="Ask again").click()
    again = chat.last_answer(2)
    expect(again).to_have_attribute("data-status", "found")
    expect(again.locator(".answer-text")).to_contain_text("USD 383.3 billion")
    expect(page.locator(".question-text").last).to_have_text(Q_APPLE_2023)


def test_a_throttled_question_stays_in_the_box_with_retry_after_the_stated_seconds(
    browser: Browser, throttled_server_url: str, screenshot_dir: Path
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.clock.install()  # the countdown runs on the page's clock, moved on below
        page.goto(f"{throttled_server_url}/")
        chat = Chat(page, screenshot_dir)
        chat.ask(Q_APPLE_2023)
        chat.ask("and in FY2022?")  # the second of two a minute
        third = "what was the change?"

        answer = chat.ask(third)

        expect(answer).to_have_attribute("data-status", "error")
        expect(answer.locator(".answer-text")).to_contain_text("throttled")
        expect(page.get_by_label("Your question")).to_have_value(third)
        expect(page.get_by_label("Your question")).to_be_focused()
        retry = answer.get_by_role("button", name=re.compile(r"^Retry in \d+ s$"))
        expect(retry).to_be_disabled()
        wait = int(re.search(r"\d+", retry.inner_text()).group())  # type: ignore[union-attr]
        assert 1 <= wait <= 60
        expect(page.locator("#announcer")).to_contain_text(f"Retry in {wait} seconds")
        page.clock.run_for(wait * 1000)
        expect(answer.get_by_role("button", name="Retry", exact=True)).to_be_enabled()
    finally:
        context.close()


def test_a_not_found_answer_offers_the_periods_held_and_a_choice_asks_one(chat: Chat) -> None:
    page = chat.page
    answer = chat.ask(Q_TESLA_2023)

    expect(answer).to_have_attribute("data-status", "not_found")
    choices = answer.get_by_role("group", name="Held nearby: ask instead").get_by_role("button")
    expect(choices).to_have_text(["FY2021", "FY2020", "FY2019", "FY2018", "FY2017", "FY2016"])
    expect(choices.first).to_have_attribute("title", "What was Tesla's Revenue in FY2021?")
    page.screenshot(path=str(SCREENSHOTS / "chat-not-found-with-choices.png"))

    choices.first.click()

    held = chat.last_answer(2)
    expect(held).to_have_attribute("data-status", "found")
    expect(page.locator(".question-text").last).to_have_text("What was Tesla's Revenue in FY2021?")
    expect(held.locator(".answer-text")).to_contain_text("USD 53.8 billion")


def test_the_coverage_view_shows_what_is_held_and_asks_a_held_figure(chat: Chat) -> None:
    page = chat.page
    page.get_by_role("link", name="See which companies, metrics and years").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("What the knowledge base holds")
    table = page.get_by_role("table", name="Companies by fiscal year: how many metrics are held")
    tesla = table.get_by_role("row", name=re.compile("^Tesla"))
    expect(tesla.locator("td.level-0")).to_have_count(table.locator("thead th.period").count() - 10)
    expect(tesla.get_by_role("cell", name="15")).to_have_count(8)  # FY2012-FY2021, mostly 15
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    page.screenshot(path=str(SCREENSHOTS / "coverage.png"), full_page=True)

    table.get_by_role("link", name="Tesla").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "What the knowledge base holds about Tesla"
    )
    page.get_by_role("button", name="Ask Revenue in FY2019").click()

    expect(page).to_have_url(re.compile(r"/c/[0-9a-f-]{36}/#answer-"))
    answer = page.locator("article.answer").last
    expect(answer).to_have_attribute("data-status", "found")
    expect(answer.locator(".answer-text")).to_contain_text("Tesla's Revenue in FY2019 was")


def test_every_landing_example_is_answered(page: Page, live_server_url: str) -> None:
    examples = page.locator("button.example")
    count = examples.count()
    assert count >= 4
    for number in range(count):
        page.goto(f"{live_server_url}/")
        question = page.locator("button.example").nth(number).inner_text()
        page.locator("button.example").nth(number).click()
        answer = page.locator("li.exchange").last.locator("article.answer")
        expect(answer).to_have_attribute("data-status", re.compile(r"^(found|answered)$"))
        expect(page.locator(".question-text").last).to_have_text(question)


def test_the_phone_landing_page_keeps_the_facts_line_clear_of_the_composer(
    phone_page: Page,
) -> None:
    page = phone_page
    counts = page.locator(".counts")
    counts.scroll_into_view_if_needed()
    facts, composer = counts.bounding_box(), page.locator("#ask-form").bounding_box()
    assert facts is not None and composer is not None
    assert facts["y"] + facts["height"] <= composer["y"], "the composer covers the facts"
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0


@pytest.mark.parametrize("where", ["landing", "conversation", "coverage", "company coverage"])
def test_axe_finds_no_violation_on_the_chat_pages(
    chat: Chat, live_server_url: str, where: str
) -> None:
    page = chat.page
    if where == "conversation":
        chat.ask(Q_APPLE_2023)
        chat.ask(Q_TESLA_2023)  # a not-found answer with its choices
        chat.ask("and in FY2020?")
        page.reload()
        expect(page.locator("li.exchange")).to_have_count(3)
    elif where == "coverage":
        page.goto(f"{live_server_url}/coverage/")
    elif where == "company coverage":
        page.goto(f"{live_server_url}/coverage/?company=Apple")

    assert axe_violations(page) == []


@pytest.mark.parametrize("path", ["/v1/docs", "/v1/docs/", "/v1/redoc"])
def test_the_api_docs_render_with_every_other_host_blocked(
    context: BrowserContext, live_server_url: str, path: str
) -> None:
    blocked: list[str] = []

    def only_the_server(route: object) -> None:
        url = route.request.url  # type: ignore[attr-defined]
        if urlsplit(url).hostname == "127.0.0.1":
            route.continue_()  # type: ignore[attr-defined]
        else:
            blocked.append(url)
            route.abort()  # type: ignore[attr-defined]

    context.route("**/*", only_the_server)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server_url}{path}")

    if "redoc" in path:
        expect(page.locator("h1").first).to_contain_text("askapp API")
        expect(
            page.get_by_role("heading", name=re.compile(r"Ask a question$")).first
        ).to_be_visible()
    else:
        expect(page.locator(".swagger-ui .info .title")).to_contain_text("askapp API")
        expect(page.locator(".opblock-summary-path").first).to_be_visible()
        expect(page.locator(".opblock-summary-path", has_text="/v1/ask")).not_to_have_count(0)
    assert blocked == [], f"the docs reached for other hosts: {blocked}"
    assert errors == []


def test_the_schema_reads_in_the_browser(page: Page, live_server_url: str) -> None:
    page.goto(f"{live_server_url}/v1/schema")
    expect(page.locator("body")).to_contain_text("openapi: 3.0.3")
    page.goto(f"{live_server_url}/v1/schema?format=json")
    expect(page.locator("body")).to_contain_text('"openapi": "3.0.3"')


def test_edit_and_ask_makes_a_new_turn_and_keeps_the_old_one(chat: Chat) -> None:
    page = chat.page
    chat.ask(Q_TESLA_2023)

    page.locator("li.exchange").first.get_by_role("link", name=re.compile("^Edit and ask")).click()

    composer = page.get_by_label("Your question")
    expect(composer).to_have_value(Q_TESLA_2023)
    expect(composer).to_be_focused()
    composer.press("Control+A")
    page.keyboard.type("What was Tesla's revenue in FY2021?")
    page.keyboard.press("Enter")
    edited = chat.last_answer(2)
    expect(edited).to_have_attribute("data-status", "found")
    expect(page.locator(".question-text")).to_have_text(
        [Q_TESLA_2023, "What was Tesla's revenue in FY2021?"]
    )


def test_choices_ask_again_and_edit_work_without_javascript(plain_page: Page) -> None:
    page = plain_page
    page.get_by_label("Your question").fill(Q_TESLA_2023)
    with page.expect_navigation():
        page.get_by_role("button", name="Ask", exact=True).click()
    refused = page.locator("article.answer").last
    expect(refused).to_have_attribute("data-status", "not_found")

    with page.expect_navigation():
        refused.get_by_role("button", name="FY2020").click()
    expect(page.locator("article.answer").last).to_have_attribute("data-status", "found")
    expect(page.locator(".question-text").last).to_have_text("What was Tesla's Revenue in FY2020?")

    first = page.locator("li.exchange").first
    with page.expect_navigation():
        first.get_by_role("button", name=re.compile("^Ask again")).click()
    expect(page.locator("li.exchange")).to_have_count(3)
    expect(page.locator(".question-text").last).to_have_text(Q_TESLA_2023)

    second = page.locator("li.exchange").nth(1)
    second.get_by_role("link", name=re.compile("^Edit and ask")).click()
    expect(page.get_by_label("Your question")).to_have_value("What was Tesla's Revenue in FY2020?")
