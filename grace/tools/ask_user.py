"""``ask_user``: a step whose output is a question for the person (handled by ``intervene``)."""

from __future__ import annotations

from grace.planning.roles import ASK, Role
from grace.schemas import ToolResult
from grace.tools.base import ToolCall, ToolEnv

__all__ = ["AskUserTool"]


class AskUserTool:
    """Ask the person; ``confidence`` escalates it and ``intervene`` collects the reply."""

    name = ASK
    description = "Ask the person a clarifying question when the documents cannot settle it."
    role: Role = "ask"
    signals: tuple[str, ...] = ()

    def runs_inline(self, env: ToolEnv) -> bool:
        """No: like any tool without a reason to, it runs under the step's timeout."""
        return False

    def run(self, call: ToolCall, env: ToolEnv) -> ToolResult:
        """Return the question to ask (no side effect: the pause happens in ``intervene``)."""
        question = call.step.query or call.step.description or "Can you help with this question?"
        return ToolResult(success=True, output=question)

    async def arun(self, call: ToolCall, env: ToolEnv) -> ToolResult:
        """Async :meth:`run`."""
        return self.run(call, env)
