"""A learned confidence model: P(answer correct) from the run's own signals.

After Kamath, Jia & Liang, "Selective Question Answering under Domain Shift" (ACL 2020): a
small calibrator over the QA system's own signals predicts whether its answer is right, and
does better than its raw score. GRACE's is an L2-regularised logistic regression over the
named features of a run (``grace.scoring.features``: search statistics, reader margin, judge,
coverage, answer checks, question and answer features, and features aimed at SQuAD 2.0's
adversarial questions), fitted by ``grace calibrate`` on labelled runs.

It is stored as **data** — feature names, standardisation, the range each feature took in
the fitting runs, coefficients, intercept and the thresholds certified on runs it was not
fitted on — in YAML or JSON, never as a pickle
(loading a pickle runs code). :func:`load_model` validates a file strictly and refuses a
malformed or hostile one with one line (:class:`LearnedModelError`).

A pure module: pydantic, and numpy for :func:`probabilities` (the fitting's batches; imported
there). A run's one prediction, :func:`predict`, is plain Python arithmetic over the model's
numbers: loading numpy would cost a ``grace ask`` more than the whole dot product.
"""

# No `from __future__ import annotations`: pydantic reads the fields' types at import; as
# objects they need no evaluating (docs/performance.md).
import functools
import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "MAX_FEATURES",
    "SHIPPED_MODEL",
    "LearnedModel",
    "LearnedModelError",
    "ModelThresholds",
    "default_model",
    "load_model",
    "model_thresholds",
    "predict",
    "probabilities",
]

MAX_FEATURES = 256
"""Most features a model file may name (a larger file is refused, not read into memory)."""
_MAX_FILE_BYTES = 1_000_000


MAX_MAGNITUDE = 1e9
"""Largest magnitude of a model's number: finite but extreme values (``scale: 5e-324``) would
turn a standardised feature into inf and the score into NaN at the first run."""
MIN_SCALE = 1e-9
"""Least per-feature scale (standard deviation): below it a feature's standardised value
overflows."""


class LearnedModelError(ValueError):
    """A model file that cannot be used (the message names the file and what is wrong)."""


class ModelThresholds(BaseModel):
    """Decision thresholds on the model's P(correct): silent ≥ notify ≥ confirm."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    silent: float = Field(ge=0.0, le=1.0)
    notify: float = Field(ge=0.0, le=1.0)
    confirm: float = Field(ge=0.0, le=1.0)

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if not self.silent >= self.notify >= self.confirm:
            raise ValueError("thresholds must satisfy silent >= notify >= confirm")
        return self


class LearnedModel(BaseModel):
    """A fitted logistic model of P(answer correct) (settings ``confidence.model``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["logistic"] = "logistic"
    """The model family (only logistic regression is defined)."""
    features: list[str] = Field(min_length=1, max_length=MAX_FEATURES)
    """Feature names, in coefficient order."""
    mean: list[float]
    """Per-feature mean used to standardise (fitted on the training runs)."""
    scale: list[float]
    """Per-feature standard deviation used to standardise (> 0)."""
    coef: list[float]
    """Coefficients on the standardised features."""
    low: list[float] | None = None
    """Per-feature least value in the fitting runs (with ``high``; ``None``: no range)."""
    high: list[float] | None = None
    """Per-feature greatest value in the fitting runs. A value outside [low, high] is clipped
    into it before standardising: a linear model says nothing about values it never saw, and
    a feature nearly constant in the fitting runs (a tiny ``scale``) would otherwise swamp
    every other with one unseen value."""
    intercept: float
    thresholds: ModelThresholds
    """The decision thresholds on this model's P(correct) (SILENT certified when
    ``guarantees`` says so)."""
    guarantees: list[dict[str, Any]] = Field(default_factory=list)
    """How SILENT's threshold was certified: data, split, method, bound."""
    provider: str = "offline"
    """Engine whose runs it was fitted on; runs of another engine are not scored by it."""
    fitted_on: str = ""
    """Data, split and date (for the reader)."""
    cross_validated: dict[str, float] = Field(default_factory=dict)
    """Figures of the out-of-fold predictions it was certified on (for the reader)."""

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        n = len(self.features)
        if not (len(self.mean) == len(self.scale) == len(self.coef) == n):
            raise ValueError("features, mean, scale and coef must have the same length")
        numbers = [*self.mean, *self.scale, *self.coef, self.intercept]
        if not all(math.isfinite(v) for v in numbers):
            raise ValueError("every number must be finite")
        if any(abs(v) > MAX_MAGNITUDE for v in numbers):
            raise ValueError(f"every number must lie within ±{MAX_MAGNITUDE:g}")
        if any(s < MIN_SCALE for s in self.scale):
            raise ValueError(f"every scale must be >= {MIN_SCALE:g} (a standard deviation)")
        if len(set(self.features)) != n:
            raise ValueError("feature names must be unique")
        self._check_range(n)
        return self

    def _check_range(self, n: int) -> None:
        if (self.low is None) != (self.high is None):
            raise ValueError("low and high go together")
        if self.low is None or self.high is None:
            return
        if not (len(self.low) == len(self.high) == n):
            raise ValueError("features, low and high must have the same length")
        if not all(math.isfinite(v) and abs(v) <= MAX_MAGNITUDE for v in (*self.low, *self.high)):
            raise ValueError(f"every number must be finite and within ±{MAX_MAGNITUDE:g}")
        if any(lo > hi for lo, hi in zip(self.low, self.high, strict=True)):
            raise ValueError("every low must be <= its high")

    def applies_to(self, provider: str) -> bool:
        """Whether this model scores runs of ``provider``'s engine."""
        return self.provider in ("any", provider)


def probabilities(
    x: "np.ndarray",
    mean: "np.ndarray",
    scale: "np.ndarray",
    coef: "np.ndarray",
    intercept: float,
    bounds: "tuple[np.ndarray, np.ndarray] | None" = None,
) -> Any:
    """P(answer correct) for ``x`` (one run's features, or one run per row).

    Each feature is first clipped into the range it took in the fitting runs (``bounds``:
    least and greatest; None: no range), then standardised; the logit is bounded to ±50.
    The scoring rule of cross-fitting (``graph.evaluation.fit``); :func:`predict` computes the
    same for one run in plain Python (``tests/confidence`` holds the two equal).
    """
    import numpy as np

    if bounds is not None:
        x = np.clip(x, *bounds)
    logit = ((x - mean) / scale) @ coef + intercept
    return 1.0 / (1.0 + np.exp(-np.clip(logit, -50.0, 50.0)))


def predict(model: LearnedModel, features: Mapping[str, float]) -> float:
    """P(answer correct) for one run's features (a feature it lacks counts as 0).

    Each feature is first clipped into the range it took in the fitting runs, where the
    model records one (``low`` / ``high``).
    """
    x = [float(features.get(name, 0.0)) for name in model.features]
    if model.low is not None and model.high is not None:
        x = [min(max(v, lo), hi) for v, lo, hi in zip(x, model.low, model.high, strict=True)]
    terms = zip(x, model.mean, model.scale, model.coef, strict=True)
    logit = sum((v - m) / s * c for v, m, s, c in terms) + model.intercept
    return 1.0 / (1.0 + math.exp(-min(max(logit, -50.0), 50.0)))


def model_thresholds(model: LearnedModel, shift: float) -> ModelThresholds:
    """The model's thresholds moved by a user's learned ``shift`` (NOTIFY and CONFIRM only).

    As with the configured thresholds, a person's replies never move SILENT: the certified
    threshold stays the floor.
    """
    t = model.thresholds
    notify = min(max(t.notify + shift, 0.0), t.silent)
    confirm = min(max(t.confirm + shift, 0.0), notify)
    return ModelThresholds(silent=t.silent, notify=notify, confirm=confirm)


def load_model(source: Path | str) -> LearnedModel:
    """Read and validate a JSON model file; a one-line :class:`LearnedModelError` otherwise.

    Only plain data is read (JSON: no tags, nothing that builds an object), and a file over
    1 MB is refused before it is parsed. In ``grace.yaml`` the same fields go under
    ``confidence.model`` and are validated the same way.
    """
    path = Path(source)
    try:
        if path.stat().st_size > _MAX_FILE_BYTES:
            raise LearnedModelError(f"{path}: over {_MAX_FILE_BYTES:,} bytes, not a model file")
        data = json.loads(path.read_text(encoding="utf-8"))
    except LearnedModelError:
        raise
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise LearnedModelError(f"{path}: cannot read a model: {_one_line(exc)}") from None
    try:
        return LearnedModel.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the file"
        raise LearnedModelError(f"{path}: not a model ({where}: {first['msg']})") from None


SHIPPED_MODEL = Path(__file__).resolve().parent / "data" / "offline-model.json"
"""The model GRACE ships for its offline engine (written by ``grace calibrate``)."""


@functools.lru_cache(maxsize=1)
def default_model() -> LearnedModel | None:
    """The shipped model (immutable, read once), or ``None`` where it is not installed."""
    if not SHIPPED_MODEL.is_file():
        return None
    return load_model(SHIPPED_MODEL)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200]
