"""Data files bundled with GRACE.

The sample dataset under ``sample/`` is a small, original, MIT-licensed corpus about two
invented places (the city of Lumen Bay and the town of 霧ヶ丘) plus 30 questions in the same
JSONL format as the development benchmark. It lets the agent, the tests and the notebooks run
offline without any download. See ``sample/README.md`` for the format.

The path helpers below (``__all__``) are public API: ``sample/README.md`` and the notebooks
locate the dataset with them, and :mod:`grace.retrieval.sample` seeds a new data directory from
:func:`sample_corpus_dir`.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["sample_corpus_dir", "sample_dir", "sample_questions_path"]

_DATA_DIR = Path(__file__).resolve().parent


def sample_dir() -> Path:
    """Return the directory of the bundled sample dataset.

    Returns:
        The ``sample/`` directory, holding ``corpus/``, ``questions.jsonl`` and ``README.md``.

    """
    return _DATA_DIR / "sample"


def sample_corpus_dir() -> Path:
    """Return the directory of the sample corpus's Markdown documents.

    Returns:
        The ``sample/corpus/`` directory; each ``*.md`` file starts with a ``# Title`` line.

    """
    return sample_dir() / "corpus"


def sample_questions_path() -> Path:
    """Return the path of the sample questions file.

    Returns:
        The ``sample/questions.jsonl`` file, one JSON question object per line.

    """
    return sample_dir() / "questions.jsonl"
