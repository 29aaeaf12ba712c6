"""The security gate: screens the raw current question before anything else sees it.

SecurityGate comes first; below it, in the order it uses them, the close reading, the fast
screen that lets most questions skip it, and the hidden-character checks. The rules live in
their own modules (see engine/gate/__init__.py for the whole procedure).
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Callable

from engine.gate.extraction import EXTRACTION_RULES
from engine.gate.folding import HIDING_CODEPOINTS, fold, phrase_of
from engine.gate.overrides import OVERRIDE_RULES, TASK_OPENED
from engine.gate.patterns import alternation
from engine.gate.payloads import ROT13, cipher_reason, disguised, encoded_reason, forged_turn
from engine.gate.reasons import (
    ALLOWED,
    EMPTY,
    INVISIBLE_CHARACTERS,
    OVERLONG,
    GateResult,
    blocked,
)
from engine.gate.restricted import CLEARANCE_CLAIM, RESTRICTED_MENTION, RESTRICTED_RULES
from engine.gate.roleplay import PERSONA_RULES, named_persona
from engine.gate.rules import semantic_reason
from engine.gate.words import CIPHER_WORDS, SECOND_PERSON, word_list


class SecurityGate:
    """Screens one raw question. Deterministic; holds only its limit."""

    def __init__(self, *, max_length: int = 4000) -> None:
        if max_length < 1:
            raise ValueError("max_length must be at least 1")
        self._max_length = max_length

    def screen(self, question: str) -> GateResult:
        text = question.strip().lstrip("\ufeff").strip()
        if not text:
            return blocked(EMPTY)
        if len(text) > self._max_length:
            limit = self._max_length
            return blocked(OVERLONG, f"The question is longer than {limit} characters.")
        # str.isprintable is false for any control, format or hidden character: a cheap gate
        # in front of the regex.
        if not text.isprintable() and _always_hiding(text):
            return blocked(INVISIBLE_CHARACTERS)
        if not _needs_close_reading(text):
            return ALLOWED
        return _read_closely(text)


def _read_closely(text: str) -> GateResult:
    phrase = phrase_of(fold(text))
    reason = (
        semantic_reason(phrase)
        or named_persona(text)
        or forged_turn(text)
        or encoded_reason(text)
        or cipher_reason(phrase)
        or disguised(text)
    )
    if reason is None and not text.isascii() and _hidden_count(text) >= 2:
        reason = INVISIBLE_CHARACTERS
    return ALLOWED if reason is None else blocked(reason)


# ============================================================================================
# Fast screen: one bytes translation, a split and a set test.


def _byte_table(mapping: Callable[[str], str]) -> bytes:
    return bytes(ord(mapping(chr(code))) for code in range(256))


_LEET_DIGITS = {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
_WORD_TABLE = _byte_table(
    lambda char: (
        char.lower() if char in string.ascii_letters or char == "'" else _LEET_DIGITS.get(char, " ")
    )
)
_RUN_TABLE = _byte_table(
    lambda char: "a" if char.isascii() and (char.isalnum() or char in "+/=") else " "
)
_LOWER_TABLE = _byte_table(str.lower)
_NON_LETTER_BYTES = bytes(code for code in range(256) if chr(code) not in string.ascii_letters)


def _shape_char(char: str) -> str:
    """Letters 'a', bits 'b', markup that the close reading decodes or recognises '!' (escapes,
    chat-template tokens, headings), everything else a space."""
    if char in string.ascii_letters:
        return "a"
    if char in "01":
        return "b"
    return "!" if char in "<[\\#" else " "


_SHAPE_TABLE = _byte_table(_shape_char)
_LONG_RUN = b"a" * 20
_SPACED_RUN = b"a a a a"  # four single letters in a row: "i g n o", "i.g.n.o"
_BYTES_IN_BITS = b"bbbbbbbb bbbbbbbb bbbbbbbb"
_PERCENT_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")


def _needs_close_reading(question: str) -> bool:
    """False only when no rule could match: the question shares no word with any rule's key,
    spells no key stem when its separators are dropped, and has no odd shape."""
    if not question.isascii():
        return True
    raw = question.encode()
    if not _TRIGGER_WORDS.isdisjoint(raw.translate(_WORD_TABLE).split()):
        return True
    if _SQUASHED_STEMS.search(raw.translate(_LOWER_TABLE, _NON_LETTER_BYTES)):
        return True
    if _LONG_RUN in raw.translate(_RUN_TABLE):
        return True
    shape = raw.translate(_SHAPE_TABLE)
    if _SPACED_RUN in shape or _BYTES_IN_BITS in shape or b"!" in shape or "&#" in question:
        return True
    return "%" in question and _PERCENT_ESCAPE.search(question) is not None


# ============================================================================================
# The fast screen's word set, computed from the rules so that it cannot fall out of step with
# them: every rule's key, the second-person words the persona amplifiers need, and the cipher
# names and ciphered stems. (Words are matched after leetspeak digits are read as letters.)

_ALL_RULES = (
    *OVERRIDE_RULES,
    *EXTRACTION_RULES,
    *PERSONA_RULES,
    *RESTRICTED_RULES,
    TASK_OPENED,
    CLEARANCE_CLAIM,
    RESTRICTED_MENTION,
)
_KEY_WORDS = frozenset().union(
    *(rule.needs[0] for rule in _ALL_RULES),
    SECOND_PERSON,
    CIPHER_WORDS,
    word_list("sie sind bist"),
)
# rot13 and reversed spellings of the commonest keys, so that ciphered text is read closely
_CIPHERED_KEYS = frozenset(
    variant
    for word in word_list(
        "ignore disregard forget instructions instruction prompt password reveal system previous "
        "rules"
    )
    for variant in (word.translate(ROT13), word[::-1])
)
# The screen reads words through _WORD_TABLE, which turns leetspeak digits into letters; a key
# with digits ("rot13") is looked for in that form too ("rotie").
_TRIGGER_WORDS = frozenset(word.encode() for word in _KEY_WORDS | _CIPHERED_KEYS) | frozenset(
    tokens[0]
    for tokens in (word.encode().translate(_WORD_TABLE).split() for word in _KEY_WORDS)
    if len(tokens) == 1
)
# Looked for with separators dropped ("ig nore previ ous"): the stems the split-word reading
# in rules.py (_SQUASHED) needs, as one trie regex.
_SQUASHED_STEMS = re.compile(
    alternation(
        word_list(
            "ignore disregard forget override bypass instruct prompt developermode doanything "
            "youarenow pretend stayincharacter jailbreak"
        )
    ).encode()
)


# ============================================================================================
# Hidden characters

_ALWAYS_HIDING = re.compile(
    "[\U000e0000-\U000e007f\u202a-\u202e\u2066-\u2069\x00-\x08\x0b\x0c\x0e-\x1f\x7f"
    "\U000e0100-\U000e01ef]"
)


def _always_hiding(text: str) -> bool:
    """Characters with no place in a typed question: tag characters (invisible ASCII), bidi
    embeddings and isolates (they reorder what a reviewer sees), C0 control codes (escape
    sequences hide text on a terminal), and the variation-selector supplement used to smuggle
    bytes inside emoji. C1 controls are left alone: they are what a Windows-1252 apostrophe
    becomes when pasted through the wrong decoder."""
    return _ALWAYS_HIDING.search(text) is not None


_EMOJI_JOINERS = frozenset((0x200D, 0xFE0E, 0xFE0F))


def _hidden_count(text: str) -> int:
    """Hiding characters, not counting the joiner and presentation selectors that belong to an
    emoji ("❤️", family emoji): those follow a symbol."""
    count = 0
    for index, char in enumerate(text):
        code = ord(char)
        if code not in HIDING_CODEPOINTS:
            continue
        after_symbol = index > 0 and unicodedata.category(text[index - 1]) == "So"
        count += 0 if code in _EMOJI_JOINERS and after_symbol else 1
    return count
