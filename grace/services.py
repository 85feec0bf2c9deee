"""The long-lived objects a run uses, built once from settings and shared by the nodes.

The nodes get them from the graph factory (``graph.builder.make_graph(services=…)``), which
binds them into every node. A graph given none owns a :class:`LazyServices`: built from
:func:`grace.settings.get_settings` (offline unless ``GOOGLE_API_KEY`` is set) on first use
and closed with it. Tests and embedders pass their own, e.g.
``make_graph(services=build_services(settings, chat_model=ScriptedChatModel(...)))`` to
drive the Gemini path. There is no process-wide default.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from langchain_core.embeddings import Embeddings
from langgraph.runtime import Runtime

from confidence import (
    AnswerJudge,
    ConfidenceAggregator,
    ConfidenceCalculator,
    HeuristicEvaluator,
    QualityEvaluator,
    ScoringFn,
    SourceAgreementCalculator,
)
from confidence.model_log import ModelLog
from grace.context import GraceContext, context_of
from grace.errors import ModelSetupError
from grace.providers.base import Planner, Reader
from grace.providers.models import (
    OFFLINE,
    calibration_label,
    check_reachable,
    parse_spec,
    request_timeout_arg,
    structured_methods,
)
from grace.providers.models import chat_model as make_chat_model
from grace.providers.models import embeddings_model as make_embeddings
from grace.providers.offline import ExtractiveReader, HeuristicAnswerJudge, RuleBasedPlanner
from grace.retrieval import CorpusStore, StoreOptions, ensure_sample_corpus, open_store
from grace.scoring.decision import check_model_features
from grace.settings import GraceSettings, get_settings
from grace.tools import ToolEnv, ToolRegistry, default_registry

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from grace.providers.llm.streaming import Budget

__all__ = [
    "ChatModels",
    "LazyServices",
    "Services",
    "ServicesSource",
    "aservices_for",
    "build_services",
    "check_model",
    "judge_score_fn",
    "services_for",
]

log = logging.getLogger(__name__)


@dataclass(kw_only=True)
class Services:
    """Everything the nodes need besides the state."""

    settings: GraceSettings
    """Settings the services were built from."""
    store: CorpusStore
    """Document store."""
    planner: Planner
    """Plan proposer."""
    reader: Reader
    """Grounded answer generator."""
    judge: AnswerJudge
    """Self-evaluation + coverage judge (one call per final answer)."""
    tools: ToolRegistry
    """Allowed actions."""
    calculator: ConfidenceCalculator
    """Step scorer and decision rule."""
    aggregator: ConfidenceAggregator
    """Combines step scores into the run's confidence."""
    agreement: SourceAgreementCalculator
    """Source agreement of multi-source answers."""
    evaluator: QualityEvaluator
    """Evaluator block (architecture §4) of the quality gate when ``quality_gate.evaluation`` is
    ``evaluator``: the model judge (Gemini path) or the heuristic judge's score (offline)."""
    provider: str
    """Engine label for calibration files: ``offline``, ``gemini``, ``openai``, ``ollama`` …"""
    model: str = ""
    """The chat model spec these services were built for (``""``: the settings' own)."""

    def tool_env(self, context: GraceContext, log: ModelLog | None = None) -> ToolEnv:
        """The tool environment for a run with ``context`` (``log``: the step's model log)."""
        return ToolEnv(
            store=self.store,
            reader=self.reader,
            default_collection=context.collection or self.settings.retrieval.collection,
            top_k=context.top_k or self.settings.retrieval.top_k,
            log=log,
        )

    # Not init fields: a copy (``dataclasses.replace``) starts with variants of its own.
    _variants: dict[str, Services] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _variants_lock: threading.Lock = field(
        default_factory=threading.Lock, init=False, repr=False, compare=False
    )

    def with_model(self, spec: str | None) -> Services:
        """These services with the chat model ``spec`` instead (built once, same store).

        A run names its model in its context (``grace ask --model``, Studio's assistant
        config); ``None`` or the model in force returns ``self``. Only the model-backed parts
        (planner, reader, judge, evaluator) change: the tool registry, the confidence
        calculator and the aggregators are these services' own objects, so a tool or factor
        registered through the public API is used whatever model a run names.
        """
        if spec is None or self._is_own_model(spec):
            return self
        with self._variants_lock:
            if spec not in self._variants:
                built = build_services(self.settings, model=spec, store=self.store)
                self._variants[spec] = replace(
                    built,
                    tools=self.tools,
                    calculator=self.calculator,
                    aggregator=self.aggregator,
                    agreement=self.agreement,
                )
            return self._variants[spec]

    def with_settings(self, settings: GraceSettings) -> Services:
        """These services with ``settings`` instead (a plan step's own quality gate)."""
        return replace(self, settings=settings)

    def ready_with_model(self, spec: str | None) -> Services | None:
        """:meth:`with_model` if it needs no building (async callers build in a thread)."""
        if spec is None or self._is_own_model(spec):
            return self
        return self._variants.get(spec)

    def _is_own_model(self, spec: str) -> bool:
        """Whether a run naming ``spec`` runs on these services as they are."""
        return self.settings.chat_spec(spec) == (self.model or self.settings.chat_spec())

    def close(self) -> None:
        """Release the document store."""
        self.store.close()


def judge_score_fn(judge: AnswerJudge) -> ScoringFn:
    """The judge's self-evaluation as an evaluator scoring function (raises when not measured)."""

    def score(question: str, output: str, context: Sequence[str]) -> float:
        judgement = judge.judge(question, output, context)
        if judgement.self_eval is None:
            raise ValueError(judgement.rationale or "self-evaluation not measured")
        return judgement.self_eval

    return score


@dataclass(frozen=True)
class _Engine:
    """The planner, reader, judge and evaluator of one chat model (or the offline engine)."""

    planner: Planner
    reader: Reader
    judge: AnswerJudge
    evaluator: QualityEvaluator


def _offline_engine(settings: GraceSettings) -> _Engine:
    judge = HeuristicAnswerJudge(
        checks=settings.confidence.answer_checks, failed_check=settings.confidence.failed_check
    )
    pass_threshold = settings.quality_gate.pass_threshold
    evaluator = HeuristicEvaluator(judge_score_fn(judge), pass_threshold=pass_threshold)
    return _Engine(RuleBasedPlanner(), ExtractiveReader(), judge, evaluator)


def _timeout_arg(spec: str) -> str | None:
    """The per-request timeout keyword of ``spec``'s client (the provider table's)."""
    return None if spec == OFFLINE else request_timeout_arg(spec)


def _structured_stream(settings: GraceSettings, spec: str, max_tokens: int) -> Budget | None:
    """How the structured calls of ``spec`` stream (None: one plain call).

    Against a server you named whose client takes a per-request timeout: within their
    role's tokens and the request timeout. Hosted providers and Gemini: as they were.
    """
    from grace.providers.llm.streaming import Budget  # model plumbing: only with a model

    timeout_arg = _timeout_arg(spec)
    if settings.models.base_url is None or timeout_arg is None:
        return None
    return Budget(max_tokens, seconds=settings.model_timeout(), timeout_arg=timeout_arg)


def _model_engine(
    settings: GraceSettings,
    models: tuple[BaseChatModel, BaseChatModel],
    specs: tuple[str, str],
    actions: list[str],
) -> _Engine:
    """The model-backed engine of the ``(chat, judge)`` models that ``specs`` name.

    The model plumbing is imported here: an offline run never loads it.
    """
    from grace.providers.generation import ReplyLimits, with_max_tokens
    from grace.providers.llm.evaluator import Evaluator
    from grace.providers.llm.judge import LLMAnswerJudge
    from grace.providers.llm.planner import LLMPlanner
    from grace.providers.llm.reader import LLMReader
    from grace.providers.llm.structured import FormatMemory

    (chat, judge), (spec, judge_spec) = models, specs
    pass_threshold = settings.quality_gate.pass_threshold
    budgets = settings.models.max_tokens
    answer = with_max_tokens(chat, budgets.answer)
    bounded = answer is not chat  # Gemini and unknown classes: requests as they were
    limits = ReplyLimits(
        answer=budgets.answer,
        rewrite=budgets.rewrite,
        stop=tuple(settings.models.stop) if bounded else (),
        # Closed before the step's own timeout abandons it, so the reader can say why.
        seconds=min(settings.model_timeout(), 0.9 * settings.run.step_timeout_seconds),
        stream=bounded,
        timeout_arg=_timeout_arg(spec),
    )
    rewrite = with_max_tokens(chat, budgets.rewrite)
    reader = LLMReader(answer, rewrite_model=rewrite, limits=limits)
    judge = with_max_tokens(judge, budgets.judge)
    judged = _structured_stream(settings, judge_spec, budgets.judge)
    ladder = structured_methods(judge)
    memory = FormatMemory()  # a format refused to one role is not asked for by the others
    planner = LLMPlanner(
        with_max_tokens(chat, budgets.plan),
        actions=actions,
        stream=_structured_stream(settings, spec, budgets.plan),
        methods=structured_methods(chat),
        memory=memory,
    )
    return _Engine(
        planner,
        reader,
        LLMAnswerJudge(judge, stream=judged, methods=ladder, memory=memory),
        Evaluator(
            judge, pass_threshold=pass_threshold, stream=judged, methods=ladder, memory=memory
        ),
    )


def _models(settings: GraceSettings, spec: str) -> tuple[BaseChatModel, BaseChatModel]:
    """The chat model ``spec`` names and the judge's (``models.judge``, else the same at 0)."""
    m = settings.models

    def build(which: str, temperature: float) -> BaseChatModel:
        return make_chat_model(
            which,
            temperature=temperature,
            timeout=settings.model_timeout(),
            base_url=m.base_url,
            api_key_env=m.api_key_env,
            max_retries=m.max_retries,
        )

    return build(spec, settings.model_temperature()), build(m.judge or spec, 0.0)


def _embeddings(settings: GraceSettings, spec: str) -> Embeddings | None:
    """``models.embeddings``; else Gemini's for a Gemini chat model with a Qdrant server."""
    if settings.models.embeddings:
        return make_embeddings(settings.models.embeddings, base_url=settings.models.base_url)
    if spec.startswith("google_genai:") and settings.retrieval.qdrant_url:
        return make_embeddings(f"google_genai:{settings.gemini.embedding_model}")
    return None


def _open_store(settings: GraceSettings, embeddings: Embeddings | None) -> CorpusStore:
    store = open_store(
        settings.store_backend(),
        StoreOptions(
            path=settings.qdrant_path,
            url=settings.retrieval.qdrant_url,
            api_key=settings.qdrant_key(),
            dense_embeddings=embeddings,
            default_collection=settings.retrieval.collection,
            lock_timeout=settings.retrieval.lock_timeout_seconds,
        ),
    )
    if settings.retrieval.auto_ingest_sample:
        report = ensure_sample_corpus(store, settings.retrieval.collection)
        if report is not None:
            log.info("ingested the sample corpus: %s chunks", report.chunks)
    return store


@dataclass(frozen=True)
class ChatModels:
    """The chat model a run names and its judge's, built once (none for the offline engine)."""

    spec: str
    """``provider:model``, or ``offline``."""
    chat: BaseChatModel | None = None
    """The planner's, reader's and rewriter's model."""
    judge: BaseChatModel | None = None
    """The judge's and evaluator's model (``models.judge``, else ``chat`` at temperature 0)."""


def check_model(settings: GraceSettings, override: str | None = None) -> ChatModels:
    """The chat model in force, built and checked so that it can run: raise before a run starts.

    Builds the models (the provider's package and key are there) and, for a local server,
    makes one TCP connection (it is listening) — no request is sent. Pass the result to
    :func:`build_services` (``models=``): the run uses these models, none is built twice.

    Raises:
        ModelSetupError: unknown provider, package not installed, or API key missing.
        ModelUnavailableError: the model's local server does not answer.

    """
    spec = settings.chat_spec(override)
    if spec == OFFLINE:
        return ChatModels(spec)
    try:
        parse_spec(spec)
    except ModelSetupError as exc:  # say where the name came from
        raise ModelSetupError(f"{_model_origin(override)}: {exc}") from None
    chat, judge = _models(settings, spec)
    check_reachable(spec, settings.models.base_url)
    return ChatModels(spec, chat, judge)


def _model_origin(override: str | None) -> str:
    """Where the model name in force was set, for an error message."""
    if override is not None:
        return "--model (or the run's context 'model')"
    if os.environ.get("GRACE_MODELS__CHAT"):
        return "GRACE_MODELS__CHAT"
    return "models.chat (grace.yaml)"


def _engine(
    settings: GraceSettings,
    spec: str,
    models: tuple[BaseChatModel | None, BaseChatModel | None],
    actions: list[str],
) -> tuple[_Engine, str]:
    """The engine of the ``(chat, judge)`` models and its calibration label (offline: none)."""
    chat_model, judge_model = models
    if chat_model is None:
        return _offline_engine(settings), OFFLINE
    judge = judge_model or chat_model
    specs = (spec, settings.models.judge or spec)
    engine = _model_engine(settings, (chat_model, judge), specs, actions)
    return engine, calibration_label(spec) if spec != OFFLINE else "gemini"


def build_services(
    settings: GraceSettings | None = None,
    *,
    model: str | None = None,
    chat_model: BaseChatModel | None = None,
    judge_model: BaseChatModel | None = None,
    embeddings: Embeddings | None = None,
    store: CorpusStore | None = None,
    models: ChatModels | None = None,
) -> Services:
    """Build services from settings.

    Args:
        settings: defaults to :func:`get_settings`.
        model: the chat model spec (``provider:model`` or ``offline``) instead of the
            settings' ``models.chat``.
        chat_model: use this chat model instead of building one by name; tests pass a
            scripted fake here.
        judge_model: the judge's model (defaults to ``chat_model``).
        embeddings: dense embeddings for hybrid retrieval.
        store: an already open document store.
        models: the models :func:`check_model` built and checked (their spec replaces
            ``model``).

    Raises:
        ModelSetupError: the model cannot be built (unknown provider, package or key missing).
        SettingsError: ``confidence.model`` names features no run has.

    """
    settings = settings or get_settings()
    check_model_features(settings.confidence.model)  # before anything is opened or built
    if models is not None:
        model, chat_model, judge_model = models.spec, models.chat, models.judge
    spec = settings.chat_spec(model)
    tools = default_registry()
    if chat_model is None and spec != OFFLINE:
        chat_model, built_judge = _models(settings, spec)
        judge_model = judge_model or built_judge
    if embeddings is None:
        embeddings = _embeddings(settings, spec)
    if store is None:
        store = _open_store(settings, embeddings)
    engine, provider = _engine(settings, spec, (chat_model, judge_model), tools.names())
    return Services(
        settings=settings,
        store=store,
        planner=engine.planner,
        reader=engine.reader,
        judge=engine.judge,
        tools=tools,
        calculator=ConfidenceCalculator(settings.confidence),
        aggregator=ConfidenceAggregator(settings.confidence.aggregation),
        agreement=SourceAgreementCalculator(),
        evaluator=engine.evaluator,
        provider=provider,
        model=spec,
    )


class LazyServices:
    """Services built on first use, owned by the graph (or app) that made this object.

    ``graph.builder.make_builder`` / ``make_graph`` without services make one, so the
    module-level ``builder`` / ``graph`` (``from graph.builder import builder``, Studio) open no
    store until a run needs it. Each object builds its own services — nothing is shared between two
    graphs — at most once (thread-safe); async nodes build them in a worker thread
    (``nodes.common.aservices_for``). :meth:`close` closes them; built services not closed
    by their owner are closed at interpreter exit.
    """

    def __init__(
        self,
        build: Callable[[], Services] | None = None,
        *,
        settings: GraceSettings | None = None,
    ) -> None:
        """``build`` makes the services on first use (default: from ``settings``).

        ``settings``: those the services are built from (default: the process's,
        :func:`~grace.settings.get_settings`); the graph factory reads its retries and
        concurrency from them before anything is built.
        """
        self._build = build or (lambda: build_services(settings))
        self._settings = settings
        self._services: Services | None = None
        self._lock = threading.Lock()

    @property
    def settings(self) -> GraceSettings:
        """The services' settings: the built ones', else those they will be built from."""
        if self._services is not None:
            return self._services.settings
        if self._settings is None:
            self._settings = get_settings()
        return self._settings

    def get(self) -> Services:
        """The services, built now if they are not yet."""
        with self._lock:
            if self._services is None:
                self._services = self._build()
                atexit.register(self.close)
            return self._services

    def ready(self) -> Services | None:
        """The services if they are built, else None (never builds, never blocks)."""
        return self._services

    def close(self) -> None:
        """Close the services if they were built (a later :meth:`get` builds them again)."""
        with self._lock:
            services, self._services = self._services, None
        if services is not None:
            atexit.unregister(self.close)
            services.close()


ServicesSource = Services | LazyServices
"""What a graph factory binds into the nodes: built services, or services built on first use."""


def services_for(runtime: Runtime[GraceContext] | None, services: ServicesSource) -> Services:
    """The run's services: those the graph factory bound, with the chat model the run names.

    ``services`` are those given to ``graph.builder.make_graph`` (or the graph's own
    :class:`~grace.services.LazyServices`, built here on first use); nothing else is consulted.
    """
    base = services.get() if isinstance(services, LazyServices) else services
    return base.with_model(context_of(runtime).model)


async def aservices_for(
    runtime: Runtime[GraceContext] | None, services: ServicesSource
) -> Services:
    """:func:`services_for` for async nodes.

    Built in a worker thread the first time: opening the store (and ingesting the sample
    corpus), or building another model's planner and reader, must not block the event loop.
    """
    base = services.ready() if isinstance(services, LazyServices) else services
    ready = base.ready_with_model(context_of(runtime).model) if base else None
    if ready is not None:
        return ready
    return await asyncio.to_thread(services_for, runtime, services)
