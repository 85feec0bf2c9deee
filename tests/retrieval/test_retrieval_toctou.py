"""A file swapped for a link after the folder was listed is not read (issue 39, item 4).

The walk checks links while listing; the file is read later. The check is made again where
the file is opened (the resolved path must lie inside the root; ``O_NOFOLLOW``), and every
read goes through that open file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from grace.retrieval import CorpusStore, ingest_paths
from grace.retrieval import ingest as ingest_module
from grace.retrieval.opening import UnsafeFileError, open_inside

SECRET = "The vault combination is 31-41-59."


def _swap_after_listing(monkeypatch: pytest.MonkeyPatch, victim: Path, target: Path) -> None:
    """Replace ``victim`` by a link to ``target`` right after the folder is listed."""
    listed = ingest_module._expand

    def expand(*args: Any, **kwargs: Any) -> Any:
        walk = listed(*args, **kwargs)
        victim.unlink()
        victim.symlink_to(target)
        return walk

    monkeypatch.setattr(ingest_module, "_expand", expand)


def test_a_file_replaced_by_an_outside_link_after_listing_is_not_read(
    tmp_path: Path, store: CorpusStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "notes.md").write_text("Meeting notes: the plan is approved.\n", encoding="utf-8")
    (folder / "other.md").write_text("The library opens at ten.\n", encoding="utf-8")
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET + "\n", encoding="utf-8")
    _swap_after_listing(monkeypatch, folder / "notes.md", secret)

    report = ingest_paths(store, [folder], collection="docs")

    skipped = {c.source: c.reason for c in report.documents if c.status == "skipped"}
    assert "link that leaves the folder" in skipped["notes.md"]
    texts = [h.text for h in store.search("vault combination", collection="docs", k=5).hits]
    assert all("31-41-59" not in t for t in texts)
    assert report.files == 1  # other.md is still read


def test_a_link_inside_the_folder_is_still_read(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("inside\n", encoding="utf-8")
    (folder / "b.md").symlink_to(folder / "a.md")
    with open_inside(folder / "b.md", folder.resolve(), 1000, "leaves") as opened:
        assert opened.read_bytes() == b"inside\n"


def test_the_open_file_is_read_even_if_the_name_changes_after_opening(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("first\n", encoding="utf-8")
    (tmp_path / "secret").write_text(SECRET, encoding="utf-8")
    with open_inside(folder / "a.md", folder.resolve(), 1000, "leaves") as opened:
        os.unlink(folder / "a.md")
        (folder / "a.md").symlink_to(tmp_path / "secret")
        assert opened.path.read_bytes() == b"first\n"  # the converters' path: the open file
        assert opened.read_bytes() == b"first\n"


def test_outside_links_fifos_and_oversized_files_are_refused_at_open(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (tmp_path / "secret").write_text(SECRET, encoding="utf-8")
    (folder / "out.md").symlink_to(tmp_path / "secret")
    os.mkfifo(folder / "pipe.md")
    (folder / "big.md").write_text("x" * 2000, encoding="utf-8")
    root = folder.resolve()
    for name, why in (("out.md", "leaves"), ("pipe.md", "regular"), ("big.md", "cap")):
        with (
            pytest.raises(UnsafeFileError, match=why),
            open_inside(folder / name, root, 1000, "leaves"),
        ):
            pass
