from pathlib import Path

from grace.retrieval import (
    LexicalSparseEmbeddings,
    StoreOptions,
    ingest_paths,
    open_store,
    tokenize,
)
from grace.retrieval.sparse import token_index
from grace.retrieval.tokenize import RETRIEVAL_TOKENIZER, Tokenizer


def test_english_lowercase_stopwords_stemming() -> None:
    tokens = tokenize("The Engines were RUNNING in the universities")
    assert tokens == ["engin", "run", "universiti"]


def test_japanese_words_and_bigrams() -> None:
    tokens = tokenize("梅雨は東アジアの雨季です")
    assert "梅雨" in tokens  # Sudachi word
    assert "アジア" in tokens
    assert "東ア" in tokens  # kanji/katakana bigram
    assert "は" not in tokens and "です" not in tokens  # grammar dropped


def test_mixed_text_and_fullwidth_digits() -> None:
    tokens = tokenize("ラオスはASEAN加盟国で、２００７年に")
    assert "asean" in tokens
    assert "2007" in tokens
    assert "ラオス" in tokens


def test_japanese_modes() -> None:
    words = Tokenizer(japanese="sudachi")("東京都に住む")
    grams = Tokenizer(japanese="bigram")("東京都に住む")
    assert "東京" in grams and "京都" in grams
    assert "京都" not in words


def test_sparse_vectors_stable_and_bm25_shaped() -> None:
    emb = LexicalSparseEmbeddings()
    a = emb.embed_documents(["steam engine steam power"])[0]
    b = emb.embed_documents(["steam engine steam power"])[0]
    assert a == b
    assert a.indices == sorted(a.indices) and len(set(a.indices)) == len(a.indices)
    weights = dict(zip(a.indices, a.values, strict=True))
    assert weights[token_index("steam")] > weights[token_index("engin")]  # tf 2 > tf 1
    assert weights[token_index("steam")] < emb.k1 + 1  # saturation
    q = emb.embed_query("steam steam engines")
    assert q.values == [1.0, 1.0]
    # Known value: independent of PYTHONHASHSEED.
    assert token_index("steam") == token_index("steam") < 2**31


def test_length_normalisation() -> None:
    emb = LexicalSparseEmbeddings(avgdl=10)
    short = emb.embed_documents(["reactor"])[0].values[0]
    long = emb.embed_documents(["reactor " + " ".join(f"w{i}" for i in range(40))])[0]
    weights = dict(zip(long.indices, long.values, strict=True))
    assert short > weights[token_index("reactor")]
    avg = emb.embed_documents(["reactor " + " ".join(f"w{i}" for i in range(9))])[0]
    assert abs(dict(zip(avg.indices, avg.values, strict=True))[token_index("reactor")] - 1.0) < 1e-9


def test_japanese_question_words_dropped_by_retrieval_tokenizer() -> None:
    question = "何時頃から誰がどこでいつ何年に演奏したか？"
    kept = Tokenizer()(question)
    dropped = RETRIEVAL_TOKENIZER(question)
    assert {"いつ", "どこ", "何時頃"} <= set(kept)
    for word in ("いつ", "どこ", "誰", "何時頃", "何時", "何年"):
        assert word not in dropped
    assert "演奏" in dropped  # content words stay
    assert RETRIEVAL_TOKENIZER("梅雨の末期") == Tokenizer()("梅雨の末期")
    # The default tokenize() (used outside retrieval) is unchanged.
    assert tokenize(question) == kept
    # The sparse encoder uses the retrieval tokenizer on both sides.
    emb = LexicalSparseEmbeddings()
    assert token_index("いつ") not in emb.embed_query("梅雨明けはいつ？").indices
    assert token_index("いつ") in LexicalSparseEmbeddings(tokenize).embed_query("いつ").indices


def test_question_word_removal_lowers_unanswerable_score(tmp_path: Path) -> None:
    # A passage that happens to contain a question word must not match a question about
    # something else only through that word.
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "ja-a.md").write_text(
        "# 祭り\n\n祭りはいつも八月に開かれ、誰でも参加できる。\n\n灯籠は川に流される。\n",
        encoding="utf-8",
    )
    scores = {}
    for name, enc in (("plain", LexicalSparseEmbeddings(tokenize)), ("dropped", None)):
        options = StoreOptions(path=tmp_path / name, sparse_embeddings=enc)
        with open_store("edge", options) as store:
            ingest_paths(store, [docs], collection="c")
            result = store.search("火山が噴火したのはいつ？誰が観測した？", collection="c", k=1)
            scores[name] = result.hits[0].score if result.hits else 0.0
    assert scores["dropped"] < scores["plain"]


def test_word_runs_of_text_without_japanese_are_the_mixed_patterns_word_runs() -> None:
    """``_WORD_RE`` leaves out no Japanese range: text without Japanese has none to leave."""
    from grace.retrieval.tokenize import _JA_ANY_RE, _RUN_RE, _WORD_RE

    texts = [
        "The Engines were RUNNING in the universities",
        "snake_case and under_scores, 1,000.5 km, A4 ISO9001",
        "Café déjà vu — naïve Ærø façade; Straße ΑΒΓ αβγ Москва ١٢٣ ２００７",
        "mixed-case O'Brien’s don't",
        "",
    ]
    for text in texts:
        assert _JA_ANY_RE.search(text) is None
        assert _WORD_RE.findall(text) == [w for _, w in _RUN_RE.findall(text)]
