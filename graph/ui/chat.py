"""The chat page: pick a collection, ask, watch the run, read the cited answer, reply to pauses."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from functools import partial
from typing import Any

import streamlit as st
from langchain_core.messages import HumanMessage

from grace.context import GraceContext
from grace.hitl.request import (
    REPLY_CHOICES,
    InvalidHumanResponseError,
    ReplyChoice,
    reply_choices,
    reply_for,
)
from graph.app import EventHandler, GraceApp, RunOutcome
from graph.ui import widgets
from graph.ui.session import (
    NO_COLLECTION,
    breakdown_rows,
    collection_choice,
    error_message,
    guarded,
    passages,
    plain,
    thread_label,
    transcript,
)
from graph.views.outcome import conf

__all__ = ["chat_page"]

_CHOICE_TITLE: dict[ReplyChoice, str] = {
    "accept": "Accept",
    "edit_answer": "Edit the answer",
    "edit_question": "Edit the question",
    "respond": "Respond with the answer",
    "ignore": "Ignore",
}
"""The form's name for each reply (what it does: ``grace.hitl.request.REPLY_CHOICES``)."""


def _select(thread_id: str | None) -> None:
    st.session_state["thread"] = thread_id


def _sidebar(grace: GraceApp) -> None:
    """The collection picker, a new thread, and the threads newest first with their status."""
    with st.sidebar:
        collections = guarded(lambda: grace.library().collections(), widgets.error) or []
        names = [c.name for c in collections]
        st.selectbox(
            "Collection",
            [NO_COLLECTION, *names],
            key="collection",
            help="Where GRACE searches; the first entry leaves it to the settings and the plan.",
        )
        st.button("New thread", icon=":material/add:", on_click=_select, args=(None,))
        st.subheader("Threads")
        rows = guarded(lambda: grace.threads(30), widgets.error) or []
        if not rows:
            st.caption("no threads yet")
        current = st.session_state.get("thread")
        for row in rows:
            st.button(
                thread_label(row),
                key=f"thread-{row.thread_id}",
                help=f"thread {row.thread_id}",
                on_click=_select,
                args=(row.thread_id,),
                type="primary" if row.thread_id == current else "tertiary",
            )


def _run(
    grace: GraceApp, thread_id: str, label: str, call: Callable[[str, EventHandler], RunOutcome]
) -> None:
    """Run ``call(thread_id, on_event)`` live, then show the thread afresh."""
    finished = widgets.run_live(label, partial(call, thread_id), thread_id)
    if finished or grace.graph.get_state({"configurable": {"thread_id": thread_id}}).created_at:
        _select(thread_id)  # a thread the run reached is kept (e.g. the model went away)
    st.rerun()


def _ask(grace: GraceApp, question: str) -> None:
    thread_id = st.session_state.get("thread") or uuid.uuid4().hex
    context = GraceContext(collection=collection_choice(st.session_state.get("collection")))

    def call(thread: str, on_event: EventHandler) -> RunOutcome:
        return grace.ask(question, thread_id=thread, context=context, on_event=on_event)

    _run(grace, thread_id, "GRACE is working …", call)


def _answer(grace: GraceApp, thread_id: str) -> None:
    """A completed turn: the answer, its level and calibrated confidence, its cited passages."""
    outcome = grace.outcome(thread_id)
    st.markdown(plain(outcome.answer or "(no answer)"))
    st.markdown(
        f"{widgets.level_badge(outcome.level)} confidence **{conf(outcome.confidence)}** — "
        "the run's calibrated P(answer correct)"
    )
    for note in outcome.notes:
        widgets.say("info", note)
    cited = passages(grace, thread_id)
    if cited:
        st.markdown("**Sources** — open one to read its passage")
        for source in cited:
            widgets.passage(source)
    with st.expander("How the confidence was made (each step's score and its factors)"):
        st.table(breakdown_rows(grace.history(thread_id)), hide_index=True)


def _reply_form(grace: GraceApp, thread_id: str, request: dict[str, Any]) -> None:
    """The allowed replies of the pending HITL request as a form; a refusal says why."""
    action = (request.get("action_requests") or [{}])[0]
    choices = reply_choices(request)
    with st.form(f"reply-{thread_id}"):
        choice = st.radio(
            "Your reply",
            choices,
            format_func=lambda c: f"{_CHOICE_TITLE[c]} — {REPLY_CHOICES[c][1]}",
        )
        text = st.text_area(
            "Text", help="The answer, the new question or your response (accept and ignore "
            "need none).", placeholder="The answer, the new question or your response",
        )  # fmt: skip
        sent = st.form_submit_button("Send reply", type="primary")
    if sent and choice is not None:
        try:
            reply = reply_for(choice, str(action.get("name", "review_answer")), text)
        except InvalidHumanResponseError as exc:  # a blank text: the thread stays paused
            widgets.error(str(exc))
            return
        _run(grace, thread_id, "GRACE goes on with your reply …", partial(_resume, grace, reply))


def _resume(grace: GraceApp, reply: Any, thread_id: str, on_event: EventHandler) -> RunOutcome:
    return grace.resume(thread_id, reply, on_event=on_event)


def _continue(grace: GraceApp, thread_id: str, on_event: EventHandler) -> RunOutcome:
    return grace.continue_run(thread_id, on_event=on_event)


def _pause(grace: GraceApp, thread_id: str) -> None:
    """A paused run: why, the draft and its passages, and the reply form."""
    request = grace.pending_request(thread_id)
    level = str(request.get("level", ""))
    st.warning(
        f"GRACE needs you: paused at {widgets.level_badge(level)} (confidence "
        f"{conf(request.get('confidence'))})."
    )
    action = (request.get("action_requests") or [{}])[0]
    with st.container(border=True):
        st.markdown(action.get("description", ""))
    if request.get("error"):
        widgets.error(f"previous reply rejected: {request['error']}")
    draft = passages(grace, thread_id)
    if draft:
        st.markdown("**The draft's sources**")
        for source in draft:
            widgets.passage(source)
    _reply_form(grace, thread_id, request)


def _incomplete(grace: GraceApp, thread_id: str) -> None:
    st.info(
        "This run stopped mid-way (its process ended, or the model could not be reached). "
        "It runs on from its last completed step."
    )
    if st.button("Run on", type="primary"):
        _run(grace, thread_id, "GRACE runs on …", partial(_continue, grace))


def _thread(grace: GraceApp, thread_id: str) -> None:
    """The thread's earlier turns, its latest question and where that stands."""
    summary = grace.summary(thread_id)
    for message in transcript(grace, thread_id):
        with st.chat_message("user" if isinstance(message, HumanMessage) else "assistant"):
            st.markdown(plain(message.text))
    with st.chat_message("user"):
        st.markdown(plain(summary.query))
    show = {"interrupted": _pause, "incomplete": _incomplete}.get(summary.status, _answer)
    with st.chat_message("assistant"):
        widgets.last_run(thread_id)
        show(grace, thread_id)
    st.caption(f"thread {thread_id} — `grace show {thread_id}` shows it in a terminal")


def chat_page() -> None:
    """Ask GRACE: the thread in view, the question box, the thread list."""
    grace = widgets.open_app()
    if grace is None:
        return
    _sidebar(grace)
    st.title("Ask GRACE")
    widgets.show_flash()
    thread_id = st.session_state.get("thread")
    if thread_id is None:
        st.caption(
            "Ask about your documents. GRACE plans, searches, scores its confidence at every "
            "step, and asks you when it should."
        )
    else:
        guarded(partial(_thread, grace, thread_id), widgets.error, thread_id)
    placeholder = "Ask a follow-up in this thread" if thread_id else "Ask a question"
    question = st.chat_input(placeholder)
    if question:
        try:
            _ask(grace, question)
        except Exception as exc:  # noqa: BLE001 - one line in the page
            widgets.error(error_message(exc, thread_id))
