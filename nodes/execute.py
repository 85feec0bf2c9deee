"""``execute``: run every step whose dependencies are satisfied, concurrently.

A step whose dependency failed or was skipped is SKIPPED. A step whose tool fails (raises,
times out or reports no success) runs its declared ``fallback`` tool once. Each result
records its wall time, start/end timestamps and the model calls and tokens it spent.
"""

from __future__ import annotations

import contextvars
import time
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from langgraph.runtime import Runtime

from grace.context import GraceContext
from grace.events import emit
from grace.schemas import PlanStep, StepResult, StepStatus, TokenUsage, ToolResult
from grace.services import Services
from grace.state import State
from grace.tools import ToolCall, ToolEnv
from nodes.common import context_of, is_done, pending_steps, services_for

__all__ = ["execute", "partition_ready", "run_step"]


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


def _call_tool(
    services: Services, action: str, call: ToolCall, env: ToolEnv, timeout: float
) -> ToolResult:
    tool = services.tools.get(action)
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=1) as pool:
        # Copy the context so callbacks and the stream writer follow the call into the thread.
        future: Future[ToolResult] = pool.submit(
            contextvars.copy_context().run, tool.run, call, env
        )
        try:
            result = future.result(timeout=timeout)
        except FutureTimeout:
            return ToolResult(success=False, error=f"{action} timed out after {timeout:g}s")
        except Exception as exc:  # noqa: BLE001 - a tool failure fails the step, not the run
            return ToolResult(success=False, error=f"{action} failed: {type(exc).__name__}: {exc}")
    result.execution_time_ms = (time.perf_counter() - started) * 1000
    return result


def run_step(
    services: Services, step: PlanStep, call: ToolCall, env: ToolEnv, default_timeout: float
) -> StepResult:
    """Run one step with its timeout and fallback; never raises."""
    emit("step_started", step_id=step.step_id, action=step.action)
    started_at = time.time()
    timeout = step.timeout_seconds or default_timeout
    result = _call_tool(services, step.action, call, env, timeout)
    action, used_fallback, usage = step.action, False, result.usage
    if not result.success and step.fallback and step.fallback in services.tools:
        first_error = result.error
        result = _call_tool(services, step.fallback, call, env, timeout)
        action, used_fallback, usage = step.fallback, True, usage + result.usage
        if result.error is None:
            result.error = f"{step.action} failed ({first_error}); used fallback {action}"
    abstained = result.confidence_factors.get("abstained", 0.0) > 0
    status = (
        StepStatus.FAILED
        if not result.success
        else StepStatus.PARTIAL
        if abstained or action == "ask_user"
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


def execute(state: State, runtime: Runtime[GraceContext]) -> dict[str, Any]:
    """Run the ready steps of the plan."""
    services = services_for(runtime)
    env = services.tool_env(context_of(runtime))
    results = dict(state.results)
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
    new: list[StepResult] = list(skipped)
    if len(ready) == 1:
        new.append(run_step(services, ready[0], calls[0], env, settings.step_timeout_seconds))
    elif ready:
        with ThreadPoolExecutor(max_workers=min(settings.max_parallel_steps, len(ready))) as pool:
            futures = [
                pool.submit(
                    contextvars.copy_context().run,
                    run_step,
                    services,
                    s,
                    c,
                    env,
                    settings.step_timeout_seconds,
                )
                for s, c in zip(ready, calls, strict=True)
            ]
            new.extend(f.result() for f in futures)
    for result in new:
        results[result.step_id] = result
    usage = sum((r.token_usage for r in new), TokenUsage())
    return {
        "results": results,
        "last_batch": [r.step_id for r in new],
        "usage": usage,
        "review": None,
    }
