"""Search quality: one number in [0, 1] from a search's hit statistics.

Formula (weights from :class:`~confidence.config.SearchQualityParams`, defaults in
brackets), for ``count > 0``::

    q = ( w_max    · max_score                     [0.50]
        + w_mean   · mean_score                    [0.25]
        + w_count  · min(count, N) / N             [0.15, N = 5]
        + w_spread · spread · max_score            [0.10]
        ) / (w_max + w_mean + w_count + w_spread)

and ``q = 0`` when ``count == 0``. The best hit dominates (one strong passage is usually
enough to answer), the mean rewards a consistently relevant result set, the count term
saturates so that many weak hits cannot buy confidence, and ``spread · max`` rewards a
strong best hit that clearly stands out from the rest (a flat list of mediocre hits gets
nothing from it). Every term is in [0, 1] and the weights are normalised, so ``q`` is in
[0, 1]; ``q`` is non-decreasing in ``max_score``, ``mean_score``, ``count`` and ``spread``.
"""

from __future__ import annotations

from confidence.config import SearchQualityParams
from confidence.types import SearchStats

__all__ = ["search_quality"]


def search_quality(stats: SearchStats, params: SearchQualityParams | None = None) -> float:
    """Return the search quality of ``stats`` by the module's formula (0 for no hits).

    Args:
        stats: Count, best, mean and spread of the search's normalised hit scores.
        params: Weights of the formula; the defaults when ``None``.

    Returns:
        The search quality in [0, 1].

    """
    if stats.count == 0:
        return 0.0
    p = params if params is not None else SearchQualityParams()
    count_term = min(stats.count, p.count_saturation) / p.count_saturation
    total = p.max_weight + p.mean_weight + p.count_weight + p.spread_weight
    q = (
        p.max_weight * stats.max_score
        + p.mean_weight * stats.mean_score
        + p.count_weight * count_term
        + p.spread_weight * stats.spread * stats.max_score
    ) / total
    return min(1.0, max(0.0, q))
