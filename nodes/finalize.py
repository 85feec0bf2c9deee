"""``finalize``: the answer, its sources and the overall confidence.

It reports the decision ``confidence`` took after the last step (``State.run_decision``)
and decides nothing again; a run a person finished at a pause before its last step is
decided here, by the same function (:func:`nodes.common.decide_run`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Overwrite

from confidence.model_log import ModelLog
from grace.context import GraceContext
from grace.hitl.chat import answer_message
from grace.hitl.reply import answered_from_person, person_decision, person_source
from grace.notes.events import emit
from grace.notes.models import no_answer_text
from grace.notes.runs import notes_for_final
from grace.planning.roles import Roles, is_answer
from grace.schemas import Source, StepResult, StepStatus
from grace.services import Services, ServicesSource, aservices_for, services_for
from grace.state import State
from grace.text import cited_keys
from nodes.common import answer_step, decide_run, is_done

__all__ = ["afinalize", "finalize"]

NO_ANSWER = "GRACE could not produce an answer from the documents."


def _best_answer(state: State, roles: Roles) -> StepResult | None:
    """The plan's answer step if it completed, else the best completed reasoning result."""
    if state.plan is not None and (final := answer_step(state.plan, roles)) is not None:
        result = state.results.get(final.step_id)
        if is_done(result) and result is not None and is_answer(result.action, roles):
            return result
    candidates = [r for r in state.results.values() if is_answer(r.action, roles) and is_done(r)]
    return max(candidates, key=lambda r: r.confidence or 0.0, default=None)


def finalize(
    state: State, runtime: Runtime[GraceContext], services: ServicesSource, log: ModelLog
) -> dict[str, Any]:
    """Assemble the run's output on the decision ``confidence`` took (``run_decision``).

    No model is called and nothing is decided again here: ``log`` (the step's model log,
    every node's fourth argument) stays empty.
    """
    return _output(state, services_for(runtime, services))


async def afinalize(
    state: State, runtime: Runtime[GraceContext], services: ServicesSource, log: ModelLog
) -> dict[str, Any]:
    """Async :func:`finalize` (services made ready off the event loop)."""
    return _output(state, await aservices_for(runtime, services))


def _persons_answer(state: State, drafted: Sequence[Source]) -> dict[str, Any]:
    """The answer the person wrote in an ``edit`` reply: final, cited to them, at NOTIFY.

    GRACE cannot check a person's own answer against the documents; it reports it as
    theirs (confidence 1.0 by their authority, level NOTIFY so it is never silent). The
    passages of the draft (``drafted``) that the edited answer still cites (``[S1]``) stay
    among its sources, after the person's own.
    """
    assert state.edited_answer is not None
    source = person_source(
        state.edited_answer, len(state.human_sources) + 1, title="Your edited answer"
    )
    cited = cited_keys(state.edited_answer)
    sources = [source, *(s for s in drafted if s.source_id in cited)]
    decision = person_decision(1.0, [source])
    emit("final", confidence=1.0, level=decision.level.value)
    notes = notes_for_final(state.notes, None)  # not the gate's verdicts on GRACE's drafts
    return {
        "answer": state.edited_answer,
        "sources": sources,
        "confidence": 1.0,
        "level": decision.level,
        "decision": decision,
        "notes": Overwrite(
            [*notes, "The answer was written by a person at an intervention (edit): it is final."]
        ),
        "messages": [answer_message(state.edited_answer, sources, [])],
    }


def _output(state: State, services: Services) -> dict[str, Any]:
    """The run's output: the person's edited answer, else the best answer on the run's decision.

    Only what ``finalize`` alone knows changes it: an edited answer, an answer from the
    person's reply (theirs, not the documents'), a spent replan budget (a note).
    """
    notes: list[str] = []
    best = _best_answer(state, services.tools.roles)
    if state.edited_answer:
        return _persons_answer(state, best.sources if best is not None else [])
    if best is not None:
        answer, sources = best.output, best.sources
    else:
        answer, sources = no_answer_text(state.notes, NO_ANSWER), []
    failed = [r.step_id for r in state.results.values() if r.status == StepStatus.FAILED]
    if state.replan_count >= state.replan_budget and (failed or state.review == "replan"):
        notes.append(
            f"Replan budget of {state.replan_budget} used up: this is the best partial answer."
        )
    overall, decision = state.confidence, state.run_decision
    if overall is None or decision is None or (best is not None and best.confidence is None):
        # a person finished the run at a pause before its last step: decided here, once
        assert state.plan is not None, "finalize runs after plan"
        thresholds = state.thresholds or services.settings.confidence.thresholds
        overall, decision = decide_run(
            services, state.plan, state.scores, state.results, thresholds, best
        )
    if answered_from_person(sources):
        decision = person_decision(overall, sources)
        cited = ", ".join(s.source_id for s in sources)
        notes.append(f"Answered from your reply [{cited}]: it is yours, not the documents'.")
    emit("final", confidence=overall, level=decision.level.value)
    # the gate's notes on drafts that are not the final answer are left out
    notes = notes_for_final([*state.notes, *notes], best.step_id if best is not None else None)
    return {
        "answer": answer,
        "sources": sources,
        "confidence": overall,
        "level": decision.level,
        "decision": decision,
        "notes": Overwrite(notes),
        "messages": [answer_message(answer, sources, notes)],
    }
