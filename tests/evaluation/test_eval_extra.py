"""The ``eval`` extra (scikit-learn, matplotlib, mapie): ``grace ask`` never loads it, and
``grace eval`` / ``grace calibrate`` without it end in one line naming the install."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from grace.errors import MissingExtraError
from graph.evaluation.extra import EVAL_EXTRA, require_eval_extra
from tests.cli_runner import run_python

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "grace" / "data" / "sample"


@pytest.mark.parametrize("module", sorted(EVAL_EXTRA))
def test_a_missing_package_of_the_extra_names_the_install(
    module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    require_eval_extra()  # the dev install has the extra
    monkeypatch.setitem(sys.modules, module, None)  # as if it were not installed
    with pytest.raises(MissingExtraError, match=r'pip install "grace-agent\[eval\]"') as info:
        require_eval_extra()
    assert EVAL_EXTRA[module] in str(info.value)


@pytest.mark.parametrize("command", ["eval", "calibrate"])
def test_eval_commands_without_the_extra_are_one_line_and_exit_2(
    tmp_path: Path, command: str
) -> None:
    code = (
        "import sys; sys.modules['sklearn'] = None\n"
        f"sys.argv = ['grace', {command!r}, {str(SAMPLE)!r}, '-o', {str(tmp_path / 'out')!r}]\n"
        "from graph.cli.main import main\nmain()\n"
    )
    proc = run_python(tmp_path, code)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("error: ") and proc.stderr.count("\n") == 1, proc.stderr
    assert 'scikit-learn: pip install "grace-agent[eval]"' in proc.stderr
    assert "Traceback" not in proc.stderr


def test_grace_ask_loads_no_package_of_the_extra(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "sys.argv = ['grace', 'ask', 'When did the horse tram line open in Lumen Bay?', '--json']\n"
        "from graph.cli.main import main\n"
        "try:\n    main()\n"
        "finally:\n"
        f"    print(sorted(m for m in sys.modules if m.split('.')[0] in {sorted(EVAL_EXTRA)!r}),"
        " file=sys.stderr)\n"
    )
    proc = run_python(tmp_path, code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.rstrip().splitlines()[-1] == "[]"
    assert '"status": "completed"' in proc.stdout or '"status":"completed"' in proc.stdout
