"""The offline reader on a new user's own documents (issue 42, misses found by asking).

Each test is a small fixture written for one miss — a shop, a club's rules, a company page —
and the question a user would ask of it; the reader's answer (final or the draft a person
reviews) quotes the sentence that states the fact. Levels are the confidence model's call.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grace.providers.offline.context import passage_context, refers_back, sentence_subject
from grace.providers.offline.evidence import (
    CONTEXT_WEIGHT,
    asked_tokens,
    assess,
    kanji_stems,
    measured_noun,
    now_words,
    states_present,
)
from grace.providers.offline.reader import ExtractiveReader
from grace.providers.offline.tables import extreme_rows, row_cells, superlative
from grace.retrieval.ingest import load_document, split_paragraphs
from grace.schemas import Source
from grace.text import answer_measures, answer_type, key_terms, measure_words, states_measure

CLUB_RULES = (
    "練習は毎週土曜日の午前9時から正午までです。遅刻する場合は、事前にキャプテンに連絡して"
    "ください。雨天の場合は練習を中止します。"
)


def _passages(*texts: str, title: str = "") -> list[Source]:
    return [
        Source(source_id=f"S{i}", source=f"doc{i}.md", title=title or f"doc{i}",
               text=text, score=0.8)
        for i, text in enumerate(texts, start=1)
    ]


# ------------------------------------------------ question words and how-to frames (Japanese)


def test_the_modal_frame_of_a_how_to_question_is_not_a_term() -> None:
    """「どうすればいい」 asks for a course of action: its いい is not *good*."""
    assert asked_tokens("遅刻したらどうすればいいですか？") == {"遅刻"}
    assert asked_tokens("退会するにはどうしたらいいですか？") == {"退会"}
    assert "遣る" not in asked_tokens("どうやって申し込みますか？")
    assert "良い" in asked_tokens("良い点は何ですか？")  # the adjective itself is asked
    assert "誰" in asked_tokens("社長は誰ですか？")  # other question words are unchanged


def test_a_how_to_question_is_answered_by_the_rule_that_states_its_case() -> None:
    answer = ExtractiveReader().answer("遅刻したらどうすればいいですか？", _passages(CLUB_RULES))
    assert not answer.abstained
    assert "キャプテンに連絡" in answer.text


def test_an_english_question_keeps_its_tokens() -> None:
    """English question words are stopwords already: nothing is dropped."""
    assert asked_tokens("Who founded the club?") == {"found", "club"}


# ------------------------------------------------ "now" is said by the present tense

COMPANY = (
    "株式会社ミナト精工は、1962年に横浜市で創業した精密部品メーカーです。社長は山田太郎です。"
    "本社は横浜市中区にあり、従業員は約320人です。"
)
FESTIVAL = "1950年に町の観光協会が主催するようになり、現在の名前になった。"


def test_a_present_tense_sentence_says_now() -> None:
    assert now_words("現在の社長は誰？") == ("現在",)
    assert now_words("Who owns the shop now?") == ("now",)
    assert now_words("今年の予定は？") == ()  # 今年 is this year, not now
    assert states_present("社長は山田太郎です。")
    assert not states_present("1962年に山田一郎が創業しました。")
    assert states_present("The secretary is John Reed.")
    assert not states_present("It closed to the public in 1987.")


def test_who_is_the_current_head_is_answered_by_a_sentence_that_does_not_say_current() -> None:
    answer = ExtractiveReader().answer("現在の社長は誰？", _passages(COMPANY, FESTIVAL))
    assert not answer.abstained
    assert "山田太郎" in answer.text


def test_who_is_it_now_in_english() -> None:
    """The founder's sentence names the first secretary in the past; "now" is the present."""
    club = (
        "The Ashford Chess Club was founded in 1950 by Mary Hale, its first secretary. "
        "The secretary is John Reed."
    )
    answer = ExtractiveReader().answer("Who is the secretary now?", _passages(club))
    assert "John Reed" in answer.text


# ------------------------------------------------ a kanji stem is said by its compound

LIBRARY = (
    "開館時間は午前9時から午後7時までです。土曜日と日曜日は午後5時に閉館します。"
    "毎週月曜日と年末年始は休館日です。"
)


def _library() -> list[Source]:
    return [
        Source(source_id="S1", source="library.md", title="北浜市立図書館 利用案内",
               location="§ 開館時間", text=f"## 開館時間\n{LIBRARY}", score=0.8)
    ]


def test_the_kanji_stem_of_a_native_word() -> None:
    assert kanji_stems("図書館は何時まで開いていますか？") == {"開"}
    assert kanji_stems("図書館の休みはいつですか？") == {"休"}
    assert kanji_stems("雨の日は練習がありますか？") == frozenset()  # nouns before particles
    assert kanji_stems("When does it open?") == frozenset()


def test_a_native_verb_is_answered_by_the_sino_japanese_compound() -> None:
    reader = ExtractiveReader()
    opening = reader.answer("図書館は何時まで開いていますか？", _library())
    assert not opening.abstained and "午後7時" in opening.text
    closed = reader.answer("図書館の休みはいつですか？", _library())
    assert not closed.abstained and "休館日" in closed.text


# ------------------------------------------------ "how often" asks for a frequency

FILTERS = (
    "## Filters\nWash the filter once a month in cold water. Let it dry for 24 hours before "
    "refitting it. Never use detergent on the filter."
)


def test_how_often_asks_for_a_frequency() -> None:
    assert answer_measures("How often should I wash the filter?") == ("frequency",)
    for said in ("once a month", "3 times a day", "every Saturday", "every 10 minutes",
                 "weekly", "月に一度", "年2回", "毎週"):
        assert states_measure(f"It is done {said}.", ("frequency",)), said
    assert not states_measure("Let it dry for 24 hours.", ("frequency",))  # a duration


def test_a_frequency_answers_how_often_not_a_duration() -> None:
    answer = ExtractiveReader().answer(
        "How often should I wash the filter?", _passages(FILTERS, title="Zephyr V8 User Guide")
    )
    assert "once a month" in answer.text


# ------------------------------------------------ 〜間 makes a time point a span

GYM = "# フィットネスジム アクア\nアクアは24時間営業のフィットネスジムです。2018年に開業しました。"


def test_a_span_of_hours_is_a_number_not_a_time() -> None:
    assert answer_type("アクアは何時間営業ですか？") == "number"
    assert answer_measures("アクアは何時間営業ですか？") == ("duration",)
    assert answer_measures("何か月かかりますか？") == ("duration",)
    assert answer_type("何時に始まりますか？") == "date"  # 何時 without 間: a clock time
    assert answer_type("何年に創業しましたか？") == "date"


def test_how_many_hours_is_answered_by_the_duration() -> None:
    answer = ExtractiveReader().answer(
        "アクアは何時間営業ですか？", _passages(GYM, title="フィットネスジム アクア")
    )
    assert "24時間営業" in answer.text


# ------------------------------------------------ "the shop" refers back, as "it" does

BOOKSHOP = (
    "Hollow Oak Books is an independent bookshop on Mill Street in Ashford. "
    "The shop was founded in 1994 by Clara Vance. The current owner is Peter Lind."
)


def test_a_definite_description_refers_back() -> None:
    assert refers_back("The shop was founded in 1994 by Clara Vance.")
    assert sentence_subject("The shop was founded in 1994 by Clara Vance.") == ""
    assert not refers_back("The current owner is Peter Lind.")  # a modified noun: new
    assert sentence_subject("Hollow Oak Books is an independent bookshop.") == "Hollow Oak Books"


def test_the_founder_sentence_about_the_shop_answers_who_founded_it() -> None:
    answer = ExtractiveReader().answer(
        "Who founded Hollow Oak Books?", _passages(BOOKSHOP, title="Hollow Oak Books")
    )
    assert "Clara Vance" in answer.text


# ------------------------------------------------ a table gives its unit once

PRICES = (
    "# Prices\n| Activity | Adult | Child |\n| --- | --- | --- |\n"
    "| Swimming | 5.50 | 3.00 |\n| Gym session | 7.00 | not available |\n"
    "| Squash court (40 min) | 9.00 | 4.50 |\n"
)


def test_a_table_row_with_bare_numbers_is_quoted_alone() -> None:
    """The row states the price in the table's unit: no neighbour row is joined to it."""
    answer = ExtractiveReader().answer(
        "How much is a squash court?", _passages(PRICES, title="Oakridge Sports Centre")
    )
    assert answer.text.startswith("Activity: Squash court (40 min); Adult: 9.00; Child: 4.50")
    assert "Gym session" not in answer.text


# ------------------------------------------------ a pronoun after a fronted phrase refers back

SOLAR = (
    "# Harrowgate Solar Ltd\n\nHarrowgate Solar installs solar panels on homes and farms. "
    "Its head office is in Leeds, and it employs 85 people. In 2021 it opened a second office "
    "in York."
)


def test_a_pronoun_after_a_fronted_phrase_refers_back() -> None:
    """English puts a time or place phrase before the subject: "In 2021 it opened …"."""
    assert refers_back("In 2021 it opened a second office in York.")
    assert refers_back("Later, they moved to Leeds.")
    assert sentence_subject("In 2021 it opened a second office in York.") == ""
    assert not refers_back("For its members, the club offers a sauna.")


def test_a_subject_after_a_fronted_phrase_is_read_as_at_the_start() -> None:
    """The phrase is not the subject: "In 2021 the company opened …" is "The company opened …"."""
    assert refers_back("The company opened an office.")
    assert refers_back("In 2021 the company opened an office.")  # a bare definite noun
    assert refers_back("After the war, the museum moved to Leeds.")
    # a noun with a modifier, or a name, introduces someone new: the sentence's own subject
    assert not refers_back("In 2021 the new owner opened an office.")
    assert sentence_subject("In 2021 the new owner opened an office.") == "the new owner"
    assert sentence_subject("In the summer, visitors come by ferry.") == "visitors"
    assert not refers_back("In 2021 Mary Hale opened an office.")


@pytest.mark.parametrize(
    "subject", ["it", "the company"], ids=["pronoun", "bare-definite-noun"]
)
def test_the_second_office_is_the_one_it_opened_in_2021(subject: str) -> None:
    """Other passages say "second" too: the office sentence needs its subject, Harrowgate.

    The same with "the company" for "it" after the fronted "In 2021".
    """
    page = SOLAR.replace("In 2021 it opened", f"In 2021 {subject} opened")
    history = (
        "In the second half of the century the mills closed. During the Second World War the "
        "docks were bombed, and the second bridge was built in 1952."
    )
    passages = [
        Source(source_id="S1", source="solar.md", title="Harrowgate Solar Ltd", text=page),
        Source(source_id="S2", source="kestrel.md", title="History of Kestrel", text=history),
    ]
    answer = ExtractiveReader().answer("Where is Harrowgate Solar's second office?", passages)
    assert not answer.abstained
    assert "York" in answer.text


# ------------------------------------------------ a Latin word ends where Japanese begins


def test_a_latin_key_term_stops_at_japanese_text() -> None:
    """「DVDは…」: the key term is "DVD"; a word character would run on through the kana."""
    assert key_terms("DVDの貸出期間は？") == {"dvd", "貸出期間"}
    assert key_terms("Wi-Fiのパスワードは？") == {"wi-fi", "パスワード"}
    assert key_terms("A4用紙はいくらですか？") == {"a4", "用紙"}
    assert key_terms("Who founded Hollow Oak Books?") == {"hollow", "oak", "books"}


# ------------------------------------------------ a Japanese synonym says a word, at half weight


def _lexical(question: str, text: str) -> float:
    return assess(question, _passages(text))[0].lexical


def test_a_japanese_synonym_says_the_word_at_context_weight() -> None:
    """SudachiDict's synonym group of 手入れ (care) holds 修理 (repair): a group gathers a word's
    senses, so a synonym counts as a heading does, below the word itself."""
    question = "ポットの手入れの方法は？"
    itself = _lexical(question, "ポットの手入れは月に一度です。")
    synonym = _lexical(question, "ポットの修理は月に一度です。")
    neither = _lexical(question, "ポットの保証は一年です。")
    assert itself > synonym > neither
    assert 0 < CONTEXT_WEIGHT < 1
    # English words have no synonym groups: "repair" does not say "care"
    assert _lexical("How do I care for the pot?", "Repair the pot once a month.") == _lexical(
        "How do I care for the pot?", "Polish the pot once a month."
    )


# ------------------------------------------------ いくら and a priced noun ask for money

CLUB_FEES = (
    "# 川辺テニスクラブ\n\n入会金は5000円です。会費は毎月10日までに納めてください。"
    "会費は月額2000円です。"
)
MAKER = (
    "# 株式会社ハマナ工業\n\n株式会社ハマナ工業は、1971年に静岡市で創業した金型メーカーです。"
    "社長は佐藤一郎です。従業員は約150人です。"
)


def test_ikura_asks_for_an_amount_of_money() -> None:
    """いくら alone asks for an amount; いくらでも / いくらも (*any*, *not much*) do not."""
    for question in ("会費はいくらですか？", "いくらかかりますか？", "送料はいくら？"):
        assert answer_type(question) == "number"
        assert answer_measures(question) == ("money",)
    assert answer_type("いくらでも借りられますか？") is None
    assert answer_measures("How much for a day ticket?") == ("money",)


def test_a_priced_noun_asks_for_money_but_no_price_says_it() -> None:
    """「株価は？」 asks an amount as 「値段は？」 does; 会費 is a term any price does not say."""
    assert answer_type("ハマナ工業の株価は？") == "number"
    assert answer_measures("ハマナ工業の株価は？") == ("money",)
    assert answer_measures("バスの運賃は？") == ("money",)
    assert measure_words("会費はいくらですか？") == ("いくら",)
    assert measure_words("値段はいくらですか？") == ("値段", "いくら")


def test_how_much_is_the_fee_is_answered_by_the_amount() -> None:
    """The due-date sentence says 会費 too; the fee's amount is the one in yen."""
    answer = ExtractiveReader().answer("会費はいくらですか？", _passages(CLUB_FEES))
    assert answer.text.startswith("会費は月額2000円です。")


def test_a_page_without_a_price_does_not_answer_a_price_question_as_if_it_did() -> None:
    """The share price is on no page: the best sentence holds no amount of money."""
    best = assess("ハマナ工業の株価は？", _passages(MAKER))[0]
    assert best.type_ok is False and best.measure_ok is False


def test_a_missing_noun_with_no_value_of_its_kind_is_absent() -> None:
    """No 株価 on the page and no amount of money in the sentence: nothing stands for it."""
    answer = ExtractiveReader().answer("ハマナ工業の株価はいくらですか？", _passages(MAKER))
    assert answer.abstained and "absent: the passage does not mention 株価" in answer.text
    # one missing common noun alone is not enough: it may be worded otherwise
    answer = ExtractiveReader().answer("ハマナ工業の社員は何人ですか？", _passages(MAKER))
    assert not answer.abstained and "約150人" in answer.text


def test_the_measured_noun_a_question_ends_on_is_absent_too() -> None:
    """「株価は？」: 株価 names the answer's class (no key term), yet it is what is measured."""
    assert measured_noun("ハマナ工業の株価は？") == "株価"
    assert measured_noun("ハマナ工業の社長は誰ですか？") is None  # no measure asked
    answer = ExtractiveReader().answer("ハマナ工業の株価は？", _passages(MAKER))
    assert answer.abstained and "does not mention 株価" in answer.text
    # a value of the measure stands for the noun: 「…の値段は？」 answered by 「…300円」
    bakery = _passages("# 小麦堂\n\n食パンは一斤300円です。冷凍パンも販売しています。")
    answer = ExtractiveReader().answer("食パンの値段は？", bakery)
    assert answer.text.startswith("食パンは一斤300円です。")


# ------------------------------------------------ an FAQ: the question is the heading

FAQ_JA = (
    "# よくある質問（みどり書房）\n\n## 送料はいくらですか？\n\n一律350円です。"
    "3000円以上お買い上げで送料は無料です。\n\n## 何日で届きますか？\n\n"
    "ご注文の翌日に発送します。沖縄へは4日ほどかかります。"
)
FAQ_EN = (
    "# Frequently asked questions\n\n## How much is shipping?\n\nA flat 5 euros anywhere in "
    "the country. Orders over 40 euros ship free of charge.\n\n## How long does delivery "
    "take?\n\nOrders leave our warehouse within two working days. Deliveries to the islands "
    "take up to a week."
)
QA_EN = (
    "**Q: When do you meet?**\nA: Every Tuesday evening from 7 pm in the library hall. The "
    "hall opens at 6.30 pm.\n\n**Q: Do I need to bring a board?**\nA: No. The club lends "
    "boards and clocks to every member."
)
QA_JA = (
    "Q：何歳から参加できますか？\nA：3歳から参加できます。保護者の方の見学は自由です。\n\n"
    "Q：振替はできますか？\nA：同じ月のうちなら振替できます。振替は前日までにご連絡ください。"
)
BIKES_HTML = (
    "<html><head><title>Harbour Bikes – Help</title></head><body><h1>Help</h1>"
    "<h2>What does a day rental cost?</h2><p>Twenty euros for a city bike and thirty-five "
    "for an e-bike. Helmets are lent free with every rental.</p>"
    "<h2>Where do I return the bike?</h2><p>At any of our three stations.</p></body></html>"
)


def _chunks(text: str, source: str, title: str) -> list[Source]:
    """The document's chunks as ingestion stores them: one per paragraph, with its heading."""
    out = []
    for i, (chunk, _) in enumerate(split_paragraphs(text)):
        heading = chunk.split("\n", 1)[0].lstrip("#").strip() if chunk.startswith("#") else ""
        out.append(Source(
            source_id=f"{source}#{i}", source=source, title=title, chunk_index=i,
            location=f"§ {heading}" if heading else "", text=chunk, score=0.8,
        ))
    return out


def test_a_question_heading_is_what_its_first_sentence_answers() -> None:
    ctx = passage_context(_chunks(FAQ_JA, "faq.md", "よくある質問")[0])
    assert ctx.sentences == ["一律350円です。", "3000円以上お買い上げで送料は無料です。"]
    assert ctx.answers == ["送料はいくらですか？", ""]
    assert ctx.under == ["送料はいくらですか？"] * 2
    assert "送料" in ctx.subject[0] and not ctx.subject[1]


def test_question_lines_are_headings_and_answer_labels_are_dropped() -> None:
    source = Source(source_id="S1", source="club.md", text=QA_EN.split("\n\n")[0])
    ctx = passage_context(source)
    assert ctx.headings == "When do you meet?"
    assert ctx.sentences[0] == "Every Tuesday evening from 7 pm in the library hall."
    assert ctx.answers == ["When do you meet?", ""]
    bold = passage_context(Source(source_id="S2", source="f.md", text=(
        "**How much is shipping?**\nA flat 5 euros."
    )))
    assert bold.sentences == ["A flat 5 euros."] and bold.answers == ["How much is shipping?"]
    # a heading that asks nothing, a line that only mentions Q: as before
    plain = passage_context(Source(source_id="S3", source="p.md", text=(
        "## History\nQ: the flow rate, in cubic metres per second. It is 1.2."
    )))
    assert plain.answers == ["", ""] and plain.headings == "History"


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("送料はいくらですか？", "一律350円です。"),
        ("送料は？", "一律350円です。"),
        ("How much is shipping?", "A flat 5 euros anywhere in the country."),
        ("How long does delivery take?", "Orders leave our warehouse within two working days."),
    ],
)
def test_an_faq_is_answered_by_the_first_sentence_under_its_question(
    question: str, answer: str
) -> None:
    """The later sentences qualify the answer and repeat the question's words as often."""
    text = FAQ_EN if question.isascii() else FAQ_JA
    got = ExtractiveReader().answer(question, _chunks(text, "faq.md", "FAQ"))
    assert got.text.startswith(answer)
    assert "#" not in got.text.split(" [")[0]  # the citation names the chunk, faq.md#0
    assert got.margin is not None and got.margin > 0.5  # the qualifiers do not compete


def test_a_narrower_question_is_answered_by_the_sentence_that_states_it() -> None:
    """「沖縄へは…」: the FAQ's question lacks 沖縄, so it does not ask the user's."""
    got = ExtractiveReader().answer("沖縄へは何日で届きますか？", _chunks(FAQ_JA, "faq.md", "FAQ"))
    assert got.text.startswith("沖縄へは4日ほどかかります。")
    got = ExtractiveReader().answer(
        "How long does delivery to the islands take?", _chunks(FAQ_EN, "faq.md", "FAQ")
    )
    assert got.text.startswith("Deliveries to the islands take up to a week.")


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("When do you meet?", "Every Tuesday evening from 7 pm in the library hall. ["),
        ("Do I need to bring a board?", "No. The club lends boards and clocks to every member."),
        ("何歳から参加できますか？", "3歳から参加できます。 ["),
        ("振替はできますか？", "同じ月のうちなら振替できます。 ["),
    ],
)
def test_a_q_and_a_page_is_answered_clean(question: str, answer: str) -> None:
    """Never the question line itself, never its Q: / A: labels or bold markup."""
    text = QA_EN if question.isascii() else QA_JA
    got = ExtractiveReader().answer(question, _chunks(text, "qa.md", "Q&A"))
    assert got.text.startswith(answer)
    assert "Q" not in got.text.split("[")[0] and "*" not in got.text


def test_an_html_faq_is_answered_by_the_first_sentence_under_its_question(
    tmp_path: Path,
) -> None:
    """An HTML page's <h2> question, as ingestion reads it ("Helmets are lent free" says cost)."""
    page = tmp_path / "help.html"
    page.write_text(BIKES_HTML, encoding="utf-8")
    doc = load_document(page)
    got = ExtractiveReader().answer(
        "What does a day rental cost?", _chunks(doc.text, "help.html", doc.title)
    )
    assert got.text.startswith("Twenty euros for a city bike and thirty-five for an e-bike.")


# ------------------------------------------------ a superlative over a table's rows

SPEAKERS_CSV = (
    "model,battery_hours,weight_grams,price_eur\n"
    "Kestrel 1,18,240,69\nKestrel 2,31,255,119\nKestrel Max,26,410,179\nKestrel Go,9,120,49\n"
)
TEAS_MD = (
    "# 茶葉の一覧\n\n| 銘柄 | 産地 | 価格 | カフェイン |\n| --- | --- | --- | --- |\n"
    "| 朝霧 | 静岡 | 1200円 | 20mg |\n| 山吹 | 宇治 | 2400円 | 25mg |\n"
    "| 白露 | 八女 | 1800円 | 30mg |"
)


SHOP = "Kestrel Audio is a small shop in Ashford. It opened in 2009."


def _rows(tmp_path: Path, text: str, *, below: bool = True) -> list[Source]:
    """A CSV file's rows as ingestion stores them, one chunk per row, as a search returns
    them: above a passage of another document (``below``) when the table was retrieved
    whole."""
    path = tmp_path / "speakers.csv"
    path.write_text(text, encoding="utf-8")
    rows = [
        Source(source_id=f"S{i}", source=path.name, title="speakers", chunk_index=i,
               location=section.location, text=section.text, score=0.5)
        for i, section in enumerate(load_document(path).sections, start=1)
    ]
    other = Source(source_id="S9", source="shop.md", title="Kestrel Audio", text=SHOP, score=0.2)
    return [*rows, other] if below else rows


def test_a_superlative_names_its_direction_and_measure() -> None:
    longest = superlative("Which model has the longest battery life?")
    assert longest is not None and longest.greatest and "duration" in longest.measures
    cheapest = superlative("一番安いお茶はどれ？")
    assert cheapest is not None and not cheapest.greatest and cheapest.measures == ("money",)
    assert superlative("When was the speaker released?") is None
    assert row_cells("model: Kestrel 1; battery_hours: 18") == {
        "model": "Kestrel 1", "battery_hours": "18"
    }
    assert row_cells("The Kestrel 1: a small speaker.") is None


@pytest.mark.parametrize(
    ("question", "model"),
    [
        ("Which model has the longest battery life?", "Kestrel 2"),  # the column it names
        ("Which speaker is the lightest?", "Kestrel Go"),  # the column of its measure
        ("Which model is the most expensive?", "Kestrel Max"),
    ],
)
def test_a_superlative_is_answered_by_the_row_with_the_extreme(
    tmp_path: Path, question: str, model: str
) -> None:
    """Every row names the same columns: the one with the greatest (least) value answers."""
    got = ExtractiveReader().answer(question, _rows(tmp_path, SPEAKERS_CSV))
    assert got.text.startswith(f"model: {model};")


def test_a_table_that_fills_the_passages_is_not_compared(tmp_path: Path) -> None:
    """Its rows run to the last passage: the search may have left more of them out."""
    got = ExtractiveReader().answer(
        "Which model has the longest battery life?", _rows(tmp_path, SPEAKERS_CSV, below=False)
    )
    assert got.abstained or got.margin == 0.0  # the rows tie: no row is said to be longest


def test_a_superlative_over_a_markdown_table_in_one_chunk() -> None:
    passages = [
        Source(source_id="S1", source="teas.md", title="茶葉の一覧", text=TEAS_MD, score=0.6),
        Source(source_id="S2", source="shop.md", title="店舗案内", text="当店は駅前にあります。"),
    ]
    got = ExtractiveReader().answer("カフェインが一番多いお茶はどれ？", passages)
    assert "銘柄: 白露;" in got.text and "朝霧" not in got.text and "山吹" not in got.text
    got = ExtractiveReader().answer("一番安いお茶はどれですか？", passages)
    assert "銘柄: 朝霧;" in got.text and "白露" not in got.text and "山吹" not in got.text


def test_no_column_no_comparison(tmp_path: Path) -> None:
    """A superlative no column measures ("oldest": no date column) compares nothing."""
    rows = _rows(tmp_path, SPEAKERS_CSV)
    texts = [(r.source, r.text) for r in rows]
    asked = superlative("Which is the oldest model?")
    assert asked is None or not extreme_rows(asked, {"old", "model"}, texts)
    asked = superlative("Which model is the fastest?")
    assert asked is not None and not extreme_rows(asked, {"fast", "model"}, texts)


def test_a_question_line_of_its_own_goes_with_the_paragraph_after_it() -> None:
    """``**Q: …?**`` then a blank line: one chunk with its answer, as a heading would be."""
    text = (
        "**Q: When do you meet?**\n\nA: Every Tuesday evening from 7 pm in the library hall."
        "\n\n**Do I need to bring a board?**\n\nNo. The club lends boards to every member."
        "\n\nThe club was founded in 1987."
    )
    chunks = [c for c, _ in split_paragraphs(text)]
    assert chunks[0] == (
        "**Q: When do you meet?**\nA: Every Tuesday evening from 7 pm in the library hall."
    )
    assert chunks[2] == "The club was founded in 1987."
    got = ExtractiveReader().answer("When do you meet?", _chunks(text, "club.md", "Chess club"))
    assert got.text.startswith("Every Tuesday evening from 7 pm in the library hall. [")
