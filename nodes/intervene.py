"""``intervene``: pause for a person with a LangChain 1.0 HITL request, act on the reply.

The node calls ``interrupt()`` first and does its side effects only after the reply, because
LangGraph re-runs the node from its first line on resume.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from langgraph.errors import GraphInterrupt
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from confidence import ActionDecision, ConfidenceScore, Thresholds
from confidence.model_log import ModelLog
from grace.context import GraceContext
from grace.hitl.chat import pause_message, source_lines
from grace.hitl.reply import person_source
from grace.hitl.request import (
    ActionRequest,
    GraceInterrupt,
    HumanResponse,
    InvalidHumanResponseError,
    ReviewConfig,
    allowed_decisions_for,
    parse_human_response,
)
from grace.hitl.resolve import aresolve_requested, resolve_requested
from grace.notes.events import emit
from grace.notes.models import model_errors
from grace.planning.roles import BUILT_IN_ROLES, Roles, is_ask
from grace.schemas import InterventionRecord, StepResult
from grace.scoring.user_thresholds import arecord_outcome, record_outcome
from grace.services import ServicesSource, aservices_for, services_for
from grace.state import InterveneInput, PauseInput, ReplanRequest
from nodes.common import answer_step, validate_question

__all__ = ["aintervene", "build_interrupt", "intervene", "pause"]

_EDITABLE = ("query", "answer")
"""Action args an ``edit`` may change (``sources`` is shown, not edited)."""


def _describe(
    state: InterveneInput,
    decision: ActionDecision,
    batch: list[StepResult],
    answer: str,
    roles: Roles,
) -> str:
    lines = [
        f"## GRACE needs you: {decision.level.value.upper()}",
        "",
        f"**Question:** {state.query}",
        "",
        f"**Confidence:** {decision.score:.2f} — {decision.reason}",
        "",
        "| step | action | status | confidence |",
        "| --- | --- | --- | --- |",
    ]
    for r in batch:
        conf = f"{r.confidence:.2f}" if r.confidence is not None else "–"
        lines.append(f"| {r.step_id} | {r.action} | {r.status.value} | {conf} |")
    score: ConfidenceScore | None = state.scores.get(batch[-1].step_id) if batch else None
    if score is not None:
        parts = ", ".join(f"{k} {v:.2f}" for k, v in score.breakdown.items())
        pens = ", ".join(f"{k} −{v:.2f}" for k, v in score.penalties.items()) or "none"
        lines += ["", f"**Breakdown ({batch[-1].step_id}):** {parts}; penalties: {pens}"]
    failures = model_errors(state.notes)
    if failures:
        lines += ["", "**The model failed** (not the documents):", *(f"- {f}" for f in failures)]
    if answer:
        lines += ["", "**Answer so far:**", "", f"> {answer}"]
    cited = dict.fromkeys(s.citation for r in batch for s in r.sources)
    if cited:
        lines += ["", f"**Sources:** {', '.join(cited)}"]
    asks = [r.output for r in batch if is_ask(r.action, roles)]
    if asks:
        lines += ["", f"**GRACE asks:** {asks[0]}"]
    lines += ["", f"**Suggested:** {decision.recommended_action}"]
    return "\n".join(lines)


def build_interrupt(state: InterveneInput, roles: Roles = BUILT_IN_ROLES) -> GraceInterrupt:
    """The request shown to the person for the latest decision (``roles``: the registry's)."""
    assert state.decision is not None and state.plan is not None
    decision = state.decision
    batch = [state.results[s] for s in state.last_batch if s in state.results]
    final = answer_step(state.plan, roles)
    draft = state.results.get(final.step_id) if final else None
    answer = draft.output if draft is not None else ""
    name = "review_answer" if draft is not None else "review_step"
    sources = source_lines(
        [s for r in ([draft] if draft is not None else batch) for s in r.sources]
    )
    return GraceInterrupt(
        action_requests=[
            ActionRequest(
                name=name,
                args={"query": state.query, "answer": answer, "sources": "\n".join(sources)},
                description=_describe(state, decision, batch, answer, roles),
            )
        ],
        review_configs=[
            ReviewConfig(action_name=name, allowed_decisions=allowed_decisions_for(decision.level))
        ],
        level=decision.level,
        confidence=decision.score,
        step_id=batch[-1].step_id if batch else "",
    )


def pause(state: PauseInput) -> dict[str, Any]:
    """Post the draft (or "I need your help: …") to the chat before ``intervene`` waits.

    A node of its own because an interrupted node writes nothing: while the run is paused,
    chat clients show ``messages``, and the draft must be there, not only in the interrupt.
    """
    assert state.decision is not None and state.plan is not None
    final = answer_step(state.plan)
    draft = state.results.get(final.step_id) if final else None
    batch = [state.results[s] for s in state.last_batch if s in state.results]
    message = pause_message(
        state.decision.level,
        state.decision.score,
        draft.output if draft is not None else "",
        draft.sources if draft is not None else [s for r in batch for s in r.sources],
        model_failed=bool(model_errors(state.notes)),
    )
    return {"messages": [message]}


def _ask(request: GraceInterrupt, check_question: Callable[[str], str]) -> HumanResponse:
    """Interrupt until the reply is valid.

    A malformed reply is not raised out of the graph (LangGraph would keep replaying it):
    the same request is asked again with ``error`` set, so the thread stays resumable.
    Interrupts within one node are matched by order, so each retry is its own interrupt.
    """
    value = interrupt(request.model_dump(mode="json"))
    while True:
        try:
            return parse_human_response(value, request, check_question=check_question)
        except InvalidHumanResponseError as exc:
            action = request.action.model_copy(
                update={
                    "description": f"**Your last reply was rejected:** {exc}\n\n"
                    + request.action.description
                }
            )
            retry = request.model_copy(update={"error": str(exc), "action_requests": [action]})
            value = interrupt(retry.model_dump(mode="json"))


def _ask_person(
    state: InterveneInput, max_question_chars: int, roles: Roles
) -> tuple[GraceInterrupt, HumanResponse]:
    """Build the request, emit ``intervention_required`` and interrupt until a valid reply.

    An edited question is validated like a new ``ask`` (same ``run.max_question_chars``).
    """
    request = build_interrupt(state, roles)
    emit(
        "intervention_required",
        level=request.level.value,
        confidence=request.confidence,
        step_id=request.step_id,
    )
    return request, _ask(request, partial(validate_question, max_chars=max_question_chars))


_RESOLVED = HumanResponse(type="ignore")
"""A client ended the pause without a reply (``Command(goto=END)``): finish as it stands."""


def intervene(
    state: InterveneInput,
    runtime: Runtime[GraceContext],
    services: ServicesSource,
    log: ModelLog,
) -> dict[str, Any]:
    """Ask the person and turn the reply into the next move (continue, replan or finish).

    No model is called here: ``log`` (the step's model log, every node's fourth argument)
    stays empty.
    """
    services = services_for(runtime, services)
    try:
        max_chars, roles = services.settings.run.max_question_chars, services.tools.roles
        request, reply = _ask_person(state, max_chars, roles)
    except GraphInterrupt:
        if not resolve_requested():
            raise
        request, reply = build_interrupt(state, services.tools.roles), _RESOLVED
    learned = record_outcome(
        services.settings, runtime, request.confidence, reply.type, thread_user=state.user_id
    )
    return _update(state, request, reply, learned)


async def aintervene(
    state: InterveneInput,
    runtime: Runtime[GraceContext],
    services: ServicesSource,
    log: ModelLog,
) -> dict[str, Any]:
    """Async :func:`intervene` (the checkpointer's and the store's async APIs)."""
    services = await aservices_for(runtime, services)
    try:
        max_chars, roles = services.settings.run.max_question_chars, services.tools.roles
        request, reply = _ask_person(state, max_chars, roles)
    except GraphInterrupt:
        if not await aresolve_requested():
            raise
        request, reply = build_interrupt(state, services.tools.roles), _RESOLVED
    score, kind = request.confidence, reply.type
    learned = await arecord_outcome(
        services.settings, runtime, score, kind, thread_user=state.user_id
    )
    return _update(state, request, reply, learned)


def _update(
    state: InterveneInput,
    request: GraceInterrupt,
    reply: HumanResponse,
    learned: Thresholds | None = None,
) -> dict[str, Any]:
    """The node's update for the person's ``reply`` to ``request``.

    ``learned``: the user's thresholds after the reply taught the learner (None when nothing
    was recorded): the turn's later decisions take them (``State.thresholds``).
    """
    record = InterventionRecord(
        step_ids=list(state.last_batch),
        level=request.level,
        score=request.confidence,
        response_type=reply.type,
        args={k: v for k, v in reply.edit_args().items() if k in _EDITABLE}
        if reply.type == "edit"
        else ({"text": reply.response_text()} if reply.type == "response" else {}),
    )
    update: dict[str, Any] = {"interventions": [record]}
    if learned is not None:
        update["thresholds"] = learned
    if reply.type == "accept":
        update["review"] = "continue"
    elif reply.type == "ignore":
        how = "Marked resolved by the client with no decision" if reply is _RESOLVED else "Finished"
        update["review"] = "finalize"
        update["notes"] = [
            f"{how}, without review, at {request.level.value.upper()} "
            f"(confidence {request.confidence:.2f}): this is the answer as it stood; "
            "treat it with care."
        ]
    elif reply.type == "edit":
        args = reply.edit_args()
        answer = args.get("answer", "").strip()
        if answer and args.get("answer") != request.action.args.get("answer"):
            update["edited_answer"] = answer
            update["review"] = "finalize"
        else:
            update["review"] = "replan"
            update["replan_request"] = ReplanRequest(
                trigger="human_edit", detail=args["query"].strip()
            )
    else:
        source = person_source(reply.response_text(), len(state.human_sources) + 1)
        update["human_sources"] = [*state.human_sources, source]
        update["review"] = "replan"
        update["replan_request"] = ReplanRequest(
            trigger="human_response", detail=reply.response_text()
        )
    return update
