"""Run GRACE's five benchmarks and print a table (or JSON with ``--json``).

Usage::

    python -m bench [--json] [--only overhead parallel concurrency retrieval]
                    [--runs 30] [--threads 50] [--model-latency 0.1] [--scale 100000]

1. orchestration overhead: a full GRACE run (model-backed path, zero-latency benchmark
   double) vs a bare LangGraph chain with the same number of node executions, both on
   ``SqliteSaver`` → median ms per run and their ratio (goal ≤ 1.3); beside it the same
   GRACE graph with its node bodies replaying one recorded run (``NodeReplay``): the ratio
   without the nodes' own work;
2. parallel steps: a plan of k = 4 independent ``rag_search`` steps, each search 200 ms
   slower → run wall time / 200 ms (goal ≤ 1.2; serial would be ≥ 4);
3. concurrency: 50 threads at once through ``ainvoke`` with ``AsyncSqliteSaver`` → errors
   (goal 0), total time, runs/s;
4. retrieval on the embedded store (Qdrant Edge): a scale curve at 10k and 100k chunks
   (default; ``--scale 1000000`` adds 1M) → ingestion chunks/s, query p50 / p95, peak RSS
   (goal at 100k: >= 3,000 chunks/s, p50 <= 1 ms, peak RSS <= 450 MiB);
5. peak memory (max RSS) of 3. and 4., each measured in its own subprocess;
6. start-up: ``grace --help`` (goal ≤ 0.5 s), ``grace ask`` to its first line of output
   (goal ≤ 1 s), and a whole warm ``grace ask`` over the LangGraph import floor (goal ≤ 1.3x),
   medians over fresh processes (:mod:`bench.startup`);
7. unreachable model: ``grace ask`` against a model whose server refuses connections, to its
   one-line error (goal ≤ 30 s; :mod:`bench.unreachable`);
8. bombs: each file of the third fault probe (a 20 MB and a 96 MB CSV of one-cell rows, a
   DOCX of 300 k paragraphs under another prefix, 95 MB of one-word Markdown paragraphs)
   ingested in a process of its own under an address-space limit → seconds and peak RSS
   (goal ≤ 1 GiB and ≤ 60 s each; :mod:`bench.bombs`).
9. the page (``grace ui``): its first answer on a warm data directory, in Chromium, against
   ``grace ask`` (goal ≤ 2x; :mod:`bench.ui`);
10. calibrate: ``grace calibrate DATASET --target-risk 0.10`` on ``--calibrate-data`` (default
   ``shared/datasets/calib`` beside the repository, else the sample), wall time per 1,000
   questions (goal ≤ 90 s; :mod:`bench.calibrate_time`).
11. lean: checkpoint bytes of one simple offline run and offline ``GraceApp.ask`` ms, for
   main's ``sync`` on ``SqliteSaver`` without the write guard, ``inline`` (``sync``, guard and
   store, ``SqliteSaver``), ``sync`` and ``exit`` on GRACE's saver (each value once per
   version), runs alternating (goal ≤ 15 KB per run; :mod:`bench.lean`); the ask against the
   code before issue 40 (goal ≥ 40 % faster) is :mod:`bench.ask_against`, which needs that
   checkout;
12. thread (not in the default set; ``--only thread --turns N [--variants sync exit]``): N turns
   on one thread per variant, alternating (main's whole conversation in state; the others with
   a store, the latest ``checkpoint.turns_in_state`` turns in state) → ``checkpoints.sqlite``
   size, the store's, and ms per turn, first vs last 100 (goal at 1,000 turns: ≤ 100 MB,
   ≤ 1.5x).

Speed goals are printed, never asserted: benchmarks are not part of the test suite.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

SCENARIOS = (
    "overhead",
    "parallel",
    "concurrency",
    "retrieval",
    "startup",
    "unreachable",
    "bombs",
    "ui",
    "calibrate",
    "lean",
    "thread",
)
"""Scenario names for ``--only`` (memory comes with concurrency and retrieval)."""
DEFAULT_SCENARIOS = [name for name in SCENARIOS if name != "thread"]
"""What runs without ``--only``: all but the long thread (minutes to an hour)."""


def _machine() -> dict[str, Any]:
    mem_gib = None
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            kib = int(fh.readline().split()[1])
            mem_gib = round(kib / 1024 / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    import langgraph.version

    return {
        "cpus": os.cpu_count(),
        "memory_gib": mem_gib,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "langgraph": langgraph.version.__version__,
        "date": dt.date.today().isoformat(),
    }


def _child(name: str, args: argparse.Namespace) -> dict[str, Any]:
    """Run one scenario in this (child) process; add its baseline and peak RSS."""
    from bench import scenarios

    baseline = scenarios.peak_rss_mib()
    if name == "concurrency":
        with scenarios.bench_env() as env:
            after_setup = scenarios.peak_rss_mib()
            out = scenarios.concurrency(env, args.threads, args.model_latency)
    elif name in (retrieval_children := _retrieval_children()):
        after_setup = baseline
        out = retrieval_children[name](args.scale, Path(args.store_dir))
    else:
        raise SystemExit(f"unknown child scenario {name!r}")
    out["rss_mib"] = {
        "after_imports": round(baseline, 1),
        "after_setup": round(after_setup, 1),
        "peak": round(scenarios.peak_rss_mib(), 1),
    }
    return out


def _retrieval_children() -> dict[str, Callable[[int, Path], dict[str, Any]]]:
    """The two processes of a retrieval point: ``grace ingest``-like, then ``grace ask``-like."""
    from bench import scenarios

    return {
        "retrieval-ingest": scenarios.retrieval_ingest,
        "retrieval-queries": scenarios.retrieval_queries,
    }


def _in_subprocess(name: str, args: argparse.Namespace) -> dict[str, Any]:
    cmd = [
        sys.executable,
        "-m",
        "bench",
        "--child",
        name,
        "--threads",
        str(args.threads),
        "--model-latency",
        str(args.model_latency),
        "--scale",
        str(args.scale),
        *(["--store-dir", str(args.store_dir)] if getattr(args, "store_dir", None) else []),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"bench {name} failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def _retrieval_curve(args: argparse.Namespace) -> dict[str, Any]:
    """Retrieval at each curve size below ``--scale`` and at ``--scale``, each in a subprocess.

    The figures at ``--scale`` are the result; the curve lists every size measured.
    """
    from bench.scenarios import RETRIEVAL_CURVE, retrieval_verdict

    sizes = sorted({*(n for n in RETRIEVAL_CURVE if n < args.scale), args.scale})
    curve = []
    for size in sizes:
        with tempfile.TemporaryDirectory(prefix="grace-bench-") as tmp:
            point = argparse.Namespace(**{**vars(args), "scale": size, "store_dir": tmp})
            ingest = _in_subprocess("retrieval-ingest", point)
            queries = _in_subprocess("retrieval-queries", point)
        rss = {
            "ingest_process_peak": ingest["rss_mib"]["peak"],
            "query_process_peak": queries["rss_mib"]["peak"],
            "after_imports": queries["rss_mib"]["after_imports"],
        }
        rss["peak"] = max(rss["ingest_process_peak"], rss["query_process_peak"])
        curve.append(ingest | queries | {"rss_mib": rss})
    top = dict(curve[-1])
    top |= retrieval_verdict(top)
    top["curve"] = [
        {
            "scale": n,
            "chunks": c["chunks"],
            "ingest_chunks_per_s": round(c["ingest_chunks_per_s"]),
            "query_ms_p50": round(c["query_ms_p50"], 3),
            "query_ms_p95": round(c["query_ms_p95"], 3),
            "open_s": round(c["open_s"], 3),
            "compact_s": round(c["compact_s"], 2),
            "ingest_peak_rss_mib": c["rss_mib"]["ingest_process_peak"],
            "query_peak_rss_mib": c["rss_mib"]["query_process_peak"],
        }
        for n, c in zip(sizes, curve, strict=True)
    ]
    return top


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Measure the selected scenarios."""
    from bench import scenarios

    result: dict[str, Any] = {"machine": _machine()}
    only = set(args.only)
    if only & {"overhead", "parallel"}:
        with scenarios.bench_env() as env:
            if "overhead" in only:
                result["overhead"] = scenarios.overhead(env, runs=args.runs)
            if "parallel" in only:
                result["parallel"] = scenarios.parallel(env, latency=args.step_latency)
    if "concurrency" in only:
        result["concurrency"] = _in_subprocess("concurrency", args)
    if "retrieval" in only:
        result["retrieval"] = _retrieval_curve(args)
    if "startup" in only:
        from bench.startup import startup

        result["startup"] = startup()
    if "unreachable" in only:
        from bench.unreachable import unreachable

        result["unreachable"] = unreachable()
    if "bombs" in only:
        from bench.bombs import bombs

        result["bombs"] = bombs()
    if "ui" in only:
        from bench.ui import ui_first_answer

        result["ui"] = ui_first_answer()
    if "calibrate" in only:
        from bench.calibrate_time import calibrate_time

        result["calibrate"] = calibrate_time(args.calibrate_data)
    if only & {"lean", "thread"}:
        result |= _lean(args, only)
    memory = {
        name: result[name]["rss_mib"] for name in ("concurrency", "retrieval") if name in result
    }
    if memory:
        result["memory"] = {
            "method": "resource.getrusage(RUSAGE_SELF).ru_maxrss in a fresh subprocess",
            **{f"{k}_peak_rss_mib": v["peak"] for k, v in memory.items()},
            **{f"{k}_rss_after_imports_mib": v["after_imports"] for k, v in memory.items()},
        }
    return result


def _lean(args: argparse.Namespace, only: set[str]) -> dict[str, Any]:
    """The lean-runs figures (:mod:`bench.lean`) over one offline environment."""
    from bench import lean, scenarios

    out: dict[str, Any] = {}
    with scenarios.bench_env() as env:
        if "lean" in only:
            out["lean"] = {"run_bytes": lean.run_bytes(env), "ask": lean.ask_time(env, args.runs)}
        if "thread" in only:
            out["thread"] = lean.thread_turns(
                env, args.turns, names=tuple(args.variants), turns_in_state=args.turns_in_state
            )
    return out


def _lean_rows(result: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    from bench.lean import VARIANTS

    rows = []
    if le := result.get("lean"):
        b, a = le["run_bytes"], le["ask"]
        rows.append(
            (
                "11 lean: bytes / run",
                ", ".join(f"{k} {b[k]['total_bytes'] / 1000:.1f} KB" for k in VARIANTS),
                "<= 15 KB",
                _met(b["met"]),
            )
        )
        rows.append(
            (
                "11 lean: offline ask",
                ", ".join(f"{k} {v:.1f} ms" for k, v in a["ms_median"].items())
                + f" (exit/main {a['ratio_to_main']['exit']:.2f}x: durability and saver only)",
                "vs old code: bench.ask_against",
                "reported",
            )
        )
    if t := result.get("thread"):
        rows.append(
            (
                f"12 thread ({t['turns']} turns, {t['turns_in_state']} in state)",
                "; ".join(
                    f"{k} {t[k]['db_mb']} MB, {t[k]['ms_per_turn_first']:.0f} -> "
                    f"{t[k]['ms_per_turn_last']:.0f} ms/turn ({t[k]['last_over_first']}x)"
                    for k in VARIANTS
                    if k in t
                ),
                "<= 100 MB, <= 1.5x at 1,000",
                _met(t["met"]),
            )
        )
    return rows


def _met(met: dict[str, bool]) -> str:
    """``met`` or ``MISSED`` per variant judged."""
    return ", ".join(f"{name} {'met' if ok else 'MISSED'}" for name, ok in met.items())


def _fmt(value: Any, unit: str = "", digits: int = 2) -> str:
    if isinstance(value, float):
        return f"{value:.{digits}f}{unit}"
    return f"{value}{unit}"


def _retrieval_rows(r: dict[str, Any], verdict: str) -> list[tuple[str, str, str, str]]:
    """One table row per point of the retrieval curve; the goal is judged at the last one."""
    rows = []
    for point in r["curve"]:
        last = point is r["curve"][-1]
        rows.append(
            (
                f"4 retrieval ({point['chunks']} chunks)",
                f"p50 {point['query_ms_p50']:.2f} ms, p95 {point['query_ms_p95']:.2f} ms; "
                f"ingest {point['ingest_chunks_per_s']:.0f} chunks/s; peak RSS ingest "
                f"{point['ingest_peak_rss_mib']:.0f} / query {point['query_peak_rss_mib']:.0f}"
                " MiB",
                r["goal"] if last else "see below",
                verdict if last else "reported",
            )
        )
    return rows


def table(result: dict[str, Any]) -> str:
    """The figures as an aligned text table."""
    rows: list[tuple[str, str, str, str]] = []

    def verdict(section: dict[str, Any]) -> str:
        return "met" if section["met"] else "MISSED"

    if o := result.get("overhead"):
        rows.append(
            (
                "1 orchestration overhead",
                f"{o['ratio']:.2f}x  (GRACE {o['grace_ms_per_run']:.1f} ms vs bare "
                f"{o['bare_ms_per_run']:.1f} ms / run, {o['node_executions']} nodes, "
                f"{o['checkpointer']}; InMemorySaver {o['memory_saver']['ratio']:.2f}x: "
                f"{o['memory_saver']['grace_ms_per_run']:.1f} vs "
                f"{o['memory_saver']['bare_ms_per_run']:.1f} ms; traced: in node tasks "
                f"{o['split']['grace']['in_nodes_ms']:.1f} ms, outside them "
                f"{o['split']['grace']['outside_ms']:.1f} ms vs bare "
                f"{o['split']['bare']['outside_ms']:.1f} ms; node bodies replayed "
                f"{o['orchestration']['ratio']:.2f}x, node work "
                f"{o['orchestration']['node_work_ms_per_run']:.1f} ms)",
                "<= 1.3x",
                verdict(o),
            )
        )
    if p := result.get("parallel"):
        rows.append(
            (
                "2 parallel steps (k=4)",
                f"{p['wall_over_latency']:.2f} L  (run {p['wall_s'] * 1000:.0f} ms, L = "
                f"{p['latency_s'] * 1000:.0f} ms; search batch {p['search_batch_over_latency']:.2f}"
                f" L; ainvoke {p['async_wall_over_latency']:.2f} L)",
                "<= 1.2 L",
                verdict(p),
            )
        )
    if c := result.get("concurrency"):
        rows.append(
            (
                f"3 concurrency ({c['threads']} ainvoke)",
                f"{c['errors']} errors, {c['total_s']:.2f} s total, {c['runs_per_s']:.1f} runs/s "
                f"(model {c['model_latency_s'] * 1000:.0f} ms x {c['model_calls_per_run']:.0f}"
                f" calls; run p50 {_fmt(c['run_ms_p50'], ' ms', 0)}; a bare 6-node chain with "
                f"the same waits: {c['bare_total_s']:.2f} s)",
                "0 errors",
                verdict(c),
            )
        )
    if r := result.get("retrieval"):
        rows.extend(_retrieval_rows(r, verdict(r)))
    if m := result.get("memory"):
        parts = [
            f"{k.removesuffix('_peak_rss_mib')} {v:.0f} MiB"
            for k, v in m.items()
            if k.endswith("_peak_rss_mib")
        ]
        rows.append(("5 peak memory (max RSS)", ", ".join(parts), "-", "reported"))
    if st := result.get("startup"):
        rows.append(
            (
                "6 start-up",
                f"grace --help {st['help_s']:.2f} s; grace ask to first output "
                f"{st['ask_first_output_s']:.2f} s, plan shown {st['ask_plan_shown_s']:.2f} s; "
                f"whole ask {st['ask_s']:.2f} s = {st['ask_over_floor']:.2f}x the LangGraph "
                f"import floor {st['langgraph_floor_s']:.2f} s (CPU time "
                f"{st['ask_over_floor_cpu']:.2f}x; {st['ask_over_floor_frozen']:.2f}x the floor "
                f"ending as grace does, gc.freeze) (median of {st['runs']})",
                "<= 0.5 s / <= 1 s / <= 1.3x",
                verdict(st),
            )
        )
    if u := result.get("unreachable"):
        rows.append(
            (
                "7 unreachable model",
                f"{u['seconds']:.2f} s to one line, exit {u['exit_status']} "
                f"(median of {u['runs']})",
                "<= 30 s",
                verdict(u),
            )
        )
    if b := result.get("bombs"):
        rows.extend(
            (
                f"8 bomb {row['bomb']} ({row['file_mb']:.0f} MB)",
                f"{row['seconds']:.1f} s, peak RSS {row['peak_rss_mib']} MiB, exit "
                f"{row['exit_status']}: {row['outcome'][:70]}",
                "<= 1 GiB, <= 60 s",
                "met" if row["met"] else "MISSED",
            )
            for row in b["bombs"]
        )
    if ui := result.get("ui"):
        rows.append(
            (
                "9 the page's first answer",
                f"{ui['ratio']:.2f}x grace ask (page {ui['page_ask_s']:.2f} s from Enter, "
                f"{ui['page_open_and_ask_s']:.2f} s with the page's load = "
                f"{ui['ratio_with_page_load']:.2f}x; grace ask {ui['cli_ask_s']:.2f} s; a second "
                f"answer {ui['page_second_ask_s']:.2f} s; median of {ui['runs']})",
                "<= 2x",
                verdict(ui),
            )
        )
    if cal := result.get("calibrate"):
        rows.append(
            (
                "10 grace calibrate",
                f"{cal['seconds']:.1f} s for {cal['questions']} questions ({cal['dataset']}): "
                f"{cal['seconds_per_1000_questions']:.1f} s per 1,000",
                "<= 90 s / 1,000",
                verdict(cal),
            )
        )
    rows.extend(_lean_rows(result))
    header = ("benchmark", "figure", "goal", "")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(4)]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True))
        for row in [header, *rows]
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    mach = result["machine"]
    lines.append(
        f"\nmachine: {mach['cpus']} CPUs, {mach['memory_gib']} GiB, Python {mach['python']}, "
        f"langgraph {mach['langgraph']}, {mach['date']}"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    """Parse arguments, measure, print."""
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--only", nargs="+", choices=SCENARIOS, default=DEFAULT_SCENARIOS)
    parser.add_argument("--turns", type=int, default=1000, help="turns of the thread benchmark")
    parser.add_argument(
        "--variants",
        nargs="+",
        choices=("main", "inline", "sync", "exit"),
        default=["main", "inline", "sync", "exit"],
        help="variants of the thread benchmark (bench.lean)",
    )
    parser.add_argument(
        "--turns-in-state",
        type=int,
        help="checkpoint.turns_in_state for the thread benchmark (default: the setting's)",
    )
    parser.add_argument("--runs", type=int, default=30, help="timed runs for the overhead")
    parser.add_argument("--step-latency", type=float, default=0.2, help="search latency (s)")
    parser.add_argument("--threads", type=int, default=50, help="concurrent ainvoke runs")
    parser.add_argument(
        "--model-latency", type=float, default=0.1, help="model latency in the concurrency run"
    )
    parser.add_argument(
        "--scale",
        type=int,
        default=100_000,
        help="largest retrieval size; the curve also measures 10k / 100k below it "
        "(1000000: the 1M point, ~10 min, not in CI)",
    )
    parser.add_argument(
        "--child",
        choices=["concurrency", "retrieval-ingest", "retrieval-queries"],
        help=argparse.SUPPRESS,
    )
    parser.add_argument("--store-dir", help=argparse.SUPPRESS)
    parser.add_argument(
        "--calibrate-data",
        type=Path,
        default=None,
        help="labelled data set for the calibrate benchmark (default: shared/datasets/calib "
        "beside the repository, else the sample)",
    )
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(_child(args.child, args)))
        return
    result = run(args)
    print(json.dumps(result, indent=2) if args.json else table(result))


if __name__ == "__main__":
    main()
