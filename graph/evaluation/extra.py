"""The ``eval`` extra: scikit-learn, matplotlib and mapie, which only evaluation loads.

``grace ask`` runs on the core dependencies; ``grace eval``, ``grace calibrate`` and the
page's evaluation need ``pip install "grace-agent[eval]"`` (the ``dev`` and ``ui`` extras
include it). :func:`require_eval_extra` says so in one line before any work starts.
"""

from __future__ import annotations

import importlib.util

from grace.errors import MissingExtraError

__all__ = ["EVAL_EXTRA", "require_eval_extra"]

EVAL_EXTRA = {"sklearn": "scikit-learn", "matplotlib": "matplotlib", "mapie": "mapie"}
"""Module imported → the distribution of the ``eval`` extra that provides it."""


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent that fails to import, a broken entry
        return False


def require_eval_extra() -> None:
    """Raise :class:`MissingExtraError`, naming the install, if the extra is not all there."""
    missing = [dist for module, dist in EVAL_EXTRA.items() if not _installed(module)]
    if missing:
        raise MissingExtraError(
            f"evaluation needs {', '.join(missing)}: pip install \"grace-agent[eval]\""
        )
