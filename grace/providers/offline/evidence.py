"""Lexical evidence that a passage sentence answers a question (offline reader and judge).

Each passage is read with the context splitting took from it
(:mod:`grace.providers.offline.context`): heading lines leave the sentences, and every
sentence carries the tokens of its document title and heading path (counted at
:data:`CONTEXT_WEIGHT`) and, when its subject is a pronoun or elided, of the subject it refers
to (:data:`SUBJECT_WEIGHT`). For every sentence, with its neighbours as context (the *window*):

- ``lexical`` / ``window`` — IDF-weighted share of the question's tokens found in the
  sentence / in the window, with that context (IDF over the passages' sentences: rare terms
  weigh more); ``stated`` — the same for the sentence's own words only; ``term_lexical`` /
  ``term_window`` — the same with each Japanese term counted once and the words naming the
  answer's class at half (:func:`term_weights`), what the sentences are ranked on;
- ``key_share`` — share of the question's key terms (:func:`question_keys`: names, numbers,
  kanji / katakana runs, less the words naming the answer's class) found in the window;
  ``missing`` lists the others. A year or number of the question that the window does not
  contain is a *hard* mismatch (``hard_miss``): SQuAD-style unanswerable questions often swap
  a date or a name;
- ``type_ok`` — the sentence holds a span of the answer type the question asks for
  (``when`` → a date, ``how many`` → a number, ``who`` → a name) that the question does
  not already contain, in the asked unit when it asks one (``measure_ok``: 「長さ」 → a
  length); ``None`` when the question does not say;
- ``absent`` — key terms found nowhere in the sentence's passage (nor its title, headings, the
  initials of its names — "UMC" — or as the demonym of a name — "Victorians" of Victoria):
  the passage is about something else, or the question names an entity the text does not;
  ``absent_hard`` — those that are names or numbers;
- ``negation_ok`` — False when the question is negated ("does not", "didn't") but the
  window is not; ``polarity_ok`` — the same for the sentence alone; ``relation_ok`` — the
  sentence states the question's closed-set words ("before", "last");
- ``contrast`` — question words the *sentence* contradicts with another member of the same
  closed set (:func:`~grace.text.contrasts`: "last" asked, "first" stated; "warm" against
  "cold"): the swapped premise of a SQuAD-style near-miss question;
- ``number_role`` — a number the question identifies something by stands for something
  else in the sentence.

:func:`assess` returns them best first by ``rank`` (a weighted sum; weights in
:data:`RANK_WEIGHTS`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from grace.patterns import lazy
from grace.providers.offline.context import passage_context
from grace.providers.offline.tables import extreme_rows, superlative
from grace.providers.offline.word_forms import is_dictionary_word, match_tokens
from grace.retrieval.tokenize_sudachi import is_proper_noun, synonyms_said
from grace.schemas import Source
from grace.text import (
    ENGLISH_WORD,
    AnswerType,
    Measure,
    agrees,
    answer_class_indices,
    answer_measures,
    answer_type,
    calendar_words,
    contrasts,
    counted_noun,
    counts,
    in_stated_range,
    is_japanese,
    is_negated,
    is_yes_no_question,
    key_terms,
    life_words,
    measure_words,
    normalise_text,
    number_role_mismatch,
    quantity_words,
    states_lifespan,
    states_measure,
    typed_candidates,
)

__all__ = [
    "CONTEXT_WEIGHT",
    "RANK_WEIGHTS",
    "SUBJECT_WEIGHT",
    "Evidence",
    "asked_tokens",
    "assess",
    "heading_asks",
    "kanji_stems",
    "measured_noun",
    "now_words",
    "is_hard_key",
    "key_present",
    "question_keys",
    "relation_terms",
    "states_present",
    "term_weights",
]

RANK_WEIGHTS = {
    "lexical": 0.45,
    "window": 0.2,
    "key_share": 0.15,
    "type_ok": 0.1,
    "hit": 0.1,
}
"""Weights of the sentence ranking (``hit``: the passage's retrieval score). ``number_role`` is
reported, not weighed here: as a ranking penalty (0.15) it cost calib accuracy 0.684 → 0.682,
so only the learned confidence model weighs it (``ev_number_role``)."""

CONTEXT_WEIGHT = 0.5
"""How much a question term counts when a sentence holds it only through its context: the
document title and the heading path it sits under."""
SUBJECT_WEIGHT = 1.0
"""How much a question term counts when a sentence holds it only through the subject its
pronoun or elided subject refers to (the previous sentence's)."""

_NUMERIC = lazy(r"^\d[\d,.]*$")


@dataclass(frozen=True, kw_only=True)
class Evidence:
    """How well one sentence (with its neighbours) answers the question."""

    sentence: str
    source_id: str
    lexical: float
    window: float
    stated: float = 0.0
    """IDF-weighted share of the question the sentence's own words hold (no context: what the
    answer itself states)."""
    key_share: float
    missing: tuple[str, ...]
    hard_miss: bool
    absent: tuple[str, ...]
    """Key terms of the question the passage (with its title and headings) never mentions."""
    absent_hard: tuple[str, ...] = ()
    """Those of ``absent`` that are names or numbers (:func:`is_hard_key`) or the asked
    relation (:func:`relation_terms`), not common nouns."""
    type_ok: bool | None
    measure_ok: bool | None = None
    """The sentence states a number in the unit the question asks for ("how far" → a length,
    「長さ」 → キロメートル …); ``None`` when the question asks for no measure."""
    negation_ok: bool
    hit_score: float
    polarity_ok: bool = True
    """False when the question is negated and the sentence itself is not (its window may be)."""
    relation_ok: bool = True
    """The sentence states each closed-set word of the question ("before", "last":
    :func:`~grace.text.agrees`)."""
    contrast: tuple[str, ...] = ()
    number_role: bool = False
    """A number the question uses as an identifier appears in the sentence only in another
    role ("item number 7" asked, "… weighs 7 grams" stated): the sentence is about something
    else."""
    context: str = ""
    """The sentence with its neighbours, as written."""
    before: str = ""
    """The sentence before it in its passage ("" at the start)."""
    after: str = ""
    """The sentence after it in its passage ("" at the end)."""
    title: str = ""
    """Title of the sentence's document."""
    named_title: bool = False
    """The title is one the document states (a heading or an HTML title), not its file name."""
    term_lexical: float = 0.0
    """``lexical`` weighed as the ranking weighs the question's words (:func:`term_weights`:
    each Japanese term once, however many tokens it gives; the words naming the answer's
    class at half)."""
    term_window: float = 0.0
    """``window`` counted the same way."""
    answers_heading: bool = False
    """The sentence is the first under a question (an FAQ's heading or ``Q:`` line) that asks
    what the user asks (:func:`heading_asks`): the answer the page gives to it."""
    faq_question: str = ""
    """The question (an FAQ's heading or ``Q:`` line) the sentence is under, or ``""``."""
    measured_absent: str = ""
    """The noun a Japanese measure question ends on (「株価は？」), the measured thing, when
    it is nowhere in the passage (:func:`measured_noun`; not a key term: it names the
    answer's class, and a value of its measure may stand for it); else ``""``."""

    @property
    def rank(self) -> float:
        """Ranking score: the weighted sum of :data:`RANK_WEIGHTS`.

        The shares it weighs count the question's words as :func:`term_weights` does
        (``term_lexical``, ``term_window``); the reader's abstention and the confidence model
        read ``lexical`` / ``window``.
        """
        w = RANK_WEIGHTS
        type_term = 1.0 if self.type_ok in (True, None) else 0.0
        return (
            w["lexical"] * self.term_lexical
            + w["window"] * self.term_window
            + w["key_share"] * self.key_share
            + w["type_ok"] * type_term
            + w["hit"] * self.hit_score
        )


def _bigrams(text: str) -> set[str]:
    return {text[i : i + 2] for i in range(len(text) - 1)}


_NUMBER_WORDS = dict(
    enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())
) | {20: "twenty", 30: "thirty", 40: "forty", 50: "fifty", 100: "hundred", 1000: "thousand"}
_FIRST_WORD = lazy(r"^\W*([A-Za-z][\w'’-]*)")
_JA_ASKED = lazy(
    r"([\u30A0-\u30FF\u4E00-\u9FFF]{2,})"
    r"(?:(?:は|とは|って|を|が)?(?:何|なに|なん|どこ|どれ|どちら|誰|だれ|いつ|いくつ)?"
    r"(?:と(?:いう|言う|いい|呼ぶ|呼ばれる|呼ばれた|称する)\w*)?"
    r"(?:ですか|でしたか|でしょうか|だった|か)?)?\s*[?？。]*\s*$"
)
"""A question's last noun, when the question ends on it: the class of the answer it asks
for (「…開催された都市はどこか」 asks for a city, 「…を何と呼ぶか」 for a name)."""
_JA_WHICH = lazy(r"(?:どの|どんな|何という|なんという|何の)([\u30A0-\u30FF\u4E00-\u9FFF]{2,})")
"""The noun a Japanese question word heads."""


def question_keys(question: str) -> set[str]:
    """Key terms a passage must share to answer ``question``.

    :func:`~grace.text.key_terms` without the words that name the *answer's class* rather than
    the subject — in Japanese the question's final noun (「…の都市はどこか」, 「…を何と呼ぶか」
    asks for a city, a name: the answer sentence states the city, not the word 都市) and a
    noun after どの / 何という — nor an English question's first word when the lexicon knows
    it as a common word (a capital there is the sentence's, not a name's: "Besides …",
    "Although …").
    """
    # 西暦何年: the question word; 一番高い: a superlative's frame (*the highest*), no term
    keys = {k for k in key_terms(question) if "何" not in k and not k.startswith("一番")}
    text = normalise_text(question)
    if is_japanese(text):
        asked = _JA_ASKED.search(text)
        if asked:
            keys.discard(asked.group(1))
        keys -= set(_JA_WHICH.findall(text))
        return keys
    first = _FIRST_WORD.match(question)
    if first and is_dictionary_word(first.group(1)) and not first.group(1).isupper():
        keys.discard(first.group(1).lower())
    return keys


_JA_RELATION = lazy(r"([\u30A0-\u30FF\u4E00-\u9FFF]{2,})(?=し|す|さ|され)")
"""A verbal noun the question uses as its predicate (「…を作曲したのは誰か」): the relation."""


def measured_noun(question: str) -> str | None:
    """The noun a Japanese question that asks for a measure ends on (「…の株価は？」 → 株価).

    It names the answer's class (:func:`question_keys` leaves it out: 「町の人口は約2万人」
    and 「約2万人が住む」 both answer 「人口は？」), but it is what is measured: a passage that
    neither mentions it nor states a value of its measure says nothing of it.
    """
    text = normalise_text(question)
    if not is_japanese(text) or not answer_measures(question):
        return None
    asked = _JA_ASKED.search(text)
    return asked.group(1) if asked else None


def _mark_measured_absent(question: str, read: list[_Passage]) -> list[_Passage]:
    """The passages, each marked when it never mentions the question's :func:`measured_noun`."""
    noun = measured_noun(question)
    if noun is None:
        return read
    out = []
    for p in read:
        text = normalise_text(f"{p.source.title}\n{p.source.location}\n{p.source.text}")
        present = key_present(noun, text, set(match_tokens(text)))
        out.append(p if present else replace(p, measured_absent=noun))
    return out


def relation_terms(question: str) -> set[str]:
    """The question's verbal nouns used as its predicate (Japanese 〜する: 作曲した, 設立された).

    A passage that never mentions the asked relation does not state it, whatever else it
    shares with the question (who *composed* the festival music, not who plays it).
    """
    if not is_japanese(question):
        return set()
    return set(_JA_RELATION.findall(normalise_text(question)))


def is_hard_key(term: str) -> bool:
    """A key term that names something (a name, a number, a year), not a common noun.

    English key terms are capitalised words and numbers: all names. A Japanese kanji or
    katakana run is a name only when the dictionary says so (or does not know it).
    """
    if not is_japanese(term):
        return True
    return any(c.isdigit() for c in term) or is_proper_noun(term)


def key_present(term: str, window: str, window_tokens: set[str]) -> bool:
    """Whether a key term occurs in the text (Japanese runs: ≥ half their bigrams).

    A small number also matches its English word ("3" ~ "three"); a month or a weekday, a
    range that holds it ("from November to March" holds December).
    """
    if term in window or in_stated_range(term, window):
        return True
    if term.isdigit() and int(term) in _NUMBER_WORDS:
        return _NUMBER_WORDS[int(term)] in window_tokens or _NUMBER_WORDS[int(term)] in window
    if is_japanese(term):
        grams = _bigrams(term)
        return bool(grams) and len(grams & _bigrams(window)) / len(grams) >= 0.5
    tokens = set(match_tokens(term))
    return bool(tokens) and tokens <= window_tokens


def states_count(sentence: str, counted: str) -> bool:
    """Whether ``sentence`` states a number of the counted noun ("seven-layer", 「3人」).

    A count question's number counts its noun: "how many layers" is answered by "a
    seven-layer protocol", not by "one of the first architectures".
    """
    found = counts(sentence, counted)
    if not counted.isascii():
        return bool(found)
    want = set(match_tokens(counted))
    return any(want & set(match_tokens(words)) for words in found)


_JA_HOW_TO = lazy(r"どう(?:すれば|したら|やって|やったら)(?:いい|良い|よい)?")
"""The frame of a Japanese how-to question: 「どうすればいい」「どうしたらいい」 (*what should one
do*), 「どうやって」 (*by doing what*). Its words are not terms: the いい of 「すればいい」 is
the modal *should*, not the adjective *good*, the やって of 「どうやって」 not the verb *do*,
and どう marks the slot, as *how* does in English (a stopword there); the answering sentence
states a course of action by its own verb (「遅刻する場合は、…キャプテンに連絡してください」)."""


_NOW = lazy(
    r"\b(?:now|nowadays|currently|current|presently|today)\b"
    r"|現在|現時点|目下|今(?=の|は|、|も|で)"
)
"""Words that ask about the present ("Who owns it *now*?", 「*現在*の社長は誰？」)."""
_JA_PAST_END = lazy(r"た[」』）)]*[。．.!?！？]?\s*$")
"""A Japanese sentence that ends in the past tense (〜した。〜でした。〜だった。)."""
_EN_PRESENT = lazy(r"\b(?:is|are|am|has|have|remains?)\b")
"""An English present-tense copula or *have*: the sentence states a present state."""


def now_words(question: str) -> tuple[str, ...]:
    """The words of a question that ask about the present ("now", "currently", 「現在」)."""
    return tuple(_NOW.findall(normalise_text(question)))


def states_present(sentence: str) -> bool:
    """Whether a sentence states a present state: it says the question's "now".

    A document describes what is so at the time it was written in the present tense and
    rarely says "now": 「社長は山田太郎です。」 answers 「現在の社長は誰？」, "The secretary is
    John Reed." answers "Who is the secretary now?". A Japanese sentence is in the present
    unless it ends in the past (〜た); an English one when it holds a present-tense copula or
    *have* ("is", "are", "has", "remains").
    """
    text = normalise_text(sentence).strip()
    if is_japanese(text):
        return _JA_PAST_END.search(text) is None
    return _EN_PRESENT.search(text) is not None


_JA_STEM = lazy(
    r"(?<![\u3400-\u9FFF々])([\u3400-\u9FFF])(?=[\u3041-\u3093])(?![のはがをにへとでもや])"
)
"""A kanji that stands alone before kana that inflect it (開いて, 休み), not before a
particle (「雨の日」: a noun)."""


def kanji_stems(question: str) -> frozenset[str]:
    """The kanji of a Japanese question written as the stem of a native word (開く, 休み).

    A kanji writes one morpheme in both of its readings: 開 is *open* in the native verb
    「開く」 and in the Sino-Japanese compounds 「開館」「開業」「開催」, 休 *rest* in 「休み」 and
    「休館日」. A document states its facts in the compounds more often than a question does
    (「図書館は何時まで開いていますか？」 against 「開館時間は午前9時から午後7時までです。」), and
    the tokenizer gives a compound as a whole: a sentence that writes the stem's kanji in a
    compound says the morpheme, not the word, so it counts at :data:`CONTEXT_WEIGHT`.
    """
    if not is_japanese(question):
        return frozenset()
    return frozenset(_JA_STEM.findall(normalise_text(question)))


def asked_tokens(question: str) -> set[str]:
    """The question's tokens a sentence can state: :func:`match_tokens` less a how-to frame.

    The words of :data:`_JA_HOW_TO` count in no sentence's share: counted, they lower every
    sentence's share, most a short question's (「遅刻したらどうすればいいですか？」: three of
    its four tokens), and the reader abstained on the rule that answers it. A frame word the
    rest of the question also says stays.
    """
    tokens = set(match_tokens(question))
    if not is_japanese(question):
        return tokens
    text = normalise_text(question)
    frames = _JA_HOW_TO.findall(text)
    if not frames:
        return tokens
    framed = set(match_tokens(" ".join(frames)))
    return tokens - (framed - set(match_tokens(_JA_HOW_TO.sub(" ", text))))


def _idf(q_tokens: set[str], sentences: list[set[str]]) -> dict[str, float]:
    n = max(len(sentences), 1)
    return {t: math.log(1.0 + (n + 1) / (1 + sum(t in s for s in sentences))) for t in q_tokens}


_JA_STRETCH = lazy(r"[\u30A0-\u30FF\u3400-\u9FFF\uF900-\uFAFF々〆ヶ]{2,}")
"""A kanji / katakana stretch of two characters or more: one term of a Japanese question,
as :func:`~grace.text.key_terms` counts it."""


CLASS_WEIGHT = 0.5
"""How much a word of the noun phrase that names the answer's class ("which *grind step*")
counts in the ranking: the sentence that states the answer often names the class too, but
what tells it from its neighbours is the rest of the question. Half, as a title's word
counts (:data:`CONTEXT_WEIGHT`); not tuned."""


def term_weights(question: str, q_tokens: set[str]) -> dict[str, float] | None:
    """How much each token of the question counts in the sentence ranking.

    English: the words of the noun phrase after *what* / *which* / *whose*, which names the
    answer's class (:func:`~grace.text.answer_class_indices`), count :data:`CLASS_WEIGHT`
    ("Which grind step is best for espresso?" tied "The grind dial has 40 steps" with "Step 1
    is the finest, for espresso"); ``None`` when the question has none.

    Japanese: each term once, however long. The tokenizer gives a kanji / katakana stretch
    as its dictionary words *and* its bigrams (the bigrams match compounds the dictionary
    splits otherwise), so 「ミナトパン」 gives five tokens and 「本社」 one. Counted token by
    token, a sentence that only names the company outweighs the one that states its head
    office, asked 「ミナトパンの本社はどこ」. The tokens of one stretch share one term's weight
    (a token of two stretches has the sum, at most 1); every other token (a kana word, a
    number, a Latin word) counts 1.
    """
    if not is_japanese(question):
        words = ENGLISH_WORD.findall(normalise_text(question))
        at = answer_class_indices(words)
        framed = set(match_tokens(" ".join(words[i] for i in at)))
        framed -= set(match_tokens(" ".join(w for i, w in enumerate(words) if i not in at)))
        return {t: CLASS_WEIGHT if t in framed else 1.0 for t in q_tokens} if framed else None
    shares: dict[str, float] = {}
    for stretch in _JA_STRETCH.findall(normalise_text(question)):
        tokens = set(match_tokens(stretch)) & q_tokens
        for t in tokens:
            shares[t] = shares.get(t, 0.0) + 1.0 / len(tokens)
    return {t: min(shares.get(t, 1.0), 1.0) for t in q_tokens}


_BARE_CELL = lazy(r"(?:^|; )[^:;]+: \d[\d,.]*(?=;|$)")
"""A cell of a table row read as a sentence (``Activity: Swimming; Adult: 5.50``) that holds a
bare number: its unit is in the table's header or caption."""


@dataclass(frozen=True)
class _Question:
    """What every sentence is scored against."""

    text: str
    tokens: set[str]
    idf: dict[str, float]
    total: float
    keys: set[str]
    hard: set[str]
    kind: AnswerType | None
    negated: bool
    measures: tuple[Measure, ...] = ()
    counted: str | None = None
    """The noun a count question counts ("how many layers", 「何人」): the unit of a count."""
    yes_no: bool = False
    """The question asks yes or no ("Is the library open on Sunday?")."""
    measure_tokens: frozenset[str] = frozenset()
    """Tokens of the words naming the asked measure ("cost", 「長さ」): a sentence that states a
    value of it says them (:func:`~grace.text.measure_words`)."""
    term_idf: dict[str, float] | None = None
    """``idf`` times :func:`term_weights`; ``None``: the same as ``idf``."""
    term_total: float = 1.0
    """The sum of ``term_idf``."""
    ranged: tuple[tuple[str, frozenset[str]], ...] = ()
    """The question's months and weekdays with their tokens: a range states them."""
    quantity_tokens: frozenset[str] = frozenset()
    """Tokens of the word after *how* that asks for a quantity ("much"): a number says it."""
    life_tokens: frozenset[str] = frozenset()
    """Tokens of the words that ask for a birth or a death ("die"): a lifespan says them."""
    now_tokens: frozenset[str] = frozenset()
    """Tokens of the words that ask about the present ("now", 「現在」): a sentence in the
    present tense says them (:func:`states_present`)."""
    japanese: bool = False
    """The question is Japanese: a sentence may say its words by a synonym (:meth:`synonyms`)."""
    stems: frozenset[str] = frozenset()
    """The kanji that stand alone before kana in the question, each the stem of a native
    word (「開いて」 of 開く): a Sino-Japanese compound with it says it at
    :data:`CONTEXT_WEIGHT` (:func:`kanji_stems`)."""

    def synonyms(self, tokens: set[str]) -> frozenset[str]:
        """The question's (Japanese) words ``tokens`` say by a SudachiDict synonym.

        They count at :data:`CONTEXT_WEIGHT`, as a kanji stem said by its compound: a synonym
        group gathers a word's senses (手入れ *care* shares one with 修理 *repair*), so a
        synonym is weaker evidence than the word itself
        (:func:`~grace.retrieval.tokenize_sudachi.synonyms_said`).
        """
        return synonyms_said(self.tokens, tokens) if self.japanese else frozenset()

    def typed(self, sentence: str, measured: bool | None) -> bool | None:
        """The sentence holds a span of the asked type (in the asked unit); None: not asked.

        ``measured``: :meth:`measured` of the sentence. A value of the asked measure written
        without digits counts: "free" for a price, "almost a month" for a duration
        (:func:`~grace.text.states_measure`).
        """
        if self.kind is None:
            return None
        if not typed_candidates(sentence, self.kind, self.text):
            return bool(self.measures) and measured is True
        return measured is not False

    def measured(self, sentence: str) -> bool | None:
        """The sentence states a number in the asked unit; None when no unit is asked.

        None too for a table row with a bare number in a cell ("Swimming; Adult: 5.50"): a
        table gives its unit once, in a header or a caption the row does not repeat, so the
        row neither states the asked unit nor another (:data:`_BARE_CELL`).
        """
        if self.counted is not None:
            return states_count(sentence, self.counted)
        if not self.measures:
            return None
        if states_measure(sentence, self.measures):
            return True
        return None if _BARE_CELL.search(sentence) else False

    def share(
        self,
        tokens: set[str],
        about: set[str],
        subject: set[str],
        *,
        terms: bool = False,
    ) -> float:
        """IDF-weighted share of the question in ``tokens``, its context at lower weights.

        ``about`` (title, headings) counts at :data:`CONTEXT_WEIGHT`, ``subject`` (what a
        pronoun or an elided subject refers to) at :data:`SUBJECT_WEIGHT`; ``terms``: weighed
        by :attr:`term_idf` (each Japanese term once).
        """
        weights, total = self.idf, self.total
        if terms and self.term_idf is not None:
            weights, total = self.term_idf, self.term_total
        held = self.tokens & tokens
        referred = (self.tokens & subject) - held
        context = (self.tokens & about) - held - referred
        # fsum: exact, so the result does not depend on the sets' (hash-seeded) order
        weight = (
            math.fsum(weights[t] for t in held)
            + SUBJECT_WEIGHT * math.fsum(weights[t] for t in referred)
            + CONTEXT_WEIGHT * math.fsum(weights[t] for t in context)
        )
        return weight / total


@dataclass(frozen=True)
class _Passage:
    """One passage as the sentences see it."""

    source: Source
    sentences: list[str]
    sets: list[set[str]]
    about: list[set[str]]
    subject: list[set[str]]
    absent: tuple[str, ...]
    titled: frozenset[str] = frozenset()
    """Key terms the document's stated title or the heading path holds: every sentence under
    them is about them."""
    answers: tuple[str, ...] = ()
    """Per sentence: the question it is the first sentence under, or ``""``
    (:attr:`~grace.providers.offline.context.PassageContext.answers`)."""
    under: tuple[str, ...] = ()
    """Per sentence: the question it is under, or ``""``."""
    measured_absent: str = ""
    """The question's :func:`measured_noun` when it is nowhere in the passage, else ``""``."""


def _said_otherwise(
    q: _Question,
    text: str,
    opposed: Sequence[str],
    measured: bool | None,
    typed: bool | None,
) -> frozenset[str]:
    """Question tokens ``text`` says in another form than the word itself.

    A value of the asked measure says its measure word ("free" says "cost"), a number the
    word that asks for a quantity ("10 g" says "much": :func:`~grace.text.quantity_words`), a
    lifespan after a name "born" and "died" (:func:`~grace.text.states_lifespan`), the
    present tense "now" and 「現在」 (:func:`states_present`); a range of
    months or weekdays says each one it holds ("from November to March" says "December");
    the opposite of a word of a yes / no question answers it ("closed" answers "open?").
    """
    said = set(q.measure_tokens) if q.measure_tokens and measured else set()
    if typed:
        said |= q.quantity_tokens
        if q.life_tokens and states_lifespan(text):
            said |= q.life_tokens
    if q.now_tokens and states_present(text):
        said |= q.now_tokens
    for word, tokens in q.ranged:
        if in_stated_range(word, text):
            said |= tokens
    if q.yes_no:
        for pair in opposed:
            said |= set(match_tokens(pair.split("≠")[0])) & q.tokens
    return frozenset(said)


HEADING_ASKS = 0.5
"""How much of the question (IDF-weighted) an FAQ's question must hold to ask it: the words
that make the two questions one, as :data:`CONTEXT_WEIGHT` makes a heading's words half a
sentence's; not tuned."""


def heading_asks(q: _Question, heading: str) -> bool:
    """Whether an FAQ's question (a heading, a ``Q:`` line) asks what the user asks.

    It holds every key term of the user's question (a name or a place the FAQ's question
    lacks — 「沖縄へは何日で届きますか？」 under 「何日で届きますか？」 — asks something more)
    and :data:`HEADING_ASKS` of its words. ``""`` (no question) asks nothing.
    """
    if not heading:
        return False
    text = normalise_text(heading)
    tokens = set(match_tokens(text))
    if not all(key_present(k, text, tokens) for k in q.keys):
        return False
    return q.share(tokens, set(), set()) >= HEADING_ASKS


def _swaps(question: str, sentence: str, about: set[str]) -> list[str]:
    """:func:`~grace.text.contrasts` of the sentence, less its comparisons.

    The asked pole held by what the sentence is about (``about``: the tokens of its title,
    headings and the subject a pronoun refers to) makes the other pole a comparison: "At 250
    metres it is shorter than North Pier" on the South Pier page answers "How long is South
    Pier?". A pole the tokenizer drops (a stopword: "before", "above") is never held.
    """
    kept = []
    for pair in contrasts(question, sentence):
        asked = set(match_tokens(pair.split("≠")[0]))
        if not asked or not asked <= about:
            kept.append(pair)
    return kept


def _about(q: _Question, context: set[str], text: str, tokens: set[str]) -> set[str]:
    """Question tokens a text holds at :data:`CONTEXT_WEIGHT`.

    Its title's and headings' (``context``), a kanji stem its compound says, a Japanese word
    its synonym says.
    """
    return context | {k for k in q.stems if k in text} | q.synonyms(tokens)


def _neighbours(p: _Passage, i: int) -> tuple[int, int]:
    """The window of sentence ``i``: it and its neighbours, ``sentences[lo:hi]``.

    A question (an FAQ's heading or ``Q:`` line) parts the sentences before it from its
    answer: the window does not reach across it.
    """
    lo, hi = max(i - 1, 0), min(i + 2, len(p.sentences))
    if p.answers[i]:
        lo = i
    if i + 1 < hi and p.answers[i + 1]:
        hi = i + 1
    return lo, hi


def _evidence(q: _Question, p: _Passage, i: int) -> Evidence:
    """Sentence ``i`` of passage ``p`` with its neighbour window, scored against ``q``."""
    sentences, sets, sentence = p.sentences, p.sets, p.sentences[i]
    lo, hi = _neighbours(p, i)
    window_text = normalise_text(" ".join(sentences[lo:hi]))
    window_tokens = set().union(*sets[lo:hi])
    measured = q.measured(sentence)
    typed = q.typed(sentence, measured)
    opposed = _swaps(q.text, sentence, p.about[i] | p.subject[i])
    says = _said_otherwise(q, sentence, opposed, measured, typed)
    window_says = says | _said_otherwise(q, window_text, (), None, None)
    missing = tuple(
        sorted(
            k
            for k in q.keys
            if k not in p.titled and not key_present(k, window_text, window_tokens)
        )
    )
    about = _about(q, p.about[i], sentence, sets[i])
    window_about = _about(q, p.about[i], window_text, window_tokens)
    lexical = q.share(sets[i] | says, about, p.subject[i])
    window = q.share(window_tokens | window_says, window_about, p.subject[i])
    return Evidence(
        sentence=sentence,
        source_id=p.source.source_id,
        lexical=lexical,
        stated=q.share(sets[i], set(), set()),
        window=window,
        term_lexical=(
            lexical if q.term_idf is None
            else q.share(sets[i] | says, about, p.subject[i], terms=True)
        ),
        term_window=(
            window if q.term_idf is None
            else q.share(window_tokens | window_says, window_about, p.subject[i], terms=True)
        ),
        key_share=1.0 - len(missing) / len(q.keys) if q.keys else 1.0,
        missing=missing,
        hard_miss=any(_NUMERIC.match(k) for k in missing),
        absent=p.absent,
        absent_hard=tuple(k for k in p.absent if k in q.hard),
        type_ok=typed,
        measure_ok=measured,
        negation_ok=not q.negated or is_negated(window_text),
        hit_score=p.source.score,
        polarity_ok=not q.negated or is_negated(sentence),
        # a yes/no question is answered by either pole ("closed" for "open": no)
        relation_ok=q.yes_no or agrees(q.text, sentence),
        # the opposite of a word of a yes/no question answers it ("no"): not another relation
        contrast=() if q.yes_no else tuple(opposed),
        number_role=bool(number_role_mismatch(q.text, sentence, identifiers_only=True)),
        context=" ".join(sentences[lo:hi]),
        before=sentences[lo] if lo < i else "",
        after=sentences[i + 1] if i + 1 < hi else "",
        title=p.source.title,
        named_title=bool(p.source.stated_title),
        answers_heading=heading_asks(q, p.answers[i]),
        faq_question=p.under[i],
        measured_absent=p.measured_absent,
    )


_CAPITALISED_RUN = lazy(
    r"\b[A-Z][\w'-]*(?:[ \t]+(?:(?:of|and|for|the|de)[ \t]+)*[A-Z][\w'-]*)+"
)
"""A run of capitalised words (a name: "United Methodist Church", "Bank of America")."""


def _initialisms(text: str) -> set[str]:
    """The initials of each name in ``text`` (lower case): what an acronym of it spells."""
    out: set[str] = set()
    for run in _CAPITALISED_RUN.findall(text):
        words = [w for w in run.split() if w[:1].isupper()]
        if words[0] in ("The", "A", "An"):
            words = words[1:]
        initials = "".join(w[0] for w in words).lower()
        # every run of two or more of the names' words: "NY" of "New York Times" too
        out.update(
            initials[i:j] for i in range(len(initials)) for j in range(i + 2, len(initials) + 1)
        )
    return out


_CAPITALISED_WORD = lazy(r"\b[A-Z][a-z]{3,}")
_DEMONYM_END = lazy(r"(?:ians?|ans?|ish|ese|ic|ns?|i)$")
"""Endings of an adjective or inhabitant name made from a place name (Victorians, Nepalese)."""


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _demonym_of(term: str, names: set[str]) -> bool:
    """Whether ``term`` is the inhabitant / adjective form of one of ``names`` (lower case).

    "Victorians" of Victoria, "Nepalese" of Nepal, "Norman" of Normandy: the forms share the
    name's stem — all but a short ending, and at least five letters.
    """
    if not (term.isascii() and term.isalpha() and _DEMONYM_END.search(term)):
        return False
    need = max(5, len(term) - 3)
    return any(_common_prefix(term, name) >= need for name in names)


def _passage(passage: Source, keys: set[str]) -> _Passage:
    ctx = passage_context(passage)
    original = f"{passage.title}\n{ctx.headings}\n{passage.text}"
    whole = normalise_text(original)
    whole_tokens = set(match_tokens(whole))
    spelled = _initialisms(original) if any(k.isalpha() and k.isascii() for k in keys) else set()
    missing = [k for k in keys if not key_present(k, whole, whole_tokens) and k not in spelled]
    names = {w.lower() for w in _CAPITALISED_WORD.findall(original)} if missing else set()
    absent = tuple(sorted(k for k in missing if not _demonym_of(k, names)))
    sets = [set(match_tokens(s)) for s in ctx.sentences]
    context = normalise_text(f"{passage.stated_title}\n{ctx.headings}")
    context_tokens = set(match_tokens(context))
    titled = frozenset(k for k in keys if key_present(k, context, context_tokens))
    return _Passage(
        passage, ctx.sentences, sets, ctx.about, ctx.subject, absent, titled,
        tuple(ctx.answers), tuple(ctx.under),
    )


def assess(question: str, passages: Sequence[Source]) -> list[Evidence]:
    """Score every sentence of ``passages`` against ``question``, best first.

    A run reads the same passages more than once — the reader, the run's features and the
    judge each ask — under other citation keys (``S1``, ``doc.md#4``): the scoring, which
    does not depend on the key, is computed once (:func:`_ranked`, a small LRU cache of this
    pure function) and each caller gets its own keys back.
    """
    contents = tuple(
        (p.source, p.title, p.chunk_index, p.location, p.text, p.score, p.collection)
        for p in passages
    )
    return [
        replace(ev, source_id=passages[i].source_id) for i, ev in _ranked(question, contents)
    ]


PassageContent = tuple[str, str, int, str, str, float, str]
"""A passage's fields but its citation key: source, title, chunk, location, text, score,
collection."""


@lru_cache(maxsize=256)
def _ranked(
    question: str, contents: tuple[PassageContent, ...]
) -> tuple[tuple[int, Evidence], ...]:
    """:func:`assess` of passages keyed by their position: (passage index, evidence)."""
    passages = [
        Source(
            source_id=str(i), source=source, title=title, chunk_index=chunk, location=location,
            text=text, score=score, collection=collection,
        )
        for i, (source, title, chunk, location, text, score, collection) in enumerate(contents)
    ]
    return tuple((int(ev.source_id), ev) for ev in _assess(question, passages))


def _said_by_the_extreme_row(
    question: str, q_tokens: set[str], read: list[_Passage]
) -> list[_Passage]:
    """The passages, the row that holds a table's asked extreme saying the superlative.

    "Which model has the longest battery life?": the row with the greatest battery life says
    "longest" (:func:`~grace.providers.offline.tables.extreme_rows`, over the rows of a table
    retrieved together), as a value says the measure word it answers. Only a table the
    search retrieved whole is compared: one that a passage of another document ranks below
    (its rows match a superlative's words alike, so a row left out would have ranked above
    that passage); a table whose rows fill the passages to the last may have more.
    """
    asked = superlative(question)
    if asked is None:
        return read
    last = read[-1].source.source if read else ""  # its document's rows may go on
    rows = [
        (p.source.source, s if p.source.source != last else "") for p in read for s in p.sentences
    ]
    found = extreme_rows(asked, q_tokens, rows)
    said = set(match_tokens(asked.words)) & q_tokens
    if not found or not said:
        return read
    out: list[_Passage] = []
    start = 0
    for p in read:
        sets = [s | said if start + j in found else s for j, s in enumerate(p.sets)]
        out.append(replace(p, sets=sets))
        start += len(p.sets)
    return out


def _assess(question: str, passages: Sequence[Source]) -> list[Evidence]:
    """Every sentence of ``passages`` scored against ``question``, best first."""
    q_tokens = asked_tokens(question)
    keys = question_keys(question)
    read = [_passage(p, keys) for p in passages]
    idf = _idf(q_tokens, [t for p in read for t in p.sets])
    read = _mark_measured_absent(question, _said_by_the_extreme_row(question, q_tokens, read))
    weights = term_weights(question, q_tokens)
    term_idf = None if weights is None else {t: w * weights[t] for t, w in idf.items()}
    term_total = (math.fsum(term_idf.values()) or 1.0) if term_idf else 1.0
    q = _Question(
        text=question,
        tokens=q_tokens,
        idf=idf,
        total=math.fsum(idf.values()) or 1.0,
        keys=keys,
        hard={k for k in keys if is_hard_key(k)} | (relation_terms(question) & keys),
        kind=answer_type(question),
        negated=is_negated(question),
        measures=answer_measures(question),
        counted=counted_noun(question),
        yes_no=is_yes_no_question(question),
        measure_tokens=frozenset(match_tokens(" ".join(measure_words(question)))) & q_tokens,
        term_idf=term_idf,
        quantity_tokens=frozenset(match_tokens(" ".join(quantity_words(question)))) & q_tokens,
        life_tokens=frozenset(match_tokens(" ".join(life_words(question)))) & q_tokens,
        now_tokens=frozenset(match_tokens(" ".join(now_words(question)))) & q_tokens,
        stems=kanji_stems(question) & q_tokens,
        japanese=is_japanese(question),
        ranged=tuple((word, frozenset(match_tokens(word))) for word in calendar_words(question)),
        term_total=term_total,
    )
    out = [_evidence(q, p, i) for p in read for i in range(len(p.sentences))]
    out.sort(key=lambda e: e.rank, reverse=True)
    return out
