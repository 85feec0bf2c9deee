"""Tool roles are kept by each registry: two registries may give one name different roles."""

from __future__ import annotations

import contextvars
from typing import Any

import pytest
from langchain_core.tools import tool

from grace.tools import ToolRegistry, default_registry, is_search, role_of
from grace.tools.roles import roles_in_force


@tool
def lookup(query: str) -> str:
    """Look the query up."""
    return query


def _in(registry: ToolRegistry, check: Any) -> Any:
    """``check()`` in a context of its own that reads ``registry``'s roles (as a node's task)."""

    def run() -> Any:
        roles_in_force(registry.roles)
        return check()

    return contextvars.copy_context().run(run)


def test_two_registries_give_one_name_different_roles_without_colliding() -> None:
    searching, other = default_registry(), default_registry()
    searching.register(lookup, role="search")
    other.register(lookup, role="answer")  # refused while roles were kept for the process
    assert searching.roles["lookup"] == "search" and other.roles["lookup"] == "answer"
    assert _in(searching, lambda: is_search("lookup")) is True
    assert _in(other, lambda: (is_search("lookup"), role_of("lookup"))) == (False, "answer")
    assert role_of("lookup") == "other"  # outside a run: only the built-in actions' roles


def test_a_registry_refuses_a_built_in_action_under_another_role() -> None:
    registry = ToolRegistry()

    @tool
    def rag_search(query: str) -> str:
        """A search by another name."""
        return query

    with pytest.raises(ValueError, match="registered as a search tool, not answer"):
        registry.register(rag_search, role="answer")


def test_a_graph_run_reads_its_own_registrys_roles(offline_services: Any) -> None:
    """A node's task sets its services' roles (``nodes.common.services_for``) for itself."""
    from dataclasses import replace

    from nodes.common import services_for

    tools = default_registry()
    tools.register(lookup, role="search")
    services = replace(offline_services, tools=tools)

    def in_a_task() -> bool:
        services_for(None, services)
        return is_search("lookup")

    assert contextvars.copy_context().run(in_a_task) is True
    assert is_search("lookup") is False  # the caller's context is untouched
