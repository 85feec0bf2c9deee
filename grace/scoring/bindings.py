"""Phrases of an English question whose words a sentence states in another relation.

The SILENT rule (:mod:`grace.scoring.sentence_check`) asks the cited sentence to state every
content term of the question. A sentence can hold every word and still not say what was
asked, when a phrase of the question binds two of its words and the sentence binds them to
something else. These English constructions fix who or what a word belongs to, and each is
read here from the words alone (no parser):

- **"N of M"** — "the capital of *the Kingdom of Prussia*" names one capital. A sentence
  that says "capital of" only of other things ("the capital of the province of South
  Prussia"), and "Kingdom of Prussia" elsewhere, does not state it. An of-phrase that starts
  with a number gives the value of N ("a total area *of 874 square miles*"), not another
  owner, and never counts against. The same for "into", "from" and "by": "When was the
  hotel converted into a warehouse?" is not said by "built as a warehouse and converted
  into a hotel".
- **"X's N"** — "Tancred's nephew" asks for the nephew *of* Tancred. "his nephew Tancred"
  says that Tancred *is* the nephew: the sentence puts N right before X (an apposition) and
  never "X's N" or "N of X".
- **An active question's roles** — "did *the Swedes* outnumber *the Ostrians*" is not said
  by "the Ostrians outnumbered the Swedes": every use of the verb has the question's object
  before it and its subject after it.
- **A passive question's subject** — "Where were *the French* defeated?" asks where the
  French were defeated. A sentence whose every "were … defeated" has another subject
  before it ("the British were later defeated") and names the French elsewhere states a
  defeat of someone else. A pronoun or a relative word before the verb ("he was
  influenced", "who were defeated") may stand for the question's subject and never counts
  against. Where the sentence uses the verb only actively, the subject asked is its object:
  "When was the harbour wall destroyed?" is not said by "the harbour wall was built after a
  storm destroyed *the old pier*"; "the storm destroyed the harbour wall", "the wall that
  the storm destroyed" and "the wall, destroyed in 1953," say it.

Each check fires only when the sentence holds both words (a missing word is the rule's
first check) and holds the construction with other words: a sentence that words the fact
another way ("the British defeated the French", "Prussia's capital") is not read as a swap.
Japanese marks these relations with particles the rule does not parse; it has no such check.
The constructions come from English grammar (the of-genitive and other binding prepositions,
the s-genitive and apposition, the active's subject and object, the passive's subject), not
from a data set's errors; docs/decisions.md records the runs
that were read when the checks were written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from grace.retrieval.lemmas import all_lemmas
from grace.retrieval.tokenize import ENGLISH_STOPWORDS, tokenize
from grace.text import ENGLISH_WORD, answer_class_indices, normalise_text

__all__ = ["known_forms", "unbound_phrases"]

_DETERMINERS = frozenset({"the", "a", "an", "its", "their", "his", "her"})
_BE = frozenset({"was", "were", "is", "are"})
_BE_ANY = _BE | {"been", "be", "being"}
_DO = frozenset({"did", "does", "do"})
_STANDS_FOR = frozenset(
    {"he", "she", "it", "they", "we", "i", "you", "who", "which", "that", "whom"}
)
"""Words before a passive verb that may stand for the question's subject."""
_WINDOW = 4
"""Words before the auxiliary read as a passive verb's subject."""
_OF_PHRASE = 8
"""Words after "of" read as its phrase (with a coordination: "of adding … or building")."""
_BINDING_PREPOSITIONS = frozenset({"of", "into", "from", "by"})
"""Prepositions that bind their object to the word before them: the owner ("capital *of*
Prussia"), what a thing became ("converted *into* a hotel"), where it came from ("moved
*from* Leeds") and who did it ("painted *by* Munch"). Not "to", "with" or "for", whose
object a sentence often words apart from the verb ("respond to", "associated with")."""


@lru_cache(maxsize=131_072)
def known_forms(word: str) -> frozenset[str]:
    """A word's known forms: itself, its stem and the stems of its lemmas (lemminflect).

    Two words are one term of the SILENT rule when their known forms meet ("went" ~ "go",
    "children" ~ "child"); :mod:`grace.scoring.sentence_check` reads terms with it too.
    """
    lower = word.lower()
    forms = {lower, *tokenize(lower)}
    for lemmas in all_lemmas(lower).values():
        for lemma in lemmas:
            forms.add(lemma)
            forms.update(tokenize(lemma))
    return frozenset(forms)


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


def _of_phrases(question: list[str], sentence: list[str]) -> list[str]:
    """The question's "N of M" (or "V into / from / by M") that the sentence says of others.

    "of" also holds where the sentence puts the owner first ("Prussia's capital").
    """
    framed = answer_class_indices(question)
    out = []
    for i in range(1, len(question) - 1):
        noun, prep = question[i - 1], question[i]
        if prep not in _BINDING_PREPOSITIONS or not _content(noun) or i - 1 in framed:
            continue
        j = _after_determiners(question, i + 1)
        if j >= len(question) or not _content(question[j]):
            continue
        owner = question[j]
        said = [k for k in range(len(sentence) - 1) if sentence[k + 1] == prep and _same(
            sentence[k], noun)]
        if not said or not _has(sentence, owner):
            continue
        if any(_binds_of(sentence, k + 2, owner) for k in said) or (
            prep == "of" and _precedes(sentence, owner, noun)
        ):
            continue
        out.append(f"{noun} {prep} {owner}")
    return out


def _binds_of(sentence: list[str], start: int, owner: str) -> bool:
    """Whether the of-phrase at ``start`` names ``owner`` or a value (a number)."""
    first = _after_determiners(sentence, start)
    if first < len(sentence) and sentence[first][:1].isdigit():
        return True
    return _has(sentence[start : start + _OF_PHRASE], owner)


def _precedes(sentence: list[str], owner: str, noun: str) -> bool:
    """Whether the sentence says "owner('s) noun" ("Prussia's capital", "kingdom capital")."""
    for k in range(len(sentence) - 1):
        word = sentence[k].removesuffix("'s")
        if _same(word, owner) and _same(sentence[k + 1], noun):
            return True
    return False


def _possessives(question: list[str], sentence: list[str]) -> list[str]:
    """The question's "X's N" where the sentence says "N X" (X *is* the N)."""
    out = []
    for i, word in enumerate(question[:-1]):
        owner = word.removesuffix("'s")
        noun = question[i + 1]
        if owner == word or not _content(owner) or not _content(noun):
            continue
        apposed = any(
            _same(sentence[k], noun) and _same(sentence[k + 1], owner)
            for k in range(len(sentence) - 1)
        )
        of_owner = any(
            sentence[k + 1] == "of" and _same(sentence[k], noun)
            and _has(sentence[k + 2 : k + 2 + _OF_PHRASE], owner)
            for k in range(len(sentence) - 1)
        )
        if apposed and not of_owner and not _precedes(sentence, owner, noun):
            out.append(f"{owner}'s {noun}")
    return out


def _participle(word: str) -> bool:
    """A verb form other than the base, the -s and the -ing form ("defeated", "built")."""
    if word.endswith(("ing", "s")) or word in _BE_ANY:
        return False
    verbs = all_lemmas(word).get("VERB", ())
    return any(lemma.lower() != word for lemma in verbs)


def _passive_subject(question: list[str], sentence: list[str]) -> list[str]:
    """A passive question's subject that the sentence's same passive verb never has."""
    aux = next((i for i, w in enumerate(question[:4]) if w in _BE), None)
    if aux is None:
        return []
    verb = next(
        (j for j in range(aux + 2, min(len(question), aux + 7)) if _participle(question[j])),
        None,
    )
    subject = [w for w in question[aux + 1 : verb] if _content(w)] if verb else []
    if verb is None or not subject or not _has(sentence, subject[-1]):
        return []
    head, participle = subject[-1], question[verb]
    auxiliaries = _auxiliaries(sentence, participle)
    if auxiliaries:
        if any(_may_be_subject(sentence, at, head) for at in auxiliaries):
            return []
    elif not _active_elsewhere(sentence, participle, head):
        return []
    return [f"{head} {question[aux]} {participle}"]


def _active_elsewhere(sentence: list[str], participle: str, head: str) -> bool:
    """Whether every use of ``participle`` in the sentence (all active) is of something else.

    The question's passive subject is the active verb's object ("X destroyed *the wall*"):
    a use is of it when its object (the :data:`_OF_PHRASE` words after it: "issued what
    became known as the Kalven Report") holds the head, or when the head stands just before
    it (a relative or participle clause: "the wall that the storm destroyed", "the wall
    destroyed in 1940") or a word that may stand for it does. A participle that opens the
    sentence ("Formed in 1946, the airport …") is a clause about the subject that follows,
    not an active verb: no use counts then; nor does one coordinated with an earlier passive
    ("the mill was built in 1895 and converted in 1987": the mill was converted).
    """
    uses = [k for k, w in enumerate(sentence) if w == participle]
    return bool(uses) and 0 not in uses and not any(
        _may_be_subject(sentence, k, head)
        or _has(sentence[k + 1 : k + 1 + _OF_PHRASE], head)
        or _coordinated_passive(sentence, k, head)
        for k in uses
    )


def _coordinated_passive(sentence: list[str], at: int, head: str) -> bool:
    """Whether the verb at ``at`` follows "and" / "or" after a passive whose subject is ``head``."""
    if sentence[at - 1] not in ("and", "or"):
        return False
    be = [k for k in range(at - 1) if sentence[k] in _BE_ANY]
    return bool(be) and _may_be_subject(sentence, be[-1], head)


def _auxiliaries(sentence: list[str], participle: str) -> list[int]:
    """Where a form of *be* stands before ``participle`` (one adverb may come between)."""
    return [
        k - step for k, w in enumerate(sentence) if w == participle
        for step in (1, 2) if k - step >= 0 and sentence[k - step] in _BE_ANY
    ]


def _may_be_subject(sentence: list[str], at: int, head: str) -> bool:
    """Whether the words before the auxiliary at ``at`` hold ``head`` or a word for it."""
    before = sentence[max(0, at - _WINDOW) : at]
    return _has(before, head) or any(w in _STANDS_FOR for w in before)


def _active_roles(question: list[str], sentence: list[str]) -> list[str]:
    """An active question's subject and object that the sentence has the other way round.

    "By how much did *the Swedes* outnumber *the Ostrians*?" against "the Ostrians
    outnumbered the Swedes": every use of the verb has the object before it (as its subject)
    and the subject after it.
    """
    aux = next((i for i, w in enumerate(question[:4]) if w in _DO), None)
    if aux is None:
        return []
    verb = next((j for j in range(aux + 2, min(len(question), aux + 6)) if _base_verb(
        question[j])), None)
    if verb is None:
        return []
    subject = [w for w in question[aux + 1 : verb] if _content(w)]
    after = _after_determiners(question, verb + 1)
    if not subject or after >= len(question) or not _content(question[after]):
        return []
    head, obj = subject[-1], question[after]
    uses = [k for k, w in enumerate(sentence) if _same(w, question[verb])]
    if uses and all(_swapped_at(sentence, k, head, obj) for k in uses):
        return [f"{head} {question[verb]} {obj}"]
    return []


def _swapped_at(sentence: list[str], at: int, subject: str, obj: str) -> bool:
    """Whether the verb at ``at`` has ``obj`` before it (not ``subject``) and ``subject`` after."""
    before = sentence[max(0, at - _WINDOW) : at]
    return (
        _has(before, obj)
        and not _has(before, subject)
        and _has(sentence[at + 1 : at + 1 + _WINDOW], subject)
    )


def _base_verb(word: str) -> bool:
    """A verb's base form ("outnumber", "defeat"), as after *did*."""
    return word in all_lemmas(word).get("VERB", ())


_CHECKS: tuple[Callable[[list[str], list[str]], list[str]], ...] = (
    _of_phrases,
    _possessives,
    _passive_subject,
    _active_roles,
)
"""The constructions read, in the order their phrases are reported."""


def unbound_phrases(question: str, sentence: str) -> tuple[str, ...]:
    """Phrases of an English ``question`` whose words ``sentence`` binds otherwise.

    >>> unbound_phrases("When did Warsaw become the capital of the Kingdom of Prussia?",
    ...                 "Warsaw was annexed by the Kingdom of Prussia to become the "
    ...                 "capital of the province of South Prussia.")
    ('capital of kingdom',)
    """
    q = ENGLISH_WORD.findall(normalise_text(question).replace("’", "'"))
    s = ENGLISH_WORD.findall(normalise_text(sentence).replace("’", "'"))
    found: list[str] = []
    for check in _CHECKS:
        found.extend(p for p in check(q, s) if p not in found)
    return tuple(found)
