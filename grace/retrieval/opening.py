"""Open a file to ingest where it is read, not where the folder was listed.

A folder is listed first and its files read afterwards; a file replaced in between by a link
to a secret outside the folder must not be read (a time-of-check / time-of-use race). So the
check is made on the file *as opened*: its path is resolved at open time and must still lie
inside its root, the resolved path is opened with ``O_NOFOLLOW`` (a link swapped in after the
resolution fails to open), and the open file must be a regular file within the size cap.
Every later read (text, converters, the record's digest) goes through that open file:
``/proc/self/fd/N`` on Linux names the opened file itself, whatever the path points at now.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["OpenedFile", "UnsafeFileError", "open_inside"]

_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)  # a FIFO swapped in never blocks the ingest
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
_PROC_FD = Path("/proc/self/fd")


class UnsafeFileError(OSError):
    """The file cannot be read safely (left its root, not a regular file, too large)."""


@dataclass(frozen=True)
class OpenedFile:
    """A file opened for ingest: read it through :attr:`path`, never through its name."""

    fd: int
    """The open descriptor."""
    path: Path
    """A path that names the open file itself (``/proc/self/fd/N``; else the resolved path)."""
    size: int
    """Its size when opened."""

    def read_bytes(self) -> bytes:
        """The file's bytes, read from the open descriptor."""
        chunks = []
        offset = 0
        while chunk := os.pread(self.fd, 1 << 20, offset):
            chunks.append(chunk)
            offset += len(chunk)
        return b"".join(chunks)

    def sha256(self) -> str:
        """Digest of the file's bytes, read from the open descriptor."""
        digest = hashlib.sha256()
        offset = 0
        while chunk := os.pread(self.fd, 1 << 20, offset):
            digest.update(chunk)
            offset += len(chunk)
        return digest.hexdigest()


@contextlib.contextmanager
def open_inside(path: Path, root: Path, max_bytes: int, leaves: str) -> Iterator[OpenedFile]:
    """Open ``path`` only if, as opened, it is a regular file inside ``root`` (resolved).

    Args:
        path: The file as listed.
        root: The resolved folder it was listed under (or the file itself, named alone).
        max_bytes: The per-file size cap, checked on the open file.
        leaves: The reason given for a file that resolves outside ``root``.

    Raises:
        UnsafeFileError: resolves outside ``root``, swapped for a link, not a regular file,
            or over ``max_bytes`` (the reason is the message).

    """
    real = Path(os.path.realpath(path))
    if not real.is_relative_to(root):
        raise UnsafeFileError(leaves)
    try:
        fd = os.open(real, _FLAGS)
    except OSError as exc:
        if exc.errno == getattr(os, "ELOOP", -1) or real.is_symlink():
            raise UnsafeFileError(f"{leaves} (replaced by a link while it was read)") from exc
        raise UnsafeFileError(f"cannot read: {exc.strerror or exc}") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeFileError("not a regular file, only regular files are ingested")
        if info.st_size > max_bytes:
            raise UnsafeFileError(
                f"{info.st_size / 1e6:.1f} MB is over the per-file cap of "
                f"{max_bytes / 1e6:.1f} MB (setting retrieval.max_file_mb)"
            )
        named = _PROC_FD / str(fd)
        yield OpenedFile(fd=fd, path=named if named.exists() else real, size=info.st_size)
    finally:
        os.close(fd)
