"""``confidence``: score the latest batch of steps and decide how much to involve a person.

Search steps are scored from their hit statistics; non-search steps inherit the best
confidence of their dependencies as search quality (DESIGN §4) and add source agreement.
The answer step also gets ONE judge call (self-evaluation and coverage together). After the
last step the decision is taken on the run's overall confidence (the aggregator over all
step scores); before it, on the weakest step of the batch.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from confidence import (
    ActionDecision,
    ConfidenceFactors,
    ConfidenceScore,
    InterventionLevel,
    SearchStats,
    Thresholds,
    inherit_search_quality,
)
from grace.context import GraceContext
from grace.events import emit
from grace.schemas import ExecutionPlan, PlanStep, StepResult, StepStatus, TokenUsage
from grace.services import Services
from grace.state import ReplanRequest, State
from nodes.common import answer_step, context_of, pending_steps, services_for

__all__ = ["confidence", "factors_for", "run_thresholds"]


def run_thresholds(services: Services, runtime: Runtime[GraceContext] | None) -> Thresholds:
    """Thresholds in force for this run's user (learned ones when a store is attached)."""
    from nodes.learning import learned_thresholds

    return learned_thresholds(services, runtime)


def factors_for(
    services: Services,
    step: PlanStep,
    result: StepResult,
    scores: dict[str, ConfidenceScore],
) -> ConfidenceFactors:
    """Turn a step result into calculator inputs."""
    f = result.factors
    tool_success = 0.0 if result.status in (StepStatus.FAILED, StepStatus.SKIPPED) else 1.0
    if result.status == StepStatus.PARTIAL:
        tool_success = 0.5
    if services.tools.get(result.action or step.action).is_search:
        count = int(f.get("result_count", 0))
        stats = SearchStats(
            count=count,
            max_score=f.get("max_score", 0.0),
            mean_score=f.get("mean_score", 0.0),
            spread=f.get("spread", 0.0),
        )
        return ConfidenceFactors(is_search_step=True, search=stats, tool_success=tool_success)
    inherited = inherit_search_quality(scores[d].score for d in step.depends_on if d in scores)
    texts = [s.text for s in result.sources]
    return ConfidenceFactors(
        search_quality=inherited,
        tool_success=tool_success,
        source_count=len({(s.source, s.chunk_index) for s in result.sources}),
        source_agreement=services.agreement.calculate(texts) if len(texts) > 1 else None,
    )


def _judge(
    services: Services, plan: ExecutionPlan, result: StepResult, factors: ConfidenceFactors
) -> tuple[ConfidenceFactors, TokenUsage]:
    """Add the judge's self-evaluation and coverage (one call) to the answer step's factors."""
    judgement = services.judge.judge(
        plan.original_query, result.output, [s.text for s in result.sources]
    )
    usage = TokenUsage(
        model_calls=judgement.model_calls,
        input_tokens=judgement.input_tokens,
        output_tokens=judgement.output_tokens,
    )
    updated = factors.model_copy(
        update={"llm_self_eval": judgement.self_eval, "query_coverage": judgement.coverage}
    )
    return updated, usage


def confidence(state: State, runtime: Runtime[GraceContext]) -> dict[str, Any]:
    """Score the steps of the latest batch and take the decision."""
    services = services_for(runtime)
    calc = services.calculator
    plan = state.plan
    assert plan is not None, "confidence runs after plan"
    steps = {s.step_id: s for s in plan.steps}
    scores = dict(state.scores)
    results = dict(state.results)
    usage = TokenUsage()
    final = answer_step(plan)
    for step_id in state.last_batch:
        step, result = steps[step_id], results[step_id]
        factors = factors_for(services, step, result, scores)
        if final is not None and step_id == final.step_id and result.status != StepStatus.FAILED:
            factors, judge_usage = _judge(services, plan, result, factors)
            usage = usage + judge_usage
            result = result.model_copy(update={"token_usage": result.token_usage + judge_usage})
        score = calc.calculate(factors)
        scores[step_id] = score
        results[step_id] = result.model_copy(update={"confidence": score.score})
    thresholds = run_thresholds(services, runtime)
    remaining = pending_steps(plan, results)
    batch = [results[s] for s in state.last_batch]
    update: dict[str, Any] = {"results": results, "scores": scores, "usage": usage}
    if not remaining:
        ordered = [
            scores[s.step_id].score
            for s in plan.steps
            if s.step_id in scores and results[s.step_id].status != StepStatus.SKIPPED
        ]
        overall = services.aggregator.aggregate(ordered)
        decision = calc.decide_action(overall, thresholds)
        update["confidence"] = overall
        update["level"] = decision.level
    else:
        weakest = min((scores[r.step_id].score for r in batch), default=0.0)
        decision = calc.decide_action(weakest, thresholds)
    if any(r.action == "ask_user" and r.status != StepStatus.FAILED for r in batch):
        decision = ActionDecision(
            level=InterventionLevel.ESCALATE,
            reason="the plan asks the person a question",
            recommended_action="answer the question in a response",
            score=decision.score,
        )
    failed = [r.step_id for r in batch if r.status == StepStatus.FAILED]
    update["replan_request"] = (
        ReplanRequest(trigger="step_failed", detail=", ".join(failed)) if failed else None
    )
    update["decision"] = decision
    for step_id in state.last_batch:
        emit(
            "step_scored",
            step_id=step_id,
            confidence=scores[step_id].score,
            level=calc.decide_action(scores[step_id], thresholds).level.value,
        )
    if decision.level == InterventionLevel.NOTIFY:
        emit("notice", level="notify", confidence=decision.score, message=decision.reason)
    _ = context_of(runtime)
    return update
