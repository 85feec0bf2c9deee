"""The learned confidence model: features on hand-written sentences, the model file as data
(a hostile file is refused in one line), prediction and cross-fitting by article."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from pydantic import ValidationError

from confidence.correctness_model import (
    SHIPPED_MODEL,
    LearnedModel,
    LearnedModelError,
    ModelThresholds,
    default_model,
    load_model,
    model_thresholds,
    predict,
    probabilities,
)
from grace.schemas import Source
from grace.scoring.features import (
    FEATURE_NAMES,
    RunSignals,
    number_role_mismatch,
    run_features,
    signals_of,
)
from graph.evaluation import fit as learn
from graph.evaluation.fit import article_of, cross_fitted
from graph.evaluation.record import Chunk


def _signals(question: str, answer: str, passage: str, title: str = "") -> RunSignals:
    src = Source(
        source_id="d#0", source="d.md", chunk_index=0, score=0.9, text=passage, title=title
    )
    return RunSignals(
        question=question,
        passages=[src],
        answer=answer,
        search={"result_count": 1.0, "max_score": 0.9, "mean_score": 0.9, "spread": 0.0},
        answer_factors={"answer_margin": 1.0, "abstained": 0.0},
        search_score=0.8,
        answer_score=0.9,
    )


def test_number_role_mismatch_en_and_ja() -> None:
    asked = "What is item number 7 called?"
    other = "The item number 1692 is called Gizmo1692 and weighs 7 grams."
    same = "The item number 7 is called Gizmo7 and weighs 12 grams."
    assert number_role_mismatch(asked, other) == 1.0
    assert number_role_mismatch(asked, same) == 0.0
    assert number_role_mismatch("What is item 7?", "Nothing numeric here.") == 0.0
    assert number_role_mismatch("第7号の名前は？", "第7号はギズモと呼ばれる。") == 0.0
    assert number_role_mismatch("第7号の名前は？", "第1692号は重さ7グラムである。") == 1.0


def test_features_see_a_swapped_year_and_a_missing_name() -> None:
    right = run_features(_signals(
        "When did Alice Smith open the bakery?", "Alice Smith opened the bakery in 1901. [S1]",
        "Alice Smith opened the bakery in 1901. It closed later."))
    swapped = run_features(_signals(
        "When did Alice Smith open the bakery in 1950?",
        "Alice Smith opened the bakery in 1901. [S1]",
        "Alice Smith opened the bakery in 1901. It closed later."))
    assert right["ev_hard_miss"] == 0.0 and swapped["ev_hard_miss"] == 1.0
    named = run_features(_signals(
        "When did Bob Jones open the bakery?", "Alice Smith opened the bakery in 1901. [S1]",
        "Alice Smith opened the bakery in 1901."))
    assert named["ev_missing_keys"] > right["ev_missing_keys"]
    assert named["ev_key_share"] < right["ev_key_share"]


def test_features_see_negation_and_an_answer_that_only_restates() -> None:
    negated = run_features(_signals(
        "Which river does not flow into the lake?", "The Aire river flows into the lake. [S1]",
        "The Aire river flows into the lake."))
    assert negated["q_negated"] == 1.0 and negated["ev_negation_ok"] == 0.0
    restating = run_features(_signals(
        "ビーグル号が寄港したのはどこ？", "ビーグル号が寄港している。 [S1]",
        "ビーグル号が寄港している。"))
    answering = run_features(_signals(
        "ビーグル号が寄港したのはどこ？", "ビーグル号はリオデジャネイロに寄港した。 [S1]",
        "ビーグル号はリオデジャネイロに寄港した。"))
    assert restating["lang_ja"] == 1.0 and restating["wh_where"] == 1.0
    assert answering["a_new_share"] > restating["a_new_share"]


def test_features_tell_what_the_sentence_states_from_what_its_context_holds() -> None:
    asked = "When was the Grellan Bridge opened?"
    by_title = run_features(_signals(
        asked, "It was opened in 1901. [S1]", "It was opened in 1901.", title="Grellan Bridge"))
    by_referent = run_features(_signals(
        asked, "It was opened in 1901. [S1]",
        "The Grellan Bridge crosses the river. It was opened in 1901."))
    stated = run_features(_signals(
        asked, "The Grellan Bridge was opened in 1901. [S1]",
        "The Grellan Bridge was opened in 1901.", title="Grellan Bridge"))
    assert stated["ev_stated"] == 1.0 and stated["ev_context_gap"] == 0.0
    for leaning in (by_title, by_referent):
        assert leaning["ev_stated"] < stated["ev_stated"]
        assert leaning["ev_context_gap"] > 0.0
        assert leaning["sc_fails"] == 1.0 and leaning["sc_missing"] >= 1.0
    assert stated["sc_fails"] == 0.0 and stated["sc_missing"] == 0.0
    ja_title = run_features(_signals(
        "霧ヶ丘鉄道の路線の長さは？", "路線の長さは12.4キロメートルである。 [S1]",
        "路線の長さは12.4キロメートルである。", title="霧ヶ丘鉄道"))
    ja_stated = run_features(_signals(
        "霧ヶ丘鉄道の路線の長さは？", "霧ヶ丘鉄道の路線の長さは12.4キロメートルである。 [S1]",
        "霧ヶ丘鉄道の路線の長さは12.4キロメートルである。", title="霧ヶ丘鉄道"))
    assert ja_title["ev_context_gap"] > 0.0 and ja_stated["ev_context_gap"] == 0.0


def _quoted(question: str, sentence: str) -> dict[str, float]:
    """The features of a run that answers ``question`` by quoting ``sentence``, its passage."""
    return run_features(_signals(question, f"{sentence} [S1]", sentence))


def test_features_see_the_unit_the_swapped_term_and_absent_keys() -> None:
    long = "How long is the Kiri railway line?"
    measured = _quoted(long, "The Kiri railway line is 12.4 kilometres long.")
    dated = _quoted(long, "The Kiri railway line opened in 1901.")
    untyped = _quoted("Who built the Kiri railway line?", "Ann Lee built the Kiri railway line.")
    assert (measured["ev_measure_ok"], dated["ev_measure_ok"]) == (1.0, 0.0)
    assert untyped["ev_measure_ok"] == 0.5
    imports = "How much did Norway's imports grow in 2001?"
    swapped = _quoted(imports, "Norway's exports grew by 5 percent in 2001.")
    said = _quoted(imports, "Norway's imports grew by 5 percent in 2001.")
    assert (swapped["sc_fails"], swapped["sc_missing"], said["sc_fails"]) == (1.0, 1.0, 0.0)
    name = _quoted(
        "What colour did Mary Brown paint the lighthouse?", "The lighthouse was painted red."
    )
    assert (name["ev_absent_hard"], name["ev_absent_soft"]) == (1.0, 0.0)
    nouns = _quoted("市議会が灯台の予算に割いた割合は？", "灯台には四割が使われた。")
    assert (nouns["ev_absent_hard"], nouns["ev_absent_soft"]) == (0.0, 2.0)


def test_a_recorded_passage_keeps_its_title_so_fitting_reads_what_serving_reads() -> None:
    src = Source(
        source_id="S1", source="d.md", chunk_index=0, score=0.9, text="It was opened in 1901.",
        title="Grellan Bridge", location="§ History",
    )
    chunk = Chunk.of(src)
    assert (chunk.title, chunk.location) == ("Grellan Bridge", "§ History")
    step = {
        "step_id": "s1", "status": "completed", "output": "", "factors": {"result_count": 1.0},
        "sources": [asdict(chunk)],
    }
    run = {"question": {"question": "When was it opened?"}, "steps": [step], "scores": {}}
    (read,) = learn.record_signals(run).passages
    assert (read.title, read.location) == ("Grellan Bridge", "§ History")
    served = signals_of("When was it opened?", [SimpleNamespace(**{**step, "sources": [src]})], {})
    assert served.passages == [read]


def test_features_are_named_and_complete() -> None:
    features = run_features(_signals("Who founded it?", "", ""))
    assert list(features) == list(FEATURE_NAMES)
    assert features["has_evidence"] == 0.0 and features["a_length"] == 0.0


def _model(**changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "features": ["a", "b"], "mean": [0.0, 1.0], "scale": [1.0, 2.0], "coef": [2.0, -1.0],
        "intercept": 0.5, "thresholds": {"silent": 0.9, "notify": 0.4, "confirm": 0.2},
    }
    data.update(changes)
    return data


def test_predict_is_the_logistic_of_the_standardised_features() -> None:
    model = LearnedModel.model_validate(_model())
    z = 2.0 * 1.0 + (-1.0) * ((3.0 - 1.0) / 2.0) + 0.5
    assert predict(model, {"a": 1.0, "b": 3.0}) == pytest.approx(1 / (1 + np.exp(-z)))
    assert predict(model, {}) == pytest.approx(1 / (1 + np.exp(-(0.5 + 0.5))))


def test_predict_in_plain_python_equals_the_numpy_rule_on_the_shipped_model() -> None:
    """A run's prediction (plain Python) is the fitting's batch rule (numpy) to 1e-12."""
    model = default_model()
    assert model is not None and model.low is not None and model.high is not None
    rng = np.random.default_rng(41)
    low, high = np.asarray(model.low), np.asarray(model.high)
    span = np.maximum(high - low, 1.0)
    # Inside the fitting range and beyond it on either side (clipped), 2,000 runs.
    rows = rng.uniform(low - span, high + span, size=(2_000, len(model.features)))
    rows[::7] = np.clip(rows[::7], low, high)
    expected = probabilities(
        rows,
        np.asarray(model.mean),
        np.asarray(model.scale),
        np.asarray(model.coef),
        model.intercept,
        (low, high),
    )
    got = [predict(model, dict(zip(model.features, row.tolist(), strict=True))) for row in rows]
    assert np.max(np.abs(np.asarray(got) - expected)) < 1e-12
    assert 0.01 < float(np.mean(expected)) < 0.99  # the rows are not all at one bound


def test_predict_clips_each_feature_into_its_fitting_range() -> None:
    model = LearnedModel.model_validate(_model(low=[0.0, 1.0], high=[1.0, 5.0]))
    # a = 3 is clipped to 1 and b = -1 to 1: z = 2·(1 − 0)/1 − 1·(1 − 1)/2 + 0.5 = 2.5.
    clipped = predict(model, {"a": 3.0, "b": -1.0})
    assert clipped == pytest.approx(1 / (1 + np.exp(-2.5)))
    assert clipped == predict(model, {"a": 1.0, "b": 1.0})
    # Inside the range nothing changes: z = 2·0.5 − 1·(3 − 1)/2 + 0.5 = 0.5.
    assert predict(model, {"a": 0.5, "b": 3.0}) == pytest.approx(1 / (1 + np.exp(-0.5)))
    unbounded = LearnedModel.model_validate(_model())
    # Without a range: z = 2·3 − 1·(−1 − 1)/2 + 0.5 = 7.5.
    assert predict(unbounded, {"a": 3.0, "b": -1.0}) == pytest.approx(1 / (1 + np.exp(-7.5)))


def test_fitting_records_the_range_and_scoring_clips_to_it() -> None:
    x = np.array([[0.0, 1.0], [1.0, 1.0], [2.0, 1.0], [3.0, 0.8]])
    y = np.array([False, False, True, True])
    params = learn._fit(x, y)  # noqa: SLF001
    assert params[4].tolist() == [0.0, 0.8] and params[5].tolist() == [3.0, 1.0]
    # A value never seen in fitting (b = 0.2, a = 9) scores as the nearest seen one.
    far = learn._predict(params, np.array([[9.0, 0.2]]))  # noqa: SLF001
    edge = learn._predict(params, np.array([[3.0, 0.8]]))  # noqa: SLF001
    assert far.tolist() == edge.tolist()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (json.dumps(_model(low=[0.0, 0.0])), "go together"),
        (json.dumps(_model(low=[0.0], high=[1.0])), "same length"),
        (json.dumps(_model(low=[0.0, 2.0], high=[1.0, 1.0])), "low must be"),
        ('{"__class__": "os.system", "args": ["touch /tmp/pwned-grace"]}', "not a model"),
        (json.dumps(_model(scale=[0.0, 1.0])), "scale"),
        (json.dumps(_model(coef=[1.0])), "same length"),
        (json.dumps(_model(intercept="nan")), "finite"),
        (json.dumps(_model(extra="x")), "extra"),
        (json.dumps(_model(thresholds={"silent": 0.2, "notify": 0.4, "confirm": 0.1})), "silent"),
        ('["a list"]', "not a model"),
        ("{not json", "cannot read a model"),
    ],
)
def test_a_hostile_or_malformed_model_file_is_refused_in_one_line(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "model.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(LearnedModelError) as caught:
        load_model(path)
    assert message in str(caught.value) and "\n" not in str(caught.value)
    assert not Path("/tmp/pwned-grace").exists()


def test_a_huge_model_file_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "model.json"
    path.write_text(" " * 2_000_000, encoding="utf-8")
    with pytest.raises(LearnedModelError, match="over"):
        load_model(path)


def test_the_shipped_model_loads_and_names_its_split() -> None:
    model = default_model()
    assert model is not None and SHIPPED_MODEL.suffix == ".json"
    assert model.features == list(FEATURE_NAMES) and model.provider == "offline"
    (guarantee,) = [g for g in model.guarantees if g["level"] == "silent"]
    assert "GroupKFold by article" in guarantee["method"] and guarantee["data"]
    assert guarantee["error_upper"] <= guarantee["target_risk"]
    # The certificate names its assumption: any mix of questions up to a share unanswerable.
    assert guarantee["threshold"] == model.thresholds.silent
    assert f"{guarantee['max_unanswerable_share']:.0%} unanswerable" in guarantee["assumption"]
    assert all("GroupKFold by article" in g["method"] for g in model.guarantees)


def test_the_shipped_model_is_the_default_command_s_fit() -> None:
    # The file is what `grace calibrate calib --target-risk 0.10` writes today: the fitting
    # procedure's L2 strength, and the default delta, start and range of mixes.
    model = default_model()
    assert model is not None
    assert f"C={learn.REGULARISATION};" in model.fitted_on
    (guarantee,) = [g for g in model.guarantees if g["level"] == "silent"]
    assert guarantee["target_risk"] == pytest.approx(0.10)
    assert guarantee["delta"] == pytest.approx(0.10)
    assert guarantee["min_coverage"] == pytest.approx(0.15)
    assert guarantee["max_unanswerable_share"] == pytest.approx(learn.MAX_UNANSWERABLE_SHARE)
    assert model.thresholds.notify == learn.DEFAULT_NOTIFY
    assert model.thresholds.confirm == learn.DEFAULT_CONFIRM


def test_a_user_shift_moves_notify_and_confirm_never_silent() -> None:
    model = LearnedModel.model_validate(_model())
    moved = model_thresholds(model, 0.1)
    assert (moved.silent, moved.notify, moved.confirm) == pytest.approx((0.9, 0.5, 0.3))
    assert model_thresholds(model, 0.8).notify == 0.9  # never above silent


def test_out_of_corpus_questions_are_grouped_by_their_article() -> None:
    assert article_of({"id": "x", "source": "warsaw.md"}) == "warsaw.md"
    assert article_of({"id": "jsquad:a27572p6q1", "source": None}) == "out:27572"
    assert article_of({"id": "jsquad:a27572p9q0", "source": None}) == "out:27572"


def test_cross_fitting_never_scores_a_run_with_its_own_article() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(60, 2))
    y = x[:, 0] > 0
    groups = [f"g{i % 6}" for i in range(60)]
    # An article whose label depends only on it: a model that saw it would fit it perfectly.
    x[groups.index("g0") :: 6, 1] = 50.0
    y[0::6] = True
    oof = cross_fitted(x, y, groups, folds=3)
    assert oof.shape == (60,) and np.all((0 <= oof) & (oof <= 1))
    assert float(np.mean(oof[1::6][y[1::6]])) > float(np.mean(oof[1::6][~y[1::6]]))


def test_a_yaml_tag_in_the_settings_model_is_refused_without_running_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from grace.errors import SettingsError
    from grace.settings import load_settings

    config = tmp_path / "grace.yaml"
    config.write_text(
        "confidence:\n  model: !!python/object/apply:os.system ['touch /tmp/pwned-grace']\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("GRACE_CONFIG", str(config))
    with pytest.raises(SettingsError) as caught:
        load_settings()
    assert str(config) in str(caught.value) and "not valid YAML" in str(caught.value)
    assert not Path("/tmp/pwned-grace").exists()
    config.write_text("confidence:\n  model: {features: [a], coef: [1]}\n", encoding="utf-8")
    with pytest.raises(SettingsError, match="model"):
        load_settings()


def test_a_model_scores_only_the_engine_it_was_fitted_on() -> None:
    offline = LearnedModel.model_validate(_model())
    assert offline.applies_to("offline") and not offline.applies_to("gemini")
    anywhere = LearnedModel.model_validate(_model(provider="any"))
    assert anywhere.applies_to("gemini") and anywhere.applies_to("offline")


def test_thresholds_may_tie_but_are_probabilities_and_fixed() -> None:
    tied = ModelThresholds(silent=0.5, notify=0.5, confirm=0.5)
    assert (tied.silent, tied.notify, tied.confirm) == (0.5, 0.5, 0.5)
    for bad in (
        {"silent": 1.05, "notify": 0.5, "confirm": 0.2},
        {"silent": 0.9, "notify": 0.5, "confirm": 0.2, "extra": 0.1},
    ):
        with pytest.raises(ValidationError):
            ModelThresholds.model_validate(bad)
    with pytest.raises(ValidationError):
        tied.silent = 0.6  # type: ignore[misc]


def test_a_one_feature_model_with_a_feature_constant_in_fitting() -> None:
    model = LearnedModel.model_validate(
        _model(features=["a"], mean=[0.0], scale=[1.0], coef=[2.0], low=[0.5], high=[0.5])
    )
    # Every value of a is clipped to the one it took: z = 2·0.5 + 0.5 = 1.5.
    assert predict(model, {"a": 9.0}) == pytest.approx(1 / (1 + np.exp(-1.5)))
    assert predict(model, {"a": -9.0}) == predict(model, {"a": 9.0})


def test_the_logit_is_bounded_so_an_extreme_run_keeps_a_floor() -> None:
    model = LearnedModel.model_validate(_model())
    # z = 2·(−1000) + 0.5 is bounded to −50: P = 1 / (1 + e^50), not 0.
    floor = predict(model, {"a": -1000.0, "b": 1.0})
    assert floor == pytest.approx(1 / (1 + np.exp(50.0)), rel=1e-9, abs=0.0)
    assert predict(model, {"a": -10_000.0, "b": 1.0}) == floor
    assert predict(model, {"a": 1000.0, "b": 1.0}) == 1.0


def test_a_model_file_of_exactly_one_megabyte_is_read(tmp_path: Path) -> None:
    text = json.dumps(_model())
    path = tmp_path / "model.json"
    path.write_text(text + " " * (1_000_000 - len(text)), encoding="utf-8")
    assert load_model(path).features == ["a", "b"]
    path.write_text(text + " " * (1_000_001 - len(text)), encoding="utf-8")
    with pytest.raises(LearnedModelError, match="over"):
        load_model(path)


def test_an_unreadable_model_file_is_refused_with_the_reason(tmp_path: Path) -> None:
    with pytest.raises(LearnedModelError) as caught:
        load_model(tmp_path / "missing.json")
    assert "cannot read a model" in str(caught.value) and "No such file" in str(caught.value)
