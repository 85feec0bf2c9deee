"""Answer-verification checks of the offline judge: general, lexical, checkable properties.

Each check looks at the question and the sentence the answer states (with its neighbours
and the passage title) and either passes or says why it fails. A failed check becomes a
named factor in the score's breakdown (``check:polarity`` …) that multiplies the answer
step's score by ``confidence.failed_check`` — one failed check is enough to keep an
answer from SILENT, and ``grace show`` says which one. Japanese and English both.

- ``polarity``: the question and the answer sentence disagree on negation ("What can not
  …" answered by an affirmative sentence, or a question answered by a sentence that says
  something is *not* so).
- ``swapped_term``: a name of the question is missing around the answer while the sentence
  names something else of the same kind in its place ("Prussia's capital" answered with
  "the Polish capital"; "in the USSR" with "in the United States").

A third check, "the sentence adds new content", was measured and dropped: on the dev set it
lowered the coverage at 10 % risk (0.30 → 0.28) and the answerability AUROC. The typed part
of it — a who / when / how-many question answered only by a sentence holding a span of that
type the question does not contain — is the judge's answer-type test (``type_ok``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from grace.patterns import lazy
from grace.providers.offline.evidence import key_present
from grace.providers.offline.word_forms import match_tokens
from grace.text import is_negated, key_terms, normalise_text

__all__ = ["CHECKS", "CheckInput", "failed_checks"]


@dataclass(frozen=True, kw_only=True)
class CheckInput:
    """What a check may look at."""

    question: str
    """The question as asked."""
    sentence: str
    """The sentence the answer states."""
    window: str
    """The sentence with its neighbours."""
    title: str = ""
    """Title of the sentence's document."""


Check = Callable[[CheckInput], str | None]
"""A check: ``None`` when it passes, else a short reason."""

def _polarity(c: CheckInput) -> str | None:
    asked, stated = is_negated(c.question), is_negated(c.sentence)
    if asked == stated:
        return None
    return "the question is negated, the sentence is not" if asked else (
        "the sentence is negated, the question is not"
    )


def _is_name(term: str) -> bool:
    return not term[:1].isdigit()


_SLOT = lazy(
    r"\b(?i:(in|at|from|to|into|for|by|on|with|against|under))\s+(?:the\s+)?"
    r"([A-Z][\w.'-]*(?:\s+(?:of\s+)?[A-Z][\w.'-]*)*)"
)
"""A preposition and the name it governs: "in the USSR", "To Normandy", "from Prussia"."""


def _slots(text: str) -> list[tuple[str, str]]:
    return [(prep.lower(), normalise_text(name)) for prep, name in _SLOT.findall(text)]


def _missing_near_answer(c: CheckInput) -> list[str]:
    """Names of the question found neither in the answer's window nor in its title."""
    context = normalise_text(f"{c.title} {c.window}")
    tokens = set(match_tokens(context))
    names = [k for k in sorted(key_terms(c.question)) if _is_name(k)]
    return [k for k in names if not key_present(k, context, tokens)]


def _swapped_slot(c: CheckInput) -> str | None:
    """A name the question governs by a preposition, replaced in the sentence's same slot.

    "What existed in the USSR?" answered by "In the United States, …": the window may name
    the USSR a sentence later, but the sentence itself says the same thing of another place.
    """
    asked = normalise_text(c.question)
    stated = normalise_text(c.sentence)
    stated_slots = _slots(c.sentence)
    for prep, name in _slots(c.question):
        if name in stated:
            continue
        instead = [n for p, n in stated_slots if p == prep and n not in asked]
        if instead:
            return f"the question asks {prep} {name}; the sentence says {prep} {instead[0]}"
    return None


def _swapped_term(c: CheckInput) -> str | None:
    missing = _missing_near_answer(c)
    if not missing:
        return _swapped_slot(c)
    asked = normalise_text(c.question)
    instead = [k for k in sorted(key_terms(c.sentence)) if _is_name(k) and k not in asked]
    if not instead:
        return None
    return f"the question names {', '.join(missing)}; the sentence names {', '.join(instead[:3])}"


CHECKS: dict[str, Check] = {
    "polarity": _polarity,
    "swapped_term": _swapped_term,
}
"""Every check by name; ``confidence.answer_checks`` says which ones run."""


def failed_checks(enabled: list[str], data: CheckInput) -> dict[str, str]:
    """The enabled checks that fail on ``data``, with their reasons."""
    out: dict[str, str] = {}
    for name in enabled:
        reason = CHECKS[name](data)
        if reason is not None:
            out[name] = reason
    return out
