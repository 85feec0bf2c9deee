"""The run's model time: its context's, else one per run started from the settings.

``GraceApp`` (the CLI) starts a :class:`~confidence.model_log.ModelBudget` for each
invocation and carries it in the run's context (``GraceContext.model_budget``). A graph run
by someone else — ``langgraph dev`` / LangGraph Studio, or your own ``graph.invoke`` — has
none in its context; it gets one from ``models.run_budget_seconds`` (22 s against a named
``base_url``) per *run*: LangGraph's server gives every run its id (``config["run_id"]``,
read from :attr:`langgraph.runtime.Runtime.execution_info`), so the steps of one run share
one budget and the next run — a resume included — starts its own. A run without an id
(``graph.invoke`` with no ``run_id`` in its config) cannot be told from the next one and
keeps running without a limit, as before (docs/architecture.md §6).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from langgraph.runtime import Runtime

from confidence.model_log import ModelBudget
from grace.context import GraceContext, context_of
from grace.services import ServicesSource, aservices_for, services_for
from grace.settings import GraceSettings

__all__ = ["RunBudgets"]

_KEPT_RUNS = 1024
"""Budgets of this many recent runs are kept (a run that still goes on after as many newer
ones started gets a fresh budget: a longer run, never a wrong failure)."""


def _run_id(runtime: Runtime[GraceContext]) -> str | None:
    """The run's id when the context carries no budget and the run has one."""
    if context_of(runtime).model_budget is not None:
        return None
    info = runtime.execution_info
    return info.run_id if info is not None else None


class RunBudgets:
    """The model time of each run of one graph (``graph.builder.make_builder`` makes one).

    Owned by the graph, not the process: two graphs never share a run's budget.
    """

    def __init__(self, kept: int = _KEPT_RUNS) -> None:
        """Keep the budgets of the ``kept`` most recent runs."""
        self._kept = kept
        self._runs: OrderedDict[str, ModelBudget] = OrderedDict()
        self._lock = threading.Lock()

    def _of_run(self, run_id: str, settings: GraceSettings) -> ModelBudget | None:
        """The budget of run ``run_id``, started by its first step."""
        seconds = settings.model_run_budget()
        if seconds is None:
            return None
        with self._lock:
            budget = self._runs.get(run_id)
            if budget is None:
                budget = self._runs[run_id] = ModelBudget.start(seconds)
                while len(self._runs) > self._kept:
                    self._runs.popitem(last=False)
            return budget

    def get(self, runtime: Runtime[GraceContext], services: ServicesSource) -> ModelBudget | None:
        """The model time of the run ``runtime`` belongs to (None: no limit)."""
        run_id = _run_id(runtime)
        if run_id is None:
            return context_of(runtime).model_budget
        return self._of_run(run_id, services_for(runtime, services).settings)

    async def aget(
        self, runtime: Runtime[GraceContext], services: ServicesSource
    ) -> ModelBudget | None:
        """:meth:`get` for async nodes (the services built off the event loop)."""
        if _run_id(runtime) is None:
            return context_of(runtime).model_budget
        return self.get(runtime, await aservices_for(runtime, services))
