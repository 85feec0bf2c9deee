"""The ``grace`` command: ask, resume, ingest, threads, show (and eval).

Interactive in a terminal (live step view, intervention prompts); with ``--json`` or when
stdin is not a terminal it never waits and prints one JSON object.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.panel import Panel
from rich.prompt import Prompt
from rich.table import Table

from grace.context import GraceContext
from grace.hitl import InvalidHumanResponseError
from grace.services import close_default_services, get_services
from grace.settings import get_settings
from graph.app import GraceApp, RunOutcome, ThreadNotPausedError, UnknownThreadError
from nodes.common import InvalidQuestionError

__all__ = ["app", "main"]

app = typer.Typer(
    name="grace",
    help="GRACE: a RAG agent that plans, scores its confidence and asks you when it should.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console(stderr=True)
out = Console()

_LEVEL_STYLE = {"silent": "green", "notify": "cyan", "confirm": "yellow", "escalate": "red"}


def _print_event(event: dict[str, Any]) -> None:
    kind = event.get("event")
    if kind == "plan_ready":
        steps = ", ".join(f"{s['step_id']}:{s['action']}" for s in event.get("steps", []))
        console.print(f"[bold]plan[/] ({event.get('origin')}): {steps}")
        for repair in event.get("repairs", []):
            console.print(f"  [dim]repair: {repair}[/]")
    elif kind == "step_started":
        console.print(f"  [dim]▶ {event['step_id']} {event['action']}…[/]")
    elif kind == "step_finished":
        console.print(
            f"  ✓ {event['step_id']} {event['status']} ({event['execution_time_ms']:.0f} ms)"
        )
    elif kind == "step_scored":
        style = _LEVEL_STYLE.get(event["level"], "white")
        console.print(
            f"    confidence {event['confidence']:.2f} [{style}]{event['level'].upper()}[/]"
        )
    elif kind == "notice":
        console.print(f"  [cyan]notice:[/] {event['message']}")
    elif kind == "replan":
        console.print(f"[magenta]replan[/] ({event['strategy']}): {event['reason']}")


def _print_outcome(outcome: RunOutcome) -> None:
    if outcome.status == "interrupted":
        return
    style = _LEVEL_STYLE.get(outcome.level or "", "white")
    out.print(Panel(outcome.answer or "", title="answer", border_style=style))
    for src in outcome.sources:
        out.print(
            f"  [{src['source_id']}] {src['title'] or src['source']} "
            f"(chunk {src['chunk_index']}, score {src['score']:.2f})"
        )
    conf = f"{outcome.confidence:.2f}" if outcome.confidence is not None else "–"
    out.print(f"confidence [bold]{conf}[/] level [{style}]{(outcome.level or '').upper()}[/]")
    for note in outcome.notes:
        out.print(f"[yellow]note:[/] {note}")
    out.print(f"[dim]thread {outcome.thread_id}[/]")


def _prompt_reply(request: dict[str, Any]) -> dict[str, Any]:
    console.print(Panel(Markdown(request.get("description", "")), border_style="yellow"))
    cfg = request.get("config", {})
    choices = [
        name
        for name, key in (
            ("accept", "allow_accept"),
            ("edit", "allow_edit"),
            ("respond", "allow_respond"),
            ("ignore", "allow_ignore"),
        )
        if cfg.get(key)
    ]
    choice = Prompt.ask("Your decision", choices=choices, default=choices[0], console=console)
    if choice == "edit":
        what = Prompt.ask(
            "Edit the question or write the answer",
            choices=["question", "answer"],
            default="question",
            console=console,
        )
        text = Prompt.ask("New question" if what == "question" else "Answer", console=console)
        key = "query" if what == "question" else "answer"
        return {"type": "edit", "args": {"action": "review_answer", "args": {key: text}}}
    if choice == "respond":
        return {"type": "response", "args": Prompt.ask("Your response", console=console)}
    return {"type": choice}


def _emit_json(outcome: RunOutcome) -> None:
    out.print_json(
        json.dumps(
            outcome.model_dump(
                include={
                    "status",
                    "thread_id",
                    "answer",
                    "confidence",
                    "level",
                    "sources",
                    "interrupt",
                    "notes",
                    "usage",
                }
            ),
            ensure_ascii=False,
        )
    )


def _fail(message: str, code: int = 2) -> typer.Exit:
    console.print(f"[red]error:[/] {message}")
    return typer.Exit(code)


def _drive(grace: GraceApp, outcome: RunOutcome, interactive: bool, as_json: bool) -> None:
    while interactive and outcome.status == "interrupted" and outcome.interrupt is not None:
        reply = _prompt_reply(outcome.interrupt)
        try:
            outcome = grace.resume(outcome.thread_id, reply, on_event=_print_event)
        except InvalidHumanResponseError as exc:
            console.print(f"[red]{exc}[/]")
            outcome = grace.outcome(outcome.thread_id)
    if as_json or not interactive:
        _emit_json(outcome)
    else:
        _print_outcome(outcome)


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="The question to answer.")],
    thread_id: Annotated[str | None, typer.Option(help="Thread id (default: a new one).")] = None,
    collection: Annotated[str | None, typer.Option(help="Collection to search.")] = None,
    user: Annotated[str | None, typer.Option(help="User whose thresholds apply.")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object; never wait.")
    ] = False,
) -> None:
    """Answer QUESTION from the documents; pause and ask you when confidence is low."""
    interactive = sys.stdin.isatty() and not as_json
    with GraceApp.open() as grace:
        try:
            outcome = grace.ask(
                question,
                thread_id=thread_id,
                context=GraceContext(collection=collection, user_id=user),
                on_event=None if as_json else _print_event,
            )
        except InvalidQuestionError as exc:
            raise _fail(str(exc)) from None
        _drive(grace, outcome, interactive, as_json)


@app.command()
def resume(
    thread_id: Annotated[str, typer.Argument(help="The paused thread.")],
    response: Annotated[str, typer.Option(help='HumanResponse JSON, e.g. \'{"type": "accept"}\'.')],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Continue a paused thread with a HumanResponse (accept / edit / response / ignore)."""
    try:
        reply = json.loads(response)
    except json.JSONDecodeError as exc:
        raise _fail(f"--response is not JSON: {exc}") from None
    interactive = sys.stdin.isatty() and not as_json
    with GraceApp.open() as grace:
        try:
            outcome = grace.resume(thread_id, reply, on_event=None if as_json else _print_event)
        except (UnknownThreadError, ThreadNotPausedError, InvalidHumanResponseError) as exc:
            raise _fail(str(exc)) from None
        _drive(grace, outcome, interactive, as_json)


@app.command()
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="Files or folders (.md, .txt, .html).")],
    collection: Annotated[str | None, typer.Option(help="Target collection.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Add documents to a collection (re-ingesting a file replaces its chunks)."""
    from grace.retrieval import ingest_paths

    settings = get_settings()
    store = get_services().store
    target = collection or settings.retrieval.collection
    report = ingest_paths(
        store,
        paths,
        collection=target,
        chunk_size=settings.retrieval.chunk_size,
        chunk_overlap=settings.retrieval.chunk_overlap,
        progress=not as_json,
    )
    if as_json:
        out.print_json(report.model_dump_json())
    else:
        for problem in report.problems:
            console.print(f"[yellow]skipped[/] {problem.path}: {problem.reason}")
        out.print(
            f"{report.files} files, {report.chunks} chunks into '{target}' in {report.seconds:.2f}s"
        )
    if report.files == 0 and report.problems:
        raise typer.Exit(1)


@app.command()
def threads(
    limit: Annotated[int, typer.Option(help="Most threads to list.")] = 20,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List threads with their status and confidence."""
    with GraceApp.open() as grace:
        rows = grace.threads(limit)
    if as_json:
        out.print_json(json.dumps([r.__dict__ for r in rows], ensure_ascii=False))
        return
    table = Table("thread", "status", "conf", "level", "question")
    for r in rows:
        conf = f"{r.confidence:.2f}" if r.confidence is not None else "–"
        table.add_row(r.thread_id, r.status, conf, r.level or "–", r.query[:60])
    out.print(table)


@app.command()
def show(
    thread_id: Annotated[str, typer.Argument(help="Thread id.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Show a thread's plan, steps with scores, interventions and replans."""
    with GraceApp.open() as grace:
        try:
            history = grace.history(thread_id)
        except UnknownThreadError as exc:
            raise _fail(str(exc)) from None
    if as_json:
        out.print_json(json.dumps(history, ensure_ascii=False, default=str))
        return
    s = history["summary"]
    out.print(f"[bold]{s['query']}[/] — {s['status']}")
    table = Table("step", "action", "status", "confidence", "ms", "output")
    for step in history["steps"]:
        conf = f"{step['confidence']:.2f}" if step["confidence"] is not None else "–"
        table.add_row(
            step["step_id"],
            step["action"],
            step["status"],
            conf,
            f"{step['execution_time_ms']:.0f}",
            (step["output"] or "")[:70],
        )
    out.print(table)
    for i in history["interventions"]:
        out.print(f"intervention {i['level']} at {i['score']:.2f}: {i['response_type']}")
    for r in history["replans"]:
        out.print(f"replan {r['strategy']} ({r['trigger']}): {r['reason']}")
    if history["answer"]:
        out.print(Panel(history["answer"], title="answer"))


def _register_eval() -> None:
    from grace.evaluation.cli import eval_command

    app.command(
        name="eval",
        help="Evaluate GRACE on a dataset folder (corpus/*.md + questions.jsonl).",
    )(eval_command)


_register_eval()


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    finally:
        close_default_services()


if __name__ == "__main__":
    main()
