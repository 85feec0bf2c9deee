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
  into a hotel". A from-phrase ends at "to" and at a verb ("a ferry from Kessa *reaches*
  Port Averel"); a phrasal verb's particle binds as its verb ("taken *over by*").
- **A way reversed** — "pass *from* the crown" is not said by "passed *to* the crown".
- **A proper modifier** — "the *Ostrian* camp" is not said by "the Ostrian commander
  attacked the *Swedish* camp": every "camp" of the sentence has another capitalised
  modifier.
- **A verb's object after its opposite** — "did Rovers *lose* the league" is not said by
  "Rovers *won* the league … the final, which they lost".
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
  the storm destroyed" and "the wall, destroyed in 1953," say it. A modifier of the subject
  the sentence holds must stand before the verb too: "When are *carried-over* days lost?"
  is not said by "days may be carried over …; any further days are lost".
- **A do-question's subject, in another role** — the sentence's verb has a pronoun for its
  subject and names the question's subject after it ("*It* lies … north of Dresk" for
  "does Dresk lie"), or another noun for its subject in a clause without the question's
  ("sick lambs die, but adult *sheep* usually recover" for "do lambs recover"; also for a
  question that ends on its verb: "What share of sick adult sheep die?"); or the verb is
  only passive with no agent, or another ("ships … built in Glasgow" for "did the company
  build"; not for a reflexive question, "did Warsaw defend itself"); or a who-question's
  object stands after the passive verb ("It was founded … by workers of the mill" for
  "Who founded the mill?").
- **Roles crossed** — "How many copies must *the library* deliver to *publishers*?" is not
  said by "Every publisher … must deliver two copies … to the library": the question's
  subject stands only after every use of the verb, and another of its terms before it (a
  passive with the subject as its agent, "published *by* Ferre", says it). A modal opens a
  clause as *do* does ("must the library deliver").
- **A relative's object** — "How often does Lumen show *the encryption key*?" is not said by
  "The encryption key is derived from your recovery phrase, *which* Lumen shows once": the
  verb's object is the noun "which" stands for.
- **Alternatives swapped** — "died in battle *rather than* from disease" is not said by
  "died from disease rather than in battle" (also "instead of").
- **Sibling clauses** — "How many computers does the Pro edition back up *for free*?" is not
  said by "The free edition backs up one computer; the Pro edition … backs up up to five":
  clauses after 「;」 that open on the same noun with modifiers of their own state each
  sibling's facts apart, and the question's terms must be in one of them.
- **A coordinated verb's subject** — "did *the Ostrian army* besiege" is not said by
  "Aldmark's army defeated the Ostrian army … *and* besieged the port": the question's
  subject is the object of the verb "besieged" is coordinated with.
- **A count of another clause** — "how many years did she *study*" is not said by "studied
  at Oslo, where she later *taught* for thirty years": a new clause (a pronoun and its own
  verb) stands between the verb and the count.

Each check fires only when the sentence holds both words (a missing word is the rule's
first check) and holds the construction with other words: a sentence that words the fact
another way ("the British defeated the French", "Prussia's capital") is not read as a swap.
Japanese marks these relations with particles: :mod:`grace.scoring.bindings_ja` reads two.
The constructions come from English grammar (the of-genitive and other binding prepositions,
the s-genitive and apposition, the active's subject and object, the passive's subject and
agent, attributive modifiers, clause boundaries), not from a data set's errors;
docs/decisions.md records the runs that were read when the checks were written.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import takewhile

from grace.retrieval.lemmas import all_lemmas
from grace.retrieval.tokenize import ENGLISH_STOPWORDS, tokenize
from grace.text import ENGLISH_WORD, answer_class_indices, contrasts

__all__ = ["known_forms", "unbound_phrases"]

_DETERMINERS = frozenset({"the", "a", "an", "its", "their", "his", "her"})
_BE = frozenset({"was", "were", "is", "are"})
_BE_ANY = _BE | {"been", "be", "being"}
_DO = frozenset({"did", "does", "do"})
_MODALS = frozenset({"can", "could", "may", "might", "must", "shall", "should", "will", "would"})
"""Modal auxiliaries: like *do*, they put the subject before a base-form verb."""
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
_REFLEXIVES = frozenset({"itself", "himself", "herself", "themselves"})
"""Objects that are the subject again."""
_PRONOUNS = frozenset({"he", "she", "it", "they"})
"""Personal pronouns a verb's subject may be."""
_WINDOW = 4
"""Words before the auxiliary read as a passive verb's subject."""
_OF_PHRASE = 8
"""Words after "of" read as its phrase (with a coordination: "of adding … or building")."""
_RANGE_ENDS = frozenset({"to", "until", "till"})
"""Words that end a from-phrase's range."""
_GRADED = frozenset({"ADJ", "ADV"})
"""Parts of speech whose lemma drops a degree ("smallest" → "small")."""
_PARTICLES = frozenset({"over", "up", "down", "out", "off", "away", "back"})
"""Particles of phrasal verbs ("taken *over*", "set *up*")."""
_REVERSED = {"from": frozenset({"to", "into"}), "to": frozenset({"from"}),
             "into": frozenset({"from"})}
"""Prepositions of a way and those of the way back."""
_BINDING_PREPOSITIONS = frozenset({"of", "into", "from", "by"})
"""Prepositions that bind their object to the word before them: the owner ("capital *of*
Prussia"), what a thing became ("converted *into* a hotel"), where it came from ("moved
*from* Leeds") and who did it ("painted *by* Munch"). Not "to", "with" or "for", whose
object a sentence often words apart from the verb ("respond to", "associated with")."""


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

    "of" also holds where the sentence puts the owner first ("Prussia's capital"). A phrasal
    verb's particle binds as its verb would ("taken *over by* the state" is not "built by
    the company … and taken over by the state").
    """
    framed = answer_class_indices(question)
    out = []
    for i in range(1, len(question) - 1):
        noun, prep = question[i - 1], question[i]
        particle = noun in _PARTICLES and i > 1 and _content(question[i - 2])
        if prep not in _BINDING_PREPOSITIONS or not (_content(noun) or particle) or (
            i - 1 in framed
        ):
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


def _binds_of(sentence: list[str], start: int, owner: str, prep: str = "of") -> bool:
    """Whether the of-phrase at ``start`` names ``owner`` or a value (a number).

    A from-phrase ends where its range does ("from Kessa *to* Vessen": Vessen is where
    it went, not where it came from) and at an inflected verb not after a determiner ("a
    ferry from Kessa *reaches* Port Averel": the ferry is not from Port Averel).
    """
    first = _after_determiners(sentence, start)
    if first < len(sentence) and sentence[first][:1].isdigit():
        return True
    phrase = sentence[start : start + _OF_PHRASE]
    if prep == "from":
        ends = [k for k, w in enumerate(phrase) if w in _RANGE_ENDS or (
            k > 0 and phrase[k - 1] not in _DETERMINERS and _inflected_verb(w))]
        phrase = phrase[: min(ends, default=len(phrase))]
    return _has(phrase, owner)


def _inflected_verb(word: str) -> bool:
    """A verb form other than the base ("reaches", "opened"; not "the *works*")."""
    return word not in _BE_ANY and any(
        lemma != word for lemma in all_lemmas(word).get("VERB", ())
    )


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
    phrase = f"{head} {question[aux]} {participle}"
    if auxiliaries:
        subjects = [at for at in auxiliaries if _may_be_subject(sentence, at, head)]
        modifier = _modifier_elsewhere(sentence, subjects, subject[:-1])
        if subjects and modifier is None:
            return []
        if modifier is not None:
            phrase = f"{modifier} {phrase}"
    elif not _active_elsewhere(sentence, participle, head):
        return []
    return [phrase]


def _modifier_elsewhere(
    sentence: list[str], subjects: list[int], modifiers: list[str]
) -> str | None:
    """A modifier of the subject the sentence holds, but before none of its passive uses.

    "When are *carried-over* days lost?" is not said by "Up to five unused days may be
    carried over …; any *further* days are lost": the sentence's "days are lost" has no
    "carried" before it, and "carried" elsewhere.
    """
    for modifier in modifiers:
        if _has(sentence, modifier) and subjects and not any(
            _has(sentence[max(0, at - _WINDOW) : at], modifier) for at in subjects
        ):
            return modifier
    return None


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
    return _has(before, head) or (
        any(w in _STANDS_FOR for w in before) and not _has(sentence[at + 1 :], head)
    )


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
    uses = [k for k, w in enumerate(sentence) if _same(w, question[verb])]
    if uses and all(_swapped_at(sentence, k, head, obj) for k in uses):
        return [f"{head} {question[verb]} {obj}"]
    return []


def _do_clause(question: list[str]) -> tuple[str, int] | None:
    """A do-question's subject head and where its verb stands ("did *the Swedes* outnumber").

    The first *do* / *does* / *did* or modal (*must*, *can* …) opens the clause ("On which
    bank … does Dresk lie?", "How many copies must the library deliver?"); the verb is the
    first base form within five words after it.
    """
    found = _do_subject(question)
    return (found[0][-1], found[1]) if found else None


def _do_subject(question: list[str]) -> tuple[list[str], int] | None:
    """A do-question's subject words and where its verb stands (see :func:`_do_clause`)."""
    aux = next((i for i, w in enumerate(question) if w in _DO or w in _MODALS), None)
    if aux is None:
        return None
    verb = next((j for j in range(aux + 2, min(len(question), aux + 6)) if _base_verb(
        question[j])), None)
    subject = (
        [w for w in question[aux + 1 : verb] if _content(w) and not _adverb(w)] if verb else []
    )
    return (subject, verb) if verb is not None and subject else None


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
    uses = [k for k, w in enumerate(sentence) if _same(w, question[verb])]
    if uses and all(_object_of_first(sentence, k, subject) for k in uses):
        return [f"{' '.join(subject)} {question[verb]}"]
    return []


def _object_of_first(sentence: list[str], at: int, subject: list[str]) -> bool:
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


def _directions(question: list[str], sentence: list[str]) -> list[str]:
    """A question's "V from X" that the sentence says as "V to X" (or "to" as "from").

    "When did the island pass *from* the crown to the earls?" is not said by "it passed
    *to* the crown": the sentence holds the same verb and place, with the way reversed.
    A sentence that also says "V from X" says it.
    """
    out = []
    for i in range(1, len(question) - 1):
        verb, prep = question[i - 1], question[i]
        if prep not in _REVERSED or not _content(verb):
            continue
        j = _after_determiners(question, i + 1)
        if j >= len(question) or not _content(question[j]):
            continue
        place = question[j]
        uses = [k for k in range(len(sentence) - 1) if _same(sentence[k], verb)]
        said = [k for k in uses if sentence[k + 1] == prep]
        reversed_ = [k for k in uses if sentence[k + 1] in _REVERSED[prep]]
        if any(_binds_of(sentence, k + 2, place, sentence[k + 1]) for k in reversed_) and not any(
            _binds_of(sentence, k + 2, place, prep) for k in said
        ):
            out.append(f"{verb} {prep} {place}")
    return out


def _opposite_verbs(question: list[str], sentence: list[str]) -> list[str]:
    """A question's verb and object that the sentence pairs with the verb's opposite.

    "How many times did Rovers *lose* the national league?" is not said by "Rovers *won*
    the national league three times, … and reached the cup final, which they lost": the
    league follows "won", an opposite of "lose" (:func:`grace.text.contrasts`), and never
    "lost".
    """
    out = []
    for i, verb in enumerate(question[:-1]):
        obj = _object_after(question, i)
        if not _content(obj):
            continue
        follows = [k for k in range(len(sentence) - 1) if _same(_object_after(sentence, k), obj)]
        if any(contrasts(verb, sentence[k]) for k in follows) and not any(
            _same(sentence[k], verb) for k in follows
        ):
            out.append(f"{verb} {obj}")
    return out


def _object_after(words: list[str], at: int) -> str:
    """The word after ``at`` past any determiners ("" at the end)."""
    j = _after_determiners(words, at + 1)
    return words[j] if j < len(words) else ""


def _agent_object(question: list[str], sentence: list[str]) -> list[str]:
    """A who-question's object that the sentence names in another role of a passive verb.

    "Who *founded* the Halden paper mill?" is not said by "It was founded in 1899 by
    workers of the Halden paper mill": every "founded" of the sentence is passive, with
    no mill before it, and the mill comes after it — in the agent's phrase.
    """
    if len(question) < 3 or question[0] != "who" or not _participle(question[1]):
        return []
    phrase = list(takewhile(lambda w: w not in _AFTER_PASSIVE, question[2:]))
    content = [w for w in phrase if _content(w)]
    if not content:
        return []
    head, verb = content[-1], question[1]
    uses = [k for k, w in enumerate(sentence) if w == verb]
    if uses and all(_named_after(sentence, k, head, _BE_ANY) for k in uses):
        return [f"{verb} {head}"]
    return []


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
    uses = [k for k, w in enumerate(sentence) if _same(w, question[verb])]
    if uses and all(
        _participle(sentence[k])
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
    subject stands before the verb ("Dresk, which lies …") it is read as the subject.
    """
    clause = _do_clause(question) or _final_verb(question)
    if clause is None:
        return []
    head, verb = clause
    uses = [k for k, w in enumerate(sentence) if _same(w, question[verb])]
    if uses and all(
        (_named_after(sentence, k, head, _PRONOUNS) or _other_subject(sentence, k, head))
        and not _by_agent(sentence, k, head)
        for k in uses
    ):
        return [f"{head} {question[verb]}"]
    return []


def _final_verb(question: list[str]) -> tuple[str, int] | None:
    """A question's last word as a verb with its subject noun before it ("… sheep *die*?")."""
    if len(question) < 3 or any(w in _BE_ANY or w in _DO for w in question):
        return None  # "What are the stages … called?": a passive's participle
    noun, verb = question[-2], question[-1]
    lemmas = all_lemmas(verb)
    if _content(noun) and "NOUN" in all_lemmas(noun) and "VERB" in lemmas and (
        "ADJ" not in lemmas
    ):
        return noun, len(question) - 1
    return None


def _other_subject(sentence: list[str], at: int, head: str) -> bool:
    """Whether the verb at ``at`` has another noun for its subject, and not ``head``.

    "the *males* gather at leks … to attract females" for "Where do the females gather?";
    "sick lambs die, but adult *sheep* usually recover" for "do lambs recover?". The
    subject is the noun before the verb (adverbs and auxiliaries between: "usually", "will");
    ``head`` anywhere in
    the verb's clause before it may be in its subject ("Fred Singer's project held"). The
    clause starts after the last word that opens one (:data:`_CLAUSE_OPENERS`).
    """
    k = at - 1
    while k > 0 and (_adverb(sentence[k]) or "AUX" in all_lemmas(sentence[k])):
        k -= 1
    before = sentence[k] if k >= 0 else ""
    start = max((i + 1 for i in range(k) if sentence[i] in _CLAUSE_OPENERS), default=0)
    return (
        _nominal(before)
        and not _has(sentence[start:at], head)
        and _has(sentence, head)
    )


def _adverb(word: str) -> bool:
    """An adverb that may stand between a subject and its verb ("usually", "later")."""
    return word.endswith("ly") or set(all_lemmas(word)) == {"ADV"}


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
    counts = [p for p, w in enumerate(sentence) if _same(w, noun)]
    uses = [k for k, w in enumerate(sentence) if _same(w, verb)]
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
            all_lemmas(w).get("VERB") and w not in _BE_ANY and not _same(w, verb)
            for w in words[t + 1 : t + 3]
        )
        for t in range(len(words))
    )


def _roles_crossed(question: list[str], sentence: list[str]) -> list[str]:
    """A do-question's subject named only after the verb, another question term before it.

    "How many copies must *the library* deliver to *publishers*?" is not said by "Every
    *publisher* … must deliver two copies … to *the library*": the question's subject and
    the party after its verb have changed places around every use of the verb. A passive
    use with the subject as its agent ("were published by Ferre") says it.
    """
    clause = _do_clause(question)
    if clause is None:
        return []
    head, verb = clause
    after = [w for w in question[verb + 1 :] if _content(w) and not _same(w, head)]
    uses = [k for k, w in enumerate(sentence) if _same(w, question[verb])]
    if after and uses and all(
        not _has(sentence[:k], head)
        and _has(sentence[k + 1 :], head)
        and any(_has(sentence[:k], w) for w in after)
        and not _by_agent(sentence, k, head)
        for k in uses
    ):
        return [f"{head} {question[verb]}"]
    return []


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
    uses = [k for k, w in enumerate(sentence) if _same(w, question[verb])]
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


def _nominal(word: str) -> bool:
    """A content word with a noun reading, or a name lemminflect does not know."""
    lemmas = all_lemmas(word)
    return _content(word) and (not lemmas or "NOUN" in lemmas)


def _by_agent(sentence: list[str], at: int, head: str) -> bool:
    """Whether "by" and ``head`` follow the verb at ``at`` ("published *by Ferre*")."""
    rest = sentence[at + 1 : at + 1 + _WINDOW]
    return "by" in rest and _has(rest[rest.index("by") + 1 :], head)


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


def _base_verb(word: str) -> bool:
    """A verb's base form ("outnumber", "defeat"), as after *did*."""
    return word in all_lemmas(word).get("VERB", ())


def _proper_modifiers(question: list[str], sentence: list[str]) -> list[str]:
    """The question's proper modifier of a noun that the sentence gives another one.

    "Who attacked *the Ostrian camp*?" is not said by "The Ostrian commander attacked the
    Swedish camp": the sentence holds "Ostrian" and "camp", but every "camp" it names has
    another proper modifier ("Swedish") before it. A capitalised word before a common noun
    (a people, a place, a person: "Ostrian", "Paris", "Tudor") restricts the noun to that
    party. The question's pair must open a noun phrase ("*the* Ostrian camp") that is not
    a do-question's subject ("did the Normans *fight*": a verb follows): after *did* or *of*
    a capitalised word is a subject or an owner ("did Singer hold", "of New France died"),
    and a possessive is :func:`_possessives`' to read. Read on the words' cased
    forms (:func:`_cased`); a sentence's first word is capitalised for the sentence's sake
    and never counts.
    """
    out = []
    for i in range(1, len(question) - 1):
        modifier, noun = question[i], question[i + 1]
        if (
            question[i - 1].lower() not in _DETERMINERS
            or (i > 1 and question[i - 2].lower() in _DO)
            or not (_proper(modifier) and _common(noun))
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
        if i + 1 == verb or not (_noun_only(modifier) and "NOUN" in all_lemmas(noun)):
            continue
        uses = [k for k in range(1, len(sentence)) if _same(sentence[k], noun)]
        if uses and _has(sentence, modifier) and all(
            _noun_only(sentence[k - 1]) and not _same(sentence[k - 1], modifier) for k in uses
        ):
            out.append(f"{modifier} {noun}")
    return out


def _noun_only(word: str) -> bool:
    """A content word whose only reading is a noun ("college", "status"; not "research")."""
    return _content(word) and set(all_lemmas(word)) == {"NOUN"}


def _proper(word: str) -> bool:
    """A capitalised content word (a name or a proper adjective)."""
    return word[:1].isupper() and not word.endswith("'s") and _content(word.lower())


def _common(word: str) -> bool:
    """A lower-case noun (a common noun, not part of a name; "defeated" is not one)."""
    return word[:1].islower() and _content(word) and "NOUN" in all_lemmas(word)


_CHECKS: tuple[Callable[[list[str], list[str]], list[str]], ...] = (
    _of_phrases,
    _possessives,
    _passive_subject,
    _active_roles,
    _roles_crossed,
    _pronoun_subject,
    _agent_unstated,
    _agent_object,
    _measured_elsewhere,
    _directions,
    _opposite_verbs,
    _noun_modifiers,
    _relative_object,
    _alternatives_swapped,
    _coordinated_object,
)
"""The constructions read, in the order their phrases are reported."""


def unbound_phrases(question: str, sentence: str) -> tuple[str, ...]:
    """Phrases of an English ``question`` whose words ``sentence`` binds otherwise.

    >>> unbound_phrases("When did Warsaw become the capital of the Kingdom of Prussia?",
    ...                 "Warsaw was annexed by the Kingdom of Prussia to become the "
    ...                 "capital of the province of South Prussia.")
    ('capital of kingdom',)
    """
    q_cased, s_cased = _cased(question), _cased(sentence)
    q = [w.lower() for w in q_cased]
    s = [w.lower() for w in s_cased]
    found: list[str] = []
    parallel = _parallel_clauses(q, unicodedata.normalize("NFKC", sentence))
    for phrases in (*(check(q, s) for check in _CHECKS), _proper_modifiers(q_cased, s_cased),
                    parallel):
        found.extend(p for p in phrases if not any(f == p or f.startswith(f"{p} ") for f in found))
    return tuple(found)


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


def _cased(text: str) -> list[str]:
    """The words of ``text`` as written (NFKC, not lower-cased)."""
    return ENGLISH_WORD.findall(unicodedata.normalize("NFKC", text).replace("’", "'"))
