"""The library: nothing outside the roots is read, re-ingesting mirrors a folder, and the
collections / documents / remove operations (CLI and GraceApp), offline and in-process."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from grace.library import Library
from grace.retrieval.library import UnknownSourceError
from grace.settings import get_settings
from tests.cli_runner import invoke_cli

SECRET = "The database password is hunter2-zebra."


@pytest.fixture
def library(offline_services: Any) -> Iterator[Library]:
    yield Library(offline_services.store, get_settings())


def _folder(tmp_path: Path, vessel: str = "Harbour Star") -> Path:
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "ferry.md").write_text(f"# Ferry\n\nThe MV {vessel} carries 300 passengers.\n")
    (docs / "sub" / "bridge.md").write_text("# Bridge\n\nThe Old Bridge opened in 1901.\n")
    return docs


def _secret(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "creds.txt").write_text(SECRET + "\n")
    return outside


def _texts(library: Library, collection: str) -> str:
    hits = library.store.search("database password hunter2 zebra", collection=collection, k=20)
    return " ".join(hit.text for hit in hits.hits)


def test_a_link_that_leaves_the_folder_is_not_read(library: Library, tmp_path: Path) -> None:
    docs, outside = _folder(tmp_path), _secret(tmp_path)
    (docs / "notes.txt").symlink_to(outside / "creds.txt")
    (docs / "creds").symlink_to(outside)  # a folder link too
    (docs / "ferry-copy.md").symlink_to(docs / "ferry.md")  # a link inside: fine
    report = library.ingest([docs], "links")
    assert "hunter2" not in _texts(library, "links")
    skipped = {c.source: c.reason for c in report.documents if c.status == "skipped"}
    assert set(skipped) == {"notes.txt", "creds"}
    assert all("leaves the folder" in reason for reason in skipped.values())
    assert report.problems == []  # listed, like rsync --safe-links; not a failure
    assert {d.source for d in library.documents("links")} == {"ferry.md", "sub/bridge.md"}


def test_a_file_named_on_its_own_is_a_root_of_its_own(library: Library, tmp_path: Path) -> None:
    outside = _secret(tmp_path)
    link = tmp_path / "named.txt"
    link.symlink_to(outside / "creds.txt")
    report = library.ingest([link], "named")
    assert report.added == 1 and "hunter2" in _texts(library, "named")


def test_a_secret_indexed_before_is_removed_once_it_is_a_leaving_link(
    library: Library, tmp_path: Path
) -> None:
    docs, outside = _folder(tmp_path), _secret(tmp_path)
    (docs / "notes.txt").write_text(SECRET + "\n")
    library.ingest([docs], "was-in")
    assert "hunter2" in _texts(library, "was-in")
    (docs / "notes.txt").unlink()
    (docs / "notes.txt").symlink_to(outside / "creds.txt")
    report = library.ingest([docs], "was-in")
    assert [c.source for c in report.documents if c.status == "removed"] == ["notes.txt"]
    assert "hunter2" not in _texts(library, "was-in")


def test_reingesting_a_folder_mirrors_it(library: Library, tmp_path: Path) -> None:
    docs = _folder(tmp_path)
    first = library.ingest([docs], "mirror")
    assert (first.added, first.removed) == (2, 0)
    (docs / "sub" / "bridge.md").unlink()
    (docs / "ferry.md").rename(docs / "ferries.md")
    (docs / "tram.md").write_text("# Tram\n\nThe tram opened in 1887.\n")
    second = library.ingest([docs], "mirror")
    status = {c.source: c.status for c in second.documents}
    assert status == {"ferries.md": "added", "tram.md": "added", "ferry.md": "removed",
                      "sub/bridge.md": "removed"}
    assert (second.added, second.removed, second.deleted) == (2, 2, 2)
    assert {d.source for d in library.documents("mirror")} == {"ferries.md", "tram.md"}
    hits = library.store.search("Old Bridge opened 1901", collection="mirror", k=5)
    assert all("Old Bridge" not in hit.text for hit in hits.hits)
    (docs / "tram.md").write_text("# Tram\n\nThe tram opened in 1888.\n")
    third = library.ingest([docs], "mirror")
    assert {c.source: c.status for c in third.documents} == {
        "ferries.md": "unchanged", "tram.md": "updated"
    }


def test_mirroring_is_scoped_to_the_root(library: Library, tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    (a / "one.md").write_text("Alpha fact one.\n")
    (b / "two.md").write_text("Beta fact two.\n")
    library.ingest([a], "scoped")
    library.ingest([b], "scoped")
    (b / "two.md").unlink()
    report = library.ingest([b], "scoped")
    assert [c.source for c in report.documents if c.status == "removed"] == ["two.md"]
    assert {d.source for d in library.documents("scoped")} == {"one.md"}


def test_a_file_that_cannot_be_read_now_keeps_its_previous_chunks(
    library: Library, tmp_path: Path
) -> None:
    docs = _folder(tmp_path)
    library.ingest([docs], "keep")
    (docs / "ferry.md").write_bytes(b"\x00\x01binary now\x00")
    report = library.ingest([docs], "keep")
    assert [c.status for c in report.documents if c.source == "ferry.md"] == ["skipped"]
    assert report.removed == 0
    assert "ferry.md" in {d.source for d in library.documents("keep")}


def test_collections_documents_and_remove(library: Library, tmp_path: Path) -> None:
    docs = _folder(tmp_path)
    library.ingest([docs], "lib")
    (row,) = [c for c in library.collections() if c.name == "lib"]
    assert (row.documents, row.chunks) == (2, 2)
    assert row.engine == "qdrant edge: sparse" and row.last_ingest
    rows = {d.source: d for d in library.documents("lib")}
    assert rows["ferry.md"].format == "md" and rows["ferry.md"].chunks == 1
    assert rows["ferry.md"].size == (docs / "ferry.md").stat().st_size
    assert library.remove(["ferry.md"], "lib") == {"ferry.md": 1}
    assert {d.source for d in library.documents("lib")} == {"sub/bridge.md"}
    with pytest.raises(UnknownSourceError, match="no document 'ferry.md'"):
        library.remove(["ferry.md"], "lib")


def test_cli_library_commands(offline_services: Any, cli_services: Any, tmp_path: Path) -> None:
    # a vessel of its own: a broadening replan also searches the other tests' collections
    docs = _folder(tmp_path, vessel="Quillon Grebe")
    (docs / "photo.jpg").write_bytes(b"\xff\xd8\xff")  # a notice, exit 0
    cli_services(offline_services)
    report = json.loads(invoke_cli("ingest", str(docs), "--collection", "cli", "--json").stdout)
    assert {d["source"]: d["status"] for d in report["documents"]} == {
        "ferry.md": "added", "sub/bridge.md": "added"
    }
    assert "photo.jpg" in report["notices"][0]["reason"]
    names = [c["name"] for c in json.loads(invoke_cli("collections", "--json").stdout)]
    assert "cli" in names
    listed = json.loads(invoke_cli("documents", "--collection", "cli", "--json").stdout)
    assert [d["source"] for d in listed] == ["ferry.md", "sub/bridge.md"]
    invoke_cli("remove", "ferry.md", "--collection", "cli")
    asked = json.loads(invoke_cli(
        "ask", "How many passengers does the MV Quillon Grebe carry?",
        "--collection", "cli", "--json").stdout)
    assert all(s["source"] != "ferry.md" for s in asked["sources"]), asked
    refused = invoke_cli("remove", "ferry.md", "--collection", "cli", code=2)
    assert "no document 'ferry.md'" in refused.stderr
    unknown = invoke_cli("documents", "--collection", "nope", code=2)
    assert "unknown collection 'nope'" in unknown.stderr and "cli" in unknown.stderr
    assert "pptx" in invoke_cli("ingest", "--help").stdout


def test_grace_app_has_the_library(offline_services: Any, tmp_path: Path) -> None:
    from graph.app import GraceApp

    docs = _folder(tmp_path)
    with GraceApp.open(services=offline_services) as grace:
        library = grace.library()
        assert library.ingest([docs], "app").added == 2
        assert [d.source for d in library.documents("app")] == ["ferry.md", "sub/bridge.md"]
