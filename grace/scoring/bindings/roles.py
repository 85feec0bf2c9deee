"""Who does what: a question's subject and object in the sentence's clauses.

The passive's subject and agent, the active's roles, pronoun and other subjects, coordinated
and relative clauses, and the verb a count belongs to (see :mod:`grace.scoring.bindings`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import takewhile

from grace.scoring.bindings.words import (
    _ARTICLES,
    _BE,
    _BE_ANY,
    _DETERMINERS,
    _DO,
    _OF_PHRASE,
    _PARTICLES,
    _RELATIVES,
    _adverb,
    _after_comma,
    _after_determiners,
    _base_verb,
    _content,
    _find,
    _given_name,
    _has,
    _inflected_verb,
    _lemmas,
    _name_word,
    _nominal,
    _noun_phrase_word,
    _object_after,
    _participle,
    _past_before_object,
    _proper,
    _same,
    _uses,
    _verb_form,
)

_MODALS = frozenset({"can", "could", "may", "might", "must", "shall", "should", "will", "would"})
"""Modal auxiliaries: like *do*, they put the subject before a base-form verb."""
_DO_OR_MODAL = _DO | _MODALS
"""What opens a do-question's clause ("did", "must" …)."""
_STANDS_FOR = frozenset(
    {"he", "she", "it", "they", "we", "i", "you", "who", "which", "that", "whom"}
)
"""Words before a passive verb that may stand for the question's subject."""
_AFTER_PASSIVE = frozenset(
    {"in", "at", "on", "by", "for", "from", "during", "between", "after", "before", "and"}
)
"""Words that follow a passive participle where an active verb would take its object."""
_CLAUSE_OPENERS = frozenset(
    {"but", "while", "whereas", "although", "though", "after", "because", "since", "until"}
)
"""Conjunctions that open a clause with a subject of its own ("…, but adult sheep recover",
"… declared war after Aldmark raised the tolls"). Not a relative word: "the Tower Theatre
…, which at that time showed" is the theatre's."""
_HAVE = frozenset({"have", "has", "had"})
"""The perfect's auxiliary."""
_REFLEXIVES = frozenset({"itself", "himself", "herself", "themselves"})
"""Objects that are the subject again."""
_PRONOUNS = frozenset({"he", "she", "it", "they"})
"""Personal pronouns a verb's subject may be."""
_WINDOW = 4
"""Words before the auxiliary read as a passive verb's subject."""
_AGENT_REACH = 10
"""Words after a passive verb its agent's *by* may stand within ("was founded in the town of
Orsa in 1988 *by* …")."""
_NP_PREPOSITIONS = frozenset({"of", "at", "in", "on"})
"""Prepositions inside a noun phrase a relative word may stand for ("the mill at Hollin
Ford, which …")."""
_SUBJECT_CUTS = _NP_PREPOSITIONS | {"to", "with", "from", "for"}
"""Prepositions after a long question's subject head, passive or do ("the *railway* to the
port", "the *wing* with a reading room")."""
_POSTMODIFIERS = _NP_PREPOSITIONS | {"from"}
"""Prepositions of a noun phrase before a relative word: those above, and *from* ("a grain
merchant from Dunmouth, who …" is the merchant)."""


def _passive_subject(question: list[str], sentence: list[str]) -> list[str]:
    """A passive question's subject that the sentence's same passive verb never has."""
    clause = _passive_clause(question)
    if clause is None:
        return []
    aux, subject, verb, long = clause
    if not subject or not _has(sentence, subject[-1]):
        return []
    head, participle = subject[-1], question[verb]
    phrase = f"{head} {question[aux]} {participle}"
    if long:
        uses = [k for k, w in enumerate(sentence) if w == participle]
        return [phrase] if _long_subject_unsaid(sentence, subject, uses) else []
    auxiliaries = _auxiliaries(sentence, participle)
    if auxiliaries:
        subjects = [at for at in auxiliaries if _may_be_subject(sentence, at, head)]
        modifier = _modifier_elsewhere(sentence, subjects, subject[:-1], head)
        if subjects and modifier is None:
            return []
        if modifier is not None:
            phrase = f"{modifier} {phrase}"
    elif not _active_elsewhere(sentence, participle, head):
        return []
    return [phrase]


def _long_do_subject(question: list[str], sentence: list[str]) -> list[str]:
    """A do-question's long subject that no use of its verb has (:func:`_long_subject_unsaid`).

    "In what year did the new wing with a reading room and a billiard room open?" is not
    said by "… planned a new wing containing a reading room and a billiard room, but the
    scheme was abandoned after a rival establishment … opened in 1824". Read only where the
    subject runs past the reach of :func:`_do_subject` (five words or more), as one noun
    phrase (:func:`_noun_phrase_to`) up to its verb (:func:`_long_do_verb`); its head is
    before its first preposition.
    """
    if _do_subject(question) is not None:
        return []
    aux = next((i for i, w in enumerate(question) if w in _DO_OR_MODAL), None)
    if aux is None:
        return []
    verb = _noun_phrase_to(question, aux, lambda j: _long_do_verb(question, j), start=aux + 6)
    if verb is None:
        return []
    words = question[aux + 1 : verb]
    subject = [w for w in _before_cut(words) if _content(w) and not _adverb(w)]
    if not subject or not _has(sentence, subject[-1]):
        return []
    uses = [
        k for k in _uses(sentence, question[verb])
        if k == 0 or not (sentence[k - 1] in _DETERMINERS or sentence[k - 1] == "to")
    ]
    if _long_subject_unsaid(sentence, subject, uses):
        return [f"{subject[-1]} {question[verb]}"]
    return []


def _long_do_verb(question: list[str], at: int) -> bool:
    """Whether the word at ``at`` is a long do-question's verb.

    A base form that ends the question ("… by way of Brindle Hill *open*?") or, if it may
    not be a noun, has a determiner after it ("… *close* the factory"). A word that may be
    a noun inside the phrase ("a billiard *room* and") is not read as one.
    """
    word = question[at]
    if not _base_verb(word) or question[at - 1].endswith("'s"):
        return False
    return at == len(question) - 1 or (
        question[at + 1] in _DETERMINERS and not _nominal(word)
    )


def _long_subject_unsaid(sentence: list[str], subject: list[str], uses: list[int]) -> bool:
    """Whether no use of the verb (at ``uses``) has the long subject's head in its clause.

    "When was Pennock's branch railway to the port of Saltmouth opened?" is not said by
    "Pennock planned a branch railway to the port of Saltmouth, but …, and coal was sent
    instead by the North Dunmere Railway from a siding opened in 1858": before "opened" in
    its clause the only "railway" has no "branch" before it. A use has the subject where
    the head, with the modifiers (not a possessive) the sentence states before it or in a
    name after it ("the prototype Pellworth P.19 *Swift*"), stands in the verb's clause
    before it (after the last :data:`_CLAUSE_OPENERS` word: "… abandoned
    *after* a rival establishment … opened" is the establishment's), or a word that may
    stand for it is just before it, or the head is its object or the subject of a passive
    it is coordinated with. A predicate after "and" / "or" with no subject of its own has the
    one before it ("the scheme was postponed after a dispute …, and was finally dropped" drops
    the scheme). A participle that opens the sentence is about what follows.
    """
    head = subject[-1]
    modifiers = [m for m in subject[:-1] if not m.endswith("'s") and _has(sentence, m)]
    if not uses or 0 in uses:
        return False
    return not any(
        _has(_object_words(sentence, k), head)
        or _coordinated_passive(sentence, k, head)
        or _subject_in_clause(sentence, k, head, modifiers)
        for k in uses
    )


def _subject_in_clause(sentence: list[str], k: int, head: str, modifiers: list[str]) -> bool:
    """Whether the verb at ``k`` has ``head`` (with ``modifiers``) or a word for it before it.

    In its clause (see :func:`_long_subject_unsaid`), past its auxiliary, or the auxiliary
    of the predicate it is coordinated with.
    """
    at = next((k - s for s in (1, 2) if k - s >= 0 and sentence[k - s] in _BE_ANY), k)
    if at > 1 and sentence[at - 1] in ("and", "or"):
        # "… was postponed …, and was finally dropped": the earlier predicate's subject
        at = next((i for i in range(at - 2, -1, -1) if sentence[i] in _BE_ANY), at)
    start = max((i + 1 for i in range(at) if sentence[i] in _CLAUSE_OPENERS), default=0)
    return any(w in _STANDS_FOR for w in sentence[max(start, at - _WINDOW) : at]) or any(
        _same(sentence[j], head)
        and all(_has(sentence[max(0, j - _MODIFIER_REACH) : j + 1 + _WINDOW], m) for m in modifiers)
        for j in range(start, at)
    )


_MODIFIER_REACH = 3
"""Words before a head within which its modifiers stand ("Pennock's *branch* railway")."""


def _passive_clause(question: list[str]) -> tuple[int, list[str], int, bool] | None:
    """A passive question's auxiliary, subject words, participle and whether it is long.

    ("When *was* the wall *destroyed*?".) The participle is the first within five words
    after the subject's first word; one with its agent after it modifies the subject ("the
    building *designed by* Lisbet Ammacher destroyed"), and the question's verb is a later
    participle, if any. A participle after a relative word is the relative clause's. The
    subject's words are :func:`_subject_words`. A longer subject
    (:func:`_noun_phrase_to`) ends its head at its first preposition (the railway
    of "the railway to the port of Saltmouth"); it is read by :func:`_long_subject_unsaid`.
    """
    aux = next((i for i, w in enumerate(question[:4]) if w in _BE), None)
    if aux is None:
        return None
    verb = next(
        (j for j in range(aux + 2, min(len(question), aux + 7)) if _participle(question[j])),
        None,
    )
    long = verb is None
    if long:
        verb = _noun_phrase_to(question, aux, lambda j: _participle(question[j]), start=aux + 7)
    if verb is None or _RELATIVES & set(question[aux + 1 : verb]):
        return None  # "Who was the engineer *who designed* the viaduct?": not a passive
    if verb - aux > 2 and _contact_relative(question, verb):
        return None  # "How much was the scholarship *Ferrall endowed* worth?": not a passive
    end = verb
    if question[verb + 1 : verb + 2] == ["by"]:
        verb = next(
            (j for j in range(verb + 3, min(len(question), verb + 6)) if _participle(question[j])),
            verb,
        )
    words = question[aux + 1 : end]
    return aux, _subject_words(_before_cut(words) if long else words), verb, long


def _before_cut(words: list[str]) -> list[str]:
    """A long subject's words up to its first preposition (:data:`_SUBJECT_CUTS`).

    Not its first word; its head is the last content word before it ("the *railway* to the
    port").
    """
    return words[: next((i for i, w in enumerate(words) if i and w in _SUBJECT_CUTS), None)]


_LONG_REACH = 12
"""Words after a question's auxiliary within which a long subject's verb may stand ("When
was Pennock's branch railway to the port of Saltmouth *opened*?")."""


def _noun_phrase_to(
    question: list[str], aux: int, is_verb: Callable[[int], bool], start: int
) -> int | None:
    """The first place from ``start`` that ``is_verb``, if the words before it are one phrase.

    The words are those after ``aux`` up to it, within :data:`_LONG_REACH` words of
    ``aux``. In one noun phrase a determiner or a possessive stands only first, or after a
    preposition or "and" (else a relative clause without *that* may begin: "the name of the
    town *the* railway reached"), and no relative word ("the restoration *that* returned
    Ardery to steam … cost").
    """
    for j in range(start, min(len(question), aux + 2 + _LONG_REACH)):
        if is_verb(j):
            between = question[aux + 1 : j]
            if _RELATIVES & set(between) or any(
                (w in _DETERMINERS or w.endswith("'s"))
                and i > 0
                and between[i - 1] not in _SUBJECT_CUTS | {"and", "or"}
                and not (w.endswith("'s") and between[i - 1] in _DETERMINERS)
                for i, w in enumerate(between)
            ):
                return None
            return j
    return None


def _contact_relative(question: list[str], verb: int) -> bool:
    """Whether the participle at ``verb`` is the verb of a relative clause without *that*.

    "the scholarship *Ferrall endowed*": a name (a word the lexicon does not know) right
    before it, and a noun right before the name — the name is the relative clause's
    subject, and the noun its object.
    """
    name, noun = question[verb - 1], question[verb - 2]
    return _name_word(name) and "NOUN" in _lemmas(noun) and noun not in _DETERMINERS


def _subject_words(subject: list[str]) -> list[str]:
    """The content words of a passive question's subject, its head last.

    They end at its of- / at- / in- / on-phrase ("*Marrowby's copy* of the treaty", "*a
    mill* at Eddlesfleet"), are the last conjunct's ("the moulds and *remaining stock*") and
    leave out adverbs ("the trust *formally* wound up", "a mill … *first* mentioned").
    """
    if "and" in subject:
        subject = subject[len(subject) - subject[::-1].index("and") :]
    cut = next((i for i, w in enumerate(subject) if i > 0 and w in _NP_PREPOSITIONS), None)
    if cut is not None:
        subject = subject[:cut]
    words = [w for w in subject if _content(w) and not _adverb(w)]
    if len(words) > 1 and "ADV" in _lemmas(words[-1]):
        words = words[:-1]
    return words


def _modifier_elsewhere(
    sentence: list[str], subjects: list[int], modifiers: list[str], head: str
) -> str | None:
    """A modifier of the subject the sentence holds, but before none of its passive uses.

    "When are *carried-over* days lost?" is not said by "Up to five unused days may be
    carried over …; any *further* days are lost": the sentence's "days are lost" has no
    "carried" before it, and "carried" elsewhere. Before a use means in the words before
    its auxiliary (:data:`_WINDOW`), or before the head there ("The *stone* pier, 300 yards
    long, was finished").
    """
    for modifier in modifiers:
        if _has(sentence, modifier) and subjects and not any(
            _has(sentence[_subject_start(sentence, at, head) : at], modifier) for at in subjects
        ):
            return modifier
    return None


def _subject_start(sentence: list[str], at: int, head: str) -> int:
    """Where a passive use's subject may start, before its auxiliary at ``at``.

    :data:`_WINDOW` words before it, or :data:`_MODIFIER_REACH` words before the first
    ``head`` among those.
    """
    start = max(0, at - _WINDOW)
    j = next((j for j in range(start, at) if _same(sentence[j], head)), start)
    return min(start, max(0, j - _MODIFIER_REACH))


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
        or _has(_object_words(sentence, k), head)
        or _coordinated_passive(sentence, k, head)
        for k in uses
    )


_PLACE_PREPOSITIONS = frozenset({"from", "onto", "off", "through", "across", "over", "down"})
"""Prepositions of a place a verb moves its object from or through, after the object
("lowered themselves *from* the outer wall"): what follows them is no object of the verb."""


def _object_words(sentence: list[str], at: int) -> list[str]:
    """The :data:`_OF_PHRASE` words after the verb at ``at``, up to a preposition of place.

    "lowered *themselves* from the outer wall": the wall is no object of "lowered".
    """
    window = sentence[at + 1 : at + 1 + _OF_PHRASE]
    cut = next(
        (i for i, w in enumerate(window) if w in _PLACE_PREPOSITIONS and i > 0), len(window)
    )
    return window[:cut]


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
    """Whether the words before the auxiliary at ``at`` hold ``head`` or a word for it.

    An auxiliary right after "and" / "or" shares the subject of the auxiliary before it
    ("Corr was accused of taking a bribe from Sand *and was dismissed*": Corr was). A word
    that may stand for ``head`` does not where the sentence names ``head`` after the verb
    ("*It* opened in 1953 on the site of a wartime airfield": not the airfield).
    """
    if at > 0 and sentence[at - 1] in ("and", "or"):
        earlier = [k for k in range(at - 1) if sentence[k] in _BE_ANY]
        if earlier:
            return _may_be_subject(sentence, earlier[-1], head)
    before = sentence[max(0, at - _WINDOW) : at]
    if _has(before, head) or _apposed(sentence, at, head):
        return True
    return any(w in _STANDS_FOR for w in before) and not (
        _has(sentence[at + 1 :], head) or _relative_of_another(sentence, at, head)
    )


_APPOSITION_REACH = 5
"""Words an apposition ("a smaller chamber orchestra") may run to before the verb."""


def _apposed(sentence: list[str], at: int, head: str) -> bool:
    """Whether the words before ``at`` are an apposition to ``head`` ("a … N" right after it).

    "the Laine Valley Sinfonia, *a smaller chamber orchestra based* in Kelbourne": the
    orchestra is the Sinfonia, so the Sinfonia is based there; so is a copular predicate's
    noun ("The Treaty of Aldersund *was a peace and boundary agreement concluded* on …").
    """
    j = at - 1
    while j > 0 and at - j <= _APPOSITION_REACH and sentence[j] not in ("a", "an"):
        word = sentence[j]
        if word not in ("and", "or") and (not _content(word) or _verb_form(word)):
            return False
        j -= 1
    if j <= 0 or j >= at - 1 or sentence[j] not in ("a", "an"):
        return False
    anchor = j - 2 if sentence[j - 1] in _BE and j >= 2 else j - 1  # "X was a …": copular
    phrase = []  # the noun phrase ending at the anchor: "the Treaty of Aldersund"
    for word in reversed(sentence[max(0, anchor - 4) : anchor + 1]):
        if not (word == "of" or (_nominal(word) and not _verb_form(word))):
            break
        phrase.append(word)
    return _has(phrase, head)


def _relative_of_another(sentence: list[str], at: int, head: str) -> bool:
    """Whether a relative word right before the auxiliary at ``at`` stands for another noun.

    "brine is saturated with ammonia and then with carbon dioxide, *which is obtained* by
    heating limestone": "which" stands for the noun phrase right before it (the dioxide),
    not for the ammonia further back. The phrase may end on an of- / at- / in- / on-phrase
    ("the mill at Hollin Ford, which was built …": the mill may be meant). A singular verb
    after a plural noun does not agree with it: the relative stands for a noun further back
    ("a filter house with three slow sand filters, which *was* opened in 1877").
    """
    k = at - 1
    if k < 1 or sentence[k] not in ("which", "that", "who") or not _content(sentence[k - 1]):
        return False
    if sentence[at] in ("was", "is") and _plural(sentence[k - 1]):
        return False  # "a filter house with three filters, which *was* opened": not the filters
    return not _has(_noun_phrase_before(sentence, k), head)


def _plural(word: str) -> bool:
    """A noun in the plural only ("filters", "children"; not "news" or "series")."""
    nouns = _lemmas(word).get("NOUN", ())
    return bool(nouns) and word not in nouns


def _noun_phrase_before(sentence: list[str], at: int) -> list[str]:
    """The noun phrase that ends right before ``at``, with its prepositional phrases.

    Its of- / at- / in- / on- / from-phrases (:data:`_POSTMODIFIERS`), at most six words
    back ("the bank's headquarters on Kings Square", "Captain Orrin *of the* merchant ship
    Kestrel": a determiner after the preposition). A phrase with "a" / "an" after a noun is
    an apposition and takes that noun's phrase too ("Tobias Renn, *an engineer* who …" is
    Renn; "Richard Aske, *a grain merchant from Dunmouth*, who …").
    """
    j = at - 1
    while j >= max(0, at - 6) and (
        _nominal(sentence[j]) or sentence[j] in _POSTMODIFIERS
        or (sentence[j] in _DETERMINERS and j > 0 and sentence[j - 1] in _POSTMODIFIERS)
    ):
        j -= 1
    if j > 0 and sentence[j] in ("a", "an") and _nominal(sentence[j - 1]):
        k = j - 1
        while k >= max(0, j - 4) and _nominal(sentence[k]):
            k -= 1
        return sentence[k + 1 : j] + sentence[j + 1 : at]
    return sentence[j + 1 : at]


def _active_roles(question: list[str], sentence: list[str]) -> list[str]:
    """An active question's subject and object that the sentence has the other way round.

    "By how much did *the Swedes* outnumber *the Ostrians*?" against "the Ostrians
    outnumbered the Swedes": every use of the verb has the object before it (as its subject)
    and the subject after it.
    """
    clause = _do_clause(question)
    if clause is None:
        return []
    head, verb = clause
    after = _after_determiners(question, verb + 1)
    if after >= len(question) or not _content(question[after]):
        return []
    obj = question[after]
    uses = _uses(sentence, question[verb])
    if uses and all(_swapped_at(sentence, k, head, obj) for k in uses):
        return [f"{head} {question[verb]} {obj}"]
    return []


def _swapped_at(sentence: list[str], at: int, subject: str, obj: str) -> bool:
    """Whether the verb at ``at`` has ``obj`` before it (not ``subject``) and ``subject`` after.

    Not where the subject after it is a passive's agent ("were outnumbered *by* the Swedes").
    """
    before = sentence[max(0, at - _WINDOW) : at]
    return (
        _has(before, obj)
        and not _has(before, subject)
        and _has(sentence[at + 1 : at + 1 + _WINDOW], subject)
        and not _by_agent(sentence, at, subject)
    )


def _do_clause(question: list[str]) -> tuple[str, int] | None:
    """A do-question's subject head and where its verb stands ("did *the Swedes* outnumber").

    The first *do* / *does* / *did* or modal (*must*, *can* …) opens the clause ("On which
    bank … does Dresk lie?", "How many copies must the library deliver?"); the verb is the
    first base form within five words after it. None for *have to* ("did each scholar *have
    to* be ordained": a modal, not the verb).
    """
    found = _do_subject(question)
    return (found[0][-1], found[1]) if found else None


def _do_subject(question: list[str]) -> tuple[tuple[str, ...], int] | None:
    """A do-question's subject words and where its verb stands (see :func:`_do_clause`).

    Read once per question: every reading of a do-question's roles asks it.
    """
    return _do_subject_of(tuple(question))


@lru_cache(maxsize=4096)
def _do_subject_of(question: tuple[str, ...]) -> tuple[tuple[str, ...], int] | None:
    # "did the storm cost": "storm" is the subject, not a verb
    found = _auxiliary_clause(question, _DO_OR_MODAL, _base_verb, 4, noun_subject=True)
    if found is None:
        found = _past_relative(question)
    if found is None:
        return None
    if question[found[1]] in ("have", "has") and question[found[1] + 1 : found[1] + 2] == ("to",):
        return None  # "did each scholar *have to* be ordained": a modal, not the verb
    return found


def _auxiliary_clause(
    question: Sequence[str], auxiliaries: frozenset[str], is_verb: Callable[[str], bool],
    reach: int, *, noun_subject: bool = False,
) -> tuple[tuple[str, ...], int] | None:
    """The subject words and the verb's place of a question opened by an auxiliary.

    The first of ``auxiliaries``, then its subject's content words (not an adverb), then
    the first word that ``is_verb`` within ``reach`` words after the subject's first. With
    ``noun_subject``, a word that may be a noun is the subject's, not the verb, where every
    word before it may be an adjective ("did the new *wing* … open", "did the General
    *Strike* close": an adjective alone is no subject), nor where a verb that is no adjective
    or adverb follows it ("did the competition *board* try": a base form is not followed by
    another; "did Orrery capture *near* Oporto" has a preposition) — unless no other word of
    its clause can be the verb (:func:`_no_verb_after`: "did the council *gather*?", "did the
    council *gather* in 2003", "… *gather* after announcing …").
    """
    aux = next((i for i, w in enumerate(question) if w in auxiliaries), None)
    if aux is None:
        return None
    skipped = None
    for verb in range(aux + 2, min(len(question), aux + 2 + reach)):
        subject = tuple(w for w in question[aux + 1 : verb] if _content(w) and not _adverb(w))
        # a word after a possessive is its noun ("did Sir Gideon's *father* demolish")
        if subject and is_verb(question[verb]) and not question[verb - 1].endswith("'s"):
            if noun_subject and _subjects_noun(question, verb, subject, is_verb):
                if skipped is None:
                    skipped = (subject, verb)
                continue  # "did the old *mill* reopen": an adjective alone is no subject
            return subject, verb
    return skipped if skipped and _no_verb_after(question, skipped[1], is_verb) else None


def _subjects_noun(
    question: Sequence[str], at: int, subject: Sequence[str], is_verb: Callable[[str], bool]
) -> bool:
    """Whether the word at ``at``, which may be a verb, is rather the subject's noun.

    It may be a noun, and every subject word before it may be an adjective ("did the new
    *wing* … open"), or a verb that is no adjective or adverb follows it ("did the
    competition *board* try"). See :func:`_auxiliary_clause`.
    """
    return _nominal(question[at]) and (
        not any(_nominal(w) and "ADJ" not in _lemmas(w) for w in subject)
        or at + 1 < len(question) and _verb_only(question[at + 1], is_verb)
    )


def _no_verb_after(question: Sequence[str], at: int, is_verb: Callable[[str], bool]) -> bool:
    """Whether no word after ``at`` in its clause can be its verb.

    The question ends, or a conjunction or relative word opens another clause before any
    word that ``is_verb`` ("did the council gather *after* announcing … that the baths would
    *close*": *close* is another clause's).
    """
    for word in question[at + 1 :]:
        if word in _CLAUSE_OPENERS or word in _RELATIVES:
            return True
        if is_verb(word):
            return False
    return True


def _past_relative(question: Sequence[str]) -> tuple[tuple[str, ...], int] | None:
    """A do-question's subject with a relative clause, and its verb after that clause.

    "How many visitors does the toll office *that serves as the trust's headquarters*
    receive?": the relative word follows the subject's noun and an inflected verb follows
    it ("serves"); the question's verb is the first base form after that which is only a
    verb ("receive").
    """
    aux = next((i for i, w in enumerate(question) if w in _DO_OR_MODAL), None)
    rel = next((
        k for k in range(aux + 2, len(question) - 1)
        if question[k] in _RELATIVES and _inflected_verb(question[k + 1])
    ), None) if aux is not None else None
    if aux is None or rel is None:
        return None
    subject = tuple(w for w in question[aux + 1 : rel] if _content(w) and not _adverb(w))
    verb = next((
        j for j in range(rel + 2, len(question))
        if _base_verb(question[j]) and set(_lemmas(question[j])) == {"VERB"}
    ), None)
    return (subject, verb) if subject and verb is not None else None


def _verb_only(word: str, is_verb: Callable[[str], bool]) -> bool:
    """Whether ``word`` is a verb and no adjective or adverb ("try", not "near" or "open")."""
    return is_verb(word) and not {"ADJ", "ADV"} & set(_lemmas(word))


def _coordinated_object(question: list[str], sentence: list[str]) -> list[str]:
    """A do-question's subject that is the object of the verb the sentence's verb follows.

    "Which port did *the Ostrian army* besiege?" is not said by "Aldmark's army … defeated
    *the Ostrian army* at Kessa Heath and besieged the port of Dresk": "besieged" is
    coordinated with "defeated" ("and"), so it shares that verb's subject; the question's
    subject (all its words) is the object right after "defeated".
    """
    found = _do_subject(question)
    if found is None:
        return []
    subject, verb = found
    uses = _uses(sentence, question[verb])
    if uses and all(_object_of_first(sentence, k, subject) for k in uses):
        return [f"{' '.join(subject)} {question[verb]}"]
    return []


def _object_of_first(sentence: list[str], at: int, subject: tuple[str, ...]) -> bool:
    """Whether the verb at ``at`` follows "and", and ``subject`` is the earlier verb's object."""
    if at < 2 or sentence[at - 1] not in ("and", "then"):
        return False
    earlier = [j for j in range(at - 1) if _inflected_verb(sentence[j])]
    if not earlier:
        return False
    start = _after_determiners(sentence, earlier[-1] + 1)
    said = sentence[start : start + len(subject)]
    return len(said) == len(subject) and all(
        _same(a, b) for a, b in zip(said, subject, strict=True)
    )


def _object_elsewhere(question: list[str], sentence: list[str]) -> list[str]:
    """A wh-subject question's object that the sentence's verb does not take: it has its own.

    "Which constitution *replaced the Landsting*?" is not said by "The Landsting was created
    by the constitution of 1849, which *replaced the advisory assemblies*": every use of the
    verb in the sentence is active with another noun phrase after it, and the question's
    object is none of it (the sentence names it in another role). An infinitive is a use
    too ("to build a bus station …, and engaged the borough engineer to *design a new hall*"
    for "Which developers designed the bus station?").
    """
    verb = _wh_subject_verb(question)
    if verb is None or verb + 1 >= len(question):
        return []
    start = _after_determiners(question, verb + 1)
    noun_phrase = [w for w in takewhile(_in_noun_phrase, question[start:]) if _nominal(w)]
    uses = [
        k for k in _uses(sentence, question[verb])
        if _inflected_verb(sentence[k]) or (k > 0 and sentence[k - 1] == "to")  # "to design"
    ]
    if not noun_phrase or not uses or not _has(sentence, noun_phrase[-1]):
        return []
    obj = noun_phrase[-1]
    if all(_takes_another(sentence, k, obj) for k in uses):
        return [f"{question[verb]} {obj}"]
    return []


_CAUSATIVES = frozenset(
    "lead cause force persuade prompt encourage allow ask order urge compel oblige invite "
    "inspire convince induce require permit enable"
    .split()
)
"""Verbs whose object is the subject of the infinitive after it ("led eight members *to
resign*"): object control."""
_CAUSATIVE_REACH = 12


def _caused_of_another(question: list[str], sentence: list[str]) -> list[str]:
    """A wh-subject question's verb that the sentence says only of a causative's object.

    "Which schoolmaster resigned as vice-president?" is not said by "a lecture … by the
    schoolmaster Thomas Brindle *led eight members, including the vice-president …, to
    resign*": after "led", "persuaded", "forced" … the infinitive's subject is the object
    between them, and the question's class ("schoolmaster") is not in it.
    """
    verb = _wh_subject_verb(question)
    if verb is None:
        return []
    head = [w for w in question[1:verb] if _nominal(w)]
    uses = _uses(sentence, question[verb])
    if not head or not uses or not _has(sentence, head[-1]):
        return []
    for k in uses:
        if k < 2 or sentence[k - 1] != "to":
            return []
        cause = next((
            j for j in range(k - 2, max(-1, k - 2 - _CAUSATIVE_REACH), -1)
            if _verb_lemmas(sentence[j]) & _CAUSATIVES
        ), None)
        if cause is None or _has(sentence[cause + 1 : k - 1], head[-1]):
            return []
    return [f"{head[-1]} {question[verb]}"]


_CONVERSES: tuple[tuple[frozenset[str], frozenset[str]], ...] = (
    (frozenset({"buy", "purchase", "pay", "acquire"}), frozenset({"sell"})),
    (frozenset({"borrow"}), frozenset({"lend"})),
    (frozenset({"receive"}), frozenset({"give", "donate", "award"})),
)
"""Converse verbs: one event told from either party ("X sold it to Y" is "Y bought it")."""
_SUBJECT_REACH = 12


def _converse(lemmas: set[str]) -> tuple[frozenset[str], frozenset[str]]:
    """A verb's side of a converse pair (its lemmas' synonyms) and the other side."""
    for a, b in _CONVERSES:
        if lemmas & a:
            return a, b
        if lemmas & b:
            return b, a
    return frozenset(), frozenset()


def _verb_lemmas(word: str) -> set[str]:
    return set(_lemmas(word).get("VERB", ()))


def _converse_subject(question: list[str], sentence: list[str]) -> list[str]:
    """A do-question's subject that the sentence makes the subject of the converse verb.

    "How much did Edmund Orrel *pay* for the business?" is not said by "… Edmund Orrel, the
    fifth generation, *sold* the business in 1961 to the Stanway Printing Group for 385,000
    pounds": he is the seller. The buyer asked ("How much did the Stanway Printing Group
    pay?") is named after the verb, and that sentence does say it; so is a passive ("was
    sold to"). Not read where the sentence has a verb of the question's side too ("Norden
    acquired Rurex …, and in 2011 it sold …").
    """
    found = _do_subject(question)
    if found is None:
        return []
    subject, verb = found
    side, converse = _converse(_verb_lemmas(question[verb]))
    if not converse or any(_verb_lemmas(w) & side for w in sentence):
        return []  # "acquired" says "pay" too
    head = subject[-1]
    uses = [
        k for k, w in enumerate(sentence)
        if _verb_lemmas(w) & converse and not (k and sentence[k - 1] in _BE_ANY)
    ]
    if uses and all(
        _has(sentence[max(0, k - _SUBJECT_REACH) : k], head) and not _has(sentence[k:], head)
        for k in uses
    ):
        return [f"{head} {question[verb]}"]
    return []


_SOURCE_MARKS = (("from",), ("owned", "by"), ("sold", "by"), ("belonging", "to"))
"""What puts a name in the party a thing came from: "bought … *from* the Aldwick family",
"Gorse Valley Coaches, *owned by* Harold Dibb"."""
_SOURCE_REACH = 4
"""Words before a name within which its source mark may stand ("from *the* Aldwick family")."""


def _source_only(question: list[str], sentence: list[str]) -> list[str]:
    """A buyer's do-question whose subject the sentence names only as the one sold from.

    "How much did the Aldwick family pay for the 84 acres?" is not said by "… a committee
    … bought 84 acres … *from the Aldwick family* for £5,900": the family received the
    money. Read where the question's verb is a buyer's (pay, buy, purchase, acquire), the
    sentence has a buyer's verb too, and every use of the subject's head follows a source
    mark (:data:`_SOURCE_MARKS`) within :data:`_SOURCE_REACH` words. A perfect question
    asks the same ("How much *had* the Aldwick family *paid* …?").
    """
    found = _do_subject(question)
    clause = (found[0][-1], found[1]) if found is not None else _perfect_clause(question)
    if clause is None:
        return []
    head, verb = clause
    side, _ = _converse(_verb_lemmas(question[verb]))
    if "pay" not in side or not any(_verb_lemmas(w) & side for w in sentence):
        return []
    if _after_source(question[:verb]):
        return []  # "students *from* outside Europe": the subject's own phrase
    uses = _uses(sentence, head)
    if uses and all(_after_source(sentence[max(0, k - _SOURCE_REACH) : k]) for k in uses):
        return [f"{head} {question[verb]}"]
    return []


_BUYING = frozenset({"pay", "buy", "purchase", "acquire"})


def _sold_to_another(question: list[str], sentence: list[str]) -> list[str]:
    """A buyer's do-question whose subject the sentence does not name as the one sold to.

    "How much did the Cottage Hospital pay for the Providence Hall?" is not said by "…
    £500 given to the Cottage Hospital, and the Providence Hall was *sold to the town
    council* for £2,300": who paid is the party after *sold to*. Read where the question's
    verb after its *did* is a buyer's (pay, buy, purchase, acquire; found by its lemma, as a
    name's word may be a verb: "Oxley *Fold*"), the sentence says *sold to*, and the
    subject's last word is named in the sentence but never within :data:`_SOURCE_REACH`
    words after a *sold to*.
    """
    verb = _first_after_do(question, lambda i: bool(_verb_lemmas(question[i]) & _BUYING))
    sold = [k for k in range(len(sentence) - 1) if sentence[k : k + 2] == ["sold", "to"]]
    if verb is None or not sold:
        return []
    head = question[verb - 1]  # the subject's last word, right before the verb
    if not _content(head) or not _uses(sentence, head):
        return []
    if any(_has(sentence[k + 2 : k + 2 + _SOURCE_REACH], head) for k in sold):
        return []
    return [f"{head} {question[verb]}"]


def _agent_of_another(question: list[str], sentence: list[str]) -> list[str]:
    """A do-question's subject that the sentence names only as another verb's passive agent.

    "On what date did the weavers *reject* the proposal?" is not said by "the proposal was
    accepted by the weavers but *rejected by the manufacturers* on 18 April": read in the
    active voice, the weavers accepted it and the manufacturers rejected it. Read where every
    use of the question's verb in the sentence is a participle with its own *by* phrase that
    does not hold the subject's last word, and every use of that word stands in the *by*
    phrase (within :data:`_SOURCE_REACH` words after *by*) of another participle.
    """
    found = _do_subject(question)
    if found is None:
        return []
    subject, at = found
    head, verb = subject[-1], question[at]
    uses = [k for k, w in enumerate(sentence) if _participle(w) and _same(w, verb)]
    heads = _uses(sentence, head)
    if not uses or not heads or not _content(head):
        return []
    phrases = [_agent_phrase(sentence, k) for k in uses]
    if not all(phrase and not _has(phrase, head) for phrase in phrases):
        return []
    agents = [k for k in range(1, len(sentence)) if sentence[k] == "by"
              and _participle(sentence[k - 1]) and not _same(sentence[k - 1], verb)]
    if all(any(0 < j - b <= _SOURCE_REACH for b in agents) for j in heads):
        return [f"{head} {verb}"]
    return []


def _agent_phrase(sentence: list[str], at: int) -> list[str]:
    """The words of the *by* phrase right after the participle at ``at`` (empty: none)."""
    if sentence[at + 1 : at + 2] != ["by"]:
        return []
    return sentence[at + 2 : at + 2 + _SOURCE_REACH]


def _for_another(question: list[str], sentence: list[str]) -> list[str]:
    """A do-question's *for* phrase that the sentence's same verb gives another noun.

    "How much did the first concert *raise for the Mechanics' Institute*?" is not said by
    "The first concert was given in the Mechanics' Institute …, and *raised £14 for the
    town's cottage hospital*": what a verb did *for* is the noun of its own *for* phrase.
    Read where every use of the question's verb has a *for* within :data:`_FOR_REACH` words
    after it, none of whose phrases (:data:`_FOR_PHRASE` words: "for a party of six
    hillwalkers") holds the question's noun, and the question's noun is named elsewhere.
    """
    at = _first_after_do(  # past a long subject ("the first concert in 1875")
        question, lambda j: question[j + 1 : j + 2] == ["for"] and _base_verb(question[j])
    )
    if at is None:
        return []
    verb = question[at]
    start = _after_determiners(question, at + 2)
    phrase = [w for w in takewhile(_in_noun_phrase, question[start:]) if _nominal(w)]
    uses = [k for k, w in enumerate(sentence) if _same(w, verb) and _inflected_verb(w)]
    if not phrase or not uses or not _has(sentence, phrase[-1]):
        return []
    head = phrase[-1]
    phrases = [_for_phrases(sentence, k) for k in uses]
    if all(p and not _has(p, head) for p in phrases):
        return [f"{verb} for {head}"]
    return []


_FOR_REACH = 4
"""Words after a verb within which its *for* may stand ("raised *£14 for*")."""
_FOR_PHRASE = 6
"""Words of a *for* phrase read for the question's noun."""


def _for_phrases(words: list[str], at: int) -> list[str]:
    """The words of every *for* phrase within :data:`_FOR_REACH` words after ``at``.

    Empty where a *for* has no object of its own ("was paid for *by* the nephew": a passive,
    whose subject is what it was for) or a pronoun's ("accepted compensation … *for it*"),
    which may stand for the question's noun.
    """
    out: list[str] = []
    for k in range(at + 1, min(len(words), at + 1 + _FOR_REACH)):
        if words[k] == "for":
            if k + 1 == len(words) or words[k + 1] in _AFTER_PASSIVE | _OBJECT_PRONOUNS:
                return []
            out.extend(words[k + 1 : k + 1 + _FOR_PHRASE])
    return out


_LEAVING = frozenset({"retire", "resign", "die", "leave", "quit", "abdicate"})
"""Verbs of leaving a post: the one *succeeded by* another did them, not the successor."""
_SUCCESSION_MARKS = (("succeeded", "by"), ("replaced", "by"))
"""What puts a name in the party that came in ("*succeeded by* Arthur Fennimore")."""


def _successor_leaving(question: list[str], sentence: list[str]) -> list[str]:
    """A do-question's verb of leaving whose subject the sentence names only as the successor.

    "In what year did Arthur Fennimore *retire* as borough gas engineer?" is not said by
    "Denholm stayed on as borough gas engineer until his retirement in 1924, when he was
    *succeeded by Arthur Fennimore*": the one succeeded is the one who left; the name after
    *succeeded by* / *replaced by* came in. Read where the question's verb is one of
    :data:`_LEAVING` and every use of the subject's last word stands within
    :data:`_SOURCE_REACH` words after such a *by*.
    """
    found = _do_subject(question)
    if found is None or not _verb_lemmas(question[found[1]]) & _LEAVING:
        return []
    head = found[0][-1]
    uses = _uses(sentence, head)
    if uses and all(
        _after_source(sentence[max(0, j - _SOURCE_REACH - 1) : j], _SUCCESSION_MARKS)
        for j in uses
    ):
        return [f"{head} {question[found[1]]}"]
    return []


def _after_source(
    before: list[str], marks: tuple[tuple[str, ...], ...] = _SOURCE_MARKS
) -> bool:
    """Whether ``before`` (the words before a name) hold one of ``marks`` (a source mark)."""
    return any(
        before[k : k + len(mark)] == list(mark)
        for mark in marks for k in range(len(before))
    )


def _in_noun_phrase(word: str) -> bool:
    """A word of a question's noun phrase.

    A noun (even one that is also a verb form, "wards") or another content word that is no
    verb form ("wooden").
    """
    return _content(word) and (_nominal(word) or not _verb_form(word))


def _wh_subject_verb(question: list[str]) -> int | None:
    """Where the verb of a question that asks for its subject stands ("Which N *replaced*").

    The wh-word and up to two words of its phrase, then an inflected verb, with no *do*,
    *be* or modal before it ("What *did* Geoffrey found": the wh-word is the object), nor
    *by* or *be* after it ("What concept, *discovered by* Black, *was* later discovered by
    Watt?": a passive).
    """
    if len(question) < 3 or question[0] not in ("who", "which", "what"):
        return None
    for i in range(1, min(4, len(question))):
        word = question[i]
        if word in _DO or word in _BE_ANY or word in _MODALS:
            return None
        if _inflected_verb(word) or _past_before_object(question, i):
            passive = "by" in question[i + 1 : i + 2] or any(w in _BE_ANY for w in question[i:])
            return None if passive else i
    return None


def _takes_another(sentence: list[str], at: int, obj: str) -> bool:
    """Whether the verb at ``at`` is active with a noun phrase after it that is not ``obj``.

    The phrase: the content words after the determiners up to the next function word or verb
    ("the bank's new headquarters"; "a county" of "a county that outlived the duchy").
    """
    if at > 0 and sentence[at - 1] in _BE_ANY:
        return False
    start = _after_determiners(sentence, at + 1)
    phrase = list(takewhile(_noun_phrase_word, sentence[start : start + _WINDOW]))
    return bool(phrase) and _nominal(phrase[-1]) and not _has(phrase, obj)


def _agent_follows(sentence: Sequence[str], at: int) -> bool:
    """Whether the participle at ``at`` has its agent's *by* after it, as a passive does.

    Right after it, or after a date or a place, with no verb between ("a hand loom built in
    1832 *by* the local joiner"; within :data:`_AGENT_REACH` words).
    """
    after = sentence[at + 1 : at + 1 + _AGENT_REACH]
    if "by" not in after:
        return False
    return not any(_verb_form(word) for word in after[: after.index("by")])


def _roles_reversed(question: list[str], sentence: list[str]) -> list[str]:
    """A wh-subject question's last noun that is the subject of the sentence's verb.

    "Who swore fealty *to Hallvard*?" is not said by "Its founder, the Norse chieftain
    *Hallvard*, swore fealty to King Lothar": every use of the verb is active, with the
    question's last noun among the words before it and not in the clause after it.
    """
    verb = _wh_subject_verb(question)
    last = question[-1] if _nominal(question[-1]) else ""
    if verb is None or not last or verb + 1 >= len(question) - 1:
        return []
    uses = [k for k in _uses(sentence, question[verb]) if _inflected_verb(sentence[k])]
    if uses and all(
        sentence[k - 1] not in _BE_ANY
        and not _agent_follows(sentence, k)  # "…, designed by the architect": passive
        and _has(sentence[max(0, k - _WINDOW - 2) : k], last)
        and not _has(sentence[k + 1 : k + 2 + _WINDOW], last)
        for k in uses if k > 0
    ) and 0 not in uses:
        return [f"{question[verb]} … {last}"]
    return []


_OBJECT_PRONOUNS = frozenset({"him", "her", "them", "it"})


def _object_made_subject(question: list[str], sentence: list[str]) -> list[str]:
    """A wh-subject question's object that the sentence names as the verb's subject.

    "Who succeeded Frederick Larch as master?" is not said by "His son, *Frederick Larch,
    succeeded him* as master": the name stands right before the verb, as its subject, and
    the verb's object is a pronoun for another. Read where every active use of the verb has
    the question's object (its words after the verb, up to a preposition) right before it
    and *him* / *her* / *them* / *it* right after it.
    """
    verb = _wh_subject_verb(question)
    if verb is None:
        return []
    start = _after_determiners(question, verb + 1)
    obj = list(takewhile(_content, question[start : start + 3]))
    n = len(obj)
    uses = [k for k in _uses(sentence, question[verb]) if _inflected_verb(sentence[k])]
    if n and uses and all(
        k >= n
        and sentence[k - n : k] == obj
        and sentence[k + 1 : k + 2] != [] and sentence[k + 1] in _OBJECT_PRONOUNS
        for k in uses
    ):
        return [f"{obj[-1]} {question[verb]}"]
    return []


def _owner_only(question: list[str], cased: list[str]) -> list[str]:
    """A do-question's subject the sentence names only as the owner of another, named one.

    "Where did *Robert* lead an army?" is not said by "*Robert's* nephew, Geoffrey, led an
    army …": the sentence says "Robert" only in "Robert's", before a noun that a name of
    its own follows (the nephew, Geoffrey): Robert is not the one who led it. Without that
    name the owner may act through what it owns ("Fred Singer's policy project held a press
    event" for "Where did Singer hold a press event?"), nor where that name is the
    subject's own ("*Rusk's* son George" for "did George Rusk build"). ``cased``: the
    sentence's words as written.
    """
    found = _do_subject(question)
    if found is None:
        return []
    subject, verb = found
    head = subject[-1]
    sentence = [w.lower() for w in cased]
    said = _uses(sentence, head)
    if said and _uses(sentence, question[verb]) and all(
        sentence[k] == f"{head}'s" and k + 2 < len(sentence) and _content(sentence[k + 1])
        and _proper(cased[k + 2]) and sentence[k + 2] not in subject
        for k in said
    ):
        return [f"{head}'s"]
    return []


def _verb_after_do(question: list[str], sentence: list[str]) -> int | None:
    """Where a do-question's verb stands, read against the sentence.

    The first word after the subject that the sentence uses as an inflected verb (a long
    subject: "did the justices at the Wexhamshire quarter sessions *fine*").
    """
    return _first_after_do(question, lambda j: "VERB" in _lemmas(question[j]) and any(
        _inflected_verb(sentence[k]) for k in _uses(sentence, question[j])
    ))


def _first_after_do(question: list[str], test: Callable[[int], bool]) -> int | None:
    """The first place after the first *do* / *does* / *did* and one word that passes ``test``.

    The subject takes at least the word after *did*; the verb is sought past it, however
    long the subject is.
    """
    aux = next((i for i, w in enumerate(question) if w in _DO), None)
    if aux is None:
        return None
    return next((j for j in range(aux + 2, len(question)) if test(j)), None)


def _object_named_otherwise(question: list[str], cased: list[str]) -> list[str]:
    """A do-question's object where the sentence's verb takes a name instead.

    "How much did the justices fine *the trust*?" is not said by "… the justices found for
    the trust and fined *Mabey* £5": every use of the verb is followed by a name (a
    capitalised word) the question does not hold, and the question's object is elsewhere in
    the sentence. A common noun after the verb may be the object's synonym ("sold the
    business" for "the firm") and is not read. ``cased``: the sentence's words as written.
    """
    sentence = [w.lower() for w in cased]
    verb = _verb_after_do(question, sentence)
    if verb is None:
        return []
    start = _after_determiners(question, verb + 1)
    obj = question[start] if start < len(question) else ""
    if not (_content(obj) and _nominal(obj)):
        return []
    uses = [k for k in _uses(sentence, question[verb]) if _inflected_verb(sentence[k])]
    if uses and _has(sentence, obj) and all(
        k + 1 < len(cased) and _proper(cased[k + 1]) and not _has(question, sentence[k + 1])
        for k in uses
    ):
        return [f"{question[verb]} {obj}"]
    return []


def _relative_subject(question: list[str], sentence: list[str]) -> list[str]:
    """A do-question's subject where the sentence's verb has a relative word for another.

    "How many prints did *the British Museum* buy?" is not said by "Lind's works are held
    by the National Gallery in Marren, *which bought* 140 of her prints …, and by the
    British Museum": every use of the verb follows "which" / "who" / "that" (auxiliaries
    between: "Lipa, who had finished second"), which stands for the noun phrase right
    before it (:func:`_relative_of_another`), not the question's subject.
    """
    clause = _do_clause(question) or _perfect_clause(question)
    if clause is None:
        return []
    head, verb = clause
    if not _content(question[verb]):
        return []  # "have", "do": a light verb's relative clause is any owner's
    uses = [k for k in _uses(sentence, question[verb]) if _inflected_verb(sentence[k])]
    given = _given_name(question, head, verb)
    if uses and _has(sentence, head) and all(
        _relative_of_another(sentence, at, head) or _relative_of_namesake(sentence, at, head, given)
        for at in (_past_auxiliaries(sentence, k) for k in uses)
    ):
        return [f"{head} {question[verb]}"]
    return []


def _relative_of_namesake(sentence: list[str], at: int, head: str, given: str | None) -> bool:
    """Whether a relative word before ``at`` stands for a namesake of the asked person.

    "Where did *Josiah* Penhallow train?" is not said by "… succeeded by his son, *Arthur*
    Penhallow, who had trained as an engineer": the surname stands right before "who" after
    another given name (a word the lexicon does not know, or knows as no noun: "*Clement*
    Lissett"), and the asked one (``given``) is not in the phrase.
    """
    k = at - 1
    if given is None or k < 2 or sentence[k] not in _RELATIVES or not _same(sentence[k - 1], head):
        return False
    other = sentence[k - 2]
    return (
        _content(other)
        and not _same(other, given)
        and (_name_word(other) or not _nominal(other))
        and not _has(_noun_phrase_before(sentence, k), given)
    )


def _perfect_clause(question: list[str]) -> tuple[str, int] | None:
    """A perfect question's subject head and where its participle stands.

    "Where *had Edwin Aldercott* previously *worked*?": the first *had* / *has* / *have*,
    its subject's content words, then the first participle within five words (an adverb
    between is not the subject).
    """
    found = _auxiliary_clause(question, _HAVE, _participle, 5)
    return (found[0][-1], found[1]) if found else None


def _past_auxiliaries(sentence: list[str], at: int) -> int:
    """Where the verb group of the verb at ``at`` starts: before its auxiliaries.

    ("who *had* finished", "who *had previously* worked", "who *later* served": an adverb
    within the group, or a word that is an adverb or an adjective only).
    """
    while at > 0 and (sentence[at - 1] in _BE_ANY or sentence[at - 1] in _HAVE
                      or sentence[at - 1] in _MODALS or _adverb(sentence[at - 1])
                      or _adverbial(sentence[at - 1])):
        at -= 1
    return at


def _adverbial(word: str) -> bool:
    """A word that is an adverb and otherwise only an adjective ("later", "then", "only")."""
    lemmas = set(_lemmas(word))
    return "ADV" in lemmas and lemmas <= {"ADV", "ADJ"}


def _subject_after(question: list[str], sentence: list[str]) -> list[str]:
    """A do-question's subject that the sentence names only after every use of the verb.

    "What protein do *neutrophils* release?" is not said by "Kessel cells … respond by
    *releasing* the protein kesselin, which … attracts other immune cells, such as
    *neutrophils*": English puts a verb's subject before it; a subject named only after it
    (and not as its agent, "released by neutrophils") is in another role. Only the verb's
    verb forms are read ("Following *the collapse* of the state trading system" says the
    system's collapse; "by 112 *votes*" is a noun after its number). The subject's given
    name names it too ("*Arthur* sold the firm" for "did Arthur Pennick sell").
    """
    clause = _do_clause(question)
    if clause is None:
        return []
    head, verb = clause
    uses = [
        k for k in _uses(sentence, question[verb])
        if _verb_form(sentence[k]) and not (k > 0 and _counted(sentence[k - 1]))
    ]
    given = _given_name(question, head, verb)
    named = _uses(sentence, head) + (_uses(sentence, given) if given else [])
    if _nominal(head) and uses and named and min(named) > max(uses) and not any(
        _by_agent(sentence, k, head) for k in uses
    ):
        return [f"{head} {question[verb]}"]
    return []


def _agent_object(question: list[str], sentence: list[str]) -> list[str]:
    """A who-question's object that the sentence names in another role of a passive verb.

    "Who *founded* the Halden paper mill?" is not said by "It was founded in 1899 by
    workers of the Halden paper mill": every "founded" of the sentence is passive, with
    no mill before it, and the mill comes after it — in the agent's phrase. Nor by "A
    Marenholt Society was founded in Orsa in 1988, and …" for "Who founded the Marenholt
    Society?": a passive with no "by" after it names no one who did it. That also for a
    which-question that asks for the verb's subject ("Which firm *laid* the tramway?"
    against "a short tramway that was laid across the peninsula in 1857"); not the agent's
    phrase, which such a question may reverse ("What decade marked the transition?" for
    "the decade was marked by the transition") — unless its object is a name, one thing
    that does not change its role ("Which firm bought *Veldhaus*?" against "Thorne-Kastell
    was bought by the paper group Veldhaus": Veldhaus bought). A name here: a word the
    lexicon does not know.
    """
    if len(question) < 3:
        return []
    at = 1 if question[0] == "who" else _wh_subject_verb(question)
    if at is None or not (
        _participle(question[at]) or _present(question[at]) or _past_before_object(question, at)
    ):
        return []
    content = _object_content(question[at + 1 :])
    if not content:
        return []
    head, verb = content[-1], question[at]
    who = question[0] == "who" or _name_word(head)  # the agent's phrase read for a name too
    uses = _passive_uses(sentence, verb)
    # the question's own "by" phrase is a means, not the agent ("Who selects the choristers
    # *by voice trial*?")
    means = question[question.index("by") + 1 :][:3] if "by" in question[at:] else []
    if uses and all(
        (who and _named_after(sentence, k, head, _BE_ANY))
        or _agentless(sentence, k, content, means)
        or _of_another_patient(sentence, k, content)
        for k in uses
    ):
        return [f"{verb} {head}"]
    return []


_OBJECT_ENDS = _AFTER_PASSIVE | {"to"} | _RELATIVES
"""Words that end a verb's object phrase: a preposition, an infinitive's "to" ("to move"),
or a relative word ("the supplement *that* was issued in 1912": its clause is not the
object's)."""


def _object_content(words: Sequence[str], ends: frozenset[str] = _OBJECT_ENDS) -> list[str]:
    """The content words of the object phrase that ``words`` open, up to one of ``ends``."""
    return [w for w in takewhile(lambda w: w not in ends, words) if _content(w)]


def _who_verb(question: list[str]) -> str | None:
    """The participle a who-question asks the doer of ("Who *opened* the pool?"), else None."""
    if len(question) < 3 or question[0] != "who" or not _participle(question[1]):
        return None
    return question[1]


_EVENT_SUFFIXES = ("ing", "tion", "sion", "ment", "al")
"""Endings of a noun made from a verb that names its event ("opening", "construction",
"appointment", "removal"); not the verb's own form used as a noun ("the design of" may be
the thing designed)."""
_ASCRIBED = frozenset({"by", "attributed", "credited", "ascribed", "owed"})
"""Words after an event's noun that name who did it ("the founding of the club is
*credited* to …")."""


def _event_noun_only(question: list[str], sentence: list[str]) -> list[str]:
    """A who-question's verb that the sentence says only as a noun of the event.

    "Who opened the indoor pool at Castle Street?" is not said by "… and the opening of a
    heated indoor pool at Castle Street in 1972 drew the swimming club away": a noun of the
    event after an article, with *of* and its object after it ("the opening of", "the
    construction of"), says that it happened and not who did it. Every word of the
    sentence with the verb's stem is such a noun (:data:`_EVENT_SUFFIXES`), and no *by*
    follows within :data:`_AGENT_REACH` words — or a participle between an article and a
    noun ("*A proposed merger* with the Calderbank Society was rejected by the members":
    who proposed it is not said). A possessive ("the council's opening of", "its
    opening of"), a verb form elsewhere in the sentence, or "credited to" after it may say
    who.
    """
    verb = _who_verb(question)
    if verb is None:
        return []
    content = _object_content(question[2:], _OBJECT_ENDS | {"with"})
    uses = _uses(sentence, verb)
    if content and uses and all(
        0 < k < len(sentence) - 1 and sentence[k - 1] in _ARTICLES and (
            (sentence[k + 1] == "of" and sentence[k].endswith(_EVENT_SUFFIXES)
             and _ASCRIBED.isdisjoint(sentence[k + 2 : k + 2 + _AGENT_REACH]))
            or (_participle(sentence[k]) and _nominal(sentence[k + 1]))
        )
        for k in uses
    ):
        return [f"{verb} {content[-1]}"]
    return []


def _object_as_subject(question: list[str], sentence: list[str]) -> list[str]:
    """A who-question's object that the sentence makes the subject of the verb.

    "Who started the fire in the boiler room?" is not said by "… a fire that started in the
    basement boiler room spread through the library": a verb that may go without an object
    (*start*, *open*, *spread*, *burn* …) then has the thing itself as its subject. Every
    verb form of the question's verb in the sentence has the object's head right before it
    (or before *that* / *which*) and no object after it: a preposition, *and*, or the end;
    and no agent's *by* after it ("a fire started by a porter").
    """
    verb = _who_verb(question)
    if verb is None:
        return []
    content = _object_content(question[2:])
    uses = [k for k in _uses(sentence, verb) if _verb_form(sentence[k])]
    if not content or not uses:
        return []
    head = content[-1]

    def of_head(k: int) -> bool:
        before = k - 2 if k >= 2 and sentence[k - 1] in ("that", "which") else k - 1
        return before >= 0 and _same(sentence[before], head) and (
            k + 1 == len(sentence) or sentence[k + 1] in _AFTER_PASSIVE
        ) and "by" not in sentence[k + 1 : k + 1 + _AGENT_REACH]

    return [f"{verb} {head}"] if all(of_head(k) for k in uses) else []


def _of_another_patient(sentence: list[str], at: int, phrase: Sequence[str]) -> bool:
    """Whether the verb at ``at`` is a reduced passive with an agent, of another noun.

    "… a gas-fired tank *furnace designed by* the German engineer Friedrich Anselm replaced
    the pot furnace in the Tall Cone" says who designed the furnace, not the Tall Cone: a
    reduced passive's patient is the noun right before it, and the question's object
    (``phrase``) comes only after it. (One named before it may be that noun itself: "the
    station, a brick building built by …".)
    """
    return (
        0 < at < len(sentence) - 1 and sentence[at + 1] == "by" and _nominal(sentence[at - 1])
        and not _has(phrase, sentence[at - 1]) and not _has(sentence[:at], phrase[-1])
        and _has(sentence[at + 2 :], phrase[-1])
    )


def _passive_uses(sentence: list[str], verb: str) -> list[int]:
    """Where the sentence has ``verb`` as written, or a present or past verb's participle.

    "Who *selects* …?" is said by "are *selected*" too, and "Who *drew* up …?" by "*drawn*
    up" (an irregular past: a regular one is written as its participle).
    """
    other = _present(verb) or _participle(verb)
    return [k for k, w in enumerate(sentence)
            if w == verb or (other and _participle(w) and _same(w, verb))]


def _present(word: str) -> bool:
    """A verb in the third person present ("selects", "owns"), not a noun's plural."""
    return word.endswith("s") and not _participle(word) and "VERB" in _lemmas(word) and (
        "NOUN" not in _lemmas(word)
    )


def _participle_unattributed(q: list[str], words: list[str], sentence: str) -> list[str]:
    """A who-question's verb that the sentence says only in participial phrases, no agent.

    "Who founded Merrowdale Abbey?" is not said by "Merrowdale Abbey was a Cistercian
    monastery in the county of Harrowmoor*, founded in 1147* and dissolved in 1538", nor
    "Who built the fulling mill at Brackenford?" by "a fulling mill at Brackenford*, built
    in 1391*": a participle after a comma with a preposition after it is a passive, and no
    *by* names the doer. Read where some use of the verb is such a phrase and every use
    names no agent (:func:`_agentless`, with the question's words after its verb); the
    question's object is in the sentence. ``q`` and ``words``: the question's and the
    sentence's lower-cased words; ``sentence`` as written, for its commas.
    """
    if len(q) < 3:
        return []
    at = 1 if q[0] == "who" else _wh_subject_verb(q)
    if at is None or not (_participle(q[at]) or _past_before_object(q, at)):
        return []
    content = _object_content(q[at + 1 :])
    if not content or not _has(words, content[-1]):
        return []
    commas = _after_comma(sentence)
    uses = _passive_uses(words, q[at])
    phrase = [w for w in q[at + 1 :] if _content(w)]
    if any(commas[k] for k in uses) and all(
        _agentless(words, k, phrase, after_comma=commas[k]) for k in uses
    ):
        return [f"{q[at]} {content[-1]}"]
    return []


def _agentless(
    sentence: list[str], at: int, phrase: Sequence[str], means: Sequence[str] = (),
    *, after_comma: bool = False,
) -> bool:
    """Whether the verb at ``at`` is a passive that names no agent.

    A form of *be* just before it, or a word of the question's object (``phrase``) — or,
    ``after_comma``, a comma — right before it and a preposition after it (a reduced
    passive: "by the light of *candles brought from* nearby houses", "the tree fern Cyathea
    *vellosa planted in* 1899", a particle between: "a *plan drawn up in* 1968"; a
    participial phrase: "a Cistercian monastery …, *founded in* 1147"); and no
    agent's *by* within the :data:`_AGENT_REACH` words after it: not one after another
    participle ("a band room was built … with money *raised by* a levy"), nor one before a
    number ("*by 2020* it had reached"), nor the noun's of an occasion
    (:data:`_OCCASIONS`).
    """
    after_verb = at + 2 if sentence[at + 1 : at + 2] and sentence[at + 1] in _PARTICLES else at + 1
    passive = any(w in _BE_ANY for w in sentence[max(0, at - 2) : at]) or (
        at > 0 and (after_comma or _has(phrase, sentence[at - 1]))
        and sentence[after_verb : after_verb + 1] != [] and sentence[after_verb] in _AFTER_PASSIVE
    )
    after = [*sentence[at + 1 : at + 1 + _AGENT_REACH], ""]  # "" ends the window
    agents = [
        i for i, w in enumerate(after[:-1])
        if w == "by" and not after[i + 1][:1].isdigit()
        and not any(_participle(v) for v in after[:i])
        and not (means and _has(means, after[i + 1]))
        and not (i >= 3 and after[i - 3] in _OCCASIONS and after[i - 2] in _DETERMINERS)
    ]
    return passive and not agents


_OCCASIONS = frozenset({"after", "following", "despite", "through"})
"""Prepositions of an occasion or a cause whose noun takes the *by* after it: "unveiled …
*after a campaign by* the local historian" names the campaign's author, not the
unveiler."""


def _named_after(sentence: list[str], at: int, head: str, markers: frozenset[str]) -> bool:
    """Whether the verb at ``at`` has a marker just before it and ``head`` only after it.

    The marker (a pronoun, a form of *be*) is the verb's own subject or auxiliary; ``head``
    is then not within the :data:`_WINDOW` words before the verb, and is named after it.
    """
    return (
        any(w in markers for w in sentence[max(0, at - 2) : at])
        and not _has(sentence[max(0, at - _WINDOW) : at], head)
        and _has(sentence[at + 1 :], head)
    )


def _agent_unstated(question: list[str], sentence: list[str]) -> list[str]:
    """A do-question's subject that the sentence's passive use of the verb leaves unsaid.

    "How many steamships did *the company* build?" is not said by "it owned 46 steamships,
    most of them built in Glasgow": every "built" of the sentence is passive (a participle
    with no object after it) and names no agent, or another ("built by Clyde yards"). A
    use with the subject before it ("the company's ships were built") or "by" and the
    subject after it says it. A reflexive question ("did Warsaw defend *itself*") asks about
    its subject as the patient too: a passive with no agent may say it.
    """
    clause = _do_clause(question)
    if clause is None or _object_after(question, clause[1]) in _REFLEXIVES:
        return []
    head, verb = clause
    uses = _uses(sentence, question[verb])
    if uses and all(
        _participle(sentence[k])
        and (k == 0 or sentence[k - 1] not in _PRONOUNS)  # "which he accepted": active
        and (k + 1 == len(sentence) or sentence[k + 1] in _AFTER_PASSIVE)
        and not _has(sentence[max(0, k - _WINDOW) : k], head)
        and not _by_agent(sentence, k, head)
        for k in uses
    ):
        return [f"{head} {question[verb]}"]
    return []


def _pronoun_subject(question: list[str], sentence: list[str]) -> list[str]:
    """An active question's subject named after the verb, whose subject is another.

    "On which bank does *Dresk* lie?" is not said by "*It* lies on the eastern bank …
    north of the national capital, Dresk": the sentence's "lies" has "it" for its subject
    and names Dresk after the verb, in another role; nor "Where do the *females* gather?"
    by "the *males* gather … to attract females" (another noun right before the verb). The
    pronoun stands for a party the sentence leaves to its context; where the question's
    subject stands before the verb ("Dresk, which lies …") it is read as the subject, and so
    is its given name right before it ("*Arthur* sold the firm" for "did Arthur Pennick sell").
    """
    clause = _do_clause(question) or _final_verb(question)
    if clause is None:
        return []
    head, verb = clause
    uses = _uses(sentence, question[verb])
    given = _given_name(question, head, verb)
    if uses and all(
        (
            _named_after(sentence, k, head, _PRONOUNS)
            or _other_subject(sentence, k, head)
            or _coordinated_subject(sentence, k, head)
        )
        and not _by_agent(sentence, k, head)
        and not (given and k > 0 and sentence[k - 1] == given)  # "Arthur sold": his given name
        for k in uses
    ):
        return [f"{head} {question[verb]}"]
    return []


def _coordinated_subject(sentence: list[str], at: int, head: str) -> bool:
    """Whether the verb at ``at`` follows "and" after an earlier verb, and ``head`` only after.

    "Construction began in 1992 *and cost* about 4.1 billion crowns …, mainly because …
    after a storm" for "How much did the storm cost?": the coordinated verb's subject is the
    earlier verb's (construction); the storm is named only after it.
    """
    return (
        at > 1
        and sentence[at - 1] == "and"
        and any(_inflected_verb(w) for w in sentence[: at - 1])
        and not _has(sentence[:at], head)
        and _has(sentence[at + 1 :], head)
    )


def _final_verb(question: list[str]) -> tuple[str, int] | None:
    """A question's last word as a verb with its subject noun before it ("… sheep *die*?")."""
    if len(question) < 3 or any(w in _BE_ANY or w in _DO for w in question):
        return None  # "What are the stages … called?": a passive's participle
    noun, verb = question[-2], question[-1]
    lemmas = _lemmas(verb)
    if _content(noun) and "NOUN" in _lemmas(noun) and "VERB" in lemmas and (
        "ADJ" not in lemmas
    ):
        return noun, len(question) - 1
    return None


def _other_subject(sentence: list[str], at: int, head: str) -> bool:
    """Whether the verb at ``at`` has another noun for its subject, and not ``head``.

    "the *males* gather at leks … to attract females" for "Where do the females gather?";
    "sick lambs die, but adult *sheep* usually recover" for "do lambs recover?". The
    subject is the noun before the verb (adverbs and auxiliaries between: "usually", "will");
    ``head`` anywhere in the verb's clause before it may be in its subject ("Fred Singer's
    project held"). The clause starts after the last word that opens one
    (:data:`_CLAUSE_OPENERS`).
    """
    k = _before_verb_group(sentence, at)
    before = sentence[k] if k >= 0 else ""
    start = max((i + 1 for i in range(k) if sentence[i] in _CLAUSE_OPENERS), default=0)
    return (
        _nominal(before)
        and not _has(sentence[start:at], head)
        and _has(sentence, head)
    )


def _before_verb_group(words: Sequence[str], at: int) -> int:
    """Where the word before the verb at ``at`` stands, past its auxiliaries and adverbs.

    ("sheep *usually* recover", "ospreys *have* nested": the subject's place.)
    """
    k = at - 1
    while k > 0 and (_adverb(words[k]) or "AUX" in _lemmas(words[k])):
        k -= 1
    return k


def _own_subject(clause: Sequence[str], at: int) -> bool:
    """Whether the verb at ``at`` has a noun (not a word that may stand for another) as subject.

    Auxiliaries and adverbs between are passed over ("ospreys *have* nested"), and a date
    after the subject ("a dispute over piece rates *in 1931* closed").
    """
    k = _before_verb_group(clause, at)
    if k > 1 and clause[k][:1].isdigit() and clause[k - 1] in _DATE_PREPOSITIONS:
        k -= 2  # "a dispute over piece rates *in 1931* closed": a date between
    return k >= 0 and _nominal(clause[k]) and clause[k] not in _STANDS_FOR


_DATE_PREPOSITIONS = frozenset({"in", "on", "by", "from", "until", "during"})
"""Prepositions of a date that may stand between a subject and its verb ("… *in 1931*
closed")."""


def _measured_elsewhere(question: list[str], sentence: list[str]) -> list[str]:
    """A counted noun the sentence gives for a verb other than the question's.

    "For how many years did Ellery *study* at Oslo?" is not said by "Ellery studied at
    Oslo, where she later *taught* for thirty years": between the question's verb and
    every "years" of the sentence a new clause opens, with a subject pronoun and a verb of
    its own, and the count is that verb's.
    """
    at = next((i for i in range(len(question) - 2) if question[i] == "how" and question[
        i + 1] in ("many", "much")), None)
    clause = _do_clause(question)
    if at is None or clause is None or not _content(question[at + 2]):
        return []
    noun, verb = question[at + 2], question[clause[1]]
    counts = _uses(sentence, noun)
    uses = _uses(sentence, verb)
    if counts and all(
        any(k < p for k in uses)
        and _new_clause(sentence[max(k for k in uses if k < p) + 1 : p], verb)
        for p in counts
    ):
        return [f"{verb} {noun}"]
    return []


def _new_clause(words: list[str], verb: str) -> bool:
    """Whether ``words`` open a clause of their own.

    A subject pronoun, then (one word between at most) a verb other than ``verb``.
    """
    return any(
        words[t] in _PRONOUNS and any(
            _lemmas(w).get("VERB") and w not in _BE_ANY and not _same(w, verb)
            for w in words[t + 1 : t + 3]
        )
        for t in range(len(words))
    )


def _roles_crossed(question: list[str], sentence: list[str]) -> list[str]:
    """A do-question's subject named only after the verb, another question term before it.

    "How many copies must *the library* deliver to *publishers*?" is not said by "Every
    *publisher* … must deliver two copies … to *the library*": the question's subject and
    the party after its verb have changed places around every use of the verb. A passive
    use with the subject as its agent ("were published by Ferre") says it; a noun after a
    number or a determiner ("by 112 *votes*") is no use of the verb.
    """
    clause = _do_clause(question)
    if clause is None:
        return []
    head, verb = clause
    after = [w for w in question[verb + 1 :] if _content(w) and not _same(w, head)]
    # a counted noun is no use of the verb ("by 112 *votes* to 64")
    uses = [k for k in _uses(sentence, question[verb]) if not (k > 0 and _counted(sentence[k - 1]))]
    if after and uses and all(
        not _has(sentence[:k], head)
        and _has(sentence[k + 1 :], head)
        and any(_has(sentence[:k], w) for w in after)
        and not _by_agent(sentence, k, head)
        for k in uses
    ):
        return [f"{head} {question[verb]}"]
    return []


def _counted(word: str) -> bool:
    """Whether ``word`` makes the word after it a noun ("112 *votes*", "the *votes*")."""
    return word[:1].isdigit() or word in _DETERMINERS


def _relative_object(question: list[str], sentence: list[str]) -> list[str]:
    """A do-question's object that the sentence's verb has not: its object is a relative's.

    "How often does Lumen show *the encryption key*?" is not said by "The encryption key is
    derived from your recovery phrase, *which* Lumen shows once": the verb has no object of
    its own after it, and "which" before its subject stands for the noun before it — the
    phrase, not the key. The question's object is the noun phrase right after its verb (a
    fronted object, "how many adherents does it have", is not read).
    """
    clause = _do_clause(question)
    if clause is None:
        return []
    _, verb = clause
    start = _after_determiners(question, verb + 1)
    noun_phrase = list(takewhile(_nominal, question[start:]))
    if not noun_phrase:
        return []
    obj = noun_phrase[-1]
    uses = _uses(sentence, question[verb])
    antecedents = [_antecedent(sentence, k) for k in uses]
    if uses and _has(sentence, obj) and all(
        a is not None and not _same(a, obj) for a in antecedents
    ):
        return [f"{question[verb]} {obj}"]
    return []


def _antecedent(sentence: list[str], at: int) -> str | None:
    """The noun a "which" / "that" before the verb at ``at`` stands for, else None.

    Only where the verb has no object after it ("the phrase, which Lumen shows once").
    """
    if _nominal(_object_after(sentence, at)):
        return None
    for k in range(at - 1, max(0, at - _WINDOW) - 1, -1):
        if sentence[k] in ("which", "that") and k > 0 and _content(sentence[k - 1]):
            return sentence[k - 1]
    return None


def _by_agent(sentence: list[str], at: int, head: str) -> bool:
    """Whether "by" and ``head`` follow the verb at ``at`` ("published *by Ferre*")."""
    rest = sentence[at + 1 : at + 1 + _WINDOW]
    return "by" in rest and _has(rest[rest.index("by") + 1 :], head)


def _amount_unattached(question: list[str], sentence: list[str]) -> list[str]:
    """A how-much question's verb that the sentence says only as a noun with no amount.

    "How much did the Heritage Fund *grant* to the Trust?" is not said by "… it raised
    £64,000 through public subscription, *a grant from* the Heritage Fund and the sale of
    bricks": the noun names the act, and an amount of it stands in its phrase ("a £500
    grant", "a grant of £500"); a value elsewhere in the sentence is another verb's. Read
    where every use of the verb's stem follows an article or a possessive.
    """
    if question[:2] != ["how", "much"] or question[2:3] not in (["did"], ["does"], ["do"]):
        return []
    # the verb: the last word before the first preposition ("did the Heritage Fund *grant*
    # to …": "fund" may be a verb too)
    phrase = list(takewhile(lambda w: w not in _AFTER_PASSIVE and w != "to", question[3:]))
    if len(phrase) < 2 or not _base_verb(phrase[-1]) or phrase[-2] in _DETERMINERS:
        return []  # "did *the licence* to quarry … cost": a noun after its article
    verb, head = phrase[-1], phrase[-2]
    uses = [k for k in _uses(sentence, verb) if k > 0]
    if uses and all(
        sentence[k - 1] in _DETERMINERS
        and sentence[k + 1 : k + 2] != ["of"]
        for k in uses
    ) and _has(sentence, head):
        return [f"{head} {verb}"]
    return []


_TIME_CLAUSES = frozenset({"after", "before", "when", "until", "once", "since", "while"})
"""Conjunctions that open a question's clause of time with a subject of its own ("*After*
Anne Greaves died, who …?")."""


def _name_before(words: Sequence[str], at: int) -> tuple[str, ...]:
    """The name (capitalised content words) that ends right before ``at``, lower-cased."""
    start = at
    while start > 0 and _proper(words[start - 1]):
        start -= 1
    return tuple(w.lower() for w in words[start:at])


def _same_party(a: Sequence[str], b: Sequence[str]) -> bool:
    """Whether two names may be one party: the words of one are all in the other."""
    return set(a) <= set(b) or set(b) <= set(a)


def _clause_subject_swapped(question: list[str], sentence: list[str]) -> list[str]:
    """A question's clause of time whose subject the sentence gives to its verb's other use.

    "After *Anne Greaves* died, who managed the company?" is not said by "After *Walter
    Greaves* died in 1789, Anne Greaves managed the company": the question's clause (a name
    and an inflected verb after *after*, *when*, *until* …) has its verb in the sentence
    only right after another name, and names its subject elsewhere. Names that share all
    the words of one ("Anne" and "Anne Greaves") are one party. Read on the words as
    written: a name is capitalised.
    """
    lower = [w.lower() for w in sentence]
    for i, j in _name_runs(question):
        if question[i - 1].lower() not in _TIME_CLAUSES or j == len(question):
            continue
        name = tuple(w.lower() for w in question[i:j])
        verb = question[j].lower()
        if not _inflected_verb(verb):
            continue
        uses = [k for k in _uses(lower, verb) if _verb_form(lower[k])]
        before = [_name_before(sentence, k) for k in uses]
        elsewhere = _find(lower, name) is not None
        if uses and elsewhere and all(b and not _same_party(b, name) for b in before):
            return [f"{' '.join(name)} {verb}"]
    return []


_FRAME_PREPOSITIONS = frozenset({"at", "in", "on", "from", "to", "near", "for", "by", "with"})
"""Prepositions before a name that the question's words frame on both sides."""


def _name_runs(words: Sequence[str], first: int = 1) -> list[tuple[int, int]]:
    """The (start, end) of each run of capitalised content words from ``first`` on.

    Past the first word by default: a question's first word is capitalised as such.
    """
    runs, i = [], first
    while i < len(words):
        if _proper(words[i]):
            j = i
            while j < len(words) and _proper(words[j]):
                j += 1
            runs.append((i, j))
            i = j
        else:
            i += 1
    return runs


def _filler_swapped(question: list[str], sentence: list[str]) -> list[str]:
    """A name of the question whose frame the sentence fills with another name.

    "Which car was found in use as a garden shed *at Tollbar in* 1984?" is not said by "…
    car 7, found in use as a garden shed *at Fellside in* 1984 and restored by the society,
    which displays it at the former Tollbar terminus": the two words before the question's
    name (a preposition last) and the word after it stand in the sentence around another
    name, and never around the question's. Read on the words as written.
    """
    lower_q = [w.lower() for w in question]
    lower_s = [w.lower() for w in sentence]
    s_runs = _name_runs(sentence)
    for i, j in _name_runs(question):
        if i < 2 or j >= len(question) or lower_q[i - 1] not in _FRAME_PREPOSITIONS:
            continue
        left, name, right = lower_q[i - 2 : i], lower_q[i:j], lower_q[j]
        framed = [
            lower_s[k:m] for k, m in s_runs
            if k >= 2 and lower_s[k - 2 : k] == left and m < len(lower_s) and lower_s[m] == right
        ]
        if framed and not any(_same_party(f, name) for f in framed):
            return [f"{' '.join(left)} {' '.join(name)}"]
    return []


_GIVERS = frozenset(
    {"sell", "lend", "give", "donate", "award", "lease", "transfer", "grant", "bequeath"}
)
"""Verbs whose subject gives and whose *to* phrase receives ("X sold it *to* Y")."""
_GOAL_REACH = 6
"""Words before a name within which its *to* may stand ("to the Strand Vale Urban District
Council")."""


def _goal_only(question: list[str], sentence: list[str]) -> list[str]:
    """A giver's do-question whose subject the sentence names only as the one given to.

    "To whom did the Urban District Council sell the railway?" is not said by "The Lift
    Company … sold the railway in 1934 *to the Strand Vale Urban District Council*": the
    council received it. Read where the question's verb gives (:data:`_GIVERS`), the
    sentence has it as a verb form, and every use of the subject's head follows *to* within
    :data:`_GOAL_REACH` words, with only words of its noun phrase between. Read on the
    words as written: a subject that is a name may be long ("the Strand Vale Urban District
    Council"), and ends before the first lower-case verb.
    """
    found = _named_do_subject(question)
    if found is None:
        return []
    head, verb = found
    lower = [w.lower() for w in sentence]
    if not _verb_lemmas(verb) & _GIVERS:
        return []
    if not any(_verb_form(w) and _same(w, verb) for w in lower):
        return []
    uses = _uses(lower, head)
    if uses and all(_after_to(lower, k) for k in uses):
        return [f"{head} {verb}"]
    return []


def _named_do_subject(question: Sequence[str]) -> tuple[str, str] | None:
    """A do-question's subject head and verb, lower-cased ("did the … *Council* *sell*")."""
    lower = [w.lower() for w in question]
    aux = next((i for i, w in enumerate(lower) if w in _DO), None)
    if aux is None:
        return None
    for k in range(aux + 2, len(question)):
        if question[k][:1].islower() and _base_verb(lower[k]):
            return lower[k - 1], lower[k]
        if not (_in_noun_phrase(lower[k]) or lower[k] in _DETERMINERS):
            return None
    return None


def _after_to(sentence: list[str], at: int) -> bool:
    """Whether the noun at ``at`` ends a *to* phrase ("to the … District *Council*")."""
    for k in range(at - 1, max(-1, at - 1 - _GOAL_REACH), -1):
        if sentence[k] == "to":
            return True
        if not _in_noun_phrase(sentence[k]) and sentence[k] not in _DETERMINERS:
            return False
    return False
