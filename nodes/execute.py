"""``execute``: run every step whose dependencies are satisfied, concurrently.

A step whose dependency failed or was skipped is SKIPPED. Each step runs under its timeout
(``timeout_seconds``, else ``run.step_timeout_seconds``). Failures are of two kinds:

- **transient** (:func:`is_transient_error`: a timeout, a connection error, HTTP 408 / 429 /
  5xx, a provider's rate-limit / unavailable error): while node attempts remain the node
  raises :class:`TransientToolError` and LangGraph's ``RetryPolicy`` runs it again with
  backoff (``run.retry_max_attempts``, ``run.retry_initial_interval``). Steps of the batch
  that already finished are kept for the next attempt, not run again. After the last attempt
  the step FAILS: its ``fallback`` is left to ``replan`` (strategy ``fallback``, a fresh task
  with its own retries) while replans remain, else run at once;
- **permanent** (anything else): the step fails at once and runs its ``fallback`` tool once.

No tool exception escapes the graph but one: a model that cannot be connected to
(:class:`~grace.errors.ModelUnreachableError`) stops the run, resumable. Each result records
its wall time, start/end timestamps and the model calls and tokens it spent.
"""

from __future__ import annotations

import asyncio
import contextvars
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any, TypeVar

from langgraph.runtime import Runtime

from grace.context import GraceContext
from grace.errors import ModelUnreachableError
from grace.events import emit
from grace.schemas import PlanStep, StepResult, StepStatus, TokenUsage, ToolResult
from grace.services import Services
from grace.settings import get_settings
from grace.state import State
from grace.tools import ToolCall, ToolEnv
from grace.tools.roles import is_ask
from nodes._flow import Flow, Need, adrive, async_node, drive, sync_node
from nodes.common import context_of, is_done, pending_steps

__all__ = [
    "TransientToolError",
    "aexecute",
    "arun_step",
    "execute",
    "is_transient_error",
    "partition_ready",
    "run_step",
]


T = TypeVar("T")


class TransientToolError(RuntimeError):
    """A step failed with an error that may pass on a later try; the node is retried."""


_TRANSIENT_NAMES = frozenset(
    {
        "APIConnectionError",
        "APITimeoutError",
        "ConnectError",
        "ConnectTimeout",
        "DeadlineExceeded",
        "InternalServerError",
        "ReadTimeout",
        "RateLimitError",
        "RemoteProtocolError",
        "ResourceExhausted",
        "ServerError",
        "ServiceUnavailable",
        "TooManyRequests",
    }
)
"""Exception class names of provider SDKs (google-genai, api-core, httpx, openai) that mean
"try again later"; matched by name so no SDK has to be imported."""


def _status_of(exc: BaseException) -> int | None:
    for candidate in (
        getattr(exc, "status_code", None),
        getattr(exc, "code", None),
        getattr(getattr(exc, "response", None), "status_code", None),
    ):
        if isinstance(candidate, int) and not isinstance(candidate, bool):
            return candidate
    return None


def is_transient_error(exc: BaseException) -> bool:
    """Whether ``exc`` may succeed on a second try.

    Timeouts, connection errors, HTTP 408 / 425 / 429 / 5xx statuses and providers'
    rate-limit / unavailable errors, also when they are the ``__cause__`` of ``exc``.
    """
    seen = 0
    current: BaseException | None = exc
    while current is not None and seen < 4:
        if isinstance(current, ModelUnreachableError):  # the client retried already: stop
            return False
        if isinstance(current, TransientToolError | TimeoutError | ConnectionError):
            return True
        status = _status_of(current)
        if status is not None and (status in (408, 425, 429) or 500 <= status < 600):
            return True
        if type(current).__name__ in _TRANSIENT_NAMES:
            return True
        current, seen = current.__cause__ or current.__context__, seen + 1
    return False


def partition_ready(
    steps: list[PlanStep], results: dict[str, StepResult]
) -> tuple[list[PlanStep], list[StepResult]]:
    """Split pending steps into (ready to run, skipped because a dependency failed)."""
    ready: list[PlanStep] = []
    skipped: list[StepResult] = []
    for step in steps:
        deps = [results.get(d) for d in step.depends_on]
        failed = [
            d
            for d, r in zip(step.depends_on, deps, strict=True)
            if r is not None and not is_done(r)
        ]
        if failed:
            skipped.append(
                StepResult(
                    step_id=step.step_id,
                    action=step.action,
                    status=StepStatus.SKIPPED,
                    error=f"skipped: dependencies {failed} did not complete",
                )
            )
        elif all(is_done(r) for r in deps):
            ready.append(step)
    return ready, skipped


class _DaemonThreads:
    """Long-lived daemon worker threads that never make a caller wait for a free worker.

    :meth:`submit` hands the call to an idle worker, and starts a new daemon thread when
    none is idle, so a tool that hangs past its timeout only keeps its own thread (the
    caller abandons it, as before) and never delays another call. Workers idle for
    ``idle_seconds`` exit. Compared with a new thread per tool call this saves starting a
    thread (and waiting for it to be scheduled) on every call.
    """

    def __init__(self, idle_seconds: float = 60.0) -> None:
        self._idle_seconds = idle_seconds
        self._lock = threading.Lock()
        self._idle = 0  # workers waiting for a job, minus jobs queued and not yet taken
        self._jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        """Run ``fn(*args)`` in this thread's context on a daemon worker; its future."""
        future: Future[T] = Future()
        ctx = contextvars.copy_context()  # callbacks and the stream writer follow the call

        def job() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                future.set_result(ctx.run(fn, *args))
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                future.set_exception(exc)

        with self._lock:
            spawn = self._idle == 0
            if not spawn:
                self._idle -= 1
        self._jobs.put(job)
        if spawn:
            threading.Thread(target=self._work, name="grace-tool", daemon=True).start()
        return future

    def _work(self) -> None:
        while True:
            try:
                job = self._jobs.get(timeout=self._idle_seconds)
            except queue.Empty:
                with self._lock:
                    if self._idle > 0:  # no job is reserved for this worker: leave
                        self._idle -= 1
                        return
                continue  # a job was queued for this worker just now: take it
            job()
            del job
            with self._lock:
                self._idle += 1


_threads = _DaemonThreads()


def _call_tool(
    services: Services, action: str, call: ToolCall, env: ToolEnv, timeout: float
) -> tuple[ToolResult, bool]:
    """Run one tool under ``timeout``; return its result and whether a failure is transient.

    The tool runs in a daemon thread (:class:`_DaemonThreads`): a tool that hangs past its
    timeout is abandoned (it cannot block the run, nor the interpreter's exit). A tool whose
    ``runs_inline(env)`` is true (a search over an in-process store: CPU only, nothing to
    hang on) runs in the caller's thread instead, saving two thread hand-offs; if it still
    took longer than ``timeout`` its result is discarded as timed out, as a thread's would
    have been.
    """
    tool = services.tools.get(action)
    started = time.perf_counter()
    try:
        if tool.runs_inline(env):
            result = tool.run(call, env)
            if time.perf_counter() - started > timeout:
                return _timed_out(action, timeout)
        else:
            result = _threads.submit(tool.run, call, env).result(timeout=timeout)
    except FutureTimeout:
        return _timed_out(action, timeout)
    except ModelUnreachableError:  # the model cannot be connected to: the run stops, resumable
        raise
    except Exception as exc:  # noqa: BLE001 - a tool failure fails the step, not the run
        return _failed(action, exc)
    result.execution_time_ms = (time.perf_counter() - started) * 1000
    return result, False


def _timed_out(action: str, timeout: float) -> tuple[ToolResult, bool]:
    return ToolResult(success=False, error=f"{action} timed out after {timeout:g}s"), True


def _failed(action: str, exc: Exception) -> tuple[ToolResult, bool]:
    error = f"{action} failed: {type(exc).__name__}: {exc}"
    return ToolResult(success=False, error=error), is_transient_error(exc)


def _retrieve(task: asyncio.Task[ToolResult]) -> None:
    """Done callback of an abandoned tool task: consume its outcome (no "never retrieved")."""
    if not task.cancelled():
        task.exception()


async def _acall_tool(
    services: Services, action: str, call: ToolCall, env: ToolEnv, timeout: float
) -> tuple[ToolResult, bool]:
    """Async :func:`_call_tool`: await the tool's ``arun`` for at most ``timeout`` seconds.

    The tool runs as its own task (it inherits the context: callbacks, stream writer). A
    tool still running at the timeout is cancelled and abandoned, not awaited, so a tool
    that ignores cancellation cannot block the run either. A tool without ``arun`` runs
    its ``run`` in a worker thread.
    """
    tool = services.tools.get(action)
    started = time.perf_counter()
    arun = getattr(tool, "arun", None)
    coro = arun(call, env) if arun is not None else asyncio.to_thread(tool.run, call, env)
    task: asyncio.Task[ToolResult] = asyncio.ensure_future(coro)
    try:
        done, _ = await asyncio.wait((task,), timeout=timeout)
    except asyncio.CancelledError:
        task.cancel()
        raise
    if not done:
        task.cancel()
        task.add_done_callback(_retrieve)
        return _timed_out(action, timeout)
    try:
        result = task.result()
    except ModelUnreachableError:
        raise
    except Exception as exc:  # noqa: BLE001 - a tool failure fails the step, not the run
        return _failed(action, exc)
    result.execution_time_ms = (time.perf_counter() - started) * 1000
    return result, False


@dataclass(frozen=True)
class _CallTool(Need[tuple[ToolResult, bool]]):
    """One tool call under its timeout → its result and whether a failure is transient."""

    action: str
    call: ToolCall
    env: ToolEnv
    timeout: float

    def serve(self, services: Services, runtime: Runtime[GraceContext] | None) -> _Called:
        """In a daemon thread (or inline), see :func:`_call_tool`."""
        return _call_tool(services, self.action, self.call, self.env, self.timeout)

    async def aserve(self, services: Services, runtime: Runtime[GraceContext] | None) -> _Called:
        """As a task under an ``asyncio`` timeout, see :func:`_acall_tool`."""
        return await _acall_tool(services, self.action, self.call, self.env, self.timeout)


_Called = tuple[ToolResult, bool]


def _step_flow(
    services: Services,
    step: PlanStep,
    call: ToolCall,
    env: ToolEnv,
    timeout: float,
    *,
    can_retry: bool,
    defer_fallback: bool,
) -> Flow[StepResult]:
    """The logic of one step (:mod:`nodes._flow`): the tool call, then possibly its fallback."""
    emit("step_started", step_id=step.step_id, action=step.action)
    started_at = time.time()
    result, transient = yield from _CallTool(step.action, call, env, timeout)
    if transient and not result.success:
        if can_retry:
            raise TransientToolError(f"step {step.step_id}: {result.error}")
        result.error = f"{result.error} (transient; no retry left)"
    action, used_fallback, usage = step.action, False, result.usage
    run_fallback = not (transient and defer_fallback)
    if not result.success and step.fallback and step.fallback in services.tools and run_fallback:
        first_error = result.error
        result, _ = yield from _CallTool(step.fallback, call, env, timeout)
        action, used_fallback, usage = step.fallback, True, usage + result.usage
        if result.error is None:
            result.error = f"{step.action} failed ({first_error}); used fallback {action}"
    abstained = result.confidence_factors.get("abstained", 0.0) > 0
    status = (
        StepStatus.FAILED
        if not result.success
        else StepStatus.PARTIAL
        if abstained or is_ask(action)
        else StepStatus.SUCCESS
    )
    step_result = StepResult(
        step_id=step.step_id,
        action=action,
        status=status,
        output=result.output,
        sources=result.sources,
        error=result.error,
        execution_time_ms=round((time.time() - started_at) * 1000, 3),
        token_usage=usage,
        factors=result.confidence_factors,
        used_fallback=used_fallback,
        started_at=started_at,
        finished_at=time.time(),
    )
    emit(
        "step_finished",
        step_id=step.step_id,
        status=status.value,
        execution_time_ms=step_result.execution_time_ms,
    )
    return step_result


def run_step(
    services: Services,
    step: PlanStep,
    call: ToolCall,
    env: ToolEnv,
    default_timeout: float,
    *,
    can_retry: bool = False,
    defer_fallback: bool = False,
) -> StepResult:
    """Run one step with its timeout and fallback.

    Raises:
        TransientToolError: only when ``can_retry`` and the failure is transient (the node
            is retried by LangGraph); otherwise never raises.

    With ``defer_fallback``, a step that failed transiently (retries used up) does not run
    its fallback here: ``replan`` switches it to the fallback.
    """
    timeout = step.timeout_seconds or default_timeout
    flow = _step_flow(
        services, step, call, env, timeout, can_retry=can_retry, defer_fallback=defer_fallback
    )
    return drive(flow, services, None)


async def arun_step(
    services: Services,
    step: PlanStep,
    call: ToolCall,
    env: ToolEnv,
    default_timeout: float,
    *,
    can_retry: bool = False,
    defer_fallback: bool = False,
) -> StepResult:
    """Async :func:`run_step`: the tool's ``arun`` under ``asyncio`` timeouts."""
    timeout = step.timeout_seconds or default_timeout
    flow = _step_flow(
        services, step, call, env, timeout, can_retry=can_retry, defer_fallback=defer_fallback
    )
    return await adrive(flow, services, None)


_carried_lock = threading.Lock()
_carried: dict[str, dict[str, StepResult]] = {}
"""Results finished by an attempt that was then retried, by task id: the retry reuses them
instead of running those steps again. Removed when the task returns."""


def _attempt(runtime: Runtime[GraceContext] | None) -> tuple[str | None, bool]:
    """This task's id and whether another attempt remains after this one."""
    info = getattr(runtime, "execution_info", None) if runtime is not None else None
    if info is None:  # called outside a graph run: no retry machinery
        return None, False
    return info.task_id, info.node_attempt < get_settings().run.retry_max_attempts


def _run_one(
    services: Services,
    step: PlanStep,
    call: ToolCall,
    env: ToolEnv,
    timeout: float,
    can_retry: bool,
    defer_fallback: bool,
) -> StepResult | TransientToolError:
    try:
        return run_step(
            services, step, call, env, timeout, can_retry=can_retry, defer_fallback=defer_fallback
        )
    except TransientToolError as exc:
        return exc


@dataclass
class _Batch:
    """One ``execute`` attempt: what to run, what is already known, how to finish."""

    services: Services
    env: ToolEnv
    results: dict[str, StepResult]
    ready: list[PlanStep]
    skipped: list[StepResult]
    todo: list[tuple[PlanStep, ToolCall]]
    outcomes: list[StepResult | TransientToolError]
    task_id: str | None
    can_retry: bool
    defer_fallback: bool
    timeout: float
    max_parallel: int


def _prepare(state: State, runtime: Runtime[GraceContext], services: Services) -> _Batch:
    """Ready and skipped steps, their tool calls, and results carried from a retried attempt."""
    env = services.tool_env(context_of(runtime))
    results = state.results  # read only: the update carries the new results
    ready, skipped = partition_ready(pending_steps(state.plan, results), results)
    if not ready and not skipped:
        # Nothing can run (an unsatisfiable plan): close the remaining steps instead of looping.
        skipped = [
            StepResult(
                step_id=s.step_id,
                action=s.action,
                status=StepStatus.SKIPPED,
                error="skipped: dependencies can never be satisfied",
            )
            for s in pending_steps(state.plan, results)
        ]
    settings = services.settings.run
    calls = [
        ToolCall(
            step=step,
            dependencies=[results[d] for d in step.depends_on],
            human_sources=list(state.human_sources),
        )
        for step in ready
    ]
    task_id, can_retry = _attempt(runtime)
    with _carried_lock:
        carried = _carried.get(task_id, {}) if task_id is not None else {}
    return _Batch(
        services=services,
        env=env,
        results=results,
        ready=ready,
        skipped=skipped,
        todo=[(s, c) for s, c in zip(ready, calls, strict=True) if s.step_id not in carried],
        outcomes=[carried[s.step_id] for s in ready if s.step_id in carried],
        task_id=task_id,
        can_retry=can_retry,
        defer_fallback=state.replan_count < state.replan_budget,
        timeout=settings.step_timeout_seconds,
        max_parallel=max(1, settings.max_parallel_steps),
    )


def _finish(batch: _Batch) -> dict[str, Any]:
    """The node's update; raise for a retry if a step failed transiently.

    Steps that finished in a retried attempt are kept for the next one.
    """
    outcomes = batch.outcomes
    errors = [o for o in outcomes if isinstance(o, TransientToolError)]
    finished = [o for o in outcomes if isinstance(o, StepResult)]
    task_id = batch.task_id
    if errors:
        if task_id is not None:
            with _carried_lock:
                _carried[task_id] = {r.step_id: r for r in finished}
        raise TransientToolError("; ".join(str(e) for e in errors))
    if task_id is not None:
        with _carried_lock:
            _carried.pop(task_id, None)
    by_id = {r.step_id: r for r in finished}
    new: list[StepResult] = list(batch.skipped) + [by_id[s.step_id] for s in batch.ready]
    usage = sum((r.token_usage for r in new), TokenUsage())
    return {
        "results": {r.step_id: r for r in new},  # merged into the state by step id
        "last_batch": [r.step_id for r in new],
        "usage": usage,
        "review": None,
    }


_Outcome = StepResult | TransientToolError


@dataclass(frozen=True)
class _RunBatch(Need[list[_Outcome]]):
    """Run the batch's steps concurrently (at most ``run.max_parallel_steps`` at a time)."""

    batch: _Batch

    def serve(self, services: Services, runtime: Runtime[GraceContext] | None) -> list[_Outcome]:
        """Threads; each tool call in a daemon thread (one step runs in this thread)."""
        batch = self.batch
        env, todo = batch.env, batch.todo
        timeout, can_retry, defer = batch.timeout, batch.can_retry, batch.defer_fallback
        if len(todo) == 1:
            step, call = todo[0]
            return [_run_one(services, step, call, env, timeout, can_retry, defer)]
        limit = threading.BoundedSemaphore(batch.max_parallel)

        def bounded(step: PlanStep, call: ToolCall) -> _Outcome:
            with limit:
                return _run_one(services, step, call, env, timeout, can_retry, defer)

        # Each step waits at most for its tool's timeout (twice with a fallback): ``result``
        # returns once every step has.
        futures = [_threads.submit(bounded, s, c) for s, c in todo]
        return [f.result() for f in futures]

    async def aserve(
        self, services: Services, runtime: Runtime[GraceContext] | None
    ) -> list[_Outcome]:
        """The tools' ``arun`` as tasks."""
        batch = self.batch
        limit = asyncio.Semaphore(batch.max_parallel)

        async def one(step: PlanStep, call: ToolCall) -> _Outcome:
            async with limit:
                try:
                    return await arun_step(
                        services,
                        step,
                        call,
                        batch.env,
                        batch.timeout,
                        can_retry=batch.can_retry,
                        defer_fallback=batch.defer_fallback,
                    )
                except TransientToolError as exc:
                    return exc

        return list(await asyncio.gather(*(one(s, c) for s, c in batch.todo)))


def _flow(state: State, runtime: Runtime[GraceContext], services: Services) -> Flow[dict[str, Any]]:
    """Run the ready steps of the plan (yields the batch run: threads, or tasks)."""
    batch = _prepare(state, runtime, services)
    if batch.todo:
        batch.outcomes.extend((yield from _RunBatch(batch)))
    return _finish(batch)


execute = sync_node(_flow)
"""The ``execute`` node for ``invoke`` / ``stream`` (threads)."""
aexecute = async_node(_flow)
"""The ``execute`` node for ``ainvoke`` / ``astream`` (the tools' ``arun`` as tasks)."""
