"""Drop the resident pages of a read-only file mapping from this process (Linux).

A memory-mapped file's pages count in the process's resident set once touched, and stay
counted until unmapped, whether or not they are read again. ``madvise(MADV_DONTNEED)`` on a
shared, read-only file mapping removes them from the process's page tables only: the kernel
keeps them in its page cache, and a later read maps them back without I/O. The content
cannot change (the mapping is read-only and file-backed), so this is safe at any time.
"""

from __future__ import annotations

import ctypes
import logging
import sys
from pathlib import Path

__all__ = ["drop_mapped_pages"]

_log = logging.getLogger(__name__)

_MADV_DONTNEED = 4
"""``MADV_DONTNEED`` on Linux (all architectures)."""


def drop_mapped_pages(path: Path) -> int:
    """Drop this process's resident pages of read-only mappings of ``path``; bytes advised.

    Returns 0 where this cannot be done (not Linux, no ``/proc``, madvise failing).
    """
    if not sys.platform.startswith("linux"):
        return 0
    try:
        regions = _read_only_regions(str(path))
        libc = ctypes.CDLL(None, use_errno=True)
        libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        done = 0
        for start, end in regions:
            if libc.madvise(start, end - start, _MADV_DONTNEED) == 0:
                done += end - start
        return done
    except (OSError, AttributeError, ValueError) as exc:
        _log.debug("cannot drop the mapped pages of %s: %s", path, exc)
        return 0


def _read_only_regions(path: str) -> list[tuple[int, int]]:
    """Address ranges of ``path``'s read-only mappings in this process."""
    regions: list[tuple[int, int]] = []
    with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
        for line in maps:
            fields = line.split(maxsplit=5)
            if len(fields) == 6 and fields[5].rstrip("\n") == path and "w" not in fields[1]:
                start, end = fields[0].split("-")
                regions.append((int(start, 16), int(end, 16)))
    return regions
