from __future__ import annotations

from pathlib import Path

from grace.retrieval import CorpusStore, ingest_paths
from grace.retrieval.ingest import _html_to_text, load_document, split_paragraphs
from grace.text import split_sentences


def test_ingest_metadata_and_chunks(store: CorpusStore, corpus_dir: Path) -> None:
    report = ingest_paths(store, [corpus_dir], collection="docs")
    assert report.files == 3 and not report.problems
    assert report.chunks == store.count("docs") == 7
    hit = store.search("steam engine indicator", collection="docs", k=1).hits[0]
    assert hit.source == "steam-engine.md"
    assert hit.title == "Steam engine"
    assert hit.chunk_index == 1
    assert "indicator" in hit.text and not hit.text.startswith("#")


def test_same_file_twice_is_idempotent(store: CorpusStore, corpus_dir: Path) -> None:
    first = ingest_paths(store, [corpus_dir], collection="docs")
    count = store.count("docs")
    again = ingest_paths(store, [corpus_dir, corpus_dir / "warsaw.md"], collection="docs")
    assert store.count("docs") == count == first.chunks
    assert again.written == 0 and again.deleted == 0 and again.files == 3


def test_changed_file_replaces_its_chunks(store: CorpusStore, corpus_dir: Path) -> None:
    ingest_paths(store, [corpus_dir], collection="docs")
    (corpus_dir / "warsaw.md").write_text(
        "# Warsaw\n\nWarsaw hosts the Chopin piano competition.\n", encoding="utf-8"
    )
    report = ingest_paths(store, [corpus_dir / "warsaw.md"], collection="docs")
    assert report.written == 1 and report.deleted == 2
    assert store.count("docs") == 6
    hits = store.search("Palace of Culture tallest building", collection="docs").hits
    assert all(h.source != "warsaw.md" for h in hits)
    assert store.search("Chopin competition", collection="docs").hits[0].source == "warsaw.md"


def test_bad_files_reported_and_rest_ingested(store: CorpusStore, tmp_path: Path) -> None:
    d = tmp_path / "mixed"
    d.mkdir()
    (d / "good.md").write_text("# Good\n\nThe reactor uses heavy water.\n", encoding="utf-8")
    (d / "empty.txt").write_text("  \n\n", encoding="utf-8")
    (d / "binary.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (d / "latin1.txt").write_bytes("Caf\xe9 cr\xe8me".encode("latin-1"))
    (d / "page.html").write_text(
        "<html><head><title>Page</title><style>p{}</style></head>"
        "<body><h1>Page</h1><p>Hydroelectric dams &amp; turbines.</p></body></html>",
        encoding="utf-8",
    )
    report = ingest_paths(store, [d, tmp_path / "missing.md"], collection="docs")
    reasons = {Path(p.path).name: p.reason for p in report.problems}
    assert set(reasons) == {"empty.txt", "binary.txt", "latin1.txt", "missing.md"}
    assert "empty" in reasons["empty.txt"]
    assert "binary" in reasons["binary.txt"]
    assert "UTF-8" in reasons["latin1.txt"]
    assert "no such file" in reasons["missing.md"]
    assert report.files == 2
    hit = store.search("hydroelectric turbines", collection="docs").hits[0]
    assert hit.source == "page.html" and hit.title == "Page"
    assert hit.text == "Hydroelectric dams & turbines."


def test_split_paragraphs_headings_and_long_paragraphs() -> None:
    text = "## Section\n\nFirst paragraph.\n\n" + "word " * 400
    chunks = [c for c, _ in split_paragraphs(text, chunk_size=300, chunk_overlap=50)]
    assert chunks[0] == "## Section\nFirst paragraph."
    assert len(chunks) > 3 and all(len(c) <= 300 for c in chunks)


def test_utf8_bom_and_title(tmp_path: Path) -> None:
    p = tmp_path / "doc.md"
    p.write_bytes("\ufeff# Título\n\nTexto.\n".encode())
    doc = load_document(p)
    assert doc.title == "Título" and doc.text.strip() == "Texto."


def test_a_plain_texts_heading_line_is_its_title(tmp_path: Path) -> None:
    """A short first line without a sentence end, then a blank line, is a text's title: the
    reader names the document by it, and it is never a passage of its own."""
    p = tmp_path / "bridge.txt"
    p.write_text("Kvalsund Bridge\n\nThe bridge is a suspension bridge.\n", encoding="utf-8")
    doc = load_document(p)
    assert doc.title == "Kvalsund Bridge"
    assert doc.text.strip() == "The bridge is a suspension bridge."
    for first in ("The bridge opened in 1977.", "Notes:", "x" * 121):
        p.write_text(f"{first}\n\nMore text.\n", encoding="utf-8")
        doc = load_document(p)
        assert doc.title == "bridge" and doc.text.startswith(first)
    p.write_text("Kvalsund Bridge\nThe bridge is long.\n", encoding="utf-8")  # no blank line
    assert load_document(p).title == "bridge"


def test_html_lists_and_tables_keep_their_structure(tmp_path: Path) -> None:
    """A ``<li>`` is a list item and a ``<table>`` a Markdown table, so the reader reads an
    item, or a row with its column names, on its own (cells were run together before)."""
    p = tmp_path / "library.html"
    p.write_text(
        "<html><head><title>Ostrey Library</title></head><body><h2>Hours</h2>"
        "<ul><li>Saturday: 10:00 to 14:00</li><li>Sunday: closed</li></ul><p>Tail.</p>"
        "<table><tr><th>Service</th><th>Fee</th></tr><tr><td>Late return</td>"
        "<td>5 kroner per day</td></tr></table>"
        "<table><tr><td>a</td><td>b|c</td></tr></table></body></html>",
        encoding="utf-8",
    )
    text = load_document(p).text
    assert text.split("\n\n") == [
        "## Hours",
        "- Saturday: 10:00 to 14:00",
        "- Sunday: closed",
        "Tail.",
        "| Service | Fee |\n| --- | --- |\n| Late return | 5 kroner per day |",
        "| a | b/c |",
    ]
    assert split_sentences(text)[-2:] == ["Service: Late return; Fee: 5 kroner per day", "a; b/c"]


def test_an_html_tables_caption_comes_first_and_a_line_break_parts_words() -> None:
    html = (
        "<html><title>T</title><body><table><caption>Fees 2026</caption><thead><tr>"
        "<th>Service</th><th>Fee</th></tr></thead><tbody><tr><td><p>Card</p></td>"
        "<td>free<br>always</td></tr></tbody></table><p>After.</p></body></html>"
    )
    assert _html_to_text(html)[1].split("\n\n") == [
        "Fees 2026",
        "| Service | Fee |\n| --- | --- |\n| Card | free always |",
        "After.",
    ]


def test_an_html_table_with_unclosed_cells_or_no_end_is_still_read() -> None:
    """HTML may leave ``<td>`` / ``<tr>`` and even ``</table>`` unclosed: the rows are kept."""
    table = "<table><tr><th>Service<th>Fee<tr><td>Late return<td>5 kroner"
    closed = _html_to_text(f"<html><title>T</title><body>{table}</table><p>Tail.</p></body>")
    assert closed[1].split("\n\n") == [
        "| Service | Fee |\n| --- | --- |\n| Late return | 5 kroner |",
        "Tail.",
    ]
    unended = _html_to_text(f"<html><title>T</title><body><p>Intro.</p>{table}")
    assert unended[1].endswith("| Late return | 5 kroner |")
