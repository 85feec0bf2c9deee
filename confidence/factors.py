"""The factors of a non-search step's weighted mean, as a table.

Each :class:`Factor` is one row — its name, how its value is read from the step's
:class:`ConfidenceFactors`, its weight and when it counts — so a new factor is one
:meth:`FactorRegistry.register` call plus, optionally, a weight in the settings
(``confidence.weights`` overrides the row's weight when it has a field of that name). A
factor whose value is ``None`` or whose condition is false is left out of the mean.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from confidence.config import ConfidenceConfig
from confidence.types import ConfidenceFactors

__all__ = ["Factor", "FactorRegistry", "FactorValue", "default_factors", "signal"]

FactorValue = Callable[[ConfidenceFactors, float], float | None]
"""Reads a factor: ``(factors, effective search quality) -> value`` (None: not measured)."""


def _always(factors: ConfidenceFactors, value: float) -> bool:
    return True


@dataclass(frozen=True)
class Factor:
    """One term of the weighted mean."""

    name: str
    """Name in ``ConfidenceScore.breakdown`` (and of its weight in ``confidence.weights``)."""
    value: FactorValue
    """Reads the factor's value from the step's factors (None: not measured, left out)."""
    weight: float = 0.0
    """Weight when ``confidence.weights`` has no field called :attr:`name`."""
    condition: Callable[[ConfidenceFactors, float], bool] = _always
    """``(factors, value) -> counts``: e.g. search quality only when above 0."""

    def weight_in(self, config: ConfidenceConfig) -> float:
        """The weight in force: the configured one when the settings name this factor."""
        configured = getattr(config.weights, self.name, None)
        return float(configured) if configured is not None else self.weight


def signal(name: str) -> FactorValue:
    """A factor value read from a tool's confidence signal ``name`` (``factors.signals``)."""

    def read(factors: ConfidenceFactors, search_quality: float) -> float | None:
        return factors.signals.get(name)

    return read


class FactorRegistry:
    """The weighted mean's factors in order (the order of ``breakdown``)."""

    def __init__(self, factors: list[Factor]) -> None:
        """Register ``factors`` in order."""
        self._factors: dict[str, Factor] = {}
        for factor in factors:
            self.register(factor)

    def register(self, factor: Factor) -> None:
        """Add ``factor`` (a name may be registered once)."""
        if factor.name in self._factors:
            raise ValueError(f"confidence factor '{factor.name}' registered twice")
        self._factors[factor.name] = factor

    def unregister(self, name: str) -> None:
        """Remove the factor called ``name``."""
        del self._factors[name]

    def __iter__(self) -> Iterator[Factor]:
        """The factors in registration order."""
        return iter(list(self._factors.values()))

    def names(self) -> list[str]:
        """Registered factor names."""
        return list(self._factors)


def default_factors() -> FactorRegistry:
    """GRACE's factors, in the order they appear in a score's breakdown."""
    return FactorRegistry(
        [
            Factor("search_quality", lambda f, sq: sq, condition=lambda f, v: v > 0.0),
            Factor("tool_success", lambda f, sq: f.tool_success),
            Factor(
                "source_agreement",
                lambda f, sq: f.source_agreement,
                condition=lambda f, v: f.source_count > 1,
            ),
            Factor("llm_self_eval", lambda f, sq: f.llm_self_eval),
            Factor("query_coverage", lambda f, sq: f.query_coverage),
            Factor("answer_margin", lambda f, sq: f.answer_margin),
        ]
    )
