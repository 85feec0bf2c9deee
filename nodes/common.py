"""Helpers shared by the nodes: the run's question, context defaults, the final step.

Also what two nodes need alike, so that no node imports another: the planner's request and
the validated plan (``plan`` and ``replan``), whether an ESCALATE decision replans
(decided by ``confidence``, acted on by ``replan``), and the run's decision
(:func:`decide_run`: taken by ``confidence`` after the last step, by ``finalize`` only for a
run a person finished before it).
"""

from __future__ import annotations

from collections.abc import Mapping

from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from confidence import ActionDecision, ConfidenceScore, InterventionLevel, Thresholds
from grace.context import GraceContext, context_of
from grace.hitl.reply import answered_from_person, person_decision, rests_on_the_person
from grace.notes.events import emit
from grace.planning.blocks import pin_searches, template_plan
from grace.planning.roles import BUILT_IN_ROLES, Roles, is_ask, is_search
from grace.planning.validation import validate_plan
from grace.providers.base import PlanOutcome, PlanRequest
from grace.schemas import ExecutionPlan, PlanStep, StepResult, StepStatus
from grace.scoring.decision import calibrated_decision, learned_decision, model_scores
from grace.scoring.sentence_check import cap_silent
from grace.services import Services
from grace.state import State
from grace.storage.names import check_collection_name

__all__ = [
    "EmptyQuestionError",
    "InvalidQuestionError",
    "answer_step",
    "decide_run",
    "emit_plan_ready",
    "finish_plan",
    "low_confidence_replan_due",
    "pending_steps",
    "plan_request",
    "question_of",
    "replans_of",
    "resolve_plan",
    "scope_of",
    "unanswered_message",
    "validate_question",
]


class InvalidQuestionError(ValueError):
    """The question is empty, too long or not text."""


class EmptyQuestionError(InvalidQuestionError):
    """The question is empty (or only white space)."""


def scope_of(state: State, runtime: Runtime[GraceContext] | None) -> str | None:
    """The collection the run is confined to: the one its context names, else the thread's.

    A thread keeps the collection it was asked about through every replan and resume (a
    resume's context usually names none); ``None``: the planner chooses among them.
    """
    return context_of(runtime).collection or state.collection


def unanswered_message(state: State) -> str | None:
    """The text of a human message nobody has answered yet (the last message), else None."""
    last = state.messages[-1] if state.messages else None
    if not isinstance(last, HumanMessage):
        return None
    return last.text if hasattr(last, "text") else str(last.content)


def question_of(state: State, max_chars: int) -> str:
    """The turn's question, validated.

    A chat turn brings a human message GRACE has not answered (Studio, Agent Chat UI); a
    ``{"query": …}`` input sets ``query``. The message wins because on a thread's second
    chat turn ``query`` still holds the first turn's question.
    """
    message = unanswered_message(state)
    return validate_question(message if message is not None else state.query, max_chars)


def validate_question(query: object, max_chars: int) -> str:
    """Return the stripped question, or raise :class:`InvalidQuestionError` naming the problem."""
    if not isinstance(query, str):
        raise InvalidQuestionError(f"the question must be text, got {type(query).__name__}")
    query = query.strip()
    if not query:
        raise EmptyQuestionError("the question is empty: pass {'query': '...'} or a message")
    if len(query) > max_chars:
        raise InvalidQuestionError(
            f"the question is {len(query)} characters, over the limit of {max_chars} "
            "(setting run.max_question_chars)"
        )
    try:
        query.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidQuestionError("the question is not valid UTF-8 text") from None
    if "\ufffd" in query:
        raise InvalidQuestionError("the question is not valid UTF-8 text (it contains U+FFFD)")
    return query


def answer_step(plan: ExecutionPlan, roles: Roles = BUILT_IN_ROLES) -> PlanStep | None:
    """The step whose output is the answer: the last non-search step nothing depends on.

    ``roles``: the run's tool registry's (``services.tools.roles``).
    """
    depended = {d for s in plan.steps for d in s.depends_on}
    finals = [s for s in plan.steps if s.step_id not in depended and not is_search(s.action, roles)]
    return finals[-1] if finals else None


def pending_steps(plan: ExecutionPlan | None, results: dict[str, StepResult]) -> list[PlanStep]:
    """Plan steps without a result yet."""
    if plan is None:
        return []
    return [s for s in plan.steps if s.step_id not in results]


def is_done(result: StepResult | None) -> bool:
    """Whether a result counts as completed (its output may be used)."""
    return result is not None and result.status in (StepStatus.SUCCESS, StepStatus.PARTIAL)


def plan_request(
    services: Services,
    ctx: GraceContext,
    query: str,
    feedback: str | None = None,
    *,
    collections: list[str] | None = None,
    scope: str | None = None,
) -> PlanRequest:
    """The planner's request for ``query`` with the collections that exist.

    ``collections`` are the store's collections when the caller listed them already (the
    async nodes list them off the event loop); otherwise they are listed here. ``scope``
    (:func:`~nodes.common.scope_of`): the collection the person named — the planner is
    offered it alone, and :func:`resolve_plan` pins every search to it.
    """
    scope = check_collection_name(scope) if scope is not None else None
    default = scope or check_collection_name(
        ctx.collection or services.settings.retrieval.collection
    )
    if scope is not None:
        collections = [scope]
    elif collections is None:
        collections = services.store.list_collections()
    return PlanRequest(
        query=query,
        collections=collections or [default],
        default_collection=default,
        max_steps=services.settings.run.max_steps,
        feedback=feedback,
        tools=services.tools.descriptions(),
        scope=scope,
        roles=services.tools.roles,
    )


def emit_plan_ready(plan: ExecutionPlan) -> None:
    """Write the ``plan_ready`` event for ``plan`` (after planning and after a replan)."""
    emit(
        "plan_ready",
        plan_id=plan.plan_id,
        origin=plan.origin,
        steps=[
            {"step_id": s.step_id, "action": s.action, "query": s.query, "depends_on": s.depends_on}
            for s in plan.steps
        ],
        repairs=plan.repairs,
    )


def resolve_plan(services: Services, request: PlanRequest, outcome: PlanOutcome) -> ExecutionPlan:
    """The validated plan of ``outcome``, or the template plan with the planner's error.

    A scoped request (a collection named) gets every search pinned to that collection.
    """
    if outcome.plan is None:
        plan = template_plan(request.query, request.default_collection)
        if outcome.error:
            plan.repairs.append(outcome.error)
    else:
        plan = validate_plan(
            outcome.plan,
            actions=services.tools.names(),
            collections=request.collections,
            default_collection=request.default_collection,
            max_steps=request.max_steps,
            roles=services.tools.roles,
        )
    if request.scope is None:
        return plan
    return pin_searches(plan, request.scope, services.tools.roles)


def finish_plan(services: Services, request: PlanRequest, outcome: PlanOutcome) -> ExecutionPlan:
    """Validate the proposed plan (or fall back to the template) and emit ``plan_ready``."""
    plan = resolve_plan(services, request, outcome)
    emit_plan_ready(plan)
    return plan


def replans_of(state: State, trigger: str, strategy: str | None = None) -> int:
    """How many replans of this turn had ``trigger`` (and ``strategy``, when given)."""
    return sum(
        1
        for r in state.replans
        if r.trigger == trigger and (strategy is None or r.strategy == strategy)
    )


def low_confidence_replan_due(state: State, allowance: int, roles: Roles = BUILT_IN_ROLES) -> bool:
    """Whether an ESCALATE decision should replan instead of asking the person (yet).

    Only when budget is left (``replan_count < replan_budget``), fewer than ``allowance``
    low-confidence replans ran, and the batch is not a question the plan itself asks the
    person (``ask_user``), which only the person can answer.
    """
    decision = state.decision
    if decision is None or decision.level != InterventionLevel.ESCALATE or state.plan is None:
        return False
    if state.replan_count >= state.replan_budget or state.edited_answer:
        return False
    if replans_of(state, "low_confidence") >= allowance:
        return False
    batch = [state.results[s] for s in state.last_batch if s in state.results]
    return not any(is_ask(r.action, roles) for r in batch)


def decide_run(
    services: Services,
    plan: ExecutionPlan,
    scores: Mapping[str, ConfidenceScore],
    results: Mapping[str, StepResult],
    thresholds: Thresholds,
    answer: StepResult | None,
) -> tuple[float, ActionDecision]:
    """The run's overall confidence and THE decision on it, with ``answer`` as its answer.

    The one function that decides a run's level. ``confidence`` calls it after the last
    step (``answer``: the answer step's result); ``finalize`` only for a run that ended
    before that — a person finished it at a pause before its last step (``answer``: the
    answer the run reports, if any). P(correct) from the learned model when it scores this
    engine's runs, else the calibrated aggregate of the plan's step scores (skipped steps
    left out); an answer from the person's reply is theirs; a SILENT answer passes the
    sentence check.
    """
    ordered = [
        scores[s.step_id].score
        for s in plan.steps
        if s.step_id in scores and results[s.step_id].status != StepStatus.SKIPPED
    ]
    if answer is not None and answer.step_id in scores and rests_on_the_person(answer.sources):
        # Searches the answer did not use are no evidence for or against it.
        ordered = [scores[answer.step_id].score]
    model = services.calculator.config.model
    if model is not None and model_scores(model, services.provider, answer):
        executed = [results[s.step_id] for s in plan.steps if s.step_id in results]
        step_scores = {k: (v.score, v.breakdown) for k, v in scores.items()}
        overall, decision = learned_decision(
            model, services.calculator, plan.original_query, executed, step_scores, thresholds
        )
    else:
        raw = services.aggregator.aggregate(ordered)
        overall, decision = calibrated_decision(
            services.calculator, services.provider, raw, thresholds
        )
    if answer is not None and answered_from_person(answer.sources):
        decision = person_decision(overall, answer.sources)
    elif answer is not None and not rests_on_the_person(answer.sources):
        decision = cap_silent(decision, plan.original_query, answer.output, answer.sources)
    return overall, decision
