"""``intervene``: pause for a person with an Agent-Inbox-compatible request, act on the reply.

The node calls ``interrupt()`` first and does its side effects only after the reply, because
LangGraph re-runs the node from its first line on resume.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import interrupt

from confidence import ActionDecision, ConfidenceScore, InterventionLevel
from grace.context import GraceContext
from grace.events import emit
from grace.hitl import (
    ActionRequest,
    HumanInterrupt,
    HumanInterruptConfig,
    HumanResponse,
    InvalidHumanResponseError,
    parse_human_response,
)
from grace.human_reply import person_source
from grace.schemas import InterventionRecord, StepResult
from grace.state import ReplanRequest, State
from nodes.common import answer_step, aservices_for, services_for

__all__ = ["aintervene", "build_interrupt", "intervene"]


def _describe(state: State, decision: ActionDecision, batch: list[StepResult], answer: str) -> str:
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
    if answer:
        lines += ["", "**Answer so far:**", "", f"> {answer}"]
    cited = dict.fromkeys(s.citation for r in batch for s in r.sources)
    if cited:
        lines += ["", f"**Sources:** {', '.join(cited)}"]
    asks = [r.output for r in batch if r.action == "ask_user"]
    if asks:
        lines += ["", f"**GRACE asks:** {asks[0]}"]
    lines += ["", f"**Suggested:** {decision.recommended_action}"]
    return "\n".join(lines)


def build_interrupt(state: State) -> HumanInterrupt:
    """The request shown to the person for the latest decision."""
    assert state.decision is not None and state.plan is not None
    decision = state.decision
    batch = [state.results[s] for s in state.last_batch if s in state.results]
    final = answer_step(state.plan)
    draft = state.results.get(final.step_id) if final else None
    answer = draft.output if draft is not None else ""
    escalate = decision.level == InterventionLevel.ESCALATE
    return HumanInterrupt(
        action_request=ActionRequest(
            action="review_answer" if draft is not None else "review_step",
            args={"query": state.query, "answer": answer},
        ),
        config=HumanInterruptConfig(
            allow_accept=not escalate, allow_edit=True, allow_respond=True, allow_ignore=True
        ),
        description=_describe(state, decision, batch, answer),
        level=decision.level,
        confidence=decision.score,
        step_id=batch[-1].step_id if batch else "",
    )


def _ask(request: HumanInterrupt) -> HumanResponse:
    """Interrupt until the reply is valid.

    A malformed reply is not raised out of the graph (LangGraph would keep replaying it):
    the same request is asked again with ``error`` set, so the thread stays resumable.
    Interrupts within one node are matched by order, so each retry is its own interrupt.
    """
    value = interrupt(request.model_dump(mode="json"))
    while True:
        try:
            return parse_human_response(value, request.config)
        except InvalidHumanResponseError as exc:
            retry = request.model_copy(
                update={
                    "error": str(exc),
                    "description": f"**Your last reply was rejected:** {exc}\n\n"
                    + request.description,
                }
            )
            value = interrupt(retry.model_dump(mode="json"))


def _record_learning(
    state: State, runtime: Runtime[GraceContext], reply: HumanResponse, score: float
) -> None:
    from nodes.learning import record_outcome

    record_outcome(services_for(runtime), runtime, score, reply.type, thread_user=state.user_id)


def _ask_person(state: State) -> tuple[HumanInterrupt, HumanResponse]:
    """Build the request, emit ``intervention_required`` and interrupt until a valid reply."""
    request = build_interrupt(state)
    emit(
        "intervention_required",
        level=request.level.value,
        confidence=request.confidence,
        step_id=request.step_id,
    )
    return request, _ask(request)


def intervene(state: State, runtime: Runtime[GraceContext]) -> dict[str, Any]:
    """Ask the person and turn the reply into the next move (continue, replan or finish)."""
    request, reply = _ask_person(state)
    _record_learning(state, runtime, reply, request.confidence)
    return _update(state, request, reply)


async def aintervene(state: State, runtime: Runtime[GraceContext]) -> dict[str, Any]:
    """Async :func:`intervene`: the learned thresholds are recorded with the store's async API."""
    from nodes.learning import arecord_outcome

    request, reply = _ask_person(state)
    await arecord_outcome(
        await aservices_for(runtime),
        runtime,
        request.confidence,
        reply.type,
        thread_user=state.user_id,
    )
    return _update(state, request, reply)


def _update(state: State, request: HumanInterrupt, reply: HumanResponse) -> dict[str, Any]:
    """The node's update for the person's ``reply`` to ``request``."""
    record = InterventionRecord(
        step_ids=list(state.last_batch),
        level=request.level,
        score=request.confidence,
        response_type=reply.type,
        args=reply.edit_args()
        if reply.type == "edit"
        else ({"text": reply.response_text()} if reply.type == "response" else {}),
    )
    update: dict[str, Any] = {"interventions": [record], "decision": None}
    if reply.type == "accept":
        update["review"] = "continue"
    elif reply.type == "ignore":
        update["review"] = "finalize"
        update["notes"] = [
            f"Finished without review at {request.level.value.upper()} "
            f"(confidence {request.confidence:.2f}): treat the answer with care."
        ]
    elif reply.type == "edit":
        args = reply.edit_args()
        if args.get("answer") and args.get("answer") != request.action_request.args.get("answer"):
            update["edited_answer"] = args["answer"]
            update["review"] = "finalize"
        else:
            update["review"] = "replan"
            update["replan_request"] = ReplanRequest(trigger="human_edit", detail=args["query"])
    else:
        source = person_source(reply.response_text(), len(state.human_sources) + 1)
        update["human_sources"] = [*state.human_sources, source]
        update["review"] = "replan"
        update["replan_request"] = ReplanRequest(
            trigger="human_response", detail=reply.response_text()
        )
    return update
