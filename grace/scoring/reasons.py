"""Does a sentence give a reason? The value a why-question asks for.

"Why did the firm close in 1979?" is not answered by "… the firm, when it closed in 1979":
the sentence states every term of the question and no reason. A why-question is answered by
a reason as a how-much question is by an amount (:func:`grace.text.answer_measures`), and
the SILENT rule asks the cited sentence for one (:func:`states_reason`;
:func:`grace.scoring.sentence_check.check_sentence`).

What English writes a reason with (from its grammar, not from any data set's errors):

- a conjunction or preposition of cause or purpose — *because (of)*, *due to*, *owing to*,
  *on account of*, *thanks to*, *in order to*, *so as to*, *for fear*, *lest*, *since* (not
  a date), *on the grounds*, *in protest*, *in response to*, *in return for*, *as a result*;
  a word that names one (*reason*, *cause*, *purpose*);
- a purpose infinitive (*sold the farms to pay death duties*), *for* with a gerund (*fined
  for refusing*), *too* with an adjective (*judged too expensive*);
- a clause of time read as a cause (*after*, *when*, *following*, *upon*: "abandoned when
  only four students enrolled") — not where it only repeats the question's own words
  ("collapsed after the First World War" for "Why did it collapse after the war?");
- a verb of argument (*argued*, *insisted*, *claiming*, *citing*) or a content clause right
  after the asked verb ("objected *that* …", "decided *that* …");
- a result clause before the asked fact ("… turned off to save fuel, *so that* most plants
  died").

The reason must belong to the asked fact: it comes **after the asked verb** in its clause
(not past a semicolon or colon), or opens the clause with a comma before the asked verb (a
fronted "Owing to a shortage of coal, the route was suspended"), or the asked fact is told
as its result ("…, so that most plants died"). The asked verb is the question's verb as the
sentence writes it in a verb form ("closed", "built", "selling"); where the sentence has
none, any reason in the sentence counts. A bare "and" is none: "the council declined to fund
it and the colony was never built" tells two facts, not why the second.

Japanese (:func:`_states_reason_ja`): a noun of reason (ため, 理由, 原因 …), a cause's
case phrase (「によって」「を受けて」「に伴い」), the conjunctive 「から」 after a predicate,
「ので」, or the negative connective 「…ずに」, anywhere in the sentence (a Japanese reason
comes before its predicate, and a sentence's clauses share one).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from grace.patterns import lazy
from grace.retrieval.lemmas import all_lemmas
from grace.retrieval.tokenize_sudachi import thread_tokenizer
from grace.scoring.bindings import asked_predicates, known_forms
from grace.text import ENGLISH_STOPWORDS, is_japanese, states_measure

__all__ = ["asks_reason", "states_reason"]

_ASKS = lazy(
    r"^\s*why\b|\bwhy\s+(?:did|does|do|was|were|is|are|has|have|had|would|could|should)\b"
    r"|\bfor\s+what\s+(?:reason|purpose)|\bwhat\s+(?:was|were|is|are)\s+the\s+(?:reasons?|purpose)"
    r"|\bhow\s+come\b",
    re.I,
)
"""A question that asks for a reason or a purpose."""

_TOKEN = lazy(r"[A-Za-z][\w'’-]*|\d+(?:[,.]\d+)*|[;:—–()]|,")
_BOUNDARY = frozenset({";", ":", "—", "–", "(", ")"})
"""Marks that end the asked verb's clause: a reason past them belongs to another fact."""

_MARKERS = (
    ("because",), ("due", "to"), ("owing", "to"), ("on", "account", "of"), ("thanks", "to"),
    ("in", "order"), ("so", "as", "to"), ("so", "that"), ("for", "fear"), ("lest",),
    ("on", "the", "grounds"),
    ("in", "protest"), ("in", "sympathy"), ("in", "response"), ("in", "return"),
    ("in", "exchange"), ("as", "a", "result"), ("as", "a", "consequence"), ("reason",),
    ("reasons",), ("cause",), ("causes",), ("purpose",), ("as", "too"),
    ("argued",), ("arguing",), ("insisted",), ("insisting",), ("claimed",), ("claiming",),
    ("citing",), ("cited",), ("complained",), ("complaining",), ("objecting",),
)
"""Words that state a reason or purpose wherever they stand after the asked verb."""
_TIME_AS_CAUSE = frozenset({"after", "when", "following", "upon", "since"})
"""Words of a clause of time that may tell a cause ("abandoned *when* only four enrolled")."""
_RESULT = (("so",), ("thus",), ("therefore",), ("hence",), ("as", "a", "result"))
"""Words before the asked fact that make it the result of what comes before."""
_MONTHS = frozenset(
    "january february march april may june july august september october november december "
    "then".split()
)
"""Words after *since* that make it a date, not a reason ("since March", "since then")."""


def asks_reason(question: str) -> bool:
    """Whether a question asks why ("Why …?", "for what reason", 「なぜ」, 「理由は何か」).

    >>> asks_reason("Why did the mill close?"), asks_reason("When did the mill close?")
    (True, False)
    >>> asks_reason("宗窯が操業を停止したのはなぜか。"), asks_reason("何年に停止したか。")
    (True, False)
    """
    pattern = _ASKS_JA if is_japanese(question) else _ASKS
    return pattern.search(question) is not None


@lru_cache(maxsize=4096)
def states_reason(question: str, sentence: str) -> bool:
    """Whether ``sentence`` gives a reason for the fact ``question`` asks why of.

    >>> states_reason("Why did the firm close?", "The firm closed in 1979 because of debts.")
    True
    >>> states_reason("Why did the firm close?", "Its books came from the firm when it closed.")
    False
    """
    if is_japanese(question):
        return _states_reason_ja(_surfaces(sentence), _asked_predicates_ja(question))
    words = _TOKEN.findall(sentence)
    lower = [w.lower() for w in words]
    asked = _question_terms(question)
    verb = _asked_verb(lower, asked, _TOKEN.findall(question.lower()))
    if verb is None:
        return any(_reason_at(lower, i, asked) for i in range(len(lower)))
    end = next((i for i in range(verb + 1, len(lower)) if lower[i] in _BOUNDARY), len(lower))
    start = max((i + 1 for i in range(verb) if lower[i] in _BOUNDARY), default=0)
    if any(_reason_at(lower, i, asked, after=lower[verb]) for i in range(verb + 1, end)):
        return True
    return _result_before(lower, start, verb) or _fronted(lower, start, verb, asked)


def _question_terms(question: str) -> frozenset[str]:
    """The known forms of the question's content words (its own words are no reason)."""
    return frozenset(
        form for word in _TOKEN.findall(question.lower())
        if word[:1].isalpha() and word not in ENGLISH_STOPWORDS
        for form in known_forms(word)
    )


def _verb_form(word: str, question: Sequence[str]) -> bool:
    """Whether ``word`` is written as an inflected verb ("closed", "built", "selling").

    A word the lemma table does not know counts by its ending ("capsized"). An "-ing" word
    the question writes the same way is a noun or a modifier there ("the *landing* stage").
    """
    lemmas = all_lemmas(word)
    verbs = lemmas.get("VERB", ())
    if word.endswith("ing") and word in question:
        return False
    if not lemmas:
        return len(word) > 4 and word.endswith(("ed", "ing"))
    if not verbs or word in verbs:
        return False
    return word.endswith(("ed", "ing")) or "NOUN" not in lemmas


def _asked_verb(
    lower: Sequence[str], asked: frozenset[str], question: Sequence[str]
) -> int | None:
    """Where the sentence writes the question's verb in a verb form: the last such place."""
    found = None
    for i, word in enumerate(lower):
        if word[:1].isalpha() and _verb_form(word, question) and known_forms(word) & asked:
            found = i
    return found


def _phrase_at(lower: Sequence[str], at: int, phrase: Sequence[str]) -> bool:
    return tuple(lower[at : at + len(phrase)]) == tuple(phrase)


def _reason_at(
    lower: Sequence[str], at: int, asked: frozenset[str], *, after: str = ""
) -> bool:
    """Whether a reason starts at ``at`` (``after``: the asked verb, when right before)."""
    word = lower[at]
    if any(_phrase_at(lower, at, phrase) for phrase in _MARKERS):
        return True
    following = lower[at + 1] if at + 1 < len(lower) else ""
    if word in _TIME_AS_CAUSE:
        return (
            _new_clause(lower, at + 1, asked)
            and not _span_of_time(lower, at + 1)
            and not _span_of_time_before(lower, at)
            and not (word == "since" and (not following[:1].isalpha() or following in _MONTHS))
        )
    if word == "to":  # a purpose infinitive: "to pay death duties"
        return following in all_lemmas(following).get("VERB", ()) and following not in asked
    if word == "for":  # "fined for refusing"
        return following.endswith("ing") and bool(all_lemmas(following).get("VERB"))
    if word == "too":  # "judged too expensive"
        return bool(all_lemmas(following).get("ADJ"))
    return word == "that" and at >= 1 and lower[at - 1] == after  # "objected that …"


def _span_of_time(lower: Sequence[str], start: int) -> bool:
    """Whether the words at ``start`` are a span of time: "after *twenty-eight years* as matron".

    A time clause that only measures the time gone by tells when, not why; one that goes on
    with what filled it ("after three years *of losses*") may tell why.
    """
    for end in range(start + 1, min(len(lower), start + 3) + 1):
        if states_measure(" ".join(lower[start:end]), ("duration",)):
            return lower[end : end + 1] != ["of"]
    return False


def _span_of_time_before(lower: Sequence[str], at: int) -> bool:
    """Whether a span of time stands right before the time word at ``at``: "*two years* after".

    "merged back in 1948, *two years after* Hebden's death" dates the merger by the death; it
    does not say the death caused it (as "merged back *after* Hebden's death" may).
    """
    return any(
        states_measure(" ".join(lower[start:at]), ("duration",))
        for start in range(max(0, at - 3), at)
    )


def _new_clause(lower: Sequence[str], start: int, asked: frozenset[str]) -> bool:
    """Whether the next words say something besides the question's own words.

    "… collapsed *after the First World War*" only repeats the question's time; "abandoned
    *after Westmoor's own members voted*" tells what happened.
    """
    return any(
        word[:1].isalpha() and word not in ENGLISH_STOPWORDS and not known_forms(word) & asked
        for word in lower[start : start + 4]
    )


def _result_before(lower: Sequence[str], start: int, verb: int) -> bool:
    """Whether the asked fact is told as a result ("…, so that most plants died")."""
    return any(
        _phrase_at(lower, i, phrase) for i in range(start, verb) for phrase in _RESULT
    )


def _fronted(lower: Sequence[str], start: int, verb: int, asked: frozenset[str]) -> bool:
    """Whether the clause opens with a reason, a comma before the asked verb ("Owing to …, it …").

    Only at the clause's start: a "when" further on may open the very clause that holds the
    asked verb ("… followed on 6 December, when the lifeboat, which …, capsized").
    """
    return _reason_at(lower, start, asked) and "," in lower[start + 1 : verb]


_ASKS_JA = lazy(
    r"なぜ|何故|どうして|なんで"
    r"|(?:理由|原因|目的|わけ|訳)(?:は|が|を|として)?(?:何|なん|なに)"
    r"|(?:どのような|どういう|どんな|いかなる|何の)(?:理由|原因|目的|わけ|事情)"
)
"""A Japanese question that asks why (「なぜ」, 「理由は何か」, 「どのような理由で」)."""

_JA_REASON_NOUNS = frozenset(
    {"為", "理由", "原因", "所為", "お陰", "影響", "結果", "都合", "切っ掛け", "契機", "目的",
     "余波", "事情"}
)
"""Nouns that name a reason or a purpose (「用紙不足の**ため**」, 「予算の**都合**で」)."""
_JA_REASON_VERBS = frozenset({"受ける", "伴う", "因る", "よる"})
"""Verbs of a cause's case phrase (「台風を**受けて**」, 「移転に**伴い**」,
「落雷に**よって**」)."""
_JA_PREDICATES = frozenset({"動詞", "形容詞", "助動詞"})


def _surfaces(text: str) -> tuple[tuple[str, str, str], ...]:
    """(surface, normalised form, part-of-speech head) of each Sudachi morpheme (mode B)."""
    return tuple(
        (m.surface(), m.normalized_form(), m.part_of_speech()[0])
        for m in thread_tokenizer("B").tokenize(text)
    )


@lru_cache(maxsize=1024)
def _asked_predicates_ja(question: str) -> frozenset[str]:
    """The normalised predicates of a Japanese question (:func:`asked_predicates`)."""
    return asked_predicates(tuple((norm, pos) for _, norm, pos in _surfaces(question)))


_JA_CAUSE_REACH = 3
"""Morphemes before a reason's marker that hold its cause (「財政**悪化**を受けて」)."""


def _states_reason_ja(
    morphemes: Sequence[tuple[str, str, str]], asked: frozenset[str] = frozenset()
) -> bool:
    """Whether a Japanese sentence gives a reason: ``morphemes`` as (surface, normalised, POS).

    A noun of reason (:data:`_JA_REASON_NOUNS`, 「ため」), a cause's case phrase
    (:data:`_JA_REASON_VERBS`: 「によって」「を受けて」「に伴い」), the conjunctive 「から」 after a
    predicate (not the case particle after a noun: 「工場**から**出火し」 is a place) or after
    「こと」, 「ので」, or the negative connective 「…**ずに**」「…ず、」 (「輸送手段が確保でき
    ずに実現せず」). Not a marker whose cause is the question's own predicate (``asked``):
    「財政が悪化した原因」 is not given by 「財政**悪化を受けて**…移管され」, which gives the
    worsening as the cause of the transfer.
    """
    for i, (surface, norm, pos) in enumerate(morphemes):
        before = morphemes[i - 1] if i else ("", "", "")
        after = morphemes[i + 1] if i + 1 < len(morphemes) else ("", "", "")
        if any(m[1] in asked for m in morphemes[max(0, i - _JA_CAUSE_REACH) : i]):
            continue  # the asked event is this marker's cause, not what it explains
        if (pos == "名詞" and norm in _JA_REASON_NOUNS) or (
            pos == "動詞" and norm in _JA_REASON_VERBS
        ):
            return True
        if surface == "から" and (before[2] in _JA_PREDICATES or before[0] in {"こと", "事"}):
            return True
        if surface == "で" and before[0] == "の" and before[2] == "助詞":  # 「ので」
            return True
        if surface == "ず" and pos == "助動詞" and after[0] in {"に", "、"}:
            return True
    return False
