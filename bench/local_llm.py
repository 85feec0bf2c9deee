"""Smoke run of GRACE against a real local model: llama.cpp's server (llama-cpp-python).

Usage::

    python -m bench.local_llm --model PATH.gguf [--server-python PYTHON] [--port 8765]
        [--threads 2] [--chat-format NAME] [--alias gemma3-270m] [--limit N] [--json OUT]

Starts ``python -m llama_cpp.server`` on 127.0.0.1 with the GGUF, then runs each bundled
sample question (``grace/data/sample/questions.jsonl``) through ``grace ask --json --model
openai:ALIAS`` in a fresh process, as a user would (``OPENAI_API_KEY=sk-local``,
``GRACE_MODELS__BASE_URL=http://127.0.0.1:PORT/v1``), and prints per question: wall time,
model calls, requests the server refused (HTTP 500, read from its access log), the
structured-output methods the run's notes name, the level, the model failures and the
answer, with whether it holds the expected answer. The summary gives the goals of issue 29:
every ``grace ask`` within 30 s, no request refused after the first of a process, no SILENT
answer wrong, every model failure named.

The server formats the chat with the GGUF's own template unless ``--chat-format`` names one
of llama-cpp-python's: its ``gemma`` format drops system messages ("not allowed on Google's
Gemma models"), so GRACE's reader, planner and judge instructions never reach the model and
the tiny model continues the passages (an empty answer at the ``<passage`` stop); Gemma 3's
own template folds the system message into the first user turn.

Needs llama-cpp-python with its server extra (``pip install "llama-cpp-python[server]"``;
``--server-python`` names the interpreter that has it) and a GGUF model. Not part of the
tests or CI: the build alone takes about ten minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["main"]

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ROOT / "grace" / "data" / "sample" / "questions.jsonl"
GOAL_SECONDS = 30.0
_REFUSED = re.compile(r'"POST /v1/chat/completions HTTP/1\.\d" 500')
_FORMAT_REFUSED = re.compile(
    r"RequestValidationError: \d+ validation errors?:\s*\n\s*\{[^\n]*'response_format'"
)
"""A refusal for the response format in the server's log (llama-cpp-python's traceback)."""
_REQUEST = re.compile(r'"POST /v1/chat/completions HTTP/1\.\d" \d{3}')
_METHOD = re.compile(r"^Structured output \((\w+)\): ([^(]+?) \(")


@dataclass
class Row:
    """One question's run."""

    id: str
    question: str
    seconds: float
    exit_code: int
    status: str = ""
    level: str | None = None
    answer: str = ""
    correct: bool | None = None
    model_calls: int = 0
    requests: int = 0
    refused: int = 0
    format_refused: int = 0
    """Requests refused for their response format (``json_schema``)."""
    methods: dict[str, str] = field(default_factory=dict)
    load: float = 0.0
    """The machine's 1-minute load average when the question started (2 cores here)."""
    model_errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    error: str = ""


def _args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.local_llm", description=__doc__)
    parser.add_argument("--model", required=True, type=Path, help="the GGUF file")
    parser.add_argument("--server-python", default=sys.executable, help="has llama_cpp")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--chat-format", default="", help="llama-cpp-python's (default: the GGUF's template)"
    )
    parser.add_argument("--alias", default="gemma3-270m")
    parser.add_argument("--n-ctx", type=int, default=8192)
    parser.add_argument("--limit", type=int, default=None, help="first N questions only")
    parser.add_argument("--timeout", type=float, default=300.0, help="per grace ask")
    parser.add_argument("--json", type=Path, default=None, help="write the rows here")
    parser.add_argument("--server-log", type=Path, default=None, help="keep the server's log")
    return parser.parse_args(argv)


def _server_command(args: argparse.Namespace) -> list[str]:
    return [
        args.server_python,
        "-m",
        "llama_cpp.server",
        "--model",
        str(args.model),
        "--model_alias",
        args.alias,
        "--host",
        "127.0.0.1",
        "--port",
        str(args.port),
        "--n_threads",
        str(args.threads),
        "--n_threads_batch",
        str(args.threads),
        "--n_ctx",
        str(args.n_ctx),
        *(["--chat_format", args.chat_format] if args.chat_format else []),
    ]


def _wait_ready(base_url: str, server: subprocess.Popen[bytes], seconds: float = 180) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the llama.cpp server exited with code {server.returncode}")
        try:
            with urllib.request.urlopen(f"{base_url}/models", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(1)
    raise SystemExit(f"the llama.cpp server did not answer at {base_url} within {seconds:g} s")


def _env(data_dir: str, base_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRACE_")}
    env.pop("GOOGLE_API_KEY", None)
    env |= {
        "GRACE_DATA_DIR": data_dir,
        "OPENAI_API_KEY": "sk-local",
        "GRACE_MODELS__BASE_URL": base_url,
    }
    return env


def _holds(answer: str, gold: list[str]) -> bool:
    text = " ".join(answer.casefold().split())
    return any(" ".join(g.casefold().split()) in text for g in gold)


def _read_outcome(row: Row, out: dict[str, Any], item: dict[str, Any]) -> None:
    row.status = out.get("status", "")
    row.level = out.get("level")
    draft = out.get("draft") or {}
    row.answer = out.get("answer") or draft.get("answer") or ""
    row.model_calls = int(out.get("usage", {}).get("model_calls", 0))
    row.model_errors = list(out.get("model_errors", []))
    row.notes = list(out.get("notes", []))
    for note in row.notes:
        found = _METHOD.match(note)
        if found:
            row.methods[found.group(1)] = found.group(2)
    if item.get("answerable"):
        row.correct = _holds(row.answer, list(item.get("answers", [])))


def _ask(
    item: dict[str, Any], args: argparse.Namespace, env: dict[str, str], log: Path
) -> Row:
    before = log.read_text(encoding="utf-8", errors="replace")
    command = [sys.executable, "-m", "graph.cli.main", "ask", "--json"]
    command += ["--model", f"openai:{args.alias}", item["question"]]
    load = os.getloadavg()[0]
    started = time.perf_counter()
    try:
        done = subprocess.run(
            command, env=env, capture_output=True, text=True, timeout=args.timeout, check=False
        )
        code, stdout, stderr = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired:
        code, stdout, stderr = -1, "", f"timed out after {args.timeout:g} s"
    row = Row(item["id"], item["question"], time.perf_counter() - started, code, load=load)
    time.sleep(0.5)  # the server's access log line of the last request
    served = log.read_text(encoding="utf-8", errors="replace")[len(before) :]
    row.requests = len(_REQUEST.findall(served))
    row.refused = len(_REFUSED.findall(served))
    row.format_refused = len(_FORMAT_REFUSED.findall(served))
    try:
        _read_outcome(row, json.loads(stdout), item)
    except ValueError:
        row.error = (stderr.strip().splitlines() or ["no output"])[-1][:200]
    return row


HEAD = (
    f"{'id':<11}{'s':>6}{'load':>6}{'calls':>6}{'reqs':>5}{'500s':>5}{'late':>5}  "
    f"{'level':<9}{'ok':<4}"
)
"""Columns: seconds, load average at the start, model calls (GRACE's count), requests the
server saw, of them refused (HTTP 500), refused for their response format after the first
of the process (``late``: each question is a process of its own, so this must be 0), the
level and whether the answer holds the expected one; the structured-output methods, model
failures and the answer follow each row."""


_FIRST_METHOD = "none named (json_schema, the first, or no structured call)"
"""The notes name a method only when it is not the first choice."""


def _print(rows: list[Row]) -> None:
    for r in rows:
        ok = "-" if r.correct is None else ("yes" if r.correct else "no")
        methods = ", ".join(f"{k}={v}" for k, v in r.methods.items()) or _FIRST_METHOD
        late = max(0, r.format_refused - 1)
        print(
            f"{r.id:<11}{r.seconds:>6.1f}{r.load:>6.2f}{r.model_calls:>6}{r.requests:>5}"
            f"{r.refused:>5}{late:>5}  {r.level or r.status or 'error':<9}{ok:<4}"
            f"methods: {methods}; {len(r.model_errors)} failures"
        )
        for error in r.model_errors:
            print(f"{'':>13}! {error[:150]}")
        print(f"{'':>13}> {(r.answer or r.error)[:150]!r}")


def _summary(rows: list[Row], items: dict[str, dict[str, Any]]) -> dict[str, Any]:
    seconds = [r.seconds for r in rows]
    silent_wrong = [
        r.id
        for r in rows
        if r.level == "silent"
        and (r.correct is False or (not items[r.id].get("answerable") and r.answer))
    ]
    return {
        "questions": len(rows),
        "seconds_median": round(statistics.median(seconds), 1) if seconds else None,
        "seconds_max": round(max(seconds), 1) if seconds else None,
        "load_average": [min(r.load for r in rows), max(r.load for r in rows)] if rows else None,
        "over_30s": sum(s > GOAL_SECONDS for s in seconds),
        "format_refused_after_first": sum(max(0, r.format_refused - 1) for r in rows),
        "format_refused_total": sum(r.format_refused for r in rows),
        "refused_total": sum(r.refused for r in rows),
        "silent_wrong": silent_wrong,
        "levels": dict(Counter(str(r.level) for r in rows)),
        "correct": sum(bool(r.correct) for r in rows),
        "runs_with_model_failures": sum(bool(r.model_errors) for r in rows),
        "failed_runs": [r.id for r in rows if r.exit_code not in (0,) or r.error],
    }


def main(argv: list[str] | None = None) -> int:
    """Run the smoke test; 0 when it ran (the goals are printed, not asserted)."""
    args = _args(argv)
    if not args.model.is_file():
        print(f"no GGUF at {args.model}", file=sys.stderr)
        return 2
    probe = subprocess.run([args.server_python, "-c", "import llama_cpp.server"], check=False)
    if probe.returncode != 0:
        need = 'pip install "llama-cpp-python[server]"'
        print(f"{args.server_python} has no llama_cpp.server: {need}", file=sys.stderr)
        return 2
    items = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines()]
    items = items[: args.limit] if args.limit else items
    base_url = f"http://127.0.0.1:{args.port}/v1"
    with tempfile.TemporaryDirectory(prefix="grace-local-llm-") as tmp:
        log = args.server_log or Path(tmp) / "server.log"
        env = _env(str(Path(tmp) / "data"), base_url)
        server_env = {**os.environ, "PYTHONUNBUFFERED": "1"}  # its log, line by line
        with log.open("wb") as sink:
            server = subprocess.Popen(
                _server_command(args), stdout=sink, stderr=subprocess.STDOUT, env=server_env
            )
        try:
            _wait_ready(base_url, server)
            warm = [sys.executable, "-m", "graph.cli.main", "ask", "--json", "--model", "offline"]
            subprocess.run([*warm, "warm-up"], env=env, capture_output=True, check=False)
            rows = []
            print(HEAD + "methods / model failures / answer", flush=True)
            for item in items:
                rows.append(_ask(item, args, env, log))
                _print(rows[-1:])  # as it goes: a long run can be read while it lasts
                sys.stdout.flush()
        finally:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:  # a request still generating: stop it
                server.kill()
                server.wait(timeout=30)
    summary = _summary(rows, {i["id"]: i for i in items})
    print(json.dumps(summary, indent=2))
    if args.json is not None:
        data = {"summary": summary, "rows": [asdict(r) for r in rows]}
        args.json.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
