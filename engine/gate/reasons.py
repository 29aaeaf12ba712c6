"""Why the gate blocks a question: a reason code, and one short sentence for the reviewer that
depends on the reason alone, so it never repeats what was asked."""

from __future__ import annotations

from dataclasses import dataclass

INSTRUCTION_OVERRIDE = "instruction_override"
PROMPT_EXTRACTION = "prompt_extraction"
ROLE_PLAY = "role_play"
RESTRICTED_REQUEST = "restricted_request"
ENCODED_PAYLOAD = "encoded_payload"
INVISIBLE_CHARACTERS = "invisible_characters"
OVERLONG = "overlong"
EMPTY = "empty"

REASONS = (
    INSTRUCTION_OVERRIDE,
    PROMPT_EXTRACTION,
    ROLE_PLAY,
    RESTRICTED_REQUEST,
    ENCODED_PAYLOAD,
    INVISIBLE_CHARACTERS,
    OVERLONG,
    EMPTY,
)

DETAILS = {
    INSTRUCTION_OVERRIDE: "The question asks the assistant to set aside its instructions.",
    PROMPT_EXTRACTION: "The question asks for the assistant's own instructions or secrets.",
    ROLE_PLAY: "The question asks the assistant to take on another persona or mode.",
    RESTRICTED_REQUEST: (
        "The question asks for restricted or confidential material, or a way around access "
        "controls."
    ),
    ENCODED_PAYLOAD: "The question carries encoded or disguised text; please ask in plain words.",
    INVISIBLE_CHARACTERS: (
        "The question contains hidden or direction-changing characters; please retype it."
    ),
    EMPTY: "The question is empty.",
}


@dataclass(frozen=True, slots=True)
class GateResult:
    allowed: bool
    reason: str | None = None  # a reason code when blocked
    detail: str = ""  # a short human sentence for the reviewer/user, never echoing the payload


ALLOWED = GateResult(allowed=True)


def blocked(reason: str, detail: str | None = None) -> GateResult:
    return GateResult(allowed=False, reason=reason, detail=detail or DETAILS[reason])
