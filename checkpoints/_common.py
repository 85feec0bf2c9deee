"""Shared helpers for the checkpointer and store factories: kinds, settings, messages."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Literal, get_args

if TYPE_CHECKING:
    from psycopg import AsyncConnection, Connection
    from psycopg.rows import DictRow

__all__ = [
    "POSTGRES_EXTRA_HINT",
    "POSTGRES_URL_ENV",
    "SQLITE_PATH_ENV",
    "STORE_SQLITE_PATH_HINT",
    "BackendKind",
    "apostgres_connection",
    "postgres_connection",
    "postgres_import_error",
    "prepare_sqlite_path",
    "require_postgres_url",
    "validate_kind",
]

BackendKind = Literal["memory", "sqlite", "postgres"]
"""Persistence backends shared by checkpointers and stores."""

SQLITE_PATH_ENV = "GRACE_CHECKPOINT__SQLITE_PATH"
"""Environment variable (settings key) that provides the checkpointer's ``sqlite_path``."""

STORE_SQLITE_PATH_HINT = "Settings.store_path, under GRACE_DATA_DIR"
"""Where the store's ``sqlite_path`` comes from (it has no setting of its own)."""

POSTGRES_URL_ENV = "GRACE_CHECKPOINT__POSTGRES_URL"
"""Environment variable (settings key) that provides ``postgres_url``."""

POSTGRES_EXTRA_HINT = "pip install 'grace-agent[postgres]'"
"""How to install the optional Postgres dependencies."""

_KINDS: tuple[str, ...] = get_args(BackendKind)


def validate_kind(kind: str, what: str) -> None:
    """Raise ``ValueError`` unless ``kind`` is one of the supported backends.

    Args:
        kind: The requested backend.
        what: ``"checkpointer"`` or ``"store"``, used in the message.

    Raises:
        ValueError: If ``kind`` is not ``memory``, ``sqlite`` or ``postgres``.

    """
    if kind not in _KINDS:
        expected = ", ".join(repr(k) for k in _KINDS)
        raise ValueError(f"unknown {what} kind {kind!r}; expected one of {expected}")


def prepare_sqlite_path(
    sqlite_path: Path | str | None, what: str, setting: str = SQLITE_PATH_ENV
) -> Path:
    """Check that a SQLite path was given and create its parent directory.

    Args:
        sqlite_path: The database file; ``~`` is expanded.
        what: ``"checkpointer"`` or ``"store"``, used in the message.
        setting: The setting that provides the path, named in the message.

    Returns:
        The expanded path, whose parent directory now exists.

    Raises:
        ValueError: If ``sqlite_path`` is ``None`` or empty.

    """
    if sqlite_path is None or str(sqlite_path) == "":
        raise ValueError(f"sqlite {what} needs sqlite_path ({setting})")
    path = Path(sqlite_path).expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def require_postgres_url(postgres_url: str | None, what: str) -> str:
    """Return ``postgres_url`` or raise a ``ValueError`` naming the missing setting.

    Args:
        postgres_url: The connection string (``postgresql://user:pw@host:5432/db``).
        what: ``"checkpointer"`` or ``"store"``, used in the message.

    Returns:
        The connection string, unchanged.

    Raises:
        ValueError: If ``postgres_url`` is ``None`` or blank.

    """
    if postgres_url is None or not postgres_url.strip():
        raise ValueError(f"postgres {what} needs postgres_url ({POSTGRES_URL_ENV})")
    return postgres_url


def postgres_import_error(what: str, exc: ImportError) -> ImportError:
    """Build the ``ImportError`` raised when the Postgres extra is missing.

    Args:
        what: ``"checkpointer"`` or ``"store"``, used in the message.
        exc: The original import failure, kept in the message.

    Returns:
        An ``ImportError`` telling the user how to install the extra.

    """
    return ImportError(
        f"postgres {what} needs langgraph-checkpoint-postgres and psycopg, which are not "
        f"installed ({exc}); install the postgres extra: {POSTGRES_EXTRA_HINT}"
    )


@contextmanager
def postgres_connection(url: str) -> Iterator[Connection[DictRow]]:
    """A psycopg connection as LangGraph's Postgres saver and store need it, closed on exit.

    Autocommit (their ``setup`` runs its own migrations), no server-side prepared statements
    (``prepare_threshold=0``: safe behind a connection pooler) and rows as dicts. Call it
    after importing the saver or store class, whose ``ImportError`` names the missing extra
    (:func:`postgres_import_error`).
    """
    from psycopg import Connection
    from psycopg.rows import dict_row

    with Connection.connect(
        url, autocommit=True, prepare_threshold=0, row_factory=dict_row
    ) as conn:
        yield conn


@asynccontextmanager
async def apostgres_connection(url: str) -> AsyncIterator[AsyncConnection[DictRow]]:
    """Async :func:`postgres_connection` (psycopg's ``AsyncConnection``)."""
    from psycopg import AsyncConnection
    from psycopg.rows import dict_row

    async with await AsyncConnection.connect(
        url, autocommit=True, prepare_threshold=0, row_factory=dict_row
    ) as conn:
        yield conn
