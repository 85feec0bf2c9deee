"""The library record: which document of a collection came from which ingest root.

LangChain's indexing API keeps a *record manager* beside the vector store so that
re-indexing a source with ``cleanup="full"`` deletes what that source no longer holds.
GRACE does the same per ingest root: every document ingested from a folder (or a file named
on its own, a root of its own) is recorded with its root, format, size, content digest,
chunk count and time, in one SQLite file next to the store (``<data_dir>/library.sqlite``).
Re-ingesting a root then removes the documents recorded under it that the root no longer
holds, and ``grace documents`` / ``grace collections`` read the record.

Identity: a document is its file — the root it was ingested from and its path inside that root
(recorded as ``location``, the absolute path). Its ``source`` (the name cited and listed) is
the relative path, unique in the collection: a second root's ``x.md`` beside the first's is
cited as ``b/x.md`` (the root's folder name first), so neither replaces the other. The same
file reached through overlapping roots (``o/`` and ``o/sub/``) is one document; re-ingesting a
folder mirrors every recorded document located inside it. Records written before locations
were recorded are migrated when the record is opened (``location`` = root + source), and no
chunk in the store changes.

Crash safety: a document's row is written *before* its chunks, so a process killed in
between leaves a row whose chunks are missing (the next ingest writes them), never chunks
no row points at. Documents ingested before the record existed (or into a store shared by
several machines, each with its own record) have no row: they are listed with an unknown
root, and only ``grace remove`` takes them out.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from grace.errors import StorageError
from grace.retrieval.store import CorpusStore
from grace.storage.faults import explain, storage_faults

__all__ = [
    "CollectionSummary",
    "DocumentRecord",
    "LibraryRecord",
    "UnknownSourceError",
    "list_collections",
    "list_documents",
    "remove_documents",
]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    collection TEXT NOT NULL,
    source TEXT NOT NULL,
    root TEXT NOT NULL,
    format TEXT NOT NULL,
    size INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    chunks INTEGER NOT NULL,
    ingested_at REAL NOT NULL,
    relative TEXT,
    location TEXT,
    PRIMARY KEY (collection, source)
);
CREATE TABLE IF NOT EXISTS collections (
    name TEXT PRIMARY KEY,
    engine TEXT NOT NULL,
    last_ingest REAL NOT NULL
);
"""


@dataclass(frozen=True)
class DocumentRecord:
    """One ingested document, as recorded."""

    collection: str
    source: str
    """The document's name in its collection, as cited (path relative to its root)."""
    root: str
    """The resolved folder (or file) it was ingested from."""
    format: str
    """File suffix without the dot (``pdf``, ``md`` …)."""
    size: int
    """File size in bytes when ingested."""
    sha256: str
    """Digest of the file's bytes when ingested."""
    chunks: int
    ingested_at: float
    """Unix time of the ingest that last wrote it."""
    relative: str = ""
    """Its path inside ``root`` (``""`` for a file named on its own)."""
    location: str = ""
    """The file it was read from (``root`` joined with ``relative``): its identity."""


class LibraryRecord:
    """The SQLite record of ingested documents (one file, shared by every collection)."""

    def __init__(self, path: Path) -> None:
        """Open (creating) the record at ``path``.

        Raises:
            StorageError: the file is damaged, not a file, read-only or on a full disk (one
                line naming it and what to do).

        """
        self.path = path
        with storage_faults("cannot use the library record", path, (OSError,)):
            path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_dir():
            raise StorageError(
                f"cannot use the library record {path}: a directory stands where the file "
                "belongs — move it aside; GRACE creates the record again (documents ingested "
                "so far stay in the store, listed with an unknown root)"
            )
        with self._connect() as db:
            db.executescript(_SCHEMA)
            _migrate(db)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """A connection in a transaction; SQLite's faults become one-line StorageErrors."""
        try:
            db = sqlite3.connect(self.path, timeout=30)
            try:
                with db:
                    yield db
            finally:
                db.close()
        except sqlite3.Error as exc:
            raise explain(
                "cannot use the library record",
                self.path,
                exc,
                damaged="the file is damaged: move it aside and GRACE creates it again "
                "(the documents stay in the store, listed with an unknown root until they are "
                "ingested again)",
            ) from exc

    def get(self, collection: str, source: str) -> DocumentRecord | None:
        """The record of one document, or ``None``."""
        return self._one("source", collection, source)

    def at(self, collection: str, location: str) -> DocumentRecord | None:
        """The document of ``collection`` read from the file ``location``, or ``None``."""
        return self._one("location", collection, location)

    def _one(self, column: str, collection: str, value: str) -> DocumentRecord | None:
        with self._connect() as db:
            row = db.execute(
                f"SELECT * FROM documents WHERE collection = ? AND {column} = ?",  # noqa: S608
                (collection, value),
            ).fetchone()
        return _row(row) if row else None

    def put(self, record: DocumentRecord) -> None:
        """Record (or re-record) a document; written before its chunks."""
        with self._connect() as db:
            db.execute(
                "INSERT OR REPLACE INTO documents VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    record.collection,
                    record.source,
                    record.root,
                    record.format,
                    record.size,
                    record.sha256,
                    record.chunks,
                    record.ingested_at,
                    record.relative,
                    record.location,
                ),
            )

    def forget(self, collection: str, source: str) -> None:
        """Drop a document's record (after its chunks left the store)."""
        with self._connect() as db:
            db.execute(
                "DELETE FROM documents WHERE collection = ? AND source = ?", (collection, source)
            )

    def documents(self, collection: str | None = None) -> list[DocumentRecord]:
        """Every recorded document (of one collection, or of all), by collection and source."""
        query = "SELECT * FROM documents"
        args: tuple[str, ...] = ()
        if collection is not None:
            query += " WHERE collection = ?"
            args = (collection,)
        with self._connect() as db:
            rows = db.execute(query + " ORDER BY collection, source", args).fetchall()
        return [_row(row) for row in rows]

    def touch_collection(self, name: str, engine: str) -> None:
        """Note an ingest into ``name`` now, with the engine that built it."""
        with self._connect() as db:
            db.execute(
                "INSERT OR REPLACE INTO collections VALUES (?, ?, ?)", (name, engine, time.time())
            )

    def collection_info(self, name: str) -> tuple[str, float] | None:
        """``(engine, last ingest time)`` of a collection, or ``None`` if never recorded."""
        with self._connect() as db:
            row = db.execute(
                "SELECT engine, last_ingest FROM collections WHERE name = ?", (name,)
            ).fetchone()
        return (str(row[0]), float(row[1])) if row else None



def _row(row: tuple[Any, ...]) -> DocumentRecord:
    """A record from its row (a row an older GRACE wrote has no location: ``""``)."""
    collection, source, root, fmt, size, sha256, chunks, ingested_at, relative, location = row
    return DocumentRecord(
        collection, source, root, fmt, size, sha256, chunks, ingested_at,
        relative=relative or "", location=location or "",
    )


def _migrate(db: sqlite3.Connection) -> None:
    """Add ``relative`` and ``location`` to a record written before them (nothing is lost).

    Each old row's file is its root joined with its source (a folder root), or the root
    itself (a file named on its own); rows without a root stay unlocated.
    """
    columns = {row[1] for row in db.execute("PRAGMA table_info(documents)")}
    for column in ("relative", "location"):
        if column not in columns:
            db.execute(f"ALTER TABLE documents ADD COLUMN {column} TEXT")
    rows = db.execute(
        "SELECT collection, source, root FROM documents WHERE location IS NULL"
    ).fetchall()
    for collection, source, root in rows:
        folder = bool(root) and Path(root).is_dir()
        location = str(Path(root) / source) if folder else root
        db.execute(
            "UPDATE documents SET relative = ?, location = ? WHERE collection = ? AND source = ?",
            (source if folder else "", location, collection, source),
        )


@dataclass(frozen=True)
class CollectionSummary:
    """One collection of the store, with what the record knows of it."""

    name: str
    documents: int
    """Documents (distinct sources) in the store."""
    chunks: int
    engine: str
    """What built it (``qdrant edge: sparse`` …), or ``""`` if never recorded."""
    last_ingest: float | None
    """Unix time of the last recorded ingest."""


class UnknownSourceError(LookupError):
    """``grace remove`` named a document the collection does not hold."""


def list_documents(
    store: CorpusStore, records: LibraryRecord, collection: str
) -> list[DocumentRecord]:
    """Every document of ``collection``: its record, or an unrecorded row for older ones."""
    recorded = {r.source: r for r in records.documents(collection)}
    chunks = {source: len(ids) for source, ids in store.point_ids_by_source(collection).items()}
    rows = []
    for source in sorted(set(chunks) | set(recorded)):
        record = recorded.get(source)
        if record is None:
            suffix = Path(source).suffix.lower().lstrip(".")
            record = DocumentRecord(collection, source, "", suffix, 0, "", 0, 0.0)
        rows.append(replace(record, chunks=chunks.get(source, 0)))
    return rows


def list_collections(store: CorpusStore, records: LibraryRecord) -> list[CollectionSummary]:
    """Every collection of the store with its documents, chunks, engine and last ingest."""
    rows = []
    for name in sorted(store.list_collections()):
        by_source = store.point_ids_by_source(name)
        engine, last = records.collection_info(name) or ("", None)
        rows.append(
            CollectionSummary(
                name=name,
                documents=len(by_source),
                chunks=sum(len(ids) for ids in by_source.values()),
                engine=engine,
                last_ingest=last,
            )
        )
    return rows


def _resolve_source(records: LibraryRecord, collection: str, held: set[str], name: str) -> str:
    """The source ``name`` means: a source, the path you ingested, or a root-relative name.

    Raises:
        UnknownSourceError: no document matches, or several do (they are listed).

    """
    if name in held:
        return name
    documents = records.documents(collection)
    location = str(Path(name).expanduser().resolve())
    by_location = [r.source for r in documents if r.location == location]
    if by_location:
        return by_location[0]
    relative = Path(name).as_posix()
    matches = sorted(r.source for r in documents if r.relative == relative)
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise UnknownSourceError(
            f"'{name}' matches several documents of '{collection}': "
            f"{', '.join(map(repr, matches))} — name one as listed"
        )
    raise UnknownSourceError(
        f"collection '{collection}' holds no document {name!r} (see `grace documents`)"
    )


def remove_documents(
    store: CorpusStore, records: LibraryRecord, collection: str, sources: list[str]
) -> dict[str, int]:
    """Remove documents (their chunks leave the store); chunks removed per source.

    Each name is a source as listed, the path of the file you ingested (``docs/menu.csv``),
    or its path inside the folder you ingested (when one document has it).

    Raises:
        UnknownSourceError: a name no document (or several) matches; nothing is removed.

    """
    held = set(store.list_sources(collection)) | {r.source for r in records.documents(collection)}
    targets = [_resolve_source(records, collection, held, name) for name in sources]
    removed = {}
    for source in dict.fromkeys(targets):
        removed[source] = store.delete_source(collection, source)
        records.forget(collection, source)
    store.flush()
    return removed
