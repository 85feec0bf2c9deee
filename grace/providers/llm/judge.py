"""The model-backed answer judge: self-evaluation and query coverage from one structured call.

``None`` always means *not measured* (model error, refusal, malformed output): the
calculator then leaves the factor out instead of guessing a neutral 0.5.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from confidence.judges import AnswerJudgement
from confidence.model_log import ModelLog, calls_made, describe_error
from grace.providers.llm.streaming import Budget
from grace.providers.llm.structured import (
    FormatMemory,
    StructuredCall,
    at_temperature_zero,
    read_structured,
)
from grace.providers.models import DEFAULT_METHODS
from grace.providers.prompts import JUDGE_SYSTEM, escape_text, format_passage_texts

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = ["AnswerVerdict", "LLMAnswerJudge"]


class AnswerVerdict(BaseModel):
    """Your assessment of the answer. Both scores are numbers from 0 to 1."""

    self_evaluation: float = Field(
        ge=0.0,
        le=1.0,
        description=(
            "Probability (0-1) that the answer is correct AND every claim in it is "
            "supported by the passages. Unsupported or contradicted claims lower it."
        ),
    )
    query_coverage: float = Field(
        ge=0.0,
        le=1.0,
        description=(
            "Fraction (0-1) of the question's parts that the answer actually addresses, "
            "regardless of correctness."
        ),
    )
    rationale: str = Field(default="", description="One or two sentences explaining the scores.")


def _not_measured(reason: str, *, calls: int, tokens: tuple[int, int]) -> AnswerJudgement:
    return AnswerJudgement(
        self_eval=None,
        coverage=None,
        rationale=f"not measured: {reason}",
        input_tokens=tokens[0],
        output_tokens=tokens[1],
        model_calls=calls,
    )


class LLMAnswerJudge:
    """Self-evaluation and query coverage from ONE structured-output model call.

    The model is called through its structured output for ``AnswerVerdict``, built once
    (:class:`grace.providers.llm.structured.StructuredCall`), and token usage is read from the raw
    message. Any model
    exception, refusal or malformed output gives ``self_eval = coverage = None`` with a
    ``"not measured: …"`` rationale — never a silent neutral score. The judge runs at
    temperature 0 (see :func:`grace.providers.llm.structured.at_temperature_zero`) unless
    ``force_zero_temperature=False``.
    """

    def __init__(
        self,
        model: BaseChatModel,
        *,
        max_passage_chars: int | None = 4000,
        force_zero_temperature: bool = True,
        stream: Budget | None = None,
        methods: Sequence[str] = DEFAULT_METHODS,
        memory: FormatMemory | None = None,
    ) -> None:
        """Create a judge.

        Args:
            model: Chat model that supports structured output (tool calling).
            max_passage_chars: Truncate each passage to bound the prompt (``None``: off).
            force_zero_temperature: Use a temperature-0 copy of the model if needed.
            stream: Stream each call within this budget (None: one plain call).
            methods: Structured-output methods to try, in order (the provider's).
            memory: What works per model, shared with other calls (None: the judge's own).

        """
        self.model = at_temperature_zero(model) if force_zero_temperature else model
        """The judge model."""
        self.max_passage_chars = max_passage_chars
        """Per-passage character limit of the prompt."""
        self.stream = stream
        """How each call streams (:class:`~grace.providers.llm.streaming.Budget`), or None."""
        self.methods = tuple(methods)
        """Structured-output methods to try, in order."""
        self.memory = memory if memory is not None else FormatMemory()
        """Which method works, per model (shared with the calls it was given with)."""
        self._structured = self._call()

    def _call(self) -> StructuredCall[AnswerVerdict]:
        return StructuredCall(
            self.model,
            AnswerVerdict,
            role="judge",
            stream=self.stream,
            methods=self.methods,
            memory=self.memory,
        )

    def messages(self, question: str, answer: str, passages: Sequence[str]) -> list[BaseMessage]:
        """Return the judge prompt: passages, question and answer as escaped data."""
        body = (
            f"<question>\n{escape_text(question)}\n</question>\n\n"
            f"<answer>\n{escape_text(answer)}\n</answer>\n\n"
            f"{format_passage_texts(passages, self.max_passage_chars)}"
        )
        return [SystemMessage(content=JUDGE_SYSTEM), HumanMessage(content=body)]

    def _runnable(self) -> StructuredCall[AnswerVerdict]:
        if self._structured.model is not self.model:  # the model was swapped after __init__
            self._structured = self._call()
        return self._structured

    @staticmethod
    def _interpret(result: Any, log: ModelLog) -> AnswerJudgement:
        outcome = read_structured(result, AnswerVerdict)
        tokens = (outcome.input_tokens, outcome.output_tokens)
        if outcome.value is None:
            log.failure("judge", outcome.error or "no verdict")
            return _not_measured(outcome.error or "no verdict", calls=1, tokens=tokens)
        verdict = outcome.value
        return AnswerJudgement(
            self_eval=verdict.self_evaluation,
            coverage=verdict.query_coverage,
            rationale=verdict.rationale,
            input_tokens=tokens[0],
            output_tokens=tokens[1],
            model_calls=1,
        )

    def judge(
        self, question: str, answer: str, passages: Sequence[str], *, log: ModelLog | None = None
    ) -> AnswerJudgement:
        """Judge ``answer`` with one model call; "not measured" on any failure."""
        log = ModelLog.of(log)
        try:
            result = self._runnable().invoke(self.messages(question, answer, passages), log)
        except Exception as exc:  # any model failure means "not measured"
            return _call_failed(exc, log)
        return self._interpret(result, log)

    async def ajudge(
        self, question: str, answer: str, passages: Sequence[str], *, log: ModelLog | None = None
    ) -> AnswerJudgement:
        """Asynchronous :meth:`judge`."""
        log = ModelLog.of(log)
        try:
            messages = self.messages(question, answer, passages)
            result = await self._runnable().ainvoke(messages, log)
        except Exception as exc:  # any model failure means "not measured"
            return _call_failed(exc, log)
        return self._interpret(result, log)


def _call_failed(exc: BaseException, log: ModelLog) -> AnswerJudgement:
    """A judge call that raised: "not measured", and a model failure for the run's notes."""
    log.failure("judge", describe_error(exc))
    why = f"judge call failed ({describe_error(exc)})"
    return _not_measured(why, calls=calls_made(exc), tokens=(0, 0))
