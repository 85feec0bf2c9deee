from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from grace.retrieval import CorpusStore, StoreOptions, open_store

EN_DOC = """# Steam engine

A steam engine is a heat engine that performs mechanical work using steam as its working fluid.

The steam engine indicator records the pressure in the cylinder and is used to examine performance.

Watt's separate condenser greatly improved the efficiency of the Newcomen engine.
"""

JA_DOC = """# 梅雨

梅雨は、北海道と小笠原諸島を除く日本、朝鮮半島南部、中国の長江流域などにみられる雨季である。

梅雨の末期は太平洋高気圧の勢力が強くなり、暖湿流が入りやすくなるため豪雨となりやすい。
"""

OTHER_DOC = """# Warsaw

Warsaw is the capital and largest city of Poland, on the Vistula river.

The Palace of Culture and Science is the tallest building in Warsaw.
"""


@pytest.fixture
def corpus_dir(tmp_path: Path) -> Path:
    d = tmp_path / "corpus"
    d.mkdir()
    (d / "steam-engine.md").write_text(EN_DOC, encoding="utf-8")
    (d / "ja-tsuyu.md").write_text(JA_DOC, encoding="utf-8")
    (d / "warsaw.md").write_text(OTHER_DOC, encoding="utf-8")
    return d


@pytest.fixture
def store(tmp_path: Path) -> Iterator[CorpusStore]:
    with open_store("edge", StoreOptions(path=tmp_path / "qdrant")) as s:
        yield s
