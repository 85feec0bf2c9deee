"""CSV / sheet rows → sections (grace/documents/tabular.py), with hand-derived values.

Each data row is one section: ``column: value`` pairs joined by ``; ``, located by the row
number a spreadsheet shows for it (row 1 is the header), so a citation points at that row.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grace.documents import ConvertError
from grace.documents.tabular import ROWS_PER_CHUNK, convert_csv, rows_to_sections


def test_each_row_is_one_section_of_header_value_pairs() -> None:
    rows = [[" name ", "city"], ["Ada", " London "], ["Bob", "Paris"]]
    sections = rows_to_sections(rows)
    assert ROWS_PER_CHUNK == 1
    assert [s.text for s in sections] == ["name: Ada; city: London", "name: Bob; city: Paris"]
    assert [s.location for s in sections] == ["row 2", "row 3"]
    assert [s.metadata for s in sections] == [{"row": 2}, {"row": 3}]


def test_a_sheet_name_prefixes_the_location_and_is_kept() -> None:
    [section] = rows_to_sections([["item", "qty"], ["bolt", "7"]], sheet="Stock")
    assert section.location == "Stock row 2"
    assert section.metadata == {"row": 2, "sheet": "Stock"}


def test_a_short_row_pairs_only_the_cells_it_has() -> None:
    [section] = rows_to_sections([["a", "b", "c"], ["1", "2"]])
    assert section.text == "a: 1; b: 2"


def test_rows_keep_the_number_a_spreadsheet_shows_across_blank_rows() -> None:
    # file rows: 1 blank, 2 header, 3 Ada, 4 blank, 5 Bob
    rows = [["", ""], ["name", "city"], ["Ada", "London"], [], ["Bob", "Paris"]]
    sections = rows_to_sections(rows)
    assert [s.text for s in sections] == ["name: Ada; city: London", "name: Bob; city: Paris"]
    assert [s.location for s in sections] == ["row 3", "row 5"]
    assert [s.metadata["row"] for s in sections] == [3, 5]


@pytest.mark.parametrize(
    "rows", [[], [["name", "city"]], [["name", "city"], ["", " "]], [[""], [" "]]]
)
def test_a_table_without_data_rows_is_refused(rows: list[list[str]]) -> None:
    with pytest.raises(ConvertError, match="empty table"):
        rows_to_sections(rows)


def test_convert_csv_sniffs_semicolons_and_drops_a_bom(tmp_path: Path) -> None:
    path = tmp_path / "prices.csv"
    path.write_bytes("\ufeffitem;price\nbolt;0,10\n\nnut;0,05\n".encode())
    sections = convert_csv(path)
    assert [s.text for s in sections] == ["item: bolt; price: 0,10", "item: nut; price: 0,05"]
    assert [s.location for s in sections] == ["row 2", "row 4"]  # line 3 is blank


def test_convert_csv_reads_a_quoted_comma_as_one_cell(tmp_path: Path) -> None:
    path = tmp_path / "people.csv"
    path.write_text('name,city\n"Lovelace, Ada",London\n', encoding="utf-8")
    [section] = convert_csv(path)
    assert section.text == "name: Lovelace, Ada; city: London"


def test_convert_csv_names_the_byte_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.csv"
    path.write_bytes(b"name,city\nJos\xe9,Madrid\n")
    with pytest.raises(ConvertError, match=r"not valid UTF-8 \(byte 13\); save the CSV as UTF-8"):
        convert_csv(path)


def test_xlsx_rows_keep_their_sheet_row_numbers(tmp_path: Path) -> None:
    import openpyxl

    from grace.documents.xlsx import convert_xlsx

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "Staff"
    for ref, value in {"A2": "name", "B2": "room", "A3": "Ada", "B3": "12", "A5": "Bob"}.items():
        sheet[ref] = value
    workbook.save(tmp_path / "staff.xlsx")
    sections = convert_xlsx(tmp_path / "staff.xlsx")
    assert [s.text for s in sections] == ["name: Ada; room: 12", "name: Bob"]  # cells present
    assert [s.location for s in sections] == ["Staff row 3", "Staff row 5"]
