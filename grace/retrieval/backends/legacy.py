"""Collections written by earlier GRACE versions (qdrant-client *local mode*) → Qdrant Edge.

Earlier versions kept the embedded store in qdrant-client's local mode: ``meta.json`` and
``collection/<name>/storage.sqlite`` in the store directory. On start, :func:`migrate_local_mode`
finds such files, copies every chunk — text, metadata and point id, so re-ingesting the same
files later stays idempotent — into the Edge store (the sparse vectors are re-encoded), then
moves the old files to ``local-mode-backup/`` next to them. Nothing is deleted: the backup
can be removed once the new store answers as before. It says what it did on the ``grace``
logger (a warning, shown on stderr).
"""

from __future__ import annotations

import json
import logging
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grace.retrieval.backends.common import CONTENT_KEY, METADATA_KEY
from grace.retrieval.store import CorpusStore, StoreBusyError

__all__ = ["BACKUP_DIR", "MigratedCollection", "local_mode_collections", "migrate_local_mode"]

log = logging.getLogger("grace.retrieval")

BACKUP_DIR = "local-mode-backup"
"""Where the old local-mode files go after a migration (inside the store directory)."""
_BATCH = 512


@dataclass(frozen=True)
class MigratedCollection:
    """One collection copied from local mode."""

    name: str
    """Collection name (unchanged)."""
    chunks: int
    """Chunks copied."""


def local_mode_collections(root: Path) -> list[str]:
    """Collections of a qdrant-client local-mode store at ``root`` (empty if there is none)."""
    meta = root / "meta.json"
    if not meta.is_file():
        return []
    try:
        data = json.loads(meta.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    names = set((data.get("collections") or {}).keys())
    coll_dir = root / "collection"
    if coll_dir.is_dir():
        names.update(p.name for p in coll_dir.iterdir() if p.is_dir())
    return sorted(names)


def migrate_local_mode(root: Path, store: CorpusStore) -> list[MigratedCollection]:
    """Copy every local-mode collection at ``root`` into ``store``; back the old files up.

    Raises:
        StoreBusyError: another process has the old store open (an older GRACE still running).

    """
    names = local_mode_collections(root)
    if not names:
        return []
    from qdrant_client import QdrantClient

    try:
        client = QdrantClient(path=str(root))
    except RuntimeError as exc:  # local mode's own file lock
        raise StoreBusyError(
            f"the old document store in {root} is open in another process ({exc}); close "
            "it (an older GRACE still running?) and retry: GRACE then copies it to the new "
            "embedded engine"
        ) from None
    done: list[MigratedCollection] = []
    try:
        for name in names:
            if not client.collection_exists(name):
                continue
            done.append(MigratedCollection(name, _copy(client, name, store)))
    finally:
        client.close()
    _back_up(root)
    for item in done:
        log.warning(
            "GRACE now stores documents in Qdrant Edge: copied collection '%s' (%d chunks) "
            "from the old local-mode store; old files kept in %s (delete when satisfied)",
            item.name,
            item.chunks,
            root / BACKUP_DIR,
        )
    return done


def _copy(client: Any, name: str, store: CorpusStore) -> int:
    copied = 0
    offset: Any = None
    while True:
        points, offset = client.scroll(
            name, limit=_BATCH, offset=offset, with_payload=True, with_vectors=False
        )
        texts, metas, ids = [], [], []
        for p in points:
            payload = p.payload or {}
            texts.append(str(payload.get(CONTENT_KEY, "")))
            metas.append(dict(payload.get(METADATA_KEY) or {}))
            ids.append(str(p.id))
        if texts:
            store.add_chunks(name, texts, metas, ids)
        else:
            store.ensure_collection(name)
        copied += len(texts)
        if offset is None:
            return copied


def _back_up(root: Path) -> None:
    backup = root / BACKUP_DIR
    backup.mkdir(exist_ok=True)
    for entry in ("meta.json", "collection", ".lock"):
        source = root / entry
        if source.exists():
            shutil.move(str(source), str(backup / entry))
