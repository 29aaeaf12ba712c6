"""Folding: text -> lower-case ASCII words, so one rule set reads every spelling."""

from __future__ import annotations

import re
import unicodedata

_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_PHRASE_SEPARATORS = re.compile(r"[^a-z0-9'.,!?;:&\n]+")
_NEWLINES = re.compile(r"\s*\n[\s\n]*")
_LEET_HINT = re.compile(r"[a-z][0-9@$]+[a-z]|(?<![a-z0-9])[013457@$][a-z]{2}")
_LEET_TOKEN = re.compile(r"[a-z0-9@$]*[a-z][a-z0-9@$]*")
_LEET = str.maketrans("0134578@$", "oieastbas")
_SPACED_LETTERS = re.compile(r"(?<![a-z])(?:[a-z][ .\-_*|/+]{1,3}){2,}[a-z](?![a-z])")
NOT_LETTERS = re.compile(r"[^a-z]+")

# Letters that look like Latin ones: Cyrillic and Greek look-alikes ("іgnоrе" with Cyrillic і,
# о, е) and small capitals ("ɪɢɴᴏʀᴇ"), which NFKC leaves alone.
_CONFUSABLES = str.maketrans(
    "аеорсухіјѕԁһкмнвтԛԝɡɑɩοαερτυνικμηχγβѵӏǀᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢ",
    "aeopcyxijsdhkmhbtqwgaioaeptuvikunxybvllabcdefghijklmnoprstuvwyz",
)

# Format characters (zero-width space and joiners, word joiner, soft hyphen, BOM, bidi marks),
# blank-rendering letters and variation selectors: removed before reading, counted as hiding.
HIDING_CODEPOINTS = frozenset(
    [
        *(0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x2800, 0x3164),
        *(0xFEFF, 0xFFA0),
        *range(0x200B, 0x2010),
        *range(0x2060, 0x2070),
        *range(0xFE00, 0xFE10),
    ]
)
_DROP_HIDDEN: dict[int, None] = dict.fromkeys(HIDING_CODEPOINTS)


def fold(text: str) -> str:
    """Lower-case ASCII with Unicode tricks, leetspeak and spaced-out letters undone."""
    folded = text.lower() if text.isascii() else _fold_unicode(text)
    if _LEET_HINT.search(folded):
        folded = _LEET_TOKEN.sub(_unleet_token, folded)
    return _SPACED_LETTERS.sub(_join_letters, folded)


def _fold_unicode(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).translate(_DROP_HIDDEN).casefold()
    folded = folded.translate(_CONFUSABLES).replace("\u2019", "'")
    decomposed = unicodedata.normalize("NFKD", folded)
    folded = "".join(char for char in decomposed if not unicodedata.combining(char))
    return _NON_ASCII.sub(" ", folded)


def _unleet_token(match: re.Match[str]) -> str:
    token = match.group(0)
    return token.translate(_LEET) if any(char.isalpha() for char in token) else token


def _join_letters(match: re.Match[str]) -> str:
    return NOT_LETTERS.sub("", match.group(0))


def phrase_of(folded: str) -> str:
    """Words separated by single spaces; sentence punctuation kept, line breaks become '.'."""
    return _NEWLINES.sub(" . ", _PHRASE_SEPARATORS.sub(" ", folded)).strip()
