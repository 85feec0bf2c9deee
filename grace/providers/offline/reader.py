"""Extractive reader: answers with the passage sentence that best matches the question.

It never writes text of its own: the answer is a sentence copied from a retrieved passage
(heading lines are context, never answer text), with its citation, or an explicit statement
that the passages do not contain the answer. Sentences are ranked by
:func:`~grace.providers.offline.evidence.assess` (IDF-weighted question terms in the sentence,
its context — title, heading path, the subject a pronoun refers to — and its neighbours, key
terms, answer type, retrieval score). A sentence that states another relation than the one
asked (the opposite of a word of the question, its identifier number in another role, no
value in the asked unit) gives way to the best one that states the asked relation; among
sentences ranked within ``type_margin`` of the choice, one holding a span of the asked answer
type (a date for "when", a number for "how many", a name for "who") is preferred.

The reader abstains — the question goes to a person — only on evidence that the passages do
not answer *this* question; otherwise it offers its best sentence and the confidence model
decides the level:

- ``weak``: the best window holds less than ``min_support`` of the question (IDF-weighted);
- ``absent``: a name or number of the question occurs nowhere in the best sentence's passage
  (nor its title and headings), or :data:`SOFT_ABSENT` of its common nouns do not — the
  passage is about something else, or the question swaps an entity or a date (the typical
  SQuAD 2.0 unanswerable question) —, or one common noun does not (a key term, or the noun
  a Japanese measure question ends on: ``Evidence.measured_absent``) and the sentence states
  no value in the unit the question asks for (「株価はいくらですか」「株価は？」 on a page
  without a share price: nothing stands for the missing noun, not even a value of its kind);
- ``negation``: the question is negated ("does not", "didn't") and the passage is not;
- ``contrast``: the sentence states the opposite of a word of the question, or another
  member of its closed set ("last" asked, "first" stated: ``Evidence.contrast``);
- ``number role``: the number the question identifies something by stands for something
  else in the sentence ("weighs 7 grams" for "item number 7").

``support`` is the best sentence's evidence: window coverage × share of key terms present.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from confidence.model_log import ModelLog
from grace.hitl.reply import assess_reply, is_from_person
from grace.providers.base import ReaderAnswer
from grace.providers.offline.context import has_zero_subject, names_its_document, refers_back
from grace.providers.offline.evidence import Evidence, assess
from grace.providers.offline.word_forms import match_tokens
from grace.schemas import Source
from grace.text import answer_type, asks_for_the_topic, is_yes_no_question, typed_candidates

__all__ = ["NOT_FOUND", "ExtractiveReader", "abstention_reason"]

NOT_FOUND = "The documents I searched do not contain an answer to this question."


SOFT_ABSENT = 3
"""How many common nouns of the question (not names or numbers) a passage must lack for the
reader to abstain: a common noun may be worded otherwise (「割合」 asked, 「約5割」 stated), a
name may not (one missing name is enough); three missing mean another topic."""


def abstention_reason(best: Evidence, min_support: float) -> str | None:
    """Why the best evidence does not answer the question, or ``None`` when it does."""
    if best.window < min_support:
        return f"weak: the best passage covers {best.window:.2f} of the question"
    if best.absent_hard or len(best.absent) >= SOFT_ABSENT:
        return f"absent: the passage does not mention {', '.join(best.absent)}"
    unsaid = best.absent or tuple(filter(None, [best.measured_absent]))
    if unsaid and best.measure_ok is False:
        return (
            f"absent: the passage does not mention {', '.join(unsaid)}, and the sentence"
            " states no value in the asked unit"
        )
    if not best.negation_ok:
        return "negation: the question is negated, the passage is not"
    if best.contrast:
        return f"contrast: the passage says {', '.join(best.contrast)}"
    if best.number_role:
        return "number role: a number of the question stands for something else in the passage"
    return None


RESTATES = 0.2
"""A sentence whose share of words the question does not have is below this only restates
the question: its answer is the subject it leaves out (a pronoun, a Japanese zero subject)."""


def _restates(sentence: str, question: str) -> bool:
    tokens = set(match_tokens(sentence))
    if not tokens:
        return False
    return len(tokens - set(match_tokens(question))) / len(tokens) < RESTATES


def _with_neighbour(best: Evidence, question: str) -> str:
    """The sentence, joined with the neighbour that holds the answer when it lacks it.

    A sentence can match the question and still leave the answer to its neighbour — in
    Japanese often by zero anaphora (「…の発明者といわれ…」 with the name one sentence earlier):

    - it holds no span of the asked answer type, and a neighbour does;
    - it only restates the question (:func:`_restates`) and holds no value of the asked type
      (「北浜市立美術館は、1978年に開館した…」 answers 「…はいつ開館した？」 by its date) — not
      a yes / no question, which a sentence answers by restating it: the sentence before
      names what it is about; at the start of a passage, the sentence after is joined, and
      the document's title named in front when it is the subject left out
      (:func:`_subject_is_the_document`).

    The sentence before is tried first, then the one after; the quote keeps passage order.
    A Japanese question that asks what its topic is (:func:`~grace.text.asks_for_the_topic`:
    「…のはどこか」) asks for the subject: a sentence that marks no subject at all
    (:func:`~grace.providers.offline.context.has_zero_subject`) and opens its passage is
    about the document, so it is quoted with the document's title in front even when it says
    more than the question (「ブラジルの文化の中心地であり、流行の発信地でもある。」 on the
    *リオデジャネイロ* page).
    """
    kind = answer_type(question)
    if kind is not None and best.type_ok is False:
        if best.before and typed_candidates(best.before, kind, question):
            return f"{best.before} {best.sentence}"
        if best.after and typed_candidates(best.after, kind, question):
            return f"{best.sentence} {best.after}"
    if (
        _restates(best.sentence, question)
        and not is_yes_no_question(question)
        and best.type_ok is not True  # it holds the asked value: it answers, not restates
    ):
        if best.before:
            return f"{best.before} {best.sentence}"
        if _subject_is_the_document(best, question):
            return f"{best.title}: {best.sentence} {best.after}".rstrip()
        if best.after:
            return f"{best.sentence} {best.after}"
    if (
        asks_for_the_topic(question)
        and (has_zero_subject(best.sentence) or names_its_document(best.sentence))
        and _subject_is_the_document(best, question)
    ):
        return f"{best.title}: {best.sentence}"
    return best.sentence


def _subject_is_the_document(best: Evidence, question: str) -> bool:
    """A restating sentence that opens its passage leaves out the document's own subject.

    At the start of a passage, a sentence with no subject of its own (a pronoun, or elided:
    :func:`~grace.providers.offline.context.refers_back`) is about the section or
    the document (:mod:`grace.providers.offline.context`); when the document states a title
    that neither the question nor the sentence names, that title is what the question asks
    for ("ブラジルの文化の中心地であり…" on the *リオデジャネイロ* page) — unless it asks for a
    date or a number, which the sentence itself holds.
    """
    if (
        not best.named_title
        or answer_type(question) in ("date", "number")
        or not (refers_back(best.sentence) or names_its_document(best.sentence))
    ):
        return False
    title = set(match_tokens(best.title))
    said = set(match_tokens(question)) | set(match_tokens(best.sentence))
    return bool(title) and not title <= said


def _states_another_relation(ev: Evidence) -> bool:
    """Whether the sentence says something else than the question asks.

    The opposite of a word of it ("opened" for "close"), a number of it in another role
    ("weighs 7 grams" for "item number 7"), or no value in the unit it asks for (a count of
    lines for 「路線の長さ」).
    """
    return bool(ev.contrast) or ev.number_role or ev.measure_ok is False


def _choose(ranked: list[Evidence], type_margin: float, min_support: float) -> Evidence:
    """The sentence to quote: the best one that states the asked relation, of the asked type.

    A sentence that states another relation (:func:`_states_another_relation`) gives way to
    the best one that does not, covers ``min_support`` of the question by itself and would
    answer (no abstention reason); among sentences ranked within ``type_margin`` of that
    one, one holding a span of the asked answer type is preferred, then one that agrees
    with the question (:func:`_agreement`): for a negated question, one that is itself
    negated — "What happens if a member does not renew?" is answered by "A member who does
    not renew … loses access", not by its neighbour "Members must renew before 31 March",
    whose window holds the same words and the negation; then one that states the question's
    closed-set words ("Before the Skarv, the line used …" for "Which ship was used before
    the Skarv?") — never one the reader would abstain on.
    """
    best = _answer_to_the_question(
        ranked, _of_the_asked_type(ranked, type_margin, min_support), type_margin, min_support
    )
    if all(_agreement(best)):
        return best
    for ev in ranked:
        if ev.rank < best.rank - type_margin:
            break
        if (
            _agreement(ev) > _agreement(best)
            and (ev.type_ok or best.type_ok is not True)
            and not _states_another_relation(ev)
            and abstention_reason(ev, min_support) is None
        ):
            return ev
    return best


def _answer_to_the_question(
    ranked: list[Evidence], best: Evidence, type_margin: float, min_support: float
) -> Evidence:
    """The page's own answer to the question, when it asks it as an FAQ does.

    An FAQ gives its answer in the first sentence under the question (a heading or a ``Q:``
    line) and qualifies it after ("A flat 5 euros anywhere in the country. Orders over 40
    euros ship free of charge."): the later sentences repeat the question's words as often
    as the answer does. Among sentences ranked within ``type_margin`` of ``best``, the first
    under a question that asks the user's (``Evidence.answers_heading``) is preferred, if it
    is of the asked type when ``best`` is, states the asked relation and would answer.
    """
    if best.answers_heading:
        return best
    for ev in ranked:
        if ev.rank < best.rank - type_margin:
            break
        if (
            ev.answers_heading
            and (ev.type_ok or best.type_ok is not True)
            and not _states_another_relation(ev)
            and abstention_reason(ev, min_support) is None
        ):
            return ev
    return best


def _same_answer(chosen: Evidence, other: Evidence) -> bool:
    """``other`` is under the FAQ question whose answer ``chosen`` is (same passage)."""
    return (
        chosen.answers_heading
        and other.source_id == chosen.source_id
        and other.faq_question == chosen.faq_question
    )


def _agreement(ev: Evidence) -> tuple[bool, bool]:
    """How a sentence agrees with the question beyond its words: polarity, then relation."""
    return (ev.polarity_ok, ev.relation_ok)


def _of_the_asked_type(
    ranked: list[Evidence], type_margin: float, min_support: float
) -> Evidence:
    """:func:`_choose` before the agreement preference (:func:`_agreement`)."""
    best = ranked[0]
    if _states_another_relation(best):
        best = next(
            (
                ev
                for ev in ranked[1:]
                if not _states_another_relation(ev)
                and ev.lexical >= min_support
                and abstention_reason(ev, min_support) is None
            ),
            best,
        )
    if best.type_ok is not False:
        return best
    for ev in ranked:
        if ev.rank < best.rank - type_margin:
            break
        if ev.type_ok and not _states_another_relation(ev):
            return ev
    return best


class ExtractiveReader:
    """Offline reader that quotes the best-supported sentence."""

    def __init__(
        self, *, min_support: float = 0.3, type_margin: float = 0.1, margin_scale: float = 0.25
    ) -> None:
        """Create a reader.

        Args:
            min_support: Abstain when the best window covers less of the question.
            type_margin: How far below the best a sentence of the asked type may rank and
                still be preferred.
            margin_scale: Rank lead over the runner-up sentence that counts as a clear win
                (margin 1.0); a lead of half of it is 0.5.

        """
        self.min_support = min_support
        self.type_margin = type_margin
        self.margin_scale = margin_scale

    def _margin(self, chosen: Evidence, ranked: list[Evidence]) -> float:
        """Lead of the chosen sentence over the best *other* sentence, scaled to [0, 1].

        A correct sentence usually stands clearly ahead; when a second sentence matches the
        question nearly as well, the reader may have picked the wrong one. The page's answer
        to an FAQ's question that asks the user's (``Evidence.answers_heading``) is measured
        against the sentences that are not part of that answer: the sentences under the same
        question qualify it ("Orders over 40 euros ship free of charge."), they do not
        compete with it.
        """
        others = (
            e.rank
            for e in ranked
            if e.sentence.strip() != chosen.sentence.strip() and not _same_answer(chosen, e)
        )
        runner_up = max(others, default=0.0)
        return round(min(1.0, max(0.0, chosen.rank - runner_up) / self.margin_scale), 4)

    def answer(
        self,
        question: str,
        passages: Sequence[Source],
        *,
        feedback: str | None = None,
        log: ModelLog | None = None,
    ) -> ReaderAnswer:
        """Quote the sentence that best answers the question, or abstain (no model: no ``log``).

        The person's latest reply that answers the question is the answer, quoted whole and
        cited (``[H1]``): their information outranks the documents' (a reply comes only when
        the documents were not enough).
        """
        replies = [p for p in passages if is_from_person(p) and assess_reply(p.text).answers]
        if replies:
            reply = replies[-1]
            return ReaderAnswer(
                text=f"{reply.text} [{reply.source_id}]", cited=[reply.source_id], support=1.0
            )
        ranked = assess(question, passages) if question.strip() else []
        if not ranked:
            return ReaderAnswer(text=NOT_FOUND, abstained=True, support=0.0)
        best = _choose(ranked, self.type_margin, self.min_support)
        support = round(best.window * best.key_share, 4)
        reason = abstention_reason(best, self.min_support)
        if reason is not None:
            return ReaderAnswer(text=f"{NOT_FOUND} ({reason})", abstained=True, support=support)
        return ReaderAnswer(
            text=f"{_with_neighbour(best, question)} [{best.source_id}]",
            cited=[best.source_id],
            support=support,
            margin=self._margin(best, ranked),
        )

    async def aanswer(
        self,
        question: str,
        passages: Sequence[Source],
        *,
        feedback: str | None = None,
        log: ModelLog | None = None,
    ) -> ReaderAnswer:
        """Run :meth:`answer` in a worker thread (tokenisation is CPU work)."""
        return await asyncio.to_thread(self.answer, question, passages, feedback=feedback)
