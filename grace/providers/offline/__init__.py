"""The offline default: rule-based planner, extractive reader, heuristic judge. No network."""

from grace.providers.offline.judge import HeuristicAnswerJudge
from grace.providers.offline.planner import RuleBasedPlanner
from grace.providers.offline.reader import ExtractiveReader

__all__ = ["ExtractiveReader", "HeuristicAnswerJudge", "RuleBasedPlanner"]
