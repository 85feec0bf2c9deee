"""Small or plain files that once exhausted the machine: time and peak memory of ``grace ingest``.

Each bomb of the third fault probe (issue 39, items 9–11) is written to a folder of its own
and ingested by ``grace ingest --json`` in a process of its own, under an address-space limit
(``RLIMIT_AS``, so a regression fails instead of taking the machine down), measuring its wall
time and its peak RSS (``ru_maxrss`` of that child alone). Goal per bomb: peak RSS <= 1 GiB
and <= 60 s, the file skipped (or read) with its limit named, exit status 1 or 0.

- ``csv-10m-rows``: 20 MB CSV of 10 M one-cell rows (was 300 s, 2.9 GB: no row cap);
- ``csv-96mb``: 96 MB CSV of one-cell rows (was 4.15 GB);
- ``docx-other-prefix``: 300 k paragraphs under a prefix other than ``w:`` in a ~150 KB DOCX
  (was > 300 s: the element cap counted the literal ``<w:p``);
- ``md-95mb-words``: a 95 MB Markdown file of one-word paragraphs (was 185 s, 4.7 GB before
  the chunk cap, applied after chunking, skipped it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["BOMBS", "bombs"]

GIB = 1 << 30
GOAL_RSS_MIB = 1024
GOAL_S = 60.0
ADDRESS_SPACE = 4 * GIB
"""The child's address-space limit (virtual: the store maps files; RSS is the goal)."""
WORD = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def _repeat(path: Path, head: bytes, unit: bytes, count: int, tail: bytes = b"") -> None:
    """Write ``head + unit * count + tail`` in blocks, never holding it whole."""
    block = unit * max(1, (1 << 20) // len(unit))
    per_block = len(block) // len(unit)
    with path.open("wb") as out:
        out.write(head)
        written = 0
        while written < count:
            n = min(count - written, per_block)
            out.write(block[: n * len(unit)])
            written += n
        out.write(tail)


def _csv(rows: int) -> Callable[[Path], None]:
    def write(folder: Path) -> None:
        _repeat(folder / "rows.csv", b"name\n", b"x\n", rows)

    return write


def _docx_other_prefix(folder: Path) -> None:
    """A valid DOCX (python-docx's own parts) whose body is 300 k ``<q:p>`` paragraphs."""
    import io

    import docx

    blank = io.BytesIO()
    docx.Document().save(blank)
    part = folder / "document.xml"
    head = f'<q:document xmlns:q="{WORD}"><q:body>'.encode()
    _repeat(part, head, b"<q:p><q:r><q:t>a</q:t></q:r></q:p>", 300_000, b"</q:body></q:document>")
    with zipfile.ZipFile(blank) as source, zipfile.ZipFile(
        folder / "paras.docx", "w", zipfile.ZIP_DEFLATED, compresslevel=9
    ) as target:
        for member in source.namelist():
            if member != "word/document.xml":
                target.writestr(member, source.read(member))
        target.write(part, "word/document.xml")
    part.unlink()


def _markdown_words(folder: Path) -> None:
    _repeat(folder / "words.md", b"", b"word\n\n", 95_000_000 // 6)


BOMBS: dict[str, Callable[[Path], None]] = {
    "csv-10m-rows": _csv(10_000_000),
    "csv-96mb": _csv(48_000_000),
    "docx-other-prefix": _docx_other_prefix,
    "md-95mb-words": _markdown_words,
}
"""Name → writes the bomb into an empty folder."""

_MEASURED = """
import json, resource, subprocess, sys, time
limit = int(sys.argv[1])
def cap():
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
start = time.perf_counter()
proc = subprocess.run(sys.argv[2:], capture_output=True, text=True, preexec_fn=cap)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"rc": proc.returncode, "out": proc.stdout, "err": proc.stderr[-2000:],
                  "kib": peak, "seconds": seconds}))
"""
"""Runs one command under the limit in a process of its own: the peak RSS is that command's."""


def _one(name: str, write: Callable[[Path], None]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="grace-bomb-") as tmp:
        folder = Path(tmp) / "bomb"
        folder.mkdir()
        write(folder)
        size = sum(f.stat().st_size for f in folder.iterdir())
        env = {k: v for k, v in os.environ.items() if not k.startswith("GRACE_")}
        env |= {"GRACE_DATA_DIR": str(Path(tmp) / "data"),
                "GRACE_RETRIEVAL__AUTO_INGEST_SAMPLE": "false"}
        command = [sys.executable, "-m", "graph.cli.main", "ingest", str(folder), "--json",
                   "--collection", "bombs"]
        proc = subprocess.run(
            [sys.executable, "-c", _MEASURED, str(ADDRESS_SPACE), *command],
            env=env, capture_output=True, text=True, check=False, timeout=900,
        )
    measured = json.loads(proc.stdout)
    try:
        report = json.loads(measured["out"])
        reasons = [p["reason"] for p in report["problems"]] or ["read"]
    except (ValueError, KeyError):
        reasons = [measured["err"].strip().splitlines()[-1] if measured["err"].strip() else "?"]
    rss_mib = measured["kib"] / 1024
    return {
        "bomb": name,
        "file_mb": round(size / 1e6, 1),
        "seconds": round(measured["seconds"], 2),
        "peak_rss_mib": round(rss_mib),
        "exit_status": measured["rc"],
        "outcome": reasons[0][:160],
        "met": rss_mib <= GOAL_RSS_MIB and measured["seconds"] <= GOAL_S
        and measured["rc"] in (0, 1, 4),
    }


def bombs() -> dict[str, Any]:
    """Each bomb ingested in its own limited process: seconds, peak RSS, what happened."""
    started = time.perf_counter()
    rows = [_one(name, write) for name, write in BOMBS.items()]
    return {
        "bombs": rows,
        "goal": f"each <= {GOAL_RSS_MIB} MiB peak RSS and <= {GOAL_S:.0f} s",
        "address_space_limit_gib": ADDRESS_SPACE / GIB,
        "total_s": round(time.perf_counter() - started, 1),
        "met": all(row["met"] for row in rows),
    }


if __name__ == "__main__":
    print(json.dumps(bombs(), indent=2))
