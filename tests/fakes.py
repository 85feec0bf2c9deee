"""The one scripted chat model of the tests and benchmarks (never used by the product).

It drives the model-backed (Gemini) code path: ``build_services(chat_model=...)`` takes it
in tests, and ``bench`` uses it with fixed replies and a latency. Three ways to script it,
which can be combined:

- per kind (:meth:`ScriptedChatModel.of`): ``plans`` answer the planner's structured output
  (``PlanDraft``), ``verdicts`` the judge's (``AnswerVerdict``), ``answers`` plain text calls
  (the reader); ``script.by_tool[schema]`` adds a queue for any other schema;
- in call order (:meth:`ScriptedChatModel.replying`): one reply per call, whatever the kind;
- fixed (:meth:`ScriptedChatModel.fixed`): a reply per kind that never runs out;
- reacting (:meth:`ScriptedChatModel.reacting`): a function of the call's kind and messages
  computes each reply (a model that reads its input, e.g. one that obeys what it reads).

Reply items: a ``dict`` → a tool call to the bound schema with these args; a ``str`` → a
plain text reply (for a structured call: malformed output); :class:`RawToolArgs` → a tool
call with raw, unparsed arguments; an ``AIMessage`` → returned as is; an exception → raised.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from grace.schemas import ReplanRecord
from grace.state import State

__all__ = ["RawToolArgs", "Script", "ScriptedChatModel", "use_up_replans", "verdict_json"]


@dataclass(frozen=True)
class RawToolArgs:
    """A tool call whose arguments are this raw (possibly malformed) JSON text."""

    text: str


@dataclass
class Script:
    """Replies and the calls made, shared by a model and its ``bind_tools`` copies."""

    by_tool: dict[str, deque[Any]] = field(default_factory=dict)
    """Replies to structured-output calls, by schema name."""
    text: deque[Any] = field(default_factory=deque)
    """Replies to plain text calls."""
    replies: deque[Any] = field(default_factory=deque)
    """Replies in call order, for calls whose kind has no queue of its own."""
    fixed: dict[str, Any] = field(default_factory=dict)
    """Replies that never run out, by kind (``text`` or a schema name)."""
    react: Callable[[str, list[BaseMessage]], Any] | None = None
    """Computes every reply from the call's kind and messages (the queues are then unused)."""
    calls: list[tuple[str, list[BaseMessage]]] = field(default_factory=list)
    """Every call: its kind and its messages."""
    bound_tools: list[list[str]] = field(default_factory=list)
    """The schema names of every ``bind_tools`` call."""
    latency: float = 0.0
    """Seconds each call takes (``time.sleep`` / ``asyncio.sleep``)."""
    hold: threading.Event | None = None
    """When given, each sync text call (an answer; not a plan or a verdict) waits until it is
    set (at most a minute) instead of ``latency``: a call still waiting when a run returns
    shows the run did not wait for it."""
    waiting: int = 0
    """Text calls waiting on ``hold`` now."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    """Serialises calls from several threads (the benchmarks' concurrent runs)."""

    def next_reply(self, kind: str) -> Any:
        """The reply to a call of ``kind`` (recorded by the caller)."""
        queue = self.text if kind == "text" else self.by_tool.get(kind)
        for source in (queue, self.replies):
            if source:
                return source.popleft()
        if kind in self.fixed:
            return self.fixed[kind]
        raise RuntimeError(f"script exhausted for {kind}")


class ScriptedChatModel(BaseChatModel):
    """A deterministic chat model whose replies come from a :class:`Script`."""

    script: Any
    tool_names: list[str] = []
    temperature: float | None = 0.7
    usage: tuple[int, int] | None = (100, 20)

    @classmethod
    def of(
        cls,
        *,
        plans: Sequence[Any] = (),
        answers: Sequence[Any] = (),
        verdicts: Sequence[Any] = (),
        latency: float = 0.0,
        hold: threading.Event | None = None,
    ) -> ScriptedChatModel:
        """Replies per kind: plans (``PlanDraft``), answers (text), verdicts (``AnswerVerdict``)."""
        script = Script(
            by_tool={"PlanDraft": deque(plans), "AnswerVerdict": deque(verdicts)},
            text=deque(answers),
            latency=latency,
            hold=hold,
        )
        return cls(script=script)

    @classmethod
    def replying(cls, *replies: Any, **kwargs: Any) -> ScriptedChatModel:
        """One reply per call, in call order, whatever the kind of call."""
        return cls(script=Script(replies=deque(replies)), **kwargs)

    @classmethod
    def fixed(cls, replies: dict[str, Any], *, latency: float = 0.0) -> ScriptedChatModel:
        """The same reply for every call of a kind (``text`` or a schema name)."""
        return cls(script=Script(fixed=dict(replies), latency=latency))

    @classmethod
    def reacting(
        cls, react: Callable[[str, list[BaseMessage]], Any], *, latency: float = 0.0
    ) -> ScriptedChatModel:
        """Each reply is ``react(kind, messages)``: a model that reads what it is sent."""
        return cls(script=Script(react=react, latency=latency))

    @property
    def calls(self) -> list[tuple[str, list[BaseMessage]]]:
        """Every call so far: its kind and its messages."""
        return list(self.script.calls)

    @property
    def messages(self) -> list[list[BaseMessage]]:
        """The messages of every call so far."""
        return [m for _, m in self.script.calls]

    def count(self, kind: str | None = None) -> int:
        """Calls of ``kind`` so far (every call when None)."""
        return sum(1 for k, _ in self.script.calls if kind is None or k == kind)

    @property
    def _llm_type(self) -> str:
        return "scripted-fake"

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        names = [convert_to_openai_tool(t)["function"]["name"] for t in tools]
        self.script.bound_tools.append(names)
        return self.model_copy(update={"tool_names": names})

    def _message(self, item: Any, n: int) -> AIMessage:
        name = self.tool_names[0] if self.tool_names else "tool"
        if isinstance(item, AIMessage):
            msg = item
        elif isinstance(item, dict):
            msg = AIMessage(
                content="", tool_calls=[{"name": name, "args": item, "id": f"call_{n}"}]
            )
        elif isinstance(item, RawToolArgs):
            call = {"name": name, "arguments": item.text}
            msg = AIMessage(
                content="",
                additional_kwargs={
                    "tool_calls": [{"id": f"call_{n}", "type": "function", "function": call}]
                },
            )
        else:
            msg = AIMessage(content=str(item))
        if self.usage is not None and msg.usage_metadata is None:
            inp, out = self.usage
            msg.usage_metadata = {
                "input_tokens": inp,
                "output_tokens": out,
                "total_tokens": inp + out,
            }
        return msg

    def _reply(self, messages: list[BaseMessage]) -> ChatResult:
        kind = self.tool_names[0] if self.tool_names else "text"
        with self.script.lock:
            self.script.calls.append((kind, list(messages)))
            n = len(self.script.calls)
            react = self.script.react
            item = react(kind, list(messages)) if react else self.script.next_reply(kind)
        if isinstance(item, BaseException):
            raise item
        return ChatResult(generations=[ChatGeneration(message=self._message(item, n))])

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        script = self.script
        if script.hold is not None and not self.tool_names:
            with script.lock:
                script.waiting += 1
            script.hold.wait(timeout=60)
            with script.lock:
                script.waiting -= 1
        elif script.latency:
            time.sleep(script.latency)
        return self._reply(messages)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        if self.script.latency:
            await asyncio.sleep(self.script.latency)
        return self._reply(messages)


def verdict_json(**kwargs: Any) -> str:
    """A judge verdict as JSON text."""
    return json.dumps(kwargs)


def use_up_replans(state: State) -> None:
    """Record ``state.replan_budget`` replans on ``state`` (``replan_count`` counts them)."""
    record = ReplanRecord(trigger="step_failed", strategy="partial", reason="test")
    state.replans = [record] * state.replan_budget
