"""``reasoning``: a grounded answer from the dependencies' passages, citing them."""

from __future__ import annotations

from grace.planning.roles import ANSWER, Role
from grace.providers.base import ReaderAnswer
from grace.schemas import Source, StepStatus, ToolResult
from grace.tools.base import ToolCall, ToolEnv

__all__ = ["ReasoningTool", "gather_passages"]


def gather_passages(call: ToolCall, limit: int = 8) -> list[Source]:
    """The person's replies, then passages from the dependencies (best first, de-duplicated).

    The person's replies keep their citation ids ``H1``, ``H2`` …; each passage gets a
    citation id ``S1``, ``S2`` … in the order given to the reader.
    """
    seen: dict[str, Source] = {}
    for dep in call.dependencies:
        if dep.status not in (StepStatus.SUCCESS, StepStatus.PARTIAL):
            continue
        for src in dep.sources:
            key = f"{src.source}#{src.chunk_index}"
            if key not in seen or src.score > seen[key].score:
                seen[key] = src
    ranked = sorted(seen.values(), key=lambda s: s.score, reverse=True)[:limit]
    numbered = [p.model_copy(update={"source_id": f"S{i}"}) for i, p in enumerate(ranked, 1)]
    return [*call.human_sources, *numbered]


def _result(answer: ReaderAnswer, passages: list[Source]) -> ToolResult:
    cited = [p for p in passages if p.source_id in answer.cited]
    factors: dict[str, float] = {"abstained": 1.0 if answer.abstained else 0.0}
    if answer.margin is not None:
        factors["answer_margin"] = answer.margin
    return ToolResult(
        success=True,
        output=answer.text,
        sources=cited if cited else ([] if answer.abstained else passages[:1]),
        confidence_factors=factors,
        usage=answer.usage,
    )


class ReasoningTool:
    """Answer the step's question from retrieved passages only."""

    name = ANSWER
    description = "Answer a question from the passages of earlier steps, citing them."
    role: Role = "answer"
    signals: tuple[str, ...] = ()

    def runs_inline(self, env: ToolEnv) -> bool:
        """Whether :meth:`run` may run in the caller's thread (see ``nodes.execute``).

        Only with the offline extractive reader (exactly that class): CPU work in this
        process, no model call to wait on. A model-backed reader runs off-thread under the
        step's timeout.
        """
        from grace.providers.offline.reader import ExtractiveReader  # no import cycle

        return type(env.reader) is ExtractiveReader

    def run(self, call: ToolCall, env: ToolEnv) -> ToolResult:
        """Answer ``step.query`` from the dependencies' passages."""
        passages = gather_passages(call)
        answer = env.reader.answer(
            call.step.query, passages, feedback=call.feedback, log=env.log
        )
        return _result(answer, passages)

    async def arun(self, call: ToolCall, env: ToolEnv) -> ToolResult:
        """Async :meth:`run`."""
        passages = gather_passages(call)
        answer = await env.reader.aanswer(
            call.step.query, passages, feedback=call.feedback, log=env.log
        )
        return _result(answer, passages)
