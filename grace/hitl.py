"""Human-in-the-loop types: the Agent-Inbox-compatible interrupt payload and the reply to it."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from confidence.types import InterventionLevel

__all__ = [
    "ActionRequest",
    "HumanInterrupt",
    "HumanInterruptConfig",
    "HumanResponse",
    "InvalidHumanResponseError",
    "parse_human_response",
]


class ActionRequest(BaseModel):
    """The action under review and its arguments (what ``edit`` may change)."""

    action: str
    """Name of the action, e.g. ``review_answer``."""
    args: dict[str, str] = Field(default_factory=dict)
    """Editable arguments: ``query`` (the question) and ``answer`` (the draft)."""


class HumanInterruptConfig(BaseModel):
    """Which replies are allowed."""

    allow_accept: bool
    """Accept the step as it is (never for ESCALATE)."""
    allow_edit: bool
    """Edit the action's args (the question, or the answer itself)."""
    allow_respond: bool
    """Reply with information for GRACE to use."""
    allow_ignore: bool
    """Stop reviewing and finish with what GRACE has."""


class HumanInterrupt(BaseModel):
    """The value passed to ``interrupt()``: Agent Inbox's schema plus GRACE's own fields."""

    action_request: ActionRequest
    """What is being reviewed."""
    config: HumanInterruptConfig
    """Allowed reply types."""
    description: str
    """Markdown: step, answer so far, score and breakdown, why."""
    level: InterventionLevel
    """CONFIRM or ESCALATE."""
    confidence: float
    """The score that triggered the pause."""
    step_id: str
    """The step under review (the last one of the batch)."""
    error: str | None = None
    """Why the previous reply was rejected (the request is asked again)."""


ResponseType = Literal["accept", "edit", "response", "ignore"]


class HumanResponse(BaseModel):
    """A person's reply, as Agent Inbox sends it (one object or a one-element list)."""

    model_config = ConfigDict(extra="forbid")

    type: ResponseType
    """accept, edit, response or ignore."""
    args: Any = None
    """``edit``: an ActionRequest-like ``{"action", "args": {...}}`` or the args dict;
    ``response``: the text; ``accept`` / ``ignore``: nothing."""

    def edit_args(self) -> dict[str, str]:
        """The edited arguments of an ``edit`` reply."""
        if isinstance(self.args, dict):
            inner = self.args.get("args", self.args)
            if isinstance(inner, dict):
                return {str(k): str(v) for k, v in inner.items() if v is not None}
        return {}

    def response_text(self) -> str:
        """The text of a ``response`` reply."""
        return self.args.strip() if isinstance(self.args, str) else ""


class InvalidHumanResponseError(ValueError):
    """A resume value that is not a valid HumanResponse for the pending interrupt."""


_EXAMPLE = '{"type": "accept" | "edit" | "response" | "ignore", "args": ...}'


def parse_human_response(value: object, config: HumanInterruptConfig) -> HumanResponse:
    """Validate a resume value against the schema and the interrupt's allowed replies.

    Raises:
        InvalidHumanResponseError: naming what is wrong; the thread stays resumable.

    """
    if isinstance(value, list):
        if len(value) != 1:
            raise InvalidHumanResponseError(
                f"expected one HumanResponse, got a list of {len(value)}; send {_EXAMPLE}"
            )
        value = value[0]
    if not isinstance(value, dict):
        raise InvalidHumanResponseError(
            f"resume value must be an object like {_EXAMPLE}, got {type(value).__name__}"
        )
    try:
        response = HumanResponse.model_validate(value)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'value'}: {err['msg']}"
            for err in exc.errors()
        )
        raise InvalidHumanResponseError(
            f"invalid HumanResponse ({problems}); send {_EXAMPLE}"
        ) from None
    allowed = {
        "accept": config.allow_accept,
        "edit": config.allow_edit,
        "response": config.allow_respond,
        "ignore": config.allow_ignore,
    }
    if not allowed[response.type]:
        permitted = ", ".join(name for name, ok in allowed.items() if ok)
        raise InvalidHumanResponseError(
            f"'{response.type}' is not allowed for this intervention; allowed: {permitted}"
        )
    if response.type == "edit" and not (
        response.edit_args().get("query") or response.edit_args().get("answer")
    ):
        raise InvalidHumanResponseError(
            "an 'edit' needs args with a non-empty 'query' (a new question) or 'answer' "
            '(a corrected answer), e.g. {"type": "edit", "args": {"args": {"query": "..."}}}'
        )
    if response.type == "response" and not response.response_text():
        raise InvalidHumanResponseError(
            "a 'response' needs args with non-empty text, e.g. "
            '{"type": "response", "args": "The answer is in the 2019 report."}'
        )
    return response
