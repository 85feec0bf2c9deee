"""Application settings: defaults, a YAML file and ``GRACE_``-prefixed environment variables.

Precedence (highest first): explicit keyword arguments, environment variables
(``GRACE_<FIELD>``, nested with ``__``, e.g. ``GRACE_CONFIDENCE__THRESHOLDS__CONFIRM=0.5``),
the YAML file (``GRACE_CONFIG`` or ``./grace.yaml``), then the defaults below.
Unknown keys and inconsistent values fail at start with a message naming the field.
"""

# No `from __future__ import annotations`: pydantic reads the fields' types at import; as
# objects they need no evaluating (docs/performance.md).
import os
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Literal, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    YamlConfigSettingsSource,
)

from confidence.config import ConfidenceConfig
from confidence.evaluation_types import (
    DEFAULT_RUBRIC,
    Criterion,
    EvaluationType,
    RubricBand,
    normalised_weights,
)
from grace.errors import SettingsError
from grace.storage.names import check_collection_name

__all__ = [
    "CheckpointSettings",
    "DurabilityChoice",
    "GeminiSettings",
    "GraceSettings",
    "LearningSettings",
    "ModelSettings",
    "QualityGateSettings",
    "RetrievalSettings",
    "RunDurability",
    "RunKind",
    "RunSettings",
    "SettingsError",
    "TokenBudgets",
    "config_file_path",
    "get_settings",
    "load_settings",
]

ProviderChoice = Literal["auto", "offline", "gemini"]


def _default_data_dir() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "grace"


def config_file_path() -> Path | None:
    """Return the YAML settings file in use: ``$GRACE_CONFIG``, else ``./grace.yaml`` if present."""
    explicit = os.environ.get("GRACE_CONFIG")
    if explicit:
        path = Path(explicit)
        if not path.is_file():
            raise FileNotFoundError(f"GRACE_CONFIG points to {path}, which is not a file")
        return path
    local = Path("grace.yaml")
    return local if local.is_file() else None


_ENV_NOT_SETTINGS = ("GRACE_CONFIG", "GRACE_TEST_")

LOCAL_RUN_BUDGET_SECONDS = 22.0
"""Model time of one run against a local server (``models.base_url``) when unset: the
plan, answer and judge calls, retrieval and the process's start (about 5 s) end within 30 s."""


def _reject_unknown_environment(settings_cls: type[BaseSettings]) -> None:
    """Fail on a ``GRACE_*`` variable that names no setting (a typo would be ignored otherwise)."""
    known = {name.upper() for name in settings_cls.model_fields}
    for key in os.environ:
        if not key.startswith("GRACE_") or key.startswith(_ENV_NOT_SETTINGS):
            continue
        top = key.removeprefix("GRACE_").split("__", 1)[0]
        if top not in known:
            raise ValueError(
                f"unknown setting in environment variable {key}: "
                f"'{top.lower()}' is not one of {sorted(k.lower() for k in known)}"
            )


class GeminiSettings(BaseModel):
    """The online provider (used when ``GOOGLE_API_KEY`` is set, or forced by ``provider``)."""

    model_config = ConfigDict(extra="forbid")

    chat_model: str = "gemini-2.5-flash"
    """Chat model for planning, answering and judging."""
    embedding_model: str = "models/gemini-embedding-001"
    """Embedding model for dense retrieval in hybrid mode."""
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    """Sampling temperature of the answering model (judges always run at 0)."""
    timeout_seconds: float = Field(default=60.0, gt=0.0)
    """Per-request timeout."""


class TokenBudgets(BaseModel):
    """Most tokens a model may generate per call, by role (``models.max_tokens``).

    Sized for what each role writes: a plan of up to ``run.max_steps`` steps as JSON, a
    concise cited answer, a verdict of two scores and a rationale. A reply that reaches its
    budget is cut and named in the run's notes. Gemini's requests carry none (its thinking
    counts in the same budget; see docs/local-models.md).
    """

    model_config = ConfigDict(extra="forbid")

    plan: int = Field(default=512, gt=0)
    """The planner's JSON plan (about 50 tokens a step, up to 8 steps)."""
    answer: int = Field(default=256, gt=0)
    """The reader's cited answer (the prompt asks for a concise one)."""
    judge: int = Field(default=192, gt=0)
    """The judge's and the evaluator's verdict (scores, a rationale, suggestions)."""
    rewrite: int = Field(default=256, gt=0)
    """An answer written again after a reviewer's feedback (the quality gate, a replan)."""


class ModelSettings(BaseModel):
    """Which chat model plans, answers and judges (``provider:model``, LangChain's convention)."""

    model_config = ConfigDict(extra="forbid")

    chat: str = "auto"
    """``offline`` (the embedded engine), ``provider:model`` (``openai:gpt-4.1-mini``,
    ``ollama:qwen3``, ``anthropic:claude-sonnet-4-5``, ``google_genai:gemini-2.5-flash``), or
    ``auto``: Gemini (``gemini.chat_model``) when ``GOOGLE_API_KEY`` is set, else offline."""
    judge: str | None = None
    """The judge's and evaluator's model (default: the chat model, at temperature 0)."""
    embeddings: str | None = None
    """Dense embeddings for hybrid search (``openai:text-embedding-3-small``, ``ollama:…``);
    unset: Gemini's with a Qdrant server and a Gemini chat model, else sparse only."""
    base_url: str | None = None
    """Server of an OpenAI-compatible API (llama.cpp, vLLM, LM Studio: ``http://host:port/v1``)
    or of Ollama (default ``http://127.0.0.1:11434``)."""
    api_key_env: str | None = None
    """Variable holding the API key, if not the provider's own (``OPENAI_API_KEY`` …)."""
    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    """Sampling temperature of the answering model (default: ``gemini.temperature``)."""
    timeout_seconds: float | None = Field(default=None, gt=0.0)
    """Per-request timeout (default: ``gemini.timeout_seconds``); a streamed answer is
    closed when it runs longer."""
    max_tokens: TokenBudgets = Field(default_factory=TokenBudgets)
    """Token budget per role: ``plan``, ``answer``, ``judge``, ``rewrite``."""
    stop: list[str] = Field(default_factory=lambda: ["\nQuestion:", "<passage"])
    """Stop sequences of the free-text answer (a model that starts writing the prompt's
    next question or passage has finished its answer); structured calls carry none, nor do
    Gemini's requests (see ``max_tokens``)."""
    run_budget_seconds: float | None = Field(default=None, gt=0.0)
    """Model time of one run (one ``grace ask``, one resume): no model call starts after
    it, nor after a call that timed out, and a streamed call is closed at it; the judge is
    then skipped (a model failure: the run pauses for review). Unset: 22 s against
    ``base_url`` (a local server: the run ends within about 30 s), no limit for a hosted
    provider (Gemini's calls take seconds; its request timeout bounds them)."""
    max_retries: int | None = Field(default=None, ge=0, le=10)
    """Retries of the model client itself after a failed request (a connection error, a
    timeout, 429 / 5xx), with its own backoff; unset: 2, or 0 against ``base_url`` (a local
    server's refusal is not worth repeating). A model that still cannot be connected to then
    stops the run with one line, and ``grace resume THREAD`` runs it on later."""


class RetrievalSettings(BaseModel):
    """Where documents live and how they are searched."""

    model_config = ConfigDict(extra="forbid")

    backend: Literal["edge", "server"] | None = None
    """Store backend: ``edge`` (Qdrant Edge embedded in the process, on disk) or ``server``
    (a Qdrant server at ``qdrant_url``); unset: ``server`` when ``qdrant_url`` is set."""
    qdrant_url: str | None = None
    """Qdrant server or cluster URL (the ``server`` backend)."""
    qdrant_path: Path | None = None
    """Directory of the embedded store; defaults to ``<data_dir>/qdrant``."""

    lock_timeout_seconds: float = Field(default=30.0, ge=0.0)
    """How long a process waits for a collection another process holds (``edge``)."""
    qdrant_api_key: SecretStr | None = None
    """API key of a Qdrant server (also read from ``QDRANT_API_KEY``)."""
    collection: str = "grace"
    """Default collection; the bundled sample corpus is ingested into it on first use (a
    name :func:`~grace.storage.names.check_collection_name` accepts)."""
    top_k: int = Field(default=5, ge=1, le=50)
    """Hits returned per search."""
    chunk_size: int = Field(default=800, ge=100)
    """Target chunk size in characters at ingestion."""
    chunk_overlap: int = Field(default=100, ge=0)
    """Overlap between consecutive chunks in characters."""
    max_file_mb: float = Field(default=100.0, gt=0, le=1_000_000, allow_inf_nan=False)
    """Per-file size cap at ingestion in MB; larger files are skipped with a message."""
    max_uncompressed_mb: float = Field(default=50.0, gt=0, le=100_000, allow_inf_nan=False)
    """An Office file (DOCX, PPTX, XLSX) whose parts expand past this is skipped."""
    max_elements_per_file: int = Field(default=500_000, gt=0)
    """Paragraphs (DOCX, PPTX), rows and shared strings (XLSX) one file may hold."""
    max_cells_per_file: int = Field(default=2_000_000, gt=0)
    """Spreadsheet cells actually present in one workbook (not its declared dimension)."""
    max_chunks_per_file: int = Field(default=20_000, gt=0)
    """Chunks one file may become; a larger file is skipped with this setting named."""
    auto_ingest_sample: bool = True
    """Ingest the bundled sample corpus when the default collection does not exist yet (a new
    data directory). A collection that exists is never seeded again: removing the sample's
    documents sticks. Set false to start without it."""

    @field_validator("qdrant_path")
    @classmethod
    def _a_directory(cls, value: Path | None) -> Path | None:
        if value is not None and value.exists() and not value.is_dir():
            raise ValueError(f"{value} is a file, not a directory")
        return value

    @field_validator("collection")
    @classmethod
    def _a_collection_name(cls, value: str) -> str:
        # The one rule of every collection name (Python's re). As a pydantic ``pattern``, the
        # Rust engine compiled its Unicode ``\w{0,127}`` in ≈ 50 ms of every command's start.
        return check_collection_name(value)


DurabilityChoice = Literal["auto", "sync", "async", "exit"]
"""The ``checkpoint.durability`` setting: LangGraph's durability mode, or ``auto``."""
RunDurability = Literal["sync", "async", "exit"]
"""LangGraph's durability mode of one run (``langgraph.types.Durability``)."""
RunKind = Literal["offline", "model", "batch"]
"""What a run costs to repeat: the offline engine, model calls, or a batch (eval/calibrate)."""


class CheckpointSettings(BaseModel):
    """Which checkpointer persists threads."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["memory", "sqlite", "postgres"] = "sqlite"
    """``memory`` (lost at exit), ``sqlite`` (a file in the data directory) or ``postgres``."""
    sqlite_path: Path | None = None
    """SQLite file; defaults to ``<data_dir>/checkpoints.sqlite``."""
    postgres_url: str | None = None
    """PostgreSQL connection URL, required for ``kind: postgres``."""
    durability: DurabilityChoice = "auto"
    """When a run's checkpoints are written (LangGraph's ``durability``): ``sync`` — after
    every step, before the next starts (a killed process resumes after its last step);
    ``async`` — after every step, overlapping the next (a kill may lose the last step);
    ``exit`` — once, when the run ends, pauses or fails (a kill loses the run in flight; a
    pause, a resume and a model error keep working). ``auto``: ``exit`` on the offline
    engine and for ``grace eval`` / ``calibrate`` (a step costs milliseconds, a re-run is
    cheap), ``sync`` where a step costs a model call."""
    turns_in_state: int = Field(default=20, ge=1)
    """Answered turns of a thread kept in its state (``messages``), hence in each new version:
    at the start of a turn ``plan`` moves older ones to the graph's store (the thread's
    namespace), so a turn's checkpoints stop growing with the thread's length. The
    transcript (``grace show``, ``GraceApp.history``) still shows every turn; follow-up
    questions are read against the turns in state. Without a store nothing is moved."""

    @model_validator(mode="after")
    def _postgres_needs_a_url(self) -> Self:
        if self.kind == "postgres" and not (self.postgres_url or "").strip():
            raise ValueError("kind: postgres needs postgres_url (postgresql://user:pw@host/db)")
        return self

    def durability_for(self, kind: RunKind) -> RunDurability:
        """The durability of a run of ``kind``: the setting, or with ``auto`` the default.

        ``auto`` gives ``sync`` to a run whose steps call a model (a step lost to a crash costs
        a model call again) and ``exit`` to the offline engine and to batches.
        """
        if self.durability != "auto":
            return self.durability
        return "sync" if kind == "model" else "exit"


class RunSettings(BaseModel):
    """Limits of one run."""

    model_config = ConfigDict(extra="forbid")

    max_replans: int = Field(default=2, ge=0, le=10)
    """Replans allowed per run; past it the run finalizes with what it has and says so."""
    low_confidence_replans: int = Field(default=1, ge=0, le=10)
    """Automatic replans on an ESCALATE decision before asking the person (they count
    toward ``max_replans``; the rest of the budget stays for the person's edit / response)."""
    pause_before_answer: Literal["never", "on_failure", "always"] = "on_failure"
    """When a batch *before* the answer step may pause the run (every step is still scored and
    streamed as ``step_scored``; the answer step and the run's overall confidence decide after
    the last batch, whatever this says). ``on_failure``: only when a step of the batch failed
    (after its fallback and the replans for it), its searches found no passage at all, or the
    plan asks the person (``ask_user``) — a merely mediocre search goes on to a draft answer,
    which is a better thing to review; ``never``: only for ``ask_user``; ``always``: the
    per-step gating — the batch's weakest step decides, as after the last batch."""
    max_question_chars: int = Field(default=4000, ge=1)
    """Longest question accepted."""
    max_steps: int = Field(default=8, ge=2, le=32)
    """Most steps a plan may have."""
    step_timeout_seconds: float = Field(default=60.0, gt=0.0)
    """Default per-step timeout when a plan step names none."""
    max_parallel_steps: int = Field(default=4, ge=1, le=32)
    """Independent steps executed at once."""
    retry_max_attempts: int = Field(default=3, ge=1, le=10)
    """Attempts per node for transient errors (LangGraph ``RetryPolicy``)."""
    retry_initial_interval: float = Field(default=0.5, ge=0.0)
    """Seconds before the first retry; doubles each time."""


class QualityGateSettings(BaseModel):
    """The bounded quality gate on the final answer (evaluator block, docs/architecture.md §4)."""

    model_config = ConfigDict(extra="forbid")

    enabled: bool = True
    """Evaluate the answer step; a failed gate regenerates the answer with the feedback."""
    pass_threshold: float = Field(default=0.5, ge=0.0, le=1.0)
    """Lowest evaluation score (0–1) that passes the gate."""
    max_regenerations: int = Field(default=1, ge=0, le=5)
    """Regenerations after a failed evaluation (each costs a reader call and a judge call)."""
    confidence_penalty: float = Field(default=0.1, ge=0.0, le=1.0)
    """Subtracted from the answer step's confidence when no attempt passes the gate."""
    evaluation: Literal["judge", "evaluator"] = "judge"
    """``judge``: the gate's ``scoring`` evaluation is the answer judge's self-evaluation
    (no extra model call, so a passing gate is free); ``evaluator``: the evaluator block
    scores every attempt (one more model call per attempt on the Gemini path). The other
    types are always the evaluator block's."""
    type: EvaluationType = "scoring"
    """The evaluator block's evaluation: ``scoring`` (one 0–1 score), ``criteria`` (named
    criteria with weights: the overall score is their normalised weighted mean),
    ``rubric`` (a score graded by the bands of ``rubric``) or ``comparison`` (every draft
    scored; after a regeneration the drafts are compared side by side and the best kept)."""
    criteria: list[Criterion] = Field(default_factory=list)
    """The criteria of ``type: criteria``: ``{name, description, weight}`` each."""
    rubric: list[RubricBand] = Field(default_factory=lambda: list(DEFAULT_RUBRIC))
    """The grades of ``type: rubric``: ``{grade, min_score}`` each (default A ≥ 0.9, B ≥
    0.8, C ≥ 0.7, D ≥ 0.6, else F)."""
    feedback: bool = True
    """Give a failed evaluation's feedback and suggestions to the regeneration (the
    feedback loop); ``false``: the answer is regenerated without them."""

    @model_validator(mode="after")
    def _type_has_what_it_needs(self) -> Self:
        if self.type == "criteria":
            if not self.criteria:
                raise ValueError("quality_gate.type criteria needs quality_gate.criteria")
            normalised_weights(self.criteria)  # unique names, not all weights 0
        if self.type == "rubric" and not self.rubric:
            raise ValueError("quality_gate.type rubric needs at least one quality_gate.rubric band")
        return self


class LearningSettings(BaseModel):
    """Per-user learned thresholds (adaptive conformal update: ``confidence.user_thresholds``)."""

    model_config = ConfigDict(extra="forbid")

    enabled: bool = True
    """Learn from intervention replies when the graph has a store."""
    target_error: float = Field(default=0.1, gt=0.0, lt=1.0)
    """``α``: target rate of un-escalated errors (corrections of steps at or above confirm)."""
    step: float = Field(default=0.02, ge=0.0, le=1.0)
    """``γ``: learning rate, the largest change one reply can make to a threshold."""
    max_shift: float = Field(default=0.15, ge=0.0, le=1.0)
    """Largest total shift of the confirm and notify thresholds from the configured ones."""


class GraceSettings(BaseSettings):
    """Every setting of GRACE with its default."""

    model_config = SettingsConfigDict(
        env_prefix="GRACE_",
        env_nested_delimiter="__",
        extra="forbid",
        validate_default=True,
    )

    data_dir: Path = Field(default_factory=_default_data_dir)
    """Where GRACE keeps its Qdrant files, checkpoints and store (``$XDG_DATA_HOME/grace``)."""
    provider: ProviderChoice = "auto"
    """Older form of ``models.chat`` (still honoured when that is ``auto``): ``offline`` or
    ``gemini`` forces one; ``auto``: Gemini when ``GOOGLE_API_KEY`` is set, else offline."""
    user_id: str = "default"
    """User whose learned thresholds apply when a run names none."""
    models: ModelSettings = Field(default_factory=ModelSettings)
    """The chat model (``models.chat: provider:model``), judge, embeddings, local server."""
    gemini: GeminiSettings = Field(default_factory=GeminiSettings)
    """Gemini's defaults (used by ``models.chat: auto`` and ``provider: gemini``)."""
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    """Document store settings."""
    checkpoint: CheckpointSettings = Field(default_factory=CheckpointSettings)
    """Checkpointer settings."""
    run: RunSettings = Field(default_factory=RunSettings)
    """Per-run limits."""
    confidence: ConfidenceConfig = Field(default_factory=ConfidenceConfig)
    """Weights, penalties, thresholds and aggregation of the confidence system."""
    quality_gate: QualityGateSettings = Field(default_factory=QualityGateSettings)
    """Quality gate on the final answer."""
    learning: LearningSettings = Field(default_factory=LearningSettings)
    """Learned per-user thresholds."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Add the YAML file below the environment."""
        _reject_unknown_environment(cls)
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        yaml_path = config_file_path()
        if yaml_path is not None:
            sources.append(YamlConfigSettingsSource(settings_cls, yaml_file=yaml_path))
        return tuple(sources)

    @property
    def qdrant_path(self) -> Path:
        """Resolved directory of the embedded Qdrant."""
        return self.retrieval.qdrant_path or self.data_dir / "qdrant"

    @property
    def sqlite_path(self) -> Path:
        """Resolved SQLite checkpoint file."""
        return self.checkpoint.sqlite_path or self.data_dir / "checkpoints.sqlite"

    @property
    def store_path(self) -> Path:
        """Resolved SQLite file of the long-term store (learned thresholds)."""
        return self.data_dir / "store.sqlite"

    @property
    def library_path(self) -> Path:
        """Resolved SQLite file of the library record (what was ingested from where)."""
        return self.data_dir / "library.sqlite"

    def index_engine(self) -> str:
        """What builds a collection's vectors: the store backend, sparse, and any embeddings."""
        dense = f" + dense {self.models.embeddings}" if self.models.embeddings else ""
        return f"qdrant {self.store_backend()}: sparse{dense}"

    def google_api_key(self) -> str | None:
        """The Gemini API key from the environment; never stored in settings or state."""
        return os.environ.get("GOOGLE_API_KEY") or None

    def chat_spec(self, override: str | None = None) -> str:
        """The chat model in force: ``offline`` or ``provider:model``.

        ``override`` (``grace ask --model``, the run's context) wins; then ``models.chat``;
        with ``auto``, the older ``provider`` setting, then Gemini if ``GOOGLE_API_KEY`` is set.
        """
        chosen = override or self.models.chat
        if chosen != "auto":
            return chosen
        gemini = f"google_genai:{self.gemini.chat_model}"
        if self.provider != "auto":
            return gemini if self.provider == "gemini" else "offline"
        return gemini if self.google_api_key() is not None else "offline"

    def model_temperature(self) -> float:
        """Temperature of the answering model."""
        value = self.models.temperature
        return self.gemini.temperature if value is None else value

    def model_timeout(self) -> float:
        """Per-request timeout of the model."""
        value = self.models.timeout_seconds
        return self.gemini.timeout_seconds if value is None else value

    def model_run_budget(self) -> float | None:
        """Model time of one run (``models.run_budget_seconds``; None: no limit)."""
        if self.models.run_budget_seconds is not None:
            return self.models.run_budget_seconds
        return LOCAL_RUN_BUDGET_SECONDS if self.models.base_url is not None else None

    def store_backend(self) -> Literal["edge", "server"]:
        """The store backend in force: the setting, else ``server`` when a URL is set."""
        if self.retrieval.backend is not None:
            return self.retrieval.backend
        return "server" if self.retrieval.qdrant_url else "edge"

    def qdrant_key(self) -> str | None:
        """Qdrant server API key from settings or ``QDRANT_API_KEY``."""
        if self.retrieval.qdrant_api_key is not None:
            return self.retrieval.qdrant_api_key.get_secret_value()
        return os.environ.get("QDRANT_API_KEY") or None


def _where() -> str:
    """Where settings come from, for an error message."""
    path = os.environ.get("GRACE_CONFIG") or ("grace.yaml" if Path("grace.yaml").is_file() else "")
    variables = sorted(k for k in os.environ if k.startswith("GRACE_") and k != "GRACE_CONFIG")
    parts = [f"file {path}"] if path else []
    if variables:
        parts.append(f"environment {', '.join(variables)}")
    return " and ".join(parts) or "defaults"


def _describe(exc: ValidationError) -> str:
    lines = []
    for error in exc.errors(include_url=False):
        field = ".".join(str(p) for p in error["loc"]) or "(top level)"
        lines.append(f"  {field}: {error['msg']}")
    return "\n".join(lines)


MAX_CONFIG_BYTES = 1_000_000
"""Largest settings file read (bytes), like a model file: a larger one is refused unread."""
MAX_CONFIG_VALUES = 100_000
"""Most values a settings file may hold once its YAML aliases are expanded (an inline model of
60 features holds a few hundred): anchors that multiply past it are refused, not validated."""


def _values(data: object, budget: int) -> int:
    """Values in ``data`` with aliases counted each time they appear, stopping past ``budget``."""
    count, stack = 0, [data]
    while stack and count <= budget:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count


def _yaml() -> ModuleType:
    """PyYAML, imported when a settings file is read (none: ``grace`` never loads it)."""
    import yaml

    return yaml


def _check_config_file() -> None:
    """The settings file is UTF-8 YAML holding a mapping; else one error naming the file.

    A file over :data:`MAX_CONFIG_BYTES`, or whose aliases expand past
    :data:`MAX_CONFIG_VALUES` values, is refused before anything validates it.
    """
    path = config_file_path()
    if path is None or not path.is_file():
        return
    try:
        if path.stat().st_size > MAX_CONFIG_BYTES:
            raise SettingsError(
                f"{path}: over {MAX_CONFIG_BYTES:,} bytes, not a settings file"
            )
        data = _yaml().safe_load(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise SettingsError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise SettingsError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except _yaml().YAMLError as exc:
        raise SettingsError(f"{path}: not valid YAML ({' '.join(str(exc).split())})") from None
    if data is not None and not isinstance(data, dict):
        raise SettingsError(
            f"{path}: must hold a mapping of settings (key: value), not a {type(data).__name__}"
        )
    if _values(data, MAX_CONFIG_VALUES) > MAX_CONFIG_VALUES:
        raise SettingsError(
            f"{path}: expands to over {MAX_CONFIG_VALUES:,} values (YAML anchors and aliases "
            "multiply them), not a settings file"
        )


def load_settings() -> GraceSettings:
    """Build the settings, turning any problem into one :class:`SettingsError`.

    Raises:
        SettingsError: A YAML syntax error, an unknown key or variable, or an invalid value —
            with the file or variable and the field named.

    """
    _check_config_file()
    try:
        return GraceSettings()
    except ValidationError as exc:
        raise SettingsError(f"invalid settings ({_where()}):\n{_describe(exc)}") from None
    except _yaml().YAMLError as exc:
        raise SettingsError(f"{config_file_path()}: not valid YAML ({exc})") from None
    except (ValueError, FileNotFoundError) as exc:
        raise SettingsError(str(exc)) from None


@lru_cache(maxsize=1)
def get_settings() -> GraceSettings:
    """Load the settings once per process (``get_settings.cache_clear()`` to reload).

    Raises:
        SettingsError: See :func:`load_settings`.

    """
    return load_settings()
