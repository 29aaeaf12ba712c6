"""Security gate: screens the raw current question before anything else sees it.

The gate is deterministic and self-contained (no network, no model, no Django). It answers one
question: may this text go on to the parser, a provider, a tool or retrieval? A blocked question
gets a reason code and a short sentence for the reviewer that depends on the reason alone, so it
never repeats what was asked. The design and its measurements are in docs/adr/0015.

How it decides, cheapest first:

1. Shape: empty, longer than ``max_length``, or carrying characters that hide or reorder text
   (Unicode tag characters, bidi controls, C0 control codes).
2. A fast screen over bytes: the question is lower-cased, leetspeak digits are read as letters,
   and its words are checked against the trigger set, which is the union of every rule's key
   words (so it cannot fall out of step with the rules); split-word stems and odd shapes
   (spaced-out letters, long encoded runs, escapes, markup) are checked too. A question with
   none of these cannot match any rule and is allowed: about 96% of analysts' questions.
3. Close reading: the text is folded (NFKC, casefold, look-alike letters, accents, zero-width
   joins, leetspeak, spaced-out letters) and read by rules built from a small lexicon of roles:
   an imperative aimed at the assistant (ignore, forget, reveal, repeat...) followed, within a
   few qualifier words, by what the assistant was told (instructions, prompt, rules, "the
   above"). Persona cues are scored so one ambiguous word never blocks; restricted material
   only counts as a request to see a document. Each rule names the words it cannot match
   without and runs only when they are present.
4. Encoded payloads: base64, hex, binary, percent/HTML/backslash escapes, rot13, reversed and
   spaced-out text are decoded or recognised and read by the same rules.
5. Two or more zero-width or other format characters that are not part of an emoji.

Every pattern is bounded (no nested unbounded repetition), so time grows linearly with length.
The lexicon covers English, German, French and Spanish phrasings of the common attacks, and the
commonest Italian, Portuguese, Dutch and Croatian ones.

Where each part lives: gate.py (SecurityGate, the close reading, the fast screen, hidden
characters), reasons.py, then the rules (rules.py reads a phrase with the families in
overrides.py, extraction.py, roleplay.py and restricted.py, built with patterns.py), the
lexicon (words.py), folding.py and payloads.py.
"""

from engine.gate.gate import SecurityGate
from engine.gate.reasons import (
    EMPTY,
    ENCODED_PAYLOAD,
    INSTRUCTION_OVERRIDE,
    INVISIBLE_CHARACTERS,
    OVERLONG,
    PROMPT_EXTRACTION,
    REASONS,
    RESTRICTED_REQUEST,
    ROLE_PLAY,
    GateResult,
)

__all__ = [
    "EMPTY",
    "ENCODED_PAYLOAD",
    "INSTRUCTION_OVERRIDE",
    "INVISIBLE_CHARACTERS",
    "OVERLONG",
    "PROMPT_EXTRACTION",
    "REASONS",
    "RESTRICTED_REQUEST",
    "ROLE_PLAY",
    "GateResult",
    "SecurityGate",
]
