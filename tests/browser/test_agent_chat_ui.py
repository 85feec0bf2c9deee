"""GRACE in Agent Chat UI, in a real (headless) browser.

The current Agent Chat UI renders LangChain 1.0 HITL interrupts as a review form. Driven
like a person would: an unanswerable question shows the review with the right buttons (no
approve at ESCALATE) and the draft in the chat; rejecting with a fact finishes with an answer
citing the person; a second thread's answer is edited; a third, at CONFIRM, is approved; an
answerable question is answered with its sources and no pause. Screenshots of each go to
``$GRACE_TEST_ARTIFACTS``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Stack

pytestmark = pytest.mark.slow

UNANSWERABLE = "Who won the 2018 FIFA World Cup?"
ANSWERABLE = "When did the horse tram line open in Lumen Bay?"
CONFIRM_QUESTION = "Who won the prize for the best lantern at the Lantern Tide Festival?"
"""A bundled sample question whose draft pauses at CONFIRM (approve allowed)."""
FACT = "France won the 2018 FIFA World Cup, beating Croatia 4-2 in the final."
EDITED = "France won the 2018 World Cup (answer edited in the review)."
RUN_TIMEOUT_MS = 120_000


@pytest.fixture
def page(browser: Any, stack: Stack) -> Iterator[Any]:
    """A fresh tab on a new thread."""
    tab = browser.new_page(viewport={"width": 1280, "height": 1500})
    tab.goto(stack.app_url, timeout=RUN_TIMEOUT_MS)
    yield tab
    tab.close()


def _ask(page: Any, question: str) -> None:
    box = page.get_by_placeholder("Type your message...")
    box.fill(question)
    box.press("Enter")


Shot = Callable[[Any, str], None]


@pytest.fixture
def shot(artifacts: Path, capsys: pytest.CaptureFixture[str]) -> Shot:
    """Save a screenshot of the page under ``artifacts`` and print its path."""

    def save(page: Any, name: str) -> None:
        badge = page.get_by_label("Collapse issues badge")  # next dev's overlay, not the app
        if badge.count():
            badge.first.click()
        path = artifacts / name
        page.screenshot(path=str(path))
        with capsys.disabled():
            print(f"\nscreenshot: {path}")

    return save


def _wait_text(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => document.body.innerText.includes(t)", arg=text, timeout=RUN_TIMEOUT_MS
    )


def _review(page: Any) -> Any:
    """Wait for GRACE's review form; return its reject button."""
    reject = page.get_by_role("button", name="Submit rejection")
    reject.wait_for(timeout=RUN_TIMEOUT_MS)
    return reject


def test_unanswerable_question_shows_the_review_and_a_fact_finishes_it(
    page: Any, shot: Shot
) -> None:
    _ask(page, UNANSWERABLE)
    reject = _review(page)
    _wait_text(page, "I need your help")  # the draft is in the chat, not only the form
    assert page.get_by_role("button", name="Submit", exact=True).is_visible()  # edit
    assert page.get_by_role("button", name="Approve").count() == 0  # ESCALATE: no approve
    assert page.get_by_role("button", name="Accept").count() == 0
    shot(page, "01-review.png")

    page.get_by_placeholder("Share feedback with the agent...").fill(FACT)
    reject.click()
    _wait_text(page, "[H1] Your reply")
    text = page.inner_text("body")
    assert "France" in text and "Sources:" in text
    assert "Answered from your reply" in text
    assert page.get_by_role("button", name="Submit rejection").count() == 0
    assert UNANSWERABLE in text  # the person's question is still there
    shot(page, "02-answer-cites-you.png")


def test_second_thread_answer_edited_in_the_review(page: Any, shot: Shot) -> None:
    _ask(page, UNANSWERABLE)
    _review(page)
    fields = page.locator("textarea")
    answer = fields.nth(1)  # query, answer, sources, reject reason, chat box
    assert "do not contain an answer" in answer.input_value()
    answer.fill(EDITED)
    page.get_by_role("button", name="Submit", exact=True).click()
    _wait_text(page, "[H1] Your edited answer")
    assert EDITED in page.inner_text("body")
    assert page.get_by_role("button", name="Submit rejection").count() == 0
    shot(page, "03-edited-answer.png")


def test_third_thread_draft_approved_at_confirm(page: Any, shot: Shot) -> None:
    _ask(page, CONFIRM_QUESTION)
    _review(page)
    _wait_text(page, "Please check my draft answer")
    approve = page.get_by_role("button", name="Approve", exact=True)
    assert approve.is_visible()
    shot(page, "04-confirm-review.png")
    approve.click()
    page.get_by_role("button", name="Submit rejection").wait_for(
        state="detached", timeout=RUN_TIMEOUT_MS
    )
    # The pause message and the final answer each list their sources.
    page.wait_for_function(
        "() => document.body.innerText.split('Sources:').length >= 3", timeout=RUN_TIMEOUT_MS
    )
    shot(page, "05-approved.png")


def test_answerable_question_is_answered_with_sources_and_no_pause(page: Any, shot: Shot) -> None:
    _ask(page, ANSWERABLE)
    _wait_text(page, "[S1] Lumen Bay Tramways")
    text = page.inner_text("body")
    assert "1874" in text and "Sources:" in text
    assert page.get_by_role("button", name="Submit rejection").count() == 0
    assert "I need your help" not in text
    shot(page, "06-answer-with-sources.png")
