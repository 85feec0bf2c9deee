"""Replies to a pause: the decision → reply-kind table, legacy payloads, depth and size bounds."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from confidence import InterventionLevel
from grace.hitl.limits import MAX_REPLY_CHARS, check_reply_bounds
from grace.hitl.request import (
    DECISION_REPLIES,
    GraceInterrupt,
    InvalidHumanResponseError,
    load_reply_json,
    parse_human_response,
)
from graph.cli.main import app

REQUEST = GraceInterrupt.model_validate(
    {
        "action_requests": [
            {"name": "review_answer", "args": {"query": "q?", "answer": "draft"}, "description": ""}
        ],
        "review_configs": [
            {"action_name": "review_answer", "allowed_decisions": ["approve", "edit", "reject"]}
        ],
        "level": "confirm",
        "confidence": 0.5,
        "step_id": "s2",
    }
)


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize(
    ("decision", "kind"),
    [
        ({"type": "approve"}, "accept"),
        (
            {"type": "edit", "edited_action": {"name": "review_answer", "args": {"query": "n"}}},
            "edit",
        ),
        ({"type": "reject", "message": "It was 1874."}, "response"),
        ({"type": "reject"}, "ignore"),
        ({"type": "reject", "message": "   "}, "ignore"),
    ],
)
def test_each_decision_maps_to_one_reply_kind(decision: dict[str, Any], kind: str) -> None:
    reply = parse_human_response({"decisions": [decision]}, REQUEST)
    assert reply.type == kind
    assert kind in DECISION_REPLIES[decision["type"]]


def test_every_reply_kind_has_exactly_one_decision() -> None:
    kinds = [k for kinds in DECISION_REPLIES.values() for k in kinds]
    assert sorted(kinds) == ["accept", "edit", "ignore", "response"]


def test_a_thread_paused_in_the_old_agent_inbox_shape_is_still_resumable() -> None:
    old = {
        "action_request": {"action": "review_answer", "args": {"query": "q?", "answer": "a"}},
        "config": {
            "allow_accept": False,
            "allow_edit": True,
            "allow_respond": True,
            "allow_ignore": True,
        },
        "description": "## GRACE needs you",
        "level": "escalate",
        "confidence": 0.2,
        "step_id": "s2",
    }
    request = GraceInterrupt.from_value(old)
    assert request.level == InterventionLevel.ESCALATE
    assert request.review_configs[0].allowed_decisions == ["edit", "reject"]
    assert parse_human_response({"type": "ignore"}, old).type == "ignore"
    with pytest.raises(InvalidHumanResponseError, match="not allowed"):
        parse_human_response({"decisions": [{"type": "approve"}]}, old)


def test_a_40000_level_nested_reply_is_refused_without_recursion_error() -> None:
    text = _nested(40_000)
    with pytest.raises(InvalidHumanResponseError, match="nested more than 32 levels"):
        load_reply_json(text, InvalidHumanResponseError)
    value: Any = []
    for _ in range(40_000):  # a parsed value, as the Python API or the server hands it over
        value = [value]
    with pytest.raises(InvalidHumanResponseError, match="nested more than 32 levels"):
        parse_human_response({"decisions": value}, REQUEST)


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    reply = load_reply_json('{"decisions": [{"type": "reject", "message": "' + "[" * 500 + '"}]}')
    assert parse_human_response(reply, REQUEST).type == "response"


def test_an_oversized_reply_is_refused() -> None:
    with pytest.raises(ValueError, match="over the limit"):
        load_reply_json('"' + "x" * MAX_REPLY_CHARS + '"')
    with pytest.raises(ValueError, match="size limit"):
        check_reply_bounds({"decisions": [{"type": "reject", "message": "x" * MAX_REPLY_CHARS}]})


def test_an_edited_question_goes_through_the_ask_validation() -> None:
    from functools import partial

    from nodes.common import validate_question

    check = partial(validate_question, max_chars=4000)
    edit = {
        "type": "edit",
        "edited_action": {"name": "review_answer", "args": {"query": "x" * 4001}},
    }
    with pytest.raises(InvalidHumanResponseError, match="over the limit of 4000"):
        parse_human_response({"decisions": [edit]}, REQUEST, check_question=check)
    # A corrected answer is not a question: the question check does not apply to it.
    answer = {"type": "edit", "edited_action": {"name": "review_answer", "args": {"answer": "A."}}}
    assert (
        parse_human_response({"decisions": [answer]}, REQUEST, check_question=check).type == "edit"
    )


@pytest.mark.parametrize(
    ("response", "message"),
    [
        (_nested(40_000), "--response is nested more than 32 levels deep"),
        ("x" * (MAX_REPLY_CHARS + 1), "--response is 100,001 characters"),
    ],
)
def test_cli_refuses_a_hostile_reply_in_one_line(response: str, message: str) -> None:
    result = CliRunner().invoke(app, ["resume", "t-any", "--response", response])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_python_api_refuses_a_long_edited_question_and_a_deep_reply(offline_services: Any) -> None:
    from graph.app import GraceApp

    with GraceApp.open(services=offline_services) as grace:
        paused = grace.ask("Who won the 2018 FIFA World Cup?", thread_id="api-bounds")
        assert paused.status == "interrupted"
        edit = {"name": "review_answer", "args": {"query": "x" * 4001}}
        with pytest.raises(InvalidHumanResponseError, match="over the limit of 4000"):
            grace.resume("api-bounds", {"decisions": [{"type": "edit", "edited_action": edit}]})
        deep: Any = []
        for _ in range(40_000):
            deep = [deep]
        with pytest.raises(InvalidHumanResponseError, match="nested more than 32 levels"):
            grace.resume("api-bounds", deep)
        assert grace.outcome("api-bounds").status == "interrupted"  # nothing changed
        done = grace.resume("api-bounds", {"decisions": [{"type": "reject"}]})
        assert done.status == "completed"


def test_an_edit_of_another_action_is_refused() -> None:
    other = {"type": "edit", "edited_action": {"name": "other_tool", "args": {"query": "x"}}}
    with pytest.raises(InvalidHumanResponseError, match="pending action is 'review_answer'"):
        parse_human_response({"decisions": [other]}, REQUEST)
    same = {"type": "edit", "edited_action": {"name": "review_answer", "args": {"query": "x"}}}
    assert parse_human_response({"decisions": [same]}, REQUEST).type == "edit"
