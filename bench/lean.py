"""Lean runs (issue 40): checkpoint bytes per run, offline ``GraceApp.ask`` time, a long thread.

Each figure is measured for four variants in one process, their runs alternating so that
drift (disk cache, CPU frequency, other load) hits all alike:

- ``main``: what main ran before issue 40 — ``durability="sync"``, LangGraph's ``SqliteSaver``
  (every checkpoint holds every channel's value), no write guard, and no store, so a thread's
  state keeps its whole conversation;
- ``inline``: ``sync`` with GRACE's one-writer guard and a ``SqliteStore`` as ``GraceApp.open``
  opens one (a thread's state keeps its latest ``checkpoint.turns_in_state`` turns, older ones
  move to the store), still on ``SqliteSaver``'s inline checkpoints;
- ``sync``: as ``inline`` on GRACE's own saver (:mod:`checkpoints.blobs`: each channel's value
  stored once per version) — what ``GraceApp.open`` runs with a model;
- ``exit``: as ``sync`` with ``exit``, the offline default of ``checkpoint.durability: auto``.

All runs are offline (the embedded engine over the sample corpus) on SQLite files opened as
GRACE opens them (WAL, ``synchronous=NORMAL``).
"""

from __future__ import annotations

import contextlib
import sqlite3
import statistics
import time
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.sqlite import SqliteSaver

from bench.scenarios import SIMPLE, Env
from checkpoints import open_store
from checkpoints.blobs import BlobSqliteSaver
from checkpoints.checkpointer import SQLITE_PRAGMAS
from checkpoints.guard import guarded
from grace.settings import CheckpointSettings, RunDurability
from grace.storage.serde import use_grace_serializer
from graph.app import GraceApp

__all__ = ["VARIANTS", "ask_time", "run_bytes", "thread_turns"]

VARIANTS: dict[str, tuple[RunDurability, bool, bool]] = {
    "main": ("sync", False, False),
    "inline": ("sync", True, False),
    "sync": ("sync", True, True),
    "exit": ("exit", True, True),
}
"""Variant → (durability, guarded saver and a store, GRACE's blob saver)."""

TURN_QUESTIONS = (
    SIMPLE,
    "Who designed the Wren Point Lighthouse?",
    "When is the lantern festival held?",
    "When was the university founded?",
)
"""Asked in turn on one thread by :func:`thread_turns` (as the issue measured)."""


@contextlib.contextmanager
def _saver(path: Path, guard: bool, blobs: bool) -> Iterator[BaseCheckpointSaver[str]]:
    """A SQLite saver over ``path`` as GRACE opens it: guarded or not, blobs or inline."""
    conn = sqlite3.connect(path, check_same_thread=False)
    try:
        for pragma in SQLITE_PRAGMAS:
            conn.execute(pragma)
        saver: BaseCheckpointSaver[str] = BlobSqliteSaver(conn) if blobs else SqliteSaver(conn)
        saver = guarded(saver) if guard else saver
        yield use_grace_serializer(saver)
    finally:
        conn.close()


@contextlib.contextmanager
def _apps(
    env: Env, tag: str, names: tuple[str, ...] = tuple(VARIANTS), turns_in_state: int | None = None
) -> Iterator[dict[str, tuple[GraceApp, Path]]]:
    """One app per variant named, each over a fresh database file.

    ``turns_in_state``: ``checkpoint.turns_in_state`` (default: the setting's default).
    """
    with contextlib.ExitStack() as stack:
        apps = {}
        for name in names:
            durability, guard, blobs = VARIANTS[name]
            path = env.dir / f"lean-{tag}-{name}.sqlite"
            saver = stack.enter_context(_saver(path, guard, blobs))
            store_path = _store_path(path)
            store = (
                stack.enter_context(open_store("sqlite", sqlite_path=store_path)) if guard else None
            )
            kept = {} if turns_in_state is None else {"turns_in_state": turns_in_state}
            checkpoint = CheckpointSettings(durability=durability, **kept)
            settings = env.base.settings.model_copy(update={"checkpoint": checkpoint})
            services = replace(env.base, settings=settings)  # plan reads turns_in_state here
            apps[name] = (GraceApp(settings, saver, store, services=services), path)
        yield apps


def _store_path(path: Path) -> Path:
    """The store file beside a variant's checkpoint file."""
    return path.with_name(path.stem + "-store.sqlite")


def _db_bytes(path: Path) -> int:
    if not path.exists():
        return 0
    """The database's size on disk with its write-ahead log."""
    wal = path.with_name(path.name + "-wal")
    return path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


_TABLES = {
    "checkpoints": ("checkpoint", "length(checkpoint) + length(metadata)"),
    "writes": ("write", "length(value)"),
    "checkpoint_blobs": ("blob", "length(blob)"),
}
"""Table → (its name in the figures, a row's serialised bytes); blobs: GRACE's saver only."""


def _thread_bytes(path: Path, thread_id: str) -> dict[str, int]:
    """Rows and bytes the thread holds in ``path`` (serialised values, not the file)."""
    out = {}
    conn = sqlite3.connect(path)
    try:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        for table, (what, size) in _TABLES.items():
            sql = f"SELECT count(*), coalesce(sum({size}), 0) FROM {table} WHERE thread_id = ?"
            rows, total = conn.execute(sql, (thread_id,)).fetchone() if table in tables else (0, 0)
            out[f"{what}s"], out[f"{what}_bytes"] = rows, total
    finally:
        conn.close()
    out["total_bytes"] = out["checkpoint_bytes"] + out["write_bytes"] + out["blob_bytes"]
    return out


def run_bytes(env: Env) -> dict[str, Any]:
    """Checkpoint bytes of one simple offline run (a new thread), per variant."""
    out: dict[str, Any] = {}
    with _apps(env, "bytes") as apps:
        for name, (app, path) in apps.items():
            thread = uuid.uuid4().hex
            app.ask(SIMPLE, thread_id=thread)
            out[name] = _thread_bytes(path, thread)
    base = out["main"]["total_bytes"]
    for figures in out.values():
        figures["ratio_to_main"] = round(figures["total_bytes"] / base, 3)
    out["goal"] = (
        "<= 15 KB per run: exit writes one checkpoint; sync (the default with a model) writes "
        "one per step, each changed value once"
    )
    out["met"] = {name: out[name]["total_bytes"] <= 15_000 for name in ("sync", "exit")}
    return out


def ask_time(env: Env, runs: int = 30, warmup: int = 3) -> dict[str, Any]:
    """Median ms of an offline ``GraceApp.ask`` (new thread), variants alternating."""
    ms: dict[str, list[float]] = {name: [] for name in VARIANTS}
    with _apps(env, "ask") as apps:
        order = list(apps)
        for i in range(warmup + runs):
            order = order[1:] + order[:1]  # each variant goes first in turn
            for name in order:
                app = apps[name][0]
                t0 = time.perf_counter()
                app.ask(SIMPLE, thread_id=uuid.uuid4().hex)
                if i >= warmup:
                    ms[name].append((time.perf_counter() - t0) * 1000)
    med = {name: statistics.median(v) for name, v in ms.items()}
    return {
        "runs": runs,
        "ms_median": med,
        "ratio_to_main": {name: round(v / med["main"], 3) for name, v in med.items()},
        "goal": (
            "reported: the share of durability and saver, on this code; the ask against the "
            "code before issue 40 (goal >= 40 % faster): python -m bench.ask_against OLD"
        ),
    }


def _turn(app: GraceApp, thread: str, question: str) -> None:
    """One turn; a pause is rejected, so the next turn is a new question."""
    outcome = app.ask(question, thread_id=thread)
    while outcome.status == "interrupted":
        outcome = app.resume(thread, {"decisions": [{"type": "reject"}]})


def _window_ms(ms: list[float], start: int, size: int) -> float:
    return statistics.mean(ms[start : start + size])


def thread_turns(
    env: Env,
    turns: int = 1000,
    window: int = 100,
    names: tuple[str, ...] = tuple(VARIANTS),
    turns_in_state: int | None = None,
) -> dict[str, Any]:
    """``turns`` questions on one thread per variant named, turns alternating between them.

    ``turns_in_state`` overrides ``checkpoint.turns_in_state`` for every variant. Reports the
    checkpoint database's size (with its WAL) every ``window`` turns, the store's (the turns
    moved out of state) at the end, and the mean ms per turn over the first and the last
    ``window`` turns.
    """
    window = min(window, turns)
    ms: dict[str, list[float]] = {name: [] for name in names}
    sizes: dict[str, list[int]] = {name: [] for name in names}
    stores: dict[str, int] = {}
    with _apps(env, "thread", names, turns_in_state) as apps:
        order = list(apps)
        for i in range(turns):
            order = order[1:] + order[:1]  # each variant goes first in turn
            for name in order:
                app, path = apps[name]
                t0 = time.perf_counter()
                _turn(app, "long", TURN_QUESTIONS[i % len(TURN_QUESTIONS)])
                ms[name].append((time.perf_counter() - t0) * 1000)
                if (i + 1) % window == 0 or i + 1 == turns:
                    sizes[name].append(_db_bytes(path))
        stores = {name: _db_bytes(_store_path(path)) for name, (_, path) in apps.items()}
    kept = turns_in_state or CheckpointSettings().turns_in_state
    out: dict[str, Any] = {"turns": turns, "window": window, "turns_in_state": kept}
    for name in names:
        first, last = _window_ms(ms[name], 0, window), _window_ms(ms[name], turns - window, window)
        out[name] = {
            "db_mb": round(sizes[name][-1] / 1e6, 1),
            "db_mb_every_window": [round(s / 1e6, 1) for s in sizes[name]],
            "store_mb": round(stores[name] / 1e6, 1),
            "ms_per_turn_first": round(first, 1),
            "ms_per_turn_last": round(last, 1),
            "last_over_first": round(last / first, 2),
        }
    out["goal"] = "at 1,000 turns: <= 100 MB and last 100 turns <= 1.5x the first 100"
    out["met"] = {
        name: turns >= 1000 and out[name]["db_mb"] <= 100 and out[name]["last_over_first"] <= 1.5
        for name in names
    }
    return out
