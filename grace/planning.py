"""Plan building blocks shared by every planner: the template plan and the complexity estimate."""

from __future__ import annotations

import re

from grace.schemas import ExecutionPlan, PlanStep

__all__ = ["estimate_complexity", "split_subquestions", "template_plan"]

_QUESTION_WORDS = r"who|what|when|where|which|why|how|is|are|was|were|did|does|do"
_CONJUNCTION_QUESTION = re.compile(
    rf",?\s+(?:and|also|as well as)\s+(?=(?:{_QUESTION_WORDS})\b)", re.IGNORECASE
)
_JA_CONJUNCTION = re.compile(r"(?<=[か。])\s*(?:また|そして|それと)、?")


def split_subquestions(query: str) -> list[str]:
    """Split a compound question into its parts ("Who X and when Y?" → two questions).

    Only clear cases are split: several question marks, or "and"/"also" followed by a
    question word in English, or また/そして after a question in Japanese.
    """
    text = query.strip()
    parts = [p.strip() for p in re.split(r"(?<=[?？])\s+", text) if p.strip()]
    out: list[str] = []
    for part in parts:
        pieces = _CONJUNCTION_QUESTION.split(part)
        pieces = [q for p in pieces for q in _JA_CONJUNCTION.split(p)]
        out.extend(p.strip(" ,、") for p in pieces if len(p.strip(" ,、")) >= 3)
    return out or [text]


def estimate_complexity(query: str) -> float:
    """Estimate 0–1 how much planning a question needs (sub-questions and length)."""
    parts = len(split_subquestions(query))
    length = min(len(query) / 400.0, 1.0)
    comparative = bool(
        re.search(r"\b(compare|difference|versus|vs\.?|both|between)\b|比較|違い", query, re.I)
    )
    score = 0.35 * min(parts - 1, 2) + 0.2 * length + (0.3 if comparative else 0.0)
    return round(min(score, 1.0), 3)


def template_plan(
    query: str, collection: str | None = None, *, subquestions: list[str] | None = None
) -> ExecutionPlan:
    """The "search → answer" plan: one search per sub-question, then one grounded answer."""
    questions = subquestions or [query]
    steps = [
        PlanStep(
            step_id=f"s{i}",
            action="rag_search",
            description=f"Search the documents for: {q}",
            query=q,
            collection=collection,
            expected_output="Passages that contain the answer",
        )
        for i, q in enumerate(questions, start=1)
    ]
    steps.append(
        PlanStep(
            step_id=f"s{len(steps) + 1}",
            action="reasoning",
            description="Answer from the retrieved passages, citing them",
            query=query,
            depends_on=[s.step_id for s in steps],
            expected_output="A short answer with citations, or a statement that the "
            "documents do not contain it",
            fallback="ask_user",
        )
    )
    return ExecutionPlan(
        original_query=query,
        complexity=estimate_complexity(query),
        steps=steps,
        origin="template",
    )
