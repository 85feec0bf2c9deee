"""Hostile input from the second fault probe: bad settings, non-UTF-8 arguments and files.

Each case runs the real ``grace`` in a fresh process and expects one line naming the problem,
exit 2 and no traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def _grace(tmp_path: Path, *args: str | bytes) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRACE_")}
    env["GRACE_DATA_DIR"] = str(tmp_path / "data")
    env.pop("GOOGLE_API_KEY", None)
    return subprocess.run(
        [sys.executable, "-m", "graph.cli.main", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=120,
    )


@pytest.mark.parametrize(
    ("yaml_text", "named"),
    [
        (b"retrieval: {max_file_mb: .inf}\n", "retrieval.max_file_mb"),
        (b"checkpoint: {kind: postgres}\n", "postgres_url"),
        (b"retrieval: {qdrant_path: grace.yaml}\n", "retrieval.qdrant_path"),
        (b"- a list\n- of things\n", "must hold a mapping"),
        (b"retrieval:\n  collection: \"\xff\xfe\"\n", "not UTF-8"),
    ],
)
def test_settings_that_would_crash_later_are_refused_at_start(
    tmp_path: Path, yaml_text: bytes, named: str
) -> None:
    (tmp_path / "grace.yaml").write_bytes(yaml_text)
    proc = _grace(tmp_path, "threads")
    assert proc.returncode == 2, proc.stderr
    assert named in proc.stderr and "Traceback" not in proc.stderr
    if b"mapping" in yaml_text or b"\xff" in yaml_text or "mapping" in named:
        assert "grace.yaml" in proc.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("show", os.fsdecode(b"ab\xff")),
        ("resume", os.fsdecode(b"ab\xff")),
        ("ask", "q", "--thread-id", os.fsdecode(b"ab\xff"), "--json"),
        ("ask", "q", "--user", os.fsdecode(b"\xfe"), "--json"),
    ],
)
def test_a_non_utf8_thread_id_or_user_is_one_line(tmp_path: Path, args: tuple[str, ...]) -> None:
    proc = _grace(tmp_path, *args)
    assert proc.returncode == 2
    assert "not UTF-8" in proc.stderr and "Traceback" not in proc.stderr
