"""The ``grace`` command: ask, resume, ingest, collections, documents, remove, threads, show.

In a terminal ``grace ask`` shows a live view of the run (the plan, each step's status and
confidence, notices) and asks you at CONFIRM / ESCALATE, showing the request's Markdown
description. With ``--json`` — or when stdin is not a terminal — it never waits and prints
one JSON object on stdout; progress and prompts go to stderr.
"""

import gc
import json
import sys
import uuid
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, cast

import typer
from rich.console import Console
from rich.live import Live
from rich.panel import Panel
from rich.prompt import Prompt
from rich.table import Table
from rich.text import Text

from graph.views.outcome import (
    LEVEL_STYLE,
    RunView,
    conf,
    level_text,
    print_event,
    print_history,
    print_sources,
    when,
)
from graph.views.terminal import term, term_text

# No `from __future__ import annotations`: typer reads the commands' annotations, and string
# annotations cost it an eval each at every start; names only for type checking are quoted.
if TYPE_CHECKING:  # the project is imported inside the commands: `grace --help` stays fast
    from grace.hitl.request import ReplyChoice
    from graph.app import EventHandler, GraceApp, RunOutcome

__all__ = ["RunView", "app", "main"]

_EXAMPLES_ASK = """
Examples:

\b
  grace ask "When did the horse tram line open in Lumen Bay?"
  grace ask "Who won the 2018 FIFA World Cup?" --json   # ends: interrupted
  grace ask "霧ヶ丘の祭りはいつ？" --collection grace --user ana
"""

_EXAMPLES_RESUME = """
Examples of replies (LangChain 1.0 decisions; Agent Inbox replies are accepted too):

\b
  --response '{"decisions": [{"type": "approve"}]}'          (not at ESCALATE)
  --response '{"decisions": [{"type": "edit", "edited_action":
      {"name": "review_answer", "args": {"query": "a better question"}}}]}'
  --response '{"decisions": [{"type": "edit", "edited_action":
      {"name": "review_answer", "args": {"answer": "my answer"}}}]}'
  --response '{"decisions": [{"type": "reject", "message": "facts GRACE lacked"}]}'
  --response '{"decisions": [{"type": "reject"}]}'           (finish unreviewed)
"""

app = typer.Typer(
    name="grace",
    help=(
        "GRACE: a RAG agent that plans, scores its confidence at every step and asks you "
        "when it should. Offline by default (embedded Qdrant, SQLite threads under "
        "GRACE_DATA_DIR); Gemini when GOOGLE_API_KEY is set."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
console = Console(stderr=True)
"""Progress, prompts and errors (stderr)."""
out = Console()
"""Results (stdout)."""

INGEST_PARTIAL_EXIT = 4
"""``grace ingest`` exit status when some files were ingested and some failed (1: none)."""
# --- live view ------------------------------------------------------------------------------


class _Progress:
    """Live table on a terminal, plain lines otherwise, nothing with ``--json``."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.live = enabled and console.is_terminal
        self.view = RunView()

    @property
    def handler(self) -> "EventHandler | None":
        if not self.enabled:
            return None
        return self.view.handle if self.live else partial(print_event, console)

    def running(self) -> AbstractContextManager[Any]:
        if not self.live:
            return nullcontext()
        return Live(self.view, console=console, refresh_per_second=10, transient=False)


# --- output -------------------------------------------------------------------------------


def _print_outcome(outcome: "RunOutcome") -> None:
    if outcome.status == "interrupted":
        hint = term(f" — resume with: grace resume {outcome.thread_id} --response …")
        out.print(Text.assemble(("paused", "yellow"), hint))
        return
    style = LEVEL_STYLE.get(outcome.level or "", "white")
    out.print(Panel(term_text(outcome.answer or ""), title="answer", border_style=style))
    print_sources(out, outcome.sources)
    out.print(
        Text.assemble("confidence ", (conf(outcome.confidence), "bold"), " level ")
        + level_text(outcome.level)
    )
    out.print(
        "(the run's calibrated P(answer correct), decided for the whole run; the step rows "
        "above show each step's own score and level, which can differ)",
        style="dim",
        markup=False,
    )
    for note in outcome.notes:
        out.print(Text.assemble(("note: ", "yellow"), term(note)))
    out.print(term_text(f"thread {outcome.thread_id}", style="dim"))


_JSON_FIELDS = {
    "status",
    "draft",
    "thread_id",
    "answer",
    "confidence",
    "level",
    "sources",
    "interrupt",
    "notes",
    "model_errors",
    "usage",
    "quality",
}


def _emit_json(data: Any) -> None:
    """One JSON document on stdout (plain, no colour: for scripts)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")
    sys.stdout.flush()


def _fail(message: str, code: int = 2) -> typer.Exit:
    # soft_wrap: the terminal wraps the line, so no sentence is cut at 80 columns.
    console.print(Text.assemble(("error: ", "red"), term(message)), soft_wrap=True)
    return typer.Exit(code)


def _utf8(value: str | None) -> str | None:
    """Refuse an argument holding bytes that are not UTF-8 (one line, exit 2)."""
    if value is not None:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise typer.BadParameter("is not UTF-8 text (it holds a byte outside UTF-8)") from None
    return value


def _plural(count: int, word: str) -> str:
    """``1 file``, ``2 files``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


class ThreadStatus(StrEnum):
    """Statuses ``grace threads`` reports."""

    COMPLETED = "completed"
    INTERRUPTED = "interrupted"
    INCOMPLETE = "incomplete"
    """The run stopped mid-way (killed, or a step could not finish)."""


def _resume_hint(thread_id: str, reply: str = '{"decisions": [{"type": "reject"}]}') -> str:
    """The command that resumes ``thread_id`` with ``reply``."""
    return f"grace resume {thread_id} --response '{reply}'"


# --- the intervention prompt ----------------------------------------------------------------


_LEGEND = {
    "accept": "go on",
    "edit": "change the question or write the answer",
    "respond": "give GRACE facts",
    "ignore": "finish now, unreviewed",
}
"""The terminal prompt's words for each reply (``grace.hitl.request.REPLY_CHOICES``; one "edit")."""


def _prompt_reply(request: dict[str, Any]) -> dict[str, Any]:
    """Show the request's Markdown review and ask for a decision (LangChain 1.0 format)."""
    from rich.markdown import Markdown  # markdown-it: only when a pause asks in the terminal

    from grace.hitl.request import reply_choices, reply_for

    level = str(request.get("level", ""))
    action = (request.get("action_requests") or [{}])[0]
    console.print(
        Panel(
            Markdown(term(action.get("description", ""))),
            title=f"GRACE needs you ({level.upper()})",
            border_style=LEVEL_STYLE.get(level, "yellow"),
        )
    )
    if request.get("error"):
        console.print(Text.assemble(("previous reply rejected: ", "red"), term(request["error"])))
    offered = reply_choices(request)  # the terminal asks "edit" once, then which one
    choices = list(dict.fromkeys("edit" if c.startswith("edit_") else c for c in offered))
    console.print(" · ".join(f"{c}: {_LEGEND[c]}" for c in choices), style="dim")
    choice = Prompt.ask("Your decision", choices=choices, default=choices[0], console=console)
    text = ""
    if choice == "edit":
        what = Prompt.ask(
            "Edit the question or write the answer",
            choices=["question", "answer"],
            default="question",
            console=console,
        )
        text = Prompt.ask("New question" if what == "question" else "Answer", console=console)
        choice = f"edit_{what}"
    elif choice == "respond":
        text = Prompt.ask("Your response", console=console)
    return reply_for(cast("ReplyChoice", choice), action.get("name", "review_answer"), text)


def _drive(
    grace: "GraceApp", outcome: "RunOutcome", interactive: bool, as_json: bool, progress: _Progress
) -> None:
    from grace.hitl.request import InvalidHumanResponseError

    while interactive and outcome.status == "interrupted" and outcome.interrupt is not None:
        try:
            reply = _prompt_reply(outcome.interrupt)
        except (KeyboardInterrupt, EOFError):
            console.print(
                f"\nthread {outcome.thread_id} stays paused; resume it with:\n  "
                + _resume_hint(outcome.thread_id, "<reply>")
                + "\n(see: grace resume --help)",
                soft_wrap=True,
                markup=False,
            )
            raise typer.Exit(130) from None
        except InvalidHumanResponseError as exc:  # e.g. a blank response: ask again
            console.print(term_text(exc, style="red"))
            continue
        try:
            with progress.running():
                outcome = grace.resume(outcome.thread_id, reply, on_event=progress.handler)
        except InvalidHumanResponseError as exc:
            console.print(term_text(exc, style="red"))
            outcome = grace.outcome(outcome.thread_id)
    if as_json or not interactive:
        _emit_json(outcome.model_dump(include=_JSON_FIELDS))
    else:
        _print_outcome(outcome)


# --- commands -------------------------------------------------------------------------------

_JSON_HELP = "Print one JSON object on stdout; never wait for input."


_ThreadOption = Annotated[
    str | None,
    typer.Option(help="Thread id (default: a new one).", show_default=False, callback=_utf8),
]

_ModelOption = Annotated[
    str | None,
    typer.Option(
        help="Chat model of this run: provider:model (openai:gpt-4.1-mini, ollama:qwen3, "
        "google_genai:gemini-2.5-flash) or offline (default: settings models.chat).",
        show_default=False,
    ),
]


@app.command(epilog=_EXAMPLES_ASK)
def ask(
    question: Annotated[str, typer.Argument(help="The question to answer.")],
    thread_id: _ThreadOption = None,
    collection: Annotated[
        str | None, typer.Option(help="Collection to search (default: settings).")
    ] = None,
    user: Annotated[
        str | None, typer.Option(help="User whose learned thresholds apply.", callback=_utf8)
    ] = None,
    model: _ModelOption = None,
    as_json: Annotated[bool, typer.Option("--json", help=_JSON_HELP)] = False,
) -> None:
    """Answer QUESTION from your documents; pause and ask you when confidence is low.

    In a terminal: a live table of the plan and each step's status and confidence, then the
    answer with its sources, or a prompt at CONFIRM / ESCALATE. Not a terminal, or --json:
    one JSON object {status: completed | interrupted, thread_id, answer, confidence, level,
    sources, interrupt, notes, usage}; resume a paused thread with `grace resume`.
    """
    if not as_json:  # said before the graph's imports (~1 s): the user sees it started
        # Not highlighted: nothing in it is, and rich compiles its highlighter's patterns then.
        console.print("planning …", style="dim", markup=False, highlight=False)

    from grace.context import GraceContext
    from grace.errors import ModelUnreachableError, StoreBusyError
    from grace.retrieval import UnknownCollectionError
    from graph.app import ThreadPausedError
    from nodes.common import EmptyQuestionError, InvalidQuestionError

    interactive = sys.stdin.isatty() and not as_json
    progress = _Progress(enabled=not as_json)
    thread_id = thread_id or uuid.uuid4().hex  # known here, to name it if the run stops
    # One path: GraceApp validates the question once, builds and checks the model once (a
    # missing package, key or server: one line, no thread) and compiles the graph once.
    with _open_app(model, check=True) as grace:
        try:
            with progress.running():
                outcome = grace.ask(
                    question,
                    thread_id=thread_id,
                    context=GraceContext(collection=collection, user_id=user, model=model),
                    on_event=progress.handler,
                )
            _drive(grace, outcome, interactive, as_json, progress)  # a reply runs on: same errors
        except EmptyQuestionError:
            raise _fail('the question is empty: grace ask "your question"') from None
        except (InvalidQuestionError, ThreadPausedError) as exc:
            raise _fail(str(exc)) from None
        except UnknownCollectionError as exc:  # refused before a run, naming the known ones
            raise _fail(_unknown_collection(exc.name, exc.known)) from None
        except StoreBusyError as exc:  # the run stopped at its first search: say how to go on
            hint = f" Thread {thread_id} waits: `grace resume {thread_id}` runs it on."
            raise _fail(str(exc) + hint, code=3) from None
        except ModelUnreachableError as exc:
            raise _unreachable(exc, thread_id, model) from None


MODEL_UNREACHABLE_EXIT = 5
"""``grace ask`` / ``resume`` exit status when the model could not be connected to mid-run
(the thread is kept: ``grace resume THREAD`` runs it on)."""


def _unreachable(exc: Exception, thread_id: str, model: str | None) -> typer.Exit:
    """One line: the provider, the failure, and the command that runs the thread on."""
    again = f"grace resume {thread_id}" + (f" --model {model}" if model else "")
    return _fail(
        f"{exc}. Thread {thread_id} is kept: once the model answers, `{again}` runs it on.",
        code=MODEL_UNREACHABLE_EXIT,
    )


def _reply_for_a_pause(grace: "GraceApp", thread_id: str, interactive: bool) -> Any:
    """No --response on a paused thread: ask for the decision in a terminal, else one line."""
    from grace.hitl.limits import ACCEPTED_REPLIES
    from grace.hitl.request import InvalidHumanResponseError
    from graph.app import UnknownThreadError

    try:
        outcome = grace.outcome(thread_id)
    except UnknownThreadError as exc:
        raise _fail(str(exc)) from None
    if outcome.status != "interrupted" or outcome.interrupt is None:
        return None  # an incomplete (or finished) thread: continue_run says which
    while interactive:
        try:
            return _prompt_reply(outcome.interrupt)
        except InvalidHumanResponseError as exc:  # e.g. a blank response: ask again
            console.print(term_text(exc, style="red"))
    raise _fail(
        f"thread '{thread_id}' is paused for your review: add --response with one of "
        f"{ACCEPTED_REPLIES} (`grace show {thread_id}` shows what it asks)"
    )


@app.command(epilog=_EXAMPLES_RESUME)
def resume(
    thread_id: Annotated[
        str, typer.Argument(help="The paused thread (see `grace threads`).", callback=_utf8)
    ],
    response: Annotated[
        str | None,
        typer.Option(
            help='Decision JSON, e.g. \'{"decisions": [{"type": "approve"}]}\'; leave it out '
            "to run an incomplete thread on.",
            show_default=False,
        ),
    ] = None,
    model: _ModelOption = None,
    as_json: Annotated[bool, typer.Option("--json", help=_JSON_HELP)] = False,
) -> None:
    """Continue a paused thread with your decision (approve / edit / reject).

    An invalid reply is refused with the reason and changes nothing: the thread stays paused.
    Without --response, an incomplete thread (its run was killed, or its model could not be
    reached) runs on from its last step.
    """
    from grace.errors import ModelUnreachableError
    from grace.hitl.request import load_reply_json

    try:
        reply = load_reply_json(response, name="--response") if response is not None else None
    except ValueError as exc:
        raise _fail(str(exc)) from None

    interactive = sys.stdin.isatty() and not as_json
    progress = _Progress(enabled=not as_json)
    with _open_app(model, check=True) as grace:
        if reply is None:
            reply = _reply_for_a_pause(grace, thread_id, interactive)
        try:
            outcome = _run_on(grace, thread_id, reply, model, progress)
            _drive(grace, outcome, interactive, as_json, progress)
        except ModelUnreachableError as exc:
            raise _unreachable(exc, thread_id, model) from None


def _run_on(
    grace: "GraceApp", thread_id: str, reply: Any, model: str | None, progress: _Progress
) -> "RunOutcome":
    """Resume with ``reply``, or run an incomplete thread on (``reply`` None); refusals: a line."""
    from grace.context import GraceContext
    from grace.hitl.request import InvalidHumanResponseError
    from graph.app import ThreadNotIncompleteError, ThreadNotPausedError, UnknownThreadError

    refused = (
        UnknownThreadError,
        ThreadNotPausedError,
        ThreadNotIncompleteError,
        InvalidHumanResponseError,
    )
    context = GraceContext(model=model)
    try:
        with progress.running():
            if reply is None:
                return grace.continue_run(thread_id, context=context, on_event=progress.handler)
            return grace.resume(thread_id, reply, context=context, on_event=progress.handler)
    except refused as exc:
        raise _fail(str(exc)) from None


_FORMATS = "pdf, docx, pptx, xlsx, csv, html, md, txt"


def _open_app(
    model: str | None = None, *, check: bool = False
) -> "AbstractContextManager[GraceApp]":
    """The app of one command: the settings' checkpointer, its own services (``model``).

    ``check``: a run follows, so its model is built and checked first (a missing package,
    key or server: one line, no thread, no database); the run reuses what was built.
    """
    from graph.app import GraceApp

    return GraceApp.open(model=model, check=check)


@contextmanager
def _library() -> Iterator[Any]:
    """The configured store's library, closed after the block.

    Imported here: ``grace --help`` stays fast.
    """
    from grace.library import Library
    from grace.services import build_services
    from grace.settings import get_settings

    settings = get_settings()
    services = build_services(settings)
    try:
        yield Library(services.store, settings)
    finally:
        services.close()


@app.command()
def ingest(
    paths: Annotated[
        list[Path], typer.Argument(help=f"Files or folders ({_FORMATS}).")
    ],
    collection: Annotated[
        str | None, typer.Option(help="Target collection (default: settings).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Add documents to a collection; re-ingesting a folder makes the collection mirror it.

    Each file is reported added / updated / unchanged / removed / skipped. Nothing outside
    the folders you name is read (a link that leaves one is skipped). Formats: pdf, docx,
    pptx, xlsx, csv, html, md, txt; other files in a folder are noted, not read.
    Exit status: 0 all read, 4 some supported files failed, 1 none ingested.

    Example: grace ingest docs/ notes.md --collection mydocs
    """
    with _library() as library:
        target = collection or library.settings.retrieval.collection
        report = library.ingest(paths, target, progress=not as_json and console.is_terminal)
    if as_json:
        _emit_json(report.model_dump(mode="json"))
    else:
        _print_ingest(report)
    if report.files == 0 and not report.removed:  # nothing read: an empty folder too
        if not report.problems:
            console.print(
                Text.assemble(
                    ("error: ", "red"),
                    term(f"nothing ingested: no supported files in {', '.join(map(str, paths))}"),
                ),
                soft_wrap=True,
            )
        raise typer.Exit(1)
    if report.problems:
        raise typer.Exit(INGEST_PARTIAL_EXIT)


def _print_ingest(report: Any) -> None:
    for problem in report.problems:
        console.print(
            Text.assemble(("skipped ", "yellow"), term(f"{problem.path}: {problem.reason}"))
        )
    for notice in report.notices:
        console.print(Text.assemble(("note: ", "cyan"), term(f"{notice.path}: {notice.reason}")))
    for change in report.documents:
        if change.status == "removed":
            console.print(
                Text.assemble(("removed ", "magenta"), term(f"{change.source}: {change.reason}"))
            )
    out.print(report.summary(), markup=False)


@app.command()
def collections(
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
) -> None:
    """List the collections: documents, chunks, last ingest and what built them.

    Example: grace collections --json
    """
    with _library() as library:
        rows = library.collections()
    if as_json:
        _emit_json([row.__dict__ for row in rows])
        return
    table = Table(box=None, pad_edge=False)
    for column in ("collection", "documents", "chunks", "last ingest", "engine"):
        table.add_column(column, no_wrap=True)
    for row in rows:
        table.add_row(
            term_text(row.name), str(row.documents), str(row.chunks), when(row.last_ingest),
            term_text(row.engine or "—"),
        )
    out.print(table if rows else "no collections yet — try: grace ingest FOLDER")


@app.command()
def documents(
    collection: Annotated[
        str | None, typer.Option(help="Collection (default: settings).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
) -> None:
    """List a collection's documents: source as cited, format, chunks, size, when ingested.

    Example: grace documents --collection mydocs
    """
    with _library() as library:
        name = _known_collection(library, collection)
        rows = library.documents(name)
    if as_json:
        _emit_json([row.__dict__ for row in rows])
        return
    table = Table(box=None, pad_edge=False)
    for column in ("source", "format", "chunks", "size", "ingested"):
        table.add_column(column, no_wrap=column != "source")
    for row in rows:
        size = f"{row.size / 1000:.1f} kB" if row.size else "—"
        table.add_row(
            term_text(row.source), row.format, str(row.chunks), size, when(row.ingested_at)
        )
    out.print(table if rows else f"collection '{name}' holds no documents")


@app.command()
def remove(
    sources: Annotated[
        list[str],
        typer.Argument(
            help="Documents by source as `grace documents` lists them, or the path you ingested."
        ),
    ],
    collection: Annotated[
        str | None, typer.Option(help="Collection (default: settings).")
    ] = None,
) -> None:
    """Remove documents from a collection: their chunks leave the store.

    A document is named as `grace documents` lists it, by the file you ingested
    (docs/menu.csv), or by its path inside that folder; a name several documents share is
    refused, listing them.

    Example: grace remove notes/old.md --collection mydocs
    """
    from grace.retrieval.library import UnknownSourceError

    with _library() as library:
        name = _known_collection(library, collection)
        try:
            removed = library.remove(sources, name)
        except UnknownSourceError as exc:
            raise _fail(str(exc)) from None
    for source, chunks in removed.items():
        out.print(Text.assemble("removed ", term_text(source), f" ({_plural(chunks, 'chunk')})"))


def _known_collection(library: Any, collection: str | None) -> str:
    """The collection to use; an unknown name is refused, naming the known ones."""
    from grace.storage.names import check_collection_name

    name: str = check_collection_name(collection or library.settings.retrieval.collection)
    known = sorted(library.store.list_collections())
    if name not in known:
        raise _fail(_unknown_collection(name, known))
    return name


def _unknown_collection(name: str, known: list[str]) -> str:
    """One line: the collection that does not exist, the known ones, how to make it."""
    return (
        f"unknown collection '{name}' (known: {', '.join(sorted(known)) or 'none'}; name one "
        f"with --collection, or `grace ingest FOLDER --collection {name}` makes it)"
    )


@app.command()
def threads(
    limit: Annotated[int, typer.Option(help="Most threads to list.")] = 20,
    status: Annotated[
        ThreadStatus | None, typer.Option(help="Only threads with this status.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
) -> None:
    """List threads, newest first, with status, confidence, level and question.

    Example: grace threads --status interrupted
    """

    def unreadable(thread: str, exc: Exception) -> None:
        console.print(
            Text.assemble(("warning: ", "yellow"), term(f"thread {thread} skipped: {exc}")),
            soft_wrap=True,
        )

    with _open_app() as grace:
        rows = grace.threads(
            limit, status=status.value if status else None, on_unreadable=unreadable
        )
    if as_json:
        _emit_json([r.__dict__ for r in rows])
        return
    if not rows:
        if status:
            console.print(f"no {status.value} threads")
        else:
            console.print('no threads yet — try: grace ask "..."')
        return
    table = Table(box=None, pad_edge=False)
    table.add_column("thread", no_wrap=True, min_width=len(rows[0].thread_id))
    table.add_column("status", no_wrap=True, min_width=11)
    table.add_column("confidence", no_wrap=True, min_width=13)
    table.add_column("question", overflow="ellipsis", no_wrap=True, ratio=1)
    for r in rows:
        table.add_row(
            term_text(r.thread_id),
            Text(r.status, style={"completed": "green", "interrupted": "yellow"}.get(r.status, "")),
            Text(conf(r.confidence) + " ") + level_text(r.level),
            term_text(r.query),
        )
    out.print(table)


@app.command()
def show(
    thread_id: Annotated[
        str, typer.Argument(help="Thread id (see `grace threads`).", callback=_utf8)
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the history as JSON.")] = False,
) -> None:
    """Show a thread's history: plan, steps with scores, interventions, replans, answer.

    Example: grace show 3f2c9a1e --json
    """
    from graph.app import UnknownThreadError

    with _open_app() as grace:
        try:
            history = grace.history(thread_id)
        except UnknownThreadError as exc:
            raise _fail(str(exc)) from None
    if as_json:
        _emit_json(history)
        return
    print_history(out, history, _resume_hint(thread_id))


@app.command(name="config")
def config_cmd(
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    show_all: Annotated[
        bool, typer.Option("--all", help="Also list every setting at its default.")
    ] = False,
) -> None:
    """Show what is in force: settings and sources, confidence model, thresholds, data, collections.

    The confidence model comes with its certificate; the thresholds are those that decide a
    run's level, with the user's learned shift.

    Example: grace config --all
    """
    from graph.cli.config import all_lines, config_lines, gather

    with _open_app() as grace:
        report = gather(grace)
    if as_json:
        _emit_json(report)
        return
    for line in all_lines(report) if show_all else config_lines(report):
        out.print(term(line), markup=False, soft_wrap=True)


@app.command()
def ui(
    port: Annotated[int, typer.Option(help="Port on 127.0.0.1.", min=1, max=65535)] = 8501,
) -> None:
    """Open GRACE's own page in your browser: ask, review pauses, manage the library, evaluate.

    A Streamlit app on 127.0.0.1 (usage statistics off, works offline) over the same data
    directory, settings, threads and collections as these commands. Needs the ui extra:
    pip install 'grace-agent[ui]'. Stop it with Ctrl-C.

    Example: grace ui --port 8502
    """
    from grace.settings import get_settings
    from graph.ui.server import UiSetupError, serve

    settings = get_settings()  # a settings error is one line here, before the server starts
    console.print(
        f"GRACE's page: http://127.0.0.1:{port}/ (data: {settings.data_dir}; Ctrl-C stops it)",
        markup=False,
        highlight=False,
    )
    try:
        code = serve(port)
    except UiSetupError as exc:
        raise _fail(str(exc)) from None
    raise typer.Exit(code)


def _register_eval() -> None:
    from graph.evaluation.commands import calibrate_command, eval_command

    app.command(name="eval")(eval_command)
    app.command(name="calibrate")(calibrate_command)


_register_eval()


def _print_error(message: str) -> None:
    # soft_wrap: the terminal wraps; rich would break a long path mid-sentence.
    console.print(Text.assemble(("error: ", "red"), term(message)), soft_wrap=True)


def main() -> None:
    """Console-script entry point: user-facing errors end in one message, no traceback.

    Settings, model, collection-name and storage problems (a read-only, full or damaged
    file) and a missing extra (``grace eval`` without ``grace-agent[eval]``) exit with
    status 2; a store or thread another process is using with status 3. On the way out the
    process's objects are frozen (:func:`gc.freeze`): the shutdown does not collect them.
    """
    from grace.errors import (
        InvalidCollectionError,
        MissingExtraError,
        ModelSetupError,
        ModelUnavailableError,
        SettingsError,
        StorageError,
        StoreBusyError,
        ThreadBusyError,
    )

    try:
        app()
    except SettingsError as exc:
        _print_error(str(exc))
        console.print("Fix the file or variable above (see docs/configuration.md).")
        sys.exit(2)
    except (
        InvalidCollectionError,
        StorageError,
        ModelSetupError,
        ModelUnavailableError,
        MissingExtraError,
    ) as exc:
        _print_error(str(exc))
        sys.exit(2)
    except (StoreBusyError, ThreadBusyError) as exc:  # another process holds it: say who
        _print_error(str(exc))
        sys.exit(3)
    finally:
        # The command is done and the process ends. What it loaded (~130,000 objects of
        # LangGraph, LangChain, pydantic and GRACE) the interpreter's shutdown would walk and
        # free cycle by cycle (~0.25 s of a warm ask); frozen, the collector skips it and the
        # OS takes the memory back. Nothing waits on a collection: stores, files and threads
        # are closed by then (context managers, atexit); Python promises no finalizer at exit.
        gc.freeze()


if __name__ == "__main__":
    main()
