"""What one evaluated run leaves behind: a JSON-ready record built from the graph's state."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from grace.planning.roles import is_answer, is_search
from grace.schemas import ExecutionPlan, Source, StepResult, StepStatus
from graph.evaluation.dataset import Question

__all__ = ["Chunk", "RunRecord", "StepRecord", "build_record"]

PAUSING_LEVELS = frozenset({"confirm", "escalate"})
"""Levels at which the agent hands the question to a person."""


@dataclass(frozen=True, kw_only=True)
class Chunk:
    """A retrieved or cited passage."""

    source_id: str
    source: str
    chunk_index: int
    score: float
    text: str
    title: str = ""
    """Title of the passage's document (the reader reads the passage with it)."""
    location: str = ""
    """Where in the document (``§ heading path``, ``p. 3``); the reader reads it too."""

    @classmethod
    def of(cls, src: Source) -> Chunk:
        """Copy the fields of a :class:`~grace.schemas.Source`."""
        return cls(
            source_id=src.source_id,
            source=src.source,
            chunk_index=src.chunk_index,
            score=round(src.score, 4),
            text=src.text,
            title=src.title,
            location=src.location,
        )

    @property
    def key(self) -> str:
        """``source#chunk_index``: the same passage under any citation id."""
        return f"{self.source}#{self.chunk_index}"


@dataclass(frozen=True, kw_only=True)
class StepRecord:
    """One plan step and its result (``status`` is ``pending`` when the run paused first)."""

    step_id: str
    action: str
    query: str
    collection: str | None
    status: str
    output: str = ""
    confidence: float | None = None
    sources: list[Chunk] = field(default_factory=list)
    factors: dict[str, float] = field(default_factory=dict)
    execution_time_ms: float = 0.0
    error: str | None = None
    """Why the step failed (a model or tool error), when it did."""


@dataclass(kw_only=True)
class RunRecord:
    """One question's run: plan, steps, scores, outcome, cost and (later) scorer details."""

    question: Question
    status: str
    """``completed``, ``interrupted`` (paused for a person) or ``error``."""
    answer: str
    """The answer given (or drafted when paused); empty when no answer step ran."""
    answered: bool
    """An answer step produced an answer (not an abstention)."""
    confidence: float
    """Final confidence, or the confidence at the pause."""
    level: str
    """Final intervention level, or the level of the pause."""
    steps: list[StepRecord] = field(default_factory=list)
    scores: dict[str, dict[str, Any]] = field(default_factory=dict)
    cited: list[Chunk] = field(default_factory=list)
    latency_ms: float = 0.0
    model_calls: int = 0
    tokens: int = 0
    error: str | None = None
    scorer_details: dict[str, Any] = field(default_factory=dict)

    @property
    def intervened(self) -> bool:
        """The run ended (or paused) at CONFIRM or ESCALATE."""
        return self.level in PAUSING_LEVELS

    @property
    def problems(self) -> list[str]:
        """Model / tool errors of this run: the run's own, then each failed step's."""
        errors = [self.error] if self.error else []
        return errors + [f"{s.step_id} ({s.action}): {s.error}" for s in self.steps if s.error]

    @property
    def search_steps(self) -> list[StepRecord]:
        """Executed search steps, in plan order."""
        return [s for s in self.steps if is_search(s.action) and s.status != "pending"]

    @property
    def retrieved(self) -> list[Chunk]:
        """Every chunk any search step retrieved (best first within each step)."""
        return [c for s in self.search_steps for c in s.sources]

    @property
    def plan_actions(self) -> list[str]:
        """The planned actions, in order."""
        return [s.action for s in self.steps]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the ``runs.jsonl`` line)."""
        data = asdict(self)
        data["question"] = asdict(self.question)
        data["intervened"] = self.intervened
        return data


def _step(plan_step: Any, result: StepResult | None) -> StepRecord:
    if result is None:
        return StepRecord(
            step_id=plan_step.step_id,
            action=plan_step.action,
            query=plan_step.query,
            collection=plan_step.collection,
            status="pending",
        )
    return StepRecord(
        step_id=plan_step.step_id,
        action=result.action or plan_step.action,
        query=plan_step.query,
        collection=plan_step.collection,
        status=str(result.status.value),
        output=result.output,
        confidence=result.confidence,
        sources=[Chunk.of(s) for s in result.sources],
        factors=dict(result.factors),
        execution_time_ms=result.execution_time_ms,
        error=result.error,
    )


def _steps_of(state: dict[str, Any], default_collection: str | None) -> list[StepRecord]:
    """The plan's steps with their results (searches without a collection get the default)."""
    plan: ExecutionPlan | None = state.get("plan")
    results: dict[str, StepResult] = state.get("results") or {}
    steps = [_step(s, results.get(s.step_id)) for s in plan.steps] if plan else []
    if default_collection is None:
        return steps
    return [
        s if s.collection or not is_search(s.action) else _with_collection(s, default_collection)
        for s in steps
    ]


def _outcome(output: dict[str, Any], answer_step: StepRecord | None) -> tuple[str, float, str, str]:
    """Status, confidence, level and answer of a finished or interrupted run."""
    interrupts = output.get("__interrupt__") or ()
    if interrupts:
        payload = interrupts[0].value if hasattr(interrupts[0], "value") else interrupts[0]
        answer = answer_step.output if answer_step is not None else ""
        return "interrupted", float(payload["confidence"]), str(payload["level"]), answer
    level = str(getattr(output.get("level"), "value", output.get("level")))
    conf = float(output.get("confidence") or 0.0)
    return "completed", conf, level, str(output.get("answer") or "")


def build_record(
    question: Question,
    output: dict[str, Any],
    state: dict[str, Any],
    *,
    latency_ms: float,
    default_collection: str | None = None,
) -> RunRecord:
    """Build a record from ``graph.invoke``'s output and ``graph.get_state(...).values``."""
    steps = _steps_of(state, default_collection)
    answer_step = next(
        (s for s in reversed(steps) if is_answer(s.action) and s.status != "pending"), None
    )
    status, conf, level, answer = _outcome(output, answer_step)
    answered = answer_step is not None and answer_step.status == StepStatus.SUCCESS.value
    usage = state.get("usage")
    scores = state.get("scores") or {}
    return RunRecord(
        question=question,
        status=status,
        answer=answer,
        answered=answered,
        confidence=round(conf, 6),
        level=level.lower(),
        steps=steps,
        scores={k: v.model_dump(mode="json") for k, v in scores.items()},
        cited=list(answer_step.sources) if answer_step is not None and answered else [],
        latency_ms=round(latency_ms, 3),
        model_calls=int(getattr(usage, "model_calls", 0)),
        tokens=int(getattr(usage, "input_tokens", 0)) + int(getattr(usage, "output_tokens", 0)),
    )


def _with_collection(step: StepRecord, collection: str) -> StepRecord:
    data = asdict(step)
    data["collection"] = collection
    data["sources"] = step.sources
    return StepRecord(**data)
