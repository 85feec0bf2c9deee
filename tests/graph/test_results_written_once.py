"""``confidence`` scores a step's result without writing it again (issue 40, item 2).

``execute`` writes a step's result — a search's passages with their text — once.
``confidence`` used to write each scored result whole again to set its ``confidence``: one
more pending write per step holding every passage. It now writes a
:class:`~grace.state.StepConfidence` and the ``results`` reducer sets the confidence on the
result already there, so the state — every checkpoint of the history, a pause, a resume — is
what whole results made it. A thread paused by the code before (whole results in its pending
writes) resumes. Sizes are counted in bytes, never timed.
"""

from __future__ import annotations

import importlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_type_hints

import pytest
from langgraph.types import Command

from checkpoints import open_checkpointer
from grace.schemas import Source, StepResult, StepStatus, TokenUsage
from grace.services import build_services
from grace.state import State, StepConfidence
from graph.builder import make_graph
from tests.fakes import ScriptedChatModel
from tests.graph.conftest import cfg, services_with_thresholds

confidence_node = importlib.import_module("nodes.confidence")

ANSWERABLE = "When did the horse tram line open in Lumen Bay?"
REPLY = {"decisions": [{"type": "approve"}]}
SCORED = 80
"""At most this many bytes in a pending write of one :class:`StepConfidence` with no usage."""
TIMING = {"execution_time_ms", "started_at", "finished_at"}
"""A step's wall-clock fields: the only ones two runs of one question may differ in."""

merge_results = get_type_hints(State, include_extras=True)["results"].__metadata__[0]
"""The reducer of ``State.results``."""


def _result(step_id: str = "s1", text: str = "The line opened in 1874.") -> StepResult:
    source = Source(source_id="S1", source="trams.md", text=text, score=0.9)
    return StepResult(step_id=step_id, status=StepStatus.SUCCESS, output="o", sources=[source])


def test_a_step_confidence_sets_the_confidence_and_keeps_the_rest() -> None:
    left = {"s1": _result(), "s2": _result("s2")}
    out = merge_results(left, {"s1": StepConfidence(confidence=0.8)})
    assert out == {"s1": _result().model_copy(update={"confidence": 0.8}), "s2": _result("s2")}
    assert left["s1"].confidence is None  # the value read before is not changed


def test_a_step_confidence_with_a_usage_sets_both() -> None:
    usage = TokenUsage(model_calls=2, input_tokens=30, output_tokens=5)
    out = merge_results(
        {"s1": _result()}, {"s1": StepConfidence(confidence=0.7, token_usage=usage)}
    )
    assert out["s1"] == _result().model_copy(update={"confidence": 0.7, "token_usage": usage})


def test_a_whole_result_still_replaces_the_one_there() -> None:
    new = _result(text="It opened on 2 August 1874.")
    assert merge_results({"s1": _result()}, {"s1": new}) == {"s1": new}


def test_a_confidence_for_a_step_without_a_result_is_refused() -> None:
    with pytest.raises(ValueError, match="'s9'"):
        merge_results({"s1": _result()}, {"s9": StepConfidence(confidence=0.5)})


@pytest.fixture
def saver(tmp_path: Path) -> Iterator[Any]:
    """GRACE's SQLite saver over a file of the test's own (each value once per version)."""
    with open_checkpointer("sqlite", sqlite_path=tmp_path / "cp.sqlite") as opened:
        yield opened


def _whole_results(state: State, scored: Any) -> dict[str, StepResult]:
    """What ``confidence`` wrote before: every scored result whole again."""
    return {s: scored.results[s] for s in scored.batch}


def _rows(saver: Any, sql: str, thread: str) -> list[Any]:
    conn: sqlite3.Connection = saver.conn
    return conn.execute(sql, (thread,)).fetchall()


def _results_writes(saver: Any, thread: str) -> list[tuple[str, bytes]]:
    """The thread's pending writes to ``results``: (task path, serialised value)."""
    sql = "SELECT task_path, value FROM writes WHERE thread_id = ? AND channel = 'results'"
    return [(path, bytes(value)) for path, value in _rows(saver, sql, thread)]


def _thread_bytes(saver: Any, thread: str) -> int:
    """Serialised bytes the thread holds: checkpoint rows, pending writes and value blobs."""
    sizes = (
        "SELECT coalesce(sum(length(checkpoint) + length(metadata)), 0) FROM checkpoints",
        "SELECT coalesce(sum(length(value)), 0) FROM writes",
        "SELECT coalesce(sum(length(blob)), 0) FROM checkpoint_blobs",
    )
    return sum(_rows(saver, f"{sql} WHERE thread_id = ?", thread)[0][0] for sql in sizes)


def test_a_passage_is_written_once_per_run(offline_services: Any, saver: Any) -> None:
    app = make_graph(services=offline_services, checkpointer=saver)
    out = app.invoke({"query": ANSWERABLE}, cfg("once"), durability="sync")
    assert out["answer"] and out["sources"]
    results = app.get_state(cfg("once")).values["results"]
    passages = {src.text for r in results.values() for src in r.sources}
    writes = _results_writes(saver, "once")
    assert passages and len(writes) == 4  # the search and the answer, each scored
    for text in passages:
        holding = [path for path, value in writes if text.encode() in value]
        steps = [r for r in results.values() if text in {src.text for src in r.sources}]
        # once per step that rests on it (the answer cites a search's passage), by execute
        assert len(holding) == len(steps), text
        assert not [path for path in holding if path.endswith("confidence")], text
    scored = [value for path, value in writes if path.endswith("confidence")]
    assert len(scored) == 2 and all(len(value) <= SCORED for value in scored)


def _new_and_old(services: Any, saver: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The graph after one run on thread ``new`` and one as before this change on ``old``."""
    app = make_graph(services=services, checkpointer=saver)
    app.invoke({"query": ANSWERABLE}, cfg("new"), durability="sync")
    monkeypatch.setattr(confidence_node, "_written_results", _whole_results)
    app.invoke({"query": ANSWERABLE}, cfg("old"), durability="sync")
    return app


def test_a_simple_run_under_sync_holds_a_bounded_number_of_bytes(
    offline_services: Any, saver: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _new_and_old(offline_services, saver, monkeypatch)
    lean, whole = _thread_bytes(saver, "new"), _thread_bytes(saver, "old")
    # every scored result written whole again: its passages once more (>= 3 KB here)
    assert whole - lean >= 3_000
    assert lean <= 30_000


def test_a_judged_answer_is_written_as_its_confidence_and_usage(
    offline_services: Any, saver: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a model the judge's call adds to the answer step's usage: that goes too, not the
    step's result (its cited passages) again."""
    verdict = {"self_evaluation": 0.95, "query_coverage": 0.9, "rationale": "supported"}
    model = ScriptedChatModel.of(
        answers=["The horse tram line opened on 2 August 1874 [S1]."] * 2, verdicts=[verdict] * 2
    )
    services = build_services(
        offline_services.settings, chat_model=model, store=offline_services.store
    )
    app = _new_and_old(services, saver, monkeypatch)
    scored = [v for p, v in _results_writes(saver, "new") if p.endswith("confidence")]
    assert len(scored) == 2 and all(b"StepConfidence" in v for v in scored)
    assert all(len(v) <= 3 * SCORED for v in scored)  # the answer's with its usage
    answer = app.get_state(cfg("new")).values["results"]["s2"]
    assert answer.token_usage.model_calls >= 2  # the answer's call and the judge's
    assert _history(app, "new") == _history(app, "old")


def _untimed(values: dict[str, Any]) -> dict[str, Any]:
    """``values`` with each step result's wall-clock fields cleared."""
    results = values.get("results") or {}
    cleared = {s: r.model_copy(update=dict.fromkeys(TIMING, 0.0)) for s, r in results.items()}
    return {**values, "results": cleared}


def _history(app: Any, thread: str) -> list[dict[str, Any]]:
    """Each checkpoint's values (oldest first), wall-clock fields cleared; ids left out."""
    snaps = list(app.get_state_history(cfg(thread)))[::-1]
    out = []
    for snap in snaps:
        values = _untimed(snap.values)
        plan = values.pop("plan", None)  # its id is new in every run
        values["steps"] = plan.steps if plan is not None else None
        values["messages"] = [(m.type, m.content) for m in values.get("messages", [])]
        out.append(values)
    return out


def test_the_history_is_what_whole_results_made_it(
    offline_services: Any, saver: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _new_and_old(offline_services, saver, monkeypatch)
    new, old = _history(app, "new"), _history(app, "old")
    assert len(new) == len(old) > 4
    assert new == old
    final = new[-1]
    assert all(r.confidence == final["scores"][s].score for s, r in final["results"].items())


def test_a_pause_saved_with_whole_results_resumes(
    offline_services: Any, saver: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A thread paused by the code before this change (whole results) goes on as a new one."""
    pausing = services_with_thresholds(offline_services, silent=1.0, notify=1.0, confirm=0.0)
    app = make_graph(services=pausing, checkpointer=saver)
    with monkeypatch.context() as patched:
        patched.setattr(confidence_node, "_written_results", _whole_results)
        paused = app.invoke({"query": ANSWERABLE}, cfg("old"), durability="sync")
    assert "__interrupt__" in paused
    assert all(
        "confidence" not in p or len(v) > 3 * SCORED for p, v in _results_writes(saver, "old")
    )
    paused_new = app.invoke({"query": ANSWERABLE}, cfg("new"), durability="sync")
    request = paused["__interrupt__"][0].value
    assert request == paused_new["__interrupt__"][0].value  # the pause shows the same
    done = app.invoke(Command(resume=REPLY), cfg("old"), durability="sync")
    done_new = app.invoke(Command(resume=REPLY), cfg("new"), durability="sync")
    assert done["answer"] and "1874" in done["answer"]
    assert (done["answer"], done["sources"], done["level"]) == (
        done_new["answer"],
        done_new["sources"],
        done_new["level"],
    )
    assert _history(app, "old") == _history(app, "new")
