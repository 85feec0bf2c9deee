"""Learned per-user thresholds end to end: intervention replies → store → decisions.

The Gemini path is driven by a scripted model whose judge always says 0, so every run of
the simple question ends with an overall confidence of about 0.64 — inside the default
CONFIRM band [0.4, 0.7) — and pauses for the person (the quality gate is switched off here
so that only the learner moves the decision).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore
from langgraph.types import Command

from checkpoints import open_store
from confidence import LearnedThresholdState, Thresholds, seed_config
from grace.context import GraceContext
from grace.scoring.user_thresholds import learner_for
from grace.services import Services, build_services
from grace.settings import GraceSettings
from grace.storage.serde import use_grace_serializer
from graph.app import GraceApp
from graph.builder import make_builder
from tests.fakes import ScriptedChatModel
from tests.graph.conftest import cfg

SIMPLE = "When did the horse tram line open in Lumen Bay?"
ANSWER = "The horse tram line opened on 2 August 1874 [S1]."
ZERO = {"self_evaluation": 0.0, "query_coverage": 0.0, "rationale": "unsure"}
BASE = Thresholds(silent=0.9, notify=0.7, confirm=0.4)
FAST = {"step": 0.05, "target_error": 0.2}  # an accept: −0.01, an un-escalated error: +0.04


@pytest.fixture
def make_services(offline_services: Any) -> Iterator[Any]:
    def _make(data_dir: Path | None = None, **learning: Any) -> Services:
        settings = GraceSettings(
            data_dir=data_dir or offline_services.settings.data_dir,
            provider="offline",
            quality_gate={"enabled": False},
            learning=learning,
            # The original weighted mean: a zero verdict leaves the score near 0.6.
            confidence=seed_config(),
        )
        model = ScriptedChatModel.of(answers=[ANSWER] * 200, verdicts=[ZERO] * 200)
        return build_services(settings, chat_model=model, store=offline_services.store)

    yield _make


class Runner:
    """One compiled graph over a store; asks the simple question and replies."""

    def __init__(self, services: Services, store: BaseStore | None) -> None:
        self.services = services
        self.store = store
        self.app = make_builder(services=services).compile(
            checkpointer=use_grace_serializer(InMemorySaver()), store=store
        )
        self.n = 0

    def ask(
        self, user: str, reply: dict[str, Any] | None = None, *, resume_context: bool = True
    ) -> tuple[float | None, list[dict[str, Any]]]:
        """Run once; answer the first pause with ``reply`` and any later one with ignore.

        Returns the score of the first pause (None when the run did not pause) and the
        custom events.
        """
        self.n += 1
        thread = cfg(f"{user}-{self.n}")
        ctx = GraceContext(user_id=user)
        events: list[dict[str, Any]] = []
        for chunk in self.app.stream({"query": SIMPLE}, thread, context=ctx, stream_mode="custom"):
            events.append(chunk)
        snapshot = self.app.get_state(thread)
        first = snapshot.interrupts[0].value["confidence"] if snapshot.interrupts else None
        answer = reply or {"type": "accept"}
        while self.app.get_state(thread).interrupts:
            context = ctx if resume_context else None
            self.app.invoke(Command(resume=answer), thread, context=context)
            answer = {"type": "ignore"}
        return first, events

    def thresholds(self, user: str) -> Thresholds:
        assert self.store is not None
        return learner_for(self.services.settings, self.store).thresholds_for(user)

    def state(self, user: str) -> LearnedThresholdState:
        assert self.store is not None
        return learner_for(self.services.settings, self.store).state_for(user)


def ordered(t: Thresholds) -> bool:
    return 0.0 <= t.confirm <= t.notify <= t.silent <= 1.0


# --- accepts lower, corrections raise, within the bounds ------------------------------


def test_accepts_around_0_6_lower_the_confirm_threshold(make_services: Any) -> None:
    runner = Runner(make_services(), InMemoryStore())  # default α = 0.1, γ = 0.02
    for _ in range(5):
        score, _ = runner.ask("ana")
        assert score is not None and 0.55 <= score < 0.7  # paused at CONFIRM, around 0.6
    learned = runner.thresholds("ana")
    assert learned.confirm == pytest.approx(0.4 - 5 * 0.02 * 0.1)  # 0.39: γα per accept
    assert learned.notify == pytest.approx(0.7 - 5 * 0.02 * 0.1)
    assert learned.silent == BASE.silent
    state = runner.state("ana")
    assert (state.observations, state.errors, state.last_outcome) == (5, 0, "accept")
    assert runner.thresholds("bob") == BASE  # per user


def test_accepts_stop_at_the_bound(make_services: Any) -> None:
    runner = Runner(make_services(max_shift=0.03, **FAST), InMemoryStore())
    seen = []
    for _ in range(8):
        score, _ = runner.ask("ana")
        assert score is not None  # notify never falls below 0.67 > score: always pauses
        seen.append(runner.thresholds("ana"))
    assert [round(t.confirm, 4) for t in seen[:3]] == [0.39, 0.38, 0.37]
    assert all(t.confirm == pytest.approx(0.37) for t in seen[3:])  # never below 0.4 − 0.03
    assert all(ordered(t) for t in seen)


@pytest.mark.parametrize(
    "reply",
    [
        {"type": "edit", "args": {"args": {"answer": "It opened in 1874."}}},
        {"type": "response", "args": "The line opened on 2 August 1874."},
    ],
    ids=["edit", "response"],
)
def test_corrections_raise_the_confirm_threshold_within_the_bound(
    make_services: Any, reply: dict[str, Any]
) -> None:
    runner = Runner(make_services(max_shift=0.1, **FAST), InMemoryStore())
    seen = []
    for _ in range(4):
        score, _ = runner.ask("ana", reply)
        assert score is not None and score >= runner.thresholds("ana").confirm
        seen.append(runner.thresholds("ana"))
    # +γ(1 − α) = +0.04 per un-escalated error, clamped at base + max_shift.
    assert [round(t.confirm, 4) for t in seen] == [0.44, 0.48, 0.5, 0.5]
    assert [round(t.notify, 4) for t in seen] == [0.74, 0.78, 0.8, 0.8]
    assert all(ordered(t) for t in seen)
    state = runner.state("ana")
    assert state.errors == state.corrections == 4


def test_thresholds_never_cross_even_with_a_wide_bound(make_services: Any) -> None:
    """With max_shift 0.5 the learner's own rule stops it: once confirm passes the score,
    a correction is of an *escalated* step (err = 0) and λ comes back down."""
    edit = {"type": "edit", "args": {"args": {"answer": "It opened in 1874."}}}
    runner = Runner(make_services(max_shift=0.5, **FAST), InMemoryStore())
    scores, seen = [], []
    for _ in range(12):
        score, _ = runner.ask("ana", edit)
        assert score is not None
        scores.append(score)
        seen.append(runner.thresholds("ana"))
    assert all(ordered(t) for t in seen)
    assert all(t.notify <= BASE.silent for t in seen)
    assert max(t.confirm for t in seen) < max(scores) + FAST["step"]  # hovers at the score
    assert seen[-1].confirm > BASE.confirm


def test_ignore_does_not_move_the_thresholds(make_services: Any) -> None:
    runner = Runner(make_services(**FAST), InMemoryStore())
    runner.ask("ana", {"type": "ignore"})
    assert runner.thresholds("ana") == BASE
    state = runner.state("ana")
    assert (state.observations, state.ignored) == (0, 1)


# --- the learned thresholds drive the decisions -----------------------------------------


def test_after_enough_accepts_the_run_notifies_instead_of_pausing(make_services: Any) -> None:
    runner = Runner(make_services(**FAST), InMemoryStore())
    pauses = 0
    for _ in range(12):
        score, events = runner.ask("ana")
        if score is None:
            break
        pauses += 1
    assert 1 < pauses < 12  # it paused at first, then learned not to
    notices = [e for e in events if e["event"] == "notice"]
    assert notices and notices[0]["level"] == "notify"  # NOTIFY on the custom stream
    assert not [e for e in events if e["event"] == "intervention_required"]
    assert runner.thresholds("ana").notify <= notices[0]["confidence"]
    bob, _ = runner.ask("bob")
    assert bob is not None  # another user still pauses


def _teach(runner: Runner) -> None:
    """Accept until ana's runs stop pausing."""
    for _ in range(12):
        score, _ = runner.ask("ana")
        if score is None:
            return
    raise AssertionError("the runs never stopped pausing")


def test_learned_thresholds_survive_a_new_graph_over_the_same_memory_store(
    make_services: Any,
) -> None:
    store = InMemoryStore()
    services = make_services(**FAST)
    _teach(Runner(services, store))
    fresh = Runner(services, store)  # a new compiled graph, new checkpointer, same store
    score, events = fresh.ask("ana")
    assert score is None and any(e["event"] == "notice" for e in events)
    assert fresh.ask("bob")[0] is not None


def test_learned_thresholds_survive_reopening_a_sqlite_store(
    make_services: Any, tmp_path: Path
) -> None:
    services = make_services(**FAST)
    path = tmp_path / "store.sqlite"
    with open_store("sqlite", sqlite_path=path) as store:
        runner = Runner(services, store)
        _teach(runner)
        learned = runner.thresholds("ana")
    assert learned.confirm < BASE.confirm
    with open_store("sqlite", sqlite_path=path) as reopened:
        fresh = Runner(services, reopened)
        assert fresh.thresholds("ana") == learned
        score, events = fresh.ask("ana")
        assert score is None and any(e["event"] == "notice" for e in events)
        assert fresh.ask("bob")[0] is not None


# --- who learns, and when nothing is learned --------------------------------------------


def test_a_resume_without_a_user_learns_for_the_threads_user(make_services: Any) -> None:
    runner = Runner(make_services(**FAST), InMemoryStore())
    runner.ask("ana", resume_context=False)
    assert runner.thresholds("ana").confirm == pytest.approx(0.39)
    assert runner.thresholds(runner.services.settings.user_id) == BASE


def test_no_store_or_learning_disabled_keeps_the_configured_thresholds(
    make_services: Any,
) -> None:
    no_store = Runner(make_services(**FAST), None)
    for _ in range(3):
        assert no_store.ask("ana")[0] is not None  # nothing learned: always pauses
    store = InMemoryStore()
    disabled = Runner(make_services(enabled=False, **FAST), store)
    for _ in range(3):
        disabled.ask("ana")
    assert store.search(("grace", "thresholds")) == []


def test_grace_app_learns_across_app_instances(make_services: Any, tmp_path: Path) -> None:
    settings = GraceSettings(
        data_dir=tmp_path, provider="offline", learning=FAST, quality_gate={"enabled": False}
    )
    services = make_services(tmp_path, **FAST)
    ana = GraceContext(user_id="ana")
    with GraceApp.open(settings, services=services) as app:
        outcome = app.ask(SIMPLE, context=ana)
        assert outcome.status == "interrupted"
        app.resume(outcome.thread_id, {"type": "accept"})  # no context: the thread's user
        assert app.store is not None
        learned = learner_for(services.settings, app.store).thresholds_for("ana")
    assert learned.confirm == pytest.approx(0.39)
    with GraceApp.open(settings, services=services) as again:
        assert again.store is not None
        assert learner_for(services.settings, again.store).thresholds_for("ana") == learned
