"""``grace ui``'s logic without a browser: errors, rows, uploads, passages, replies, the server.

The page itself is driven in Chromium by tests/browser/test_grace_ui.py; here each piece it
is made of is checked alone, and the page script runs once in Streamlit's ``AppTest``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from grace.errors import (
    InvalidCollectionError,
    ModelUnreachableError,
    SettingsError,
    StorageError,
)
from grace.hitl.request import (
    REPLY_CHOICES,
    InvalidHumanResponseError,
    parse_human_response,
    reply_choices,
    reply_for,
)
from grace.retrieval.ingest import DocumentChange, FileProblem, IngestReport
from grace.retrieval.library import DocumentRecord
from grace.settings import GraceSettings
from graph.app import GraceApp, ThreadSummary
from graph.ui import server, session
from graph.views.outcome import RunView

ANSWERABLE = "When did the horse tram line open in Lumen Bay?"
UNANSWERABLE = "Who won the 2018 FIFA World Cup?"


def _request(level: str, allowed: list[str]) -> dict[str, Any]:
    return {
        "level": level,
        "confidence": 0.1,
        "step_id": "s1",
        "action_requests": [{"name": "review_answer", "args": {"answer": "a draft"}}],
        "review_configs": [{"action_name": "review_answer", "allowed_decisions": allowed}],
    }


# --- replies: the one table behind the form and the terminal prompt --------------------------


def test_each_reply_choice_is_a_reply_grace_accepts_as_its_own_kind() -> None:
    request = _request("confirm", ["approve", "edit", "reject"])
    kinds = {
        "accept": "accept",
        "edit_answer": "edit",
        "edit_question": "edit",
        "respond": "response",
        "ignore": "ignore",
    }
    assert reply_choices(request) == list(REPLY_CHOICES)
    for choice, kind in kinds.items():
        reply = parse_human_response(reply_for(choice, "review_answer", "Ghent, in 1913"), request)  # type: ignore[arg-type]
        assert reply.type == kind, choice
    edited = parse_human_response(reply_for("edit_question", "review_answer", "When?"), request)
    assert edited.edit_args() == {"query": "When?"}
    answered = parse_human_response(reply_for("edit_answer", "review_answer", "In 1913."), request)
    assert answered.edit_args() == {"answer": "In 1913."}


def test_escalate_offers_no_accept() -> None:
    choices = reply_choices(_request("escalate", ["edit", "reject"]))
    assert "accept" not in choices and "respond" in choices and "ignore" in choices


@pytest.mark.parametrize("choice", ["respond", "edit_answer", "edit_question"])
def test_a_reply_made_of_text_refuses_a_blank_one(choice: Any) -> None:
    # A blank response would otherwise be read as "ignore": the run would end unreviewed.
    with pytest.raises(InvalidHumanResponseError, match="this reply needs text"):
        reply_for(choice, "review_answer", "  \n")


# --- errors: one line -------------------------------------------------------------------------


def test_errors_are_one_line_and_an_unknown_one_is_named_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    assert session.error_message(StorageError("cannot write /x: disk full")) == (
        "cannot write /x: disk full"
    )
    assert "docs/configuration.md" in session.error_message(SettingsError("bad field"))
    unreachable = ModelUnreachableError("ollama: connection refused", provider="o", model="m")
    line = session.error_message(unreachable, "t-1")
    assert "connection refused" in line and "Thread t-1 is kept" in line and "Run on" in line
    with caplog.at_level("ERROR"):
        line = session.error_message(KeyError("boom"))
    assert line.startswith("unexpected error (KeyError)") and "\n" not in line
    assert caplog.records and caplog.records[0].exc_info is not None  # the server log has it


def test_guarded_shows_the_line_and_returns_none() -> None:
    shown: list[str] = []
    assert session.guarded(lambda: 3, shown.append) == 3
    assert session.guarded(lambda: {}["x"], shown.append) is None
    assert len(shown) == 1 and shown[0].startswith("unexpected error (KeyError)")


# --- what the page shows ---------------------------------------------------------------------


def test_the_collection_picker_names_no_collection_first() -> None:
    assert session.collection_choice(session.NO_COLLECTION) is None
    assert session.collection_choice(None) is None
    assert session.collection_choice("mydocs") == "mydocs"


def test_a_thread_entry_says_its_status_in_the_pages_words() -> None:
    row = ThreadSummary(
        "t", "interrupted", "Who won the 2018 FIFA World Cup, and where?", 0.1, "escalate"
    )
    label = session.thread_label(row, width=20)
    assert label.startswith(":material/pause_circle:") and label.endswith("· paused")
    assert "Who won the 2018 FI…" in label  # the question as written: Markdown escaped
    starred = ThreadSummary("t", "completed", "*2* or _3_?", 0.9, "silent")
    assert session.thread_label(starred).startswith(":material/check_circle: \\*2\\* or \\_3\\_?")
    assert session.thread_label(ThreadSummary("t", "incomplete", "", None, None)).endswith(
        "\\(no question yet\\) · incomplete"
    )


def test_the_live_table_follows_the_runs_events() -> None:
    view = RunView()
    for event in (
        {"event": "plan_ready", "origin": "template", "steps": [
            {"step_id": "s1", "action": "rag_search", "query": "tram"}]},
        {"event": "step_started", "step_id": "s1", "action": "rag_search"},
        {"event": "step_finished", "step_id": "s1", "status": "success", "execution_time_ms": 12.0},
        {"event": "step_scored", "step_id": "s1", "confidence": 0.91, "level": "silent"},
        {"event": "notice", "message": "heads up"},
    ):  # fmt: skip
        view.handle(event)
    assert session.step_rows(view) == [
        {"step": "s1", "action": "rag_search", "query": "tram", "status": "success (12 ms)",
         "confidence": "0.91", "level": "SILENT"}
    ]  # fmt: skip
    assert session.notice_lines(view) == ["notice: heads up"]


def test_the_breakdown_lists_factors_and_penalties() -> None:
    score = {"breakdown": {"tool_success": 0.5}, "penalties": {"no_sources": 0.2}}
    step = {"step_id": "s1", "action": "reasoning", "status": "partial", "confidence": 0.2}
    history = {"steps": [{**step, "score": score}]}
    (row,) = session.breakdown_rows(history)
    assert row["breakdown"] == "tool_success 0.50, −no_sources 0.20" and row["confidence"] == "0.20"


# --- uploads and the library -------------------------------------------------------------------


def test_uploads_are_kept_under_the_data_dir_by_plain_name(tmp_path: Path) -> None:
    (path,) = session.save_uploads(tmp_path, "mydocs", [("notes.md", b"# Notes\n")])
    assert (
        path == tmp_path / "uploads" / "mydocs" / "notes.md" and path.read_bytes() == b"# Notes\n"
    )
    for name in ("../escape.md", "a/b.md", ".hidden.md", "a\\b.md"):
        with pytest.raises(session.UploadError, match="not a plain file name"):
            session.save_uploads(tmp_path, "mydocs", [(name, b"x")])
    assert not (tmp_path / "uploads" / "escape.md").exists()
    with pytest.raises(InvalidCollectionError):
        session.save_uploads(tmp_path, "../elsewhere", [("a.md", b"x")])
    assert not (tmp_path / "elsewhere").exists()


def test_only_the_pages_own_copies_are_deleted_with_their_documents(tmp_path: Path) -> None:
    kept = session.save_uploads(tmp_path, "c", [("a.md", b"a")])[0].resolve()

    def record(source: str, root: str) -> DocumentRecord:
        return DocumentRecord("c", source, root, "md", 1, "", 1, 0.0)

    records = [record("a.md", str(kept)), record("b.md", str(tmp_path / "mine" / "b.md"))]
    assert session.uploaded_copies(tmp_path, "c", records, ["a.md", "b.md"]) == [kept]
    assert session.uploaded_copies(tmp_path, "c", records, ["b.md"]) == []


def test_reports_of_one_file_each_merge_into_one() -> None:
    added = DocumentChange(source="a.md", path="a", status="added", chunks=3)
    skipped = DocumentChange(source="b", path="b", status="skipped", reason="too large")
    one = IngestReport(collection="c", files=1, chunks=3, added=1, seconds=0.5, documents=[added])
    two = IngestReport(
        collection="c",
        problems=[FileProblem(path="b.bin", reason="too large")],
        documents=[skipped],
    )
    merged = session.merge_reports([one, two])
    assert (merged.files, merged.chunks, merged.added, merged.seconds) == (1, 3, 1, 0.5)
    assert [c["status"] for c in session.change_rows(merged)] == ["added", "skipped"]
    assert merged.summary().startswith("1 file, 3 chunks into 'c' (1 added, 0 updated")
    assert len(merged.problems) == 1


def test_document_rows_read_like_grace_documents() -> None:
    rows = session.document_rows([DocumentRecord("c", "a.pdf", "/r", "pdf", 2500, "", 4, 0.0)])
    assert rows == [{"source": "a.pdf", "format": "pdf", "chunks": 4, "size": "2.5 kB",
                     "ingested": "—"}]  # fmt: skip


# --- passages and transcripts from a real thread --------------------------------------------


@pytest.fixture(scope="module")
def grace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraceApp]:
    settings = GraceSettings(data_dir=tmp_path_factory.mktemp("ui-data"), provider="offline")
    with GraceApp.open(settings) as app:
        yield app


def test_an_answers_passages_carry_their_text(grace: GraceApp) -> None:
    outcome = grace.ask(ANSWERABLE)
    cited = session.passages(grace, outcome.thread_id)
    assert [s.source_id for s in cited] == [s["source_id"] for s in outcome.sources]
    assert "1874" in cited[0].text and cited[0].source == "lumen-bay-tramways.md"
    assert session.transcript(grace, outcome.thread_id) == []
    follow = grace.ask(
        "When was the Royal Charter of Lumen Bay granted?", thread_id=outcome.thread_id
    )
    earlier = session.transcript(grace, follow.thread_id)
    assert earlier[0].text == ANSWERABLE and "1874" in earlier[-1].text


def test_a_pauses_passages_are_its_drafts(grace: GraceApp) -> None:
    outcome = grace.ask(UNANSWERABLE)
    assert outcome.status == "interrupted"
    draft = [s["source_id"] for s in (outcome.draft or {}).get("sources", [])]
    assert [s.source_id for s in session.passages(grace, outcome.thread_id)] == draft


# --- the server and the command -------------------------------------------------------------


def test_the_server_listens_on_loopback_with_usage_statistics_off() -> None:
    command = server.streamlit_command(8642)
    assert command[1:4] == ["-m", "streamlit", "run"] and command[4] == str(server.PAGE)
    for flag in ("--server.address=127.0.0.1", "--server.port=8642",
                 "--browser.gatherUsageStats=false", "--server.headless=true",
                 "--client.showErrorDetails=none"):  # fmt: skip
        assert flag in command
    assert server.PAGE.is_file()


def test_grace_ui_without_streamlit_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from graph.cli.main import app

    real = server.importlib.util.find_spec
    monkeypatch.setattr(
        server.importlib.util, "find_spec", lambda name: None if name == "streamlit" else real(name)
    )
    result = CliRunner().invoke(app, ["ui", "--port", "8643"])
    assert result.exit_code == 2
    assert "pip install 'grace-agent[ui]'" in result.output and "Traceback" not in result.output


def test_the_page_opens_on_the_ask_page_and_a_bad_data_dir_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = _fresh_page(monkeypatch)
    assert not page.exception
    assert [t.value for t in page.title] == ["Ask GRACE"]

    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    page = _fresh_page(monkeypatch, GRACE_DATA_DIR=str(blocked))
    assert not page.exception
    assert len(page.error) == 1 and "\n" not in page.error[0].value
    from graph.ui import widgets

    widgets._open.clear()

def _fresh_page(monkeypatch: pytest.MonkeyPatch, **env: str) -> Any:
    """The page in ``AppTest`` with ``env`` set and the server's app not yet open."""
    from streamlit.testing.v1 import AppTest

    from grace.settings import get_settings
    from graph.ui import widgets

    for key, value in env.items():
        monkeypatch.setenv(key, value)
    get_settings.cache_clear()
    widgets._open.clear()
    return AppTest.from_file(str(server.PAGE), default_timeout=120).run()


def test_an_unreachable_model_is_one_line_and_the_thread_runs_on_once_it_is_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bench.unreachable import accepts_once
    from graph.ui import widgets
    from tests.providers.openai_server import fake_openai

    question = "How many passengers can the MV Sound Spirit carry?"
    with accepts_once() as port:
        url = f"http://127.0.0.1:{port}/v1"
        page = _fresh_page(monkeypatch, GRACE_MODELS__CHAT="openai:local",
                           GRACE_MODELS__BASE_URL=url)  # fmt: skip
        page.chat_input[0].set_value(question).run()
    try:
        assert not page.exception
        (error,) = page.error
        assert "the openai model 'local' cannot be reached" in error.value
        assert "is kept" in error.value and "Run on" in error.value and "\n" not in error.value
        assert any("incomplete" in b.label for b in page.sidebar.button)
        (run_on,) = [b for b in page.button if b.label == "Run on"]

        verdict = {"self_evaluation": 0.9, "query_coverage": 0.9, "rationale": "S1"}
        replies = {"text": "It carries 600 passengers [S1].", "AnswerVerdict": verdict,
                   "PlanDraft": {"steps": []}}  # fmt: skip
        with fake_openai(replies, port=port):
            page = run_on.click().run()
        assert not page.exception and not page.error
        assert any("600 passengers" in m.value for m in page.markdown)
        assert any("completed" in b.label for b in page.sidebar.button)
    finally:
        widgets._open.clear()  # the next test opens its own app


def test_text_is_shown_as_written_not_as_markdown() -> None:
    from graph.ui.session import plain, quote

    assert plain("# 1.4 km [S1] *x* :red[y]") == "\\# 1\\.4 km \\[S1\\] \\*x\\* \\:red\\[y\\]"
    assert plain("a\nb") == "a  \nb"
    assert quote("one\ntwo (2)") == "> one\n> two \\(2\\)"
