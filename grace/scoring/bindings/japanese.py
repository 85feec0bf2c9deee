"""Phrases of a Japanese question whose words a sentence states in another relation.

The Japanese counterpart of :mod:`grace.scoring.bindings`. Japanese marks who did what with
particles after each noun, and a sentence often runs several clauses together with 「、」, each
with its own predicate and topic; a sentence can then hold every content morpheme of the
question with two of them bound to other words. These constructions are read, on Sudachi's
morphemes (normalised form, part of speech) alone:

- **A case particle and its predicate** — 「北海道帝国大学**を**卒業した」 asks what was
  graduated from. A sentence whose every 「を卒業」 has another head noun before it
  (「東京女子高等師範学校を卒業した後、…北海道帝国大学の研究生となった」) and names the question's
  noun elsewhere states another graduation; so does one whose 「を買収」 has the noun the
  question makes the buyer (「北陸パッケージが…買収した」 against
  「北陸パッケージを買収した」), or the same noun with another の-modifier
  (「和紙の生産に転換」 against 「洋紙の生産に転換」). The same for に, で, から and へ
  before a verb or a verbal noun (「湾**に**ある」 against 「白瀬山にあり、…霧ヶ丘湾に注ぐ」).
  Only the head nouns are compared (「一般送配電事業」 and 「送電事業」 share 事業): a
  modifier the sentence leaves out is the term check's to read.
- **A topic and its comment** — 「最終**は**午前何時」 asks about the last one, in the morning.
  A sentence whose every 「最終は」 is followed by a comment without 午前 (「始発は午前7時、
  最終は午後8時」: the comment runs to 「。」 or to the 「、」 before the next topic) and holds
  午前 elsewhere binds it to another topic. Only the word right after 「は」 is read. Where
  the sentence has no 「T は」, a 「は X」 with another topic before it says X of that one
  (「次男の忠光は分家して」 for 「長男の忠次は分家して」).
- **The answer's slot with a modifier** — 「次男の**誰**が継いだ」 is not said by
  「長男の忠次が継ぎ」: the sentence's noun before 「が継ぐ」 has another の-modifier.
- **A subject and a passive's agent** — 「高村静江**が**寄贈した」 is not said by
  「遺族**から**寄贈された」: every use of the verb in the sentence is passive, with another
  agent (「から」, 「によって」); nor 「浅沼政信**が**創業した」 by 「…を創業した岩城徳次郎、…知事を
  務めた浅沼政信」: every use of the verb modifies another noun as a relative clause, and
  the question's subject heads another predicate's.
- **A year and its clause's predicate** — 「1979年に…認定された」 is not said by 「1978年に…
  認定されたが、翌1979年に74歳で死去し」: every clause with the question's predicate names
  another year, and the question's year is in another clause (a year's noun likewise:
  「1966年度の年間乗客数」). A year asked (「何年」) is not given by a text of several sentences
  whose sentence with the predicate names no time (「…1973年度までに完了した。現在、…記念碑が
  建てられている。」).
- **A giver and a receiver swapped** — 「東嶺電鉄**が**翠ヶ原観光開発**に**譲渡した」 is not said
  by 「翠ヶ原観光開発**は**…東嶺電鉄**へ**譲渡した」: the question's subject is only the goal
  (「に」 / 「へ」) in the sentence, and its goal only the subject or topic; nor
  「白浜酒造**が**吸収合併した」 by 「白浜酒造**を**吸収合併して」: the doer said only as the
  object.
- **A predicate said only as a plan** — 「2016年に誘致された…ホテル」 is not said by
  「…ホテルの誘致計画は…撤回された」: every use of the question's predicate is followed by a
  noun of planning (「計画」, 「構想」, 「予定」 …; also at the end of the sentence after a
  conjunctive 「…し、」) or by a verb of giving up (「再建を断念し」), as English's "a proposal
  … to move it", "failed to win".

Each fires only when the sentence holds the construction with other words and the question's
word elsewhere (or, for a swap of roles, the question's subject in the object's place). The
answer's slot is read like any noun (「何空港に飛ぶ」: the sentence's noun before 「に飛ぶ」
must end in 空港); a noun run that holds a question word itself (「何人を」) is not read.
The constructions come from Japanese grammar (case particles, the topic particle), not from
a data set's errors; docs/decisions.md records how they were checked.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

__all__ = ["JA_INTERROGATIVE", "before_suru", "interrogative", "unbound_phrases_ja"]

Morphemes = Sequence[tuple[str, str]]
"""(normalised form, part-of-speech head) of each Sudachi morpheme."""

JA_INTERROGATIVE = frozenset(
    {"誰", "どこ", "いつ", "どれ", "どの", "どんな", "どちら", "どう", "いくつ", "いくら"}
)
"""Question words (besides those starting with 何 or 幾)."""

_CASE = frozenset({"を", "に", "で", "から", "へ"})
_SLOT_CASE = _CASE | {"が"}
"""Particles after the answer's slot whose の-modifier is read (「次男の誰が継いだ」)."""
"""Case particles that bind a noun to the predicate after it."""
_NOUN = frozenset({"名詞", "接尾辞", "接頭辞"})
_CONTENT = frozenset({"名詞", "動詞", "形容詞"})
_SURU = frozenset({"為る", "する"})
_SURU_TA = _SURU | {"た"}
_TOPIC_REACH = 8
"""Morphemes after a 「、」 within which a new topic ends the comment before it."""


def interrogative(form: str) -> bool:
    """Whether a normalised morpheme is a question word (「何」, 「幾つ」, 「誰」 …)."""
    return form[:1] in ("何", "幾") or form in JA_INTERROGATIVE


def _run_before(m: Morphemes, at: int) -> tuple[str, ...]:
    """The noun run (a compound noun, with its affixes) that ends right before ``at``."""
    start = at
    while start > 0 and m[start - 1][1] in _NOUN:
        start -= 1
    return tuple(form for form, _ in m[start:at])


def before_suru(m: Morphemes, at: int) -> bool:
    """Whether the morpheme after ``at`` is する: a verbal noun's predicate (「卒業した」)."""
    return at + 1 < len(m) and m[at + 1][0] in _SURU


def _predicate(m: Morphemes, at: int) -> str | None:
    """The verb at ``at``, or a verbal noun followed by する (「卒業した」); else None."""
    if at >= len(m):
        return None
    form, pos = m[at]
    if pos == "動詞" or (pos == "名詞" and before_suru(m, at)):
        return form
    return None


def _after_predicate(m: Morphemes, at: int) -> int:
    """Where the morpheme after the predicate at ``at`` stands (past a verbal noun's する)."""
    return at + 2 if m[at][1] == "名詞" else at + 1


def _particle_uses(s: Morphemes, particle: str, verb: str) -> list[int]:
    """Where ``s`` has ``particle`` right before the predicate ``verb`` (「を卒業」)."""
    return [j for j in range(1, len(s) - 1) if s[j] == (particle, "助詞") and s[j + 1][0] == verb]


def _topic_at(m: Morphemes, at: int) -> bool:
    return m[at] == ("は", "助詞") and at > 0 and m[at - 1][1] in _NOUN


def _comment(m: Morphemes, at: int) -> set[str]:
    """The forms of the comment after the topic 「は」 at ``at``.

    It runs to 「。」, or to a 「、」 after which a new topic (nouns, then 「は」) starts.
    """
    out: set[str] = set()
    for k in range(at + 1, len(m)):
        if m[k][0] == "。":
            break
        if m[k][0] == "、" and _next_topic(m, k):
            break
        out.add(m[k][0])
    return out


def _next_topic(m: Morphemes, comma: int) -> bool:
    """Whether a new topic (only nouns before its 「は」) follows the 「、」 at ``comma``."""
    for x in range(comma + 1, min(len(m), comma + _TOPIC_REACH)):
        if _topic_at(m, x):
            return all(m[y][1] in _NOUN for y in range(comma + 1, x))
    return False


def _case_swap(q: Morphemes, s: Morphemes, at: int, noun: tuple[str, ...]) -> str | None:
    """The question's 「N を V」 at ``at`` where every 「を V」 of the sentence has another N.

    Another N is another head noun the question names elsewhere in the sentence, or a noun
    the question makes the subject or topic (「北陸パッケージ**が**白瀬製紙を買収した」 against
    「北陸パッケージを買収した」: the roles swapped), or the same head with another の-modifier
    (「和紙の生産に転換」 against 「洋紙の生産に転換」).
    """
    verb = _predicate(q, at + 1)
    if verb is None:
        return None
    particle = q[at][0]
    uses = _particle_uses(s, particle, verb)
    runs = [_run_before(s, j) for j in uses]
    phrase = f"{''.join(noun)}{particle}{verb}"
    if not uses or not all(runs):
        return None
    if all(run[-1] in _subjects(q, noun[-1]) for run in runs) or (
        all(run[-1] != noun[-1] for run in runs) and _has(s, noun[-1])
    ):
        return phrase
    modifier = _genitive(q, at - len(noun))
    others = [_genitive(s, j - len(run)) for run, j in zip(runs, uses, strict=True)]
    if modifier and _has(s, modifier) and all(
        run[-1] == noun[-1] and other and other != modifier
        for run, other in zip(runs, others, strict=True)
    ):
        return f"{modifier}の{phrase}"
    return None


def _subjects(m: Morphemes, besides: str) -> set[str]:
    """Head nouns the question marks as subject or topic (before 「が」 / 「は」)."""
    return {
        run[-1] for k in range(1, len(m))
        if m[k][1] == "助詞" and m[k][0] in ("が", "は") and (run := _run_before(m, k))
    } - {besides}


def _genitive(m: Morphemes, start: int) -> str | None:
    """The head of the 「M の」 right before the noun run that starts at ``start``, if any."""
    if start >= 2 and m[start - 1] == ("の", "助詞") and m[start - 2][1] in _NOUN:
        return m[start - 2][0]
    return None


def _topic_swap(q: Morphemes, s: Morphemes, at: int, noun: tuple[str, ...]) -> str | None:
    """The question's 「T は X」 where every 「T は」 of the sentence comments without X."""
    said, pos = q[at + 1]
    if pos not in _CONTENT or interrogative(said) or said[:1].isdigit():
        return None
    uses = [j for j in range(1, len(s)) if _topic_at(s, j) and _run_before(s, j)[-1:] == noun[-1:]]
    if uses and all(said not in _comment(s, j) for j in uses) and _has(s, said):
        return f"{''.join(noun)}は{said}"
    others = [j for j in range(1, len(s) - 1) if _topic_at(s, j) and s[j + 1][0] == said]
    if not uses and others and _has(s, noun[-1]) and all(
        _run_before(s, j)[-1] != noun[-1] for j in others
    ):
        return f"{''.join(noun)}は{said}"  # 「忠光は分家して」 for 「忠次は分家して」
    return None


def _slot_word(m: Morphemes, at: int) -> tuple[str, ...]:
    """The question word right before ``at`` (「誰」 is a pronoun, not a noun), if any."""
    return (m[at - 1][0],) if at > 0 and interrogative(m[at - 1][0]) else ()


def _slot_swap(q: Morphemes, s: Morphemes, at: int, noun: tuple[str, ...]) -> str | None:
    """The answer's slot with a の-modifier, given another modifier by the sentence.

    「家督は次男の**誰**が継ぎましたか？」 is not said by 「家督は長男の忠次が継ぎ、次男の忠光は…」:
    the noun before 「が継ぐ」 in the sentence has 長男 for its modifier, where the question
    asks for the 次男's.
    """
    verb = _predicate(q, at + 1)
    modifier = _genitive(q, at - len(noun))
    if verb is None or modifier is None or not _has(s, modifier):
        return None
    particle = q[at][0]
    uses = _particle_uses(s, particle, verb)
    others = [_genitive(s, j - len(_run_before(s, j))) for j in uses]
    if uses and all(other and other != modifier for other in others):
        return f"{modifier}の{''.join(noun)}{particle}{verb}"
    return None


_DEICTIC_PLACES = frozenset({"現在地", "同地", "当地", "現地", "同所"})
"""Nouns that point at a place without naming it (「現在地へ移転した」: to where it is now)."""


def _deictic_slot(q: Morphemes, s: Morphemes, at: int, noun: tuple[str, ...]) -> str | None:
    """A where-question's place that the sentence gives only as a pointing word.

    「動物園はどこへ移転しましたか」 is not said by 「1968年に現在地へ移転した」: the noun before
    the same particle and predicate points at the place (「現在地」, 「同地」, 「当地」 …) and
    names none.
    """
    verb = _predicate(q, at + 1)
    if noun != ("どこ",) or verb is None:
        return None
    particle = q[at][0]
    uses = _particle_uses(s, particle, verb)
    runs = [_run_before(s, j) for j in uses]
    if uses and all(run and run[-1] in _DEICTIC_PLACES for run in runs):
        return f"どこ{particle}{verb}"
    return None


_PASSIVE = frozenset({"れる", "られる"})
"""The passive auxiliaries (normalised)."""
_CAUSATIVE = frozenset({"せる", "させる"})
"""The causative auxiliaries (normalised): 「完成させた」 has a doer, 「完成した」 may not."""


def _passive_at(m: Morphemes, at: int) -> bool:
    """Whether the predicate at ``at`` (a verb, or a verbal noun with する) is passive."""
    after = _after_predicate(m, at)
    return after < len(m) and m[after][0] in _PASSIVE


def _agent_before(m: Morphemes, at: int) -> tuple[str, ...]:
    """The noun run a passive's agent phrase 「から」 / 「によって」 ends on right before ``at``."""
    if at >= 1 and m[at - 1] == ("から", "助詞"):
        return _run_before(m, at - 1)
    if at >= 3 and m[at - 1][0] == "て" and m[at - 2][0] in ("よる", "因る") and (
        m[at - 3] == ("に", "助詞")
    ):
        return _run_before(m, at - 3)
    return ()


def _agent_swap(q: Morphemes, s: Morphemes, at: int, noun: tuple[str, ...]) -> str | None:
    """The question's active 「X が V」 where every V of the sentence is another's.

    「高村静江**が**寄贈した標本」 is not said by 「遺族**から**寄贈された標本」: the sentence's
    寄贈 is passive, with 遺族 as its agent (「から」 / 「によって」), not the question's subject.
    Nor 「清一郎**が**死去したのは何年か」 by 「伝右衛門**は**1907年に死去し、長男の清一郎**が**
    2代局長を継いだ」: 死去 has a subject of its own, and 清一郎 is the subject of 継ぐ.
    """
    verb = _predicate(q, at + 1)
    if verb is None or _passive_at(q, at + 1):
        return None
    uses = [j for j in range(1, len(s)) if _predicate(s, j) == verb]
    agents = [_agent_before(s, j) if _passive_at(s, j) else () for j in uses]
    if uses and all(agent and agent[-1] != noun[-1] for agent in agents):
        return f"{''.join(noun)}が{verb}"
    heads = [_relative_head(s, j) for j in uses]
    if uses and all(h and noun[-1] not in h for h in heads) and _heads_another(s, noun, verb):
        return f"{''.join(noun)}が{verb}"
    if uses and _subject_of_another(s, noun[-1], verb, uses):
        return f"{''.join(noun)}が{verb}"
    return None


def _own_subject(m: Morphemes, at: int) -> tuple[str, ...]:
    """The head of the subject or topic (「Y は」 / 「Y が」) of the predicate at ``at``.

    The nearest 「は」 / 「が」 before it with no predicate between them (a number, a date
    and a case particle may stand between: 「伝右衛門は1907年に死去し」); ``()`` when none.
    """
    for k in range(at - 1, 0, -1):
        form, pos = m[k]
        if pos == "助詞" and form in ("は", "が") and (run := _run_before(m, k)):
            return run[-1:]
        if _predicate(m, k) is not None or form == "。":
            return ()
    return ()


def _subject_of_another(m: Morphemes, head: str, verb: str, uses: list[int]) -> bool:
    """Whether ``verb`` (at ``uses``) has its own subjects, ``head`` another predicate's.

    Every use of ``verb`` has a subject or topic other than ``head``
    (:func:`_own_subject`), and ``head`` is marked 「が」 / 「は」 in ``m`` only before another
    predicate — a light verb's too, where its clause has no other (「早瀬道子が三代目の社長と
    **なった**」: 道子 became president, 清一郎 died).
    """
    if any(_own_subject(m, j) in ((), (head,)) for j in uses):
        return False
    marks = [k for k in range(1, len(m)) if m[k][1] == "助詞" and m[k][0] in ("が", "は")
             and _run_before(m, k)[-1:] == (head,)]
    for k in marks:
        then = _next_predicate(m, k)
        if then is None:
            then = _next_predicate(m, k, light=True)
        if then is None or _predicate(m, then) == verb:
            return False
    return bool(marks)


def _asked_agent(q: Morphemes) -> int | None:
    """Where the predicate stands whose doer a who-question asks.

    「集めた**のは誰**」, 「**誰が**建てた」, a noun of a doer before 「は誰」 / 「はどこ」
    (:data:`_DOERS`: 「更新した**業者はどこ**か」), and 「どの」 with a noun of a doer after
    「のは」 (「転用した**のはどの組織**か」).
    """
    who = next((i for i, (form, _) in enumerate(q) if form in ("誰", "どこ") or _which_doer(q, i)),
               None)
    if who is None:
        return None
    before = [f for f, _ in q[max(0, who - 2) : who]]
    if who >= 3 and (
        (before == ["の", "は"] and q[who][0] in ("誰", "どの"))
        or (before[1:] == ["は"] and before[0] in _DOERS)
    ):
        at = who - 3
        while at > 0 and q[at][0] in _SURU_TA | _CAUSATIVE | {"ます"}:
            at -= 1
        return at if _predicate(q, at) else None
    if q[who][0] == "誰" and who + 1 < len(q) and q[who + 1][0] == "が":
        return next((j for j in range(who + 2, len(q)) if _predicate(q, j)), None)
    return None


def _which_doer(q: Morphemes, at: int) -> bool:
    """Whether 「どの」 at ``at`` asks for a doer (「どの**組織**」, :data:`_DOERS`)."""
    return q[at][0] == "どの" and at + 1 < len(q) and q[at + 1][0] in _DOERS


_DOERS = frozenset({"業者", "会社", "企業", "団体", "組織", "機関", "人物", "人"})
"""Nouns of a doer: 「…した**業者**はどこか」 asks who did it, as 「…したのは誰か」 does."""


_WHEN = frozenset({"年", "月", "日", "時", "頃", "代", "後", "前", "間", "時代", "世紀", "一時"})
"""Nouns that end a time phrase (「1600年に」, 「一時に」): a 「に」 after them dates a passive."""


def _named_agent(m: Morphemes, at: int, goals: frozenset[str] = frozenset()) -> bool:
    """Whether a passive predicate at ``at`` has an agent right before it.

    「から」 (:func:`_agent_before`), 「により」 / 「によって」 anywhere before it (「篠原貞親
    によって、慶長9年から築かれた」), or 「に」 right before it after a noun that is not a time
    (「藩主に建てられた」; not 「1600年に建てられた」) nor one the question itself marks with 「に」
    (``goals``: 「メタルハライド灯に更新した」 makes the lamp the goal, not the doer).
    """
    before = [f for f, _ in m[max(0, at - 2) : at]]
    by = any(m[i][0] == "に" and m[i + 1][0] in ("よる", "因る") for i in range(at - 1))
    if _agent_before(m, at) or by:
        return True
    run = _run_before(m, at - 1) if before[-1:] == ["に"] else ()
    return (
        bool(run) and run[-1] not in _WHEN and run[-1] not in goals
        and not any(f[:1].isdigit() for f in run)
    )


def _agent_unnamed(q: Morphemes, s: Morphemes) -> list[str]:
    """A who-question's predicate that the sentence says only in the passive, with no agent.

    「女工を…集めたのは誰」 is not said by 「女工の多くは…農村から12歳から15歳で集められ」:
    every use of the predicate in the sentence is passive and names no one who did it
    (no 「に」, 「により」, 「によって」 or 「から」 right before it), as English's "was founded
    in 1988" does not say who founded it. A verbal noun used only as a modifier with a time
    or nothing before it says no one either (「文化2年（1805年）創業の「松風館」」, as "the
    founding of"); nor an active use with no subject in the sentence (「1884年に創業し、…閉鎖
    された」: the doer is elided, as the page's topic, and the sentence names no one); nor,
    for a causative question (「目録を完成させたのは誰」), a use with the
    thing as its subject (「目録が完成し」), as "a fire that started" in English.
    """
    at = _asked_agent(q)
    verb = _predicate(q, at) if at is not None else None
    if at is None or verb is None or _passive_at(q, at):
        return []
    uses = [j for j in range(1, len(s)) if _predicate(s, j) == verb]
    nominal = [j for j in range(1, len(s) - 1) if s[j][0] == verb and s[j + 1] == ("の", "助詞")]
    made = _causative_at(q, at)
    goals = frozenset(
        run[-1] for k in range(1, len(q)) if q[k] == ("に", "助詞") and (run := _run_before(q, k))
    )
    if (uses or nominal) and all(_no_doer(s, j, made, goals) for j in uses) and all(
        _timed_only(s, j) for j in nominal
    ):
        return [f"誰が{verb}"]
    return []


def _no_doer(s: Morphemes, at: int, made: bool, goals: frozenset[str] = frozenset()) -> bool:
    """Whether the predicate at ``at`` names no one who did it (see :func:`_agent_unnamed`).

    A passive with no agent, an active use with no subject (:func:`_subjectless`), or — for a
    causative question (``made``) — a plain use with the thing as its subject.
    """
    if _passive_at(s, at):
        return not _named_agent(s, at, goals)
    if made and not _causative_at(s, at) and s[at - 1] == ("が", "助詞"):
        return True
    return _subjectless(s, at)


_SUBJECT_MARKS = frozenset({"は", "が", "も"})


def _subjectless(m: Morphemes, at: int) -> bool:
    """Whether the sentence marks no subject for the predicate at ``at``.

    No 「は」 / 「が」 / 「も」 anywhere before it, no 「の」 right before its noun run (a
    relative clause's subject: 「源蔵の創業した工場」), and no noun or 「の」 right after it:
    a relative clause's head (「工場を創業した**源蔵**は」) or a cleft's focus
    (「創業した**の**は源蔵である」) names the doer after the predicate.
    """
    if any(form in _SUBJECT_MARKS and pos == "助詞" for form, pos in m[:at]):
        return False
    start = at - len(_run_before(m, at))
    if start >= 1 and m[start - 1] == ("の", "助詞"):
        return False
    after = _after_predicate(m, at)
    while after < len(m) and m[after][1] == "助動詞":
        after += 1
    return not (after < len(m) and (m[after][1] in _NOUN or m[after][0] == "の"))


def _causative_at(m: Morphemes, at: int) -> bool:
    """Whether the predicate at ``at`` is causative (「完成させた」, 「完成せた」)."""
    after = _after_predicate(m, at)
    return after < len(m) and m[after][0] in _CAUSATIVE


def _timed_only(m: Morphemes, at: int) -> bool:
    """Whether the noun run before ``at`` is empty or a time.

    「（1805年）創業の」, 「1805年創業の」; 「山田太郎創業の」 names who founded it.
    """
    run = _run_before(m, at)
    return not run or run[-1] in _WHEN or all(f[:1].isdigit() for f in run)


def _past_suru(m: Morphemes, at: int) -> int:
    """Where ``m`` goes on past a predicate's 「する」 and 「た」 from ``at`` (「創業した」)."""
    while at < len(m) and m[at][0] in _SURU_TA:
        at += 1
    return at


def _relative_head(m: Morphemes, at: int) -> tuple[str, ...]:
    """The noun a predicate at ``at`` modifies as a relative clause (「創業した**岩城徳次郎**」)."""
    k = _past_suru(m, at + 1)
    if k == at + 1 or m[k - 1][0] != "た":
        return ()
    end = k
    while end < len(m) and m[end][1] in _NOUN:
        end += 1
    return tuple(form for form, _ in m[k:end])


def _heads_another(m: Morphemes, noun: tuple[str, ...], verb: str) -> bool:
    """Whether ``noun`` heads a relative clause of another predicate than ``verb``."""
    return any(
        _predicate(m, j) not in (None, verb) and noun[-1] in _relative_head(m, j)
        for j in range(len(m))
    )


def _has(m: Morphemes, form: str) -> bool:
    return any(f == form for f, _ in m)


_LIGHT_VERBS = frozenset({"為る", "する", "有る", "居る", "成る", "れる", "られる"})
"""Verbs that carry no relation of their own (する, ある, いる, なる; the passive's)."""


_YEAR_NOUNS = frozenset({"年", "年度"})
"""Nouns that make the number before them a year: the calendar's and the fiscal one
(「1966年度」, a year counted from April)."""


def _year_at(m: Morphemes, at: int) -> bool:
    """Whether a year starts at ``at`` (a number followed by 「年」 or 「年度」: 「1957年」)."""
    return at + 1 < len(m) and m[at][0].isdigit() and m[at + 1][0] in _YEAR_NOUNS


def _years(m: Morphemes) -> set[str]:
    """The years a text names."""
    return {m[i][0] for i in range(len(m)) if _year_at(m, i)}


def _dated_predicates(q: Morphemes) -> list[tuple[str, str, tuple[str, ...]]]:
    """(year, particle, predicate) of a question: each year with the first predicate after it.

    The predicate is :func:`_predicate`'s, not a light verb. A year with another year before
    that predicate dates something else
    (「2016年4月…自由化後の2018年9月30日まで…変更した」: 2016 is the liberalisation's). A
    year with 「の」 after it dates the noun run that follows too (「1966年度の年間乗客数」:
    the year's passengers).
    """
    out: list[tuple[str, str, tuple[str, ...]]] = []
    for i in range(len(q)):
        if not _year_at(q, i):
            continue
        if i + 3 < len(q) and q[i + 2][0] == "の" and q[i + 3][1] == "名詞":
            out.append((q[i][0], "の", _run_from(q, i + 3)))
        for j in range(i + 2, len(q)):
            if _year_at(q, j):
                break
            verb = _predicate(q, j)
            if verb is not None and verb not in _LIGHT_VERBS:
                out.append((q[i][0], "に", (verb,)))
                break
    return out


def _run_from(m: Morphemes, at: int) -> tuple[str, ...]:
    """The noun run (:data:`_NOUN`) that starts at ``at``, less a question word in it."""
    end = at
    while end < len(m) and m[end][1] in _NOUN:
        end += 1
    return tuple(form for form, _ in m[at:end] if not interrogative(form))


def _dated_apart(q: Morphemes, s: Morphemes) -> list[str]:
    """A question's predicate and year that the sentence states in different clauses.

    「1979年に保持者に認定されたのは誰か」 is not said by
    「清三郎は1978年に…認定されたが、翌1979年に74歳で死去し、…」: a date goes with its own
    clause's predicate. Read where every clause (the sentence cut at each 「、」) with the
    predicate names another year and none the question's, which another clause names. A
    year's noun likewise (:func:`_dated_predicates`): 「1966年度の年間乗客数」 is not said by
    「乗客数は1958年度の年間約2,900万人をピークに…、1966年度には赤字額が…」 — where the
    question's year's clause has a subject of its own (:func:`_has_own_subject`); a noun said
    once stays the topic of the clauses after it (「年間入館者数は…1987年度に…、2010年度には
    約1万9千人にまで落ち込んだ」 says the 2010 figure).
    """
    pairs = _dated_predicates(q)
    if not pairs:
        return []
    clauses = _cut_at(s, "、")
    out = []
    for year, particle, forms in pairs:
        said = [c for c in clauses if all(_has(c, form) for form in forms)]
        dated = [c for c in clauses if year in _years(c)]
        if particle == "の" and not all(_has_own_subject(c) for c in dated):
            continue  # 「…、2010年度には約1万9千人に落ち込んだ」: the noun is still the topic
        if said and dated and all(_years(c) - {year} and year not in _years(c) for c in said):
            out.append(f"{year}年{particle}{''.join(forms)}")
    return out


def _cut_at(m: Morphemes, mark: str) -> list[list[tuple[str, str]]]:
    """``m`` cut at each ``mark``, the marks left out.

    At 「、」: its clauses; at 「。」: its sentences.
    """
    parts: list[list[tuple[str, str]]] = [[]]
    for morpheme in m:
        if morpheme[0] == mark:
            parts.append([])
        else:
            parts[-1].append(morpheme)
    return parts


def _has_own_subject(m: Morphemes) -> bool:
    """Whether a clause has a subject or topic of its own.

    A noun run before 「が」 or 「は」 that is no time (「1966年度には**赤字額が**」; not
    「2010年度には」 alone, where the topic of the clause before goes on).
    """
    return any(
        form in ("が", "は") and (run := _run_before(m, at))
        and not any(x.isdigit() or x in _YEAR_NOUNS or x in _WHEN for x in run)
        for at, (form, _) in enumerate(m)
    )


_PLAN = frozenset({"計画", "構想", "案", "予定", "方針", "計画案", "提案", "意向"})
"""Nouns that make what goes before them a plan, not an event (「誘致計画」, 「移転する構想」)."""
_VOICE = frozenset({"れる", "られる", "せる", "させる"})
"""Auxiliaries of voice: 「取り壊される予定」 plans the passive of 「取り壊す」."""
_WISH = frozenset({"たい", "たがる"})
"""Auxiliaries of wish: 「整備したいとしている」 says a wish, not that it was done."""


def _question_predicates(q: Morphemes) -> list[str]:
    """The question's predicates (:func:`_predicate`: 「誘致された」's 誘致, a verb), once each."""
    out = []
    for i in range(len(q)):
        form = _predicate(q, i)
        if form is not None and form not in _LIGHT_VERBS and form not in out:
            out.append(form)
    return out


def asked_predicates(q: Morphemes) -> frozenset[str]:
    """The question's predicates (:func:`_question_predicates`), and a noun before 「となる」.

    「不漁となった」: the noun before 「と」 / 「に」 and 「なる」 is what the question says
    happened, as a verbal noun before 「する」 is (「悪化した」).
    """
    became = {
        q[i][0] for i in range(len(q) - 2)
        if q[i][1] == "名詞" and q[i + 1][0] in ("と", "に") and q[i + 2][0] == "成る"
    }
    return frozenset(_question_predicates(q)) | became


_GIVEN_UP = frozenset({"断念", "中止", "見送る", "諦める", "撤回", "見合わせる", "取りやめる"})
"""Verbs of giving up: 「再建を断念し」 says the rebuilding did not happen."""
_ASKED_FOR = frozenset({
    "申し入れる", "申し込む", "提案", "打診", "求める", "要請", "要求", "依頼", "持ち掛ける",
    "願い出る", "請願", "陳情", "申請",
})
"""Verbs of proposing or asking for: 「合併を申し入れた」 says the merger was proposed, not made
(as "petitioned the council *for a ban*")."""
_COPULA = frozenset({"だ", "です", "有る", "た"})


def _planned_only(q: Morphemes, s: Morphemes) -> list[str]:
    """A question's predicate that the sentence states only as a plan, or as given up.

    「2016年に誘致された…ホテル」 is not said by 「2016年に持ち上がった…ホテルの誘致計画は…撤回
    された」: every use of the predicate in the sentence is followed by a noun of planning
    (:data:`_PLAN`) or an auxiliary of wish (:data:`_WISH`: 「整備したい」), right after it or
    after 「する」 / 「した」 (「移転する計画」) and an auxiliary of voice (:data:`_VOICE`:
    「取り壊される予定」), or by 「を」 and a verb of giving up
    (「再建を断念し」) or of proposing or asking for (:data:`_ASKED_FOR`: 「合併を申し入れた」;
    after 「よう」 too: 「第五源泉から分けるよう組合に求めた」).
    A use in the conjunctive form (「…を設立し、」) goes with the sentence's last predicate:
    「…を設立し、…に集約する計画であった」 plans both.
    A use inside a compound noun (:func:`_compound_at`) is no predicate and is not read; nor
    is a predicate the question itself asks of as a plan (「…を建設する案が放棄されたのはなぜか」).
    """
    out = []
    for verb in _question_predicates(q):
        if any(form == verb and _unrealised_at(q, i + 1) for i, (form, _) in enumerate(q)):
            continue  # the question asks about the plan itself (「建設する案が放棄されたのは」)
        uses = [
            i for i, (form, _) in enumerate(s)
            if form == verb and not _compound_at(s, i + 1)
        ]
        if uses and all(_unrealised_at(s, i + 1) for i in uses):
            out.append(f"{verb}計画")
    return out


def _compound_at(s: Morphemes, at: int) -> bool:
    """Whether the noun before ``at`` heads no predicate.

    Another noun, not one of planning, follows it: 「**移設**費用が…見積もられ」 says what the
    move would cost, not that it was made.
    """
    return at < len(s) and s[at][1] == "名詞" and s[at][0] not in _PLAN


def _unrealised_at(s: Morphemes, at: int) -> bool:
    """Whether the predicate before ``at`` is a plan or given up (see :func:`_planned_only`)."""
    if at + 1 < len(s) and s[at][0] == "を" and s[at + 1][0] in _GIVEN_UP | _ASKED_FOR:
        return True
    at = _past_suru(s, at)
    while at < len(s) and s[at][0] in _VOICE and s[at][1] == "助動詞":
        at += 1
    if at < len(s) and (s[at][0] in _PLAN or s[at][0] in _WISH and s[at][1] == "助動詞"):
        return True
    if at < len(s) and s[at][0] == "よう" and _asked_after(s, at + 1):
        return True  # 「第五源泉から分けるよう組合に求めた」: asked for, not done
    return at < len(s) and s[at][0] == "、" and _ends_as_plan(s, at)


_ASKED_REACH = 4
"""Morphemes after 「よう」 where the verb of asking stands (「分けるよう**組合に求め**た」)."""


def _asked_after(s: Morphemes, at: int) -> bool:
    """Whether a verb of asking (:data:`_ASKED_FOR`) follows ``at`` in the same clause."""
    for k in range(at, min(len(s), at + _ASKED_REACH)):
        if s[k][0] in ("、", "。"):
            return False
        if s[k][0] in _ASKED_FOR:
            return True
    return False


def _ends_as_plan(s: Morphemes, at: int) -> bool:
    """Whether the sentence from ``at`` ends on a plan noun and a copula (「…計画であった。」)."""
    end = next((i for i in range(at, len(s)) if s[i][0] == "。"), len(s))
    k = end - 1
    while k > at and s[k][0] in _COPULA:
        k -= 1
    return k > at and s[k][0] in _PLAN


_GOAL = frozenset({"に", "へ"})
"""Particles that mark where a thing goes: who receives what is 「譲渡」, 「売却」, 「寄贈」."""


def _marked(m: Morphemes, noun: tuple[str, ...]) -> set[str]:
    """The particles right after each noun run of ``m`` that ends with ``noun``."""
    return {
        m[k][0] for k in range(1, len(m))
        if m[k][1] == "助詞" and _run_before(m, k)[-len(noun) :] == noun
    }


def _goal_swap(q: Morphemes, s: Morphemes) -> list[str]:
    """The question's giver and receiver, each said in the other's role.

    「東嶺電鉄が翠ヶ原観光開発に譲渡した」 is not said by 「翠ヶ原観光開発は…運行事業を東嶺電鉄へ…
    譲渡した」: the question's subject (「が」) is marked only as the goal (「に」 / 「へ」) in
    the sentence, and its goal only as the subject or the topic (「が」 / 「は」), with the
    question's predicate in the sentence. Giving, selling and handing over run from the
    subject to the goal, so the sentence states the converse transfer.
    """
    verbs = _question_predicates(q)
    if not any(_has(s, verb) for verb in verbs):
        return []
    givers = [_run_before(q, k) for k in range(1, len(q)) if q[k] == ("が", "助詞")]
    goals = [
        _run_before(q, k) for k in range(1, len(q)) if q[k][1] == "助詞" and q[k][0] in _GOAL
    ]
    for giver in filter(None, givers):
        for goal in filter(None, goals):
            as_giver, as_goal = _marked(s, giver), _marked(s, goal)
            if giver != goal and as_giver and as_goal and (
                as_giver <= _GOAL and as_goal <= {"が", "は"}
            ):
                return [f"{''.join(giver)}が{''.join(goal)}に"]
    return []


def _next_predicate(m: Morphemes, at: int, *, light: bool = False) -> int | None:
    """Where the first predicate after ``at`` stands (「吸収合併した」: at 合併), if any.

    Before the next 「、」 or 「。」; with ``light``, a light verb counts too
    (「社長と**なった**」).
    """
    for k in range(at + 1, len(m)):
        if m[k][0] in ("、", "。"):
            return None
        if _predicate(m, k) is not None and (light or m[k][0] not in _LIGHT_VERBS):
            return k
    return None


def _object_swap(q: Morphemes, s: Morphemes) -> list[str]:
    """The question's active subject, said only as the object of its predicate.

    「白浜酒造**が**吸収合併した酒蔵」 is not said by 「…隣町の白浜酒造**を**吸収合併して」: the
    sentence marks the question's doer only with 「を」, as the one the predicate acts on (or
    with 「の」, as a modifier of another noun: 「白浜酒造の蔵」).
    """
    for at in range(1, len(q)):
        subject = _run_before(q, at)
        if q[at] != ("が", "助詞") or not subject:
            continue
        k = _next_predicate(q, at)
        if k is None or _passive_at(q, k) or not _has(s, q[k][0]) or q[k - 1][0] == "を":
            continue  # a question's own object: the case reading reads the two roles
        marked = _marked(s, subject)
        if "を" in marked and marked <= {"を", "の"}:  # の: a modifier, no role of its own
            return [f"{''.join(subject)}が{q[k][0]}"]
    return []


def unbound_phrases_ja(question: Morphemes, sentence: Morphemes) -> tuple[str, ...]:
    """Phrases of a Japanese question (its morphemes) that ``sentence`` binds otherwise.

    Returns each phrase as the question's forms joined (「北海道帝国大学を卒業」).
    """
    found: list[str] = []
    for at in range(1, len(question) - 1):
        form, pos = question[at]
        noun = _run_before(question, at) or _slot_word(question, at)
        if pos != "助詞" or not noun:
            continue
        if any(interrogative(x) for x in noun):
            phrase = (
                _slot_swap(question, sentence, at, noun)
                or _deictic_slot(question, sentence, at, noun)
                if form in _SLOT_CASE else None
            )
        elif form in _CASE:
            phrase = _case_swap(question, sentence, at, noun)
        elif form == "は":
            phrase = _topic_swap(question, sentence, at, noun)
        elif form == "が":
            phrase = _agent_swap(question, sentence, at, noun)
        else:
            continue
        if phrase and phrase not in found:
            found.append(phrase)
    for reading in (
        _dated_apart,
        _planned_only,
        _agent_unnamed,
        _goal_swap,
        _object_swap,
        _summed,
        _conjuncts_mixed,
        _genitive_swap,
        _year_in_another_sentence,
    ):
        found.extend(p for p in reading(question, sentence) if p not in found)
    return tuple(found)


def _asks_year(q: Morphemes) -> bool:
    """Whether a question asks for a year (「何年」, 「何年度」)."""
    return any(
        q[i][0] == "何" and q[i + 1][0] in _YEAR_NOUNS for i in range(len(q) - 1)
    ) or any(f in ("何年", "何年度") for f, _ in q)


def _timed(m: Morphemes) -> bool:
    """Whether a text names a time of its own.

    A year (「1973年度」), or a word of time that points to another sentence's (「同年」,
    「翌年」, 「当時」, 「その後」).
    """
    return any("年" in form or form in _WHEN or form == "当時" for form, _ in m)


def _year_in_another_sentence(q: Morphemes, s: Morphemes) -> list[str]:
    """A year asked for, given only in another sentence than the question's predicate.

    「記念碑が建てられたのは何年か」 is not said by 「…軌道の撤去工事は1973年度までに完了した。
    現在、…跡地には記念碑が建てられている。」: a cited text of several sentences (split at
    「。」) dates each sentence's predicate in that sentence; one with the question's
    predicates and no word of time (:func:`_timed`) says when nothing was done.
    """
    predicates = asked_predicates(q)
    if not predicates or not _asks_year(q):
        return []
    sentences = [m for m in _cut_at(s, "。") if any(pos != "空白" for _, pos in m)]
    said = [m for m in sentences if all(_has(m, form) for form in predicates)]
    if not said or any(_timed(m) for m in said) or not any(
        _years(m) for m in sentences if m not in said
    ):
        return []
    return ["何年に" + "".join(sorted(predicates))]


_SUMS = frozenset({"合わせる", "合計", "総額", "総計"})
"""Words of a total (「AとBを**あわせて**4万5,000円」, 「…の**合計**」)."""


def _asks_number(q: Morphemes) -> bool:
    """Whether a question asks for an amount or a count (「幾ら」, 「何円」, 「何人」)."""
    return any(f == "幾ら" or (f.startswith("何") and len(f) > 1 and p == "名詞") for f, p in q)


def _summed(q: Morphemes, s: Morphemes) -> list[str]:
    """A number question's noun that the sentence counts only in a total of several.

    「北信農工銀行からの借入金はいくらか」 is not said by 「小宮山家からの追加の出資と北信農工銀行
    からの借入金を**あわせて**4万5,000円を調達し」: the value is the sum of two things joined by
    「と」, one of them the question's. Not where the question asks the total itself
    (「…の合計は」).
    """
    if not _asks_number(q) or any(f in _SUMS for f, _ in q):
        return []
    asked = [f for f, p in q if p == "名詞" and not interrogative(f)]
    for i in range(1, len(s)):
        if s[i] != ("合わせる", "動詞") or s[i - 1][0] != "を":
            continue
        start = max((j + 1 for j in range(i) if s[j][0] in ("、", "。")), default=0)
        span = s[start : i - 1]
        said = [f for f in asked if (f, "名詞") in span]
        if ("と", "助詞") in span and said:
            return [f"{said[-1]}合わせる"]
    return []


_CONJUNCT_END = frozenset({"、", "。", "は", "が"})
"""Where a conjunct of 「AのX と、BのY」 begins (after the one before it) or ends."""


def _conjuncts(s: Morphemes) -> Iterator[tuple[Morphemes, Morphemes]]:
    """(left, right) of each pair of noun phrases joined by 「と、」 in ``s`` (after a noun).

    The left one runs back to the 「、」 or topic / subject particle before it, the right one
    on to the next 「、」, 「。」, auxiliary (「…「浪速堂」であった」) or 「と」 (「AとBとの統合」).
    """
    for i in range(1, len(s) - 1):
        if s[i] != ("と", "助詞") or s[i + 1][0] != "、" or not _ends_noun(s, i):
            continue
        start = max((j + 1 for j in range(i) if s[j][0] in _CONJUNCT_END), default=0)
        end = next(
            (
                j for j in range(i + 2, len(s))
                if s[j][0] in _CONJUNCT_END or s[j][1] == "助動詞" or s[j] == ("と", "助詞")
            ),
            len(s),
        )
        yield s[start:i], s[i + 2 : end]


def _ends_noun(s: Morphemes, at: int) -> bool:
    """Whether a noun (or a quoted name: 「丸喜」) ends right before ``at``.

    After a predicate 「と、」 is a conjunction of condition (「即位すると、」, 「春になると、」),
    which joins no noun phrases.
    """
    if s[at - 1][0] in _FORMAL_NOUNS:
        return False  # 「支払うことと、…建てることで合意」: two clauses of one predicate
    return s[at - 1][1] in _NOUN or s[at - 1][0] in ("」", "』", ")", "）")


_FORMAL_NOUNS = frozenset({"事", "こと", "の", "物", "もの", "所", "ところ"})
"""Nouns that make a clause a noun (「…を支払う**こと**」): what they join are clauses."""


def _after_question_word(m: Morphemes, at: int) -> bool:
    """Whether the noun at ``at`` is in the noun run right after a question word (どの**学校**)."""
    k = at
    while k > 0 and m[k - 1][1] in _NOUN and not interrogative(m[k - 1][0]):
        k -= 1
    return k > 0 and interrogative(m[k - 1][0])


def _conjuncts_mixed(q: Morphemes, s: Morphemes) -> list[str]:
    """A question that joins a term of one of two coordinated noun phrases with the other's.

    「1970年に共同出荷の契約を結んだ弓張町の取引先はどこか」 is not said by 「取引先は、創業以来の
    取引がある弓張町の「丸喜」と、1970年に契約を結んだ大阪の文具卸「浪速堂」であった」: each noun
    phrase joined by 「と、」 has its own modifiers, so a question that takes a content word only
    one of them says (弓張町) with one only the other says (契約) mixes two things. A question
    whose terms are all in one of them, or in the rest of the sentence, asks about that one;
    the answer's type (どの**学校**) is no term of either.
    """
    typed = {i for i in range(1, len(q)) if q[i][1] in _NOUN and _after_question_word(q, i)}
    terms = [
        f for i, (f, p) in enumerate(q)
        if p in _CONTENT and f not in _LIGHT_VERBS and not interrogative(f) and i not in typed
    ]
    for left, right in _conjuncts(s):
        only_left = [t for t in terms if _has(left, t) and not _has(right, t)]
        only_right = [t for t in terms if _has(right, t) and not _has(left, t)]
        if only_left and only_right:
            return [f"{only_left[0]}と{only_right[0]}"]
    return []


def _genitive_swap(q: Morphemes, s: Morphemes) -> list[str]:
    """A question's 「XのY」 whose sentence gives Y another 「の」 modifier and X another noun.

    「黒塗りの地に金の蒔絵で何を描いたか」 is not said by 「朱色の地に金の蒔絵で草花を描いたもので、
    国内向けの黒塗りの椀とは…異なっていた」: 「の」 binds its noun to the one after it, so the
    sentence's 地 is 朱色's and its 黒塗り is the 椀's. X and Y are whole noun runs (「所属事務所」
    is one noun); X is the sentence's when they share a word (「松本の」 for 「松本人志の」, a
    name shortened); a date (「2011年の」) is no owner. Read where every 「の」 before Y in the
    sentence has another noun than X, and every 「Xの」 another noun than Y after it.
    """
    out = []
    pairs = _genitives(s)
    for x, y in _genitives(q):
        if x[0][:1].isdigit() or any(interrogative(w) for w in (*x, *y)):
            continue  # 「2011年の」 dates the noun: no owner
        of_y = [a for a, b in pairs if b == y]
        x_of = [b for a, b in pairs if _same_owner(a, x)]
        if of_y and x_of and not any(_same_owner(a, x) for a in of_y) and y not in x_of:
            out.append(f"{''.join(x)}の{''.join(y)}")
    return out


def _same_owner(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Whether two noun runs share a word of two characters or more (「松本」, 「松本人志」)."""
    return any(len(w) > 1 for w in set(a) & set(b))


def _genitives(m: Morphemes) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(X, Y) of each 「XのY」 of ``m``, X and Y its noun runs."""
    out = []
    for i in range(1, len(m) - 1):
        if m[i] != ("の", "助詞"):
            continue
        x = _run_before(m, i)
        end = i + 1
        while end < len(m) and m[end][1] in _NOUN:
            end += 1
        if x and end > i + 1:
            out.append((x, tuple(f for f, _ in m[i + 1 : end])))
    return out
