"""How the ``grace`` command draws runs: live table, progress lines, answer, history.

Each of GRACE's ``custom`` stream events has one handler in a table (``RunView``'s for the
live table, :data:`_PLAIN_LINES` for logs), so a new event kind is one entry, not a branch
in a chain. Only rich is imported here: ``grace --help`` stays fast.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.spinner import Spinner
from rich.table import Table
from rich.text import Text

from graph.views.terminal import term, term_text

__all__ = [
    "LEVEL_STYLE",
    "RunView",
    "conf",
    "level_text",
    "print_event",
    "print_history",
    "print_sources",
    "when",
]

LEVEL_STYLE = {"silent": "green", "notify": "cyan", "confirm": "yellow", "escalate": "red"}
"""Colour of each intervention level."""
_STATUS_STYLE = {
    "success": "green",
    "partial": "yellow",
    "failed": "red",
    "skipped": "dim",
    "pending": "dim",
    "replaced": "dim",
}

Event = dict[str, Any]


def level_text(level: str | None) -> Text:
    """``SILENT`` … ``ESCALATE`` in the level's colour (``–`` when there is none)."""
    if not level:
        return Text("–", style="dim")
    return Text(level.upper(), style=LEVEL_STYLE.get(level, "white"))


def when(timestamp: float | None) -> str:
    """A Unix time as ``2026-11-26 21:40`` local time (``—`` when there is none)."""
    if not timestamp:
        return "—"
    return datetime.datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M")


def conf(value: float | None) -> str:
    """A confidence with two decimals (``–`` when there is none)."""
    return f"{value:.2f}" if value is not None else "–"


def _gate_line(event: Event) -> Text:
    passed = bool(event.get("passed"))
    return term_text(
        f"quality gate {event.get('step_id')}: {'passed' if passed else 'failed'} "
        f"(score {conf(event.get('score'))}, {event.get('regenerations', 0)} regeneration(s))",
        style="green" if passed else "yellow",
    )


# --- live view ------------------------------------------------------------------------------


@dataclass
class _Row:
    step_id: str
    action: str
    query: str
    status: str = "pending"
    ms: float | None = None
    confidence: float | None = None
    level: str | None = None
    note: str = ""


@dataclass
class RunView:
    """The state of a run as its ``custom`` events arrive, rendered as a rich table."""

    rows: dict[str, _Row] = field(default_factory=dict)
    """Steps of every plan so far (replans append), by step id."""
    notices: list[Text] = field(default_factory=list)
    """Notices, replans, quality-gate results and the pause, in order."""
    title: str = "plan"
    """Table title (plan origin and size)."""
    _last_pause: tuple[Any, ...] | None = None

    def handle(self, event: Event) -> None:
        """Update from one custom event (unknown events are ignored)."""
        kind = str(event.get("event"))
        if kind != "intervention_required":  # the run goes on: no step is paused any more
            for row in self.rows.values():
                row.note = ""
        handler = _VIEW_HANDLERS.get(kind)
        if handler is not None:
            handler(self, event)

    def _plan_ready(self, event: Event) -> None:
        steps = event.get("steps", [])
        self.title = f"plan ({event.get('origin', '?')}, {len(steps)} steps)"
        new_ids = {s["step_id"] for s in steps}
        for row in self.rows.values():  # a replan drops the old plan's unrun steps
            if row.status == "pending" and row.step_id not in new_ids:
                row.status = "replaced"
        for s in steps:
            self.rows.setdefault(
                s["step_id"], _Row(s["step_id"], s.get("action", ""), str(s.get("query") or ""))
            )
        for repair in event.get("repairs", []):
            self.notices.append(term_text(f"plan repaired: {repair}", style="dim"))

    def _step_started(self, event: Event) -> None:
        row = self._row(event)
        row.status, row.action = "running", event.get("action", row.action)

    def _step_finished(self, event: Event) -> None:
        row = self._row(event)
        row.status, row.ms = event.get("status", "?"), event.get("execution_time_ms")

    def _step_scored(self, event: Event) -> None:
        row = self._row(event)
        row.confidence, row.level = event.get("confidence"), event.get("level")

    def _quality_gate(self, event: Event) -> None:
        self.notices.append(_gate_line(event))

    def _notice(self, event: Event) -> None:
        self.notices.append(term_text(f"notice: {event.get('message', '')}", style="cyan"))

    def _replan(self, event: Event) -> None:
        self.notices.append(
            term_text(f"replan ({event.get('strategy')}): {event.get('reason')}", style="magenta")
        )

    def _paused(self, event: Event) -> None:
        key = (event.get("step_id"), event.get("level"), event.get("confidence"))
        if key == self._last_pause:  # the node re-emits it when it resumes
            return
        self._last_pause = key
        level = str(event.get("level", ""))
        paused = self.rows.get(str(event.get("step_id")))
        if paused is not None:
            paused.note = f"paused ({level.upper()} {conf(event.get('confidence'))})"
        self.notices.append(
            Text(
                f"paused at {level.upper()} (confidence {conf(event.get('confidence'))})",
                style=LEVEL_STYLE.get(level, "yellow"),
            )
        )

    def _row(self, event: Event) -> _Row:
        sid = str(event.get("step_id"))
        if sid not in self.rows:
            self.rows[sid] = _Row(sid, str(event.get("action", "")), "")
        return self.rows[sid]

    def __rich__(self) -> RenderableType:
        """The table of steps and the notices under it."""
        table = Table(title=self.title, title_justify="left", expand=False)
        for name in ("step", "action", "query", "status", "conf", "level"):
            table.add_column(name, overflow="fold", max_width=48 if name == "query" else None)
        for r in self.rows.values():
            status: RenderableType
            if r.status == "running":
                status = Spinner("dots", text="running", style="cyan")
            else:
                label = r.status + (f" {r.ms:.0f} ms" if r.ms is not None else "")
                status = Text(label, style=_STATUS_STYLE.get(r.status, "white"))
            level = level_text(r.level)
            if r.note:
                level.append(f" ← {r.note}", style="bold")
            cells = (term_text(r.step_id), term_text(r.action), term_text(r.query))
            table.add_row(*cells, status, conf(r.confidence), level)
        return Group(table, *self.notices)


_VIEW_HANDLERS: Mapping[str, Callable[[RunView, Event], None]] = {
    "plan_ready": RunView._plan_ready,
    "step_started": RunView._step_started,
    "step_finished": RunView._step_finished,
    "step_scored": RunView._step_scored,
    "quality_gate": RunView._quality_gate,
    "notice": RunView._notice,
    "replan": RunView._replan,
    "intervention_required": RunView._paused,
}
"""The live table's handler for each event kind."""


# --- plain progress lines -------------------------------------------------------------------


def _plan_lines(event: Event) -> str:
    steps = ", ".join(f"{s['step_id']}:{s['action']}" for s in event.get("steps", []))
    repairs = "".join(f"\n  repair: {r}" for r in event.get("repairs", []))
    return f"plan ({event.get('origin')}): {steps}{repairs}"


_PLAIN_LINES: Mapping[str, Callable[[Event], str]] = {
    "plan_ready": _plan_lines,
    "step_started": lambda e: f"  > {e['step_id']} {e['action']}",
    "step_finished": lambda e: f"  {e['step_id']} {e['status']} ({e['execution_time_ms']:.0f} ms)",
    "step_scored": lambda e: f"    confidence {e['confidence']:.2f} {e['level'].upper()}",
    "notice": lambda e: f"  notice: {e['message']}",
    "quality_gate": lambda e: (
        f"  quality gate {e.get('step_id')}: {'passed' if e.get('passed') else 'failed'}"
    ),
    "replan": lambda e: f"replan ({e['strategy']}): {e['reason']}",
    "intervention_required": lambda e: (
        f"paused at {str(e['level']).upper()} ({e['confidence']:.2f})"
    ),
}
"""One progress line per event kind, for stderr that is not a terminal (e.g. a log)."""


def print_event(console: Console, event: Event) -> None:
    """Print ``event`` as a plain progress line (unknown events print nothing)."""
    line = _PLAIN_LINES.get(str(event.get("event")))
    if line is not None:
        console.print(term(line(event)), markup=False, highlight=False)


# --- answers and history --------------------------------------------------------------------


def _where(src: Mapping[str, Any]) -> str:
    """``rules.pdf p. 3`` when the chunk knows its place, else ``chunk 4``."""
    location = src.get("location") or ""
    return f"{src['source']} {location}" if location else f"chunk {src['chunk_index']}"


def print_sources(out: Console, sources: list[dict[str, Any]]) -> None:
    """One line per cited source: id, title, where in the document, collection, score."""
    for src in sources:
        collection = f", in '{src['collection']}'" if src.get("collection") else ""
        out.print(
            term(
                f"  [{src['source_id']}] {src['title'] or src['source']} "
                f"({_where(src)}{collection}, score {src['score']:.2f})"
            ),
            markup=False,
        )


def _steps_table(history: Mapping[str, Any]) -> Table:
    plan = history.get("plan") or {}
    table = Table(
        *("step", "action", "status", "conf", "breakdown", "ms", "output"),
        title=f"plan {plan.get('plan_id', '')} ({plan.get('origin', '?')})",
        title_justify="left",
    )
    for step in history["steps"]:
        score = step.get("score") or {}
        parts = [f"{k} {v:.2f}" for k, v in (score.get("breakdown") or {}).items()]
        parts += [f"-{k} {v:.2f}" for k, v in (score.get("penalties") or {}).items()]
        table.add_row(
            term_text(step["step_id"]),
            term_text(step["action"]),
            Text(step["status"], style=_STATUS_STYLE.get(step["status"], "")),
            conf(step.get("confidence")),
            term_text(", ".join(parts)),
            f"{step['execution_time_ms']:.0f}",
            term_text((step.get("output") or step.get("error") or "")[:70]),
        )
    return table


_TRANSCRIPT_CHARS = 200
"""Characters of each message ``grace show`` prints of the conversation (``--json``: all)."""


def _print_transcript(out: Console, transcript: Sequence[Mapping[str, str]]) -> None:
    """The thread's earlier turns, one line a message (the latest turn is shown below)."""
    earlier = transcript[
        : max((i for i, m in enumerate(transcript) if m["role"] == "user"), default=0)
    ]
    if not earlier:
        return
    turns = sum(m["role"] == "user" for m in earlier)
    out.print(Text(f"conversation: {turns} earlier turn{'s' if turns != 1 else ''}", "bold"))
    for m in earlier:
        text = " ".join(m["text"].split())
        cut = text if len(text) <= _TRANSCRIPT_CHARS else text[: _TRANSCRIPT_CHARS - 1] + "…"
        who = ("you: ", "cyan") if m["role"] == "user" else ("grace: ", "green")
        out.print(Text.assemble(who, term(cut)))


def print_history(out: Console, history: Mapping[str, Any], resume_hint: str) -> None:
    """``grace show``: earlier turns, then the latest's summary, steps, replies and answer."""
    _print_transcript(out, history.get("transcript", []))
    s = history["summary"]
    out.print(
        Text.assemble((term(s["query"]), "bold"), " — ", s["status"], " · confidence ")
        + Text(conf(s["confidence"]))
        + Text(" · ")
        + level_text(s["level"])
    )
    out.print(_steps_table(history))
    for i in history["interventions"]:
        out.print(
            Text.assemble("intervention ", level_text(i["level"]), f" at {i['score']:.2f}: ")
            + term_text(i["response_type"], style="bold")
        )
    for r in history["replans"]:
        out.print(term_text(f"replan {r['strategy']} ({r['trigger']}): {r['reason']}", "magenta"))
    for note in history.get("notes", []):
        out.print(Text.assemble(("note: ", "yellow"), term(note)))
    pending = history.get("pending")
    if pending:
        actions = pending.get("action_requests") or [{}]
        text = actions[0].get("description") or pending.get("description") or ""
        if text:
            from rich.markdown import Markdown  # markdown-it: only for a pending review

            out.print(Panel(Markdown(term(text)), title="pending"))
        out.print(term(f"resume with: {resume_hint}"), markup=False)
    if history["answer"]:
        out.print(Panel(term_text(history["answer"]), title="answer"))
    if history.get("citations"):
        out.print(term("sources: " + ", ".join(history["citations"])), markup=False)
