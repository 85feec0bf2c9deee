"""``grace ingest`` / ``grace ask`` over a generated PDF, DOCX and CSV (offline, in-process)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graph.cli.main import INGEST_PARTIAL_EXIT
from tests.cli_runner import invoke_cli
from tests.documents.conftest import RULES_PAGES_JA, write_cjk_pdf, write_pdf


@pytest.fixture
def grace(offline_services: Any, cli_services: Any) -> Iterator[Any]:
    """Run the CLI in-process with the session's offline services."""
    cli_services(offline_services)
    yield invoke_cli


def test_answer_on_page_two_cites_page_two(grace: Any, docs_dir: Path) -> None:
    grace("ingest", str(docs_dir), "--collection", "docpages", "--json")
    out = json.loads(
        grace(
            "ask", "How much is the guest fee per visit?", "--collection", "docpages", "--json"
        ).stdout
    )
    assert out["status"] == "completed"
    assert "twelve euros" in out["answer"]
    cited = [s for s in out["sources"] if s["source"] == "rules.pdf"]
    assert cited and cited[0]["location"] == "p. 2"
    shown = grace("show", out["thread_id"]).stdout
    assert "rules.pdf p. 2" in " ".join(shown.split())


def test_japanese_answer_on_page_two_cites_page_two(grace: Any, docs_dir: Path) -> None:
    write_cjk_pdf(docs_dir / "kiyaku.pdf", RULES_PAGES_JA)
    grace("ingest", str(docs_dir), "--collection", "docpagesja", "--json")
    out = json.loads(
        grace("ask", "ゲスト料金はいくらですか？", "--collection", "docpagesja", "--json").stdout
    )
    assert out["status"] == "completed"
    assert "千二百円" in out["answer"]
    cited = [s for s in out["sources"] if s["source"] == "kiyaku.pdf"]
    assert cited and cited[0]["location"] == "p. 2"


def test_japanese_answer_from_a_docx_section_cites_its_heading_path(
    grace: Any, docs_dir: Path
) -> None:
    grace("ingest", str(docs_dir), "--collection", "docheadja", "--json")
    out = json.loads(
        grace(
            "ask", "避難訓練は毎年いつ行われますか？", "--collection", "docheadja", "--json"
        ).stdout
    )
    assert "十月" in out["answer"]
    cited = [s for s in out["sources"] if s["source"] == "handbook.docx"]
    assert cited and "安全" in cited[0]["location"]


def test_question_about_one_csv_row_cites_that_row(grace: Any, docs_dir: Path) -> None:
    grace("ingest", str(docs_dir), "--collection", "docrows", "--json")
    out = json.loads(
        grace("ask", "Where is the parking garage?", "--collection", "docrows", "--json").stdout
    )
    assert "north building" in out["answer"]
    assert out["sources"][0]["source"] == "faq_2024.csv"
    assert out["sources"][0]["location"] == "row 3"


def test_mixed_folder_with_bad_pdfs_exits_with_partial_failure(grace: Any, docs_dir: Path) -> None:
    (docs_dir / "notes.md").write_text("# Notes\n\nThe boiler is serviced in May.\n", "utf-8")
    (docs_dir / "page.html").write_text("<h1>Page</h1><p>Lift inspection.</p>", "utf-8")
    (docs_dir / "broken.pdf").write_bytes(b"%PDF-1.4\nthis is not really a pdf")
    write_pdf(docs_dir / "scan.pdf", [[]])
    result = grace("ingest", str(docs_dir), "--collection", "docmixed", code=INGEST_PARTIAL_EXIT)
    assert "5 files" in result.stdout
    # The console wraps long lines: read the messages with whitespace collapsed.
    messages = " ".join(result.stderr.split()).split("skipped ")[1:]
    assert len(messages) == 2, result.stderr
    assert any("broken.pdf" in m and "corrupt" in m for m in messages), messages
    assert any("scan.pdf" in m and "OCR is not included" in m for m in messages), messages


def test_markdown_and_html_answers_cite_their_heading_path(grace: Any, tmp_path: Path) -> None:
    from tests.documents.test_documents_ingest import GUIDE_HTML, GUIDE_MD

    folder = tmp_path / "guides"
    folder.mkdir()
    (folder / "staff.md").write_text(GUIDE_MD, "utf-8")
    (folder / "visitor.html").write_text(GUIDE_HTML, "utf-8")
    grace("ingest", str(folder), "--collection", "guides", "--json")
    for question, source, where in [
        ("Where are the fire exits?", "staff.md", "§ Safety > Fire exits"),
        ("Where do visitors park?", "visitor.html", "§ Access > Parking"),
    ]:
        out = json.loads(grace("ask", question, "--collection", "guides", "--json").stdout)
        cited = out["sources"] or (out["draft"] or {}).get("sources", [])
        assert cited and cited[0]["source"] == source and cited[0]["location"] == where
        shown = " ".join(grace("show", out["thread_id"]).stdout.split())
        assert f"{source} {where}" in shown
