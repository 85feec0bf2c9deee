"""Combining step scores into a run's overall confidence."""

from __future__ import annotations

from collections.abc import Sequence

from confidence.config import AggregationMethod

__all__ = ["ConfidenceAggregator"]


class ConfidenceAggregator:
    """Combines per-step confidence scores into one number.

    Methods:
    * ``mean`` — arithmetic mean.
    * ``min`` — the weakest step (a chain is as strong as its weakest link).
    * ``weighted`` — linear recency weights: step ``i`` (1-based, in execution order)
      weighs ``i``, i.e. ``Σ i·sᵢ / Σ i`` with ``Σ i = n(n+1)/2``; later steps, which
      build on the earlier ones and are closer to the answer, weigh more.

    Every method returns 0.0 for an empty list, and the result is clamped to [0, 1].

    """

    def __init__(self, method: AggregationMethod = "weighted") -> None:
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
            method: ``mean``, ``min`` or ``weighted``; the aggregator's default when
                ``None``.

        Raises:
            ValueError: For an unknown method.

        """
        m = method if method is not None else self.method
        values = [float(s) for s in scores]
        if not values:
            return 0.0
        if m == "mean":
            result = sum(values) / len(values)
        elif m == "min":
            result = min(values)
        elif m == "weighted":
            result = sum(w * v for w, v in zip(self.weights(len(values)), values, strict=True))
        else:
            raise ValueError(f"unknown aggregation method: {m!r}")
        return min(1.0, max(0.0, result))
