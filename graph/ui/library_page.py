"""The library page: collections and their documents; upload, ingest a folder, remove."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from grace.library import Library
from grace.retrieval.ingest import SUPPORTED_SUFFIXES, IngestReport
from graph.ui import widgets
from graph.ui.session import (
    change_rows,
    document_rows,
    error_message,
    merge_reports,
    save_uploads,
    uploaded_copies,
)
from graph.views.outcome import when

__all__ = ["library_page"]

_NEW = "+ a new collection"


def _collections(library: Library) -> list[str]:
    rows = library.collections()
    st.table(
        [
            {
                "collection": r.name,
                "documents": r.documents,
                "chunks": r.chunks,
                "last ingest": when(r.last_ingest),
                "engine": r.engine or "—",
            }
            for r in rows
        ],
        hide_index=True,
    )
    return [r.name for r in rows]


def _target(library: Library, names: list[str]) -> str | None:
    default = library.settings.retrieval.collection
    options = [*names, _NEW] if default in names else [default, *names, _NEW]
    chosen = st.selectbox("Collection", options, key="library-collection")
    if chosen != _NEW:
        return str(chosen)
    name = st.text_input("New collection's name", placeholder="letters, digits, - and _")
    return name.strip() or None


def _report(report: IngestReport) -> None:
    """The per-file report of the last ingest: summary, each file's change, what was skipped."""
    kind = "warning" if report.problems else "success"
    widgets.say(kind, report.summary())
    for problem in report.problems:
        widgets.say("warning", f"skipped {problem.path}: {problem.reason}")
    for notice in report.notices:
        widgets.say("info", f"{notice.path}: {notice.reason}")
    if report.documents:
        st.table(change_rows(report), hide_index=True)


def _ingest_uploads(library: Library, collection: str) -> None:
    round_ = st.session_state.setdefault("upload-round", 0)
    files = st.file_uploader(
        "Files to add",
        type=sorted(s.lstrip(".") for s in SUPPORTED_SUFFIXES),
        accept_multiple_files=True,
        key=f"upload-{round_}",
    )
    if not st.button("Ingest the files", disabled=not files, type="primary"):
        return
    paths = save_uploads(
        library.settings.data_dir, collection, [(f.name, f.getvalue()) for f in files or []]
    )
    bar = st.progress(0.0, text="ingesting …")
    reports = []
    for done, path in enumerate(paths, start=1):
        reports.append(library.ingest([path], collection))
        bar.progress(done / len(paths), text=f"ingested {path.name} ({done}/{len(paths)})")
    st.session_state["ingest-report"] = merge_reports(reports)
    st.session_state["upload-round"] = round_ + 1  # an empty uploader for the next files
    st.rerun()


def _ingest_folder(library: Library, collection: str) -> None:
    folder = st.text_input(
        "Folder on this machine",
        placeholder="/path/to/documents",
        help="Ingested as `grace ingest FOLDER`: the collection mirrors the folder "
        "(files gone from it are removed).",
    )
    if st.button("Ingest the folder", disabled=not folder.strip()):
        with st.spinner(f"ingesting {folder} …"):
            st.session_state["ingest-report"] = library.ingest(
                [Path(folder.strip()).expanduser()], collection
            )
        st.rerun()


def _documents(library: Library, collection: str, names: list[str]) -> None:
    if collection not in names:
        st.caption(f"collection '{collection}' holds no documents yet")
        return
    records = library.documents(collection)
    st.table(document_rows(records), hide_index=True)
    chosen = st.multiselect("Documents to remove", [r.source for r in records])
    if st.button("Remove", disabled=not chosen):
        copies = uploaded_copies(library.settings.data_dir, collection, records, chosen)
        removed = library.remove(chosen, collection)
        for copy in copies:
            copy.unlink(missing_ok=True)
        lines = ", ".join(f"{source} ({chunks} chunks)" for source, chunks in removed.items())
        widgets.flash("success", f"removed {lines}")
        st.rerun()


def library_page() -> None:
    """Collections and documents, ingest by upload or folder, remove."""
    st.title("Library")
    widgets.show_flash()
    grace = widgets.open_app()
    if grace is None:
        return
    try:
        library = grace.library()
        names = _collections(library)
        collection = _target(library, names)
        if collection is None:
            return
        report = st.session_state.pop("ingest-report", None)
        if report is not None:
            _report(report)
        documents, upload, folder = st.tabs(["Documents", "Upload files", "Ingest a folder"])
        with documents:
            _documents(library, collection, names)
        with upload:
            _ingest_uploads(library, collection)
        with folder:
            _ingest_folder(library, collection)
    except Exception as exc:  # noqa: BLE001 - one line in the page, never a traceback
        widgets.error(error_message(exc))
