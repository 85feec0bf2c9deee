"""Irregular English verb forms folded to their base, for matching a question to a sentence.

The tokenizer stems regular forms ("withdrawing", "withdrawal" → ``withdraw``) but a stemmer
cannot know that "withdrew" or "fled" are forms of "withdraw" and "flee". Asked "Where was
French withdrawal to?", the reader then preferred a sentence with "French withdrawal *from*
the Ohio Country" over the one that answers it ("the French withdrew to Ticonderoga Point"),
and answered SILENTLY and wrong (docs/architecture.md §3, step 4).

:func:`match_tokens` is the tokenizer's output with those forms folded. Only the offline
reader and judge use it, to compare a question with passage sentences; the sparse vectors
of the store keep the plain tokens, so collections ingested earlier stay valid.

Forms that are also common words of another meaning are left out: *found* (to found a
city), *left*, *lay*, *ground*, *wound*, *saw*, *bore*, *rose*, *bit*, *fed*, *fell*,
*bound*, *born*.
"""

from __future__ import annotations

from functools import cache

from grace.retrieval import tokenize

__all__ = ["IRREGULAR_VERBS", "match_tokens"]

IRREGULAR_VERBS = """
arise arose arisen | awake awoke awoken | beat beaten | become became |
begin began begun | bend bent | bite bitten | bleed bled | blow blew blown |
break broke broken | breed bred | bring brought | build built | burn burnt | buy bought |
catch caught | choose chose chosen | cling clung | come came | creep crept | deal dealt |
dig dug | draw drew drawn | dream dreamt | drink drank drunk | drive drove driven |
eat ate eaten | fall fallen | feel felt | fight fought | flee fled | fling flung |
fly flew flown | forbid forbade forbidden | foresee foresaw foreseen | forget forgot
forgotten | forgive forgave forgiven | freeze froze frozen | get got gotten | give gave given |
go went gone | grow grew grown | hang hung | hear heard | hide hid hidden | hold held |
keep kept | kneel knelt | know knew known | lead led | lean leant | leap leapt | learn learnt |
lend lent | lie lain | light lit | lose lost | make made | mean meant | meet met |
mislead misled | mistake mistook mistaken | outgrow outgrew outgrown | overcome overcame |
overthrow overthrew overthrown | pay paid | rebuild rebuilt | ride rode ridden | ring rang
rung | rise risen | run ran | say said | see seen | seek sought | sell sold |
send sent | shake shook shaken | shine shone | shoot shot | show shown | shrink shrank
shrunk | sing sang sung | sink sank sunk | sit sat | sleep slept | slide slid | speak spoke
spoken | speed sped | spend spent | spin spun | spring sprang sprung | stand stood |
steal stole stolen | stick stuck | sting stung | strike struck stricken | strive strove
striven | swear swore sworn | sweep swept | swim swam swum | swing swung | take took taken |
teach taught | tear tore torn | tell told | think thought | throw threw thrown | tread trod
trodden | undergo underwent undergone | understand understood | undertake undertook
undertaken | uphold upheld | wake woke woken | wear wore worn | weave wove woven | weep wept |
win won | withdraw withdrew withdrawn | withhold withheld | write wrote written
"""
"""Base form, then its irregular past / participle forms; rows separated by ``|``."""


@cache
def _folded() -> dict[str, str]:
    """Token of each irregular form → token of its base (as :func:`tokenize` writes them)."""
    out: dict[str, str] = {}
    for row in IRREGULAR_VERBS.split("|"):
        base, *forms = row.split()
        base_tokens = tokenize(base)
        for form in forms:
            form_tokens = tokenize(form)
            if base_tokens and form_tokens and form_tokens != base_tokens:
                out[form_tokens[0]] = base_tokens[0]
    return out


def match_tokens(text: str) -> list[str]:
    """:func:`~grace.retrieval.tokenize` with irregular verb forms folded to their base."""
    folded = _folded()
    return [folded.get(t, t) for t in tokenize(text)]
