"""Quality gate on the final answer: the evaluator block, bounded (docs/architecture.md).

Called by the ``confidence`` node right after the answer step was judged:

1. **Evaluate** the answer with the evaluation ``quality_gate.type`` names: ``scoring``
   (the default), ``criteria`` (the settings' named, weighted criteria), ``rubric`` (a score
   graded by the settings' bands) or ``comparison``. A ``scoring`` gate with
   ``quality_gate.evaluation: judge`` (the default) *is* the judge's self-evaluation from
   the one judge call the answer step already gets, so a passing gate costs no model call
   (a simple question stays at one reader call and one judge call). Otherwise the evaluator
   block (:attr:`grace.services.Services.evaluator`: the model's, or the heuristic one
   offline) evaluates every attempt — an extra model call per attempt with a model.
2. **Pass** (score ≥ ``pass_threshold``): nothing else happens.
3. **Fail**: regenerate the answer with the evaluation's feedback (the reader gets it as
   ``feedback``), judge the new answer, and evaluate it again — at most
   ``max_regenerations`` times, stopping at the first pass (``quality_gate.feedback:
   false`` regenerates without the feedback). A regeneration that fails, abstains or
   returns the same text ends the loop (a deterministic reader would only repeat itself).
   The drafts are compared and the best kept (the A/B pattern): by their scores (ties: the
   earlier one), or — ``comparison`` — by one evaluator call that ranks them side by side.
4. If no attempt passed, the run goes on with the best answer; the caller lowers the answer
   step's confidence by ``confidence_penalty`` and adds a note.

An evaluation that cannot be made (judge output not parsed, model error) is *not measured*:
the gate neither regenerates nor penalises — that failure already shows in the score,
where the judge's factors are missing.

The gate runs inside ``confidence``, which has no interrupt: re-running the node (retry
policy) only repeats model calls, never a person's question or a store write.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, Self

from langgraph.runtime import Runtime

from confidence import AnswerJudge, AnswerJudgement, EvaluationResult, QualityEvaluator
from confidence.model_log import ModelLog
from grace.context import GraceContext, context_of
from grace.notes.events import emit
from grace.planning.roles import is_answer
from grace.providers.judge_passages import judge_passage
from grace.schemas import PlanStep, QualityCheck, StepResult, StepStatus, TokenUsage, ToolResult
from grace.settings import GraceSettings, QualityGateSettings
from grace.state import State
from grace.tools import ToolCall, ToolEnv, ToolRegistry

__all__ = [
    "GateOutcome",
    "GateServices",
    "Judged",
    "agate",
    "ajudge",
    "for_step",
    "gate",
    "gate_applies",
    "judge",
    "judge_usage",
]

class GateServices(Protocol):
    """What the gate uses of a run's services (:class:`grace.services.Services` has it all)."""

    @property
    def settings(self) -> GraceSettings:
        """The settings in force (``quality_gate``)."""
        ...

    @property
    def tools(self) -> ToolRegistry:
        """The tool registry (the answer step's tool and its role)."""
        ...

    @property
    def judge(self) -> AnswerJudge:
        """The judge of each attempt."""
        ...

    @property
    def evaluator(self) -> QualityEvaluator:
        """The evaluator block."""
        ...

    def tool_env(self, context: GraceContext, log: ModelLog | None = None) -> ToolEnv:
        """The environment a regeneration's tool call runs in."""
        ...

    def with_settings(self, settings: GraceSettings) -> Self:
        """These services with other settings (a step's own gate)."""
        ...


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


def gate_applies(services: GateServices, result: StepResult) -> bool:
    """Whether the gate evaluates this answer step result.

    Only a completed ``reasoning`` answer is gated: an abstention ("the documents do not
    contain it") is the honest answer when the passages lack one, and regenerating it
    with "answer the question" feedback would invite an invented answer.
    """
    return (
        services.settings.quality_gate.enabled
        and is_answer(result.action, services.tools.roles)
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


def _passages(result: StepResult) -> list[str]:
    # Titles first, the person's reply labelled (docs/architecture.md §5).
    return [judge_passage(src) for src in result.sources]


@dataclass
class Judged:
    """An answer step result after the judge's one call on it."""

    result: StepResult
    """The result, its token usage including the judge call."""
    judgement: AnswerJudgement
    """The judge's verdict."""
    usage: TokenUsage
    """What the judge call cost."""


def _judged(result: StepResult, judgement: AnswerJudgement) -> Judged:
    usage = judge_usage(judgement)
    result = result.model_copy(update={"token_usage": result.token_usage + usage})
    return Judged(result=result, judgement=judgement, usage=usage)


def judge(services: GateServices, question: str, result: StepResult, log: ModelLog) -> Judged:
    """The judge's verdict on ``result``'s answer to ``question`` (``judge.judge``)."""
    passages = _passages(result)
    return _judged(result, services.judge.judge(question, result.output, passages, log=log))


async def ajudge(
    services: GateServices, question: str, result: StepResult, log: ModelLog
) -> Judged:
    """Async :func:`judge` (``judge.ajudge``)."""
    verdict = await services.judge.ajudge(question, result.output, _passages(result), log=log)
    return _judged(result, verdict)


def _uses_evaluator(services: GateServices) -> bool:
    """Whether the evaluator block evaluates each attempt (not the judge's self-evaluation)."""
    gate = services.settings.quality_gate
    return gate.evaluation == "evaluator" or gate.type in ("criteria", "rubric")


_Call = tuple[
    Callable[..., EvaluationResult],
    Callable[..., Awaitable[EvaluationResult]],
    tuple[Any, ...],
    dict[str, Any],
]
"""An evaluator method, its async twin, and their arguments (``log`` apart)."""


def _evaluation(
    evaluator: QualityEvaluator, gate: QualityGateSettings, question: str, result: StepResult
) -> _Call:
    """The evaluator block's evaluation of one attempt, of the gate's type.

    A ``comparison`` gate scores each draft alone; its drafts are compared after the
    regenerations (:func:`_compared`).
    """
    output, passages = result.output, _passages(result)
    context = {"context": passages}
    if gate.type == "criteria":
        args: tuple[Any, ...] = (question, output, gate.criteria)
        return evaluator.evaluate_criteria, evaluator.aevaluate_criteria, args, context
    if gate.type == "rubric":
        args = (question, output, gate.rubric)
        return evaluator.evaluate_rubric, evaluator.aevaluate_rubric, args, context
    args = (question, output, passages)
    return evaluator.evaluate_scoring, evaluator.aevaluate_scoring, args, {}


def _check(
    services: GateServices,
    result: StepResult,
    judgement: AnswerJudgement,
    evaluation: EvaluationResult | None,
    step_id: str,
    attempt: int,
) -> tuple[QualityCheck, TokenUsage]:
    """The gate's check of one attempt: the evaluator's ``evaluation``, else the judge's."""
    gate = services.settings.quality_gate
    usage, by_evaluator = TokenUsage(), evaluation is not None
    if evaluation is not None:
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
        evaluation="evaluator" if by_evaluator else "judge",
        type=gate.type,
        criteria_scores=dict(evaluation.criteria_scores),
        grade=evaluation.grade,
        feedback=evaluation.feedback,
        suggestions=list(evaluation.suggestions),
        answer=result.output,
        error=evaluation.error,
    )
    return check, usage


def _evaluate(
    services: GateServices,
    question: str,
    result: StepResult,
    judgement: AnswerJudgement,
    step_id: str,
    attempt: int,
    log: ModelLog,
) -> tuple[QualityCheck, TokenUsage]:
    """The check of one attempt (an evaluator call with ``quality_gate.evaluation: evaluator``)."""
    evaluation = None
    if _uses_evaluator(services):
        call, _, args, kwargs = _evaluation(
            services.evaluator, services.settings.quality_gate, question, result
        )
        evaluation = call(*args, **kwargs, log=log)
    return _check(services, result, judgement, evaluation, step_id, attempt)


async def _aevaluate(
    services: GateServices,
    question: str,
    result: StepResult,
    judgement: AnswerJudgement,
    step_id: str,
    attempt: int,
    log: ModelLog,
) -> tuple[QualityCheck, TokenUsage]:
    """Async :func:`_evaluate` (the evaluator's async methods)."""
    evaluation = None
    if _uses_evaluator(services):
        _, acall, args, kwargs = _evaluation(
            services.evaluator, services.settings.quality_gate, question, result
        )
        evaluation = await acall(*args, **kwargs, log=log)
    return _check(services, result, judgement, evaluation, step_id, attempt)


def feedback_text(check: QualityCheck) -> str:
    """The reviewer feedback given to the reader for a regeneration."""
    parts = [check.feedback.strip()] if check.feedback.strip() else []
    if check.suggestions:
        parts.append("Suggestions: " + " ".join(check.suggestions))
    return " ".join(parts) or "The previous answer did not pass review; answer more precisely."


_Attempt = tuple[StepResult, AnswerJudgement, QualityCheck]
"""One attempt at the answer: its result, the judge's verdict and the gate's check."""


@dataclass
class _Gate:
    """One answer's gate: what every regeneration reads, and the attempts so far."""

    services: GateServices
    runtime: Runtime[GraceContext] | None
    state: State
    question: str
    step: PlanStep
    log: ModelLog
    """The step's model log (every judge, evaluator and reader call of the gate)."""
    attempts: list[_Attempt]
    extra: TokenUsage = field(default_factory=TokenUsage)
    """Model calls and tokens spent beyond the first judge call."""

    def call(self) -> tuple[Any, ToolCall, Any]:
        """The answer step's tool, its call with the latest feedback, and its environment."""
        result = self.attempts[0][0]
        call = ToolCall(
            step=self.step,
            dependencies=[
                self.state.results[d] for d in self.step.depends_on if d in self.state.results
            ],
            human_sources=list(self.state.human_sources),
            feedback=feedback_text(self.attempts[-1][2])
            if self.services.settings.quality_gate.feedback
            else None,
        )
        env = self.services.tool_env(context_of(self.runtime), self.log)
        return self.services.tools.get(result.action), call, env

    def regenerated(self, n: int, out: ToolResult | Exception) -> StepResult | None:
        """The regenerated result; None (the attempt recorded) when the loop ends here."""
        result, judgement, check = self.attempts[0]
        new, error = _regenerated(result, out)
        if isinstance(out, ToolResult):
            self.extra = self.extra + out.usage
        if new is None:
            failed = check.model_copy(update=_failed_attempt(n, error))
            self.attempts.append((result, judgement, failed))
            return None
        earlier = next((a for a in self.attempts if a[0].output == new.output), None)
        if earlier is not None:  # the reader repeated itself: nothing new to judge
            repeat = earlier[2].model_copy(
                update={"attempt": n, "kept": False, "error": "same answer as before"}
            )
            self.attempts.append((earlier[0], earlier[1], repeat))
            return None
        return new

    def judged(
        self, new: StepResult, judgement: AnswerJudgement, checked: tuple[QualityCheck, TokenUsage]
    ) -> bool:
        """Record the judged attempt; whether the loop goes on (it did not pass)."""
        check, eval_usage = checked
        self.extra = self.extra + judge_usage(judgement) + eval_usage
        self.attempts.append((new, judgement, check))
        return check.passed is False


def _regenerated(
    result: StepResult, out: ToolResult | Exception
) -> tuple[StepResult | None, str | None]:
    """The answer step's tool output as a new attempt, or why there is none."""
    if isinstance(out, Exception):  # a failed regeneration keeps the earlier answer
        return None, f"regeneration failed: {type(out).__name__}: {out}"
    if not out.success:
        return None, f"regeneration failed: {out.error}"
    if out.confidence_factors.get("abstained", 0.0) > 0:
        return None, "the regenerated answer abstained"
    regenerated = result.model_copy(
        update={
            "output": out.output,
            "sources": out.sources,
            "factors": out.confidence_factors,
            "error": None,
        }
    )
    return regenerated, None


def _regenerate(g: _Gate) -> ToolResult | Exception:
    """Run the answer step's tool again with the latest feedback (its error, if it raised)."""
    tool, call, env = g.call()
    try:
        return tool.run(call, env)  # type: ignore[no-any-return]
    except Exception as exc:  # noqa: BLE001 - a failed regeneration keeps the earlier answer
        return exc


async def _aregenerate(g: _Gate) -> ToolResult | Exception:
    """Async :func:`_regenerate` (the tool's ``arun``)."""
    tool, call, env = g.call()
    try:
        return await tool.arun(call, env)  # type: ignore[no-any-return]
    except Exception as exc:  # noqa: BLE001 - the earlier answer is kept
        return exc


def _judge_attempt(g: _Gate, new: StepResult, n: int) -> bool:
    """Judge and check the regenerated answer ``new``; whether the loop goes on."""
    verdict = judge(g.services, g.question, new, g.log).judgement
    return g.judged(
        new, verdict, _evaluate(g.services, g.question, new, verdict, g.step.step_id, n, g.log)
    )


async def _ajudge_attempt(g: _Gate, new: StepResult, n: int) -> bool:
    """Async :func:`_judge_attempt`."""
    verdict = (await ajudge(g.services, g.question, new, g.log)).judgement
    checked = await _aevaluate(g.services, g.question, new, verdict, g.step.step_id, n, g.log)
    return g.judged(new, verdict, checked)


def _regenerations(g: _Gate) -> None:
    """Regenerate with feedback until an attempt passes (appended to ``g.attempts``).

    At most ``quality_gate.max_regenerations`` times; a failed or repeated regeneration
    ends the loop.
    """
    for n in range(1, g.services.settings.quality_gate.max_regenerations + 1):
        new = g.regenerated(n, _regenerate(g))
        if new is None or not _judge_attempt(g, new, n):
            return


async def _aregenerations(g: _Gate) -> None:
    """Async :func:`_regenerations`."""
    for n in range(1, g.services.settings.quality_gate.max_regenerations + 1):
        new = g.regenerated(n, await _aregenerate(g))
        if new is None or not await _ajudge_attempt(g, new, n):
            return


def _gate(
    services: GateServices,
    runtime: Runtime[GraceContext] | None,
    state: State,
    question: str,
    step: PlanStep,
    judged: Judged,
    first: tuple[QualityCheck, TokenUsage],
    log: ModelLog,
) -> _Gate:
    check, usage = first
    return _Gate(
        services=services,
        runtime=runtime,
        state=state,
        question=question,
        step=step,
        log=log,
        attempts=[(judged.result, judged.judgement, check)],
        extra=usage,
    )


def for_step(services: GateServices, step: PlanStep) -> GateServices:
    """``services`` whose quality gate is the step's own config, where the plan gave one.

    The step's ``evaluation`` (type, criteria, rubric, pass threshold) replaces the settings'
    for this answer; a config that is not valid (a ``criteria`` type without criteria) is
    ignored: the settings' gate applies.
    """
    config = step.evaluation
    if config is None:
        return services
    base = services.settings.quality_gate
    written = config.model_dump(exclude_unset=True, exclude_none=True)
    chosen = {k: v for k, v in written.items() if v != []}  # what the planner wrote
    try:
        gate = QualityGateSettings.model_validate({**base.model_dump(), **chosen})
    except ValueError:
        return services
    settings = services.settings.model_copy(update={"quality_gate": gate})
    return services.with_settings(settings)


def gate(
    services: GateServices,
    runtime: Runtime[GraceContext] | None,
    state: State,
    question: str,
    step: PlanStep,
    judged: Judged,
    log: ModelLog,
) -> GateOutcome:
    """Evaluate the judged answer; regenerate with feedback at most N times; keep the best.

    ``judged`` is the executed answer and its (already paid) judge call. The returned
    result carries the token usage of every attempt. The step's own gate config, if the
    plan gave one, applies (:func:`for_step`).
    """
    services = for_step(services, step)
    result, verdict = judged.result, judged.judgement
    first = _evaluate(services, question, result, verdict, step.step_id, 0, log)
    g = _gate(services, runtime, state, question, step, judged, first, log)
    if first[0].passed is False:
        _regenerations(g)
    chosen = None
    if drafts := _comparison_due(g):
        outputs, passages = [a[0].output for a in drafts], _passages(drafts[0][0])
        compared = services.evaluator.compare(question, outputs, context=passages, log=log)
        chosen = _compared(g, drafts, compared)
    return _outcome(g, judged.result, chosen)


async def agate(
    services: GateServices,
    runtime: Runtime[GraceContext] | None,
    state: State,
    question: str,
    step: PlanStep,
    judged: Judged,
    log: ModelLog,
) -> GateOutcome:
    """Async :func:`gate`."""
    services = for_step(services, step)
    result, verdict = judged.result, judged.judgement
    first = await _aevaluate(services, question, result, verdict, step.step_id, 0, log)
    g = _gate(services, runtime, state, question, step, judged, first, log)
    if first[0].passed is False:
        await _aregenerations(g)
    chosen = None
    if drafts := _comparison_due(g):
        outputs, passages = [a[0].output for a in drafts], _passages(drafts[0][0])
        compared = await services.evaluator.acompare(question, outputs, context=passages, log=log)
        chosen = _compared(g, drafts, compared)
    return _outcome(g, judged.result, chosen)


def _comparison_due(g: _Gate) -> list[_Attempt]:
    """The drafts a ``comparison`` gate compares: two or more distinct, measured ones."""
    if g.services.settings.quality_gate.type != "comparison":
        return []
    drafts: list[_Attempt] = []
    for attempt in g.attempts:
        _, _, check = attempt
        measured = check.score is not None and check.error is None
        if measured and all(d[0].output != attempt[0].output for d in drafts):
            drafts.append(attempt)
    return drafts if len(drafts) > 1 else []


def _compared(g: _Gate, drafts: list[_Attempt], compared: EvaluationResult) -> _Attempt | None:
    """The comparison's best draft, its check carrying every draft's score; None if it failed.

    A failed comparison (malformed verdict, model error) leaves the choice to the scores.
    """
    g.extra = g.extra + TokenUsage(
        model_calls=compared.model_calls,
        input_tokens=compared.input_tokens,
        output_tokens=compared.output_tokens,
    )
    if compared.failed or not compared.ranking:
        return None
    winner = drafts[compared.ranking[0]]
    scores = {
        f"output_{d[2].attempt}": compared.criteria_scores.get(f"output_{i}", 0.0)
        for i, d in enumerate(drafts)
    }
    check = winner[2].model_copy(update={"criteria_scores": scores, "feedback": compared.feedback})
    index = g.attempts.index(winner)
    g.attempts[index] = (winner[0], winner[1], check)
    return g.attempts[index]


def _outcome(g: _Gate, result: StepResult, chosen: _Attempt | None = None) -> GateOutcome:
    """Keep the best attempt and emit ``quality_gate``.

    ``chosen``: the comparison's best; else the best-scoring attempt (ties: the earlier one).
    """
    gate_settings = g.services.settings.quality_gate
    attempts, check = g.attempts, g.attempts[0][2]
    scored = [a for a in attempts if a[2].score is not None and a[2].error is None]
    best = max(scored, key=lambda a: a[2].score or 0.0) if scored else attempts[0]
    best = chosen if chosen is not None else best
    kept_result, kept_judgement, _ = best
    checks = [a[2].model_copy(update={"kept": a is best}) for a in attempts]
    passed = None if check.passed is None else any(c.passed for c in checks)
    if chosen is not None and passed is not None:  # the kept draft's own verdict
        passed = chosen[2].passed is True
    outcome = GateOutcome(
        result=kept_result.model_copy(
            update={"token_usage": result.token_usage + g.extra, "confidence": None}
        ),
        judgement=kept_judgement,
        checks=checks,
        usage=g.extra,
        passed=passed,
    )
    kept = outcome.kept
    emit(
        "quality_gate",
        step_id=g.step.step_id,
        passed=passed,
        score=kept.score if kept is not None else None,
        pass_threshold=gate_settings.pass_threshold,
        attempts=len(checks),
        regenerations=outcome.regenerations,
        kept_attempt=kept.attempt if kept is not None else 0,
        penalty=gate_settings.confidence_penalty if passed is False else 0.0,
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
