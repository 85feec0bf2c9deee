"""Follow-up questions: a question that leans on the conversation becomes a standalone one.

On a thread, "How many passengers can the MV Sound Spirit carry?" then "And how many cars?"
asks about the MV Sound Spirit; searched alone, the second question finds trams. Like
LangChain's history-aware retriever ("given the chat history and the latest question, which
might reference context in the chat history, formulate a standalone question"), the ``plan``
node rewrites such a question before planning — here by a general offline rule, applied only
when the question needs it:

- it *leans* on the conversation when it opens with "and" / "what about" / "how about" (「では」
  「じゃあ」「それで」), or holds a pronoun ("it", "its", "they", "that" …; 「それ」「その」「彼」)
  with no name of its own, or has no content word beyond question words;
- the previous question's *subject* is its longest name: a run of capitalised words with its
  article ("the MV Sound Spirit"), or the longest kanji / katakana run (「霧ヶ丘鉄道」);
- a question with a subject of its own ("What about the university?") is a new topic, left as
  it is;
- the rewrite replaces a pronoun with the subject ("What is its speed?" → "What is the MV Sound
  Spirit's speed?"), else adds the subject ("And how many cars?" → "How many cars — the MV
  Sound Spirit?").

The rewritten question is what is planned, searched and answered, and a note shows it.

With a chat model the rule only *decides* that a question needs the conversation; the model
writes the standalone question (:mod:`grace.providers.followup`). A rewrite is kept when it is
a question about this thread (:func:`on_thread`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from grace.patterns import lazy
from grace.schemas import TokenUsage
from grace.text import is_japanese

__all__ = [
    "HISTORY_MESSAGES",
    "Standalone",
    "Turn",
    "contextualize",
    "earlier_questions",
    "leans_on_context",
    "on_thread",
    "rewrite_note",
    "start",
    "subject_of",
    "turn_texts",
]

_OPENERS = lazy(
    r"^\s*(?:and|also|what about|how about|and what about|then)\b[\s,]*", re.IGNORECASE
)
_OPENERS_JA = lazy(r"^\s*(?:では|じゃあ|それで|それでは|あと|また)[、,\s]*")
_PRONOUN = lazy(
    r"\b(it|its|it's|they|them|their|theirs|this|that|these|those|he|him|his|she|her)\b",
    re.IGNORECASE,
)
_PRONOUN_JA = lazy(r"(それ|その|そこ|あれ|あの|彼女|彼)")
_QUESTION_WORDS = {
    "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "many", "much",
    "long", "old", "far", "is", "are", "was", "were", "do", "does", "did", "can", "could",
    "the", "a", "an", "of", "for", "to", "in", "on", "and", "about", "also", "then",
}
_WORD = lazy(r"[A-Za-z']+")
_NAME = lazy(r"(?:\bthe\s+)?[A-Z][\w'-]*(?:\s+(?:of\s+|de\s+)?[A-Z0-9][\w'-]*)*")
_NAME_JA = lazy(r"[\u4E00-\u9FFF\u30A0-\u30FFヶ々]{2,}")
"""Kanji / katakana runs."""
_OWN_SUBJECT = lazy(r"\b(the|a|an)\s+\w+", re.IGNORECASE)


def _names(question: str) -> list[str]:
    """Names in ``question``, longest first (not the question word that opens it)."""
    if is_japanese(question):
        found = _NAME_JA.findall(question)
    else:
        found = [
            m.strip()
            for m in _NAME.findall(question)
            if m.split()[0].lower() not in _QUESTION_WORDS or m.lower().startswith("the ")
        ]
    return sorted(found, key=len, reverse=True)


def _has_own_name(question: str) -> bool:
    body = _OPENERS.sub("", question)
    return bool(_names(body[:1].lower() + body[1:])) or bool(_OWN_SUBJECT.search(body))


def leans_on_context(question: str) -> bool:
    """Whether ``question`` needs the conversation to be understood (a cheap, general test)."""
    if is_japanese(question):
        opener = bool(_OPENERS_JA.match(question))
        return (opener or bool(_PRONOUN_JA.search(question))) and len(question) <= 30
    if _OPENERS.match(question) and not _has_own_name(question):
        return True
    if _PRONOUN.search(question) and not _has_own_name(question):
        return True
    content = [w for w in _WORD.findall(question.lower()) if w not in _QUESTION_WORDS]
    return not content


_THE_PHRASE = lazy(r"\b(the\s+(?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*)\s*[?？.!]?\s*$")
"""A phrase with "the" that ends the question ("Who founded the university?")."""


def subject_of(question: str) -> str | None:
    """The previous question's subject: its longest name (with its article) or kanji run.

    A question without a name gives the phrase with "the" that ends it, where questions put
    what they ask about ("Who founded the university?" → "the university").
    """
    names = _names(question)
    if names:
        return names[0]
    if is_japanese(question):
        return None
    ending = _THE_PHRASE.search(question)
    return ending.group(1) if ending else None


def contextualize(question: str, previous: Sequence[str]) -> str | None:
    """The standalone form of ``question`` after the ``previous`` questions, or ``None``.

    ``None`` when the question stands on its own, or nothing earlier gives it a subject.
    """
    if not previous or not leans_on_context(question):
        return None
    subject = next((s for s in map(subject_of, reversed(previous)) if s), None)
    if subject is None:
        return None
    if is_japanese(question):
        body = _OPENERS_JA.sub("", question).strip()
        if _PRONOUN_JA.search(body):
            return _PRONOUN_JA.sub(subject + "の" if "その" in body else subject, body, count=1)
        # a nominalised clause ("開業したのは…") takes the subject with が, a noun with の
        return f"{subject}{'が' if 'のは' in body else 'の'}{body}"
    body = _OPENERS.sub("", question).strip()
    body = body[:1].upper() + body[1:]
    possessive = re.compile(r"\b(its|their|his|her)\b", re.IGNORECASE)
    if possessive.search(body):
        return possessive.sub(f"{subject}'s", body, count=1)
    if _PRONOUN.search(body):
        return _PRONOUN.sub(subject, body, count=1)
    stem = body.rstrip(" ?？")
    return f"{stem} — {subject}?"


def earlier_questions(messages: Sequence[object], current_is_last: bool) -> list[str]:
    """The human questions of the earlier turns.

    ``current_is_last``: the last human message is this turn's own question.
    """
    humans = [
        str(getattr(m, "content", "")) for m in messages if getattr(m, "type", "") == "human"
    ]
    return humans[:-1] if current_is_last and humans else humans


def rewrite_note(question: str, standalone: str) -> str:
    """The note that shows a person what was asked."""
    return f"Asked as a follow-up: \u201c{question}\u201d was read as \u201c{standalone}\u201d."


HISTORY_MESSAGES = 6
"""Messages of the transcript (the latest turns) a model rewrite is shown."""
_HISTORY_CHARS = 1500
"""Characters of each of those messages (a long answer is cut)."""


@dataclass(frozen=True)
class Standalone:
    """The question a turn plans for, and how it was obtained."""

    question: str
    """The standalone question (the question as asked when it stands alone)."""
    by: Literal["asked", "rule", "model"] = "asked"
    """``asked``: unchanged; ``rule``: the offline rule's rewrite; ``model``: the model's."""
    usage: TokenUsage = field(default_factory=TokenUsage)
    """The rewrite call's model calls and tokens (none when no call was made)."""


def _transcript(messages: Sequence[Any], current_is_last: bool) -> list[Any]:
    earlier = list(messages[:-1] if current_is_last and messages else messages)
    return [m for m in earlier if getattr(m, "type", "") in ("human", "ai")][-HISTORY_MESSAGES:]


def turn_texts(history: Sequence[Any]) -> list[tuple[str, str]]:
    """``(role, text)`` of each earlier message (a long one cut)."""
    return [
        (
            "user" if message.type == "human" else "assistant",
            str(getattr(message, "text", "") or message.content)[:_HISTORY_CHARS],
        )
        for message in history
    ]


_ASKS = lazy(rf"[?？]\s*$|^\s*(?:{'|'.join(sorted(_QUESTION_WORDS))})\b|か[。]?\s*$", re.I)
"""A question: it ends with a question mark (or か), or opens with a question word."""


def on_thread(line: str, question: str, history: Sequence[Any]) -> bool:
    """Whether a rewrite is a question about this thread.

    It is asked as a question, and every content word it has (by its first five letters) is
    one of the question's or the earlier turns' (a rewrite may move words, never bring a
    topic of its own, such as an instruction an answer carried).
    """
    if not _ASKS.search(line):
        return False
    context = " ".join([question, *(text for _, text in turn_texts(history))]).lower()
    if is_japanese(line):
        runs = _NAME_JA.findall(line)
        return all(run in context for run in runs)
    words = [w for w in _WORD.findall(line.lower()) if w not in _QUESTION_WORDS and len(w) > 2]
    return all(w.strip("'")[:5] in context for w in words)  # the stem: found(ed), found(ing)


@dataclass(frozen=True)
class Turn:
    """What a rewrite of this turn's question starts from."""

    question: str
    rule: str | None
    """The offline rule's rewrite (None: it found no subject)."""
    history: list[Any]
    """The latest messages of the transcript before the question."""


def _turn(question: str, messages: Sequence[Any], current_is_last: bool) -> Turn | None:
    """None when the question stands alone (no earlier turn, or it leans on none)."""
    previous = earlier_questions(messages, current_is_last)
    if not previous or not leans_on_context(question):
        return None
    history = _transcript(messages, current_is_last)
    return Turn(question, contextualize(question, previous), history)


def start(
    question: str, messages: Sequence[Any], current_is_last: bool, *, with_model: bool
) -> Standalone | Turn:
    """The standalone question without a model call, or the turn a model is to rewrite.

    ``with_model``: a chat model rewrites (else the rule's rewrite is the answer).
    """
    found = _turn(question, messages, current_is_last)
    if found is None:
        return Standalone(question)
    if not with_model:
        return Standalone(found.rule, "rule") if found.rule else Standalone(question)
    return found
