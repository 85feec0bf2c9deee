"""``make_graph``: the nodes' dependencies are arguments of a graph factory (issue 27.3).

The graph it returns uses the store, reader, tools and factors it was given — another graph's
in the same process are not consulted, and there is no process default.
"""

from __future__ import annotations

from typing import Any

from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver

from grace.providers.offline import ExtractiveReader
from grace.services import build_services
from grace.settings import GraceSettings
from grace.tools import LangChainTool
from graph.builder import make_graph
from tests.fakes import ScriptedChatModel

QUESTION = "When did the horse tram line open in Lumen Bay?"
COMPLEX = (
    "When did the horse tram line open in Lumen Bay, and how did the opening compare with "
    "the other transport projects of that decade?"
)
"""A question the planner does not answer with its template plan (no model call)."""
VERDICT = {"self_evaluation": 0.9, "query_coverage": 0.9, "rationale": "supported"}


class CountingReader(ExtractiveReader):
    """The offline reader, counting its answers."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def answer(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        return super().answer(*args, **kwargs)


def _cfg(thread: str) -> Any:
    return {"configurable": {"thread_id": thread}}


def test_the_graph_uses_the_reader_it_was_given(offline_services: Any) -> None:
    given, others = CountingReader(), CountingReader()
    settings = GraceSettings(data_dir=offline_services.settings.data_dir, provider="offline")
    services = build_services(settings, store=offline_services.store)
    app = make_graph(services=services, reader=given, checkpointer=InMemorySaver())
    other_services = build_services(settings, store=offline_services.store)
    other = make_graph(services=other_services, reader=others, checkpointer=InMemorySaver())
    out = app.invoke({"query": QUESTION}, _cfg("factory-reader"))
    assert out["answer"]
    assert given.calls == 1 and others.calls == 0  # the other graph's reader: not consulted
    assert other.invoke({"query": QUESTION}, _cfg("factory-reader"))["answer"]
    assert given.calls == 1 and others.calls == 1


@tool
def timetable(query: str) -> str:
    """Look up the opening year of a tram line in the city's timetable archive."""
    return "The horse tram line opened in 1874."


def test_a_tool_given_to_the_factory_is_a_plan_action(offline_services: Any) -> None:
    plan = {
        "complexity": 0.7,
        "steps": [
            {"step_id": "s1", "action": "timetable", "query": "horse tram line"},
            {"step_id": "s2", "action": "reasoning", "query": COMPLEX, "depends_on": ["s1"]},
        ],
    }
    answers = ["The horse tram line opened in 1874 [S1]."]
    model = ScriptedChatModel.of(plans=[plan], answers=answers, verdicts=[VERDICT])
    settings = GraceSettings(data_dir=offline_services.settings.data_dir, provider="offline")
    services = build_services(settings, chat_model=model, store=offline_services.store)
    search = LangChainTool(timetable, role="search")  # a LangChain tool with its role
    app = make_graph(services=services, tools=[search], checkpointer=InMemorySaver())
    app.invoke({"query": COMPLEX}, _cfg("factory-tool"))
    results = app.get_state(_cfg("factory-tool")).values["results"]
    assert results["s1"].action == "timetable"
    assert results["s1"].sources[0].source == "timetable"
    assert results["s2"].sources[0].text == results["s1"].sources[0].text  # cited
    planner_prompt = str(model.calls[0][1][0].content)
    assert "timetable: Look up the opening year" in planner_prompt
