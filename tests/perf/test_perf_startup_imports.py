"""What a warm offline ``grace ask`` does not load (start-up, ``python -m bench --only startup``).

numpy comes only with a vector index of the SQLite store (``sqlite_vec``), LangChain's chat model
classes and GRACE's model plumbing (structured output, the model's judge and evaluator, a reply
streamed within its token budget, the follow-up rewrite's model call) only with a model,
LangChain's tool and document classes only with a LangChain tool; the stand-in
``checkpoints.store`` puts in place of ``sqlite_vec`` loads the real module, unchanged, on first
use. Patterns are compiled at their first use: an English ask compiles none of the Japanese-only
ones, nor the kana and kanji tests that ASCII text skips. The state's and the models' field types
are objects, not strings that pydantic and LangGraph would evaluate at every import and compile. On
its way out the command freezes what it loaded, so that the interpreter's shutdown does not collect
it.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from tests.cli_runner import run_python

_NOT_LOADED = (
    "numpy",
    "sqlite_vec",
    "langchain_core.language_models.chat_models",
    "langchain_core.tools.base",
    "langchain_core.documents.base",
    "grace.providers.llm.structured",
    "grace.providers.llm.judge",
    "grace.providers.llm.evaluator",
    "grace.providers.llm.streaming",
    "grace.providers.generation",
    "grace.providers.reach",
)
_JAPANESE_ONLY = (  # (module, pattern): patterns only Japanese (or non-ASCII) text reaches
    ("grace.text", "_JAPANESE"),
    ("grace.retrieval.tokenize", "_JA_ANY_RE"),
    ("grace.text", "_JA_TOPIC_QUESTION"),
    ("grace.text", "_JA_COUNTED"),
    ("grace.planning.followup", "_NAME_JA"),
    ("grace.retrieval.tokenize", "_RUN_RE"),
    ("grace.providers.offline.evidence", "_JA_RELATION"),
    ("grace.text", "_KEY_TERM"),
    ("grace.scoring.answer_shape", "_JA_QUANTITY"),
)

_TYPED_AT_IMPORT = (  # no `from __future__ import annotations`: their field types are objects
    "confidence.calibration",
    "confidence.config",
    "confidence.correctness_model",
    "confidence.evaluation_types",
    "confidence.judges",
    "confidence.types",
    "confidence.user_thresholds",
    "grace.hitl.request",
    "grace.retrieval.types",
    "grace.schemas",
    "grace.settings",
    "grace.state",
)


@pytest.mark.parametrize("name", _TYPED_AT_IMPORT)
def test_the_state_and_the_models_fields_are_typed_not_strings(name: str) -> None:
    module = importlib.import_module(name)
    classes = [c for c in vars(module).values() if getattr(c, "__module__", None) == name]
    fields = {
        f"{c.__name__}.{field}": hint
        for c in classes
        if isinstance(c, type)
        for field, hint in vars(c).get("__annotations__", {}).items()
    }
    assert fields
    assert [f for f, hint in fields.items() if isinstance(hint, str)] == []


def test_an_offline_ask_loads_no_numpy_no_model_code_no_langchain_tool(tmp_path: Path) -> None:
    ask = (
        "import gc, sys\n"
        "sys.argv = ['grace', 'ask', 'When did the horse tram line open in Lumen Bay?', '--json']\n"
        "from graph.cli.main import main\n"
        "try:\n    main()\n"
        "finally:\n"
        f"    names = [m for m in {_NOT_LOADED!r} if m in sys.modules]\n"
        # the stand-in is not the module until a name is read from it (vars reads none)
        "    names = [m for m in names if m != 'sqlite_vec' or 'load' in vars(sys.modules[m])]\n"
        "    ja = [n for m, n in "
        f"{_JAPANESE_ONLY!r} if 'search' in vars(getattr(sys.modules[m], n))]\n"
        "    print(gc.get_freeze_count() > 100_000, sorted(names), ja, file=sys.stderr)\n"
    )
    first = run_python(tmp_path, ask)  # ingests the sample
    assert first.returncode == 0, first.stderr
    warm = run_python(tmp_path, ask)
    assert warm.returncode == 0, warm.stderr
    assert '"status": "completed"' in warm.stdout
    assert warm.stderr.rstrip().splitlines()[-1] == "True [] []"


def test_the_stand_in_loads_sqlite_vec_on_first_use(tmp_path: Path) -> None:
    code = (
        "import struct, sys\n"
        "from checkpoints import open_store\n"
        f"with open_store('sqlite', sqlite_path={str(tmp_path / 's.sqlite')!r}) as store:\n"
        "    store.put(('a',), 'k', {'v': 1})\n"
        "    assert store.get(('a',), 'k').value == {'v': 1}\n"
        "assert 'numpy' not in sys.modules\n"
        "import sqlite_vec\n"
        "assert sqlite_vec.serialize_float32([1.0, 2.0]) == struct.pack('2f', 1.0, 2.0)\n"
        "from sqlite_vec import load\n"
        "assert sys.modules['sqlite_vec'].load is load and callable(load)\n"
        "assert sys.modules['sqlite_vec'].__file__.endswith('__init__.py')\n"
        "try:\n    sqlite_vec.no_such_name\nexcept AttributeError as exc:\n    print(exc)\n"
    )
    proc = run_python(tmp_path, code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "module 'sqlite_vec' has no attribute 'no_such_name'"
