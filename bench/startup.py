"""Start-up of the ``grace`` command: ``--help`` and ``ask`` to its first line of output.

Each figure is the median wall time over a few fresh processes (``python -m graph.cli.main``, as
the console script runs it). ``ask`` is measured on a data directory that already holds the
sample corpus (the first, ingesting run is not timed); "first output" is the first line the
command writes on stderr (``planning …``, before the graph is imported); "plan shown" is the
plan's line, after the imports, the store's opening and the ``plan`` node.

Against the floor of any LangGraph command — a fresh ``python -c "import langgraph.graph,
langgraph.checkpoint.sqlite"`` — the whole warm ``grace ask`` (to its exit) is timed in the
same rounds, the two interleaved so that the machine's load falls on both alike: the ratio
of their medians (goal ≤ 1.3). Beside it the ratio of their CPU seconds (user + system), which
a loaded machine disturbs less than wall time, and the ratio to the floor ending as ``grace``
ends (its objects frozen, :func:`gc.freeze`, so the shutdown does not collect them): what
GRACE adds to LangGraph's imports, shutdown apart.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

__all__ = ["offline_env", "startup"]

_CLI = [sys.executable, "-m", "graph.cli.main"]
_FLOOR = [sys.executable, "-c", "import langgraph.graph, langgraph.checkpoint.sqlite"]
_FLOOR_FROZEN = [*_FLOOR[:-1], _FLOOR[-1] + "; import gc; gc.freeze()"]
QUESTION = "When did the horse tram line open in Lumen Bay?"


def offline_env(data_dir: str) -> dict[str, str]:
    """This process's environment for an offline ``grace`` in ``data_dir``.

    No ``GRACE_`` setting of the caller's and no Gemini key, so the offline engine answers;
    bytecode caches are written (``PYTHONDONTWRITEBYTECODE`` dropped), as a user's install
    writes them, so that a warm process reads them instead of compiling changed modules.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRACE_")}
    env.pop("GOOGLE_API_KEY", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["GRACE_DATA_DIR"] = data_dir
    return env


def _seconds(command: list[str], env: dict[str, str]) -> float:
    return _wall_and_cpu(command, env)[0]


def _wall_and_cpu(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds of ``command`` and the CPU seconds (user + system) it spent."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, capture_output=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def _first_output_seconds(env: dict[str, str]) -> tuple[float, float]:
    """Seconds to the first line on stderr and to the plan's line (``plan (…): …``)."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [*_CLI, "ask", QUESTION],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    proc.stderr.readline()
    first = time.perf_counter() - start
    plan = first
    for line in proc.stderr:
        if line.startswith("plan ("):
            plan = time.perf_counter() - start
            break
    proc.communicate(timeout=120)
    return first, plan


def startup(runs: int = 5) -> dict[str, Any]:
    """Median seconds of ``grace --help`` and of ``grace ask``, and the ask over the floor.

    ``grace ask`` is timed to its first output and to its exit; the latter against the
    LangGraph import floor, interleaved.
    """
    with tempfile.TemporaryDirectory(prefix="grace-bench-startup-") as tmp:
        env = offline_env(tmp)
        subprocess.run(  # ingest the sample once, untimed
            [*_CLI, "ask", QUESTION, "--json"], env=env, capture_output=True, check=True
        )
        help_s = statistics.median(_seconds([*_CLI, "--help"], env) for _ in range(runs))
        asks = [_first_output_seconds(env) for _ in range(runs)]
        floor, frozen, whole = [], [], []
        for _ in range(runs):
            floor.append(_wall_and_cpu(_FLOOR, env))
            whole.append(_wall_and_cpu([*_CLI, "ask", QUESTION], env))
            frozen.append(_wall_and_cpu(_FLOOR_FROZEN, env))
    ask_s = statistics.median(first for first, _ in asks)
    floor_s, whole_s, frozen_s = (
        statistics.median(w for w, _ in t) for t in (floor, whole, frozen)
    )
    floor_cpu, whole_cpu = (statistics.median(c for _, c in t) for t in (floor, whole))
    ratio = whole_s / floor_s
    return {
        "runs": runs,
        "help_s": round(help_s, 3),
        "ask_first_output_s": round(ask_s, 3),
        "ask_plan_shown_s": round(statistics.median(plan for _, plan in asks), 3),
        "ask_s": round(whole_s, 3),
        "langgraph_floor_s": round(floor_s, 3),
        "ask_over_floor": round(ratio, 2),
        "ask_cpu_s": round(whole_cpu, 3),
        "langgraph_floor_cpu_s": round(floor_cpu, 3),
        "ask_over_floor_cpu": round(whole_cpu / floor_cpu, 2),
        "langgraph_floor_frozen_s": round(frozen_s, 3),
        "ask_over_floor_frozen": round(whole_s / frozen_s, 2),
        "goal": {"help_s": 0.5, "ask_first_output_s": 1.0, "ask_over_floor": 1.3},
        "met": help_s <= 0.5 and ask_s <= 1.0 and ratio <= 1.3,
    }
