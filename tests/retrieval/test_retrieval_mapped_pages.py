"""Dropping a read-only file mapping's resident pages keeps its content readable."""

import mmap
import sys
from pathlib import Path

import pytest

from grace.retrieval.mapped_pages import drop_mapped_pages


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="madvise via /proc (Linux)")
def test_dropped_pages_read_back_the_same(tmp_path: Path) -> None:
    data = bytes(range(256)) * 4096 * 4  # 4 MiB
    path = tmp_path / "mapped.bin"
    path.write_bytes(data)
    with path.open("rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as view:
        assert view[:] == data  # every page resident
        assert drop_mapped_pages(path.resolve()) >= len(data)
        assert view[:] == data  # faulted back from the page cache


def test_a_file_not_mapped_is_left_alone(tmp_path: Path) -> None:
    assert drop_mapped_pages(tmp_path / "nothing.bin") == 0
