"""Model-backed planner: structured output → :class:`ExecutionPlan`."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from confidence.model_log import ModelLog, calls_made
from grace.planning.blocks import estimate_complexity
from grace.planning.roles import ANSWER, ASK, SEARCH
from grace.providers.base import PlanOutcome, PlanRequest, usage_from_message
from grace.providers.llm.streaming import Budget
from grace.providers.llm.structured import (
    FormatMemory,
    StructuredCall,
    read_structured,
)
from grace.providers.models import DEFAULT_METHODS
from grace.providers.prompts import PLANNER_SYSTEM
from grace.providers.reach import ModelCall, model_call
from grace.schemas import ExecutionPlan, PlanStep, TokenUsage

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = ["LLMPlanner", "PlanDraft"]

_TEMPLATE = "the template plan was used"
"""What a failed plan call falls back to, as the run's notes say it."""


class PlanDraft(BaseModel):
    """The structured output asked of the model."""

    steps: list[PlanStep] = Field(description="The plan's steps in execution order.")
    complexity: float = Field(default=0.5, ge=0, le=1, description="0 simple … 1 complex.")
    requires_confirmation: bool = Field(
        default=False, description="True if a person should approve the plan first."
    )


class LLMPlanner:
    """Plans with one structured-output call; simple questions skip the call entirely.

    The structured-output runnable is built once
    (:class:`grace.providers.llm.structured.StructuredCall`).
    """

    def __init__(
        self,
        model: BaseChatModel,
        *,
        actions: list[str],
        skip_below_complexity: float = 0.3,
        stream: Budget | None = None,
        methods: Sequence[str] = DEFAULT_METHODS,
        memory: FormatMemory | None = None,
    ) -> None:
        """Create a planner over ``model`` that may use the registered ``actions``.

        ``stream``: stream each call within this budget (None: one plain call).
        ``methods``: structured-output methods to try, in order (the provider's);
        ``memory``: which works, per model, shared with other calls (None: its own).
        """
        self.model = model
        self.actions = actions
        self.skip_below_complexity = skip_below_complexity
        self._structured = StructuredCall(
            model, PlanDraft, role="plan", stream=stream, methods=methods, memory=memory
        )

    def _messages(self, request: PlanRequest) -> list[Any]:
        feedback = (
            f"\nA previous attempt fell short: {request.feedback}" if request.feedback else ""
        )
        tools = request.tools or {name: "" for name in self.actions}
        system = PLANNER_SYSTEM.format(
            actions="\n".join(
                f"- {name}: {text}" if text else f"- {name}" for name, text in tools.items()
            ),
            search=SEARCH,
            answer=ANSWER,
            ask=ASK,
            collections=", ".join(request.collections) or request.default_collection,
            default=request.default_collection,
            max_steps=request.max_steps,
            feedback=feedback,
        )
        return [SystemMessage(system), HumanMessage(request.query)]

    def _skip(self, request: PlanRequest) -> bool:
        return (
            request.feedback is None
            and estimate_complexity(request.query) < self.skip_below_complexity
        )

    def _outcome(self, request: PlanRequest, result: Any, log: ModelLog) -> PlanOutcome:
        usage = usage_from_message(result.get("raw")) if isinstance(result, dict) else TokenUsage()
        # A tool call, or JSON in the text (Gemini's JSON mode, models with no tool calling).
        read = read_structured(result, PlanDraft, what="planner")
        if read.value is None:
            log.failure("plan", f"{read.error}; {_TEMPLATE}")
            return PlanOutcome(plan=None, usage=usage, error=f"plan output invalid: {read.error}")
        draft = read.value
        plan = ExecutionPlan(
            original_query=request.query,
            complexity=draft.complexity,
            steps=draft.steps,
            requires_confirmation=draft.requires_confirmation,
            origin="llm",
        )
        return PlanOutcome(plan=plan, usage=usage)

    def _call(self, log: ModelLog) -> AbstractContextManager[ModelCall]:
        """Around the model call: an unreachable model stops the run, a failure is named."""
        return model_call(self.model, "plan", log, fallback=_TEMPLATE)

    @staticmethod
    def _failed(call: ModelCall) -> PlanOutcome:
        """The template plan, with the model's failure."""
        calls = 1 if call.failed is None else calls_made(call.failed)
        error = f"planner model failed: {call.failed}"
        return PlanOutcome(plan=None, usage=TokenUsage(model_calls=calls), error=error)

    def plan(self, request: PlanRequest, *, log: ModelLog | None = None) -> PlanOutcome:
        """Ask the model for a plan (or return ``None`` for the template when simple).

        Raises:
            ModelUnreachableError: the model could not be connected to (the run stops).

        """
        if self._skip(request):
            return PlanOutcome(plan=None, error="simple question: template plan, no model call")
        log = ModelLog.of(log)
        result: Any = None
        with self._call(log) as call:  # any model failure falls back to the template
            result = self._structured.invoke(self._messages(request), log)
        return self._failed(call) if call.failed else self._outcome(request, result, log)

    async def aplan(self, request: PlanRequest, *, log: ModelLog | None = None) -> PlanOutcome:
        """Async :meth:`plan`."""
        if self._skip(request):
            return PlanOutcome(plan=None, error="simple question: template plan, no model call")
        log = ModelLog.of(log)
        result: Any = None
        with self._call(log) as call:
            result = await self._structured.ainvoke(self._messages(request), log)
        return self._failed(call) if call.failed else self._outcome(request, result, log)
