"""Does the answer's sentence say what the question asks? The rule under SILENT.

GRACE's SILENT level promises an answer a person need not check. :func:`check_sentence`
makes that checkable at a glance: a run may end SILENT only when the sentence its answer
cites **states every content term of the question** and **agrees with it on negation and on
the numbers it names**. Otherwise the run is at most NOTIFY, and the notice names what the
sentence does not state ("the sentence does not say 'imports'"). The rule is not a learned
feature: it says what SILENT means, so it cannot be fitted away by a data set where a
missing word happened to be harmless (docs/confidence.md, "SILENT means the sentence says
it").

What counts as *stating* a term:

- **English** — a content word of the question (not a stopword, not a word that only names
  the *kind* of answer asked for: :data:`ANSWER_SLOT_WORDS`) is stated when the sentence
  holds the same word in a known form: the same Snowball stem, or the same lemma by
  `lemminflect <https://pypi.org/project/lemminflect/>`_ (irregular inflections:
  "went" ~ "go", "children" ~ "child", "rose" ~ "rise"); a superlative keeps its degree
  ("smallest" is not stated by "smaller"). Another word is not the term, however close:
  "exports" does not state "imports", nor "years" "months" — unless WordNet files the two
  in one synset among both words' most frequent senses ("established" states "set up",
  "began" "start": :func:`grace.retrieval.synonyms.synonyms`); the sentence is then read
  with the question's word in the synonym's place, by every reading below.
- **Ranges** — a month or a weekday of the question is stated by a range of months or days
  that holds it ("December" by "closed from November to March", "Wednesday" by "Monday to
  Friday").
- **Numbers** — every number of the question must be in the sentence, written as digits
  with or without thousands separators, (0–20, tens) as an English word, or in Japanese
  kanji numerals (「第二」, 「二十五人」: Sudachi reads them as digits); a number is compared
  by value, so "1,000" states "1000" and 「二十五」 states 25.
- **Places** — a where-question needs a phrase of place that says more than the question
  (:func:`_placed`).
- **Reasons** — a why-question ("Why …?", 「なぜ」) needs a sentence that gives a reason for
  the asked fact, not only the fact (:func:`grace.scoring.reasons.states_reason`).
- **Negation** — the question and the sentence must both be negated or both not
  (:func:`grace.text.is_negated`).
- **Opposites** (English) — the sentence must not state, in place of a word of the question,
  another member of the same closed set ("after" for "before", "exports" for "imports",
  "second" for "first": :func:`grace.text.contrasts`). Most such words are content terms
  and already missing; this also holds the function words ("before" / "after", "above" /
  "below", "inside" / "outside") that are never required terms.
- **Phrases** — where the sentence states every term, the question's "N of M"
  (and "into", "from", "by"), "X's N", an active question's subject and object, a passive
  question's subject, a way ("from" / "to"), a proper modifier ("the Ostrian camp"), a
  verb's object and the verb a count belongs to must not be bound otherwise in the
  sentence ("capital of" said only of other things, "his nephew Tancred" for "Tancred's
  nephew", "the Ostrians outnumbered the Swedes" for "did the Swedes outnumber the
  Ostrians", "the British were defeated" for "were the French defeated", "It lies … north of
  Dresk" for "does Dresk lie": :func:`grace.scoring.bindings.unbound_phrases`). In
  Japanese, a case particle's noun and predicate and a topic's comment
  (「最終は午前何時」 against 「始発は午前7時、最終は午後8時」:
  :func:`grace.scoring.bindings.japanese.unbound_phrases_ja`).
- **The document's title, in Japanese** — a content morpheme the title of the sentence's
  document states (a heading or an HTML title, not a file name) counts as stated: a Japanese
  sentence often elides the subject its page is about, and the citation shows the title
  beside it (「和歌山県の県庁所在地は」 on the *和歌山県* page, whose sentence leaves the
  prefecture unsaid). Numbers and negation must be in the sentence. An English sentence
  states its terms itself ("It closed in 1987." does not say "Grellan Observatory").
- **Japanese** — the content morphemes of the question in Sudachi's normalised form (the
  tokenizer of :mod:`grace.retrieval.tokenize`, dictionary words only) must be in the
  sentence's, or a word of the same SudachiDict synonym group (「価格」 states 「値段」, 「購入」
  「買う」; never an opposite: :func:`~grace.retrieval.tokenize_sudachi.synonym_groups`);
  the numbers and negation as above. :data:`JAPANESE_RULE` says whether it
  applies (see its docstring for the choice and its reason).

The sentence is the passage sentence the answer quotes (the offline reader's answer *is* one);
a model's free-text answer is checked against the sentence of its cited passages that shares
the most words with it — so a free-text answer is SILENT only when some sentence it cites
states the question's terms.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from confidence import RECOMMENDED_ACTIONS, ActionDecision, InterventionLevel
from grace.patterns import lazy
from grace.retrieval.lemmas import all_inflections, all_lemmas
from grace.retrieval.synonyms import money_kinds, person_kinds, synonyms
from grace.retrieval.tokenize import tokenize
from grace.retrieval.tokenize_sudachi import (
    CONTENT_POS,
    JA_STOP,
    synonyms_said,
    thread_tokenizer,
)
from grace.schemas import Source
from grace.scoring.bindings import (
    COORDINATED_CLAUSE_PATTERN,
    before_suru,
    finite_verb,
    interrogative,
    known_forms,
    unbound_phrases,
    unbound_phrases_ja,
    unchanged_past,
)
from grace.scoring.reasons import asks_reason, states_reason
from grace.text import (
    ENGLISH_STOPWORDS,
    ENGLISH_WORD,
    WH_HEADS,
    answer_class_indices,
    answer_measures,
    contrasts,
    in_stated_range,
    is_japanese,
    is_negated,
    measure_words,
    named_measures,
    normalise_text,
    split_sentences,
    states_measure,
    without_citations,
    without_other_measures,
)

__all__ = [
    "ANSWER_SLOT_WORDS",
    "HOW_SLOT_WORDS",
    "JAPANESE_RULE",
    "JAPANESE_SLOT_WORDS",
    "SentenceCheck",
    "applies",
    "cap_silent",
    "check_sentence",
    "cited_sentence",
    "run_check",
]

JAPANESE_RULE = True
"""Whether the rule applies to Japanese questions (see docs/confidence.md)."""

ANSWER_SLOT_WORDS = frozenset(
    """
    name named names called call term termed known located happen happened happens
    many much often roughly approximately together
    """.split()
)
"""Question words that frame the answer rather than state a fact the sentence must say: naming
frames ("what is X *called*", "*known* as"), "where … *located*", "what *happened*",
quantity and frequency words (*many*, *much*, *often*: the stop list already drops *few*,
*more*, *most*), the answer's precision (*roughly*, *approximately*: *about* is a stopword),
*together* ("who founded it *together* with Drage": the partner is the term, and "and" /
"with" in the sentence join them), and the adjective after *how* (:data:`HOW_SLOT_WORDS`). A
sentence gives the value ("in 1754", "Fort Duquesne"), not the frame. Chosen from the
grammar of English questions, not from any data set's errors. Likewise the noun phrase that
*what* / *which* / *whose* heads ("which *television show*", "what *year*") names the
answer's type and is not required (:func:`_english_terms`); the noun *how many* counts ("how
many *imports*") is. The words that name a number question's measure ("how much does it
*cost*", "how *big*", 「*長さ*」: :func:`~grace.text.measure_words`) frame it too, when the
sentence states a value of that measure ("Parking is free", "twelve hectares"): the value
says them, as a date says "when"."""

HOW_SLOT_WORDS = frozenset({"long", "old", "far"})
"""Words that frame the answer right after *how* ("how *old*", "how *long*"), and only
there: elsewhere they are the question's own terms ("the *Old* Basin", "the *long*
nave"), which the sentence must state."""

JAPANESE_SLOT_WORDS = frozenset(
    {"言う", "呼ぶ", "名前", "名称", "呼称", "呼び方", "読む", "読み", "読み方", "頃", "いつ頃"}
)
"""The Japanese counterparts (normalised forms): naming frames (「何という」「何と呼ぶ」
「名前は」) and 「頃」. Likewise the nouns a question word heads (「何**市**」「何万**人**」) and
the noun a question ends on as its topic (「…した**国**は？」「主催**国**はどこか」) name the
answer's type (:func:`_japanese_terms`)."""

_NUMBER_WORDS = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen "
        "fourteen fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
} | {
    w: 10 * (i + 3) for i, w in enumerate("thirty forty fifty sixty seventy eighty ninety".split())
}
"""English number words compared by value ("three" states "3")."""
_JA_NUMBER = lazy(r"\d[\d,]*(?:\.\d+)?")
_ONCE = lazy(r"\b(?:once|twice|thrice)\b|[一二三]度", re.I)
"""How many times, in a word: a value of a frequency ("once during setup")."""
_NAME_IN_TEXT = lazy(r"(?<=[\w,;:] )[A-Z][\w'-]*")
"""A capitalised word that does not open the text: a name or a proper adjective
("Ostrian")."""


@dataclass(frozen=True)
class SentenceCheck:
    """What a sentence does not state of a question (empty: it states it all)."""

    missing: tuple[str, ...] = ()
    """Content terms of the question the sentence does not state, as the question writes them."""
    numbers: tuple[str, ...] = ()
    """Numbers of the question the sentence does not hold."""
    negation: str | None = None
    """How the two disagree on negation ("the question is negated, the sentence is not")."""
    opposites: tuple[str, ...] = ()
    """Question words the sentence replaces by an opposite, as ``"asked≠stated"`` — those
    not already in :attr:`missing` (function words such as "before")."""
    unbound: tuple[str, ...] = ()
    """Phrases of the question whose words the sentence states in another relation
    ("capital of kingdom": it says "capital of" other things only;
    :func:`grace.scoring.bindings.unbound_phrases`)."""
    valueless: str | None = None
    """The measure the question asks for ("money", "length"), when the sentence states no
    value of it; ``"name"``, ``"reason"``, ``"place"`` or ``"source"`` when it asks for a name,
    a reason, a place or where a thing came from ("from whom") that the sentence does not
    give (:func:`_valueless`)."""

    @property
    def holds(self) -> bool:
        """Whether the sentence states every term, number and phrase, no opposite, the negation."""
        return not (
            self.missing or self.numbers or self.negation or self.opposites or self.unbound
            or self.valueless
        )

    def notice(self) -> str:
        """One line naming what the sentence does not say ("" when it says it all)."""
        parts = []
        lacking = [*self.missing, *self.numbers]
        if lacking:
            parts.append("the sentence does not say " + ", ".join(f"'{t}'" for t in lacking))
        if self.negation:
            parts.append(self.negation)
        for pair in self.opposites:
            asked, stated = pair.split("≠")
            parts.append(f"the sentence says '{stated}' where the question says '{asked}'")
        for phrase in self.unbound:
            parts.append(f"the sentence has the words of '{phrase}' in another relation")
        if self.valueless in ("name", "reason", "place", "source", "month", "day"):
            parts.append(f"the sentence states no {self.valueless}")
        elif self.valueless:
            parts.append(f"the sentence states no {self.valueless} value")
        return "; ".join(parts)


def _number(token: str) -> float | None:
    if token[:1].isdigit():
        try:
            return float(token.replace(",", ""))
        except ValueError:
            return None
    return float(_NUMBER_WORDS[token]) if token in _NUMBER_WORDS else None


def _english_terms(text: str, *, question: bool = False) -> list[str]:
    """Content words of an English text, in order, as written (lower-cased).

    Of a question (``question``), not the words that frame the answer: the slot words and
    the noun phrase (up to three words) right after *what* / *which* / *whose*, less the
    names in it ("which *Ostrian* general": a name restricts the answer, the sentence must
    state it).
    """
    out = []
    words = ENGLISH_WORD.findall(normalise_text(text))
    framed = answer_class_indices(words) if question else set()
    if framed:
        framed = _answer_class(words, framed, text)
    for i, word in enumerate(words):
        if word[:1].isdigit() or i in framed:
            continue
        if word in ENGLISH_STOPWORDS and not _verb_own(words, i):
            continue
        if question and word in WH_HEADS:
            continue
        if question and (
            (word in ANSWER_SLOT_WORDS and not _naming_act(words, i))
            or (word in HOW_SLOT_WORDS and words[i - 1 : i] == ["how"])
        ):
            continue
        if word in _NUMBER_WORDS or len(word) < 2 or not (tokenize(word) or _verb_own(words, i)):
            continue
        out.append(word)
    return out


_POSSESSIVE_DETERMINERS = frozenset({"my", "your", "his", "her", "its", "our", "their", "whose"})
_NAMING_VERBS = frozenset({"called", "call", "named", "termed"})
_OBJECT_STARTS = frozenset({"the", "a", "an", "this", "that"}) | _POSSESSIVE_DETERMINERS


def _naming_act(words: Sequence[str], at: int) -> bool:
    """Whether a naming word at ``at`` is a who-question's verb, not a frame.

    "Who *called* the meeting?" and "Who *named* the shrub?" ask who did it: the word is the
    relation, with its object after it; "What is the shrub *called*?" frames the answer.
    """
    return (
        words[:1] == ["who"]
        and words[at] in _NAMING_VERBS
        and words[at + 1 : at + 2] != []
        and words[at + 1] in _OBJECT_STARTS
    )


def _verb_own(words: Sequence[str], at: int) -> bool:
    """Whether "own" at ``at`` is the verb ("Which bank did Linley *own*?"), a content word.

    The stopword lists hold "own" for the determiner ("their own"), which says nothing.
    """
    return words[at] == "own" and (at == 0 or words[at - 1] not in _POSSESSIVE_DETERMINERS)


def _answer_class(words: list[str], framed: set[int], text: str) -> set[int]:
    """The words of the phrase after *what* / *which* that name the answer's class.

    Not a name in it ("which *Ostrian* general": a name restricts the answer, the sentence
    must state it), nor a verb and what follows it ("what industry *declined*": the
    question's relation, which :func:`~grace.text.answer_class_indices`' three words can
    reach; a past written as its base with a determiner or a name after it: "Which club
    *beat* Rovers …?"), nor the phrase after *whose*: "Whose *son* was Hugh Tolland?" asks
    for the owner of the relation, which the sentence must state.
    """
    names = {w.lower() for w in _NAME_IN_TEXT.findall(unicodedata.normalize("NFKC", text))}
    kept: set[int] = set()
    cut = False
    for i in sorted(framed):
        if i - 1 not in framed:
            cut = words[i - 1] == "whose"  # a new phrase; "whose *son*" is the relation asked
        cut = cut or _inflected_verb(words[i]) or (
            i - 1 in framed and unchanged_past(words[i]) and i + 1 < len(words)
            and (words[i + 1] in _ARTICLES_EN or words[i + 1] in names)
        )
        if not cut and words[i] not in names:
            kept.add(i)
    return kept


_ARTICLES_EN = frozenset({"the", "a", "an"})


def _inflected_verb(word: str) -> bool:
    """A verb form other than its base and no noun ("declined", "benefited"): a predicate.

    "types", "parts" and "states" are nouns too, and stay in the class.
    """
    lemmas = all_lemmas(word)
    return "NOUN" not in lemmas and any(lemma != word for lemma in lemmas.get("VERB", ()))


def _numbers(text: str, *, japanese: bool = False) -> dict[float, str]:
    """The numbers a text names, by value: digits, and number words.

    English number words ("three"); Japanese numerals in kanji (「第二」, 「三つ」, 「二十五人」),
    which Sudachi's numeral normalisation reads as digits (「二十五」 → 25) and a word that
    merely holds a numeral kanji (「統一」, 「一般」) does not give.
    """
    found: dict[float, str] = {}
    if japanese:
        written = _JA_NUMBER.findall(text)
        read = [form for form, _pos in _morphemes(text) if _JA_NUMBER.fullmatch(form)]
        for number in [*written, *read]:
            found.setdefault(float(number.replace(",", "")), number)
        return found
    for token in ENGLISH_WORD.findall(normalise_text(text)):
        value = _number(token)
        if value is not None:
            found.setdefault(value, token)
    return found


_SPAN = lazy(
    r"\b(?:from|between)\s+(\d{3,4})\s+(?:to|and|until|till)\s+(\d{3,4})\b"
    r"|\b(\d{4})\s*[-–—]\s*(\d{2,4})\b",
    re.I,
)
"""A span of years or numbers: "from 1904 to 1947", "between 1860 and 1872", "1919–1947"."""


def _spans(text: str) -> set[tuple[str, str]]:
    """The spans :data:`_SPAN` finds in ``text``, as (first, last) ("1919–47": ("1919", "1947"))."""
    out = set()
    for match in _SPAN.finditer(text):
        first, last = (match.group(1), match.group(2)) if match.group(1) else match.group(3, 4)
        last = first[: len(first) - len(last)] + last
        if int(last) >= int(first):  # a span runs forward ("1881–02" is no span of 1881)
            out.add((first, last))
    return out


def _span_unsaid(question: str, stated: set[tuple[str, str]]) -> tuple[str, ...]:
    """A span the question names whose one end the sentence ends another span with.

    "Who was the chief supervisor *from 1904 to 1947*?" is not said by "The chief supervisor
    *from 1919 to 1947* was Agnes Holroyd, who had joined … in 1904": a span's two ends go
    together, and the sentence states another span to the same end (1904 is only another
    fact's year). A sentence that gives no span of its own is not read ("joined in 1904 and
    retired in 1947"). ``stated``: the sentence's spans (:func:`_spans`).
    """
    return tuple(
        f"{first} to {last}" for first, last in sorted(_spans(question))
        if (first, last) not in stated
        and any((a == first) != (b == last) for a, b in stated)
    )


_NEGATION_SCOPE = lazy(
    COORDINATED_CLAUSE_PATTERN + r"|,\s+(?:which|who|where|when|so that)\s+|:\s+"
)
"""Where an English sentence's clauses meet, for the scope of a negation: coordinated
clauses and predicates (the bindings' pattern), a relative or adverbial clause after a
comma, and the clause after a colon ("Not every proposal succeeded: a course … was
abandoned" — the colon's clause says what the one before it sums up)."""
_NOT_UNTIL = lazy(r"(?:\b(?:not|never)\b|n't\b)(?=[^,;:]*\buntil\b)", re.I)
"""A negation with *until* after it in its clause: "was not examined until 1886" dates the
event (it happened in 1886), it does not deny it."""


def _denies(clause: str) -> bool:
    """Whether an English clause negates its predicate.

    :func:`~grace.text.is_negated`, a negation that dates its event (:data:`_NOT_UNTIL`) apart.
    """
    return is_negated(_NOT_UNTIL.sub(" ", clause))


def _negation(question: str, sentence: str) -> str | None:
    """Where the question and the sentence disagree on negation; ``None`` where they agree.

    A negation that dates its event is none, on either side (:func:`_denies`): "the market
    did not reopen until the spring" does not say that "the fairs were not cancelled".
    """
    asked = _denies(question)
    stated = _denies(sentence) if is_japanese(question) else _negated_about(
        question, sentence, elided=asked
    ) and not (asked and _denied_otherwise(question, sentence))
    if asked == stated:
        return None
    return "the question is negated, the sentence is not" if asked else (
        "the sentence is negated, the question is not"
    )


def _missing_english(question: str, sentence: str) -> tuple[str, ...]:
    stated: set[str] = set()
    said = _english_terms(sentence)
    for word in said:
        stated |= known_forms(word)
    terms = _english_terms(question, question=True)
    missing: list[str] = []
    for word in terms:
        if known_forms(word) & stated or word in missing or in_stated_range(word, sentence):
            continue
        if _said_by_agent_noun(word, terms, said):
            continue
        missing.append(word)
    return tuple(missing)


def _with_synonyms(question: str, sentence: str, missing: Sequence[str]) -> str:
    """``sentence`` with a synonym of each missing term written as that term.

    A term the sentence says with a WordNet synonym in its usual sense
    (:func:`grace.retrieval.synonyms.synonyms`: "set up" for "established", "began" for
    "start") is stated; the synonym's first occurrence is rewritten as the question's word in
    the synonym's inflection ("began" → "started"), so that every other reading — roles,
    negation, phrases — reads the sentence with the question's word. A phrasal verb of the
    question ("set up", "turn down") is looked up whole. Not a word of a name: "the Public
    Works *Loan* Commissioners" says no one lent anything.
    """
    qwords = ENGLISH_WORD.findall(normalise_text(question))
    out = sentence
    for word in missing:
        words = ENGLISH_WORD.findall(normalise_text(out))
        found = _synonym_in(words, _term_heads(word, qwords), _name_words(out, len(words)))
        if found is None:
            continue
        at, size, head, synonym = found
        said = r"\b" + r"\W+".join(re.escape(w) for w in words[at : at + size]) + r"\b"
        written = _inflected_like(head, words[at], synonym)
        if known_forms(written.split()[0]) & known_forms(word):  # "well" does not say "best"
            out = re.sub(said, written, out, count=1, flags=re.IGNORECASE)
    return out


def _reread(question: str, sentence: str, missing: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """``sentence`` read with synonyms (:func:`_with_synonyms`), and the terms it still lacks.

    Read again while each reading states one more term (so it ends).
    """
    while missing:
        reread = _with_synonyms(question, sentence, missing)
        still = _missing_english(question, reread) if reread != sentence else missing
        if len(still) >= len(missing):
            break
        sentence, missing = reread, still
    return sentence, missing


@lru_cache(maxsize=16_384)
def _word_lemmas(word: str) -> frozenset[str]:
    """A word and its lemmas (LemmInflect's; no stems: "publisher" does not say "print")."""
    return frozenset({word, *(lemma for found in all_lemmas(word).values() for lemma in found)})


def _term_heads(word: str, qwords: Sequence[str]) -> list[str]:
    """The lemmas a question term is looked up by: its phrasal verbs first, then itself."""
    lemmas = sorted(_word_lemmas(word))
    after = {qwords[i + 1] for i, w in enumerate(qwords[:-1]) if w == word}
    return [f"{lemma}_{particle}" for lemma in lemmas for particle in sorted(after)] + lemmas


def _name_words(text: str, count: int) -> frozenset[int]:
    """Where ``text``'s words are capitalised past its first: words of a name."""
    cased = ENGLISH_WORD.findall(unicodedata.normalize("NFKC", text))
    if len(cased) != count:  # lower-casing changed the words: read none as a name
        return frozenset()
    return frozenset(i for i, w in enumerate(cased) if i and w[:1].isupper())


def _synonym_in(
    words: Sequence[str], heads: Sequence[str], names: frozenset[int] = frozenset()
) -> tuple[int, int, str, str] | None:
    """The first synonym of ``heads`` said in ``words``: (where, words long, head, synonym).

    Not one whose words are in ``names`` (the places of a name's words).
    """
    lemmas = [_word_lemmas(w) for w in words]
    for head in heads:
        for synonym in sorted(synonyms(head)):
            parts = synonym.split("_")
            for at in range(len(words) - len(parts) + 1):
                if names.isdisjoint(range(at, at + len(parts))) and all(
                    part in lemmas[at + k] for k, part in enumerate(parts)
                ):
                    return at, len(parts), head, parts[0]
    return None


def _inflected_like(head: str, form: str, lemma: str) -> str:
    """``head`` (a lemma, "set_up") in the inflection ``form`` has as a form of ``lemma``."""
    first, *rest = head.split("_")
    inflected = first
    for tag, forms in all_inflections(lemma).items():
        if form in forms and tag in (own := all_inflections(first)):
            inflected = own[tag][0]
            break
    return " ".join([inflected, *rest])


def _said_by_agent_noun(verb: str, terms: Sequence[str], said: Sequence[str]) -> bool:
    """Whether an agent noun of ``verb`` is apposed to another term of the question.

    "What did Konrad Weissbach own?" is said by "… Konrad *Weissbach, owner* of a paper
    mill": the noun ("owner", :func:`_agent_noun_verb`) names the verb's doer, and the
    content word before it is a term of the question. Not "Clara Osterwald make"
    against "Friedrich *Varnholt, a maker* of instruments, and his wife Clara", nor a
    "proposed *merger*".
    """
    forms = known_forms(verb)
    others = {form for term in terms if term != verb for form in known_forms(term)}
    # ``said`` holds content words only: "Weissbach, the owner" reads as "weissbach owner"
    return any(
        _agent_noun_verb(word) & forms and known_forms(said[k - 1]) & others
        for k, word in enumerate(said) if k
    )


@lru_cache(maxsize=16_384)
def _agent_noun_verb(word: str) -> frozenset[str]:
    """The known forms of the verb an agent noun is made from ("owner" → own), else none.

    A noun in *-er* / *-or* that LemmInflect knows only as a noun, whose stem (less *-er*,
    *-r* or *-or*, or with *-e* for it) it knows as a verb: "the *owner* of a paper mill"
    states "own", "its *builder*" "build", "the *creator*" "create" — when apposed to the
    question's subject (:func:`_said_by_agent_noun`). ("founder" is a verb too, and is not
    read.)
    """
    lemmas = all_lemmas(word)
    if not word.endswith(("er", "or")) or set(lemmas) != {"NOUN"}:
        return frozenset()
    for stem in (word[:-2], word[:-1], word[:-2] + "e"):
        if len(stem) > 2 and "VERB" in all_lemmas(stem):
            return known_forms(stem)
    return frozenset()


_JA_FUNCTION_POS = frozenset({"助詞", "助動詞", "補助記号", "記号", "空白"})
_JA_TYPED_QUESTION_WORDS = frozenset({"誰", "いつ", "いくら", "いくつ"})
"""Question words that name the answer's kind themselves (a person, a time, an amount, a
count): the topic before them is what is asked about, not the answer's type."""


def _counted_question_word(word: str) -> bool:
    """何 with its counter in one word (「何人」, 「何色」, 「何年」): it names the answer's kind.

    「渡船の定員は何人か」 asks a count of people, so 定員 is what is asked about — a term
    the sentence must state — not the answer's type; but 「従業員数は何人か」 asks the 数 that
    何人 counts (:func:`_topic_head`).
    """
    return len(word) > 1 and word[0] == "何"


@lru_cache(maxsize=4096)
def _analysis(
    text: str,
) -> tuple[tuple[tuple[str, str], ...], frozenset[int], Mapping[int, str]]:
    """``text``'s Sudachi morphemes (split mode B), counter words and proper nouns.

    :func:`_morphemes`, :func:`_type_words` and :func:`_proper_nouns` read it. One
    analysis, cached: one check reads a text's terms, its numbers, its answer types and its
    names from it.
    """
    morphemes: list[tuple[str, str]] = []
    typed: set[int] = set()
    proper: dict[int, str] = {}
    for i, m in enumerate(thread_tokenizer("B").tokenize(text)):
        pos = m.part_of_speech()
        morphemes.append((m.normalized_form(), pos[0]))
        if pos[0] == "接尾辞" or pos[1] == "数詞" or pos[2] == "助数詞可能":
            typed.add(i)
        if pos[1] == "固有名詞":
            proper[i] = pos[2]
    return tuple(morphemes), frozenset(typed), MappingProxyType(proper)


def _proper_nouns(text: str) -> Mapping[int, str]:
    """The morphemes of ``text`` that Sudachi reads as proper nouns (固有名詞), by index.

    Each with its kind (人名, 地名, 一般 …).
    """
    return _analysis(text)[2]


def _type_words(text: str) -> frozenset[int]:
    """Indices of the morphemes of ``text`` that count or qualify a number.

    Numerals, counters and suffixes (「万」, 「メートル」, 「人」, 「目」): after a question
    word they are the answer's type (「何万人」, 「何メートル」); a noun after them is not
    (「何メートル**上流**へ」).
    """
    return _analysis(text)[1]


def _morphemes(text: str) -> tuple[tuple[str, str], ...]:
    """(normalised form, part-of-speech head) of each Sudachi morpheme (split mode B)."""
    return _analysis(text)[0]


def _topic_head(morphemes: Sequence[tuple[str, str]]) -> int:
    """Index of the noun a question ends on as its topic (「…国は？」), else -1.

    The last 「は」 whose remainder holds only question words and function morphemes, none of
    which names the answer's kind itself (:data:`_JA_TYPED_QUESTION_WORDS`): 「主催国はどこか」
    asks which country, and 国 is the answer's type; 「副社長は誰か」 asks for a person, and
    副社長 is the role the sentence must state.
    """
    for i in range(len(morphemes) - 1, 0, -1):
        form, pos = morphemes[i]
        if form == "は" and pos == "助詞":
            rest = morphemes[i + 1 :]
            if any(f in _JA_TYPED_QUESTION_WORDS for f, _ in rest):
                return -1
            if any(_counted_question_word(f) for f, _ in rest) and not (
                morphemes[i - 1][0].endswith("数")
            ):
                return -1
            if all(p in _JA_FUNCTION_POS or interrogative(f) for f, p in rest):
                return i - 1 if morphemes[i - 1][1] in ("名詞", "接尾辞") else -1
            return -1
    return -1


_JA_PLURAL = frozenset({"達", "共"})
"""Plural suffixes (「女工たち」, 「私ども」): 「女工たちが」 asks of the 女工, a term the sentence
states without them."""


def _japanese_terms(text: str, *, question: bool = False) -> list[str]:
    """Content morphemes (normalised) of a Japanese text; of a question, not its slot words."""
    morphemes = _morphemes(text)
    head = _topic_head(morphemes) if question else -1
    out: list[str] = []
    for i in _past_answer_types(text, morphemes):
        form, pos = morphemes[i]
        if pos not in CONTENT_POS or pos == "代名詞" or form in JA_STOP or form[:1].isdigit():
            continue
        if (len(form) == 1 and "\u3040" <= form <= "\u309f") or (
            pos == "接尾辞" and form in _JA_PLURAL
        ):
            continue
        if question and (i == head or form in JAPANESE_SLOT_WORDS):
            continue
        out.append(form)
    return out


def _past_answer_types(text: str, morphemes: Sequence[tuple[str, str]]) -> list[int]:
    """Indices of the morphemes of ``text`` but its question words and the answer's type.

    The nouns a question word heads name the answer's type: 何「市」, 何万「人」, 何「大学」
    (何部「発行」された: a predicate). After a counter, a noun is a term again: 何メートル
    「上流」へ.
    """
    kept: list[int] = []
    after_question_word, counted = False, False
    for i, (form, pos) in enumerate(morphemes):
        if interrogative(form):
            after_question_word, counted = True, False
            continue
        if (
            after_question_word and pos in ("名詞", "接尾辞") and not before_suru(morphemes, i)
            and (not counted or i in _type_words(text))  # read only after a question word
        ):
            counted = True
            continue
        after_question_word = False
        kept.append(i)
    return kept


_JA_TOPIC_MARKERS = frozenset({"は", "が", "も"})
_HIRAGANA_WORD = lazy(r"[\u3041-\u309f]{2,}")


@lru_cache(maxsize=4096)
def _kana_name(question: str) -> str | None:
    """A word in hiragana that opens ``question`` and that Sudachi read as particles.

    「とよは何年に…」: no sentence opens on a particle, so a run of particles before the
    question's topic marker (は / が / も) is a word the dictionary does not know — a name
    written in kana (とよ, read as と + よ). It is a term like any other: the sentence states
    it only by its letters. Cached: one question is checked against many sentences.
    """
    morphemes = list(thread_tokenizer("B").tokenize(question))
    run = 0
    while run < len(morphemes) and morphemes[run].part_of_speech()[0] in ("助詞", "助動詞"):
        run += 1
    if run < 3 or morphemes[run - 1].surface() not in _JA_TOPIC_MARKERS:
        return None
    word = "".join(m.surface() for m in morphemes[: run - 1])
    return word if _HIRAGANA_WORD.fullmatch(word) else None


def _missing_japanese(question: str, sentence: str, title: str = "") -> tuple[str, ...]:
    stated = set(_japanese_terms(sentence)) | (set(_japanese_terms(title)) if title else set())
    missing: list[str] = []
    name = _kana_name(question)
    if name is not None and name not in sentence and name not in title:
        missing.append(name)
    for word in _japanese_terms(question, question=True):
        if word not in stated and word not in missing:
            missing.append(word)
    said = synonyms_said(missing, stated)
    return tuple(word for word in missing if word not in said)


_ELLIPSIS = lazy(
    r"\b(?:do|does|did|is|are|was|were|has|have|had|will|would|can|could|shall|should|may|"
    r"might|must)\s*(?:not\b|n't)\W*(?:either\W*)?$",
    re.I,
)
"""A clause that ends on a negated auxiliary ("but Jones did not"): its verb phrase is the
one before it, left out."""


_NEGATED_VERB = lazy(r"\b(?:not|never|n't)\s+(?:be\s+|been\s+)?([a-z]+)")
"""A negation and the word it denies ("were *not leased*", "could *not fulfil*")."""


def _denied_otherwise(question: str, sentence: str) -> bool:
    """Whether a negated question's verb is said plainly, the sentence's negations elsewhere.

    "Which granges were *not leased* …?" is not said by "… the abbey *could not fulfil* the
    contract, forcing it *to lease* four granges": the sentence denies fulfilling, and
    leasing it states. Read where the word the question's *not* denies is a verb the
    sentence holds, no use of it has a negation within the three words before it, and every
    negation of the sentence denies another word.
    """
    asked = _NEGATED_VERB.search(question.lower())
    if asked is None or "VERB" not in all_lemmas(asked.group(1)):
        return False
    forms = known_forms(asked.group(1))
    words = [w.lower() for w in ENGLISH_WORD.findall(normalise_text(sentence))]
    uses = [i for i, word in enumerate(words) if known_forms(word) & forms]
    denied = [m.group(1) for m in _NEGATED_VERB.finditer(normalise_text(sentence).lower())]
    return bool(uses and denied) and not any(
        is_negated(" ".join(words[max(0, i - 3) : i])) for i in uses
    ) and not any(known_forms(word) & forms for word in denied)


def _negated_about(question: str, sentence: str, *, elided: bool = False) -> bool:
    """Whether an English sentence negates a clause that holds a term of the question.

    "… with 38 keys, *which meant that the typist could not see the text*" does not deny
    anything "How many keys did the No. 1 have?" asks: a negation in a clause of its own
    with none of the question's terms is about something else — unless it has no words of
    its own ("…, but failed": it denies the clause before it). For a negated question
    (``elided``) a clause that ends on a negated auxiliary denies too: "…, but Jones did
    not" stands for the verb phrase before it (:data:`_ELLIPSIS`). "Why was the plan not
    supported by the council?" is not said by "The plan was supported by the council, but
    it was abandoned when its backers failed to raise the capital".
    """
    clauses = _NEGATION_SCOPE.split(sentence)
    if len(clauses) < 2:
        return _denies(sentence)
    terms = {form for word in _english_terms(question, question=True) for form in known_forms(word)}
    for i, clause in enumerate(clauses):
        if not _denies(clause):
            continue
        own = [word for word in _english_terms(clause) if not is_negated(word)]
        # an elliptical clause ("…, but failed") negates the clause before it
        if not own or any(known_forms(word) & terms for word in own):
            return True
        if elided and _ELLIPSIS.search(clause):
            return True
        if i and _unrealised(clause) and any(
            known_forms(word) & terms for word in _english_terms(clauses[i - 1])
        ):
            return True
    return False


_REALISED = frozenset(
    "build construct erect complete finish open hold carry implement realise realize adopt "
    "happen occur materialise materialize proceed launch"
    .split()
)
"""Verbs that say a thing came to be: denied, the thing never was ("was never built")."""
_UNREALISED = lazy(
    r"^\s*(?:was|were|had|has|have|did|is|are)?\s*(?:never|not)\s+(?:been\s+)?([a-z]+)"
)


def _unrealised(clause: str) -> bool:
    """Whether a clause with no subject of its own denies that its subject came to be.

    "… a 1,400-yard tunnel, but the tunnel was judged too expensive *and was never built*":
    the coordinated predicate shares the subject of the clause before it, and a denied building,
    opening or holding (:data:`_REALISED`) leaves that subject a plan — nothing about it
    ("How long is the tunnel …?") is stated as fact.
    """
    found = _UNREALISED.match(clause.lower())
    return found is not None and bool(known_forms(found.group(1)) & _REALISED)


@lru_cache(maxsize=4096)
def check_sentence(question: str, sentence: str, title: str = "") -> SentenceCheck:
    """What ``sentence`` does not state of ``question`` (see the module docstring).

    Read once per (question, sentence, title): a run's level cap and its features both ask
    it (the result is frozen).

    ``title``: the title of the sentence's document; for a Japanese question its content
    morphemes count as stated (the sentence is read under it, as the citation shows it),
    never its numbers or negation. An English sentence must state the terms itself.

    >>> check_sentence("How many imports did Ghana have in 2004?",
    ...                "Ghana's exports rose in 2004.").notice()
    "the sentence does not say 'imports'"
    """
    q, s = unicodedata.normalize("NFKC", question), unicodedata.normalize("NFKC", sentence)
    t = unicodedata.normalize("NFKC", title)
    ja = is_japanese(q)
    missing = _missing_japanese(q, s, t) if ja else _missing_english(q, s)
    if missing and not ja:
        s, missing = _reread(q, s, missing)
    asked, held = _numbers(q, japanese=ja), _numbers(s, japanese=ja)
    spans = set() if ja else _spans(s)
    held.update((float(end), end) for span in spans for end in span)  # "1904–47" states 1947
    if missing:
        missing = _unframed(q, s, missing, japanese=ja)
    # an opposite of a missing term is already named by it ("imports" missing)
    opposites = () if ja else tuple(
        pair for pair in contrasts(q, s) if pair.split("≠")[0] not in missing
    )
    if not ja:  # a kind of person the sentence calls another, unless named as its opposite
        opposed = {pair.split("≠")[0] for pair in opposites}
        missing += tuple(word for word in _classed_otherwise(q, s) if word not in opposed)
    return SentenceCheck(
        missing=missing,
        numbers=tuple(token for value, token in asked.items() if value not in held)
        + (() if ja else _span_unsaid(q, spans)),
        negation=_negation(q, s),
        opposites=opposites,
        unbound=() if missing else (
            unbound_phrases_ja(_morphemes(q), _morphemes(s)) if ja else unbound_phrases(q, s)
        ),
        valueless=_valueless(q, s),
    )


def _unframed(
    question: str, sentence: str, missing: tuple[str, ...], *, japanese: bool
) -> tuple[str, ...]:
    """``missing`` less the words that name the asked measure, where the sentence has a value.

    "How much does parking cost?" is said by "Parking is free": a value of the measure says
    the word that names it. Not in a Japanese sentence that names another dimension of the
    measure (:func:`grace.text.named_measures`): 「標高1,742メートル」 does not say the 「全長」
    asked for.
    """
    if not states_measure(sentence, answer_measures(question)) or (
        japanese and named_measures(sentence) - named_measures(question)
    ):
        return missing
    framing = " ".join(measure_words(question))
    said = set(_japanese_terms(framing)) if japanese else {
        form for word in _english_terms(framing) for form in known_forms(word)
    }
    return tuple(word for word in missing if word not in said)


def _classed_otherwise(question: str, sentence: str) -> tuple[str, ...]:
    """A which-question's kind of person, where the sentence calls its people other kinds.

    The noun after *which* / *what* names the answer's class and need not be stated
    (:func:`_answer_class`): "Which architect designed the hall?" is said by "The hall was
    designed by John Pell". Not when the sentence names people only as other kinds
    (:func:`_kinds_named`), none of which is that kind or one the question gives a name of
    its own (WordNet's hypernyms,
    :func:`~grace.retrieval.synonyms.person_kinds`): "Which *violinist* led the
    orchestra?" is not said by "… under the *conductor* Matthias Orrel, who led it"; "Which
    musician …" is (a conductor is a musician).
    """
    words = ENGLISH_WORD.findall(normalise_text(question))
    framed = answer_class_indices(words)
    kept = sorted(_answer_class(words, framed, question)) if framed else []
    head = next((i for i in kept if i + 1 not in kept), -1)
    noun = None if head < 0 else _person_noun(words[head])
    if noun is None:
        return ()
    sentence_words = ENGLISH_WORD.findall(normalise_text(sentence))
    said = {form for word in sentence_words for form in known_forms(word)}
    if said & (known_forms(noun) | synonyms(noun)):
        return ()
    kinds = _kinds_named(sentence, _kinds_named(question, set()))
    if not kinds or any(noun == kind or noun in (person_kinds(kind) or ()) for kind in kinds):
        return ()
    return (words[head],)


def _person_noun(word: str) -> str | None:
    """The lemma of ``word`` as a noun of a kind of person ("brewers" → "brewer"), if it is one."""
    for lemma in (word, *all_lemmas(word).get("NOUN", ())):
        if person_kinds(lemma) is not None:
            return lemma
    return None


def _kinds_named(text: str, apart: set[str]) -> set[str]:
    """The kinds of person a text gives a name ("the *conductor* Matthias Orrel").

    A noun of a kind of person right before a name, or after an article or possessive that
    follows one ("Josiah Pellow, a corn *merchant*"); not one of ``apart`` — the kinds the
    question gives its own names ("… for the *brewer* Tom Ames?"), someone it already names.
    """
    cased = _cased_tokens(text)
    kinds = set()
    for i, token in enumerate(cased):
        noun = None if token != token.lower() else _person_noun(token)
        if noun is None or noun in apart:
            continue
        if _name_follows_at(cased, i + 1) or _name_apposed_before(cased, i):
            kinds.add(noun)
    return kinds


def _name_follows_at(cased: Sequence[str], at: int) -> bool:
    """Whether the token at ``at`` is a capitalised word that is no stopword ("Matthias")."""
    return (
        at < len(cased) and cased[at][:1].isupper() and cased[at].lower() not in ENGLISH_STOPWORDS
    )


def _name_apposed_before(cased: Sequence[str], at: int) -> bool:
    """Whether a name stands before the article or possessive of the noun at ``at``."""
    article = next(
        (
            j
            for j in range(at - 1, max(-1, at - 4), -1)
            if cased[j].lower() in _INDEFINITE | _POSSESSIVE_DETERMINERS | {"the"}
        ),
        None,
    )
    return article is not None and article > 0 and _name_follows_at(cased, article - 1)


def _valueless(question: str, sentence: str) -> str | None:
    """The measure the question asks for, when the sentence states no value of it.

    "For how much was the piece sold at auction?" is not said by "a piece … was sold at
    auction in Velsund in 2009": a question that names its measure (money, a length, a
    duration, an age …; :func:`grace.text.answer_measures`) is answered by a value of it,
    which the sentence must hold. A number that is not a year, or "once" / "twice", counts as
    one: the units a value is written in are more than :func:`grace.text.states_measure`
    knows ("30", "12 milliseconds"); a sum of money counts only for money ("for £900" is
    no length), a number of things not for money ("312 inmates", 「5年」: a sum is written
    with its currency), and a proportion for no measure ("60 per cent", 「7割」). Not read for the
    bare answer types (a date, a number): their question words are less sure ("what is the
    isotopic date applied to?", 「何人」 as "which people") and their values are written more
    ways (「鎌倉時代」). A why-question's
    value is a reason (:func:`grace.scoring.reasons.states_reason`); a where-question's, a
    place (:func:`_placed`); a month or a day asked for, a month or a day
    (:func:`_calendar_unstated`); a question asked by its preposition *from* ("From whom did the
    trust buy the site?"), a source, which the sentence states only with a *from* of its own
    ("bought the site for £14,500" names no seller). A who-question is not answered by *she*
    alone (:func:`_doer_unnamed`), and an English how-many question needs a count
    (:func:`_counts`).
    """
    kind = _kind_unstated(question, sentence)
    if kind is not None or asks_reason(question):
        return kind
    measures = answer_measures(question) or (("money",) if _money_asked(question) else ())
    if not measures:
        return "count" if _HOW_MANY.match(question) and (
            not _counts(sentence) or _part_of_count(question, sentence)
        ) else None
    sentence = without_other_measures(sentence, measures)  # "75 feet" is no price
    if "money" in measures:  # "a deficit of 3.1 million crowns" is no price
        sentence = _without_other_sums(question, sentence)
    if states_measure(sentence, measures):
        return None
    if "money" not in measures:  # "for £900" is no length: a sum measures money only
        sentence = _SUM.sub(" ", sentence)
    else:  # a sum is written with its currency: "312 inmates", 「5年」 count other things
        sentence = _COUNTED_THINGS.sub(" ", sentence)
    sentence = _SHARE.sub(" ", sentence)  # 「7割」, "60 per cent": a share, of no measure
    values = [
        v for v in _numbers(sentence, japanese=is_japanese(question))
        if not (1000 <= v <= 2099 and v.is_integer())  # a year dates, it does not measure
    ]
    return None if values or _ONCE.search(sentence) else measures[0]


def _kind_unstated(question: str, sentence: str) -> str | None:
    """A name, reason, place, source, month or day asked for that the sentence does not give.

    See :func:`_valueless`; ``None`` also for a why-question whose sentence gives a reason.
    """
    if (
        _unnamed_ja(question, sentence) if is_japanese(question)
        else _unnamed(question, sentence) or _doer_unnamed(question, sentence)
        or _which_restated(question, sentence) or _which_presupposed(question, sentence)
    ):
        return "name"
    if asks_reason(question):
        return None if states_reason(question, sentence) else "reason"
    if _WHERE.match(question) and not _placed(question, sentence):
        return "place"
    if _SOURCE_ASKED.search(question) and not _FROM.search(sentence):
        return "source"
    return _calendar_unstated(question, sentence)


_ASKS_MONTH = lazy(r"\b(?:what|which)\s+month\b|\bon\s+(?:what|which)\s+date\b|何月", re.I)
"""A question that asks for a month ("In what month …?", 「何月」) or a day ("*On* what date
…?": *on* dates a day, as *in* dates a year — "What date is carved on the panel?" may ask a
year)."""
_ASKS_DAY = lazy(r"何日")
"""A Japanese question that asks for a day of the month, or a number of days (「何日」)."""
_MONTH_STATED = lazy(
    r"\b(?:january|february|march|april|may|june|july|august|september|october|november"
    r"|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\b\.?"
    r"|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b"
    r"|(?:\d+|[一二三四五六七八九十]+|正)月(?!曜)",
    re.I,
)
"""A month in a sentence: its name or abbreviation, a date written in figures, 「4月」."""
_ASKS_DAY_EN = lazy(r"\bon\s+(?:what|which)\s+day\b", re.I)
"""An English question that asks for a day ("*On what day* in 1913 …?"): a date, which names
its month, or a day of the week answers it; a year does not."""
_WEEKDAY = lazy(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b", re.I)
_DAY_STATED = lazy(r"(?:\d+|[一二三四五六七八九十]+)日")
"""A day or a number of days in a Japanese sentence (「21日」, 「三日」)."""


def _calendar_unstated(question: str, sentence: str) -> str | None:
    """``"month"`` or ``"day"`` when the question asks for one and the sentence gives none.

    "In what month did the railway open?" is not answered by "The railway opened … in 1847":
    a month (or a date, which names its month) is a part of the calendar finer than the
    year, and a sentence that gives only the year does not state it; nor does 「1889年4月に
    発足した」 state the day 「4月の何日か」 asks for. *When* asks for no part: a year answers it.
    """
    if _ASKS_MONTH.search(question) and not _months_of_year(question, sentence):
        return "month"
    if _ASKS_DAY.search(question) and not _DAY_STATED.search(sentence):
        return "day"
    if _ASKS_DAY_EN.search(question) and not (
        _WEEKDAY.search(sentence) or _months_of_year(question, sentence)
    ):
        return "day"
    return None


_DATED_AFTER = lazy(r"\s*(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?((?:1\d|20)\d\d)\b")
"""A year right after a month ("July *1984*", "June 30, *1931*")."""
_DATED_BEFORE = lazy(r"((?:1\d|20)\d\d)年\s*$")
"""A year right before a Japanese month (「*1984年*7月」)."""
_QUESTION_YEAR = lazy(r"(?<!\d)((?:1\d|20)\d\d)(?!\d)")


def _months_of_year(question: str, sentence: str) -> list[str]:
    """The months the sentence states that may be in the question's year.

    "In what month of 1983 was teacher training transferred?" is not answered by "…
    transferred to Hesketh in 1983, and the site closed *in July 1984*": a month with another
    year right after it (or before it, 「1984年7月」) is that year's. Where the question names
    no year, or more than one, every month counts.
    """
    months = list(_MONTH_STATED.finditer(sentence))
    years = set(_QUESTION_YEAR.findall(question))
    if len(years) != 1:
        return [m.group(0) for m in months]
    (year,) = years
    kept = []
    for m in months:
        dated = _DATED_AFTER.match(sentence, m.end()) or _DATED_BEFORE.search(
            sentence[: m.start()]
        )
        if dated is None or dated.group(1) == year:
            kept.append(m.group(0))
    return kept


_WHAT_PHRASE = lazy(
    r"\bwhat\s+(?:(?:is|was|are|were)\s+the\s+)?([a-z-]+)(?:\s+([a-z-]+))?", re.I
)
"""The two words after an English *what* (or *what is the*): the asked phrase's head, or a
modifier and it."""


def _money_asked(question: str) -> bool:
    """Whether an English question asks for a sum of money by its noun: "What *annual wage* …?".

    The noun after *what* (or after one word that can be an adjective; after *what is the*,
    any one word: "What was the *admission price* of …?") names a sum of money in WordNet
    (:func:`~grace.retrieval.synonyms.money_kinds`: a payment, a cost, a sum, a price): the
    answer is an amount, as "What price …?" asks (:func:`grace.text.answer_type`). "What
    controls wages …?" asks no sum: *controls* is no adjective.
    """
    m = None if is_japanese(question) else _WHAT_PHRASE.search(question)
    if m is None:
        return False
    head, after = m.group(1).lower(), (m.group(2) or "").lower()
    if _names_money(head):
        return True
    defined = m.group(0).lower().split()[2:3] == ["the"]  # after a determiner: a modifier
    return bool(after) and (defined or "ADJ" in all_lemmas(head)) and _names_money(after)


def _names_money(word: str) -> bool:
    """Whether ``word`` (any inflection) is a noun of a sum of money."""
    nouns = all_lemmas(word).get("NOUN", ()) or (word,)
    return any(money_kinds(noun) is not None for noun in nouns)


_NOUN_OF_SUM = lazy(
    r"\b(for|at)?\s*(?:\b(?:a|an|the)\s+)?\b([a-z]+)\s+of\s+"
    r"((?:[$€£¥]\s?\d[\d,.]*|\d[\d,.]*)(?:\s*(?:million|billion|thousand))?"
    r"(?:\s+[a-z]+)?)",
    re.I,
)
"""A noun with a sum as its of-phrase ("a *deficit of 3.1 million crowns*"), and a *for* /
*at* before it ("*for* a total of £500")."""


def _without_other_sums(question: str, sentence: str) -> str:
    """``sentence`` with each sum that is the value of another kind of noun blanked.

    "For what price was the collection sold …?" is not answered by "…, leaving *a deficit of
    3.1 million crowns*": an of-phrase gives its noun's value, and a deficit is no price. A
    noun that names a sum of money (:func:`_names_money`: a price, a fee, a payment), one of
    the question's words, or a phrase after *for* / *at* ("sold *for a total of* £500", "*at
    a cost of*") keeps its sum.
    """
    asked = {form for word in _english_terms(question, question=True) for form in known_forms(word)}

    def blank(match: re.Match[str]) -> str:
        noun = match.group(2).lower()
        if match.group(1) or _names_money(noun) or known_forms(noun) & asked:
            return match.group(0)
        return match.group(0)[: match.start(3) - match.start(0)] + " "

    return _NOUN_OF_SUM.sub(blank, sentence)


_COUNTED_THINGS = lazy(
    r"\b(?:\d[\d,.]*|" + "|".join(_NUMBER_WORDS) + r")"
    r"\s+(?!(?:million|billion|thousand|hundred|m|bn|k)\b)[a-z][a-z-]*s\b"
    r"|(?:\d[\d,.]*|[〇一二三四五六七八九十百千]+)(?:万|億|千)?"
    r"(?=[^\d\s,.〇一二三四五六七八九十百千万億円銭ドルユーロポンド$€£¥A-Za-z])"
)
"""A number and the plural noun or the counter it counts ("312 inmates", "two years", 「5年」,
「3棟」, 「二代目」 in digits or in kanji): no sum of money, which
:func:`grace.text.states_measure` reads with its currency ("£3,100", "30 guineas",
「8万円」, 「三千円」)."""
_SUM = lazy(r"[$€£¥₩]\s?\d[\d,.]*|\d[\d,.]*\s?(?:万|億)?(?:円|ドル|ユーロ|ポンド)")
"""A sum of money written with its currency ("£900", 「4万5,000円」): a value of money only."""
_SHARE = lazy(
    r"\d[\d,.]*\s?(?:%|％|per\s?cent\b|percent\b)|[\d一二三四五六七八九十]+\s?割",
    re.I,
)
"""A proportion ("60 per cent", 「7割」): the share of a whole, no value of any measure."""
_HOW_MANY = lazy(r"(?:.*[\s,])?how many\b", re.I)
"""An English question that asks for a count ("How many plants were moved …?")."""
_SUM_SCALED = lazy(
    rf"(?:{_SUM.pattern})(?:\s*(?:million|billion|thousand|m|bn|k)\b)?", re.I
)
"""A sum of money with its scale word ("£3.6 million"): no count."""
_COUNT_WORDS = frozenset(
    {*_NUMBER_WORDS, "hundred", "hundreds", "thousand", "thousands", "million", "millions",
     "dozen", "dozens", "score", "scores", "both", "pair", "couple", "several", "few", "many",
     "single", "sole", "only", "no", "none", "all", "every", "each", "once", "twice", "thrice"}
)
"""Words that give a count without a digit ("a dozen", "both", "several", "no", "twice")."""


def _counts(sentence: str) -> bool:
    """Whether an English sentence gives a count.

    A number that is not a year, a sum or a share, or a word of :data:`_COUNT_WORDS`.

    "How many plants were moved to the temporary houses?" is not said by "the plants were
    moved to temporary houses at the garden's nursery": a count question is answered by a
    count, which the sentence must hold in some form.
    """
    text = _SHARE.sub(" ", _SUM_SCALED.sub(" ", unicodedata.normalize("NFKC", sentence)))
    if any(w.lower() in _COUNT_WORDS for w in ENGLISH_WORD.findall(text)):
        return True
    return any(
        not (1000 <= value <= 2099 and token.rstrip(",.").isdigit())  # "1,400" counts; 1874 dates
        for value, token in _numbers(text).items()
    )


def _part_of_count(question: str, sentence: str) -> bool:
    """Whether the sentence counts only a whole that the asked noun is a part of.

    "How many humpbacks did the catchers take?" is not answered by "the three catchers took
    *412 whales, mostly humpbacks*": the number counts the whole, and the asked noun is said
    only as its part (after *mostly*, *mainly*, *including* … : :data:`_PART_WORDS`), with
    no number of its own before it.
    """
    asked = _HOW_MANY_NOUN.search(unicodedata.normalize("NFKC", question))
    if asked is None:
        return False
    head = known_forms(asked.group(1).lower())
    words = [w.lower() for w in ENGLISH_WORD.findall(normalise_text(sentence))]
    mentions = [i for i, word in enumerate(words) if known_forms(word) & head]
    return bool(mentions) and all(_part_said(words, i) for i in mentions)


def _part_said(words: Sequence[str], at: int) -> bool:
    """Whether a part word stands within two words before ``at``, and no number after it."""
    part = next((k for k in (at - 1, at - 2) if k >= 0 and words[k] in _PART_WORDS), None)
    return part is not None and not any(w[:1].isdigit() for w in words[part + 1 : at])


_HOW_MANY_NOUN = lazy(r"\bhow many\s+([a-z-]+)", re.I)
"""The noun a how-many question counts ("How many *humpbacks* …?")."""
_PART_WORDS = frozenset({
    "mostly", "mainly", "chiefly", "largely", "predominantly", "principally", "including",
    "among", "especially",
})
"""Words that say a noun is part of a whole counted before it ("412 whales, *mostly*
humpbacks")."""


_WHERE = lazy(r"\s*where\b", re.I)
"""An English where-question: it asks for a place."""
_SOURCE_ASKED = lazy(
    r"^\s*from\s+whom\b"
    r"|^\s*(?:who|whom)\b[^?]*\bfrom\s*(?:\?|$|(?:in|on|at|during|before|after|by)\b)",
    re.I,
)
"""An English question that asks from whom a thing came: "*From whom* did the trust buy the
site?", "Who did the trust buy it *from* (in 1984)?" (a *from* left without its object, at the
end or before another preposition). Only a person: "What is the replica made *from*?" asks
for a material, which a sentence gives with "of" or "in" as often."""
_FROM = lazy(r"\bfrom\b", re.I)
_PLACE_PHRASE = lazy(
    r"\b(?:in|at|on|near|from|into|onto|to|outside|inside|beside|across|along|behind|"
    r"opposite|within|beyond|between|off|above|below|beneath|under|over|around|through)\s+"
    r"(?:(?:the|a|an|its|their|his|her)\s+)?((?:[\w'’-]+\s+){0,2}[\w'’-]+)",
    re.I,
)
"""A preposition of place and the noun phrase after it (up to three words)."""
_ORDINAL = lazy(
    r"\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|"
    r"\d+(?:st|nd|rd|th))\b",
    re.I,
)
"""A place in an order ("Where did Lipa finish in the league?" — "second")."""


def _placed(question: str, sentence: str) -> bool:
    """Whether ``sentence`` has a phrase of place that says more than ``question``'s words.

    "Where was the bandstand cast?" is not said by "… it contains a cast-iron bandstand, …
    opened in 1868": the only phrase after a preposition of place is a year. A phrase whose
    words are all the question's ("in Kelby" for "Where in Kelby …?") or a number is no
    place; "in the malt kiln", "at Ruswick", "in the cone's loft" are, and so is a place in
    an order ("had finished *second* in the league").
    """
    if _ORDINAL.search(sentence):
        return True
    asked = {
        form for w in ENGLISH_WORD.findall(normalise_text(question)) for form in known_forms(w)
    }
    for found in _PLACE_PHRASE.finditer(unicodedata.normalize("NFKC", sentence)):
        words = [w.lower() for w in ENGLISH_WORD.findall(found.group(1))]
        content = [w for w in words if w not in ENGLISH_STOPWORDS]
        if content and not content[0][:1].isdigit() and any(
            not known_forms(w) & asked for w in content if not w[:1].isdigit()
        ):
            return True
    return False


_PHRASE_WORDS = r"((?:[a-z-]+(?:['’]s)? ){0,2}?[a-z-]+?)"
"""Up to three words of a named phrase, the first two possibly possessive ("the *site's own
chemist*": a noun's possessive is a determiner, as "its" is)."""
_PHRASE_END = r"(?= that| which| who| whose| where| when| in| at| on| of| for| by| to|[?,]|$)"
_NAME_OF = lazy(
    r"\bnames? of (?:the|its|their|his|her|this|that) " + _PHRASE_WORDS + _PHRASE_END, re.I
)
"""A question that asks for the name of one thing ("What is the name of *the rowing club*
that …?"): the noun phrase it names."""
_INDEFINITE = frozenset({"a", "an", "another", "some", "one"})


def _unnamed(question: str, sentence: str) -> bool:
    """Whether the sentence mentions the thing whose name is asked only as *a* thing.

    "What is the name of the rowing club that uses the basin?" is not said by "… the
    basin is used by a rowing club": an indefinite mention with no name in the words after
    it says there is such a club, not which ("a club, the Saltcote Rowers" names it; "with
    *two* assistants" names none either, :data:`_INDEFINITE_PLURAL`). A
    definite one may name it ("The property of being prime is called primality"). A
    who-question of a role asks the same (:data:`_WHO_THE`: "Who was the toll clerk?" is
    not said by "… kept by a toll clerk appointed by the company"), with a name near the
    mention read as its holder's (:func:`_name_near`). A who-question's role said only as
    "the" and common words, as the subject of a verb, names no holder either
    (:func:`_role_acts`: "in which *the town crier reads* the charter"). Where some mentions
    have the question's modifiers before them, those are the thing's (:func:`_mentions`).
    """
    asked = _NAME_OF.search(question)
    who = None if asked else _WHO_THE.match(question)
    found = asked or who
    if found is None:
        return False
    phrase = found.group(1).split()
    noun = _phrase_head(phrase)
    head = known_forms(noun)
    tokens = _tokens(sentence)
    cased = _cased_tokens(sentence)
    words = [token.lower() for token in cased]
    own = frozenset(w.lower() for w in phrase[: phrase.index(noun)])
    mentions = _mentions(words, head, sorted(own))
    named_anywhere = _NAMING.search(sentence) is not None
    return bool(mentions) and all(
        (
            any(w in _INDEFINITE | _INDEFINITE_PLURAL for w in words[max(0, i - 3) : i])
            and "the" not in words[max(0, i - 3) : i]
            and not (who and _name_near(cased, i))
            or _of_another_person(words, i, head)
            or (asked is not None and not named_anywhere and _bare_definite(cased, i, own))
            or (who is not None and _role_acts(tokens, i))
        )
        and not _name_follows(cased, i + 1)
        for i in mentions
    )


def _mentions(words: Sequence[str], head: frozenset[str], modifiers: Sequence[str]) -> list[int]:
    """Where ``words`` mention the named thing: its noun, with its modifiers where any has.

    "the name of the *inshore* lifeboat" is asked of "an *inshore* lifeboat added in 1998",
    not of "the all-weather lifeboat Sheila Murran": mentions with every one of the
    question's modifiers among the three words before them, where there are such.
    """
    mentions = [i for i, word in enumerate(words) if known_forms(word) & head]
    modified = [
        i for i in mentions
        if modifiers and all(m in words[max(0, i - 3) : i] for m in modifiers)
    ]
    return modified or mentions


_WHICH_SUBJECT = lazy(r"\s*which\s+((?:[a-z-]+\s+){1,3})", re.I)
"""A which-question's first words: its noun and verb when it asks for the verb's subject
("Which *glassworks cast* the mirror?", "Which *heritage trust restored* …?")."""


def _which_restated(question: str, sentence: str) -> bool:
    """Whether the sentence says the asked thing only as "the N that V", naming none.

    "Which glassworks cast the mirror of the reflector?" is not said by "… delivered in 1926
    after delays at *the glassworks that cast its mirror*": the sentence restates what the
    question presupposes — a glassworks cast it — with the noun as the subject of the
    question's verb (right after it, or after *that* / *which* / *who*) said as "the" and
    common words (:func:`_bare_definite`), and no name around it (:func:`_name_around`).
    Nor "Which heritage trust restored the portal?" by "the portal was restored by *a local
    heritage trust*": an indefinite mention with no name near it says there was one, not
    which (as for "the name of", :func:`_unnamed`). The sentence says the question's verb.
    """
    found = _WHICH_SUBJECT.match(question)
    if found is None:
        return False
    asked = found.group(1).lower().split()
    at = next((k for k in range(1, len(asked)) if finite_verb(asked[k])), None)
    if at is None:
        return False
    noun, verb = known_forms(asked[at - 1]), known_forms(asked[at])
    cased = _cased_tokens(sentence)
    words = [token.lower() for token in cased]
    mentions = [i for i, word in enumerate(words) if known_forms(word) & noun]
    if not any(known_forms(word) & verb for word in words):
        return False

    def restated(i: int) -> bool:
        then = i + 2 if words[i + 1 : i + 2] and words[i + 1] in _RELATIVE_WORDS else i + 1
        return then < len(words) and bool(known_forms(words[then]) & verb)

    def indefinite(i: int) -> bool:
        before = words[max(0, i - 3) : i]
        return any(w in _INDEFINITE for w in before) and "the" not in before

    return bool(mentions) and all(
        (restated(i) and _bare_definite(cased, i) and not _name_around(cased, i))
        or (indefinite(i) and not _name_near(cased, i) and not _name_follows(cased, i + 1))
        for i in mentions
    )


def _which_presupposed(question: str, sentence: str) -> bool:
    """Whether the sentence says the asked "which N" only in the question's own words.

    "From which Scottish company was the Shearwater bought?" is not answered by "… bought
    second-hand *from a Scottish company* in 1925", nor "Which banks had Hollins built?" by
    "… who had previously built *several banks* in the city": an indefinite mention (*a*,
    *some*, *several* …) with nothing between its article and its noun but the question's
    own modifiers (or a word that only sets it apart, "*a different* quarry":
    :data:`_SETTING_APART`) says there was such a thing, which the question presupposes, not
    which. A
    mention with a name near it (:func:`_name_near`, :func:`_name_follows`) or a description
    after it ("an office *that* …", "an instrument *of* his own design") may answer, and a
    time, a count or a measure (:data:`_UNNAMED_HEADS`) is no thing with a name.
    """
    found = _WHICH_NOUN.search(unicodedata.normalize("NFKC", question))
    if found is None:
        return False
    phrase = [found.group(1).lower()]
    for word in found.group(2).lower().split():
        if word in _AUXILIARIES or word in _PREPOSITIONS_EN or finite_verb(word):
            break
        phrase.append(word)
    *modifiers, noun = phrase
    if noun in _UNNAMED_HEADS or answer_measures(question):
        return False
    head = known_forms(noun)
    cased = _cased_tokens(sentence)
    words = [token.lower() for token in cased]
    mentions = [i for i, word in enumerate(words) if known_forms(word) & head]
    return bool(mentions) and all(
        _only_presupposed(words, i, frozenset(modifiers))
        and not _name_near(cased, i) and not _name_follows(cased, i + 1)
        for i in mentions
    )


def _only_presupposed(words: Sequence[str], at: int, modifiers: frozenset[str]) -> bool:
    """Whether the mention at ``at`` is an indefinite article and ``modifiers`` only.

    And no description follows it (:data:`_DESCRIBING`).
    """
    k = at - 1
    while k >= 0 and (words[k] in modifiers or words[k] in _SETTING_APART):
        k -= 1
    return (
        k >= 0 and words[k] in _INDEFINITE | _INDEFINITE_PLURAL
        and not (at + 1 < len(words) and words[at + 1] in _DESCRIBING)
    )


_SETTING_APART = frozenset({"different", "other", "separate"})
"""Modifiers that only set a thing apart from one named before ("from *a different*
quarry"): they name nothing."""
_WHICH_NOUN = lazy(r"\bwhich\s+([a-z-]+)((?:\s+[a-z-]+){0,3})", re.I)
"""A which-question's "which N": its first word and up to three after it."""
_PREPOSITIONS_EN = frozenset({"in", "of", "at", "on", "for", "from", "to", "by", "with", "near"})
_INDEFINITE_PLURAL = frozenset({
    "several", "various", "many", "numerous", "few", "two", "three", "four", "five", "six",
    "seven", "eight", "nine", "ten", "eleven", "twelve",
})
"""Determiners of an indefinite plural mention ("*several* banks in the city", "with *two*
assistants")."""
_DESCRIBING = frozenset({"that", "which", "who", "whose", "where", "of", "with", "called", "named"})
"""Words after a mention that start a description or a name of it."""
_UNNAMED_HEADS = frozenset({
    "year", "years", "month", "months", "day", "days", "date", "decade", "century", "time",
    "period", "season", "age", "number", "amount", "way", "part", "side", "end",
})
"""Nouns a which-question may ask of with no name for an answer: a time, a count, a part."""


_RELATIVE_WORDS = frozenset({"that", "which", "who"})
"""Words that open a relative clause whose verb is the noun's ("the glassworks *that* cast")."""


_JA_NAME_WORDS = frozenset({"名前", "氏名"})
"""Words that ask a party's name (「県知事の**名前**」). Not 「名称」, a thing's, which a common
noun may give (「学問の名称」: 応用科学), nor 「…のは誰か」, which a role may answer
(「宣告するのは誰か」: 審判員); a noun's 「は誰か」 asks a name (:func:`_name_asked_ja`)."""
_JA_NAME_REACH = 4
"""Morphemes either side of a mention where a place name may be its name (「**稲葉口**駅」);
a place name further off names something else."""


def _unnamed_ja(question: str, sentence: str) -> bool:
    """Whether a Japanese sentence mentions the party whose name is asked and names nothing.

    「開業式に出席した県知事の名前は何か」 is not said by 「開業式には県知事も出席した」: the
    question asks for the name of 知事 (「X の名前」, 「X の氏名」), and the sentence
    has no proper noun (Sudachi's 固有名詞, not one of the question's) and no quoted name
    (「…」) — a place name counts only within :data:`_JA_NAME_REACH` morphemes of a mention
    (「穂波―稲葉口間」 names a section, not the governor) — nor does it give anything a name
    (「…という」, 「…と呼ばれる」, 「…と名付け」). A noun asked with 「は誰か」 asks the same
    (「審査員長を務めた人間国宝の陶芸家は誰か」: not 「…のは誰か」, which a role may answer),
    and is not said by 「人間国宝の陶芸家が審査員長を務めた」; a quoted 「…」 of the question's
    own words names nothing new, and a mention after a pointing word (「この寺」:
    :data:`_JA_POINTING`) is named where it points.
    """
    q = _morphemes(question)
    head = _name_asked_ja(q)
    if head is None or _JA_NAMING.search(sentence):
        return False
    s, proper = _morphemes(sentence), _proper_nouns(sentence)
    mentions = [j for j, (form, _) in enumerate(s) if form == head]
    asked = {form for form, _ in q}
    if not mentions or _quotes_new(s, asked) or any(
        j and s[j - 1][0] in _JA_POINTING for j in mentions
    ):
        return False
    return not any(
        kind != "地名" or any(abs(k - j) <= _JA_NAME_REACH for j in mentions)
        for k, kind in proper.items() if s[k][0] not in asked
    )


def _name_asked_ja(q: Sequence[tuple[str, str]]) -> str | None:
    """The noun whose name a Japanese question asks.

    X in 「Xの名前」, or a noun X in 「Xは誰か」 (not the nominaliser of 「…したのは誰か」).
    Not 「Xはどこか」: a company's or a town's name is often no proper noun to Sudachi
    (「丸谷製糸」), and a person's is.
    """
    for i in range(2, len(q)):
        if q[i][0] in _JA_NAME_WORDS and q[i - 1][0] == "の" and q[i - 2][1] in _JA_NOUNS:
            return q[i - 2][0]
    for i in range(1, len(q) - 2):
        if (
            q[i][0] == "は" and q[i + 1][0] == "誰" and q[i - 1][1] == "名詞"
            and q[i + 2][0] in _JA_QUESTION_ENDS
        ):
            return q[i - 1][0]
    return None


_JA_NOUNS = ("名詞", "接尾辞")
_JA_QUESTION_ENDS = frozenset({"か", "です", "だ", "でしょう", "。", "?"})
"""What may follow 「誰」 when it is the question's predicate (「…は誰**か**」), not a slot of
another verb (「誰**に**譲った」)."""
_JA_POINTING = frozenset({"此の", "其の", "同", "当", "本"})
"""Words that point to a thing named before (「**この**寺」, 「**同**社」): a mention after one
is named in the text it points to."""


def _quotes_new(s: Sequence[tuple[str, str]], asked: set[str]) -> bool:
    """Whether a quoted 「…」 of the sentence holds a word the question does not."""
    inside = False
    for form, pos in s:
        if form in ("「", "」"):
            inside = form == "「"
        elif inside and pos != "補助記号" and form not in asked:
            return True
    return False


_JA_NAMING = lazy(r"という|と呼ば|と名付け|と称|と命名")
"""Words that give a thing its name anywhere in a Japanese sentence."""


_WHO_DID = lazy(r"\s*who\s+([a-z]+)\b", re.I)
_PERSONAL = frozenset({"he", "she", "they"})
_AUXILIARIES = frozenset({
    "is", "was", "are", "were", "be", "been", "has", "had", "have", "did", "does", "do",
    "will", "would", "could", "can", "should", "may", "might", "must",
})


def _doer_unnamed(question: str, sentence: str) -> bool:
    """Whether a who-question's verb has only *he* / *she* / *they* for its subject.

    "Who refused the Combine's offer of £38,000 in 1929?" is not answered by "In 1929 *she*
    refused an offer of £38,000 from the Combine": the pronoun leaves the person to the
    sentences before it, so the answer names no one. Only where the question's verb comes
    right after *who* (the asked person is its subject) and every use of it in the sentence
    has the pronoun right before it, or one adverb apart ("she later sold").
    """
    found = _WHO_DID.match(unicodedata.normalize("NFKC", question))
    if found is None or found.group(1).lower() in _AUXILIARIES:
        return False
    verb = known_forms(found.group(1).lower())
    words = [w.lower() for w in ENGLISH_WORD.findall(normalise_text(sentence))]
    uses = [i for i, word in enumerate(words) if i > 0 and known_forms(word) & verb]
    return bool(uses) and all(
        words[i - 1] in _PERSONAL
        or (i > 1 and words[i - 2] in _PERSONAL and words[i - 1].endswith("ly"))
        or (i > 1 and words[i - 2] in _PERSONAL and words[i - 1] in ("then", "also", "later"))
        for i in uses
    )


_NAMING = lazy(
    r"\b(?:called(?!\s+(?:out|up|off|for|on|in|back|upon|at|by)\b)|named|known as|titled"
    r"|entitled|renamed)\b",
    re.I,
)
"""Words that give a thing its name anywhere in a sentence (not the phrasal verbs "called
*out*", "called *for*" …)."""


_DEFINITE = frozenset({"the", "its", "his", "her", "their"})
"""Determiners of a definite mention: the article and the possessives ("*its* single
keeper")."""


def _phrase_head(words: Sequence[str]) -> str:
    """The noun a named phrase ends on, past a participle after it ("the lugger *captured*")."""
    end = len(words)
    while end > 1 and finite_verb(words[end - 1].lower()) and (
        "NOUN" not in all_lemmas(words[end - 1].lower())
    ):
        end -= 1
    return words[end - 1]


def _bare_definite(cased: Sequence[str], at: int, own: frozenset[str] = frozenset()) -> bool:
    """Whether the mention at ``at`` is "the" (or a possessive) and common words only.

    "What was the name of the local newspaper that estimated the crowd?" is not said by "a
    crowd estimated by *the local newspaper* at 3,000": the phrase says which newspaper only
    by its role, and no name follows it, stands apposed before it ("the Thornleigh Courier,
    the local newspaper") or is given to anything in the sentence (:data:`_NAMING`). A
    capitalised word of the question's own phrase (``own``) is a modifier, not a name: "the
    *Thornsgill* police constable" names no constable.
    """
    start = at
    while start > 0 and cased[start - 1].lower() not in _DEFINITE and at - start < 3:
        start -= 1
    if start == 0 or cased[start - 1].lower() not in _DEFINITE:
        return False
    apposed = start >= 2 and cased[start - 2][:1].isupper()  # "the Courier, the local paper"
    return not apposed and all(
        token[:1].islower() or token.lower() in own for token in cased[start : at + 1]
    )


def _of_another_person(words: Sequence[str], at: int, head: frozenset[str]) -> bool:
    """Whether the mention at ``at`` completes another person's noun ("the widow *of* …").

    "The widow of its last landlord" names the widow; a name apposed to it ("Martha
    Quayle, the widow of its last landlord") is hers, not the landlord's. The noun before
    *of* (within three words of the mention) is a kind of person in WordNet
    (:func:`~grace.retrieval.synonyms.person_kinds`) and not the asked one.
    """
    for k in range(at - 1, max(0, at - 4), -1):
        if words[k] == "of":
            noun = words[k - 1]
            return person_kinds(noun) is not None and not known_forms(noun) & head
    return False


_WHO_THE = lazy(
    r"\s*who (?:is|was|are|were) (?:(?:appointed|elected|named|made|chosen|installed)"
    r"(?: as)? )?the " + _PHRASE_WORDS + _PHRASE_END,
    re.I,
)
"""A who-question of a role ("Who was *the toll clerk* at …?", "Who was appointed *the first
matron*?": a verb that puts a person in a role, its complement the role): it asks the role's
holder's name, as "What is the name of the toll clerk?" does."""


def _name_near(cased: Sequence[str], at: int) -> bool:
    """Whether a name stands near the mention at ``at`` of a who-question's role.

    Right before its article ("John Pell, *a* toll clerk") or within four words after it
    ("an architect from Leeds, Samuel Quarrie"): the role may be apposed to a name.
    """
    article = next(
        (j for j in range(at - 1, max(-1, at - 4), -1) if cased[j].lower() in _INDEFINITE), None
    )
    before = article is not None and article > 0 and cased[article - 1][:1].isupper()
    return before or any(t[:1].isupper() or t[:1] in "\"“" for t in cased[at + 1 : at + 5])


def _comma_after(tokens: Sequence[re.Match[str]], at: int) -> bool:
    """Whether a comma stands between the token at ``at`` and the next one.

    "*The board's clerk,* paid £15 a year, was the village grocer, Nathaniel Budge": a comma
    after a role opens a parenthesis, and the role's own verb comes after it.
    """
    if at + 1 >= len(tokens):
        return False
    between = tokens[at].string[tokens[at].end() : tokens[at + 1].start()]
    return "," in between


def _role_acts(tokens: Sequence[re.Match[str]], at: int) -> bool:
    """Whether a role said as "the" and common words is the subject of a verb, unnamed.

    "… in which *the town crier reads* the charter aloud" says what the role's holder does,
    not who holds it: the mention (:func:`_bare_definite`) has a finite verb other than *be*
    right after it (no comma between: :func:`_comma_after`), and no name stands around it
    (:func:`_name_around`). A role said as a complement names its holder in the clause's
    subject ("Birkett … was appointed *the first quarry manager*", "Matilda Orr, who … was
    *the first woman to edit* …"); "the town crier *was* Ellen Crane" names its holder after
    *be*.
    """
    cased = [token.group(0) for token in tokens]
    return (
        at + 1 < len(cased)
        and not _comma_after(tokens, at)
        and finite_verb(cased[at + 1].lower())
        and _bare_definite(cased, at)
        and not _name_around(cased, at)
    )


def _name_around(cased: Sequence[str], at: int) -> bool:
    """Whether a name stands within four words of a definite mention of a role at ``at``.

    Before its article ("*Ellen Crane* became the town crier") or after the mention ("the
    town crier *was Ellen Crane*", "the first mayor of *Pelling*"): the role's holder may be
    named in the words around it. A capitalised first word of the sentence that is a common
    word ("*In* 1981 the town crier …") is no name.
    """
    start = at
    while start > 0 and cased[start - 1].lower() not in _DEFINITE:
        start -= 1
    window = [*range(max(0, start - 5), max(0, start - 1)), *range(at + 1, min(len(cased), at + 5))]
    return any(
        cased[j][:1].isupper() or cased[j][:1] in "\"“"
        for j in window
        if j > 0 or cased[j].lower() not in ENGLISH_STOPWORDS
    )


@lru_cache(maxsize=4096)
def _tokens(text: str) -> tuple[re.Match[str], ...]:
    """The :data:`_TOKEN` tokens of ``text`` (NFKC), read once per text.

    The name readings (:func:`_unnamed`, :func:`_which_restated`,
    :func:`_which_presupposed`) all ask them.
    """
    return tuple(_TOKEN.finditer(unicodedata.normalize("NFKC", text)))


def _cased_tokens(text: str) -> list[str]:
    """The words of :func:`_tokens` as written."""
    return [token.group(0) for token in _tokens(text)]


_TOKEN = lazy(r"[\"“][^\"”]+[\"”]|[A-Za-z][\w'’-]*")
_BEFORE_NAME = frozenset({"called", "named", "known", "as", "the"})
"""Words between a mention and its name ("a club, *the* Saltcote Rowers", "a choir
*called* …")."""


def _name_follows(cased: Sequence[str], start: int) -> bool:
    """Whether a capitalised or quoted name comes at ``start``, past :data:`_BEFORE_NAME`."""
    while start < len(cased) and cased[start].lower() in _BEFORE_NAME:
        start += 1
    return start < len(cased) and (cased[start][:1].isupper() or cased[start][:1] in "\"“")


def cited_sentence(answer: str, passages: Sequence[Source]) -> str:
    """What an answer rests on: the passage sentences it quotes, else its closest sentence.

    An answer that quotes passage sentences (one, or a sentence with the one before it)
    rests on them, joined; one that a passage sentence quotes, on that sentence; a free-text
    answer on the sentence of the passages sharing the most of its words; without passages,
    on the answer itself.
    """
    plain = normalise_text(without_citations(answer)).strip()
    if not plain or not passages:
        return without_citations(answer).strip()
    words = set(tokenize(plain))
    quoted: list[str] = []
    best, best_overlap = without_citations(answer).strip(), 0
    for passage in passages:
        for sentence in split_sentences(passage.text):
            norm = normalise_text(sentence).strip()
            if norm and plain in norm:
                return sentence
            if norm and norm in plain and sentence not in quoted:
                quoted.append(sentence)
            overlap = len(words & set(tokenize(sentence)))
            if overlap > best_overlap:
                best, best_overlap = sentence, overlap
    return " ".join(quoted) if quoted else best


def applies(question: str) -> bool:
    """Whether the rule applies to ``question``: English always, Japanese by the setting.

    (:data:`JAPANESE_RULE`).
    """
    return JAPANESE_RULE or not is_japanese(question)


def run_check(question: str, answer: str, sources: Sequence[Source]) -> SentenceCheck | None:
    """The check of a run's answer against the sentence it rests on; None: not applicable.

    Not applicable to a run without an answer or without cited passages (nothing to read
    the answer against), nor to a language the rule does not apply to (:func:`applies`).
    """
    if not answer.strip() or not sources or not applies(question):
        return None
    sentence = cited_sentence(answer, sources)
    return check_sentence(question, sentence, _title_of(sentence, sources))


def _title_of(sentence: str, sources: Sequence[Source]) -> str:
    """The title the sentence's document states (:attr:`Source.stated_title`).

    ``""`` when no passage with a stated title holds the sentence.
    """
    norm = normalise_text(sentence).strip()
    for source in sources:
        title = source.stated_title
        if norm and title and norm in normalise_text(source.text):
            return title
    return ""


def cap_silent(
    decision: ActionDecision, question: str, answer: str, sources: Sequence[Source]
) -> ActionDecision:
    """``decision`` capped at NOTIFY when SILENT's sentence does not say what was asked.

    Any other level, and a run the rule does not apply to (:func:`run_check`), is returned
    unchanged; a capped decision's reason ends with what the sentence does not say.
    """
    if decision.level != InterventionLevel.SILENT:
        return decision
    check = run_check(question, answer, sources)
    if check is None or check.holds:
        return decision
    level = InterventionLevel.NOTIFY
    return decision.model_copy(
        update={
            "level": level,
            "reason": f"{decision.reason}; not SILENT: {check.notice()}",
            "recommended_action": RECOMMENDED_ACTIONS[level],
        }
    )
