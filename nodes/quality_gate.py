"""Quality gate on the final answer: the evaluator block, bounded (docs/architecture.md).

Called by the ``confidence`` node right after the answer step was judged:

1. **Evaluate** the answer with a ``scoring`` evaluation. With ``quality_gate.evaluation:
   judge`` (the default) the evaluation *is* the judge's self-evaluation from the one judge
   call the answer step already gets, so a passing gate costs no model call (a simple
   question stays at one reader call and one judge call). With ``evaluator`` the evaluator
   block (:attr:`grace.services.Services.evaluator`) scores every attempt — an extra model
   call per attempt on the Gemini path.
2. **Pass** (score ≥ ``pass_threshold``): nothing else happens.
3. **Fail**: regenerate the answer with the evaluation's feedback (the reader gets it as
   ``feedback``), judge the new answer, and evaluate it again — at most
   ``max_regenerations`` times, stopping at the first pass. A regeneration that fails,
   abstains or returns the same text ends the loop (a deterministic reader would only
   repeat itself). The best-scoring attempt is kept (ties: the earlier one).
4. If no attempt passed, the run goes on with the best answer; the caller lowers the answer
   step's confidence by ``confidence_penalty`` and adds a note.

An evaluation that cannot be made (judge output not parsed, model error) is *not measured*:
the gate neither regenerates nor penalises — that failure already shows in the score,
where the judge's factors are missing.

The gate runs inside ``confidence``, which has no interrupt: re-running the node (retry
policy) only repeats model calls, never a person's question or a store write.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from langgraph.runtime import Runtime

from confidence import AnswerJudgement, EvaluationResult
from grace.context import GraceContext
from grace.events import emit
from grace.schemas import PlanStep, QualityCheck, StepResult, StepStatus, TokenUsage
from grace.services import Services
from grace.state import State
from grace.tools import ToolCall
from grace.tools.roles import is_answer
from nodes._flow import Flow, JudgeCall, ScoreCall, ToolRun

__all__ = [
    "GateOutcome",
    "gate_applies",
    "gate_flow",
    "judge_usage",
]

_SUGGESTIONS = (
    "Answer exactly what the question asks, every part of it.",
    "Use only facts stated in the passages and cite each one as [S1], [S2] ….",
)


@dataclass
class GateOutcome:
    """What the gate decided for one answer step."""

    result: StepResult
    """The kept attempt's result (token usage includes every attempt)."""
    judgement: AnswerJudgement
    """The judge's verdict on the kept attempt."""
    checks: list[QualityCheck] = field(default_factory=list)
    """Every evaluation, in attempt order; the kept one has ``kept=True``."""
    usage: TokenUsage = field(default_factory=TokenUsage)
    """Model calls and tokens the gate spent beyond the first judge call."""
    passed: bool | None = None
    """True if an attempt passed, False if none did, None if the gate could not measure."""

    @property
    def kept(self) -> QualityCheck | None:
        """The kept attempt's check."""
        return next((c for c in self.checks if c.kept), None)

    @property
    def regenerations(self) -> int:
        """Regenerations made."""
        return max((c.attempt for c in self.checks), default=0)


def judge_usage(judgement: AnswerJudgement) -> TokenUsage:
    """The model calls and tokens a judgement cost."""
    return TokenUsage(
        model_calls=judgement.model_calls,
        input_tokens=judgement.input_tokens,
        output_tokens=judgement.output_tokens,
    )


def gate_applies(services: Services, result: StepResult) -> bool:
    """Whether the gate evaluates this answer step result.

    Only a completed ``reasoning`` answer is gated: an abstention ("the documents do not
    contain it") is the honest answer when the passages lack one, and regenerating it
    with "answer the question" feedback would invite an invented answer.
    """
    return (
        services.settings.quality_gate.enabled
        and is_answer(result.action)
        and result.status == StepStatus.SUCCESS
        and bool(result.output.strip())
    )


def _from_judgement(judgement: AnswerJudgement, threshold: float) -> EvaluationResult:
    """The ``scoring`` evaluation given by the judge's self-evaluation (no model call)."""
    if judgement.self_eval is None:
        return EvaluationResult(
            evaluation_type="scoring",
            feedback=judgement.rationale,
            error=judgement.rationale or "self-evaluation not measured",
        )
    score = judgement.self_eval
    passed = score >= threshold
    verdict = "≥" if passed else "<"
    feedback = f"The judge rated the answer {score:.2f} ({verdict} {threshold:.2f})"
    if judgement.rationale:
        feedback += f": {judgement.rationale}"
    suggestions: list[str] = []
    if not passed:
        suggestions = list(_SUGGESTIONS)
        if judgement.coverage is not None and judgement.coverage < 1.0:
            suggestions.insert(
                0, f"The answer addresses about {judgement.coverage:.0%} of the question."
            )
    return EvaluationResult(
        evaluation_type="scoring",
        passed=passed,
        overall_score=score,
        feedback=feedback,
        suggestions=suggestions,
        confidence=1.0,
    )


def _evaluate(
    services: Services,
    question: str,
    result: StepResult,
    judgement: AnswerJudgement,
    step_id: str,
    attempt: int,
) -> Flow[tuple[QualityCheck, TokenUsage]]:
    gate = services.settings.quality_gate
    usage = TokenUsage()
    if gate.evaluation == "evaluator":
        evaluation = yield from ScoreCall(question, result)
        usage = TokenUsage(
            model_calls=evaluation.model_calls,
            input_tokens=evaluation.input_tokens,
            output_tokens=evaluation.output_tokens,
        )
        # The evaluator's own pass rule may differ from the setting: apply the setting.
        if not evaluation.failed:
            evaluation = evaluation.model_copy(
                update={"passed": evaluation.overall_score >= gate.pass_threshold}
            )
    else:
        evaluation = _from_judgement(judgement, gate.pass_threshold)
    measured = not evaluation.failed
    check = QualityCheck(
        step_id=step_id,
        attempt=attempt,
        passed=evaluation.passed if measured else None,
        score=evaluation.overall_score if measured else None,
        pass_threshold=gate.pass_threshold,
        evaluation=gate.evaluation,
        feedback=evaluation.feedback,
        suggestions=list(evaluation.suggestions),
        answer=result.output,
        error=evaluation.error,
    )
    return check, usage


def feedback_text(check: QualityCheck) -> str:
    """The reviewer feedback given to the reader for a regeneration."""
    parts = [check.feedback.strip()] if check.feedback.strip() else []
    if check.suggestions:
        parts.append("Suggestions: " + " ".join(check.suggestions))
    return " ".join(parts) or "The previous answer did not pass review; answer more precisely."


def _regenerate(
    services: Services,
    runtime: Runtime[GraceContext] | None,
    state: State,
    step: PlanStep,
    result: StepResult,
    feedback: str,
) -> Flow[tuple[StepResult | None, TokenUsage, str | None]]:
    """Run the answer step's tool again with ``feedback``; never raises."""
    dependencies = [state.results[d] for d in step.depends_on if d in state.results]
    call = ToolCall(
        step=step,
        dependencies=dependencies,
        human_sources=list(state.human_sources),
        feedback=feedback,
    )
    try:
        out = yield from ToolRun(result.action, call)
    except Exception as exc:  # noqa: BLE001 - a failed regeneration keeps the earlier answer
        return None, TokenUsage(), f"regeneration failed: {type(exc).__name__}: {exc}"
    if not out.success:
        return None, out.usage, f"regeneration failed: {out.error}"
    if out.confidence_factors.get("abstained", 0.0) > 0:
        return None, out.usage, "the regenerated answer abstained"
    regenerated = result.model_copy(
        update={
            "output": out.output,
            "sources": out.sources,
            "factors": out.confidence_factors,
            "error": None,
        }
    )
    return regenerated, out.usage, None


_Attempt = tuple[StepResult, AnswerJudgement, QualityCheck]
"""One attempt at the answer: its result, the judge's verdict and the gate's check."""


def _regenerations(
    services: Services,
    runtime: Runtime[GraceContext] | None,
    state: State,
    question: str,
    step: PlanStep,
    attempts: list[_Attempt],
) -> Flow[TokenUsage]:
    """Regenerate with feedback until an attempt passes (appended to ``attempts``).

    At most ``quality_gate.max_regenerations`` times; a failed or repeated regeneration
    ends the loop. Returns the usage spent.
    """
    result, judgement, check = attempts[0]
    extra = TokenUsage()
    for n in range(1, services.settings.quality_gate.max_regenerations + 1):
        new, spent, error = yield from _regenerate(
            services, runtime, state, step, result, feedback_text(attempts[-1][2])
        )
        extra = extra + spent
        if new is None:
            attempts.append((result, judgement, check.model_copy(update=_failed_attempt(n, error))))
            break
        earlier = next((a for a in attempts if a[0].output == new.output), None)
        if earlier is not None:  # the reader repeated itself: nothing new to judge
            repeat = earlier[2].model_copy(
                update={"attempt": n, "kept": False, "error": "same answer as before"}
            )
            attempts.append((earlier[0], earlier[1], repeat))
            break
        new_judgement = yield from JudgeCall(question, new)
        new_check, eval_usage = yield from _evaluate(
            services, question, new, new_judgement, step.step_id, n
        )
        extra = extra + judge_usage(new_judgement) + eval_usage
        attempts.append((new, new_judgement, new_check))
        if new_check.passed is not False:
            break
    return extra


def gate_flow(
    services: Services,
    runtime: Runtime[GraceContext] | None,
    state: State,
    question: str,
    step: PlanStep,
    result: StepResult,
    judgement: AnswerJudgement,
) -> Flow[GateOutcome]:
    """Evaluate the judged answer; regenerate with feedback at most N times; keep the best.

    ``result`` and ``judgement`` are the executed answer and its (already paid) judge
    call. The returned result carries the token usage of every attempt. Yields its model
    and tool calls (:mod:`nodes._flow`).
    """
    gate = services.settings.quality_gate
    check, usage = yield from _evaluate(services, question, result, judgement, step.step_id, 0)
    attempts: list[_Attempt] = [(result, judgement, check)]
    extra = usage
    if check.passed is False:
        extra = extra + (
            yield from _regenerations(services, runtime, state, question, step, attempts)
        )
    scored = [a for a in attempts if a[2].score is not None and a[2].error is None]
    best = max(scored, key=lambda a: a[2].score or 0.0) if scored else attempts[0]
    kept_result, kept_judgement, _ = best
    checks = [a[2].model_copy(update={"kept": a is best}) for a in attempts]
    passed = None if check.passed is None else any(c.passed for c in checks)
    outcome = GateOutcome(
        result=kept_result.model_copy(
            update={"token_usage": result.token_usage + extra, "confidence": None}
        ),
        judgement=kept_judgement,
        checks=checks,
        usage=extra,
        passed=passed,
    )
    kept = outcome.kept
    emit(
        "quality_gate",
        step_id=step.step_id,
        passed=passed,
        score=kept.score if kept is not None else None,
        pass_threshold=gate.pass_threshold,
        attempts=len(checks),
        regenerations=outcome.regenerations,
        kept_attempt=kept.attempt if kept is not None else 0,
        penalty=gate.confidence_penalty if passed is False else 0.0,
    )
    return outcome


def _failed_attempt(attempt: int, error: str | None) -> dict[str, object]:
    return {
        "attempt": attempt,
        "passed": None,
        "score": None,
        "answer": "",
        "feedback": "",
        "suggestions": [],
        "kept": False,
        "error": error or "regeneration failed",
    }
