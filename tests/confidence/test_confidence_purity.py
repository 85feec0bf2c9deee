"""The confidence package must stay pure: no imports of other project packages."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import confidence

PACKAGE = Path(confidence.__file__).parent
FORBIDDEN = {"grace", "graph", "nodes", "checkpoints", "bench"}
ALLOWED_THIRD_PARTY = {"pydantic", "langchain_core", "langgraph", "numpy"}


def test_no_forbidden_imports_in_source() -> None:
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                roots = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                roots = {node.module.split(".")[0]}
            else:
                continue
            assert not roots & FORBIDDEN, f"{path.name} imports {roots & FORBIDDEN}"
            third_party = roots - set(sys.stdlib_module_names) - {"confidence", "__future__"}
            assert third_party <= ALLOWED_THIRD_PARTY, f"{path.name} imports {third_party}"


def test_import_loads_no_project_package() -> None:
    code = (
        "import sys, confidence; "
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {sorted(FORBIDDEN)!r}); "
        "print(','.join(bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=PACKAGE.parent,
    )
    assert out.stdout.strip() == ""


def test_all_exports_exist() -> None:
    for name in confidence.__all__:
        assert hasattr(confidence, name), name
