"""Pinned tokenizer output: speed rewrites of the tokenizer must not change a single token.

The expected lists and digests were produced by the tokenizer before its Japanese path was
rewritten for speed (flat lists, part-of-speech head cache); a change here changes every
sparse vector, so the retrieval figures with it.
"""

import hashlib

import pytest

from grace.data import sample_dir
from grace.retrieval.tokenize import Tokenizer

SAMPLE_CORPUS = sample_dir() / "corpus"
TEXT = "何年に東京タワーが建てられましたか。1958年、アメリカ軍の施設の隣に完成し、誰もが驚いた。"


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (
            {},
            "何 年 東京 タワー 建てる 何年 東京 京タ タワ ワー 建 1958 年 年"
            " アメリカ軍 施設 隣 完成 アメ メリ リカ カ軍 施設 隣 完成 誰 驚く 誰 驚",
        ),
        (
            {"drop_interrogatives": True},
            "年 東京 タワー 建てる 東京 京タ タワ ワー 建 1958 年 年 アメリカ軍 施設 隣 完成"
            " アメ メリ リカ カ軍 施設 隣 完成 驚く 驚",
        ),
        (
            {"japanese": "sudachi", "split_mode": "A"},
            "何 年 東京 タワー 建てる 1958 年 アメリカ 軍 施設 隣 完成 誰 驚く",
        ),
        (
            {"japanese": "sudachi", "split_mode": "C"},
            "何 年 東京 タワー 建てる 1958 年 アメリカ軍 施設 隣 完成 誰 驚く",
        ),
        (
            {"japanese": "bigram"},
            "何年 東京 京タ タワ ワー 建 1958 年 アメ メリ リカ カ軍 施設 隣 完成 誰 驚",
        ),
    ],
)
def test_japanese_tokens_pinned(options: dict[str, str | bool], expected: str) -> None:
    assert Tokenizer(**options)(TEXT) == expected.split()  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("drop_interrogatives", "count", "digest"),
    [
        (False, 3271, "e91e0ac6a846f4fd12a22861fabefe47e4a9f69a459844c65817dcf1f2f380fe"),
        (
            True,
            3268,
            "4f1be94b00fc1fd11618db64aef24744b964d42555b04350df659ece2945b4c5",
        ),
    ],
)
def test_sample_corpus_tokens_pinned(drop_interrogatives: bool, count: int, digest: str) -> None:
    tokenizer = Tokenizer(drop_interrogatives=drop_interrogatives)
    sha = hashlib.sha256()
    total = 0
    for path in sorted(SAMPLE_CORPUS.glob("*")):
        tokens = tokenizer(path.read_text(encoding="utf-8"))
        total += len(tokens)
        sha.update("\n".join(tokens).encode())
        sha.update(b"\0")
    assert (total, sha.hexdigest()) == (count, digest)
