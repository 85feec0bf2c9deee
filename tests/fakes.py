"""Test doubles: a scripted chat model that drives the model-backed (Gemini) code path.

Never used by the product: ``build_services(chat_model=...)`` takes it in tests only.
"""

from __future__ import annotations

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


@dataclass
class Script:
    """Replies per kind of call, shared by a model and its ``bind_tools`` copies.

    ``by_tool[name]`` answers structured-output calls for that schema (a dict → tool call
    args; a str → raw text, i.e. malformed output; an exception → raised); ``text`` answers
    plain calls (the reader).
    """

    by_tool: dict[str, deque[Any]] = field(default_factory=dict)
    text: deque[Any] = field(default_factory=deque)
    calls: list[tuple[str, list[BaseMessage]]] = field(default_factory=list)
    latency: float = 0.0


class ScriptedChatModel(BaseChatModel):
    """A deterministic chat model whose replies come from a :class:`Script`."""

    script: Any
    tool_name: str | None = None
    usage: tuple[int, int] = (100, 20)

    @classmethod
    def of(
        cls,
        *,
        plans: Sequence[Any] = (),
        answers: Sequence[Any] = (),
        verdicts: Sequence[Any] = (),
        latency: float = 0.0,
    ) -> ScriptedChatModel:
        script = Script(
            by_tool={"PlanDraft": deque(plans), "AnswerVerdict": deque(verdicts)},
            text=deque(answers),
            latency=latency,
        )
        return cls(script=script)

    @property
    def calls(self) -> list[tuple[str, list[BaseMessage]]]:
        return list(self.script.calls)

    def count(self, kind: str) -> int:
        return sum(1 for k, _ in self.script.calls if k == kind)

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
        name = convert_to_openai_tool(tools[0])["function"]["name"]
        return self.model_copy(update={"tool_name": name})

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        import time

        if self.script.latency:
            time.sleep(self.script.latency)
        kind = self.tool_name or "text"
        self.script.calls.append((kind, list(messages)))
        queue = self.script.text if self.tool_name is None else self.script.by_tool[kind]
        if not queue:
            raise RuntimeError(f"script exhausted for {kind}")
        item = queue.popleft()
        if isinstance(item, BaseException):
            raise item
        if isinstance(item, dict) and self.tool_name is not None:
            msg = AIMessage(
                content="",
                tool_calls=[{"name": kind, "args": item, "id": f"call_{len(self.script.calls)}"}],
            )
        else:
            msg = AIMessage(content=str(item))
        inp, out = self.usage
        msg.usage_metadata = {"input_tokens": inp, "output_tokens": out, "total_tokens": inp + out}
        return ChatResult(generations=[ChatGeneration(message=msg)])
