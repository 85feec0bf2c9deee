"""grace.retrieval.lemmas answers as LemmInflect does, for every word of its lexicon."""

from __future__ import annotations

from lemminflect import getAllLemmas

from grace.retrieval.lemmas import _overrides, _table, all_lemmas


def test_every_word_of_the_lexicon_has_lemminflects_lemmas_in_its_order() -> None:
    words = {line.split(",", 1)[0] for line in _table().splitlines()}
    assert len(words) > 60_000  # the whole table, not an empty file
    some = sorted(words)[::40]
    words |= {w.lower() for w in words} | set(_overrides())
    words |= {w.capitalize() for w in some} | {w.upper() for w in some}
    words |= {"", "zzzq", "a,b", "Went", "re-established", "ünïcode", "'d"}
    differ = [w for w in words if list(all_lemmas(w).items()) != list(getAllLemmas(w).items())]
    assert differ == []


def test_a_word_its_forms_and_an_unknown_word() -> None:
    assert all_lemmas("withdrew") == {"VERB": ("withdraw",)}
    assert all_lemmas("Went") == getAllLemmas("Went")
    assert all_lemmas("zzzq") == {}


def test_each_call_returns_a_new_dict() -> None:
    first = all_lemmas("fled")
    first.clear()
    assert all_lemmas("fled") == getAllLemmas("fled") != {}
