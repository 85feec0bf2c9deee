"""Checkpointer and store factories for GRACE: memory, sqlite (default) and postgres.

This package imports no other project package. ``grace.settings`` decides which backend to
use; these factories only open it::

    from checkpoints import open_checkpointer, open_store

    with (
        open_checkpointer("sqlite", sqlite_path=path) as saver,
        open_store("sqlite", sqlite_path=path) as store,
    ):
        graph = builder.compile(checkpointer=saver, store=store)

Its ``__all__`` is public API: docs/python.md and docs/deployment.md open these savers for a
graph of one's own (``make_graph(checkpointer=…)``), sync and async. Every factory returns a
(sync or async) context manager; leaving it closes the connection.
Missing settings raise ``ValueError`` naming the setting; a missing postgres extra raises
``ImportError`` with the install command.
"""

from checkpoints._common import (
    POSTGRES_EXTRA_HINT,
    POSTGRES_URL_ENV,
    SQLITE_PATH_ENV,
    STORE_SQLITE_PATH_HINT,
    BackendKind,
)
from checkpoints.checkpointer import (
    CheckpointerKind,
    open_async_checkpointer,
    open_checkpointer,
)
from checkpoints.store import StoreKind, open_async_store, open_store

__all__ = [
    "POSTGRES_EXTRA_HINT",
    "POSTGRES_URL_ENV",
    "SQLITE_PATH_ENV",
    "STORE_SQLITE_PATH_HINT",
    "BackendKind",
    "CheckpointerKind",
    "StoreKind",
    "open_async_checkpointer",
    "open_async_store",
    "open_checkpointer",
    "open_store",
]
