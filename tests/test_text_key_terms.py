"""``grace.text.key_terms``: ASCII text is read with the pattern that has no kana or kanji."""

import itertools
import unicodedata

from grace.text import _ASCII_KEY_TERM, _KEY_TERM, key_terms

_PIECES = ("A4", "ISO9001", "O'Brien's", "well-known", "1,000.5", "x1y2", "Lumen", " ", "-", "_")


def test_ascii_text_has_the_same_key_terms_with_either_pattern() -> None:
    texts = [
        "When did the horse tram line open in Lumen Bay?",
        "Who is O'Brien's A4 ISO9001 1,000.5 well-known? A4b3 ABC-def x1y2 __init__",
        *("".join(p) for p in itertools.product(_PIECES, repeat=3)),
    ]
    for text in texts:
        assert text.isascii()
        assert _ASCII_KEY_TERM.findall(text) == _KEY_TERM.findall(text), text


def test_japanese_and_non_ascii_text_keeps_the_kana_and_kanji_runs() -> None:
    assert key_terms("DVDは何枚ありますか？") == {"dvd"}
    assert {"東京", "タワー"} <= key_terms("東京タワーの高さは？")
    assert key_terms("Ｌｕｍｅｎ Ｂａｙ") == key_terms(unicodedata.normalize("NFKC", "Lumen Bay"))
