"""Human-in-the-loop types: the pause GRACE raises and the replies it accepts.

The pause speaks LangChain 1.0's ``HumanInTheLoopMiddleware`` format (what Agent Chat UI
renders): one action request (the draft answer under review) and its review config. Replies
come as that format's ``{"decisions": [...]}`` or, for older clients and scripts, as an
Agent Inbox ``HumanResponse``. Both are turned into one internal :class:`HumanResponse`
whose kind is ``accept`` / ``edit`` / ``response`` / ``ignore`` via :data:`DECISION_REPLIES`.
"""

# No `from __future__ import annotations`: pydantic reads the fields' types at import; as
# objects they need no evaluating (docs/performance.md).
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from confidence.types import InterventionLevel
from grace.hitl.limits import check_reply_bounds, load_reply_json

__all__ = [
    "DECISION_REPLIES",
    "Action",
    "ActionRequest",
    "ApproveDecision",
    "EditDecision",
    "GraceInterrupt",
    "HITLRequest",
    "HITLResponse",
    "HumanResponse",
    "InvalidHumanResponseError",
    "RejectDecision",
    "ReplyChoice",
    "ReviewConfig",
    "REPLY_CHOICES",
    "allowed_decisions_for",
    "load_reply_json",
    "parse_human_response",
    "reply_choices",
    "reply_for",
]

DecisionType = Literal["approve", "edit", "reject"]
ResponseType = Literal["accept", "edit", "response", "ignore"]

DECISION_REPLIES: dict[DecisionType, tuple[ResponseType, ...]] = {
    "approve": ("accept",),
    "edit": ("edit",),
    "reject": ("response", "ignore"),
}
"""The one mapping between LangChain decisions and GRACE's reply kinds: ``approve`` is
``accept``; ``edit`` is ``edit``; ``reject`` with a message is a ``response`` (the message is
information for GRACE), without one it is ``ignore`` (finish with what GRACE has)."""


# --- the request (LangChain 1.0 HITLRequest plus GRACE's fields) ----------------------------


class Action(BaseModel):
    """An action: its name and arguments (LangChain's ``Action``)."""

    model_config = ConfigDict(defer_build=True)

    name: str
    """The action, e.g. ``review_answer``."""
    args: dict[str, Any] = Field(default_factory=dict)
    """Its arguments: ``query``, ``answer`` (and ``sources``, shown only)."""


class ActionRequest(Action):
    """The action under review (LangChain's ``ActionRequest``)."""

    description: str = ""
    """Markdown review: step, draft, confidence and its breakdown, why."""


class ReviewConfig(BaseModel):
    """Which decisions the person may take on an action (LangChain's ``ReviewConfig``)."""

    model_config = ConfigDict(defer_build=True)

    action_name: str
    """The action request this config applies to."""
    allowed_decisions: list[DecisionType]
    """``approve`` (never at ESCALATE), ``edit``, ``reject``."""


class HITLRequest(BaseModel):
    """LangChain 1.0's interrupt value: action requests and their review configs."""

    model_config = ConfigDict(defer_build=True)

    action_requests: list[ActionRequest]
    """What is being reviewed (GRACE sends one)."""
    review_configs: list[ReviewConfig]
    """Allowed decisions per action."""


class GraceInterrupt(HITLRequest):
    """The value GRACE passes to ``interrupt()``: a HITLRequest plus GRACE's own fields."""

    level: InterventionLevel
    """CONFIRM or ESCALATE."""
    confidence: float
    """The score that triggered the pause."""
    step_id: str
    """The step under review (the last one of the batch)."""
    error: str | None = None
    """Why the previous reply was rejected (the request is asked again)."""

    @classmethod
    def from_value(cls, value: dict[str, Any]) -> "GraceInterrupt":
        """The model of a stored interrupt value, also one saved in the older Agent Inbox shape.

        Threads paused before the switch to LangChain 1.0's format keep ``action_request`` and
        ``config.allow_*``; they are read as the equivalent HITL request.
        """
        if "action_requests" in value or "config" not in value:
            return cls.model_validate(value)
        old, cfg = value.get("action_request", {}), value["config"]
        name = str(old.get("action", "review_answer"))
        flags = {"approve": "allow_accept", "edit": "allow_edit", "reject": "allow_respond"}
        return cls.model_validate(
            {
                **value,
                "action_requests": [
                    {
                        "name": name,
                        "args": old.get("args", {}),
                        "description": value.get("description", ""),
                    }
                ],
                "review_configs": [
                    {
                        "action_name": name,
                        "allowed_decisions": [d for d, f in flags.items() if cfg.get(f)],
                    }
                ],
            }
        )

    @property
    def action(self) -> ActionRequest:
        """The (single) action under review."""
        return self.action_requests[0]

    @property
    def allowed_replies(self) -> set[ResponseType]:
        """GRACE reply kinds the review config permits."""
        decisions = self.review_configs[0].allowed_decisions if self.review_configs else []
        return {kind for d in decisions for kind in DECISION_REPLIES[d]}


def allowed_decisions_for(level: InterventionLevel) -> list[DecisionType]:
    """Decisions offered at ``level``: an ESCALATE draft cannot be approved as it is."""
    if level == InterventionLevel.ESCALATE:
        return ["edit", "reject"]
    return ["approve", "edit", "reject"]


# --- the replies ----------------------------------------------------------------------------


class ApproveDecision(BaseModel):
    """Approve the draft as it is."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    type: Literal["approve"]
    """Always ``approve``."""


class EditDecision(BaseModel):
    """Change the action's args: a new ``query`` or a corrected ``answer``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    type: Literal["edit"]
    """Always ``edit``."""
    edited_action: Action
    """The action with the edited args."""


class RejectDecision(BaseModel):
    """Reject the draft; a message is information for GRACE, no message finishes the run."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    type: Literal["reject"]
    """Always ``reject``."""
    message: str | None = None
    """What the person knows (becomes a cited source), or nothing."""


Decision = Annotated[ApproveDecision | EditDecision | RejectDecision, Field(discriminator="type")]


class HITLResponse(BaseModel):
    """LangChain 1.0's resume value: one decision per action request."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    decisions: list[Decision]
    """Exactly one here: GRACE reviews one action at a time."""


class HumanResponse(BaseModel):
    """A reply in GRACE's internal kinds (also the Agent Inbox reply older clients send)."""

    model_config = ConfigDict(extra="forbid")

    type: ResponseType
    """accept, edit, response or ignore."""
    args: Any = None
    """``edit``: an Action-like ``{"action", "args": {...}}`` or the args dict;
    ``response``: the text; ``accept`` / ``ignore``: nothing."""

    def edit_args(self) -> dict[str, str]:
        """The edited text arguments of an ``edit`` reply (other values are ignored)."""
        if isinstance(self.args, dict):
            inner = self.args.get("args", self.args)
            if isinstance(inner, dict):
                return {str(k): v for k, v in inner.items() if isinstance(v, str)}
        return {}

    def response_text(self) -> str:
        """The text of a ``response`` reply."""
        return self.args.strip() if isinstance(self.args, str) else ""


class InvalidHumanResponseError(ValueError):
    """A resume value that is not a valid reply to the pending interrupt."""


_EXAMPLE = (
    '{"decisions": [{"type": "approve"} | {"type": "edit", "edited_action": {"name": ..., '
    '"args": {"query" | "answer": "..."}}} | {"type": "reject", "message": "..."}]}'
)


def _problems(exc: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in err['loc']) or 'value'}: {err['msg']}" for err in exc.errors()
    )


def _from_decisions(value: dict[str, Any]) -> HumanResponse:
    """Map a LangChain ``{"decisions": [...]}`` reply onto a :class:`HumanResponse`."""
    try:
        decisions = HITLResponse.model_validate(value).decisions
    except ValidationError as exc:
        raise InvalidHumanResponseError(
            f"invalid decisions ({_problems(exc)}); send {_EXAMPLE}"
        ) from None
    if len(decisions) != 1:
        raise InvalidHumanResponseError(
            f"expected exactly one decision (GRACE reviews one action), got {len(decisions)}"
        )
    decision = decisions[0]
    if isinstance(decision, ApproveDecision):
        return HumanResponse(type="accept")
    if isinstance(decision, EditDecision):
        return HumanResponse(type="edit", args=decision.edited_action.args)
    message = (decision.message or "").strip()
    return HumanResponse(type="response", args=message) if message else HumanResponse(type="ignore")


def _from_agent_inbox(value: object) -> HumanResponse:
    """Validate an Agent Inbox reply (one object or a one-element list)."""
    if isinstance(value, list):
        if len(value) != 1:
            raise InvalidHumanResponseError(
                f"expected one reply, got a list of {len(value)}; send {_EXAMPLE}"
            )
        value = value[0]
    if not isinstance(value, dict):
        raise InvalidHumanResponseError(
            f"a reply must be an object like {_EXAMPLE}, got {type(value).__name__}"
        )
    try:
        return HumanResponse.model_validate(value)
    except ValidationError as exc:
        raise InvalidHumanResponseError(
            f"invalid HumanResponse ({_problems(exc)}); send {_EXAMPLE}"
        ) from None


def _check_edited_action(value: dict[str, Any], request: GraceInterrupt) -> None:
    """An edit names the pending action (``review_answer`` / ``review_step``), not another."""
    decision = value["decisions"][0]
    if not isinstance(decision, dict) or decision.get("type") != "edit":
        return
    name = (decision.get("edited_action") or {}).get("name")
    pending = request.action.name
    if name != pending:
        raise InvalidHumanResponseError(
            f"the edit names the action {name!r}, but the pending action is {pending!r}: "
            f'send {{"decisions": [{{"type": "edit", "edited_action": {{"name": "{pending}", '
            '"args": {...}}]}'
        )


def _check_allowed(reply: HumanResponse, request: GraceInterrupt) -> None:
    allowed = request.allowed_replies
    if reply.type not in allowed:
        decisions = request.review_configs[0].allowed_decisions if request.review_configs else []
        wanted = next(d for d, kinds in DECISION_REPLIES.items() if reply.type in kinds)
        raise InvalidHumanResponseError(
            f"'{wanted}' ({reply.type}) is not allowed at {request.level.value.upper()}; "
            f"allowed decisions: {', '.join(decisions)}"
        )


def _check_content(
    reply: HumanResponse, request: GraceInterrupt, check_question: Callable[[str], str] | None
) -> None:
    if reply.type == "edit":
        args = reply.edit_args()
        draft = request.action.args.get("answer")
        if not args.get("answer", "").strip() and not args.get("query", "").strip():
            raise InvalidHumanResponseError(
                "an 'edit' needs args (edited_action.args) with a non-empty 'query' "
                "(a new question) or 'answer' (a corrected answer)"
            )
        answer_changed = bool(args.get("answer", "").strip()) and args.get("answer") != draft
        if not answer_changed and check_question is not None:
            try:
                check_question(args.get("query", ""))
            except ValueError as exc:
                raise InvalidHumanResponseError(f"the edited question is refused: {exc}") from None
    if reply.type == "response" and not reply.response_text():
        raise InvalidHumanResponseError(
            "a 'response' needs args with non-empty text (a reject's message), e.g. "
            '{"decisions": [{"type": "reject", "message": "The answer is in the 2019 report."}]}'
        )


ReplyChoice = Literal["accept", "edit_answer", "edit_question", "respond", "ignore"]

REPLY_CHOICES: dict[ReplyChoice, tuple[DecisionType, str]] = {
    "accept": ("approve", "accept the draft as it is"),
    "edit_answer": ("edit", "write the answer yourself"),
    "edit_question": ("edit", "change the question and run again"),
    "respond": ("reject", "give GRACE the facts it lacked (cited as your reply)"),
    "ignore": ("reject", "finish now with what GRACE has, unreviewed"),
}
"""What a person can reply to a pause, each with its LangChain decision and what it does: the
one table behind the terminal prompt and the page's form."""

_EDITED_ARG: dict[ReplyChoice, str] = {"edit_answer": "answer", "edit_question": "query"}
_NEEDED_TEXT: dict[ReplyChoice, str] = {
    "edit_answer": "the answer",
    "edit_question": "the new question",
    "respond": "the facts GRACE lacked (to finish without them, reply ignore)",
}
"""The text each reply is made of (accept and ignore need none)."""


def reply_choices(request: dict[str, Any]) -> list[ReplyChoice]:
    """The replies a pending request's review config allows, in :data:`REPLY_CHOICES` order."""
    allowed = set((request.get("review_configs") or [{}])[0].get("allowed_decisions", []))
    return [choice for choice, (decision, _) in REPLY_CHOICES.items() if decision in allowed]


def reply_for(choice: ReplyChoice, action: str, text: str = "") -> dict[str, Any]:
    """The LangChain 1.0 resume value of ``choice`` on the action named ``action``.

    ``text`` is the edited answer or question, or the response; unused by accept and ignore.

    Raises:
        InvalidHumanResponseError: ``text`` is blank where the reply is made of it (a blank
            response would otherwise be read as ``ignore``).

    """
    if choice in _NEEDED_TEXT and not text.strip():
        raise InvalidHumanResponseError(f"this reply needs text: {_NEEDED_TEXT[choice]}")
    decision: dict[str, Any] = {"type": REPLY_CHOICES[choice][0]}
    if choice in _EDITED_ARG:
        decision["edited_action"] = {"name": action, "args": {_EDITED_ARG[choice]: text}}
    elif choice == "respond":
        decision["message"] = text
    return {"decisions": [decision]}


def parse_human_response(
    value: object,
    request: GraceInterrupt | dict[str, Any],
    *,
    check_question: Callable[[str], str] | None = None,
) -> HumanResponse:
    """Validate a resume value against its format and the pending request's allowed decisions.

    Args:
        value: ``{"decisions": [...]}`` (LangChain 1.0) or an Agent Inbox ``HumanResponse``.
        request: the pending interrupt (its value as stored, or the model).
        check_question: validates an edited question like a new ``ask`` (raises ValueError).

    Raises:
        InvalidHumanResponseError: naming what is wrong; the thread stays resumable.

    """
    check_reply_bounds(value, InvalidHumanResponseError)
    pending = request if isinstance(request, GraceInterrupt) else GraceInterrupt.from_value(request)
    if isinstance(value, dict) and "decisions" in value:
        reply = _from_decisions(value)
        _check_edited_action(value, pending)
    else:
        reply = _from_agent_inbox(value)
    _check_allowed(reply, pending)
    _check_content(reply, pending, check_question)
    return reply
