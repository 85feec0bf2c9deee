"""How a judge sees the passages an answer cites: title first, the person's reply labelled.

One formatting rule for every judge (offline and model-backed): a document passage starts
with a ``[title] …`` line when it has a title — the reader saw the title, so a term the
question takes from it is not "missing" — and a passage the person supplied carries the
person label (:mod:`grace.hitl.reply`).
"""

from __future__ import annotations

from grace.hitl.reply import is_from_person, person_passage
from grace.schemas import Source

__all__ = ["TITLE_PREFIX", "judge_passage", "read_judge_passage"]

TITLE_PREFIX = "[title] "
"""First line of a judge passage that names its document's title."""


def judge_passage(source: Source) -> str:
    """The text a judge gets for ``source``."""
    if is_from_person(source) or not source.title:
        return person_passage(source)
    return f"{TITLE_PREFIX}{source.title}\n{source.text}"


def read_judge_passage(passage: str) -> tuple[str, str]:
    """(title, body) of a judge passage (title empty when it has none)."""
    if passage.startswith(TITLE_PREFIX) and "\n" in passage:
        head, body = passage.split("\n", 1)
        return head[len(TITLE_PREFIX) :].strip(), body
    return "", passage
