"""grace calibrate: fitting confidence.calibration on evaluated runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import yaml

from confidence import CalibrationParams, apply_calibration
from grace.data import sample_dir
from grace.settings import GraceSettings
from graph.evaluation.calibrate import (
    CalibrationFit,
    calibrate_dataset,
    calibration_snippet,
    cross_validated,
    fit_calibration,
    guarantee_for,
    guaranteed_thresholds,
)
from graph.evaluation.dataset import Question
from graph.evaluation.record import RunRecord
from tests.cli_runner import invoke_cli


def _records(n: int, seed: int = 0) -> list[RunRecord]:
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        s = float(rng.uniform())
        correct = bool(rng.uniform() < s**2)  # over-confident raw scores
        q = Question(id=f"q{i}", question="?", answers=("yes",))
        out.append(
            RunRecord(
                question=q,
                status="completed",
                answer="yes" if correct else "no",
                answered=True,
                confidence=s,
                level="notify",
            )
        )
    return out


def test_fit_calibration_labels_runs_by_correctness() -> None:
    params = fit_calibration(_records(400), method="platt")
    assert params.method == "platt" and params.a > 0
    assert apply_calibration(0.5, params) < 0.5  # s² at 0.5 is 0.25: pulled down
    iso = fit_calibration(_records(400), method="isotonic", min_bin_size=40)
    assert iso.method == "isotonic" and len(iso.x) <= 10


def test_cross_validated_confidences_are_out_of_fold_and_bounded() -> None:
    records = _records(100)
    cv = cross_validated(records, method="platt", folds=5)
    assert len(cv) == 100 and all(0.0 <= c <= 1.0 for c in cv)


def test_snippet_round_trips_through_the_settings(tmp_path: Path, monkeypatch: Any) -> None:
    params = CalibrationParams(method="platt", a=7.5, b=-4.25, fitted_on="test")
    path = tmp_path / "grace.yaml"
    path.write_text(calibration_snippet(params), encoding="utf-8")
    assert yaml.safe_load(path.read_text())["confidence"]["calibration"]["a"] == 7.5
    monkeypatch.setenv("GRACE_CONFIG", str(path))
    assert GraceSettings().confidence.calibration == params


def test_calibrate_dataset_on_the_sample(offline_services: Any, tmp_path: Path) -> None:
    settings = GraceSettings(data_dir=tmp_path, provider="offline")
    fit = calibrate_dataset(
        sample_dir(), settings=settings, progress=False, eval_output=tmp_path / "eval"
    )
    assert fit.n == 30 and fit.params.method == "platt" and fit.params.a > 0
    assert fit.ece_raw is not None and fit.ece_cross_validated is not None
    assert fit.ece_fitted is not None and fit.ece_fitted <= fit.ece_raw
    assert (tmp_path / "eval" / "runs.jsonl").is_file()
    assert "sample: 30 runs" in fit.params.fitted_on


def _fit(calibrated: list[float], wrong: list[bool]) -> CalibrationFit:
    return CalibrationFit(
        params=CalibrationParams(), n=len(calibrated), accuracy=0.5, auroc=None, ece_raw=None,
        ece_fitted=None, ece_cross_validated=None, calibrated=calibrated, wrong=wrong,
        data="synthetic",
    )


def test_risk_controlled_thresholds_are_written_and_load(
    tmp_path: Path, monkeypatch: Any
) -> None:
    # 40 confident right answers, then a mixed middle, then wrong ones.
    calibrated = [0.99 - i * 0.001 for i in range(40)] + [0.6 - i * 0.01 for i in range(40)]
    wrong = [False] * 40 + [i % 2 == 0 for i in range(40)]
    fit = _fit(calibrated, wrong)
    silent = guarantee_for(fit, "silent", 0.10, 0.10)
    assert silent is not None
    assert silent.selected >= 40 and silent.error_upper <= 0.10
    thresholds = guaranteed_thresholds(GraceSettings().confidence.thresholds, [silent])
    assert thresholds.silent == silent.threshold
    assert thresholds.silent >= thresholds.notify >= thresholds.confirm
    path = tmp_path / "cal.yaml"
    path.write_text(calibration_snippet(fit.params, thresholds, [silent]), encoding="utf-8")
    monkeypatch.setenv("GRACE_CONFIG", str(path))
    loaded = GraceSettings().confidence
    assert loaded.thresholds.silent == silent.threshold
    assert loaded.guarantees[0].n == 80 and loaded.guarantees[0].method.startswith("Learn")


def test_no_threshold_is_written_when_none_is_certified() -> None:
    fit = _fit([0.9, 0.8, 0.7], [True, False, True])
    assert guarantee_for(fit, "silent", 0.10, 0.10) is None
    snippet = calibration_snippet(fit.params, GraceSettings().confidence.thresholds, [])
    assert "thresholds" not in yaml.safe_load(snippet)["confidence"]


def test_calibrate_command_records_where_the_tests_started(
    offline_services: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.setenv("GRACE_DATA_DIR", str(tmp_path / "data"))
    written = tmp_path / "cal.yaml"
    result = invoke_cli(
        "calibrate", str(sample_dir()), "--target-risk", "0.2", "--min-coverage", "0.5",
        "-o", str(written), "--model", "none",
    )
    assert "silent: threshold" in result.stdout
    confidence = yaml.safe_load(written.read_text(encoding="utf-8"))["confidence"]
    (silent,) = confidence["guarantees"]
    assert silent["min_coverage"] == 0.5 and silent["selected"] >= 15
    assert silent["error_upper"] <= 0.2
    assert confidence["thresholds"]["silent"] == silent["threshold"]
    # A target 30 runs cannot certify (0.01 needs 230 error-free ones): said, with where the
    # tests started, and no threshold written.
    refused = invoke_cli(
        "calibrate", str(sample_dir()), "--target-risk", "0.01", "--min-coverage", "0.9",
        "-o", str(written), "--model", "none",
    )
    assert "no threshold certifies" in refused.stdout and "from 90% coverage" in refused.stdout
    assert "thresholds" not in yaml.safe_load(written.read_text(encoding="utf-8"))["confidence"]


def test_calibrate_fits_the_learned_model_and_names_its_split(
    offline_services: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.setenv("GRACE_DATA_DIR", str(tmp_path / "data"))
    written = tmp_path / "cal.yaml"
    result = invoke_cli("calibrate", str(sample_dir()), "--target-risk", "0.2", "-o", str(written))
    out = result.stdout
    assert "learned model" in out
    # A summary, not the YAML (that goes to the file), and why its figure is not eval's.
    assert len(out.strip().splitlines()) <= 30 and "confidence:\n" not in out
    assert "answered correctly" in out and "grace eval's accuracy" in out
    assert "answerable questions only" in out
    confidence = yaml.safe_load(written.read_text(encoding="utf-8"))["confidence"]
    if "model" in confidence:  # fitted: its guarantee (if any) names the split, never in-sample
        model = confidence["model"]
        assert "GroupKFold by article" in model["fitted_on"]
        assert all("out-of-fold" in g["method"] for g in model["guarantees"])
        _announced_thresholds_are_written(out, model)
        monkeypatch.setenv("GRACE_CONFIG", str(written))
        assert GraceSettings().confidence.model is not None
    else:  # 30 easy runs may leave a fold with only right answers: said, nothing written
        assert "not fitted" in out


def _announced_thresholds_are_written(out: str, model: dict[str, Any]) -> None:
    """Every threshold the summary announces is the one in the file, with its assumption."""
    t = model["thresholds"]
    announced = (
        f"thresholds written (model): silent {t['silent']:.4f}, notify {t['notify']:.2f}, "
        f"confirm {t['confirm']:.2f}"
    )
    assert announced in out
    certified = [g for g in model["guarantees"] if g["level"] == "silent"]
    if certified:
        (g,) = certified
        assert f"SILENT: threshold {g['threshold']:.4f}" in out
        assert g["threshold"] == t["silent"] and g["error_upper"] <= 0.2
        assert "unanswerable" in g["assumption"] and g["max_unanswerable_share"] == 0.5
        assert f"assumption: {g['assumption']}" in out
    else:
        assert "SILENT: no threshold certifies" in out and t["silent"] == 1.0


def test_learned_lines_state_the_certificate_and_its_assumption() -> None:
    from confidence.correctness_model import LearnedModel, ModelThresholds
    from graph.evaluation.calibrate import RiskTargets, learned_lines
    from graph.evaluation.certify import MixCertificate, StratumCounts
    from graph.evaluation.fit import LearnedFit

    counts = StratumCounts("all", answerable=600, silent=200, silent_wrong=4,
                           unanswerable=400, unanswerable_silent=1)
    cert = MixCertificate(
        threshold=0.9, target_risk=0.12, delta=0.1, max_unanswerable_share=0.5,
        strata=("all",), worst_case=0.11, counts=(counts,), bounds=({},), selected=201, n=1000,
    )
    model = LearnedModel(
        features=["a"], mean=[0.0], scale=[1.0], coef=[1.0], intercept=0.0,
        thresholds=ModelThresholds(silent=0.9, notify=0.4, confirm=0.2),
        fitted_on="calib; split: 5-fold GroupKFold by article, 52 articles",
        cross_validated={"auroc": 0.9, "answerability_auroc": 0.85},
    )
    fit = LearnedFit(
        model=model, out_of_fold=[0.5] * 1000, wrong=[False] * 1000, certified=True,
        may_be_silent=[True] * 900 + [False] * 100, certificate=cert, calibration_mix=0.85,
    )
    lines = learned_lines(fit, RiskTargets(silent=0.12))
    text = "\n".join(lines)
    assert "SILENT: threshold 0.9000 — P(wrong | SILENT) <= 0.12 with probability >= 0.90" in text
    assert "any mix with at most 50% unanswerable" in text
    assert "201/1000 SILENT (20%), 5 wrong; tested per all, from 15% of runs SILENT down" in text
    assert "sentence rule: 100 of 1000 runs at most NOTIFY" in text
    assert "MAPIE" in text and "0.85" in text
    assert lines[-1].startswith("thresholds written (model): silent 0.9000, notify 0.40")


def test_the_model_file_states_the_certificate_its_argument_and_assumption() -> None:
    from graph.evaluation.certify import StratumCounts, certify_over_mixes
    from graph.evaluation.fit import _guarantee

    # 600 answerable runs scoring 0.5 … 1 (none wrong), 400 unanswerable scoring under 0.4.
    scores = [0.5 + i / 1200 for i in range(600)] + [i / 1000 for i in range(400)]
    answerable = [True] * 600 + [False] * 400
    cert = certify_over_mixes(
        scores, may_be_silent=[True] * 1000, wrong=[not a for a in answerable],
        answerable=answerable, strata=["all"] * 1000, target_risk=0.10,
    )
    g = _guarantee(cert, "synthetic: 1000 runs", "5-fold GroupKFold by article")
    # Down into the unanswerable runs while at half unanswerable their share stays ≤ 0.10:
    # u / (1 + u) ≤ 0.1 for u up to 0.11 (44 of 400), less what the bounds take.
    unanswerable_silent = sum(s >= g["threshold"] for s in scores[600:])
    assert 0 < unanswerable_silent < 44 and g["errors"] == unanswerable_silent
    assert g["selected"] == 600 + unanswerable_silent
    assert g["min_coverage"] == 0.15 and g["max_unanswerable_share"] == 0.5
    assert g["error_upper"] <= 0.10 and "any mix with at most 50% unanswerable" in g["assumption"]
    assert "e + (1 - target) * (p / (1 - p)) * u / s <= target" in g["argument"]
    assert g["strata"]["all"]["silent"] == 600 and 0.99 < g["strata"]["all"]["silent_lower"] < 1
    assert isinstance(cert.counts[0], StratumCounts)
