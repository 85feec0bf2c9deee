"""Graph state: what LangGraph checkpoints between nodes.

Every field is typed (pydantic models, enums, lists and dicts of them) so the state survives
``LANGGRAPH_STRICT_MSGPACK=true``: types in the schema are allow-listed at ``compile()``.
"""

# No `from __future__ import annotations`: LangGraph and the checkpoint serializer read the
# fields' types at every compile; as objects they need no evaluating (docs/performance.md).
import operator
from dataclasses import MISSING, dataclass, field, fields
from typing import Annotated, Any, Literal, get_origin, get_type_hints

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from langgraph.types import Overwrite

from confidence.config import Thresholds
from confidence.types import ActionDecision, ConfidenceScore, InterventionLevel
from grace.schemas import (
    ExecutionPlan,
    InterventionRecord,
    PlanStep,
    QualityCheck,
    ReplanRecord,
    Source,
    StepResult,
    TokenUsage,
)

__all__ = [
    "ABANDONED_TURN_NOTE",
    "InputState",
    "InterveneInput",
    "OutputState",
    "PauseInput",
    "ReplanRequest",
    "ReviewOutcome",
    "State",
    "THREAD_FIELDS",
    "StepConfidence",
    "StepTask",
    "changed_only",
    "new_turn",
]

ReviewOutcome = Literal["continue", "replan", "finalize"]


def _add_usage(left: TokenUsage, right: TokenUsage) -> TokenUsage:
    return left + right


def _merge(left: dict[str, Any], right: dict[str, Any]) -> dict[str, Any]:
    """A node's update adds (or replaces) entries by key: nodes return only what changed."""
    return {**left, **right}


@dataclass(frozen=True, kw_only=True)
class StepConfidence:
    """An update to ``results`` that sets one step's confidence, the rest of its result kept.

    ``confidence`` scores the results ``execute`` wrote: writing each scored result whole
    again would put its passages, with their text, into one more pending write per step.
    """

    confidence: float
    """The step's confidence score (``StepResult.confidence``)."""
    token_usage: TokenUsage | None = None
    """The step's usage with its judge call's (``StepResult.token_usage``); ``None``: as it was."""

    def applied_to(self, result: StepResult) -> StepResult:
        """``result`` with this confidence (and usage)."""
        update: dict[str, Any] = {"confidence": self.confidence}
        if self.token_usage is not None:
            update["token_usage"] = self.token_usage
        return result.model_copy(update=update)


def _merge_results(
    left: dict[str, StepResult], right: dict[str, StepResult | StepConfidence]
) -> dict[str, StepResult]:
    """``results``' reducer: :func:`_merge` by step id.

    A :class:`StepConfidence` sets the confidence of the result already there.
    """
    out = {**left}
    for step_id, value in right.items():
        if isinstance(value, StepConfidence):
            if step_id not in left:
                raise ValueError(f"a confidence for step {step_id!r}, which has no result")
            value = value.applied_to(left[step_id])
        out[step_id] = value
    return out


@dataclass(kw_only=True)
class ReplanRequest:
    """Why the next ``replan`` runs (set by ``confidence`` or ``intervene``)."""

    trigger: Literal["step_failed", "low_confidence", "human_edit", "human_response"]
    """What asked for a new plan."""
    detail: str = ""
    """Failed step ids, the person's new question, or their response text."""


@dataclass(kw_only=True)
class StepTask:
    """What one ``execute`` task gets through ``Send``: a plan step and what it may read."""

    step: PlanStep
    """The step to run."""
    dependencies: list[StepResult] = field(default_factory=list)
    """Results of the steps it depends on, in ``depends_on`` order."""
    human_sources: list[Source] = field(default_factory=list)
    """Information the person gave in ``response`` replies."""
    defer_fallback: bool = False
    """A transient failure after the last retry leaves the fallback to ``replan``."""
    skip: str | None = None
    """Why the step is not run (a dependency failed): it is recorded as SKIPPED."""


@dataclass(kw_only=True)
class InputState:
    """What a run takes: a question, or Studio chat messages whose last human turn is one."""

    query: str = ""
    """The question. When empty, the last human message is used."""
    messages: Annotated[list[AnyMessage], add_messages] = field(default_factory=list)
    """Chat transcript (Studio's chat view); the final answer is appended as an AI message."""


@dataclass(kw_only=True)
class OutputState:
    """What a run returns."""

    answer: str = ""
    """Final answer, citing sources as [S1], [S2] …"""
    sources: list[Source] = field(default_factory=list)
    """Passages the answer cites."""
    confidence: float | None = None
    """Overall confidence 0–1 (set by the final confidence check and by finalize)."""
    level: InterventionLevel | None = None
    """Intervention level of the overall confidence."""
    messages: Annotated[list[AnyMessage], add_messages] = field(default_factory=list)
    """Chat transcript including the answer."""
    notes: Annotated[list[str], operator.add] = field(default_factory=list)
    """Things the person should know: budget exhausted, unreviewed answer, …"""


@dataclass(kw_only=True)
class State(InputState, OutputState):
    """Full working state of a run (the input and output fields are inherited)."""

    plan: ExecutionPlan | None = None
    """The plan in force (replaced by ``replan``)."""
    results: Annotated[dict[str, StepResult], _merge_results] = field(default_factory=dict)
    """Step results by step id (kept across replans for completed steps); nodes return the
    results they add or change, merged in by step id (``confidence`` sets a scored step's
    confidence with a :class:`StepConfidence`, not its whole result again)."""
    scores: Annotated[dict[str, ConfidenceScore], _merge] = field(default_factory=dict)
    """Confidence score of each scored step, by step id (merged like ``results``)."""
    last_batch: list[str] = field(default_factory=list)
    """Step ids executed (or skipped) by the latest ``execute``."""
    decision: ActionDecision | None = None
    """Decision on the latest batch (or, after the last step, on the overall confidence)."""
    run_decision: ActionDecision | None = None
    """The run's decision: taken by ``confidence`` after the last step, on the overall
    confidence (its level is ``level``); ``finalize`` reports it."""
    thresholds: Thresholds | None = None
    """The user's thresholds in force for this turn: read once, by the first ``confidence``
    (learned ones when the graph has a store); ``intervene`` writes the learner's new ones
    after a reply."""
    review: ReviewOutcome | None = None
    """What the latest intervention decided."""
    replan_request: ReplanRequest | None = None
    """Pending reason to replan."""
    replan_budget: int = 2
    """Replans allowed in this run (from context or settings, set by ``plan``)."""
    human_sources: list[Source] = field(default_factory=list)
    """Information the person gave in ``response`` replies, used as sources."""
    edited_answer: str | None = None
    """An answer the person wrote in an ``edit`` reply; it becomes the final answer."""
    interventions: Annotated[list[InterventionRecord], operator.add] = field(default_factory=list)
    """Every pause and the reply to it."""
    replans: Annotated[list[ReplanRecord], operator.add] = field(default_factory=list)
    """Every replanning with its trigger and strategy."""
    quality: Annotated[list[QualityCheck], operator.add] = field(default_factory=list)
    """Every quality-gate evaluation of an answer attempt (``grace.scoring.quality_gate``)."""
    user_id: str | None = None
    """User whose learned thresholds the run decides with (set by ``confidence``); a resume
    that names no user keeps learning for this one."""
    usage: Annotated[TokenUsage, _add_usage] = field(default_factory=TokenUsage)
    """Model calls and tokens of the whole run."""
    collection: str | None = None
    """The collection the thread was asked about (set by ``plan`` from the run's context): every
    plan, replan and resume of the thread searches it alone. ``None``: no collection was named,
    the planner chooses among them."""
    archived_turns: int = 0
    """Earlier turns of the thread moved out of ``messages`` to the store by ``plan`` (only the
    latest ``checkpoint.turns_in_state`` stay in state; ``grace.storage.transcript``)."""

    @property
    def replan_count(self) -> int:
        """Replans done in this turn: one :class:`ReplanRecord` each (not a channel of its own)."""
        return len(self.replans)


@dataclass(kw_only=True)
class PauseInput:
    """What ``pause`` reads (its input schema): the decision, the draft's step and the notes.

    LangGraph gives the node only these channels, so its reads are in its signature.
    """

    decision: ActionDecision | None = None
    """The decision that paused the run."""
    plan: ExecutionPlan | None = None
    """The plan whose answer step holds the draft."""
    results: Annotated[dict[str, StepResult], _merge_results] = field(default_factory=dict)
    """Step results by step id (the draft and the batch's sources)."""
    last_batch: list[str] = field(default_factory=list)
    """Step ids of the batch the decision is on."""
    notes: Annotated[list[str], operator.add] = field(default_factory=list)
    """The run's notes (a model failure changes the message)."""


@dataclass(kw_only=True)
class InterveneInput(PauseInput):
    """What ``intervene`` reads (its input schema).

    ``pause``'s input, plus the question, the batch's scores, the person's earlier replies
    and the run's user.
    """

    query: str = ""
    """The question shown in the request (an ``edit`` may change it)."""
    scores: Annotated[dict[str, ConfidenceScore], _merge] = field(default_factory=dict)
    """Confidence scores by step id (the request shows the batch's breakdown)."""
    human_sources: list[Source] = field(default_factory=list)
    """The person's earlier ``response`` replies (a new one is appended)."""
    user_id: str | None = None
    """Whose learned thresholds the reply teaches."""


ABANDONED_TURN_NOTE = (
    "the previous question on this thread was still open (paused or stopped midway) and was "
    "set aside for this one; it was not answered"
)
"""Note of a turn that replaced an open one (a new question sent instead of a reply)."""


THREAD_FIELDS = frozenset(
    {
        "messages",
        "archived_turns",
        "user_id",
        "collection",
        "query",
        "plan",
        "replan_budget",
        "usage",
    }
)
"""State fields a new turn does not reset: the thread's transcript (and how many of its turns
moved to the store), user and collection, and
those ``plan`` writes itself for the new turn (its question, plan, budget and usage)."""


def _turn_reset(state: State) -> dict[str, Any]:
    """Every other field of the state's schema at its default; reducer channels by ``Overwrite``."""
    hints = get_type_hints(type(state), include_extras=True)
    reset: dict[str, Any] = {}
    for f in fields(state):
        if f.name in THREAD_FIELDS:
            continue
        default = f.default_factory() if f.default_factory is not MISSING else f.default
        reducer = get_origin(hints[f.name]) is Annotated
        reset[f.name] = Overwrite(default) if reducer else default
    return reset


def new_turn(state: State) -> dict[str, Any]:
    """The update that clears the previous turn's working state (empty on a thread's first).

    A thread holds one conversation: a second question on it is a new turn, planned and run
    from scratch, with ``messages`` (the transcript) kept. Without this, the new plan's step
    ids would find the old turn's results and the old answer would come back. The reset is
    derived from the schema: every field but :data:`THREAD_FIELDS` goes back to its default,
    reducer channels through ``Overwrite``; the earlier turns stay in the checkpoint history.
    """
    if state.plan is None:
        return {}
    reset = _turn_reset(state)
    # A pause (or a run stopped midway) has no answer yet: the chat / SDK sent a new question
    # instead of a reply. The CLI and GraceApp refuse that; here it is said, never silent.
    reset["notes"] = Overwrite([] if state.answer else [ABANDONED_TURN_NOTE])
    return reset


REDUCED_FIELDS = frozenset(
    name
    for name, hint in get_type_hints(State, include_extras=True).items()
    if get_origin(hint) is Annotated
)
"""State fields with a reducer: an update adds to them (``messages``, ``results``, ``usage`` …)."""
_ZERO_USAGE = TokenUsage()


def _adds_nothing(value: Any) -> bool:
    """An update its reducer leaves the channel unchanged by: an empty list or dict, no usage."""
    if isinstance(value, list | dict):
        return not value
    return isinstance(value, TokenUsage) and value == _ZERO_USAGE


def changed_only(update: dict[str, Any], read: object) -> dict[str, Any]:
    """``update`` without the writes that change nothing in the state.

    ``read`` is what the node read: the state, or its input schema (``PauseInput``,
    ``InterveneInput``), or a ``Send`` payload (``StepTask``), whose fields are not
    channels. Dropped: an empty addition to a reducer channel (:data:`REDUCED_FIELDS`), and a
    value equal to the one the node read on a plain channel. Every write is a pending write,
    a new channel version and a value serialised into the next checkpoint; one that changes
    nothing costs all three and tells the next step nothing. ``Overwrite`` is always kept.
    """
    channels = read.__dataclass_fields__ if isinstance(read, State | PauseInput) else {}
    out: dict[str, Any] = {}
    for channel, value in update.items():
        if isinstance(value, Overwrite):
            out[channel] = value
        elif channel in REDUCED_FIELDS:
            if not _adds_nothing(value):
                out[channel] = value
        elif channel not in channels or getattr(read, channel) != value:
            out[channel] = value
    return out
