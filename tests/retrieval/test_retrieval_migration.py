"""A data directory written by earlier GRACE (qdrant-client local mode) is migrated to Edge."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from qdrant_client import QdrantClient

from grace.retrieval import StoreBusyError, StoreOptions, ingest_paths, open_store
from grace.retrieval.backends.legacy import BACKUP_DIR, local_mode_collections
from grace.retrieval.backends.server import ServerStore


def _write_local_mode(root: Path, corpus_dir: Path) -> dict[str, dict[str, set[str]]]:
    """Ingest like GRACE did before: langchain-qdrant on a local-mode client at ``root``."""
    with ServerStore(client=QdrantClient(path=str(root))) as old:
        ingest_paths(old, [corpus_dir], collection="grace")
        ingest_paths(old, [corpus_dir / "warsaw.md"], collection="cities")
        return {name: old.point_ids_by_source(name) for name in ("grace", "cities")}


def test_local_mode_collections_are_copied_and_backed_up(
    tmp_path: Path, corpus_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = tmp_path / "qdrant"
    before = _write_local_mode(root, corpus_dir)
    assert local_mode_collections(root) == ["cities", "grace"]

    with caplog.at_level(logging.WARNING, logger="grace.retrieval"):
        store = open_store("edge", StoreOptions(path=root))
    with store:
        messages = " ".join(r.getMessage() for r in caplog.records)
        assert "copied collection 'grace' (7 chunks)" in messages
        assert "copied collection 'cities' (2 chunks)" in messages
        assert str(root / BACKUP_DIR) in messages
        assert store.list_collections() == ["cities", "grace"]
        assert {n: store.point_ids_by_source(n) for n in ("grace", "cities")} == before
        hit = store.search("豪雨となりやすいのは梅雨のいつごろか？", collection="grace").hits[0]
        assert hit.source == "ja-tsuyu.md" and "末期" in hit.text
        assert store.search("Vistula", collection="cities").hits[0].source == "warsaw.md"
        # Same point ids as before: re-ingesting the same files writes nothing.
        assert ingest_paths(store, [corpus_dir], collection="grace").written == 0

    # The old files are kept, out of the way; a second start migrates nothing again.
    assert local_mode_collections(root) == []
    assert local_mode_collections(root / BACKUP_DIR) == ["cities", "grace"]
    caplog.clear()
    with (
        caplog.at_level(logging.WARNING, logger="grace.retrieval"),
        open_store("edge", StoreOptions(path=root)) as again,
    ):
        assert again.count("grace") == 7
    assert not caplog.records


def test_old_store_still_open_elsewhere_is_a_clear_error(tmp_path: Path, corpus_dir: Path) -> None:
    root = tmp_path / "qdrant"
    _write_local_mode(root, corpus_dir)
    holder = QdrantClient(path=str(root))  # an older GRACE still running
    try:
        with pytest.raises(StoreBusyError, match="open in another process"):
            open_store("edge", StoreOptions(path=root))
    finally:
        holder.close()
    assert local_mode_collections(root) == ["cities", "grace"]  # untouched
    with open_store("edge", StoreOptions(path=root)) as store:
        assert store.count("grace") == 7


def test_services_start_on_a_migrated_data_dir(
    tmp_path: Path, corpus_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from grace.services import build_services
    from grace.settings import GraceSettings

    data = tmp_path / "data"
    before = _write_local_mode(data / "qdrant", corpus_dir)
    services = build_services(GraceSettings(data_dir=data))
    try:
        # The user's collection came over; the sample corpus was not ingested on top of it.
        assert services.store.point_ids_by_source("grace") == before["grace"]
        result = services.store.search("Watt separate condenser", k=1)
        assert result.hits[0].source == "steam-engine.md"
    finally:
        services.close()
