"""GRACE's cache directory: files derived from an installed package's data, made once.

``$XDG_CACHE_HOME/grace`` (``~/.cache/grace``). A derived file is named after what it was
made from (the source's path, size and modification time, and a version): a changed
package makes a new file, never reads a stale one. Files are written whole and renamed into
place, so concurrent processes make the same bytes and a reader never sees half a file.
Nothing here is required: where the directory cannot be written, callers use the source.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

__all__ = ["cache_dir", "derived_file", "source_key"]


def cache_dir(name: str) -> Path:
    """``$XDG_CACHE_HOME/grace/<name>`` (not created here)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "grace" / name


def source_key(source: Path, version: str = "") -> str:
    """A short key of ``source`` as it is now: its resolved path, size and time, ``version``."""
    info = source.stat()
    text = f"{source}\0{info.st_size}\0{info.st_mtime_ns}\0{version}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def derived_file(directory: Path, name: str, make: Callable[[Path], None]) -> Path:
    """``directory / name``, made by ``make(path)`` into a temporary file if it is missing.

    Raises:
        OSError: the directory cannot be written (or ``make`` failed to write).

    """
    target = directory / name
    if target.is_file():
        return target
    directory.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=directory) as tmp:
        out = Path(tmp) / name
        make(out)
        os.replace(out, target)  # atomic: a concurrent maker writes the same bytes
    return target
