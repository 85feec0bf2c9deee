"""The lean-runs benchmark (bench.lean) measures what it says, on a tiny thread."""

from __future__ import annotations

import pytest

from bench.lean import run_bytes, thread_turns
from bench.scenarios import bench_env


@pytest.mark.slow
def test_exit_writes_one_checkpoint_per_run_and_the_thread_figures_come_out() -> None:
    with bench_env() as env:
        sizes = run_bytes(env)
        thread = thread_turns(env, turns=3, window=2)
    assert sizes["exit"]["checkpoints"] == 1  # one write when the run ends
    assert sizes["main"]["checkpoints"] == sizes["sync"]["checkpoints"] > 1  # one per step
    assert sizes["exit"]["total_bytes"] < sizes["main"]["total_bytes"]
    # GRACE's saver writes each changed value once: fewer bytes than the same run inline.
    assert sizes["sync"]["checkpoints"] == sizes["inline"]["checkpoints"]
    assert sizes["inline"]["blobs"] == 0 < sizes["sync"]["blobs"]
    assert sizes["sync"]["total_bytes"] < sizes["inline"]["total_bytes"]
    assert thread["turns"] == 3 and set(thread) >= {"main", "exit"}
    assert len(thread["exit"]["db_mb_every_window"]) == 2  # at turn 2 and at the end
