"""An offline ``GraceApp.ask`` against another checkout's, alternating in fresh processes.

``python -m bench.ask_against OLD_CHECKOUT [--rounds 3] [--asks 60]`` times the same question
on a new thread each time through ``GraceApp.open()`` with each checkout's default settings
(the offline engine, a temporary data directory, the sample corpus ingested and ten asks of
warm-up first): one fresh process per checkout and round, the checkouts alternating, each
first in turn. It prints each process's median and the ratio of the medians (this checkout
over the old one). Make the old checkout with ``git worktree add /tmp/old <commit>``; both
run on this interpreter (the old code imported from its directory), so the old checkout's
dependencies must be installed here. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.startup import offline_env

__all__ = ["ask_against"]

_TIMER = """
import statistics, sys, time, uuid
from graph.app import GraceApp
question = sys.argv[1]
with GraceApp.open() as grace:
    for _ in range(10):
        grace.ask(question, thread_id=uuid.uuid4().hex)
    ms = []
    for _ in range(int(sys.argv[2])):
        start = time.perf_counter()
        grace.ask(question, thread_id=uuid.uuid4().hex)
        ms.append((time.perf_counter() - start) * 1000)
print(statistics.median(ms))
"""
QUESTION = "When did the horse tram line open in Lumen Bay?"
HERE = Path(__file__).resolve().parents[1]


def _median_ms(checkout: Path, asks: int) -> float:
    """One fresh process over ``checkout``'s code: the median ms of ``asks`` warm asks."""
    with tempfile.TemporaryDirectory(prefix="grace-ask-against-") as data:
        env = {**offline_env(data), "PYTHONPATH": str(checkout)}
        done = subprocess.run(
            [sys.executable, "-c", _TIMER, QUESTION, str(asks)],
            cwd=checkout, env=env, capture_output=True, text=True, check=True, timeout=600,
        )
    return float(done.stdout.strip().splitlines()[-1])


def ask_against(old: Path, rounds: int = 3, asks: int = 60) -> dict[str, object]:
    """Medians per round for this checkout (``new``) and ``old``, and their ratio."""
    ms: dict[str, list[float]] = {"old": [], "new": []}
    for i in range(rounds):
        order = [("old", old), ("new", HERE)]
        for name, checkout in order if i % 2 == 0 else order[::-1]:
            ms[name].append(round(_median_ms(checkout, asks), 2))
    old_ms, new_ms = statistics.median(ms["old"]), statistics.median(ms["new"])
    return {
        "old_checkout": str(old),
        "ms_per_round": ms,
        "ratio_new_to_old": round(new_ms / old_ms, 3),
        "faster": f"{(1 - new_ms / old_ms) * 100:.0f} %",
    }


def main() -> None:
    """Print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("old", type=Path, help="the other checkout (a git worktree)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--asks", type=int, default=60)
    args = parser.parse_args()
    print(json.dumps(ask_against(args.old.resolve(), args.rounds, args.asks), indent=1))


if __name__ == "__main__":
    main()
