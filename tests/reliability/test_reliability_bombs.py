"""Small files that would exhaust the machine (issue 26.3-7): each is skipped with the limit
and its setting named, the rest of the folder is ingested, and ``grace ingest`` stays under
1 GiB. The ingest runs in its own process under an address-space limit, so a regression
fails the test instead of taking the machine down."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

GIB = 1 << 30


def _zip(path: Path, parts: dict[str, bytes]) -> None:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, data in parts.items():
            z.writestr(name, data)


def _streamed_part(path: Path, name: str, head: bytes, unit: bytes, count: int,
                   tail: bytes) -> None:
    """A zip whose one part is ``head + unit * count + tail``, written without holding it."""
    archive = zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED)
    with archive as z, z.open(name, "w") as out:
        out.write(head)
        block = unit * max(1, (1 << 20) // len(unit))
        written = 0
        while written < count:
            n = min(count - written, len(block) // len(unit))
            out.write(block[: n * len(unit)])
            written += n
        out.write(tail)


def _far_cell_xlsx(path: Path) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"], sheet["A2"], sheet["XFD2"] = "name", "Gizmo", "far"
    buffer = io.BytesIO()
    book.save(buffer)
    with zipfile.ZipFile(buffer) as src:
        parts = {n: src.read(n) for n in src.namelist()}
    sheet_xml = parts["xl/worksheets/sheet1.xml"]
    parts["xl/worksheets/sheet1.xml"] = sheet_xml.replace(
        b'<dimension ref="A1:XFD2"/>', b'<dimension ref="A1:XFD1048576"/>'
    )
    _zip(path, parts)


def _bombs(folder: Path) -> None:
    folder.mkdir()
    _far_cell_xlsx(folder / "far-cell.xlsx")  # 3: declared dimension, one far cell
    _streamed_part(folder / "huge-run.docx", "word/document.xml", b"<w:document><w:t>",
                   b"a", 120_000_000, b"</w:t></w:document>")  # 4: a 120 MB run
    _streamed_part(folder / "empty-paras.docx", "word/document.xml", b"<w:document>",
                   b"<w:p/>", 3_000_000, b"</w:document>")  # 5: 3 M empty paragraphs
    _streamed_part(folder / "strings.xlsx", "xl/sharedStrings.xml", b"<sst>",
                   b"<si><t>x</t></si>", 1_000_000, b"</sst>")  # 6: 1 M shared strings
    (folder / "words.md").write_text("word\n\n" * 1_000_000)  # 7: 1 M one-word paragraphs
    (folder / "fine.md").write_text("# Ferry\n\nThe MV Quillon Grebe carries 300 people.\n")


_MEASURED = """
import json, resource, subprocess, sys
limit = int(sys.argv[1])
def cap():
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
proc = subprocess.run(sys.argv[2:], capture_output=True, text=True, preexec_fn=cap)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"rc": proc.returncode, "out": proc.stdout, "err": proc.stderr, "kib": peak}))
"""
"""Runs one command under an address-space limit in a process of its own, so the peak RSS
reported is that command's alone (not the test process's other children)."""


def test_memory_and_time_bombs_are_skipped_within_bounds(tmp_path: Path) -> None:
    folder = tmp_path / "bombs"
    _bombs(folder)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRACE_")}
    env["GRACE_DATA_DIR"] = str(tmp_path / "data")
    command = [sys.executable, "-m", "graph.cli.main", "ingest", str(folder), "--json",
               "--collection", "bombs"]
    measured = subprocess.run(
        [sys.executable, "-c", _MEASURED, str(4 * GIB), *command],
        env=env, capture_output=True, text=True, timeout=180,
    )
    result = json.loads(measured.stdout)
    assert result["rc"] == 4, result["err"][-2000:]  # some supported files failed, one is in
    report = json.loads(result["out"])
    reasons = {Path(p["path"]).name: p["reason"] for p in report["problems"]}
    assert "far-cell.xlsx" not in reasons  # bounded: its cells present are read
    assert "retrieval.max_uncompressed_mb" in reasons["huge-run.docx"]
    assert "retrieval.max_elements_per_file" in reasons["empty-paras.docx"]
    assert "retrieval.max_elements_per_file" in reasons["strings.xlsx"]
    assert "retrieval.max_chunks_per_file" in reasons["words.md"]
    status = {d["source"]: d["status"] for d in report["documents"]}
    assert status["fine.md"] == "added" and status["far-cell.xlsx"] == "added"
    assert result["kib"] < GIB // 1024, f"peak RSS {result['kib'] / 1024:.0f} MiB"
    assert "Traceback" not in result["err"]
