"""One decision per run: ``confidence`` decides the run once, ``finalize`` only reports it.

A run of two batches (the searches, then the answer) calls ``confidence`` twice and
``finalize`` once; the user's thresholds are read from the store once (the first
``confidence``), the run's decision is taken once (``nodes.common.decide_run``, called by
``confidence``: the learned model's ``decide_learned`` or the calibrated decision, never both
and never again in ``finalize``), and the SILENT sentence check runs once. A run a person
finished at a pause before its last step is decided once too, by the same function, called
by ``finalize``.
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore
from langgraph.types import Command

import grace.scoring.decision
from confidence import ThresholdLearner
from grace.context import GraceContext
from grace.storage.serde import use_grace_serializer
from graph.builder import make_builder
from tests.graph.conftest import cfg
from tests.reliability.conftest import Wrapped, make_services, with_tools

# ``nodes.confidence`` as an attribute is the node function (``nodes/__init__``): the modules
confidence_module = importlib.import_module("nodes.confidence")
finalize_module = importlib.import_module("nodes.finalize")
common_module = importlib.import_module("nodes.common")

QUESTION = "When did the horse tram line open in Lumen Bay?"


def _counted(calls: Counter[str], name: str, func: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        calls[name] += 1
        return func(*args, **kwargs)

    return wrapper


def _count_decisions(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Count every store read of thresholds, every decision and every sentence check."""
    calls: Counter[str] = Counter()
    patches: list[tuple[Any, str]] = [
        (ThresholdLearner, "thresholds_for"),  # the store read
        (ThresholdLearner, "athresholds_for"),
        (confidence_module, "learned_thresholds"),
        (confidence_module, "alearned_thresholds"),
        (confidence_module, "decide_run"),
        (finalize_module, "decide_run"),
        (common_module, "calibrated_decision"),
        (grace.scoring.decision, "decide_learned"),
        (common_module, "cap_silent"),
        (confidence_module, "_update"),  # one per ``confidence`` step
    ]
    for owner, name in patches:
        label = f"{getattr(owner, '__name__', owner)}.{name}"
        monkeypatch.setattr(owner, name, _counted(calls, label, getattr(owner, name)))
    return calls


@pytest.mark.parametrize("mode", ["invoke", "ainvoke"])
def test_a_run_reads_its_thresholds_once_and_decides_once(
    offline_services: Any, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    calls = _count_decisions(monkeypatch)
    graph = make_builder(services=offline_services).compile(
        checkpointer=use_grace_serializer(InMemorySaver()), store=InMemoryStore()
    )
    ctx = GraceContext(user_id="one-decision")
    if mode == "invoke":
        out = graph.invoke({"query": QUESTION}, cfg(f"one-{mode}"), context=ctx)
    else:
        import asyncio

        out = asyncio.run(graph.ainvoke({"query": QUESTION}, cfg(f"one-{mode}"), context=ctx))
    assert out["answer"] and "__interrupt__" not in out, out
    assert calls["nodes.confidence._update"] == 2  # the search batch, then the answer batch
    reads = calls["nodes.confidence.learned_thresholds"]
    reads += calls["nodes.confidence.alearned_thresholds"]
    assert reads == 1
    store_reads = calls["ThresholdLearner.thresholds_for"]
    assert store_reads + calls["ThresholdLearner.athresholds_for"] == 1
    assert calls["nodes.confidence.decide_run"] == 1
    assert calls["nodes.finalize.decide_run"] == 0
    decisions = (
        calls["grace.scoring.decision.decide_learned"] + calls["nodes.common.calibrated_decision"]
    )
    assert decisions == 1, calls
    assert calls["nodes.common.cap_silent"] == 1
    state = graph.get_state(cfg(f"one-{mode}")).values
    assert state["run_decision"].level == out["level"]
    assert state["thresholds"] is not None


def test_a_run_finished_at_a_pause_before_its_answer_is_decided_once_by_finalize(
    offline_services: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failed search pauses before the answer; "finish" (``ignore``) ends the run there.

    ``confidence`` never decided the run (its last step never ran): ``finalize`` decides it
    once, by the same ``decide_run``, on the calibrated aggregate (no answer to score or to
    check), and reports that decision.
    """
    search = Wrapped(
        offline_services.tools.get("rag_search"), fail=lambda n, c: ValueError("index corrupt")
    )
    services = with_tools(
        make_services(offline_services, run={"max_replans": 0}), rag_search=search
    )
    graph = make_builder(services=services).compile(
        checkpointer=use_grace_serializer(InMemorySaver()), store=InMemoryStore()
    )
    ctx = GraceContext(user_id="one-decision")
    out = graph.invoke({"query": QUESTION}, cfg("finished"), context=ctx)
    assert out["__interrupt__"][0].value["level"] == "escalate"
    calls = _count_decisions(monkeypatch)
    out = graph.invoke(Command(resume={"type": "ignore"}), cfg("finished"), context=ctx)
    assert calls["nodes.confidence.decide_run"] == 0
    assert calls["nodes.finalize.decide_run"] == 1
    assert calls["nodes.common.calibrated_decision"] == 1, calls
    assert calls["grace.scoring.decision.decide_learned"] == 0
    assert calls["nodes.common.cap_silent"] == 0  # no answer was drafted
    assert calls["ThresholdLearner.thresholds_for"] == 0  # the turn's thresholds, read once
    state = graph.get_state(cfg("finished")).values
    assert state["decision"].level == out["level"]
    assert out["answer"]
