"""Answer judges: the protocol, its verdict, and self-evaluation and coverage as views of it.

The model-backed judge is :class:`grace.providers.llm.judge.LLMAnswerJudge`; the offline one
:class:`grace.providers.offline.judge.OfflineJudge`.

``None`` always means *not measured* (model error, refusal, malformed output): the
calculator then leaves the factor out instead of guessing a neutral 0.5.
"""

# No `from __future__ import annotations`: pydantic reads the fields' types at import; as
# objects they need no evaluating (docs/performance.md).
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, Field

from confidence.model_log import ModelLog

__all__ = [
    "AnswerJudge",
    "AnswerJudgement",
    "LLMSelfEvaluator",
    "QueryCoverageCalculator",
]


class AnswerJudgement(BaseModel):
    """A judge's verdict on an answer, with the cost of obtaining it."""

    self_eval: float | None = Field(default=None, ge=0.0, le=1.0)
    """Estimated probability that the answer is correct and supported; None = not measured."""
    coverage: float | None = Field(default=None, ge=0.0, le=1.0)
    """Fraction of the question the answer addresses; None = not measured."""
    rationale: str = ""
    """The judge's short reason, or ``"not measured: …"`` with the failure."""
    checks: dict[str, float] = Field(default_factory=dict)
    """Named answer-verification checks (1.0 = passed, less = failed), when the judge runs
    any (the offline judge does; see ``ConfidenceFactors.answer_checks``)."""
    input_tokens: int = Field(default=0, ge=0)
    """Prompt tokens spent (0 when the model does not report usage)."""
    output_tokens: int = Field(default=0, ge=0)
    """Completion tokens spent (0 when the model does not report usage)."""
    model_calls: int = Field(default=0, ge=0)
    """Number of model calls made (0 for a judge that uses no model)."""

    @property
    def measured(self) -> bool:
        """True when at least one of the two scores was measured."""
        return self.self_eval is not None or self.coverage is not None


@runtime_checkable
class AnswerJudge(Protocol):
    """Anything that can judge an answer against its question and passages."""

    def judge(
        self, question: str, answer: str, passages: Sequence[str], *, log: ModelLog | None = None
    ) -> AnswerJudgement:
        """Judge ``answer`` to ``question`` given the retrieved ``passages``.

        ``log`` is the graph step's :class:`~confidence.model_log.ModelLog`: a judge that
        calls a model keeps to its model time and reports its failures there.
        """
        ...

    async def ajudge(
        self, question: str, answer: str, passages: Sequence[str], *, log: ModelLog | None = None
    ) -> AnswerJudgement:
        """Asynchronous :meth:`judge`."""
        ...


class LLMSelfEvaluator:
    """The self-evaluation half of an :class:`AnswerJudge` (None = not measured).

    Each call is one judge call. When both self-evaluation and coverage are needed
    (the final answer), call the judge once and use both fields of its judgement.
    """

    def __init__(self, judge: AnswerJudge) -> None:
        """Wrap ``judge``."""
        self.judge = judge
        """The underlying judge."""

    def evaluate(self, question: str, answer: str, passages: Sequence[str]) -> float | None:
        """Return the judge's self-evaluation of ``answer``, or None if not measured."""
        return self.judge.judge(question, answer, passages).self_eval

    async def aevaluate(self, question: str, answer: str, passages: Sequence[str]) -> float | None:
        """Asynchronous :meth:`evaluate`."""
        return (await self.judge.ajudge(question, answer, passages)).self_eval


class QueryCoverageCalculator:
    """The query-coverage half of an :class:`AnswerJudge` (None = not measured).

    Each call is one judge call; see :class:`LLMSelfEvaluator` for the final answer.
    """

    def __init__(self, judge: AnswerJudge) -> None:
        """Wrap ``judge``."""
        self.judge = judge
        """The underlying judge."""

    def calculate(self, question: str, answer: str, passages: Sequence[str]) -> float | None:
        """Return how much of ``question`` the answer covers, or None if not measured."""
        return self.judge.judge(question, answer, passages).coverage

    async def acalculate(self, question: str, answer: str, passages: Sequence[str]) -> float | None:
        """Asynchronous :meth:`calculate`."""
        return (await self.judge.ajudge(question, answer, passages)).coverage
