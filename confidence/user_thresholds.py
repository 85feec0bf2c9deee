"""Per-user learned thresholds (docs/architecture.md §4) by adaptive conformal inference.

Method
------
GRACE learns, for each user, how far to shift the default decision thresholds from the
person's answers at interventions. It uses the online update of *adaptive conformal
inference* (Gibbs & Candès, "Adaptive Conformal Inference Under Distribution Shift",
NeurIPS 2021) on the confirm threshold λ::

    λ ← λ + γ · (err − α)

* ``α`` (``target_error``, default 0.1) is the target rate of **un-escalated errors**:
  answered interventions where the person had to correct the step (``edit`` or
  ``response``) although its score was at or above the confirm threshold, i.e. the
  step would only have been offered for a one-click accept instead of being escalated.
* ``err = 1`` for such an error and ``err = 0`` otherwise (an ``accept``, or a
  correction of a step that was already escalated). ``ignore`` is no evidence either
  way and does not update.
* ``γ`` (``step``, default 0.02) is the learning rate. An un-escalated error raises λ
  by ``γ(1 − α)`` (0.018); an accept lowers it by ``γα`` (0.002) — nine accepts
  balance one error at α = 0.1.

Why this method: it needs no model of scores and no labelled data set, it works from
the first answer, and it adapts when the user's standards or the corpus change. Its
guarantee is distribution-free: over any sequence of answers, the long-run fraction of
un-escalated errors converges to α (Gibbs & Candès, Prop. 4.1), as long as λ is not
held at a bound. A user who keeps accepting confirmations gets fewer of them; a user
who keeps correcting confident steps gets more escalations.

Bounds, so one answer can never swing a threshold far:

* each answer moves λ by at most ``step``;
* λ stays within ``max_shift`` (default 0.15) of the configured base threshold;
* the notify threshold moves by the same shift, so the CONFIRM band keeps its width
  (steps just under notify stop pausing once the person keeps accepting them);
  the silent threshold stays as configured;
* thresholds never cross (``silent ≥ notify ≥ confirm``) and stay in [0, 1].

The learned state — the shift, the observation and error counts — is stored per user
in a LangGraph :class:`~langgraph.store.base.BaseStore` under
``namespace_prefix + (user_id,)`` (key ``"state"``), so it survives threads, graph
instances and restarts with a persistent store (SQLite, Postgres). Storing the *shift*
rather than absolute thresholds keeps the learning meaningful when the base thresholds
are changed in the settings. Concurrent answers from the same user are
read-modify-write; the last write wins, which can at worst drop one small step.
"""

# No `from __future__ import annotations`: pydantic reads the fields' types at import; as
# objects they need no evaluating (docs/performance.md).
from typing import Literal

from langgraph.store.base import BaseStore, Item
from pydantic import BaseModel, Field

from confidence.config import Thresholds

__all__ = ["LearnedThresholdState", "Outcome", "ThresholdLearner"]

Outcome = Literal["accept", "edit", "response", "ignore"]
"""A person's answer at an intervention."""

_ERROR_OUTCOMES = frozenset({"edit", "response"})
_OUTCOMES = frozenset({"accept", "edit", "response", "ignore"})


class LearnedThresholdState(BaseModel):
    """What is stored per user."""

    shift: float = 0.0
    """Current shift of the confirm and notify thresholds from the base thresholds."""
    observations: int = Field(default=0, ge=0)
    """Answers that updated the thresholds (accept, edit, response)."""
    errors: int = Field(default=0, ge=0)
    """Un-escalated errors among them (``err = 1``)."""
    corrections: int = Field(default=0, ge=0)
    """Edits and responses among them, escalated or not."""
    ignored: int = Field(default=0, ge=0)
    """Ignored interventions (no update)."""
    last_score: float | None = None
    """Score of the last recorded intervention."""
    last_outcome: str | None = None
    """Outcome of the last recorded intervention."""

    @property
    def error_rate(self) -> float | None:
        """Observed un-escalated error rate, or None before any observation."""
        return self.errors / self.observations if self.observations else None


def _encode_label(user_id: str) -> str:
    """Make ``user_id`` a valid store namespace label (no ``.`` or NUL), reversibly."""
    if not user_id:
        raise ValueError("user_id must not be empty")
    return user_id.replace("%", "%25").replace(".", "%2E").replace("\x00", "%00")


class ThresholdLearner:
    """Learns per-user thresholds from intervention outcomes (see the module docstring).

    ``λ ← λ + γ(err − α)`` on the confirm threshold, with ``γ = step``,
    ``α = target_error``, ``err = 1`` for an edit/response of a step scored at or above
    the user's current confirm threshold; the notify threshold moves in parallel; every
    update is at most ``step`` and the total shift at most ``max_shift``.
    """

    KEY = "state"
    """Store key of a user's state."""

    def __init__(
        self,
        store: BaseStore,
        base: Thresholds,
        *,
        target_error: float = 0.1,
        step: float = 0.02,
        max_shift: float = 0.15,
        namespace_prefix: tuple[str, ...] = ("grace", "thresholds"),
    ) -> None:
        """Create a learner.

        Args:
            store: Where per-user state persists.
            base: The configured thresholds the learned shift applies to.
            target_error: ``α``, the target rate of un-escalated errors, in (0, 1).
            step: ``γ``, the learning rate = the largest change one answer can make.
            max_shift: Largest total shift from ``base``.
            namespace_prefix: Store namespace prefix; the user id is appended.

        """
        if not 0.0 < target_error < 1.0:
            raise ValueError("target_error must be in (0, 1)")
        if not 0.0 <= step <= 1.0:
            raise ValueError("step must be in [0, 1]")
        if not 0.0 <= max_shift <= 1.0:
            raise ValueError("max_shift must be in [0, 1]")
        self.store = store
        """The backing store."""
        self.base = base
        """Base thresholds."""
        self.target_error = target_error
        """``α``."""
        self.step = step
        """``γ``."""
        self.max_shift = max_shift
        """Bound on the total shift."""
        self.namespace_prefix = tuple(namespace_prefix)
        """Namespace prefix."""

    # pure parts ------------------------------------------------------------------------

    def namespace(self, user_id: str) -> tuple[str, ...]:
        """Return the store namespace of ``user_id`` (periods are percent-encoded)."""
        return (*self.namespace_prefix, _encode_label(user_id))

    def apply(self, state: LearnedThresholdState) -> Thresholds:
        """Return the thresholds for a learned state (ordered and within [0, 1])."""
        shift = min(self.max_shift, max(-self.max_shift, state.shift))
        silent = self.base.silent
        notify = min(silent, max(0.0, self.base.notify + shift))
        confirm = min(notify, max(0.0, self.base.confirm + shift))
        return Thresholds(silent=silent, notify=notify, confirm=confirm)

    def update(
        self, state: LearnedThresholdState, score: float, outcome: Outcome
    ) -> LearnedThresholdState:
        """Return the state after one answer (no I/O).

        Raises:
            ValueError: For an unknown outcome or a score outside [0, 1].

        """
        if outcome not in _OUTCOMES:
            raise ValueError(f"unknown outcome {outcome!r}")
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"score must be in [0, 1], got {score}")
        if outcome == "ignore":
            return state.model_copy(
                update={"ignored": state.ignored + 1, "last_score": score, "last_outcome": outcome}
            )
        corrected = outcome in _ERROR_OUTCOMES
        err = 1 if corrected and score >= self.apply(state).confirm else 0
        shift = state.shift + self.step * (err - self.target_error)
        shift = min(self.max_shift, max(-self.max_shift, shift))
        return state.model_copy(
            update={
                "shift": shift,
                "observations": state.observations + 1,
                "errors": state.errors + err,
                "corrections": state.corrections + int(corrected),
                "last_score": score,
                "last_outcome": outcome,
            }
        )

    @staticmethod
    def _state(item: Item | None) -> LearnedThresholdState:
        if item is None:
            return LearnedThresholdState()
        return LearnedThresholdState.model_validate(item.value)

    # sync API --------------------------------------------------------------------------

    def state_for(self, user_id: str) -> LearnedThresholdState:
        """Return the stored state of ``user_id`` (a fresh state if none)."""
        return self._state(self.store.get(self.namespace(user_id), self.KEY))

    def thresholds_for(self, user_id: str) -> Thresholds:
        """Return the learned thresholds of ``user_id`` (the base ones if none)."""
        return self.apply(self.state_for(user_id))

    def record(self, user_id: str, score: float, outcome: Outcome) -> Thresholds:
        """Record one intervention answer, persist, and return the new thresholds."""
        state = self.update(self.state_for(user_id), score, outcome)
        self.store.put(self.namespace(user_id), self.KEY, state.model_dump(), index=False)
        return self.apply(state)

    # async API -------------------------------------------------------------------------

    async def astate_for(self, user_id: str) -> LearnedThresholdState:
        """Asynchronous :meth:`state_for`."""
        return self._state(await self.store.aget(self.namespace(user_id), self.KEY))

    async def athresholds_for(self, user_id: str) -> Thresholds:
        """Asynchronous :meth:`thresholds_for`."""
        return self.apply(await self.astate_for(user_id))

    async def arecord(self, user_id: str, score: float, outcome: Outcome) -> Thresholds:
        """Asynchronous :meth:`record`."""
        state = self.update(await self.astate_for(user_id), score, outcome)
        await self.store.aput(self.namespace(user_id), self.KEY, state.model_dump(), index=False)
        return self.apply(state)
