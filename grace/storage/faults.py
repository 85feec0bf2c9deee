"""Storage faults in one message: which file, what went wrong, what to do.

SQLite and Qdrant Edge report a read-only directory, a full disk or a damaged file in their
own words ("attempt to write a readonly database", "database or disk is full", "file is not
a database", "Failed to deserialize …"). :func:`explain` turns any of them into a
:class:`~grace.errors.StorageError` whose message names the file and the remedy; the CLI
prints it as one line (exit 2) instead of a traceback.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from grace.errors import StorageError

__all__ = ["explain", "storage_faults"]

_REMEDIES: list[tuple[Callable[[str], bool], str]] = [
    (
        lambda m: "full" in m or "no space" in m or "enough space" in m,
        "free space on the disk that holds it, then run the command again",
    ),
    (
        lambda m: "readonly" in m or "read-only" in m or "permission" in m or "unable to open" in m,
        "make its directory writable, or point GRACE_DATA_DIR at a writable directory",
    ),
    (
        lambda m: "not a database" in m or "malformed" in m or "deserializ" in m or "corrupt" in m,
        "the file is damaged: move it aside (what it held is lost) or restore it from a backup; "
        "GRACE creates a new one on the next run",
    ),
]
"""(matches the lower-cased error text, what to do): the first match wins."""

_FALLBACK = "check the file and its directory (permissions, free space), then try again"


def explain(
    what: str, path: Path | str, exc: BaseException, *, damaged: str | None = None
) -> StorageError:
    """A :class:`StorageError` for ``exc`` raised while using ``what`` at ``path``.

    ``damaged`` replaces the generic advice for a damaged file (e.g. how to rebuild it).
    """
    reason = " ".join(str(exc).split()) or type(exc).__name__
    lowered = reason.lower()
    remedy = next((text for matches, text in _REMEDIES if matches(lowered)), _FALLBACK)
    if damaged is not None and remedy == _REMEDIES[-1][1]:
        remedy = damaged
    return StorageError(f"{what} {path}: {reason} — {remedy}")


@contextmanager
def storage_faults(
    what: str, path: Path | str, errors: tuple[type[BaseException], ...]
) -> Iterator[None]:
    """Re-raise ``errors`` from the block as :func:`explain`'s StorageError."""
    try:
        yield
    except errors as exc:
        raise explain(what, path, exc) from exc


FREE_SPACE_MARGIN = 16_000_000
"""Bytes an ingest keeps free beyond its files' size (write-ahead log, segments, records)."""
STORE_BYTES_PER_TEXT_BYTE = 8
"""Disk the embedded store takes per byte of text it indexes, with room to spare: measured
6.0–6.2× (157 kB of Markdown → 0.95 MB allocated; 9.5 MB → 59 MB; sparse vectors, payloads,
the write-ahead log and segment files)."""


def ensure_free_space(directory: Path, needed: int, what: str = "ingest") -> None:
    """Refuse to start writing under ``directory`` when its disk cannot hold ``needed`` bytes.

    The embedded store writes through memory-mapped files: on a full disk the process would be
    killed by SIGBUS with nothing printed, so the check comes first (one line, exit 2). The
    store itself is not touched, and it is fine once space returns.
    """
    import shutil

    probe = directory
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    free = shutil.disk_usage(probe).free
    want = needed + FREE_SPACE_MARGIN
    if free < want:
        raise StorageError(
            f"cannot {what}: {free / 1e6:,.1f} MB free on the disk of {directory}, about "
            f"{want / 1e6:,.1f} MB needed — free space, or set GRACE_DATA_DIR to a larger disk"
        )
