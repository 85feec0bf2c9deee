"""Evaluation datasets: ``corpus/*.md`` plus ``questions.jsonl`` (the dev-set format).

Each line of ``questions.jsonl`` is one JSON object::

    {"id": "...", "question": "...", "lang": "en" | "ja", "answerable": true,
     "answers": ["..."], "source": "file.md" | null, "kind": "in_corpus"}

Optional fields: ``patterns`` (regular expressions that also count as a gold answer),
``expected_actions`` (the plan's expected tool names, in order) and ``collection`` (the
collection the question should be searched in).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "Dataset",
    "DatasetError",
    "Question",
    "load_dataset",
    "parse_part",
    "split_by_article",
]


class DatasetError(ValueError):
    """The dataset directory or one of its lines is malformed."""


@dataclass(frozen=True, kw_only=True)
class Question:
    """One evaluation question."""

    id: str
    """Unique id."""
    question: str
    """The question text, as given."""
    lang: str = "en"
    """Language code (``en``, ``ja`` …); ``ja`` switches answer F1 to characters."""
    answerable: bool = True
    """Whether the corpus supports an answer."""
    answers: tuple[str, ...] = ()
    """Gold answer strings (empty when unanswerable)."""
    source: str | None = None
    """Corpus file the question was written against."""
    kind: str = "in_corpus"
    """Question kind (``in_corpus``, ``squad_unanswerable``, ``out_of_corpus`` …)."""
    patterns: tuple[str, ...] = ()
    """Regular expressions that also count as a gold answer."""
    expected_actions: tuple[str, ...] | None = None
    """Expected plan actions, in order, when the dataset gives them."""
    collection: str | None = None
    """Expected collection, when the dataset gives one."""


@dataclass(frozen=True, kw_only=True)
class Dataset:
    """A corpus directory and its questions."""

    root: Path
    """The dataset directory."""
    corpus_dir: Path
    """Directory of the documents to ingest."""
    questions: list[Question] = field(default_factory=list)
    """Questions in file order."""

    @property
    def name(self) -> str:
        """The dataset's directory name."""
        return self.root.name


def _typed(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """``obj[key]`` if it has the type a question line needs; else one error naming both."""
    value = obj.get(key)
    if value is not None and not isinstance(value, kind):
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise DatasetError(f"{where}: field {key!r} must be {names}, not {type(value).__name__}")
    return value


def _strings(obj: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    values = _typed(obj, key, list, where) or []
    if not all(isinstance(v, str) for v in values):
        raise DatasetError(f"{where}: field {key!r} must be a list of strings")
    return tuple(values)


def _question(obj: dict[str, Any], where: str) -> Question:
    for key in ("id", "question"):
        if key not in obj:
            raise DatasetError(f"{where}: missing field {key!r}")
    qid, text = _typed(obj, "id", str, where), _typed(obj, "question", str, where)
    answers = _strings(obj, "answers", where)
    flag = _typed(obj, "answerable", bool, where)
    answerable = bool(answers) if flag is None else flag
    actions = obj.get("expected_actions")
    return Question(
        id=qid,
        question=text,
        lang=_typed(obj, "lang", str, where) or "en",
        answerable=answerable,
        answers=answers,
        source=_typed(obj, "source", str, where),
        kind=_typed(obj, "kind", str, where) or ("in_corpus" if answerable else "unanswerable"),
        patterns=_strings(obj, "patterns", where),
        expected_actions=_strings(obj, "expected_actions", where) if actions is not None else None,
        collection=_typed(obj, "collection", str, where),
    )


def parse_part(spec: str) -> tuple[int, int]:
    """``"K/N"`` → (K, N) with 1 ≤ K ≤ N (a ``--part`` option's value)."""
    try:
        k, n = (int(x) for x in spec.split("/"))
    except ValueError:
        raise DatasetError(f"--part must look like 1/2, not {spec!r}") from None
    if not 1 <= k <= n:
        raise DatasetError(f"--part {spec}: need 1 <= K <= N")
    return k, n


def split_by_article(questions: list[Question], part: int, parts: int) -> list[Question]:
    """Questions of part ``part`` of ``parts``, split by the article they were written on.

    All questions on one article (``source``; a question without one counts as its own
    article) fall in the same part, so calibrating on one part and evaluating on another
    never shares an article. The split is a fixed hash: the same on every machine.
    """

    def bucket(q: Question) -> int:
        key = (q.source or q.id).encode("utf-8")
        return int(hashlib.sha1(key).hexdigest(), 16) % parts  # noqa: S324 - not security

    return [q for q in questions if bucket(q) == part - 1]


def load_dataset(root: Path) -> Dataset:
    """Load a dataset directory holding ``corpus/`` and ``questions.jsonl``.

    Raises:
        DatasetError: If either is missing, a line is not JSON, a field is missing or an
            id repeats.

    """
    root = Path(root)
    corpus, qfile = root / "corpus", root / "questions.jsonl"
    if not corpus.is_dir():
        raise DatasetError(f"{root}: no corpus/ directory")
    if not qfile.is_file():
        raise DatasetError(f"{root}: no questions.jsonl")
    questions: list[Question] = []
    seen: set[str] = set()
    try:
        lines = qfile.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise DatasetError(
            f"{qfile}: not UTF-8 text (byte {exc.start}): not a questions file"
        ) from None
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{qfile.name}:{n}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{where}: not JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise DatasetError(f"{where}: expected a JSON object")
        q = _question(obj, where)
        if q.id in seen:
            raise DatasetError(f"{where}: duplicate id {q.id!r}")
        seen.add(q.id)
        questions.append(q)
    if not questions:
        raise DatasetError(f"{qfile}: no questions")
    return Dataset(root=root, corpus_dir=corpus, questions=questions)
