"""The arithmetic grammar: what a question computes, over which operands, and the computing.

Reading (the parser's side, the current question only). Beside the operation words the parser
reads (change, ratio, sum, ...), a question may name:
- a denominator phrase: "in relation to", "relative to", "as a percentage of", "portion of",
  "divided by", "how many times": a ratio, or a share when a percent word is there;
- an earlier result by its role: "that change", "this total", "the difference" used as an
  operand, or a bare "this"/"that"/"it" beside an operation. The parser only notes the role;
  the session finds the value among its own earlier answers (engine/session.py);
- a constant operand: "less 100", "plus 50", "times 4", "a base of 100";
- one nested step: a change inside a share ("the change from 2016 to 2017 as a percent of the
  2016 value").
The outer operation is the one named first: "the sum of the average backlog" is a sum.

Computing (the renderer's side): `combine` takes operands (facts, earlier results,
constants) and gives a computed Figure with its role and a formula that names each operand,
its value and where it came from.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, DivisionByZero, InvalidOperation, localcontext

from engine.calc import PERCENT_UNIT, RATIO_UNIT, SCALES, in_full
from engine.numbers import format_value
from engine.text import lexicon, normalise_word
from engine.types import Figure

_PLACES = Decimal("0.000001")


def _norms(*phrases: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(normalise_word(w) for w in p.split()) for p in phrases)


# Phrases after which the whole (the denominator) is named.
DENOMINATOR = _norms(
    "in relation to", "relative to", "as a percentage of", "as a percent of",
    "as a portion of", "as a share of", "as a proportion of", "as a fraction of",
    "percentage of", "percent of", "portion of", "share of", "proportion of", "fraction of",
    "divided by", "how many times",
    # "What multiple of Y was X": Y is the base X is measured in ("as a multiple of" too).
    "multiple of",
    # The sign and the abbreviation say what the word says.
    "as a % of", "% of", "as a pct of", "pct of",
)  # fmt: skip
# The phrases by their first word, in DENOMINATOR's order: a phrase read from a word starts
# with that word, so only these are tried there (every word was tried against every phrase).
_DENOMINATOR_AT: dict[str, tuple[tuple[str, ...], ...]] = {
    first: tuple(phrase for phrase in DENOMINATOR if phrase[0] == first)
    for first in dict.fromkeys(phrase[0] for phrase in DENOMINATOR)
}
PERCENT_WORDS = lexicon("percent percentage % pct")
# Denominator phrases whose result is said in percent: a percentage, and a share ("R&D as a
# share of revenue" is 9.9%, not 0.099); a proportion or a fraction stays a ratio.
_IN_PERCENT = PERCENT_WORDS | lexicon("share")
# Role nouns an earlier result is named by, and the roles they name.
ROLE_NOUNS = {
    **dict.fromkeys(
        lexicon(
            "change difference increase decrease decline variation variance rise drop "
            "reduction fall"
        ),
        "change",
    ),
    **dict.fromkeys(map(normalise_word, ["total", "sum"]), "sum"),
    **dict.fromkeys(map(normalise_word, ["average", "mean"]), "average"),
    **dict.fromkeys(map(normalise_word, ["ratio", "proportion"]), "ratio"),
    **dict.fromkeys(map(normalise_word, ["percentage", "share", "portion"]), "share"),
    normalise_word("result"): "result",
}  # fmt: skip
# Nouns that name a result only beside a constant ("that value less 1"); elsewhere "this
# number" may as well be the quantity the figure counts.
_GENERIC = lexicon("amount value figure number")
DEMONSTRATIVES = frozenset({"this", "that", "these", "those"})
# "They" stands for a figure as "it" does ("how much did they represent ..."), and so only
# where "it" would: before a verb or an operator word.
_SINGLE = frozenset({"it", "they"})
PRONOUNS = DEMONSTRATIVES | _SINGLE
_ADJECTIVES = lexicon("net total combined overall annual same")
# Words that may stand between a denominator phrase and the result it names as the whole.
_BEFORE_A_WHOLE = frozenset({"the", "a", "an", *DEMONSTRATIVES}) | _ADJECTIVES
# Words that only say "is a share of" once a denominator phrase is read.
_SHARE_VERBS = lexicon(
    "represent represents representing represented comprise comprises comprised composed "
    "constitute constitutes constituted"
)
# "Account for", said of a share; only with "for" after it.
_ACCOUNT = lexicon("account accounts accounted accounting")
# Operator words before a constant, and the operation each makes.
_CONSTANT_OPERATORS = {
    normalise_word(word): operation
    for words, operation in (
        ("less minus subtract base", "difference"),
        ("plus add", "sum"),
        ("times multiply multiplied", "product"),
        ("divided over", "ratio"),
    )
    for word in words.split()
}
_CONSTANT_FILLER = lexicon("a an of by $ the usd initial")
_PRODUCT = lexicon("product multiplied multiply")
_SUM_FIRST = lexicon("sum combined total add plus")
AVERAGE_WORDS = lexicon("average mean avg")


@dataclass(frozen=True, slots=True)
class Reading:
    """What the grammar read beyond the operation words (all empty: nothing)."""

    operation: str | None = None  # an operation the phrases decide (ratio, percent_of, ...)
    referent: str = ""  # the role of an earlier result named as an operand
    referent_first: bool = True  # the referent comes before the denominator phrase
    constants: tuple[str, ...] = ()
    nested: str = ""  # the inner operation of one nested step ("difference")
    value: bool = False  # asks for a figure itself ("what was the 2008 value?")
    # What else the question points back to: "period" ("in that same year"), "figure" ("that
    # fair value", "this purchase price": a figure the conversation already named).
    points_back: tuple[str, ...] = ()
    # Two earlier figures named at once, part first: ("first", "second"), ("that", "this").
    pair: tuple[str, ...] = ()
    whole_at: int = -1  # where the whole is named: the word after a denominator phrase
    again: str = ""  # "this percentage in 2006": the role of a calculation asked again


def read(norms: Sequence[str], used: list[bool]) -> Reading:
    """Read the grammar's phrases, marking the words it took as used so they are neither a
    metric nor loose words. Leaves `used` as it was when it reads nothing."""
    before = list(used)
    _operation_words(norms, used)
    marker = _denominator(norms, used)
    if marker is not None and _names_the_base(norms, used, marker[0]):
        # "as a percentage of the original value": the earlier change over its own base.
        return Reading("percent_change", "change", points_back=_points_back(norms, used))
    per_period = _per_period(norms, used)
    summed = "including" not in norms and _sum_words(norms, used)
    constants, constant_operation = _constants(norms, used)
    points = _points_back(norms, used)
    including = _including(norms, used)
    pair = _pair(norms, used, marker[0] if marker is not None else None)
    referent, at = ("pair", None) if pair else _referent(norms, used, bool(constants))
    if not referent and marker is not None:
        referent, at = _generic(norms, used, marker[0])
    if including is not None and not referent:
        # "the sum including the 2013 value": the sum an earlier answer gave, plus a figure.
        referent, at = ("sum" if free_sum(norms, used) else "result"), including
    if marker is not None or referent:
        for i, norm in enumerate(norms):
            if norm in _SHARE_VERBS:
                used[i] = True
            elif norm in _ACCOUNT and tuple(norms[i + 1 : i + 2]) == ("for",):
                # "did ferry revenue account for": never "accounts receivable", a line.
                used[i] = used[i + 1] = True
    if marker is not None:
        _share_causes(norms, used)
    free = {n for n, u in zip(norms, used, strict=True) if not u}
    percent = bool(free & PERCENT_WORDS) or (marker is not None and marker[1])
    operation: str | None = None
    if marker is not None:
        operation = "percent_of" if percent else "ratio"
    elif constant_operation:
        operation = constant_operation
    elif _outer_is_sum(norms, used) or including is not None or summed:
        operation = "sum"
    elif per_period:
        operation = "average"
    elif _asks_product(norms, used):
        operation = "product"
    elif referent:
        operation = _operator_word(norms, used)  # "that plus the 2019 cost"
    bare = operation is None and not referent and not constants and marker is None
    if bare and _minus_between(norms, used):
        operation = "difference"  # "revenue less net income": one figure less another
    if not referent and operation in (None, "average", "difference", "sum") and not constants:
        if operation is not None and marker is None:
            return Reading(operation=operation, points_back=points)
        return _read_plain(norms, used, points)
    if referent and operation is None and not (free & _OPERATION_HINTS):
        if referent in ("share", "ratio") and _periods_named(norms, used) and at is not None:
            # "this percentage in 2006": the same calculation, in another period.
            return Reading(again=referent, points_back=points)
        # "what was that change?" names a result and asks nothing of it: not an operand.
        used[:] = before
        return _read_plain(norms, used, _points_back(norms, used))
    nested = ""
    # A change word says the inner step itself ("the difference of revenue less net income
    # over the 2013 revenue": an earlier answer's change); only without one is a minus read.
    minus = (
        _minus_before(norms, used, marker[0])
        if marker is not None and not referent and not constants and not free & _CHANGE_NOUNS
        else None
    )
    if minus is not None and marker is not None:
        # "X in 2016 minus X in 2015, divided by X in 2015": the difference the question
        # spells out is the inner step, as a change word would name it; taken in the order
        # written, so the base named first ("X in 2015 less X in 2016, over X in 2015") is
        # the minuend. Anything else spelled so (two lines in one period) is asked back by
        # the nested step, never read as the plain ratio of its two figures.
        nested = "reverse" if _minuend_is_base(norms, minus, marker[0]) else "difference"
    elif marker is not None and not referent and free & _CHANGE_NOUNS:
        if _periods_named(norms, used) >= 2:
            nested = "difference"
        else:
            # "the net change over the 2008 value": one period, so the change is the one an
            # earlier answer gave.
            referent, at = "change", _take_first(norms, used, _CHANGE_NOUNS)
    # The whole is the operand right after the denominator phrase ("in relation to that
    # change", "divided by this total", "divided by that net change": pointing words and
    # the adjectives of a result may stand between); a referent elsewhere is the part.
    referent_first = not (
        marker is not None
        and at is not None
        and at >= marker[0]
        and all(n in _BEFORE_A_WHOLE for n in norms[marker[0] : at])
    )
    whole_at = marker[0] if marker is not None and not _counts_times(norms, marker[0]) else -1
    return Reading(
        operation, referent, referent_first, constants, nested, points_back=points, pair=pair,
        whole_at=whole_at,
    )  # fmt: skip


# "What percentage of the increase was due to X": the cause a share names its part by.
_CAUSED = lexicon("due attributable owing")
_TO = normalise_word("to")


def _share_causes(norms: Sequence[str], used: list[bool]) -> None:
    """Beside a share's phrase, "due to" and "attributable to" only say that the figure after
    them is the part: the words name no line and narrow none. ("Debt due in 2019" keeps its
    word: there it says which debt.)"""
    for i, norm in enumerate(norms[:-1]):
        if norm in _CAUSED and norms[i + 1] == _TO and not used[i]:
            used[i] = used[i + 1] = True


def _counts_times(norms: Sequence[str], end: int) -> bool:
    """ "How many times": the whole comes after "than", not after the phrase. With no "than",
    the figure named right after the phrase is the one counted in ("how many times the
    service cost was the interest cost": the interest cost over the service cost), unless a
    verb comes first ("how many times is A B" names no whole there)."""
    if tuple(norms[max(end - 3, 0) : end]) != _HOW_MANY_TIMES:
        return False
    return "than" in norms or end >= len(norms) or norms[end] in _VERBS_AFTER_TIMES


_VERBS_AFTER_TIMES = lexicon(
    "is was were are be been did does do has had have larger greater bigger higher more"
)


_HOW_MANY_TIMES = ("how", "many", normalise_word("times"))


def _periods_named(norms: Sequence[str], used: list[bool]) -> int:
    return len({n for n, u in zip(norms, used, strict=True) if u and n[0].isdigit()})


def _take_first(norms: Sequence[str], used: list[bool], wanted: frozenset[str]) -> int | None:
    for i, norm in enumerate(norms):
        if norm in wanted and not used[i]:
            used[i] = True
            return i
    return None


def _read_plain(norms: Sequence[str], used: list[bool], points: tuple[str, ...]) -> Reading:
    _operation_words(norms, used)
    if _outer_is_sum(norms, used):
        return Reading(operation="sum", points_back=points)
    return Reading(value=_asks_value(norms, used), points_back=points)


_TIME_NOUNS = lexicon("year period date quarter")
_BASE_WORDS = lexicon("original initial starting base earlier first previous prior")


def _points_back(norms: Sequence[str], used: list[bool]) -> tuple[str, ...]:
    """ "in that (same) year", "the same period": the period the conversation is on; a
    demonstrative before an unlinked word ("that fair value"): a figure it named."""
    points: list[str] = []
    for i, norm in enumerate(norms):
        if used[i] or norm not in (*DEMONSTRATIVES, "same"):
            continue
        k = i + 1
        if k < len(norms) and norms[k] == "same":
            k += 1
        if norm == "same" and i > 0 and norms[i - 1] == "the" and norms[k : k + 1] == ["for"]:
            # "And the same for electric customers?": the calculation just made, of another
            # line. The words name no line.
            used[i - 1] = used[i] = True
            points.append("same")
            continue
        noun = _dated(norms, used, i)
        if noun:
            points.append(f"dated:{noun}")
        if k < len(norms) and norms[k] in _TIME_NOUNS and not any(used[i : k + 1]):
            for j in range(i, k + 1):
                used[j] = True
            points.append("period")
        elif norm != "same" and k < len(norms) and not used[k] and norms[k].isalpha():
            points.append("figure")
    return tuple(dict.fromkeys(points))


_ORDINALS = {"first": "first", "former": "first", "second": "second", "latter": "second"}
_FIGURE_NOUNS = _GENERIC | {"one"}


def _pair(norms: Sequence[str], used: list[bool], whole_from: int | None) -> tuple[str, ...]:
    """Two earlier figures named at once: "the first ... the second", "the former ... the
    latter", or "this value ... that amount". Ordered part first: the one right after a
    denominator phrase is the whole, else the order asked."""
    found: list[tuple[int, int, str]] = []  # (start, end, name)
    for i, norm in enumerate(norms):
        following = norms[i + 1] if i + 1 < len(norms) else ""
        # An operator word after the ordinal may be taken already ("the first divided by").
        if used[i] or (i + 1 < len(norms) and used[i + 1] and following not in _OPERATOR_STARTS):
            continue
        if norm in _ORDINALS and i > 0 and norms[i - 1] == "the" and following not in _TIME_NOUNS:
            if following in _FIGURE_NOUNS:
                found.append((i - 1, i + 2, _ORDINALS[norm]))
            elif not following.isalpha() or following in _AFTER_PRONOUN or following in _VERBS:
                found.append((i - 1, i + 1, _ORDINALS[norm]))
        elif norm in ("this", "that") and following in _FIGURE_NOUNS:
            found.append((i, i + 2, norm))
    dated = _by_year(norms, used)
    if len(dated) == 2:
        found = dated
    names = {name for _, _, name in found}
    if len(found) != 2 or not (names in ({"first", "second"}, {"this", "that"}) or
                               names <= {"this", "that"} or dated == found):  # fmt: skip
        return ()
    if whole_from is not None and found[0][0] >= whole_from:
        found.reverse()  # "of this value does that amount represent": that is the part
    for start, end, _ in found:
        used[start:end] = [True] * (end - start)
    return tuple(name for _, _, name in found)


_VERBS = lexicon("represent represents did does was is were")


def _by_year(norms: Sequence[str], used: list[bool]) -> list[tuple[int, int, str]]:
    """ "The 2019 percentage and this 2018 one": earlier results named by role and year,
    each named "@<year>:<role>" (the role of the one that says it, for "one")."""
    found: list[tuple[int, int, str]] = []
    for i in range(len(norms) - 2):
        year, noun = norms[i + 1], norms[i + 2]
        if norms[i] not in ("the", "this", "that") or used[i] or (used[i + 2] and noun not in _ONE):
            continue
        if not (used[i + 1] and year[:1].isdigit()):
            continue
        role = ROLE_NOUNS.get(noun, "")
        if (role and role != "result") or noun in _ONE:
            found.append((i, i + 3, f"@{year}:{role}"))
    roles = {name.split(":")[1] for _, _, name in found} - {""}
    if len(found) != 2 or len(roles) != 1:
        return []
    (role,) = roles
    return [(start, end, f"{name.split(':')[0]}:{role}") for start, end, name in found]


def _generic(norms: Sequence[str], used: list[bool], whole_from: int) -> tuple[str, int | None]:
    """ "Does that amount represent in relation to this purchase price": a demonstrative and
    a generic noun beside a denominator phrase name an earlier figure ("figure"); the
    adjectives of a figure may stand between ("this total amount")."""
    for i, norm in enumerate(norms[:-1]):
        if norm not in ("this", "that") or used[i]:
            continue
        k = i + 1
        while k < len(norms) - 1 and norms[k] in _ADJECTIVES and not used[k]:
            k += 1
        if norms[k] in _GENERIC and not any(used[i : k + 1]):
            used[i : k + 1] = [True] * (k + 1 - i)
            return "figure", i
    return "", None


def counted(norms: Sequence[str]) -> int:
    """How many periods or figures on hand a question counts: "both years", "the two years",
    "all 3 years", "those three values", "the last 4 periods" (0: none). "The 3 year period
    from 2017 to 2019" describes the range it names and counts nothing."""
    for i, norm in enumerate(norms):
        if norm == "both" and i + 1 < len(norms) and norms[i + 1] in _COUNTED_NOUNS:
            return 2
        if (
            norm in ("these", "those", "both", "the", "all", "last")
            and i + 2 < len(norms)
            and norms[i + 1] in COUNTS
            and norms[i + 2] in _COUNTED_NOUNS
            and not _describes_a_span(norms, i + 3)
        ):
            return COUNTS[norms[i + 1]]
    return 0


def _describes_a_span(norms: Sequence[str], at: int) -> bool:
    return at < len(norms) and norms[at] in _TIME_NOUNS


_NUMBER_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
COUNTS = {
    **{str(n): n for n in range(2, 11)},
    **dict(zip(_NUMBER_WORDS, range(2, 11), strict=True)),
}


def _dated(norms: Sequence[str], used: list[bool], i: int) -> str:
    """ "This 2017 total", "those spendings in 2013": a demonstrative naming a figure by its
    year, one the conversation may already have given. The noun it is named by, or ""."""
    if norms[i] not in DEMONSTRATIVES:
        return ""
    rest = list(zip(norms[i + 1 : i + 4], used[i + 1 : i + 4], strict=False))
    year = [n[:1].isdigit() and u for n, u in rest]
    if len(rest) >= 2 and year[0] and rest[1][0].isalpha() and not rest[1][1]:
        return rest[1][0]  # "this 2017 total"
    if len(rest) == 3 and rest[0][0].isalpha() and not rest[0][1]:
        return rest[0][0] if rest[1][0] == "in" and year[2] else ""  # "those costs in 2013"
    return ""


def _names_the_base(norms: Sequence[str], used: list[bool], end: int) -> bool:
    """After a denominator phrase, only words for the starting figure ("the original
    value"), no figure or period of its own."""
    rest = [(n, u) for n, u in zip(norms[end:], used[end:], strict=True)]
    if any(u for _, u in rest):
        return False
    words = {n for n, _ in rest} - {"the", "a", "an", "its", "it"}
    if not (words & _BASE_WORDS and words <= _BASE_WORDS | _GENERIC):
        return False
    used[end:] = [True] * (len(norms) - end)
    return True


def _asks_value(norms: Sequence[str], used: list[bool]) -> bool:
    """ "The 2008 value", "the value in 2011": a figure itself, when no operation word is
    there; an elliptical "and in 2008?" still continues a calculation."""
    free = {n for n, u in zip(norms, used, strict=True) if not u}
    if free & _OPERATION_HINTS:
        return False
    return any(n in _GENERIC for n in free)


_NET = normalise_word("net")
_ONE = frozenset({"one", normalise_word("ones")})
_ONE_AFTER = lexicon("total other same former latter which")
_RATE_OF = lexicon("growth change increase decrease")
_EACH = lexicon("per each every a")
_PAIR_NOUNS = lexicon("values years periods amounts figures dates numbers")
_COUNTED_NOUNS = _PAIR_NOUNS | lexicon("quarter")


def _operation_words(norms: Sequence[str], used: list[bool]) -> None:
    """Words that belong to the operation, not to a metric: "net" in "the net change", and
    "these two values" / "those two years" (the operands the conversation carries)."""
    for i, norm in enumerate(norms):
        following = norms[i + 1] if i + 1 < len(norms) else ""
        if norm in _ONE and i > 0 and (used[i - 1] or norms[i - 1] in _ONE_AFTER):
            used[i] = True  # "this 2002 one", "the total one": the figure named, again
        if norm == _NET and following in _CHANGE_WORDS and not used[i]:
            used[i] = True
        if norm in _RATE_OF and following == "rate" and not used[i + 1]:
            used[i + 1] = True  # "the growth rate": a percent change, not a metric's rate
        if norm in ("these", "those", "the") and following == "two" and not used[i]:
            after = norms[i + 2] if i + 2 < len(norms) else ""
            if after in ("", "in", "for", "of", "and", "combined", "together"):
                used[i : i + 2] = [True, True]  # "the sum of the two": the figures on hand
        if (
            norm in ("these", "those", "both", "the", "all", "last")
            and following in COUNTS
            and i + 2 < len(norms)
            and norms[i + 2] in _PAIR_NOUNS
            and not _describes_a_span(norms, i + 3)
            and not any(used[i : i + 3])
        ):
            used[i : i + 3] = [True, True, True]


_MINUS = lexicon("less minus")


def _minus_between(norms: Sequence[str], used: list[bool]) -> bool:
    """ "Revenue less net income": "less" or "minus" between two figures' words (not "less
    than", not before a number, which is a constant)."""
    for i in range(1, len(norms) - 1):
        following, before = norms[i + 1], norms[i - 1]
        minus = norms[i] in _MINUS and not used[i] and following not in ("than", "")
        if minus and following[0].isalpha() and not used[i - 1] and before.isalpha():
            used[i] = True
            return True
    return False


def _minus_before(norms: Sequence[str], used: list[bool], end: int) -> int | None:
    """Where "less" or "minus" stands between two figures before the denominator phrase at
    `end` (not "less than", not before a number: that is a constant, read already). The
    word is taken."""
    for i in range(1, end - 1):
        following = norms[i + 1]
        if norms[i] in _MINUS and not used[i] and following != "than" and following[0].isalpha():
            used[i] = True
            return i
    return None


def _minuend_is_base(norms: Sequence[str], minus: int, end: int) -> bool:
    """Whether the year named after the denominator phrase is the one named before the
    minus word, not after it."""
    base = next((n for n in norms[end:] if _YEAR.fullmatch(n)), None)
    before = [n for n in norms[:minus] if _YEAR.fullmatch(n)]
    after = [n for n in norms[minus:end] if _YEAR.fullmatch(n)]
    return base is not None and base in before and base not in after


_YEAR = re.compile(r"(?:19|20)\d{2}")


_FILLER = lexicon("and so then what whats what's is was the its their it s")


def _per_period(norms: Sequence[str], used: list[bool]) -> bool:
    """ "The average per year", "the average between them", or "average?" on its own: an
    average taken over what the conversation holds, its words no metric's."""
    averages = [i for i, n in enumerate(norms) if n in AVERAGE_WORDS and not used[i]]
    bare = all(n in _FILLER or n in AVERAGE_WORDS for n in norms)
    if len(averages) == 1 and bare:
        used[averages[0]] = True
        return True
    for i in range(len(norms) - 2):
        per = norms[i + 1] in _EACH and norms[i + 2] in _TIME_NOUNS
        them = norms[i + 1] in ("between", "of") and norms[i + 2] in _THEM
        if norms[i] in AVERAGE_WORDS and (per or them) and not any(used[i : i + 3]):
            used[i : i + 3] = [True, True, True]
            return True
    return False


_THEM = frozenset({"them", "both", "these", "those"})
_SUM_PAIRS = {("combined", "total"), ("total", "combined"), ("total", "sum"), ("sum", "total")}


def _sum_words(norms: Sequence[str], used: list[bool]) -> bool:
    """ "The combined total", "the total sum": one sum said in two words, neither a label's;
    "the total over those years", "the total for the three years": a sum over periods."""
    for i in range(len(norms) - 1):
        if (norms[i], norms[i + 1]) in _SUM_PAIRS and not any(used[i : i + 2]):
            used[i : i + 2] = [True, True]
            return True
        # "The change in that total over the year": a figure given, not a sum over years.
        pointed = i > 0 and norms[i - 1] in ("that", "this")
        if (
            norms[i] in ("total", "sum")
            and not used[i]
            and not pointed
            and _over_periods(norms, i + 1)
        ):
            used[i] = True
            return True
    return False


def _over_periods(norms: Sequence[str], at: int) -> bool:
    """ "over those years", "for the three years", "across all 3 years" from `at`."""
    rest = list(norms[at : at + 4])
    if len(rest) < 3 or rest[0] not in ("over", "for", "across", "of", "in"):
        return False
    if rest[1] not in ("those", "these", "the", "all", "both"):
        return False
    noun = rest[3] if len(rest) > 3 and rest[2] in COUNTS else rest[2]
    return noun in _TIME_NOUNS


def _including(norms: Sequence[str], used: list[bool]) -> int | None:
    """ "the sum including X", "that total including X": X is added to an earlier sum (a
    label may hold the word too: "cash including restricted cash")."""
    sums = any(n in ("sum", "total") and not u for n, u in zip(norms, used, strict=True))
    for i, norm in enumerate(norms):
        if norm == "including" and not used[i] and sums:
            used[i] = True
            return i
    return None


def free_sum(norms: Sequence[str], used: list[bool]) -> bool:
    """A sum or total word the question still holds ("the sum including ...")."""
    for i, norm in enumerate(norms):
        if norm in ("sum", "total") and not used[i]:
            used[i] = True
            return True
    return False


_CHANGE_WORDS = lexicon("change difference increase decrease growth variation")
# "The rise in 2021 over 2020" is as much a change set against a base as "the increase" is.
# Nouns that also name line items ("gain", "decline in value", "movement") are left out:
# the grammar reads before the lines are linked.
_CHANGE_NOUNS = _CHANGE_WORDS | lexicon("rise increment")
_OPERATION_HINTS = (
    _CHANGE_WORDS | PERCENT_WORDS | AVERAGE_WORDS | _PRODUCT
    | lexicon("ratio sum total combined growth cagr")
)  # fmt: skip


def _denominator(norms: Sequence[str], used: list[bool]) -> tuple[int, bool] | None:
    """Where the first denominator phrase ends, and whether it is a percent phrase."""
    found: tuple[int, bool] | None = None
    for start in range(len(norms)):
        over = norms[start] == "over" and not used[start]
        if over and _opens_a_span(norms, used, start + 1):
            continue  # "the total over 2019 to 2021": the span summed, not a divisor
        if over and (_period_follows(norms, used, start + 1) or _figure_over(norms, start)):
            used[start] = True  # "the net change over the 2008 value", "R&D over revenue"
            return start + 1, False
        if norms[start] == "to" and not used[start] and _a_ratio_of_before(norms, start):
            used[start] = True  # "the ratio of subscriptions to that": the whole after "to"
            return start + 1, False
        for phrase in _DENOMINATOR_AT.get(norms[start], ()):
            end = _phrase_end(norms, used, start, phrase)
            if end is not None and _what_moved(norms[:start]):
                break  # "the change in that percentage of bbb ratings": not a share to take
            if end is not None:
                for i in range(start, end):
                    used[i] = True
                # Of two ("the proportion of X as a percentage of Y"), the last names the whole.
                percent = bool(set(phrase) & _IN_PERCENT) or bool(found and found[1])
                found = (end, percent)
                break
    return found


def _a_ratio_of_before(norms: Sequence[str], at: int) -> bool:
    """Whether "ratio of" stands before `at` with no other "to" between them."""
    for i in range(at - 1, 0, -1):
        if norms[i] == "to":
            return False
        if norms[i] == "of" and norms[i - 1] == _RATIO_WORD:
            return True
    return False


_RATIO_WORD = normalise_word("ratio")


def _what_moved(before: Sequence[str]) -> bool:
    """Whether the words before a phrase say it names what changed: "the change in (that)"."""
    words = [w for w in before if w not in _POINTING]
    return len(words) >= 2 and words[-1] == "in" and words[-2] in _MOVES


_POINTING = lexicon("the that this those these its")
_MOVES = lexicon("change changes difference variation increase decrease")


# Words after "over" that make it a span of time, not a division ("over the years").
_OVER_TIME = lexicon("the a an this that these those time last past prior previous next")


def _figure_over(norms: Sequence[str], at: int) -> bool:
    """ "Net income over revenue", "that over revenue": "over" between two figures' words
    (or a result's pronoun and a figure's word) is a division."""
    before = norms[at - 1] if at > 0 else ""
    after = norms[at + 1] if at + 1 < len(norms) else ""
    # "That over net income": a pronoun for the last result, set over a figure.
    result = before in ("this", "that", "it")
    words = before.isalpha() and after.isalpha() and (before not in _OVER_TIME or result)
    if words and after == "the" and at + 2 < len(norms) and norms[at + 2] in _RESULT_NOUNS:
        return True  # "that value over the sum of both": a result set over another
    if _counts_time(norms, at + 1):
        return False  # "the total over both years", "over two years"
    return words and after not in _OVER_TIME and after not in _TIME_NOUNS


# Words that count or point at periods before their noun ("both years", "all three years").
_COUNTING = lexicon("both all each every of one two three four five ten")


def _counts_time(norms: Sequence[str], at: int) -> bool:
    """Whether the words from `at` count periods: counting or pointing words, then a time
    noun ("both years", "each of the last two years")."""
    while at < len(norms) and (norms[at] in _COUNTING or norms[at] in _OVER_TIME):
        at += 1
    return at < len(norms) and norms[at] in _TIME_NOUNS


# Nouns that name a result a conversation computed, never a span of time.
_RESULT_NOUNS = lexicon("sum")


def _phrase_end(
    norms: Sequence[str], used: list[bool], start: int, phrase: tuple[str, ...]
) -> int | None:
    """Where a phrase read from `start` ends, a "then" inside it allowed ("what percentage,
    then, of this value")."""
    at = start
    for k, word in enumerate(phrase):
        if k and at < len(norms) and norms[at] == "then" and not used[at]:
            at += 1
        if at >= len(norms) or norms[at] != word or used[at]:
            return None
        at += 1
    return at


def _period_follows(norms: Sequence[str], used: list[bool], at: int) -> bool:
    return _period_end(norms, used, at) is not None


def _period_end(norms: Sequence[str], used: list[bool], at: int) -> int | None:
    """Where the period read from `at` ends, or None when no period is there."""
    while at < len(norms) and norms[at] in ("the", "this", "that"):
        at += 1
    # A period as read ("2008"; "FY 2021", "fiscal 2021" as two words): used, and a number
    # there. "The last 3 years" counts back, naming no one period.
    if at >= len(norms) or not used[at] or norms[at] in _OVER_TIME:
        return None
    word, after = norms[at], norms[at + 1] if at + 1 < len(norms) else ""
    if word[0].isdigit():
        return at + 1
    return at + 2 if used[at + 1 : at + 2] == [True] and after[:1].isdigit() else None


# Words that join two periods into one span ("2019 to 2021", "2019 and 2020") or set one
# against the other ("2019 versus 2021"): either way the two periods are the question's time.
_SPAN_JOINERS = lexicon("to through thru until till and versus vs")


def over_a_span(norms: Sequence[str], used: list[bool]) -> bool:
    """Whether the question takes its figures "over" a span of periods ("over the three
    years", "over 2019 and 2020", "over 2019 to 2021"): several periods as one stretch."""
    return any(
        norm == "over" and not used[i] and (_opens_a_span(norms, used, i + 1)
                                            or _counts_time(norms, i + 1))
        for i, norm in enumerate(norms)
    )  # fmt: skip


def _opens_a_span(norms: Sequence[str], used: list[bool], at: int) -> bool:
    """ "Over 2019 to 2021", "over 2019 and 2020", "over 2019-2020": "over" introducing
    two periods joined as one span says when, not what to divide by; a divisor is one
    figure ("the change over the 2019 value")."""
    end = _period_end(norms, used, at)
    if end is None:
        return False
    if end < len(norms) and norms[end] in _SPAN_JOINERS and not used[end]:
        end += 1
    return _period_follows(norms, used, end)


def _constants(norms: Sequence[str], used: list[bool]) -> tuple[tuple[str, ...], str]:
    """Numbers that are operands ("less 100", "a base of 100"), not periods."""
    found: list[str] = []
    operation = ""
    for i, norm in enumerate(norms):
        spelled = _SPELLED.get(norm, "") if not used[i] else ""
        if used[i] or not (norm[0].isdigit() or spelled):
            continue
        j = i - 1
        while j >= 0 and (norms[j] in _CONSTANT_FILLER or (spelled and norms[j] == _NUMBER)):
            j -= 1
        word = norms[j] if j >= 0 else ""
        if word == "and" and not used[j]:
            # "the difference between this value and 1": the operation named before the pair.
            word = _operation_before(norms, used, j)
        if spelled:
            if word not in _CONSTANT_OPERATORS or (i + 1 < len(norms) and norms[i + 1].isalpha()):
                continue  # "this one", "plus one-time items": a word, not a constant
            norm = spelled
        after = j == i - 1 and i + 1 < len(norms) and norms[i + 1] == _TIMES and not used[i + 1]
        if word not in _CONSTANT_OPERATORS and after:
            # "1000 times the number of votes": the operator said after its constant.
            word, j = _TIMES, i
        if word not in _CONSTANT_OPERATORS and _a_base(norms, j, i):
            word = "base"  # "assuming a $100 initial investment": the base taken off
        if word not in _CONSTANT_OPERATORS or (word == "over" and j != i - 1):
            continue
        if i + 1 < len(norms) and norms[i + 1] in _TIME_NOUNS:
            continue  # "over the 3 year period": a span, not an operand
        value = norm.replace(",", "")
        try:
            Decimal(value)
        except InvalidOperation:
            continue
        if j < i and j >= 1 and norms[j - 1][0].isdigit() and not used[j - 1] and not found:
            found.append(norms[j - 1].replace(",", ""))  # "45 times 4": both are operands
            used[j - 1] = True
        found.append(value)
        operation = operation or _CONSTANT_OPERATORS[word]
        # The constant's own noun ("an initial $100 investment") goes with it.
        last = i + 1 if i + 1 < len(norms) and norms[i + 1].isalpha() else i
        if last > i and norms[last] in _BASE_ADJECTIVES and last + 1 < len(norms):
            last += int(norms[last + 1].isalpha())  # "a $100 initial investment"
        for k in range(j, last + 1):
            used[k] = True
    return tuple(found), operation


_BASE_ADJECTIVES = lexicon("initial base starting")
# Numbers spelled out, read as constants only right after an operator ("minus one", "the
# difference between that and the number one"); elsewhere "one" is a pronoun.
_SPELLED = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "ten": "10",
            "hundred": "100"}  # fmt: skip
_NUMBER = normalise_word("number")
# "The difference between X and 1", "the sum of X and 50": the operation word before "and".
_PAIRED_OPERATIONS = {
    normalise_word("difference"): normalise_word("less"),
    normalise_word("sum"): normalise_word("plus"),
    normalise_word("product"): normalise_word("times"),
}


def _operation_before(norms: Sequence[str], used: list[bool], at: int) -> str:
    """The operator word a constant after "and" takes: the operation named before the pair
    ("the difference between ... and"), as one of the constant operators; "" when none, or
    when a number stands before "and" too."""
    for k in range(at - 1, -1, -1):
        if norms[k] in _PAIRED_OPERATIONS and not used[k]:
            paired = k + 1 < len(norms) and norms[k + 1] in ("between", "of")
            # Numbers on both sides are labels ("between 1-90 and 91-180 days"), not a figure
            # and a constant.
            if paired and not any(n[0].isdigit() for n in norms[k + 2 : at]):
                return _PAIRED_OPERATIONS[norms[k]]
            return ""
    return ""


_TIMES = normalise_word("times")


def _a_base(norms: Sequence[str], before: int, at: int) -> bool:
    """A number said to be the starting amount ("an initial $100", "a $100 initial
    investment", "a base of 100"): in a performance table the base the change is taken from."""
    around = {*norms[before + 1 : at], *norms[at + 1 : at + 2]}
    return bool(around & _BASE_ADJECTIVES)


def _referent(norms: Sequence[str], used: list[bool], constants: bool) -> tuple[str, int | None]:
    """An earlier result named as an operand: a demonstrative and a role noun ("that net
    change", "this total"), or a bare pronoun ("what percentage does this represent?")."""
    for i, norm in enumerate(norms):
        if used[i] or norm not in PRONOUNS:
            continue
        k = i + 1
        while k < len(norms) and norms[k] in _ADJECTIVES and not used[k]:
            k += 1
        after = norms[k] if k < len(norms) else ""
        whole = i > 0 and used[i - 1]  # right after a phrase the grammar took ("portion of")
        if whole and k > i + 1 and norms[k - 1] in ROLE_NOUNS and after in _AFTER_PRONOUN:
            # "What portion of that total is gas?": the adjective was the noun. ("The change
            # in that total" names the line the total is, not a result.)
            k -= 1
        following = norms[k] if k < len(norms) else ""
        named = ROLE_NOUNS.get(following) or (
            "result" if constants and following in _GENERIC else ""
        )
        if norm not in _SINGLE and named and not used[k]:
            for j in range(i, k + 1):
                used[j] = True
            return named, i
        if k == i + 1 and following in _AFTER_PRONOUN:
            used[i] = True
            return "result", i
    return _the_role(norms, used)


def _the_role(norms: Sequence[str], used: list[bool]) -> tuple[str, int | None]:
    """ "The sum divided by 2", "the difference over the 2015 value": a role noun with "the"
    right before an operator the grammar read names the earlier result, as "that sum" does."""
    for i, norm in enumerate(norms[:-2]):
        if norm != "the" or used[i]:
            continue
        k = i + 1
        while k < len(norms) - 1 and norms[k] in _ADJECTIVES:
            k += 1  # "the net change": "net" may be taken already, as the operation's word
        if k > i + 1 and norms[k] not in ROLE_NOUNS and norms[k - 1] in ROLE_NOUNS:
            k -= 1  # "the total divided by 2": the adjective was the noun
        named = ROLE_NOUNS.get(norms[k], "")
        if named and k + 2 < len(norms) and norms[k + 1] in _AMOUNT_SAID and not used[k + 1]:
            k += 1  # "the total cost divided by 5": the result, said with an amount noun
        following = norms[k + 1] if k + 1 < len(norms) else ""
        operator = (used[k + 1] and following in _OPERATOR_STARTS) if following else False
        operator = operator or following in _DIRECT_OPERATORS
        if named and named != "result" and not used[k] and operator:
            used[i : k + 1] = [True] * (k + 1 - i)
            return named, i
    return "", None


_AMOUNT_SAID = _GENERIC | lexicon("cost")


# Words an operator starts with when it follows its operand ("the sum divided by 2", "the
# change as a percentage of"); not "the average proportion of", an average of proportions.
_OPERATOR_STARTS = lexicon("divided over plus minus less times multiplied as in relative")
# Operator words that need no phrase read around them: "the ratio times the 2011 value".
_DIRECT_OPERATORS = lexicon("plus minus less times")


# A bare pronoun stands for a result when a verb or a function word follows it ("what
# percentage does this represent", "what is that less 100"); before a noun ("this price",
# "that year") it only points at a figure or a period of its own.
_AFTER_PRONOUN = lexicon(
    "represent represents is was be as in of to plus less minus times divided over compared"
    " than and by when if then"
) | {""}


_NOT_ALONE = lexicon("times base initial divided over")


def _operator_word(norms: Sequence[str], used: list[bool]) -> str | None:
    for i, norm in enumerate(norms):
        # "times" alone is also "during this time": only "plus", "less", "minus" ... here.
        after_referent = i > 0 and used[i - 1] and norms[i - 1] in ROLE_NOUNS
        if (
            not used[i]
            and norm in _CONSTANT_OPERATORS
            and (norm not in _NOT_ALONE or (after_referent and norm in _DIRECT_OPERATORS))
        ):
            used[i] = True
            return _CONSTANT_OPERATORS[norm]
    return None


def _asks_product(norms: Sequence[str], used: list[bool]) -> bool:
    """ "The product of", "multiplied by": never the word alone ("product revenue")."""
    for i, norm in enumerate(norms[:-1]):
        if not used[i] and norm in _PRODUCT and norms[i + 1] in ("of", "by"):
            # The operation's words name no line and are no word linked to nothing.
            used[i] = used[i + 1] = True
            return True
    return False


def _outer_is_sum(norms: Sequence[str], used: list[bool]) -> bool:
    """ "The sum of the average X": a sum word before an average word is the outer sum."""
    first_sum = next((i for i, n in enumerate(norms) if n in _SUM_FIRST and not used[i]), None)
    first_average = next(
        (i for i, n in enumerate(norms) if n in AVERAGE_WORDS and not used[i]), None
    )
    return first_sum is not None and first_average is not None and first_sum < first_average


# -- computing -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Operand:
    """One operand of a computation: a fact, an earlier result or a constant."""

    label: str  # "Company's revenue in FY2016", "the change from your 3rd question", "100"
    value: Decimal
    unit: str  # "" for a constant: it takes the other operand's unit
    sources: tuple[str, ...] = ()
    role: str = "fact"  # fact, constant, or the role of an earlier result

    @classmethod
    def constant(cls, text: str) -> Operand:
        return cls(text, Decimal(text), "", (), "constant")

    @classmethod
    def of_figure(cls, figure: Figure, where: str) -> Operand:
        role = figure.role_or_kind
        label = f"the {role} {where}" if role != "fact" else f"{figure.label.strip()} {where}"
        return cls(label, figure.value, figure.unit, figure.sources, role)

    def written(self) -> str:
        shown = format_value(self.value, self.unit) if self.unit else str(self.value)
        if self.role == "constant":
            return shown
        cited = f" [{', '.join(self.sources)}]" if self.sources else ""
        return f"{self.label} ({shown}){cited}"


ROLES = {
    "difference": "change",
    "percent_change": "percent change",
    "ratio": "ratio",
    "percent_of": "share",
    "sum": "sum",
    "average": "average",
    "product": "product",
}
_SIGNS = {"difference": " − ", "ratio": " ÷ ", "percent_of": " ÷ ", "sum": " + ",
          "product": " × "}  # fmt: skip


def combine(operation: str, operands: Sequence[Operand]) -> Figure | None:
    """The computed figure, or None when these operands cannot be combined that way (units
    that differ, a zero denominator, an operation the grammar has no reading for)."""
    if len(operands) < 2 or operation not in ROLES:
        return None
    # A number computed from constants alone ("45 times 4") is as unitless as a constant.
    units = {o.unit for o in operands if o.role != "constant" and (o.unit or o.sources)}
    if operation == "product" and len(units - {""}) <= 1:
        # "Gallons consumed (millions) times the price per gallon": an amount without a
        # scale multiplies one with it, and the product is in that scale.
        units = units - {""} or units
    unit = next(iter(units)) if len(units) == 1 else ""
    with localcontext() as ctx:
        ctx.prec = 34
        try:
            result = _value(operation, _in_one_scale(operation, operands, units), units)
        except (DivisionByZero, InvalidOperation):
            return None
    if result is None:
        return None
    role = ROLES[operation]
    if operation == "ratio" and operands[-1].role == "constant" and unit:
        # An amount divided by a number ("the sum divided by 2") is still an amount.
        value, role = _round(result), "quotient"
    else:
        value, unit = _unit(operation, result, unit)
    formula = _formula(operation, operands)
    sources = tuple(dict.fromkeys(s for o in operands for s in o.sources))
    return Figure(
        label=role, value=value, unit=unit, kind="computed", sources=sources,
        display=format_value(value, unit), role=role, formula=formula,
    )  # fmt: skip


def _in_one_scale(operation: str, operands: Sequence[Operand], units: set[str]) -> list[Decimal]:
    """The operands' values; a ratio's written out in full when its figures are in different
    scales (`calc.in_full`; a constant keeps its value). Other operations keep the values as
    they are (a sum of different units is no figure)."""
    values = [o.value for o in operands]
    if operation not in ("ratio", "percent_of") or len(units) < 2:
        return values
    scaled = in_full(values, [o.unit for o in operands])
    kept = zip(values, scaled, operands, strict=True)
    return [value if o.role == "constant" else full for value, full, o in kept]


def _value(operation: str, values: list[Decimal], units: set[str]) -> Decimal | None:
    if operation in ("ratio", "percent_of"):
        if len(values) != 2 or values[1] == 0:
            return None
        return values[0] / values[1]
    if len(units) > 1:
        return None  # adding or subtracting amounts of different units
    if operation == "sum":
        return sum(values, Decimal(0))
    if operation == "average":
        return sum(values, Decimal(0)) / len(values)
    if operation == "product":
        product = Decimal(1)
        for value in values:
            product *= value
        return product
    if len(values) != 2:
        return None
    if operation == "difference":
        return values[0] - values[1]
    if operation == "percent_change":
        return None if values[0] == 0 else (values[1] - values[0]) / abs(values[0]) * 100
    return None


def _unit(operation: str, value: Decimal, unit: str) -> tuple[Decimal, str]:
    if operation == "ratio":
        return _round(value), RATIO_UNIT
    if operation == "percent_of":
        return _round(value * 100), PERCENT_UNIT
    if operation == "percent_change":
        return _round(value), PERCENT_UNIT
    return _round(value), unit


def _formula(operation: str, operands: Sequence[Operand]) -> str:
    if operation == "percent_change":
        first, second = operands[0].written(), operands[1].written()
        return f"({second} − {first}) ÷ {first} × 100"
    if operation == "average":
        return f"({' + '.join(o.written() for o in operands)}) ÷ {len(operands)}"
    text = _SIGNS[operation].join(o.written() for o in operands)
    return f"{text} × 100" if operation == "percent_of" else text


def _round(value: Decimal) -> Decimal:
    rounded = value.quantize(_PLACES)
    return rounded.normalize() if rounded != rounded.to_integral() else rounded.to_integral()


# -- a result restated in another scale -------------------------------------------------------
_ASKED_SCALE = re.compile(
    r"\bin\s+(?:full\s+|whole\s+|plain\s+)?(thousands|millions|billions|dollars)\b", re.IGNORECASE
)


def asked_scale(question: str) -> str | None:
    """The scale a question asks a figure in ("in millions": "million"; "in dollars": "",
    units), or None when it names none."""
    found = _ASKED_SCALE.search(question)
    if found is None:
        return None
    word = found.group(1).lower()
    return "" if word == "dollars" else word.removesuffix("s")


def restated(figure: Figure, scale: str) -> Figure | None:
    """The same amount written in another scale (1,199,550 thousand is 1,199.55 million), or
    None when the figure is not an amount in a known scale (a percent, a ratio, a currency
    the engine already writes at its own size)."""
    if figure.unit not in SCALES or (scale and scale not in SCALES) or scale == figure.unit:
        return None
    value = figure.value * SCALES[figure.unit] / (SCALES[scale] if scale else 1)
    value = _round(value)
    formula = f"{figure.display} = {format_value(value, scale)}"
    return Figure(
        label=figure.role or "result", value=value, unit=scale, kind="computed",
        sources=figure.sources, display=format_value(value, scale), role=figure.role or "result",
        formula=formula,
    )  # fmt: skip
