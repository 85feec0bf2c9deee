"""Runtime context: per-run options passed as LangGraph's ``context`` (not checkpointed)."""

from __future__ import annotations

from dataclasses import dataclass

from langgraph.runtime import Runtime

from confidence.model_log import ModelBudget

__all__ = ["GraceContext", "context_of"]


@dataclass(kw_only=True)
class GraceContext:
    """Options of one run, given as ``graph.invoke(..., context=GraceContext(...))``.

    Every field defaults to the settings' value, so ``GraceContext()`` is always valid.
    """

    user_id: str | None = None
    """Whose learned thresholds apply (default: settings ``user_id``)."""
    collection: str | None = None
    """Collection searched when a plan step names none (default: settings)."""
    top_k: int | None = None
    """Hits per search (default: settings ``retrieval.top_k``)."""
    max_replans: int | None = None
    """Replan budget of this run (default: settings ``run.max_replans``)."""
    model: str | None = None
    """Chat model of this run, ``provider:model`` or ``offline`` (default: ``models.chat``)."""
    model_budget: ModelBudget | None = None
    """The run's model time, spent across its steps (``GraceApp`` starts one per invocation
    from ``models.run_budget_seconds``; None: no limit)."""


def context_of(runtime: Runtime[GraceContext] | None) -> GraceContext:
    """The run's context, or the defaults when none was given."""
    ctx = runtime.context if runtime is not None else None
    return ctx if isinstance(ctx, GraceContext) else GraceContext()
