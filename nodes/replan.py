"""``replan``: a new plan after a failure, a low score or a person's edit / response.

Triggers (``ReplanRecord.trigger``) and the strategy each one gets:

============== ===============================================================================
step_failed    ``fallback`` when a failed step has a declared fallback it has not used (it
               failed on transient errors after every retry); else ``partial`` (fresh searches
               for the failed ones, completed steps kept); ``full`` when nothing completed.
low_confidence ESCALATE with automatic replans left (``run.low_confidence_replans``, within
               ``max_replans``). First ``partial``: keep the searches and broaden them — the
               question's keywords, its sub-questions, the collections not yet searched — then
               answer again. If that was done already (or there is nothing new to search),
               ``full``: a new plan for the reformulated (keyword) question.
human_edit     ``full``: a new plan for the person's question.
human_response ``partial``: keep the searches, answer again with the person's text as a source.
============== ===============================================================================

The choice and its reason are recorded in ``state.replans`` and on the ``replan`` event.
Completed steps keep their ids and results; new steps carry the round (``r1-s1``) so ids
stay unique and never collide with an earlier result; dependencies only point at kept or
new steps. Every replan adds a record to ``replans`` (``replan_count`` is their number), and
the routers only send a run here while ``replan_count < replan_budget``, so a run cannot loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from langgraph.runtime import Runtime

from confidence.model_log import ModelLog
from grace.context import GraceContext, context_of
from grace.notes.events import emit
from grace.patterns import lazy
from grace.planning.blocks import broadened_queries, keyword_query
from grace.planning.roles import ANSWER, ASK, SEARCH, Roles, is_answer, is_search
from grace.providers.base import PlanOutcome, PlanRequest
from grace.schemas import ExecutionPlan, PlanStep, ReplanRecord, StepStatus
from grace.services import Services, ServicesSource, aservices_for, services_for
from grace.state import State
from nodes.common import (
    answer_step,
    emit_plan_ready,
    is_done,
    plan_request,
    replans_of,
    resolve_plan,
    scope_of,
)

__all__ = [
    "Strategy",
    "Trigger",
    "areplan",
    "replan",
    "replan_trigger",
]

Trigger = Literal["step_failed", "low_confidence", "human_edit", "human_response"]
"""What asked for a new plan."""
Strategy = Literal["partial", "full", "fallback"]
"""How the new plan is made."""

_ROUND = lazy(r"^r\d+-")


def replan_trigger(state: State) -> Trigger:
    """The trigger of the pending replan: the request's, else low confidence."""
    request = state.replan_request
    return request.trigger if request is not None else "low_confidence"


def _new_id(step_id: str, prefix: str, taken: set[str]) -> str:
    base = f"{prefix}{_ROUND.sub('', step_id)}"
    new, n = base, 1
    while new in taken:
        n += 1
        new = f"{base}-{n}"
    taken.add(new)
    return new


def _prefixed(plan: ExecutionPlan, prefix: str, taken: set[str]) -> list[PlanStep]:
    """The plan's steps with round-prefixed ids (dependencies renamed with them)."""
    mapping = {s.step_id: _new_id(s.step_id, prefix, taken) for s in plan.steps}
    return [
        s.model_copy(
            update={"step_id": mapping[s.step_id], "depends_on": [mapping[d] for d in s.depends_on]}
        )
        for s in plan.steps
    ]


def _answer(prefix: str, query: str, depends_on: list[str], taken: set[str]) -> PlanStep:
    return PlanStep(
        step_id=_new_id("answer", prefix, taken),
        action=ANSWER,
        query=query,
        description="Answer again from the kept and new passages, citing them",
        depends_on=depends_on,
        fallback=ASK,
    )


def _searched(steps: Iterable[PlanStep], default: str, roles: Roles) -> set[tuple[str, str]]:
    return {
        (s.query.strip().casefold(), s.collection or default)
        for s in steps
        if is_search(s.action, roles)
    }


def _broadened_searches(r: _Round, limit: int) -> tuple[list[PlanStep], list[str]]:
    """New searches for the same question.

    Keyword and sub-question phrasings in the collections already searched, and the
    question's keywords in the collections not searched yet (of ``r.collections``: the
    thread's collection alone when the person named one, so broadening stays inside it).
    """
    query, default = r.query, r.default_collection()
    done = _searched(r.old.steps, default, r.roles)
    searched_collections = sorted({c for _, c in done}) or [default]
    if r.scope is not None:
        searched_collections = [r.scope]
    others = [c for c in r.collections if c not in searched_collections]
    wanted: list[tuple[str, str]] = [
        (q, c) for q in broadened_queries(query) for c in searched_collections
    ]
    wanted += [(keyword_query(query), c) for c in others]
    steps: list[PlanStep] = []
    how: list[str] = []
    for q, c in wanted:
        key = (q.strip().casefold(), c)
        if key in done or len(steps) >= limit:
            continue
        done.add(key)
        steps.append(
            PlanStep(
                step_id=_new_id(f"s{len(steps) + 1}", r.prefix, r.taken),
                action=SEARCH,
                description=f"Broadened search in '{c}' for: {q}",
                query=q,
                collection=c,
                expected_output="Passages that contain the answer",
            )
        )
        how.append(f"'{q}' in {c}")
    return steps, how


def _plan_for(query: str, steps: list[PlanStep], old: ExecutionPlan) -> ExecutionPlan:
    return ExecutionPlan(
        original_query=query, complexity=old.complexity, steps=steps, origin="replan"
    )


@dataclass
class _Round:
    """What every trigger's strategy reads: the old plan, its results and the new round."""

    state: State
    """The run's state at the replan."""
    runtime: Runtime[GraceContext]
    """The run's runtime (context: collection)."""
    services: Services
    """The run's services."""
    old: ExecutionPlan
    """The plan being replaced."""
    detail: str
    """The replan request's detail (failed step ids, the person's text)."""
    prefix: str
    """Id prefix of the new round's steps (``r1-``)."""
    taken: set[str]
    """Step ids in use (grows as new ids are made)."""
    searches_done: list[PlanStep]
    """Completed searches of the old plan (never its answer step)."""
    failed: list[PlanStep]
    """Failed steps of the old plan."""
    collections: list[str]
    """The collections a replan may search: the store's, or the thread's alone (``scope``)."""
    scope: str | None = None
    """The collection the thread was asked about (:func:`~nodes.common.scope_of`), if any."""
    repairs: list[str] = field(default_factory=list)
    """Validation repairs of fresh plans (and the planner's errors)."""

    @property
    def roles(self) -> Roles:
        """The run's tool registry's roles."""
        return self.services.tools.roles

    @property
    def query(self) -> str:
        """The question the old plan answers."""
        return self.old.original_query

    def request(self, query: str, reason: str) -> PlanRequest:
        """The planner's request for a fresh plan for ``query`` (``reason``: its feedback)."""
        ctx = context_of(self.runtime)
        return plan_request(
            self.services, ctx, query, reason, collections=self.collections, scope=self.scope
        )

    def resolved(self, request: PlanRequest, outcome: PlanOutcome) -> ExecutionPlan:
        """The validated fresh plan; its repairs (or the planner's error) are recorded."""
        plan = resolve_plan(self.services, request, outcome)
        self.repairs.extend(plan.repairs)
        return plan

    def default_collection(self) -> str:
        """The collection of steps that name none (the thread's, when it has one)."""
        ctx = context_of(self.runtime)
        return self.scope or ctx.collection or self.services.settings.retrieval.collection


@dataclass
class _Choice:
    """A trigger's strategy: the new steps, the kept ones and why."""

    strategy: Strategy
    """How the new plan is made."""
    reason: str
    """Why (recorded and shown)."""
    steps: list[PlanStep]
    """New steps (before the answer step is added)."""
    kept: list[PlanStep]
    """Old steps kept with their results."""
    query: str
    """The question of the new plan."""
    add_answer: bool = True
    """Whether a new answer step over the kept and new searches is appended."""


@dataclass
class _Fresh:
    """A strategy that needs a fresh plan from the planner before it can choose."""

    query: str
    """The question to plan."""
    reason: str
    """The planner's feedback (why a new plan)."""
    choose: Callable[[ExecutionPlan], _Choice]
    """The choice, given the validated fresh plan."""


_Strategy = _Choice | _Fresh


def _reformulated(r: _Round, why: str) -> _Fresh:
    """``full``: a new plan for the keyword question; answer steps keep the original one."""
    reformulated = keyword_query(r.query)
    reason = f"{why} a new plan for the reformulated question '{reformulated}'"

    def choose(fresh: ExecutionPlan) -> _Choice:
        steps = [
            s.model_copy(update={"query": r.query}) if is_answer(s.action, r.roles) else s
            for s in _prefixed(fresh, r.prefix, r.taken)
        ]
        return _Choice("full", reason, steps, [], r.query, add_answer=False)

    return _Fresh(reformulated, reason, choose)


def _on_human_edit(r: _Round) -> _Strategy:
    query = r.detail or r.query
    reason = "the person rewrote the question: a new plan for it"

    def choose(fresh: ExecutionPlan) -> _Choice:
        steps = _prefixed(fresh, r.prefix, r.taken)
        return _Choice("full", reason, steps, [], query, add_answer=False)

    return _Fresh(query, reason, choose)


def _on_human_response(r: _Round) -> _Strategy:
    reason = "the person added information: answer again with it, keeping the searches"
    return _Choice("partial", reason, [], r.searches_done, r.query)


def _switchable(r: _Round) -> list[PlanStep]:
    """Failed steps with a declared fallback they have not used yet."""
    results = r.state.results
    return [s for s in r.failed if s.fallback and not results[s.step_id].used_fallback]


def _on_fallback(r: _Round) -> _Choice:
    results = r.state.results
    switched = _switchable(r)
    reason = "failed steps switch to their declared fallback actions: " + ", ".join(
        f"{s.step_id} {s.action} → {s.fallback}" for s in switched
    )
    kept = [s for s in r.old.steps if is_done(results.get(s.step_id))]
    switched_ids = {s.step_id for s in switched}
    dropped = {s.step_id for s in r.failed} - switched_ids  # failed, nothing to switch to
    renewed = [
        s for s in r.old.steps if not is_done(results.get(s.step_id)) and s.step_id not in dropped
    ]
    mapping = {s.step_id: _new_id(s.step_id, r.prefix, r.taken) for s in renewed}
    steps = [
        s.model_copy(
            update={
                "step_id": mapping[s.step_id],
                "depends_on": [mapping.get(d, d) for d in s.depends_on],
                **({"action": s.fallback, "fallback": None} if s.step_id in switched_ids else {}),
            }
        )
        for s in renewed
    ]
    return _Choice("fallback", reason, steps, kept, r.query, add_answer=False)


def _on_step_failed(r: _Round) -> _Strategy:
    if _switchable(r):
        return _on_fallback(r)
    what = r.detail or "of the plan"
    if not r.searches_done:
        return _reformulated(r, f"steps {what} failed and nothing completed:")
    kept = r.searches_done
    reason = f"steps {what} failed: new searches for them, keeping "
    reason += f"the completed ones ({', '.join(s.step_id for s in kept)})"

    def choose(fresh: ExecutionPlan) -> _Choice:
        default = r.default_collection()
        done = _searched(kept, default, r.roles)
        steps = [
            s
            for s in _prefixed(fresh, r.prefix, r.taken)
            if is_search(s.action, r.roles)
            and (s.query.strip().casefold(), s.collection or default) not in done
        ]
        return _Choice("partial", reason, steps, kept, r.query)

    return _Fresh(r.query, reason, choose)


def _on_low_confidence(r: _Round) -> _Strategy:
    state = r.state
    score = state.decision.score if state.decision is not None else 0.0
    why = f"low confidence ({score:.2f}, ESCALATE)"
    broadened: list[PlanStep] = []
    how: list[str] = []
    if replans_of(state, "low_confidence", "partial") == 0:
        max_new = max(r.services.settings.run.max_steps - len(r.searches_done) - 1, 1)
        broadened, how = _broadened_searches(r, max_new)
    if not broadened:
        return _reformulated(r, f"{why} after broadening:")
    reason = f"{why}: broaden the search before asking you — {'; '.join(how)} — "
    reason += "keeping the completed searches"
    if r.scope is not None:
        reason += f" (only in '{r.scope}', the collection you named)"
    return _Choice("partial", reason, broadened, r.searches_done, r.query)


_STRATEGIES: dict[Trigger, Callable[[_Round], _Strategy]] = {
    "human_edit": _on_human_edit,
    "human_response": _on_human_response,
    "step_failed": _on_step_failed,
    "low_confidence": _on_low_confidence,
}
"""The strategy of each trigger (the table in the module docstring)."""


def _round_of(
    state: State, runtime: Runtime[GraceContext], services: Services, collections: list[str]
) -> _Round:
    old = state.plan
    scope = scope_of(state, runtime)
    assert old is not None, "replan needs a plan"
    roles = services.tools.roles
    final = answer_step(old, roles)
    results = state.results
    return _Round(
        state=state,
        runtime=runtime,
        services=services,
        collections=[scope] if scope is not None else collections,
        scope=scope,
        old=old,
        detail=state.replan_request.detail if state.replan_request is not None else "",
        prefix=f"r{state.replan_count + 1}-",
        taken=set(results) | {s.step_id for s in old.steps},
        searches_done=[
            s
            for s in old.steps
            if is_done(results.get(s.step_id))
            and is_search(s.action, roles)
            and (final is None or s.step_id != final.step_id)
        ],
        failed=[
            s
            for s in old.steps
            if (res := results.get(s.step_id)) is not None and res.status == StepStatus.FAILED
        ],
    )


def _new_plan(r: _Round, choice: _Choice) -> ExecutionPlan:
    """The chosen steps (and a new answer step) as the next plan, dependencies checked."""
    steps, kept = list(choice.steps), choice.kept
    if choice.add_answer and choice.strategy != "full":
        searches = [s.step_id for s in [*kept, *steps] if is_search(s.action, r.roles)]
        steps.append(_answer(r.prefix, choice.query, searches, r.taken))
    # Dependencies on ids that are neither kept nor new point at dropped steps: remove them.
    valid = {s.step_id for s in kept} | {s.step_id for s in steps}
    steps = [
        s.model_copy(update={"depends_on": [d for d in s.depends_on if d in valid]}) for s in steps
    ]
    plan = _plan_for(choice.query, [*kept, *steps], r.old)
    plan.repairs = r.repairs
    return plan


def _update(state: State, r: _Round, trigger: Trigger, choice: _Choice) -> dict[str, Any]:
    """Build the next plan from ``choice``; say which strategy and why."""
    plan = _new_plan(r, choice)
    kept_ids = [s.step_id for s in choice.kept]
    new_ids = [s.step_id for s in plan.steps[len(kept_ids) :]]
    record = ReplanRecord(
        trigger=trigger,
        strategy=choice.strategy,
        reason=choice.reason,
        kept_steps=kept_ids,
        new_steps=new_ids,
    )
    round_no = state.replan_count + 1
    emit(
        "replan",
        trigger=trigger,
        strategy=choice.strategy,
        reason=choice.reason,
        round=round_no,
        budget=state.replan_budget,
        kept_steps=record.kept_steps,
        new_steps=record.new_steps,
    )
    emit_plan_ready(plan)
    return {
        "plan": plan,
        "query": choice.query,
        "replans": [record],
        "review": None,
    }


def replan(
    state: State, runtime: Runtime[GraceContext], services: ServicesSource, log: ModelLog
) -> dict[str, Any]:
    """Build the next plan, say which strategy and why (the store listed, the planner asked)."""
    services = services_for(runtime, services)
    trigger = replan_trigger(state)
    listed = [] if scope_of(state, runtime) else services.store.list_collections()
    r = _round_of(state, runtime, services, listed)
    choice = _STRATEGIES[trigger](r)
    if isinstance(choice, _Fresh):
        request = r.request(choice.query, choice.reason)
        choice = choice.choose(r.resolved(request, services.planner.plan(request, log=log)))
    return _update(state, r, trigger, choice)


async def areplan(
    state: State, runtime: Runtime[GraceContext], services: ServicesSource, log: ModelLog
) -> dict[str, Any]:
    """Async :func:`replan` (``planner.aplan``; the store listed off the event loop)."""
    services = await aservices_for(runtime, services)
    trigger = replan_trigger(state)
    listed = (
        [] if scope_of(state, runtime) else await asyncio.to_thread(services.store.list_collections)
    )
    r = _round_of(state, runtime, services, listed)
    choice = _STRATEGIES[trigger](r)
    if isinstance(choice, _Fresh):
        request = r.request(choice.query, choice.reason)
        outcome = await services.planner.aplan(request, log=log)
        choice = choice.choose(r.resolved(request, outcome))
    return _update(state, r, trigger, choice)
