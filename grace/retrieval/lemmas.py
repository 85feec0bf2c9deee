"""English lemmas from LemmInflect's lexicon, looked up without loading the lexicon whole.

``lemminflect.getAllLemmas`` reads its whole lemma table (≈ 80,000 lines) into a dictionary
at its first call (≈ 0.17 s), and importing ``lemminflect`` loads numpy for its inflection
model (≈ 0.1 s): together a quarter of a warm ``grace ask``. :func:`all_lemmas` reads the
same two files the package ships (the table and its overrides, found without importing the
package), keeps the table as one UTF-8 text and finds a word's lines by bisection over that
text: the table is sorted by word (UTF-8 bytes sort as the words do). The text is read from an
uncompressed copy of the table in GRACE's cache directory (≈ 0.2 ms), made at its first use:
decompressing the package's file cost ≈ 6 ms at every process's first lemma. Its answer is
LemmInflect's, entry for entry and in the same order, for every word (the overrides applied,
the word's capitalisation carried over); ``tests/retrieval/test_lemmas.py`` compares the two
over the whole lexicon.

:func:`all_inflections` reads LemmInflect's inflection table the same way
(``getAllInflections`` for a word of its lexicon), and :func:`sorted_table` /
:func:`table_lines` serve any such table sorted by its first field
(:mod:`grace.retrieval.synonyms` reads WordNet's synonyms with them).
"""

from __future__ import annotations

import asyncio
from functools import lru_cache, partial
from importlib.util import find_spec
from pathlib import Path

from grace.storage.cache import cache_dir, derived_file, source_key

__all__ = ["all_inflections", "all_lemmas", "sorted_table", "table_lines"]


def _resource(name: str) -> Path:
    """A file LemmInflect ships in ``lemminflect/resources`` (its package is not run)."""
    spec = find_spec("lemminflect")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("lemminflect is not installed: pip install lemminflect")
    return Path(next(iter(spec.submodule_search_locations))) / "resources" / name


@lru_cache(maxsize=1)
def _table() -> bytes:
    """The lemma table: ``word,category,lemma/lemma`` lines (UTF-8), sorted by word."""
    return sorted_table(_resource("lemma_lu.csv.gz"), "lemminflect")


@lru_cache(maxsize=1)
def _inflection_table() -> bytes:
    """The inflection table: ``lemma,category,form,…`` lines (UTF-8), sorted by lemma."""
    return sorted_table(_resource("infl_lu.csv.gz"), "lemminflect")


def sorted_table(source: Path, cache: str) -> bytes:
    """The gzip file ``source`` (a table sorted by its first field), as bytes.

    From its uncompressed copy in the cache directory ``cache``, made here if missing; the
    compressed file where the cache cannot be written, and on an event loop's thread (an
    async node in a server: the copy is made by the next synchronous use, never by blocking
    the loop).
    """
    try:
        stem, _, kind = source.name.removesuffix(".gz").partition(".")
        name = f"{stem}-{source_key(source)}.{kind}"  # lemma_lu-<key>.csv
        directory = cache_dir(cache)
        if not (directory / name).is_file() and _on_event_loop():
            return _decompressed(source)
        copy = derived_file(directory, name, partial(_decompress, source))
        return copy.read_bytes()
    except OSError:
        return _decompressed(source)


def _on_event_loop() -> bool:
    """Whether this thread runs an asyncio event loop (no file may be made on it)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _decompressed(source: Path) -> bytes:
    """The gzip file ``source``, decompressed (only where the cache copy is not read)."""
    import gzip  # not loaded by a process that reads the copy

    return gzip.decompress(source.read_bytes())


def _decompress(source: Path, out: Path) -> None:
    """Write the decompressed ``source`` to ``out``."""
    out.write_bytes(_decompressed(source))


def _word_at(table: bytes, start: int, separator: bytes) -> bytes:
    """The first field of the line that starts at ``start``."""
    return table[start : table.index(separator, start)]


def table_lines(table: bytes, key: str, separator: bytes = b",") -> list[str]:
    """The lines of ``table`` (sorted by their first field) whose first field is ``key``."""
    word = key.encode("utf-8", "surrogatepass")  # a lone surrogate: no line holds it
    low, high = 0, len(table)  # each the start of a line (or the end of the table)
    while low < high:  # bisection over lines: the first whose field is not below ``word``
        start = table.rfind(b"\n", 0, (low + high) // 2) + 1  # the line holding the middle
        if _word_at(table, start, separator) < word:
            low = table.index(b"\n", start) + 1
        else:
            high = start
    lines = []
    while low < len(table) and _word_at(table, low, separator) == word:
        end = table.index(b"\n", low)
        lines.append(table[low:end].decode().strip())
        low = end + 1
    return lines


def _corrections(name: str) -> dict[str, dict[str, tuple[str, ...]]]:
    """A LemmInflect overrides file (``word,key,form`` lines) as {word: {key: (form,)}}."""
    found: dict[str, dict[str, tuple[str, ...]]] = {}
    for raw in _resource(name).read_text().splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            word, key, form = line.split(",")
            found.setdefault(word, {})[key] = (form,)
    return found


@lru_cache(maxsize=1)
def _overrides() -> dict[str, dict[str, tuple[str, ...]]]:
    """LemmInflect's corrections to its table (``word,UPOS,lemma`` lines), by word."""
    return _corrections("lemma_overrides.csv")


def _upos(category: str) -> str:
    """The table's category as a universal part of speech (its ``modal`` is ``AUX``)."""
    upos = category.upper()
    return "AUX" if upos == "MODAL" else upos


def _styled(word: str) -> str:
    """The capitalisation a lemma takes from ``word`` (LemmInflect's caps style)."""
    if word.isupper():
        return "upper"
    return "capitalize" if word and word[0].isupper() else "lower"


def all_lemmas(word: str) -> dict[str, tuple[str, ...]]:
    """``lemminflect.getAllLemmas(word)``: the word's lemmas by part of speech (a new dict)."""
    style = _styled(word)
    lower = word.lower()
    lemmas: dict[str, tuple[str, ...]] = {}
    for line in table_lines(_table(), lower):
        _, category, forms = line.split(",")
        lemmas[_upos(category)] = tuple(forms.split("/"))
    lemmas.update(_overrides().get(lower, {}))
    return {pos: tuple(getattr(f, style)() for f in forms) for pos, forms in lemmas.items()}


_TAGS = {
    "noun": ("NNS",),
    "adj": ("JJR", "JJS"),
    "adv": ("RBR", "RBS"),
    "verb": ("VBD", "VBN", "VBG", "VBZ"),
}
"""The forms of a table line, in order, as Penn tags (LemmInflect's ``InflectionLUCodec``)."""
_BASE = {"noun": ("NN",), "adj": ("JJ",), "adv": ("RB",), "verb": ("VB", "VBP")}


_AUXILIARIES: dict[str, dict[str, tuple[str, ...]]] = {
    "can": {"VB": ("can",), "VBD": ("could",)},
    "may": {"VB": ("may",), "VBD": ("might",)},
    "will": {"VB": ("will",), "VBD": ("would",)},
    "shall": {"VB": ("shall",), "VBD": ("should",)},
    "must": {"VB": ("must",), "VBD": ("must",)},
    "ought": {"VB": ("ought",), "VBD": ("ought",)},
    "dare": {"VB": ("dare",)},
    "be": {
        "VB": ("be",), "VBD": ("was", "were"), "VBG": ("being",), "VBN": ("been",),
        "VBP": ("am", "are"), "VBZ": ("is",),
    },
}
"""Modals and *be*, whose forms LemmInflect sets by hand in place of its table's
(``InflectionLUCodec.updateForAuxMod``)."""


@lru_cache(maxsize=1)
def _inflection_overrides() -> dict[str, dict[str, tuple[str, ...]]]:
    """LemmInflect's corrections to its inflections (``lemma,TAG,form`` lines), by lemma."""
    return _corrections("infl_overrides.csv")


def all_inflections(lemma: str) -> dict[str, tuple[str, ...]]:
    """``lemminflect.getAllInflections(lemma)``: the lemma's forms by Penn tag (a new dict).

    A lemma of the lexicon only (LemmInflect's rules for unknown words are not run).
    """
    style = _styled(lemma)
    lower = lemma.lower()
    forms: dict[str, tuple[str, ...]] = {}
    for line in table_lines(_inflection_table(), lower):
        _, category, *spellings = line.split(",")
        if category not in _TAGS:
            continue  # aux and modal lines: LemmInflect does not read them either
        for tag, spelling in zip(_TAGS[category], spellings, strict=False):
            if spelling:
                forms[tag] = tuple(spelling.split("/"))
        forms.update(dict.fromkeys(_BASE[category], (lower,)))
    if lower in _AUXILIARIES:
        forms = dict(_AUXILIARIES[lower])
    forms.update(_inflection_overrides().get(lower, {}))
    return {tag: tuple(getattr(f, style)() for f in spelt) for tag, spelt in forms.items()}
