"""A model that cannot be reached stops the run with one line, instead of a long silent retry.

When a model call cannot even connect — the server refuses the connection, the host has no
route, the name does not resolve (``GOOGLE_API_KEY`` set on a machine without network) —
nothing a person could reply would help, and answering "the documents lack it" would be
false. The model-backed planner, reader and follow-up rewrite turn such a failure into
:class:`~grace.errors.ModelUnreachableError` after the client's own retries
(``models.max_retries``); it leaves the graph (no node retries it), the thread keeps its
last checkpoint, and ``grace resume THREAD`` runs it on once the model answers.

A server that answers slowly or badly (a read timeout, HTTP 500, a refusal) is not
"unreachable": those stay step failures, retried and reported as before.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from confidence.model_log import ModelLog, describe_error
from grace.errors import ModelUnreachableError
from grace.providers.models import PROVIDERS

__all__ = [
    "ModelCall",
    "connection_failure",
    "describe_model",
    "model_call",
    "stop_if_unreachable",
    "unreachable_error",
]

_CONNECT_NAMES = frozenset({"ConnectError", "ConnectTimeout", "APIConnectionError"})
"""Exception class names of the HTTP clients and SDKs (httpx, httpcore, openai, anthropic)
that mean the request never reached the server; matched by name, no SDK is imported."""


def connection_failure(exc: BaseException) -> BaseException | None:
    """The connection failure in ``exc`` or its causes (the innermost, most precise), or None.

    Connection refused / reset, name resolution, a connect timeout or an SDK's connection
    error. A read timeout or an HTTP error status is not one (the server was reached).
    """
    found: BaseException | None = None
    current: BaseException | None = exc
    for _ in range(6):
        if current is None:
            break
        # by name, not class: openai's APITimeoutError (a read timeout) subclasses its
        # APIConnectionError; its cause says whether the connection was made
        if isinstance(current, ConnectionError | socket.gaierror) or (
            type(current).__name__ in _CONNECT_NAMES
        ):
            found = current
        current = current.__cause__ or current.__context__
    return found


def describe_model(model: Any) -> tuple[str, str]:
    """``(provider, model name)`` of a LangChain chat model, e.g. ``("openai", "gpt-4.1")``."""
    cls = type(model).__name__
    provider = next((key for key, row in PROVIDERS.items() if row.chat_classes[0] == cls), cls)
    name = getattr(model, "model", None) or getattr(model, "model_name", None) or "?"
    return provider, str(name).removeprefix("models/")


def unreachable_error(model: Any, exc: BaseException) -> ModelUnreachableError | None:
    """The one-line error for a call of ``model`` that failed with ``exc`` to connect.

    None for any other failure (the caller handles it as before).
    """
    failure = connection_failure(exc)
    if failure is None:
        return None
    provider, name = describe_model(model)
    detail = str(failure).strip() or type(failure).__name__
    where = getattr(model, "base_url", None) or getattr(model, "openai_api_base", None)
    at = f" at {where}" if isinstance(where, str) and where else ""
    return ModelUnreachableError(
        f"the {provider} model '{name}' cannot be reached{at}: {type(failure).__name__}: "
        f"{detail}",
        provider=provider,
        model=name,
    )


@contextmanager
def stop_if_unreachable(model: Any) -> Iterator[None]:
    """Around a call of ``model``: a connection failure becomes ModelUnreachableError.

    Any other exception propagates unchanged (works around ``await`` too).
    """
    try:
        yield
    except Exception as exc:
        unreachable = unreachable_error(model, exc)
        if unreachable is not None:
            raise unreachable from exc
        raise


@dataclass
class ModelCall:
    """What :func:`model_call` saw of the call inside it."""

    failed: BaseException | None = None
    """The failure its caller falls back from (None: the call succeeded, or raised)."""


@contextmanager
def model_call(
    model: Any, role: str, log: ModelLog | None, *, fallback: str | None = None
) -> Iterator[ModelCall]:
    """Around a call of ``model`` for ``role``: its failures, said once for every caller.

    A connection failure stops the run (:class:`~grace.errors.ModelUnreachableError`). Any
    other failure is reported into the step's ``log`` for the run's notes
    (:meth:`~confidence.model_log.ModelLog.failure`) and then propagates — or, with a
    ``fallback`` (what the caller uses instead, said in the report), is kept in the
    yielded :class:`ModelCall`'s ``failed`` and the block ends.
    """
    call = ModelCall()
    try:
        with stop_if_unreachable(model):
            yield call
    except ModelUnreachableError:
        raise
    except Exception as exc:
        detail = describe_error(exc)
        ModelLog.of(log).failure(role, f"{detail}; {fallback}" if fallback else detail)
        if fallback is None:
            raise
        call.failed = exc
