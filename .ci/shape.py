"""List product functions over 60 lines and radon complexity grades D or worse.

Usage: ``python .ci/shape.py`` (exit status 1 when any is found). The project's rule is no
product function over 60 lines and nothing worse than radon C (complexity <= 20).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGES = ("graph", "nodes", "grace", "confidence", "checkpoints")
MAX_LINES = 60
MAX_COMPLEXITY = 20


def long_functions(root: Path) -> list[str]:
    """``path:line name (N lines)`` of every function longer than :data:`MAX_LINES`."""
    found = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    lines = (node.end_lineno or node.lineno) - node.lineno + 1
                    if lines > MAX_LINES:
                        found.append(
                            f"{path.relative_to(root)}:{node.lineno} {node.name} ({lines} lines)"
                        )
    return found


def complex_functions(root: Path) -> list[str]:
    """``path:line name (complexity N)`` above :data:`MAX_COMPLEXITY` (needs radon)."""
    try:
        from radon.complexity import cc_visit
    except ImportError:
        return ["radon is not installed: complexity not checked"]
    found = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            for block in cc_visit(path.read_text(encoding="utf-8")):
                if block.complexity > MAX_COMPLEXITY:
                    found.append(
                        f"{path.relative_to(root)}:{block.lineno} {block.name} "
                        f"(complexity {block.complexity})"
                    )
    return found


def main() -> int:
    """Print the offenders; 1 when there is any."""
    root = Path(__file__).resolve().parent.parent
    offenders = long_functions(root) + complex_functions(root)
    for line in offenders:
        sys.stdout.write(line + "\n")
    return 1 if offenders else 0


if __name__ == "__main__":
    sys.exit(main())
