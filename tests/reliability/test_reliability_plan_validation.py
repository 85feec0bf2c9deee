"""Plan validation and repair: each invalid-plan case, and that every repair is recorded."""

from __future__ import annotations

from grace.planning.validation import validate_plan
from grace.schemas import ExecutionPlan, PlanStep

ACTIONS = ["rag_search", "reasoning", "ask_user"]


def _validate(*steps: PlanStep, max_steps: int = 8) -> ExecutionPlan:
    plan = ExecutionPlan(original_query="When did the tram open?", steps=list(steps), origin="llm")
    return validate_plan(
        plan,
        actions=ACTIONS,
        collections=["grace", "manuals"],
        default_collection="grace",
        max_steps=max_steps,
    )


def search(step_id: str, *deps: str, **kw: object) -> PlanStep:
    return PlanStep(step_id=step_id, action="rag_search", query="tram", depends_on=list(deps), **kw)  # type: ignore[arg-type]


def answer(step_id: str, *deps: str, **kw: object) -> PlanStep:
    return PlanStep(step_id=step_id, action="reasoning", query="q", depends_on=list(deps), **kw)  # type: ignore[arg-type]


def _is_template(plan: ExecutionPlan) -> bool:
    return plan.origin == "template" and [s.action for s in plan.steps] == [
        "rag_search",
        "reasoning",
    ]


def test_a_valid_plan_is_kept_without_repairs() -> None:
    plan = _validate(search("s1"), answer("s2", "s1"))
    assert plan.origin == "llm" and plan.repairs == []


def test_empty_plan_becomes_the_template() -> None:
    plan = _validate()
    assert _is_template(plan) and plan.repairs == ["empty plan: replaced by the template plan"]


def test_unknown_action_becomes_the_template() -> None:
    plan = _validate(search("s1"), PlanStep(step_id="s2", action="send_email", query="x"))
    assert _is_template(plan)
    assert plan.repairs == ["unknown action 'send_email': replaced by the template plan"]
    assert all(s.action in ACTIONS for s in plan.steps)


def test_unknown_fallback_is_dropped() -> None:
    plan = _validate(search("s1", fallback="web_search"), answer("s2", "s1"))
    assert plan.steps[0].fallback is None
    assert plan.repairs == ["s1: unknown fallback 'web_search' dropped"]


def test_duplicate_ids_become_the_template() -> None:
    plan = _validate(search("s1"), search("s1"), answer("s2", "s1"))
    assert _is_template(plan) and "duplicate step ids ['s1']" in plan.repairs[0]


def test_dependency_on_a_missing_step_is_dropped() -> None:
    plan = _validate(search("s1"), answer("s2", "s1", "s9"))
    assert plan.steps[1].depends_on == ["s1"]
    assert plan.repairs == ["s2: dependencies on missing steps ['s9'] dropped"]


def test_self_dependency_is_dropped() -> None:
    plan = _validate(search("s1", "s1"), answer("s2", "s1"))
    assert plan.steps[0].depends_on == []
    assert "s1: dependencies on missing steps ['s1'] dropped" in plan.repairs


def test_dependency_on_a_later_step_is_reordered() -> None:
    plan = _validate(answer("s2", "s1"), search("s1"))
    assert [s.step_id for s in plan.steps] == ["s1", "s2"]
    assert plan.repairs == ["steps reordered so that dependencies come first"]


def test_cycle_becomes_the_template() -> None:
    plan = _validate(search("s1", "s2"), search("s2", "s1"), answer("s3", "s1", "s2"))
    assert _is_template(plan) and plan.repairs == [
        "dependency cycle: replaced by the template plan"
    ]


def test_unknown_collection_goes_to_the_default() -> None:
    plan = _validate(
        search("s1", collection="secret"),
        search("s2", collection="manuals"),
        answer("s3", "s1", "s2"),
    )
    assert [s.collection for s in plan.steps[:2]] == ["grace", "manuals"]
    assert plan.repairs == ["s1: unknown collection 'secret' → 'grace'"]


def test_too_many_steps_becomes_the_template() -> None:
    steps = [search(f"s{i}") for i in range(1, 5)] + [answer("s5", "s1", "s2", "s3", "s4")]
    plan = _validate(*steps, max_steps=3)
    assert _is_template(plan) and plan.repairs == ["5 steps > max 3: replaced by the template plan"]


def test_plan_ending_in_a_search_gets_an_answer_step() -> None:
    plan = _validate(search("s1"), search("s2"))
    assert [s.action for s in plan.steps] == ["rag_search", "rag_search", "reasoning"]
    assert plan.steps[-1].depends_on == ["s1", "s2"] and plan.steps[-1].fallback == "ask_user"
    assert plan.repairs == ["plan ended with a search: answer step s3 added"]


def test_several_repairs_are_all_recorded_and_the_input_is_not_mutated() -> None:
    original = ExecutionPlan(
        original_query="q",
        steps=[answer("s2", "s1", "zz", fallback="fax"), search("s1", collection="nope")],
    )
    plan = validate_plan(
        original, actions=ACTIONS, collections=["grace"], default_collection="grace", max_steps=8
    )
    assert plan.repairs == [
        "s2: unknown fallback 'fax' dropped",
        "s2: dependencies on missing steps ['zz'] dropped",
        "steps reordered so that dependencies come first",
        "s1: unknown collection 'nope' → 'grace'",
    ]
    assert original.repairs == [] and original.steps[0].depends_on == ["s1", "zz"]
