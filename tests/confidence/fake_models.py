"""A scripted chat model that supports ``with_structured_output`` (via ``bind_tools``)."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool


@dataclass(frozen=True)
class RawToolArgs:
    """A tool call whose arguments are this raw (possibly malformed) JSON text."""

    text: str


@dataclass
class Script:
    """Shared between a model and its ``bind_tools`` copies."""

    replies: deque[Any]
    calls: list[list[BaseMessage]] = field(default_factory=list)
    bound_tools: list[list[str]] = field(default_factory=list)


class ScriptedChatModel(BaseChatModel):
    """Replies from a script, one item per call.

    Items: a ``dict`` → a tool call to the first bound tool with these args; a ``str`` →
    a plain text reply; :class:`RawToolArgs` → a raw tool call with unparsed arguments;
    an ``AIMessage`` → returned as is; an exception → raised.
    """

    script: Any
    tool_names: list[str] = []
    temperature: float | None = 0.7
    usage: tuple[int, int] | None = (100, 20)

    @classmethod
    def of(cls, *replies: Any, **kwargs: Any) -> ScriptedChatModel:
        return cls(script=Script(replies=deque(replies)), **kwargs)

    @property
    def calls(self) -> list[list[BaseMessage]]:
        return list(self.script.calls)

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

    def _message(self, item: Any) -> AIMessage:
        n = len(self.script.calls)
        name = self.tool_names[0] if self.tool_names else "tool"
        if isinstance(item, AIMessage):
            msg = item
        elif isinstance(item, dict):
            msg = AIMessage(
                content="", tool_calls=[{"name": name, "args": item, "id": f"call_{n}"}]
            )
        elif isinstance(item, RawToolArgs):
            msg = AIMessage(
                content="",
                additional_kwargs={
                    "tool_calls": [
                        {
                            "id": f"call_{n}",
                            "type": "function",
                            "function": {"name": name, "arguments": item.text},
                        }
                    ]
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

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.script.calls.append(list(messages))
        if not self.script.replies:
            raise RuntimeError("script exhausted")
        item = self.script.replies.popleft()
        if isinstance(item, BaseException):
            raise item
        return ChatResult(generations=[ChatGeneration(message=self._message(item))])


def verdict_json(**kwargs: Any) -> str:
    return json.dumps(kwargs)
