"""``grace config``: what is in force, and where each part of it came from.

One place a person reads the settings (each with its source: the environment, the settings
file, or the default), the learned confidence model and its certificate, the thresholds that
decide a run's level (with the user's learned shift), the data directory and the collections.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from typing import Any

import yaml

from confidence.correctness_model import SHIPPED_MODEL, LearnedModel
from grace.services import LazyServices
from grace.settings import GraceSettings, config_file_path
from graph.app import GraceApp

__all__ = ["all_lines", "config_lines", "config_report", "gather", "setting_sources"]

_SKIPPED = ("confidence.model", "confidence.calibration.x", "confidence.calibration.y")
"""Settings shown in their own section, or too long for a line."""


def _leaves(data: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in data.items():
        path = f"{prefix}{key}"
        if path in _SKIPPED:
            continue
        if isinstance(value, Mapping) and value:
            yield from _leaves(value, f"{path}.")
        else:
            yield path, value


def _in_file(data: Any, path: str) -> bool:
    for part in path.split("."):
        if not isinstance(data, Mapping) or part not in data:
            return False
        data = data[part]
    return True


def setting_sources(settings: GraceSettings) -> list[tuple[str, Any, str]]:
    """Every setting as (dotted name, value, source): ``environment GRACE_…``, file, default."""
    path = config_file_path()
    file_data = yaml.safe_load(path.read_text(encoding="utf-8")) if path is not None else {}
    rows = []
    for name, value in _leaves(settings.model_dump(mode="json")):
        variable = "GRACE_" + name.upper().replace(".", "__")
        top = "GRACE_" + name.split(".")[0].upper()
        if variable in os.environ:
            source = f"environment {variable}"
        elif top in os.environ and top != variable:
            source = f"environment {top}"
        elif path is not None and _in_file(file_data or {}, name):
            source = f"file {path}"
        else:
            source = "default"
        rows.append((name, value, source))
    return rows


def _model_source(settings: GraceSettings) -> str:
    path = config_file_path()
    if "GRACE_CONFIDENCE__MODEL" in os.environ:
        return "environment GRACE_CONFIDENCE__MODEL"
    if path is not None:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if _in_file(data, "confidence.model"):
            return f"file {path}"
    return f"shipped ({SHIPPED_MODEL.name})" if settings.confidence.model is not None else "none"


def _certificate(model: LearnedModel) -> dict[str, Any] | None:
    silent = [g for g in model.guarantees if g.get("level") == "silent"]
    return silent[0] if silent else None


def config_report(
    settings: GraceSettings,
    *,
    provider: str,
    thresholds: tuple[Mapping[str, float], str],
    shift: float,
    collections: list[dict[str, Any]],
    learned: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """What is in force, as data (``grace config --json``)."""
    model = settings.confidence.model
    deciding, source = thresholds
    return {
        "settings_file": str(config_file_path()) if config_file_path() else None,
        "settings": [
            {"name": n, "value": v, "source": s} for n, v, s in setting_sources(settings)
        ],
        "engine": provider,
        "model": None
        if model is None
        else {
            "source": _model_source(settings),
            "provider": model.provider,
            "applies": model.applies_to(provider),
            "fitted_on": model.fitted_on,
            "thresholds": model.thresholds.model_dump(mode="json"),
            "certificate": _certificate(model),
        },
        "thresholds": {
            "in_force": dict(deciding),
            "source": source,
            "user_shift": shift,
            "user": settings.user_id,
            "learned_from": dict(learned) if learned is not None else None,
        },
        "data_dir": str(settings.data_dir),
        "collections": collections,
    }


def _certificate_lines(cert: Mapping[str, Any] | None) -> list[str]:
    if cert is None:
        return ["  certificate: none (SILENT is not certified: threshold 1.0 keeps it off)"]
    lines = [
        f"  certificate: P(wrong | SILENT) <= {cert.get('target_risk')} with probability >= "
        f"{1 - float(cert.get('delta', 0.1)):.2f} at silent {cert.get('threshold')} "
        f"(bound {cert.get('error_upper')})"
    ]
    lines.append(
        f"  assumption: {cert.get('assumption') or 'not stated: the calibration runs own mix'}"
    )
    return lines


def _learned_line(learned: Mapping[str, Any]) -> str:
    rate = learned["error_rate"]
    return (
        f"  learned from {learned['observations']} answers: {learned['errors']} un-escalated "
        f"errors ({'-' if rate is None else f'{rate:.1%}'}), {learned['corrections']} corrections, "
        f"{learned['ignored']} ignored"
    )


def config_lines(report: Mapping[str, Any]) -> list[str]:
    """The report as plain lines (``grace config``)."""
    lines = [f"settings file: {report['settings_file'] or 'none (defaults and environment)'}"]
    lines += [
        f"  {row['name']} = {json.dumps(row['value'], ensure_ascii=False)}  ({row['source']})"
        for row in report["settings"]
        if row["source"] != "default"
    ]
    defaults = sum(row["source"] == "default" for row in report["settings"])
    lines.append(f"  {defaults} other settings at their defaults (grace config --all lists them)")
    model = report["model"]
    lines.append(f"engine: {report['engine']}")
    if model is None:
        lines.append("confidence model: none (the calibrated overall confidence decides)")
    else:
        used = "decides for this engine" if model["applies"] else (
            f"fitted on {model['provider']} runs: not used for this engine"
        )
        lines.append(f"confidence model: {model['source']}, {used}")
        lines.append(f"  fitted on: {model['fitted_on']}")
        lines += _certificate_lines(model["certificate"])
    t = report["thresholds"]
    values = " / ".join(f"{k} {v:.4g}" for k, v in t["in_force"].items())
    lines.append(
        f"thresholds in force: {values} (from {t['source']}; user {t['user']!r}, learned shift "
        f"{t['user_shift']:+.3f})"
    )
    if t.get("learned_from"):
        lines.append(_learned_line(t["learned_from"]))
    lines.append(f"data dir: {report['data_dir']}")
    names = [c["name"] for c in report["collections"]]
    lines.append(f"collections: {', '.join(names) if names else 'none yet'}")
    return lines


def all_lines(report: Mapping[str, Any]) -> list[str]:
    """Every setting with its source (``grace config --all``)."""
    return [
        f"{row['name']} = {json.dumps(row['value'], ensure_ascii=False)}  ({row['source']})"
        for row in report["settings"]
    ]


def gather(app: GraceApp) -> dict[str, Any]:
    """Read everything :func:`config_report` needs from an open app (its store and services)."""
    from grace.scoring.decision import thresholds_in_force
    from grace.scoring.user_thresholds import learner_for

    settings = app.settings
    library = app.library()
    services = app.services.get() if isinstance(app.services, LazyServices) else app.services
    base = settings.confidence.thresholds
    in_force = base
    learned: dict[str, Any] | None = None
    if settings.learning.enabled and app.store is not None:
        learner = learner_for(services.settings, app.store)
        state = learner.state_for(settings.user_id)  # one read: the thresholds and the record
        in_force = learner.apply(state)
        learned = {
            "observations": state.observations,
            "errors": state.errors,
            "error_rate": state.error_rate,
            "corrections": state.corrections,
            "ignored": state.ignored,
        }
    deciding, source = thresholds_in_force(services.calculator, services.provider, in_force)
    collections = [
        {"name": r.name, "documents": r.documents, "chunks": r.chunks}
        for r in library.collections()
    ]
    return config_report(
        settings,
        provider=services.provider,
        thresholds=(deciding.model_dump(mode="json"), source),
        shift=in_force.notify - base.notify,
        collections=collections,
        learned=learned,
    )


