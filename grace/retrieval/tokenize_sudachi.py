"""SudachiPy content words of Japanese runs, many runs per Sudachi call, as if one per call.

:mod:`grace.retrieval.tokenize` analyses every Japanese *script run* (the text between
punctuation, digits and Latin words) on its own: a run's words never depend on its
neighbours. A text has dozens of runs, and one Sudachi call per run is mostly per-call
overhead. Here the runs of a text are joined with a separator character and analysed in one
call, with the same result:

Sudachi picks the cheapest path through a lattice of morphemes; a path's cost is the sum of
its morphemes' costs and of the connection costs of adjacent morphemes, looked up by the left
morpheme's right id and the right morpheme's left id. The beginning and end of a text are a
node with both ids 0. The separator is the only word of a small *user dictionary* built here,
with both ids 0 and a part of speech of its own: every path crosses it as that one node, so
each run between two separators connects to exactly the costs it connects to alone at the
beginning and end of a text, and the cheapest path of the joined text is the cheapest path of
each run, joined. (No other dictionary word holds the private-use separator, and unknown-word
grouping stops at a change of character class.) The pinned tokenizer tests and the
equivalence test hold this to the token.

The user dictionary is built once per system dictionary (a few seconds) into the user's cache
directory; where that cannot be done, each run gets its own call as before (same tokens).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from grace.retrieval.mapped_pages import drop_mapped_pages
from grace.storage.cache import cache_dir, derived_file, source_key

__all__ = [
    "CONTENT_POS",
    "JA_STOP",
    "SEPARATOR",
    "is_proper_noun",
    "sudachi_dictionary",
    "synonym_groups",
    "synonyms_said",
    "thread_tokenizer",
    "words_of_runs",
]

_log = logging.getLogger(__name__)

CONTENT_POS = frozenset({"名詞", "動詞", "形容詞", "形状詞", "副詞", "接尾辞", "接頭辞", "代名詞"})
"""Part-of-speech heads that carry content; the rest (particles, auxiliaries, symbols,
conjunctions, interjections) is dropped."""
JA_STOP = frozenset(
    {"為る", "する", "有る", "ある", "居る", "いる", "成る", "なる", "事", "こと", "物", "もの"}
)
"""Light verbs and formal nouns that occur everywhere and mean little."""
PRONOUN_POS = "代名詞"
"""The head of interrogative pronouns (いつ, 誰, どこ, 何, どれ, …)."""
SEPARATOR = "\ue000"
"""A private-use character: never in a Japanese run, the user dictionary's only word."""

_MAX_CHARS = 4000
"""Longest text per Sudachi call (Sudachi refuses inputs above ~49 KB)."""
_FIELDS = frozenset({"pos", "normalized_form", "split_a", "split_b"})
"""Morpheme fields read here plus the split information modes A and B need: Sudachi skips
decoding the rest (readings, dictionary forms, synonym groups), ~20 % faster."""
_SEPARATOR_CSV = f"{SEPARATOR},0,0,0,{SEPARATOR},補助記号,区切り,*,*,*,*,,{SEPARATOR},*,A,*,*,*,*\n"
"""The separator's lexicon line: left and right connection ids 0, as the text's ends."""
_DROP_FORMS = JA_STOP | frozenset(chr(c) for c in range(0x3040, 0x30A0))
"""Stop words and single hiragana (particles and inflections cut loose)."""


def sudachi_dictionary() -> Any:
    """The ``sudachidict-core`` dictionary, with the separator's user dictionary if it builds.

    Loaded once per process, under a lock: threads starting together must not each map the
    dictionary (every mapping's pages count in the process's memory).
    """
    with _DICTIONARY_LOCK:
        return _load_dictionary()


_DICTIONARY_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def _load_dictionary() -> Any:
    from sudachipy import Config, Dictionary

    dictionary = None
    user = _separator_dictionary()
    if user is not None:
        try:
            dictionary = Dictionary(config=Config(user=[str(user)]), dict="core")
        except Exception as exc:  # a damaged cache file: run by run now, rebuilt next time
            _log.warning("Sudachi separator dictionary unusable (%s); one call per run", exc)
            user.unlink(missing_ok=True)
    dictionary = dictionary or Dictionary(dict="core")
    # Loading reads ~70 MiB of the memory-mapped system dictionary that analysis mostly
    # never reads again (measured: 20k Japanese paragraphs later the mapping holds 129 MiB
    # resident with this, 159 MiB without; analysis speed unchanged).
    drop_mapped_pages(_system_dictionary())
    return dictionary


def _system_dictionary() -> Path:
    """Path of ``sudachidict-core``'s system dictionary."""
    import sudachipy

    return Path(sudachipy._find_dict_path("core")).resolve()  # noqa: SLF001 - packaged path


def _separator_dictionary() -> Path | None:
    """The separator's user dictionary, built once per system dictionary into the cache."""
    import sudachipy

    system = _system_dictionary()
    name = f"separator-{source_key(system, sudachipy.__version__)}.dic"
    try:
        return derived_file(cache_dir("sudachi"), name, partial(_build_separator, system))
    except Exception as exc:
        _log.warning("cannot build the Sudachi separator dictionary (%s); one call per run", exc)
        return None


def _build_separator(system: Path, out: Path) -> None:
    """Build the separator's user dictionary for ``system`` into ``out``."""
    import sudachipy

    lex = out.with_name("separator.csv")
    lex.write_text(_SEPARATOR_CSV, encoding="utf-8")
    sudachipy.sudachipy.build_user_dic(
        system=str(system), lex=[str(lex)], output=str(out), description="grace separator"
    )


_local = threading.local()


def thread_tokenizer(mode: str, fields: frozenset[str] = _FIELDS) -> Any:
    """One Sudachi tokenizer per thread, split mode and decoded ``fields``.

    Tokenizers are not thread-safe, and making one costs more than a short analysis: every
    reader of Japanese text here (the tokenizer, the sentence rule, the synonym groups)
    takes its tokenizer from this one place. ``fields``: the morpheme fields decoded
    (``pos`` and ``normalized_form`` at least); the analysis is the same whatever they are.
    """
    key = f"sudachi_{mode}_{'_'.join(sorted(fields))}"
    tok = getattr(_local, key, None)
    if tok is None:
        from sudachipy import SplitMode

        split = {"A": SplitMode.A, "B": SplitMode.B, "C": SplitMode.C}[mode]
        tok = sudachi_dictionary().tokenizer(mode=split, fields=set(fields))
        setattr(_local, key, tok)
    return tok


@lru_cache(maxsize=3)
def _separator_pos(mode: str) -> int | None:
    """Part-of-speech id of the separator, or ``None`` without its dictionary."""
    found = list(thread_tokenizer(mode).tokenize(SEPARATOR))
    if len(found) == 1 and tuple(found[0].part_of_speech())[:2] == ("補助記号", "区切り"):
        return int(found[0].part_of_speech_id())
    return None


def words_of_runs(runs: list[str], mode: str, drop_pronouns: bool) -> list[list[str]]:
    """Content words (normalised forms) of each Japanese run, each run analysed on its own."""
    pieces: list[str] = []
    owners: list[int] = []
    for n, run in enumerate(runs):
        for start in range(0, len(run), _MAX_CHARS):
            pieces.append(run[start : start + _MAX_CHARS])
            owners.append(n)
    found: list[list[str]] = [[] for _ in runs]
    sep_pos = _separator_pos(mode)
    batch: list[int] = []
    size = 0
    for i, piece in enumerate(pieces):
        if batch and (sep_pos is None or size + len(piece) > _MAX_CHARS):
            _analyse(pieces, owners, batch, found, mode, drop_pronouns, sep_pos)
            batch, size = [], 0
        batch.append(i)
        size += len(piece) + 1
    if batch:
        _analyse(pieces, owners, batch, found, mode, drop_pronouns, sep_pos)
    return found


def _analyse(
    pieces: list[str],
    owners: list[int],
    batch: list[int],
    found: list[list[str]],
    mode: str,
    drop_pronouns: bool,
    sep_pos: int | None,
) -> None:
    """Analyse ``pieces[batch]`` joined by the separator; their words go to their runs."""
    keep = _KEEP_POS[drop_pronouns]
    drop = _DROP_FORMS
    at = 0
    words = found[owners[batch[0]]]
    for m in thread_tokenizer(mode).tokenize(SEPARATOR.join([pieces[i] for i in batch])):
        pos_id = m.part_of_speech_id()
        if pos_id == sep_pos:
            at += 1
            words = found[owners[batch[at]]]
            continue
        kept = keep.get(pos_id)
        if kept is None:
            kept = _learn_pos(pos_id, drop_pronouns)
        if kept:
            form = m.normalized_form()
            if form not in drop:
                words.append(form)


def _learn_pos(pos_id: int, drop_pronouns: bool) -> bool:
    """Whether words of part of speech ``pos_id`` are kept (cached in :data:`_KEEP_POS`)."""
    head = str(sudachi_dictionary().pos_of(pos_id)[0])
    _KEEP_POS[False][pos_id] = head in CONTENT_POS
    _KEEP_POS[True][pos_id] = head in CONTENT_POS and head != PRONOUN_POS
    return _KEEP_POS[drop_pronouns][pos_id]


_KEEP_POS: dict[bool, dict[int, bool]] = {False: {}, True: {}}
"""Part-of-speech id → kept? (content head; pronouns dropped or not), filled lazily.

Cheaper than the 6-tuple ``Morpheme.part_of_speech()`` built for every morpheme. Filled
under the GIL with the same values by any thread, so no lock is needed.
"""


_SYNONYM_FIELDS = frozenset({"pos", "normalized_form", "synonym_group_ids"})
"""Morpheme fields :func:`synonym_groups` reads."""


@lru_cache(maxsize=65536)
def synonym_groups(word: str) -> frozenset[int]:
    """SudachiDict's synonym groups of one Japanese word (a normalised form); empty if none.

    SudachiDict (the dictionary GRACE already reads, maintained with Sudachi) files its
    words under synonym groups: 値段 / 価格 / 代金 / 料金, 店 / 店舗, 買う / 購入, 車 / 自動車,
    始める / 開始. Two words that share a group name one thing; an opposite never shares
    one (輸入 / 輸出, 開館 / 閉館, 増加 / 減少 each have their own). A text that is not a
    single dictionary word (split, or unknown to the dictionary) has none.
    """
    found = list(thread_tokenizer("C", _SYNONYM_FIELDS).tokenize(word))
    if len(found) != 1 or found[0].is_oov():
        return frozenset()
    return frozenset(found[0].synonym_group_ids())


def synonyms_said(words: Iterable[str], stated: Iterable[str]) -> frozenset[str]:
    """The ``words`` that ``stated`` does not hold but says by a synonym (:func:`synonym_groups`).

    >>> sorted(synonyms_said(["値段", "駅"], ["価格", "東京"]))
    ['値段']
    """
    held = set(stated)
    asked = {w: synonym_groups(w) for w in words if w not in held}
    asked = {w: g for w, g in asked.items() if g}
    if not asked:
        return frozenset()
    groups = frozenset().union(*(synonym_groups(w) for w in held))
    return frozenset(w for w, g in asked.items() if g & groups)


def is_proper_noun(text: str) -> bool:
    """Whether a word of ``text`` (a kanji / katakana run) is a name, a numeral or unknown.

    A name (霧ヶ丘, 西武鉄道) that a passage never mentions means the passage is about
    something else; a common noun (割合, 法律) may be worded otherwise.
    """
    return any(
        m.is_oov() or tuple(m.part_of_speech())[1] in ("固有名詞", "数詞")
        for m in thread_tokenizer("C").tokenize(text)
    )
