"""``grace config``: what is in force and where each part came from."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli_runner import invoke_cli


def test_config_shows_the_model_its_certificate_and_the_deciding_thresholds(
    tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.setenv("GRACE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("GRACE_PROVIDER", "offline")
    out = invoke_cli("config").stdout
    assert "settings file: none" in out
    assert f"data_dir = \"{tmp_path / 'data'}\"  (environment GRACE_DATA_DIR)" in out
    assert 'provider = "offline"  (environment GRACE_PROVIDER)' in out
    assert "engine: offline" in out
    assert "confidence model: shipped (offline-model.json), decides for this engine" in out
    assert "certificate: P(wrong | SILENT) <=" in out and "assumption:" in out
    from confidence.correctness_model import default_model

    shipped = default_model()
    assert shipped is not None
    t = shipped.thresholds
    assert (
        f"thresholds in force: silent {t.silent:.4g} / notify {t.notify:.4g} / confirm "
        f"{t.confirm:.4g} (from learned model; user 'default', learned shift +0.000)"
    ) in out
    assert f"data dir: {tmp_path / 'data'}" in out
    assert "collections:" in out


def test_thresholds_set_in_the_file_win_and_are_said_to(tmp_path: Path, monkeypatch: Any) -> None:
    config = tmp_path / "grace.yaml"
    config.write_text(
        "confidence:\n  thresholds:\n    silent: 0.9\n    notify: 0.5\n    confirm: 0.3\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("GRACE_CONFIG", str(config))
    monkeypatch.setenv("GRACE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("GRACE_PROVIDER", "offline")
    out = invoke_cli("config").stdout
    assert f"settings file: {config}" in out
    assert f"confidence.thresholds.silent = 0.9  (file {config})" in out
    assert "thresholds in force: silent 0.9 / notify 0.5 / confirm 0.3" in out
    assert "settings (set by hand; they win over the model's)" in out
    listed = invoke_cli("config", "--all").stdout
    assert "confidence.weights." in listed and "(default)" in listed


def test_config_json_is_one_object_with_every_part(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("GRACE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("GRACE_PROVIDER", "offline")
    report = json.loads(invoke_cli("config", "--json").stdout)
    assert set(report) >= {
        "settings_file", "settings", "engine", "model", "thresholds", "data_dir", "collections"
    }
    assert report["thresholds"]["source"] == "learned model"
    assert report["model"]["applies"] is True
    names = {row["name"] for row in report["settings"]}
    assert "confidence.thresholds.silent" in names and "confidence.model" not in names


def test_the_thresholds_in_force_are_the_ones_that_decide() -> None:
    from confidence import ConfidenceCalculator, ConfidenceConfig, Thresholds
    from confidence.correctness_model import default_model
    from grace.scoring.decision import final_thresholds, thresholds_in_force

    model = default_model()
    assert model is not None
    shifted = Thresholds(silent=0.98, notify=0.65, confirm=0.45)  # the user's shift: +0.05
    calc = ConfidenceCalculator(ConfidenceConfig(model=model))
    deciding, source = thresholds_in_force(calc, "offline", shifted)
    assert source == "learned model"
    assert deciding == final_thresholds(calc, model, shifted)
    assert deciding.silent == model.thresholds.silent  # a person's replies never move SILENT
    assert deciding.notify == pytest.approx(model.thresholds.notify + 0.05)
    # Another engine's runs: the model does not apply, the settings' thresholds decide.
    assert thresholds_in_force(calc, "gemini", shifted) == (shifted, "settings")
    # Thresholds set by hand win over the model's, and say so.
    by_hand = ConfidenceCalculator(ConfidenceConfig(model=model, thresholds=shifted))
    kept, why = thresholds_in_force(by_hand, "offline", shifted)
    assert kept == shifted and why.startswith("settings (set by hand")


def test_config_shows_what_the_users_thresholds_learned_from(
    tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.setenv("GRACE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("GRACE_PROVIDER", "offline")
    from grace.scoring.user_thresholds import learner_for
    from grace.settings import GraceSettings
    from graph.app import GraceApp

    settings = GraceSettings()
    with GraceApp.open(settings) as app:
        assert app.store is not None
        services = app.services.get()
        learner = learner_for(services.settings, app.store)
        for outcome, score in (("accept", 0.7), ("accept", 0.8), ("edit", 0.9), ("ignore", 0.5)):
            learner.record(settings.user_id, score, outcome)  # type: ignore[arg-type]
    report = json.loads(invoke_cli("config", "--json").stdout)
    learned = report["thresholds"]["learned_from"]
    assert (learned["observations"], learned["corrections"], learned["ignored"]) == (3, 1, 1)
    assert learned["error_rate"] == learned["errors"] / 3
    out = invoke_cli("config").stdout
    assert f"learned from 3 answers: {learned['errors']} un-escalated errors" in out
