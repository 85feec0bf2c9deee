"""Combining step scores into a run's overall confidence."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from confidence.config import AggregationMethod

__all__ = ["ConfidenceAggregator"]


class ConfidenceAggregator:
    """Combines per-step confidence scores into one number.

    Methods:
    * ``final`` — the last step's score: the answer step, whose score already holds the
      retrieval it rests on (so retrieval is not counted twice). The default.
    * ``mean`` — arithmetic mean.
    * ``min`` — the weakest step (a chain is as strong as its weakest link).
    * ``weighted`` — linear recency weights: step ``i`` (1-based, in execution order)
      weighs ``i``, i.e. ``Σ i·sᵢ / Σ i`` with ``Σ i = n(n+1)/2``; later steps, which
      build on the earlier ones and are closer to the answer, weigh more.

    Every method returns 0.0 for an empty list, and the result is clamped to [0, 1].

    """

    def __init__(self, method: AggregationMethod = "final") -> None:
        """Create an aggregator.

        Args:
            method: Default method for :meth:`aggregate`.

        """
        self.method: AggregationMethod = method
        """Default aggregation method."""

    @staticmethod
    def weights(n: int) -> list[float]:
        """Return the normalised ``weighted`` weights for ``n`` steps (``i / Σ i``)."""
        total = n * (n + 1) / 2
        return [i / total for i in range(1, n + 1)]

    def aggregate(self, scores: Sequence[float], method: AggregationMethod | None = None) -> float:
        """Return the overall confidence of ``scores`` (0.0 when empty).

        Args:
            scores: Step scores in execution order.
            method: ``final``, ``mean``, ``min`` or ``weighted``; the aggregator's default
                when ``None``.

        Raises:
            ValueError: For an unknown method.

        """
        m = method if method is not None else self.method
        values = [float(s) for s in scores]
        if not values:
            return 0.0
        try:
            combine = _METHODS[m]
        except KeyError:
            raise ValueError(f"unknown aggregation method: {m!r}") from None
        result = combine(values)
        return min(1.0, max(0.0, result))


def _weighted(values: list[float]) -> float:
    weights = ConfidenceAggregator.weights(len(values))
    return sum(w * v for w, v in zip(weights, values, strict=True))


_METHODS: dict[str, Callable[[list[float]], float]] = {
    "final": lambda values: values[-1],
    "mean": lambda values: sum(values) / len(values),
    "min": min,
    "weighted": _weighted,
}
"""How each aggregation method combines step scores (in execution order)."""
