"""Run a dataset through the graph, non-interactively, and write the report files.

:func:`run_eval` ingests the dataset's corpus into a fresh collection in a temporary data
directory (the user's own data directory and collections are never touched), runs every
question with an in-memory checkpointer — a run that pauses for a person is recorded at the
pause, not resumed — scores each run, and writes to ``output_dir``:

- ``report.json`` (:class:`~graph.evaluation.report.EvalReport`),
- ``runs.jsonl`` (one :class:`~graph.evaluation.record.RunRecord` per question),
- ``reliability.png`` and ``risk_coverage.png``.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from grace.context import GraceContext
from grace.retrieval import ingest_paths
from grace.scoring.decision import thresholds_in_force
from grace.services import Services, build_services
from grace.settings import GraceSettings, RunDurability
from graph.builder import make_builder
from graph.evaluation.dataset import Question, load_dataset, split_by_article
from graph.evaluation.extra import require_eval_extra
from graph.evaluation.record import RunRecord, build_record
from graph.evaluation.report import EvalReport, build_report, is_correct_run
from graph.evaluation.scorers import Scorer, default_scorers, score_run

__all__ = ["EVAL_COLLECTION", "run_eval", "run_questions", "write_outputs"]

EVAL_COLLECTION = "grace_eval"
"""Name of the fresh collection the corpus is ingested into."""


def _eval_settings(base: GraceSettings | None, data_dir: Path) -> GraceSettings:
    """The settings with a temporary data directory and a fresh, non-sample collection."""
    s = base if base is not None else GraceSettings()
    retrieval = s.retrieval.model_copy(
        update={"collection": EVAL_COLLECTION, "auto_ingest_sample": False, "qdrant_path": None}
    )
    checkpoint = s.checkpoint.model_copy(update={"kind": "memory"})
    return s.model_copy(
        update={"data_dir": data_dir, "retrieval": retrieval, "checkpoint": checkpoint}
    )


def _run_one(
    graph: Any, question: Question, index: int, collection: str, durability: RunDurability
) -> RunRecord:
    cfg: Any = {"configurable": {"thread_id": f"eval-{index}"}}
    start = time.perf_counter()
    try:
        out = graph.invoke(
            {"query": question.question},
            cfg,
            context=GraceContext(collection=collection),
            durability=durability,
        )
        latency = (time.perf_counter() - start) * 1000
        state = graph.get_state(cfg).values
        return build_record(question, out, state, latency_ms=latency, default_collection=collection)
    except Exception as exc:  # noqa: BLE001 - one failing question must not stop the run
        latency = (time.perf_counter() - start) * 1000
        return RunRecord(
            question=question,
            status="error",
            answer="",
            answered=False,
            confidence=0.0,
            level="escalate",
            latency_ms=round(latency, 3),
            error=f"{type(exc).__name__}: {exc}",
        )


@contextmanager
def _progress(enabled: bool, total: int) -> Iterator[Any]:
    if not enabled:
        yield None
        return
    columns = (
        TextColumn("[bold]eval[/bold] {task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, transient=False) as bar:
        yield (bar, bar.add_task("questions", total=total))


def run_questions(
    services: Services,
    questions: Sequence[Question],
    *,
    collection: str,
    scorers: Sequence[Scorer],
    progress: bool = True,
    builder: Any = None,
) -> list[RunRecord]:
    """Run and score every question with ``services`` (the corpus must already be ingested).

    ``builder`` is the uncompiled graph (default: ``make_builder(services=services)``; the
    evaluation is an application on top of the graph); one compiled graph runs them all.
    """
    uncompiled = builder if builder is not None else make_builder(services=services)
    graph = uncompiled.compile(checkpointer=InMemorySaver())  # compile sets GRACE's serializer
    records: list[RunRecord] = []
    # A batch: a run is recorded where it ends or pauses, never resumed (``exit`` by default).
    durability = services.settings.checkpoint.durability_for("batch")
    with _progress(progress, len(questions)) as bar:
        for i, q in enumerate(questions):
            record = _run_one(graph, q, i, collection, durability)
            score_run(record, scorers)
            records.append(record)
            if bar is not None:
                bar[0].update(bar[1], advance=1, description=q.id[:40])
    return records


def write_outputs(records: Sequence[RunRecord], report: EvalReport, output_dir: Path) -> None:
    """Write ``report.json``, ``runs.jsonl`` and the two plots."""
    output_dir.mkdir(parents=True, exist_ok=True)
    (output_dir / "report.json").write_text(
        json.dumps(report.to_json(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    with (output_dir / "runs.jsonl").open("w", encoding="utf-8") as fh:
        for r in records:
            fh.write(json.dumps(r.to_json(), ensure_ascii=False) + "\n")
    conf = [r.confidence for r in records]
    correct = [is_correct_run(r) for r in records]
    from graph.evaluation.plots import plot_reliability, plot_risk_coverage  # lazy: matplotlib

    plot_reliability(conf, correct, output_dir / "reliability.png")
    plot_risk_coverage(conf, correct, output_dir / "risk_coverage.png", report.thresholds)


def _report(
    records: Sequence[RunRecord], services: Services, info: dict[str, Any], n_boot: int
) -> EvalReport:
    """The report, with the thresholds that decided the runs' levels and where they came from."""
    s = services.settings
    thresholds, source = thresholds_in_force(
        services.calculator, services.provider, s.confidence.thresholds
    )
    return build_report(
        records, settings=_settings_summary(s), dataset=info, n_boot=n_boot,
        thresholds=(thresholds.model_dump(mode="json"), source),
    )


def _settings_summary(s: GraceSettings) -> dict[str, Any]:
    data: dict[str, Any] = s.model_dump(mode="json", exclude={"data_dir"})
    data["data_dir"] = "(temporary)"
    return data


def run_eval(
    dataset_dir: Path,
    output_dir: Path,
    *,
    settings: GraceSettings | None = None,
    progress: bool = True,
    scorers: Sequence[Scorer] | None = None,
    n_boot: int = 1000,
    part: tuple[int, int] | None = None,
) -> EvalReport:
    """Evaluate GRACE on a dataset directory and write the report files to ``output_dir``.

    Args:
        dataset_dir: Directory with ``corpus/*.md`` and ``questions.jsonl``.
        output_dir: Where ``report.json``, ``runs.jsonl`` and the plots go (created).
        settings: Base settings (provider, confidence, retrieval …); the data directory,
            collection and checkpointer are replaced by temporary ones.
        progress: Show a rich progress bar.
        scorers: Scorers to run; :func:`default_scorers` when ``None``.
        n_boot: Bootstrap resamples for the confidence intervals.
        part: ``(K, N)``: run only part K of N of the questions, split by article
            (:func:`~graph.evaluation.dataset.split_by_article`); the whole corpus is
            still ingested.

    Returns:
        The report (also written to ``output_dir / "report.json"``).

    """
    require_eval_extra()
    dataset = load_dataset(Path(dataset_dir))
    questions = split_by_article(dataset.questions, *part) if part else dataset.questions
    chosen = list(scorers) if scorers is not None else default_scorers(EVAL_COLLECTION)
    with tempfile.TemporaryDirectory(prefix="grace-eval-") as tmp:
        s = _eval_settings(settings, Path(tmp))
        services = build_services(s)
        try:
            ingest = ingest_paths(
                services.store,
                [dataset.corpus_dir],
                collection=EVAL_COLLECTION,
                chunk_size=s.retrieval.chunk_size,
                chunk_overlap=s.retrieval.chunk_overlap,
            )
            records = run_questions(
                services, questions, collection=EVAL_COLLECTION, scorers=chosen, progress=progress
            )
        finally:
            services.close()
        info = {
            "name": dataset.name,
            "path": str(dataset.root),
            "questions": len(questions),
            "part": f"{part[0]}/{part[1]} by article" if part is not None else "all",
            "collection": EVAL_COLLECTION,
            "provider": services.provider,
            "ingest": {"files": ingest.files, "chunks": ingest.chunks},
        }
        report = _report(records, services, info, n_boot)
    write_outputs(records, report, Path(output_dir))
    return report
