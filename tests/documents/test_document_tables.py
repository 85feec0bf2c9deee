"""A table in any format becomes a Markdown table, and the reader reads each row on its own
(``Boat: Sule; Type: single scull`` under a header row)."""

from __future__ import annotations

from pathlib import Path

import pytest

from grace.documents import convert
from grace.documents.tables import markdown_table
from grace.text import split_sentences

ROWS = [["Boat", "Type"], ["Freya", "coastal four"], ["Sule", "single | scull"], ["", " "]]


def test_markdown_table_rule_under_a_header_and_cells_kept_apart() -> None:
    assert markdown_table(ROWS, header=True) == (
        "| Boat | Type |\n| --- | --- |\n| Freya | coastal four |\n| Sule | single / scull |"
    )
    assert markdown_table(ROWS, header=False).splitlines()[0] == "| Boat | Type |"
    assert split_sentences(markdown_table(ROWS, header=True)) == [
        "Boat: Freya; Type: coastal four",
        "Boat: Sule; Type: single / scull",
    ]
    assert split_sentences(markdown_table(ROWS[1:], header=False)) == [
        "Freya; coastal four",
        "Sule; single / scull",
    ]


@pytest.mark.parametrize("first_row", [True, False])
def test_a_docx_table_has_the_header_word_formats(tmp_path: Path, first_row: bool) -> None:
    import docx

    document = docx.Document()
    document.add_paragraph("The fleet.")
    table = document.add_table(rows=3, cols=2)
    for i, row in enumerate(ROWS[:3]):
        for j, text in enumerate(row):
            table.cell(i, j).text = text
    ns = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    look = table._tbl.tblPr.find(f"{ns}tblLook")
    look.set(f"{ns}firstRow", "1" if first_row else "0")
    path = tmp_path / "fleet.docx"
    document.save(str(path))
    sentences = split_sentences("\n\n".join(s.text for s in convert(path)))
    expected = "Boat: Sule; Type: single / scull" if first_row else "Sule; single / scull"
    assert sentences[0] == "The fleet." and sentences[-1] == expected


def test_a_pptx_table_has_the_header_powerpoint_formats(tmp_path: Path) -> None:
    import pptx
    from pptx.util import Inches

    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    table = slide.shapes.add_table(2, 2, Inches(1), Inches(1), Inches(4), Inches(1)).table
    for i, row in enumerate([["Item", "Price"], ["Guided tour", "150 kroner"]]):
        for j, text in enumerate(row):
            table.cell(i, j).text = text
    path = tmp_path / "prices.pptx"
    deck.save(str(path))
    text = "\n\n".join(s.text for s in convert(path))
    assert "Item: Guided tour; Price: 150 kroner" in split_sentences(text)
