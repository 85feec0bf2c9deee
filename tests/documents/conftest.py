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
    path.write_bytes(bytes(out))
    return path


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
