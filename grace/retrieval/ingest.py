"""Ingestion: documents → located chunks in a collection.

- Markdown, plain text and HTML are read here; PDF, DOCX, PPTX, CSV and XLSX through the converter
  table in :mod:`grace.documents` (each chunk keeps its page / heading path / row in its
  metadata: ``location`` for display plus ``page``, ``heading_path``, ``row``).
- Directories are walked recursively (hidden entries skipped; only supported suffixes are
  taken from directories and the others are reported; a file named explicitly with an
  unknown suffix is read as text). Only regular files are read (devices, FIFOs and sockets
  are skipped with a message), each at most ``max_file_bytes`` (default 100 MB).
- Text is split into paragraphs (blank lines); QA evidence is paragraph-level, so each
  paragraph is one chunk. A heading paragraph is joined to the paragraph after it; a
  paragraph longer than ``chunk_size`` characters is split by langchain-text-splitters'
  ``RecursiveCharacterTextSplitter`` (line, sentence, word boundaries; ``chunk_overlap``).
- Metadata: ``source`` (the path relative to the folder given, e.g. ``a/README.md``; the
  file name for a file given directly — it identifies the document in its collection),
  ``title`` (Markdown: the first ``# `` line; HTML: ``<title>`` or the first ``<h1>``; else
  the file stem), ``chunk_index``.
- Idempotent: point ids are ``uuid5(collection, source, chunk_index, sha256(chunk))``.
  Re-ingesting an unchanged file writes nothing; a changed file's new chunks are written
  and its old chunks deleted.
- Nothing outside the roots you name is read: a link under a folder that resolves outside
  it (file or folder) is skipped and listed, as ``rsync --safe-links`` does; a link inside
  the folder is read; a file named on its own is a root of its own.
- Mirroring (with a :class:`~grace.retrieval.library.LibraryRecord`): re-ingesting a root
  makes the collection mirror it — documents recorded under that root that it no longer
  holds are removed, and each file is reported added / updated / unchanged / removed /
  skipped. A file that is there but cannot be read this time keeps its previous chunks.
- Bad input (missing path, binary file, empty file, undecodable text) becomes one
  :class:`FileProblem` each; the other files are still ingested.
"""

from __future__ import annotations

import hashlib
import re
import stat
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Literal

from langchain_text_splitters import RecursiveCharacterTextSplitter
from pydantic import BaseModel, Field

from grace.documents import CONVERTERS, ConvertError, DocumentLimits, Section, convert
from grace.documents.limits import DEFAULT_LIMITS
from grace.documents.tables import markdown_table
from grace.retrieval.library import DocumentRecord, LibraryRecord
from grace.retrieval.opening import OpenedFile, UnsafeFileError, open_inside
from grace.retrieval.store import CorpusStore
from grace.storage.names import check_collection_name
from grace.text import question_line

__all__ = [
    "SUPPORTED_SUFFIXES",
    "DocumentChange",
    "FileProblem",
    "IngestReport",
    "LoadedDocument",
    "ingest_paths",
    "load_document",
    "split_paragraphs",
]

TEXT_SUFFIXES = frozenset({".md", ".markdown", ".txt", ".text", ".html", ".htm"})
"""Suffixes read as text here (paragraph chunking)."""
SUPPORTED_SUFFIXES = TEXT_SUFFIXES | frozenset(CONVERTERS)
"""Suffixes picked up when walking a directory."""
LINK_LEAVES = "a link that leaves the folder: not read (only files inside the roots you name are)"
"""Why a link under a folder that resolves outside it is skipped."""
MAX_FILE_BYTES = 100_000_000
"""Default per-file size cap: larger files are skipped with a message."""

_NAMESPACE = uuid.UUID("6f1c2d4e-8a3b-5c7d-9e0f-112233445566")
_HEADING_RE = re.compile(r"^\s{0,3}#{1,6}\s+\S")
_TITLE_RE = re.compile(r"^\s{0,3}#\s+(.+?)\s*#*\s*$", re.MULTILINE)
_BLANK_RE = re.compile(r"\n\s*\n")
_TEXT_TITLE_RE = re.compile(r"\A\s*([^\n]{1,120}?)[ \t]*\n[ \t]*\n")
"""A plain-text file's title: its first line, when short and followed by a blank line."""
_SENTENCE_ENDS = tuple(".!?:;,。！？：、")


class FileProblem(BaseModel):
    """A file that could not be ingested, and why."""

    path: str
    """The path as given or found."""
    reason: str
    """Human-readable reason (one line)."""


ChangeStatus = Literal["added", "updated", "unchanged", "removed", "skipped"]


class DocumentChange(BaseModel):
    """What one ingest did to one document."""

    source: str
    """The document's name in the collection (as cited)."""
    path: str
    """The file as found (for ``removed``: where it was)."""
    status: ChangeStatus
    chunks: int = 0
    """Chunks the document has now (0 when removed or skipped)."""
    reason: str = ""
    """Why it was skipped or removed."""


class IngestReport(BaseModel):
    """Summary of one :func:`ingest_paths` call."""

    collection: str = ""
    """Collection written to."""
    files: int = 0
    """Files ingested (read and chunked) successfully."""
    chunks: int = 0
    """Chunks in those files (written now or already present)."""
    written: int = 0
    """Chunks written (new or changed)."""
    deleted: int = 0
    """Stale chunks deleted (from changed and removed files)."""
    added: int = 0
    """Documents new to the collection."""
    updated: int = 0
    """Documents whose chunks changed."""
    unchanged: int = 0
    """Documents already in the collection as they are."""
    removed: int = 0
    """Documents removed: gone from their root, or a link that leaves it."""
    seconds: float = 0.0
    """Wall-clock duration."""
    problems: list[FileProblem] = Field(default_factory=list)
    """Files that were skipped, with reasons (they make the exit status non-zero)."""
    notices: list[FileProblem] = Field(default_factory=list)
    """What was passed over on purpose: a folder's unsupported files (not an error)."""
    documents: list[DocumentChange] = Field(default_factory=list)
    """Per file: added / updated / unchanged / removed / skipped (why)."""

    def count(self, change: DocumentChange) -> None:
        """Add one document's change to the report."""
        self.documents.append(change)
        if change.status != "skipped":
            setattr(self, change.status, getattr(self, change.status) + 1)

    def summary(self) -> str:
        """One line: files, chunks and collection, the count of each change, the seconds."""
        counts = ", ".join(
            f"{getattr(self, s)} {s}" for s in ("added", "updated", "unchanged", "removed")
        )
        files = f"{self.files} file{'' if self.files == 1 else 's'}"
        chunks = f"{self.chunks} chunk{'' if self.chunks == 1 else 's'}"
        return f"{files}, {chunks} into '{self.collection}' ({counts}) in {self.seconds:.2f}s"


class LoadedDocument(BaseModel):
    """A decoded document ready to be chunked."""

    source: str
    title: str
    text: str
    is_markdown: bool = False
    sections: list[Section] = Field(default_factory=list)
    """Located sections from a converter (PDF, DOCX, CSV); empty for text documents."""


class _DocumentLoadError(Exception):
    """A file could not be turned into text (reason in the message)."""


@dataclass
class _Run:
    """One ingest's fixed inputs."""

    store: CorpusStore
    collection: str
    chunk_size: int
    splitter: RecursiveCharacterTextSplitter
    records: LibraryRecord | None
    report: IngestReport
    known: dict[str, set[str]] | None
    limits: DocumentLimits = DEFAULT_LIMITS
    max_file_bytes: int = MAX_FILE_BYTES
    before_write: Callable[[str, int], None] | None = None
    """Told ``(source, bytes of its chunks' text)`` before a file is recorded and written."""
    taken: set[str] = field(default_factory=set)
    """Sources the record holds in the collection (a new document's name must differ)."""


def ingest_paths(
    store: CorpusStore,
    paths: Sequence[Path],
    *,
    collection: str | None = None,
    chunk_size: int = 800,
    chunk_overlap: int = 100,
    progress: bool = False,
    max_file_bytes: int = MAX_FILE_BYTES,
    records: LibraryRecord | None = None,
    engine: str = "",
    limits: DocumentLimits = DEFAULT_LIMITS,
    before_write: Callable[[str, int], None] | None = None,
) -> IngestReport:
    """Ingest files and directories into ``collection`` (default: the store's default).

    Args:
        store: Where the chunks go; the collection is created if needed.
        paths: Files and/or directories (walked recursively); each is a root.
        collection: Target collection name.
        chunk_size: Longest chunk in characters; longer paragraphs are split.
        chunk_overlap: Overlap in characters between pieces of a split paragraph.
        progress: Show a rich progress bar.
        max_file_bytes: Files larger than this are skipped with a message.
        records: The library record; with it each root is mirrored (documents it no
            longer holds are removed) and the collection's documents can be listed.
        engine: What builds the collection (store and vectors), noted in ``records``.
        limits: Per-file caps (uncompressed size, elements, cells, chunks): a file over one
            is skipped with the limit and its setting named.
        before_write: Called with a file's source and the bytes of its chunks' text before
            anything of it is written; an exception there stops the ingest, the files before
            it kept (the library checks the disk's free space here).

    Returns:
        Files, chunks, per-document changes, seconds and the per-file problems.

    """
    start = time.perf_counter()
    name = check_collection_name(store.resolve(collection))
    report = IngestReport(collection=name)
    walk = _expand(paths, report, max_file_bytes)
    if not walk.files and not store.has_collection(name):
        report.seconds = time.perf_counter() - start
        return report  # nothing to read, nothing to mirror: no empty collection is made
    store.ensure_collection(name)
    # Local mode filters by scanning every payload: read the id map once instead of per file.
    known = store.point_ids_by_source(name) if store.is_local else None
    splitter = _splitter(chunk_size, chunk_overlap)
    run = _Run(
        store, name, chunk_size, splitter, records, report, known, limits, max_file_bytes,
        before_write,
    )
    if records is not None:
        run.taken = {r.source for r in records.documents(name)}
    for found in _progress(walk.files, progress):
        _ingest_file(run, found)
    _mirror(run, walk, engine)
    report.seconds = time.perf_counter() - start
    return report


def _mirror(run: _Run, walk: _Walk, engine: str) -> None:
    """Take out what the roots no longer hold: links that now leave, files that are gone."""
    for link in walk.escaping:
        if not _remove_found(run, link, LINK_LEAVES):
            run.report.count(
                DocumentChange(
                    source=link.source, path=str(link.path), status="skipped", reason=LINK_LEAVES
                )
            )
    if run.records is not None:
        for root in walk.walked_roots:
            _mirror_root(run, root, walk.present)
        run.records.touch_collection(run.collection, engine)


def _ingest_file(run: _Run, found: _Found) -> None:
    """Read, chunk and upsert one file, recording it first."""
    report, path, root = run.report, found.path, found.root
    source = _source_of(run, found)
    try:
        with open_inside(path, Path(root), run.max_file_bytes, LINK_LEAVES) as opened:
            doc = load_document(path, source=source, limits=run.limits, opened=opened)
            chunks = _chunk_document(doc, run.chunk_size, run.splitter, run.limits.max_chunks)
            fingerprint = (opened.size, opened.sha256())
    except (_DocumentLoadError, ConvertError, UnsafeFileError) as exc:
        _skip(report, path, source, str(exc))
        return
    except Exception as exc:  # noqa: BLE001 — one bad file never ends the folder's ingest
        _skip(report, path, source, f"could not be read ({type(exc).__name__}: {exc})"[:300])
        return
    if not chunks:
        _skip(report, path, source, "no text to index")
        return
    if run.before_write is not None:
        run.before_write(doc.source, sum(len(text.encode("utf-8")) for text, _ in chunks))
    existing = (
        run.known.get(doc.source, set())
        if run.known is not None
        else run.store.source_point_ids(run.collection, doc.source)
    )
    if run.records is not None:
        recorded = run.records.at(run.collection, found.location)
        root = recorded.root if recorded is not None else root  # the first root keeps it
        run.records.put(
            _record(run.collection, doc.source, (root, found), len(chunks), fingerprint)
        )
        run.taken.add(doc.source)
    written, deleted, ids = _upsert_document(run.store, run.collection, doc, chunks, existing)
    if run.known is not None:
        run.known[doc.source] = ids
    report.files += 1
    report.chunks += len(chunks)
    report.written += written
    report.deleted += deleted
    status: ChangeStatus = (
        "added" if not existing else "updated" if written or deleted else "unchanged"
    )
    report.count(DocumentChange(source=doc.source, path=str(path), status=status,
                                chunks=len(chunks)))


def _skip(report: IngestReport, path: Path, source: str, reason: str) -> None:
    report.problems.append(FileProblem(path=str(path), reason=reason))
    report.count(DocumentChange(source=source, path=str(path), status="skipped", reason=reason))


def _record(
    collection: str,
    source: str,
    where: tuple[str, _Found],
    chunks: int,
    fingerprint: tuple[int, str],
) -> DocumentRecord:
    """The document's record.

    ``where``: its root and the file found; ``fingerprint``: the size and digest of the bytes
    read.
    """
    root, found = where
    size, digest = fingerprint
    return DocumentRecord(
        collection=collection,
        source=source,
        root=root,
        format=found.path.suffix.lower().lstrip(".") or "txt",
        size=size,
        sha256=digest,
        chunks=chunks,
        ingested_at=time.time(),
        relative=found.relative,
        location=found.location,
    )


def _source_of(run: _Run, found: _Found) -> str:
    """The name the file's document has (or gets) in the collection.

    Its record's name when the file was ingested before (through any root); otherwise its
    path in the root, or — when another file holds that name — the root's folder name(s)
    before it (``b/x.md``), so two roots' ``x.md`` stay two documents.
    """
    if run.records is None:
        return found.source
    recorded = run.records.at(run.collection, found.location)
    if recorded is not None:
        return recorded.source
    wanted = found.source
    if wanted not in run.taken:
        return wanted
    parents = [part for part in reversed(Path(found.root).parts[1:])]
    if not found.relative:  # a file named on its own: its root is the file
        parents = parents[1:]
    prefix = ""
    for part in parents:
        prefix = f"{part}/{prefix}" if prefix else part
        if f"{prefix}/{wanted}" not in run.taken:
            return f"{prefix}/{wanted}"
    n = 2
    while f"{wanted} ({n})" in run.taken:
        n += 1
    return f"{wanted} ({n})"


def _remove(run: _Run, source: str, where: str, reason: str) -> bool:
    """Take ``source`` out of the collection (and the record); report it if it was there."""
    removed = run.store.delete_source(run.collection, source)
    recorded = run.records is not None and run.records.get(run.collection, source) is not None
    if run.records is not None:
        run.records.forget(run.collection, source)
    if run.known is not None:
        run.known.pop(source, None)
    if removed or recorded:
        run.report.deleted += removed
        run.report.count(
            DocumentChange(source=source, path=where, status="removed", reason=reason)
        )
        return True
    return False


def _remove_found(run: _Run, link: _Found, reason: str) -> bool:
    """Take the document read from ``link``'s location out (a link that now leaves its root)."""
    if run.records is None:
        return _remove(run, link.source, str(link.path), reason)
    recorded = run.records.at(run.collection, link.location)
    return recorded is not None and _remove(run, recorded.source, str(link.path), reason)


def _mirror_root(run: _Run, root: str, present: set[str]) -> None:
    """Remove the documents located inside ``root`` that the walk did not find there.

    Every recorded document whose file lies inside the folder is mirrored, whichever root it
    was ingested from (``o/sub``'s documents when ``o`` is re-ingested): one that was
    ingested from ``root`` itself and is not found is removed, and one from another root
    (an overlapping or nested one) is removed when its file is gone.
    """
    assert run.records is not None
    folder = Path(root)
    for record in run.records.documents(run.collection):
        if not record.location or record.location in present:
            continue
        location = Path(record.location)
        if not location.is_relative_to(folder):
            continue
        if record.root == root or not location.exists():
            _remove(run, record.source, record.location, "no longer in the folder")


# ---------------------------------------------------------------------- loading


def load_document(
    path: Path,
    source: str | None = None,
    limits: DocumentLimits = DEFAULT_LIMITS,
    *,
    opened: OpenedFile | None = None,
) -> LoadedDocument:
    """Read and decode one file; raise ``_DocumentLoadError`` / ``ConvertError`` with a reason.

    ``source`` is the document's identity in its collection (default: the file name).
    ``opened``: the file as :func:`~grace.retrieval.opening.open_inside` opened it — it is
    read from there (``path`` only names it), so a swap after the check is never read.
    """
    source = source or path.name
    if path.suffix.lower() in CONVERTERS:
        sections = convert(opened.path if opened else path, limits, path.suffix)
        return LoadedDocument(source=source, title=path.stem, text="", sections=sections)
    try:
        data = opened.read_bytes() if opened else path.read_bytes()
    except OSError as exc:
        raise _DocumentLoadError(f"cannot read: {exc.strerror or exc}") from exc
    text = _decode(data)
    suffix = path.suffix.lower()
    if suffix in (".html", ".htm") or (suffix not in SUPPORTED_SUFFIXES and _looks_html(text)):
        title, body = _html_to_text(text)  # its headings as Markdown headings
        return LoadedDocument(source=source, title=title or path.stem, text=body, is_markdown=True)
    if not text.strip():
        raise _DocumentLoadError("empty file")
    is_md = suffix in (".md", ".markdown")
    title, text = (_markdown_title if is_md else _text_title)(text)
    return LoadedDocument(source=source, title=title or path.stem, text=text, is_markdown=is_md)


def _markdown_title(text: str) -> tuple[str, str]:
    """The first ``# Title`` line's title and the text without that line (``""``: none)."""
    match = _TITLE_RE.search(text)
    if not match:
        return "", text
    # The title line is metadata, not a passage.
    return match.group(1).strip(), text[: match.start()] + text[match.end() :]


def _text_title(text: str) -> tuple[str, str]:
    """A plain text's title and the text without it (``""`` and the text: none).

    The title is a first line of at most 120 characters that ends no sentence (no final
    ``.`` ``!`` ``?`` ``:`` …) and is followed by a blank line, as a heading is written.
    """
    match = _TEXT_TITLE_RE.match(text)
    if not match or match.group(1).rstrip().endswith(_SENTENCE_ENDS):
        return "", text
    return match.group(1).strip(), text[match.end() :]


def _decode(data: bytes) -> str:
    if not data.strip():
        raise _DocumentLoadError("empty file")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]  # the UTF-8 byte-order mark; the rest must be UTF-8 like any text
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise _DocumentLoadError("invalid UTF-16 text") from exc
    if b"\x00" in data[:8192]:
        raise _DocumentLoadError("binary file (contains NUL bytes), not text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _DocumentLoadError(
            f"not valid UTF-8 (byte {exc.start}); unknown encoding — convert the file to UTF-8"
        ) from exc


def _looks_html(text: str) -> bool:
    head = text[:1000].lstrip().lower()
    return head.startswith(("<!doctype html", "<html"))


@dataclass
class _HTMLTable:
    """The rows of an HTML ``<table>`` being read: cells, and whether a row is of ``<th>``."""

    rows: list[tuple[list[str], bool]] = field(default_factory=list)
    cell: list[str] | None = None
    depth: int = 1

    def start_row(self) -> None:
        self.rows.append(([], True))

    def start_cell(self, header: bool) -> None:
        if not self.rows:
            self.start_row()
        cells, was_header = self.rows[-1]
        self.rows[-1] = (cells, was_header and header)
        self.cell = []

    def end_cell(self) -> None:
        if self.cell is not None and self.rows:
            self.rows[-1][0].append("".join(self.cell))
        self.cell = None

    def markdown(self) -> str:
        """The table in Markdown (``markdown_table``); a first row of ``<th>`` is its header."""
        header = bool(self.rows) and self.rows[0][1]
        return markdown_table([cells for cells, _ in self.rows], header=header)


class _HTMLText(HTMLParser):
    """Collects visible text by block, the ``<title>`` and the first ``<h1>``."""

    _BLOCKS = frozenset(
        "p div section article header footer li ul ol table tr h1 h2 h3 h4 h5 h6 br "
        "blockquote pre main aside nav dd dt figure figcaption".split()
    )
    _SKIP = frozenset({"script", "style", "noscript", "template", "head"})
    _HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self._current: list[str] = []
        self._skip = 0
        self._in_title = False
        self._in_h1 = False
        self._level = 0  # inside <hN>: its block is written as a Markdown heading
        self.title = ""
        self.h1 = ""
        self._table: _HTMLTable | None = None
        self._items = 0  # inside <li>: its blocks are written as Markdown list items

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._table is not None and self._table_tag(tag, start=True):
            return
        if tag == "title":
            self._in_title = True
        elif tag in self._SKIP:
            self._skip += 1
        if tag in self._BLOCKS:
            self._flush()
        if tag in self._HEADINGS:
            self._level = int(tag[1])
        self._items += tag == "li"
        if tag == "h1" and not self.h1:
            self._in_h1 = True
        if tag == "table":
            self._table = _HTMLTable()

    def _table_tag(self, tag: str, *, start: bool) -> bool:
        """Read a tag inside a table (rows and cells); True when it was the table's."""
        table = self._table
        assert table is not None
        if tag == "table":
            table.depth += 1 if start else -1
            if table.depth == 0:
                self._end_table()
            return True
        if tag == "caption" and not start:
            self._flush()  # the caption, before the table
        elif tag == "br" and table.cell is not None:
            table.cell.append(" ")
            return True
        elif tag == "tr" and start:
            table.end_cell()
            table.start_row()
        elif tag in ("td", "th"):
            table.end_cell()
            if start:
                table.start_cell(header=tag == "th")
        return tag in ("tr", "td", "th", "thead", "tbody", "tfoot")

    def handle_endtag(self, tag: str) -> None:
        if self._table is not None and self._table_tag(tag, start=False):
            return
        if tag == "title":
            self._in_title = False
        elif tag in self._SKIP:
            self._skip = max(0, self._skip - 1)
        if tag in self._BLOCKS:
            self._flush()
        if tag in self._HEADINGS:
            self._level = 0
        if tag == "li":
            self._items = max(0, self._items - 1)
        if tag == "h1":
            self._in_h1 = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
            return
        if self._skip:
            return
        if self._table is not None and self._table.cell is not None:
            self._table.cell.append(data)
            return
        if self._in_h1:
            self.h1 += data
        self._current.append(data)

    def _flush(self) -> None:
        text = " ".join("".join(self._current).split())
        if text:
            mark = f"{'#' * self._level} " if self._level else "- " if self._items else ""
            self.blocks.append(mark + text)
        self._current = []

    def _end_table(self) -> None:
        """Write the table read so far (its last cell may be left unclosed, as HTML allows)."""
        assert self._table is not None
        self._table.end_cell()
        self._flush()  # text in the table outside any cell, before it
        self.blocks.append(self._table.markdown())
        self._table = None

    def close(self) -> None:
        super().close()
        if self._table is not None:  # a table never closed
            self._end_table()
        self._flush()


def _html_to_text(html: str) -> tuple[str, str]:
    parser = _HTMLText()
    parser.feed(html)
    parser.close()
    title = " ".join((parser.title or parser.h1).split())
    blocks = parser.blocks
    if blocks and title and blocks[0] == "# " + " ".join(parser.h1.split()):
        blocks = blocks[1:]  # the h1 is the title
    body = "\n\n".join(blocks)
    if not body.strip():
        raise _DocumentLoadError("HTML without visible text")
    return title, body


# ---------------------------------------------------------------------- chunking


def _splitter(chunk_size: int, chunk_overlap: int) -> RecursiveCharacterTextSplitter:
    return RecursiveCharacterTextSplitter(
        chunk_size=chunk_size,
        chunk_overlap=min(chunk_overlap, max(0, chunk_size // 2)),
        separators=["\n\n", "\n", "。", ". ", "! ", "? ", "; ", "、", ", ", " ", ""],
        keep_separator="end",
    )


def _heading_title(line: str) -> tuple[int, str]:
    """``## Safety ##`` → ``(2, "Safety")``."""
    marks = line.lstrip()
    level = len(marks) - len(marks.lstrip("#"))
    return level, marks[level:].strip().rstrip("#").strip()


def _over_cap(max_chunks: int) -> _DocumentLoadError:
    return _DocumentLoadError(
        f"over {max_chunks:,} chunks, the per-file cap (setting retrieval.max_chunks_per_file)"
    )


def _blocks(text: str) -> Iterator[str]:
    """The text's blank-line separated blocks, one at a time (never a list of them all)."""
    start = 0
    for gap in _BLANK_RE.finditer(text):
        yield text[start : gap.start()]
        start = gap.end()
    yield text[start:]


def split_paragraphs(
    text: str,
    *,
    chunk_size: int = 800,
    chunk_overlap: int = 100,
    splitter: RecursiveCharacterTextSplitter | None = None,
    max_chunks: int | None = None,
) -> list[tuple[str, str]]:
    """Paragraph chunks, each with the heading path it sits under.

    One chunk per paragraph, headings joined to what follows; a paragraph over ``chunk_size``
    is split by ``splitter`` (default: at line, sentence and word boundaries, pieces
    overlapping by ``chunk_overlap``). The path is the Markdown headings in force, outermost
    first: ``Safety > Fire exits``. A paragraph that is one FAQ question line
    (:func:`~grace.text.question_line`: ``Q: …?``, ``**…?**``) is joined to the paragraph
    after it, as a heading is — its answer — but is no heading of the path.
    Past ``max_chunks`` chunks it stops at once (``_DocumentLoadError``): a file of a
    million one-word paragraphs is refused while it is split, not after.
    """
    splitter = splitter or _splitter(chunk_size, chunk_overlap)
    chunks: list[tuple[str, str]] = []
    heading: list[str] = []
    path: list[tuple[int, str]] = []
    cap = max_chunks if max_chunks is not None else float("inf")

    def add(para: str) -> None:
        if len(chunks) + len(para) / chunk_size > cap + 1:  # its pieces alone would pass it
            raise _over_cap(int(cap))
        pieces: list[str] = []
        _add_piece(pieces, para, chunk_size, splitter)
        where = " > ".join(title for _, title in path if title)
        chunks.extend((piece, where) for piece in pieces)
        if len(chunks) > cap:
            raise _over_cap(int(cap))

    for raw in _blocks(text.replace("\r\n", "\n").replace("\r", "\n")):
        para = raw.strip()
        if not para:
            continue
        if _HEADING_RE.match(para) and "\n" not in para:
            heading.append(para)
            level, title = _heading_title(para)
            path[:] = [*(p for p in path if p[0] < level), (level, title)]
            continue
        if "\n" not in para and question_line(para) is not None:
            heading.append(para)  # an FAQ's question line goes with its answer, as a heading
            continue
        if heading:
            para = "\n".join([*heading, para])
            heading = []
        add(para)
    if heading:  # a trailing run of headings: split like any long paragraph
        add("\n".join(heading))
    return chunks


def _add_piece(
    chunks: list[str], para: str, chunk_size: int, splitter: RecursiveCharacterTextSplitter
) -> None:
    """Append ``para`` as one chunk, or split at line, sentence and word boundaries."""
    if len(para) <= chunk_size:
        chunks.append(para)
    else:
        chunks.extend(c.strip() for c in splitter.split_text(para) if c.strip())


_Chunk = tuple[str, dict[str, str | int]]
"""A chunk's text and its location metadata (empty for text documents)."""


def _chunk_document(
    doc: LoadedDocument,
    chunk_size: int,
    splitter: RecursiveCharacterTextSplitter,
    max_chunks: int | None = None,
) -> list[_Chunk]:
    """Paragraph chunks; a converter's sections are chunked one by one and keep their place.

    Stops past ``max_chunks`` (``_DocumentLoadError`` naming the setting).
    """
    if not doc.sections:
        paragraphs = split_paragraphs(
            doc.text, chunk_size=chunk_size, splitter=splitter, max_chunks=max_chunks
        )
        if not doc.is_markdown:  # plain text: no headings to locate by
            return [(chunk, {}) for chunk, _ in paragraphs]
        return [(chunk, _heading_location(where)) for chunk, where in paragraphs]
    chunks: list[_Chunk] = []
    for section in doc.sections:
        located: dict[str, str | int] = dict(section.metadata)
        if section.location:
            located["location"] = section.location
        left = None if max_chunks is None else max_chunks - len(chunks)
        pieces = split_paragraphs(
            section.text, chunk_size=chunk_size, splitter=splitter, max_chunks=left
        )
        chunks.extend((piece, located) for piece, _ in pieces)
    return chunks


def _heading_location(heading_path: str) -> dict[str, str | int]:
    """A chunk's location under ``heading_path``, as DOCX sections carry theirs."""
    if not heading_path:
        return {}
    return {"heading_path": heading_path, "location": f"§ {heading_path}"}


# ---------------------------------------------------------------------- writing


def _point_id(collection: str, source: str, index: int, chunk: str, title: str) -> str:
    """A chunk's point id: a new one when its text or its title (indexed with it) changes."""
    digest = hashlib.sha256(f"{title}\x1f{chunk}".encode()).hexdigest()
    return str(uuid.uuid5(_NAMESPACE, f"{collection}\x1f{source}\x1f{index}\x1f{digest}"))


def _upsert_document(
    store: CorpusStore,
    collection: str,
    doc: LoadedDocument,
    chunks: list[_Chunk],
    existing: set[str],
) -> tuple[int, int, set[str]]:
    ids = [_point_id(collection, doc.source, i, c, doc.title) for i, (c, _) in enumerate(chunks)]
    new = [(i, pid) for i, pid in enumerate(ids) if pid not in existing]
    metadatas: list[dict[str, Any]] = [
        {"source": doc.source, "title": doc.title, "chunk_index": i, **chunks[i][1]} for i, _ in new
    ]
    texts = [chunks[i][0] for i, _ in new]
    store.add_chunks(collection, texts, metadatas, [pid for _, pid in new])
    stale = sorted(existing - set(ids))
    store.delete_points(collection, stale)
    return len(new), len(stale), set(ids)


@dataclass(frozen=True)
class _Found:
    """One file found under a root."""

    path: Path
    """The file as found."""
    source: str
    """Its path relative to the folder given (or its name, named on its own)."""
    root: str
    """The resolved folder (or file) given."""
    relative: str
    """Its path inside ``root`` (``""`` when the file is its own root)."""

    @property
    def location(self) -> str:
        """The file's identity: its root joined with its path inside it."""
        return str(Path(self.root) / self.relative) if self.relative else self.root


@dataclass
class _Walk:
    """What the roots hold: files to read, links that leave a root, and every file found."""

    files: list[_Found] = field(default_factory=list)
    """Each readable file, in order."""
    escaping: list[_Found] = field(default_factory=list)
    """Each link under a folder that resolves outside it."""
    present: set[str] = field(default_factory=set)
    """The location of every supported file found, readable or not."""
    walked_roots: list[str] = field(default_factory=list)
    """The folders walked (resolved): only these are mirrored."""


def _expand(paths: Iterable[Path], report: IngestReport, max_bytes: int) -> _Walk:
    """Files to ingest with their source names (path relative to the folder given)."""
    walk = _Walk()
    seen: set[Path] = set()
    for given in paths:
        path = Path(given)
        if not path.exists():
            report.problems.append(FileProblem(path=str(path), reason="no such file or directory"))
            continue
        root = path.resolve()
        if path.is_dir():
            found = [
                _Found(p, rel, str(root), rel) for p, rel in _walk(path, root, report, walk)
            ]
            walk.walked_roots.append(str(root))
        else:
            found = [_Found(path, path.name, str(root), "")]
        for item in found:
            walk.present.add(item.location)
            reason = _unreadable_reason(item.path, max_bytes)
            if reason:
                _skip(report, item.path, item.source, reason)
                continue
            key = item.path.resolve()
            if key not in seen:
                seen.add(key)
                walk.files.append(item)
    return walk


def _walk(
    top: Path, root: Path, report: IngestReport, walk: _Walk
) -> list[tuple[Path, str]]:
    """Supported files under ``top`` (resolved: ``root``) that stay inside it.

    A link that resolves outside the folder is listed in ``walk.escaping`` (and as a
    problem) and never read; unsupported files are named in one notice.
    """
    found: list[tuple[Path, str]] = []
    unsupported: list[str] = []
    for p in sorted(top.rglob("*")):
        relative = p.relative_to(top)
        if any(part.startswith(".") for part in relative.parts):
            continue
        if p.is_symlink() and not p.resolve().is_relative_to(root):
            rel = relative.as_posix()
            walk.escaping.append(_Found(p, rel, str(root), rel))
            report.notices.append(FileProblem(path=str(p), reason=LINK_LEAVES))
            continue
        if p.is_dir():
            continue
        if p.suffix.lower() in SUPPORTED_SUFFIXES:
            found.append((p, relative.as_posix()))
        else:
            unsupported.append(relative.as_posix())
    found.sort(key=lambda item: item[0].is_symlink())  # a file before a link to it
    if unsupported:
        shown = ", ".join(unsupported[:5]) + (" …" if len(unsupported) > 5 else "")
        report.notices.append(
            FileProblem(
                path=str(top),
                reason=f"{len(unsupported)} unsupported file(s) not read: {shown}",
            )
        )
    return found


_SPECIAL_FILE_KINDS: tuple[tuple[Callable[[int], bool], str], ...] = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)
"""How a path that is not a regular file is named when it is skipped."""


def _unreadable_reason(path: Path, max_bytes: int) -> str:
    """Why ``path`` must not be read (not a regular file, too large), or ``""``."""
    try:
        info = path.stat()
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    if not stat.S_ISREG(info.st_mode):
        kind = next(
            (name for test, name in _SPECIAL_FILE_KINDS if test(info.st_mode)),
            "not a regular file",
        )
        return f"{kind}, only regular files are ingested"
    if info.st_size > max_bytes:
        return (
            f"{info.st_size / 1e6:.1f} MB is over the per-file cap of "
            f"{max_bytes / 1e6:.1f} MB (setting retrieval.max_file_mb)"
        )
    return ""


def _progress(files: list[_Found], enabled: bool) -> Iterator[_Found]:
    if not enabled:
        yield from files
        return
    from rich.progress import Progress

    with Progress(transient=False) as bar:
        task = bar.add_task("Ingesting", total=len(files))
        for found in files:
            bar.update(task, description=f"Ingesting {found.source}")
            yield found
            bar.advance(task)
