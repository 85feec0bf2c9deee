"""A thread's transcript in two places: the latest turns in state, the older ones in the store.

Every checkpoint holds the state's ``messages`` again, so a conversation kept whole in state
makes each turn cost more than the one before (issue 40: a 1,000-turn thread). ``plan`` keeps
the latest ``checkpoint.turns_in_state`` answered turns in ``messages`` and moves older ones
to LangGraph's store (``runtime.store``) under the thread's namespace
(:func:`namespace`), one item per turn, keyed by its number in the thread (the state's
``archived_turns`` counts them): it removes them from ``messages`` with ``RemoveMessage``.
The thread's whole transcript is the store's turns followed by the state's messages
(:func:`full_transcript`); ``grace show``, ``GraceApp.history`` / ``transcript`` and the page
read it. Without a store (a graph compiled without one) nothing is moved.

A turn is a human message and the messages after it up to the next human message (GRACE's
draft at a pause, its answer).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, cast

from langchain_core.messages import (
    AnyMessage,
    HumanMessage,
    RemoveMessage,
    messages_from_dict,
    messages_to_dict,
)
from langgraph.store.base import BaseStore, Item, PutOp

__all__ = [
    "archived_messages",
    "full_transcript",
    "namespace",
    "turns_to_move",
    "Moved",
]

_PAGE = 500
"""Items read from the store per search call."""


def namespace(thread_id: str) -> tuple[str, ...]:
    """The store namespace of a thread's moved turns."""
    return ("grace", "threads", thread_id, "turns")


def _key(number: int) -> str:
    return f"{number:010d}"


def split_turns(messages: Sequence[AnyMessage]) -> list[list[AnyMessage]]:
    """``messages`` cut before each human message (a lead of non-human ones joins the first)."""
    turns: list[list[AnyMessage]] = []
    for message in messages:
        if isinstance(message, HumanMessage) or not turns:
            turns.append([message])
        else:
            turns[-1].append(message)
    return turns


class Moved:
    """The turns a new turn moves out of state: store items and the ``messages`` update."""

    def __init__(self, turns: list[list[AnyMessage]], first: int) -> None:
        """Hold ``turns`` (oldest first), numbered from ``first`` on."""
        self.turns, self.first = turns, first

    def items(self) -> list[tuple[str, dict[str, Any]]]:
        """(key, value) of each turn's store item (the messages as LangChain dicts)."""
        return [
            (_key(self.first + i), {"messages": messages_to_dict(turn)})
            for i, turn in enumerate(self.turns)
        ]

    def removals(self) -> list[RemoveMessage]:
        """The ``messages`` update that takes the moved turns out of state (by message id)."""
        return [RemoveMessage(id=m.id) for turn in self.turns for m in turn if m.id]

    def update(self) -> dict[str, Any]:
        """The state update: the removals and the new count of moved turns."""
        return {"messages": self.removals(), "archived_turns": self.first + len(self.turns)}

    def _ops(self, thread_id: str) -> list[PutOp]:
        ns = namespace(thread_id)
        return [PutOp(ns, key, value, index=False) for key, value in self.items()]

    def put(self, store: BaseStore, thread_id: str) -> None:
        """Write the turns to ``store`` in one batch (a retried ``plan`` writes the same keys)."""
        store.batch(self._ops(thread_id))

    async def aput(self, store: BaseStore, thread_id: str) -> None:
        """Async :meth:`put`; a sync-only store (``SqliteStore``) is written in a thread."""
        try:
            await store.abatch(self._ops(thread_id))
        except NotImplementedError:
            await asyncio.to_thread(self.put, store, thread_id)


def turns_to_move(
    messages: Sequence[AnyMessage], current_is_last: bool, keep: int, archived: int
) -> Moved | None:
    """The oldest answered turns beyond the latest ``keep`` ones (None: nothing to move).

    ``current_is_last``: the last message is this turn's own question (it always stays);
    ``archived``: turns already moved (the first moved here gets that number).
    """
    earlier = list(messages[:-1] if current_is_last and messages else messages)
    turns = split_turns(earlier)
    if len(turns) <= keep:
        return None
    return Moved(turns[: len(turns) - keep], archived)


def _items(store: BaseStore, thread_id: str) -> list[Item]:
    found: list[Item] = []
    while True:
        page = store.search(namespace(thread_id), limit=_PAGE, offset=len(found))
        found.extend(page)
        if len(page) < _PAGE:
            return sorted(found, key=lambda item: item.key)


def archived_messages(store: BaseStore | None, thread_id: str) -> list[AnyMessage]:
    """The thread's moved turns' messages, oldest first (none without a store)."""
    if store is None:
        return []
    out: list[AnyMessage] = []
    for item in _items(store, thread_id):
        out.extend(cast(list[AnyMessage], messages_from_dict(item.value.get("messages", []))))
    return out


def full_transcript(
    store: BaseStore | None, thread_id: str, in_state: Sequence[AnyMessage]
) -> list[AnyMessage]:
    """Every message of the thread: the moved turns, then those still in state."""
    return [*archived_messages(store, thread_id), *in_state]
