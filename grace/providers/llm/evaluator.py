"""The evaluator block with a model (docs/architecture.md §4): its four evaluation types.

Two implementations of one interface (:class:`~confidence.evaluation_types.QualityEvaluator`):

* :class:`Evaluator` (here) — an LLM judge, one structured-output call per evaluation, at
  temperature 0;
* :class:`~confidence.heuristic_evaluator.HeuristicEvaluator` — the same four evaluations
  from a local scoring function, so the graph's quality gate also works offline.

Neither raises on a bad judgement: malformed judge output, a model error or a failing
scoring function give a result with ``passed=False``, ``confidence=0.0`` and a feedback
that names the failure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel

from confidence.evaluation_types import (
    DEFAULT_RUBRIC,
    ComparisonVerdict,
    CriteriaVerdict,
    Criterion,
    EvaluationResult,
    EvaluationType,
    RubricBand,
    ScoreVerdict,
    _failure,
    _Malformed,
    _ranking,
    _sorted_bands,
    grade_for,
    normalised_weights,
)
from confidence.model_log import ModelLog, calls_made, describe_error
from grace.providers.llm.streaming import Budget
from grace.providers.llm.structured import (
    FormatMemory,
    StructuredCall,
    at_temperature_zero,
    read_structured,
)
from grace.providers.models import DEFAULT_METHODS
from grace.providers.prompts import EVALUATOR_SYSTEM, escape_text, format_passage_texts

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = ["Evaluator"]


@dataclass(frozen=True)
class _Job:
    kind: EvaluationType
    schema: type[BaseModel]
    messages: list[BaseMessage]
    finish: Callable[[Any], EvaluationResult]


class Evaluator:
    """LLM-judged evaluator block: one structured-output call per evaluation.

    The judge runs at temperature 0: when the chat model has a ``temperature`` field
    (e.g. ``ChatGoogleGenerativeAI``) a copy with ``temperature=0.0`` is used, unless
    ``force_zero_temperature=False``; for other models construct them at temperature 0.
    """

    def __init__(
        self,
        model: BaseChatModel,
        pass_threshold: float = 0.7,
        *,
        force_zero_temperature: bool = True,
        max_passage_chars: int | None = 4000,
        stream: Budget | None = None,
        methods: Sequence[str] = DEFAULT_METHODS,
        memory: FormatMemory | None = None,
    ) -> None:
        """Create an evaluator.

        Args:
            model: Judge chat model with structured-output support.
            pass_threshold: ``passed`` is ``overall_score ≥ pass_threshold``.
            force_zero_temperature: Copy the model with ``temperature=0.0`` if needed.
            max_passage_chars: Truncate each context passage (``None``: no limit).
            stream: Stream each call within this budget (None: one plain call).
            methods: Structured-output methods to try, in order (the provider's).
            memory: What works per model, shared with other calls (None: its own).

        """
        if not 0.0 <= pass_threshold <= 1.0:
            raise ValueError("pass_threshold must be in [0, 1]")
        self.model = at_temperature_zero(model) if force_zero_temperature else model
        """The judge model."""
        self.pass_threshold = pass_threshold
        """Minimum overall score that passes."""
        self.max_passage_chars = max_passage_chars
        """Per-passage character limit of the prompt."""
        self.stream = stream
        """How each call streams (:class:`~grace.providers.llm.streaming.Budget`), or None."""
        self.methods = tuple(methods)
        """Structured-output methods to try, in order."""
        self.memory = memory if memory is not None else FormatMemory()
        """Which method works, per model (shared by its calls, one per schema)."""
        self._calls: dict[type[BaseModel], StructuredCall[Any]] = {}

    def _structured(self, schema: type[BaseModel]) -> StructuredCall[Any]:
        """The structured call for ``schema``, built once per schema and model."""
        call = self._calls.get(schema)
        if call is None or call.model is not self.model:
            call = self._calls[schema] = StructuredCall(
                self.model,
                schema,
                role="judge",
                stream=self.stream,
                methods=self.methods,
                memory=self.memory,
            )
        return call

    # prompt building -------------------------------------------------------------------

    def _messages(
        self, task: str, question: str, body: str, context: Sequence[str]
    ) -> list[BaseMessage]:
        text = (
            f"Task: {task}\n\n<question>\n{escape_text(question)}\n</question>\n\n{body}\n\n"
            f"Context passages:\n{format_passage_texts(context, self.max_passage_chars)}"
        )
        return [SystemMessage(content=EVALUATOR_SYSTEM), HumanMessage(content=text)]

    def _scoring_job(self, question: str, output: str, context: Sequence[str]) -> _Job:
        def finish(v: ScoreVerdict) -> EvaluationResult:
            return EvaluationResult(
                evaluation_type="scoring",
                passed=v.score >= self.pass_threshold,
                overall_score=v.score,
                feedback=v.feedback,
                suggestions=list(v.suggestions),
                confidence=v.confidence,
            )

        messages = self._messages(
            "score the output's overall quality (correct, supported by the context, "
            "complete, clear) from 0 to 1.",
            question,
            f"<output>\n{escape_text(output)}\n</output>",
            context,
        )
        return _Job("scoring", ScoreVerdict, messages, finish)

    def _criteria_job(
        self,
        question: str,
        output: str,
        criteria: Sequence[Criterion],
        context: Sequence[str],
    ) -> _Job:
        weights = normalised_weights(criteria)

        def finish(v: CriteriaVerdict) -> EvaluationResult:
            got: dict[str, float] = {}
            for item in v.scores:
                if item.name in weights:
                    got[item.name] = item.score
            missing = [name for name in weights if name not in got]
            if missing:
                raise _Malformed(f"the judge did not score criteria {missing}")
            overall = min(1.0, max(0.0, sum(weights[n] * got[n] for n in weights)))
            return EvaluationResult(
                evaluation_type="criteria",
                passed=overall >= self.pass_threshold,
                overall_score=overall,
                criteria_scores={n: got[n] for n in weights},
                feedback=v.feedback,
                suggestions=list(v.suggestions),
                confidence=v.confidence,
            )

        listing = "\n".join(
            f'<criterion name="{escape_text(c.name)}">{escape_text(c.description)}</criterion>'
            for c in criteria
        )
        messages = self._messages(
            "score the output against EACH criterion from 0 to 1; use the criterion "
            "names exactly as given.",
            question,
            f"<output>\n{escape_text(output)}\n</output>\n\n<criteria>\n{listing}\n</criteria>",
            context,
        )
        return _Job("criteria", CriteriaVerdict, messages, finish)

    def _comparison_job(
        self, question: str, outputs: Sequence[str], context: Sequence[str]
    ) -> _Job:
        if not outputs:
            raise ValueError("comparison needs at least one output")
        n = len(outputs)

        def finish(v: ComparisonVerdict) -> EvaluationResult:
            got = {item.index: item.score for item in v.scores if 0 <= item.index < n}
            missing = [i for i in range(n) if i not in got]
            if missing:
                raise _Malformed(f"the judge did not score outputs {missing}")
            scores = [got[i] for i in range(n)]
            ranking = _ranking(scores)
            best = scores[ranking[0]]
            return EvaluationResult(
                evaluation_type="comparison",
                passed=best >= self.pass_threshold,
                overall_score=best,
                criteria_scores={f"output_{i}": s for i, s in enumerate(scores)},
                feedback=v.feedback,
                suggestions=list(v.suggestions),
                confidence=v.confidence,
                ranking=ranking,
            )

        listing = "\n".join(
            f'<output index="{i}">\n{escape_text(o)}\n</output>' for i, o in enumerate(outputs)
        )
        messages = self._messages(
            f"compare the {n} candidate outputs and score EACH from 0 to 1 by its index "
            f"(0 to {n - 1}).",
            question,
            f"<outputs>\n{listing}\n</outputs>",
            context,
        )
        return _Job("comparison", ComparisonVerdict, messages, finish)

    def _rubric_job(
        self,
        question: str,
        output: str,
        bands: Sequence[RubricBand],
        context: Sequence[str],
    ) -> _Job:
        ordered = _sorted_bands(bands)

        def finish(v: ScoreVerdict) -> EvaluationResult:
            return EvaluationResult(
                evaluation_type="rubric",
                passed=v.score >= self.pass_threshold,
                overall_score=v.score,
                feedback=v.feedback,
                suggestions=list(v.suggestions),
                grade=grade_for(v.score, ordered),
                confidence=v.confidence,
            )

        listing = "\n".join(f"{escape_text(b.grade)}: score >= {b.min_score:g}" for b in ordered)
        messages = self._messages(
            "grade the output by the rubric: give the score from 0 to 1 that places it "
            "in the band it deserves.",
            question,
            f"<output>\n{escape_text(output)}\n</output>\n\nRubric bands:\n{listing}",
            context,
        )
        return _Job("rubric", ScoreVerdict, messages, finish)

    # execution -------------------------------------------------------------------------

    @staticmethod
    def _interpret(job: _Job, result: Any, log: ModelLog) -> EvaluationResult:
        outcome = read_structured(result, job.schema)
        usage = {
            "input_tokens": outcome.input_tokens,
            "output_tokens": outcome.output_tokens,
            "model_calls": 1,
        }
        if outcome.value is None:
            log.failure("judge", outcome.error or "no verdict")
            return _failure(job.kind, outcome.error or "no verdict", **usage)
        try:
            finished = job.finish(outcome.value)
        except _Malformed as exc:
            log.failure("judge", f"malformed judge output ({exc})")
            return _failure(job.kind, f"malformed judge output ({exc})", **usage)
        return finished.model_copy(update=usage)

    def _run(self, job: _Job, log: ModelLog | None) -> EvaluationResult:
        log = ModelLog.of(log)
        try:
            result = self._structured(job.schema).invoke(job.messages, log)
        except Exception as exc:  # any model failure is a failed evaluation
            log.failure("judge", describe_error(exc))
            why = f"judge call failed ({describe_error(exc)})"
            return _failure(job.kind, why, model_calls=calls_made(exc))
        return self._interpret(job, result, log)

    async def _arun(self, job: _Job, log: ModelLog | None) -> EvaluationResult:
        log = ModelLog.of(log)
        try:
            result = await self._structured(job.schema).ainvoke(job.messages, log)
        except Exception as exc:  # any model failure is a failed evaluation
            log.failure("judge", describe_error(exc))
            why = f"judge call failed ({describe_error(exc)})"
            return _failure(job.kind, why, model_calls=calls_made(exc))
        return self._interpret(job, result, log)

    # public API ------------------------------------------------------------------------

    def evaluate_scoring(
        self,
        question: str,
        output: str,
        context: Sequence[str] = (),
        *,
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Score ``output`` with one 0–1 score; ``passed`` if ≥ ``pass_threshold``."""
        return self._run(self._scoring_job(question, output, context), log)

    async def aevaluate_scoring(
        self,
        question: str,
        output: str,
        context: Sequence[str] = (),
        *,
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Asynchronous :meth:`evaluate_scoring`."""
        return await self._arun(self._scoring_job(question, output, context), log)

    def evaluate_criteria(
        self,
        question: str,
        output: str,
        criteria: Sequence[Criterion],
        *,
        context: Sequence[str] = (),
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Score each criterion; overall = Σ (weightᵢ / Σ weight) · scoreᵢ.

        Raises:
            ValueError: For no criteria, repeated names or all-zero weights.

        """
        return self._run(self._criteria_job(question, output, criteria, context), log)

    async def aevaluate_criteria(
        self,
        question: str,
        output: str,
        criteria: Sequence[Criterion],
        *,
        context: Sequence[str] = (),
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Asynchronous :meth:`evaluate_criteria`."""
        return await self._arun(self._criteria_job(question, output, criteria, context), log)

    def compare(
        self,
        question: str,
        outputs: Sequence[str],
        *,
        context: Sequence[str] = (),
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Score every output; ``ranking`` lists indices best first (ties: lower index).

        ``overall_score`` is the best output's score; ``criteria_scores`` holds
        ``output_<i>`` scores.

        Raises:
            ValueError: For an empty ``outputs``.

        """
        return self._run(self._comparison_job(question, outputs, context), log)

    async def acompare(
        self,
        question: str,
        outputs: Sequence[str],
        *,
        context: Sequence[str] = (),
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Asynchronous :meth:`compare`."""
        return await self._arun(self._comparison_job(question, outputs, context), log)

    def evaluate_rubric(
        self,
        question: str,
        output: str,
        bands: Sequence[RubricBand] = DEFAULT_RUBRIC,
        *,
        context: Sequence[str] = (),
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Score ``output`` and grade it: the highest band with ``min_score ≤ score``."""
        return self._run(self._rubric_job(question, output, bands, context), log)

    async def aevaluate_rubric(
        self,
        question: str,
        output: str,
        bands: Sequence[RubricBand] = DEFAULT_RUBRIC,
        *,
        context: Sequence[str] = (),
        log: ModelLog | None = None,
    ) -> EvaluationResult:
        """Asynchronous :meth:`evaluate_rubric`."""
        return await self._arun(self._rubric_job(question, output, bands, context), log)
