"""``grace eval`` / ``grace calibrate`` on malformed datasets: the message alone, exit 2;
calibrating on runs that all errored is refused (issue 26.12, 14, 17)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from graph.evaluation import calibrate as calibrate_module
from graph.evaluation.dataset import DatasetError, load_dataset
from tests.cli_runner import invoke_cli


def _dataset(tmp_path: Path, questions: bytes, corpus: bool = True) -> Path:
    root = tmp_path / "ds"
    root.mkdir()
    if corpus:
        (root / "corpus").mkdir()
        (root / "corpus" / "a.md").write_text("# A\n\nThe tram opened in 1874.\n")
    (root / "questions.jsonl").write_bytes(questions)
    return root


CASES = [
    (b'{"id": 5, "question": ["a"], "answerable": "yes", "answers": "1764"}\n',
     "questions.jsonl:1: field 'id' must be str, not int"),
    (b'{"id": "q1", "question": "When?", "answers": "1764"}\n', "field 'answers' must be list"),
    (b'{"id": "q1", "question": "When?", "answerable": "yes"}\n', "'answerable' must be bool"),
    (b"not json\n", "questions.jsonl:1: not JSON"),
    (b'["a list"]\n', "expected a JSON object"),
    (b'{"id": "a", "question": "q"}\n{"id": "a", "question": "q"}\n', "duplicate id 'a'"),
    (b"", "no questions"),
    (b"\xff\xfe\x00\x01binary", "not UTF-8 text"),
]


@pytest.mark.parametrize(("content", "message"), CASES)
def test_a_malformed_dataset_is_one_message(
    tmp_path: Path, content: bytes, message: str
) -> None:
    root = _dataset(tmp_path, content)
    with pytest.raises(DatasetError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_dataset(root)
    for command in ("eval", "calibrate"):
        result = invoke_cli(command, str(root), "-o", str(tmp_path / f"out-{command}"), code=2)
        assert message in " ".join((result.stderr + result.stdout).split())
        assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_dataset_without_a_corpus_is_one_message(tmp_path: Path) -> None:
    root = _dataset(tmp_path, b'{"id": "a", "question": "q"}\n', corpus=False)
    result = invoke_cli("eval", str(root), code=2)
    assert "no corpus/ directory" in " ".join((result.stderr + result.stdout).split())


def test_calibrate_refuses_when_every_run_errored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _dataset(tmp_path, b'{"id": "a", "question": "q", "answers": ["1874"]}\n')
    failed = {"error": "ConnectError: connection refused", "steps": []}

    def fake_fit(dataset_dir: Path, **options: Any) -> Any:
        return type("Fit", (), {"runs": [failed, failed]})()

    monkeypatch.setattr(calibrate_module, "calibrate_dataset", fake_fit)
    written = tmp_path / "cal.yaml"
    result = invoke_cli("calibrate", str(root), "-o", str(written), code=1)
    said = " ".join((result.stdout + result.stderr).split())
    assert "every one of the 2 runs met a model or tool error" in said
    assert not written.exists()
