"""Every Python example of the README and the docs site runs, in order, offline.

Each page's ```` ```python ```` blocks run in order as one script in a fresh process, with a
private ``GRACE_DATA_DIR`` and ``HOME``, no model keys in the environment and the page's own
directory-free working dir, so an example that depends on something it does not show fails
here. The Studio page talks to a running ``langgraph dev``: it runs against the server this
module starts, its documented URL replaced by the server's.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.integration.conftest import ROOT
from tests.integration.test_studio_server import Server, server  # noqa: F401  (fixture)

pytestmark = pytest.mark.slow

_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
DOCUMENTED_URL = "http://127.0.0.1:2024"
SERVER_PAGES = {"docs/studio.md"}
"""Pages whose examples talk to `langgraph dev` (at DOCUMENTED_URL)."""


def _nav_pages(nav: object) -> list[str]:
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, list):
        return [page for item in nav for page in _nav_pages(item)]
    if isinstance(nav, dict):
        return [page for value in nav.values() for page in _nav_pages(value)]
    return []


def _site_config() -> dict[str, object]:
    config: dict[str, object] = yaml.safe_load(
        re.sub(r"!!python/name:\S+", "null", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    )
    return config


def _site_pages() -> list[str]:
    return _nav_pages(_site_config()["nav"])


def python_blocks(text: str) -> list[str]:
    """The page's Python examples, in order."""
    return _BLOCK.findall(text)


PAGES = ["README.md", *(f"docs/{page}" for page in _site_pages())]
EXAMPLE_PAGES = [
    page for page in PAGES if python_blocks((ROOT / page).read_text(encoding="utf-8"))
]


def _offline_env(tmp: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("GRACE_", "LANGSMITH_", "LANGCHAIN_"))
        and not key.endswith("_API_KEY")
    }
    env.update(HOME=str(tmp / "home"), GRACE_DATA_DIR=str(tmp / "data"), PYTHONUNBUFFERED="1")
    (tmp / "home").mkdir()
    return env


def _run_page(page: str, tmp: Path, url: str | None = None) -> subprocess.CompletedProcess[str]:
    script = "\n\n".join(python_blocks((ROOT / page).read_text(encoding="utf-8")))
    if url is not None:
        script = script.replace(DOCUMENTED_URL, url)
    work = tmp / "work"
    work.mkdir()
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=work,
        env=_offline_env(tmp),
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_every_docs_page_is_in_the_site_nav() -> None:
    on_disk = {f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")}
    assert on_disk <= set(PAGES), f"pages missing from mkdocs.yml's nav: {on_disk - set(PAGES)}"


def test_the_site_serves_its_own_mermaid() -> None:
    """The diagrams draw offline: mermaid is a file of the site (mkdocs-material uses a
    ``mermaid`` already loaded instead of its CDN copy), with its licence beside it."""
    scripts = _site_config()["extra_javascript"]
    assert isinstance(scripts, list)
    mermaid = [s for s in scripts if isinstance(s, str) and s.endswith("mermaid.min.js")]
    assert mermaid and not mermaid[0].startswith(("http:", "https:", "//"))
    script = ROOT / "docs" / mermaid[0]
    assert script.stat().st_size > 1_000_000 and b"mermaid" in script.read_bytes()[:100_000]
    assert "MIT License" in (script.parent / "LICENSE").read_text(encoding="utf-8")


def test_the_readme_and_the_docs_have_python_examples() -> None:
    assert "README.md" in EXAMPLE_PAGES
    assert {"docs/python.md", "docs/extending.md", "docs/studio.md"} <= set(EXAMPLE_PAGES)


@pytest.mark.parametrize("page", [p for p in EXAMPLE_PAGES if p not in SERVER_PAGES])
def test_page_examples_run_offline(page: str, tmp_path: Path) -> None:
    proc = _run_page(page, tmp_path)
    assert proc.returncode == 0, f"{page}'s examples failed:\n{proc.stderr[-4000:]}"
    assert proc.stdout.strip(), f"{page}'s examples printed nothing"


@pytest.mark.parametrize("page", sorted(SERVER_PAGES))
def test_server_page_examples_run_against_langgraph_dev(
    page: str, tmp_path: Path, server: Server  # noqa: F811
) -> None:
    proc = _run_page(page, tmp_path, url=server.url)
    assert proc.returncode == 0, f"{page}'s examples failed:\n{proc.stderr[-4000:]}"
    assert proc.stdout.strip(), f"{page}'s examples printed nothing"
