"""Several real ``grace`` processes on one embedded store, and a SIGKILL during ``grace ingest``.

Qdrant Edge lets one process at a time open a shard; GRACE serialises processes per
collection with a lock file, waits for the holder, and after ``lock_timeout_seconds`` says
who holds it — never a traceback, never a damaged shard.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from grace.retrieval import StoreOptions, open_store

pytestmark = pytest.mark.slow

QUESTION = "When did the horse tram line open in Lumen Bay?"
CLI = [sys.executable, "-m", "graph.cli"]


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


def _spawn(data: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*CLI, *args],
        env=_env(data),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


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
    ingest = _spawn(data, "ingest", str(docs), "--collection", "grace", "--json")
    time.sleep(0.5)
    asked = _grace(data, "ask", QUESTION, "--json")
    out, err = ingest.communicate(timeout=180)
    assert ingest.returncode == 0, err
    report = json.loads(out)
    _answer(asked)
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
    shard = data / "qdrant" / "edge" / "ledgers"
    ingest = _spawn(data, "ingest", str(docs), "--collection", "ledgers", "--json")
    deadline = time.monotonic() + 120
    while not shard.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.4)
    ingest.send_signal(signal.SIGKILL)
    ingest.communicate(timeout=60)
    assert ingest.returncode == -signal.SIGKILL
    with open_store("edge", StoreOptions(path=data / "qdrant")) as store:
        partial = store.count("ledgers")
    print("partial after SIGKILL:", partial)
    assert 0 < partial < 300 * 50  # killed mid-way, with chunks already written

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
