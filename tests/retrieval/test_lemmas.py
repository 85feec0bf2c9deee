"""grace.retrieval.lemmas answers as LemmInflect does, for every word of its lexicon."""

from __future__ import annotations

import asyncio
import gzip
from pathlib import Path

import pytest
from lemminflect import getAllInflections, getAllLemmas

from grace.retrieval.lemmas import (
    _inflection_overrides,
    _inflection_table,
    _overrides,
    _resource,
    _table,
    all_inflections,
    all_lemmas,
)


def test_every_word_of_the_lexicon_has_lemminflects_lemmas_in_its_order() -> None:
    words = {line.split(b",", 1)[0].decode() for line in _table().splitlines()}
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


def test_every_lemma_of_the_lexicon_has_lemminflects_inflections_in_their_order() -> None:
    lemmas = {line.split(b",", 1)[0].decode() for line in _inflection_table().splitlines()}
    assert len(lemmas) > 30_000
    some = sorted(lemmas)[::40]
    lemmas |= {w.lower() for w in lemmas} | set(_inflection_overrides())
    lemmas |= {w.capitalize() for w in some} | {w.upper() for w in some}
    lemmas |= {"", "zzzq", "May", "BE", "dare"}  # the modals and "be" LemmInflect sets by hand
    differ = [
        w for w in lemmas if list(all_inflections(w).items()) != list(getAllInflections(w).items())
    ]
    assert differ == []
    assert all_inflections("begin")["VBD"] == ("began",)


def test_each_call_returns_a_new_dict() -> None:
    first = all_lemmas("fled")
    first.clear()
    assert all_lemmas("fled") == getAllLemmas("fled") != {}


def test_the_table_is_read_from_an_uncompressed_copy_in_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = gzip.decompress(_resource("lemma_lu.csv.gz").read_bytes())
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    _table.cache_clear()
    try:
        assert _table() == whole
        (copy,) = (tmp_path / "grace" / "lemminflect").iterdir()  # made at the first use
        assert copy.read_bytes() == whole
        _table.cache_clear()
        assert _table() == whole  # read from the copy
    finally:
        _table.cache_clear()


def test_without_a_writable_cache_the_package_file_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))  # the cache cannot be made under it
    _table.cache_clear()
    try:
        assert _table() == gzip.decompress(_resource("lemma_lu.csv.gz").read_bytes())
        assert all_lemmas("withdrew") == {"VERB": ("withdraw",)}
    finally:
        _table.cache_clear()


def test_on_an_event_loop_the_cache_is_not_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An async node (a server's loop) reads the package file; it never blocks on a mkdir."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    _table.cache_clear()

    async def first_use() -> bytes:
        return _table()

    try:
        assert asyncio.run(first_use()) == gzip.decompress(
            _resource("lemma_lu.csv.gz").read_bytes()
        )
        assert not (tmp_path / "grace").exists()
        _table.cache_clear()
        _table()  # the next synchronous use makes the copy
        assert len(list((tmp_path / "grace" / "lemminflect").iterdir())) == 1
    finally:
        _table.cache_clear()
