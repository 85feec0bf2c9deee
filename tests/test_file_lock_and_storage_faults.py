"""grace/storage/file_lock.py and grace/storage/faults.py, with hand-derived messages and states."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections import namedtuple
from pathlib import Path

import pytest

from grace.errors import StorageError
from grace.storage import file_lock
from grace.storage.faults import FREE_SPACE_MARGIN, ensure_free_space, explain, storage_faults
from grace.storage.file_lock import FileLock, holder_of


class Busy(Exception):
    """The error a test lock raises: who holds it, after how long."""

    def __init__(self, holder: str, timeout: float) -> None:
        super().__init__(holder, timeout)
        self.holder, self.timeout = holder, timeout


def _lock(path: Path) -> FileLock:
    return FileLock(path, busy=Busy)


# --- holder_of ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("4242 grace ask When? --json\n", "process 4242 (grace ask When? --json)"),
        ("4242\n", "process 4242 (unknown command)"),
        ("4242   \n", "process 4242 (unknown command)"),
        ("", "a process"),
        ("\n", "a process"),
    ],
)
def test_holder_of_reads_pid_and_command(tmp_path: Path, content: str, expected: str) -> None:
    path = tmp_path / "c.lock"
    path.write_text(content, encoding="utf-8")
    assert holder_of(path) == expected


def test_holder_of_a_missing_file_is_a_process(tmp_path: Path) -> None:
    assert holder_of(tmp_path / "none.lock") == "a process"


# --- FileLock -------------------------------------------------------------------------------


def test_acquire_names_this_process_and_release_clears_it(tmp_path: Path) -> None:
    path = tmp_path / "locks" / "deep" / "c.lock"  # the directory is created
    lock = _lock(path)
    assert not lock.held
    lock.acquire(0.0)
    lock.acquire(0.0)  # idempotent
    assert lock.held
    pid, _, command = path.read_text(encoding="utf-8").partition(" ")
    assert pid == str(os.getpid())
    assert command.rstrip("\n") == " ".join([Path(sys.argv[0]).name, *sys.argv[1:]])[:300]
    lock.release()
    lock.release()  # idempotent
    assert not lock.held and path.read_text(encoding="utf-8") == ""


def test_a_held_lock_raises_busy_naming_the_holder_and_the_timeout(tmp_path: Path) -> None:
    path = tmp_path / "c.lock"
    first, second = _lock(path), _lock(path)  # two open files: flock excludes even here
    first.acquire(0.0)
    try:
        with pytest.raises(Busy) as caught:
            second.acquire(0.0)
        assert caught.value.timeout == 0.0
        assert caught.value.holder.startswith(f"process {os.getpid()} (")
        assert not second.held
    finally:
        first.release()
    second.acquire(0.0)  # free again
    assert second.held
    second.release()


def test_a_waiting_acquire_gets_the_lock_once_the_holder_releases(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    polling = threading.Event()

    class Clock:  # the module's clock, telling when the waiter first finds the lock taken
        monotonic = staticmethod(time.monotonic)

        @staticmethod
        def sleep(seconds: float) -> None:
            polling.set()
            time.sleep(seconds)

    monkeypatch.setattr(file_lock, "time", Clock)
    path = tmp_path / "c.lock"
    holder, waiter = _lock(path), _lock(path)
    holder.acquire(0.0)
    errors: list[BaseException] = []

    def wait() -> None:
        try:
            waiter.acquire(60.0)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    thread = threading.Thread(target=wait)
    thread.start()
    assert polling.wait(60) and not waiter.held  # it found the lock taken and waits
    holder.release()
    thread.join(60)
    assert not thread.is_alive() and errors == [] and waiter.held
    assert path.read_text(encoding="utf-8").startswith(f"{os.getpid()} ")
    waiter.release()


def test_the_kernel_frees_the_lock_of_a_killed_holder(tmp_path: Path) -> None:
    path = tmp_path / "c.lock"
    code = (
        "import sys; from pathlib import Path; from grace.storage.file_lock import FileLock\n"
        f"lock = FileLock(Path({str(path)!r}), busy=RuntimeError)\nlock.acquire(0)\n"
        "print('held', flush=True); sys.stdin.read()"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None and child.stdout.readline() == "held\n"
        with pytest.raises(Busy) as caught:
            _lock(path).acquire(0.0)
        assert caught.value.holder.startswith(f"process {child.pid} (")
    finally:
        child.kill()
        child.wait(60)
    lock = _lock(path)
    lock.acquire(0.0)  # no stale lock after SIGKILL
    assert lock.held
    lock.release()


# --- explain / storage_faults ---------------------------------------------------------------

FULL = "free space on the disk that holds it, then run the command again"
READ_ONLY = "make its directory writable, or point GRACE_DATA_DIR at a writable directory"
DAMAGED = (
    "the file is damaged: move it aside (what it held is lost) or restore it from a backup; "
    "GRACE creates a new one on the next run"
)
FALLBACK = "check the file and its directory (permissions, free space), then try again"


@pytest.mark.parametrize(
    ("error", "remedy"),
    [
        (sqlite3.OperationalError("database or disk is full"), FULL),
        (OSError(28, "No space left on device"), FULL),
        (sqlite3.OperationalError("attempt to write a readonly database"), READ_ONLY),
        (PermissionError(13, "Permission denied"), READ_ONLY),
        (sqlite3.OperationalError("unable to open database file"), READ_ONLY),
        (sqlite3.DatabaseError("file is not a database"), DAMAGED),
        (sqlite3.DatabaseError("database disk image is malformed"), DAMAGED),
        (RuntimeError("Failed to deserialize segment"), DAMAGED),
        (RuntimeError("something else"), FALLBACK),
    ],
)
def test_explain_picks_the_remedy_from_the_error_text(error: Exception, remedy: str) -> None:
    message = str(explain("the checkpoint database", "/d/cp.sqlite", error))
    assert (
        message
        == f"the checkpoint database /d/cp.sqlite: {' '.join(str(error).split())} — {remedy}"
    )


def test_explain_the_first_matching_remedy_wins_and_whitespace_collapses() -> None:
    error = OSError("disk full\n   and read-only")
    assert str(explain("store", Path("/d/q"), error)) == (
        f"store /d/q: disk full and read-only — {FULL}"
    )


def test_explain_an_empty_message_is_named_by_its_type() -> None:
    assert str(explain("store", "/d/q", KeyError())) == f"store /d/q: KeyError — {FALLBACK}"


def test_damaged_advice_replaces_only_the_damaged_remedy() -> None:
    rebuild = "ingest the documents again"
    damaged = explain("collection", "/d/q", RuntimeError("corrupt shard"), damaged=rebuild)
    assert str(damaged) == f"collection /d/q: corrupt shard — {rebuild}"
    full = explain("collection", "/d/q", RuntimeError("disk full"), damaged=rebuild)
    assert str(full) == f"collection /d/q: disk full — {FULL}"


def test_storage_faults_converts_only_the_named_errors() -> None:
    cause = sqlite3.OperationalError("database or disk is full")
    with pytest.raises(StorageError) as caught, storage_faults("db", "/d/x", (sqlite3.Error,)):
        raise cause
    assert caught.value.__cause__ is cause
    assert str(caught.value) == f"db /d/x: database or disk is full — {FULL}"
    with pytest.raises(ValueError), storage_faults("db", "/d/x", (sqlite3.Error,)):
        raise ValueError("not a storage error")
    with storage_faults("db", "/d/x", (sqlite3.Error,)):
        pass  # no error: nothing raised


# --- ensure_free_space ----------------------------------------------------------------------

Usage = namedtuple("Usage", "total used free")


def test_free_space_boundary_is_needed_plus_the_margin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    probed: list[Path] = []
    free = {"bytes": 1_000_000 + FREE_SPACE_MARGIN}

    def usage(path: Path) -> Usage:
        probed.append(Path(path))
        return Usage(10**12, 0, free["bytes"])

    monkeypatch.setattr(shutil, "disk_usage", usage)
    target = tmp_path / "data" / "qdrant" / "edge"  # does not exist yet
    ensure_free_space(target, 1_000_000)  # exactly enough
    assert probed == [tmp_path]  # the nearest directory that exists
    free["bytes"] -= 1
    with pytest.raises(StorageError) as caught:
        ensure_free_space(target, 1_000_000, "add documents")
    assert str(caught.value) == (
        f"cannot add documents: 17.0 MB free on the disk of {target}, about 17.0 MB needed "
        "— free space, or set GRACE_DATA_DIR to a larger disk"
    )
