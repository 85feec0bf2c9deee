"""Small text utilities shared by the offline reader and judge."""

from __future__ import annotations

import re

__all__ = ["key_terms", "split_sentences"]

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])|(?<=[。！？])")
_KEY_TERM = re.compile(
    r"\d[\d,.]*|[A-Z][\w'’-]+|[\u30A0-\u30FF]{2,}|[\u4E00-\u9FFF]{2,}|[A-Za-z]+\d+\w*"
)
_QUESTION_OPENERS = {
    "What",
    "Who",
    "When",
    "Where",
    "Which",
    "Why",
    "How",
    "Is",
    "Are",
    "Was",
    "Were",
    "Did",
    "Does",
    "Do",
    "The",
    "In",
    "On",
    "At",
    "For",
    "Of",
    "A",
    "An",
    "If",
    "Can",
}


def split_sentences(text: str) -> list[str]:
    """Split text into sentences (English punctuation and Japanese 。！？)."""
    parts = [p.strip() for p in _SENTENCE_END.split(text)]
    return [p for p in parts if p]


def key_terms(text: str) -> set[str]:
    """Names, numbers and kanji / katakana runs: terms a passage must share to be on topic."""
    terms = set()
    for match in _KEY_TERM.findall(text):
        term = match.strip(".,")
        if term and term not in _QUESTION_OPENERS:
            terms.add(term.lower())
    return terms
