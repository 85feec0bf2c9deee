"""``confidence``: score the latest batch of steps and decide how much to involve a person.

Search steps are scored from their hit statistics; non-search steps inherit the best
confidence of their dependencies as search quality (docs/architecture.md) and add source agreement.
The answer step also gets ONE judge call (self-evaluation and coverage together), which
the quality gate (:mod:`grace.scoring.quality_gate`) reuses as its evaluation; only a failed gate
regenerates the answer with feedback (bounded), and a gate that still fails lowers the
answer step's score by ``quality_gate.confidence_penalty`` (listed as the ``quality_gate``
penalty) and adds a note.

After the last step the decision is taken on the run's overall confidence: the aggregator
over all step scores, mapped to P(answer correct) by ``confidence.calibration``
(:mod:`confidence.calibration`), so the thresholds read as probabilities. Before the last
step every step is still scored and streamed (``step_scored``), but whether a batch may
pause the run is ``run.pause_before_answer``: by default (``on_failure``) only a failed
step, a batch whose searches found no passage at all, or the plan's own ``ask_user`` pause
before the answer — a mediocre search goes on to a draft answer, which the person can
actually review and which the answer's judge can score; ``always`` lets the batch's weakest
step decide (per-step gating), ``never`` pauses only for ``ask_user``. Thresholds are the
user's learned ones (:mod:`grace.scoring.user_thresholds`) when the graph has a store, read
once a turn (``State.thresholds``). The run's decision is taken once, by
:func:`nodes.common.decide_run`, and recorded (``run_decision``, ``level``, ``confidence``):
``finalize`` reports it (it calls the same function only for a run a person finished at a
pause before its last step, which this node never decided).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from langgraph.runtime import Runtime

from confidence import (
    RECOMMENDED_ACTIONS,
    ActionDecision,
    ConfidenceFactors,
    ConfidenceScore,
    InterventionLevel,
    SearchStats,
    Thresholds,
    inherit_search_quality,
)
from confidence.model_log import ModelLog
from grace.context import GraceContext
from grace.hitl.reply import (
    is_from_person,
)
from grace.notes.events import emit
from grace.notes.models import failed_roles, note_of
from grace.notes.runs import gate_note
from grace.planning.roles import is_ask, is_search
from grace.schemas import (
    ExecutionPlan,
    PlanStep,
    QualityCheck,
    StepResult,
    StepStatus,
    TokenUsage,
)
from grace.scoring.decision import (
    thresholds_in_force,
)
from grace.scoring.quality_gate import (
    GateOutcome,
    Judged,
    agate,
    ajudge,
    gate,
    gate_applies,
    judge,
)
from grace.scoring.user_thresholds import alearned_thresholds, learned_thresholds, user_of
from grace.services import Services, ServicesSource, aservices_for, services_for
from grace.state import ReplanRequest, State, StepConfidence
from nodes.common import (
    answer_step,
    decide_run,
    low_confidence_replan_due,
    pending_steps,
)

__all__ = [
    "aconfidence",
    "confidence",
    "decide_before_answer",
    "factors_for",
]


def decide_before_answer(
    services: Services,
    batch: list[StepResult],
    scores: dict[str, ConfidenceScore],
    thresholds: Thresholds,
) -> ActionDecision:
    """The decision on a batch that is not the last one (``run.pause_before_answer``).

    ``always``: the weakest step's level. ``on_failure``: ESCALATE when a step failed or the
    batch's searches found no passage at all, else go on (a CONFIRM / ESCALATE level of a
    search step becomes NOTIFY: the draft answer will be scored and reviewed instead).
    ``never``: always go on. An ``ask_user`` step is handled by the caller in every mode.
    """
    calc = services.calculator
    weakest = min((scores[r.step_id].score for r in batch), default=0.0)
    step_decision = calc.decide_action(weakest, thresholds)
    mode = services.settings.run.pause_before_answer
    if mode == "always":
        return step_decision
    if step_decision.level in (InterventionLevel.SILENT, InterventionLevel.NOTIFY):
        return _going_on(services, weakest, step_decision.level, thresholds)
    why: str | None = None
    if mode == "on_failure":
        failed = [r.step_id for r in batch if r.status == StepStatus.FAILED]
        roles = services.tools.roles
        searches = [
            r for r in batch if r.status != StepStatus.FAILED and is_search(r.action, roles)
        ]
        if failed:
            why = f"step {', '.join(failed)} failed"
        elif searches and all(int(r.factors.get("result_count", 0)) == 0 for r in searches):
            why = "the search found no passage"
    if why is not None:
        level = InterventionLevel.ESCALATE
        return ActionDecision(
            level=level,
            reason=f"{why} (confidence {weakest:.2f}): pausing before the answer",
            recommended_action=RECOMMENDED_ACTIONS[level],
            score=weakest,
        )
    return _going_on(services, weakest, InterventionLevel.NOTIFY, thresholds)


def _going_on(
    services: Services, weakest: float, level: InterventionLevel, thresholds: Thresholds
) -> ActionDecision:
    """Go on to the draft answer; the reason names the thresholds that will decide the run.

    A step's score is not the run's level: the answer is scored and decided (and reviewed,
    if it comes to that) at the thresholds in force (:func:`thresholds_in_force`), which the
    notice names instead of the step's own.
    """
    deciding, source = thresholds_in_force(services.calculator, services.provider, thresholds)
    mode = services.settings.run.pause_before_answer
    return ActionDecision(
        level=level,
        reason=f"steps scored {weakest:.2f}; going on to a draft answer, which is scored and "
        f"reviewed instead (run.pause_before_answer: {mode}); the run's level is decided on "
        f"it at silent {deciding.silent:.4g} / notify {deciding.notify:.4g} / confirm "
        f"{deciding.confirm:.4g} ({source})",
        recommended_action=RECOMMENDED_ACTIONS[level],
        score=weakest,
    )


_TOOL_SUCCESS = {StepStatus.FAILED: 0.0, StepStatus.SKIPPED: 0.0, StepStatus.PARTIAL: 0.5}
"""Tool success by step status (1.0 for any other)."""


def _search_stats(f: dict[str, float]) -> SearchStats:
    return SearchStats(
        count=int(f.get("result_count", 0)),
        max_score=f.get("max_score", 0.0),
        mean_score=f.get("mean_score", 0.0),
        spread=f.get("spread", 0.0),
    )


def _inherited_quality(
    step: PlanStep, result: StepResult, scores: dict[str, ConfidenceScore], abstained: bool
) -> float | None:
    """The best dependency's score; the person's own information counts as full quality."""
    if abstained:  # an abstention rests on no passage: the searches say nothing about it
        return None
    inherited = inherit_search_quality(scores[d].score for d in step.depends_on if d in scores)
    human = [s.score for s in result.sources if is_from_person(s)]
    return max(inherited or 0.0, *human) if human else inherited


def factors_for(
    services: Services,
    step: PlanStep,
    result: StepResult,
    scores: dict[str, ConfidenceScore],
) -> ConfidenceFactors:
    """Turn a step result into calculator inputs."""
    f = result.factors
    tool_success = _TOOL_SUCCESS.get(result.status, 1.0)
    action = result.action or step.action
    if is_search(action, services.tools.roles):
        return ConfidenceFactors(
            is_search_step=True, search=_search_stats(f), tool_success=tool_success
        )
    abstained = f.get("abstained", 0.0) > 0
    texts = [s.text for s in result.sources]
    declared = services.tools.get(action).signals if action in services.tools else ()
    return ConfidenceFactors(
        signals={name: f[name] for name in declared if name in f},
        answer_margin=None if abstained else f.get("answer_margin"),
        search_quality=_inherited_quality(step, result, scores, abstained),
        tool_success=tool_success,
        source_count=len({(s.source, s.chunk_index) for s in result.sources}),
        source_agreement=services.agreement.calculate(texts) if len(texts) > 1 else None,
    )


@dataclass
class _Answer:
    """The answer step after its judge call and quality gate."""

    result: StepResult
    factors: ConfidenceFactors
    usage: TokenUsage
    checks: list[QualityCheck] = field(default_factory=list)
    penalty: float = 0.0
    note: str | None = None


@dataclass
class _Scored:
    """The batch's scores and results after scoring (with the answer step's extras)."""

    scores: dict[str, ConfidenceScore]
    """Every step's score so far (the batch's new)."""
    results: dict[str, StepResult]
    """Every step's result so far (the batch's with their confidence)."""
    usage: TokenUsage = field(default_factory=TokenUsage)
    """Model usage of the judge and gate calls."""
    checks: list[QualityCheck] = field(default_factory=list)
    """Quality-gate checks of the answer."""
    notes: list[str] = field(default_factory=list)
    """Notes for the final output (a failed gate's)."""
    batch: list[str] = field(default_factory=list)
    """The batch's step ids, in scoring order."""


_Due = tuple[PlanStep, StepResult]
"""The answer step and its result, due for the judge."""


def _question(state: State) -> str:
    assert state.plan is not None, "confidence runs after plan"
    return state.plan.original_query


def _answer_due(
    services: Services, state: State, plan: ExecutionPlan, batch: list[str]
) -> _Due | None:
    """The plan's answer step if it is in the batch and did not fail: it gets judged."""
    final = answer_step(plan, services.tools.roles)
    if final is None or final.step_id not in batch:
        return None
    result = state.results[final.step_id]
    return None if result.status == StepStatus.FAILED else (final, result)


def _answer(
    services: Services,
    state: State,
    step: PlanStep,
    judged: Judged,
    outcome: GateOutcome | None,
) -> _Answer:
    """The answer step after its judge call (and quality gate, ``outcome``)."""
    result, judgement, usage = judged.result, judged.judgement, judged.usage
    answer = _Answer(result=result, factors=ConfidenceFactors(), usage=usage)
    if outcome is not None:
        answer.result, judgement, answer.checks = outcome.result, outcome.judgement, outcome.checks
        answer.usage = usage + outcome.usage
        if outcome.passed is False:
            gate_settings = services.settings.quality_gate
            answer.penalty = gate_settings.confidence_penalty
            kept = outcome.kept
            best = kept.score if kept is not None and kept.score is not None else 0.0
            tries = outcome.regenerations
            threshold = kept.pass_threshold if kept is not None else gate_settings.pass_threshold
            answer.note = gate_note(step.step_id, best, threshold, tries, answer.penalty)
    factors = factors_for(services, step, answer.result, state.scores)
    answer.factors = factors.model_copy(
        update={
            "llm_self_eval": judgement.self_eval,
            "query_coverage": judgement.coverage,
            "answer_checks": dict(judgement.checks),
        }
    )
    return answer


def _judge_and_gate(
    services: Services, runtime: Runtime[GraceContext], state: State, due: _Due, log: ModelLog
) -> _Answer:
    """ONE judge call on the answer (self-evaluation + coverage), then the quality gate.

    A passing gate reuses that judge call; only a failed gate spends more (regeneration
    with feedback, re-judging), bounded by ``quality_gate.max_regenerations``.
    """
    (step, result), question = due, _question(state)
    judged = judge(services, question, result, log)
    gated = gate_applies(services, judged.result)
    outcome = gate(services, runtime, state, question, step, judged, log) if gated else None
    return _answer(services, state, step, judged, outcome)


async def _ajudge_and_gate(
    services: Services, runtime: Runtime[GraceContext], state: State, due: _Due, log: ModelLog
) -> _Answer:
    """Async :func:`_judge_and_gate` (``ajudge``, the tool's ``arun``)."""
    (step, result), question = due, _question(state)
    judged = await ajudge(services, question, result, log)
    if not gate_applies(services, judged.result):
        return _answer(services, state, step, judged, None)
    outcome = await agate(services, runtime, state, question, step, judged, log)
    return _answer(services, state, step, judged, outcome)


def _penalised(score: ConfidenceScore, penalty: float) -> ConfidenceScore:
    """``score`` lowered by the failed quality gate's penalty (listed, clamped at 0)."""
    if penalty <= 0.0:
        return score
    return score.model_copy(
        update={
            "score": max(0.0, score.score - penalty),
            "penalties": {**score.penalties, "quality_gate": penalty},
        }
    )


def _batch(state: State, plan: ExecutionPlan) -> list[str]:
    """The latest batch: steps with a result and no score yet, the skipped ones first.

    ``execute`` tasks write only their own result; the batch is what they added since the
    last ``confidence``, in the order they were sent (:func:`nodes.execute.send_steps`).
    """
    new = [s.step_id for s in plan.steps if s.step_id in state.results]
    new = [sid for sid in new if sid not in state.scores]
    skipped = [sid for sid in new if state.results[sid].status == StepStatus.SKIPPED]
    return skipped + [sid for sid in new if sid not in skipped]


def _score_batch(
    services: Services,
    state: State,
    plan: ExecutionPlan,
    batch: list[str],
    answer: _Answer | None,
) -> _Scored:
    """Score every step of the latest batch (the answer step after its judge and gate)."""
    steps = {s.step_id: s for s in plan.steps}
    out = _Scored(scores=dict(state.scores), results=dict(state.results))
    final = answer_step(plan, services.tools.roles)
    for step_id in batch:
        step, result = steps[step_id], out.results[step_id]
        penalty = 0.0
        if answer is not None and final is not None and step_id == final.step_id:
            result, factors, penalty = answer.result, answer.factors, answer.penalty
            out.usage = out.usage + answer.usage
            out.checks.extend(answer.checks)
            out.notes.extend([answer.note] if answer.note else [])
        else:
            factors = factors_for(services, step, result, out.scores)
        score = _penalised(services.calculator.calculate(factors), penalty)
        out.scores[step_id] = score
        out.results[step_id] = result.model_copy(update={"confidence": score.score})
    return out


def _asks_the_person(
    services: Services, batch: list[StepResult], decision: ActionDecision
) -> ActionDecision:
    """ESCALATE when the batch is the plan's own question to the person (``ask_user``)."""
    asked = (is_ask(r.action, services.tools.roles) for r in batch if r.status != StepStatus.FAILED)
    if not any(asked):
        return decision
    return ActionDecision(
        level=InterventionLevel.ESCALATE,
        reason="the plan asks the person a question",
        recommended_action="answer the question in a response",
        score=decision.score,
    )


def _reviewed_after_model_failure(
    state: State, decision: ActionDecision, log: ModelLog
) -> ActionDecision:
    """At least CONFIRM when the model failed for the answer or its judge (in this run).

    Such a run's answer or score is not the model's considered work: it never ends SILENT or
    NOTIFY, whatever its confidence; the pause says the model failed (``nodes.intervene``).
    """
    if decision.level not in (InterventionLevel.SILENT, InterventionLevel.NOTIFY):
        return decision
    roles = failed_roles([*state.notes, *map(note_of, log.failures())])
    if not roles:
        return decision
    level = InterventionLevel.CONFIRM
    return ActionDecision(
        level=level,
        reason=f"{decision.reason}; the model failed ({', '.join(roles)}): a person reviews it",
        recommended_action=RECOMMENDED_ACTIONS[level],
        score=decision.score,
    )


def _replan_request(
    services: Services,
    state: State,
    scored: _Scored,
    batch: list[StepResult],
    decision: ActionDecision,
    log: ModelLog,
) -> ReplanRequest | None:
    """A failed step asks for a replan; so does ESCALATE while automatic replans are left.

    Not once the run's model time is spent: a replan would only call the model again.
    """
    if log.budget_spent():
        return None
    failed = [r.step_id for r in batch if r.status == StepStatus.FAILED]
    if failed:
        return ReplanRequest(trigger="step_failed", detail=", ".join(failed))
    after = replace(state, decision=decision, results=scored.results, last_batch=scored.batch)
    allowance, roles = services.settings.run.low_confidence_replans, services.tools.roles
    if low_confidence_replan_due(after, allowance, roles):
        return ReplanRequest(trigger="low_confidence")
    return None


def _emit_scored(
    services: Services, scored: _Scored, decision: ActionDecision, t: Thresholds
) -> None:
    for step_id in scored.batch:
        emit(
            "step_scored",
            step_id=step_id,
            confidence=scored.scores[step_id].score,
            level=services.calculator.decide_action(scored.scores[step_id], t).level.value,
        )
    if decision.level == InterventionLevel.NOTIFY:
        emit("notice", level="notify", confidence=decision.score, message=decision.reason)


def _written_results(state: State, scored: _Scored) -> dict[str, StepResult | StepConfidence]:
    """The batch's results as the node writes them: merged in by step id.

    A result the node scored (and the judge's call added to its usage) goes as a
    :class:`~grace.state.StepConfidence`: the state's reducer sets them on the result there.
    One the quality gate changed (a regenerated answer) goes whole.
    """
    out: dict[str, StepResult | StepConfidence] = {}
    for step_id in scored.batch:
        new, old = scored.results[step_id], state.results[step_id]
        usage = None if new.token_usage == old.token_usage else new.token_usage
        patch = StepConfidence(confidence=scored.scores[step_id].score, token_usage=usage)
        out[step_id] = patch if patch.applied_to(old) == new else new
    return out


def _update(
    services: Services,
    runtime: Runtime[GraceContext],
    state: State,
    scored: _Scored,
    thresholds: Thresholds,
    log: ModelLog,
) -> dict[str, Any]:
    """The node's update: the batch's scores, the decision and any replan request."""
    plan = state.plan
    assert plan is not None, "confidence runs after plan"
    user = user_of(services.settings, runtime, state.user_id)
    batch = [scored.results[s] for s in scored.batch]
    update: dict[str, Any] = {
        # Only the batch's entries: the state merges them in by step id.
        "results": _written_results(state, scored),
        "scores": {s: scored.scores[s] for s in scored.batch},
        "usage": scored.usage,
        "last_batch": scored.batch,
    }
    if user != state.user_id:
        update["user_id"] = user
    if scored.checks:
        update["quality"] = scored.checks
    if scored.notes:
        update["notes"] = scored.notes
    if state.thresholds is None:
        update["thresholds"] = thresholds  # read once a turn (``intervene`` writes new ones)
    if not pending_steps(plan, scored.results):
        final = answer_step(plan, services.tools.roles)
        drafted = scored.results.get(final.step_id) if final is not None else None
        update["confidence"], decision = decide_run(
            services, plan, scored.scores, scored.results, thresholds, drafted
        )
        decision = _reviewed_after_model_failure(state, decision, log)
        update["level"], update["run_decision"] = decision.level, decision
    else:
        decision = decide_before_answer(services, batch, scored.scores, thresholds)
    decision = _asks_the_person(services, batch, decision)
    update["replan_request"] = _replan_request(services, state, scored, batch, decision, log)
    update["decision"] = decision
    shown, _source = thresholds_in_force(services.calculator, services.provider, thresholds)
    _emit_scored(services, scored, decision, shown)
    return update


def _scored(services: Services, state: State, batch: list[str], answer: _Answer | None) -> _Scored:
    assert state.plan is not None
    scored = _score_batch(services, state, state.plan, batch, answer)
    scored.batch = batch
    return scored


def confidence(
    state: State, runtime: Runtime[GraceContext], services: ServicesSource, log: ModelLog
) -> dict[str, Any]:
    """Score the steps of the latest batch and take the decision."""
    services = services_for(runtime, services)
    plan = state.plan
    assert plan is not None, "confidence runs after plan"
    batch = _batch(state, plan)
    due = _answer_due(services, state, plan, batch)
    answer = _judge_and_gate(services, runtime, state, due, log) if due else None
    scored = _scored(services, state, batch, answer)
    thresholds = state.thresholds
    if thresholds is None:
        user = user_of(services.settings, runtime, state.user_id)
        thresholds = learned_thresholds(services.settings, runtime, user)
    return _update(services, runtime, state, scored, thresholds, log)


async def aconfidence(
    state: State, runtime: Runtime[GraceContext], services: ServicesSource, log: ModelLog
) -> dict[str, Any]:
    """Async :func:`confidence` (``ajudge``, the store's ``aget``)."""
    services = await aservices_for(runtime, services)
    plan = state.plan
    assert plan is not None, "confidence runs after plan"
    batch = _batch(state, plan)
    due = _answer_due(services, state, plan, batch)
    answer = await _ajudge_and_gate(services, runtime, state, due, log) if due else None
    scored = _scored(services, state, batch, answer)
    thresholds = state.thresholds
    if thresholds is None:
        user = user_of(services.settings, runtime, state.user_id)
        thresholds = await alearned_thresholds(services.settings, runtime, user)
    return _update(services, runtime, state, scored, thresholds, log)
