"""Plan building blocks shared by every planner: the template plan and the complexity estimate."""

from __future__ import annotations

import re

from grace.patterns import lazy
from grace.planning.roles import ANSWER, ASK, BUILT_IN_ROLES, SEARCH, Roles, is_search
from grace.schemas import ExecutionPlan, PlanStep
from grace.text import ENGLISH_STOPWORDS

__all__ = [
    "broadened_queries",
    "estimate_complexity",
    "keyword_query",
    "pin_searches",
    "split_subquestions",
    "template_plan",
]

_QUESTION_WORDS = r"who|what|when|where|which|why|how|is|are|was|were|did|does|do"
_CONJUNCTION_QUESTION = lazy(
    rf",?\s+(?:and|also|as well as)\s+(?=(?:{_QUESTION_WORDS})\b)", re.IGNORECASE
)
_JA_CONJUNCTION = lazy(r"(?<=[か。])\s*(?:また|そして|それと)、?")


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


_WORD = lazy(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
_JA_TAIL = lazy(
    r"(?:しましたか|のでしょうか|でしょうか|ですか|ましたか|ますか|か)?[?？。\s]*$"
)


def keyword_query(query: str) -> str:
    """The question reduced to its content words: a reformulation that needs no model.

    English stopwords (question words included) are dropped and the remaining words kept in
    order ("When did the horse tram open?" → "horse tram open"); a Japanese question loses
    its interrogative ending (…ですか？). Falls back to the stripped question.
    """
    text = query.strip()
    words = _WORD.findall(text)
    if words and all(w.isascii() for w in words):
        kept = [w for w in words if w.lower() not in ENGLISH_STOPWORDS]
        return " ".join(kept) if kept else text
    reduced = _JA_TAIL.sub("", text).strip()
    return reduced or text


def broadened_queries(query: str) -> list[str]:
    """Search queries that differ from ``query``: its keywords, and each sub-question's.

    Used when a search came back weak: the same need, phrased for a lexical index.
    """
    candidates = [keyword_query(query)]
    parts = split_subquestions(query)
    if len(parts) > 1:
        candidates += [keyword_query(p) for p in parts]
    seen = {query.strip().casefold()}
    out: list[str] = []
    for candidate in candidates:
        key = candidate.casefold()
        if candidate and key not in seen:
            seen.add(key)
            out.append(candidate)
    return out


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
            action=SEARCH,
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
            action=ANSWER,
            description="Answer from the retrieved passages, citing them",
            query=query,
            depends_on=[s.step_id for s in steps],
            expected_output="A short answer with citations, or a statement that the "
            "documents do not contain it",
            fallback=ASK,
        )
    )
    return ExecutionPlan(
        original_query=query,
        complexity=estimate_complexity(query),
        steps=steps,
        origin="template",
    )


def pin_searches(
    plan: ExecutionPlan, collection: str, roles: Roles = BUILT_IN_ROLES
) -> ExecutionPlan:
    """``plan`` with every search step confined to ``collection`` (a repair names each move).

    A run on a named collection answers from that collection only: a planner's step that
    names another (or none) is moved there, never left to search elsewhere.
    """
    for step in plan.steps:
        if is_search(step.action, roles) and step.collection != collection:
            if step.collection is not None:
                plan.repairs.append(
                    f"{step.step_id}: collection '{step.collection}' → '{collection}' "
                    "(the run is confined to the collection you named)"
                )
            step.collection = collection
    return plan
