"""Graph nodes, one module each: plan, execute, confidence, intervene, replan, finalize."""

from nodes.confidence import confidence
from nodes.execute import execute
from nodes.finalize import finalize
from nodes.intervene import intervene
from nodes.plan import plan
from nodes.replan import replan

__all__ = ["confidence", "execute", "finalize", "intervene", "plan", "replan"]
