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
from grace.storage.faults import ensure_free_space
from grace.storage.file_lock import FileLock

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

    monkeypatch.setattr("grace.storage.file_lock.open", full, raising=False)
    lock = FileLock(tmp_path / "locks" / "c.lock", busy=lambda holder, t: RuntimeError(holder))
    with pytest.raises(StorageError) as caught:
        lock.acquire(0.1)
    assert "No space left on device" in str(caught.value) and "\n" not in str(caught.value)


def _ingest_on_a_small_filesystem(tmp_path: Path, size: str, docs: Path, timeout: int) -> None:
    """``grace ingest docs`` with its data dir on a tmpfs of ``size``: one line and exit 2."""
    mount = tmp_path / "small"
    mount.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({proc.stderr.strip()}); covered above by a "
                    "simulated full disk")
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith("GRACE_")}
        env["GRACE_DATA_DIR"] = str(mount / "data")
        env["GRACE_RETRIEVAL__AUTO_INGEST_SAMPLE"] = "false"
        run = subprocess.run([sys.executable, "-m", "graph.cli.main", "ingest", str(docs)],
                             env=env, capture_output=True, text=True, timeout=timeout)
        assert run.returncode == 2, (run.returncode, run.stderr[-1500:])
        assert "MB free" in run.stderr and "Traceback" not in run.stderr
    finally:
        subprocess.run(["umount", str(mount)], check=False)


def test_grace_ingest_on_a_real_full_filesystem(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(3000):
        (docs / f"f{i}.md").write_text(f"File {i} says the value is {i}.\n")
    _ingest_on_a_small_filesystem(tmp_path, "2m", docs, timeout=120)


def _corpus(folder: Path, files: int, paragraphs: int = 200) -> Path:
    """Files of random words, as the fault probe's 6.3 MB corpus (no two paragraphs alike)."""
    import random

    rng = random.Random(7)
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = ["".join(rng.choices(letters, k=rng.randint(3, 9))) for _ in range(4000)]
    folder.mkdir()
    for i in range(files):
        paras = (" ".join(rng.choices(words, k=rng.randint(20, 100))) for _ in range(paragraphs))
        (folder / f"f{i:03}.md").write_text("\n\n".join(paras), encoding="utf-8")
    return folder


def test_the_disk_filling_midway_stops_before_the_next_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 39, item 12: free space is checked again before each file is written, from the
    text it became; stopped there, the files before it are in and recorded."""
    from grace.library import Library
    from grace.retrieval import StoreOptions, open_store
    from grace.settings import GraceSettings

    docs = _corpus(tmp_path / "docs", 6, paragraphs=20)
    checks: list[int] = []

    def usage(path: Any) -> Any:
        checks.append(1)  # plenty for the first check and two files, then the disk is full
        return Usage(10**12, 0, 10**11 if len(checks) <= 3 else 10_000_000)

    monkeypatch.setattr(shutil, "disk_usage", usage)
    settings = GraceSettings(data_dir=tmp_path / "data", provider="offline")
    with open_store("edge", StoreOptions(path=settings.qdrant_path)) as store:
        library = Library(store, settings)
        with pytest.raises(StorageError) as caught:
            library.ingest([docs], "c")
        message = str(caught.value)
        assert "cannot ingest f002.md (the files before it are in)" in message
        assert "MB free" in message and "\n" not in message
        assert [d.source for d in library.documents("c")] == ["f000.md", "f001.md"]
        assert all(d.chunks > 0 for d in library.documents("c"))


def test_the_estimate_counts_what_the_store_writes_not_the_input_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """6.3 MB of text into 30 MB free passed the old estimate (input + 16 MB) and died of
    SIGBUS; the store takes about six times the text."""
    from grace.library import Library
    from grace.retrieval import StoreOptions, open_store
    from grace.settings import GraceSettings

    docs = _corpus(tmp_path / "docs", 75)
    size = sum(f.stat().st_size for f in docs.iterdir())
    assert 5_000_000 < size < 8_000_000
    monkeypatch.setattr(shutil, "disk_usage", lambda path: Usage(10**12, 0, 30_000_000))
    settings = GraceSettings(data_dir=tmp_path / "data", provider="offline")
    with open_store("edge", StoreOptions(path=settings.qdrant_path)) as store:
        with pytest.raises(StorageError, match=r"cannot ingest: 30.0 MB free"):
            Library(store, settings).ingest([docs], "c")
        assert "c" not in store.list_collections()  # refused before anything was written


def test_a_corpus_larger_than_the_disk_stops_in_one_line_on_a_real_filesystem(
    tmp_path: Path,
) -> None:
    """The probe's case on a real 30 MB filesystem: one line and exit 2, never 'Bus error'."""
    _ingest_on_a_small_filesystem(tmp_path, "30m", _corpus(tmp_path / "docs", 75), timeout=300)


def test_the_stores_own_out_of_space_error_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the estimate, the store's own error ("Not enough space available for
    optimization", a bare Exception from Qdrant Edge) was a traceback."""
    from grace.library import Library
    from grace.retrieval import StoreOptions, open_store
    from grace.settings import GraceSettings

    docs = _corpus(tmp_path / "docs", 2, paragraphs=5)
    settings = GraceSettings(data_dir=tmp_path / "data", provider="offline")
    with open_store("edge", StoreOptions(path=settings.qdrant_path)) as store:

        def full(*args: Any, **kwargs: Any) -> None:
            raise Exception(  # noqa: TRY002 — what the store raises
                "Service runtime error: Not enough space available for optimization, "
                "needed: 17.41 MiB, available: 12.68 MiB"
            )

        monkeypatch.setattr(store, "add_chunks", full)
        with pytest.raises(StorageError) as caught:
            Library(store, settings).ingest([docs], "c")
    message = str(caught.value)
    assert str(settings.qdrant_path) in message and "free space" in message
    assert "\n" not in message
