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
  owner, and never counts against. The same for "into", "from", "by", "under" and "over"
  ("trained *under* Osgood", "recommended *over* two senior officers"): "When was the
  hotel converted into a warehouse?" is not said by "built as a warehouse and converted
  into a hotel". A from-phrase ends at "to" and at a verb ("a ferry from Kessa *reaches*
  Port Averel"); a phrasal verb's particle binds as its verb ("taken *over by*").
- **A way reversed** — "pass *from* the crown" is not said by "passed *to* the crown"; a
  *to* after a from-phrase is the same verb's ("moved from Kanzel *to* Selmingen" against
  "moved there *from* Selmingen").
- **A proper modifier** — "the *Ostrian* camp" is not said by "the Ostrian commander
  attacked the *Swedish* camp": every "camp" of the sentence has another capitalised
  modifier.
- **A verb's object after its opposite** — "did Rovers *lose* the league" is not said by
  "Rovers *won* the league … the final, which they lost".
- **"X's N"** — "Tancred's nephew" asks for the nephew *of* Tancred. "his nephew Tancred"
  says that Tancred *is* the nephew: the sentence puts N right before X (an apposition, X's
  name may have more words: "pupil Ingrid Sollen"), or "X, (who was) his N" ("Agnes Marwood,
  who had been his deputy"), and never "X's N" or "N of X". The same
  for a question's "N of X" ("the niece of the matron Clara Pellow" against "her niece Clara
  Pellow").
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
  "Who founded the mill?"), or the verb is only passive with no agent ("The society was
  founded in 1988, and …" names no founder; "candles brought from nearby houses"; "a
  Cistercian monastery …*, founded in 1147*", a participle after a comma; the same
  for a which-question that asks for the subject: "Which firm laid the tramway?").
- **A subject in another clause** — "Since what year have *otters* nested beside Loch
  Aulder?" is not said by "Otters are found along its whole length, and ospreys have nested
  beside Loch Aulder since 1988": every coordinated clause with the verb has a noun of its
  own before it, and the question's subject is in another clause.
- **Counts of their own** — "How many houses in the northern half were added in the second
  phase?" is not said by "The first phase comprised 420 houses in the northern half …, and
  the second phase added 610 houses": each coordinated clause gives its own count, and none
  holds all the question's terms.
- **An intention, not an event** — "When was the market moved to the estate?" is not said
  by "a proposal in 1999 to move it to the estate was abandoned": the verb is only an
  infinitive after a word of intention, attempt or refusal ("proposal", "planned",
  "failed", "refused" …).
- **Roles crossed** — "How many copies must *the library* deliver to *publishers*?" is not
  said by "Every publisher … must deliver two copies … to the library": the question's
  subject stands only after every use of the verb, and another of its terms before it (a
  passive with the subject as its agent, "published *by* Ferre", says it). A modal opens a
  clause as *do* does ("must the library deliver").
- **A relative's object** — "How often does Lumen show *the encryption key*?" is not said by
  "The encryption key is derived from your recovery phrase, *which* Lumen shows once": the
  verb's object is the noun "which" stands for.
- **Arguments swapped** — "added *curds* to her *mould*" is not said by "added *mould* …
  to her *curds*" (a verb's object and its to / into / from / with argument).
- **A goal of another** — "did the Commission assign *to Iowa Midland Light*" is not said by
  "Disputes with Iowa Midland Light … the Commission, which assigned most of the area *to
  the cooperative*": every use of the verb has a *to* of its own, and the question's party
  is named elsewhere (read only where no other reading names a phrase).
- **A name with another letter** — "How was *Vesper* discovered?" is not said by "a white
  dwarf named *Vesper B* was discovered" (a capital letter or Roman numeral after a name).
- **An opposite bound to the asked noun** — "Which town on the *eastern* shore …?" is not
  said by "the town of Orsen on the *western* shore with the village of Brekke on the
  eastern shore".
- **Alternatives swapped** — "died in battle *rather than* from disease" is not said by
  "died from disease rather than in battle" (also "instead of").
- **Sibling clauses** — "How many computers does the Pro edition back up *for free*?" is not
  said by "The free edition backs up one computer; the Pro edition … backs up up to five":
  clauses after 「;」 that open on the same noun with modifiers of their own state each
  sibling's facts apart, and the question's terms must be in one of them.
- **A coordinated verb's subject** — "How much did *the storm* cost?" is not said by
  "Construction began in 1992 *and cost* 4.1 billion crowns … after a storm": the verb after
  "and" has the earlier verb's subject.
- **A coordinated verb's partner's object** — "did *the Ostrian army* besiege" is not said
  by "Aldmark's army defeated the Ostrian army … *and* besieged the port": the question's
  subject is the object of the verb "besieged" is coordinated with.
- **A count of another clause** — "how many years did she *study*" is not said by "studied
  at Oslo, where she later *taught* for thirty years": a new clause (a pronoun and its own
  verb) stands between the verb and the count.
- **Clauses apart** — a term said only where the sentence sets it aside ("*unless* it wins
  a constituency seat", "*unlike* the concert harp", "nylon *instead of* gut",
  "*distinguished from* the smooth newt", "a figure *excluding* patients who left"); a name
  in the clause of the asked word's opposite ("July, with an average *high* …, and the
  coldest is January, with an average *low*" for "the average high in January"); a term
  said only as the standard of a comparison ("twenty times faster *than the relay
  calculator*", "twice as many as *the Brannock works*"; not a quantity, "more than 1,200
  people"), and a question's standard the sentence compares nothing with ("larger *than
  Lake Carrach*" against "after Lake Carrach, which is larger"); a verb, noun or name in
  another coordinated clause (or coordinated predicate: "approved … in 2012 but was
  rejected … in 2014") than the question's year or asked value ("able to vote since 1915;
  … was elected in 1979" for "elected in 1915"); a main clause's verb or year with a term
  of a clause after "although" / "whereas" / "while"; an end of a "between … and …" range
  asked as the span.
- **A wh-subject question's roles** — its object must be the verb's ("…, which *replaced
  the advisory assemblies*" for "replaced the Landsting") and its last noun must not be the
  verb's subject ("*Hallvard* swore fealty to King Lothar" for "swore fealty to Hallvard").
- **A do-question's subject, elsewhere** — named only as the owner of another, named one
  ("*Robert's* nephew, Geoffrey, led"), only after the verb ("releasing kesselin, which
  attracts … neutrophils" for "do neutrophils release"), or through a relative word that
  stands for another noun phrase ("the National Gallery, *which bought* …, and the British
  Museum").
- **A role of another year** — "Who shared the title *in 1975*?" is not said by "… as
  happened in 1975 and 1991. *The 1991 co-winners*, Marek Tollund and Ines Carvath, …":
  every name is apposed to a role that a year before it dates otherwise.
- **A modifier moved** — "the *new church*" is not said by "the old church … was rebuilt
  in the *new village*": the question's modifier stands before another noun, and the noun
  has another word before it.

Each check fires only when the sentence holds both words (a missing word is the rule's
first check) and holds the construction with other words: a sentence that words the fact
another way ("the British defeated the French", "Prussia's capital") is not read as a swap.
Japanese marks these relations with particles: :mod:`grace.scoring.bindings.japanese` reads
them. The English readings live in :mod:`~grace.scoring.bindings.phrases` (phrases that bind
two words) and :mod:`~grace.scoring.bindings.roles` (subjects and objects), on the shared
words of :mod:`~grace.scoring.bindings.words`.
The constructions come from English grammar (the of-genitive and other binding prepositions,
the s-genitive and apposition, the active's subject and object, the passive's subject and
agent, attributive modifiers, clause boundaries), not from a data set's errors;
docs/decisions.md records the runs that were read when the checks were written.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from grace.scoring.bindings.japanese import (
    asked_predicates,
    before_suru,
    interrogative,
    unbound_phrases_ja,
)
from grace.scoring.bindings.phrases import (
    COORDINATED_CLAUSE_PATTERN,
    _across_concession,
    _alternatives_swapped,
    _arguments_swapped,
    _counted_apart,
    _dated_apart,
    _directions,
    _endpoint_only,
    _goal_of_another,
    _its_of_another,
    _listed_apart,
    _measured_apart,
    _modifier_moved,
    _name_suffixes,
    _named_clause_apart,
    _noun_modifiers,
    _of_phrases,
    _opposite_nearby,
    _opposite_verbs,
    _parallel_clauses,
    _poles_apart,
    _possessives,
    _proper_modifiers,
    _replaced_mixed,
    _requested_only,
    _role_of_another,
    _role_of_another_year,
    _set_aside,
    _sides_reversed,
    _standard_elsewhere,
    _subject_apart,
    _subject_opposite,
    _unasserted,
    _valued_apart,
    _whose_apposed,
    _whose_doer,
    _whose_subject,
    _year_of_another,
    _year_of_other_predicate,
)
from grace.scoring.bindings.roles import (
    _active_roles,
    _agent_object,
    _agent_of_another,
    _agent_unstated,
    _amount_unattached,
    _caused_of_another,
    _clause_subject_swapped,
    _converse_subject,
    _coordinated_object,
    _event_noun_only,
    _filler_swapped,
    _for_another,
    _goal_only,
    _long_do_subject,
    _measured_elsewhere,
    _object_as_subject,
    _object_elsewhere,
    _object_made_subject,
    _object_named_otherwise,
    _owner_only,
    _participle_unattributed,
    _passive_subject,
    _pronoun_subject,
    _relative_object,
    _relative_subject,
    _roles_crossed,
    _roles_reversed,
    _sold_to_another,
    _source_only,
    _subject_after,
    _successor_leaving,
)
from grace.scoring.bindings.words import _cased, finite_verb, known_forms, unchanged_past

__all__ = [
    "COORDINATED_CLAUSE_PATTERN",
    "asked_predicates",
    "before_suru",
    "finite_verb",
    "interrogative",
    "known_forms",
    "unbound_phrases",
    "unbound_phrases_ja",
    "unchanged_past",
]

_CHECKS: tuple[Callable[[list[str], list[str]], list[str]], ...] = (
    _of_phrases,
    _possessives,
    _passive_subject,
    _long_do_subject,
    _active_roles,
    _roles_crossed,
    _pronoun_subject,
    _agent_unstated,
    _agent_object,
    _agent_of_another,
    _event_noun_only,
    _filler_swapped,
    _amount_unattached,
    _object_as_subject,
    _measured_elsewhere,
    _directions,
    _opposite_verbs,
    _sides_reversed,
    _noun_modifiers,
    _modifier_moved,
    _relative_object,
    _relative_subject,
    _subject_after,
    _alternatives_swapped,
    _coordinated_object,
    _arguments_swapped,
    _object_elsewhere,
    _for_another,
    _successor_leaving,
    _caused_of_another,
    _clause_subject_swapped,
    _converse_subject,
    _sold_to_another,
    _source_only,
    _roles_reversed,
    _object_made_subject,
    _opposite_nearby,
    _subject_opposite,
    _standard_elsewhere,
    _unasserted,
    _requested_only,
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
    raw_q, raw_s = unicodedata.normalize("NFKC", question), unicodedata.normalize("NFKC", sentence)
    for phrases in (
        *(check(q, s) for check in _CHECKS),
        _proper_modifiers(q_cased, s_cased),
        _clause_subject_swapped(q_cased, s_cased),
        _filler_swapped(q_cased, s_cased),
        _goal_only(q_cased, s_cased),
        _owner_only(q, s_cased),
        _object_named_otherwise(q, s_cased),
        _parallel_clauses(q, raw_s),
        _poles_apart(q_cased, raw_s),
        _dated_apart(q, raw_s),
        _counted_apart(q, raw_s),
        _subject_apart(q, raw_s),
        _year_of_another(q, raw_s),
        _year_of_other_predicate(q, raw_s),
        _measured_apart(raw_q, raw_s),
        _valued_apart(q, raw_s),
        _listed_apart(raw_q, raw_s),
        _endpoint_only(raw_q, raw_s),
        _set_aside(q, raw_s),
        _replaced_mixed(q, raw_s),
        _across_concession(q, raw_s),
        _name_suffixes(raw_q, raw_s),
        _whose_apposed(raw_q, raw_s),
        _role_of_another(raw_q, raw_s),
        _role_of_another_year(raw_q, raw_s),
        _its_of_another(raw_q, raw_s),
        _whose_subject(q, raw_s),
        _whose_doer(q, raw_s),
        _participle_unattributed(q, s, raw_s),
    ):
        found.extend(p for p in phrases if not any(f == p or f.startswith(f"{p} ") for f in found))
    # the coarsest readings: only where no finer one has named what is apart
    return tuple(found) or tuple(_named_clause_apart(raw_q, raw_s)) or tuple(
        _goal_of_another(q_cased, s)
    )
