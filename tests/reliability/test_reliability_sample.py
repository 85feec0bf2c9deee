"""The bundled sample: removing it sticks; a missing default collection is refused up front.

Issue 39, item 3: ``grace remove`` on the sample's files reported success and the next
command seeded the sample again (``retrieval.auto_ingest_sample`` seeded a default
collection that was *empty*); with the sample off and no default collection, ``grace ask``
planned three times against a collection that does not exist.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from grace.library import Library
from grace.retrieval import UnknownCollectionError
from grace.retrieval.sample import SAMPLE_CORPUS_DIR
from grace.services import build_services
from grace.settings import GraceSettings, get_settings
from graph.app import GraceApp
from tests.cli_runner import invoke_cli

SAMPLE_FILES = sorted(p.name for p in SAMPLE_CORPUS_DIR.glob("*.md"))


def test_removing_the_sample_sticks(tmp_path: Path) -> None:
    settings = GraceSettings(data_dir=tmp_path, provider="offline")
    services = build_services(settings)
    try:
        library = Library(services.store, settings)
        assert {d.source for d in library.documents("grace")} == set(SAMPLE_FILES)
        library.remove(SAMPLE_FILES, "grace")
    finally:
        services.close()
    again = build_services(settings)  # the next command opens the store again
    try:
        assert again.store.count("grace") == 0
        assert Library(again.store, settings).documents("grace") == []
    finally:
        again.close()


def test_the_sample_still_seeds_a_new_data_directory(tmp_path: Path) -> None:
    services = build_services(GraceSettings(data_dir=tmp_path, provider="offline"))
    try:
        assert services.store.count("grace") > 0
    finally:
        services.close()


def _no_sample(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GraceSettings:
    monkeypatch.setenv("GRACE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("GRACE_RETRIEVAL__AUTO_INGEST_SAMPLE", "false")
    get_settings.cache_clear()
    settings = get_settings()
    assert not settings.retrieval.auto_ingest_sample
    return settings


def test_a_missing_default_collection_is_refused_before_a_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = _no_sample(tmp_path / "data", monkeypatch)
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "menu.md").write_text("The soup of the day is tomato.\n", encoding="utf-8")
    services = build_services(settings)
    try:
        Library(services.store, settings).ingest([folder], "mine")
        with GraceApp.open(settings, services=services) as app:
            with pytest.raises(UnknownCollectionError) as caught:
                app.ask("What is the soup of the day?", thread_id="t-missing")
            assert "'grace'" in str(caught.value) and "mine" in str(caught.value)
            assert app.graph.get_state({"configurable": {"thread_id": "t-missing"}}).values == {}
            # Naming the collection that exists runs.
            from grace.context import GraceContext

            done = app.ask("What is the soup of the day?", context=GraceContext(collection="mine"))
            assert done.sources
    finally:
        services.close()


def test_cli_ask_refuses_a_missing_default_collection_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli_services: Any
) -> None:
    settings = _no_sample(tmp_path, monkeypatch)
    services = build_services(settings)
    try:
        cli_services(services)
        result = invoke_cli("ask", "What is the soup of the day?", "--json", code=2)
    finally:
        services.close()
    assert "unknown collection 'grace'" in result.output
    assert "Traceback" not in result.output
    assert result.output.count("unknown collection") == 1
