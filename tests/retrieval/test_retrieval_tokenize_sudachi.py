"""Japanese runs analysed together give each run's words as if it were analysed alone."""

import random
import unicodedata
from pathlib import Path

import pytest

from grace.data import sample_dir
from grace.retrieval import tokenize_sudachi
from grace.retrieval.tokenize import _RUN_RE
from grace.retrieval.tokenize_sudachi import SEPARATOR, words_of_runs

SAMPLE_CORPUS = sample_dir() / "corpus"


def _runs(text: str) -> list[str]:
    text = unicodedata.normalize("NFKC", text).lower()
    return [ja for ja, _ in _RUN_RE.findall(text) if ja]


def _sample_runs() -> list[str]:
    runs = [r for p in sorted(SAMPLE_CORPUS.glob("ja-*")) for r in _runs(p.read_text("utf-8"))]
    # Shuffled characters make runs whose ends cut words apart, where a joined analysis
    # would first drift from a lone one.
    chars = [c for r in runs for c in r]
    rng = random.Random(3)
    shuffled = "".join(rng.sample(chars, len(chars)))
    cuts = sorted(rng.sample(range(1, len(shuffled)), len(shuffled) // 6))
    return runs + [shuffled[a:b] for a, b in zip([0, *cuts], cuts, strict=False)]


@pytest.mark.parametrize("mode", ["A", "B", "C"])
def test_joined_runs_match_lone_runs(mode: str) -> None:
    runs = _sample_runs()
    assert tokenize_sudachi._separator_pos(mode) is not None  # the separator dictionary works
    alone = [words_of_runs([run], mode, True)[0] for run in runs]
    assert words_of_runs(runs, mode, True) == alone


def test_long_runs_are_cut_and_batched() -> None:
    long_run = "東京タワーが建てられました" * 700  # over the per-call limit
    runs = ["東京", long_run, "完成", "誰"]
    words = words_of_runs(runs, "B", False)
    assert words[0] == ["東京"] and words[2] == ["完成"] and words[3] == ["誰"]
    assert words[1].count("東京") == 700


def test_without_the_separator_each_run_gets_its_own_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runs = _sample_runs()[:200]
    joined = words_of_runs(runs, "B", True)
    monkeypatch.setattr(tokenize_sudachi, "_separator_pos", lambda mode: None)
    assert words_of_runs(runs, "B", True) == joined


def test_an_unwritable_cache_means_no_separator(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the cache directory would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert tokenize_sudachi._separator_dictionary() is None


def test_the_separator_is_not_a_japanese_character() -> None:
    assert _runs(f"東京{SEPARATOR}大阪") == ["東京", "大阪"]


def test_a_long_list_encoded_on_two_threads_matches_one_by_one() -> None:
    from grace.retrieval.sparse import LexicalSparseEmbeddings

    texts = [p.read_text("utf-8") for p in sorted(SAMPLE_CORPUS.glob("*"))] * 3
    encoder = LexicalSparseEmbeddings()
    assert len(texts) >= 16  # the helper thread takes half
    assert encoder.embed_documents(texts) == [encoder.embed_documents([t])[0] for t in texts]


def test_a_damaged_separator_dictionary_is_dropped_and_rebuilt(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    built = tokenize_sudachi._separator_dictionary()
    assert built is not None and built.is_file()
    built.write_bytes(b"not a dictionary")
    tokenize_sudachi._load_dictionary.cache_clear()
    try:
        dictionary = tokenize_sudachi._load_dictionary()  # falls back to the plain dictionary
        assert dictionary is not None and not built.exists()
        assert tokenize_sudachi._separator_dictionary() == built  # built again
    finally:
        tokenize_sudachi._load_dictionary.cache_clear()


def test_synonym_groups_link_synonyms_and_never_opposites() -> None:
    """SudachiDict's synonym groups: one group for 値段 / 価格 / 代金, none shared by opposites."""
    groups = tokenize_sudachi.synonym_groups
    assert groups("値段") & groups("価格") & groups("代金")
    assert groups("店") & groups("店舗")
    for word, opposite in (("輸入", "輸出"), ("増加", "減少"), ("東", "西"), ("開始", "終了")):
        assert not groups(word) & groups(opposite), (word, opposite)
    assert groups("霧ヶ丘鉄道") == frozenset()  # not one dictionary word
    said = tokenize_sudachi.synonyms_said(["値段", "駅", "料金"], ["価格", "東京", "料金"])
    assert said == {"値段"}  # 料金 is held as itself; 駅 has no synonym here
