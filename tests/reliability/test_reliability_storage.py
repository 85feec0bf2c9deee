"""Storage faults end in one message naming the file and what to do (exit 2), never a
traceback; one damaged checkpoint row does not hide the other threads."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import ormsgpack
import pytest

from checkpoints import checkpointer as checkpointer_module
from grace.errors import StorageError
from graph.app import GraceApp
from tests.reliability.conftest import SIMPLE, grace_cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def healthy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory after one answered question (sample corpus ingested)."""
    data = tmp_path_factory.mktemp("healthy") / "data"
    assert grace_cli(data, "ask", SIMPLE, "--json").returncode == 0
    return data


def _copy(healthy: Path, tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(healthy, data)
    return data


def _one_clean_line(proc: subprocess.CompletedProcess[str], *expected: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith("error: ") and proc.stderr.count("\n") == 1, proc.stderr
    for text in expected:
        assert text in proc.stderr, proc.stderr


@pytest.mark.slow
def test_garbage_checkpoint_database(healthy: Path, tmp_path: Path) -> None:
    data = _copy(healthy, tmp_path)
    (data / "checkpoints.sqlite").write_bytes(b"this is not sqlite" * 10)
    proc = grace_cli(data, "threads")
    _one_clean_line(proc, str(data / "checkpoints.sqlite"), "not a database", "move it aside")


@pytest.mark.slow
def test_truncated_checkpoint_database(healthy: Path, tmp_path: Path) -> None:
    data = _copy(healthy, tmp_path)
    db = data / "checkpoints.sqlite"
    with db.open("r+b") as f:
        f.truncate(3000)
    proc = grace_cli(data, "ask", SIMPLE, "--json")
    _one_clean_line(proc, str(db), "malformed", "restore it from a backup")


@pytest.mark.slow
def test_unopenable_database_path(tmp_path: Path) -> None:
    # A directory where the database file should be: SQLite cannot open it, as with a
    # read-only directory for a non-root user (the test runs as root in CI).
    data = tmp_path / "data"
    (data / "checkpoints.sqlite").mkdir(parents=True)
    proc = grace_cli(data, "threads")
    _one_clean_line(proc, "unable to open database file", "writable")


@pytest.mark.slow
def test_damaged_collection_files(healthy: Path, tmp_path: Path) -> None:
    data = _copy(healthy, tmp_path)
    shard = data / "qdrant" / "edge" / "grace"
    (shard / "edge_config.json").write_text("{ not json", encoding="utf-8")
    proc = grace_cli(data, "ask", SIMPLE, "--json")
    _one_clean_line(proc, "cannot open collection 'grace'", str(shard), "ingest the documents")


def test_disk_full_during_a_run_names_the_data_directory(
    offline: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SQLite's max_page_count makes the database "full" after a few checkpoints: within the
    # first run under `sync` durability, within a few runs under `exit` (one write per run).
    pragmas = [*checkpointer_module.SQLITE_PRAGMAS, "PRAGMA max_page_count = 12"]
    monkeypatch.setattr(checkpointer_module, "SQLITE_PRAGMAS", pragmas)
    settings = offline.settings.model_copy(update={"data_dir": tmp_path})
    with pytest.raises(StorageError) as caught, GraceApp.open(settings) as app:
        for _ in range(10):
            app.ask(SIMPLE)
    message = str(caught.value)
    assert str(tmp_path) in message and "full" in message and "free space" in message


def test_a_damaged_checkpoint_row_is_skipped_with_a_warning(offline: Any, tmp_path: Path) -> None:
    settings = offline.settings.model_copy(update={"data_dir": tmp_path})
    with GraceApp.open(settings) as app:
        app.ask(SIMPLE, thread_id="good")
    db = sqlite3.connect(settings.sqlite_path)
    with db:
        db.execute(
            "INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, "
            "parent_checkpoint_id, type, checkpoint, metadata) VALUES (?, '', ?, NULL, ?, ?, ?)",
            ("bad", "1ef00000-0000-6000-8000-000000000000", "msgpack", ormsgpack.packb(7), b"{}"),
        )
    db.close()
    skipped: list[str] = []
    with GraceApp.open(settings) as app:
        rows = app.threads(on_unreadable=lambda thread, exc: skipped.append(thread))
    assert [r.thread_id for r in rows] == ["good"]
    assert skipped == ["bad"]
