"""``grace.patterns.lazy``: compiled at its first use, it answers as ``re.compile`` does."""

from __future__ import annotations

import re

import pytest

from grace.patterns import LazyPattern, lazy

_TEXT = "Lumen Bay opened its tram line in 1874; 霧ヶ丘の祭りは1910年に始まった. ok OK"
_CASES = [
    (r"\b[A-Z][a-z]+\b", 0),
    (r"(\d{4})(年)?", 0),
    (r"(?P<ja>[\u3040-\u30FF\u4E00-\u9FFF]+)|(?P<word>[^\W\d_]+)", 0),
    (r"\bok\b", re.IGNORECASE),
    (r"^\s*lumen", re.I | re.M),
]


@pytest.mark.parametrize(("source", "flags"), _CASES)
def test_a_lazy_pattern_answers_as_the_compiled_one(source: str, flags: int) -> None:
    compiled = re.compile(source, flags)
    for first_call in ("search", "findall", "sub"):  # whichever method compiles it
        pattern = lazy(source, flags)
        getattr(pattern, first_call)(*(("-", _TEXT) if first_call == "sub" else (_TEXT,)))
        assert pattern.findall(_TEXT) == compiled.findall(_TEXT)
        assert pattern.findall(_TEXT, 5, 40) == compiled.findall(_TEXT, 5, 40)
        assert [m.span() for m in pattern.finditer(_TEXT)] == [
            m.span() for m in compiled.finditer(_TEXT)
        ]
        for method in ("search", "match", "fullmatch"):
            got, want = getattr(pattern, method)(_TEXT), getattr(compiled, method)(_TEXT)
            assert (got and got.span()) == (want and want.span())
        assert pattern.sub("-", _TEXT, 2) == compiled.sub("-", _TEXT, 2)
        assert pattern.sub(lambda m: m.group(0).upper(), _TEXT) == compiled.sub(
            lambda m: m.group(0).upper(), _TEXT
        )
        assert pattern.split(_TEXT, 1) == compiled.split(_TEXT, 1)
        assert (pattern.pattern, pattern.flags) == (source, flags)


def test_a_lazy_pattern_compiles_at_its_first_use_only() -> None:
    pattern = lazy(r"[a-z]+", re.I)
    assert "search" not in vars(pattern)  # nothing compiled yet
    assert pattern.search("12 Ab") is not None
    compiled = pattern.compiled()
    assert compiled == re.compile(r"[a-z]+", re.I)
    assert pattern.search == compiled.search  # later calls go straight to the compiled pattern
    assert repr(pattern) == "lazy('[a-z]+', re.IGNORECASE)"


def test_a_bad_pattern_fails_at_its_first_use_as_re_compile_fails() -> None:
    pattern = lazy(r"(unclosed")
    assert isinstance(pattern, LazyPattern)
    with pytest.raises(re.error):
        pattern.search("text")
