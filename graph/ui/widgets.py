"""What every page shares: the open app, one-line errors, passages, a run as it streams."""

from __future__ import annotations

import atexit
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import streamlit as st

from grace.hitl.reply import is_from_person
from grace.schemas import Source
from graph.app import EventHandler, GraceApp, RunOutcome
from graph.ui.session import error_message, notice_lines, plain, quote, step_rows
from graph.views.outcome import RunView

__all__ = [
    "LEVEL_COLOUR",
    "error",
    "flash",
    "last_run",
    "level_badge",
    "open_app",
    "passage",
    "run_live",
    "say",
    "show_flash",
]

LEVEL_COLOUR: dict[str, Any] = {
    "silent": "green",
    "notify": "blue",
    "confirm": "orange",
    "escalate": "red",
}
"""The badge colour of each intervention level (the CLI's colours, in Streamlit's names)."""


@dataclass(frozen=True)
class _Opened:
    """The app of the server's life and what closes it."""

    app: GraceApp
    stack: ExitStack


def _release(opened: _Opened) -> None:
    opened.stack.close()


@st.cache_resource(show_spinner="Opening GRACE …", on_release=_release)
def _open() -> _Opened:
    """The app of the server's life: the settings' threads, store and model (as the CLI's)."""
    stack = ExitStack()
    grace = stack.enter_context(GraceApp.open())
    atexit.register(stack.close)  # closed at exit, or when the cache lets it go
    return _Opened(grace, stack)


def open_app() -> GraceApp | None:
    """The open app, or ``None`` after one line saying why it cannot open."""
    try:
        return _open().app
    except Exception as exc:  # noqa: BLE001 - settings, storage, model: one line
        error(error_message(exc))
        return None


def say(kind: str, message: str) -> None:
    """Show ``message`` as written in an alert box (``kind``: error, warning, success, info)."""
    getattr(st, kind)(plain(message))


def error(message: str) -> None:
    """Show one error line as written."""
    say("error", message)


def flash(kind: str, message: str) -> None:
    """Show ``message`` after the next rerun (``kind``: error, warning, success, info)."""
    st.session_state["flash"] = (kind, message)


def show_flash() -> None:
    """Show (once) the message :func:`flash` left."""
    kind, message = st.session_state.pop("flash", (None, None))
    if kind is not None:
        say(kind, message)


def level_badge(level: str | None) -> str:
    """The intervention level as an inline coloured badge (Streamlit Markdown)."""
    colour = LEVEL_COLOUR.get(level or "", "gray")
    return f":{colour}-badge[{(level or 'no level').upper()}]"


def passage(source: Source) -> None:
    """One cited source: an expander that opens its passage with its location."""
    title = source.title or source.source
    if is_from_person(source):  # the person's reply: no document, no place in one
        label, caption = f"[{source.source_id}] {title}", "what you told GRACE"
    else:
        where = source.location or f"chunk {source.chunk_index}"
        label = f"[{source.source_id}] {title} — {source.source}, {where}"
        caption = f"{source.source} · {where} · retrieval score {source.score:.2f}"
    with st.expander(plain(label)):
        st.caption(plain(caption))
        st.markdown(quote(source.text or "(no passage text)"))


def run_live(label: str, call: Callable[[EventHandler], RunOutcome], thread_id: str) -> bool:
    """Run ``call(on_event)`` showing its plan, steps and scores as they stream.

    Returns whether it finished (completed or paused); on an error, one line is left for the
    next rerun and the thread keeps whatever its run checkpointed.
    """
    view = RunView()
    with st.status(label, expanded=True) as status:
        table, notices = st.empty(), st.empty()

        def on_event(event: dict[str, Any]) -> None:
            view.handle(event)
            table.table(step_rows(view), hide_index=True)
            lines = notice_lines(view)
            if lines:
                notices.text("\n".join(lines))

        try:
            outcome = call(on_event)
        except Exception as exc:  # noqa: BLE001 - one line in the page, never a traceback
            status.update(label="stopped", state="error")
            flash("error", error_message(exc, thread_id))
            return False
        done = "paused for your review" if outcome.status == "interrupted" else "answered"
        status.update(label=done, state="complete", expanded=False)
    st.session_state["last-run"] = (thread_id, view.title, step_rows(view), notice_lines(view))
    return True


def last_run(thread_id: str) -> None:
    """The latest run of ``thread_id`` in this tab as it streamed: plan, steps, notices."""
    shown = st.session_state.get("last-run")
    if shown is None or shown[0] != thread_id:
        return
    _, title, rows, notices = shown
    with st.expander(f"The run as it streamed: {title}"):
        st.caption(
            "Each step's own score and level; the answer's confidence and level are the whole "
            "run's, calibrated, and can differ."
        )
        st.table(rows, hide_index=True)
        for line in notices:
            st.caption(line)
