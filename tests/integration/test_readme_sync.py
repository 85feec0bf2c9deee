"""README stays true to the code: the Mermaid diagram, the event schema, the CI command."""

from __future__ import annotations

import re

from grace.events import EVENT_TYPES
from graph.diagram import mermaid
from tests.integration.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_mermaid_block_is_the_current_graph() -> None:
    match = re.search(
        r"<!-- graph:start -->\n```mermaid\n(.*?)```\n<!-- graph:end -->", README, re.S
    )
    assert match, "README lost its <!-- graph:start --> mermaid block"
    assert match.group(1) == mermaid(), (
        "README diagram is stale: run `python -m graph.diagram --write`"
    )


def test_readme_documents_every_custom_event() -> None:
    section = README.split("### Custom events", 1)[1].split("\n## ", 1)[0]
    for event in EVENT_TYPES:
        assert f"`{event}`" in section, f"README's event table lacks {event}"


def test_ci_runs_the_readme_test_command_last() -> None:
    blocks = re.findall(r"\*\*Run the tests:\*\*\n\n```bash\n(.*?)\n```", README, re.S)
    assert len(blocks) == 1
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").rstrip().splitlines()
    assert ci[-1] == blocks[0].strip()
