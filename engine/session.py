"""ConversationSession: slots carried forward from earlier *parsed questions*, never from answers.

A session remembers, for each earlier question, what it resolved to (entity, metric, periods,
operation) and its answer. When the current question leaves a slot open ("and in FY2022?",
"what about Microsoft?", "what was the change?", "in percent?"), the session fills it from the
most recent question that had it and reports each filled slot as a Carried value. The answer
text is kept only to rebuild the flat history list, which is generation context; no slot is
ever read from it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from engine.arithmetic import ROLE_NOUNS, ROLES, asked_scale, restated
from engine.intent import Ambiguity, Intent
from engine.parser import (
    CLOSING_MOMENT,
    COMPARING,
    HIGHER_OR_LOWER,
    OPENING_MOMENT,
    SAID_IN_POINTS,
    SECURITY_MEASURES,
    SUM,
    asks_which_company,
    names_a_security,
)
from engine.text import lexicon, normalise_word, words
from engine.timeframe import period_sort_key
from engine.types import Answer, Carried, Figure

_CHANGES = ("difference", "percent_change")
# What is left of a whole once a share of it is taken ("and the rest?").
_REST = frozenset({"rest", "remainder", "remaining"})
_YEAR = re.compile(r"FY\d{4}")
_BRACKETED = re.compile(r"\([^()]*\)")
SCOPE = "the conversation's scope"


@dataclass(frozen=True, slots=True)
class Remembered:
    """One earlier question: its text, what it resolved to, and the answer given."""

    question: str
    intent: Intent
    answer_text: str = ""
    status: str = ""
    # The answer's figures, each with its role: the results a later question may name.
    results: tuple[Figure, ...] = ()


class ConversationSession:
    def __init__(self, *, scope: str | None = None, turns: Iterable[Remembered] = ()) -> None:
        self.scope = scope
        self.turns: list[Remembered] = list(turns)

    def history(self) -> list[tuple[str, str]]:
        """The flat (role, text) history of the remembered turns, oldest first."""
        flat: list[tuple[str, str]] = []
        for turn in self.turns:
            flat.append(("user", turn.question))
            if turn.answer_text:
                flat.append(("assistant", turn.answer_text))
        return flat

    def remember(self, question: str, intent: Intent, answer: Answer) -> None:
        results = answer.figures if answer.status == "found" else ()
        self.turns.append(Remembered(question, intent, answer.text, answer.status, results))

    def company(self) -> str | None:
        """The one company the conversation is about: its scope, else the one company the
        latest question that named any resolved to (a slot, never answer text)."""
        if self.scope:
            return self.scope
        entities = self._carry("entities", [], "entity")
        return entities[0] if len(entities) == 1 else None

    def _against_another_line(self, intent: Intent, carried: list[Carried]) -> Intent:
        """ "How does that compare to its capex?" right after R&D expense: the line on hand
        set beside the one named, in the period on hand; "and of total assets?" right after a
        share of revenue: the same part, of the new whole."""
        last = self.turns[-1] if self.turns else None
        if last is None or last.status != "found" or len(intent.metrics) != 1 or intent.periods:
            return intent
        if intent.entities or intent.referent or intent.pair or intent.constants:
            return intent
        source, named = last.intent, intent.metrics[0]
        said = words(intent.question)
        opens_of = said[:2] == ["and", "of"] or said[:1] == ["of"]
        if opens_of and intent.operation is None and source.operation in _SHARES:
            part = source.metrics[0] if len(source.metrics) == 2 else ""
            if part and named not in source.metrics:
                carried.append(
                    Carried("operation", source.operation, len(self.turns), last.question)
                )
                carried.append(Carried("metric", part, len(self.turns), last.question))
                return intent.with_(
                    metrics=(part, named), operation=source.operation, kind="comparison"
                )
        one_period = len(source.periods) == 1
        compares = not COMPARING.isdisjoint(said)
        if (
            compares
            and intent.operation == "higher"
            and len(source.metrics) == 1
            and not source.operation
        ):
            line = source.metrics[0]
            if line != named and one_period:
                number = len(self.turns)
                carried.append(Carried("metric", line, number, last.question))
                carried.append(Carried("period", source.periods[0], number, last.question))
                return intent.with_(
                    metrics=(line, named), periods=source.periods, kind="comparison"
                )
        return intent

    def _against_another_company(
        self, intent: Intent, entities: tuple[str, ...], carried: list[Carried]
    ) -> tuple[str, ...]:
        """ "How does it compare with Microsoft's?" right after Apple's net income: the
        figure on hand set against the named company's, both taken; not the named company's
        alone, which has nothing to be set against."""
        if (
            len(intent.entities) != 1
            or intent.operation not in ("higher", "lower", "difference")
            or intent.metrics
            or intent.periods
            or intent.referent
            or not intent.follow_up
        ):
            return entities
        trial: list[Carried] = []
        before = self._carry("entities", trial, "entity")
        if len(before) != 1 or before[0] == intent.entities[0]:
            return entities
        carried.extend(trial)
        return (before[0], intent.entities[0])

    def _the_steps_again(self, intent: Intent) -> tuple[Intent, tuple[Carried, ...]] | None:
        """ "And in percent?" right after "which year had the biggest increase?": the same
        yearly changes, in percent (or in the amount), the same end of them."""
        last = self.turns[-1] if self.turns else None
        if last is None or not last.intent.of_changes or last.status != "found":
            return None
        if intent.operation not in ("difference", "percent_change") or _names_anything(intent):
            return None
        source = last.intent
        number = len(self.turns)
        carried = (
            *(Carried("entity", e, number, last.question) for e in source.entities),
            *(Carried("metric", m, number, last.question) for m in source.metrics),
            *(Carried("period", p, number, last.question) for p in source.periods),
        )
        return source.with_(question=intent.question, of_changes=intent.operation), carried

    def last_intent(self) -> Intent | None:
        """The latest question as the session resolved it, if any."""
        return self.turns[-1].intent if self.turns else None

    def line_on_hand(self) -> str | None:
        """The one line item the conversation is on: the latest question's that named any."""
        metrics = self._carry("metrics", [], "metric")
        return metrics[0] if len(metrics) == 1 else None

    def resolve(self, intent: Intent) -> tuple[Intent, tuple[Carried, ...]]:
        """Fill the slots the current question leaves open; say which and from where."""
        carried: list[Carried] = []
        rest = self._the_rest(intent)
        if rest is not None:
            return rest
        steps = self._the_steps_again(intent)
        if steps is not None:
            return steps
        if intent.ambiguous and intent.follow_up and _bare_total(intent):
            # "And the total?" right after figures: their sum, not a line with "total" in
            # its label (a total line is asked by its name, or with a period).
            intent = intent.with_(ambiguous=(), operation="sum", kind="comparison")
        if intent.ambiguous and intent.referent:
            intent = self._settled_by_result(intent)
        # "That fair value", or "the 2014 value" with no word of a figure of its own.
        pointing = "figure" in intent.points_back or (intent.asks_value and not intent.topic)
        if intent.ambiguous and pointing:
            intent = self._settled_by_conversation(intent, carried)
        if intent.ambiguous:
            intent = self._settled_by_figure_on_hand(intent, carried)
        if intent.ambiguous and intent.operation in _CHANGES:
            intent = _a_balances_change(intent)
        if intent.ambiguous and intent.follow_up and _elliptical(intent.question):
            intent = self._settled_by_the_line_on_hand(intent, carried)
        if intent.ambiguous:
            intent = self._settled_by_reply(intent)
        if intent.kind == "unsupported" or intent.ambiguous:
            return intent, ()
        if "figure" in intent.points_back and len(intent.metrics) == 1 and not intent.referent:
            intent = self._named_again(intent, carried)
        if intent.again and intent.periods and not intent.metrics:
            return self._again(intent)
        if _repeats(intent):
            return self._given_again(intent)
        side_by_side = self._results_side_by_side(intent) or self._side_by_side(intent)
        if side_by_side is not None:
            return side_by_side
        across = not intent.entities and asks_which_company(intent)  # "which company had ..."
        entities = intent.entities or (() if across else self._carry("entities", carried, "entity"))
        entities = self._against_another_company(intent, entities, carried)
        intent = self._against_another_line(intent, carried)
        if not entities and self.scope:
            entities = (self.scope,)
            carried.append(Carried("entity", self.scope, 0, SCOPE))
        if intent.kind == "narrative":
            return intent.with_(entities=entities), tuple(carried)
        # A reply to a question asked back ("Net income", after "Which figure do you mean?")
        # completes the earlier question, so it leans on it like an elliptical follow-up.
        follow = intent.follow_up or self._picks_the_figure_asked_for(intent)
        metrics = intent.metrics
        on_hand = self._two_on_hand(intent) if follow else None
        if on_hand is not None:
            # "What is the sum?" after two figures asked one by one in the same period.
            metrics, periods = on_hand
            carried[:] = [c for c in carried if c.slot not in ("metric", "period")]
            carried.extend(self._carried_from_answers(metrics, periods))
            return intent.with_(
                entities=entities, metrics=metrics, periods=periods, kind="comparison"
            ), tuple(carried)
        if not metrics and follow and self._restated_in_scale(intent):
            # "How much would that be in millions?" right after a sum: "that" is the sum,
            # restated in the scale asked; its operands are not it. Several results, or one
            # in no scale the engine can convert, and it is asked back.
            last = self.turns[-1]
            computed = [f for f in last.results if f.kind == "computed"]
            scale = asked_scale(intent.question)
            if len(computed) != 1 or scale is None or restated(computed[0], scale) is None:
                return intent.with_(entities=entities), tuple(carried)
            number = len(self.turns)
            carried.append(_as_result(number, last, computed[0]))
            restating = intent.with_(entities=entities, operation="restate", kind="comparison")
            return restating, tuple(carried)
        if not metrics and follow:
            metrics = self._carry("metrics", carried, "metric")
        if metrics and not (intent.metrics or intent.referent) and not _asked_of(intent, metrics):
            # "What is the price in 2012?" after a line that names no company or index:
            # its price is another figure, not held. ("That change over this 2021 price"
            # names a result, and the price is the result's own series: ADR 0043.)
            return intent.with_(ambiguous=(Ambiguity("metric", metrics),)), ()
        if "against" in intent.points_back and len(metrics) > 1:
            same = self._calculation_against(intent, metrics, carried)
            if same is not None:
                return same.with_(entities=entities), tuple(carried)
            # "How does that compare with 2023?" after two figures: which one is "that".
            return intent.with_(ambiguous=(Ambiguity("metric", metrics),)), ()
        operation = intent.operation or self._carried_operation(intent, carried, follow)
        periods = intent.periods
        pointed = "period" in intent.points_back
        summed = self._summed() if operation == "average" and follow and not periods else None
        unread = not periods and self._sum_not_given()
        if summed is None and operation == "average" and follow and unread:
            # "The average per year" right after a sum asked and not given: of what is unclear.
            unclear = intent.with_(kind="comparison", operation="average", entities=entities)
            return unclear.with_(referent="?"), tuple(carried)
        if summed is not None and (not metrics or metrics == summed[1]):
            # "The average per year" after a sum: the average of the very figures summed.
            number, metrics, periods = summed
            carried[:] = [c for c in carried if c.slot not in ("metric", "period")]
            carried.extend(Carried("metric", m, number, self.turns[number - 1].question)
                           for m in metrics)  # fmt: skip
            carried.extend(Carried("period", p, number, self.turns[number - 1].question)
                           for p in periods)  # fmt: skip
        elif intent.period_step and not periods:
            periods = self._stepped(intent.period_step, carried)
            if "against" in intent.points_back and len(periods) == 1:
                periods = self._against(periods[0], carried)  # "compared to the year before"
        elif "against" in intent.points_back and len(periods) == 1:
            periods = self._against(periods[0], carried)
        elif not periods and intent.count == 2 and operation not in _SHARES:
            periods = self._two_periods(carried)  # "in those two years", "both years"
        elif not periods and intent.count:
            periods = self._periods_on_hand(intent.count, carried)  # "all 3 years"
        elif not periods and not intent.relative_last and (follow or not metrics or pointed):
            # Set across companies ("the difference between them"), a change is taken in one
            # period: the conversation's.
            across = len(entities) > 1 or len(metrics) > 1
            # With a constant ("the net change assuming a $100 initial investment") one figure
            # is the other operand: it is taken in one period, as a lookup would be.
            one = across or bool(intent.constants)
            periods = self._carry_periods(None if one else operation, carried, metrics)
        elif not periods and not intent.relative_last and _that_change_of(intent, operation):
            # "What was that change for electric customers?": the span the change was over.
            periods = self._periods_of_the_change(carried)
        elif not periods and not intent.relative_last and _in_one_period(operation, metrics):
            # "And total liabilities?", "cost of sales as a % of revenue": a figure named with
            # no period, right after an answer about one period, is asked in that period.
            periods = self._period_just_answered(carried)
        if _than_the_other(intent, operation, periods, follow):
            # "How much higher was it in 2022?" right after that figure in 2020 and in 2022:
            # higher than the other figure on hand, not than the year before 2022.
            trial: list[Carried] = []
            both = self._two_periods(trial, metrics)
            if periods[0] in both:
                periods = both
                carried.extend(trial)
        resolved = intent.with_(
            entities=entities,
            metrics=metrics,
            periods=periods,
            operation=operation,
            kind=_kind(intent, operation, entities, metrics, periods),
            # "And from FY2020?" after a compound growth rate: that rate, from FY2020.
            compounded=intent.compounded
            or (operation != intent.operation and self._last_compounded(operation)),
        )
        if intent.pair and operation in _WITH_OPERANDS:
            return self._with_pair(intent, resolved, carried)
        if intent.referent and operation in _WITH_OPERANDS:
            return self._with_result(intent, resolved, carried)
        if intent.referent and operation == "percent_change":
            return self._change_of_result(intent, resolved, carried)
        if operation == "percent_change" and follow and not (intent.metrics or intent.periods):
            over_base = self._change_over_its_base(resolved, carried)
            if over_base is not None:
                return over_base
        if intent.referent == "change" and operation is None and intent.period_step:
            # "That change" over a year counted from the conversation's: the same change, its
            # two years moved by the step; else which two periods is not known, and one figure
            # of that year is not a change.
            moved = None if intent.periods else self._change_moved(intent.period_step)
            if moved is not None:
                kept = [c for c in carried if c.slot == "entity"]
                return resolved.with_(**moved[0]), (*kept, *moved[1])
            return resolved.with_(referent="?"), tuple(carried)
        return resolved, tuple(carried)

    def _the_rest(self, intent: Intent) -> tuple[Intent, tuple[Carried, ...]] | None:
        """ "And the rest?", "what was the remainder?" right after a share of a whole: the
        whole less the part, in the share's period. Only when the question names no line but
        that whole, and the share was answered."""
        if not self.turns or _REST.isdisjoint(words(intent.question)):
            return None
        last = self.turns[-1]
        asked = last.intent
        shared = asked.operation in _SHARES and len(asked.metrics) == 2
        if not shared or len(asked.periods) != 1 or last.status != "found":
            return None
        part, whole = asked.metrics
        if set(intent.metrics) - {whole} or intent.periods not in ((), asked.periods):
            return None
        number = len(self.turns)
        carried = [Carried("entity", e, number, last.question) for e in asked.entities[:1]]
        carried += [Carried("metric", m, number, last.question) for m in (whole, part)]
        carried.append(Carried("period", asked.periods[0], number, last.question))
        rest = intent.with_(
            kind="comparison", operation="difference", entities=asked.entities,
            metrics=(whole, part), periods=asked.periods, ambiguous=(), qualifiers=(), loose=(),
        )  # fmt: skip
        return rest, tuple(carried)

    def _change_moved(self, step: int) -> tuple[dict[str, object], list[Carried]] | None:
        """ "And the subsequent year, what was that change?": the latest change an answer
        gave, of one figure between two whole years, taken again between the years `step`
        later (or earlier): the same figure, the same span, moved. None when the change was
        not of one figure between two years."""
        found = self._result("change")
        if not isinstance(found, tuple):
            return None
        number, turn, figure = found
        source = turn.intent
        years = sorted(source.periods, key=period_sort_key)
        if source.operation != "difference" or len(source.metrics) != 1 or len(years) != 2:
            return None
        if not all(_YEAR.fullmatch(p) for p in years) or figure.role_or_kind != "change":
            return None
        moved = tuple(f"FY{int(p[2:]) + step}" for p in years)
        carried = [Carried("metric", source.metrics[0], number, turn.question)]
        carried += [Carried("period", p, number, turn.question) for p in moved]
        slots: dict[str, object] = {
            "kind": "comparison", "operation": "difference", "metrics": source.metrics,
            "periods": moved, "referent": "",
        }  # fmt: skip
        return slots, carried

    def given(self, entity: str, metric: str, period: str) -> Carried | None:
        """The fact an earlier answer gave for this company, figure and period (the latest),
        as a carried result: "this 2006 rent expense" when the conversation gave it, read from
        a sentence the store's facts do not hold."""
        for number, turn in self._recent():
            for figure in turn.results:
                same = figure.metric == metric and (figure.period or "") == period
                if figure.kind == "fact" and same and figure.entity in (entity, None):
                    return _as_result(number, turn, figure)
        return None

    def recent_periods(self) -> tuple[str, ...]:
        """The periods the latest question that named any resolved to: the period a
        conversation is about when a question names none."""
        return next((t.intent.periods for _, t in self._recent() if t.intent.periods), ())

    def _change_of_result(
        self, asked: Intent, resolved: Intent, carried: list[Carried]
    ) -> tuple[Intent, tuple[Carried, ...]]:
        """ "What percentage change does this represent?": the change an earlier answer
        gave, in percent: its own company, figure and periods."""
        if asked.periods or asked.metrics:
            return resolved.with_(referent=""), tuple(carried)
        found = self._last_change()
        if found is None:
            # No change given to point at: the slots the questions carried decide, as for
            # any elliptical follow-up ("and in percent?").
            return resolved.with_(referent=""), tuple(carried)
        number, turn = found
        source = turn.intent
        kept = [c for c in carried if c.slot == "entity"]
        kept += [Carried("metric", m, number, turn.question) for m in source.metrics]
        kept += [Carried("period", p, number, turn.question) for p in source.periods]
        return resolved.with_(
            entities=source.entities or resolved.entities,
            metrics=source.metrics,
            periods=source.periods,
            referent="",
        ), tuple(kept)

    def _change_over_its_base(
        self, resolved: Intent, carried: list[Carried]
    ) -> tuple[Intent, tuple[Carried, ...]] | None:
        """ "What is the percent change?" right after a change taken from a constant ("that
        less an initial $100 investment"): that change over the constant, in percent. The
        base is the one fact the change used less the change itself; no two periods."""
        last = next(((n, t) for n, t in self._recent() if t.results), None)
        if last is None:
            return None
        number, turn = last
        change = turn.results[-1]
        if change.kind != "computed" or change.role_or_kind != "change" or len(change.sources) != 1:
            return None
        fact = self._facts_by_source().get(change.sources[0])
        if fact is None or fact.value == change.value:
            return None
        base = format((fact.value - change.value).normalize(), "f")
        kept = [c for c in carried if c.slot == "entity"]
        kept.append(_as_result(number, turn, change))
        return resolved.with_(
            metrics=(), periods=(), operation="percent_of", referent="change",
            constants=(base,), kind="comparison",
        ), tuple(kept)  # fmt: skip

    # -- results as operands ---------------------------------------------------------------
    def _with_result(
        self, asked: Intent, resolved: Intent, carried: list[Carried]
    ) -> tuple[Intent, tuple[Carried, ...]]:
        """The question names an earlier result ("that change"): find it among this
        session's own answers, and take as its other operand the one figure the question
        names (its metric carried when it names none), or a constant."""
        own_facts = len(asked.metrics or (1,)) * len(asked.periods)
        if asked.referent == "result" and own_facts >= 2:
            return resolved.with_(referent=""), tuple(carried)  # "it" was the metric
        over_a_sum = self._over_an_earlier_sum(asked)
        if over_a_sum is not None:
            kept = [c for c in carried if c.slot == "entity"]
            bare = resolved.with_(metrics=(), periods=(), loose=(), kind="comparison")
            return bare.with_(referent="pair"), (*kept, *over_a_sum)
        if asked.referent == "figure" and not asked.metrics:
            # "That amount in relation to this total": two figures, neither named.
            return resolved.with_(referent="?"), tuple(carried)
        if asked.referent == "figure":
            found = self._other_figure(asked.metrics)
        else:
            found = self._result(asked.referent)
        if isinstance(found, Remembered):
            found = _of_the_period(found, self.turns.index(found) + 1, asked.periods)
        if isinstance(found, tuple) and asked.referent not in ("result", "figure"):
            beside = self._figure_beside(asked, found[0])
            if beside is not None:
                kept = [c for c in carried if c.slot == "entity"]
                given = [_as_result(*found), _as_result(*beside)]
                ordered = given if asked.referent_first else given[::-1]
                bare = resolved.with_(metrics=(), periods=(), loose=(), kind="comparison")
                return bare.with_(referent="pair"), (*kept, *ordered)
        if isinstance(found, Remembered):
            # "This number" after an answer that gave several: ask which, naming them.
            number = self.turns.index(found) + 1
            named = [_as_result(number, found, f) for f in found.results]
            kept = [c for c in carried if c.slot == "entity"]
            return resolved.with_(referent="?pair", metrics=(), periods=()), (*kept, *named)
        if found is None:
            return resolved.with_(referent="?"), tuple(carried)
        number, turn, figure = found
        if _share_of_a_share(asked, resolved, figure):
            part = _part_of_share(turn, figure, asked.metrics)
            if part is None:
                # Which of the share and the figure it was taken of: ask, naming both.
                named = [_as_result(number, turn, f) for f in (figure, *_parts(turn, figure)[:1])]
                kept = [c for c in carried if c.slot == "entity"]
                asking = resolved.with_(referent="?pair" if len(named) > 1 else "?")
                return asking.with_(metrics=(), periods=()), (*kept, *named)
            figure = part  # "how much did it represent in relation to X": the share's part
        beyond = _named_beyond_the_result(asked, turn.intent.metrics)
        if beyond:
            # "Revenue less net income over the 2013 revenue": the result is described by the
            # figures it was worked out from; the one named again is the other operand.
            asked = asked.with_(metrics=beyond)
        kept = [c for c in carried if c.slot not in ("period", "operation")]
        metrics = asked.metrics or ((figure.metric,) if figure.metric else resolved.metrics)
        if figure.metric in metrics:
            # Also when a choice of figures was settled by it: the metric came from there.
            kept = [c for c in kept if c.slot != "metric"]
            kept.append(Carried("metric", figure.metric, number, turn.question))
        periods = asked.periods
        # A result of one period's facts is about that period, when the question names the
        # figure to set it against ("and that over revenue"); a figure carried too would be
        # two guesses.
        own = figure.period or (self._one_period_of(figure) if asked.metrics else "")
        if not periods and not asked.constants and own:
            periods = (own,)
            kept.append(Carried("period", own, number, turn.question))
        elif not periods and not asked.constants and figure.period == "" and asked.metrics:
            periods = ("",)  # figures of no period (a table without years), as the result's
        # A figure the question names, in no period, beside a result of several: the plan
        # takes the one period that figure is held in, or asks which.
        named_alone = not periods and bool(asked.metrics) and not own and figure.period is None
        if asked.constants or (not periods and not named_alone):
            metrics, periods = (), ()
            kept = [c for c in kept if c.slot not in ("metric", "period")]
        if _only_itself(asked, figure, metrics, periods):
            # "What was the change in it?" after one figure: "it" is the line the change is
            # of, not an operand; set against itself it would make a change of nothing.
            return resolved.with_(referent=""), tuple(carried)
        dated = not asked.metrics and self._dated(asked, figure.metric or "")
        described = _loose_within(asked.loose, metrics, said=turn.question)
        if metrics and not described and not dated:
            return resolved.with_(referent=""), tuple(carried)
        if _two_lines_of_one_period(asked, figure, metrics, periods):
            # "Less capex?" after one fact: that fact's line and the one named, in its period,
            # as if both had been named ("operating cash flow less capex in 2023"), so that
            # "and in 2022?" then takes both lines to the other year, not the one named alone.
            assert figure.metric is not None
            lines = (figure.metric, *metrics) if asked.referent_first else (*metrics, figure.metric)
            kept = [c for c in kept if c.slot != "metric"]
            kept.append(Carried("metric", figure.metric, number, turn.question))
            return resolved.with_(
                metrics=lines, periods=periods, loose=(), kind="comparison", referent=""
            ), tuple(kept)
        kept.append(Carried("result", _result_words(figure), number, turn.question, figure))
        return resolved.with_(metrics=metrics, periods=periods, loose=(), kind="comparison"), tuple(
            kept
        )

    def _figure_beside(self, asked: Intent, after: int) -> tuple[int, Remembered, Figure] | None:
        """ "The change divided by that number": a result named by its role, and a figure
        pointed at by a generic noun that links nothing ("that number", "this amount"): the
        one figure the latest answer gave, when that answer came after the result's. None
        when the question names a figure, a period or a constant of its own, or the latest
        answer gave several figures (then the usual readings decide)."""
        named = asked.metrics or asked.periods or asked.constants or asked.loose
        if named or "figure" not in asked.points_back:
            return None
        latest = self._last_given(1)
        if not latest or latest[0][0] <= after or latest[0][2] is None:
            return None
        return latest[0][0], latest[0][1], latest[0][2]

    def _over_an_earlier_sum(self, asked: Intent) -> tuple[Carried, Carried] | None:
        """ "That value over the sum of both", after a sum and then one of its figures: the
        figure the last answer gave, set over the sum an earlier answer computed. Only when
        "sum" comes after the word pointing at the figure, the last answer gave one fact,
        and that fact is one the sum added up (else the sum meant may be another)."""
        if asked.referent != "figure" or asked.operation not in _SHARES:
            return None
        said = words(asked.question)
        pointer = next((i for i, w in enumerate(said) if w in _POINTERS), None)
        whole = next((i for i, w in enumerate(said) if w == "sum"), None)
        if pointer is None or whole is None or whole < pointer:
            return None
        last = self._last_given(1)
        if not last:
            return None
        number, turn, part = last[0]
        if part is None or part.kind != "fact":
            return None
        if asked.metrics and part.metric not in asked.metrics:
            return None
        for earlier, remembered in self._recent():
            if earlier >= number:
                continue
            computed = [f for f in remembered.results if f.kind == "computed"]
            if not computed:
                continue
            total = computed[-1]
            facts = self._facts_by_source()
            added = {_said(facts[s]) for s in total.sources if s in facts}
            if total.role_or_kind != "sum" or _said(part) not in added:
                return None
            return _as_result(number, turn, part), _as_result(earlier, remembered, total)
        return None

    def _one_period_of(self, figure: Figure) -> str:
        """The one period a computed figure's facts share ("revenue less net income in 2022"
        is about 2022); "" when they span several, or are not among the session's facts."""
        if figure.kind != "computed":
            return ""
        facts = self._facts_by_source()
        periods = {facts[s].period for s in figure.sources if s in facts}
        known = all(s in facts for s in figure.sources)
        return periods.pop() or "" if known and len(periods) == 1 else ""

    def _with_pair(
        self, asked: Intent, resolved: Intent, carried: list[Carried]
    ) -> tuple[Intent, tuple[Carried, ...]]:
        """ "The first in relation to the second", "this value ... that amount": the figures
        the last two answers that gave any stand on, "first" and "that" the older. Carried in
        the order the operation takes them, part first. When the words do not tell them apart
        ("this ... this"), or an answer gave several figures, it is asked back (referent
        "?pair", naming what the conversation holds)."""
        kept = [c for c in carried if c.slot == "entity"]
        if asked.pair[0].startswith("@"):
            dated = [self._of_year(name) for name in asked.pair]
            if any(found is None for found in dated):
                return resolved.with_(referent="?", pair=()), tuple(carried)
            kept += [_as_result(*found) for found in dated if found is not None]
            bare = resolved.with_(metrics=(), periods=(), loose=(), kind="comparison")
            return bare.with_(referent="pair"), tuple(kept)
        given = self._last_given(2)
        if len(given) < 2:
            return resolved.with_(referent="?", pair=()), tuple(carried)
        newer, older = given
        pick = {"first": older, "that": older, "second": newer, "this": newer}
        chosen = [pick[name] for name in asked.pair]
        if chosen[0] is chosen[1] or any(figure is None for _, _, figure in chosen):
            choices = [c for c in (older, newer) if c[2] is not None]
            kept += [_as_result(number, turn, figure) for number, turn, figure in choices]  # type: ignore[arg-type]
            return resolved.with_(referent="?pair", metrics=(), periods=()), tuple(kept)
        kept += [_as_result(number, turn, figure) for number, turn, figure in chosen]  # type: ignore[arg-type]
        bare = resolved.with_(metrics=(), periods=(), loose=(), kind="comparison")
        return bare.with_(referent="pair"), tuple(kept)

    def _other_figure(
        self, metrics: tuple[str, ...]
    ) -> tuple[int, Remembered, Figure] | Remembered | None:
        """ "That amount" beside a figure the question names: the one figure the latest
        answer not about the named one gave; that answer itself when it gave several."""
        for number, turn in self._recent():
            if not turn.results:
                continue
            if len(turn.results) > 1:
                return turn
            if turn.results[0].metric not in metrics:
                return number, turn, turn.results[0]
        return None

    def _again(self, asked: Intent) -> tuple[Intent, tuple[Carried, ...]]:
        """ "And this percentage in 2006?": the calculation the latest question asking for
        that role made, with its figures, in the period now named. When that question was
        not answered there is nothing to repeat: it is asked back."""
        for number, turn in self._recent():
            if not _asked_for(turn.intent, asked.again):
                continue
            source = turn.intent
            if not turn.results or not source.operation or len(source.periods) != 1:
                break
            carried = [Carried("entity", e, number, turn.question) for e in source.entities]
            carried += [Carried("metric", m, number, turn.question) for m in source.metrics]
            carried.append(Carried("operation", source.operation, number, turn.question))
            return asked.with_(
                kind="comparison", operation=source.operation, entities=source.entities,
                metrics=source.metrics, again="",
            ), tuple(carried)  # fmt: skip
        return asked.with_(kind="comparison", operation="ratio", referent="?"), ()

    def _of_year(self, name: str) -> tuple[int, Remembered, Figure] | None:
        """ "@2019:share": the latest result of that role an answer gave for that one year."""
        year, role = name[1:].split(":")
        digits = re.sub(r"\D", "", year)
        for number, turn in self._recent():
            periods = turn.intent.periods
            if len(periods) != 1 or re.sub(r"\D", "", periods[0])[:4] != digits[-4:]:
                continue
            for figure in reversed(turn.results):
                if figure.kind == "computed" and _plays(figure, role):
                    return number, turn, figure
        return None

    def _last_given(self, count: int) -> list[tuple[int, Remembered, Figure | None]]:
        """The last answers that gave figures, newest first, each with the one figure it
        stands on (its last computed figure, or its only fact; None when it gave several)."""
        found: list[tuple[int, Remembered, Figure | None]] = []
        for number, turn in self._recent():
            if turn.results and len(found) < count:
                found.append((number, turn, _stands_on(turn.results)))
        return found

    def _result(self, role: str) -> tuple[int, Remembered, Figure] | Remembered | None:
        """The most recent result of this role ("result": the last answer's own result; that
        answer itself when it gave several facts and nothing computed, to ask which)."""
        for number, turn in self._recent():
            if role == "result":
                computed = [f for f in turn.results if f.kind == "computed"]
                pick = computed[-1:] or (turn.results if len(turn.results) == 1 else ())
                if not pick and len(turn.results) > 1:
                    return turn
                return (number, turn, pick[0]) if pick else None
            if not turn.results and _asked_for(turn.intent, role):
                return None  # "that change" after a change asked and not given: that one
            for figure in reversed(turn.results):
                if _plays(figure, role):
                    return number, turn, figure
        return None

    def _last_change(self) -> tuple[int, Remembered] | None:
        """The last answer that gave results, when one of them is a change (a question asked
        back or refused in between gave none, so "it" still points past it)."""
        for number, turn in self._recent():
            if turn.results and not self._said_before(number):
                roles = {f.role_or_kind for f in turn.results}
                return (number, turn) if "change" in roles else None
        return None

    def _said_before(self, number: int) -> bool:
        """Whether question `number` asked for a figure again ("the value for 2009 again")
        and its answer only said facts an earlier answer gave: it adds no result, so "this"
        past it still means the change."""
        if not set(words(self.turns[number - 1].question)) & _REPEATING:
            return False
        earlier = {_said(f) for turn in self.turns[: number - 1] for f in turn.results
                   if f.kind == "fact"}  # fmt: skip
        results = self.turns[number - 1].results
        return all(f.kind == "fact" and _said(f) in earlier for f in results)

    def _settled_by_conversation(self, intent: Intent, carried: list[Carried]) -> Intent:
        """ "That fair value", "the 2014 value": of the figures the words could mean, the
        one an earlier answer gave (the most recent), when exactly one of them is."""
        choices = {c for a in intent.ambiguous if a.slot == "metric" for c in a.choices}
        for number, turn in self._recent():
            given = {f.metric for f in turn.results if f.metric} & choices
            if len(given) == 1:
                metric = given.pop()
                carried.append(Carried("metric", metric, number, turn.question))
                return intent.with_(metrics=(*intent.metrics, metric), ambiguous=())
            if given:
                return intent
        return intent

    def _named_again(self, intent: Intent, carried: list[Carried]) -> Intent:
        """ "That total in 2013" after "the total of purchase commitments in 2010 and 2011":
        a demonstrative before some of the words of the figure the conversation is on names
        that figure again, not a shorter line that happens to be labelled with those words.
        Only the figure the latest question naming one was answered about."""
        named = intent.metrics[0]
        for number, turn in self._recent():
            if not turn.intent.metrics:
                continue
            if turn.status != "found" or len(turn.intent.metrics) != 1:
                return intent
            metric = turn.intent.metrics[0]
            if metric == named or not set(words(named)) < set(words(metric)):
                return intent
            carried.append(Carried("metric", metric, number, turn.question))
            return intent.with_(metrics=(metric,))
        return intent

    def _given_again(self, asked: Intent) -> tuple[Intent, tuple[Carried, ...]]:
        """ "And the specific value for 2009 again?": a figure an earlier answer gave, for
        that period, is asked to be said again. The latest answer that gave one fact of that
        period names it; when none did, or one gave several, it is asked back rather than
        read as the figure the conversation is on (which may be another line)."""
        period = asked.periods[0]
        for number, turn in self._recent():
            facts = [f for f in turn.results if f.kind == "fact" and f.period == period]
            if len(facts) > 1 or (facts and not facts[0].metric):
                break
            if facts:
                figure = facts[0]
                carried = [Carried("metric", figure.metric or "", number, turn.question)]
                entities = (figure.entity,) if figure.entity else asked.entities
                if entities:
                    carried.insert(0, Carried("entity", entities[0], number, turn.question))
                return asked.with_(
                    kind="lookup", entities=entities, metrics=(figure.metric or "",)
                ), tuple(carried)
        return asked.with_(kind="comparison", operation="ratio", referent="?"), ()

    def _settled_by_reply(self, intent: Intent) -> Intent:
        """ "At end of period.", right after "Which figure do you mean: ... at beginning of
        period or ... at end of period?": words that name one of the figures offered, and
        nothing else, pick it (the reply completes the question asked back)."""
        if not self.turns or self.turns[-1].status != "clarify":
            return intent
        offered = {c for a in self.turns[-1].intent.ambiguous if a.slot == "metric"
                   for c in a.choices}  # fmt: skip
        named = [a.choices for a in intent.ambiguous if a.slot == "metric"]
        bare = not (intent.periods or intent.operation or intent.loose or intent.metrics)
        if len(named) != 1 or len(named[0]) != 1 or named[0][0] not in offered or not bare:
            return intent
        return intent.with_(metrics=named[0], ambiguous=())

    def _settled_by_figure_on_hand(self, intent: Intent, carried: list[Carried]) -> Intent:
        """ "The average amount between those years", asked back as "Which figure do you
        mean: X?" with X the one choice: a calculation over the figure the conversation is on
        (the latest question naming a figure named X alone, and was answered) means X. Not a
        bare lookup: "what is the average stock?" may mean another stock line."""
        choices = [a.choices for a in intent.ambiguous]
        if len(choices) != 1 or len(choices[0]) != 1 or intent.ambiguous[0].slot != "metric":
            return intent
        if intent.operation is None:
            return intent
        for number, turn in self._recent():
            if not turn.intent.metrics:
                continue
            if turn.intent.metrics != choices[0] or turn.status != "found":
                return intent
            carried.append(Carried("metric", choices[0][0], number, turn.question))
            return intent.with_(metrics=(*intent.metrics, choices[0][0]), ambiguous=())
        return intent

    def _settled_by_the_line_on_hand(self, intent: Intent, carried: list[Carried]) -> Intent:
        """ "And the low?" after "the june 30 high", "and basic?" after diluted earnings per
        share, "and at the end of 2018?" after the year-end obligation: an elliptical follow-up
        names the word that changes, and the line meant keeps every other word of the line the
        conversation is on. Of the figures offered, the one whose words the question did not
        say are all that line's words is meant, when exactly one is."""
        if len(intent.ambiguous) != 1 or intent.ambiguous[0].slot != "metric":
            return intent
        for number, turn in self._recent():
            if not turn.intent.metrics:
                continue
            if turn.status != "found" or len(turn.intent.metrics) != 1:
                return intent
            said = set(words(intent.question))
            kept = set(words(turn.intent.metrics[0]))
            # A label's words in brackets are another reading of it ("operating income
            # ( loss )"), not words a question leaves unsaid.
            fits = [
                c
                for c in intent.ambiguous[0].choices
                if set(words(_BRACKETED.sub(" ", c))) - said <= kept
            ]
            if len(fits) != 1:
                return intent
            carried.append(Carried("metric", fits[0], number, turn.question))
            return intent.with_(metrics=(*intent.metrics, fits[0]), ambiguous=())
        return intent

    def _settled_by_result(self, intent: Intent) -> Intent:
        """ "This 2005 exercise price" read as a choice of figures: the named result's own
        metric among them settles it (the conversation's figure, not a guess)."""
        found = self._result(intent.referent)
        metric = found[2].metric if isinstance(found, tuple) else None
        if metric and any(metric in a.choices for a in intent.ambiguous):
            return intent.with_(metrics=(*intent.metrics, metric), ambiguous=())
        if metric and not intent.metrics and self._dated(intent, metric):
            # "That change in relation to this 2017 total": the 2017 figure of the change's
            # own series the conversation gave, not another line whose label says "total".
            return intent.with_(metrics=(metric,), ambiguous=(), loose=())
        return intent

    def _dated(self, intent: Intent, metric: str) -> bool:
        """The question names a figure by a demonstrative and its year ("this 2013 price"),
        and an earlier answer gave this metric's figure for that year."""
        nouns = [p.split(":", 1)[1] for p in intent.points_back if p.startswith("dated:")]
        if len(nouns) != 1 or len(intent.periods) != 1:
            return False
        if nouns[0] not in _AMOUNT_NOUNS and not set(words(nouns[0])) <= set(words(metric)):
            return False  # "this 2021 cash" names a figure of its own, not the result's
        period = intent.periods[0]
        return any(
            f.kind == "fact" and f.metric == metric and f.period == period
            for turn in self.turns
            for f in turn.results
        )

    # -- slots ------------------------------------------------------------------------------

    def _carry(self, field: str, carried: list[Carried], slot: str) -> tuple[str, ...]:
        for number, turn in self._recent():
            values: tuple[str, ...] = getattr(turn.intent, field)
            if values and field == "metrics" and _offered(turn, values):
                return ()  # the candidates of a question asked back: none was picked
            if values:
                carried.extend(Carried(slot, v, number, turn.question) for v in values)  # type: ignore[arg-type]
                return values
            if any(a.slot == slot for a in turn.intent.ambiguous):
                # A later question was asked back which figure it meant: the conversation
                # moved to a figure never settled, and an older one would be a guess.
                return ()
        return ()

    def _picks_the_figure_asked_for(self, intent: Intent) -> bool:
        """The previous answer asked which figure was meant, and this question names a figure
        and nothing else: it is the reply, not a new question."""
        if not self.turns or self.turns[-1].status != "clarify":
            return False
        asked = self.turns[-1].intent
        if asked.kind == "narrative":
            return False  # a number asked in words no figure answered: nothing to complete
        asked_for_figure = bool(asked.ambiguous or asked.qualifiers or not asked.metrics)
        bare = not (intent.periods or intent.relative_last or intent.operation or intent.loose)
        return asked_for_figure and bool(intent.metrics) and bare

    def _restated_in_scale(self, intent: Intent) -> bool:
        """Whether a question names nothing but an earlier computed figure ("that") and a
        scale to give it in ("in millions")."""
        bare = not (intent.periods or intent.operation or intent.referent or intent.loose)
        last = self.turns[-1] if self.turns else None
        computed = last is not None and any(f.kind == "computed" for f in last.results)
        scaled = asked_scale(intent.question) is not None
        return bare and "figure" in intent.points_back and computed and scaled

    def _last_compounded(self, operation: str | None) -> bool:
        return (
            operation == "percent_change" and bool(self.turns) and self.turns[-1].intent.compounded
        )

    def _carried_operation(
        self, intent: Intent, carried: list[Carried], follow: bool
    ) -> str | None:
        """An elliptical follow-up to a comparison keeps the comparison ("and for Microsoft?"),
        and so does the reply to a comparison that had to be asked back."""
        if self.turns and self._change_for_another_line(intent):
            number, last = len(self.turns), self.turns[-1]
            carried.append(Carried("operation", last.intent.operation or "", number, last.question))
            return last.intent.operation
        if not follow or not self.turns or intent.asks_value or "figure" in intent.points_back:
            return None  # "the 2008 value", "that income in 2016": the figure itself
        number, last = len(self.turns), self.turns[-1]
        if last.intent.operation == "percent_change" and _in_amount(intent):
            # "And in dollars?" right after a percent change: the same change as an amount.
            carried.append(Carried("operation", "difference", number, last.question))
            return "difference"
        replying = last.status == "clarify"
        if last.intent.operation not in (None, "sum") and _says_a_sum(intent):
            # "What is the total X in that period?" after a change: not that change again.
            return None
        # "And the year before?" after a ratio of two lines in one year: that ratio a year
        # earlier (a change spans two years, so a year before it is no one figure).
        stepped = bool(intent.period_step) and last.intent.operation in _SHARES
        if last.intent.operation and (intent.entities or intent.periods or replying or stepped):
            carried.append(Carried("operation", last.intent.operation, number, last.question))
            return last.intent.operation
        return None

    def _change_for_another_line(self, intent: Intent) -> bool:
        """ "And in electric customers over the same period?" right after a change between
        two periods that was answered: the same change, of the line now named. Only for a
        question that opens by leaning on the last ("and ...", "what about ...") and names a
        line and nothing to do with it (no operation, no figure pointed at, no company)."""
        last = self.turns[-1]
        changed = last.intent.operation in _CHANGES and len(last.intent.periods) == 2
        leaning = _elliptical(intent.question) or "same" in intent.points_back
        if not changed or last.status != "found" or not leaning:
            return False
        bare = not (intent.operation or intent.asks_value or intent.entities or intent.loose)
        return bare and bool(intent.metrics) and "figure" not in intent.points_back

    def _periods_of_the_change(self, carried: list[Carried]) -> tuple[str, ...]:
        """The two periods of the latest question that asked a change and was answered, when
        it is the latest that named periods at all: "what was that change for electric
        customers?" takes the span the conversation is on."""
        for number, turn in self._recent():
            if not turn.intent.periods:
                continue
            source = turn.intent
            if source.operation not in _CHANGES or len(source.periods) != 2:
                return ()
            if turn.status != "found":
                return ()
            carried.extend(Carried("period", p, number, turn.question) for p in source.periods)
            return source.periods
        return ()

    def _carry_periods(
        self, operation: str | None, carried: list[Carried], metrics: tuple[str, ...] = ()
    ) -> tuple[str, ...]:
        every = self._every_period(carried) if operation in ("sum", "average") else ()
        if every:
            return every
        if operation in _CHANGES or operation == "sum":
            return self._two_periods(carried)
        if operation == "average" and metrics:
            # "Its average": over the periods asked of this very figure, never a year asked
            # of another one.
            return self._two_periods(carried, metrics) or self._carry_periods(None, carried)
        for number, turn in self._recent():
            if turn.intent.periods:
                carried.extend(
                    Carried("period", p, number, turn.question) for p in turn.intent.periods
                )
                return turn.intent.periods
        return ()

    def _summed(self) -> tuple[int, tuple[str, ...], tuple[str, ...]] | None:
        """The figure and periods of the facts the last answer's sum added up, when it gave
        a sum of one figure of one company (an earlier sum included, through its sources).
        Only the last answer: a sum asked and not given in between is not passed over."""
        for number, turn in self._recent():
            computed = [f for f in turn.results if f.kind == "computed"]
            if not computed or computed[-1].role_or_kind != "sum":
                return None
            facts = self._facts_by_source()
            summed = [facts.get(source) for source in computed[-1].sources]
            if not summed or any(f is None or not f.metric for f in summed):
                return None
            series = {(f.entity, f.metric) for f in summed if f is not None}
            periods = sorted({f.period or "" for f in summed if f is not None}, key=period_sort_key)
            if len(series) != 1 or len(periods) != len(summed):
                return None
            return number, (series.pop()[1] or "",), tuple(periods)
        return None

    def _two_on_hand(self, intent: Intent) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        """A sum, an average, a difference or a ratio asked of nothing named ("the
        difference between them", "the ratio of the two"), when the last two answers each
        gave one fact of another figure of one company in one period: those two figures, in
        the order they were asked."""
        if intent.operation not in _OF_TWO_ON_HAND or intent.metrics or intent.periods:
            return None
        if intent.referent or intent.pair or intent.points_back:
            return None
        given = self._last_given(2)
        facts = [f for _, _, f in given if f is not None and f.kind == "fact"]
        if len(given) != 2 or len(facts) != 2:
            return None
        newer, older = facts
        same = newer.entity == older.entity and newer.period == older.period
        if not same or newer.metric == older.metric or not newer.metric or not older.metric:
            return None
        return (older.metric, newer.metric), (older.period or "",)

    def _carried_from_answers(
        self, metrics: tuple[str, ...], periods: tuple[str, ...]
    ) -> list[Carried]:
        found: list[Carried] = []
        for number, turn in self._recent():
            for figure in turn.results:
                if figure.metric in metrics and figure.metric not in [c.value for c in found]:
                    found.append(Carried("metric", figure.metric, number, turn.question))
        periods_from = found[-1] if found else None
        if periods_from is not None:
            found += [Carried("period", p, periods_from.from_turn, periods_from.question)
                      for p in periods if p]  # fmt: skip
        return found

    def _sum_not_given(self) -> bool:
        """The last question added to an earlier sum ("the sum including X") and got no
        answer: an average now would be of a sum the conversation does not hold."""
        if not self.turns or self.turns[-1].results:
            return False
        last = self.turns[-1].intent
        # A sum over one period can only add to an earlier sum ("the sum including 2008").
        return last.operation == "sum" and (bool(last.referent) or len(last.periods) == 1)

    def periods_of(self, figure: Figure) -> frozenset[str]:
        """The periods of the facts an earlier result was worked out from (its own, for a
        fact), as this session's answers gave them; none for facts it does not hold."""
        if figure.kind == "fact":
            return frozenset({figure.period or ""})
        facts = self._facts_by_source()
        return frozenset(facts[s].period or "" for s in figure.sources if s in facts)

    def _facts_by_source(self) -> dict[str, Figure]:
        return {
            f.sources[0]: f
            for turn in self.turns
            for f in turn.results
            if f.kind == "fact" and len(f.sources) == 1
        }

    def _stepped(self, step: int, carried: list[Carried]) -> tuple[str, ...]:
        """ "The year before": the year before the periods the conversation is on (after
        them, for "the following year"), said as carried from the question that named them.
        Nothing when they are not whole years."""
        for number, turn in self._recent():
            if not turn.intent.periods:
                continue
            ordered = sorted(turn.intent.periods, key=period_sort_key)
            base = ordered[0] if step < 0 else ordered[-1]
            if not _YEAR.fullmatch(base):
                return ()
            period = f"FY{int(base[2:]) + step}"
            carried.append(Carried("period", period, number, turn.question))
            return (period,)
        return ()

    def _every_period(self, carried: list[Carried]) -> tuple[str, ...]:
        """A sum or average of what the last question over several periods covered: all of
        them ("from FY2019 to FY2021" is three years, not its two ends)."""
        for number, turn in self._recent():
            if len(turn.intent.periods) >= 2:
                periods = tuple(sorted(turn.intent.periods, key=period_sort_key))
                carried.extend(Carried("period", p, number, turn.question) for p in periods)
                return periods
            if turn.intent.periods:
                return ()
        return ()

    def _periods_on_hand(self, count: int, carried: list[Carried]) -> tuple[str, ...]:
        """The last `count` periods the conversation asked about, oldest first; none when it
        asked about fewer."""
        picked: list[tuple[str, int, str]] = []
        for number, turn in self._recent():
            for period in sorted(turn.intent.periods, key=period_sort_key, reverse=True):
                if period not in [p for p, _, _ in picked]:
                    picked.append((period, number, turn.question))
            if len(picked) >= count:
                break
        if len(picked) != count:
            return ()
        picked.sort(key=lambda item: period_sort_key(item[0]))
        carried.extend(Carried("period", p, n, q) for p, n, q in picked)
        return tuple(p for p, _, _ in picked)

    def _two_periods(
        self, carried: list[Carried], metrics: tuple[str, ...] | None = None
    ) -> tuple[str, ...]:
        """A change needs two periods: the last comparison's, or the last two periods asked
        (with `metrics`, only of questions about those figures)."""
        picked: list[tuple[str, int, str]] = []
        for number, turn in self._recent():
            if metrics is not None and turn.intent.metrics != metrics:
                continue
            if len(turn.intent.periods) >= 2 and not picked:
                # A comparison or a range ("from FY2019 to FY2021"): its two ends.
                ends = sorted(turn.intent.periods, key=period_sort_key)[
                    :: len(turn.intent.periods) - 1
                ]
                picked = [(p, number, turn.question) for p in ends]
                break
            for period in turn.intent.periods:
                if period not in [p for p, _, _ in picked]:
                    picked.append((period, number, turn.question))
            if len(picked) >= 2:
                break
        if len(picked) < 2:
            return ()
        picked = sorted(picked[:2], key=lambda item: period_sort_key(item[0]))
        carried.extend(Carried("period", p, n, q) for p, n, q in picked)
        return tuple(p for p, _, _ in picked)

    def _results_side_by_side(self, intent: Intent) -> tuple[Intent, tuple[Carried, ...]] | None:
        """ "The change between the two", "their sum", naming nothing, right after two answers
        that each computed one result of the same kind (a gross margin in FY2024, then in
        FY2023): those two results are the operands, never the figures they were worked out
        from. A change is the later period's result less the earlier's; in one period (or
        none), the newer answer's less the older's, as for two facts side by side."""
        # "The average of the two", counting no periods ("over those five years" is of the
        # figures in them), of results other than sums: the mean of the two results.
        averaged = intent.operation == "average" and not intent.count
        combining = intent.operation in (*_ACROSS_RESULTS, *_SHARES) or averaged
        if not combining or _names_anything(intent):
            return None
        picked: list[tuple[int, Remembered, Figure]] = []
        recent = list(self._recent())
        if recent and _compared_results(recent[0][1].intent):
            # "Which is higher?" said of the two, then "and the difference?": the same two.
            recent = recent[1:]
        for number, turn in recent[:2]:
            computed = [f for f in turn.results if f.kind == "computed"]
            if turn.status != "found" or len(computed) != 1:
                return None
            picked.append((number, turn, computed[0]))
        if len(picked) != 2:
            return None
        newer, older = picked
        if newer[2].role_or_kind != older[2].role_or_kind or newer[2].unit != older[2].unit:
            return None
        if averaged and newer[2].role_or_kind == "sum":
            return None  # "the average per year" after sums: of the figures summed
        ordered = [newer, older]
        periods = [self._one_period_of(figure) for _, _, figure in ordered]
        if SAID_IN_POINTS.search(intent.question):
            # "By how many percentage points did it change?" over two computed results is not
            # read (ADR 0079): it turned a democonv held-out turn wrong, cause unread.
            return None
        backwards = all(periods) and period_sort_key(periods[0]) < period_sort_key(periods[1])
        if intent.operation == "sum" or backwards:
            ordered.reverse()  # a sum in the order asked; a change the later period less
        kept = [Carried("entity", e, newer[0], newer[1].question) for e in newer[1].intent.entities]
        results = [_as_result(number, turn, figure) for number, turn, figure in ordered]
        bare = intent.with_(
            entities=newer[1].intent.entities, metrics=(), periods=(), loose=(), kind="comparison"
        )
        if intent.operation in _SHARES:
            # "The ratio of the two": which over which the words do not say. Asked back,
            # naming both, rather than taken over the facts of the last answer.
            return bare.with_(referent="?pair"), (*kept, *results)
        return bare.with_(referent="pair"), (*kept, *results)

    def _side_by_side(self, intent: Intent) -> tuple[Intent, tuple[Carried, ...]] | None:
        """ "Which was higher?", "the difference", "sum of the two" naming nothing, right after
        two answers that each gave one figure of the same period (two companies' net income, or
        one company's revenue and its costs): those two figures."""
        operation = intent.operation
        if (
            operation not in _SIDE_BY_SIDE
            or len(intent.entities) > 1
            or intent.metrics
            or intent.periods
            or intent.referent
            or intent.pair
            or len(self.turns) < 2
        ):
            return None
        picked: list[tuple[int, Remembered, Figure]] = []
        for number, turn in list(self._recent())[:2]:
            facts = [f for f in turn.results if f.kind == "fact" and f.entity and f.metric]
            if turn.status != "found" or len(facts) != 1 or not facts[0].period:
                return None
            picked.append((number, turn, facts[0]))
        (n2, t2, second), (n1, t1, first) = picked  # newest first
        series = {(first.entity, first.metric), (second.entity, second.metric)}
        if first.period != second.period or len(series) != 2:
            return None
        # A change is the later figure less the earlier: the newest answer's figure first;
        # a balance's change over its period is its closing less its opening, whichever of
        # the two was asked last.
        ordered = (second, first) if operation == "difference" else (first, second)
        if operation == "difference" and _opening_of(second.metric or "", first.metric or ""):
            ordered = (first, second)
        if intent.entities:
            # "How much more did Walmart make?": one of the two companies on hand, set against
            # the other, it first.
            (named,) = intent.entities
            if first.entity == second.entity or named not in (first.entity, second.entity):
                return None
            ordered = (first, second) if first.entity == named else (second, first)
        entities = tuple(dict.fromkeys(f.entity for f in ordered if f.entity))
        metrics = tuple(dict.fromkeys(f.metric for f in ordered if f.metric))
        if len(entities) > 1 and len(metrics) > 1:
            return None
        if (
            operation == "difference"
            and len(metrics) > 1
            and _DIFFERENCE & set(words(intent.question))
        ):
            # "The difference" of two different figures names no order (a change does: the
            # later less the earlier); asked back.
            return None
        carried = [
            *(Carried("entity", e, n, t.question) for n, t, e in
              ((n1, t1, first.entity), (n2, t2, second.entity)) if e),
            *(Carried("metric", m, n, t.question) for n, t, m in
              ((n1, t1, first.metric), (n2, t2, second.metric)) if m),
            Carried("period", first.period or "", n2, t2.question),
        ]  # fmt: skip
        unique = list(dict.fromkeys((c.slot, c.value) for c in carried))
        carried = [next(c for c in carried if (c.slot, c.value) == u) for u in unique]
        resolved = intent.with_(
            entities=entities,
            metrics=metrics,
            periods=(first.period or "",),
            kind="comparison",
        )
        return resolved, tuple(carried)

    def _period_just_answered(self, carried: list[Carried]) -> tuple[str, ...]:
        """The one period the last question asked, when it was answered; else none (a
        question back then asks which)."""
        if not self.turns:
            return ()
        last = self.turns[-1]
        # A figure the store does not hold is an answer about that period too ("the knowledge
        # base holds no operating income for X"): "ok, what about their net income?" stays on it.
        answered = last.status in ("found", "not_found")
        if not answered or len(last.intent.periods) != 1 or not last.intent.periods[0]:
            return ()
        carried.append(Carried("period", last.intent.periods[0], len(self.turns), last.question))
        return last.intent.periods

    def _calculation_against(
        self, intent: Intent, metrics: tuple[str, ...], carried: list[Carried]
    ) -> Intent | None:
        """ "How does that compare to FY2023?" right after a ratio or a share of two figures
        in one period: "that" is the calculation, done again in the period named and set
        against the first (the engine's second step, ADR 0075). None otherwise."""
        if not self.turns or intent.metrics:
            return None
        number, last = len(self.turns), self.turns[-1]
        done = last.intent
        if done.operation not in _SHARES or done.metrics != metrics or len(done.periods) != 1:
            return None
        stepped: list[Carried] = []
        named = intent.periods or (
            self._stepped(intent.period_step, stepped) if intent.period_step else ()
        )
        if last.status != "found" or len(named) != 1 or done.periods == named:
            return None
        carried.extend(stepped)
        periods = self._against(named[0], carried)
        carried.append(Carried("operation", done.operation, number, last.question))
        return intent.with_(
            metrics=metrics, periods=periods, operation=done.operation, kind="comparison"
        )

    def _against(self, named: str, carried: list[Carried]) -> tuple[str, ...]:
        """The named period and the one the conversation is on (the latest its last question
        asked), oldest first; the named one alone when the conversation is on it, or on none."""
        for number, turn in self._recent():
            if not turn.intent.periods:
                continue
            # After a comparison ("from FY2023 to FY2024"), its latest period is the one on.
            other = max(turn.intent.periods, key=period_sort_key)
            if other == named:
                break
            carried.append(Carried("period", other, number, turn.question))
            return tuple(sorted((named, other), key=period_sort_key))
        return (named,)

    def _recent(self) -> Iterable[tuple[int, Remembered]]:
        for index in range(len(self.turns) - 1, -1, -1):
            yield index + 1, self.turns[index]


def _elliptical(question: str) -> bool:
    """ "And the low?", "what about basic?": a question that opens by leaning on the one before
    it, naming only what changes. A question of its own ("what was the balance in 2017?")
    does not lean so, and a figure it names in part is asked back."""
    said = words(question)
    return said[:1] == ["and"] or (said[1:2] == ["about"] and said[0] in ("what", "how"))


def _that_change_of(intent: Intent, operation: str | None) -> bool:
    """A change of a line named, pointing back ("that change for electric customers") or
    leaning on the question before ("and the change in electric customers?"): of the span the
    conversation is on, not of the latest periods held."""
    pointing = {"figure", "same"} & set(intent.points_back)
    leaning = bool(pointing) or _elliptical(intent.question)
    return operation in _CHANGES and bool(intent.metrics) and leaning


def _bare_total(intent: Intent) -> bool:
    return [normalise_word(w) for w in intent.topic] == [normalise_word("total")] and not (
        intent.periods or intent.entities or intent.metrics or intent.loose
    )


_AMOUNT_WORDS = lexicon("dollars dollar absolute usd")


def _in_amount(intent: Intent) -> bool:
    """ "And in dollars?", "in absolute terms?": a follow-up that asks the change it is on as
    an amount, naming nothing else."""
    return not _AMOUNT_WORDS.isdisjoint(words(intent.question)) and not _names_anything(intent)


def _names_anything(intent: Intent) -> bool:
    return bool(intent.entities or intent.metrics or intent.periods or intent.referent
                or intent.pair or intent.constants)  # fmt: skip


def _said(fact: Figure) -> tuple[object, ...]:
    """What makes two facts the same statement: their figure, period, value and sources (a
    passage's sentence may state several figures, so sources alone do not tell)."""
    return (fact.entity, fact.metric, fact.period, fact.value, fact.sources)


def _repeats(intent: Intent) -> bool:
    """A question asking for one period's figure to be said again ("the value for 2016
    again", "that specific value in 2011"), naming no figure and no calculation."""
    said = set(words(intent.question)) & _REPEATING
    bare = not (intent.metrics or intent.operation or intent.referent or intent.loose)
    return bool(said) and bare and len(intent.periods) == 1 and intent.kind != "unsupported"


_REPEATING = frozenset(words("again specific specifically"))


def _asked_of(intent: Intent, metrics: tuple[str, ...]) -> bool:
    """Whether what the question asks of a figure fits the carried ones: a security's price
    or return only of lines that name a company or an index."""
    asked = {normalise_word(word) for word in intent.topic} & SECURITY_MEASURES
    return not asked or all(names_a_security(m) for m in metrics)


# Nouns that name a series' figure without naming a series ("this 2017 total").
def _offered(turn: Remembered, metrics: tuple[str, ...]) -> bool:
    """Whether a turn's several metrics are the figures its answer offered for a number
    asked in words no figure answered ("... holds total debt or lease obligations, but not a
    figure that answers this as asked"): carried on together, they would answer a question
    nobody asked (ADR 0050)."""
    asked_back = turn.status == "clarify" and turn.intent.kind == "narrative"
    return asked_back and len(metrics) > 1


_AMOUNT_NOUNS = frozenset(
    map(normalise_word, ["amount", "value", "number", "total", "balance", "price", "cost",
                         "level", "figure"])
)  # fmt: skip
_SHARES = ("ratio", "percent_of")
_POINTERS = frozenset(words("that this it"))
_SIDE_BY_SIDE = ("higher", "lower", "difference", "sum")  # a ratio's whole is not told
_ACROSS_RESULTS = ("difference", "sum", "higher", "lower")  # what two earlier results combine into
_DIFFERENCE = frozenset(words("difference differences differ"))


_WITH_OPERANDS = ("ratio", "percent_of", "difference", "sum", "product")
_ROLES_NAMED = {
    "change": ("change",),
    "sum": ("sum", "total"),
    "average": ("average",),
    "ratio": ("ratio", "share"),
    "share": ("share", "ratio", "percent change"),
}


def _named_beyond_the_result(asked: Intent, worked_from: tuple[str, ...]) -> tuple[str, ...]:
    """The figures a question names besides the words that describe an earlier result by
    what it was worked out from ("the difference of revenue less net income over the 2013
    revenue": revenue and net income describe the result, revenue named once more is the
    other operand). Only when the question names every figure the result was worked out
    from, in the result's own labels, and exactly one figure beyond them; else none."""
    if len(worked_from) < 2 or not set(worked_from) <= set(asked.metrics):
        return ()
    said = words(asked.question)
    taken = [False] * len(said)
    times: dict[str, int] = {}
    for metric in sorted(asked.metrics, key=lambda m: -len(words(m))):
        label = words(metric)
        count = 0
        for start in range(len(said) - len(label) + 1):
            span = range(start, start + len(label))
            if said[start : start + len(label)] == label and not any(taken[i] for i in span):
                count += 1
                for i in span:
                    taken[i] = True
        times[metric] = count
    if any(times[m] == 0 for m in asked.metrics):
        return ()  # a figure named in other words: where its mentions are is not known
    beyond = tuple(m for m in asked.metrics if times[m] - (m in worked_from) > 0)
    return beyond if len(beyond) == 1 else ()


def _says_a_sum(intent: Intent) -> bool:
    """Whether the question says a sum ("total", "combined") in words no line it names
    holds: an operation of its own, which a carried comparison would override."""
    named = {w for metric in intent.metrics for w in words(metric)}
    return any(w in SUM and w not in named for w in words(intent.question))


def _a_balances_change(intent: Intent) -> Intent:
    """ "The percent increase in the store count over the year", asked back between "stores
    at beginning of year" and "stores at end of year": a change in a balance over its period
    is its closing less its opening, so the two choices are both meant, the closing first."""
    if len(intent.ambiguous) != 1 or intent.ambiguous[0].slot != "metric" or intent.metrics:
        return intent
    choices = intent.ambiguous[0].choices
    if len(choices) != 2 or len(intent.periods) > 1:
        return intent
    opening, closing = choices if _opening_of(*choices) else choices[::-1]
    if not _opening_of(opening, closing):
        return intent
    return intent.with_(metrics=(closing, opening), ambiguous=())


def _opening_of(opening: str, closing: str) -> bool:
    """Whether two lines are one balance at its opening and at its closing moment
    ("beginning stores", "ending stores"): named alike but for the moment's word."""
    said, other = words(opening), words(closing)
    if len(said) != len(other):
        return False
    differ = [(a, b) for a, b in zip(said, other, strict=True) if a != b]
    return len(differ) == 1 and differ[0][0] in OPENING_MOMENT and differ[0][1] in CLOSING_MOMENT


def _stands_on(results: tuple[Figure, ...]) -> Figure | None:
    """The one figure an answer gave; none when it gave several (a change and its two
    facts: "the first" could be any of them)."""
    return results[0] if len(results) == 1 else None


def _of_the_period(
    turn: Remembered, number: int, periods: tuple[str, ...]
) -> tuple[int, Remembered, Figure] | Remembered:
    """ "In that year of 2017, what percentage did this number represent ...", after an
    answer that gave a change and its two facts: the one fact of the year the question names
    is the figure meant. Else the answer itself, to ask which."""
    of_period = [f for f in turn.results if f.kind == "fact" and len(periods) == 1
                 and f.period == periods[0]]  # fmt: skip
    return (number, turn, of_period[0]) if len(of_period) == 1 else turn


def _as_result(number: int, turn: Remembered, figure: Figure) -> Carried:
    return Carried("result", _result_words(figure), number, turn.question, figure)


def _asked_for(intent: Intent, role: str) -> bool:
    """Whether a question asked for a result of this role (whether or not it was given)."""
    made = ROLES.get(intent.operation or "", "")
    if made and made in _ROLES_NAMED.get(role, (role,)):
        return True
    # A question read as narrative keeps no operation; its words still say what it asked.
    return any(ROLE_NOUNS.get(normalise_word(word)) == role for word in intent.topic)


def _plays(figure: Figure, role: str) -> bool:
    """Whether a remembered figure is what a question's role noun names. "result" (a bare
    "this", "it") is the last answer's computed figure, or its fact when it gave one."""
    own = figure.role_or_kind
    if role == "sum" and own == "fact":
        return "total" in (figure.metric or "").lower().split()
    return own in _ROLES_NAMED.get(role, (role,))


def _result_words(figure: Figure) -> str:
    """How a carried result reads: "the change of USD 35.80"."""
    role = figure.role_or_kind
    what = figure.label if role == "fact" else f"the {role}"
    return f"{what} of {figure.display or figure.value}"


def _loose_within(loose: tuple[str, ...], metrics: tuple[str, ...], *, said: str = "") -> bool:
    """Words the question did not link may only repeat the carried metric's own words
    ("this 2005 exercise price" of "weighted average exercise price per share"), or the
    words the question that gave the result described it in (`said`): "that performance
    value in 2012" after "the change in the performance value of the index" names the index's
    figure again, in the user's own words, not a narrower one."""
    held = {w for metric in metrics for w in words(metric)} | set(words(said))
    return all(set(words(word)) <= held for word in loose)


def _in_one_period(operation: str | None, metrics: tuple[str, ...]) -> bool:
    """A lookup, or a figure set against another in one period (a share, a ratio, "revenue
    less net income": two figures, so the change is not across periods)."""
    between_two = ("ratio", "percent_of", "difference", "percent_change", "sum")
    return operation is None or (operation in between_two and len(metrics) == 2)


def _kind(
    intent: Intent,
    operation: str | None,
    entities: tuple[str, ...],
    metrics: tuple[str, ...],
    periods: tuple[str, ...],
) -> str:
    if operation:
        return "comparison"
    if len(entities) > 1 or len(metrics) > 1 or len(periods) > 1:
        return "multi"
    return intent.kind if intent.kind != "comparison" else "lookup"


_OF_TWO_ON_HAND = ("sum", "average", "difference", "ratio")


def _than_the_other(
    intent: Intent, operation: str | None, periods: tuple[str, ...], follow: bool
) -> bool:
    """A follow-up that compares one figure, named by its period only, with "higher",
    "more", "less" ("how much more was it in 2022?"): than the other figure on hand."""
    compares = not HIGHER_OR_LOWER.isdisjoint(words(intent.question))
    named = intent.metrics or intent.referent or len(intent.entities) > 1
    return compares and follow and not named and operation in _CHANGES and len(periods) == 1


def _only_itself(
    asked: Intent, figure: Figure, metrics: tuple[str, ...], periods: tuple[str, ...]
) -> bool:
    """Whether the other operand would be the result's own fact: the result is a fact whose
    line and period were taken, because the question names no figure, period or constant, or
    because the line it names in part was settled as the result's own ("what share of
    branches was that?" after one region's branches). A figure set against itself makes a
    change of nothing or a ratio of 1, never an answer."""
    own = metrics == (figure.metric,) and periods == (figure.period,)
    return not asked.constants and figure.kind == "fact" and own


def _parts(turn: Remembered, share: Figure) -> tuple[Figure, ...]:
    """The facts a share stands on that its answer gave, part first (a share's sources are
    its part's, then its whole's)."""
    facts = {f.sources: f for f in turn.results if f.kind == "fact" and len(f.sources) == 1}
    found = (facts.get((source,)) for source in share.sources)
    return tuple(f for f in found if f is not None)


def _part_of_share(turn: Remembered, share: Figure, named: tuple[str, ...]) -> Figure | None:
    """ "And how much did it represent in relation to X?" right after a share of one figure
    in another: a share set against a new whole is a share of a share, so "it" is the part
    the share was taken of, the figure the earlier question set first. Only when the share
    stands on two facts that answer gave, and the question names one figure that is neither
    of them (named again, the part or the whole would make the question ask something else);
    else None, and it is asked back."""
    parts = _parts(turn, share)
    if len(share.sources) != 2 or len(parts) != 2 or len(named) != 1:
        return None
    part, whole = parts
    return None if named[0] in (part.metric, whole.metric) else part


def _share_of_a_share(asked: Intent, resolved: Intent, figure: Figure) -> bool:
    """ "How much did it represent in relation to X", right after a share or a ratio: "it"
    may be that share or the part it was taken of, and a share set against a figure the
    question names is seldom what is meant. Asked back rather than guessed."""
    return (
        asked.referent == "result"
        and bool(asked.metrics)
        and resolved.operation in _SHARES
        and figure.kind == "computed"
        and figure.role_or_kind in _ROLES_NAMED["share"]
    )


def _two_lines_of_one_period(
    asked: Intent, figure: Figure, metrics: tuple[str, ...], periods: tuple[str, ...]
) -> bool:
    """Whether an earlier result the question sets against a named line is one fact of
    the same company and period: the two are that period's two lines."""
    return (
        figure.kind == "fact"
        and bool(figure.metric)
        and asked.referent == "result"
        and len(metrics) == 1
        and metrics[0] != figure.metric
        and len(periods) == 1
        and periods[0] == figure.period
        and not asked.constants
        and not asked.entities
    )


def _compared_results(intent: Intent) -> bool:
    """Whether a turn set two earlier results side by side to say which is higher or lower."""
    return intent.operation in ("higher", "lower") and intent.referent == "pair"
