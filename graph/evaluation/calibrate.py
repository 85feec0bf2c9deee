"""``grace calibrate DATASET_DIR``: fit ``confidence.calibration`` on your own labelled data.

The run's overall confidence is a ranking score; :mod:`confidence.calibration` maps it to
P(answer correct) so the decision thresholds read as probabilities. This module fits that
map on a dataset in the ``grace eval`` format:

1. run every question with ``confidence.calibration.method: none`` (the raw overall
   confidence; :func:`~graph.evaluation.runner.run_eval`), label each run correct or not
   (:func:`~graph.evaluation.report.is_correct_run`: unanswerable questions count as not
   correct);
2. :func:`fit_calibration` — Platt scaling (default; two parameters, right for tens to a
   few hundred runs) or isotonic regression with at least ``min_bin_size`` runs per block;
3. report the ECE before, after (in-sample) and ``folds``-fold cross-validated (each run
   calibrated by a map fitted without it — the honest estimate), and write the settings
   snippet to paste into ``grace.yaml``.

Fit on data like the questions your users ask, and not on the set you report figures on.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
import typer
import yaml
from rich.console import Console

from confidence import CalibrationMethod, CalibrationParams, Thresholds, apply_calibration
from confidence.calibration import fit_calibration_params
from confidence.config import ThresholdGuarantee
from confidence.risk_control import choose_threshold
from grace.providers.models import calibration_label
from grace.settings import GraceSettings
from graph.evaluation.dataset import DatasetError, parse_part
from graph.evaluation.fit import (
    MAX_UNANSWERABLE_SHARE,
    LearnedFit,
    fit_learned_model,
    read_runs,
)
from graph.evaluation.metrics import auroc, ece
from graph.evaluation.record import RunRecord
from graph.evaluation.report import is_correct_run
from graph.evaluation.runner import run_eval
from graph.evaluation.selective import is_right
from graph.views.terminal import term, term_text

__all__ = [
    "CalibrationFit",
    "RiskTargets",
    "calibrate",
    "calibrate_dataset",
    "calibration_snippet",
    "cross_validated",
    "fit_calibration",
    "guarantee_for",
    "guaranteed_thresholds",
    "learned_lines",
]


def _labelled(records: Sequence[RunRecord]) -> tuple[list[float], list[bool]]:
    return [r.confidence for r in records], [is_correct_run(r) for r in records]


def fit_calibration(
    records: Sequence[RunRecord],
    *,
    method: CalibrationMethod = "platt",
    min_bin_size: int = 10,
    fitted_on: str = "",
) -> CalibrationParams:
    """Fit a calibration of the runs' (raw) confidence to "answered correctly".

    Args:
        records: Evaluated runs whose ``confidence`` is the *raw* overall confidence (run
            with ``confidence.calibration.method: none``).
        method: ``platt`` or ``isotonic`` (``none`` returns the identity).
        min_bin_size: Fewest runs per isotonic block.
        fitted_on: A note stored with the parameters (data set, size, date).

    """
    scores, labels = _labelled(records)
    return fit_calibration_params(
        scores, labels, method=method, min_bin_size=min_bin_size, fitted_on=fitted_on
    )


def cross_validated(
    records: Sequence[RunRecord],
    *,
    method: CalibrationMethod = "platt",
    min_bin_size: int = 10,
    folds: int = 5,
    seed: int = 0,
) -> list[float]:
    """Out-of-fold calibrated confidences: each run mapped by a fit that never saw it."""
    n = len(records)
    if n < 2:
        raise ValueError("cross-validation needs at least two runs")
    k = max(2, min(folds, n))
    order = np.random.default_rng(seed).permutation(n)
    out = [0.0] * n
    for fold in range(k):
        test = set(order[fold::k].tolist())
        train = [r for i, r in enumerate(records) if i not in test]
        params = fit_calibration(train, method=method, min_bin_size=min_bin_size)
        for i in test:
            out[i] = apply_calibration(records[i].confidence, params)
    return out


@dataclass(frozen=True, kw_only=True)
class CalibrationFit:
    """A fitted calibration and how well it does."""

    params: CalibrationParams
    n: int
    accuracy: float
    """Share of runs answered correctly (the calibration's positive class; an abstention is
    not an answer, so this is lower than ``grace eval``'s accuracy)."""
    auroc: float | None
    ece_raw: float | None
    ece_fitted: float | None
    """In-sample: optimistic."""
    ece_cross_validated: float | None
    """Each run calibrated by a fit without it (``folds``-fold)."""
    calibrated: list[float]
    """Each run's confidence after the fitted map (what the thresholds apply to)."""
    wrong: list[bool]
    """Whether each run's answer was wrong (:func:`~graph.evaluation.selective.is_right`)."""
    data: str
    """Where the runs came from (data set, part, size, date)."""
    runs: list[dict[str, Any]] = field(default_factory=list)
    """The runs as ``grace eval`` recorded them (what the learned model is fitted on)."""


def calibrate_dataset(
    dataset_dir: Path,
    *,
    method: CalibrationMethod = "platt",
    min_bin_size: int = 10,
    folds: int = 5,
    settings: GraceSettings | None = None,
    eval_output: Path | None = None,
    progress: bool = True,
    part: tuple[int, int] | None = None,
) -> CalibrationFit:
    """Run the dataset with raw confidence and fit ``confidence.calibration`` on it."""
    base = settings if settings is not None else GraceSettings()
    raw_config = base.confidence.model_copy(
        update={"calibration": CalibrationParams(), "model": None}
    )
    raw = base.model_copy(update={"confidence": raw_config})
    with tempfile.TemporaryDirectory(prefix="grace-calibrate-") as tmp:
        out = eval_output if eval_output is not None else Path(tmp)
        run_eval(Path(dataset_dir), out, settings=raw, progress=progress, n_boot=0, part=part)
        records = _read_records(out / "runs.jsonl")
        runs = read_runs(out / "runs.jsonl")
    scores, labels = _labelled(records)
    where = Path(dataset_dir).name + (f" part {part[0]}/{part[1]} by article" if part else "")
    note = f"{where}: {len(records)} runs, {method}, {date.today().isoformat()}"
    params = fit_calibration(records, method=method, min_bin_size=min_bin_size, fitted_on=note)
    # The calibration applies to the engine it was fitted on (offline, gemini, openai, …).
    params = params.model_copy(update={"provider": calibration_label(base.chat_spec())})
    fitted = [apply_calibration(s, params) for s in scores]
    cv = (
        cross_validated(records, method=method, min_bin_size=min_bin_size, folds=folds)
        if len(records) >= 2
        else None
    )
    return CalibrationFit(
        params=params,
        n=len(records),
        accuracy=float(np.mean(labels)) if labels else 0.0,
        auroc=auroc(labels, scores),
        ece_raw=ece(scores, labels),
        ece_fitted=ece(fitted, labels),
        ece_cross_validated=ece(cv, labels) if cv is not None else None,
        calibrated=fitted,
        wrong=[not is_right(r) for r in records],
        data=note,
        runs=runs,
    )


@dataclass(frozen=True, kw_only=True)
class RiskTargets:
    """The guarantees ``grace calibrate`` is asked for (:mod:`confidence.risk_control`)."""

    silent: float | None = None
    """α of the SILENT threshold (``--target-risk``); None = keep the configured one."""
    notify: float | None = None
    """α of everything answered without a pause (``--notify-risk``); None = keep it."""
    delta: float = 0.1
    """δ: the probability that a bound fails (``--delta``)."""
    min_coverage: float | None = None
    """The least share of runs a certified SILENT threshold should select
    (``--min-coverage``): where the tests start; 0 = from the top; None = the method's
    default (the learned model's certificate: :data:`~graph.evaluation.certify.DEFAULT_START`;
    the calibration map's thresholds: from the top)."""
    max_unanswerable_share: float = MAX_UNANSWERABLE_SHARE
    """The learned model's SILENT certificate holds for every mix with at most this share of
    unanswerable questions (``--max-unanswerable-share``)."""


def guarantee_for(
    fit: CalibrationFit,
    level: str,
    target_risk: float,
    delta: float,
    *,
    min_coverage: float = 0.0,
) -> ThresholdGuarantee | None:
    """The risk-controlled threshold for ``level`` on the fit's calibrated scores, or None."""
    chosen = choose_threshold(
        fit.calibrated,
        fit.wrong,
        target_risk=target_risk,
        delta=delta,
        min_coverage=min_coverage,
    )
    if chosen.threshold is None or chosen.error_upper is None:
        return None
    return ThresholdGuarantee(
        level="silent" if level == "silent" else "notify",
        threshold=round(chosen.threshold, 4),
        target_risk=target_risk,
        delta=delta,
        n=chosen.n,
        selected=chosen.selected,
        errors=chosen.errors,
        error_upper=round(chosen.error_upper, 4),
        min_coverage=min_coverage,
        method=chosen.method,
        data=fit.data,
    )


def guaranteed_thresholds(base: Thresholds, guarantees: Sequence[ThresholdGuarantee]) -> Thresholds:
    """``base`` with the guaranteed thresholds in place, kept ordered (silent ≥ notify ≥ confirm).

    A notify threshold certified above the silent one is capped at it; confirm is lowered
    under notify when needed.
    """
    values = base.model_dump()
    for g in guarantees:
        values[g.level] = g.threshold
    values["notify"] = min(values["notify"], values["silent"])
    values["confirm"] = min(values["confirm"], values["notify"])
    return Thresholds(**values)


def _read_records(path: Path) -> list[RunRecord]:
    import json

    from graph.evaluation.dataset import Question

    records: list[RunRecord] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        data: dict[str, Any] = json.loads(line)
        q = data["question"]
        question = Question(
            **{
                **q,
                "answers": tuple(q.get("answers") or ()),
                "patterns": tuple(q.get("patterns") or ()),
                "expected_actions": tuple(q["expected_actions"])
                if q.get("expected_actions") is not None
                else None,
            }
        )
        records.append(
            RunRecord(
                question=question,
                status=data["status"],
                answer=data["answer"],
                answered=data["answered"],
                confidence=data["confidence"],
                level=data["level"],
            )
        )
    return records


def calibration_snippet(
    params: CalibrationParams,
    thresholds: Thresholds | None = None,
    guarantees: Sequence[ThresholdGuarantee] = (),
    learned: LearnedFit | None = None,
) -> str:
    """The ``grace.yaml`` lines that set this calibration (and risk-controlled thresholds).

    With ``learned``, also the learned model (``confidence.model``) as data.
    """
    data = params.model_dump(mode="json")
    if params.method != "isotonic":
        data.pop("x"), data.pop("y"), data.pop("min_bin_size")
    if params.method != "platt":
        data.pop("a"), data.pop("b")
    confidence: dict[str, Any] = {"calibration": data}
    if thresholds is not None and guarantees and learned is None:
        confidence["thresholds"] = thresholds.model_dump(mode="json")
        confidence["guarantees"] = [g.model_dump(mode="json") for g in guarantees]
    if learned is not None:
        confidence["model"] = learned.model.model_dump(mode="json")
    return yaml.safe_dump({"confidence": confidence}, sort_keys=False, allow_unicode=True)


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def _risk_lines(
    fit: CalibrationFit, risk: RiskTargets
) -> tuple[list[ThresholdGuarantee], list[str]]:
    """Guarantees for the levels with a target, and one line per level saying what came out."""
    guarantees: list[ThresholdGuarantee] = []
    lines: list[str] = []
    delta = risk.delta
    for level, target in (("silent", risk.silent), ("notify", risk.notify)):
        if target is None:
            continue
        # The least coverage is the user's wish for SILENT; NOTIFY's set contains it.
        start = (risk.min_coverage or 0.0) if level == "silent" else 0.0
        g = guarantee_for(fit, level, target, delta, min_coverage=start)
        if g is None:
            where = f" testing from {start:.0%} coverage down" if start else ""
            lines.append(
                f"{level}: no threshold certifies P(wrong) <= {target:.2f} with probability "
                f">= {1 - delta:.2f} on {fit.n} runs{where}; none written for it (more "
                "labelled runs or a better-ranked score are needed)."
            )
            continue
        guarantees.append(g)
        lines.append(
            f"{level}: threshold {g.threshold:.4f} — {g.selected}/{g.n} runs at or above it "
            f"({g.selected / g.n:.0%} coverage), {g.errors} wrong; P(wrong) <= "
            f"{g.error_upper:.3f} with probability >= {1 - delta:.2f}."
        )
    return guarantees, lines


def _failed(run: dict[str, Any]) -> bool:
    """The run met a model or tool error (its own, or a step's)."""
    return bool(run.get("error")) or any(s.get("error") for s in run.get("steps", []))


def _fit_or_exit(console: Console, dataset_dir: Path, **options: Any) -> CalibrationFit:
    """Run and fit; a malformed dataset (exit 2) or runs that all errored (exit 1): one line."""
    try:
        fit = calibrate_dataset(dataset_dir, **options)
    except DatasetError as exc:  # the message alone: it names the file, line and field
        console.print(term_text(f"grace calibrate: {exc}", style="red"))
        raise typer.Exit(code=2) from None
    if fit.runs and all(_failed(run) for run in fit.runs):
        console.print(
            term_text(
                f"grace calibrate: every one of the {len(fit.runs)} runs met a model or tool "
                "error, so there is nothing to calibrate on; nothing written (see "
                "`grace eval` for the errors)",
                style="red",
            )
        )
        raise typer.Exit(code=1)
    return fit


def _learn(
    console: Console, fit: CalibrationFit, risk: RiskTargets, lines: list[str]
) -> LearnedFit | None:
    """Fit the learned model (progress while it cross-fits) and say what came out."""
    target = risk.silent if risk.silent is not None else 0.10
    with console.status("learned model: computing each run's features …") as status:

        def show(message: str) -> None:
            status.update(f"learned model: {message}")

        try:
            learned = fit_learned_model(
                fit.runs,
                provider=fit.params.provider,
                data=fit.data,
                target_risk=target,
                delta=risk.delta,
                min_coverage=risk.min_coverage,
                max_unanswerable_share=risk.max_unanswerable_share,
                progress=show,
            )
        except ValueError as exc:
            lines.append(f"learned model: not fitted ({exc})")
            return None
    lines.extend(learned_lines(learned, risk))
    return learned


def learned_lines(learned: LearnedFit, risk: RiskTargets) -> list[str]:
    """What the learned model's fit and certificate came to, a few lines."""
    m = learned.model
    cv = m.cross_validated
    answered = learned.may_be_silent
    lines = [
        f"learned model: cross-fitted by article ({m.fitted_on.rsplit('split: ', 1)[-1]}): "
        f"AUROC {cv.get('auroc', 0):.3f}, answerability AUROC "
        f"{cv.get('answerability_auroc', 0):.3f} (out of fold)",
        f"sentence rule: {len(answered) - sum(answered)} of {len(answered)} runs at most "
        "NOTIFY: their answer's sentence does not say every term of the question",
    ]
    cert = learned.certificate
    target = cert.target_risk if cert is not None else (risk.silent or 0.10)
    share = risk.max_unanswerable_share
    if learned.certified and cert is not None and cert.worst_case is not None:
        wrong = sum(c.silent_wrong + c.unanswerable_silent for c in cert.counts)
        lines += [
            f"SILENT: threshold {m.thresholds.silent:.4f} — P(wrong | SILENT) <= {target:.2f} "
            f"with probability >= {1 - cert.delta:.2f} (bound {cert.worst_case:.3f})",
            f"  assumption: {cert.assumption}",
            f"  on these runs: {cert.selected}/{cert.n} SILENT "
            f"({cert.selected / max(cert.n, 1):.0%}), {wrong} wrong; tested per "
            + ", ".join(cert.strata)
            + f", from {cert.min_coverage:.0%} of runs SILENT down",
        ]
    else:
        lines += [
            f"SILENT: no threshold certifies P(wrong | SILENT) <= {target:.2f} for every mix "
            f"with up to {share:.0%} unanswerable (tests from "
            f"{cert.min_coverage if cert is not None else 0:.0%} of runs SILENT down); the "
            "model is written with SILENT off "
            "(threshold 1.0): label more questions, or state a smaller --max-unanswerable-share",
        ]
    if learned.calibration_mix is not None:
        lines.append(
            f"  at these runs' own mix only (MAPIE Learn-then-Test): threshold "
            f"{learned.calibration_mix:.2f} would do; not used"
        )
    t = m.thresholds
    lines.append(
        f"thresholds written (model): silent {t.silent:.4f}, notify {t.notify:.2f}, confirm "
        f"{t.confirm:.2f} — P(correct) under notify pauses, under confirm escalates"
    )
    return lines


def _header(fit: CalibrationFit, folds: int) -> list[str]:
    """The runs, and why "answered correctly" is not eval's accuracy."""
    answerable = sum(bool(r["question"]["answerable"]) for r in fit.runs)
    correct = round(fit.accuracy * fit.n)
    accuracy = correct / answerable if answerable else 0.0
    return [
        f"{fit.n} runs ({answerable} answerable, {fit.n - answerable} unanswerable): "
        f"answered correctly {fit.accuracy:.3f} of all runs",
        f"  (grace eval's accuracy, {accuracy:.3f}, counts answerable questions only; here "
        "every run counts, and an unanswerable question is never answered correctly)",
        f"calibration map ({fit.params.method}): AUROC {_fmt(fit.auroc)}; ECE raw "
        f"{_fmt(fit.ece_raw)}, fitted {_fmt(fit.ece_fitted)} (in-sample), {folds}-fold "
        f"cross-validated {_fmt(fit.ece_cross_validated)}",
    ]


def _checked_options(
    console: Console, dataset_dir: Path, *, method: str, model: str, part: str | None
) -> tuple[int, int] | None:
    """The part asked for; a missing dataset or a wrong option: one line, exit 2."""
    problem = None
    if not (dataset_dir / "questions.jsonl").is_file():
        problem = f"{dataset_dir}: no questions.jsonl"
    elif model not in ("logistic", "none"):
        problem = f"--model must be logistic or none, not {model!r}"
    elif method not in ("platt", "isotonic"):
        problem = f"--method must be platt or isotonic, not {method!r}"
    if problem is not None:
        console.print(term_text(problem, style="red"))
        raise typer.Exit(code=2)
    try:
        return parse_part(part) if part is not None else None
    except DatasetError as exc:
        console.print(term_text(exc, style="red"))
        raise typer.Exit(code=2) from None


def calibrate(
    dataset_dir: Path,
    output: Path,
    *,
    method: str,
    min_bin_size: int,
    folds: int,
    eval_output: Path | None,
    risk: RiskTargets,
    part: str | None,
    model: str = "logistic",
) -> None:
    """``grace calibrate``: fit, certify, write the snippet, print a short summary."""
    console = Console()
    chosen_part = _checked_options(console, dataset_dir, method=method, model=model, part=part)
    chosen: CalibrationMethod = "platt" if method == "platt" else "isotonic"
    fit = _fit_or_exit(
        console,
        dataset_dir,
        method=chosen,
        min_bin_size=min_bin_size,
        folds=folds,
        eval_output=eval_output,
        part=chosen_part,
    )
    lines = _header(fit, folds)
    learned = _learn(console, fit, risk, lines) if model == "logistic" else None
    guarantees: list[ThresholdGuarantee] = []
    thresholds = None
    if learned is None:
        # The calibration map decides: its risk-controlled thresholds are written.
        guarantees, risk_lines = _risk_lines(fit, risk)
        lines.extend(risk_lines)
        thresholds = guaranteed_thresholds(GraceSettings().confidence.thresholds, guarantees)
        if guarantees:
            lines.append(
                f"thresholds written: silent {thresholds.silent:.4f}, notify "
                f"{thresholds.notify:.4f}, confirm {thresholds.confirm:.4f}"
            )
    snippet = calibration_snippet(fit.params, thresholds, guarantees, learned)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(snippet, encoding="utf-8")
    for line in lines:
        console.print(line, markup=False, soft_wrap=True)
    console.print(
        term(
            f"Wrote {output}: merge it into grace.yaml (or GRACE_CONFIG); `grace config` "
            "shows what is in force."
        ),
        markup=False,
        soft_wrap=True,
    )
