"""The per-file limits hold while a file is read, not after (issue 39, items 9–11).

CSV had no row or cell cap; the DOCX element count matched the literal ``<w:p`` prefix (the
same paragraphs under another prefix bound to WordprocessingML passed); the chunk cap was
applied after the whole file had been chunked. Time and memory of the bombs themselves are
measured by ``python -m bench`` (``bench/bombs.py``), not here.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import pytest

from grace.documents import ConvertError, DocumentLimits
from grace.documents.limits import check_archive
from grace.documents.tabular import convert_csv
from grace.retrieval import CorpusStore, ingest_paths
from grace.retrieval import ingest as ingest_module

WORD = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
LIMITS = DocumentLimits(max_elements=1_000, max_cells=5_000, max_chunks=200)


def _docx(path: Path, document: bytes) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("word/document.xml", document)
    return path


@pytest.mark.parametrize("prefix", ["w", "q", "x-1"])
def test_docx_paragraphs_are_counted_by_namespace_not_prefix(tmp_path: Path, prefix: str) -> None:
    body = f"<{prefix}:p/>".encode() * 2_000
    document = (
        f'<{prefix}:document xmlns:{prefix}="{WORD}"><{prefix}:body>'.encode()
        + body
        + f"</{prefix}:body></{prefix}:document>".encode()
    )
    with pytest.raises(ConvertError, match="retrieval.max_elements_per_file"):
        check_archive(_docx(tmp_path / "paras.docx", document), LIMITS)


def test_a_default_namespace_and_other_elements_are_counted_right(tmp_path: Path) -> None:
    many = b"<p/>" * 2_000
    default = b'<document xmlns="' + WORD.encode() + b'"><body>' + many + b"</body></document>"
    with pytest.raises(ConvertError, match="max_elements"):
        check_archive(_docx(tmp_path / "default.docx", default), LIMITS)
    # <w:pPr> and elements of another namespace under a "p" name are not paragraphs.
    other = (
        b'<w:document xmlns:w="' + WORD.encode() + b'" xmlns:o="urn:other"><w:body>'
        + b"<w:pPr/>" * 2_000 + b"<o:p/>" * 2_000 + b"<w:p/>" * 10 + b"</w:body></w:document>"
    )
    check_archive(_docx(tmp_path / "other.docx", other), LIMITS)  # 10 paragraphs: fine


def _rows(path: Path, rows: int, cells: int = 1) -> Path:
    with path.open("w", encoding="utf-8") as out:
        out.write(",".join(f"c{i}" for i in range(cells)) + "\n")
        line = ",".join(["x"] * cells) + "\n"
        for _ in range(rows):
            out.write(line)
    return path


def test_a_csv_stops_at_the_row_cap_while_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _rows(tmp_path / "rows.csv", 200_000)
    read: list[int] = []
    real = convert_csv.__globals__["_lines"]

    def counted(*args: Any) -> Any:
        for n, line in enumerate(real(*args)):
            read.append(n)
            yield line

    monkeypatch.setitem(convert_csv.__globals__, "_lines", counted)
    with pytest.raises(ConvertError, match="retrieval.max_elements_per_file"):
        convert_csv(path, LIMITS)
    assert len(read) < 5_000  # the cap and the sniffed head, not 200,000 rows


def test_a_csv_stops_at_the_cell_cap(tmp_path: Path) -> None:
    with pytest.raises(ConvertError, match="retrieval.max_cells_per_file"):
        convert_csv(_rows(tmp_path / "wide.csv", 500, cells=20), LIMITS)


def test_a_csv_within_the_caps_is_read_whole(tmp_path: Path) -> None:
    sections = convert_csv(_rows(tmp_path / "ok.csv", 900, cells=2), LIMITS)
    assert len(sections) == 900


def test_the_chunk_cap_stops_the_split_not_the_finished_list(
    tmp_path: Path, store: CorpusStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "words.md").write_text("word\n\n" * 50_000, encoding="utf-8")
    split: list[str] = []
    real = ingest_module._add_piece

    def counted(chunks: list[str], para: str, *args: Any) -> None:
        split.append(para)
        real(chunks, para, *args)

    monkeypatch.setattr(ingest_module, "_add_piece", counted)
    report = ingest_paths(store, [tmp_path / "words.md"], collection="w", limits=LIMITS)
    (problem,) = report.problems
    assert "retrieval.max_chunks_per_file" in problem.reason
    assert len(split) <= LIMITS.max_chunks + 1  # stopped at the cap, not after 50,000


def test_one_huge_paragraph_is_refused_before_it_is_split(
    tmp_path: Path, store: CorpusStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "run.md").write_text("word " * 400_000, encoding="utf-8")  # 2 MB, no blank line
    monkeypatch.setattr(
        ingest_module, "_add_piece", lambda *a: pytest.fail("split although over the cap")
    )
    report = ingest_paths(store, [tmp_path / "run.md"], collection="w", limits=LIMITS)
    assert "retrieval.max_chunks_per_file" in report.problems[0].reason


def test_a_docx_looks_each_paragraph_style_up_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """python-docx finds a paragraph's default style by scanning every style: per paragraph,
    300 k paragraphs under the element cap took 500 s. Each style id is looked up once."""
    import docx
    from docx.text.paragraph import Paragraph

    from grace.documents.docx import convert_docx

    document = docx.Document()
    document.add_heading("Menu", level=1)
    for i in range(300):
        document.add_paragraph(f"Dish {i}")
    document.save(str(tmp_path / "menu.docx"))
    looked_up: list[int] = []
    style = Paragraph.style

    def counted(self: Paragraph) -> Any:
        looked_up.append(1)
        return style.fget(self)  # type: ignore[attr-defined]

    monkeypatch.setattr(Paragraph, "style", property(counted))
    (section,) = convert_docx(tmp_path / "menu.docx")
    assert section.location == "§ Menu" and "Dish 299" in section.text
    assert len(looked_up) <= 3  # the heading's style and the body's, not one per paragraph
