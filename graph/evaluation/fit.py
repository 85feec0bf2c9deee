"""Fit the learned confidence model on labelled runs and certify its SILENT threshold.

``grace calibrate`` runs a dataset, then (docs/architecture.md §4):

1. turns each run into its features (:func:`grace.scoring.features.run_features`, the same
   function the ``confidence`` node calls) and a label — answered correctly or not;
2. **cross-fits by article**: the runs are split into ``folds`` groups of articles
   (GroupKFold on the question's ``source``; a question without one — out of corpus — is
   grouped by the article its id names, else by itself), and each run is scored by a model
   fitted on the other folds only, so no article is on both sides;
3. certifies the SILENT threshold on those out-of-fold scores
   (:func:`graph.evaluation.certify.certify_over_mixes`): a run is SILENT when its score is
   at or above the threshold *and* its answer's sentence says what was asked
   (:mod:`grace.scoring.sentence_check`); the bound holds for every mix of questions with up to
   ``max_unanswerable_share`` unanswerable, per language where each has
   :data:`MIN_STRATUM` runs of each kind. The model that scored a run never saw it, so the
   bound holds for the procedure; certifying on the fitting data would void it. MAPIE's
   Learn-then-Test certificate for the calibration runs' own mix is written beside it;
4. fits the shipped model on all runs and writes it, as data, with the thresholds, the
   guarantee (data, split, method, bound) and the cross-validated figures.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from confidence.correctness_model import LearnedModel, ModelThresholds, probabilities
from grace.schemas import Source
from grace.scoring.features import FEATURE_NAMES, RunSignals, run_features, signals_of
from grace.scoring.sentence_check import run_check
from graph.evaluation.answers import is_correct
from graph.evaluation.certify import (
    ARGUMENT,
    MixCertificate,
    certify_at_calibration_mix,
    certify_over_mixes,
)
from graph.evaluation.metrics import auroc

__all__ = [
    "DEFAULT_CONFIRM",
    "DEFAULT_NOTIFY",
    "LearnedFit",
    "article_of",
    "cross_fitted",
    "feature_matrix",
    "fit_learned_model",
    "record_signals",
    "read_runs",
    "record_check",
    "strata_of",
]

DEFAULT_NOTIFY = 0.5
"""P(correct) under which a run pauses (CONFIRM). Chosen on the calibration set's out-of-fold
scores: it pauses no more answerable questions than the previous score did and more of the
unanswerable ones. 0.4 on the first reader's runs; the reader that finds the fact (issue 42)
raised P(correct) across the board (out of fold at 0.4: 0.238 answerable / 0.836 unanswerable
paused, against 0.318 / 0.859 before), and the same criterion gives 0.5 (0.281 / 0.877)."""
DEFAULT_CONFIRM = 0.2
"""P(correct) under which a pause is an ESCALATE (no plain accept; a broadening replan first)."""
MAX_UNANSWERABLE_SHARE = 0.5
"""The certificate's default assumption: any mix with at most half unanswerable questions."""
MIN_STRATUM = 200
"""Fewest answerable and fewest unanswerable runs every language needs for per-language
bounds; with fewer, the languages are pooled (their mix then assumed as in the data)."""
REGULARISATION = 0.03
"""Inverse L2 strength of the logistic regression, chosen by article-grouped CV on the runs of
the reader that finds the fact: 5-fold log loss is flat from 0.03 to 0.2 (0.335 to 0.333, far
inside one standard error over articles, 0.045), and on 8 random article splits AUROC is
0.936 at 0.03 against 0.935 at 0.1 (answerability 0.897 against 0.892). Of equally good
strengths the stronger is taken: a linear model over some 60 correlated features, fitted on
a few hundred articles, then says less about articles it never saw. 0.01, the strongest
within one standard error, loses AUROC on the splits (0.935) and on dev (0.924 against
0.928). 0.1 was the choice on the first reader's runs."""

_JSQUAD_ARTICLE = re.compile(r"^jsquad:a(\d+)p")


def read_runs(path: Path) -> list[dict[str, Any]]:
    """The lines of a ``runs.jsonl``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _ns(value: Any) -> Any:
    if isinstance(value, dict):
        return SimpleNamespace(**{k: _ns(v) if k == "sources" else v for k, v in value.items()})
    if isinstance(value, list):
        return [SimpleNamespace(**v) if isinstance(v, dict) else v for v in value]
    return value


def record_signals(run: dict[str, Any]) -> RunSignals:
    """The signals of one recorded run (the same builder the graph uses on its state)."""
    steps = [_ns(s) for s in run.get("steps", []) if s.get("status") != "pending"]
    scores = {k: (float(v["score"]), v.get("breakdown", {})) for k, v in run["scores"].items()}
    return signals_of(run["question"]["question"], steps, scores)


def record_check(run: dict[str, Any]) -> bool:
    """Whether the run's answer may end SILENT: its sentence says what was asked.

    True where the rule does not apply (no answer, no cited passage, or a language it is
    off for): :func:`grace.scoring.sentence_check.run_check` on the answer step's output and
    sources.
    """
    answers = [
        s for s in run.get("steps", [])
        if "result_count" not in (s.get("factors") or {}) and s.get("status") != "pending"
    ]
    if not answers or not run.get("answered"):
        return True
    step = answers[-1]
    sources = [
        Source(
            source_id=str(src.get("source_id", "")), source=str(src.get("source", "")),
            chunk_index=int(src.get("chunk_index", 0)), score=float(src.get("score", 0.0)),
            text=str(src.get("text", "")), title=str(src.get("title", "")),
        )
        for src in step.get("sources", [])
    ]
    check = run_check(run["question"]["question"], str(step.get("output") or ""), sources)
    return check is None or check.holds


def _correct(run: dict[str, Any]) -> bool:
    q = run["question"]
    if not q["answerable"] or not run["answered"]:
        return False
    return is_correct(run["answer"], q["answers"], q["lang"], q.get("patterns") or ())


def _wrong(run: dict[str, Any]) -> bool:
    """Not right (:func:`graph.evaluation.selective.is_right`).

    A wrong answer, an answer to an unanswerable question, or an abstention on an answerable one.
    """
    if run["question"]["answerable"]:
        return not _correct(run)
    return bool(run["answered"])


def article_of(question: dict[str, Any]) -> str:
    """The article a question was written on: its ``source``, else the one its id names."""
    if question.get("source"):
        return str(question["source"])
    match = _JSQUAD_ARTICLE.match(str(question["id"]))
    return f"out:{match.group(1)}" if match else f"out:{question['id']}"


def feature_matrix(runs: Sequence[dict[str, Any]]) -> Any:
    """Each run's :data:`~grace.scoring.features.FEATURE_NAMES` values, one row per run.

    A run's features are computed once (not once per feature name).
    """
    rows = []
    for run in runs:
        features = run_features(record_signals(run))
        rows.append([features[name] for name in FEATURE_NAMES])
    return np.array(rows, dtype=float).reshape(len(rows), len(FEATURE_NAMES))


Params = tuple[np.ndarray, np.ndarray, np.ndarray, float, np.ndarray, np.ndarray]
"""A fitted model: mean, scale, coefficients, intercept, and each feature's least and
greatest value in the fitting runs."""


def _fit(x: np.ndarray, y: np.ndarray) -> Params:
    from sklearn.linear_model import LogisticRegression

    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    model = LogisticRegression(C=REGULARISATION, max_iter=5000)
    model.fit((x - mean) / scale, y)
    low = np.floor(x.min(axis=0) * 1e6) / 1e6
    high = np.ceil(x.max(axis=0) * 1e6) / 1e6
    return mean, scale, model.coef_[0], float(model.intercept_[0]), low, high


def _predict(params: Params, x: np.ndarray) -> Any:
    """P(correct) of ``x``'s rows, each feature clipped into its fitting range first."""
    mean, scale, coef, intercept, low, high = params
    return probabilities(x, mean, scale, coef, intercept, (low, high))


def cross_fitted(
    x: np.ndarray,
    y: np.ndarray,
    groups: Sequence[str],
    folds: int = 5,
    progress: Callable[[str], None] | None = None,
) -> Any:
    """Out-of-fold P(correct): each run scored by a model fitted without its article."""
    from sklearn.model_selection import GroupKFold

    k = min(folds, len(set(groups)))
    out = np.zeros(len(y))
    for i, (train, test) in enumerate(GroupKFold(n_splits=k).split(x, y, list(groups))):
        if progress is not None:
            progress(f"cross-fitting fold {i + 1}/{k} ({len(test)} runs held out)")
        if len(set(y[train].tolist())) < 2:
            raise ValueError("a fold has only right or only wrong runs: label more questions")
        out[test] = _predict(_fit(x[train], y[train]), x[test])
    return out


@dataclass(frozen=True, kw_only=True)
class LearnedFit:
    """The fitted model and its out-of-fold figures."""

    model: LearnedModel
    out_of_fold: list[float]
    wrong: list[bool]
    certified: bool
    may_be_silent: list[bool]
    """Whether each run's sentence says what was asked (:func:`record_check`)."""
    certificate: MixCertificate | None = None
    """The SILENT certificate over mixes (None: not attempted)."""
    calibration_mix: float | None = None
    """MAPIE's threshold certified for the calibration runs' own mix (None: none)."""


def strata_of(runs: Sequence[dict[str, Any]], min_stratum: int = MIN_STRATUM) -> list[str]:
    """Each run's stratum: its language where every language has ``min_stratum`` of each kind.

    Else ``all``: the languages are pooled.
    """
    langs = [str(r["question"].get("lang", "")) for r in runs]
    kinds = [bool(r["question"]["answerable"]) for r in runs]
    pairs = list(zip(langs, kinds, strict=True))
    cells = [(lang, kind) for lang in set(langs) for kind in (True, False)]
    if any(pairs.count(cell) < min_stratum for cell in cells):
        return ["all"] * len(runs)
    return langs


def _guarantee(cert: MixCertificate, data: str, split: str) -> dict[str, Any]:
    """The certificate as written into the model file."""
    wrong = sum(c.silent_wrong + c.unanswerable_silent for c in cert.counts)
    return {
        "level": "silent",
        "threshold": round(float(cert.threshold), 4) if cert.threshold is not None else 1.0,
        "target_risk": cert.target_risk,
        "delta": cert.delta,
        "n": cert.n,
        "selected": cert.selected,
        "errors": wrong,
        "error_upper": round(float(cert.worst_case), 4) if cert.worst_case is not None else None,
        "min_coverage": cert.min_coverage,
        "max_unanswerable_share": cert.max_unanswerable_share,
        "assumption": cert.assumption,
        "argument": ARGUMENT,
        "strata": {
            c.name: {**asdict(c), **{k: round(v, 4) for k, v in b.items()}}
            for c, b in zip(cert.counts, cert.bounds, strict=True)
        },
        "method": f"{cert.method}; SILENT also needs the sentence rule; on out-of-fold scores "
        f"({split})",
        "data": data,
    }


def _at_mix_guarantee(
    threshold: float, target_risk: float, delta: float, split: str, data: str
) -> dict[str, Any]:
    """MAPIE's certificate for the calibration runs' own mix, as written into the file."""
    return {
        "level": "silent_at_calibration_mix",
        "threshold": threshold,
        "target_risk": target_risk,
        "delta": delta,
        "method": "MAPIE BinaryClassificationController (precision >= 1 - target_risk, "
        "Learn-then-Test, Hoeffding-Bentkus, Bonferroni-Holm over a 0.01 grid); SILENT also "
        f"needs the sentence rule; on out-of-fold scores ({split})",
        "assumption": "future questions drawn like the calibration runs (same mix)",
        "data": data,
    }


def _model(
    x: np.ndarray,
    y: np.ndarray,
    cert: MixCertificate,
    guarantees: list[dict[str, Any]],
    *,
    provider: str,
    fitted_on: tuple[str, str],
) -> LearnedModel:
    """The model fitted on all runs, with the certified SILENT threshold (1.0: none).

    ``fitted_on``: the data and the split, for the reader.
    """
    silent = round(float(cert.threshold), 4) if cert.threshold is not None else 1.0
    data, split = fitted_on
    mean, scale, coef, intercept, low, high = _fit(x, y)
    return LearnedModel(
        features=list(FEATURE_NAMES),
        mean=[round(float(v), 6) for v in mean],
        scale=[round(float(v), 6) for v in scale],
        coef=[round(float(v), 6) for v in coef],
        low=[float(v) for v in low],
        high=[float(v) for v in high],
        intercept=round(intercept, 6),
        thresholds=ModelThresholds(
            silent=silent,
            notify=min(DEFAULT_NOTIFY, silent),
            confirm=min(DEFAULT_CONFIRM, silent),
        ),
        guarantees=guarantees,
        provider=provider,
        fitted_on=f"{data}; logistic regression, C={REGULARISATION}; split: {split}",
    )


def fit_learned_model(
    runs: Sequence[dict[str, Any]],
    *,
    provider: str,
    data: str,
    target_risk: float = 0.10,
    delta: float = 0.10,
    min_coverage: float | None = None,
    folds: int = 5,
    max_unanswerable_share: float = MAX_UNANSWERABLE_SHARE,
    progress: Callable[[str], None] | None = None,
) -> LearnedFit:
    """Cross-fit by article, certify SILENT on the out-of-fold scores, fit on all runs.

    ``progress`` is told each stage (features, each fold, certifying) as it starts.
    """
    say = progress or (lambda _message: None)
    say(f"computing the features of {len(runs)} runs")
    x = feature_matrix(runs)
    y = np.array([_correct(r) for r in runs])
    wrong = [_wrong(r) for r in runs]
    groups = [article_of(r["question"]) for r in runs]
    holds = [record_check(r) for r in runs]
    answerable = [bool(r["question"]["answerable"]) for r in runs]
    oof = cross_fitted(x, y, groups, folds, progress)
    say("certifying the SILENT threshold")
    cert = certify_over_mixes(
        oof.tolist(), may_be_silent=holds, wrong=wrong, answerable=answerable,
        strata=strata_of(runs), target_risk=target_risk, delta=delta,
        max_unanswerable_share=max_unanswerable_share, min_coverage=min_coverage,
    )
    at_mix = certify_at_calibration_mix(
        oof.tolist(), may_be_silent=holds, wrong=wrong, target_risk=target_risk, delta=delta
    )
    split = f"{folds}-fold GroupKFold by article, {len(set(groups))} articles"
    guarantees = [_guarantee(cert, data, split)] if cert.threshold is not None else []
    if at_mix is not None:
        guarantees.append(_at_mix_guarantee(at_mix, target_risk, delta, split, data))
    model = _model(x, y, cert, guarantees, provider=provider, fitted_on=(data, split))
    model = model.model_copy(update={"cross_validated": _figures(oof, y, answerable)})
    return LearnedFit(
        model=model, out_of_fold=oof.tolist(), wrong=wrong, certified=cert.threshold is not None,
        may_be_silent=holds, certificate=cert, calibration_mix=at_mix,
    )


def _figures(oof: Any, y: Any, answerable: list[bool]) -> dict[str, float]:
    values = {
        "auroc": auroc(y.tolist(), oof.tolist()),
        "answerability_auroc": auroc(answerable, oof.tolist()),
    }
    return {k: round(v, 4) for k, v in values.items() if v is not None}
