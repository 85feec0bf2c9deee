"""The online provider: any LangChain chat model (Gemini by default) for plans and answers."""

from grace.providers.gemini.planner import LLMPlanner, PlanDraft
from grace.providers.gemini.reader import LLMReader

__all__ = [
    "LLMPlanner",
    "LLMReader",
    "PlanDraft",
]
