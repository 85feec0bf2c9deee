"""Phrases that bind two words of a question (see :mod:`grace.scoring.bindings`).

Of-phrases and the other binding prepositions, possessives, ways, opposite verbs, proper and
noun modifiers, alternatives and sibling clauses.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import takewhile

from grace.patterns import lazy
from grace.retrieval.synonyms import antonyms
from grace.scoring.bindings.roles import (
    _converse,
    _do_clause,
    _do_subject,
    _own_subject,
    _perfect_clause,
    _verb_lemmas,
)
from grace.scoring.bindings.words import (
    _ARTICLES,
    _DETERMINERS,
    _DO,
    _OF_PHRASE,
    _PARTICLES,
    _RELATIVES,
    _adverb,
    _after_determiners,
    _base_verb,
    _cased,
    _common,
    _content,
    _content_after,
    _content_before,
    _find,
    _given_name,
    _has,
    _inflected_verb,
    _lemmas,
    _name_word,
    _nominal,
    _noun_only,
    _noun_phrase_word,
    _object_after,
    _participle,
    _proper,
    _same,
    _uses,
    _verb_form,
)
from grace.text import (
    ENGLISH_STOPWORDS,
    Measure,
    answer_class_indices,
    answer_measures,
    contrasts,
    counted_noun,
    counts,
    in_closed_set,
    measure_words,
    states_measure,
)

_RANGE_ENDS = frozenset({"to", "until", "till"})
"""Words that end a from-phrase's range."""
_REVERSED = {"from": frozenset({"to", "into"}), "to": frozenset({"from"}),
             "into": frozenset({"from"})}
"""Prepositions of a way and those of the way back."""
_BINDING_PREPOSITIONS = frozenset({"of", "into", "from", "by", "under", "over"})
"""Prepositions that bind their object to the word before them: the owner ("capital *of*
Prussia"), what a thing became ("converted *into* a hotel"), where it came from ("moved
*from* Leeds"), who did it ("painted *by* Munch"), under whom ("trained *under* Osgood")
and over what ("recommended *over* two senior officers"). Not "to", "with" or "for", whose
object a sentence often words apart from the verb ("respond to", "associated with")."""


def _of_phrases(question: list[str], sentence: list[str]) -> list[str]:
    """The question's "N of M" (or "V into / from / by M") that the sentence says of others.

    "of" also holds where the sentence puts the owner first ("Prussia's capital"). A phrasal
    verb's particle binds as its verb would ("taken *over by* the state" is not "built by
    the company … and taken over by the state").
    """
    framed = answer_class_indices(question)
    out = []
    for i in range(1, len(question) - 1):
        noun, prep = question[i - 1], question[i]
        particle = noun in _PARTICLES and i > 1 and _content(question[i - 2])
        if prep not in _BINDING_PREPOSITIONS or not _binding_word(noun, particle, i - 1 in framed):
            continue
        j = _after_determiners(question, i + 1)
        if j >= len(question) or not _content(question[j]):
            continue
        owner = question[j]
        said = [k for k in range(len(sentence) - 1) if sentence[k + 1] == prep and _same(
            sentence[k], noun)]
        if not said or not _has(sentence, owner):
            continue
        if any(_binds_of(sentence, k + 2, owner, prep) for k in said) or (
            prep == "of" and _precedes(sentence, owner, noun)
        ):
            continue
        out.append(f"{question[i - 2] + ' ' if particle else ''}{noun} {prep} {owner}")
    return out


def _binding_word(word: str, particle: bool, framed: bool) -> bool:
    """Whether ``word`` is one a binding preposition ties its object to.

    A content word or a phrasal verb's particle; in the answer's class (after *what* /
    *which*) only a verb ("Which consortium *led* by …?": the class is "consortium").
    """
    return (_content(word) or particle) and (not framed or _verb_only(word))


_APPROXIMATE = frozenset(
    {"about", "around", "approximately", "roughly", "nearly", "almost", "some", "over", "under"}
)
"""Words before a number that say how exact it is ("of *about* 14 hours")."""


def _binds_of(sentence: list[str], start: int, owner: str, prep: str = "of") -> bool:
    """Whether the of-phrase at ``start`` names ``owner`` or a value (a number).

    A from-phrase ends where its range does ("from Kessa *to* Vessen": Vessen is where
    it went, not where it came from) and at an inflected verb not after a determiner ("a
    ferry from Kessa *reaches* Port Averel": the ferry is not from Port Averel).
    """
    first = _after_determiners(sentence, start)
    while first < len(sentence) - 1 and sentence[first] in _APPROXIMATE:
        first += 1  # "a half-life of *about* 14 hours": still a value
    if first < len(sentence) and sentence[first][:1].isdigit():
        return True
    phrase = sentence[start : start + _OF_PHRASE]
    if prep == "from":
        ends = [k for k, w in enumerate(phrase) if w in _RANGE_ENDS or (
            k > 0 and phrase[k - 1] not in _DETERMINERS and _inflected_verb(w))]
        phrase = phrase[: min(ends, default=len(phrase))]
    return _has(phrase, owner)


def _precedes(sentence: list[str], owner: str, noun: str) -> bool:
    """Whether the sentence says "owner('s) noun" ("Prussia's capital", "kingdom capital")."""
    for k in range(len(sentence) - 1):
        word = sentence[k].removesuffix("'s")
        if _same(word, owner) and _same(sentence[k + 1], noun):
            return True
    return False


_BEING = (("who", "was"), ("who", "is"), ("who", "had", "been"), ("who", "has", "been"),
          ("who", "became"), ())
"""What may stand between a name and "his N" that says the name *is* the N ("Agnes
Marwood, *who had been* his deputy"; nothing: "Tancred, his nephew")."""
_THEIR = frozenset({"his", "her", "their"})


def _apposed(sentence: list[str], noun: str, name: list[str]) -> bool:
    """Whether the sentence says the name *is* the noun ("his nephew Tancred").

    "noun name" ("his nephew Tancred", "pupil Ingrid Sollen"; an apposition may name the
    person's role between: "his assistant, *the pianist* Harold Quarmby"), or "name, (who
    was) his noun" ("Agnes Marwood, who had been his deputy").
    """
    n = len(name)
    before = any(
        _same(sentence[k], noun) and any(
            _role_between(sentence[k + 1 : k + 1 + skip])
            and all(_same(sentence[k + 1 + skip + j], name[j]) for j in range(n))
            for skip in range(min(3, len(sentence) - n - k - 1) + 1)
        )
        for k in range(len(sentence) - n)
    )
    return before or any(
        sentence[k : k + n] == name and _theirs(sentence[k + n :], noun)
        for k in range(len(sentence) - n)
    )


def _role_between(words: list[str]) -> bool:
    """Whether ``words`` (between a noun and a name) are nothing, or an article and role nouns.

    "the pianist" in "his assistant, the pianist Harold Quarmby"; not "and the", "of the".
    """
    if not words:
        return True
    return len(words) > 1 and words[0] in _ARTICLES and all(
        _content(w) and _nominal(w) for w in words[1:]
    )


def _theirs(words: list[str], noun: str) -> bool:
    """Whether ``words`` begin with "(who was) his / her / their noun" (:data:`_BEING`)."""
    for being in _BEING:
        at = len(being)
        if words[:at] == list(being) and words[at : at + 1] and words[at] in _THEIR:
            return at + 1 < len(words) and _same(words[at + 1], noun)
    return False


def _possessives(question: list[str], sentence: list[str]) -> list[str]:
    """The question's "X's N" or "N of X" where the sentence says "N X" (X *is* the N).

    "Who was the niece of the matron Clara Pellow?" is not said by "… was succeeded by her
    niece Clara Pellow".
    """
    out = []
    for noun, name, label in _owned(question):
        owner = name[-1]
        # the owner's name may have words before it ("Varlowe's pupil *Ingrid Sollen*")
        apposed = any(_apposed(sentence, noun, name[-m:]) for m in range(1, 4))
        of_owner = _of_owner(sentence, noun, owner)
        if apposed and not of_owner and not _precedes(sentence, owner, noun):
            out.append(label)
    return out


def _of_owner(words: Sequence[str], noun: str, owner: str) -> bool:
    """Whether ``words`` say "noun of … owner" (the owner within :data:`_OF_PHRASE` words)."""
    return any(
        words[k + 1] == "of" and _same(words[k], noun)
        and _has(words[k + 2 : k + 2 + _OF_PHRASE], owner)
        for k in range(len(words) - 1)
    )


def _owned(question: list[str]) -> Iterator[tuple[str, list[str], str]]:
    """(N, X's name words, label) of each "X's N" and "N of X" of the question."""
    for i, word in enumerate(question[:-1]):
        owner, noun = word.removesuffix("'s"), question[i + 1]
        if owner != word and _content(owner) and _content(noun):
            yield noun, [*question[max(0, i - 2) : i], owner], f"{owner}'s {noun}"
        if word == "of" and i > 0 and _nominal(question[i - 1]):
            start = _after_determiners(question, i + 1)
            name = list(takewhile(_noun_phrase_word, question[start:]))
            if name:
                yield question[i - 1], name, f"{question[i - 1]} of {name[-1]}"


def _directions(question: list[str], sentence: list[str]) -> list[str]:
    """A question's "V from X" that the sentence says as "V to X" (or "to" as "from").

    "Out of" is a way from ("When did the trust move its offices *out of* the Corn
    Exchange?" is not said by "The trust moved its offices *to* the Corn Exchange").
    "When did the island pass *from* the crown to the earls?" is not said by "it passed
    *to* the crown": the sentence holds the same verb and place, with the way reversed —
    right after the verb or past its object ("carrying coal *from* Leddington" for
    "carrying to Leddington"). A sentence that also says "V from X" says it.
    """
    out = []
    for verb, prep, place in _question_ways(question, sentence):
        ways = [_way(sentence, k) for k in range(len(sentence) - 1) if _same(sentence[k], verb)]
        said = [k for k in ways if k is not None and sentence[k] == prep]
        reversed_ = [k for k in ways if k is not None and sentence[k] in _REVERSED[prep]]
        if any(_binds_of(sentence, k + 1, place, sentence[k]) for k in reversed_) and not any(
            _binds_of(sentence, k + 1, place, prep) for k in said
        ):
            out.append(f"{verb} {prep} {place}")
    return out


def _question_ways(question: list[str], sentence: list[str]) -> list[tuple[str, str, str]]:
    """A question's (verb, way, place) triples: "pass *from* the crown", "move … out of X".

    A "to" right after a from-phrase's place is the same verb's ("moved from Kanzel *to*
    Selmingen": moved to Selmingen).
    """
    out: list[tuple[str, str, str]] = []
    for i in range(1, len(question) - 1):
        verb, prep = question[i - 1], question[i]
        if prep == "out" and question[i + 1] == "of":  # "move the offices out of X": from X
            prep, i = "from", i + 1
            verb = _moved_verb(question, i - 1, sentence) or ""
        if prep in ("to", "into") and out and out[-1][1] == "from" and out[-1][2] == verb:
            verb = out[-1][0]
        if prep not in _REVERSED or not _content(verb):
            continue
        j = _after_determiners(question, i + 1)
        if j < len(question) and _content(question[j]):
            out.append((verb, prep, question[j]))
    return out


_WAY_REACH = 4
"""Words after a verb where its way ("from" / "to") may stand, past its object ("carrying
*coal* from Leddington")."""


def _moved_verb(question: list[str], way: int, sentence: list[str]) -> str | None:
    """The verb before a question's "out of" at ``way``, past its object, in the sentence.

    "*move* its administrative offices out of": the sentence has "moved".
    """
    return next(
        (question[k] for k in range(way - 1, max(-1, way - 1 - _WAY_REACH), -1)
         if _content(question[k])
         and any(_same(w, question[k]) and _verb_form(w) for w in sentence)),
        None,
    )


def _way(sentence: list[str], at: int) -> int | None:
    """Where the first "from" / "to" / "into" after the verb at ``at`` stands, if near."""
    return next(
        (k for k in range(at + 1, min(len(sentence), at + 1 + _WAY_REACH))
         if sentence[k] in _REVERSED),
        None,
    )


def _opposite_verbs(question: list[str], sentence: list[str]) -> list[str]:
    """A question's verb and object that the sentence pairs with the verb's opposite.

    "How many times did Rovers *lose* the national league?" is not said by "Rovers *won*
    the national league three times, … and reached the cup final, which they lost": the
    league follows "won", an opposite of "lose" (:func:`grace.text.contrasts`, or WordNet's
    antonyms of the verb, :func:`grace.retrieval.synonyms.antonyms`: "*raised* the level"
    for "did they *lower* the level"), and never "lost". A verb's topic after *about* is its
    object too: "What did the report *criticise about the arithmetic*?" is not said by "the
    report *praised the arithmetic* … but criticised the reading".
    """
    out = []
    for i, verb in enumerate(question[:-1]):
        obj = _object_after(question, i)
        if obj == "about":  # "What did the report criticise *about the arithmetic*?"
            obj = _object_after(question, question.index("about", i + 1))
        opposites = _verb_antonyms(verb)
        if not ((in_closed_set(verb) or opposites) and _content(obj)):
            continue
        follows = [k for k in range(len(sentence) - 1) if _same(_object_after(sentence, k), obj)]
        if any(
            contrasts(verb, sentence[k]) or opposites & _verb_lemmas(sentence[k]) for k in follows
        ) and not any(_same(sentence[k], verb) for k in follows):
            out.append(f"{verb} {obj}")
    return out


_SIDES = {"for": "against", "against": "for"}
"""The two sides a verb of taking sides takes."""
_SIDE_VERBS = frozenset(
    {"vote", "argue", "campaign", "speak", "petition", "lobby", "declare", "rule", "agitate"}
)
"""Verbs of taking sides: *for* or *against* after them names the side taken."""


def _sides_reversed(question: list[str], sentence: list[str]) -> list[str]:
    """A verb of taking sides whose *for* / *against* the sentence reverses.

    "Which bill did Thomas Aldwinckle *vote for* in 1897?" is not said by "…, who nonetheless
    *voted against* the women's suffrage bill of that year": a vote against a bill is no
    vote for it. Read where the question's verb of :data:`_SIDE_VERBS` is followed by *for*
    or *against* (*in favour of* and *to* with a verb are *for*: "Why did the council *vote
    against* building a new bridge?" against "the council *voted to build* a new bridge"), and
    the sentence has that verb followed by the other side and does not name the question's
    side at all ("2,214 voted in favour and 1,306 *against*" states the votes against, its
    verb left out).
    """
    out: list[str] = []
    for i in range(len(question) - 1):
        side = _side_after(question, i)
        if side is None or not _verb_lemmas(question[i]) & _SIDE_VERBS:
            continue
        sides = {_side_after(sentence, k) for k, w in enumerate(sentence) if _same(w, question[i])}
        named = {side, "favour", "favor"} if side == "for" else {side}
        if _SIDES[side] in sides and not named & set(sentence):
            out.append(f"{question[i]} {side}")
    return out


def _side_after(words: list[str], at: int) -> str | None:
    """*for* or *against* right after ``at``.

    *In favour of* / *in favor of* is *for*, and so is *to* with a verb ("voted *to build* a
    new bridge": a vote for building it).
    """
    after = words[at + 1 : at + 3]
    if after[:1] and after[0] in _SIDES:
        return after[0]
    if after[:1] == ["to"] and after[1:] and _base_verb(after[1]):
        return "for"
    return "for" if after in (["in", "favour"], ["in", "favor"]) else None


@lru_cache(maxsize=4096)
def _verb_antonyms(word: str) -> frozenset[str]:
    """The antonyms of ``word``'s verb lemmas in WordNet ("lower" for "raised").

    WordNet spells *-ize*; a British *-ise* lemma ("criticise") is looked up as *-ize* too,
    and each antonym is given in both spellings.
    """
    return frozenset(
        spelt
        for lemma in _verb_lemmas(word)
        for form in _spellings(lemma)
        for a in antonyms(form)
        for spelt in _spellings(a)
    )


def _spellings(lemma: str) -> tuple[str, ...]:
    """A verb lemma in its *-ise* and *-ize* spellings ("criticise", "criticize")."""
    if lemma.endswith("ise"):
        return (lemma, f"{lemma[:-3]}ize")
    if lemma.endswith("ize"):
        return (lemma, f"{lemma[:-3]}ise")
    return (lemma,)


def _proper_modifiers(question: list[str], sentence: list[str]) -> list[str]:
    """The question's proper modifier of a noun that the sentence gives another one.

    "Who attacked *the Ostrian camp*?" is not said by "The Ostrian commander attacked the
    Swedish camp": the sentence holds "Ostrian" and "camp", but every "camp" it names has
    another proper modifier ("Swedish") before it. A capitalised word before a common noun
    (a people, a place, a person: "Ostrian", "Paris", "Tudor") restricts the noun to that
    party; so it does before a capitalised common noun that ends a name ("the *Kell*
    Strait" is not "the Orsen Strait"). The question's pair must open a noun phrase ("*the*
    Ostrian camp") whose noun is not a do-question's verb ("did the Normans *fight*": the
    name is the subject; "did the Ostrian *army* besiege" is read), and a possessive is
    :func:`_possessives`' to read. Read on
    the words' cased forms (:func:`_cased`); a sentence's first word is capitalised for the
    sentence's sake and never counts.
    """
    clause = _do_clause([w.lower() for w in question])
    verb = clause[1] if clause else -1
    out = []
    for i in range(1, len(question) - 1):
        modifier, noun = question[i], question[i + 1]
        if (
            question[i - 1].lower() not in _DETERMINERS
            or i + 1 == verb
            or not (_proper(modifier) and (_common(noun) or _named_kind(noun)))
        ):
            continue
        low, head = modifier.lower(), noun.lower()
        uses = [k for k in range(1, len(sentence)) if _same(sentence[k].lower(), head)]
        if not uses or not _has([w.lower() for w in sentence], low):
            continue
        if all(
            _proper(sentence[k - 1]) and k - 1 > 0 and not _same(sentence[k - 1].lower(), low)
            for k in uses
        ):
            out.append(f"{low} {head}")
    return out


def _noun_modifiers(question: list[str], sentence: list[str]) -> list[str]:
    """The question's noun modifying a noun, where the sentence's every such noun has another.

    "When was the university granted *college* status?" is not said by "founded in 1871 as a
    technical college … and granted *university* status in 1962": a noun before a noun
    (a compound: "college status", "city council") names which one; the sentence's every
    "status" has another noun before it, and "college" elsewhere. Both modifiers must be
    nouns only (lemminflect: no adjective or verb reading), so "main" / "large" or a verb
    after its subject ("did the company *build*") are never read as compounds.
    """
    clause = _do_clause(question)
    verb = clause[1] if clause else -1
    out = []
    for i in range(len(question) - 1):
        modifier, noun = question[i], question[i + 1]
        if i + 1 == verb or not (_noun_only(modifier) and "NOUN" in _lemmas(noun)):
            continue
        uses = [k for k in range(1, len(sentence)) if _same(sentence[k], noun)]
        if uses and _has(sentence, modifier) and all(
            _noun_only(sentence[k - 1]) and not _same(sentence[k - 1], modifier) for k in uses
        ):
            out.append(f"{modifier} {noun}")
    return out


def _modifier_moved(question: list[str], sentence: list[str]) -> list[str]:
    """The question's modifier of a noun that the sentence puts before another noun.

    "What happened to the *new church*?" is not said by "The *old church* … was rebuilt in
    the *new village*"; nor "Since when has the site been on the *World Heritage list*?" by
    "on the *tentative list* for *World Heritage status*": the sentence's every use of the
    modifier stands before another noun (a word with no other reading: not "ill *must*"),
    and its every use of the noun has another word before it. Read for a modifier right
    before its noun, neither of them a verb form; a modifier a few words before the noun
    still modifies it ("the very *first* Fresno *television* station").
    """
    clause = _do_clause(question)
    verb = clause[1] if clause else -1
    framed = answer_class_indices(question)  # "what *construction sector*": the answer's class
    out = []
    for i in range(len(question) - 1):
        modifier, noun = question[i], question[i + 1]
        if i + 1 == verb or i in framed or not (
            _modifying(modifier, noun) and _nominal(noun)
        ) or _same(modifier, noun):
            continue
        placed = [k for k in _uses(sentence, modifier) if k + 1 < len(sentence)]
        uses = [k for k in _uses(sentence, noun) if k > 0]
        if placed and uses and all(
            _noun_only(sentence[k + 1]) and not _has(sentence[k + 1 : k + 4], noun)
            for k in placed
        ) and all(_content(sentence[k - 1]) and not _same(sentence[k - 1], modifier)
                  for k in uses):
            out.append(f"{modifier} {noun}")
    return out


def _modifying(word: str, noun: str) -> bool:
    """A content word that may modify ``noun``.

    No verb form ("new", "heritage", "college"), or an -ing form before a word that is
    only a noun ("*breeding* females").
    """
    if word.endswith("ing") and _noun_only(noun):
        return _content(word)
    return _content(word) and not _inflected_verb(word) and not _participle(word)


def _alternatives_swapped(question: list[str], sentence: list[str]) -> list[str]:
    """A question's "X rather than Y" that the sentence says the other way round.

    "How many soldiers died in battle rather than from disease?" is not said by "About
    11,000 soldiers and sailors died, most of them from disease rather than in battle": the
    word before "rather than" / "instead of" is the one chosen, the word after it the one
    set aside, and the sentence has them swapped.
    """
    out = []
    for q_at, s_at, size in _alternative_markers(question, sentence):
        chosen, other = _content_before(question, q_at), _content_after(question, q_at + size)
        if chosen and other and _same(_content_before(sentence, s_at) or "", other) and _same(
            _content_after(sentence, s_at + size) or "", chosen
        ):
            out.append(f"{chosen} rather than {other}")
    return out


def _alternative_markers(
    question: list[str], sentence: list[str]
) -> list[tuple[int, int, int]]:
    """Where the question and the sentence hold "rather than" / "instead of", and its length."""
    found = []
    for marker in (("rather", "than"), ("instead", "of")):
        q_at = _find(question, marker)
        s_at = _find(sentence, marker)
        if q_at is not None and s_at is not None:
            found.append((q_at, s_at, len(marker)))
    return found


def _parallel_clauses(question: list[str], sentence: str) -> list[str]:
    """Question terms that the sentence's sibling clauses hold apart.

    "How many computers does the Pro edition back up *for free*?" is not said by "The *free*
    edition backs up one computer; the *Pro* edition, which costs 49 euros a year, backs up
    up to five computers": clauses side by side after 「;」, each opening on the same noun
    with a modifier of its own ("the free edition …; the Pro edition …"), state each
    sibling's facts apart. A question that names one sibling asks about that clause; one
    that names none asks for the sibling whose clause holds all its terms; one that names
    two mixes them.
    """
    found = _sibling_clauses(sentence)
    if found is None:
        return []
    clauses, siblings = found
    named = [i for i, m in enumerate(siblings) if _has(question, m)]
    if len(named) > 1:
        return [" / ".join(siblings[i] for i in named)]
    asked = named or list(range(len(clauses)))
    terms = [w for w in question if _content(w) and w not in siblings and any(
        _has(c, w) for c in clauses)]
    if any(all(_has(clauses[i], t) for t in terms) for i in asked):
        return []
    if named:
        return [next(
            f"{siblings[named[0]]} / {t}" for t in terms if not _has(clauses[named[0]], t)
        )]
    return [_apart(terms, clauses)]


def _apart(terms: list[str], clauses: list[list[str]]) -> str:
    """Two of ``terms`` that no clause holds together ("one / euros")."""
    pairs = (
        f"{a} / {b}" for a in terms for b in terms
        if not any(_has(c, a) and _has(c, b) for c in clauses)
    )
    return next(pairs, " / ".join(terms))


def _sibling_clauses(sentence: str) -> tuple[list[list[str]], list[str]] | None:
    """The sentence's 「;」 clauses and their modifiers, or None.

    Only when each clause opens on "the M N" with the same N and its own M ("the free
    edition …; the Pro edition …").
    """
    clauses = [[w.lower() for w in _cased(c)] for c in sentence.split(";") if c.strip()]
    if len(clauses) < 2 or any(len(c) < 3 or c[0] not in _DETERMINERS for c in clauses):
        return None
    siblings = [c[1] for c in clauses]
    if len(set(siblings)) < len(siblings) or len({c[2] for c in clauses}) != 1:
        return None
    return (clauses, siblings) if _content(clauses[0][2]) else None


def _words(text: str) -> list[str]:
    """The lower-case words of ``text``, a number without the comma or stop after it.

    (:func:`_cased` keeps "1926," whole, as it keeps "1,000".)
    """
    return [w.lower().rstrip(",.") if w[:1].isdigit() else w.lower() for w in _cased(text)]


COORDINATED_CLAUSE_PATTERN = (
    r";|,\s+(?:and|but|while|whereas)\s+|\s+(?:and|but)\s+(?=(?:was|were|is|are|has|have|had)\b)"
    r"|\s+(?:and|but)\s+(?=(?:by|in|from|until|after)\s+(?:1\d{3}|20\d{2})\b)"
    r"|\s+and\s+(?=(?:later|subsequently|afterwards)\s)"
)
"""Where a sentence's coordinated clauses meet ("…, and the coldest is …"; 「;」), and its
coordinated predicates, which share the subject ("was approved … in 2012 *but was* rejected
… in 2014": an "and" / "but" before an auxiliary starts a predicate, not a noun; so does one
before a dated phrase, "was founded in 1381 *and by 1450* had about 140 members", or before
"later" / "subsequently", "lectured … in 1838 *and later* served as president"). The
sentence rule's negation scope adds relative clauses to it."""
_COORDINATED_CLAUSE = lazy(COORDINATED_CLAUSE_PATTERN)


@lru_cache(maxsize=4096)
def _clause_words(sentence: str) -> tuple[tuple[str, ...], ...]:
    """The words (:func:`_words`) of each of ``sentence``'s coordinated clauses.

    Read once per sentence: the year and value readings both ask it, for every question
    checked against the sentence.
    """
    return tuple(tuple(_words(c)) for c in _COORDINATED_CLAUSE.split(sentence))


def _poles_apart(question: list[str], sentence: str) -> list[str]:
    """A name of the question that the sentence pairs with the opposite of its closed-set word.

    "What is the average *high* in *January*?" is not said by "The warmest month is *July*,
    with an average *high* of 26 °C, and the coldest is *January*, with an average *low* of
    −9 °C": coordinated clauses state one fact each of two siblings; the question's "high"
    is the clause that names July, its "January" the clause of the opposite, "low". Read
    only where the asked word's clause names a sibling of its own (another capitalised
    word), so that a word the second clause leaves out ("the lowest, −35 °C, was recorded
    on 3 February": the temperature) still counts for it.
    """
    names = [w.lower() for w in question[1:] if _proper(w)]
    parts = [_cased(c) for c in _COORDINATED_CLAUSE.split(sentence)]
    if not names or len(parts) < 2:
        return []
    out: list[str] = []
    for word in (w.lower() for w in question if in_closed_set(w.lower())):
        out.extend(f"{name} / {word}" for name in _named_apart(word, names, parts))
    return out


def _named_apart(word: str, names: list[str], parts: list[list[str]]) -> list[str]:
    """The ``names`` said only in the clauses of ``word``'s opposite.

    Only where ``word`` has one clause of its own, naming a sibling (``parts``: the
    clauses' words as written).
    """
    clauses = [[w.lower() for w in c] for c in parts]
    own = [i for i, c in enumerate(clauses) if _has(c, word)]
    other = [
        i for i, c in enumerate(clauses)
        if i not in own and any(contrasts(word, w) for w in c)
    ]
    if len(own) != 1 or not other or not any(_proper(w) for w in parts[own[0]][1:]):
        return []
    return [
        name for name in names
        if not _has(clauses[own[0]], name) and any(_has(clauses[i], name) for i in other)
    ]


_SET_ASIDE = lazy(
    r"\b(unless|unlike|instead of|rather than|distinguished from|as opposed to|excluding|whether)"
    r"\b([^;]*)",
    re.IGNORECASE,
)
"""A phrase that sets its words aside: "unless" to the clause's end; "unlike", "instead of",
"rather than", "distinguished from", "as opposed to", "excluding" to the next comma or "by"
("from the smooth newt *by* the orange stripe": the stripe is what distinguishes); "whether"
too, to the same end: an embedded question ("disputed *whether* his flag had fallen") asks
what it says, it does not state it. Not
"except" or "apart from": after a negation they say the opposite ("no longer used, *except
in* steam locomotives" says where they are used)."""
_ASIDE_END = lazy(r",|\bby\b")
_COMPARED = lazy(
    r"\b(than|as (?:many|much) as|(?:twice|half|times) as [a-z]+ as)\s+"
    r"((?:the|its|their|his|her|those|[A-Z][a-z]+)\b[^;]*)"
)
"""The standard of a comparison: what follows "than" or "as … as", when it is a noun phrase
(a determiner or a name: "faster than *the relay calculator*", "twice as many as *the
neighbouring Brannock Iron Works*"), to the next comma or relative or coordinating word. Not
a quantity ("more than 1,200 people", "more than half"): its noun is what is counted; nor
an extent ("as far as the first century", "as well as the club"): "as … as" compares only
after "as many" / "as much" or a multiplier ("twice as long as")."""
_COMPARED_REACH = 4
"""Words before a noun that a "than" or "as" comparing it may stand within ("than *the
neighbouring* Brannock works")."""
_COMPARED_END = lazy(r",|\b(?:and|but|which|that|who|whose|where|when|while)\b")


def _asides(sentence: str, compared: bool) -> Iterator[tuple[str, str, int]]:
    """(marker, the words it sets aside, where they start) of each such phrase of ``sentence``.

    ``compared``: the standards of comparison too.
    """
    for match in _SET_ASIDE.finditer(sentence):
        marker = match.group(1).lower()
        aside = match.group(2) if marker == "unless" else _ASIDE_END.split(match.group(2))[0]
        yield marker, aside, match.start(2)
    for match in _COMPARED.finditer(sentence) if compared else ():
        yield match.group(1).lower(), _COMPARED_END.split(match.group(2))[0], match.start(2)


_NOUN_BEFORE = frozenset({"in", "on", "at", "of", "by", "since", "until", "from", "for", "with"})
"""Prepositions after which a word that may be a verb is read as a noun."""
_INTENT = frozenset({
    "proposal", "proposals", "proposed", "plan", "plans", "planned", "scheme", "attempt",
    "attempts", "attempted", "bid", "offer", "offered", "intention", "intended", "hoped",
    "sought", "tried", "failed", "refused", "considered", "suggested",
})
"""Words after which an infinitive is not said to have happened ("a proposal *to move* it",
"failed *to win*"): an intention, an attempt or a refusal."""
_INTENT_VERBS = frozenset({
    "propose", "plan", "attempt", "bid", "offer", "intend", "hope", "seek", "try", "fail",
    "refuse", "decline", "consider", "suggest", "threaten", "invite", "fear",
})
"""The verbs of :data:`_INTENT`, whose every inflection is one too ("hopes", "trying"),
*decline* (a refusal, as *refuse*: "declined to take over the business"; "declined to 400" has
no verb after its "to"), *invite* (an invitation is an offer: "was invited to sing at the
jubilee service … but declined") and *threaten* (a threat states an intention, not the act:
"threaten prosecution") and *fear* (a fear is of what may happen: "which *feared losing* its
street-lighting contract")."""


@lru_cache(maxsize=4096)
def _intent(word: str) -> bool:
    """Whether ``word`` is one of intention, attempt or refusal (:data:`_INTENT`), in any form.

    "The trust *hopes* eventually *to restore* the branch" says no restoring happened, as
    "hoped to" does.
    """
    return word in _INTENT or bool(_verb_lemmas(word) & _INTENT_VERBS)


def _unasserted(question: list[str], sentence: list[str]) -> list[str]:
    """A question's verb that the sentence says only as an intention, not as an event.

    "In which year was the market moved to the industrial estate?" is not said by "a
    proposal in 1999 to move it to the Millfield industrial estate was abandoned": every use
    of the verb is an infinitive or a gerund after a word of intention, attempt or refusal
    (:func:`_intended_at`); a verb the sentence does not use is read through its converse
    ("proposed *selling* the pier to Castellan Holdings" for "did Castellan Holdings pay").
    Not where the question says such a word itself ("the plan to move", "when was the
    phase to reopen it announced").
    """
    if any(_intent(w) or w in _PLANNED for w in question):
        return []
    out = []
    for word in question:
        if not (_content(word) and "VERB" in _lemmas(word)):
            continue
        # a use after a preposition or a determiner is a noun ("captured *in March*")
        said = _uses(sentence, word) or _converse_uses(sentence, word)
        uses = [
            k for k in said
            if k == 0 or not (sentence[k - 1] in _NOUN_BEFORE or sentence[k - 1] in _DETERMINERS)
        ]
        if uses and all(_intended_at(sentence, k) for k in uses):
            k = uses[0]  # as the sentence says it: "to move", "proposed merging"
            out.append(f"{sentence[k - 1]} {sentence[k]}")
    return out[:1]


_REQUEST_VERBS = frozenset({"petition", "apply", "ask", "call", "campaign", "lobby", "appeal"})
"""Verbs of asking for a thing ("*petitioned* Parliament for a ban"), in any form."""
_REQUEST_NOUNS = frozenset({"petition", "petitions", "application", "applications", "request",
                            "requests", "appeal", "appeals", "campaign", "campaigns"})
"""Nouns of asking for a thing ("a *petition* for its closure")."""
_REQUEST_REACH = 5
"""Words before the *for* where its word of asking may stand ("petitioned *Parliament* for")."""


def _request(word: str) -> bool:
    """Whether ``word`` asks for a thing (:data:`_REQUEST_VERBS`, :data:`_REQUEST_NOUNS`)."""
    return word in _REQUEST_NOUNS or bool(_verb_lemmas(word) & _REQUEST_VERBS)


def _requested_only(question: list[str], sentence: list[str]) -> list[str]:
    """A question's verb that the sentence says only as the noun of a thing asked for.

    "In what year did Parliament *ban* drift nets?" is not said by "the company petitioned
    Parliament *for a ban* on drift nets, but the petition failed": asking for a thing is not
    getting it, as a word of intention before an infinitive says no act (:func:`_unasserted`).
    Read where every use of the verb's word in the sentence is a noun after *for* (and a
    determiner) with a verb or noun of asking within :data:`_REQUEST_REACH` words before
    it; not where the question asks of the request itself ("Who petitioned for the ban?").
    """
    if any(_request(w) for w in question):
        return []
    for word in question:
        if not (_content(word) and "VERB" in _lemmas(word)):
            continue
        uses = _uses(sentence, word)
        if uses and all(_asked_for(sentence, k) for k in uses):
            return [f"for {sentence[uses[0]]}"]
    return []


def _asked_for(sentence: list[str], at: int) -> bool:
    """Whether the word at ``at`` is the noun of a *for* after a word of asking."""
    k = at - 1
    if k >= 0 and sentence[k] in _DETERMINERS:
        k -= 1
    if k < 0 or sentence[k] != "for":
        return False
    return any(_request(w) for w in sentence[max(0, k - _REQUEST_REACH) : k])


def _converse_uses(sentence: list[str], word: str) -> list[int]:
    """Where the sentence has a converse of the verb ``word`` ("selling" for "pay")."""
    other = _converse(_verb_lemmas(word))[1]
    return [k for k, w in enumerate(sentence) if other & _verb_lemmas(w)] if other else []


_INTENT_REACH = 7
"""Words before an infinitive's "to" where its word of intention may stand ("a plan *drawn
up in 1934* to station a lightship")."""


def _intended_at(sentence: list[str], at: int) -> bool:
    """Whether the verb at ``at`` is an infinitive or a gerund of intention.

    "to" with a word of :data:`_INTENT` in the :data:`_INTENT_REACH` words before it, or a
    gerund or the verb's noun right after one ("the chapter *proposed merging* the school",
    "led the river board to *threaten prosecution*"). A verb coordinated
    with such an infinitive shares its "to" ("a plan to demolish the ropewalk *and build* 60
    houses"), or repeats it ("proposed to turn it into a weekly *and to move* its printing").
    """
    if at == 0:
        return False
    if _proposed_that(sentence, at):
        return True
    if _intent(sentence[at - 1]):  # "proposed merging", "threaten prosecution"
        return sentence[at].endswith("ing") or set(_lemmas(sentence[at])) == {"NOUN"}
    if sentence[at - 1] in ("and", "or"):
        return _coordinated_intent(sentence, at - 1, gerund=sentence[at].endswith("ing"))
    return sentence[at - 1] == "to" and (
        any(_intent(w) for w in sentence[max(0, at - 1 - _INTENT_REACH) : at - 1])
        or _planned_after(sentence, at)
        or (at >= 2 and sentence[at - 2] in ("and", "or") and _coordinated_intent(sentence, at - 2))
    )


def _proposed_that(sentence: list[str], at: int) -> bool:
    """Whether the verb at ``at`` is a base form in a that-clause of a word of intention.

    "The governors proposed instead *that* St Aldric's *become* an independent school": the
    subjunctive after a proposal says what was proposed, not that it happened ("records
    suggest that the mill *closed*" states a past fact: not a base form).
    """
    if not _base_verb(sentence[at]):
        return False
    for j in range(at - 1, max(0, at - 1 - _INTENT_REACH), -1):
        if sentence[j] == "that":
            return any(_intent(w) for w in sentence[max(0, j - 2) : j])
    return False


def _coordinated_intent(sentence: list[str], conjunction: int, *, gerund: bool = False) -> bool:
    """Whether the infinitive (or gerund) before the "and" at ``conjunction`` is intended.

    "proposed to turn the paper into a weekly *and (to) move* its printing": the second verb
    is coordinated with the first infinitive, and is intended as it is; so is a gerund
    after one of intention ("considered closing the station *and moving* its lifeboat"),
    where the second verb is a gerund too (``gerund``).
    """
    for k in range(conjunction - 1, max(-1, conjunction - 1 - _COORDINATED_REACH), -1):
        if sentence[k] == "to":
            return _intended_at(sentence, k + 1)  # its verb
        if gerund and k > 0 and sentence[k].endswith("ing") and _intent(sentence[k - 1]):
            return True
    return False


_COORDINATED_REACH = 10
"""Words before a coordinating "and" within which the first infinitive's "to" may stand
(the infinitive and its object: "to turn the Examiner back into a weekly")."""


_PLANNED = frozenset({
    "announced", "proposed", "planned", "suggested", "considered", "rejected", "abandoned",
    "shelved", "postponed", "deferred", "dropped",
})
"""Passive participles that leave their subject a plan ("… *was announced* in 2015")."""
_PLAN_REACH = 12
"""Words after an infinitive within which the predicate of its noun phrase may stand."""


def _planned_after(sentence: list[str], at: int) -> bool:
    """Whether the infinitive at ``at`` is in the subject of a predicate of planning.

    "A second phase, *to reopen* the twine walk as a working rope shop, *was announced* in
    2015": the infinitive modifies the subject of *was announced*, which leaves it a plan.
    The first *was* / *were* after it, with no relative word before it, is the predicate's.
    """
    for k in range(at + 1, min(len(sentence) - 1, at + _PLAN_REACH)):
        if sentence[k] in _RELATIVES:
            return False
        if sentence[k] in ("was", "were"):
            return sentence[k + 1] in _PLANNED
    return False


def _standard_elsewhere(question: list[str], sentence: list[str]) -> list[str]:
    """The standard of the question's comparison, said by the sentence in another role.

    "Which lake is larger *than Lake Carrach*?" is not said by "It is the second-largest
    lake after Lake Carrach, which is larger by about a third": the sentence holds the
    comparative and the lake, but never compares anything with Carrach ("than" or "as" a few
    words before it). Read for each word of the standard's noun phrase ("taller than *the
    Free Church*" against "the Free Church … is smaller than St Aldric's Church"), where the
    sentence holds the question's comparative too (else the term check names it).
    """
    if "than" not in question:
        return []
    at = question.index("than")
    start = _after_determiners(question, at + 1)
    phrase = list(takewhile(_noun_phrase_word, question[start:]))
    if not phrase or at == 0 or not _has(sentence, question[at - 1]):
        return []
    for word in reversed(phrase):  # its head first ("Lake *Carrach*")
        uses = _uses(sentence, word)
        if uses and not any(
            w in ("than", "as") for k in uses for w in sentence[max(0, k - _COMPARED_REACH) : k]
        ):
            return [f"than {word}"]
    return []


def _set_aside(question: list[str], sentence: str) -> list[str]:
    """A question term the sentence says only in a phrase that sets it aside.

    "What share of the vote must a party win to receive *a constituency seat*?" is not said
    by "A party must win at least 4 percent … to receive seats, *unless it wins a
    constituency seat outright*"; "How is the *concert harp* held?" not by "*Unlike the
    larger concert harp*, it is held on the lap"; "Why do modern instruments use *gut*?" not
    by "Modern instruments often use nylon *instead of gut*": what follows "unless" is the
    case the rule does not cover, and what follows "unlike", "instead of", "rather than",
    "distinguished from" or "as opposed to" is what the sentence does not say it of ("are
    distinguished from the closely related *smooth newt* by …" for "How long are adult
    smooth newts?"). So is the standard of a comparison: "How long did an addition take on
    *the relay calculator*?" is not said by "An addition took about 0.6 milliseconds, which
    made TAMIR roughly twenty times faster *than the relay calculator*" — but a why-question
    may ask for the comparison itself ("greater … than the furs from the continent"). Not
    where the question says the marker itself.
    """
    out: list[str] = []
    for marker, aside, start in _asides(sentence, compared="why" not in question):
        if _find(question, tuple(marker.split())) is not None:
            continue
        words = _words(aside)
        rest = _words(sentence[:start] + sentence[start + len(aside) :])
        out.extend(
            f"{marker} {w}" for i, w in enumerate(question)
            if _content(w) and question[i - 1 : i] != ["how"]  # "how *many*": the slot
            and _has(words, w) and not _has(rest, w)
        )
    return out[:1]


_REPLACED = lazy(r"\b(replacing|in place of)\s+([^;]*)", re.IGNORECASE)
"""What a clause's subject replaced ("sheds …, *replacing canvas lines* that had been used
since 1924"), to the next comma or "by"."""
_REPLACE = frozenset({"replace", "place"})


def _replaced_mixed(question: list[str], sentence: str) -> list[str]:
    """A question that asks of the replaced thing what the sentence says of what replaced it.

    "How many stalls were there in the *canvas* cattle lines used from 1924?" is not said by
    "Permanent cattle sheds with 340 stalls were built …, *replacing canvas lines* that had
    been used since 1924": a thing replaced is another thing than the one that replaced it,
    so a question that joins a term said only of the one ("canvas") with a term said only of
    the other ("stalls") mixes the two. A question whose terms are all in the replaced
    phrase asks about it ("How long had the canvas lines been used?"); one that says
    *replace* itself asks about the replacing ("What did the sheds replace?").
    """
    if any(_verb_lemmas(w) & _REPLACE for w in question):
        return []
    for match in _REPLACED.finditer(sentence):
        aside = _ASIDE_END.split(match.group(2))[0]
        start = match.start(2)
        words = _words(aside)
        rest = _words(sentence[:start] + sentence[start + len(aside) :])
        terms = [w for w in question if _content(w)]
        apart = [w for w in terms if _has(words, w) and not _has(rest, w)]
        if apart and any(_has(rest, w) and not _has(words, w) for w in terms):
            return [f"{match.group(1).lower()} {apart[0]}"]
    return []


_CONCESSION = lazy(r",\s+(?:although|though|whereas|while)\s+", re.IGNORECASE)
"""Where a concessive or contrasting clause follows the main clause ("…, although …",
"…, while fishing has declined since the 1980s")."""


def _across_concession(question: list[str], sentence: str) -> list[str]:
    """A question that ties its verb or year in the main clause to a term of the concession.

    "What was unemployment *in the eastern provinces in 2019*?" is not said by
    "Unemployment fell … to 6 percent *in 2019*, *although* it remains more than twice as
    high *in the eastern provinces*": a clause after ", although" / ", though" / ",
    whereas" / ", while" states another fact, of another time or party. Read where the
    question's verb or year is only in one of the two clauses and another of its terms only
    in the other; a question whose terms all fall in one clause asks about that one.
    """
    parts = _CONCESSION.split(sentence, maxsplit=1)
    if len(parts) < 2:
        return []
    main, other = (_words(p) for p in parts)
    anchors = [w for w in question if _YEAR.fullmatch(w) or (_content(w) and _verb_like(w))]
    terms = [w for w in question if _content(w) and w not in anchors]
    for anchor in anchors:
        for here, there in ((main, other), (other, main)):
            if _has(here, anchor) and not _has(there, anchor):
                apart = [t for t in terms if _has(there, t) and not _has(here, t)]
                if apart:
                    return [f"{anchor} / {apart[0]}"]
    return []


def _attributive(words: Sequence[str], at: int) -> bool:
    """Whether the word at ``at`` stands between a determiner and a noun: a modifier.

    ("the *revised* Manual": not a verb.)
    """
    return 0 < at < len(words) - 1 and words[at - 1] in _DETERMINERS and _nominal(words[at + 1])


def _subject_words(clause: Sequence[str]) -> Sequence[str]:
    """The words of a clause before its first verb: its subject.

    A verb form between a determiner and a noun is a modifier, not the verb ("Suggestions
    for *a devolved Parliament* were made"; "A ferry from Kessa *reaches* Port Averel" has
    its verb).
    """
    for i, word in enumerate(clause):
        if _verb_form(word) and not _attributive(clause, i):
            return clause[:i]
    return clause


def _verb_like(word: str) -> bool:
    """A verb form, or a base form whose only reading is a verb ("employ", not "plain")."""
    return _verb_form(word) or set(_lemmas(word)) == {"VERB"}


_YEAR = lazy(r"(?:1\d{3}|20\d{2})s?")
"""A year or a decade as a word ("1915", "1980s")."""


def _dated_apart(question: list[str], sentence: str) -> list[str]:
    """A question's verb and year that the sentence states in different coordinated clauses.

    "Who was *elected* speaker *in 1915*?" is not said by "Women have been able to vote …
    since *1915*; the first woman speaker, Karen Holm, was *elected in 1979*": a date goes
    with its own clause's verb; so does a noun ("How many *members* has the Alliance had
    *since 2013*?" against "The Alliance, founded in 2013 …; it has had more than 300
    *members since 2018*"). Read where every clause with the term (for a verb, a verb
    form, not "election") names another year and none names the question's; a noun of the
    sentence's subject is not read (the later clauses say it with "it"), nor the answer's
    class ("*which company* commissioned"). A clause with the term and no year is read too,
    when the year is only in later clauses with subjects of their own
    (:func:`_has_own_subject`). A predicate after "and now" is a clause of its own
    (:func:`_with_present`).
    """
    years = [w for w in question if _YEAR.fullmatch(w)]
    clauses = _with_present(_clause_words(sentence))
    if not years or len(clauses) < 2:
        return []
    subject = _subject_words(clauses[0])
    # "which *company*": the answer's class; not a verb in its three words ("which body
    # *approved*"), the question's relation
    framed = {i for i in answer_class_indices(question) if not _verb_only(question[i])}
    terms = [
        w for i, w in enumerate(question) if i not in framed and _content(w)
        and not _YEAR.fullmatch(w)
        and (_verb_form(w) or (_nominal(w) and not _has(subject, w)))
    ]
    return [
        f"{term} in {year}" for year in years for term in terms
        if _same_clause(question, term, year) and _apart_from_year(clauses, term, year)
    ]


def _with_present(clauses: Sequence[Sequence[str]]) -> tuple[tuple[str, ...], ...]:
    """``clauses`` with each cut again before "and now" / "and today" (:data:`_PRESENT`).

    "… admitted girls from 1911 *and now*, as an academy, teaches about 900 pupils": the
    predicate after it is the present's, dated apart from the year before it.
    """
    out: list[tuple[str, ...]] = []
    for clause in clauses:
        start = 0
        for k in range(1, len(clause)):
            if clause[k - 1] == "and" and clause[k] in _PRESENT:
                out.append(tuple(clause[start : k - 1]))
                start = k
        out.append(tuple(clause[start:]))
    return tuple(out)


def _same_clause(question: list[str], term: str, year: str) -> bool:
    """Whether ``term`` and ``year`` are on the same side of the question's relative word.

    "Who prepared the supplement *that was issued in 1912*?": the year dates the relative
    clause's verb, not "prepared".
    """
    relative = next((i for i, w in enumerate(question) if i and w in _RELATIVES), None)
    if relative is None:
        return True
    return (question.index(term) > relative) == (question.index(year) > relative)


_LEADING_CLAUSE = lazy(
    r"^(\s*(?:After|Before|When|Once|Although|Though|Because|Since|While|Until|As)\s[^,;]+),"
)
"""A sentence's opening adverbial clause up to its comma ("After Amos Thirlby died in 1883,
Josiah bought …"): a clause of its own, with its own subject."""


def _subject_apart(question: list[str], sentence: str) -> list[str]:
    """A do-question's subject said only in another coordinated clause than its verb.

    "Since what year have *otters* nested beside Loch Aulder?" is not said by "Otters are
    found along its whole length, and ospreys have nested beside Loch Aulder since 1988":
    every clause with the verb has a noun of its own right before it (auxiliaries and
    adverbs between) and not the question's subject, which another clause names. A clause
    whose verb has no subject of its own ("…, and in 1905 added a wing") or a pronoun
    ("…, and it added") may be the subject's, and is not read — unless the verb opens the
    clause and the first clause's subject is another ("Sir Gideon … inherited the estate …
    from his father …, and demolished the manor house": not the father). An opening adverbial clause
    is a clause too: "*After Amos Thirlby died in 1883*, Josiah bought a disused tannery"
    does not say what Thirlby bought.
    """
    clause = _do_clause(question) or _perfect_clause(question)
    clauses = _clause_words(_LEADING_CLAUSE.sub(r"\1;", sentence, count=1))
    if clause is None or len(clauses) < 2:
        return []
    head, verb = clause
    said = [(c, k) for c in clauses for k in _uses(c, question[verb])]
    # a subjectless predicate after a relative clause may be the relative's ("…, who had
    # played … and had moved"): the first clause's subject is read only without one
    first = clauses[0] if _RELATIVES & set(clauses[0]) else _subject_words(clauses[0])
    given = _given_name(question, head, verb)
    if said and any(_has(c, head) for c in clauses) and all(
        not _bears(c, head, given) and (
            _own_subject(c, k) or (c is not clauses[0] and _opens_predicate(c, k)
                                   and not _has(first, head))
        )
        for c, k in said
    ):
        return [f"{head} {question[verb]}"]  # as the do-question readings name it
    return []


def _bears(clause: Sequence[str], head: str, given: str | None) -> bool:
    """Whether a clause names the question's subject: its head, not only after another name.

    "Sir Hugh Tennock died" does not name Gerald Tennock; "Tennock died" may.
    """
    uses = _uses(clause, head)
    if not uses or given is None or _has(clause, given):
        return bool(uses)
    return not all(k > 0 and _name_word(clause[k - 1]) for k in uses)


def _opens_predicate(clause: Sequence[str], at: int) -> bool:
    """Whether the verb at ``at`` opens its clause (past adverbs): a coordinated predicate.

    It shares the first clause's subject: "Sir Gideon Ellerby inherited the estate … from
    his father …, and *demolished* the Tudor manor house" says Sir Gideon demolished it.
    """
    return all(not _content(w) or _adverb(w) for w in clause[:at])


def _year_of_another(question: list[str], sentence: str) -> list[str]:
    """A question's "N of Y" / "N in Y" (a year) where the sentence dates every N otherwise.

    "How many patients died in *the fire of 1931*?" is not said by "…, opened in 1931, …
    destroyed by *a fire in 1927* in which eleven patients died": the sentence's every "fire"
    has another year within three words after it, and 1931 elsewhere.
    """
    words = _words(sentence)
    out = []
    for i in range(2, len(question)):
        year, noun = question[i], question[i - 2]
        if not (_YEAR.fullmatch(year) and question[i - 1] in ("of", "in") and _nominal(noun)):
            continue
        dates = [
            [w for w in words[k + 1 : k + 4] if _YEAR.fullmatch(w)] for k in _uses(words, noun)
        ]
        if year in words and dates and all(d and year not in d for d in dates):
            out.append(f"{noun} {question[i - 1]} {year}")
    return out


_DATED_ROLE = lazy(
    r"\b[Tt]he\s+((?:1\d{3}|20\d{2}))\s+((?:[a-z-]+\s+){0,2}[a-z-]+),\s+"
    r"((?:[A-Z][\w'’-]*(?:,\s+and\s+|\s+and\s+|,\s+|\s+)?)+)"
)
"""A role dated by a year and the names apposed to it ("*The 1991 co-winners, Marek Tollund
and Ines Carvath*, divided …")."""
_CAPITALISED = lazy(r"\b[A-Z][\w'’-]*")


def _role_of_another_year(question: str, sentence: str) -> list[str]:
    """A who-question's year whose names the sentence gives only to a role of another year.

    "Who were the players who shared the title *in 1975*?" is not said by "… players who
    finished level had shared the title, as happened in 1975 and 1991. *The 1991
    co-winners, Marek Tollund and Ines Carvath*, divided the prizes": a year before a noun
    dates it, and every name of the sentence (not the question's) is apposed to a role so
    dated by another year, while the question's year is said elsewhere.
    """
    years = _YEAR.findall(question)
    if not question.lower().startswith("who ") or len(years) != 1 or years[0] not in sentence:
        return []
    asked = {w.lower() for w in _cased(question)}
    dated = [(m.group(1), m.group(2), set(_CAPITALISED.findall(m.group(3))))
             for m in _DATED_ROLE.finditer(sentence)]
    names = {
        w for w in _CAPITALISED.findall(sentence)
        if w.lower() not in asked and w.lower() not in ENGLISH_STOPWORDS
    }
    apposed = [(year, role) for year, role, said in dated if said & names]
    if names and apposed and all(year != years[0] for year, _ in apposed) and all(
        any(name in said for _, _, said in dated) for name in names
    ):
        return [f"{apposed[0][1]} in {years[0]}"]
    return []


def _year_of_other_predicate(question: list[str], sentence: str) -> list[str]:
    """A do-question's verb and year that the sentence gives two coordinated predicates.

    "Which festival did the club *win in 1891*?" is not said by "the club *came third* … in
    1891 and *won* first prize … in 1896": two predicates joined by *and* / *but* share the
    subject, and each year goes with its own. Read where the question names one year, every
    predicate with the question's verb names another year and none names the question's, and
    the question's year is in another predicate.
    """
    found = _do_subject(question)
    years = [w for w in question if _YEAR.fullmatch(w)]
    if found is None or len(years) != 1:
        return []
    verb, year = question[found[1]], years[0]
    parts = _predicates(_words(sentence))
    said = [p for p in parts if any(_same(w, verb) and _inflected_verb(w) for w in p)]
    if len(parts) < 2 or not said or not any(year in p for p in parts):
        return []
    if all(year not in p and _dated(p) for p in said):
        return [f"{verb} in {year}"]
    return []


def _predicates(words: list[str]) -> list[list[str]]:
    """``words`` cut before each finite verb after *and* / *but* ("… in 1891 and *won* …").

    Not before an *-ing* form: "became a director in 1919 and managing director in 1926"
    has one verb for both.
    """
    cuts = [
        k + 1 for k in range(len(words) - 1)
        if words[k] in ("and", "but") and _inflected_verb(words[k + 1])
        and not words[k + 1].endswith("ing")
    ]
    return [words[a:b] for a, b in zip([0, *cuts], [*cuts, len(words)], strict=True)]


def _measured_apart(question: str, sentence: str) -> list[str]:
    """A number question's term that the sentence says only in a clause without the value.

    "How much did *Hallmann* pay for the division?" is not said by "In 2004 Norden acquired
    Rurex *for 120 million euros*, and in 2011 it sold its construction steel division *to
    Hallmann*": the only value of the asked measure (money) is in the first clause, and
    Hallmann only in the second. Read for coordinated clauses (:data:`_COORDINATED_CLAUSE`)
    and a name of the question (a capitalised word) or a number that is not a year ("the
    *60*-inch engine" against "… a 60-inch engine …, and a larger 85-inch engine … at a
    cost of £6,800"), the terms a value most often swaps; not a name of the sentence's
    subject, which a later clause says with "it" ("A ferry from Kessa reaches Port Averel
    …; in winter it sails twice a day").
    """
    measures = answer_measures(question)
    parts = _COORDINATED_CLAUSE.split(sentence)
    if not measures or len(parts) < 2:
        return []
    valued = [states_measure(p, measures) for p in parts]
    if not any(valued):
        return []
    clauses = _clause_words(sentence)
    subject = _subject_words(clauses[0])
    names = [
        w.lower() for w in _cased(question)[1:]
        if _proper(w) or (w[:1].isdigit() and not _YEAR.fullmatch(w))
    ]
    measure = " ".join(measure_words(question)).lower() or "value"
    return [
        f"{name} / {measure}" for name in names
        if any(_has(c, name) for c in clauses) and not _has(subject, name)
        and not any(_has(c, name) for c, v in zip(clauses, valued, strict=True) if v)
    ][:1]


def _valued_apart(question: list[str], sentence: str) -> list[str]:
    """A what-question's "N of X" whose value the sentence gives in a clause without X.

    "What was the capacity of the retort house completed in 1874?" is not said by "A second
    gasholder, with a capacity of 120,000 cubic feet, was erected in 1868, and a retort house
    … was completed in 1874": the only "capacity" with a number after it (within three words,
    not a year) is in the first coordinated clause, and the retort house only in the second.
    Not where a clause with the value speaks of another's noun by a pronoun ("…, and *its*
    capacity was …"), nor for X in the first clause's subject.
    """
    if question[:1] != ["what"] or "of" not in question[2:5]:
        return []
    at = question.index("of", 2)
    noun = question[at - 1]
    phrase = list(takewhile(_noun_phrase_word, question[_after_determiners(question, at + 1) :]))
    if not _nominal(noun) or not phrase:
        return []
    head = phrase[-1]
    clauses = _clause_words(sentence)
    valued = [
        any(_same(w, noun) and _number_after(c[k + 1 : k + 4]) for k, w in enumerate(c))
        for c in clauses
    ]
    if len(clauses) < 2 or not any(valued) or _has(_subject_words(clauses[0]), head):
        return []
    if any(_PRONOUN_WORDS & set(c) for c, v in zip(clauses, valued, strict=True) if v):
        return []
    if any(_has(c, head) for c in clauses) and not any(
        _has(c, head) for c, v in zip(clauses, valued, strict=True) if v
    ):
        return [f"{noun} of {head}"]
    return []


_LIST_SPLIT = lazy(r"(,\s+(?:and\s+|or\s+)?|\s+(?:and|or)\s+)")
"""Where a list of noun phrases parts its items: a comma, "and" / "or"."""
_ITEM_STARTS = frozenset({"a", "an", "the", "its", "their", "his", "her"})
"""Words a list's item begins with (and a number: "320 iron pens")."""
_ITEM_PREPOSITIONS = frozenset({"on", "in", "at", "by", "with", "for", "from", "to", "over"})
"""Prepositions a list of phrases repeats before each item ("*on* a wooden trestle … and
*on* a stone viaduct of seven arches"): the item is the noun phrase after it."""


_ITEM_GOES_ON = frozenset({"which", "that", "who", "whose", "where", "with"})
"""Words a part of the sentence begins with that goes on with the item before it."""
_ITEM_HEAD_ENDS = frozenset(
    {"with", "of", "for", "that", "which", "who", "whose", "where", "in", "at", "on", "from",
     "by", "to"}
)
"""Words after an item's head noun ("a brick auction *ring* with a slate roof")."""
_MEASURED = frozenset({"long", "high", "wide", "deep", "tall", "thick", "across", "old", "length",
                       "height", "width", "depth", "diameter", "apart", "away"})
"""Last words of a measure said of the item before it ("a north pier, 300 metres *long*")."""


def _listed_apart(question: str, sentence: str) -> list[str]:
    """A number question's subject the sentence lists as one item, the value in another.

    "How many storeys did the brick auction ring have?" is not said by "The site had 320
    iron pens, a weighbridge, a brick auction ring with a slate roof, and a two-storey
    office building": a value stands in the item it is said of (its noun phrase, with the
    phrases and relative clause after it), and the asked ring is another item of the list.
    Read where the words of an item's noun phrase up to its head are all terms of the
    question, and those of no item with the value are (a name of the question, capitalised
    there, is no term here: "the Baildon *Library*'s lending department" against "a
    reference *library* of 18,000 volumes").
    """
    measures, counted = answer_measures(question), counted_noun(question)
    if not measures and counted is None:
        return []
    named = measure_words(question)
    terms = [
        w.lower() for w in _cased(question)
        if w == w.lower() and _content(w) and w not in named
        and not (counted and _same(w, counted))
    ]
    for items in _lists(sentence):
        head = _asked_item(items, [_valued(item, measures, counted) for item in items], terms)
        if head:
            return [f"{head} / {counted or ' '.join(named) or 'value'}"]
    return []


def _asked_item(items: Sequence[str], valued: Sequence[bool], terms: Sequence[str]) -> str:
    """The head of the item the question asks about, where the value is another's.

    An item without the value whose words are all ``terms``, where no item with the value
    has only such words; ``""`` if there is none.
    """
    asked = [_item_words(i) for i, v in zip(items, valued, strict=True) if not v]
    others = [_item_words(i) for i, v in zip(items, valued, strict=True) if v]
    asked = [words for words in asked if words and all(_has(terms, w) for w in words)]
    if not asked or not others or any(all(_has(terms, w) for w in o) for o in others):
        return ""
    return asked[0][-1]


def _valued(item: str, measures: tuple[Measure, ...], counted: str | None) -> bool:
    """Whether a list's item says a value of the asked measure, or a count of ``counted``."""
    own = _own(item)
    if counted is None:
        return states_measure(own, measures)
    return any(_has(found.lower().split(), counted) for found in counts(own, counted))


_VERB_PHRASES = lazy(
    r"\s(?:for|from|at|in|on|by|to|during|between|after|before|until|since)\s.*", re.I
)
"""A phrase after an item that may be its verb's ("bought the mill and its water rights
*from the Pell family for £3,400*": the price is the purchase's, not the rights')."""


def _own(item: str) -> str:
    """What a list's item says of itself.

    Its noun phrase with of- and with-phrases, and the parts that go on with it
    (:func:`_goes_on`), not a phrase that may be the verb's.
    """
    base, comma, rest = item.partition(", ")
    return _VERB_PHRASES.sub("", base) + comma + rest


def _lists(sentence: str) -> list[list[str]]:
    """The lists of noun phrases in ``sentence``: two items or more, the last after "and" / "or".

    An item begins with an article, a possessive or a number (:data:`_ITEM_STARTS`), and
    in a list of phrases with one preposition, after it (:data:`_ITEM_PREPOSITIONS`: "on a
    wooden trestle … and on a stone viaduct"; a phrase with another preposition ends a list:
    "a timber pier, on the Inchcorran side, at a cost of £2,300"); the
    first one may end a part of the sentence that begins otherwise, or a clause ("… opened
    with *a lending department*", "The site had *320 iron pens*"). A part goes on with the
    item before it (:func:`_goes_on`), and so do the parts after the last "and" / "or"
    item: a phrase after a comma alone is an apposition ("The first ropewalk, *an open-air
    walk 320 yards long*, …"), not an item. A clause is known by its *be* / *have* only:
    "The ferry used a small boat" is read as one item, and its list goes unread.
    """
    pieces = _LIST_SPLIT.split(sentence.rstrip(". "))
    found: list[list[str]] = []
    items: list[str] = []
    joined: list[bool] = []  # whether "and" / "or" introduced the item
    run: str | None = None  # the preposition every item of the run comes after, if any
    for part, sep in zip(pieces[0::2], ["", *pieces[1::2]], strict=True):
        words = _words(part)
        prep = words[0] if sep and _prepositional(words) else None
        if prep:
            part, words = part.split(None, 1)[1], words[1:]  # "on a stone viaduct …"
        if items and words and prep == run and _goes_on(words, items[-1]):
            items[-1] = f"{items[-1]}, {part}"
        elif len(words) > 1 and _item_start(words[0]) and not _clause(words) and prep == run:
            items.append(part)
            joined.append(sep.strip(", ") in {"and", "or"})
        else:
            found.extend(_closed(items, joined))
            tail = part if prep else _tail(part, words)
            items, joined, run = ([tail], [False], prep) if tail else ([], [], None)
    return found + _closed(items, joined)


def _prepositional(words: Sequence[str]) -> bool:
    """Whether a part of a list is a preposition and an item ("on a stone viaduct …")."""
    return len(words) > 2 and words[0] in _ITEM_PREPOSITIONS and _item_start(words[1])


def _item_start(word: str) -> bool:
    """Whether an item may begin with ``word``: an article, a possessive or a number."""
    return word in _ITEM_STARTS or _counts_value(word)


_BE_HAVE = frozenset({"was", "were", "is", "are", "had", "has", "have"})
"""The verbs a clause is known by in a list (:func:`_clause`)."""


def _clause(words: Sequence[str]) -> bool:
    """Whether a part that begins like an item is a clause ("The site *had* 320 pens")."""
    return any(w in _BE_HAVE for w in words[1:])


def _tail(part: str, words: Sequence[str]) -> str:
    """The item a part of the sentence ends with: after a clause's verb, or its last article."""
    cased = _cased(part)
    if len(cased) != len(words):
        return ""
    verb = next((k for k, w in enumerate(words) if w in _BE_HAVE), None)
    if verb is not None:
        start = next((k for k in range(verb + 1, len(words)) if _item_start(words[k])), None)
    else:
        start = max((k for k, w in enumerate(words) if w in _ITEM_STARTS), default=None)
    return " ".join(cased[start:]) if start is not None and start < len(words) - 1 else ""


def _closed(items: list[str], joined: list[bool]) -> list[list[str]]:
    """A run of items as a list, if "and" / "or" brings in one of them (none: appositions)."""
    if True not in joined:
        return []
    last = len(joined) - 1 - joined[::-1].index(True)
    kept = items[: last + 1]
    kept[-1] = ", ".join([kept[-1], *items[last + 1 :]])  # an apposition to the last
    return [kept]


def _goes_on(words: Sequence[str], before: str) -> bool:
    """Whether a part of a list (``words``) goes on with the item before it.

    A relative word or "with" ("a horse boat, *which could carry four horses*"), a
    participle and its agent ("*rowed by* two men"), a measure ("*300 metres long*"), or a
    count after a count ("an auditorium of three tiers *and 880 seats*").
    """
    return (
        words[0] in _ITEM_GOES_ON
        or (words[0].endswith("ed") and words[1:2] == ["by"])
        or (_counts_value(words[0]) and len(words) <= 6 and words[-1] in _MEASURED)
        or (_counts_value(words[0]) and any(_counts_value(w) for w in _words(before)[-4:]))
    )


def _item_words(item: str) -> list[str]:
    """The content words of a list's item up to its head noun ("brick auction ring")."""
    words = _words(item.split(",")[0])
    return [w for w in takewhile(lambda w: w not in _ITEM_HEAD_ENDS, words) if _content(w)]


def _number_after(words: Sequence[str]) -> bool:
    """Whether ``words`` hold a number that is not a year ("of *120,000* cubic feet")."""
    return any(w[:1].isdigit() and not _YEAR.fullmatch(w) for w in words)


_BETWEEN = lazy(r"\bbetween\b([^,;]*?)\band\b([^,;]*)", re.IGNORECASE)
"""A range "between X and Y"; Y is read as a noun phrase (:func:`_endpoints`)."""


def _counted_apart(question: list[str], sentence: str) -> list[str]:
    """A count question's terms that the sentence splits over clauses with counts of their own.

    "How many houses in *the northern half* were *added* during the second phase?" is not
    said by "The first phase … comprised 420 houses in the northern half of the estate, and
    the second phase … added 610 houses": each coordinated clause gives its own count, and
    no clause with one holds all the question's terms. Not the counted noun, a year, the
    answer's class, or a word of the first clause's subject (the later clauses say it with
    "it").
    """
    if question[:2] != ["how", "many"]:
        return []
    clauses = _clause_words(sentence)
    valued = [c for c in clauses if any(_counts_value(w) for w in c)]
    if len(valued) < 2:
        return []
    terms = _count_terms(question, _subject_words(clauses[0]))
    held = [[w for w in terms if _has(c, w)] for c in valued]
    if not terms or any(len(h) == len(terms) for h in held):
        return []
    if not all(any(_has(c, w) for c in valued) for w in terms):
        return []  # a term no counted clause holds: the term check's or another reading's
    first = max(held, key=len)
    other = next(w for w in terms if w not in first)
    return [f"{first[0]} / {other}"] if first else []


def _count_terms(question: list[str], subject: Sequence[str]) -> list[str]:
    """The terms of a "how many N …" question a counted clause must hold.

    Not the counted noun, a year, the answer's class, or a word of the sentence's subject.
    """
    framed = answer_class_indices(question)
    return [
        w for i, w in enumerate(question[3:], start=3) if i not in framed and _content(w)
        and not _YEAR.fullmatch(w) and not _has(subject, w)
    ]


def _counts_value(word: str) -> bool:
    """Whether a word is a count: a number that is not a year, or a number word."""
    return (word[:1].isdigit() and not _YEAR.fullmatch(word)) or word in _COUNT_WORDS


_COUNT_WORDS = frozenset(
    "two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty "
    "hundred thousand dozen".split()
)
"""Number words a count may be written in."""


def _endpoint_only(question: str, sentence: str) -> list[str]:
    """A number question's term that the sentence names only as an end of a range.

    "How long is *the Ostrian border*?" is not said by "The Amber Coast … stretching for
    about 180 kilometres between the mouth of the Selve in the west and *the Ostrian border*
    in the east": the value measures what spans the range, not an end of it. Not where the
    question says "between" itself.
    """
    if not answer_measures(question) or "between" in question.lower():
        return []
    inside = [w for m in _BETWEEN.finditer(sentence) for w in _endpoints(m)]
    if not inside:
        return []
    words = _words(sentence)
    return [
        f"between {w}" for w in (x.lower() for x in _cased(question))
        if _nominal(w) and _has(inside, w) and len(_uses(words, w)) == len(_uses(inside, w))
    ][:1]


def _endpoints(match: re.Match[str]) -> list[str]:
    """The words of a range's two ends.

    All words before "and", and the noun phrase after it ("the Ostrian border" of "the
    Ostrian border in the east"; "2004" of "2004 and still sails").
    """
    first = _words(match.group(1))
    after = _words(match.group(2))
    start = _after_determiners(after, 0)
    return first + after[:start] + list(takewhile(_noun_phrase_word, after[start:]))


def _apart_from_year(clauses: Sequence[Sequence[str]], term: str, year: str) -> bool:
    """Whether every clause with ``term`` names another year, and none names ``year``.

    A verb of the question counts only as a verb form ("elected", not "election"). The
    present (:data:`_PRESENT`) is another time than any year asked.
    """
    verb = _verb_form(term)
    dated = {i for i, c in enumerate(clauses) if year in c}
    said = {i for i, c in enumerate(clauses) if any(
        _same(w, term) and (_verb_form(w) or not verb) for w in c)}
    if not dated or not said or dated & said:
        return False
    return all(_dated(clauses[i]) or _PRESENT & set(clauses[i]) for i in said) or (
        min(dated) > max(said) and all(_has_own_subject(clauses[i]) for i in dated)
    )


_PRESENT = frozenset({"now", "today", "currently", "presently"})
"""Adverbs that date a clause to the time of writing: "… *and now* teaches about 900 pupils"
does not say how many it taught in 1911."""


_PRONOUN_WORDS = frozenset({"it", "its", "they", "their", "them", "he", "his", "him", "she", "her"})
"""Pronouns and possessive determiners: a clause with one may speak of another clause's noun."""
_ASKS_TIME = lazy(
    r"^(?:when|(?:in |on |by |during )?(?:what|which) (?:year|date|decade|century|month|day))\b",
    re.IGNORECASE,
)


def _named_clause_apart(question: str, sentence: str) -> list[str]:
    """A term of the question said only in another coordinated clause than its name's.

    "What national record did Winifred Lusk set for the 200 yards *freestyle*?" is not said
    by "Dorothy Kemble won the 100 yards *freestyle* …, and Winifred Lusk set a national
    record … for the 200 yards breaststroke": the clause that names Lusk holds every other
    term of the question, and "freestyle" is only in another clause with a subject of its
    own. A when-question's year likewise ("The chapel had been deconsecrated *in 1991*, and
    the hospital's archives were deposited with the Record Office" does not date the
    archives; "…, while Dockray was cut up"). Not read where either clause has a pronoun,
    which may stand for the other's noun ("…, and its boathouse was built in 1910").
    """
    cased = _cased(question)
    names = [w.lower() for w in cased[1:] if w[:1].isupper()]
    found = _name_clause(_clause_words(sentence), names)
    if found is None:
        return _names_split(tuple(tuple(_words(c)) for c in sentence.split(";")), names)
    own, others = found
    terms = _clause_terms([w.lower() for w in cased], set(names))
    if not all(_has(own, t) or any(_has(c, t) for c in others) for t in terms):
        return []  # a term said nowhere: the term check's to name
    apart = [t for t in terms if not _has(own, t)]
    if _ASKS_TIME.search(question) and not _dated(own) and any(_dated(c) for c in others):
        apart.append("year")
    return [f"{names[0]} / {t}" for t in apart]


def _names_split(clauses: Sequence[Sequence[str]], names: list[str]) -> list[str]:
    """Two names of the question that the sentence says only in two clauses apart.

    ``clauses``: the sentence's clauses between semicolons (a clause after ", and" / ",
    but" often names the first one's subject again by a noun: "Clay had been dug at Wexley …,
    but production began when the canal reached *the village*"). "In what year was the
    tollhouse at the *Cotterill* end rebuilt in a *Gothic* style?" is not said by "The
    tollhouse at the Harrowmere end was rebuilt in 1838 in a Gothic style; the older
    tollhouse at the Cotterill end was demolished in 1870": each clause (each opening on its
    own subject, with no pronoun) states its own fact, and a question that takes a name from
    each joins two facts.
    """
    if len(clauses) < 2 or not all(_plain_clause(c) for c in clauses):
        return []
    where = {n: [i for i, c in enumerate(clauses) if _has(c, n)] for n in dict.fromkeys(names)}
    placed = {n: found[0] for n, found in where.items() if len(found) == 1}
    for first, here in placed.items():
        for second, there in placed.items():
            if here < there:
                return [f"{first} / {second}"]
    return []


def _name_clause(
    clauses: Sequence[Sequence[str]], names: list[str]
) -> tuple[Sequence[str], list[Sequence[str]]] | None:
    """The one clause that holds a name of the question, and the others.

    None unless every clause opens on its own subject and has no pronoun (one may stand
    for another clause's noun).
    """
    named = [c for c in clauses if any(_has(c, n) for n in names)]
    if len(clauses) < 2 or len(named) != 1 or not all(_plain_clause(c) for c in clauses):
        return None
    return named[0], [c for c in clauses if c is not named[0]]


def _dated(clause: Sequence[str]) -> bool:
    return any(_YEAR.fullmatch(w) for w in clause)


def _plain_clause(clause: Sequence[str]) -> bool:
    """A clause that opens on its own subject and has no pronoun to stand for another's."""
    return _opens_on_subject(clause) and not _PRONOUN_WORDS & set(clause)


def _clause_terms(question: list[str], names: set[str]) -> list[str]:
    """The question's content words less its names, years and the answer's class."""
    framed = answer_class_indices(question)  # "what *year*", "which *record*"
    return [
        w for i, w in enumerate(question)
        if i not in framed and _content(w) and w not in names and not _YEAR.fullmatch(w)
    ]


def _opens_on_subject(clause: Sequence[str]) -> bool:
    """Whether a clause opens on a noun or a name, past its determiners.

    "Winifred Lusk set …", "the chapel had been …"; not a verb, an auxiliary or a
    preposition.
    """
    start = _after_determiners(clause, 0)
    word = clause[start] if start < len(clause) else ""
    return _content(word) and (_nominal(word) or not _verb_form(word)) and (
        word not in _NOUN_BEFORE
    )


_WHOSE = lazy(r"^whose ([a-z]+(?:-[a-z]+)*) (?:was|is|were|are) (.+?)\??$", re.IGNORECASE)


def _whose_apposed(question: str, sentence: str) -> list[str]:
    """A "whose N was Y" question whose N the sentence apposes only to other names.

    "Whose niece was the diver Ivy Carrow?" is not said by "… Kemble's *niece Joan
    Trelawny*, who reached the semi-final …, and the diver Ivy Carrow": every "niece" of
    the sentence is followed by a name, and none of Y's.
    """
    found = _WHOSE.match(question.strip())
    if found is None:
        return []
    noun, subject = found.group(1).lower(), {w.lower() for w in _cased(found.group(2))}
    cased = _cased(sentence)
    parts = _cased(noun)  # "brother-in-law": its words
    uses = [
        k + len(parts) - 1 for k in range(len(cased) - len(parts) + 1)
        if all(_same(w.lower(), p) for w, p in zip(cased[k : k + len(parts)], parts, strict=True))
    ]
    if not uses or not subject & {w.lower() for w in cased}:
        return []
    for k in uses:
        after = _apposed_name(cased[k + 1 : k + 1 + _APPOSED_REACH])
        if not after or {w.lower() for w in after} & subject:
            return []
    return [f"whose {noun}"]


_WHOSE_CLAUSE = lazy(
    r"\b([A-Z][\w'’-]*),\s+whose\s+([a-z][\w-]*)\b([^,;]*),\s+((?:[a-z]+\s+){0,2}[a-z]+)"
)
"""A name with a whose-clause after it, and the words after the clause's comma ("*Brogan*,
whose *sons* continued the lease …, *built*")."""


def _whose_subject(question: list[str], sentence: str) -> list[str]:
    """A do-question's subject "A's N" where the sentence's verb is A's, after "A, whose N …".

    "When did Brogan's sons build a larger ferry?" is not said by "Brogan, whose sons
    continued the lease after his death, built a larger ferry": the whose-clause says what
    the sons did, and the verb after its comma has the name before it for its subject. Not
    where the whose-clause has the verb itself.
    """
    clause = _do_clause(question)
    if clause is None or clause[1] < 2 or not question[clause[1] - 2].endswith(("'s", "’s")):
        return []
    head, verb = clause[0], question[clause[1]]
    owner = question[clause[1] - 2][:-2]
    for found in _WHOSE_CLAUSE.finditer(sentence):
        name, noun, inside, after = (found.group(k).lower() for k in range(1, 5))
        if name == owner and _same(noun, head) and not _has(_words(inside), verb) and _has(
            after.split(), verb
        ):
            return [f"{head} {verb}"]
    return []


_ITS = frozenset({"its", "their"})


def _its_of_another(question: str, sentence: str) -> list[str]:
    """A question's "N of X" (X a name) where the sentence says only "its N" of another.

    "How large is the catchment of the Linthwaite valley?" is not said by "Linthwaite was
    rejected because of old lead workings …, and Coldby Beck because *its catchment* of
    2,900 acres was judged too small": a possessive stands for the name its own clause opens
    on, so the catchment is Coldby Beck's. Read where each "its N" / "their N" is in a
    coordinated clause that opens on another name, X is named only in other clauses, and the
    sentence says "N of X" or "X's N" nowhere.
    """
    cased_q = _cased(question)
    capitals = {w.lower() for w in cased_q[1:] if w[:1].isupper()}
    clauses = [_cased(c) for c in _COORDINATED_CLAUSE.split(sentence)]
    if len(clauses) < 2:
        return []
    for noun, name, label in _owned([w.lower() for w in cased_q]):
        owner = set(name) & capitals
        if not owner:
            continue
        held = [c for c in clauses if _possessed(c, noun)]
        if held and all(_opens_on_other(c, owner) for c in held) and not any(
            owner & {w.lower() for w in c} for c in held
        ) and any(owner & {w.lower() for w in c} for c in clauses) and not _said_of(
            _words(sentence), noun, owner
        ):
            return [label]
    return []


def _said_of(words: list[str], noun: str, owner: set[str]) -> bool:
    """Whether ``words`` say "N of … X" (:func:`_of_owner`) or "X's N" of a word of X."""
    return any(_of_owner(words, noun, name) or _precedes(words, name, noun) for name in owner)


def _possessed(clause: Sequence[str], noun: str) -> bool:
    """Whether ``clause`` says "its N" / "their N"."""
    words = [w.lower() for w in clause]
    return any(words[k] in _ITS and _same(words[k + 1], noun) for k in range(len(words) - 1))


def _opens_on_other(clause: Sequence[str], owner: set[str]) -> bool:
    """Whether ``clause`` opens (past its determiners) on a name that is not ``owner``'s."""
    start = _after_determiners([w.lower() for w in clause], 0)
    return start < len(clause) and clause[start][:1].isupper() and clause[
        start
    ].lower() not in owner


_ROLE_APPOSED = lazy(
    r"((?:[A-Z][\w'’-]*\s+){0,2}[A-Z][\w'’-]*),\s+(?:the\s+|a\s+|an\s+)?"
    r"([a-z][\w-]*)\s+of\s+((?:[\w'’-]+\s+){0,3}[\w'’-]+)"
)
"""A name with a role of something apposed to it ("Harold Brisk, *curator of the botanic
garden* at Wareford"): the name, the role noun and the words after its "of"."""


def _role_of_another(question: str, sentence: str) -> list[str]:
    """A question's "N of M" asked of one person, which the sentence apposes to another.

    "Of which botanic garden had Agnes Merriden been curator?" is not said by "… acted as
    curator for eight months, but the council … appointed *Harold Brisk, curator of the
    botanic garden at Wareford*": the role with its of-phrase is an apposition to Brisk, so
    it is his. Read where the question says someone is (or was) the N ("been", "was",
    "served" …), names that person as its subject (:func:`_subject_names`), the apposition
    does not name them and the sentence does elsewhere, and the sentence says "N of M"
    nowhere else.
    """
    q_words = [w.lower() for w in _cased(question)]
    if not _BEING_ASKED & set(q_words):
        return []  # "Who led the partnership of merchants …?": no one is said to be the N
    q_names = _subject_names(_cased(question))
    s_words = {w.lower() for w in _cased(sentence)}
    for found in _ROLE_APPOSED.finditer(sentence):
        name = {w.lower() for w in _cased(found.group(1))}
        noun = found.group(2).lower()
        phrase = _APPOSITION_END.split(sentence[found.start(3) :])[0]  # "… garden at Wareford"
        owned = [w for w in _words(phrase) if _content(w) and _has(q_words, w)]
        if not _has(q_words, noun) or not owned or name & q_names:
            continue
        subject = (q_names & s_words) - set(_words(phrase))  # a person the sentence names
        rest = sentence[: found.start(2)] + sentence[found.start(3) + len(phrase) :]
        if subject and not re.search(rf"\b{re.escape(noun)}\s+of\b", rest, re.I):
            return [f"{noun} of {owned[0]}"]
    return []


_APPOSITION_END = lazy(r"[,;:.]")
_SUBJECT_AFTER = frozenset({"had", "has", "was", "is", "were", "did", "does"})


def _subject_names(cased: Sequence[str]) -> set[str]:
    """The capitalised words right after a question's auxiliary: its subject's name.

    "Of which garden *had Agnes Merriden* been curator?"; not a name after a preposition
    ("the flight of nine locks *at Harrowmere*").
    """
    out: set[str] = set()
    for k in range(1, len(cased)):
        if cased[k - 1].lower() not in _SUBJECT_AFTER:
            continue
        start = k  # past an article and a role before the name ("the rope-maker Thomas Ambery")
        while start < min(k + 3, len(cased)) and cased[start][:1].islower() and (
            cased[start].lower() not in _ITEM_PREPOSITIONS | {"of"}
        ):
            start += 1
        out.update(w.lower() for w in takewhile(lambda w: w[:1].isupper(), cased[start:]))
    return out
_BEING_ASKED = frozenset({"was", "is", "been", "became", "become", "served"})
"""Verbs by which a question says its person is (or was) the role ("had X *been* curator")."""


_WHOSE_INSIDE = lazy(
    r"\b((?:[A-Z][\w'’-]*\s+){0,2}[A-Z][\w'’-]*),\s+whose\s+([a-z][\w-]*)\b([^,;]*)"
)
"""A name and the whose-clause after it, to the next comma ("*Lionel Ashdown*, whose
*brother* Cecil Ashdown had captained the county …")."""


def _whose_doer(question: list[str], sentence: str) -> list[str]:
    """A do-question's verb that the sentence says only in a whose-clause of its subject.

    "Which county did Lionel Ashdown captain?" is not said by "… Lionel Ashdown, *whose
    brother Cecil Ashdown had captained the county* from 1885 to 1890": the whose-clause's
    verb has the owner's brother for its subject, not the owner. Read where every use of the
    verb is inside such a clause after the subject's name, every word of which the name
    before *whose* holds ("Cecil Ashdown" is not "Lionel Ashdown").
    """
    clause = _do_clause(question)
    if clause is None:
        return []
    verb = question[clause[1]]
    aux = max((i for i in range(clause[1]) if question[i] in _DO), default=-1)
    subject = {w for w in question[aux + 1 : clause[1]] if _content(w)}
    inside = [
        found for found in _WHOSE_INSIDE.finditer(sentence)
        if subject and subject <= {w.lower() for w in _cased(found.group(1))}
        and _has(_words(found.group(3)), verb)
    ]
    if not inside:
        return []
    rest = sentence
    for found in reversed(inside):
        rest = rest[: found.start(2)] + rest[found.end(3) :]
    if _has(_words(rest), verb):
        return []
    return [f"whose {inside[0].group(2).lower()} {verb}"]


_APPOSED_REACH = 5
"""Words after a noun within which the name apposed to it stands ("Crabb's brother-in-law,
*the solicitor Henry Pask*")."""


def _apposed_name(words: Sequence[str]) -> list[str]:
    """The name that ``words`` open, past an article and a role noun ("the solicitor")."""
    lead = list(takewhile(lambda w: w[:1].islower(), words))
    if len(lead) > 2 or (lead and lead[0] not in _ARTICLES):
        return []
    return list(takewhile(lambda w: w[:1].isupper(), words[len(lead) :]))


def _has_own_subject(clause: Sequence[str]) -> bool:
    """Whether a clause has a verb with a noun subject of its own.

    A year in a later coordinated clause with its own subject dates that clause only
    ("tolls were raised …, and *by 1900 annual tonnage had fallen*"); a later predicate with
    no subject ("…, and in 1905 added a wing") or one said with "it" may go on the first.
    """
    return any(_inflected_verb(w) and _own_subject(clause, k) for k, w in enumerate(clause))


_NAME_WORD = lazy(r"\b([A-Z][a-z]+)\b(?:[ \t]+([A-Z]|[IVX]{1,4})\b)?")
"""A capitalised word and the letter or Roman numeral that may follow it in a name
("Vesper B", "Elizabeth II"), with nothing but spaces between."""


def _name_suffixes(question: str, sentence: str) -> list[str]:
    """A name the sentence says only with another letter or numeral after it.

    "How was *Vesper* discovered?" is not said by "its companion, a white dwarf named *Vesper
    B*, was discovered": a capital letter or a Roman numeral after a name makes another name
    ("Vesper B", "Elizabeth II"); the sentence never says the question's "Vesper" (or
    "Vesper A") as it is. A name without a numeral may be a ruler's usual short name
    ("Ethelred" for "Ethelred II"): a numeral counts against it only where the question
    has another one.
    """
    said: dict[str, set[str]] = {}
    for match in _NAME_WORD.finditer(sentence):
        said.setdefault(match.group(1).lower(), set()).add(match.group(2) or "")
    out = []
    for match in _NAME_WORD.finditer(question):
        name, suffix = match.group(1).lower(), match.group(2) or ""
        others = said.get(name, set())
        if suffix or any(len(other) == 1 for other in others):  # "Ethelred" is Ethelred II
            if match.start() > 0 and others and suffix not in others:
                out.append(f"{name} {suffix}".strip())
    return out


_ARGUMENT_PREPOSITIONS = frozenset({"to", "into", "from", "with", "onto"})
"""Prepositions that give a verb a second argument ("added mould *to* the curds")."""


def _arguments_swapped(question: list[str], sentence: list[str]) -> list[str]:
    """A verb's object and its second argument, the other way round in the sentence.

    "Who added *curds* to her *mould*?" is not said by "… added *mould* from rye bread to her
    *curds*": the sentence's "added" has the question's second argument for its object and
    its object after "to".
    """
    out = []
    for i, verb in enumerate(question):
        if not _content(verb) or "VERB" not in _lemmas(verb):
            continue
        obj, prep, second = _object_and_argument(question, i)
        if not (obj and second):
            continue
        for k in _uses(sentence, verb):
            s_obj, s_prep, s_second = _object_and_argument(sentence, k, prep)
            if s_obj and s_second and _same(s_obj, second) and _same(s_second, obj):
                out.append(f"{verb} {obj} {prep} {second}")
                break
    return out


def _goal_of_another(question: Sequence[str], sentence: list[str]) -> list[str]:
    """A verb's to-argument that every use of the verb in the sentence gives to another.

    "Which part of the area did the Commission assign *to Iowa Midland Light*?" is not said
    by "Disputes with Iowa Midland Light … were settled by the Commission, which assigned
    most of the contested area *to the cooperative*": the party after a verb's *to* is the
    one it goes to, and the sentence names the question's only elsewhere. Read where the
    do-question's verb (:func:`_do_clause`, on the question as written: a capitalised word is
    a name's) has a *to* and a noun within :data:`_OF_PHRASE` words after it, the sentence
    names that noun, and every use of the verb has a *to* of its own (not "up to") whose
    next words (:data:`_GOAL_REACH`: an apposition may name the party, "to a company based
    in Aldermouth, the Kestle … Company") do not hold it.
    """
    words = [w.lower() for w in question]
    # a capitalised word is a name's, never the verb ("did the Iowa *State* Commission
    # assign"): each run of them is read as one name
    kept = [
        i for i, w in enumerate(question)
        if not (i > 1 and w[:1].isupper() and question[i - 1][:1].isupper())
    ]
    masked = [_NAME_MASK if i and question[i][:1].isupper() else words[i] for i in kept]
    clause = _do_clause(masked)
    if clause is None:
        return []
    at = kept[clause[1]]
    verb = words[at]
    after = _goal_after(words, at)
    uses = _uses(sentence, verb)
    if after is None or not uses:
        return []
    goal = list(takewhile(lambda w: _nominal(w) and not _verb_only(w), after))[-1]
    if _has(sentence, goal) and all(
        (said := _goal_after(sentence, k)) is not None and not _has(said, goal) for k in uses
    ):
        return [f"{verb} to {goal}"]
    return []


_GOAL_REACH = 10
"""Words after a *to* that may name its party ("to *Iowa Midland Light*", "to a company based
in Aldermouth, *the Kestle Consolidated Mining Company*")."""
_NAME_MASK = "zzname"
"""A word no lexicon knows, put for a capitalised word of a question: read as a name."""


def _goal_after(words: list[str], at: int) -> list[str] | None:
    """The words after the verb's *to* (:data:`_GOAL_REACH`), from its noun on.

    The first *to* within :data:`_OF_PHRASE` words of the verb at ``at``; None where there
    is none, or where it opens an infinitive ("asked her *to design*").
    """
    end = min(len(words), at + 1 + _OF_PHRASE)
    to = next((j for j in range(at + 1, end) if words[j] == "to" and words[j - 1] != "up"), None)
    if to is None:
        return None
    start = _after_determiners(words, to + 1)
    if start == to + 1 and start < len(words) and "VERB" in _lemmas(words[start]):
        return None  # "propose *to move* the school": an infinitive, no goal
    if start >= len(words) or not _nominal(words[start]) or _verb_only(words[start]):
        return None
    return words[start : start + _GOAL_REACH]


def _object_and_argument(
    words: list[str], at: int, prep: str | None = None
) -> tuple[str | None, str | None, str | None]:
    """The object after the verb at ``at`` and the noun after its next argument preposition.

    The preposition is ``prep`` when given, else the first of :data:`_ARGUMENT_PREPOSITIONS`
    within eight words; the object is the first content word after the verb.
    """
    end = min(len(words), at + 1 + _OF_PHRASE)
    where = next(
        (j for j in range(at + 1, end) if words[j] == prep or (
            prep is None and words[j] in _ARGUMENT_PREPOSITIONS)),
        None,
    )
    if where is None or where == at + 1:
        return None, None, None
    before = [w for w in words[at + 1 : where] if _content(w)]
    after = _object_after(words, where)
    if not before or not _content(after):
        return None, None, None
    return before[0], words[where], after


def _verb_only(word: str) -> bool:
    """An inflected verb with no noun reading ("led", "built"): never the answer's class.

    "Which consortium *led by* Lund & Berg built the bridge?" binds "led by" as any
    question does; the class is "consortium".
    """
    return _inflected_verb(word) and "NOUN" not in _lemmas(word)


def _named_kind(word: str) -> bool:
    """A capitalised common noun that ends a place's name ("the Kell *Strait*", "River")."""
    return word[:1].isupper() and _content(word.lower()) and set(_lemmas(word.lower())) == {
        "NOUN"
    }


_ATTACHING = frozenset({"on", "in", "at", "of", "from", "to", "near"})
"""Prepositions that attach a phrase to the noun before them ("the town *on* the shore")."""


def _subject_opposite(question: list[str], sentence: list[str]) -> list[str]:
    """A do-question's subject modifier whose verb the sentence gives the opposite's noun.

    "How high does the *outer* rampart stand?" is not said by "The *inner* rampart stands up
    to 4.2 metres … and is separated from the outer rampart by a ditch": every use of the
    verb has the subject's noun before it with the opposite closed-set word (*inner* /
    *outer*, *upper* / *lower* …) and not the question's.
    """
    found = _do_clause(question)
    if found is None:
        return []
    head, verb = found
    words = [w for w in question[:verb] if in_closed_set(w)]
    uses = _uses(sentence, question[verb])
    for word in words:
        if uses and all(
            _has(sentence[max(0, k - 3) : k], head)
            and any(contrasts(word, w) for w in sentence[max(0, k - 3) : k])
            and not _has(sentence[max(0, k - 3) : k], word)
            for k in uses
        ):
            return [f"{word} {head}"]
    return []


def _opposite_nearby(question: list[str], sentence: list[str]) -> list[str]:
    """A closed-set word of the question whose noun the sentence gives the opposite.

    "Which town on the *eastern* shore does the ferry link with Brekke?" is not said by "…
    linked the town of Orsen on the *western* shore with the village of Brekke on the
    eastern shore": the sentence holds both words, so no opposite is missing, but the
    town's is "western". The word must be in a phrase after its noun ("town *on* the
    eastern shore", within four words; not "the IPCC Third Report", where "Third" goes with
    "Report"); in the sentence, every use of that noun has the opposite within the five
    words after it and not the word itself.
    """
    out = []
    for i, word in enumerate(question):
        if not in_closed_set(word):
            continue
        noun = next((question[j] for j in range(i - 1, max(-1, i - 5), -1) if _nominal(
            question[j]) and question[j + 1] in _ATTACHING), None)
        if noun is None or not any(contrasts(word, w) for w in sentence):
            continue
        uses = _uses(sentence, noun)
        if uses and all(
            any(contrasts(word, w) for w in sentence[k + 1 : k + 6])
            and not _has(sentence[k + 1 : k + 6], word)
            for k in uses
        ):
            out.append(f"{noun} {word}")
    return out
