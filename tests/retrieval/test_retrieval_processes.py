"""Several real ``grace`` processes on one embedded store, and a SIGKILL during ``grace ingest``.

Qdrant Edge lets one process at a time open a shard; GRACE serialises processes per
collection with a lock file, waits for the holder, and after ``lock_timeout_seconds`` says
who holds it — never a traceback, never a damaged shard.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from grace.retrieval import StoreOptions, open_store

pytestmark = pytest.mark.slow

QUESTION = "When did the horse tram line open in Lumen Bay?"
CLI = [sys.executable, "-m", "graph.cli.main"]


def _env(data: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRACE_") or "TEST" in k}
    env.pop("GOOGLE_API_KEY", None)
    env["GRACE_DATA_DIR"] = str(data)
    return env | extra


def _grace(data: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *args],
        env=_env(data, **extra),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def _spawn(data: Path, *args: str, **extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*CLI, *args],
        env=_env(data, **extra),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for(event: Callable[[], bool], proc: subprocess.Popen[str], what: str) -> None:
    """Poll until ``event()`` holds; fail if ``proc`` ends first or after 120 s."""
    deadline = time.monotonic() + 120
    while not event():
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"the process ended before {what}: {proc.returncode}\n{out}\n{err}")
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"timed out waiting until {what}")
        time.sleep(0.02)


def _holder_pid(lock: Path) -> int | None:
    """The pid a collection lock file names (its holder writes it once it holds the lock)."""
    try:
        first = lock.read_text(encoding="utf-8").split(maxsplit=1)
    except OSError:
        return None
    return int(first[0]) if first and first[0].isdigit() else None


def _has_open(proc: subprocess.Popen[str], path: Path) -> bool:
    """Whether ``proc`` has ``path`` open (Linux ``/proc/<pid>/fd``)."""
    try:
        return any(os.readlink(fd) == str(path) for fd in Path(f"/proc/{proc.pid}/fd").iterdir())
    except OSError:  # a descriptor closed while listing: look again
        return False


def _recorded(data: Path, collection: str) -> int:
    """Documents of ``collection`` in the library record (0 before it exists)."""
    db = data / "library.sqlite"
    if not db.exists():
        return 0
    with contextlib.closing(sqlite3.connect(db, timeout=30)) as conn:
        try:
            row = conn.execute(
                "SELECT COUNT(*) FROM documents WHERE collection = ?", (collection,)
            ).fetchone()
        except sqlite3.OperationalError:  # the table is not created yet
            return 0
    return int(row[0])


def _answer(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    out: dict[str, Any] = json.loads(proc.stdout)
    assert out["status"] == "completed" and "1874" in out["answer"]
    return out


def _big_corpus(root: Path, files: int, paragraphs: int) -> Path:
    root.mkdir()
    for f in range(files):
        body = "\n\n".join(
            f"Record {f}-{p}: the harbour ledger lists cargo item kx{f}q{p} with its weight, "
            f"its owner and the pier where ship number {p} unloaded it in spring."
            for p in range(paragraphs)
        )
        (root / f"ledger-{f:04d}.md").write_text(f"# Ledger {f}\n\n{body}\n", encoding="utf-8")
    return root


def test_two_asks_at_once_both_answer(tmp_path: Path) -> None:
    data = tmp_path / "data"
    _answer(_grace(data, "ask", QUESTION, "--json"))  # creates the store (sample corpus)
    first, second = _spawn(data, "ask", QUESTION, "--json"), _spawn(data, "ask", QUESTION, "--json")
    for proc in (first, second):
        out, err = proc.communicate(timeout=180)
        _answer(subprocess.CompletedProcess(proc.args, proc.returncode, out, err))


def test_ask_while_ingest_runs_waits_and_answers(tmp_path: Path) -> None:
    data = tmp_path / "data"
    docs = _big_corpus(tmp_path / "docs", files=60, paragraphs=40)
    _answer(_grace(data, "ask", QUESTION, "--json"))
    lock = data / "qdrant" / "edge" / "grace.lock"
    ingest = _spawn(data, "ingest", str(docs), "--collection", "grace", "--json")
    # The ingest holds the collection once its pid is in the lock file. Stopped there, it
    # keeps the lock for as long as this test needs, whatever the machine's speed.
    _wait_for(lambda: _holder_pid(lock) == ingest.pid, ingest, "the ingest took the lock")
    ingest.send_signal(signal.SIGSTOP)
    try:
        asked = _spawn(data, "ask", QUESTION, "--json", GRACE_RETRIEVAL__LOCK_TIMEOUT_SECONDS="170")
        # The ask has opened the lock file the stopped ingest holds: it waits for the ingest.
        _wait_for(lambda: _has_open(asked, lock), asked, "the ask reached the lock")
        assert ingest.poll() is None and _holder_pid(lock) == ingest.pid  # they overlap
    finally:
        ingest.send_signal(signal.SIGCONT)
    out, err = ingest.communicate(timeout=180)
    assert ingest.returncode == 0, err
    report = json.loads(out)
    ask_out, ask_err = asked.communicate(timeout=180)
    _answer(subprocess.CompletedProcess(asked.args, asked.returncode, ask_out, ask_err))
    with open_store("edge", StoreOptions(path=data / "qdrant")) as store:
        assert len(store.list_sources("grace")) == report["files"] + 8  # + the sample corpus
        assert report["chunks"] == 60 * 40


def test_a_held_collection_is_a_clear_error_naming_the_holder(tmp_path: Path) -> None:
    data = tmp_path / "data"
    _answer(_grace(data, "ask", QUESTION, "--json"))
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from pathlib import Path; from grace.retrieval import StoreOptions, "
            "open_store\n"
            f"s = open_store('edge', StoreOptions(path=Path({str(data / 'qdrant')!r}), "
            "idle_release=None))\n"
            "print(s.count('grace'), flush=True); sys.stdin.read(); s.close()",
        ],
        env=_env(data),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and int(holder.stdout.readline()) > 0
        busy = _grace(
            data,
            "ask",
            QUESTION,
            "--json",
            "--thread-id",
            "waited",
            GRACE_RETRIEVAL__LOCK_TIMEOUT_SECONDS="0.5",
        )
        assert busy.returncode == 3
        assert "Traceback" not in busy.stderr and busy.stdout == ""
        message = " ".join(busy.stderr.split())
        assert f"collection 'grace' is in use by another GRACE process {holder.pid}" in message
        assert "retry when it finishes" in message
        assert "`grace resume waited` runs it on" in message
    finally:
        holder.communicate("", timeout=60)
    _answer(_grace(data, "ask", QUESTION, "--json"))
    _answer(_grace(data, "resume", "waited", "--json"))  # the stopped thread, run on


def test_sigkill_during_ingest_then_rerun_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    docs = _big_corpus(tmp_path / "docs", files=300, paragraphs=50)
    _answer(_grace(data, "ask", QUESTION, "--json"))
    ingest = _spawn(data, "ingest", str(docs), "--collection", "ledgers", "--json")
    # Each document's row goes into the library record before its chunks go into the store
    # (grace/retrieval/library.py): two rows mean the first document's chunks were written.
    _wait_for(lambda: _recorded(data, "ledgers") >= 2, ingest, "two documents were recorded")
    ingest.send_signal(signal.SIGKILL)
    ingest.communicate(timeout=60)
    assert ingest.returncode == -signal.SIGKILL
    rows = _recorded(data, "ledgers")
    with open_store("edge", StoreOptions(path=data / "qdrant")) as store:
        partial = store.count("ledgers")
    print("documents recorded / chunks stored after SIGKILL:", rows, partial)
    assert 2 <= rows < 300  # killed mid-way
    # Every recorded document but the last has all its 50 chunks; the last some or none.
    assert (rows - 1) * 50 <= partial <= rows * 50

    rerun = _grace(data, "ingest", str(docs), "--collection", "ledgers", "--json")
    assert rerun.returncode == 0, rerun.stderr
    report = json.loads(rerun.stdout)
    assert report["chunks"] == 300 * 50 and report["written"] <= 300 * 50 - partial + 50
    with open_store("edge", StoreOptions(path=data / "qdrant")) as store:
        by_source = store.point_ids_by_source("ledgers")
        assert store.count("ledgers") == 300 * 50  # none missing, none twice
        assert sorted(by_source) == [f"ledger-{f:04d}.md" for f in range(300)]
        assert all(len(ids) == 50 for ids in by_source.values())
        hit = store.search("cargo item kx7q3", collection="ledgers", k=1).hits[0]
        assert hit.source == "ledger-0007.md" and "kx7q3" in hit.text
    _answer(_grace(data, "ask", QUESTION, "--json"))
    asked = _grace(
        data, "ask", "Which pier unloaded cargo item kx7q3?", "--collection", "ledgers", "--json"
    )
    assert asked.returncode == 0 and "Traceback" not in asked.stderr
