"""Measure GRACE's offline retrieval: recall@k, score separation, latency, ingestion rate.

Usage::

    python -m bench.retrieval_recall DATASET_DIR [--k 1 5] [--scale 10000] [--json]

``DATASET_DIR`` holds ``corpus/`` (documents) and ``questions.jsonl`` (fields id, question,
lang, answerable, answers, source, kind). The corpus is ingested into a temporary Qdrant
local-mode store; the dataset is read in place, never copied.

- recall@k: share of answerable questions for which some top-k chunk contains a gold
  answer string (case- and whitespace-normalised), per language.
- separation: mean top normalised score of answerable vs unanswerable questions and the
  AUROC of the top score as a predictor of "answerable" (Mann-Whitney rank statistic).
- latency: p50 / p95 of ``CorpusStore.search`` over a collection padded with ``--scale``
  synthetic chunks; ingestion rate in chunks/s of those chunks.
- ``--encoder edge-bm25``: the same figures with Qdrant Edge's built-in ``Bm25`` encoder
  instead of GRACE's (measured, not adopted: see :mod:`bench.edge_bm25`).
- ``--ablation``: recall and AUROC of candidate ranking methods (pseudo-relevance feedback,
  neighbour / title context, document-score interpolation, kanji unigrams, Japanese
  question-word removal) on an in-memory mirror of the store's scoring (same chunks, tokens,
  BM25 weights, idf and normalisation; the "store default" row reproduces the store's
  figures exactly). Only what helped both languages and the score separation was moved into
  :mod:`grace.retrieval`.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import tempfile
import time
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from grace.retrieval import (
    CorpusStore,
    LexicalSparseEmbeddings,
    StoreOptions,
    ingest_paths,
    open_store,
)
from grace.retrieval.ingest import load_document, split_paragraphs
from grace.retrieval.scoring import idf, normalise_sparse
from grace.retrieval.sparse import DEFAULT_AVGDL, DEFAULT_B, DEFAULT_K1, SparseEncoder
from grace.retrieval.tokenize import Tokenizer

__all__ = ["auroc", "main", "normalise"]


def normalise(text: str) -> str:
    """Lowercase and collapse whitespace."""
    return " ".join(text.lower().split())


def auroc(positives: list[float], negatives: list[float]) -> float:
    """Area under the ROC curve via average ranks (ties count one half)."""
    if not positives or not negatives:
        return float("nan")
    scored = sorted([(s, 1) for s in positives] + [(s, 0) for s in negatives])
    ranks: list[float] = [0.0] * len(scored)
    i = 0
    while i < len(scored):
        j = i
        while j + 1 < len(scored) and scored[j + 1][0] == scored[i][0]:
            j += 1
        for m in range(i, j + 1):
            ranks[m] = (i + j) / 2 + 1
        i = j + 1
    pos_rank_sum = sum(r for r, (_, label) in zip(ranks, scored, strict=True) if label)
    n_pos, n_neg = len(positives), len(negatives)
    return (pos_rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def _body(text: str, title: str) -> str:
    """Chunk text without a leading title line (if ingestion prefixed one)."""
    head, sep, rest = text.partition("\n\n")
    return rest if sep and head == title else text


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    idx = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[idx]


def _store(path: Path, args: argparse.Namespace) -> CorpusStore:
    sparse: SparseEncoder
    if getattr(args, "encoder", "grace") == "edge-bm25":
        from bench.edge_bm25 import EdgeBm25Embeddings

        sparse = EdgeBm25Embeddings(avg_len=args.avgdl)
    else:
        sparse = LexicalSparseEmbeddings(
            Tokenizer(
                japanese=args.ja_mode,
                split_mode=args.split_mode,
                drop_interrogatives=not args.keep_interrogatives,
            ),
            k1=args.k1,
            b=args.b,
            avgdl=args.avgdl,
        )
    return open_store("edge", StoreOptions(path=path, sparse_embeddings=sparse, idle_release=None))


def _questions(dataset: Path) -> list[dict[str, Any]]:
    return [
        json.loads(line)
        for line in (dataset / "questions.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


def measure_quality(dataset: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Recall@k per language and top-score separation on ``dataset``."""
    questions = _questions(dataset)
    kmax = max(args.k)
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp, _store(Path(tmp) / "qdrant", args) as store:
        report = ingest_paths(
            store,
            [dataset / "corpus"],
            collection="dev",
            chunk_size=args.chunk_size,
            chunk_overlap=args.chunk_overlap,
        )
        out["ingest"] = {"files": report.files, "chunks": report.chunks}
        hits_at: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        totals: dict[str, int] = defaultdict(int)
        top: dict[str, list[float]] = defaultdict(list)
        misses: list[dict[str, Any]] = []
        for q in questions:
            result = store.search(q["question"], collection="dev", k=kmax)
            best = result.hits[0].score if result.hits else 0.0
            top["answerable" if q["answerable"] else q["kind"]].append(best)
            if not q["answerable"]:
                continue
            totals[q["lang"]] += 1
            answers = [normalise(a) for a in q["answers"] if a.strip()]
            first = next(
                (
                    rank
                    for rank, hit in enumerate(result.hits, 1)
                    if any(a in normalise(_body(hit.text, hit.title)) for a in answers)
                ),
                None,
            )
            for k in args.k:
                if first is not None and first <= k:
                    hits_at[q["lang"]][k] += 1
            if first is None or first > 1:
                misses.append({"id": q["id"], "lang": q["lang"], "rank": first})
        out["recall"] = {
            lang: {f"@{k}": hits_at[lang][k] / totals[lang] for k in args.k} | {"n": totals[lang]}
            for lang in sorted(totals)
        }
        negatives = [s for kind, v in top.items() if kind != "answerable" for s in v]
        out["separation"] = {
            "mean_top_score": {kind: statistics.fmean(v) for kind, v in sorted(top.items())},
            "auroc_answerable_vs_unanswerable": auroc(top["answerable"], negatives),
            "auroc_answerable_vs_out_of_corpus": auroc(
                top["answerable"], top.get("out_of_corpus", [])
            ),
        }
        out["misses_at_1"] = misses
    return out


def _synthetic_paragraphs(dataset: Path, n: int, seed: int = 7) -> Iterator[str]:
    """``n`` random paragraphs from the corpus' words: 3 English (60-120 words), 1 Japanese."""
    words: list[str] = []
    ja: list[str] = []
    for doc in sorted((dataset / "corpus").glob("*")):
        text = doc.read_text(encoding="utf-8")
        if doc.name.startswith("ja-"):
            ja.extend(text.replace("\n", ""))
        else:
            words.extend(text.split())
    rng = random.Random(seed)
    for i in range(n):
        if ja and i % 4 == 3:
            start = rng.randrange(max(1, len(ja) - 300))
            yield "".join(rng.sample(ja[start : start + 300], 250))
        else:
            yield " ".join(rng.choices(words, k=rng.randint(60, 120)))


def _write_synthetic(dataset: Path, docs: Path, n: int, per_file: int = 100) -> None:
    """Write ``n`` synthetic paragraphs as Markdown files (streamed: never all in memory)."""
    docs.mkdir()
    paragraphs = _synthetic_paragraphs(dataset, n)
    for f in range(0, n, per_file):
        body = "\n\n".join(itertools.islice(paragraphs, per_file))
        (docs / f"synthetic-{f // per_file:05d}.md").write_text(
            f"# Synthetic {f}\n\n{body}\n", encoding="utf-8"
        )


def measure_ingest(dataset: Path, args: argparse.Namespace, root: Path) -> dict[str, Any]:
    """Ingest ``--scale`` synthetic chunks plus the corpus into a store under ``root``.

    The ingestion time runs until the writes are durable (``flush``); compacting the shard
    (done once when the store is released, as at the end of ``grace ingest``) is reported
    apart, as ``compact_seconds``.
    """
    docs = root / "docs"
    _write_synthetic(dataset, docs, args.scale)
    with _store(root / "qdrant", args) as store:
        t0 = time.perf_counter()
        report = ingest_paths(store, [docs, dataset / "corpus"], collection="scale")
        store.flush()
        ingest_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        store.close()
        compact_s = time.perf_counter() - t0
    return {
        "chunks": report.chunks,
        "ingest_chunks_per_s": report.chunks / ingest_s,
        "ingest_seconds": ingest_s,
        "compact_seconds": compact_s,
    }


def measure_queries(dataset: Path, args: argparse.Namespace, root: Path) -> dict[str, Any]:
    """Open the store :func:`measure_ingest` wrote under ``root`` and time the dataset's questions.

    ``open_seconds`` is the first search (loading the shard), excluded from the latencies.
    """
    questions = [
        json.loads(line)["question"]
        for line in (dataset / "questions.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    with _store(root / "qdrant", args) as store:
        t0 = time.perf_counter()
        store.search("warm up the index", collection="scale")
        open_s = time.perf_counter() - t0
        latencies = []
        for q in questions * max(1, 200 // max(1, len(questions))):
            t0 = time.perf_counter()
            store.search(q, collection="scale", k=5)
            latencies.append((time.perf_counter() - t0) * 1000)
        count = store.count("scale")
    return {
        "chunks": count,
        "open_seconds": open_s,
        "latency_ms": {
            "p50": _percentile(latencies, 0.5),
            "p95": _percentile(latencies, 0.95),
            "queries": len(latencies),
        },
    }


def measure_speed(dataset: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Ingestion rate and query latency on ``--scale`` synthetic chunks plus the corpus."""
    with tempfile.TemporaryDirectory() as tmp:
        ingested = measure_ingest(dataset, args, Path(tmp))
        return ingested | measure_queries(dataset, args, Path(tmp))


# ---------------------------------------------------------------------- ablation

_KANJI = frozenset(
    chr(c)
    for lo, hi in ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF))
    for c in range(lo, hi + 1)
)
Ranker = Callable[[str], tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]]


class _Mirror:
    """In-memory BM25 over the dataset's chunks, scored exactly like the store.

    ``context``: ``"neighbours"`` adds the previous / next chunk's terms, ``"title"`` the
    document title's terms, each at weight ``beta`` when the chunk lacks them (a passage
    window that keeps the normalised score in [0, 1]).
    """

    def __init__(
        self,
        chunks: list[tuple[str, str, str]],
        tok: Callable[[str], list[str]],
        *,
        context: str = "",
        beta: float = 0.0,
        k1: float = DEFAULT_K1,
        b: float = DEFAULT_B,
        avgdl: float = DEFAULT_AVGDL,
    ) -> None:
        self.chunks, self.tok = chunks, tok
        self.tokens = [tok(text) for _, _, text in chunks]

        def bm25(tokens: list[str]) -> dict[str, float]:
            norm = k1 * (1 - b + b * len(tokens) / avgdl)
            return {t: c * (k1 + 1) / (c + norm) for t, c in Counter(tokens).items()}

        base = [bm25(t) for t in self.tokens]
        vectors = []
        for r, (source, title, _) in enumerate(chunks):
            vec = dict(base[r])
            extra: dict[str, float] = {}
            if context == "neighbours":
                for j in (r - 1, r + 1):
                    if 0 <= j < len(chunks) and chunks[j][0] == source:
                        extra.update({t: beta * min(1.0, w) for t, w in base[j].items()})
            elif context == "title":
                extra = dict.fromkeys(tok(title), beta)
            for t, w in extra.items():
                vec[t] = max(vec.get(t, 0.0), w)
            vectors.append(vec)
        self.n = len(chunks)
        self.df = Counter(t for v in vectors for t in v)
        postings: dict[str, tuple[list[int], list[float]]] = defaultdict(lambda: ([], []))
        for r, vec in enumerate(vectors):
            for t, w in vec.items():
                postings[t][0].append(r)
                postings[t][1].append(w)
        self.postings = {t: (np.asarray(rs), np.asarray(ws)) for t, (rs, ws) in postings.items()}
        self.docs = sorted({c[0] for c in chunks})
        self.doc_of = np.asarray([self.docs.index(c[0]) for c in chunks])

    def idf(self, token: str) -> float:
        return idf(self.df.get(token, 0), self.n)

    def score(self, query: dict[str, float]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """Raw and normalised scores of every chunk for a weighted query."""
        raw = np.zeros(self.n)
        reference = 0.0
        for t, q in query.items():
            weight = self.idf(t) * q
            reference += weight
            if t in self.postings:
                rows, w = self.postings[t]
                raw[rows] += weight * w
        norm = np.asarray([normalise_sparse(float(x), reference) for x in raw])
        return raw, norm

    def query(self, text: str) -> dict[str, float]:
        return dict.fromkeys(self.tok(text), 1.0)

    def order(self, scores: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        return np.lexsort((np.arange(self.n), -scores))

    def plain(self, text: str) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        raw, norm = self.score(self.query(text))
        return self.order(raw), norm

    def rm3(self, m: int, terms: int, alpha: float) -> Ranker:
        """RM3: mix the query with the top ``terms`` terms of the top ``m`` chunks."""

        def rank(text: str) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
            query = self.query(text)
            raw, norm = self.score(query)
            top = self.order(raw)[:m]
            total = float(sum(norm[r] for r in top)) or 1.0
            feedback: Counter[str] = Counter()
            for r in top:
                length = len(self.tokens[r]) or 1
                for t, c in Counter(self.tokens[r]).items():
                    feedback[t] += norm[r] / total * c / length * self.idf(t)
            best = dict(feedback.most_common(terms))
            peak = max(best.values(), default=0.0) or 1.0
            expanded = {t: (1 - alpha) * query.get(t, 0.0) for t in set(query) | set(best)}
            for t, v in best.items():
                expanded[t] += alpha * v / peak
            raw2, _ = self.score(expanded)
            return self.order(raw2), norm

        return rank

    def doc_interpolated(self, lam: float, documents: _Mirror) -> Ranker:
        """Chunk score + λ·score of its whole document (BM25 over the concatenated text)."""

        def rank(text: str) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
            _, norm = self.score(self.query(text))
            _, doc_norm = documents.score(documents.query(text))
            mixed = (1 - lam) * norm + lam * doc_norm[self.doc_of]
            return self.order(mixed), mixed

        return rank


def _with_kanji_unigrams(tok: Callable[[str], list[str]]) -> Callable[[str], list[str]]:
    def tokens(text: str) -> list[str]:
        chars = unicodedata.normalize("NFKC", text)
        return tok(text) + ["u:" + c for c in chars if c in _KANJI]

    return tokens


def _mirror_eval(
    chunks: list[tuple[str, str, str]], questions: list[dict[str, Any]], rank: Ranker
) -> dict[str, float]:
    found: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    top: dict[str, list[float]] = defaultdict(list)
    for q in questions:
        order, scores = rank(q["question"])
        top["answerable" if q["answerable"] else q["kind"]].append(
            float(scores[order[0]]) if len(order) else 0.0
        )
        if not q["answerable"]:
            continue
        answers = [normalise(a) for a in q["answers"] if a.strip()]
        first = next(
            (
                i
                for i, r in enumerate(order[:5].tolist(), 1)
                if any(a in normalise(chunks[r][2]) for a in answers)
            ),
            None,
        )
        counts = found[q["lang"]]
        counts[0] += first == 1
        counts[1] += first is not None
        counts[2] += 1
    out = {
        f"{lang} @{k}": c[i] / c[2]
        for lang, c in sorted(found.items())
        for i, k in ((0, 1), (1, 5))
    }
    negatives = [s for kind, v in top.items() if kind != "answerable" for s in v]
    out["AUROC all"] = auroc(top["answerable"], negatives)
    out["AUROC ooc"] = auroc(top["answerable"], top.get("out_of_corpus", []))
    return out


def run_ablation(dataset: Path) -> list[tuple[str, dict[str, float]]]:
    """Recall@1/@5 per language and top-score AUROCs of each candidate method."""
    chunks: list[tuple[str, str, str]] = []
    for path in sorted((dataset / "corpus").glob("*")):
        doc = load_document(path)
        chunks.extend((doc.source, doc.title, c) for c, _ in split_paragraphs(doc.text))
    questions = _questions(dataset)
    plain = Tokenizer()
    dropped = Tokenizer(drop_interrogatives=True)
    base = _Mirror(chunks, plain)
    store = _Mirror(chunks, dropped)
    grouped: dict[str, list[str]] = defaultdict(list)
    for source, _, text in chunks:
        grouped[source].append(text)
    docs = [(s, s, "\n\n".join(t)) for s, t in grouped.items()]
    variants: list[tuple[str, Ranker]] = [
        ("BM25, Sudachi + bigrams (before)", base.plain),
        ("+ JA question-word removal (store default)", store.plain),
        ("  + kanji unigrams", _Mirror(chunks, _with_kanji_unigrams(dropped)).plain),
        ("  + RM3 m=3 terms=10 a=0.3", store.rm3(3, 10, 0.3)),
        ("  + RM3 m=10 terms=10 a=0.2", store.rm3(10, 10, 0.2)),
        (
            "  + neighbour window b=0.2",
            _Mirror(chunks, dropped, context="neighbours", beta=0.2).plain,
        ),
        (
            "  + neighbour window b=0.5",
            _Mirror(chunks, dropped, context="neighbours", beta=0.5).plain,
        ),
        ("  + title context b=0.35", _Mirror(chunks, dropped, context="title", beta=0.35).plain),
        ("  + document score l=0.2", store.doc_interpolated(0.2, _Mirror(docs, dropped))),
    ]
    return [(label, _mirror_eval(chunks, questions, rank)) for label, rank in variants]


def _parser() -> argparse.ArgumentParser:
    """The command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path, help="folder with corpus/ and questions.jsonl")
    parser.add_argument("--k", type=int, nargs="+", default=[1, 5])
    parser.add_argument("--scale", type=int, default=10_000, help="synthetic chunks (0: skip)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--ja-mode", default="both", choices=["sudachi", "bigram", "both"])
    parser.add_argument("--split-mode", default="B", choices=["A", "B", "C"])
    parser.add_argument("--k1", type=float, default=DEFAULT_K1)
    parser.add_argument("--b", type=float, default=DEFAULT_B)
    parser.add_argument("--avgdl", type=float, default=DEFAULT_AVGDL)
    parser.add_argument("--chunk-size", type=int, default=800)
    parser.add_argument("--chunk-overlap", type=int, default=100)
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument(
        "--keep-interrogatives", action="store_true", help="keep Japanese question words"
    )
    parser.add_argument("--ablation", action="store_true", help="compare ranking methods")
    parser.add_argument(
        "--encoder",
        default="grace",
        choices=["grace", "edge-bm25"],
        help="sparse encoder: GRACE's (default) or Qdrant Edge's built-in Bm25",
    )
    return parser


def main(argv: list[str] | None = None) -> None:
    """Parse arguments, measure, print."""
    args = _parser().parse_args(argv)

    if args.ablation:
        rows = run_ablation(args.dataset)
        keys = list(rows[0][1])
        print(f"| method | {' | '.join(keys)} |")
        print(f"| --- |{' --- |' * len(keys)}")
        for label, measured in rows:
            print(f"| {label.strip()} | {' | '.join(f'{measured[k]:.3f}' for k in keys)} |")
        return

    result: dict[str, Any] = {"config": {k: v for k, v in vars(args).items() if k != "dataset"}}
    result["config"]["dataset"] = str(args.dataset)
    result |= measure_quality(args.dataset, args)
    if args.scale > 0:
        result["speed"] = measure_speed(args.dataset, args)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return
    print(f"dataset: {args.dataset}  chunks: {result['ingest']['chunks']}")
    for lang, rec in result["recall"].items():
        figures = "  ".join(f"recall{k}={v:.3f}" for k, v in rec.items() if k != "n")
        print(f"  {lang} (n={rec['n']}): {figures}")
    sep = result["separation"]
    means = "  ".join(f"{k}={v:.3f}" for k, v in sep["mean_top_score"].items())
    print(f"  mean top score: {means}")
    print(
        f"  AUROC top score, answerable vs unanswerable: "
        f"{sep['auroc_answerable_vs_unanswerable']:.3f}; "
        f"vs out-of-corpus: {sep['auroc_answerable_vs_out_of_corpus']:.3f}"
    )
    if args.show_misses:
        for miss in result["misses_at_1"]:
            print(f"    miss@1: {miss}")
    if "speed" in result:
        sp = result["speed"]
        print(
            f"  scale: {sp['chunks']} chunks; ingest {sp['ingest_chunks_per_s']:.0f} chunks/s; "
            f"query p50 {sp['latency_ms']['p50']:.1f} ms, p95 {sp['latency_ms']['p95']:.1f} ms"
        )


if __name__ == "__main__":
    main()
