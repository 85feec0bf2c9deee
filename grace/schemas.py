"""Plans, steps and results: the data model of a GRACE run (docs/architecture.md §2)."""

# No `from __future__ import annotations`: pydantic reads the fields' types at import; as
# objects they need no evaluating (docs/performance.md).
import uuid
from enum import StrEnum
from pathlib import PurePath

from pydantic import BaseModel, ConfigDict, Field

from confidence.evaluation_types import Criterion, EvaluationType, RubricBand
from confidence.types import InterventionLevel

__all__ = [
    "ExecutionPlan",
    "InterventionRecord",
    "PlanStep",
    "QualityCheck",
    "ReplanRecord",
    "Source",
    "StepEvaluation",
    "StepResult",
    "StepStatus",
    "TokenUsage",
    "ToolResult",
    "new_id",
]


def new_id(prefix: str) -> str:
    """Return a short unique id such as ``plan-1a2b3c4d``."""
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


class StepEvaluation(BaseModel):
    """How the quality gate evaluates an answer step: a plan step's own gate config."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    type: EvaluationType = Field(
        default="scoring", description="scoring, criteria, rubric or comparison."
    )
    criteria: list[Criterion] = Field(
        default_factory=list, description="For criteria: {name, description, weight} each."
    )
    rubric: list[RubricBand] = Field(
        default_factory=list, description="For rubric: {grade, min_score} each (empty: A–F)."
    )
    pass_threshold: float | None = Field(
        default=None, ge=0.0, le=1.0, description="Score needed to pass; None = the settings'."
    )


class PlanStep(BaseModel):
    """One step of a plan: a registered tool applied to a query."""

    model_config = ConfigDict(extra="ignore")

    step_id: str = Field(description="Unique id within the plan, e.g. 's1'.")
    action: str = Field(description="A registered tool name: rag_search, reasoning or ask_user.")
    description: str = Field(default="", description="What this step does, for people.")
    query: str = Field(default="", description="The search query or the question to answer.")
    collection: str | None = Field(
        default=None, description="Collection to search (rag_search only); None = default."
    )
    depends_on: list[str] = Field(
        default_factory=list, description="Ids of earlier steps whose outputs this step uses."
    )
    expected_output: str = Field(default="", description="What a good output looks like.")
    fallback: str | None = Field(
        default=None, description="Registered tool to run if this step's action fails."
    )
    timeout_seconds: float | None = Field(
        default=None, gt=0, description="Per-step timeout; None = the settings' default."
    )
    evaluation: StepEvaluation | None = Field(
        default=None,
        description="How the answer step's quality is checked; None = the settings' gate.",
    )


class ExecutionPlan(BaseModel):
    """An ordered set of steps that answers a query."""

    model_config = ConfigDict(extra="ignore")

    plan_id: str = Field(default_factory=lambda: new_id("plan"), description="Unique plan id.")
    original_query: str = Field(description="The question the plan answers.")
    complexity: float = Field(default=0.0, ge=0.0, le=1.0, description="Estimated 0–1.")
    steps: list[PlanStep] = Field(default_factory=list, description="Steps in execution order.")
    requires_confirmation: bool = Field(
        default=False, description="Whether a person should confirm the plan before it runs."
    )
    origin: str = Field(default="template", description="template, offline, llm or replan.")
    repairs: list[str] = Field(
        default_factory=list, description="What validation changed, one line per repair."
    )


class TokenUsage(BaseModel):
    """Model calls and tokens spent."""

    model_calls: int = 0
    """Number of chat-model requests."""
    input_tokens: int = 0
    """Prompt tokens reported by the provider (0 offline)."""
    output_tokens: int = 0
    """Completion tokens reported by the provider (0 offline)."""

    def __add__(self, other: "TokenUsage") -> "TokenUsage":
        """Sum two usages."""
        return TokenUsage(
            model_calls=self.model_calls + other.model_calls,
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
        )


class Source(BaseModel):
    """A passage an output rests on."""

    source_id: str
    """Citation key used in answers, e.g. ``S1``."""
    source: str
    """File name (or ``human`` for a person's response)."""
    title: str = ""
    """Document title."""
    chunk_index: int = 0
    """Chunk number within the document."""
    location: str = ""
    """Where in the file (``p. 3``, ``row 4``, ``§ heading path``); empty for plain text."""
    text: str = ""
    """The passage."""
    score: float = Field(default=0.0, ge=0.0, le=1.0)
    """Normalised retrieval score."""
    collection: str = ""
    """The collection the passage came from (``""``: not from a search, or recorded before
    sources named it)."""

    @property
    def citation(self) -> str:
        """``rules.pdf p. 3`` (file and place), or just the file when the place is unknown."""
        return f"{self.source} {self.location}" if self.location else self.source

    @property
    def stated_title(self) -> str:
        """The title the document states (a heading, an HTML title), else ``""``.

        ``""`` too when the title is only the file's name, which ingestion takes for a
        document that states none.
        """
        title = self.title.strip()
        return "" if title == PurePath(self.source).stem else title


class ToolResult(BaseModel):
    """What a tool returns to ``execute``."""

    success: bool
    """Whether the tool produced a usable output."""
    output: str = ""
    """The tool's text output (answer, summary of hits, question to the user)."""
    confidence_factors: dict[str, float] = Field(default_factory=dict)
    """Measured factors for the confidence calculator (names of ``ConfidenceFactors``)."""
    sources: list[Source] = Field(default_factory=list)
    """Passages behind the output."""
    error: str | None = None
    """Why the tool failed."""
    execution_time_ms: float = 0.0
    """Wall time of the tool call."""
    usage: TokenUsage = Field(default_factory=TokenUsage)
    """Model calls and tokens spent by the tool."""


class StepStatus(StrEnum):
    """Outcome of a step."""

    SUCCESS = "success"
    FAILED = "failed"
    PARTIAL = "partial"
    SKIPPED = "skipped"


class StepResult(BaseModel):
    """A step's outcome as recorded in the graph state."""

    step_id: str
    """Id of the plan step."""
    action: str = ""
    """Tool that actually ran (the fallback, if it was used)."""
    status: StepStatus
    """success / failed / partial / skipped."""
    output: str = ""
    """The step's output text."""
    confidence: float | None = None
    """The step's confidence score, set by the confidence node."""
    sources: list[Source] = Field(default_factory=list)
    """Passages the output rests on."""
    error: str | None = None
    """Why the step failed or was skipped."""
    execution_time_ms: float = 0.0
    """Wall time of the step."""
    token_usage: TokenUsage = Field(default_factory=TokenUsage)
    """Model calls and tokens (always filled when a model was called)."""
    factors: dict[str, float] = Field(default_factory=dict)
    """Measured confidence factors reported by the tool."""
    used_fallback: bool = False
    """Whether the declared fallback action produced this result."""
    started_at: float = 0.0
    """Start time (``time.time()``), to show concurrency."""
    finished_at: float = 0.0
    """End time (``time.time()``)."""


class InterventionRecord(BaseModel):
    """A pause for a person and what they answered."""

    model_config = ConfigDict(defer_build=True)

    step_ids: list[str]
    """Steps under review."""
    level: InterventionLevel
    """CONFIRM or ESCALATE."""
    score: float
    """Score that triggered it."""
    response_type: str
    """accept, edit, response or ignore."""
    args: dict[str, str] = Field(default_factory=dict)
    """The person's edit or response."""


class ReplanRecord(BaseModel):
    """One replanning: why, how and what changed."""

    model_config = ConfigDict(defer_build=True)

    trigger: str
    """step_failed, low_confidence, human_edit or human_response."""
    strategy: str
    """partial, full or fallback."""
    reason: str
    """Human-readable explanation."""
    kept_steps: list[str] = Field(default_factory=list)
    """Completed steps carried over."""
    new_steps: list[str] = Field(default_factory=list)
    """Steps added by the new plan."""


class QualityCheck(BaseModel):
    """One evaluation of an answer attempt by the quality gate (the evaluator block, §4)."""

    step_id: str
    """The answer step."""
    attempt: int = Field(default=0, ge=0)
    """0 for the executed answer, 1 … for regenerations with the gate's feedback."""
    passed: bool | None = None
    """Whether the attempt passed; None when it could not be evaluated (not measured)."""
    score: float | None = Field(default=None, ge=0.0, le=1.0)
    """The evaluation's overall score; None when not measured."""
    pass_threshold: float = Field(default=0.0, ge=0.0, le=1.0)
    """Score needed to pass."""
    evaluation: str = "judge"
    """``judge`` (the judge's self-evaluation) or ``evaluator`` (the evaluator block)."""
    type: str = "scoring"
    """The evaluation's type: ``scoring``, ``criteria``, ``rubric`` or ``comparison``."""
    criteria_scores: dict[str, float] = Field(default_factory=dict)
    """Each criterion's score (``criteria``); each draft's score ``output_<attempt>`` on the
    kept check when the drafts were compared (``comparison``)."""
    grade: str | None = None
    """The rubric's grade of the score (``rubric``)."""
    feedback: str = ""
    """The evaluation's feedback (given to the reader when the answer is regenerated)."""
    suggestions: list[str] = Field(default_factory=list)
    """Concrete improvements."""
    answer: str = ""
    """The evaluated answer."""
    kept: bool = False
    """True for the attempt whose answer the run goes on with."""
    error: str | None = None
    """Why the attempt could not be evaluated or regenerated."""
