"""Fixtures that write their own documents: a tiny PDF writer, DOCX via python-docx, CSV."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from grace.retrieval import CorpusStore, StoreOptions, open_store


def _escape(line: str) -> str:
    return line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def write_pdf(path: Path, pages: list[list[str]]) -> Path:
    """A minimal valid PDF: one Helvetica text line per entry; an empty page has no text."""
    count = len(pages)
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(count))
    font = 3 + 2 * count
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode(),
    ]
    for i, lines in enumerate(pages):
        ops = "".join(f"({_escape(t)}) Tj 0 -16 Td " for t in lines)
        stream = f"BT /F1 12 Tf 72 720 Td {ops}ET".encode() if lines else b""
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {4 + 2 * i} 0 R "
            f"/Resources << /Font << /F1 {font} 0 R >> >> >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    path.write_bytes(_pdf_file(objects))
    return path


_TO_UNICODE = (
    b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
    b"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
    b"/CMapName /Adobe-Identity-UCS def /CMapType 2 def\n"
    b"1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
    b"1 beginbfrange <0000> <FFFF> <0000> endbfrange\n"
    b"endcmap CMapName currentdict /CMap defineresource pop end end"
)
"""Maps each 2-byte code to the same Unicode code point (CID = code point, BMP only)."""


def write_cjk_pdf(path: Path, pages: list[list[str]]) -> Path:
    """A PDF with Japanese text: an Identity-H CID font whose ToUnicode map is the identity.

    No glyphs are embedded (nothing here renders it); text extraction reads the ToUnicode map,
    as it does for PDFs that Japanese word processors write.
    """
    count = len(pages)
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(count))
    font = 3 + 2 * count
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode(),
    ]
    for i, lines in enumerate(pages):
        ops = "".join(f"<{t.encode('utf-16-be').hex().upper()}> Tj 0 -16 Td " for t in lines)
        stream = f"BT /F1 12 Tf 72 720 Td {ops}ET".encode()
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {4 + 2 * i} 0 R "
            f"/Resources << /Font << /F1 {font} 0 R >> >> >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    objects.append(
        f"<< /Type /Font /Subtype /Type0 /BaseFont /GraceCJK /Encoding /Identity-H "
        f"/DescendantFonts [{font + 1} 0 R] /ToUnicode {font + 2} 0 R >>".encode()
    )
    objects.append(
        b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /GraceCJK /CIDSystemInfo "
        b"<< /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor "
        b"<< /Type /FontDescriptor /FontName /GraceCJK /Flags 4 /FontBBox [0 0 1000 1000] "
        b"/ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >> /DW 1000 >>"
    )
    objects.append(b"<< /Length %d >>\nstream\n" % len(_TO_UNICODE) + _TO_UNICODE + b"\nendstream")
    path.write_bytes(_pdf_file(objects))
    return path


def _pdf_file(objects: list[bytes]) -> bytes:
    """Numbered objects, the cross-reference table and the trailer (object 1: catalog)."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def write_docx(path: Path, blocks: list[tuple[int, str]]) -> Path:
    """DOCX from ``(heading level, text)`` pairs; level 0 is a body paragraph."""
    import docx

    document = docx.Document()
    for level, text in blocks:
        if level:
            document.add_heading(text, level=level)
        else:
            document.add_paragraph(text)
    document.save(str(path))
    return path


RULES_PAGES = [
    [
        "Club Rules",
        "Members must show their card at the front desk.",
        "The pool opens at seven in the morning.",
    ],
    [
        "Guests",
        "Each member may bring two guests per month.",
        "The guest fee is twelve euros per visit.",
    ],
]

RULES_PAGES_JA = [
    ["会員規約", "会員は受付で会員証を提示してください。"],
    ["ゲスト", "ゲスト料金は一回につき千二百円です。"],
]

FAQ_CSV = (
    "question,answer\n"
    "How do I reset my password?,Use the Forgot password link on the sign-in page.\n"
    "Where is the parking garage?,The parking garage is behind the north building.\n"
    "Can I pay by invoice?,Invoices are available for company accounts only.\n"
    "営業時間は？,営業時間は平日の午前九時から午後六時までです。\n"
)


@pytest.fixture
def docs_dir(tmp_path: Path) -> Path:
    """A folder with a two-page PDF, a DOCX with headings (EN and JA) and a CSV."""
    d = tmp_path / "docs"
    d.mkdir()
    write_pdf(d / "rules.pdf", RULES_PAGES)
    write_docx(
        d / "handbook.docx",
        [
            (1, "Handbook"),
            (2, "Safety"),
            (0, "Fire extinguishers are checked every March by the caretaker."),
            (2, "安全"),
            (0, "避難訓練は毎年十月に行われます。"),
        ],
    )
    (d / "faq_2024.csv").write_text(FAQ_CSV, encoding="utf-8")
    return d


@pytest.fixture
def store(tmp_path: Path) -> Iterator[CorpusStore]:
    with open_store("edge", StoreOptions(path=tmp_path / "qdrant")) as s:
        yield s
