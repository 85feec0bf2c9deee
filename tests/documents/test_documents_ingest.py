"""PDF / DOCX / CSV ingestion keeps each chunk's location; bad files are reported per file."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from grace.retrieval import CorpusStore, ingest_paths
from tests.documents.conftest import write_pdf


def test_pdf_page_docx_heading_and_csv_row_are_kept(store: CorpusStore, docs_dir: Path) -> None:
    report = ingest_paths(store, [docs_dir], collection="docs")
    assert report.files == 3 and not report.problems
    hit = store.search("guest fee per visit", collection="docs", k=1).hits[0]
    assert hit.source == "rules.pdf"
    assert "twelve euros" in hit.text
    assert hit.location == "p. 2"
    row = store.search("parking garage", collection="docs", k=1).hits[0]
    assert row.source == "faq_2024.csv" and "north building" in row.text
    assert "question: Where is the parking garage?" in row.text  # header repeated
    assert row.location == "row 3"
    ja = store.search("避難訓練", collection="docs", k=1).hits[0]
    assert ja.source == "handbook.docx"
    assert ja.location == "§ Handbook > 安全"


def test_bad_files_each_get_a_clear_message(store: CorpusStore, docs_dir: Path) -> None:
    (docs_dir / "broken.pdf").write_bytes(b"%PDF-1.4\nthis is not really a pdf")
    write_pdf(docs_dir / "scan.pdf", [[], []])
    (docs_dir / "broken.docx").write_bytes(b"PK\x03\x04 truncated zip")
    (docs_dir / "empty.csv").write_text("", encoding="utf-8")
    report = ingest_paths(store, [docs_dir], collection="docs")
    reasons = {Path(p.path).name: p.reason for p in report.problems}
    assert report.files == 3
    assert set(reasons) == {"broken.pdf", "scan.pdf", "broken.docx", "empty.csv"}
    assert "no text layer" in reasons["scan.pdf"] and "OCR is not included" in reasons["scan.pdf"]
    assert "corrupt" in reasons["broken.pdf"] and "corrupt" in reasons["broken.docx"]
    assert "empty" in reasons["empty.csv"]
    assert {h.source for h in store.search("pdf", collection="docs", k=20).hits} <= {
        "rules.pdf",
        "handbook.docx",
        "faq_2024.csv",
    }


def test_changed_pdf_replaces_its_pages(store: CorpusStore, docs_dir: Path) -> None:
    ingest_paths(store, [docs_dir], collection="docs")
    write_pdf(docs_dir / "rules.pdf", [["The sauna is closed on Mondays."]])
    report = ingest_paths(store, [docs_dir / "rules.pdf"], collection="docs")
    assert report.deleted >= 2 and report.written == 1
    hits = store.search("guest fee twelve euros", collection="docs", k=10).hits
    assert all("twelve euros" not in h.text for h in hits)


def test_same_named_files_in_two_folders_both_stay(store: CorpusStore, tmp_path: Path) -> None:
    for name, fact in (("a", "Alpha uses copper wire."), ("b", "Beta uses glass fibre.")):
        (tmp_path / "dup" / name).mkdir(parents=True)
        (tmp_path / "dup" / name / "README.md").write_text(f"# {name}\n\n{fact}\n", "utf-8")
    report = ingest_paths(store, [tmp_path / "dup"], collection="docs")
    assert report.files == 2 and store.count("docs") == 2
    sources = {h.source for h in store.search("uses", collection="docs", k=5).hits}
    assert sources == {"a/README.md", "b/README.md"}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_device_and_oversized_files_are_skipped(store: CorpusStore, tmp_path: Path) -> None:
    d = tmp_path / "odd"
    d.mkdir()
    os.mkfifo(d / "pipe.md")
    (d / "big.txt").write_text("word " * 2000, encoding="utf-8")
    (d / "ok.md").write_text("# Ok\n\nSmall file.\n", encoding="utf-8")
    report = ingest_paths(store, [d, Path("/dev/zero")], collection="docs", max_file_bytes=1000)
    reasons = {Path(p.path).name: p.reason for p in report.problems}
    assert report.files == 1
    assert "FIFO" in reasons["pipe.md"]
    assert "device" in reasons["zero"]
    assert "per-file cap" in reasons["big.txt"]


def test_folder_of_unsupported_files_names_them(store: CorpusStore, tmp_path: Path) -> None:
    d = tmp_path / "pics"
    d.mkdir()
    (d / "photo.jpg").write_bytes(b"\xff\xd8\xff")
    (d / "movie.mp4").write_bytes(b"\x00\x00")
    report = ingest_paths(store, [d], collection="docs")
    assert report.files == 0
    assert report.problems == []  # a notice, not a failure (exit status 0)
    (notice,) = report.notices
    assert "2 unsupported" in notice.reason
    assert "photo.jpg" in notice.reason and "movie.mp4" in notice.reason


def test_xlsx_sheet_row_and_pptx_slide_are_kept(store: CorpusStore, tmp_path: Path) -> None:
    import openpyxl
    from pptx import Presentation

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "Prices"
    for row in (["item", "price"], ["apple", "3 euros"], ["melon", "7 euros"], ["梨", "5 euros"]):
        sheet.append(row)
    workbook.create_sheet("Blank")
    workbook.save(tmp_path / "prices.xlsx")
    deck = Presentation()
    for title, body in (("Welcome", "Agenda for the day."), ("Budget", "The budget is 40k.")):
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text = body
    deck.save(str(tmp_path / "kickoff.pptx"))
    report = ingest_paths(store, [tmp_path], collection="docs")
    assert report.files == 2 and not report.problems
    melon = store.search("melon price", collection="docs", k=1).hits[0]
    assert melon.source == "prices.xlsx" and melon.location == "Prices row 3"
    assert "item: melon; price: 7 euros" in melon.text
    budget = store.search("budget", collection="docs", k=1).hits[0]
    assert budget.source == "kickoff.pptx" and budget.location == "slide 2"


def test_corrupt_office_files_are_reported(store: CorpusStore, tmp_path: Path) -> None:
    for name in ("book.xlsx", "deck.pptx"):
        (tmp_path / name).write_bytes(b"PK\x03\x04 truncated zip")
    report = ingest_paths(store, [tmp_path], collection="docs")
    reasons = {Path(p.path).name: p.reason for p in report.problems}
    assert report.files == 0
    assert "corrupt" in reasons["book.xlsx"] and "corrupt" in reasons["deck.pptx"]


def test_encrypted_pdf_is_reported(store: CorpusStore, tmp_path: Path) -> None:
    from pypdf import PdfWriter

    plain = write_pdf(tmp_path / "plain.pdf", [["A secret page about the vault code."]])
    writer = PdfWriter(clone_from=plain)
    writer.encrypt(user_password="secret", algorithm="RC4-128")
    with open(tmp_path / "locked.pdf", "wb") as handle:
        writer.write(handle)
    plain.unlink()
    report = ingest_paths(store, [tmp_path], collection="docs")
    (problem,) = report.problems
    assert Path(problem.path).name == "locked.pdf" and "encrypted" in problem.reason
    assert report.files == 0


def test_source_citation_names_file_and_place() -> None:
    from grace.schemas import Source

    assert Source(source_id="S1", source="rules.pdf", location="p. 3").citation == "rules.pdf p. 3"
    assert Source(source_id="S2", source="notes.md").citation == "notes.md"


def test_a_bom_then_an_invalid_byte_skips_that_file_only(
    store: CorpusStore, tmp_path: Path
) -> None:
    d = tmp_path / "bom"
    d.mkdir()
    (d / "a-bad.txt").write_bytes(b"\xef\xbb\xbfHello \xff world\n")
    (d / "b-good.txt").write_text("The ferry leaves at nine.\n", encoding="utf-8")
    (d / "c-bom.txt").write_bytes("\ufeffThe tram leaves at ten.\n".encode())
    report = ingest_paths(store, [d], collection="bom")
    reasons = {Path(p.path).name: p.reason for p in report.problems}
    assert "not valid UTF-8" in reasons["a-bad.txt"]
    assert report.files == 2  # the files after it are read, the BOM is not part of the text
    hits = store.search("tram leaves ten", collection="bom", k=1).hits
    assert hits[0].text.startswith("The tram")


def test_a_converter_crash_skips_that_file_only(
    store: CorpusStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from grace.retrieval import ingest

    d = tmp_path / "crash"
    d.mkdir()
    (d / "a.md").write_text("Alpha.\n", encoding="utf-8")
    (d / "b.md").write_text("Beta.\n", encoding="utf-8")
    real = ingest.load_document

    def flaky(path: Path, source: str | None = None, **limits: object) -> object:
        if path.name == "a.md":
            raise RecursionError("maximum recursion depth exceeded")
        return real(path, source=source, **limits)  # type: ignore[arg-type]

    monkeypatch.setattr(ingest, "load_document", flaky)
    report = ingest_paths(store, [d], collection="crash")
    assert report.files == 1
    assert "RecursionError" in report.problems[0].reason


def test_a_markdown_file_of_headings_only_has_no_chunk_over_chunk_size() -> None:
    from grace.retrieval.ingest import split_paragraphs

    text = "\n\n".join(f"## Heading number {i} about Yak{i}" for i in range(5000))
    chunks = [c for c, _ in split_paragraphs(text, chunk_size=800)]
    assert len(chunks) > 100 and max(map(len, chunks)) <= 800
    assert "Yak4999" in chunks[-1]


def test_a_block_of_lines_is_split_into_lines_but_prose_is_not() -> None:
    from grace.text import LONG_RUN_CHARS, split_sentences

    block = "\n".join(f"## Heading number {i} about Yak{i}" for i in range(40))
    assert len(block) > LONG_RUN_CHARS
    assert split_sentences(block)[7] == "## Heading number 7 about Yak7"
    titled = "# Lumen Bay\nThe horse tram line opened in 1881."
    assert split_sentences(titled) == [titled]  # a short run keeps its heading


def test_a_pdf_s_hard_wrapped_lines_are_joined() -> None:
    from grace.documents.pdf import unwrap

    text = "The guest fee per visit is\n50 euros.\nMembers pay\nnothing.\n\nA new paragraph"
    assert unwrap(text) == (
        "The guest fee per visit is 50 euros.\nMembers pay nothing.\n\nA new paragraph"
    )
    assert unwrap("料金は\n五十円です。\n次の\n行") == "料金は五十円です。\n次の行"


GUIDE_MD = """# Staff guide

Welcome to the depot.

## Safety

### Fire exits

The fire exits are at the north stairwell and behind the paint store.

## Pay

Wages are paid on the last Friday of each month.
"""

GUIDE_HTML = """<!doctype html><html><head><title>Visitor guide</title></head><body>
<h1>Visitor guide</h1><p>Opening hours vary.</p>
<h2>Access</h2><h3>Parking</h3><p>Visitors park in the gravel lot beside the ferry ramp.</p>
<h2>Food</h2><p>The canteen serves soup until two o'clock.</p>
</body></html>"""


def test_markdown_and_html_chunks_carry_their_heading_path(
    store: CorpusStore, tmp_path: Path
) -> None:
    folder = tmp_path / "guides"
    folder.mkdir()
    (folder / "staff.md").write_text(GUIDE_MD, "utf-8")
    (folder / "visitor.html").write_text(GUIDE_HTML, "utf-8")
    report = ingest_paths(store, [folder], collection="guides")
    assert report.files == 2 and not report.problems

    def hit(query: str) -> Any:
        return store.search(query, collection="guides", k=1).hits[0]

    exits = hit("Where are the fire exits?")
    assert exits.source == "staff.md" and "north stairwell" in exits.text
    assert exits.location == "§ Safety > Fire exits"  # as DOCX: § heading > sub-heading
    assert hit("When are wages paid?").location == "§ Pay"  # a new section replaces the path
    assert hit("Welcome to the depot").location == ""  # under the title only: no section
    parking = hit("Where do visitors park?")
    assert parking.source == "visitor.html" and "gravel lot" in parking.text
    assert parking.location == "§ Access > Parking"
    assert hit("When does the canteen serve soup?").location == "§ Food"
