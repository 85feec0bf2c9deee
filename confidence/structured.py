"""Reading a ``with_structured_output(schema, include_raw=True)`` result safely."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.output_parsers import BaseOutputParser
from langchain_core.outputs import ChatGeneration
from langchain_core.runnables import Runnable, RunnableSequence
from pydantic import BaseModel, ValidationError

__all__ = [
    "StructuredCall",
    "StructuredOutcome",
    "at_temperature_zero",
    "describe_error",
    "read_structured",
    "usage_of",
]

M = TypeVar("M", bound=BaseModel)

_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)
_MAX_ERROR_CHARS = 300


def usage_of(message: object) -> tuple[int, int]:
    """Return ``(input_tokens, output_tokens)`` reported on an AI message (0s if absent)."""
    if isinstance(message, AIMessage) and message.usage_metadata is not None:
        usage = message.usage_metadata
        return int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0))
    return 0, 0


def describe_error(exc: BaseException) -> str:
    """Return a short one-line description of ``exc`` for feedback and rationales."""
    if isinstance(exc, ValidationError):
        text = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}"
            for err in exc.errors()
        )
    else:
        text = " ".join(str(exc).split()).split(" For troubleshooting")[0]
    text = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return text if len(text) <= _MAX_ERROR_CHARS else text[: _MAX_ERROR_CHARS - 1] + "…"


@dataclass(frozen=True)
class StructuredOutcome(Generic[M]):
    """The parsed verdict, or why there is none, and the tokens spent."""

    value: M | None
    """The validated verdict, or None."""
    error: str | None
    """Why there is no verdict (None when ``value`` is set)."""
    input_tokens: int = 0
    """Prompt tokens reported by the model."""
    output_tokens: int = 0
    """Completion tokens reported by the model."""


def _json_from_text(message: object) -> Any:
    if not isinstance(message, AIMessage):
        return None
    text = message.text.strip()
    if not text:
        return None
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    try:
        return json.loads(text)
    except ValueError:
        return None


def read_structured(result: Any, schema: type[M]) -> StructuredOutcome[M]:
    """Interpret the ``{"raw", "parsed", "parsing_error"}`` dict of a structured call.

    Accepts a parsed ``schema`` instance or dict; when the model answered with JSON text
    instead of a tool call, that text (optionally in a ``json`` code fence) is validated
    against ``schema``. Anything else is an error: a parsing error, a validation error,
    or no verdict at all.
    """
    if not isinstance(result, dict):
        return StructuredOutcome(None, f"unexpected structured-output result {type(result)}")
    inp, out = usage_of(result.get("raw"))
    error = result.get("parsing_error")
    if isinstance(error, BaseException):
        return StructuredOutcome(
            None, f"malformed judge output ({describe_error(error)})", inp, out
        )
    if error is not None:
        return StructuredOutcome(None, f"malformed judge output ({error})", inp, out)
    parsed = result.get("parsed")
    if parsed is None:
        parsed = _json_from_text(result.get("raw"))
        if parsed is None:
            return StructuredOutcome(None, "the judge returned no structured verdict", inp, out)
    if isinstance(parsed, schema):
        return StructuredOutcome(parsed, None, inp, out)
    try:
        value = schema.model_validate(parsed)
    except ValidationError as exc:
        return StructuredOutcome(None, f"malformed judge output ({describe_error(exc)})", inp, out)
    return StructuredOutcome(value, None, inp, out)


def at_temperature_zero(model: BaseChatModel) -> BaseChatModel:
    """Return ``model`` at temperature 0 for judging.

    A model with a ``temperature`` field (e.g. ``ChatGoogleGenerativeAI``, which reads it
    on every request) whose value is not 0 is shallow-copied with ``temperature=0.0``;
    the caller's model is left untouched. Other models are returned as they are: construct
    them at temperature 0.
    """
    if "temperature" not in type(model).model_fields:
        return model
    if getattr(model, "temperature", None) == 0:
        return model
    return model.model_copy(update={"temperature": 0.0})


class StructuredCall(Generic[M]):
    """``model.with_structured_output(schema, include_raw=True)``, built once and lean.

    The model's own structured-output runnable (``model | parser``: tool calling for most
    chat models, a JSON schema for Gemini) is built on first use and kept. A call runs the
    model, then the parser on the same message, and returns the ``{"raw", "parsed",
    "parsing_error"}`` dict of ``include_raw=True`` (read it with :func:`read_structured`)
    — without the ``RunnableParallel`` that ``include_raw=True`` adds, which runs its
    branches in a thread pool on every sync call. A model whose structured output is not a
    ``model | parser`` sequence is called through ``include_raw=True`` as before.

    Building happens inside :meth:`invoke` / :meth:`ainvoke`, so a model that cannot do
    structured output fails the call (the caller's "not measured" / template path), not
    the constructor; a failed build is retried on the next call.
    """

    def __init__(self, model: BaseChatModel, schema: type[M]) -> None:
        """Prepare structured calls of ``model`` returning ``schema``."""
        self.model = model
        self.schema = schema
        self._parts: tuple[Runnable[Any, Any], Runnable[Any, Any] | None] | None = None

    def _build(self) -> tuple[Runnable[Any, Any], Runnable[Any, Any] | None]:
        if self._parts is None:
            chain = self.model.with_structured_output(self.schema)
            if isinstance(chain, RunnableSequence) and len(chain.steps) == 2:
                self._parts = (chain.first, chain.last)
            else:
                self._parts = (
                    self.model.with_structured_output(self.schema, include_raw=True),
                    None,
                )
        return self._parts

    @staticmethod
    def _parse(parser: Runnable[Any, Any], raw: Any) -> dict[str, Any]:
        try:
            if isinstance(parser, BaseOutputParser) and isinstance(raw, BaseMessage):
                # What ``parser.invoke(raw)`` does, without a callback run of its own.
                parsed = parser.parse_result([ChatGeneration(message=raw)])
            else:
                parsed = parser.invoke(raw)
        except Exception as exc:  # noqa: BLE001 - reported like include_raw=True does
            return {"raw": raw, "parsed": None, "parsing_error": exc}
        return {"raw": raw, "parsed": parsed, "parsing_error": None}

    def invoke(self, messages: Sequence[BaseMessage]) -> Any:
        """One model call; the ``include_raw=True`` dict (model exceptions propagate)."""
        call, parser = self._build()
        if parser is None:
            return call.invoke(list(messages))
        return self._parse(parser, call.invoke(list(messages)))

    async def ainvoke(self, messages: Sequence[BaseMessage]) -> Any:
        """Asynchronous :meth:`invoke` (the parser is CPU only: it runs inline)."""
        call, parser = self._build()
        if parser is None:
            return await call.ainvoke(list(messages))
        return self._parse(parser, await call.ainvoke(list(messages)))
