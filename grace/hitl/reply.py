"""A person's reply at a pause, as evidence of its own kind (docs/architecture.md §5).

A ``response`` reply becomes a source whose author is the person (citation ``H1``, ``H2`` …).
It is judged on whether it *answers* the question — a statement, not a question back, not
"I don't know" — and never on how many words it shares with the question: "France won it."
answers "Who won the 2018 FIFA World Cup?" though the two share one word.

The rule for an answer built on it (the person's authority): an answer that rests only on a
reply that answers the question is final for this question — GRACE does not pause again —
and is reported at NOTIFY with the notice "answered from your reply", never SILENT: the
person should see that the answer is theirs, not the documents'. An ``edit`` that writes the
answer is final in the same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from confidence.types import ActionDecision, InterventionLevel
from grace.patterns import lazy
from grace.schemas import Source

__all__ = [
    "HUMAN_SOURCE",
    "PERSON_PASSAGE_LABEL",
    "ReplyAssessment",
    "answered_from_person",
    "assess_reply",
    "is_from_person",
    "person_decision",
    "person_passage",
    "person_source",
    "rests_on_the_person",
    "unlabel_person_passage",
]

HUMAN_SOURCE = "human"
"""``Source.source`` of information the person gave in a reply."""

PERSON_PASSAGE_LABEL = "[supplied by the person you are helping] "
"""Prefix that tells a judge a passage is the person's own reply, not a document."""

_NOT_AN_ANSWER = lazy(
    r"^\s*(?:i\s+(?:do\s*n[o']?t|don't|dont)\s+know|no\s+idea|not\s+sure|i'?m\s+not\s+sure|"
    r"unknown|dunno|i\s+have\s+no\s+idea|n/?a|pass|skip)\b"
    r"|(?:わから|分から|知ら|判ら)(?:ない|ん|ず)|(?:わかり|分かり|知り|判り)ません"
    r"|不明です|^\s*不明\s*[。.]?\s*$",
    re.IGNORECASE,
)
_WORD = lazy(r"\w", re.UNICODE)


@dataclass(frozen=True)
class ReplyAssessment:
    """Whether a person's reply answers the question, and why (for the score's rationale)."""

    answers: bool
    """True when the reply states something: it is not empty, a question or a non-answer."""
    reason: str
    """Short explanation shown in the judgement's rationale."""


def assess_reply(text: str) -> ReplyAssessment:
    """Judge a reply as an answer by its form, not by overlap with the question.

    A reply answers unless it is empty, asks a question back (ends with "?" / "？"), or says
    the person does not know (English and Japanese forms).
    """
    stripped = text.strip()
    if not _WORD.search(stripped):
        return ReplyAssessment(False, "the reply is empty")
    if stripped.endswith(("?", "？")):
        return ReplyAssessment(False, "the reply asks a question back")
    if _NOT_AN_ANSWER.search(stripped):
        return ReplyAssessment(False, "the reply says the person does not know")
    return ReplyAssessment(True, "the person's reply answers the question")


def person_source(text: str, number: int, *, title: str = "Your reply") -> Source:
    """The source for the person's ``number``-th reply (citation ``H<number>``)."""
    return Source(
        source_id=f"H{number}", source=HUMAN_SOURCE, title=title, text=text.strip(), score=1.0
    )


def is_from_person(source: Source) -> bool:
    """Whether ``source`` is information the person gave."""
    return source.source == HUMAN_SOURCE


def person_passage(source: Source) -> str:
    """The passage text a judge sees: labelled when the person supplied it."""
    return PERSON_PASSAGE_LABEL + source.text if is_from_person(source) else source.text


def unlabel_person_passage(passage: str) -> str | None:
    """The person's text when ``passage`` carries the person label, else ``None``."""
    if passage.startswith(PERSON_PASSAGE_LABEL):
        return passage[len(PERSON_PASSAGE_LABEL) :]
    return None


def rests_on_the_person(sources: list[Source]) -> bool:
    """Whether an answer cites only information the person gave."""
    return bool(sources) and all(is_from_person(s) for s in sources)


def answered_from_person(sources: list[Source]) -> bool:
    """Whether an answer rests only on person replies that answer the question."""
    return rests_on_the_person(sources) and all(assess_reply(s.text).answers for s in sources)


def person_decision(score: float, sources: list[Source]) -> ActionDecision:
    """The decision for an answer built on the person's reply: NOTIFY, never a new pause."""
    cited = ", ".join(s.source_id for s in sources)
    return ActionDecision(
        level=InterventionLevel.NOTIFY,
        reason=f"answered from your reply [{cited}]",
        recommended_action="proceed; the answer rests on what you said",
        score=score,
    )
