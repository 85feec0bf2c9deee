"""Faults that ended in a traceback (or a silent wrong model) now end in one line.

Issue 39, items 13 and 14: the library record on a full disk or damaged; a confidence model
whose numbers are finite but extreme, or whose feature names match nothing; an inline model
that YAML aliases multiply; a lone surrogate in a thread id; a UTF-16 CSV with a BOM.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from confidence.correctness_model import LearnedModel, default_model
from grace.documents.tabular import convert_csv
from grace.errors import SettingsError, StorageError
from grace.retrieval import library as library_module
from grace.retrieval.library import LibraryRecord
from grace.services import build_services
from grace.settings import GraceSettings, get_settings, load_settings
from graph.app import GraceApp, InvalidThreadIdError
from tests.cli_runner import run_cli_process


def _one_line(proc: Any, *expected: str) -> None:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith("error: ")
    text = " ".join(proc.stderr.split())
    for part in expected:
        assert part in text, text


@pytest.mark.parametrize("damage", ["random bytes", "a directory"])
def test_a_damaged_library_record_is_one_line_naming_it(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "library.sqlite"
    if damage == "a directory":
        path.mkdir()
    else:
        path.write_bytes(bytes(range(256)) * 64)
    with pytest.raises(StorageError) as caught:
        LibraryRecord(path)
    message = str(caught.value)
    assert str(path) in message and "move it aside" in message and "\n" not in message


@pytest.mark.parametrize("command", [["collections"], ["documents"], ["remove", "x.md"]])
def test_library_commands_on_a_damaged_record_exit_2_in_one_line(
    tmp_path: Path, command: list[str]
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "library.sqlite").write_bytes(b"\x13\x37" * 4096)
    proc = run_cli_process(tmp_path, *command)
    _one_line(proc, "library record", str(data / "library.sqlite"))


def test_ask_does_not_need_the_library_record(tmp_path: Path) -> None:
    """A question is answered from the store: a damaged record does not stop it (the library
    commands name the file, above)."""
    data = tmp_path / "data"
    (data / "library.sqlite").mkdir(parents=True)
    proc = run_cli_process(tmp_path, "ask", "When did the horse tram line open?", "--json")
    assert proc.returncode == 0, proc.stderr
    assert "1874" in json.loads(proc.stdout)["answer"]


def test_the_library_record_on_a_full_disk_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "library.sqlite"
    records = LibraryRecord(path)
    connect = sqlite3.connect

    def full(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        db = connect(*args, **kwargs)
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own "disk is full"
        return db

    monkeypatch.setattr(library_module.sqlite3, "connect", full)
    folder = tmp_path / "docs"
    folder.mkdir()
    from grace.library import Library
    from grace.retrieval import StoreOptions, open_store

    for i in range(40):
        (folder / f"f{i}.md").write_text(f"Paragraph {i} " * 200, encoding="utf-8")
    settings = GraceSettings(data_dir=tmp_path, provider="offline")
    with open_store("edge", StoreOptions(path=tmp_path / "qdrant")) as store:
        library = Library(store, settings)
        library.records = records
        with pytest.raises(StorageError) as caught:
            library.ingest([folder], "c")
    message = str(caught.value)
    assert str(path) in message and "full" in message and "free space" in message


def _model(**changes: object) -> dict[str, object]:
    model = default_model()
    assert model is not None
    data = model.model_dump()
    data.update(changes)
    return data


def test_a_model_with_finite_but_extreme_numbers_is_refused() -> None:
    n = len(_model()["features"])  # type: ignore[arg-type]
    for bad in (
        {"scale": [5e-324] * n},
        {"coef": [1e300] * n},
        {"intercept": -1e308},
        {"low": [-1e300] * n, "high": [1e300] * n},
    ):
        with pytest.raises(ValueError, match="within|scale must be"):
            LearnedModel.model_validate(_model(**bad))


def _settings_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> Path:
    config = tmp_path / "grace.yaml"
    config.write_text(text, encoding="utf-8")
    monkeypatch.setenv("GRACE_CONFIG", str(config))
    monkeypatch.setenv("GRACE_DATA_DIR", str(tmp_path / "data"))
    get_settings.cache_clear()
    return config


def test_a_model_whose_feature_names_match_nothing_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = _model()
    model["features"] = [f"nothing_{i}" for i in range(len(model["features"]))]  # type: ignore[arg-type]
    _settings_file(tmp_path, monkeypatch, json.dumps({"confidence": {"model": model}}))
    with pytest.raises(SettingsError, match="feature") as caught:
        build_services(load_settings())
    assert "'nothing_0'" in str(caught.value)
    proc = run_cli_process(
        tmp_path,
        "ask",
        "When did the horse tram line open?",
        "--json",
        GRACE_CONFIG=str(tmp_path / "grace.yaml"),
    )
    assert proc.returncode == 2 and "no run has" in proc.stderr and "Traceback" not in proc.stderr


def test_yaml_aliases_that_multiply_an_inline_model_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = ["a0: &a0 [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]"]
    for i in range(1, 9):
        lines.append(f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]")
    lines.append("confidence:\n  model: {features: [x], mean: *a8, scale: [1], coef: [1],")
    lines.append("    intercept: 0, thresholds: {silent: 0.9, notify: 0.5, confirm: 0.2}}")
    config = _settings_file(tmp_path, monkeypatch, "\n".join(lines) + "\n")
    assert config.stat().st_size < 2_000  # a small file that expands to millions of values
    with pytest.raises(SettingsError, match="expands to over"):
        load_settings()


def test_an_oversized_settings_file_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _settings_file(tmp_path, monkeypatch, "# padding\n" * 200_000)
    with pytest.raises(SettingsError, match="bytes"):
        load_settings()


def test_a_lone_surrogate_in_a_thread_id_is_one_clear_error(offline_services: Any) -> None:
    with GraceApp.open(services=offline_services) as app:
        for call in (
            lambda: app.ask("When did the horse tram line open?", thread_id="t\udce9"),
            lambda: app.resume("t\udce9", {"decisions": [{"type": "approve"}]}),
            lambda: app.continue_run("t\udce9"),
            lambda: app.history("t\udce9"),
        ):
            with pytest.raises(InvalidThreadIdError, match="not UTF-8"):
                call()


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-16-le"])
def test_a_utf16_csv_with_a_bom_is_read(tmp_path: Path, encoding: str) -> None:
    text = "name,price\nsoup,4\nbread,2\n"
    data = text.encode(encoding)
    if encoding != "utf-16":  # utf-16 writes its own BOM; the others need one
        data = ("\ufeff" + text).encode(encoding)
    path = tmp_path / "menu.csv"
    path.write_bytes(data)
    sections = convert_csv(path)
    assert [s.text for s in sections] == ["name: soup; price: 4", "name: bread; price: 2"]
