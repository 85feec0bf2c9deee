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
"""

from __future__ import annotations

import asyncio
from functools import lru_cache, partial
from importlib.util import find_spec
from pathlib import Path

from grace.storage.cache import cache_dir, derived_file, source_key

__all__ = ["all_lemmas"]


def _resource(name: str) -> Path:
    """A file LemmInflect ships in ``lemminflect/resources`` (its package is not run)."""
    spec = find_spec("lemminflect")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("lemminflect is not installed: pip install lemminflect")
    return Path(next(iter(spec.submodule_search_locations))) / "resources" / name


@lru_cache(maxsize=1)
def _table() -> bytes:
    """The lemma table: ``word,category,lemma/lemma`` lines (UTF-8), sorted by word.

    From its uncompressed copy in the cache, made here if missing; the package's compressed
    file where the cache cannot be written, and on an event loop's thread (an async node in
    a server: the copy is made by the next synchronous use, never by blocking the loop).
    """
    source = _resource("lemma_lu.csv.gz")
    try:
        name = f"lemma_lu-{source_key(source)}.csv"
        directory = cache_dir("lemminflect")
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


def _word_at(table: bytes, start: int) -> bytes:
    """The word of the line that starts at ``start``."""
    return table[start : table.index(b",", start)]


def _first_line(table: bytes, word: bytes) -> int:
    """Where the first line whose word is not below ``word`` starts (bisection over lines)."""
    low, high = 0, len(table)  # each the start of a line (or the end of the table)
    while low < high:
        start = table.rfind(b"\n", 0, (low + high) // 2) + 1  # the line holding the middle
        if _word_at(table, start) < word:
            low = table.index(b"\n", start) + 1
        else:
            high = start
    return low


@lru_cache(maxsize=1)
def _overrides() -> dict[str, dict[str, tuple[str, ...]]]:
    """LemmInflect's corrections to its table (``word,UPOS,lemma`` lines), by word."""
    found: dict[str, dict[str, tuple[str, ...]]] = {}
    for raw in _resource("lemma_overrides.csv").read_text().splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            word, pos, lemma = line.split(",")
            found.setdefault(word, {})[pos] = (lemma,)
    return found


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
    key = lower.encode("utf-8", "surrogatepass")  # a lone surrogate: no line holds it
    table = _table()
    lemmas: dict[str, tuple[str, ...]] = {}
    at = _first_line(table, key)
    while at < len(table) and _word_at(table, at) == key:
        end = table.index(b"\n", at)
        _, category, forms = table[at:end].decode().strip().split(",")
        lemmas[_upos(category)] = tuple(forms.split("/"))
        at = end + 1
    lemmas.update(_overrides().get(lower, {}))
    return {pos: tuple(getattr(f, style)() for f in forms) for pos, forms in lemmas.items()}
