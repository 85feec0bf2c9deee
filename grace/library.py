"""Your library: ingest, list and remove documents — one facade for the CLI and notebooks.

``grace ingest`` / ``collections`` / ``documents`` / ``remove`` and
:meth:`graph.app.GraceApp.library` both use :class:`Library`, so the two cannot drift apart.
The record of what came from where is :class:`grace.retrieval.library.LibraryRecord`
(``<data_dir>/library.sqlite``).
"""

from __future__ import annotations

import contextlib
import errno
from collections.abc import Callable, Sequence
from pathlib import Path

from grace.documents import DocumentLimits
from grace.errors import StorageError
from grace.retrieval.ingest import TEXT_SUFFIXES, IngestReport, ingest_paths
from grace.retrieval.library import (
    CollectionSummary,
    DocumentRecord,
    LibraryRecord,
    list_collections,
    list_documents,
    remove_documents,
)
from grace.retrieval.store import CorpusStore
from grace.settings import GraceSettings
from grace.storage.faults import STORE_BYTES_PER_TEXT_BYTE, ensure_free_space, explain

__all__ = ["Library"]


def _store_bytes(paths: Sequence[Path]) -> int:
    """What the store will take for ``paths``, as far as can be told before reading them.

    Text files become about as much text as their size (times
    :data:`~grace.storage.faults.STORE_BYTES_PER_TEXT_BYTE`); a converted file (PDF, Office)
    counts its size once — its text is known only once converted, and each file is checked
    again then (:meth:`Library.ingest`). Links and unreadable entries count 0.
    """
    total = 0
    for path in paths:
        files = [path] if path.is_file() else [p for p in Path(path).rglob("*") if p.is_file()]
        for file in files:
            factor = STORE_BYTES_PER_TEXT_BYTE if file.suffix.lower() in _TEXT else 1
            with contextlib.suppress(OSError):
                total += factor * file.stat().st_size
    return total


_TEXT = TEXT_SUFFIXES | {".csv"}


def _out_of_space(exc: BaseException) -> bool:
    """Whether ``exc`` says the disk is full (ENOSPC, or the store's "not enough space")."""
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        return True
    text = str(exc).lower()
    return "no space left" in text or "not enough space" in text


class Library:
    """The documents of a store's collections, with the record of where each came from."""

    def __init__(self, store: CorpusStore, settings: GraceSettings) -> None:
        """Use ``store`` with the record and ingest settings of ``settings``."""
        self.store = store
        self.settings = settings
        self.records = LibraryRecord(settings.library_path)

    def _name(self, collection: str | None) -> str:
        return collection or self.settings.retrieval.collection

    def ingest(
        self, paths: Sequence[Path], collection: str | None = None, *, progress: bool = False
    ) -> IngestReport:
        """Ingest files and folders; re-ingesting a folder makes the collection mirror it.

        Raises:
            StorageError: the data directory's disk cannot hold the files — checked first
                from their sizes, and again before each file is written from its text (the
                store writes through memory-mapped files: a full disk would kill the process
                with SIGBUS). Stopped midway, the files before are kept.

        """
        where = self.settings.qdrant_path
        edge = self.settings.store_backend() == "edge"
        if edge:
            ensure_free_space(where, _store_bytes(paths), "ingest")

        def room(source: str, text_bytes: int) -> None:
            needed = STORE_BYTES_PER_TEXT_BYTE * text_bytes
            ensure_free_space(where, needed, f"ingest {source} (the files before it are in)")

        try:
            return self._ingest(paths, collection, progress, room if edge else None)
        except StorageError:
            raise
        except Exception as exc:
            if not _out_of_space(exc):
                raise
            # The store's own "not enough space" (past the estimate): one line, files kept.
            raise explain("cannot ingest into", where, exc) from exc
        finally:
            self.store.flush()

    def _ingest(
        self,
        paths: Sequence[Path],
        collection: str | None,
        progress: bool,
        before_write: Callable[[str, int], None] | None,
    ) -> IngestReport:
        retrieval = self.settings.retrieval
        return ingest_paths(
            self.store,
            paths,
            collection=self._name(collection),
            chunk_size=retrieval.chunk_size,
            chunk_overlap=retrieval.chunk_overlap,
            progress=progress,
            max_file_bytes=int(retrieval.max_file_mb * 1_000_000),
            records=self.records,
            engine=self.settings.index_engine(),
            limits=DocumentLimits(
                max_uncompressed_mb=retrieval.max_uncompressed_mb,
                max_elements=retrieval.max_elements_per_file,
                max_cells=retrieval.max_cells_per_file,
                max_chunks=retrieval.max_chunks_per_file,
            ),
            before_write=before_write,
        )

    def collections(self) -> list[CollectionSummary]:
        """Each collection: documents, chunks, engine, last ingest."""
        return list_collections(self.store, self.records)

    def documents(self, collection: str | None = None) -> list[DocumentRecord]:
        """Each document of a collection (source as cited, format, chunks, size, when)."""
        return list_documents(self.store, self.records, self._name(collection))

    def remove(self, sources: Sequence[str], collection: str | None = None) -> dict[str, int]:
        """Remove documents by source; chunks removed per source (UnknownSourceError)."""
        return remove_documents(self.store, self.records, self._name(collection), list(sources))
