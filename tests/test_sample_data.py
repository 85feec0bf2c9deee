"""Consistency checks for the bundled sample dataset (grace/data/sample)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from grace.data import sample_corpus_dir, sample_dir, sample_questions_path

KINDS = {"in_corpus", "squad_unanswerable", "out_of_corpus"}
LANGS = {"en", "ja"}
FIELDS = {"id", "question", "lang", "answerable", "answers", "source", "kind"}


def _questions() -> list[dict[str, Any]]:
    lines = sample_questions_path().read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


QUESTIONS = _questions()


def test_paths_exist() -> None:
    assert sample_dir().is_dir()
    assert sample_corpus_dir().is_dir()
    assert sample_questions_path().is_file()
    assert (sample_dir() / "README.md").is_file()


def test_corpus_shape() -> None:
    docs = sorted(sample_corpus_dir().glob("*.md"))
    langs = {"ja": 0, "en": 0}
    for doc in docs:
        text = doc.read_text(encoding="utf-8")
        first, _, body = text.partition("\n")
        assert first.startswith("# ") and first[2:].strip(), doc.name
        paragraphs = [p for p in body.split("\n\n") if p.strip()]
        assert 6 <= len(paragraphs) <= 12, doc.name
        assert 2_000 <= len(text.encode("utf-8")) <= 5_000, doc.name
        langs["ja" if doc.name.startswith("ja-") else "en"] += 1
    assert langs == {"en": 5, "ja": 3}


def test_ids_unique_and_well_formed() -> None:
    ids = [q["id"] for q in QUESTIONS]
    assert len(ids) == len(set(ids))
    assert all(i.startswith("sample:") for i in ids)


@pytest.mark.parametrize("q", QUESTIONS, ids=lambda q: q["id"])
def test_question_fields(q: dict[str, Any]) -> None:
    assert set(q) == FIELDS
    assert q["kind"] in KINDS
    assert q["lang"] in LANGS
    assert isinstance(q["question"], str) and q["question"].strip()
    assert q["answerable"] is (q["kind"] == "in_corpus")
    if q["kind"] == "in_corpus":
        assert q["answers"], "in_corpus needs gold answers"
    else:
        assert q["answers"] == []
    if q["kind"] == "out_of_corpus":
        assert q["source"] is None
    else:
        assert isinstance(q["source"], str)
        assert (sample_corpus_dir() / q["source"]).is_file(), q["source"]
        assert q["source"].startswith("ja-") is (q["lang"] == "ja")


@pytest.mark.parametrize(
    "q", [q for q in QUESTIONS if q["kind"] == "in_corpus"], ids=lambda q: q["id"]
)
def test_in_corpus_answers_occur_in_source(q: dict[str, Any]) -> None:
    text = (sample_corpus_dir() / q["source"]).read_text(encoding="utf-8")
    for answer in q["answers"]:
        assert answer in text, answer


def test_counts() -> None:
    counts: dict[tuple[str, str], int] = {}
    for q in QUESTIONS:
        key = (q["kind"], q["lang"])
        counts[key] = counts.get(key, 0) + 1
    assert counts == {
        ("in_corpus", "en"): 12,
        ("in_corpus", "ja"): 6,
        ("squad_unanswerable", "en"): 4,
        ("squad_unanswerable", "ja"): 2,
        ("out_of_corpus", "en"): 4,
        ("out_of_corpus", "ja"): 2,
    }
