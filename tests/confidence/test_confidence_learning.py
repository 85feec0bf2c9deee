"""Learned per-user thresholds: adaptive conformal update, bounded, persisted."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langgraph.store.memory import InMemoryStore

from confidence import (
    ConfidenceCalculator,
    ConfidenceConfig,
    InterventionLevel,
    ThresholdLearner,
    Thresholds,
)

BASE = Thresholds()  # 0.9 / 0.7 / 0.4


def learner(store: InMemoryStore | None = None, **kw: float) -> ThresholdLearner:
    return ThresholdLearner(store or InMemoryStore(), BASE, **kw)  # type: ignore[arg-type]


def ordered(th: Thresholds) -> bool:
    return 1.0 >= th.silent >= th.notify >= th.confirm >= 0.0


def test_unknown_user_gets_base() -> None:
    assert learner().thresholds_for("alice") == BASE


def test_accepts_around_06_lower_confirm() -> None:
    lrn = learner()
    th = BASE
    for i in range(30):
        prev = th
        th = lrn.record("alice", 0.55 + 0.01 * (i % 10), "accept")
        assert th.confirm <= prev.confirm
        assert prev.confirm - th.confirm <= lrn.step + 1e-12
    assert th.confirm == pytest.approx(0.4 - 30 * 0.02 * 0.1)
    assert th.notify == pytest.approx(0.7 - 30 * 0.02 * 0.1)  # moves in parallel
    assert th.silent == 0.9
    state = lrn.state_for("alice")
    assert state.observations == 30 and state.errors == 0
    assert state.error_rate == 0.0


def test_corrections_of_confident_steps_raise_confirm() -> None:
    lrn = learner()
    th = BASE
    for i in range(5):
        prev = th
        th = lrn.record("bob", 0.6, "edit" if i % 2 else "response")
        assert th.confirm > prev.confirm
        assert th.confirm - prev.confirm <= lrn.step + 1e-12
    assert th.confirm == pytest.approx(0.4 + 5 * 0.02 * 0.9)
    assert lrn.state_for("bob").errors == 5


def test_shift_is_bounded_by_max_shift() -> None:
    lrn = learner()
    for _ in range(200):
        up = lrn.record("carol", 0.95, "edit")
    assert up.confirm == pytest.approx(0.4 + 0.15)
    assert up.notify == pytest.approx(0.7 + 0.15)
    assert ordered(up)
    for _ in range(2000):
        down = lrn.record("carol", 0.6, "accept")
    assert down.confirm == pytest.approx(0.4 - 0.15)
    assert down.notify == pytest.approx(0.7 - 0.15)


def test_correction_of_escalated_step_is_not_an_unescalated_error() -> None:
    lrn = learner()
    th = lrn.record("dan", 0.2, "response")  # score < confirm: it was escalated already
    assert th.confirm == pytest.approx(0.4 - 0.02 * 0.1)
    state = lrn.state_for("dan")
    assert state.errors == 0 and state.corrections == 1


def test_ignore_does_not_update() -> None:
    lrn = learner()
    assert lrn.record("erin", 0.6, "ignore") == BASE
    state = lrn.state_for("erin")
    assert state.observations == 0 and state.ignored == 1


def test_users_are_independent() -> None:
    lrn = learner()
    for _ in range(10):
        lrn.record("alice", 0.6, "edit")
    assert lrn.thresholds_for("bob") == BASE


def test_survives_a_new_learner_over_the_same_store() -> None:
    store = InMemoryStore()
    first = learner(store)
    for _ in range(20):
        learned = first.record("alice", 0.6, "accept")
    second = learner(store)
    assert second.thresholds_for("alice") == learned
    assert second.state_for("alice").observations == 20
    assert store.get(("grace", "thresholds", "alice"), ThresholdLearner.KEY) is not None


def test_learned_thresholds_change_decisions() -> None:
    lrn = learner()
    calc = ConfidenceCalculator(ConfidenceConfig(thresholds=BASE))
    assert calc.decide_action(0.69).level is InterventionLevel.CONFIRM
    for _ in range(60):
        lrn.record("alice", 0.65, "accept")
    th = lrn.thresholds_for("alice")
    assert calc.decide_action(0.69, th).level is InterventionLevel.NOTIFY


def test_namespace_escapes_periods() -> None:
    lrn = learner()
    assert lrn.namespace("a.b@example.com") == ("grace", "thresholds", "a%2Eb@example%2Ecom")
    lrn.record("a.b@example.com", 0.6, "accept")
    assert lrn.state_for("a.b@example.com").observations == 1
    with pytest.raises(ValueError):
        lrn.namespace("")


def test_custom_namespace_prefix_and_parameters() -> None:
    store = InMemoryStore()
    lrn = ThresholdLearner(
        store, BASE, target_error=0.2, step=0.05, max_shift=0.1, namespace_prefix=("x",)
    )
    th = lrn.record("u", 0.5, "accept")
    assert th.confirm == pytest.approx(0.4 - 0.05 * 0.2)
    assert store.get(("x", "u"), ThresholdLearner.KEY) is not None


def test_invalid_inputs() -> None:
    lrn = learner()
    with pytest.raises(ValueError):
        lrn.record("a", 1.5, "accept")
    with pytest.raises(ValueError):
        lrn.record("a", 0.5, "maybe")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ThresholdLearner(InMemoryStore(), BASE, target_error=0.0)


def test_never_cross_with_tight_base() -> None:
    tight = Thresholds(silent=0.5, notify=0.45, confirm=0.4)
    lrn = ThresholdLearner(InMemoryStore(), tight, max_shift=0.3, step=0.1)
    for _ in range(50):
        th = lrn.record("u", 0.9, "edit")
        assert ordered(th) and th.notify <= 0.5
    for _ in range(500):
        th = lrn.record("u", 0.1, "accept")
        assert ordered(th)


async def test_async_api() -> None:
    store = InMemoryStore()
    lrn = learner(store)
    for _ in range(3):
        th = await lrn.arecord("zoe", 0.6, "edit")
    assert th.confirm == pytest.approx(0.4 + 3 * 0.018)
    assert await lrn.athresholds_for("zoe") == th
    assert learner(store).thresholds_for("zoe") == th
    assert (await lrn.astate_for("zoe")).errors == 3


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(min_value=0, max_value=1, allow_nan=False),
            st.sampled_from(["accept", "edit", "response", "ignore"]),
        ),
        max_size=60,
    )
)
def test_bounds_hold_for_any_sequence(answers: list[tuple[float, str]]) -> None:
    lrn = learner()
    prev = BASE
    for score, outcome in answers:
        th = lrn.record("p", score, outcome)  # type: ignore[arg-type]
        assert ordered(th)
        assert abs(th.confirm - prev.confirm) <= lrn.step + 1e-9
        assert abs(th.notify - prev.notify) <= lrn.step + 1e-9
        assert abs(th.confirm - BASE.confirm) <= lrn.max_shift + 1e-9
        assert abs(th.notify - BASE.notify) <= lrn.max_shift + 1e-9
        assert th.silent == BASE.silent
        prev = th
