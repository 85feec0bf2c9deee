"""Did a client ask to end a paused run without a reply (``Command(goto=END)``)?

Agent Chat UI's "Mark as Resolved" sends ``Command(goto=END)`` with no resume value. LangGraph
records that as a pending write to the channel ``branch:to:__end__`` (which no graph has, so
it is otherwise ignored) and re-runs the paused node, whose ``interrupt()`` raises again: the
client is told "resolved" while the thread stays paused. ``intervene`` asks this module, when
its interrupt finds no reply, whether the checkpoint holds that write, and then finishes the
run with the answer as it stands (and says so) instead of pausing silently again.

The checkpointer is read from the task's config under ``langgraph.constants.
CONFIG_KEY_CHECKPOINTER`` (public: the key LangGraph's own server reads); the paused
checkpoint is the thread's latest in the task's graph namespace — a resume writes its command
as pending writes on it and saves no new checkpoint before the paused node runs again. Without
a checkpointer nothing can be paused, so the answer is simply "no". Only public LangGraph APIs
are used (docs/architecture.md §1).
"""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver, CheckpointTuple
from langgraph.config import get_config
from langgraph.constants import CONFIG_KEY_CHECKPOINTER
from langgraph.graph import END

__all__ = ["END_WRITE", "aresolve_requested", "resolve_requested"]

END_WRITE = f"branch:to:{END}"
"""The pending write ``Command(goto=END)`` leaves on the checkpoint."""


def _paused_checkpoint() -> tuple[BaseCheckpointSaver[Any], RunnableConfig] | None:
    """The checkpointer and the config of the checkpoint the running task belongs to."""
    conf = get_config().get("configurable", {})
    saver = conf.get(CONFIG_KEY_CHECKPOINTER)
    if not isinstance(saver, BaseCheckpointSaver):
        return None
    thread_id = conf.get("thread_id")
    if thread_id is None:
        return None
    graph_ns = str(conf.get("checkpoint_ns", "")).rpartition("|")[0]  # the task's graph
    target: RunnableConfig = {"configurable": {"thread_id": thread_id, "checkpoint_ns": graph_ns}}
    return saver, target


def _asks_to_end(checkpoint: CheckpointTuple | None) -> bool:
    return checkpoint is not None and any(
        write[1] == END_WRITE for write in checkpoint.pending_writes or []
    )


def resolve_requested() -> bool:
    """Whether the paused checkpoint carries a client's ``goto=END`` (sync nodes)."""
    found = _paused_checkpoint()
    return found is not None and _asks_to_end(found[0].get_tuple(found[1]))


async def aresolve_requested() -> bool:
    """Whether the paused checkpoint carries a client's ``goto=END`` (async nodes)."""
    found = _paused_checkpoint()
    return found is not None and _asks_to_end(await found[0].aget_tuple(found[1]))
