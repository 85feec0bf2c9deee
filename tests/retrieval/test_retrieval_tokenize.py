from grace.retrieval import LexicalSparseEmbeddings, tokenize
from grace.retrieval.sparse import token_index
from grace.retrieval.tokenize import Tokenizer


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
