"""``.ci/reach.py``: no product function or class is reached only by tests, bench, or nobody.

The repository passes; on a small package made here, the check names a function only a test
uses, one only bench uses and one that only calls itself, and it honours (and checks) the
allow-list and a package ``__all__`` documented as public API.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _reach() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ci_reach", ROOT / ".ci" / "reach.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being made
    spec.loader.exec_module(module)
    return module


reach = _reach()


def test_every_product_definition_is_reached_or_allow_listed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = reach.main(ROOT)
    out = capsys.readouterr().out
    assert status == 0, out
    assert out.startswith("reach: ") and out.count("\n") == 1


_CORE = '''
"""Core."""
import typer

app = typer.Typer()


def used() -> int:
    return helper()


def helper() -> int:
    return 1


def only_tested() -> int:
    return 2


def only_benched() -> int:
    return 3


def recursive(n: int) -> int:
    return recursive(n - 1) if n else 0


def via_getattr() -> None:
    pass


@app.command()
def command() -> None:
    pass


class Thing:
    def public(self) -> int:
        return self._private()

    def _private(self) -> int:
        return 0

    def unused_method(self) -> None:
        pass

    def __repr__(self) -> str:
        return "Thing()"
'''

_APP = '''
"""Uses core."""
from grace import core
from grace.core import Thing, used

used()
Thing().public()
getattr(core, "via_getattr")()
'''


def _package(root: Path, api_doc: str = "The API.") -> Path:
    (root / "grace" / "api").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "bench").mkdir()
    (root / "grace" / "__init__.py").write_text('"""A package."""\n')
    (root / "grace" / "core.py").write_text(_CORE)
    (root / "grace" / "app.py").write_text(_APP)
    (root / "grace" / "api" / "__init__.py").write_text(
        f'"""{api_doc}"""\nfrom grace.api.impl import exported\n\n__all__ = ["exported"]\n'
    )
    (root / "grace" / "api" / "impl.py").write_text('"""Impl."""\ndef exported() -> None: ...\n')
    (root / "tests" / "test_core.py").write_text(
        "from grace.core import Thing, only_tested\n\nonly_tested()\nThing().unused_method()\n"
    )
    (root / "bench" / "run.py").write_text("from grace.core import only_benched\n")
    return root


def _failures(root: Path) -> list[str]:
    failures, _ = reach.check(root)
    return [line.split(" ", 1)[1] if line.startswith("grace/") else line for line in failures]


def test_a_definition_only_tests_or_bench_reach_fails(tmp_path: Path) -> None:
    root = _package(tmp_path)
    assert _failures(root) == [
        "grace.api.impl:exported used nowhere",  # a re-export is not a use
        "grace.core:only_tested reached only by tests",
        "grace.core:only_benched reached only by bench",
        "grace.core:recursive used nowhere",  # calling itself does not count
        "grace.core:Thing.unused_method reached only by tests",
    ]
    assert reach.main(root) == 1


def test_a_package_all_documented_as_public_api_is_reached(tmp_path: Path) -> None:
    root = _package(tmp_path, api_doc="The public API: users import these.")
    assert "grace.api.impl:exported used nowhere" not in _failures(root)


def test_the_allow_list_is_honoured_and_kept_true(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _package(tmp_path, api_doc="The public API.")
    (root / ".ci").mkdir()
    allow = root / ".ci" / "reach_allow.txt"
    allow.write_text(
        "# comment\n\n"
        "grace.core:only_tested  # kept for a reason\n"
        "grace.core:only_benched  # the bench's own\n"
        "grace.core:recursive  # an example\n"
        "grace.core:Thing.unused_method  # a framework calls it\n"
    )
    assert reach.main(root) == 0
    assert "(4 in .ci/reach_allow.txt)" in capsys.readouterr().out

    allow.write_text(
        allow.read_text()
        + "grace.core:used  # but it is used\n"
        + "grace.core:gone  # deleted since\n"
        + "grace.core:helper\n"
    )
    assert _failures(root) == [
        "reach_allow.txt:9: want 'module:name  # reason', got 'grace.core:helper'",
        ".ci/reach_allow.txt: grace.core:used is reached: remove its line",
        ".ci/reach_allow.txt: grace.core:gone names no definition",
    ]
