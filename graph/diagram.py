"""Print (or write) the graph's Mermaid diagram: ``python -m graph.diagram [--write]``.

``--write`` refreshes ``tests/graph/graph.mmd`` and the diagram blocks in ``README.md`` and
``docs/index.md``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from graph.builder import builder

__all__ = ["DIAGRAM_PAGES", "mermaid", "write"]

ROOT = Path(__file__).resolve().parent.parent
DIAGRAM_PAGES = ("README.md", "docs/index.md")
"""The pages (relative to the repository) that carry the generated diagram block."""
_BLOCK = re.compile(r"(<!-- graph:start -->\n```mermaid\n).*?(```\n<!-- graph:end -->)", re.S)


def mermaid() -> str:
    """The Mermaid source of the compiled graph."""
    return builder.compile().get_graph().draw_mermaid()


def write() -> None:
    """Refresh the snapshot and the diagram block of every page that carries one."""
    text = mermaid()
    (ROOT / "tests" / "graph" / "graph.mmd").write_text(text, encoding="utf-8")
    for name in DIAGRAM_PAGES:
        page = ROOT / name
        if page.exists():
            content = page.read_text(encoding="utf-8")
            page.write_text(
                _BLOCK.sub(lambda m: m.group(1) + text + m.group(2), content), encoding="utf-8"
            )


if __name__ == "__main__":
    if "--write" in sys.argv:
        write()
    else:
        sys.stdout.write(mermaid())
