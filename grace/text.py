"""Small text utilities shared by the offline reader and judge.

- :func:`split_sentences` — English (``.!?`` followed by a capital, not after a common
  abbreviation such as ``St.`` or ``Mr.``) and Japanese (``。！？``) sentence ends; a Markdown
  list item is a sentence without its bullet, a table row its cells named by their columns.
- :func:`key_terms` — names, numbers and kanji / katakana runs of a question: terms a
  passage must share to be about the same thing.
- :func:`answer_type` — what kind of answer a question asks for (``date``, ``number``,
  ``name`` or ``None``), from its question word.
- :func:`typed_candidates` — spans of a sentence that could answer a question of that type
  (years and dates, numbers, capitalised names / katakana and kanji runs).
- :func:`is_negated` — whether a text contains a negation (``not``, ``n't``, ``never`` …,
  ``ない`` / ``ず`` / ``ません``).
- :func:`contrasts` — words of a question whose opposite (or another member of the same
  closed set: ordinals, superlatives, compass points, opposites such as open / close) the
  sentence states instead ("the *last* service" against "the first service").
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Literal

from grace.patterns import LazyPattern, lazy

__all__ = [
    "AnswerType",
    "Measure",
    "ENGLISH_STOPWORDS",
    "ENGLISH_WORD",
    "WH_HEADS",
    "agrees",
    "answer_class_indices",
    "answer_measures",
    "answer_type",
    "asks_for_the_topic",
    "calendar_words",
    "cited_keys",
    "contrasts",
    "counted_noun",
    "counts",
    "in_closed_set",
    "in_stated_range",
    "is_japanese",
    "is_negated",
    "is_yes_no_question",
    "key_terms",
    "life_words",
    "list_item_number",
    "measure_words",
    "named_measures",
    "normalise_text",
    "number_role_mismatch",
    "quantity_words",
    "question_line",
    "split_sentences",
    "states_lifespan",
    "states_measure",
    "typed_candidates",
    "without_citations",
    "without_other_measures",
]

AnswerType = Literal["date", "number", "name"]
"""Kinds of answer a question word asks for."""
Measure = Literal[
    "length", "duration", "mass", "money", "age", "area", "speed", "data", "temperature",
    "frequency",
]
"""What a number answer measures: the unit the asked value comes in."""

_JAPANESE = lazy(r"[\u3040-\u30FF\u4E00-\u9FFF]")
"""A kana or kanji character."""
_CITATION_MARK = lazy(r"\s*\[(?:S|H)\d+\]")
_CITATION_KEY = lazy(r"\[((?:S|H)\d+)\]")
"""A citation mark of an answer, ``[S1]`` or ``[H1]``, with the space before it."""


def is_japanese(text: str) -> bool:
    """Whether ``text`` has a kana or kanji character (it is then read as Japanese).

    ASCII text has none: it is answered without the pattern, whose kana and kanji ranges
    cost more to compile (~1.5 ms per process) than an English ask spends matching them.
    """
    return not text.isascii() and _JAPANESE.search(text) is not None


def cited_keys(text: str) -> list[str]:
    """The citation keys ``text`` marks (``[S1]`` → ``S1``), each once, in order."""
    return list(dict.fromkeys(_CITATION_KEY.findall(text)))


def without_citations(text: str) -> str:
    """``text`` without its citation marks (``[S1]``, ``[H2]``) and the spaces before them."""
    return _CITATION_MARK.sub("", text)

_ABBREVIATIONS = frozenset(
    "st mr mrs ms dr prof sr jr gen col lt capt rev hon gov sen rep mt ft no vol vs etc inc "
    "ltd co corp jan feb mar apr jun jul aug sep sept oct nov dec e.g i.e u.s u.k".split()
)
_SENTENCE_END = lazy(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])|(?<=[。！？])")


def _key_term(not_cjk: str, runs: str) -> str:
    """:data:`_KEY_TERM`'s pattern, with the lookahead that ends a Latin word and the runs."""
    return rf"\d[\d,.]*|[A-Z](?:{not_cjk}[\w'’-])+{runs}|[A-Za-z]+\d+(?:{not_cjk}\w)*"


_KEY_TERM = lazy(
    _key_term(
        r"(?![\u3040-\u30FF\u3400-\u9FFF\uF900-\uFAFF])",
        r"|[\u30A0-\u30FF]{2,}|[\u4E00-\u9FFF]{2,}",
    )
)
"""A key term: a number, a capitalised word, a katakana or kanji run, a code ("A4"). A Latin
word ends where Japanese text begins: 「DVDは…」 has the key term "DVD", not the clause
(a word character matches kana and kanji too)."""
_ASCII_KEY_TERM = lazy(_key_term("", ""))
""":data:`_KEY_TERM` on ASCII text, which has no kana or kanji to stop at or to match: the same
terms, without compiling the kana/kanji ranges (≈ 3 ms) for an English question."""
_QUESTION_OPENERS = {
    "What",
    "Who",
    "Whom",
    "Whose",
    "When",
    "Where",
    "Which",
    "Why",
    "How",
    "Is",
    "Are",
    "Was",
    "Were",
    "Did",
    "Does",
    "Do",
    "The",
    "In",
    "On",
    "At",
    "For",
    "Of",
    "A",
    "An",
    "If",
    "Can",
    "Name",
    "To",
    "During",
    "After",
    "Before",
}
_JA_QUESTION_WORDS = {"名前", "何時頃", "何時", "誰", "場所", "理由", "方法"}
_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
_NUMBER_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|twenty|thirty|"
    "forty|fifty|hundred|thousand|million|billion|half|first|second|third|twice|thrice"
)
_EN_TYPE: list[tuple[AnswerType, LazyPattern]] = [
    (
        "date",
        lazy(
            r"^\s*when\b|\b(what|which|in what) (year|month|day|date|century|decade|time)\b|"
            r"\b(until|since|by) when\b",
            re.I,
        ),
    ),
    (
        "number",
        lazy(
            r"\bhow (many|much|long|far|old|large|big|tall|high|often|fast|hot|cold|warm)\b|"
            r"\bwhat (percentage|percent|number|amount|proportion|speed|temperature)\b|"
            # "what price was it sold for?", "for what sum": a money noun heads the asked phrase
            r"\bwhat (?:price|cost|fee|sum|salary)\b|"
            # "what is the price of …": a measure noun heads the asked phrase
            r"^\s*what (?:is|was|are|were) the (?:price|cost|fee|length|height|distance|weight|"
            r"area|speed|size|population|age|temperature) of\b",
            re.I,
        ),
    ),
    ("name", lazy(r"^\s*(who|whom|whose)\b", re.I)),
]
_JA_PRICED = "株価|運賃|送料|代金|会費|家賃|入場料|手数料"
"""Nouns that name one price or charge: a question that ends on one asks for its amount, as
「値段は？」 does (「送料は？」, 「ミナト精工の株価は？」). Unlike 値段, such a noun is a term of
its own: any price does not say it (「入会金は5000円です」 does not say 会費)."""
_JA_MEASURE_NOUNS = (
    "長さ|距離|全長|延長|高さ|標高|深さ|幅|重さ|重量|面積|広さ|人口|年齢|値段|価格|料金|費用|期間|"
    f"速さ|速度|大きさ|容量|サイズ|温度|気温|水温|体温|{_JA_PRICED}"
)
_JA_TYPE: list[tuple[AnswerType, LazyPattern]] = [
    # 〜間 makes a point a span: 何時 is *what time*, 何時間 *how many hours* (a number)
    ("date", lazy(r"いつ|何年(?!間)|何月|何日(?!間)|何世紀|何時(?!間)|何年代|何曜")),
    (
        "number",
        lazy(
            # いくら asks for an amount (a price: 「送料はいくらですか？」); いくらでも / いくらも
            # (*any amount*, *not much*) ask nothing
            r"何人|何種類|何個|何歳|何回|何%|何パーセント|いくつ|いくら(?!でも|も)|どのくらい|"
            r"どれくらい|何倍|何度(?!も)|"
            r"何(?:年|日|時|週)間|何(?:か|ヶ|カ)月|"
            rf"(?:{_JA_MEASURE_NOUNS})(?:は|を|って)?(?:何|どれ|どの|いくら)?\w{{0,6}}[?？。]*\s*$"
        ),
    ),
    ("name", lazy(r"誰|だれ")),
]
_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_DATE = lazy(
    rf"\b(1\d{{3}}|20\d{{2}})s?\b|\b({_MONTHS})\b|\b\d+(st|nd|rd|th) century\b|"
    rf"\b({_WEEKDAYS})s?\b|\b([01]?\d|2[0-3]):[0-5]\d\b|"
    r"\d+\s*(年|月|日|世紀|年代|時(?!間))|(明治|大正|昭和|平成|令和)|(上旬|中旬|下旬|末期|初旬)|"
    r"[月火水木金土日]曜",
    re.I,
)
"""A date or a time: a year, a month, a century, a weekday, a clock time (``21:30``), and
their Japanese forms (年, 月, 日, 時, 曜日, era names)."""
_NUMBER = lazy(rf"\d|\b({_NUMBER_WORDS})\b|[一二三四五六七八九十百千万億]+", re.I)
_NAME = lazy(r"(?<!^)(?<![.!?]\s)\b[A-Z][\w'’-]+|[\u30A0-\u30FF]{2,}|[\u4E00-\u9FFF]{2,}")
_NEGATION = lazy(
    r"\b(not|no(?!\.?\s?\d)|never|none|nobody|nothing|nowhere|neither|nor|without|cannot|"
    r"fail(ed|s)?)\b|n't\b|"
    # 免れる: a verb of avoidance, its object did not happen (「浸水を免れた」: not flooded)
    r"(ない|なかった|(?<!過ぎ)(?<!すぎ)なくな|ず[、。に]|ません|ぬ|免れ|まぬが?れ)",
    re.I,
)


def normalise_text(text: str) -> str:
    """NFKC-normalise and lower-case (full-width digits and letters become ASCII)."""
    return unicodedata.normalize("NFKC", text).lower()


def split_sentences(text: str) -> list[str]:
    """Split text into sentences (English punctuation and Japanese 。！？).

    A full stop after a common abbreviation (``St.``, ``Mr.``, ``U.S.`` …) or a single
    capital letter (an initial) does not end a sentence. A Markdown list item (a line that
    starts with ``-``, ``*``, ``+``, ``•`` or ``・``) is read on its own, without its marker;
    an ordered list item (``1.`` …, as CommonMark starts and continues a list) on its own,
    with its number; a row of a Markdown table (under a header row and a ``| --- |`` rule)
    as its cells named by their columns, ``Boat: Sule; Type: single scull`` — the form a CSV
    row takes; a row of a table without a header as its cells, ``Sule; single scull``.
    """
    return [sentence for block in _blocks(text) for sentence in _prose_sentences(block)]


def _prose_sentences(text: str) -> list[str]:
    out: list[str] = []
    for piece in (p.strip() for p in _SENTENCE_END.split(text)):
        if not piece:
            continue
        if out and _ends_with_abbreviation(out[-1]):
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return [line for sentence in out for line in _lines_of_a_long_run(sentence)]


_LIST_ITEM = lazy(r"^[ \t]{0,3}(?:[-*+•][ \t]+|・[ \t]*)(?=\S)")
"""A list item's marker: a bullet and a space (``*Marta*`` at a line's start is emphasis)."""
_ORDERED_ITEM = lazy(r"^[ \t]{0,3}(\d{1,9})[.)][ \t]+(?=\S)")
"""An ordered list item's marker, kept with its text: the number says which step it is."""
_TABLE_ROW = lazy(r"^[ \t]*\|.*\|[ \t]*$")
_TABLE_RULE = lazy(r"^[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|)+[ \t]*(?::?-{3,}:?[ \t]*)?$")


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def _table_rows(lines: list[str], i: int, blocks: list[str]) -> int:
    """The rows of the table whose header is line ``i`` as blocks; the index after it."""
    header = _cells(lines[i])
    i += 2
    while i < len(lines) and _TABLE_ROW.match(lines[i]):
        pairs = zip(header, _cells(lines[i]), strict=False)
        named = (f"{name}: {cell}" if name else cell for name, cell in pairs if cell)
        blocks.append("; ".join(named))
        i += 1
    return i


_Q_LINE = lazy(
    r"^\s*(?:\*\*|__)?\s*(?:Q\d*|質問|問)\s*\d*\s*[:：.．、]\s*(?:\*\*|__)?\s*"
    r"(?P<q>.+?[?？])\s*(?:\*\*|__)?\s*$"
)
"""A line labelled as a question: ``Q: When do you meet?``, ``**Q1. …?**``, 「Q：…？」."""
_BOLD_QUESTION = lazy(r"^\s*(\*\*|__)\s*(?P<q>[^*_]+?[?？])\s*\1\s*$")
"""A line that is one question in bold: ``**How much is shipping?**``."""


def question_line(line: str) -> str | None:
    """The question a line of its own asks as a heading of what follows, or ``None``.

    An FAQ writes its questions as headings or as lines of their own: labelled
    (``Q: When do you meet?``, 「Q：何歳から参加できますか？」) or wholly in bold
    (``**How much is shipping?**``). Such a line asks, it states nothing.
    """
    match = _Q_LINE.match(line) or _BOLD_QUESTION.match(line)
    return match.group("q").strip() if match else None


def list_item_number(line: str) -> int | None:
    """The number of an ordered list item that opens ``line`` ("2. Pick the date" → 2)."""
    match = _ORDERED_ITEM.match(line)
    return int(match.group(1)) if match else None


def _ordered_items(lines: list[str]) -> set[int]:
    """Indices of the lines that are ordered list items, as CommonMark reads them.

    A list starts after a blank line (or the text's start), or with ``1.`` anywhere — only
    a list starting at 1 may interrupt a paragraph — and goes on while its items follow one
    another; so a line "2. Diatomic …" right under a paragraph's line "O" (a subscript the
    text lost) stays in its paragraph.
    """
    found: set[int] = set()
    for i, line in enumerate(lines):
        number = list_item_number(line)
        if number is not None and (
            number == 1 or i == 0 or not lines[i - 1].strip() or i - 1 in found
        ):
            found.add(i)
    return found


def _blocks(text: str) -> list[str]:
    """``text`` cut before and after its list items and tables (unchanged without them)."""
    lines = text.split("\n")
    ordered = _ordered_items(lines)
    if not ordered and not any(_LIST_ITEM.match(line) or _TABLE_ROW.match(line) for line in lines):
        return [text]
    blocks: list[str] = []
    current: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        table = _TABLE_ROW.match(line) and i + 1 < len(lines) and _TABLE_RULE.match(lines[i + 1])
        item = _LIST_ITEM.match(line)
        if table or item or i in ordered or not line.strip():
            blocks.append("\n".join(current))
            current = []
        if table:
            i = _table_rows(lines, i, blocks)
            continue
        if _TABLE_ROW.match(line):  # a row of a table without a header: its cells
            blocks.extend(["\n".join(current), "; ".join(c for c in _cells(line) if c)])
            current = []
            i += 1
            continue
        if item:
            line = line[item.end() :]
        if line.strip():
            current.append(line)
        i += 1
    blocks.append("\n".join(current))
    return [block for block in blocks if block.strip()]


LONG_RUN_CHARS = 500
"""A "sentence" longer than this that spans lines (headings, list items, table rows without
full stops) is split into its lines, so no answer quotes a whole block."""


def _lines_of_a_long_run(sentence: str) -> list[str]:
    if len(sentence) <= LONG_RUN_CHARS or "\n" not in sentence:
        return [sentence]
    return [line.strip() for line in sentence.split("\n") if line.strip()]


def _ends_with_abbreviation(sentence: str) -> bool:
    if not sentence.endswith("."):
        return False
    if sentence[:-1].isdigit():  # an ordered list item's number: "1." and its text
        return True
    last = sentence.rsplit(maxsplit=1)[-1].rstrip(".").lstrip("(\"'").lower()
    return last in _ABBREVIATIONS or (len(last) == 1 and last.isalpha())


def key_terms(text: str) -> set[str]:
    """Names, numbers and kanji / katakana runs: terms a passage must share to be on topic."""
    terms = set()
    text = unicodedata.normalize("NFKC", text)
    for match in (_ASCII_KEY_TERM if text.isascii() else _KEY_TERM).findall(text):
        term = match.strip(".,'’")
        if term.startswith("何") or term in _JA_QUESTION_WORDS:
            continue
        if term and term not in _QUESTION_OPENERS and not term.endswith("'s"):
            terms.add(term.lower())
        elif term.endswith("'s") and len(term) > 3:
            terms.add(term[:-2].lower())
    return terms


def answer_type(question: str) -> AnswerType | None:
    """The kind of answer the question word asks for, or ``None`` when it does not say."""
    text = unicodedata.normalize("NFKC", question).strip()
    for name, pattern in _EN_TYPE if text.isascii() else _JA_TYPE:
        if pattern.search(text):
            return name
    return None


_MEASURE_UNITS: dict[Measure, LazyPattern] = {
    "length": lazy(
        r"\d\s*(?:km|m|cm|mm|ft|in)\b|\b(?:(?:kilo|centi|milli)?met(?:re|er)s?|miles?|feet|"
        r"foot|inch(?:es)?|yards?)\b|キロメートル|メートル|ミリ|センチ|マイル|キロ(?!グラム)",
        re.I,
    ),
    "duration": lazy(
        r"\b(?:years?|months?|weeks?|days?|hours?|minutes?|seconds?|decades?|centuries)\b|"
        r"年間|か月|ヶ月|カ月|週間|日間|時間|分間|秒",
        re.I,
    ),
    "mass": lazy(
        r"\d\s*(?:kg|g|t|lb|lbs)\b|\b(?:kilograms?|grams?|tonnes?|tons?|pounds?|ounces?)\b|"
        r"キログラム|グラム|トン",
        re.I,
    ),
    "money": lazy(
        r"[$€£¥₩]|\b(?:dollars?|euros?|pounds?|yen|kroner|krona|kronor|francs?|marks?|cents?|"
        r"rupees?|shillings?|pence|penny|guineas?|crowns?|florins?|ducats?|"
        r"guilders?|thalers?|lire|lira|pesos?|r[ou]bles?|yuan|dinars?|zloty|forints?|"
        r"price|prices|cost|costs|fee|fees)\b|円|ドル|ユーロ|ポンド",
        re.I,
    ),
    "age": lazy(r"\b(?:years? old|aged?)\b|歳|才", re.I),
    "area": lazy(
        r"\b(?:square|sq|acres?|hectares?|km2|km²|m²)\b|平方|ヘクタール|エーカー", re.I
    ),
    "speed": lazy(
        r"\d\s*(?:km/h|kph|mph|m/s|knots?|kn)\b|\b(?:(?:kilo)?met(?:re|er)s? (?:per|an|a) "
        r"(?:hour|second)|miles? (?:per|an) hour|knots?)\b|時速|秒速|分速|ノット|キロ毎時",
        re.I,
    ),
    "data": lazy(
        r"\d\s*(?:[KMGTP]i?B|kB)\b|\b(?:(?:kilo|mega|giga|tera|peta)?bytes?)\b|"
        r"(?:キロ|メガ|ギガ|テラ)バイト",
        re.I,
    ),
    "temperature": lazy(
        r"°|℃|℉|\bdegrees?\b|\bkelvin\b|\d\s*度|摂氏|華氏", re.I
    ),
    # how many times in a span ("once a month", "3 times a day"), every span ("every
    # Saturday"), an adverb of it ("weekly"); 「月に一度」「年2回」「毎週」
    "frequency": lazy(
        r"\b(?:once|twice|thrice|\w+ times)\s+(?:a|an|per|each|every)\s+\w+|"
        r"\bevery\s+(?:\w+\s+)?(?:minute|hour|day|night|morning|evening|week|fortnight|month|year|"
        rf"season|term|{_WEEKDAYS})s?\b|"
        r"\b(?:hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|yearly|annually)\b|"
        r"毎(?:日|週|月|年|朝|晩|時)|(?:年|月|週|日)に?\s*(?:\d+|[一二三四五六七八九十]+)\s*(?:回|度)",
        re.I,
    ),
}
"""Units (and words) that say what a number measures."""
_EN_MEASURE: list[tuple[tuple[Measure, ...], LazyPattern]] = [
    (("length", "duration"), lazy(r"\bhow long\b", re.I)),
    # "how far in advance / ahead / back" asks for a time before, not a distance
    (("duration",), lazy(r"\bhow far(?= (?:in advance|ahead|back)\b)", re.I)),
    (
        ("length",),
        lazy(
            r"\bhow (?:far(?! (?:in advance|ahead|back)\b)|tall|high|deep|wide)\b|"
            r"\b(?:length|height|distance)\b",
            re.I,
        ),
    ),
    (("mass",), lazy(r"\bhow heavy\b|\bweigh", re.I)),
    (
        ("money",),
        lazy(
            r"\b(?:cost|costs|price|fee|fees|pay|paid|charge|charged|worth)\b|"
            r"\bwhat (?:sum|salary)\b",
            re.I,
        ),
    ),
    # "how much is admission?": a copula right after "how much" asks for a price (a noun
    # after it asks for an amount of that: "how much salt is needed")
    (("money",), lazy(r"\bhow much(?= (?:is|are|was|were|for)\b)", re.I)),
    (("age",), lazy(r"\bhow old\b", re.I)),
    (("area",), lazy(r"\bhow (?:large|big) an? area\b|\barea\b", re.I)),
    # a size, of whatever kind: "How big is the garden?" (twelve hectares), a file's (2 GB)
    (
        ("area", "length", "mass", "data"),
        lazy(r"\bhow (?:large|big)\b(?! an? area)", re.I),
    ),
    (("speed",), lazy(r"\bhow fast\b|\b(?:speed|velocity)\b", re.I)),
    (("temperature",), lazy(r"\bhow (?:hot|cold|warm)\b|\btemperatures?\b", re.I)),
    (("frequency",), lazy(r"\bhow often\b", re.I)),
]
_JA_MEASURE: list[tuple[tuple[Measure, ...], LazyPattern]] = [
    (("length",), lazy(r"長さ|距離|全長|延長|高さ|標高|深さ|幅|寸法")),
    (("duration",), lazy(r"期間|何年間|何(?:か|ヶ|カ)月|何週間|何日間|何時間")),
    (("mass",), lazy(r"重さ|重量")),
    # a priced noun asks for money without naming the measure: matched empty, it is no
    # measure word a value says (:func:`measure_words`)
    (("money",), lazy(rf"値段|価格|料金|費用|いくら(?!でも|も)|(?=(?:{_JA_PRICED}))")),
    (("age",), lazy(r"年齢|何歳")),
    (("area",), lazy(r"面積|広さ")),
    (("area", "length", "mass", "data"), lazy(r"大きさ|容量|サイズ")),
    (("speed",), lazy(r"速さ|速度|時速")),
    (("temperature",), lazy(r"温度|気温|水温|体温")),
]


@lru_cache(maxsize=4096)
def _measure_matches(question: str) -> tuple[tuple[int, tuple[Measure, ...], str], ...]:
    """Where a number question names its measure: (table row, its measures, the words)."""
    if answer_type(question) != "number":
        return ()
    text = unicodedata.normalize("NFKC", question)
    table = _EN_MEASURE if text.isascii() else _JA_MEASURE
    return tuple(
        (row, measures, m.group(0))
        for row, (measures, pattern) in enumerate(table)
        for m in pattern.finditer(text)
    )


_HOW_FRAME = lazy(r"\bhow (much|many|often)\b", re.I)


def quantity_words(question: str) -> tuple[str, ...]:
    """The word after *how* that asks for a quantity, a count or a frequency ("much").

    It frames the answer, as "when" does: any sentence that states a number says it ("How
    much salt is needed?" is answered by "10 g salt").
    """
    return tuple(m.group(1).lower() for m in _HOW_FRAME.finditer(question))


_LIFESPAN = lazy(r"\([^()]*?\d{3,4}\s*(?:年)?\s*[–—-]\s*[^()]*?\d{3,4}\s*(?:年)?[^()]*\)")
"""A lifespan in parentheses after a name: "Hedda Marlowe (1871–1939)", "(22 February 1810 –
17 October 1849)", 「（1871年 - 1939年）」."""
_LIFE_WORDS = lazy(
    r"\b(?:born|birth|die|died|dies|death)\b|(?:生まれ|亡くな|誕生|生年|没|死去|死亡)[るれりっただしまてす]{0,4}"
)


def life_words(question: str) -> tuple[str, ...]:
    """The words of a question that ask for a birth or a death ("born", "die", 「亡くなった」).

    A lifespan states them (:func:`states_lifespan`).
    """
    return tuple(m.group(0) for m in _LIFE_WORDS.finditer(unicodedata.normalize("NFKC", question)))


def states_lifespan(sentence: str) -> bool:
    """Whether ``sentence`` gives a lifespan in parentheses ("Hedda Marlowe (1871–1939)").

    The parenthesised years after a name are the person's birth and death: "When did Hedda
    Marlowe die?" is answered by "Hedda Marlowe (1871–1939) was a …".
    """
    return _LIFESPAN.search(unicodedata.normalize("NFKC", sentence)) is not None


ENGLISH_WORD = lazy(r"[^\W\d_]+(?:['’][^\W\d_]+)?|\d[\d,]*(?:\.\d+)?", re.UNICODE)
"""A word (with an apostrophe's ending) or a number of a text."""
ENGLISH_STOPWORDS: frozenset[str] = frozenset(
    """
    a about above after again against all am an and any are aren't as at be because been
    before being below between both but by can can't cannot could couldn't did didn't do does
    doesn't doing don't down during each few for from further had hadn't has hasn't have
    haven't having he he'd he'll he's her here here's hers herself him himself his how how's
    i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most mustn't my
    myself no nor not of off on once only or other ought our ours ourselves out over own same
    shan't she she'd she'll she's should shouldn't so some such than that that's the their
    theirs them themselves then there there's these they they'd they'll they're they've this
    those through to too under until up very was wasn't we we'd we'll we're we've were
    weren't what what's when when's where where's which while who who's whom why why's with
    won't would wouldn't you you'd you'll you're you've your yours yourself yourselves
    s t d ll m o re ve y also
    """.split()
)
"""Snowball's English stopword list (question words included) plus clitic fragments."""

WH_HEADS = frozenset({"what", "which", "whose"})
"""Question words that head a noun phrase naming the answer's class."""


def answer_class_indices(words: list[str]) -> set[int]:
    """Positions of the noun phrase (up to three words) right after *what* / *which* / *whose*.

    ``words``: a question's lower-cased words (:data:`ENGLISH_WORD`). The phrase names the
    class of the answer ("which *grind step*", "what *year*"), not a fact the answer's
    sentence must state; a stopword or a number ends it.
    """
    framed: set[int] = set()
    heading = 0
    for i, word in enumerate(words):
        if word in WH_HEADS:
            heading = 3
        elif word in ENGLISH_STOPWORDS or word[:1].isdigit():
            heading = 0
        elif heading:
            heading -= 1
            framed.add(i)
    return framed


def measure_words(question: str) -> tuple[str, ...]:
    """The words of a number question that name what it asks for ("cost", "far", 「長さ」).

    They name the asked slot, as "when" does: a sentence that states a value of that measure
    ("Parking is free", "stands 1.4 kilometres from the pier") says them.
    """
    return tuple(words for _, _, words in _measure_matches(question) if words)


def named_measures(text: str) -> frozenset[str]:
    """The Japanese measure nouns ``text`` names (「全長」, 「標高」, 「料金」), in any sentence.

    A sentence that names one the question does not, and not the question's own, gives its
    value as that dimension: 「標高1,742メートル」 is a height, not the 「全長」 a question
    asks for (:func:`grace.scoring.sentence_check.check_sentence`).
    """
    normal = unicodedata.normalize("NFKC", text)
    found = {m.group(0) for _, pattern in _JA_MEASURE for m in pattern.finditer(normal)}
    return frozenset(found - {""})


def answer_measures(question: str) -> tuple[Measure, ...]:
    """What a number question measures ("how far" → length, 「長さ」 → length), or ``()``.

    Only for questions that ask for a number (:func:`answer_type`): a sentence that states a
    number in another unit (a count of lines for 「路線の長さ」) does not answer them.
    """
    rows = {row: measures for row, measures, _ in _measure_matches(question)}  # a row once
    return tuple(m for measures in rows.values() for m in measures)


def states_measure(sentence: str, measures: tuple[Measure, ...]) -> bool:
    """Whether ``sentence`` states a number with a unit of one of ``measures``."""
    text = unicodedata.normalize("NFKC", sentence).replace("_", " ")  # price_kroner: a column
    if "duration" in measures and _ONE_SPAN.search(text):
        return True  # "almost a month": the article is the number one
    if "money" in measures and _NO_PRICE.search(text):
        return True  # "Parking is free": a price of nothing
    if "frequency" in measures and _MEASURE_UNITS["frequency"].search(text):
        return True  # "once a month", "weekly": a count of times without a digit
    if not _NUMBER.search(text):
        return False
    return any(_MEASURE_UNITS[m].search(text) for m in measures)


_UNIT_AFTER = lazy(r"\d[\d,.]*(?:\s*-\s*|\s*)(?:[^\W\d_][\w'-]*|[^\x00-\x7f]{1,4})?")
"""A number and the word (or up to four Japanese characters) after it: its unit, if any."""


def without_other_measures(sentence: str, measures: tuple[Measure, ...]) -> str:
    """``sentence`` with each value of a measure other than ``measures`` blanked.

    "a pool measuring 75 feet by 30 feet" holds no price: a number whose unit is another
    measure's (:data:`_MEASURE_UNITS`) is no value of the asked one; a unit that is also one
    of ``measures``' ("75 pounds": money or mass) keeps its number.
    """
    own = [_MEASURE_UNITS[m] for m in measures]
    others = [p for m, p in _MEASURE_UNITS.items() if m not in measures and m != "frequency"]

    def blank(match: re.Match[str]) -> str:
        span = match.group(0)
        if any(p.search(span) for p in own) or not any(p.search(span) for p in others):
            return span
        return " "

    return _UNIT_AFTER.sub(blank, sentence)


_EN_COUNTED = lazy(r"\bhow many ([a-z]{3,})\b", re.I)
_JA_COUNTED = lazy(
    r"何(人|名|種類|個|回|倍|か国|カ国|ヶ国|校|社|冊|台|本|枚|匹|頭|羽|隻|機|階|件|試合|作品|曲)"
)
"""The counted noun of a count question: "how many *layers*", 「何*人*」 (a counter)."""
_COUNT_WORDS = (
    "two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
    "sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|"
    "ninety|hundred|thousand|million|billion|dozen|dozens|hundreds|thousands|millions"
)
_EN_COUNT = lazy(
    rf"(?:\d[\d,.]*|\b(?:{_COUNT_WORDS})\b)[\s-]+((?:[\w'-]+\s+){{0,2}}[\w'-]+)", re.I
)
"""A number and the (up to three) words after it: what it counts ("seven-layer protocol")."""
_TIMES = lazy(r"\b(?:twice|thrice)\b", re.I)
"""A count of times said in one word."""
_JA_NUMERAL = r"(?:[\d.,]+|[一二三四五六七八九十百千万億数]+)"


def counted_noun(question: str) -> str | None:
    """The noun a count question counts ("how many layers" → ``layers``, 「何人」 → 人)."""
    text = unicodedata.normalize("NFKC", question)
    if text.isascii():
        m = _EN_COUNTED.search(text)
        return m.group(1).lower() if m else None
    m = _JA_COUNTED.search(text)
    return m.group(1) if m else None


def counts(sentence: str, counted: str) -> list[str]:
    """The words right after each number of ``sentence`` (English: the three after it).

    "Twice" and "thrice" count "times". Japanese: the counters after each numeral, when
    ``counted`` follows one (「3人」): the caller compares English words in its own word forms.
    """
    text = unicodedata.normalize("NFKC", sentence)
    if not counted.isascii():
        return [counted] if re.search(_JA_NUMERAL + re.escape(counted), text) else []
    found = [m.group(1) for m in _EN_COUNT.finditer(text)]
    return found + ["times"] * len(_TIMES.findall(text))  # "renewed twice": two times


_NO_PRICE = lazy(
    r"\b(?:free(?: of charge)?|no charge|at no cost|without charge)\b|無料|無償|"
    r"\bpays?\s+(?:half|double|twice|a third|a quarter)\b|\b(?:half|double)[- ]price\b|半額",
    re.I,
)
"""A price without a number: nothing ("free", "free of charge", 「無料」) or a share of
another ("pay half", "half price", 「半額」)."""
_ONE_SPAN = lazy(
    r"\b(?:a|an)\s+(?:(?:few|couple of)\s+)?(?:year|month|week|day|hour|minute|decade|century)s?\b",
    re.I,
)
"""A duration counted by the article ("a month", "an hour", "a few weeks")."""


def typed_candidates(sentence: str, kind: AnswerType, question: str = "") -> list[str]:
    """Spans of ``sentence`` of the answer type that do not already occur in ``question``.

    A name is a capitalised word (a kanji or katakana run), the agent of a passive clause,
    which answers "who" though it is a common noun ("The club was founded in 1964 *by three
    dock workers*"), or the common-noun subject of the very predicate a "who" question asks
    about ("Who can restore a backup?": "Only *the account owner* can restore a backup") —
    not for a question that asks who someone *is* ("Who is the mayor?" asks for a name,
    not for "an elected council" by which a city is governed).
    """
    pattern = {"date": _DATE, "number": _NUMBER, "name": _NAME}[kind]
    text = unicodedata.normalize("NFKC", sentence)
    asked = normalise_text(question)
    spans = [m.group(0) for m in pattern.finditer(text)]
    if kind == "name" and not _asks_identity(question):
        if _PASSIVE.search(text):
            spans += [m.group(1) for m in _AGENT.finditer(text)]
        predicate = _asked_predicate(question)
        if predicate:
            spans += [m.group(1) for m in _subject_before(predicate).finditer(text.lower())]
    return [span.strip() for span in spans if span.strip() and span.strip().lower() not in asked]


@lru_cache(maxsize=4096)
def _asks_identity(question: str) -> bool:
    """Whether the question asks who someone *is* (:data:`_WHO_IDENTITY`)."""
    return _WHO_IDENTITY.match(unicodedata.normalize("NFKC", question)) is not None


@lru_cache(maxsize=4096)
def _asked_predicate(question: str) -> tuple[str, ...]:
    """The predicate a subject "who" question asks about; ``()`` when it asks none.

    "Who can restore a backup?" asks for the subject of "can restore"; a sentence that says
    "Only the account owner can restore a backup" names it with a common noun. The predicate
    is the question's first word after "who" (with the next one after an auxiliary); a
    copula followed by a determiner ("Who was the first …") asks for an identity, not a
    subject, and is left out.
    """
    asked = _WHO_PREDICATE.match(unicodedata.normalize("NFKC", question))
    if asked is None:
        return ()
    words = asked.group(1).lower().split()
    predicate = words[:2] if words[0] in _AUXILIARIES and len(words) > 1 else words[:1]
    return () if predicate[-1] in _DETERMINERS else tuple(predicate)


@lru_cache(maxsize=256)
def _subject_before(predicate: tuple[str, ...]) -> re.Pattern[str]:
    """A common noun phrase right before the words of ``predicate``."""
    return re.compile(r"\b" + _COMMON_NP + r"\s+" + r"\s+".join(map(re.escape, predicate)) + r"\b")


_PASSIVE = lazy(
    r"\b(?:was|were|is|are|been|be|being)\s+(?:[a-z]+ly\s+)?"
    r"[a-z]+(?:ed|en|wn|lt|de|ght|nt|pt|id|ung|ld)\b"
)
"""A passive verb: a form of *be* and a past participle ("was founded", "were built")."""
_DETERMINERS = frozenset(
    "the a an its their his her our your two three four five six seven eight nine ten "
    "several many some".split()
)
_NOT_AUX = r"(?!(?:is|are|was|were|be|been|has|have|had|can|could|will|would|must|may|did|does)\b)"
_COMMON_NP = (
    r"((?:" + "|".join(sorted(_DETERMINERS)) + r"|\d+)\s+"
    r"(?:" + _NOT_AUX + r"[a-z][\w'-]*\s+){0,2}" + _NOT_AUX + r"[a-z][\w'-]*)"
)
"""A noun phrase opened by a determiner or a number: "the municipality", "three dock workers"."""
_AGENT = lazy(r"\bby\s+" + _COMMON_NP)
"""The agent of a passive clause named by a common noun: "by the municipality"."""
_WHO_IDENTITY = lazy(r"^\s*who\s+(?:is|was|are|were)\s+(?:the|a|an)\b", re.I)
"""A question that asks who someone is ("Who is the mayor?"): a name answers it."""
_WHO_PREDICATE = lazy(r"^\s*who\s+((?:[a-z][\w'-]*\s*){1,2})", re.I)
"""A subject "who" question's first words: its predicate ("Who *can restore* a backup?")."""
_AUXILIARIES = frozenset(
    "can could will would shall should may might must is are was were has have had does do did"
    .split()
)


_EN_YES_NO = lazy(
    r"^\s*(is|are|was|were|did|does|do|can|could|has|have|had|will|would|should)\b", re.I
)


def is_yes_no_question(question: str) -> bool:
    """Whether an English question asks yes or no (it opens with an auxiliary: "Is …", "Did …")."""
    return bool(_EN_YES_NO.match(unicodedata.normalize("NFKC", question)))


_JA_TOPIC_QUESTION = lazy(
    r"は(?:誰|だれ|どこ|何|なに|どれ)?(?:なの|です)?(?:か|でしょうか)?[？?。.]?\s*$"
)


def asks_for_the_topic(question: str) -> bool:
    """Whether a Japanese question ends on its topic particle: it asks what the topic is.

    「…のは？」「…のはどこか」「…県は？」: in this cleft the asked value is what the clause
    before は is said of — its subject — so a sentence that states the clause with its subject
    left out (a zero subject) leaves the answer to its context.
    """
    q = unicodedata.normalize("NFKC", question)
    return is_japanese(q) and _JA_TOPIC_QUESTION.search(q) is not None


def is_negated(text: str) -> bool:
    """Whether ``text`` contains a negation word (English or Japanese)."""
    return bool(_NEGATION.search(unicodedata.normalize("NFKC", text)))


def _poles(*poles: str) -> tuple[frozenset[str], ...]:
    return tuple(frozenset(p.split()) for p in poles)


_CONTRAST_SETS: tuple[tuple[frozenset[str], ...], ...] = (
    _poles("first", "second", "third", "fourth", "fifth", "last final"),
    _poles("oldest", "newest youngest"),
    _poles("earliest", "latest"),
    _poles("largest biggest", "smallest"),
    _poles("longest", "shortest"),
    _poles("highest tallest", "lowest"),
    _poles("high", "low"),
    _poles("most", "least"),
    _poles("maximum", "minimum", "average"),
    _poles("north northern", "south southern", "east eastern", "west western"),
    _poles("warm warmer warmest hot hotter hottest", "cold colder coldest cool cooler coolest"),
    _poles("open opens opened opening", "close closes closed closing"),
    _poles("begin begins began start starts started", "end ends ended finish finished"),
    _poles("before preceding", "after following"),
    _poles(
        "increase increased increases rise rose risen", "decrease decreased decreases fall fell"
    ),
    _poles("win wins won", "lose loses lost"),
    _poles("import imports imported", "export exports exported"),
    _poles("undergraduate undergraduates", "postgraduate postgraduates"),
    _poles("inside", "outside"),
    _poles("upper", "lower"),
    _poles("inner", "outer"),
    _poles("above", "below"),
    _poles("over", "under"),
    _poles("male men", "female women"),
    _poles("favour favor", "against"),
    _poles("aunt aunts uncle uncles", "niece nieces nephew nephews"),
    _poles("grandfather grandmother grandparents", "grandson granddaughter grandchildren"),
    _poles("father mother parents", "son sons daughter daughters children"),
    _poles("teacher teachers tutor", "pupil pupils student students"),
    _poles("predecessor predecessors", "successor successors"),
    _poles("morning mornings", "afternoon afternoons", "evening evenings", "night nights"),
    _poles("spring", "summer summers", "autumn autumns", "winter winters"),
)
"""Closed sets of mutually exclusive words (each member a set of word forms)."""
_WORD = lazy(r"[a-z]+")
_RANKED_SUPERLATIVE = lazy(
    r"\b(second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)[- ]([a-z]+est)\b"
)
"""An ordinal before a superlative: "second-largest", "third highest"."""


def agrees(question: str, sentence: str) -> bool:
    """Whether the sentence states each closed-set word the question uses ("before", "last").

    The same sets as :func:`contrasts`: "Which ship was used *before* the Skarv?" is about
    the sentence that says "Before the Skarv, …", not one that only names the Skarv. True
    when the question uses none; English only (Japanese: True).
    """
    asked = _asked_poles(question)
    if not asked:
        return True
    s_words = set(_WORD.findall(normalise_text(sentence)))
    return all(pole & s_words for pole in asked)


@lru_cache(maxsize=4096)
def _question_words(question: str) -> frozenset[str]:
    """The lower-case English words of a question (read once for all its sentences)."""
    return frozenset(_WORD.findall(normalise_text(question)))


@lru_cache(maxsize=4096)
def _asked_poles(question: str) -> tuple[frozenset[str], ...]:
    """The members of :data:`_CONTRAST_SETS` the question uses."""
    q_words = _question_words(question)
    return tuple(pole for poles in _CONTRAST_SETS for pole in poles if pole & q_words)


_CLOSED_SET_WORDS = frozenset(word for poles in _CONTRAST_SETS for pole in poles for word in pole)


def in_closed_set(text: str) -> bool:
    """Whether ``text`` uses a word of one of :func:`contrasts`' closed sets ("before", "east").

    A text that uses none has no opposite of those sets: the readings that pair a word with
    its opposite word by word skip every other word at once.
    """
    return bool(_question_words(text) & _CLOSED_SET_WORDS)


def contrasts(question: str, sentence: str) -> list[str]:
    """Question words the sentence contradicts with another member of the same closed set.

    A word counts when the question uses it, the sentence does not, and the sentence uses
    another member of its set that the question does not ("last" asked, "first" stated).
    A superlative the sentence ranks ("the *second-largest* city") is not the superlative
    asked ("the largest city"). Returns ``"asked≠stated"`` strings; English only.
    """
    q_words = _question_words(question)
    s_words = set(_WORD.findall(normalise_text(sentence)))
    out = [
        f"{m.group(2)}≠{m.group(1)}-{m.group(2)}"
        for m in _RANKED_SUPERLATIVE.finditer(normalise_text(sentence))
        if m.group(2) in q_words and m.group(1) not in q_words
    ]
    for poles in _CONTRAST_SETS:
        asked = [p for p in poles if p & q_words]
        stated = [p for p in poles if p & s_words]
        for pole in asked:
            if pole in stated:
                continue
            others = [p for p in stated if p not in asked]
            if others:
                out.append(f"{min(pole & q_words)}≠{min(others[0] & s_words)}")
    return out


_DIGITS = lazy(r"\d+(?:[.,]\d+)*")
_ROLE_WORD = lazy(r"[^\W\d_]+", re.UNICODE)


_YEAR = lazy(r"^(1\d{3}|20\d{2})$")
_FUNCTION_WORDS = frozenset(
    "a an the in on at of by to from for since until after before about around over under "
    "and or than nearly almost some".split()
)
_MONTH_NAMES = frozenset(_MONTHS.split("|"))
_CYCLES = (tuple(_MONTHS.split("|")), tuple(_WEEKDAYS.split("|")))
_CALENDAR_NAMES = frozenset(_CYCLES[0] + _CYCLES[1])
_RANGE = lazy(
    rf"\b(?P<first>{_MONTHS}|{_WEEKDAYS})s?\s*(?:to|until|till|through|thru|-|–|—)\s*"
    rf"(?P<last>{_MONTHS}|{_WEEKDAYS})s?\b|"
    rf"\bbetween\s+(?P<after>{_MONTHS}|{_WEEKDAYS})s?\s+and\s+(?P<before>{_MONTHS}|{_WEEKDAYS})s?\b",
    re.I,
)
"""A range of months or weekdays: "November to March", "Monday–Friday", "between November
and February"."""


_WEEK_PARTS = dict.fromkeys(("saturday", "sunday"), lazy(r"\bweekends?\b", re.I)) | (
    dict.fromkeys(
        ("monday", "tuesday", "wednesday", "thursday", "friday"),
        lazy(r"\bweekdays?\b", re.I),
    )
)
"""The days a part of the week names: "closed at weekends" says Saturday."""


def calendar_words(text: str) -> tuple[str, ...]:
    """The month and weekday names of ``text``, lower-cased, in order ("december")."""
    return tuple(w for w in re.findall(r"[a-z]+", text.lower()) if w in _CALENDAR_NAMES)


def in_stated_range(term: str, text: str) -> bool:
    """Whether ``text`` states a range of months or weekdays that holds ``term``.

    "December" is said by "closed from November to March" (or "between November and March"),
    "Wednesday" by "open Monday to Friday": a range names the months or days between its
    ends, around the year or the week; "weekends" names Saturday and Sunday, "weekdays"
    Monday to Friday.
    """
    term = term.lower()
    part = _WEEK_PARTS.get(term)
    if part is not None and part.search(text):
        return True
    for cycle in _CYCLES:
        if term not in cycle:
            continue
        for m in _RANGE.finditer(text):
            first = (m.group("first") or m.group("after")).lower()
            last = (m.group("last") or m.group("before")).lower()
            if first in cycle and last in cycle:
                i, j, k = cycle.index(first), cycle.index(last), cycle.index(term)
                if (k - i) % len(cycle) <= (j - i) % len(cycle):
                    return True
    return False


def _names_a_thing(text: str, start: int, number: str) -> bool:
    """Whether the number is an identifier (the word before it names what it numbers).

    "item number 7", "Route 9", 「第7号」 — not a year, a date's day or a count after a
    preposition.
    """
    if _YEAR.match(number):
        return False
    before = _ROLE_WORD.findall(text[max(0, start - 30) : start])
    if not before:
        return False
    word = before[-1]
    if is_japanese(word):
        return bool(word.endswith("第"))
    return word not in _FUNCTION_WORDS and word not in _MONTH_NAMES


def number_role_mismatch(question: str, sentence: str, *, identifiers_only: bool = False) -> float:
    """1.0 when a number of the question appears in the sentence only in another role.

    A number the question ties to a word ("item number 7", "7 grams", 「第7号」) that the
    sentence holds next to other words only ("… weighs 7 grams" for "item number 7") is the
    same digits in a different role: the sentence is about something else. 0.0 when every
    such number keeps a neighbour, or when the question has none the sentence contains.
    With ``identifiers_only``, only numbers the question uses as an identifier count
    (:func:`_names_a_thing`): a year or a count is often worded around differently.
    """
    q_text, s_text = normalise_text(question).lower(), normalise_text(sentence).lower()
    mismatched = False
    for match in _DIGITS.finditer(q_text):
        number = match.group()
        if identifiers_only and not _names_a_thing(q_text, match.start(), number):
            continue
        q_near = _neighbours(q_text, match.start(), match.end())
        places = [m for m in _DIGITS.finditer(s_text) if m.group() == number]
        if not places or not q_near:
            continue
        if not any(q_near & _neighbours(s_text, m.start(), m.end()) for m in places):
            mismatched = True
    return 1.0 if mismatched else 0.0


def _neighbours(text: str, start: int, end: int) -> set[str]:
    """The word before and the word after a span (Japanese: the two characters either side)."""
    before = _ROLE_WORD.findall(text[max(0, start - 30) : start])
    after = _ROLE_WORD.findall(text[end : end + 30])
    near = {w for w in (before[-1:] + after[:1]) if len(w) > 1 or is_japanese(w)}
    if is_japanese(text[max(0, start - 2) : end + 2]):
        near |= {text[max(0, start - 2) : start], text[end : end + 2]} - {""}
    return near
