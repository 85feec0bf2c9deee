"""Reading a ``with_structured_output(schema, include_raw=True)`` result safely."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration
from langchain_core.runnables import Runnable, RunnableSequence
from pydantic import BaseModel, ValidationError

from confidence.model_log import ModelLog, describe_error
from grace.providers.llm.streaming import Budget, ReplyCut, Streamed, acall_within, call_within
from grace.providers.models import DEFAULT_METHODS

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = [
    "FormatMemory",
    "StructuredCall",
    "StructuredOutcome",
    "at_temperature_zero",
    "read_structured",
    "usage_of",
]

M = TypeVar("M", bound=BaseModel)

_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


def usage_of(message: object) -> tuple[int, int]:
    """Return ``(input_tokens, output_tokens)`` reported on an AI message (0s if absent)."""
    if isinstance(message, AIMessage) and message.usage_metadata is not None:
        usage = message.usage_metadata
        return int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0))
    return 0, 0


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


def read_structured(result: Any, schema: type[M], what: str = "judge") -> StructuredOutcome[M]:
    """Interpret the ``{"raw", "parsed", "parsing_error"}`` dict of a structured call.

    Accepts a parsed ``schema`` instance or dict; when the model answered with JSON text
    instead of a tool call, that text (optionally in a ``json`` code fence) is validated
    against ``schema``. Anything else is an error: a parsing error, a validation error,
    or no verdict at all. ``what`` names the caller in the errors (``judge``, ``planner``).
    """
    if not isinstance(result, dict):
        return StructuredOutcome(None, f"unexpected structured-output result {type(result)}")
    inp, out = usage_of(result.get("raw"))
    error = result.get("parsing_error")
    if isinstance(error, BaseException):
        return StructuredOutcome(
            None, f"malformed {what} output ({describe_error(error)})", inp, out
        )
    if error is not None:
        return StructuredOutcome(None, f"malformed {what} output ({error})", inp, out)
    parsed = result.get("parsed")
    if parsed is None:
        parsed = _json_from_text(result.get("raw"))
        if parsed is None:
            return StructuredOutcome(None, f"the {what} returned no structured verdict", inp, out)
    if isinstance(parsed, schema):
        return StructuredOutcome(parsed, None, inp, out)
    try:
        value = schema.model_validate(parsed)
    except ValidationError as exc:
        return StructuredOutcome(None, f"malformed {what} output ({describe_error(exc)})", inp, out)
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


_REFUSAL = re.compile(
    r"response_format|json_schema|json_object|structured output|tool[ _]?(call|choice)?s?\b|"
    r"function[ _]?call",
    re.IGNORECASE,
)
"""An error that names the request's format: a refusal to step down from, not a failure."""


class FormatMemory:
    """Which structured-output method works, per model (class, name, endpoint).

    Shared by the structured calls of one set of services (``grace.services`` gives its
    planner, judge and evaluator one), so a format one call saw refused is not asked for
    again by another; a :class:`StructuredCall` given none keeps its own.
    """

    def __init__(self) -> None:
        """Start with every model at its first method."""
        self.working: dict[str, int] = {}
        """Per model: the index of the method that works."""
        self.refused: dict[str, str] = {}
        """Per model: the refusal that made it step down last (said in the run's notes)."""


_LABELS = {"json_mode": "json_object", "text": "JSON in the reply's text"}
"""How the notes name a method (the request's ``response_format`` type where there is one)."""


def _model_key(model: BaseChatModel) -> str:
    name = getattr(model, "model_name", None) or getattr(model, "model", "")
    base = getattr(model, "openai_api_base", None) or getattr(model, "base_url", "") or ""
    return f"{type(model).__name__}|{name}|{base}"


class StructuredCall(Generic[M]):
    """``model.with_structured_output(schema, include_raw=True)``, built once and lean.

    The model's own structured-output runnable (``model | parser``: tool calling for most
    chat models, a JSON schema for Gemini) is built on first use and kept. A call runs the
    model, then the parser on the same message, and returns the ``{"raw", "parsed",
    "parsing_error"}`` dict of ``include_raw=True`` (read it with :func:`read_structured`)
    — without the ``RunnableParallel`` that ``include_raw=True`` adds, which runs its
    branches in a thread pool on every sync call. A model whose structured output is not a
    ``model | parser`` sequence is called through ``include_raw=True`` as before.

    Building happens inside :meth:`invoke` / :meth:`ainvoke`. A model with no structured
    output at all (no tool calling: ``with_structured_output`` raises NotImplementedError)
    is asked for the JSON object in its text, with the schema, and gets one repair try with
    the validation error; a reply that still does not validate is the caller's "not
    measured" / template path. Any other failed build is retried on the next call.

    With a ``stream`` budget each call streams its reply and closes the stream at the
    budget's tokens or seconds — the end of the connection is what stops a local server's
    generation; a timeout of a non-streamed request leaves it generating for nobody. A
    reply closed for time is a :class:`TimeoutError`, one closed at its tokens a
    :class:`~grace.providers.llm.streaming.ReplyCut` (incomplete JSON is of no use either way).
    """

    def __init__(
        self,
        model: BaseChatModel,
        schema: type[M],
        *,
        role: str = "",
        stream: Budget | None = None,
        methods: Sequence[str] = DEFAULT_METHODS,
        memory: FormatMemory | None = None,
    ) -> None:
        """Prepare structured calls of ``model`` returning ``schema`` (``role`` names them).

        ``stream``: how a call streams and where it is closed (None: one plain call).
        ``methods``: the structured-output methods to try, in order (the provider's ladder,
        ``ModelProvider.structured_methods``): a refusal that names the request's format
        steps down to the next, once per model and ``memory`` (None: this call's own).
        """
        self.model = model
        self.schema = schema
        self.role = role or schema.__name__
        self.stream = stream
        self._parts: tuple[Runnable[Any, Any], Runnable[Any, Any] | None] | None = None
        self._json_in_text = False
        self._methods = list(methods) or list(DEFAULT_METHODS)
        self.memory = memory if memory is not None else FormatMemory()
        """What this call and its siblings learned about the model's formats."""
        self._key = _model_key(model)

    @property
    def method(self) -> str:
        """The structured-output method in use (``json_schema``, ``json_mode`` … ``text``)."""
        return "text" if self._json_in_text else self._methods[self._index]

    @property
    def _index(self) -> int:
        """The index of the model's working method (as far as ``memory`` knows)."""
        return self.memory.working.get(self._key, 0)

    def _step_down(self, exc: BaseException) -> bool:
        """After a refusal that names the response format or tools: the next method, once."""
        index = self._index
        if self._json_in_text or not _REFUSAL.search(str(exc)) or index + 1 >= len(self._methods):
            return False
        self.memory.working[self._key] = index + 1
        refused = _LABELS.get(self._methods[index], self._methods[index])
        self.memory.refused[self._key] = f"{refused} refused: {describe_error(exc)}"
        self._parts = None
        self._json_in_text = False
        return True

    def _build(self) -> tuple[Runnable[Any, Any], Runnable[Any, Any] | None]:
        if self._parts is None:
            method = self._methods[self._index]
            try:
                if method == "text":
                    raise NotImplementedError(method)
                chain = self._structured_chain(method)
            except NotImplementedError:  # no tool calling / JSON mode: ask for JSON in text
                self._json_in_text = True
                self._parts = (self.model, None)
                return self._parts
            if isinstance(chain, RunnableSequence):  # model | [refusal check |] parser
                rest = chain.steps[1:]
                self._parts = (chain.first, rest[0] if len(rest) == 1 else RunnableSequence(*rest))
            else:
                options: dict[str, Any] = {} if method == "default" else {"method": method}
                self._parts = (
                    self.model.with_structured_output(self.schema, include_raw=True, **options),
                    None,
                )
        return self._parts

    def _structured_chain(self, method: str) -> Runnable[Any, Any]:
        """``with_structured_output`` for ``method``.

        A streamed ``json_schema`` call gives the schema as its JSON Schema, with the
        request the class would make (``strict``): given the class, ``langchain-openai``
        streams through the OpenAI SDK's parsing stream helper, whose events are
        ``model_dump``-ed with the parsed object in a field typed ``None`` — a pydantic
        serializer warning on every call — and which raises on a reply that does not
        validate before GRACE can report it as malformed. The JSON is validated here
        instead (:func:`read_structured`).
        """
        if method == "default":
            return self.model.with_structured_output(self.schema)
        if method == "json_schema" and self.stream is not None:
            schema = self.schema.model_json_schema()
            return self.model.with_structured_output(schema, method=method, strict=True)
        return self.model.with_structured_output(self.schema, method=method)

    @staticmethod
    def _parse(parser: Runnable[Any, Any], raw: Any) -> dict[str, Any]:
        from langchain_core.output_parsers import BaseOutputParser  # only with a model: lazy

        try:
            if isinstance(parser, BaseOutputParser) and isinstance(raw, BaseMessage):
                # What ``parser.invoke(raw)`` does, without a callback run of its own.
                parsed = parser.parse_result([ChatGeneration(message=raw)])
            else:
                parsed = parser.invoke(raw)
        except Exception as exc:  # noqa: BLE001 - reported like include_raw=True does
            return {"raw": raw, "parsed": None, "parsing_error": exc}
        return {"raw": raw, "parsed": parsed, "parsing_error": None}

    def _json_prompt(self, messages: Sequence[BaseMessage]) -> list[BaseMessage]:
        schema = json.dumps(self.schema.model_json_schema(), ensure_ascii=False)
        ask = (
            f"Reply with one JSON object only, no other text, valid against this schema:\n{schema}"
        )
        return [*messages, HumanMessage(ask)]

    def _repair_prompt(self, asked: list[BaseMessage], raw: Any, error: str) -> list[BaseMessage]:
        fix = f"That reply was not usable ({error}). Reply with the corrected JSON object only."
        return [*asked, raw, HumanMessage(fix)] if isinstance(raw, BaseMessage) else asked

    @staticmethod
    def _as_result(raw: Any) -> dict[str, Any]:
        return {"raw": raw, "parsed": None, "parsing_error": None}  # read_structured parses

    def invoke(self, messages: Sequence[BaseMessage], log: ModelLog | None = None) -> Any:
        """One model call; the ``include_raw=True`` dict (model exceptions propagate).

        A refusal that names the response format (or tool calling) steps down once to the
        next method and asks again — never the identical request; what works is remembered
        per model in ``memory``. A model without structured output is asked for JSON in
        its text and, if the reply does not validate, asked once more with the error.
        ``log`` is the step's :class:`~confidence.model_log.ModelLog`: the call keeps to its
        model time, and a method other than the model's first choice is reported into it.
        """
        log = ModelLog.of(log)
        while True:
            try:
                result = self._invoke_once(messages, log)
            except Exception as exc:
                if self._step_down(exc):
                    continue
                self._report_method(log)  # the method the failed call used is said too
                raise
            self._report_method(log)
            return result

    async def ainvoke(self, messages: Sequence[BaseMessage], log: ModelLog | None = None) -> Any:
        """Asynchronous :meth:`invoke` (the parser is CPU only: it runs inline)."""
        log = ModelLog.of(log)
        while True:
            try:
                result = await self._ainvoke_once(messages, log)
            except Exception as exc:
                if self._step_down(exc):
                    continue
                self._report_method(log)  # the method the failed call used is said too
                raise
            self._report_method(log)
            return result

    def _report_method(self, log: ModelLog) -> None:
        """Say the method in the run's notes when it is not the model's first choice."""
        method = self.method
        if method != self._methods[0]:
            why = self.memory.refused.get(self._key, "the model has no structured output")
            log.method(self.role, f"{_LABELS.get(method, method)} ({why})")

    def _with_format(self, messages: Sequence[BaseMessage]) -> list[BaseMessage]:
        """JSON mode carries no schema: the prompt says what object to return."""
        if self.method == "json_mode":
            return self._json_prompt(messages)
        return list(messages)

    @staticmethod
    def _message(streamed: Streamed) -> Any:
        """The reply of a call; one GRACE closed is a failure (its JSON is incomplete)."""
        if streamed.closed == "time":
            raise TimeoutError(streamed.cut)
        if streamed.closed == "tokens":
            raise ReplyCut(streamed.cut)
        return streamed.message

    def _reply(
        self, call: Runnable[Any, Any], messages: Sequence[BaseMessage], log: ModelLog
    ) -> Any:
        """The model's reply: streamed within :attr:`stream`, else one plain call."""
        return self._message(call_within(call, messages, self.stream, log))

    async def _areply(
        self, call: Runnable[Any, Any], messages: Sequence[BaseMessage], log: ModelLog
    ) -> Any:
        """Asynchronous :meth:`_reply`."""
        return self._message(await acall_within(call, messages, self.stream, log))

    def _invoke_once(self, messages: Sequence[BaseMessage], log: ModelLog) -> Any:
        call, parser = self._build()
        if self._json_in_text:
            asked = self._json_prompt(messages)
            result = self._as_result(self._reply(call, asked, log))
            error = read_structured(result, self.schema).error
            if error is None:
                return result
            repair = self._repair_prompt(asked, result["raw"], error)
            return self._as_result(self._reply(call, repair, log))
        if parser is None:
            return call.invoke(self._with_format(messages))
        return self._parse(parser, self._reply(call, self._with_format(messages), log))

    async def _ainvoke_once(self, messages: Sequence[BaseMessage], log: ModelLog) -> Any:
        call, parser = self._build()
        if self._json_in_text:
            asked = self._json_prompt(messages)
            result = self._as_result(await self._areply(call, asked, log))
            error = read_structured(result, self.schema).error
            if error is None:
                return result
            repair = self._repair_prompt(asked, result["raw"], error)
            return self._as_result(await self._areply(call, repair, log))
        if parser is None:
            return await call.ainvoke(self._with_format(messages))
        return self._parse(parser, await self._areply(call, self._with_format(messages), log))
