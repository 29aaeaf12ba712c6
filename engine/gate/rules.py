"""Reading a folded phrase: the rule families in order, and split or squashed words."""

from __future__ import annotations

import re

from engine.gate.extraction import extracts
from engine.gate.folding import NOT_LETTERS
from engine.gate.overrides import overrides
from engine.gate.patterns import word_set
from engine.gate.reasons import (
    INSTRUCTION_OVERRIDE,
    PROMPT_EXTRACTION,
    RESTRICTED_REQUEST,
    ROLE_PLAY,
)
from engine.gate.restricted import asks_for_restricted
from engine.gate.roleplay import plays_a_role
from engine.gate.words import word_list


def semantic_reason(phrase: str) -> str | None:
    """The first rule family that reads the folded phrase as an attack."""
    words = word_set(phrase)
    if overrides(phrase, words):
        return INSTRUCTION_OVERRIDE
    if extracts(phrase, words):
        return PROMPT_EXTRACTION
    if plays_a_role(phrase, words):
        return ROLE_PLAY
    if asks_for_restricted(phrase, words):
        return RESTRICTED_REQUEST
    return _squashed_reason(phrase, words)


# ============================================================================================
# Split and squashed words: "ig nore previ ous prompt", "i g n o r e a l l p r e v i o u s".
# Read with the separators removed, where only long, unambiguous sequences count.

_SQUASHED = re.compile(
    r"(?:ignore|disregard|forget|override|bypass)(?:all|any|the|your|my|these|every|of)*"
    r"(?:previous|prior|above|preceding|earlier|initial|original)?(?:instructions?|prompts?|"
    r"rules|directions|guidelines|directives|commands|programming)"
    r"|(?:previous|prior|above|initial|original|system)(?:instructions|prompt)"
    r"(?:are|is|were)?(?:false|void|invalid|ignored|null|cancelled|overridden|obsolete)"
    r"|(?:reveal|print|show|repeat|tell|output)(?:me)?(?:your(?:system|initial|original|hidden|"
    r"secret)?|the(?:system|initial|original|hidden|secret))(?:prompt|instructions)"
    r"|systemprompt|developermode|doanythingnow|youarenow|pretendtobe|stayincharacter"
    r"|jailbreakmode|yourinstructions|yoursystemprompt"
)
_SQUASHED_EXTRACTION = ("reveal", "print", "show", "repeat", "tell", "output", "your")
_SQUASHED_ROLE_PLAY = ("developer", "doanything", "youarenow", "pretend", "stayin", "jailbreak")


_SQUASHED_LEADS = word_list(
    "ignore disregard forget override bypass previous prior above initial original systemprompt "
    "system reveal print show repeat tell output developermode doanythingnow youarenow pretendtobe "
    "stayincharacter jailbreakmode yourinstructions yoursystemprompt"
)


def _squashed_reason(phrase: str, words: frozenset[str]) -> str | None:
    """Only for words that were split or spaced out: when the match starts with a word that the
    phrase holds intact, the ordinary rules above have already judged it."""
    match = _SQUASHED.search(NOT_LETTERS.sub("", phrase))
    if match is None:
        return None
    found = match.group(0)
    if any(found.startswith(lead) and lead in words for lead in _SQUASHED_LEADS):
        return None
    if found.startswith(_SQUASHED_EXTRACTION):
        return PROMPT_EXTRACTION
    if found.startswith(_SQUASHED_ROLE_PLAY):
        return ROLE_PLAY
    return INSTRUCTION_OVERRIDE
