"""Whether an answer sentence has the shape of an answer to its question (learned-model features).

Three general properties of a question and the sentence quoted as its answer, measured as
features for the learned confidence model (none a veto; they are among
:data:`grace.scoring.features.FEATURE_NAMES`, figures in docs/confidence.md, "Answer-shape
features").

- :func:`restates_question` — the question asks for something (a wh-question, or a Japanese
  "…のは？" / "…は？" cleft) and the sentence names nothing the question does not: it restates
  the question without the answer. Typical in Japanese, where the subject is elided when it is
  the article's topic (「…寄港している。」 for 「…が寄港した場所は？」): the answer is in the
  title or an earlier sentence, not in what is quoted.
- :func:`quantity_swap` — the question counts something ("up to *three months*", "the *20th*
  century", 「*3*か月」) and the sentence counts the same unit only with another number
  ("up to one month"): SQuAD 2.0's swapped number.
- :func:`phrase_share` — the share of the question's adjacent content-word pairs that are also
  adjacent in the sentence (English): an adversarial question recombines the passage's words
  ("an *efficiency engine*" against "engines … where efficiency was important").
"""

from __future__ import annotations

import re
import unicodedata

from grace.patterns import lazy
from grace.providers.offline.word_forms import match_tokens
from grace.text import asks_for_the_topic, is_japanese, is_yes_no_question, without_citations

__all__ = [
    "is_slot_question",
    "phrase_share",
    "quantity_swap",
    "restates_question",
    "subject_absent",
]

_JA_WH = lazy(r"何|なに|誰|だれ|どこ|いつ|どの|どんな|どう|いくつ|いくら|どれ|なぜ")
_JA_TERM = lazy(r"[\u30A0-\u30FF\u4E00-\u9FFF]{2,}|[^\W_\u3040-\u30FF\u4E00-\u9FFF]+")
"""What can name an answer in Japanese text: kanji / katakana runs of two or more, Latin words
and numbers (hiragana is mostly grammar)."""
_NUMBER_WORDS = {
    w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven "
                                "twelve".split())
}
_EN_QUANTITY = lazy(
    r"\b(\d+(?:st|nd|rd|th)?|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
    r"\s+([a-z]+)"
)
_JA_QUANTITY = lazy(r"(\d+)\s*(か月|ヶ月|カ月|[\u4E00-\u9FFF])")
_DO_SUBJECT = lazy(
    r"\b(?:did|does|do)\s+(?:(?:the|a|an|its|their|his|her|this|that|these|those)\s+)?"
    r"([^\W\d_][\w'-]*)",
    re.I,
)
"""The first word of the subject of a do-support question, after its determiner: "What did
*Toyota* rebrand …", "How does *the* **engine** work"."""


def _plain(text: str) -> str:
    return unicodedata.normalize("NFKC", without_citations(text)).strip()


def is_slot_question(question: str) -> bool:
    """Whether the question asks for a value (who / what / when …), not for yes or no."""
    q = _plain(question)
    if is_japanese(q):
        return bool(_JA_WH.search(q)) or asks_for_the_topic(q)
    return bool(q) and not is_yes_no_question(q)


def restates_question(question: str, answer: str) -> float:
    """1.0 when a Japanese answer names nothing the question does not, though it asks for a value.

    Every kanji / katakana run, Latin word and number of the answer occurs in the question as
    written. 0.0 for no answer and for yes / no questions (restating is then answering), and
    for English: an English sentence states its subject, so one that repeats the question's
    words still names something ("Construction is the process of constructing …"); a stemmed
    comparison cannot tell that subject from the question's verb.
    """
    a, q = _plain(answer), _plain(question)
    if not a or not is_japanese(q) or not is_slot_question(q):
        return 0.0
    asked = q.lower()
    return float(all(term.lower() in asked for term in _JA_TERM.findall(a)))


def _quantities(text: str) -> set[tuple[int, str]]:
    """(number, unit) pairs: "three months" → (3, "month"); 「3か月」 → (3, "か月")."""
    out: set[tuple[int, str]] = set()
    for number, unit in _EN_QUANTITY.findall(text):
        stems = match_tokens(unit)
        digits = re.match(r"\d+", number)
        if stems:
            out.add((int(digits.group(0)) if digits else _NUMBER_WORDS[number], stems[0]))
    if not text.isascii():  # ASCII text has no kanji: its kanji-range pattern is not compiled
        for number, unit in _JA_QUANTITY.findall(text):
            out.add((int(number), unit))
    return out


def quantity_swap(question: str, answer: str) -> float:
    """1.0 when a unit the question counts is counted in the answer only with another number."""
    asked = _quantities(_plain(question).lower())
    stated = _quantities(_plain(answer).lower())
    for number, unit in asked:
        others = {n for n, u in stated if u == unit}
        if others and number not in others:
            return 1.0
    return 0.0


def phrase_share(question: str, answer: str) -> float:
    """Share of the question's adjacent content-word pairs also adjacent in the answer (English).

    0.0 for no answer; 1.0 when there is nothing to compare: a Japanese question (its tokens
    are words and character bigrams, whose adjacency the lexical features already measure),
    or one with fewer than two content words.
    """
    q, a = _plain(question), _plain(answer)
    if not a:
        return 0.0
    if is_japanese(q):
        return 1.0
    qt, at = match_tokens(q), match_tokens(a)
    pairs = set(zip(qt, qt[1:], strict=False))
    if not pairs:
        return 1.0
    return len(pairs & set(zip(at, at[1:], strict=False))) / len(pairs)


def subject_absent(question: str, answer: str) -> float:
    """1.0 when the subject of an English do-support question is not named in the answer.

    "What did Toyota rebrand its Forte as?" names its subject (Toyota) after "did"; the
    answer "Mitsubishi rebranded its Forte as the Dodge D-50." states what another did. The
    subject's first word is compared after stemming ("Davies" ~ "Davies'"). 0.0 for no
    answer, for a Japanese question, for a question without do-support, and for a subject
    that is only a function word ("What did it …", "What does not …").
    """
    q, a = _plain(question), _plain(answer)
    if not a or is_japanese(q):
        return 0.0
    match = _DO_SUBJECT.search(q)
    subject = match_tokens(match.group(1)) if match else []
    if not subject:
        return 0.0
    return float(subject[0] not in set(match_tokens(a)))
