"""The page's logic without Streamlit: errors as one line, rows to show, uploads, passages.

Everything here reads the same :class:`~graph.app.GraceApp` and library the CLI uses; the
Streamlit modules only lay it out, so what the page shows is tested here without a browser.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from langchain_core.messages import AnyMessage, HumanMessage
from langchain_core.runnables import RunnableConfig

from grace.errors import (
    InvalidCollectionError,
    ModelSetupError,
    ModelUnavailableError,
    ModelUnreachableError,
    SettingsError,
    StorageError,
    StoreBusyError,
    ThreadBusyError,
)
from grace.hitl.request import InvalidHumanResponseError
from grace.retrieval.ingest import IngestReport
from grace.retrieval.library import DocumentRecord, UnknownSourceError
from grace.schemas import Source
from grace.storage.names import check_collection_name
from grace.storage.transcript import full_transcript
from graph.app import (
    GraceApp,
    ThreadNotIncompleteError,
    ThreadNotPausedError,
    ThreadPausedError,
    ThreadSummary,
    UnknownThreadError,
)
from graph.evaluation.dataset import DatasetError
from graph.views.outcome import RunView, conf, when
from nodes.common import InvalidQuestionError

__all__ = [
    "NO_COLLECTION",
    "STATUS_LABEL",
    "UploadError",
    "breakdown_rows",
    "change_rows",
    "collection_choice",
    "document_rows",
    "error_message",
    "guarded",
    "merge_reports",
    "notice_lines",
    "passages",
    "plain",
    "quote",
    "save_uploads",
    "step_rows",
    "thread_label",
    "transcript",
    "upload_dir",
    "uploaded_copies",
]

log = logging.getLogger(__name__)
T = TypeVar("T")

NO_COLLECTION = "(any: the planner chooses)"
"""The collection picker's first entry: no collection named, the settings' and planner's."""

STATUS_LABEL = {"completed": "completed", "interrupted": "paused", "incomplete": "incomplete"}
"""A thread's status in the page's words (``interrupted`` is a pause waiting for you)."""

_STATUS_MARK = {
    "completed": ":material/check_circle:",
    "interrupted": ":material/pause_circle:",
    "incomplete": ":material/hourglass_empty:",
}
"""Each status's icon (Material Symbols: Streamlit serves the font itself, offline)."""

_KNOWN: tuple[type[Exception], ...] = (
    SettingsError,
    InvalidCollectionError,
    StorageError,
    ModelSetupError,
    ModelUnavailableError,
    StoreBusyError,
    ThreadBusyError,
    InvalidQuestionError,
    ThreadPausedError,
    ThreadNotPausedError,
    ThreadNotIncompleteError,
    UnknownThreadError,
    InvalidHumanResponseError,
    UnknownSourceError,
    DatasetError,
)
"""Errors whose message is written for the user (as the CLI prints them)."""


class UploadError(ValueError):
    """An uploaded file cannot be kept (a name that is not a plain file name)."""


def error_message(exc: Exception, thread_id: str | None = None) -> str:
    """The one line the page shows for ``exc`` (never a traceback).

    A model that cannot be reached keeps the thread: the line says how to run it on. An error
    GRACE does not know is logged with its traceback on the server and named in one line.
    """
    if isinstance(exc, ModelUnreachableError):
        kept = f" Thread {thread_id} is kept: “Run on” continues it" if thread_id else ""
        return f"{exc}.{kept} once the model answers."
    if isinstance(exc, SettingsError):
        return f"{exc} — fix the file or variable (see docs/configuration.md)."
    if isinstance(exc, (*_KNOWN, UploadError)):
        return str(exc)
    log.error("unexpected error in the page", exc_info=exc)
    return f"unexpected error ({type(exc).__name__}): {exc} — the server log has the details."


def plain(text: str) -> str:
    """``text`` as Markdown that shows its characters as written (as the CLI prints it)."""
    escaped = "".join("\\" + c if c in "\\`*_{}[]<>()#+-.!|~$:" else c for c in text)
    return escaped.replace("\n", "  \n")  # a line break stays a line break


def quote(text: str) -> str:
    """``text`` as a Markdown block quote whose characters show as written."""
    return "\n".join("> " + plain(line) for line in text.splitlines() or [""])


def guarded(
    call: Callable[[], T], show: Callable[[str], Any], thread_id: str | None = None
) -> T | None:
    """``call()``, or ``None`` after ``show(message)`` when it raises (one line, no traceback)."""
    try:
        return call()
    except Exception as exc:  # noqa: BLE001 - the page shows one line for every error
        show(error_message(exc, thread_id))
        return None


def collection_choice(choice: str | None) -> str | None:
    """The collection a run searches: ``None`` for :data:`NO_COLLECTION` (the default)."""
    return None if choice in (None, NO_COLLECTION) else choice


def thread_label(row: ThreadSummary, width: int = 44) -> str:
    """A thread list entry: status mark, question (cut to ``width``), status word."""
    query = " ".join(row.query.split()) or "(no question yet)"
    if len(query) > width:
        query = query[: width - 1] + "…"
    mark = _STATUS_MARK.get(row.status, ":material/help:")
    status = STATUS_LABEL.get(row.status, row.status)
    return f"{mark} {plain(query)} · {status}"


def step_rows(view: RunView) -> list[dict[str, Any]]:
    """The live table of a run so far (the CLI's :class:`RunView`), one row per step."""
    return [
        {
            "step": r.step_id,
            "action": r.action,
            "query": r.query,
            "status": r.status + (f" ({r.ms:.0f} ms)" if r.ms is not None else ""),
            "confidence": conf(r.confidence),
            "level": (r.level or "–").upper() + (f" ← {r.note}" if r.note else ""),
        }
        for r in view.rows.values()
    ]


def notice_lines(view: RunView) -> list[str]:
    """The run's notices, replans, quality gates and pauses so far, as plain lines."""
    return [text.plain for text in view.notices]


def breakdown_rows(history: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``grace show``'s steps: status, confidence and the factors and penalties behind it."""
    rows = []
    for step in history.get("steps", []):
        score = step.get("score") or {}
        parts = [f"{k} {v:.2f}" for k, v in (score.get("breakdown") or {}).items()]
        parts += [f"−{k} {v:.2f}" for k, v in (score.get("penalties") or {}).items()]
        rows.append(
            {
                "step": step["step_id"],
                "action": step["action"],
                "status": step["status"],
                "confidence": conf(step.get("confidence")),
                "breakdown": ", ".join(parts),
            }
        )
    return rows


def _config(thread_id: str) -> RunnableConfig:
    return {"configurable": {"thread_id": thread_id}}


def passages(grace: GraceApp, thread_id: str) -> list[Source]:
    """The passages the thread's answer cites — or, while it is paused, those of its draft.

    :class:`~graph.app.RunOutcome` lists the sources without their text; the passages are
    read from the thread's state (the same checkpoint ``grace show`` reads).
    """
    snapshot = grace.graph.get_state(_config(thread_id))
    values = snapshot.values
    if snapshot.interrupts:
        request = snapshot.interrupts[0].value
        result = (values.get("results") or {}).get(request.get("step_id"))
        return list(getattr(result, "sources", []))
    return list(values.get("sources", []))


def transcript(grace: GraceApp, thread_id: str) -> list[AnyMessage]:
    """The thread's earlier turns: its messages before the latest question (store and state)."""
    in_state = grace.graph.get_state(_config(thread_id)).values.get("messages", [])
    messages = full_transcript(grace.store, thread_id, in_state)
    last = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage)), default=0)
    return messages[:last]


def document_rows(rows: Iterable[DocumentRecord]) -> list[dict[str, Any]]:
    """``grace documents``' table: source as cited, format, chunks, size, when ingested."""
    return [
        {
            "source": row.source,
            "format": row.format,
            "chunks": row.chunks,
            "size": f"{row.size / 1000:.1f} kB" if row.size else "—",
            "ingested": when(row.ingested_at),
        }
        for row in rows
    ]


def upload_dir(data_dir: Path, collection: str) -> Path:
    """Where the page keeps the files uploaded to ``collection`` (under the data directory)."""
    return data_dir / "uploads" / collection


_PLAIN_NAME = re.compile(r"^[^/\\\x00]+$")


def save_uploads(data_dir: Path, collection: str, files: Sequence[tuple[str, bytes]]) -> list[Path]:
    """Keep uploaded ``(name, bytes)`` files for ingesting; their paths.

    Each is kept as ``uploads/<collection>/<name>``, so its source (as cited) is its name and
    uploading it again updates the same document.

    Raises:
        UploadError: a name that is not a plain file name (a path, ``..``, a hidden file).
        InvalidCollectionError: a collection name outside the allowed pattern.

    """
    folder = upload_dir(data_dir, check_collection_name(collection))
    paths = []
    for name, data in files:
        if not _PLAIN_NAME.match(name) or name.startswith("."):
            raise UploadError(f"cannot keep an upload named {name!r}: not a plain file name")
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / name
        path.write_bytes(data)
        paths.append(path)
    return paths


def uploaded_copies(
    data_dir: Path, collection: str, records: Iterable[DocumentRecord], sources: Iterable[str]
) -> list[Path]:
    """The page's kept uploads of ``sources`` (to delete with the documents)."""
    folder = upload_dir(data_dir, collection).resolve()
    wanted = set(sources)
    roots = [Path(r.root) for r in records if r.source in wanted and r.root]
    return [root for root in roots if root.parent == folder]


_COUNTS = ("files", "chunks", "written", "deleted", "added", "updated", "unchanged", "removed")


def merge_reports(reports: Sequence[IngestReport]) -> IngestReport:
    """One report of several ingests into one collection (the page ingests a file at a time)."""
    merged = IngestReport(collection=reports[0].collection if reports else "")
    for report in reports:
        for name in _COUNTS:
            setattr(merged, name, getattr(merged, name) + getattr(report, name))
        merged.seconds += report.seconds
        merged.problems += report.problems
        merged.notices += report.notices
        merged.documents += report.documents
    return merged


def change_rows(report: IngestReport) -> list[dict[str, Any]]:
    """The per-file report: each document added / updated / unchanged / removed / skipped."""
    return [
        {"source": c.source, "status": c.status, "chunks": c.chunks, "reason": c.reason}
        for c in report.documents
    ]
