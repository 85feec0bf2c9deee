"""README and docs stay true to the code: the Mermaid diagram, the event schema, the CI command."""

from __future__ import annotations

import re

import pytest

from grace.notes.events import EVENT_TYPES
from graph.diagram import DIAGRAM_PAGES, mermaid
from tests.integration.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("page", DIAGRAM_PAGES)
def test_mermaid_block_is_the_current_graph(page: str) -> None:
    text = (ROOT / page).read_text(encoding="utf-8")
    match = re.search(
        r"<!-- graph:start -->\n```mermaid\n(.*?)```\n<!-- graph:end -->", text, re.S
    )
    assert match, f"{page} lost its <!-- graph:start --> mermaid block"
    assert match.group(1) == mermaid(), (
        f"{page}'s diagram is stale: run `python -m graph.diagram --write`"
    )


def test_docs_document_every_custom_event() -> None:
    python_page = (ROOT / "docs" / "python.md").read_text(encoding="utf-8")
    section = python_page.split("## Custom events", 1)[1].split("\n## ", 1)[0]
    for event in EVENT_TYPES:
        assert f"`{event}`" in section, f"README's event table lacks {event}"


def test_ci_runs_the_readme_test_command_last() -> None:
    blocks = re.findall(r"\*\*Run the tests:\*\*\n\n```bash\n(.*?)\n```", README, re.S)
    assert len(blocks) == 1
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").rstrip().splitlines()
    assert ci[-1] == blocks[0].strip()
