"""Bounded generation: a token budget on every model call, a streamed reply closed at it.

Each role — ``plan``, ``answer``, ``judge``, ``rewrite`` — gets its own copy of the chat
model with its ``models.max_tokens`` budget (:func:`with_max_tokens`). The reader streams
its reply (:func:`grace.providers.llm.streaming.stream_within`) within :class:`ReplyLimits` and
closes the stream when the reply passes its budget or the request timeout: a server that
ignores ``max_tokens`` is stopped by the closed connection (llama.cpp's server stops
generating when its client goes away), and the reply so far is returned with why it was cut.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from grace.providers.llm.streaming import Budget
from grace.providers.models import provider_of

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = ["ROLES", "ReplyLimits", "with_max_tokens"]

ROLES = ("plan", "answer", "judge", "rewrite")
"""The roles of a model call, each with its own ``models.max_tokens`` budget."""


def with_max_tokens(model: BaseChatModel, max_tokens: int) -> BaseChatModel:
    """A copy of ``model`` whose replies stop at ``max_tokens`` (``model`` itself if unknown).

    The field is its provider's ``ModelProvider.max_tokens_field`` (none for Gemini, and for
    a class no provider row names: its requests stay as they were).

    ``langchain-openai`` sends the budget as ``max_completion_tokens``; servers of the
    OpenAI API elsewhere (llama.cpp's, LM Studio's, Ollama's) read ``max_tokens`` and ignore
    the other, so against a server you named (the row's ``named_server_field``) the request
    carries both, and asks for the usage of a streamed reply (``stream_options``; servers
    that cannot ignore it).
    """
    row = provider_of(model)
    token_field = row.max_tokens_field if row is not None else None
    if row is None or token_field is None or token_field not in type(model).model_fields:
        return model
    update: dict[str, Any] = {token_field: max_tokens}
    url_field = row.named_server_field
    own_class = type(model).__name__ == row.chat_classes[0]
    if url_field and own_class and getattr(model, url_field, None):
        extra = dict(getattr(model, "extra_body", None) or {})
        update["extra_body"] = {**extra, "max_tokens": max_tokens}
        update["stream_usage"] = True
    return model.model_copy(update=update)


@dataclass(frozen=True)
class ReplyLimits:
    """The budgets of the reader's free-text replies."""

    answer: int | None = None
    """Tokens of an answer (None: no budget)."""
    rewrite: int | None = None
    """Tokens of an answer rewritten after a reviewer's feedback."""
    stop: tuple[str, ...] = ()
    """Stop sequences of both."""
    seconds: float | None = None
    """Wall-clock budget of a streamed reply (the request timeout)."""
    stream: bool = True
    """Stream the reply within these limits; False: one plain call (a model whose class has
    no token cap here, e.g. Gemini, keeps its requests as they were)."""
    timeout_arg: str | None = None
    """The client's per-request timeout keyword (``ModelProvider.request_timeout_arg``)."""

    def tokens(self, role: str) -> int | None:
        """The token budget of ``role`` (``answer`` or ``rewrite``)."""
        return self.rewrite if role == "rewrite" else self.answer

    def budget(self, role: str, *, stop: bool = True) -> Budget | None:
        """How a ``role`` reply streams (None: one plain call); ``stop``: with the stops."""
        if not self.stream:
            return None
        stops = self.stop if stop else ()
        return Budget(self.tokens(role), stops, self.seconds, self.timeout_arg)
