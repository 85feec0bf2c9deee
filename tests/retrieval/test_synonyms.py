"""WordNet's synonyms as GRACE ships them (grace/data/wordnet, built by bench.wordnet_synonyms)."""

from __future__ import annotations

import gzip

from grace.retrieval.synonyms import (
    ANTONYMS,
    KINDS,
    MONEY,
    TABLE,
    antonyms,
    money_kinds,
    person_kinds,
    synonyms,
)
from grace.text import _CONTRAST_SETS


def test_words_in_their_usual_sense_are_linked_both_ways() -> None:
    assert {"found", "set_up", "launch"} <= synonyms("establish")
    assert "establish" in synonyms("set_up") and "establish" in synonyms("found")
    assert "lease" in synonyms("rent") and "rent" in synonyms("lease")
    assert "begin" in synonyms("start") and "start" in synonyms("begin")


def test_a_rare_sense_a_name_and_an_unknown_word_give_no_link() -> None:
    assert "first" not in synonyms("start")  # the noun's rare sense ("from the start")
    assert "make" not in synonyms("give")
    assert not any(word[:1].isupper() for word in synonyms("begin"))  # not Menachem Begin
    assert synonyms("zzzq") == frozenset() == synonyms("")


def test_a_number_is_linked_to_no_word() -> None:
    """A number is stated by a number: "fin" is not "five", nor "grand" a thousand."""
    for number in ("five", "ten", "one", "twelve", "hundred", "thousand", "nine", "5"):
        assert synonyms(number) == frozenset(), number
    assert "five" not in synonyms("fin") and "thousand" not in synonyms("grand")
    assert "social_club" in synonyms("club")  # the word's own senses stay


def test_no_word_is_linked_to_an_opposite_of_a_closed_set() -> None:
    """The poles of the SILENT rule's closed sets (first / last, imports / exports …)."""
    for poles in _CONTRAST_SETS:
        for pole in poles:
            others = {word for other in poles if other is not pole for word in other}
            assert not any(synonyms(word) & others for word in pole), pole


def test_the_table_is_sorted_and_every_link_is_mutual() -> None:
    lines = gzip.decompress(TABLE.read_bytes()).decode().splitlines()
    lemmas = [line.split("\t")[0] for line in lines]
    assert lemmas == sorted(lemmas) and len(lemmas) > 50_000
    table = {line.split("\t")[0]: set(line.split("\t")[1].split()) for line in lines}
    assert all(lemma in table.get(word, ()) for lemma, words in table.items() for word in words)
    assert (TABLE.parent / "LICENSE").read_text().startswith("WordNet Release 3.0")


def test_a_kind_of_person_knows_the_kinds_above_it() -> None:
    """WordNet's ``noun.person`` hypernyms: a conductor is a musician, not a violinist."""
    assert {"musician", "artist"} <= (person_kinds("conductor") or set())
    assert "violinist" not in (person_kinds("conductor") or set())
    assert "musician" in (person_kinds("violinist") or set())
    assert person_kinds("treasurer") == frozenset()  # a kind of person with none above it here
    for no_person in ("type", "bridge", "person", "conductors", "zzzq"):
        assert person_kinds(no_person) is None, no_person  # "type": a person in sense 2 only


def test_the_kinds_table_is_sorted_and_holds_one_word_nouns() -> None:
    lines = gzip.decompress(KINDS.read_bytes()).decode().splitlines()
    nouns = [line.split("\t")[0] for line in lines]
    assert nouns == sorted(nouns) and len(nouns) > 10_000
    above = {kind for line in lines for kind in line.partition("\t")[2].split()}
    assert all(word == word.lower() and "_" not in word for word in {*nouns, *above})
    assert "musician" in above and "violinist" in nouns


def test_a_noun_of_a_sum_of_money_knows_its_sum() -> None:
    """WordNet's payments, costs, sums and prices: a wage is a payment; a grant is a gift first."""
    assert "payment" in (money_kinds("wage") or set())
    assert money_kinds("toll") == frozenset({"cost"})
    assert money_kinds("price") == frozenset({"monetary_value"})
    for no_sum in ("grant", "bridge", "wages", "zzzq"):
        assert money_kinds(no_sum) is None, no_sum  # "wages": the table holds lemmas only
    lines = gzip.decompress(MONEY.read_bytes()).decode().splitlines()
    nouns = [line.split("\t")[0] for line in lines]
    assert nouns == sorted(nouns) and all(line.split("\t")[1] for line in lines)


def test_a_verbs_antonyms_in_its_usual_senses_both_ways() -> None:
    """WordNet's antonym pointers between the two words' most frequent senses."""
    assert antonyms("raise") == frozenset({"lower"}) and "raise" in antonyms("lower")
    assert "sell" in antonyms("buy") and "buy" in antonyms("sell")
    assert antonyms("build") == frozenset() == antonyms("zzzq")
    lines = gzip.decompress(ANTONYMS.read_bytes()).decode().splitlines()
    table = {line.split("\t")[0]: set(line.split("\t")[1].split()) for line in lines}
    assert list(table) == sorted(table)
    assert all(verb in table.get(other, ()) for verb, others in table.items() for other in others)
