"""Building blocks of the gate's rules: trie alternations of word lists, and Rule, a pattern
that names the words it cannot match without, so a question pays for a rule's regex only when
the rule could apply."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from engine.gate.words import QUALIFIERS, word_list

_Trie: TypeAlias = dict[str, "_Trie"]


def alternation(words: Iterable[str]) -> str:
    """A regex alternation built as a trie, so the engine tries a handful of branches per
    position instead of every word (several times faster on this lexicon)."""
    trie: _Trie = {}
    for word in sorted(set(words)):
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}
    return _trie_to_regex(trie)


def _trie_to_regex(node: _Trie) -> str:
    branches = [
        re.escape(char) + _trie_to_regex(child) for char, child in sorted(node.items()) if char
    ]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return "(?:" + body + ")?" if "" in node else body


_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)*")


def word_set(phrase: str) -> frozenset[str]:
    return frozenset(_WORD.findall(phrase))


@dataclass(frozen=True, slots=True)
class Rule:
    """A pattern plus the words it cannot match without: one word from each set in ``needs``
    (say, an imperative and a target). Checking them is a set test, so a question pays for a
    rule's regex only when the rule could apply."""

    needs: tuple[frozenset[str], ...]
    pattern: re.Pattern[str]

    def could_match(self, words: frozenset[str]) -> bool:
        return not any(need.isdisjoint(words) for need in self.needs)

    def matches(self, phrase: str, words: frozenset[str]) -> bool:
        return self.could_match(words) and self.pattern.search(phrase) is not None


def _key_words(entries: str | Iterable[str]) -> frozenset[str]:
    """Lexicon entries may be phrases; a phrase cannot match without its longest word, which is
    also its least common one ("do not follow" -> "follow")."""
    listed = word_list(entries) if isinstance(entries, str) else entries
    return frozenset(max(reversed(entry.split()), key=len) for entry in listed)


def rule(key: str | Iterable[str], pattern: str, *, also: str | Iterable[str] = ()) -> Rule:
    """A rule whose pattern cannot match without a word from ``key`` (rare words: the fast screen
    is built from every rule's key) and, when given, a word from ``also``."""
    sets = (_key_words(key), _key_words(also)) if also else (_key_words(key),)
    return Rule(sets, re.compile(pattern))


def any_match(rules: Sequence[Rule], phrase: str, words: frozenset[str]) -> bool:
    return any(rule.matches(phrase, words) for rule in rules)


def opening_words(rules: Sequence[Rule]) -> frozenset[str]:
    """Every word some rule of the family needs first: none present, skip the family."""
    return frozenset().union(*(rule.needs[0] for rule in rules))


# Words that may sit between a verb and its object ("ignore all the previous ...").
Q = rf"(?:(?:{alternation(QUALIFIERS)}) )"
