"""Regular expressions compiled at their first use.

A module-level ``re.compile`` runs at import, in every process, for every pattern the module
holds: GRACE's text rules hold many (English and Japanese question classes, units, dates),
and one ask uses a few of them. :func:`lazy` gives a pattern read like :class:`re.Pattern`
whose compilation waits for its first use; from then on its methods are the compiled
pattern's own (no indirection).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["LazyPattern", "lazy"]

_METHODS = ("search", "match", "fullmatch", "findall", "finditer", "sub", "split")


class LazyPattern:
    """A :class:`re.Pattern` (``str``) compiled at the first call of one of its methods.

    The first call compiles the pattern and puts the compiled pattern's bound methods on
    this object, so later calls go straight to them.
    """

    def __init__(self, pattern: str, flags: int = 0) -> None:
        """Keep ``pattern`` and ``flags`` (as :func:`re.compile` takes them) for later."""
        self.pattern = pattern
        self.flags = flags

    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (compiled by :mod:`re`'s cache on the first call)."""
        compiled = re.compile(self.pattern, self.flags)
        vars(self).update({name: getattr(compiled, name) for name in _METHODS})
        return compiled

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        """:meth:`re.Pattern.search`."""
        return self.compiled().search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        """:meth:`re.Pattern.match`."""
        return self.compiled().match(string, pos, endpos)

    def fullmatch(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> re.Match[str] | None:
        """:meth:`re.Pattern.fullmatch`."""
        return self.compiled().fullmatch(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        """:meth:`re.Pattern.findall`."""
        return self.compiled().findall(string, pos, endpos)

    def finditer(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        """:meth:`re.Pattern.finditer`."""
        return self.compiled().finditer(string, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        """:meth:`re.Pattern.sub`."""
        return self.compiled().sub(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        """:meth:`re.Pattern.split`."""
        return self.compiled().split(string, maxsplit)

    def __repr__(self) -> str:
        """``lazy('…')``, as ``re.compile('…')`` shows."""
        return f"lazy({self.pattern!r}{f', {self.flags!r}' if self.flags else ''})"


def lazy(pattern: str, flags: int = 0) -> LazyPattern:
    """``re.compile(pattern, flags)``, compiled at the pattern's first use."""
    return LazyPattern(pattern, flags)
