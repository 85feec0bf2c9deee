"""A full disk (issue 26.8, 10): one line naming the place and what to do, never a SIGBUS or
an ENOSPC traceback; the store is left as it was."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from collections import namedtuple
from pathlib import Path
from typing import Any

import pytest

from grace.errors import StorageError
from grace.file_lock import FileLock
from grace.storage_faults import ensure_free_space

Usage = namedtuple("Usage", "total used free")


def test_too_little_free_space_is_refused_before_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shutil, "disk_usage", lambda path: Usage(2_000_000, 1_900_000, 100_000))
    with pytest.raises(StorageError, match=r"cannot ingest: 0.1 MB free .* GRACE_DATA_DIR"):
        ensure_free_space(tmp_path / "data" / "qdrant", 50_000, "ingest")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: Usage(10**12, 0, 10**11))
    ensure_free_space(tmp_path / "data" / "qdrant", 50_000, "ingest")  # plenty: no error


def test_the_lock_file_on_a_full_disk_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(*args: Any, **kwargs: Any) -> Any:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("grace.file_lock.open", full, raising=False)
    lock = FileLock(tmp_path / "locks" / "c.lock", busy=lambda holder, t: RuntimeError(holder))
    with pytest.raises(StorageError) as caught:
        lock.acquire(0.1)
    assert "No space left on device" in str(caught.value) and "\n" not in str(caught.value)


def test_grace_ingest_on_a_real_full_filesystem(tmp_path: Path) -> None:
    mount = tmp_path / "small"
    mount.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({proc.stderr.strip()}); covered above by a "
                    "simulated full disk")
    try:
        docs = tmp_path / "docs"
        docs.mkdir()
        for i in range(3000):
            (docs / f"f{i}.md").write_text(f"File {i} says the value is {i}.\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("GRACE_")}
        env["GRACE_DATA_DIR"] = str(mount / "data")
        run = subprocess.run([sys.executable, "-m", "graph.cli", "ingest", str(docs)],
                             env=env, capture_output=True, text=True, timeout=120)
        assert run.returncode == 2, (run.returncode, run.stderr[-1500:])
        assert "MB free" in run.stderr and "Traceback" not in run.stderr
    finally:
        subprocess.run(["umount", str(mount)], check=False)
