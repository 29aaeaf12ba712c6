"""Tokens for linking questions to the vocabulary: one regex pass, lower case, light stemming."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

# Words, numbers written the way reports write them (1,234.5; a comma only before three
# digits, so "December 31, 2032" holds "31"), and the symbols & and %.
# Initials written with dots ("U.S.", "u.s", "e.g.") are one word: a label's "u.s . pension
# plans" and a question's "u.s pension plans" name the same line.
TOKEN = re.compile(
    r"(?<![^\W\d_])[^\W\d_](?:\.[^\W\d_])+(?![^\W\d_])"
    r"|\d+(?:,\d{3})*(?!\d)(?:\.\d+)?|[^\W\d_]+(?:['’][^\W\d_]+)*|[&%$]",
    re.UNICODE,
)
_POSSESSIVE = re.compile(r"['’]s?$")
_ES_AFTER = ("sses", "xes", "ches", "shes", "zes")


class Token(NamedTuple):
    text: str  # as written
    norm: str  # lower case, possessive dropped, stemmed
    start: int  # character offset in the question
    end: int


def tokenize(text: str) -> list[Token]:
    tokens = []
    for match in TOKEN.finditer(text):
        word = match.group()
        start, end = match.span()
        tokens.append(Token(word, normalise_word(word), start, end))
    return tokens


def words(text: str) -> list[str]:
    """Normalised words of a text, for building vocabulary keys."""
    return [normalise_word(m.group()) for m in TOKEN.finditer(text)]


@lru_cache(maxsize=65536)
def normalise_word(word: str) -> str:
    word = word.lower()
    if "." in word and not word[0].isdigit():
        return word.rstrip(".")  # initials, "u.s." as "u.s": not the pronoun "us"
    if "'" in word or "’" in word:
        word = _POSSESSIVE.sub("", word.replace("’", "'"))
    return stem(word)


def lexicon(text: str) -> frozenset[str]:
    """A word list written as one string, in the normalised form a question's words take."""
    return frozenset(normalise_word(w) for w in text.split())


def stem(word: str) -> str:
    """Fold plural forms so 'revenues' meets 'revenue' and 'liabilities' meets 'liability'."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(_ES_AFTER):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word
