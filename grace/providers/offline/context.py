"""What a passage sentence is about beyond its own words: the context splitting took away.

A chunk is one paragraph of a document; its sentences often do not name what they are about:

- the **document title** and the **heading path** name the subject of every sentence under
  them ("Its main telescope has a 1.2-metre mirror" under *Telescope* on the *Grellan
  Observatory* page is about the Grellan Observatory's telescope);
- a sentence whose subject is a **pronoun** ("It closed to the public in 1987", "Its …",
  「その後…」) or, in Japanese, **elided** (no topic or subject marked before its first
  clause ends: 「1931年に電化された。」) is about the subject of the sentence before it —
  or, at the start of a passage, about the section or the document.

:func:`passage_context` splits a passage into its body sentences (Markdown heading lines
removed: they are context, never part of an answer) and gives each the tokens of what it is
about. The reader counts those tokens (at ``CONTEXT_WEIGHT`` and ``SUBJECT_WEIGHT`` of
:mod:`grace.providers.offline.evidence`) when it matches the question; the answer quotes the
sentence as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from grace.patterns import lazy
from grace.providers.offline.word_forms import match_tokens
from grace.retrieval.lemmas import all_lemmas
from grace.schemas import Source
from grace.text import is_japanese, question_line, split_sentences

__all__ = [
    "PassageContext",
    "has_zero_subject",
    "names_its_document",
    "passage_context",
    "refers_back",
    "sentence_subject",
]

_HEADING_LINE = lazy(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")
_QUESTION_END = lazy(r"[?？][*_\s]*$")
"""A heading that ends in a question mark asks a question (an FAQ's)."""
_ANSWER_LABEL = lazy(r"^\s*(?:\*\*|__)?\s*(?:A\d*|答え?|回答)\s*[:：.．、]\s*(?:\*\*|__)?\s*")
"""The label of an answer under a question line: ``A:``, 「A：」, 「答え：」."""
_EN_PRONOUN = lazy(
    r"^(?:it|its|he|his|she|her|they|their|this|these|those|the latter|the former|there)\b",
    re.I,
)
_EN_FRONTED = lazy(
    r"^(?:(?:in|on|at|by|after|before|during|since|from|until|for|within|under)\s+[^,.;]{1,40}?"
    r"(?:,\s*|\s+(?=(?:the|a|an|this|these|those|there|it|its|he|his|she|her|they|their)\b))"
    r"|(?:later|then|today|soon|afterwards|eventually|meanwhile),?\s+)",
    re.I,
)
"""A fronted time or place phrase ("In 2021 …", "After the war, …", "Later, …"): English puts
such a phrase before the subject. It ends at a comma or where a determiner or a pronoun
begins the subject; the subject after it is the sentence's ("In 2021 it opened …" refers
back as "It opened …" does, "In 2021 the company opened …" as "The company opened …")."""
_EN_DEFINITE = lazy(r"^The ([a-z][a-z-]+) ([A-Za-z]+)")
"""A sentence that opens with *the* and one common noun before its verb ("The shop was …")."""
_JA_PRONOUN = lazy(r"^(?:その|この|同|彼|彼女|これ|それ|ここ|そこ|当時|以後|以来|翌年|後に)")
_JA_MARKER = r"(?:(?<=[^\u3040-\u309f])(?:は|が)|では|には)(?=[^\u3040-\u309f]|、)"
"""A topic or subject marker: は / が after a noun (not the は of あるいは), or では / には."""
_JA_TOPIC = lazy(rf"^[^、。]{{1,20}}?{_JA_MARKER}")
"""A Japanese sentence's topic or subject: the text before its first marker."""
_JA_MARKED = lazy(_JA_MARKER)
"""A topic or subject marker anywhere in a Japanese sentence."""
_EN_WORD = lazy(r"[A-Za-z][\w'-]*")
_SUBJECT_WORDS = 8
"""Longest English subject taken from a sentence (words before its verb)."""


@dataclass(frozen=True)
class PassageContext:
    """A passage's body sentences, each with the tokens of what it is about."""

    sentences: list[str]
    """The passage's sentences, heading lines removed."""
    about: list[set[str]]
    """Per sentence: tokens of the title and the heading path."""
    subject: list[set[str]]
    """Per sentence: tokens of the subject its pronoun or elided subject refers to."""
    headings: str
    """The heading path (from the passage's location and its own heading lines)."""
    answers: list[str] = field(default_factory=list)
    """Per sentence: the question (an FAQ's heading or ``Q:`` line) it is the first sentence
    under, ``""`` for every other sentence."""
    under: list[str] = field(default_factory=list)
    """Per sentence: the question it is under (its answer and what qualifies it), or ``""``."""


@lru_cache(maxsize=65_536)
def _is_verb(word: str) -> bool:
    lemmas = all_lemmas(word.lower())
    return ("VERB" in lemmas or "AUX" in lemmas) and "NOUN" not in lemmas


def _definite_description(text: str) -> bool:
    """The sentence's subject is *the* and one common noun: "The shop was founded in 1994".

    A definite article with a bare noun presupposes a referent the reader already knows: in
    a paragraph about Hollow Oak Books, "the shop" is Hollow Oak Books, as "it" would be. A
    noun with a modifier ("The current owner", "The first church") introduces something new.
    """
    match = _EN_DEFINITE.match(text)
    if match is None:
        return False
    return _is_verb(match.group(2)) and not _is_verb(match.group(1))


@lru_cache(maxsize=65_536)
def sentence_subject(sentence: str) -> str:
    """The subject a sentence states, as written (``""`` when it has none of its own).

    English: the words before the first verb ("The Grellan Observatory opened …" → "The
    Grellan Observatory"); Japanese: the text before the first は / が. A pronoun subject is
    not a subject of its own (the caller resolves it).
    """
    text = sentence.strip()
    if is_japanese(text):
        if _JA_PRONOUN.match(text):
            return ""
        topic = _JA_TOPIC.match(text)
        return topic.group(0) if topic else ""
    if refers_back(text):
        return ""
    words: list[str] = []
    for match in _EN_WORD.finditer(_without_fronted(text)):
        word = match.group(0)
        if (words and _is_verb(word)) or len(words) >= _SUBJECT_WORDS:
            break
        words.append(word)
    return " ".join(words) if len(words) < _SUBJECT_WORDS else ""


@lru_cache(maxsize=65_536)
def refers_back(sentence: str) -> bool:
    """The sentence's subject is a pronoun, a bare definite noun or (Japanese) elided.

    A bare definite noun: "The shop was founded …" (:func:`_definite_description`); either
    after a fronted time or place phrase: "In 2021 it opened …", "In 2021 the company
    opened …" (:data:`_EN_FRONTED`).
    """
    text = sentence.strip()
    if is_japanese(text):
        return bool(_JA_PRONOUN.match(text)) or not _JA_TOPIC.match(text)
    rest = _without_fronted(text)
    return bool(_EN_PRONOUN.match(rest)) or _definite_description(rest[:1].upper() + rest[1:])


def _without_fronted(text: str) -> str:
    """An English sentence less its fronted time or place phrase (:data:`_EN_FRONTED`)."""
    fronted = _EN_FRONTED.match(text)
    return text[fronted.end() :] if fronted else text


_JA_DEIXIS = lazy(r"当(?:県|府|都|道|市|区|町|村|社|校|寺|院|館|島|駅|園|局|団)")
"""「当県」「当社」「当館」: *this* prefecture, company, museum — the one the text is about."""


def names_its_document(sentence: str) -> bool:
    """A Japanese sentence that names its subject by 「当県」「当社」…: the document's subject.

    「…当県は地域により細かく事業者が分かれている。」 on the *和歌山県* page says 和歌山県, as a
    zero subject would (:func:`has_zero_subject`).
    """
    return _JA_DEIXIS.search(sentence) is not None


@lru_cache(maxsize=65_536)
def has_zero_subject(sentence: str) -> bool:
    """A Japanese sentence that marks no topic or subject anywhere: its subject is elided.

    Stricter than :func:`refers_back`, which looks at the first clause only
    (「2009年10月2日、…開催が決定した。」 names its subject after the date) and counts a
    pronoun (「彼らは…」) as referring back: a pronoun is a subject the sentence states.
    """
    text = sentence.strip()
    return (
        is_japanese(text)
        and _JA_PRONOUN.match(text) is None
        and _JA_MARKED.search(text) is None
    )


def _split_headings(text: str) -> tuple[list[str], list[tuple[str, str]]]:
    """Heading lines of ``text`` (their titles) and the text without them, by question.

    The text is cut before each heading or line that asks a question
    (:func:`~grace.text.question_line`;
    a heading ending in ``?``): each piece is (the question, "" before the first, the text
    under it, its answer label — ``A:`` — dropped). A text without such a line is one piece.
    """
    headings: list[str] = []
    pieces: list[tuple[str, list[str]]] = [("", [])]
    for line in text.split("\n"):
        match = _HEADING_LINE.match(line)
        asked = question_line(match.group(1) if match else line)
        if asked is None and match and _QUESTION_END.search(match.group(1)):
            asked = match.group(1).strip("*_ ")
        if asked is not None:
            headings.append(match.group(1) if match else asked)
            pieces.append((asked, []))
        elif match:
            headings.append(match.group(1))
        else:
            question, lines = pieces[-1]
            if question and not any(t.strip() for t in lines):
                line = _ANSWER_LABEL.sub("", line, count=1)
            lines.append(line)
    return headings, [(q, "\n".join(lines)) for q, lines in pieces]


def passage_context(passage: Source) -> PassageContext:
    """The passage's sentences and, per sentence, what it is about (module docstring).

    The first sentence under a question (an FAQ's heading or ``Q:`` line) answers it: an
    answer leaves out what its question said ("A flat 5 euros anywhere in the country."
    under "How much is shipping?"), so the question's tokens are what that sentence is about,
    as a pronoun's antecedent is (``subject``), and it is marked as the question's answer
    (``answers``). The sentences after it are under the question as under any heading.
    """
    own, pieces = _split_headings(passage.text)
    located = passage.location[2:] if passage.location.startswith("§ ") else ""
    path = [p.strip() for p in located.split(" > ") if p.strip()]
    headings = " > ".join([*path, *(h for h in own if h not in path)])
    base = set(_tokens_of(f"{passage.title} {headings}"))
    sentences: list[str] = []
    referred: list[set[str]] = []
    answers: list[str] = []
    under: list[str] = []
    subject = ""
    for question, body in pieces:
        subject = "" if question else subject  # a new question: a new topic
        for k, sentence in enumerate(split_sentences(body)):
            first = bool(question) and k == 0
            answers.append(question if first else "")
            under.append(question)
            if first:
                referred.append(set(_tokens_of(question)))
            else:
                referred.append(
                    set(_tokens_of(subject)) if subject and refers_back(sentence) else set()
                )
            subject = sentence_subject(sentence) or subject
            sentences.append(sentence)
    return PassageContext(
        sentences=sentences,
        about=[base] * len(sentences),
        subject=referred,
        headings=headings,
        answers=answers,
        under=under,
    )


@lru_cache(maxsize=16_384)
def _tokens_of(text: str) -> frozenset[str]:
    """:func:`match_tokens` of a title, heading path or subject (they repeat across chunks)."""
    return frozenset(match_tokens(text))
