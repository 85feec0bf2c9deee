"""What a tool is given and must return."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from confidence.model_log import ModelLog
from grace.planning.roles import Role
from grace.providers.base import Reader
from grace.retrieval import CorpusStore
from grace.schemas import PlanStep, Source, StepResult, ToolResult

__all__ = ["Tool", "ToolCall", "ToolEnv"]


@dataclass(kw_only=True)
class ToolEnv:
    """Services tools use (never serialised)."""

    store: CorpusStore
    """Document store."""
    reader: Reader
    """Grounded answer generator."""
    default_collection: str
    """Collection searched when a step names none."""
    top_k: int
    """Hits per search."""
    log: ModelLog | None = None
    """The graph step's model log: a tool that calls a model passes it on (``log=``), so
    the call keeps to the run's model time and its failures become the run's notes (None
    outside a graph step)."""


@dataclass(kw_only=True)
class ToolCall:
    """One step to run, with the results it depends on."""

    step: PlanStep
    """The plan step."""
    dependencies: list[StepResult] = field(default_factory=list)
    """Results of the step's dependencies, in ``depends_on`` order."""
    human_sources: list[Source] = field(default_factory=list)
    """Information the person gave at earlier interventions."""
    feedback: str | None = None
    """Reviewer feedback for a regenerated answer."""


@runtime_checkable
class Tool(Protocol):
    """A registered action."""

    name: str
    """Name plans refer to."""
    description: str
    """One line for planners (listed in the planner's prompt) and docs."""
    role: Role
    """What the step is for: ``search`` steps are scored by search quality, ``answer``
    steps are judged and gated, ``ask`` steps pause for the person (:mod:`grace.planning.roles`)."""
    signals: tuple[str, ...]
    """Names of the confidence signals the tool reports in ``ToolResult.confidence_factors``
    (read by registered confidence factors through ``ConfidenceFactors.signals``)."""

    def runs_inline(self, env: ToolEnv) -> bool:
        """Whether :meth:`run` may run in the node's thread.

        Only for in-process CPU work with nothing to hang on; otherwise ``execute`` runs the
        tool in a worker thread under the step's timeout.
        """
        ...

    def run(self, call: ToolCall, env: ToolEnv) -> ToolResult:
        """Run the step."""
        ...

    async def arun(self, call: ToolCall, env: ToolEnv) -> ToolResult:
        """Run the step without blocking the event loop."""
        ...
