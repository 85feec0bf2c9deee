"""``grace ui`` in Debian's Chromium: ask, a pause answered through the form, the library,
and a thread started with ``grace ask`` shown in the page.

The page is served by the real command (``python -m graph.cli.main ui``) on loopback over a data
directory of its own, offline; screenshots of each page go to ``$GRACE_TEST_ARTIFACTS`` (the
ones in docs/ui.md come from here).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from tests.browser import _stack

pytestmark = pytest.mark.slow

REQUIRE = os.environ.get("GRACE_TEST_REQUIRE_CHROMIUM", "") not in ("", "0", "false")
"""Set by ``.ci/run`` (which installs Chromium): a missing browser is a failure, not a skip."""
ANSWERABLE = "When did the horse tram line open in Lumen Bay?"
UNANSWERABLE = "Who won the 2018 FIFA World Cup?"
FACT = "France won the 2018 FIFA World Cup, beating Croatia 4-2 in the final."
WAIT_MS = 120_000
VIEWPORT = {"width": 1280, "height": 1400}


class Page(NamedTuple):
    """The running page: its URL, its data directory and its server's environment."""

    url: str
    data_dir: Path
    env: dict[str, str]
    log: Path


def _missing() -> list[str]:
    missing = []
    if _stack.chromium_path() is None:
        missing.append("chromium (apt-get install chromium)")
    for module, extra in (("playwright", "dev"), ("streamlit", "ui")):
        try:
            __import__(module)
        except ImportError:
            missing.append(f"{module} (pip install -e '.[{extra}]')")
    return missing


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Page]:
    """``grace ui --port P`` over a fresh data directory, no key, no GRACE_* of this shell."""
    missing = _missing()
    if missing:
        message = "the page's browser test needs: " + "; ".join(missing)
        if REQUIRE:
            pytest.fail(message + " (GRACE_TEST_REQUIRE_CHROMIUM is set)", pytrace=False)
        pytest.skip(message)
    work = tmp_path_factory.mktemp("grace-ui")
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GRACE_", "LANGSMITH_", "LANGCHAIN_", "STREAMLIT_"))
    }
    for key in ("GOOGLE_API_KEY", "OPENAI_API_KEY"):
        env.pop(key, None)
    env["GRACE_DATA_DIR"] = str(work / "data")
    port = _stack.free_port()
    log = work / "ui.log"
    server = _stack.start(
        [sys.executable, "-m", "graph.cli.main", "ui", "--port", str(port)], work, env, log
    )
    try:
        _stack.wait_http(server, f"http://127.0.0.1:{port}/_stcore/health", log, 120)
        yield Page(f"http://127.0.0.1:{port}/", work / "data", env, log)
    finally:
        _stack.stop(server)


@pytest.fixture
def page(
    served: Page, chromium: Any, artifacts: Path, request: pytest.FixtureRequest
) -> Iterator[Any]:
    """A fresh tab (a new Streamlit session: no thread selected).

    On a failure the tab's screenshot and the server's log are kept beside the screenshots.
    """
    tab = chromium.new_page(viewport=VIEWPORT)
    tab.set_default_timeout(WAIT_MS)
    try:
        yield tab
    finally:
        report = getattr(request.node, "rep_call", None)
        if report is not None and report.failed:
            tab.screenshot(path=str(artifacts / f"failed-{request.node.name}.png"))
            (artifacts / f"failed-{request.node.name}.log").write_text(
                served.log.read_text(encoding="utf-8", errors="replace")[-20000:]
            )
        tab.close()


def _open(page: Any, url: str) -> None:
    page.goto(url)
    page.get_by_role("heading", name="Ask GRACE").wait_for()


def _ask(page: Any, url: str, question: str, shown: str) -> None:
    """Open the page, send ``question`` from the chat box, wait until ``shown`` is shown."""
    _open(page, url)
    box = page.get_by_placeholder("Ask a question")
    box.fill(question)
    box.press("Enter")
    page.get_by_text(shown).wait_for()
    _settled(page)


def _settled(page: Any) -> None:
    """Wait until the page's script run is over (Streamlit's running indicator is gone)."""
    page.wait_for_timeout(300)  # the indicator shows a moment after the widget event
    _expect(page.get_by_test_id("stStatusWidget").first).to_be_hidden(timeout=30_000)


def _no_traceback(page: Any) -> None:
    assert page.get_by_text("Traceback").count() == 0


def _expander(page: Any, label: str) -> Any:
    return page.get_by_test_id("stExpander").filter(has_text=label)


def _expect(locator: Any) -> Any:
    """Playwright's ``expect``: assertions that wait while the page is still drawing."""
    from playwright.sync_api import expect

    return expect(locator)


def _screenshot(page: Any, path: Path) -> None:
    page.wait_for_timeout(800)  # let an expander finish opening
    page.screenshot(path=str(path))


def test_a_question_is_answered_and_its_citation_opens_its_passage(
    page: Any, served: Page, artifacts: Path
) -> None:
    _ask(page, served.url, ANSWERABLE, "calibrated P(answer correct)")
    main = page.get_by_role("main")
    assert "1874" in main.inner_text()
    # The run as it streamed: its plan, each step's status and score.
    page.get_by_text("The run as it streamed").click()
    run = _expander(page, "The run as it streamed")
    run.get_by_text("rag_search").first.wait_for()
    text = run.inner_text()
    assert "plan (offline, 2 steps)" in text and "reasoning" in text and "success (" in text
    assert "quality gate s2: passed" in text
    page.get_by_text("[S1] Lumen Bay Tramways").click()
    passage = _expander(page, "[S1] Lumen Bay Tramways")
    passage.get_by_text("retrieval score").wait_for()
    text = passage.inner_text()
    assert "lumen-bay-tramways.md" in text and "horse tram" in text and "1874" in text
    # The thread list shows it, newest first, with its status.
    assert page.get_by_role("button", name=f"{ANSWERABLE[:20]}").first.is_visible()
    _no_traceback(page)
    _screenshot(page, artifacts / "ui-answer.png")

    # A follow-up in the same thread: the earlier turn stays above the new answer.
    box = page.get_by_placeholder("Ask a follow-up in this thread")
    box.fill("In what year did Lumen Bay receive its royal charter as a borough?")
    box.press("Enter")
    page.get_by_text("1764").first.wait_for()
    main = page.get_by_role("main").inner_text()
    assert main.index(ANSWERABLE) < main.index("2 August 1874") < main.index("1764")


def _send_reply(page: Any, choice: str, text: str) -> None:
    _settled(page)  # a click while the page still redraws the form can be lost with it
    page.get_by_text(choice, exact=False).first.click()
    _expect(page.get_by_role("radio", name=choice, exact=False)).to_be_checked()
    page.get_by_placeholder("The answer, the new question or your response").fill(text)
    page.get_by_role("button", name="Send reply").click()


def test_an_out_of_corpus_question_pauses_and_is_answered_through_the_form(
    page: Any, served: Page, artifacts: Path
) -> None:
    _ask(page, served.url, UNANSWERABLE, "GRACE needs you: paused at")
    page.get_by_role("button", name="Send reply").wait_for()
    form = page.get_by_test_id("stForm")
    for reply in ("Edit the answer", "Edit the question", "Respond with the answer", "Ignore"):
        assert form.get_by_text(reply).count() == 1, reply
    assert form.get_by_text("Accept —").count() == 0  # ESCALATE: the draft cannot be accepted
    _screenshot(page, artifacts / "ui-pause.png")

    # A refused reply (a response with no text) keeps the thread paused and says why.
    _send_reply(page, "Respond with the answer", "")
    page.get_by_text("this reply needs text").wait_for()
    assert page.get_by_text("GRACE needs you: paused at").count() == 1

    _send_reply(page, "Respond with the answer", FACT)
    page.get_by_text("calibrated P(answer correct)").wait_for()
    main = page.get_by_role("main")
    assert "France" in main.inner_text() and "[H1]" in main.inner_text()
    page.get_by_text("[H1] Your reply").click()
    passage = _expander(page, "[H1] Your reply")
    passage.get_by_text("what you told GRACE").wait_for()
    assert "France won the 2018 FIFA World Cup" in passage.inner_text()
    _no_traceback(page)
    _screenshot(page, artifacts / "ui-answer-from-reply.png")


def test_a_file_is_uploaded_listed_and_removed(
    page: Any, served: Page, artifacts: Path, tmp_path: Path
) -> None:
    notes = tmp_path / "harbour-notes.md"
    notes.write_text(
        "# Harbour notes\n\nThe harbour cat of Lumen Bay is called Biscuit.\n", encoding="utf-8"
    )
    page.goto(served.url + "library")
    page.get_by_role("heading", name="Library").wait_for()
    page.get_by_role("tab", name="Upload files").click()
    page.locator("input[type='file']").set_input_files(str(notes))
    page.get_by_text("harbour-notes.md").first.wait_for()
    page.get_by_role("button", name="Ingest the files").click()
    page.get_by_text("1 added").wait_for()
    # Each table is checked as the page finishes drawing it (a rerun redraws them in order).
    report = page.get_by_test_id("stTable").filter(has_text="added").first
    _expect(report).to_contain_text("harbour-notes.md")
    documents = page.get_by_test_id("stTable").filter(has_text="ingested").first
    _expect(documents).to_contain_text("harbour-notes.md")
    _screenshot(page, artifacts / "ui-library.png")

    page.get_by_role("tab", name="Documents").click()
    page.get_by_test_id("stMultiSelect").click()
    page.get_by_role("option", name="harbour-notes.md").click()
    page.keyboard.press("Escape")
    _settled(page)  # the choice's rerun enables Remove: a click during it can be lost
    remove = page.get_by_role("button", name="Remove", exact=True)
    _expect(remove).to_be_enabled()
    remove.click()
    page.get_by_text("removed harbour-notes.md").wait_for()
    documents = page.get_by_test_id("stTable").filter(has_text="ingested").first
    _expect(documents).not_to_contain_text("harbour-notes.md")
    _expect(documents).to_contain_text("lumen-bay-tramways.md")
    assert not (served.data_dir / "uploads" / "grace" / "harbour-notes.md").exists()
    _no_traceback(page)


def test_a_thread_started_with_grace_ask_is_shown_in_the_page(
    page: Any, served: Page, artifacts: Path
) -> None:
    question = "How long is the breakwater that shelters the Port of Lumen Bay?"
    done = subprocess.run(
        [sys.executable, "-m", "graph.cli.main", "ask", question, "--json"],
        env=served.env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout)
    _open(page, served.url)
    entry = page.get_by_role("button", name=question[:30])
    entry.first.wait_for()
    assert "completed" in entry.first.inner_text()
    entry.first.click()
    page.mouse.move(0, 0)  # away from the entry's tooltip
    main = page.get_by_test_id("stMainBlockContainer")
    main.get_by_text(f"thread {outcome['thread_id']}").wait_for()
    assert (outcome["answer"] or "")[:30] in page.get_by_role("main").inner_text()
    _no_traceback(page)
    _screenshot(page, artifacts / "ui-thread-from-cli.png")


def test_an_evaluation_shows_its_tables_and_plots(page: Any, served: Page, artifacts: Path) -> None:
    from grace.data import sample_dir

    page.goto(served.url + "evaluation")
    page.get_by_role("heading", name="Evaluation").wait_for()
    page.get_by_label("Dataset folder").fill(str(sample_dir()))
    page.get_by_role("button", name="Run the evaluation").click()
    page.get_by_text("Per question kind").wait_for()
    tables = page.get_by_test_id("stTable")
    _expect(tables.first).to_contain_text("accuracy")
    _expect(tables.first).to_contain_text("AUROC")
    _expect(tables.nth(1)).to_contain_text("in_corpus")
    images = page.get_by_test_id("stImage")
    images.nth(1).wait_for()
    assert images.count() == 2
    assert (served.data_dir / "eval" / "sample" / "report.json").is_file()
    _no_traceback(page)
    page.set_viewport_size({"width": 1280, "height": 1900})  # the plots too
    _screenshot(page, artifacts / "ui-evaluation.png")
