"""The trial sets (bench/trial_sets) are valid data sets, and bench.trials counts what it says."""

from __future__ import annotations

from typing import Any

import pytest

from bench.trials import SETS_DIR, main, trial_figures
from graph.evaluation.dataset import load_dataset


def _run(kind: str, level: str, answer: str, answers: tuple[str, ...] = ()) -> dict[str, Any]:
    question = {
        "id": f"x:{kind}:{level}:{answer}", "question": "When did the line open?", "lang": "en",
        "answerable": kind == "in_corpus", "answers": list(answers), "kind": kind,
        "patterns": [],
    }
    return {"question": question, "level": level, "answer": answer, "answered": True}


def test_every_trial_set_loads_and_each_question_has_a_gold_span_in_its_article() -> None:
    sets = sorted(p for p in SETS_DIR.iterdir() if (p / "questions.jsonl").is_file())
    assert len(sets) >= 28
    for path in sets:
        dataset = load_dataset(path)
        kinds = {q.kind for q in dataset.questions}
        assert kinds == {"in_corpus", "squad_unanswerable"}, path.name
        text = "".join(p.read_text(encoding="utf-8") for p in dataset.corpus_dir.glob("*.md"))
        for q in dataset.questions:
            assert q.answerable == bool(q.answers), q.id
            # a gold answer of each answerable question is a span of the article (another
            # may be a looser form of it: "the genus Acrocephalus" for "Acrocephalus")
            assert not q.answers or any(a in text for a in q.answers), q.id


def test_trial_figures_count_adversarial_silent_and_wrong_silent_answers() -> None:
    runs = [
        _run("squad_unanswerable", "silent", "In 1901."),
        _run("squad_unanswerable", "notify", "In 1902."),
        _run("in_corpus", "silent", "It opened in 1874.", ("1874",)),
        _run("in_corpus", "silent", "It opened in 1880.", ("1874",)),
        _run("in_corpus", "confirm", "It opened in 1874.", ("1874",)),
    ]
    figures = trial_figures(runs)
    assert (figures["adversarial"], figures["adversarial_silent"]) == (2, 1)
    assert (figures["answerable"], figures["answerable_right"]) == (3, 2)
    assert (figures["answerable_silent"], figures["silent_wrong"]) == (2, 1)
    assert [leak["answer"] for leak in figures["leaks"]] == ["In 1901.", "It opened in 1880."]


def test_an_unknown_set_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["t999"])
    assert "no trial set t999" in capsys.readouterr().err
