"""A run served by ``langgraph dev`` keeps to the run's model time (issue 29).

Its context carries no budget (``GraceApp`` is not in the way): the nodes start one per run
from the settings, keyed by the run id the server sets. Against a slow loopback server of
the OpenAI API, each run's model calls stop at its own 2 s, and a second run gets its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from langgraph_sdk import get_sync_client

from tests.integration._langgraph_dev import langgraph_dev
from tests.providers.openai_server import FakeOpenAI, fake_openai
from tests.providers.test_bounded_generation import ANSWER, PLAN, QUESTION, VERDICT

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def model_server() -> Iterator[FakeOpenAI]:
    replies = {"PlanDraft": PLAN, "AnswerVerdict": VERDICT, "text": ANSWER}
    with fake_openai(replies, runaway=True, honour_max_tokens=False, token_delay=0.02) as server:
        yield server


def test_each_served_run_gets_its_own_model_time(
    tmp_path_factory: pytest.TempPathFactory, model_server: FakeOpenAI
) -> None:
    env = {
        "OPENAI_API_KEY": "sk-local",
        "GRACE_MODELS__CHAT": "openai:gemma-local",
        "GRACE_MODELS__BASE_URL": model_server.base_url,
        "GRACE_MODELS__MAX_TOKENS__ANSWER": "4000",  # only the run's time stops the answer
        "GRACE_MODELS__RUN_BUDGET_SECONDS": "2",
    }
    with langgraph_dev(tmp_path_factory.mktemp("served-budget"), env) as served:
        client = get_sync_client(url=served.url)
        outs: list[dict[str, Any]] = []
        for _ in range(2):
            thread = client.threads.create()["thread_id"]
            out = client.runs.wait(thread, "grace", input={"query": QUESTION})
            assert isinstance(out, dict)
            outs.append(out)
    kinds = model_server.kinds()
    assert kinds.count("PlanDraft") == 2, kinds  # the second run was not refused: its own time
    assert "AnswerVerdict" not in kinds, kinds  # each run's time was spent before its judge
    for out in outs:
        judge = [n for n in out.get("notes", []) if n.startswith("Model failure (judge)")]
        assert judge and "ModelBudgetSpent: no model call" in judge[0], out.get("notes")
