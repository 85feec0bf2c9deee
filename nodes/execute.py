"""``execute``: run one plan step; the ready steps fan out to it with ``Send``.

:func:`send_steps` (the edge into ``execute``) sends one task per step whose dependencies
are satisfied, so independent steps run concurrently as LangGraph tasks of one super-step, each
with its own ``RetryPolicy``: a step that finished is checkpointed with its task's writes and
is not run again when a sibling is retried or the process dies. A step whose dependency
failed or was skipped is sent with ``skip`` set and recorded as SKIPPED. Each step runs
under its timeout (``timeout_seconds``, else ``run.step_timeout_seconds``).

A failed step goes through LangGraph: ``execute`` raises :class:`StepFailedError` and the
graph (``graph.builder``) takes it from there with the node's ``RetryPolicy`` and
``error_handler``. Failures are of two kinds:

- **transient** (:func:`is_transient_error`: a timeout, a connection error, HTTP 408 / 429 /
  5xx, a provider's rate-limit / unavailable error): :class:`TransientToolError`, which the
  ``RetryPolicy`` retries with backoff (``run.retry_max_attempts``,
  ``run.retry_initial_interval``). Its siblings are other tasks: they are neither waited for
  nor run again. After the last attempt the error handler, :func:`step_failed`, records the
  step FAILED: its ``fallback`` is left to ``replan`` (strategy ``fallback``, a fresh task
  with its own retries) while replans remain, else run at once;
- **permanent** (anything else): never retried; :func:`step_failed` records the step FAILED
  at once and runs its ``fallback`` tool once.

No tool exception escapes the graph but one: a model that cannot be connected to stops the
run, resumable, as :class:`ModelUnreachableStop` — a
:class:`~grace.errors.ModelUnreachableError` that is also LangGraph's ``GraphDrained``, so
LangGraph neither retries it nor hands it to the error handler, and the step's task keeps no
write: a resume runs the step again. Each result records its wall time, start/end timestamps
and the model calls and tokens it spent.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from langgraph.errors import GraphDrained
from langgraph.runtime import Runtime
from langgraph.types import Send

from confidence.model_log import ModelLog
from grace.context import GraceContext, context_of
from grace.errors import ModelUnreachableError
from grace.notes.events import emit
from grace.planning.roles import is_ask
from grace.schemas import PlanStep, StepResult, StepStatus, ToolResult
from grace.services import Services, ServicesSource, aservices_for, services_for
from grace.state import State, StepTask
from grace.tools import ToolCall, ToolEnv
from grace.tools.workers import TOOL_WORKERS
from nodes.common import is_done, pending_steps

__all__ = [
    "ModelUnreachableStop",
    "StepFailedError",
    "TransientToolError",
    "aexecute",
    "arun_step",
    "execute",
    "is_transient_error",
    "partition_ready",
    "run_step",
    "send_steps",
    "step_failed",
]


class StepFailedError(RuntimeError):
    """A step's tool call failed: raised by ``execute`` for LangGraph's retry and error handler.

    It carries the tool's result and when the step started; :func:`step_failed` (the node's
    ``error_handler``) records the step from them.
    """

    transient = False
    """Whether the failure may pass on a later try (the ``RetryPolicy`` retries it)."""

    def __init__(
        self, message: str, result: ToolResult | None = None, started_at: float | None = None
    ) -> None:
        """``message`` names the step and the failure; ``result`` is the tool's."""
        super().__init__(message)
        self.result = result or ToolResult(success=False, error=message)
        self.started_at = time.time() if started_at is None else started_at


class TransientToolError(StepFailedError):
    """A step failed with an error that may pass on a later try; the node is retried."""

    transient = True


class ModelUnreachableStop(ModelUnreachableError, GraphDrained):
    """A step's model could not be connected to: the run stops here, resumable.

    A :class:`~grace.errors.ModelUnreachableError` for every caller, and LangGraph's
    ``GraphDrained``: LangGraph neither retries it nor routes it to the node's error handler
    (both see only failures that are not ``GraphBubbleUp``), and the task that raised it keeps
    no write, so ``continue_run`` runs the step again — as it runs a step whose process died.
    """

    def __init__(self, cause: ModelUnreachableError) -> None:
        """The same message, provider and model as ``cause``."""
        ModelUnreachableError.__init__(self, str(cause), provider=cause.provider, model=cause.model)
        self.reason = str(cause)


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
        if isinstance(current, StepFailedError):  # execute classified it
            return current.transient
        if isinstance(current, TimeoutError | ConnectionError):
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


def _skip_all(steps: list[PlanStep]) -> list[StepResult]:
    """Nothing can run (an unsatisfiable plan): close the remaining steps instead of looping."""
    return [
        StepResult(
            step_id=s.step_id,
            action=s.action,
            status=StepStatus.SKIPPED,
            error="skipped: dependencies can never be satisfied",
        )
        for s in steps
    ]


def send_steps(state: State) -> list[Send]:
    """One ``execute`` task per ready step, and one per step to record as SKIPPED.

    The edge into ``execute`` (after ``plan``, ``replan``, and ``confidence`` / ``intervene``
    going on). Skipped steps come first, then the ready ones, each in plan order: the order
    ``confidence`` scores the batch in.
    """
    results = state.results
    pending = pending_steps(state.plan, results)
    ready, skipped = partition_ready(pending, results)
    if not ready and not skipped:
        skipped = _skip_all(pending)
    defer = state.replan_count < state.replan_budget
    sends = [
        Send("execute", StepTask(step=_step_of(state, r.step_id), skip=r.error)) for r in skipped
    ]
    for step in ready:
        task = StepTask(
            step=step,
            dependencies=[results[d] for d in step.depends_on],
            human_sources=list(state.human_sources),
            defer_fallback=defer,
        )
        sends.append(Send("execute", task))
    return sends


def _step_of(state: State, step_id: str) -> PlanStep:
    assert state.plan is not None
    return next(s for s in state.plan.steps if s.step_id == step_id)


def _call_tool(
    services: Services, action: str, call: ToolCall, env: ToolEnv, timeout: float
) -> tuple[ToolResult, bool]:
    """Run one tool under ``timeout``; return its result and whether a failure is transient.

    The tool runs in a daemon thread (:data:`grace.tools.workers.TOOL_WORKERS`, reused from
    call to call): a tool that hangs past its timeout is abandoned with its thread (it cannot
    block the run, nor the interpreter's exit). A tool whose ``runs_inline(env)`` is
    true (a search over an in-process store: CPU only, nothing to hang on) runs in the
    caller's thread instead, saving two thread hand-offs; if it still took longer than
    ``timeout`` its result is discarded as timed out, as a thread's would have been.
    """
    tool = services.tools.get(action)
    started = time.perf_counter()
    try:
        if tool.runs_inline(env):
            result = tool.run(call, env)
            if time.perf_counter() - started > timeout:
                return _timed_out(action, timeout)
        else:
            result = TOOL_WORKERS.submit(tool.run, call, env).result(timeout=timeout)
    except FutureTimeout:
        return _timed_out(action, timeout)
    except ModelUnreachableError as exc:  # the model cannot be connected to: the run stops
        raise ModelUnreachableStop(exc) from exc
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
    except ModelUnreachableError as exc:
        raise ModelUnreachableStop(exc) from exc
    except Exception as exc:  # noqa: BLE001 - a tool failure fails the step, not the run
        return _failed(action, exc)
    result.execution_time_ms = (time.perf_counter() - started) * 1000
    return result, False


def _raise_if_failed(
    step: PlanStep, result: ToolResult, transient: bool, started_at: float
) -> None:
    """Hand a failed call to LangGraph: retried if transient, then to :func:`step_failed`."""
    if not result.success:
        error = TransientToolError if transient else StepFailedError
        raise error(f"step {step.step_id}: {result.error}", result, started_at)


def _fallback_due(
    services: Services, step: PlanStep, result: ToolResult, transient: bool, defer: bool
) -> str | None:
    """The fallback tool to run now, if any (a deferred one is left to ``replan``)."""
    if result.success or not step.fallback or step.fallback not in services.tools:
        return None
    return None if transient and defer else step.fallback


def _step_result(
    services: Services,
    step: PlanStep,
    first: ToolResult,
    fallback: tuple[str, ToolResult] | None,
    started_at: float,
) -> StepResult:
    """The step's result from its tool call (and its fallback's); emits ``step_finished``."""
    action, result, usage = step.action, first, first.usage
    if fallback is not None:
        action, result = fallback
        usage = usage + result.usage
        if result.error is None:
            result.error = f"{step.action} failed ({first.error}); used fallback {action}"
    abstained = result.confidence_factors.get("abstained", 0.0) > 0
    status = (
        StepStatus.FAILED
        if not result.success
        else StepStatus.PARTIAL
        if abstained or is_ask(action, services.tools.roles)
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
        used_fallback=fallback is not None,
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
    services: Services, step: PlanStep, call: ToolCall, env: ToolEnv, default_timeout: float
) -> StepResult:
    """Run one step's tool under its timeout; its result if the call succeeded.

    Raises:
        StepFailedError: the call failed (:class:`TransientToolError` when it may pass on a
            later try); in a graph, LangGraph retries it or hands it to :func:`step_failed`.
        ModelUnreachableStop: the step's model could not be connected to.
    """
    timeout = step.timeout_seconds or default_timeout
    emit("step_started", step_id=step.step_id, action=step.action)
    started_at = time.time()
    result, transient = _call_tool(services, step.action, call, env, timeout)
    _raise_if_failed(step, result, transient, started_at)
    return _step_result(services, step, result, None, started_at)


async def arun_step(
    services: Services, step: PlanStep, call: ToolCall, env: ToolEnv, default_timeout: float
) -> StepResult:
    """Async :func:`run_step`: the tool's ``arun`` under ``asyncio`` timeouts."""
    timeout = step.timeout_seconds or default_timeout
    emit("step_started", step_id=step.step_id, action=step.action)
    started_at = time.time()
    result, transient = await _acall_tool(services, step.action, call, env, timeout)
    _raise_if_failed(step, result, transient, started_at)
    return _step_result(services, step, result, None, started_at)


def _failure(error: BaseException) -> StepFailedError:
    """The step failure the error handler was given; anything else is raised again.

    LangGraph counts the exception it hands a handler as dealt with: raised as it is, the run
    would go on without the step. A copy (same type, arguments and attributes) stops the run
    at once, as it stopped before the step had an error handler.
    """
    if isinstance(error, StepFailedError):
        return error
    copy = type(error).__new__(type(error), *error.args)
    copy.__dict__.update(getattr(error, "__dict__", {}))
    raise copy.with_traceback(error.__traceback__) from error.__cause__


def _failed_result(
    services: Services,
    task: StepTask,
    failure: StepFailedError,
    fallback: Callable[[str], ToolResult],
) -> StepResult:
    """The FAILED step (or its fallback's result) from the failure of its last attempt."""
    step, result = task.step, failure.result
    if failure.transient:
        result.error = f"{result.error} (transient; no retry left)"
    due = _fallback_due(services, step, result, failure.transient, task.defer_fallback)
    second = (due, fallback(due)) if due is not None else None
    return _step_result(services, step, result, second, failure.started_at)


def _skipped(task: StepTask) -> dict[str, Any]:
    step = task.step
    result = StepResult(
        step_id=step.step_id, action=step.action, status=StepStatus.SKIPPED, error=task.skip
    )
    return _written(result)


def _written(result: StepResult) -> dict[str, Any]:
    """The task's update: its result (merged in by step id) and the usage it spent."""
    return {"results": {result.step_id: result}, "usage": result.token_usage}


def _step_args(
    services: Services, task: StepTask, runtime: Runtime[GraceContext], log: ModelLog
) -> tuple[PlanStep, ToolCall, ToolEnv, float]:
    """The step, its tool call, the run's tool environment and the default timeout."""
    call = ToolCall(
        step=task.step, dependencies=task.dependencies, human_sources=task.human_sources
    )
    env = services.tool_env(context_of(runtime), log)
    return task.step, call, env, services.settings.run.step_timeout_seconds


def execute(
    task: StepTask, runtime: Runtime[GraceContext], services: ServicesSource, log: ModelLog
) -> dict[str, Any]:
    """Run one plan step (a ``Send`` from :func:`send_steps`) with the tools' sync ``run``."""
    if task.skip is not None:
        return _skipped(task)
    services = services_for(runtime, services)
    return _written(run_step(services, *_step_args(services, task, runtime, log)))


async def aexecute(
    task: StepTask, runtime: Runtime[GraceContext], services: ServicesSource, log: ModelLog
) -> dict[str, Any]:
    """Async :func:`execute`: the tool's ``arun`` as a task under its timeout."""
    if task.skip is not None:
        return _skipped(task)
    services = await aservices_for(runtime, services)
    return _written(await arun_step(services, *_step_args(services, task, runtime, log)))


def step_failed(
    task: StepTask,
    error: BaseException | str,
    runtime: Runtime[GraceContext],
    services: ServicesSource,
    log: ModelLog,
) -> dict[str, Any]:
    """``execute``'s error handler: record the failed step FAILED, or its fallback's result.

    ``error`` is what the step's last attempt raised (:class:`StepFailedError`). A handler
    that runs again on a resume gets only the error's text (LangGraph keeps it as text in the
    checkpoint), not the tool's result: it runs the step once more. Any other exception (not
    a tool's failure) stops the run, as it did before the handler.

    One body for ``invoke`` and ``ainvoke``: LangGraph injects ``error`` only into a plain
    function, and runs a sync one in a worker thread under ``ainvoke`` — there a fallback runs
    with its tool's ``run``.
    """
    services = services_for(runtime, services)
    step, call, env, timeout = _step_args(services, task, runtime, log)
    if isinstance(error, str):
        try:
            return _written(run_step(services, step, call, env, timeout))
        except StepFailedError as again:
            error = again

    def fallback(action: str) -> ToolResult:
        return _call_tool(services, action, call, env, step.timeout_seconds or timeout)[0]

    return _written(_failed_result(services, task, _failure(error), fallback))
