"""A document is its file: the root it came from and its path inside it (issue 39, items 5–8).

Before, the relative path alone named a document: ``a/x.md`` and ``b/x.md`` ingested into one
collection were one document (b replaced a, and mirroring b removed it); overlapping roots
indexed a file twice and kept a deleted file's copy; ``grace remove`` refused the path you
ingested; an empty folder "succeeded" and made an empty collection.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from grace.library import Library
from grace.retrieval import StoreOptions, open_store
from grace.retrieval.library import LibraryRecord, UnknownSourceError
from grace.settings import GraceSettings, get_settings
from tests.cli_runner import invoke_cli


@pytest.fixture
def library(tmp_path: Path) -> Any:
    settings = GraceSettings(data_dir=tmp_path / "data", provider="offline")
    with open_store("edge", StoreOptions(path=tmp_path / "data" / "qdrant")) as store:
        yield Library(store, settings)


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _hits(library: Library, query: str, collection: str = "c") -> list[str]:
    return [h.text for h in library.store.search(query, collection=collection, k=10).hits]


def test_two_roots_with_one_relative_name_stay_two_documents(
    library: Library, tmp_path: Path
) -> None:
    a = _write(tmp_path / "a" / "x.md", "The red lighthouse was built in 1850.\n").parent
    b = _write(tmp_path / "b" / "x.md", "The blue windmill was built in 1910.\n").parent
    library.ingest([a], "c")
    report = library.ingest([b], "c")
    assert [c.status for c in report.documents] == ["added"]
    sources = {d.source for d in library.documents("c")}
    assert sources == {"x.md", "b/x.md"}
    assert any("lighthouse" in t for t in _hits(library, "red lighthouse built"))
    # Mirroring b without x.md removes b's document only.
    (b / "x.md").unlink()
    _write(b / "y.md", "The green bridge was built in 1930.\n")
    mirrored = library.ingest([b], "c")
    assert {(c.source, c.status) for c in mirrored.documents} >= {("b/x.md", "removed")}
    assert "x.md" in {d.source for d in library.documents("c")}
    assert any("lighthouse" in t for t in _hits(library, "red lighthouse built"))


def test_a_copy_of_a_folder_does_not_adopt_the_first_roots_documents(
    library: Library, tmp_path: Path
) -> None:
    a = _write(tmp_path / "a" / "x.md", "The red lighthouse was built in 1850.\n").parent
    copy = _write(tmp_path / "copy" / "x.md", "The red lighthouse was built in 1850.\n").parent
    library.ingest([a], "c")
    library.ingest([copy], "c")
    (copy / "x.md").unlink()
    _write(copy / "z.md", "Nothing here.\n")
    library.ingest([copy], "c")  # the copy's x.md is gone; a's is not
    assert "x.md" in {d.source for d in library.documents("c")}


def test_overlapping_roots_index_a_file_once_and_a_deleted_file_leaves(
    library: Library, tmp_path: Path
) -> None:
    o = tmp_path / "o"
    _write(o / "top.md", "The harbour opens at six.\n")
    f = _write(o / "sub" / "f.md", "The purple ferry sails at noon.\n")
    library.ingest([o / "sub"], "c")
    library.ingest([o], "c")
    assert len([t for t in _hits(library, "purple ferry sails noon") if "purple" in t]) == 1
    f.unlink()
    library.ingest([o], "c")
    assert not [t for t in _hits(library, "purple ferry sails noon") if "purple" in t]
    assert {d.source for d in library.documents("c")} == {"top.md"}


def test_remove_accepts_the_path_you_ingested_and_lists_ambiguous_names(
    library: Library, tmp_path: Path
) -> None:
    for root in ("a", "b", "c"):
        _write(tmp_path / root / "menu.md", f"Soup of {root}.\n")
        library.ingest([tmp_path / root], "c")
    assert {d.source for d in library.documents("c")} == {"menu.md", "b/menu.md", "c/menu.md"}
    library.remove(["menu.md"], "c")  # a's, by its source
    # "menu.md" is no source now, and b's and c's path inside their roots: refused, listed.
    with pytest.raises(UnknownSourceError, match="several") as caught:
        library.remove(["menu.md"], "c")
    assert "'b/menu.md'" in str(caught.value) and "'c/menu.md'" in str(caught.value)
    assert len(library.documents("c")) == 2  # nothing removed
    removed = library.remove([str(tmp_path / "b" / "menu.md")], "c")  # the path ingested
    assert list(removed) == ["b/menu.md"]
    assert {d.source for d in library.documents("c")} == {"c/menu.md"}


def test_remove_by_path_on_the_cli(
    tmp_path: Path, cli_services: Any, offline_services: Any
) -> None:
    folder = _write(tmp_path / "docs" / "menu.md", "Soup: tomato and basil.\n").parent
    cli_services(offline_services)
    invoke_cli("ingest", str(folder), "--collection", "cli-remove")
    result = invoke_cli("remove", str(folder / "menu.md"), "--collection", "cli-remove")
    assert "removed menu.md" in result.output
    assert Library(offline_services.store, get_settings()).documents("cli-remove") == []


def test_an_empty_folder_fails_and_makes_no_collection(
    tmp_path: Path, cli_services: Any, offline_services: Any
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    cli_services(offline_services)
    result = invoke_cli("ingest", str(empty), "--collection", "never-made", code=1)
    assert "nothing ingested" in result.output
    assert "never-made" not in offline_services.store.list_collections()


def test_an_old_record_is_migrated_and_nothing_is_lost(tmp_path: Path) -> None:
    folder = _write(tmp_path / "docs" / "x.md", "text\n").parent
    path = tmp_path / "library.sqlite"
    db = sqlite3.connect(path)
    with db:
        db.executescript(
            "CREATE TABLE documents (collection TEXT NOT NULL, source TEXT NOT NULL, "
            "root TEXT NOT NULL, format TEXT NOT NULL, size INTEGER NOT NULL, "
            "sha256 TEXT NOT NULL, chunks INTEGER NOT NULL, ingested_at REAL NOT NULL, "
            "PRIMARY KEY (collection, source));"
            "CREATE TABLE collections (name TEXT PRIMARY KEY, engine TEXT NOT NULL, "
            "last_ingest REAL NOT NULL);"
        )
        db.execute(
            "INSERT INTO documents VALUES ('c', 'x.md', ?, 'md', 5, 'ab', 1, 1.0)",
            (str(folder.resolve()),),
        )
        db.execute("INSERT INTO documents VALUES ('c', 'old.md', '', 'md', 5, 'cd', 1, 1.0)")
    db.close()
    records = LibraryRecord(path)
    [old, located] = records.documents("c")
    assert (old.source, old.location) == ("old.md", "")
    assert located.location == str(folder.resolve() / "x.md")
    assert located.relative == "x.md"
    assert records.at("c", str(folder.resolve() / "x.md")) == located
