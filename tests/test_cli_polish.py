"""What a new user hit on the command line: settings errors, help, wording, pauses, Ctrl-C."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from graph.cli import main as cli
from graph.cli.main import RunView, app
from tests.cli_runner import run_cli_process

ROOT = Path(__file__).resolve().parents[1]


_run_cli = run_cli_process


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("retrieval: {top_k: 5\nbogus: [", "not valid YAML"),
        ("retrievl: {top_k: 5}\n", "retrievl"),
        ("run: {max_replans: -1}\n", "run.max_replans"),
    ],
)
def test_a_bad_settings_file_is_one_clean_message_and_exit_2(
    tmp_path: Path, content: str, expected: str
) -> None:
    bad = tmp_path / "grace.yaml"
    bad.write_text(content, encoding="utf-8")
    proc = _run_cli(tmp_path, "threads", GRACE_CONFIG=str(bad))
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith("error:") and expected in proc.stderr
    assert str(bad) in proc.stderr or "not valid YAML" in proc.stderr
    # help needs no valid settings at all
    helped = _run_cli(tmp_path, "--help", GRACE_CONFIG=str(bad))
    assert helped.returncode == 0 and "Usage" in helped.stdout


def test_a_bad_environment_variable_names_the_variable(tmp_path: Path) -> None:
    proc = _run_cli(tmp_path, "threads", GRACE_RUN__MAX_REPLANS="many")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "GRACE_RUN__MAX_REPLANS" in proc.stderr and "run.max_replans" in proc.stderr


def test_threads_status_is_validated_against_the_real_statuses() -> None:
    result = CliRunner().invoke(app, ["threads", "--status", "bogus"])
    assert result.exit_code == 2
    assert "completed" in result.output and "interrupted" in result.output


def test_empty_question_is_refused_in_cli_words() -> None:
    result = CliRunner().invoke(app, ["ask", ""])
    assert result.exit_code == 2
    assert 'grace ask "your question"' in result.output and "{'query'" not in result.output


@pytest.mark.parametrize("command", ["ask", "resume", "ingest", "threads", "show", "eval", "ui",
                                     "calibrate"])
def test_every_command_help_has_an_example(command: str) -> None:
    result = CliRunner().invoke(app, [command, "--help"])
    assert result.exit_code == 0
    assert "Example" in result.output, result.output


def test_plural_forms() -> None:
    assert cli._plural(1, "file") == "1 file" and cli._plural(2, "chunk") == "2 chunks"


def test_escalate_legend_lists_only_allowed_replies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli.Prompt, "ask", lambda *a, **k: "ignore")
    request = {
        "level": "escalate",
        "action_requests": [{"name": "review_answer", "args": {}, "description": "## GRACE"}],
        "review_configs": [
            {"action_name": "review_answer", "allowed_decisions": ["edit", "reject"]}
        ],
    }
    with cli.console.capture() as captured:
        reply = cli._prompt_reply(request)
    assert reply == {"decisions": [{"type": "reject"}]}
    legend = captured.get()
    assert "accept:" not in legend and "respond:" in legend and "ignore:" in legend


def test_ctrl_c_at_the_prompt_prints_the_thread_and_the_resume_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def interrupt(_: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_prompt_reply", interrupt)
    outcome: Any = type("Outcome", (), {"status": "interrupted", "interrupt": {},
                                        "thread_id": "t-42"})()
    with cli.console.capture() as captured, pytest.raises(typer.Exit) as stopped:
        cli._drive(None, outcome, True, False, cli._Progress(enabled=False))  # type: ignore[arg-type]
    assert stopped.value.exit_code == 130
    assert "t-42" in captured.get() and "grace resume t-42" in captured.get()


def test_live_table_clears_the_pause_once_the_run_goes_on() -> None:
    view = RunView()
    view.handle({"event": "plan_ready", "steps": [{"step_id": "s1", "action": "reasoning"}]})
    view.handle({"event": "intervention_required", "step_id": "s1", "level": "confirm",
                 "confidence": 0.5})
    assert view.rows["s1"].note
    view.handle({"event": "step_started", "step_id": "s1", "action": "reasoning"})
    assert view.rows["s1"].note == ""


def test_eval_writes_under_the_data_dir_by_default(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from grace.settings import get_settings
    from graph.evaluation.cli import default_output

    monkeypatch.setenv("GRACE_DATA_DIR", str(tmp_path / "d"))
    get_settings.cache_clear()
    try:
        assert default_output(Path("some/dev")) == tmp_path / "d" / "eval" / "dev"
    finally:
        get_settings.cache_clear()


def test_the_docs_notebook_command_is_installed_by_its_extra() -> None:
    import tomllib

    page = (ROOT / "docs" / "studio.md").read_text(encoding="utf-8")
    assert 'pip install -e ".[notebook]" && jupyter lab notebooks/' in page
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert any(dep.startswith("jupyterlab") for dep in extras["notebook"])


def test_ask_says_it_started_before_the_graph_is_loaded(tmp_path: Path) -> None:
    proc = _run_cli(tmp_path, "ask", "When did the horse tram line open in Lumen Bay?")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    assert lines[0] == "planning …"
    assert any(line.startswith("plan (") for line in lines[1:])
    json_run = _run_cli(tmp_path, "ask", "When did the horse tram line open?", "--json")
    assert "planning" not in json_run.stderr  # --json: nothing but the JSON object


def test_a_blank_response_at_the_prompt_is_asked_again_not_read_as_ignore(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from grace.hitl.request import InvalidHumanResponseError

    request = {
        "level": "escalate",
        "action_requests": [{"name": "review_answer", "args": {}, "description": "## GRACE"}],
        "review_configs": [
            {"action_name": "review_answer", "allowed_decisions": ["edit", "reject"]}
        ],
    }
    answers = iter(["respond", "   "])
    monkeypatch.setattr(cli.Prompt, "ask", lambda *a, **k: next(answers))
    with cli.console.capture(), pytest.raises(InvalidHumanResponseError, match="needs text"):
        cli._prompt_reply(request)

    answers = iter(["respond", "", "respond", "France won it."])
    monkeypatch.setattr(cli.Prompt, "ask", lambda *a, **k: next(answers))
    sent: list[Any] = []

    class Grace:
        def resume(self, thread_id: str, reply: Any, **_: Any) -> Any:
            sent.append(reply)
            return type("Done", (), {"status": "completed", "interrupt": None,
                                     "thread_id": thread_id})()  # fmt: skip

    outcome: Any = type("Paused", (), {"status": "interrupted", "interrupt": request,
                                       "thread_id": "t-7"})()  # fmt: skip
    monkeypatch.setattr(cli, "_print_outcome", lambda o: None)
    with cli.console.capture() as captured:
        cli._drive(Grace(), outcome, True, False, cli._Progress(enabled=False))  # type: ignore[arg-type]
    assert sent == [{"decisions": [{"type": "reject", "message": "France won it."}]}]
    assert "this reply needs text" in captured.get()
