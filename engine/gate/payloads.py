"""Encoded payloads: base64, hex, binary, percent/HTML/backslash escapes, rot13, reversed and
spaced-out text are decoded or recognised and read by the same rules as plain text; forged
chat turns and disguised text are recognised by their shape."""

from __future__ import annotations

import base64
import binascii
import html
import re
from collections.abc import Callable
from urllib.parse import unquote

from engine.gate.folding import fold, phrase_of
from engine.gate.patterns import word_set
from engine.gate.reasons import ENCODED_PAYLOAD, INSTRUCTION_OVERRIDE
from engine.gate.rules import semantic_reason
from engine.gate.words import CIPHER_WORDS, INSTRUCTION_WORDS

_BASE64_RUN = re.compile(r"[A-Za-z0-9+/_\-]{16,}={0,2}")
_HEX_RUN = re.compile(r"(?:0x)?(?:[0-9A-Fa-f]{2}[\s:,]?){12,}")
_BINARY_RUN = re.compile(r"(?:[01]{8}\s?){6,}")
_PERCENT_RUN = re.compile(r"(?:%[0-9A-Fa-f]{2}){3,}")
_ESCAPE_RUN = re.compile(r"(?:\\x[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}|&#x?[0-9A-Fa-f]+;){4,}")
_BACKSLASH_ESCAPE = re.compile(r"\\x([0-9A-Fa-f]{2})|\\u([0-9A-Fa-f]{4})")
_MAX_CANDIDATES = 8
_MIN_PRINTABLE = 0.9
_MAX_DEPTH = 2


def _printable_text(data: bytes) -> str | None:
    """The decoded bytes as text when they read as text, else None."""
    if len(data) < 6:
        return None
    text = data.decode("utf-8", errors="replace")
    readable = sum(1 for char in text if char.isprintable() or char in "\n\t")
    if readable / len(text) < _MIN_PRINTABLE or sum(char.isalpha() for char in text) < 4:
        return None
    return text


def _decode_base64(run: str) -> str | None:
    # base64 of text mixes cases; a long lower-case word or a number is not base64
    if run.islower() or run.isupper() or run.isdigit():
        return None
    body = run.rstrip("=")
    urlsafe = "-" in body or "_" in body
    try:
        data = base64.b64decode(body + "=" * (-len(body) % 4), altchars=b"-_" if urlsafe else None)
    except (binascii.Error, ValueError):
        return None
    return _printable_text(data)


def _decode_hex(run: str) -> str | None:
    digits = re.sub(r"[^0-9A-Fa-f]", "", run.removeprefix("0x"))
    if len(digits) % 2 or digits.isdigit():
        return None
    return _printable_text(bytes.fromhex(digits))


def _decode_binary(run: str) -> str | None:
    bits = "".join(run.split())
    return _printable_text(bytes(int(bits[i : i + 8], 2) for i in range(0, len(bits) - 7, 8)))


_DECODERS: tuple[tuple[re.Pattern[str], Callable[[str], str | None]], ...] = (
    (_BASE64_RUN, _decode_base64),
    (_HEX_RUN, _decode_hex),
    (_BINARY_RUN, _decode_binary),
)


def _decoded_runs(text: str) -> list[str]:
    """Plausible decodings of the encoded runs in the text, at most _MAX_CANDIDATES of them."""
    found: list[str] = []
    for pattern, decode in _DECODERS:
        for match in pattern.finditer(text):
            decoded = decode(match.group(0))
            if decoded:
                found.append(decoded)
            if len(found) >= _MAX_CANDIDATES:
                return found
    return found


def _unescaped(text: str) -> str | None:
    """The text with percent, HTML and backslash escapes undone, when it has a run of them
    (a lone %20 in a pasted link does not count)."""
    if not (_PERCENT_RUN.search(text) or _ESCAPE_RUN.search(text)):
        return None
    decoded = unquote(html.unescape(text))
    decoded = _BACKSLASH_ESCAPE.sub(lambda m: chr(int(m.group(1) or m.group(2), 16)), decoded)
    return decoded if decoded != text else None


def _letters(text: str) -> int:
    return sum(1 for char in text if char.isalpha())


def _is_hostile(decoded: str, depth: int) -> bool:
    phrase = phrase_of(fold(decoded))
    if semantic_reason(phrase) or not INSTRUCTION_WORDS.isdisjoint(word_set(phrase)):
        return True
    return depth < _MAX_DEPTH and encoded_reason(decoded, depth + 1) is not None


# Any encoded run at all; the decoders below only run when this finds one.
_ENCODING_HINT = re.compile(
    r"[A-Za-z0-9+/_\-]{16}|(?:[0-9A-Fa-f]{2}[\s:,]?){12}|[01]{8}\s?[01]{8}|%[0-9A-Fa-f]{2}|&#|"
    r"\\[xu][0-9A-Fa-f]"
)


def encoded_reason(text: str, depth: int = 0) -> str | None:
    """Base64, hex and binary runs that decode to instructions, and escape runs that spell out
    letters (escaping plain letters has no use but hiding them)."""
    if not _ENCODING_HINT.search(text):
        return None
    if any(_is_hostile(decoded, depth) for decoded in _decoded_runs(text)):
        return ENCODED_PAYLOAD
    unescaped = _unescaped(text)
    if unescaped is not None and (
        _letters(unescaped) - _letters(text) >= 6 or _is_hostile(unescaped, depth)
    ):
        return ENCODED_PAYLOAD
    return None


_CIPHERED_STEM = re.compile(
    r"vtaber|qvfertneq|sbetrg|cebzcg|vafgehpg|cnffjbeq|erirny|flfgrz|erongi|tpmorp|"
    r"snoitcurtsni|drowssap|laever|metsys"
)
_DECODE_AND_OBEY = re.compile(
    r"\b(?:decode|decipher|decrypt|unscramble|reverse|translate from|convert from)\b"
    r"[^.!?]{0,60}\b(?:and|then)\b[^.!?]{0,30}\b(?:follow|execute|obey|do|run|perform|"
    r"carry out|act on|answer|respond to)\b"
)
ROT13 = str.maketrans(
    "abcdefghijklmnopqrstuvwxyz",
    "nopqrstuvwxyzabcdefghijklm",
)


def cipher_reason(phrase: str) -> str | None:
    """Requests to decode something and obey it, and instructions in rot13 or written backwards.
    The variants are only read when the text names a cipher or carries a ciphered stem."""
    named_cipher = not CIPHER_WORDS.isdisjoint(word_set(phrase))
    if named_cipher and _DECODE_AND_OBEY.search(phrase):
        return ENCODED_PAYLOAD
    if not (named_cipher or _CIPHERED_STEM.search(phrase)):
        return None
    for variant in (phrase.translate(ROT13), phrase[::-1]):
        if semantic_reason(variant) or not INSTRUCTION_WORDS.isdisjoint(word_set(variant)):
            return ENCODED_PAYLOAD
    return None


# Letters spaced or dotted apart ("S a y t h a t ...") in one long run: nobody types a question
# that way except to slip words past a filter. Initialisms ("U.S. G.A.A.P.") are shorter.
_LONG_SPACED = re.compile(r"(?<![A-Za-z])(?:[A-Za-z][ .\-_*|/+]{1,3}){9,}[A-Za-z](?![A-Za-z])")
# Typed escape sequences ("\n\n\n") pretend to end the prompt and start a new one.
_TYPED_NEWLINES = re.compile(r"(?:\\\s?n\s*){3,}")


# Chat-template tokens and role headers smuggle a fake system or assistant turn into the text.
_ROLE_TOKENS = re.compile(
    r"<\|(?:im_start|im_end|system|assistant|user|endoftext|eot_id|start_header_id)\|>|\[/?INST\]|"
    r"<</?SYS>>|</?(?:system|sys|instructions?)>|"
    r"^\s*(?:#{2,}|\[)\s*(?i:system|new instructions?)\b",
    re.MULTILINE,
)


def forged_turn(text: str) -> str | None:
    return INSTRUCTION_OVERRIDE if _ROLE_TOKENS.search(text) else None


def disguised(text: str) -> str | None:
    if _LONG_SPACED.search(text) or _TYPED_NEWLINES.search(text):
        return ENCODED_PAYLOAD
    return None
