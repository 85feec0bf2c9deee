"""The words the English readings share: vocabulary, known forms and word classes.

:func:`known_forms` is also the SILENT rule's notion of a term said in another form
(:mod:`grace.scoring.sentence_check`). Word classes come from lemminflect's readings of a word
(a noun, a verb's base or inflected form, an adverb), never from a data set.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType

from grace.retrieval.lemmas import all_inflections, all_lemmas
from grace.retrieval.tokenize import tokenize
from grace.text import ENGLISH_STOPWORDS, ENGLISH_WORD

__all__ = ["finite_verb", "known_forms", "unchanged_past"]

_DETERMINERS = frozenset({"the", "a", "an", "its", "their", "his", "her"})
_RELATIVES = frozenset({"who", "which", "that", "whose", "whom"})
"""Words that open a relative clause, whose verb is not the main clause's."""
_PARTICLES = frozenset({"over", "up", "down", "out", "off", "away", "back"})
"""Particles of phrasal verbs ("taken *over*", "set *up*")."""
_ARTICLES = frozenset({"the", "a", "an"})
"""Articles: before a noun of an event that names no one ("*the* opening of")."""
_BE = frozenset({"was", "were", "is", "are"})
_BE_ANY = _BE | {"been", "be", "being"}
_DO = frozenset({"did", "does", "do"})
_OF_PHRASE = 8
"""Words after "of" read as its phrase (with a coordination: "of adding … or building")."""
_GRADED = frozenset({"ADJ", "ADV"})
"""Parts of speech whose lemma drops a degree ("smallest" → "small")."""


@lru_cache(maxsize=131_072)
def known_forms(word: str) -> frozenset[str]:
    """A word's known forms: itself, its stem and the stems of its lemmas (lemminflect).

    Two words are one term of the SILENT rule when their known forms meet ("went" ~ "go",
    "children" ~ "child"); :mod:`grace.scoring.sentence_check` reads terms with it too. A
    superlative keeps its degree: "the smallest stage" is not said by "smaller stages" (nor
    "best" by "good"), so its adjective's and adverb's lemmas are not its forms.
    """
    lower = word.lower()
    forms = {lower, *tokenize(lower)}
    for pos, lemmas in all_lemmas(lower).items():
        if pos in _GRADED and lower.endswith("est"):
            continue  # a superlative is its own degree: "smallest" is not "smaller"
        for lemma in lemmas:
            forms.add(lemma)
            forms.update(tokenize(lemma))
    return frozenset(forms)


@lru_cache(maxsize=65_536)
def _lemmas(word: str) -> Mapping[str, tuple[str, ...]]:
    """:func:`~grace.retrieval.lemmas.all_lemmas`, looked up once per word (read-only).

    The readings ask a word's parts of speech many times per check; the table lookup is
    not cached by itself.
    """
    return MappingProxyType(all_lemmas(word))


def _uses(words: Sequence[str], word: str) -> list[int]:
    """Where ``words`` hold ``word`` in a known form (:func:`known_forms`)."""
    return [k for k, w in enumerate(words) if _same(w, word)]


def _same(a: str, b: str) -> bool:
    return a == b or bool(known_forms(a) & known_forms(b))


def _content(word: str) -> bool:
    return len(word) > 1 and word not in ENGLISH_STOPWORDS and not word[:1].isdigit()


def _has(words: Sequence[str], word: str) -> bool:
    return any(_same(w, word) for w in words)


def _after_determiners(words: Sequence[str], start: int) -> int:
    while start < len(words) and words[start] in _DETERMINERS:
        start += 1
    return start


def _inflected_verb(word: str) -> bool:
    """A verb form other than the base ("reaches", "opened"; not "the *works*")."""
    return word not in _BE_ANY and any(
        lemma != word for lemma in _lemmas(word).get("VERB", ())
    )


def _participle(word: str) -> bool:
    """A verb form other than the base, the -s and the -ing form ("defeated", "built")."""
    if word.endswith(("ing", "s")) or word in _BE_ANY:
        return False
    verbs = _lemmas(word).get("VERB", ())
    return any(lemma.lower() != word for lemma in verbs)


def _verb_form(word: str) -> bool:
    """An inflected verb or a participle ("elected", "opens"; not the noun "election")."""
    return _inflected_verb(word) or _participle(word)


def _noun_phrase_word(word: str) -> bool:
    """A content word that is no verb form (a word of a noun phrase)."""
    return _content(word) and not _verb_form(word)


def _base_verb(word: str) -> bool:
    """A verb's base form ("outnumber", "defeat"), as after *did*."""
    return word in _lemmas(word).get("VERB", ())


@lru_cache(maxsize=16_384)
def unchanged_past(word: str) -> bool:
    """A verb's base form that is its past too ("cast", "put", "read"; not "plant").

    LemmInflect's inflection table gives the past; such a word after a wh-subject and before
    a determiner is the question's verb ("Which foundry *cast* the copy?").
    """
    return _base_verb(word) and word in all_inflections(word).get("VBD", ())


def finite_verb(word: str) -> bool:
    """A verb form that may be a clause's finite verb, other than *be* ("reads", "cast")."""
    return _inflected_verb(word) or unchanged_past(word)


def _past_before_object(question: Sequence[str], at: int) -> bool:
    """Whether the word at ``at`` is a past like its base with a determiner after it.

    "Which foundry *cast the* copy?": the verb of a question that asks for its subject. A
    base form with a particle after it is left unread ("Who *set up* …?").
    """
    return unchanged_past(question[at]) and question[at + 1 : at + 2] != [] and (
        question[at + 1] in _DETERMINERS
    )


def _adverb(word: str) -> bool:
    """An adverb that may stand between a subject and its verb ("usually", "later")."""
    return word.endswith("ly") or set(_lemmas(word)) == {"ADV"}


def _nominal(word: str) -> bool:
    """A content word with a noun reading, or a name lemminflect does not know."""
    lemmas = _lemmas(word)
    return _content(word) and (not lemmas or "NOUN" in lemmas)


def _noun_only(word: str) -> bool:
    """A content word whose only reading is a noun ("college", "status"; not "research")."""
    return _content(word) and set(_lemmas(word)) == {"NOUN"}


def _proper(word: str) -> bool:
    """A capitalised content word (a name or a proper adjective)."""
    return word[:1].isupper() and not word.endswith("'s") and _content(word.lower())


def _common(word: str) -> bool:
    """A lower-case noun (a common noun, not part of a name; "defeated" is not one)."""
    return word[:1].islower() and _content(word) and "NOUN" in _lemmas(word)


def _object_after(words: list[str], at: int) -> str:
    """The word after ``at`` past any determiners ("" at the end)."""
    j = _after_determiners(words, at + 1)
    return words[j] if j < len(words) else ""


def _cased(text: str) -> list[str]:
    """The words of ``text`` as written (NFKC, not lower-cased)."""
    return ENGLISH_WORD.findall(_normal(text))


def _normal(text: str) -> str:
    """``text`` as the readings tokenise it: NFKC, its typographic apostrophes plain."""
    return unicodedata.normalize("NFKC", text).replace("’", "'")


def _after_comma(text: str) -> list[bool]:
    """For each word of ``text`` (:func:`_cased`), whether a comma stands right before it."""
    norm = _normal(text)
    out: list[bool] = []
    end = 0
    for match in ENGLISH_WORD.finditer(norm):
        out.append("," in norm[end : match.start()] or (end > 0 and norm[end - 1] == ","))
        end = match.end()
    return out


def _find(words: list[str], marker: tuple[str, ...]) -> int | None:
    return next(
        (i for i in range(len(words) - len(marker) + 1)
         if tuple(words[i : i + len(marker)]) == marker),
        None,
    )


def _content_before(words: list[str], at: int) -> str | None:
    return next((w for w in reversed(words[max(0, at - 2) : at]) if _content(w)), None)


def _content_after(words: list[str], at: int) -> str | None:
    return next((w for w in words[at : at + 3] if _content(w)), None)


def _given_name(question: list[str], head: str, verb: int) -> str | None:
    """The word before a do-question's subject head, if it names it too ("*Gerald* Tennock")."""
    at = next((i for i in range(verb - 1, 0, -1) if question[i] == head), None)
    before = question[at - 1] if at else None
    return before if before and _name_word(before) else None


def _name_word(word: str) -> bool:
    """A content word the lexicon does not know: a given name ("gerald", "hugh")."""
    return _content(word) and not _lemmas(word)
