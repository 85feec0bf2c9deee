"""The long-lived objects a run uses, built once from settings and shared by the nodes.

Nodes call :func:`get_services` (through ``nodes.common``). By default the services are
built from :func:`grace.settings.get_settings` (offline unless ``GOOGLE_API_KEY`` is set) and
cached per process. Tests and embedders install their own with :func:`use_services`, e.g.
``build_services(settings, chat_model=ScriptedChatModel(...))`` to drive the Gemini path.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import threading
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from confidence import (
    AnswerJudge,
    ConfidenceAggregator,
    ConfidenceCalculator,
    Evaluator,
    HeuristicEvaluator,
    LLMAnswerJudge,
    QualityEvaluator,
    ScoringFn,
    SourceAgreementCalculator,
)
from grace.context import GraceContext
from grace.providers.base import Planner, Reader
from grace.providers.offline import ExtractiveReader, HeuristicAnswerJudge, RuleBasedPlanner
from grace.retrieval import CorpusStore, StoreOptions, ensure_sample_corpus, open_store
from grace.settings import GraceSettings, get_settings
from grace.tools import ToolEnv, ToolRegistry, default_registry

__all__ = [
    "Services",
    "build_services",
    "close_default_services",
    "get_services",
    "judge_score_fn",
    "ready_services",
    "use_services",
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
    """``offline`` or ``gemini``."""

    def tool_env(self, context: GraceContext) -> ToolEnv:
        """The tool environment for a run with ``context``."""
        return ToolEnv(
            store=self.store,
            reader=self.reader,
            default_collection=context.collection or self.settings.retrieval.collection,
            top_k=context.top_k or self.settings.retrieval.top_k,
        )

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


def build_services(
    settings: GraceSettings | None = None,
    *,
    chat_model: BaseChatModel | None = None,
    judge_model: BaseChatModel | None = None,
    embeddings: Embeddings | None = None,
    store: CorpusStore | None = None,
) -> Services:
    """Build services from settings.

    Args:
        settings: defaults to :func:`get_settings`.
        chat_model: use this chat model (the model-backed path) instead of choosing by
            settings; tests pass a scripted fake here.
        judge_model: the judge's model (defaults to ``chat_model``; Gemini at temperature 0).
        embeddings: dense embeddings for hybrid retrieval (Gemini path).
        store: an already open document store.

    """
    from grace.providers.gemini import (
        LLMPlanner,
        LLMReader,
        make_gemini_chat_model,
        make_gemini_embeddings,
    )

    settings = settings or get_settings()
    tools = default_registry()
    use_model = chat_model is not None or settings.use_gemini()
    if use_model and chat_model is None:
        gem = settings.gemini
        chat_model = make_gemini_chat_model(
            gem.chat_model, temperature=gem.temperature, timeout=gem.timeout_seconds
        )
        judge_model = judge_model or make_gemini_chat_model(
            gem.chat_model, temperature=0.0, timeout=gem.timeout_seconds
        )
        if embeddings is None and settings.retrieval.qdrant_url:
            embeddings = make_gemini_embeddings(gem.embedding_model)
    if store is None:
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
    planner: Planner
    reader: Reader
    judge: AnswerJudge
    evaluator: QualityEvaluator
    pass_threshold = settings.quality_gate.pass_threshold
    if chat_model is not None:
        planner = LLMPlanner(chat_model, actions=tools.names())
        reader = LLMReader(chat_model)
        judge = LLMAnswerJudge(judge_model or chat_model)
        evaluator = Evaluator(judge_model or chat_model, pass_threshold=pass_threshold)
        provider = "gemini"
    else:
        planner = RuleBasedPlanner()
        reader = ExtractiveReader()
        judge = HeuristicAnswerJudge(
            checks=settings.confidence.answer_checks,
            failed_check=settings.confidence.failed_check,
        )
        evaluator = HeuristicEvaluator(judge_score_fn(judge), pass_threshold=pass_threshold)
        provider = "offline"
    return Services(
        settings=settings,
        store=store,
        planner=planner,
        reader=reader,
        judge=judge,
        tools=tools,
        calculator=ConfidenceCalculator(settings.confidence),
        aggregator=ConfidenceAggregator(settings.confidence.aggregation),
        agreement=SourceAgreementCalculator(),
        evaluator=evaluator,
        provider=provider,
    )


_lock = threading.Lock()
_default: Services | None = None
_scoped: ContextVar[Services | None] = ContextVar("grace_services", default=None)
"""Services set by :func:`use_services` for the current context (thread or task)."""


def get_services() -> Services:
    """The services in force: the innermost :func:`use_services`, else the process default."""
    global _default
    scoped = _scoped.get()
    if scoped is not None:
        return scoped
    with _lock:
        if _default is None:
            _default = build_services()
            atexit.register(close_default_services)
        return _default


def ready_services() -> Services | None:
    """The services in force if they exist already, else None (never builds, never blocks).

    Async callers use it to build the default services in a worker thread the first time.
    """
    scoped = _scoped.get()
    return scoped if scoped is not None else _default


@contextlib.contextmanager
def use_services(services: Services) -> Iterator[Services]:
    """Make ``services`` the ones nodes get, inside the ``with`` block.

    Scoped to the current context (a ``ContextVar``), not the process: LangGraph runs nodes
    in copies of the caller's context, so a run started inside the block sees ``services``
    while another thread or task keeps its own.
    """
    token = _scoped.set(services)
    try:
        yield services
    finally:
        _scoped.reset(token)


def close_default_services() -> None:
    """Close the cached default services (e.g. at CLI exit)."""
    global _default
    with _lock:
        if _default is not None:
            _default.close()
            _default = None
