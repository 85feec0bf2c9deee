"""GRACE uses public LangGraph / LangChain APIs only (docs/architecture.md §1)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("graph", "nodes", "grace", "confidence", "checkpoints")


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_no_product_module_imports_a_private_langgraph_or_langchain_module() -> None:
    offenders = {
        f"{path.relative_to(ROOT)}: {name}"
        for package in PRODUCT
        for path in (ROOT / package).rglob("*.py")
        for name in _imports(path)
        if name.startswith(("langgraph", "langchain"))
        and any(part.startswith("_") for part in name.split("."))
    }
    assert not offenders, f"private imports: {sorted(offenders)}"
