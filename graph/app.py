"""A run-level façade over the compiled graph: ask, resume, list and show threads.

It owns the checkpointer and store chosen by settings (SQLite by default) and turns the
graph's v1 output (``__interrupt__`` included) into :class:`RunOutcome` values. The CLI is
built on it; Python users can use it or the graph directly.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any, Literal

from langchain_core.messages import AnyMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph.state import CompiledStateGraph
from langgraph.store.base import BaseStore
from langgraph.types import Command, StateSnapshot
from pydantic import BaseModel, Field

from checkpoints import open_checkpointer, open_store
from confidence.model_log import ModelBudget
from grace.context import GraceContext
from grace.errors import StoreBusyError
from grace.hitl.request import parse_human_response
from grace.notes.models import model_errors
from grace.providers.models import OFFLINE
from grace.retrieval import UnknownCollectionError
from grace.services import (
    ChatModels,
    LazyServices,
    Services,
    ServicesSource,
    build_services,
    check_model,
)
from grace.settings import GraceSettings, RunDurability, get_settings
from grace.storage.faults import storage_faults
from grace.storage.names import check_collection_name
from grace.storage.thread_lock import thread_lock
from grace.storage.transcript import full_transcript
from graph.builder import make_builder
from nodes.common import validate_question

if TYPE_CHECKING:
    from grace.library import Library

__all__ = [
    "EventHandler",
    "GraceApp",
    "InvalidThreadIdError",
    "RunOutcome",
    "ThreadNotIncompleteError",
    "ThreadNotPausedError",
    "ThreadPausedError",
    "ThreadSummary",
    "UnknownThreadError",
]

EventHandler = Callable[[dict[str, Any]], None]
UnreadableHandler = Callable[[str, Exception], None]
"""Told about a thread whose checkpoint cannot be read: (thread id, the error)."""

log = logging.getLogger(__name__)


def _log_unreadable(thread_id: str, exc: Exception) -> None:
    log.warning("thread %s skipped: its checkpoint cannot be read (%s)", thread_id, exc)


_SQLITE = (sqlite3.Error,)
_FAULTS = (sqlite3.Error, OSError)
"""What opening a database may raise for a read-only, full or damaged file."""



_SOURCE_FIELDS = {"source_id", "source", "title", "chunk_index", "location", "score", "collection"}


def _draft_of(request: dict[str, Any], values: dict[str, Any]) -> dict[str, Any] | None:
    """The draft answer and its cited sources a pause asks the person to review, if any."""
    actions = request.get("action_requests") or [{}]
    answer = (actions[0].get("args") or {}).get("answer")
    if not answer:
        return None
    result = (values.get("results") or {}).get(request.get("step_id"))
    sources = [s.model_dump(include=_SOURCE_FIELDS) for s in getattr(result, "sources", [])]
    return {"answer": answer, "sources": sources}


_OUTCOME_KEYS = (
    "answer",
    "sources",
    "confidence",
    "level",
    "notes",
    "usage",
    "results",
    "quality",
)
"""The state a run's outcome is made of (streamed as ``values`` by :meth:`GraceApp._run`)."""


def _outcome_of(thread_id: str, values: Mapping[str, Any], interrupts: Sequence[Any]) -> RunOutcome:
    """The outcome of a thread whose state is ``values`` (paused if ``interrupts``)."""
    usage = values.get("usage")
    usage_dict = usage.model_dump() if usage is not None else {}
    if interrupts:
        request = interrupts[0].value
        return RunOutcome(
            status="interrupted",
            thread_id=thread_id,
            confidence=request.get("confidence"),
            level=request.get("level"),
            interrupt=request,
            notes=list(values.get("notes", [])),
            model_errors=model_errors(values.get("notes", [])),
            usage=usage_dict,
            draft=_draft_of(request, dict(values)),
            quality=_quality_of(values),
        )
    return RunOutcome(
        status="completed",
        thread_id=thread_id,
        answer=values.get("answer"),
        confidence=values.get("confidence"),
        level=_level_name(values.get("level")),
        sources=[s.model_dump(include=_SOURCE_FIELDS) for s in values.get("sources", [])],
        notes=list(values.get("notes", [])),
        model_errors=model_errors(values.get("notes", [])),
        usage=usage_dict,
        quality=_quality_of(values),
    )


def _quality_of(values: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The run's quality-gate checks as JSON (the answer text is the draft's, left out)."""
    return [c.model_dump(mode="json", exclude={"answer"}) for c in values.get("quality", [])]


def _level_name(level: Any) -> str | None:
    """The level's name; a checkpointer may hand the enum back as a plain string (Postgres)."""
    if level is None:
        return None
    return str(getattr(level, "value", level))


class UnknownThreadError(LookupError):
    """No checkpoint exists for the thread id."""


class InvalidThreadIdError(ValueError):
    """A thread id that is not text: empty, or holding a character outside UTF-8."""


def _check_thread_id(thread_id: str) -> str:
    """``thread_id`` if it can name a thread (lock file, checkpoint row); else one line.

    Raises:
        InvalidThreadIdError: not a non-empty string of UTF-8 text (a lone surrogate from a
            badly decoded argument, say).

    """
    if not isinstance(thread_id, str) or not thread_id:
        raise InvalidThreadIdError("a thread id must be a non-empty string")
    try:
        thread_id.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidThreadIdError(
            f"thread id {thread_id!r} is not UTF-8 text (character {exc.start} is a lone surrogate)"
        ) from None
    return thread_id


class ThreadNotPausedError(RuntimeError):
    """A resume was sent to a thread that is not waiting for a person."""


class ThreadPausedError(RuntimeError):
    """A new question was asked on a thread that is waiting for a person's reply."""


class ThreadNotIncompleteError(RuntimeError):
    """``continue_run`` was asked of a thread that finished or is paused."""


ThreadStatus = Literal["completed", "interrupted", "incomplete"]


def thread_status(snapshot: StateSnapshot) -> ThreadStatus:
    """Where a thread's newest checkpoint leaves it.

    ``incomplete`` means tasks are still due: a run died mid-way. Tasks are the test, not
    ``snapshot.next``: when a process dies after the last task of a super-step saved its
    writes but before the next checkpoint was written, ``next`` is empty although the run
    has further to go (``invoke(None)`` applies those writes and carries on).
    """
    if snapshot.interrupts:
        return "interrupted"
    return "incomplete" if snapshot.tasks else "completed"


class RunOutcome(BaseModel):
    """The result of ``ask`` / ``resume``: completed with an answer, or interrupted."""

    status: Literal["completed", "interrupted"]
    """Whether the run finished or is waiting for a person."""
    thread_id: str
    """The thread to resume or inspect."""
    answer: str | None = None
    """Final answer (completed runs)."""
    confidence: float | None = None
    """Overall confidence, or the score that triggered the pause."""
    level: str | None = None
    """Intervention level (silent / notify / confirm / escalate)."""
    sources: list[dict[str, Any]] = Field(default_factory=list)
    """Cited sources: source_id, source, title, chunk_index, location, score, collection."""
    interrupt: dict[str, Any] | None = None
    """The pending LangChain 1.0 HITL request (interrupted runs)."""
    notes: list[str] = Field(default_factory=list)
    """Things the person should know."""
    model_errors: list[str] = Field(default_factory=list)
    """The notes that say the model failed (refused, timed out, cut, unparsable): the
    outcome is the model's failure, not a finding about the documents."""
    usage: dict[str, int] = Field(default_factory=dict)
    """Model calls and tokens of the run so far."""
    draft: dict[str, Any] | None = None
    """Interrupted runs with a cited draft: ``{answer, sources}`` — what the person reviews."""
    quality: list[dict[str, Any]] = Field(default_factory=list)
    """The quality gate's evaluations of the answer, one per attempt (``quality_gate.type``:
    scoring, criteria, rubric or comparison; the kept attempt has ``kept: true``)."""


@dataclass
class ThreadSummary:
    """One line of ``grace threads``."""

    thread_id: str
    """Thread id."""
    status: str
    """completed, interrupted or running/failed (no final answer and nothing pending)."""
    query: str
    """The question."""
    confidence: float | None
    """Overall confidence or the pending pause's score."""
    level: str | None
    """Level of that confidence."""
    updated_at: str = ""
    """Timestamp of the latest checkpoint."""
    steps: int = field(default=0)
    """Number of step results."""


class GraceApp:
    """The graph compiled once with the settings' checkpointer and store, over its services."""

    def __init__(
        self,
        settings: GraceSettings,
        checkpointer: BaseCheckpointSaver[str],
        store: BaseStore | None = None,
        *,
        services: ServicesSource | None = None,
        model: str | None = None,
    ) -> None:
        """Compile the graph with ``checkpointer`` (and ``store`` for learned thresholds).

        Args:
            settings: The settings (data directory, limits, the model in force).
            checkpointer: Where threads are saved.
            store: LangGraph's store (learned per-user thresholds).
            services: The nodes' dependencies; default: the app's own, built from
                ``settings`` on the first run (or :meth:`library`) and closed by
                :meth:`open`.
            model: The chat model of the app's own services (``grace ask --model``);
                default: the settings' ``models.chat``. A run's context may name another.

        """
        self.settings = settings
        self.checkpointer = checkpointer
        self.store = store
        self.model = model
        self._models: ChatModels | None = None
        self._models_lock = threading.Lock()
        self._own_services = services is None
        self.services: ServicesSource = (
            services
            if services is not None
            else LazyServices(self._build_services, settings=settings)
        )
        """The nodes' dependencies (built on first use unless given)."""
        self.graph: CompiledStateGraph[Any, Any, Any, Any] = make_builder(
            services=self.services
        ).compile(checkpointer=checkpointer, store=store, name="grace")
        self.locks_dir = settings.data_dir / "threads"
        """Where each thread's lock file lives (one writer per thread)."""

    @classmethod
    @contextlib.contextmanager
    def open(
        cls,
        settings: GraceSettings | None = None,
        *,
        model: str | None = None,
        services: ServicesSource | None = None,
        check: bool = False,
    ) -> Iterator[GraceApp]:
        """Open the configured checkpointer and store for the ``with`` block.

        The app's own services (``model``: their chat model) are built on first use and
        closed with the block; ``services`` passed in are used as they are and left open.
        ``check``: build and check the app's own model first (:meth:`check_model`), so a
        missing package, key or server is refused before any database is opened.
        """
        settings = settings or get_settings()
        models = check_model(settings, model) if check and services is None else None
        cp = settings.checkpoint
        store_kind = "postgres" if cp.kind == "postgres" else cp.kind
        with ExitStack() as stack:
            # A read-only, full or damaged file: one message naming it (StorageError).
            with storage_faults("cannot open the thread database", settings.sqlite_path, _FAULTS):
                saver = stack.enter_context(
                    open_checkpointer(
                        cp.kind, sqlite_path=settings.sqlite_path, postgres_url=cp.postgres_url
                    )
                )
            with storage_faults("cannot open the user store", settings.store_path, _FAULTS):
                store = stack.enter_context(
                    open_store(
                        store_kind, sqlite_path=settings.store_path, postgres_url=cp.postgres_url
                    )
                )
            app = cls(settings, saver, store, services=services, model=model)  # compile: serde
            app._models = models  # the run uses the models checked above
            stack.callback(app.close)
            data_dir = settings.data_dir
            with storage_faults("cannot write under the data directory", data_dir, _SQLITE):
                yield app

    def check_model(self) -> ChatModels:
        """Build the app's chat model and check that it can run (once; the run reuses it).

        Raises:
            ModelSetupError: unknown provider, package not installed, or API key missing.
            ModelUnavailableError: the model's local server does not answer.

        """
        with self._models_lock:
            if self._models is None:
                self._models = check_model(self.settings, self.model)
            return self._models

    def _build_services(self) -> Services:
        """The app's own services, over the chat model :meth:`check_model` built."""
        return build_services(self.settings, models=self.check_model())

    def _check_run_model(self, context: GraceContext | None) -> None:
        """A run on the app's own model: build and check it before the run starts (once)."""
        named = context.model if context is not None else None
        if self._own_services and (named is None or named == self.model):
            self.check_model()

    def _ready_services(self) -> Services | None:
        """The services if they are built (never builds them: that opens the store)."""
        return self.services.ready() if isinstance(self.services, LazyServices) else self.services

    def close(self) -> None:
        """Close the app's own services if they were built (services passed in stay open)."""
        if self._own_services and isinstance(self.services, LazyServices):
            self.services.close()

    def library(self) -> Library:
        """Your documents: ingest (mirroring folders), collections, documents, remove."""
        from grace.library import Library  # ingestion code: loaded by what ingests, not by a run

        return Library(self._services().store, self.settings)

    def _services(self) -> Services:
        """The services, built now if they are the app's own and not built yet."""
        services = self.services
        return services.get() if isinstance(services, LazyServices) else services

    def _config(self, thread_id: str) -> RunnableConfig:
        return {"configurable": {"thread_id": thread_id}}

    def _existing_snapshot(self, thread_id: str) -> StateSnapshot:
        """The thread's newest state; ``UnknownThreadError`` if it has no checkpoint."""
        _check_thread_id(thread_id)
        snapshot = self.graph.get_state(self._config(thread_id))
        if not snapshot.created_at:
            raise UnknownThreadError(f"unknown thread id '{thread_id}'")
        return snapshot

    def durability(self, context: GraceContext | None = None) -> RunDurability:
        """The durability of a run with ``context`` (``checkpoint.durability``).

        ``auto``: ``exit`` when the run's engine is the offline one, ``sync`` when its steps
        call a model (the engine of the services passed in, else of the model the run names).
        """
        named = context.model if context is not None else None
        ready = self._ready_services()  # never builds them here: that opens the store
        if ready is not None and (named is None or named == self.model or not self._own_services):
            offline = ready.provider == OFFLINE
        else:
            offline = self.settings.chat_spec(named or self.model) == OFFLINE
        return self.settings.checkpoint.durability_for("offline" if offline else "model")

    def _run(
        self, payload: Any, thread_id: str, context: GraceContext, on_event: EventHandler | None
    ) -> RunOutcome:
        config = self._config(thread_id)
        ready = self._ready_services()  # never builds them here: that opens the store
        seconds = (ready.settings if ready else self.settings).model_run_budget()
        if seconds is not None and context.model_budget is None:
            context = replace(context, model_budget=ModelBudget.start(seconds))
        values: dict[str, Any] = {}
        interrupts: Sequence[Any] = ()
        # The outcome is read from the stream itself (its last values and any interrupt),
        # not from the checkpoint again. Durability: see ``durability`` and docs/python.md.
        for mode, chunk in self.graph.stream(
            payload,
            config,
            context=context,
            stream_mode=["custom", "updates", "values"],
            output_keys=list(_OUTCOME_KEYS),
            durability=self.durability(context),
        ):
            if mode == "custom" and on_event is not None and isinstance(chunk, dict):
                on_event(chunk)
            elif mode == "values" and isinstance(chunk, dict):
                values = chunk
            elif mode == "updates" and isinstance(chunk, dict) and "__interrupt__" in chunk:
                interrupts = chunk["__interrupt__"]
        return _outcome_of(thread_id, values, interrupts)

    def outcome(self, thread_id: str) -> RunOutcome:
        """The thread's current outcome (completed or interrupted)."""
        snapshot = self.graph.get_state(self._config(thread_id))
        if not snapshot.created_at and not snapshot.values:
            raise UnknownThreadError(f"unknown thread id '{thread_id}'")
        return _outcome_of(thread_id, snapshot.values, snapshot.interrupts)

    def ask(
        self,
        question: str,
        *,
        thread_id: str | None = None,
        context: GraceContext | None = None,
        on_event: EventHandler | None = None,
    ) -> RunOutcome:
        """Run a question on a new (or given) thread until it finishes or pauses.

        On a thread that finished, the question is a new turn (the transcript is kept).

        Raises:
            InvalidQuestionError: empty, too long or not text.
            InvalidCollectionError: the context names an invalid collection.
            UnknownCollectionError: the collection to search (the context's, else the
                thread's, else the settings' default) does not exist: nothing is run.
            ModelSetupError: the app's own model cannot be built (package, key, name).
            ModelUnavailableError: the app's own model's local server does not answer.
            ThreadPausedError: the thread waits for a reply (resume it, or use a new thread).
            InvalidThreadIdError: the thread id is not UTF-8 text.
            ThreadBusyError: another run is working on the thread (nothing changed).
            ModelUnreachableError: the model could not be connected to; the thread keeps its
                last checkpoint and ``continue_run`` runs it on once the model answers.
        """
        question = validate_question(question, self.settings.run.max_question_chars)
        if context is not None and context.collection is not None:
            check_collection_name(context.collection)
        self._check_run_model(context)
        thread_id = _check_thread_id(thread_id) if thread_id else uuid.uuid4().hex
        with thread_lock(self.locks_dir, thread_id):
            snapshot = self.graph.get_state(self._config(thread_id))  # the one read
            if snapshot.interrupts:
                raise ThreadPausedError(
                    f"thread '{thread_id}' is paused for your review: resume it with "
                    f"`grace resume {thread_id} --response …`, or ask on a new thread"
                )
            self._check_collection(snapshot.values.get("collection"), context)
            return self._run({"query": question}, thread_id, context or GraceContext(), on_event)

    def _check_collection(self, thread: str | None, context: GraceContext | None) -> None:
        """Refuse a run whose collection does not exist before it plans (never created).

        ``thread`` is the collection the thread keeps (from the state :meth:`ask` read).
        """
        named = context.collection if context is not None else None
        name = named or thread or self.settings.retrieval.collection
        try:
            known = self._services().store.list_collections()  # the record is not needed
        except StoreBusyError:  # the run starts and stops at its first search, resumable
            return
        if name not in known:
            raise UnknownCollectionError(name, known)

    def continue_run(
        self,
        thread_id: str,
        *,
        context: GraceContext | None = None,
        on_event: EventHandler | None = None,
    ) -> RunOutcome:
        """Run an ``incomplete`` thread on from its last checkpoint.

        A thread is incomplete when its process died mid-run, or its model could not be
        reached (:class:`~grace.errors.ModelUnreachableError`).

        Raises:
            UnknownThreadError: no such thread.
            ThreadNotIncompleteError: the thread finished, or is paused (resume it instead).
            InvalidThreadIdError: the id is not UTF-8 text.
        """
        _check_thread_id(thread_id)
        self._check_run_model(context)
        with thread_lock(self.locks_dir, thread_id):
            snapshot = self._existing_snapshot(thread_id)
            status = thread_status(snapshot)
            if status == "interrupted":
                raise ThreadNotIncompleteError(
                    f"thread '{thread_id}' is paused: resume it with a --response"
                )
            if status == "completed":
                raise ThreadNotIncompleteError(f"thread '{thread_id}' is finished")
            return self._run(None, thread_id, context or GraceContext(), on_event)

    def pending_request(self, thread_id: str) -> dict[str, Any]:
        """The pending interrupt of a paused thread (errors for unknown / not paused)."""
        snapshot = self._existing_snapshot(thread_id)
        if not snapshot.interrupts:
            raise ThreadNotPausedError(
                f"thread '{thread_id}' is not paused (nothing to resume); "
                "see `grace show` for its state"
            )
        value = snapshot.interrupts[0].value
        assert isinstance(value, dict)
        return value

    def resume(
        self,
        thread_id: str,
        response: Any,
        *,
        context: GraceContext | None = None,
        on_event: EventHandler | None = None,
    ) -> RunOutcome:
        """Continue a paused thread with a decision; nothing changes if it is invalid.

        Raises:
            UnknownThreadError: no such thread.
            ThreadNotPausedError: the thread is not waiting.
            InvalidHumanResponseError: the response has the wrong shape or type.
            ThreadBusyError: another run is working on the thread (nothing changed).
            InvalidThreadIdError: the id is not UTF-8 text.
        """
        _check_thread_id(thread_id)
        self._check_run_model(context)
        with thread_lock(self.locks_dir, thread_id):  # a second resume at once: refused
            request = self.pending_request(thread_id)
            limit = self.settings.run.max_question_chars
            parse_human_response(
                response, request, check_question=partial(validate_question, max_chars=limit)
            )
            resume: Command[Any] = Command(resume=response)
            return self._run(resume, thread_id, context or GraceContext(), on_event)

    def threads(
        self,
        limit: int = 50,
        *,
        status: str | None = None,
        on_unreadable: UnreadableHandler | None = None,
    ) -> list[ThreadSummary]:
        """Threads with their latest status, newest first (only ``status`` ones, if given).

        ``limit`` applies after the status filter: the newest ``limit`` threads *with* that
        status. A thread whose checkpoint cannot be read (a damaged row) is left out and reported to
        ``on_unreadable(thread_id, error)`` (default: a logged warning), so one bad row never
        hides the other threads.
        """
        report = on_unreadable or _log_unreadable
        seen: dict[str, str] = {}
        try:
            for item in self.checkpointer.list(None):
                thread = str(item.config["configurable"]["thread_id"])
                if thread not in seen:
                    checkpoint: Any = item.checkpoint
                    seen[thread] = (
                        str(checkpoint.get("ts", "")) if isinstance(checkpoint, dict) else ""
                    )
        except Exception as exc:  # noqa: BLE001 - undecodable row: keep the threads listed so far
            report("(listing)", exc)
        ordered = sorted(seen.items(), key=lambda kv: kv[1], reverse=True)
        rows: list[ThreadSummary] = []
        for thread, ts in ordered:
            if len(rows) >= limit:
                break
            try:
                row = self.summary(thread, ts)
            except Exception as exc:  # noqa: BLE001 - a damaged thread must not hide the rest
                report(thread, exc)
                continue
            if status is None or row.status == status:
                rows.append(row)
        return rows

    def summary(self, thread_id: str, updated_at: str = "") -> ThreadSummary:
        """A thread's one-line summary."""
        snapshot = self.graph.get_state(self._config(thread_id))
        values = snapshot.values
        status = thread_status(snapshot)
        if status == "interrupted":
            request = snapshot.interrupts[0].value
            conf, level = request.get("confidence"), request.get("level")
        elif status == "completed":
            conf, level = values.get("confidence"), _level_name(values.get("level"))
        else:
            conf, level = values.get("confidence"), None
        return ThreadSummary(
            thread_id=thread_id,
            status=status,
            query=str(values.get("query", "")),
            confidence=conf,
            level=level,
            updated_at=updated_at or str(snapshot.created_at or ""),
            steps=len(values.get("results", {})),
        )

    def transcript(self, thread_id: str) -> list[AnyMessage]:
        """Every message of the thread, oldest first.

        The turns moved to the store, then the latest ones still in its state
        (``checkpoint.turns_in_state``).
        """
        snapshot = self._existing_snapshot(thread_id)
        return full_transcript(self.store, thread_id, snapshot.values.get("messages", []))

    def history(self, thread_id: str) -> dict[str, Any]:
        """A thread's latest turn and its whole conversation (JSON-ready).

        The latest turn's plan, steps with scores, interventions and replans; ``transcript``:
        every message of every turn (:meth:`transcript`).
        """
        snapshot = self._existing_snapshot(thread_id)
        v = snapshot.values
        messages = full_transcript(self.store, thread_id, v.get("messages", []))
        plan = v.get("plan")
        scores = v.get("scores", {})
        return {
            "thread_id": thread_id,
            "summary": self.summary(thread_id).__dict__,
            "plan": plan.model_dump(mode="json") if plan is not None else None,
            "steps": [
                {
                    **r.model_dump(mode="json", exclude={"sources"}),
                    "sources": [s.source_id for s in r.sources],
                    "score": scores[sid].model_dump(mode="json") if sid in scores else None,
                }
                for sid, r in v.get("results", {}).items()
            ],
            "interventions": [i.model_dump(mode="json") for i in v.get("interventions", [])],
            "replans": [r.model_dump(mode="json") for r in v.get("replans", [])],
            "answer": v.get("answer"),
            "citations": list(dict.fromkeys(s.citation for s in v.get("sources", []))),
            "notes": list(v.get("notes", [])),
            "pending": self.pending_request(thread_id) if snapshot.interrupts else None,
            "transcript": [
                {"role": "user" if m.type == "human" else "assistant", "text": m.text}
                for m in messages
                if m.type in ("human", "ai")
            ],
        }
