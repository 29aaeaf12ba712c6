"""Role play. A strong cue aims a new persona or mode at the assistant; weaker cues
(amplifiers) only count in text that talks to the assistant ("you"), and two of them are
needed. A persona may also be named outright: "You are Volkswagen."."""

from __future__ import annotations

import re

from engine.gate.patterns import any_match, opening_words, rule
from engine.gate.reasons import ROLE_PLAY
from engine.gate.words import PERSONA_VERBS, SECOND_PERSON

_LEAD_IN = (
    r"(?:^|(?<=[.!?:;] )|(?<=[.!?:;])|(?:please|now|ok|okay|so|and|then|just|simply|you will|"
    r"you shall|you must|you should|you are going to|you're going to|you need to|you have to|"
    r"can you|could you|will you|would you|you can|i want you to|i'd like you to|"
    r"i would like you to|i need you to) )"
)
PERSONA_RULES = (
    rule(
        "you you're youre u ur you'll",
        r"\b(?:you are|you're|youre|u r|ur|you will be|you'll be) now\b",
        also="now",
    ),
    rule("you you're", r"\bnow,? you(?: are|'re| will be)\b", also="now"),
    rule(
        "you your",
        r"\bfrom (?:now on|this (?:point|moment) (?:on|forward)),?(?: [\w']+){0,6}? (?:you|your)\b",
        also="now point moment",
    ),
    rule(
        "you u",
        r"\b(?:i want|i'd like|i would like|i need) (?:you|u) to (?:act|pretend|behave|role ?play|"
        r"play|be|become|simulate|imagine|impersonate|respond as|answer as|speak as|talk like)\b",
        also="want like need i'd",
    ),
    # an imperative at the start of a sentence: "Act as a Linux terminal." (not "the act as
    # guarantor clause")
    rule(
        PERSONA_VERBS,
        rf"{_LEAD_IN}(?:act|behave|roleplay|role play|pretend|impersonate|pose) (?:as|like|to be|"
        r"you)\b",
    ),
    rule(
        "pretend",
        r"\bpretend (?:to be|you are|you're|that you|you can|you have|you were|to have)\b",
    ),
    rule(
        PERSONA_VERBS,
        r"\b(?:you|u) (?:will |shall |must |should |can |now |are to |have to |need to )?(?:now )?"
        r"(?:act|behave|pretend|roleplay|role play|impersonate|pose) (?:as|like|to be)\b",
        also="you u",
    ),
    rule(
        "character persona",
        r"\b(?:respond|answer|reply|speak|talk|write) (?:only )?(?:as|like) (?:the|a|an|this|that|"
        r"your) (?:character|persona)\b",
    ),
    rule("imagine", r"\bimagine (?:that )?(?:you are|you're|you were|yourself as)\b"),
    rule(
        "act",
        r"\bact (?:as|like) (?:a |an |my |the )?(?:[\w-]+ ){0,2}?(?:interpreter|terminal|console|"
        r"shell|compiler|bot|ai|chatbot|model|character|persona|translator|dan|gpt|jailbreak)\b",
    ),
    rule(
        "known called referred",
        r"\b(?:from now on|henceforth|hereafter|from now) (?:known|called|referred to) as\b",
    ),
    rule("longer", r"\byou(?: are|'re| will be) no longer\b"),
    rule(
        "acting become",
        r"\byou(?: are|'re) (?:now )?acting as\b|\byou (?:will|shall|must|are going to|are about "
        r"to) (?:now )?become\b",
    ),
    rule("godmode devmode", r"\b(?:godmode|devmode|jailbreakmode)\b"),
    rule(
        "mode",
        r"\b(?:stay|remain|keep) in (?:[\w-]+ ){0,2}?mode\b|\bmode (?:is )?(?:now )?(?:enabled|"
        r"activated|engaged|unlocked)\b",
    ),
    rule(
        "named called persona ego",
        r"\byou(?: are|'re) (?:a|an|the) (?:[\w-]+ ){0,3}?(?:named|called)\b|\byour (?:new )?"
        r"persona is\b|\b(?:your|you have an?) alter ego\b|\bin character as\b",
    ),
    rule(
        "acts behaves runs operates act behave",
        r"\b(?:assistant|chatgpt|gpt|ai|bot|model) (?:now |will now |will )?(?:acts?|behaves?|runs?"
        r"|operates?) (?:as|like) (?:a|an)\b",
    ),
    rule(
        "named called",
        r"\b(?:ai|bot|chatbot|assistant|model|entity|persona|character) (?:named|called)\b",
    ),
    rule(
        "roleplay role roleplaying",
        r"\b(?:let's|lets|let us|we will|we'll|you will|you'll|please|can you|could you|we can|"
        r"i want to|i'd like to|engage in) (?:do |start |begin |play )?(?:a |an )?"
        r"role ?play(?:ing)?\b(?! games?)|\brole ?play(?:ing)? (?:as|with me|where you|in which "
        r"you)\b",
    ),
    rule(
        "role part persona character identity",
        r"\b(?:play|take on|assume|adopt|embody) (?:the )?(?:role|part|persona|character|identity) "
        r"of\b",
    ),
    rule(
        "character role persona roles rollen rolle",
        r"\b(?:stay|stays|remain|keep|bleiben|bleibt) (?:[\w']+ ){0,2}?in (?:character|role|"
        r"persona|(?:their|his|her|your|ihren|ihrer|seiner|deiner) (?:roles?|rollen?|"
        r"character))\b",
    ),
    rule(
        "character rolle figur",
        r"\bbreak(?:ing)? character\b|\bout of character\b|\baus der (?:rolle|figur)\b",
    ),
    rule(
        "mode",
        r"\b(?:developer|dev|god|debug|admin|sudo|root|unrestricted|jailbreak|jailbroken|dan|evil|"
        r"opposite|unfiltered|uncensored|maintenance|unlocked|chaos|hacker|diagnostic) mode\b",
    ),
    rule(
        "mode",
        r"\b(?:enable|activate|enter|switch to|turn on|unlock|engage)\b[^.!?]{0,40}? mode\b",
    ),
    rule("anything", r"\bdo anything now\b"),
    rule(
        "bist sind",
        r"\b(?:du bist|sie sind) (?:jetzt|nun|ab sofort)\b|\b(?:jetzt|nun) bist du\b",
        also="du sie jetzt nun",
    ),
    rule(
        "stell tu",
        r"\bstell (?:dir|euch) vor,? (?:du bist|du warst|dass du|sie sind)\b|\btu so,? als\b",
    ),
    rule(
        "rolle fungieren",
        r"\b(?:spiel|spiele|spielst|ubernimm) (?:die|eine) rolle\b|\bals (?:[\w-]+,? ){1,6}?"
        r"fungieren\b",
    ),
    rule("verhalte entwicklermodus", r"\bverhalte dich (?:wie|als)\b|\bentwicklermodus\b"),
    rule(
        "maintenant desormais",
        r"\btu es (?:maintenant|desormais)\b|\ba partir de maintenant,? (?:tu|vous)\b",
    ),
    rule(
        "semblant joue jouez developpeur agis",
        r"\bfais semblant\b|\bjouez? (?:le|un) role\b|\bmode developpeur\b|\bagis comme\b",
    ),
    rule(
        "ahora partir",
        r"\b(?:ahora eres|ahora seras|desde ahora eres)\b"
        r"|\ba partir de ahora,? (?:eres|seras|tu)\b",
    ),
    rule(
        "finge actua papel modo",
        r"\bfinge (?:ser|que)\b|\bactua como\b|\bjuega el papel\b|\bmodo (?:desarrollador|dios)\b",
    ),
)
_AMPLIFIERS = (
    rule(
        "restrictions filter filters limits limitations rules boundaries censorship morals ethics "
        "guidelines policies moderation einschrankungen regeln zensur filtre censure limites "
        "restricciones filtros censura",
        r"\b(?:no|without any|without|ohne|sans|sin) (?:restrictions|filters?|limits|limitations|"
        r"rules|boundaries|censorship|morals|ethics|guidelines|policies|moderation|einschrankungen|"
        r"regeln|zensur|"
        r"filtre|censure|limites|restricciones|filtros|censura)\b",
        also="no without ohne sans sin",
    ),
    rule(
        "unrestricted unfiltered uncensored amoral immoral unethical unhinged unbound",
        r"\b(?:unrestricted|unfiltered|uncensored|amoral|immoral|unethical|unhinged|unbound)\b",
    ),
    rule(
        "refuse refuses decline declines says",
        r"\bnever (?:refuses?|declines?|says? no)\b|\b(?:cannot|can't|must not|won't) refuse\b",
    ),
    rule(
        "bound restricted limited constrained",
        r"\bnot (?:bound|restricted|limited|constrained) by\b",
    ),
    rule(
        "free",
        r"\bfree (?:from|of) (?:all |any |the )?(?:restrictions|rules|limitations|constraints|"
        r"guidelines|policies|filters|censorship)\b",
    ),
    rule(
        "content openai chatgpt anthropic language",
        r"\bcontent polic(?:y|ies)\b|\bopenai\b|\bchatgpt\b|\banthropic\b|\blanguage model\b",
    ),
    rule("dan evil", r"\bdan\b|\bevil (?:ai|assistant|bot|twin|version|confidant|persona)\b"),
    rule("two", r"\btwo (?:different |separate )?(?:responses|answers|ways|personalities)\b"),
    rule("jailbreak jailbreaks jailbreaking jailbroken", r"\bjailbr(?:eak|eaks|eaking|oken)\b"),
    rule(
        "hypothetical hypothetically fictional theoretical imaginary fictitious alternate",
        r"\bhypothetical(?:ly)?\b|\b(?:fictional|theoretical|imaginary|fictitious|alternate) "
        r"(?:world|story|scenario|universe|reality|ai|character|models?|assistant|chatbot)\b",
    ),
    rule(
        "break ignore",
        r"\bbreak (?:the|all|any|your) rules\b|\bignore (?:all |any )?(?:ethic|moral)",
    ),
    rule("simulate simulation simulator", r"\bsimulat(?:e|ion|or)\b"),
    rule(
        "liberated freed rebel rebellious unchained unleashed unlocked free",
        r"\b(?:liberated|rebel(?:lious)?|unchained|unleashed|unlocked)\b|\bi'?m free\b",
    ),
    # refusal suppression: "never say sorry", "no warnings or disclaimers"
    rule(
        "sorry warnings disclaimers refusals refusal apologize apologise",
        r"\b(?:never|don't|dont|do not|without) (?:say(?:ing)?|use|using|add(?:ing)?|giv(?:e|ing)|"
        r"includ(?:e|ing)) (?:any )?(?:sorry|warnings?|disclaimers?|refusals?)\b|\bno (?:warnings|"
        r"disclaimers|refusals?)\b|\bnever (?:apologi[sz]e|refuse)\b",
    ),
    rule(
        "response answer",
        r"\byour (?:second|other|alternate|alternative|real|true|liberated|unfiltered|evil) "
        r"(?:response|answer)\b|\bsemantically opposite\b",
    ),
)

_PERSONA_OPENERS = opening_words(PERSONA_RULES)


def plays_a_role(phrase: str, words: frozenset[str]) -> bool:
    if not _PERSONA_OPENERS.isdisjoint(words) and any_match(PERSONA_RULES, phrase, words):
        return True
    if SECOND_PERSON.isdisjoint(words):
        return False
    return sum(1 for rule in _AMPLIFIERS if rule.matches(phrase, words)) >= 2


# "You are Volkswagen." / "Du bist Zeit Online." at the start of a sentence names a persona; the
# capital letter is what tells it apart from "you are right".
_PERSONA_NAME = re.compile(
    r"(?:^|[.!?]\s+)(?i:you are|you're|du bist|tu es|eres|sie sind) (?:now |jetzt |nun )?"
    r"[A-Z][\w-]+(?:\s+[A-Z][\w-]+)*\s*[.,:;!(]"
    # a persona sheet: "PERSONA=Bob (amoral ...) RULES=..."
    r"|(?i:\b(?:persona|character|role|rules)\s*=\s*\w)"
)


def named_persona(text: str) -> str | None:
    return ROLE_PLAY if _PERSONA_NAME.search(text) else None
