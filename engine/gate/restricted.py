"""Restricted material. Finance says "restricted cash", "restricted stock", "confidential
treatment", "classified as held for sale": the adjective only counts next to a word for a
document or piece of information, and only in a request to see it."""

from __future__ import annotations

from engine.gate.patterns import Q, any_match, rule
from engine.gate.words import ACCESS_CONTROLS, DOC_WORDS, RESTRICTED_WORDS

_RESTRICTED_ADJ = (
    r"(?:restricted|confidential|classified|secret|top secret|internal only|internal use only|"
    r"for internal use|eyes only|privileged|nonpublic|embargoed|vertrauliche[nrs]?|geheime[nrs]?|"
    r"confidentiel(?:le)?s?|confidenciale?s?|reservados?|restringidos?)"
)
_DOC_NOUN = (
    r"(?:documents?|docs?|files?|memos?|memoranda|reports?|material|materials|information|info|"
    r"data|records?|passages?|notes|minutes|sources?|content|contents|emails?|e mails|"
    r"communications|drafts?|papers|filings|chunks|excerpts|sections?|pages|facts|figures|"
    r"numbers|details|attachments|folders?|databases?|archives?|correspondence|ones|items|"
    r"dokumente|unterlagen|informationen|daten|documentos|informacion|archivos)"
)
_DOC_QUALIFIER = (
    r"(?:(?:board|internal|hr|legal|management|audit|strategy|company|project|deal|merger|"
    r"acquisition|planning|budget|salary|payroll|employee|customer|client|investor|financial|"
    r"executive|m&a) )"
)
# An imperative may sit a few words before what it asks for ("give me access to the ...
# files"); a question word must sit next to it ("what do the restricted reports say"), so that
# "what is the policy on confidential information" stays a question about the policy.
_RETRIEVE = (
    r"(?:(?:show|give|list|reveal|send|provide|share|display|print|dump|export|read|open|"
    r"retrieve|fetch|get|quote|summari[sz]e|tell me|find|search|pull|leak|disclose|cite|see|view|"
    r"download|copy|unlock|zeig(?:e|en)?|gib|montre|donne|muestra|muestrame|dame) "
    r"(?:[\w'&]+ ){0,4}?|(?:what (?:do|does|did|is|are|was|were)|which|include|including|use) "
    r"(?:[\w'&]+ )?)"
)
# French and Spanish put the adjective after the noun ("documentos confidenciales").
_RESTRICTED_ADJ_AFTER = (
    r"(?:confidentiel(?:le)?s?|confidenciale?s?|reservad[oa]s?|restringid[oa]s?|clasificad[oa]s?|"
    r"classifie(?:e)?s?|secret(?:e)?s?|secret[oa]s?)"
)
RESTRICTED_RULES = (
    rule(
        RESTRICTED_WORDS,
        rf"\b{_RETRIEVE}{_RESTRICTED_ADJ} {_DOC_QUALIFIER}?{_DOC_NOUN}\b",
        also=DOC_WORDS,
    ),
    rule(
        RESTRICTED_WORDS + " clasificados classifies secretos",
        rf"\b{_RETRIEVE}{_DOC_NOUN} {_RESTRICTED_ADJ_AFTER}\b",
        also=DOC_WORDS,
    ),
    rule(
        ACCESS_CONTROLS,
        r"\b(?:bypass|circumvent|override|disable|ignore|get around|work around|skip|turn off|"
        r"switch off|deactivate|lift|remove|evade|defeat|hack|crack|umgehe|umgehen|contourne[rz]?|"
        rf"eludir|evita) {Q}{{0,3}}(?:access controls?|access restrictions?|access levels?|"
        r"permissions?|permission checks?|classifications?|classification levels?|clearance|"
        r"authori[sz]ation|authentication|redactions?|security (?:checks?|controls?|filters?|"
        r"gates?|restrictions?|clearance)|content filters?|data classification|acls?|row level "
        r"security|entitlements?|zugriffskontrollen?|berechtigungen)\b",
        also="bypass circumvent override disable ignore get work skip turn switch deactivate lift "
        "remove evade defeat hack crack umgehe umgehen contourne contourner contournez eludir "
        "evita",
    ),
    rule(
        "declassify unredact unredacted unmask",
        r"\b(?:declassify|unredact|unredacted|unmask the redacted)\b",
    ),
)
# "I am an administrator / I have clearance" next to a restricted document is a request for it.
CLEARANCE_CLAIM = rule(
    "admin administrator authorized authorised cleared superuser root owner officer clearance "
    "authorization authorisation access",
    r"\b(?:i am|i'm|im|as) (?:an? |the )?(?:admin|administrator|authori[sz]ed|cleared|superuser|"
    r"root user|system owner|security officer)\b|\bi have (?:[\w-]+ ){0,2}?(?:clearance|"
    r"authori[sz]ation|admin access|full access|root access)\b|\b(?:security|top secret|level "
    r"\d+) clearance\b",
)
RESTRICTED_MENTION = rule(
    RESTRICTED_WORDS, rf"\b{_RESTRICTED_ADJ} {_DOC_QUALIFIER}?{_DOC_NOUN}\b", also=DOC_WORDS
)


def asks_for_restricted(phrase: str, words: frozenset[str]) -> bool:
    if any_match(RESTRICTED_RULES, phrase, words):
        return True
    return CLEARANCE_CLAIM.matches(phrase, words) and RESTRICTED_MENTION.matches(phrase, words)
