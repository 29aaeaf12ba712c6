"""Instruction override: an imperative aimed at the assistant (ignore, forget, override...)
followed, within a few qualifier words, by what the assistant was told; and the context switch
that declares the earlier task done and hands over a new one."""

from __future__ import annotations

from engine.gate.patterns import Q, alternation, any_match, opening_words, rule
from engine.gate.words import (
    AFTER_MARKERS,
    MARKERS,
    OVERRIDERS,
    STRONG_TARGETS,
    WEAK_TARGETS,
)

_VERB = f"(?:{alternation(OVERRIDERS)})"
_STRONG = f"(?:{alternation(STRONG_TARGETS)})"
_WEAK = f"(?:{alternation(WEAK_TARGETS + STRONG_TARGETS)})"
_MARK = f"(?:{alternation(MARKERS)})"
_AFTER = f"(?:{alternation(AFTER_MARKERS)})"
_CLAUSE_END = r"(?=\s*(?:$|[.,!?;:]|and\b|then\b|und\b|et\b|y\b))"

OVERRIDE_RULES = (
    # "ignore all previous instructions", "vergiss deine Anweisungen", "olvida las reglas"
    # ... but not rules about something else: "ignore the rules on capitalisation of R&D"
    rule(
        STRONG_TARGETS,
        rf"\b{_VERB} {Q}{{0,5}}{_STRONG}\b(?! (?:on|of|under|about|regarding|governing|issued) )",
        also=OVERRIDERS,
    ),
    # "forget about all the previous information", "ignore all provided context"
    rule(OVERRIDERS, rf"\b{_VERB} {Q}{{0,4}}{_MARK} {Q}{{0,3}}{_WEAK}\b", also=MARKERS),
    # "forget everything above", "forget everything we discussed beforehand"
    rule(
        OVERRIDERS,
        rf"\b{_VERB} {Q}{{0,4}}{_WEAK} {Q}{{0,2}}{_AFTER}\b",
        also=WEAK_TARGETS + STRONG_TARGETS,
    ),
    # "ignore the above and ...", "forget everything, write ...", "vergiss alles davor."
    rule(
        OVERRIDERS,
        rf"\b{_VERB} {Q}{{0,4}}(?:above|before|previous|prior|preceding|foregoing|davor|zuvor|"
        rf"everything|alles|tout|todo|all){_CLAUSE_END}",
        also="above before previous prior preceding foregoing davor zuvor everything alles tout "
        "todo all",
    ),
    # German puts the infinitive last: "die obigen Ausfuhrungen ignorieren"
    rule(
        "ignorieren vergessen missachten ignorer oublier ignorar olvidar",
        rf"\b{_MARK} {Q}{{0,2}}{_WEAK} (?:[\w']+ ){{0,3}}?(?:ignorieren|vergessen|missachten|"
        r"ignorer|oublier|ignorar|olvidar)\b",
        also=MARKERS,
    ),
    # "any previous instructions given to you should be ignored", "all prior rules are void"
    rule(
        "informationen information angaben",
        rf"\b{_MARK} (?:informationen|information|angaben) (?:[\w']+ ){{0,6}}?(?:are|is|sind|ist) "
        r"(?:now |all |alle )?(?:irrelevant|ignored|forgotten|void|null|nicht (?:ganz )?(?:gultig|"
        r"wichtig|relevant|grossartig)|ungultig|hinfallig|obsolete)\b",
        also=MARKERS,
    ),
    rule(
        STRONG_TARGETS,
        rf"\b(?:{alternation(MARKERS)}|all) {Q}{{0,2}}{_STRONG} (?:[\w']+ ){{0,6}}?(?:are|is|"
        r"were|be|been|now) (?:now |hereby |all |to be )?(?:ignored|forgotten|void|null|invalid|"
        r"false|cancell?ed|overridden|obsolete|irrelevant|revoked|lifted|suspended|disabled|"
        r"deprecated|superseded|replaced|no longer valid|no longer apply|not apply|nicht (?:ganz )?"
        r"(?:gultig|wichtig|relevant|grossartig)|ungultig|annulees|nulas)\b",
        also=[*MARKERS, "all"],
    ),
    # "contrary to previous instructions", "despite what you've been told"
    rule(
        ["told", *STRONG_TARGETS],
        r"\b(?:despite|regardless of|notwithstanding|contrary to|in spite of|instead of following|"
        r"abweichend (?:zu|von)|entgegen|en depit de|a pesar de)"
        rf" (?:what you(?:'ve| have)? been told|{Q}{{0,3}}{_STRONG})\b",
        also="despite regardless notwithstanding contrary spite instead abweichend entgegen depit "
        "pesar",
    ),
    # "your new instructions are", "I am giving you new programming", "new tasks follow"
    rule(
        "your",
        r"\byour (?:new|real|actual|true|next|only|sole|updated|revised|primary) (?:instructions?|"
        r"tasks?|directives?|rules|guidelines|programming|purpose|goal|objective|mission|prompt)\b",
        also="new real actual true next only sole updated revised primary",
    ),
    rule(
        "instruction instructions directive directives programming guidelines rules task tasks "
        "commands",
        r"\b(?:give|giving|send|sending|assign|assigning|here are|these are|receive|received) "
        r"(?:you |to you )?(?:some |the |a )?(?:new|additional|updated|revised|different) "
        r"(?:instructions?|directives?|programming|guidelines|rules|tasks?|commands)\b",
        also="new additional updated revised different",
    ),
    rule(
        "instruction instructions directive directives task tasks assignment assignments "
        "programming commands rule rules",
        r"\b(?:new|additional|updated|revised|supplement(?:ary|al)?|override) (?:instructions?|"
        r"directives?|tasks?|assignments?|programming|commands|rules?) ?(?:follows?|now|"
        r"take precedence|supersede|override|:|-)",
        also="new additional updated revised supplementary supplemental supplement override",
    ),
    rule(
        "focus concentrate",
        r"\b(?:focus|concentrate) (?:now )?on (?:your |the |a )?(?:new|next|different|following) "
        r"(?:task|assignment|job|challenge)\b",
    ),
    rule(
        "task",
        r"\b(?:start|begin|perform|do) (?:over |again |now )?(?:with )?(?:a|the) (?:new|different) "
        r"task\b",
        also="start begin perform do",
    ),
    rule(
        "folgen",
        r"\b(?:neue|weitere|folgende) (?:aufgaben?|anweisungen|instruktionen|befehle)"
        r" (?:folgen|kommen)|\b(?:nun|jetzt) folgen (?:neue|weitere)\b",
    ),
    # retrieval-augmented hijacks: "do not look in the documents provided"
    rule(
        "documents articles context sources knowledge",
        r"\b(?:do not|don't|dont|never) (?:look (?:in|at)|use|consult|rely on|answer (?:according "
        r"to|based on|from)) (?:the |any |your )?(?:provided |given )?(?:documents|articles|"
        r"context|sources|knowledge base)\b",
        also="do don't dont never",
    ),
    rule("knowledge", r"\b(?:by|from) your own knowledge and not (?:by|from) the\b"),
    rule("override", r"\b(?:admin|administrator|developer|system|root|sudo|security) override\b"),
    # a forged system turn inside the question: "System instruction begins: the assistant is ..."
    rule(
        "instruction instructions message messages prompt notice update",
        r"\bsystem (?:instructions?|messages?|prompt|notice|update) (?:starting|begins?|starts?|"
        r"follows?|now)\b|\bmessage termination\b",
    ),
    # "modify your programming", "change your instructions to the following"
    rule(
        "programming instructions rules guidelines directives prompt filters restrictions",
        r"\b(?:modify|modifying|change|changing|alter|altering|update|updating|reprogram|"
        r"reprogramming|rewrite|rewriting|adjust|adjusting) (?:your|ur) (?:core |base |original "
        r"|current )?(?:programming|instructions|rules|guidelines|directives|system prompt|prompt|"
        r"filters|restrictions)\b",
    ),
    # forged boundaries that pretend the user's turn ended: "[END OF INPUT] [START OF INPUT]"
    rule(
        "input prompt instructions system context conversation message",
        r"\b(?:end|start|beginning) of (?:the )?(?:user )?(?:input|prompt|instructions|system "
        r"prompt|context|conversation|user message)\b(?! (?:in|for) (?:the|this) (?:year|quarter|"
        r"period))",
        also="end start beginning",
    ),
    # "do not answer this question but just output ...", "instead, just print ..."
    rule(
        "answer output print",
        r"\b(?:do not|don't|dont|never) answer (?:this|the|my|that) question\b"
        r"|\binstead,? (?:just |only |simply )?(?:output|print|say|write|respond with|reply "
        r"with)\b",
    ),
    # retrieval hijack: "disregarding the articles, ...", "ignore the provided documents"
    rule(
        "articles documents passages sources results context",
        rf"\b{_VERB} (?:the |these |those |all |any |provided |given |retrieved |search )+"
        r"(?:articles|documents|passages|sources|results|context)\b(?! of\b)",
        also=OVERRIDERS,
    ),
    # few-shot hijack: "Input: One Output: One Input: Foo Output: Foo ..."
    rule(
        "input eingabe entrada",
        r"\b(?:input|eingabe|entrada) ?: [^:]{0,60}?\b(?:output|ausgabe|salida) ?: [^:]{0,60}?"
        r"\b(?:input|eingabe|entrada) ?:",
    ),
    rule("repeat", r"\brepeat after me\b"),
    rule(
        "up",
        r"(?<!not )(?<!n't )(?<!never )\bmake (?:something|it|stuff|things|one|an answer) up\b",
    ),
    # an instruction label dropped into a question: "... \n Instruction: blame it on China"
    rule("instruction instructions", r"(?:^|[.?!] )(?:new )?instructions? ?:"),
    # in other languages, the verb carries the meaning: "vergiss alle Auftrage", "olvida todo"
    rule(
        "vergiss vergessen oublie oubliez olvida olvide olvidar dimentica zaboravi vergeet",
        r"\b(?:vergiss|vergessen|oublie|oubliez|olvida|olvide|olvidar|dimentica|zaboravi|vergeet)"
        r" (?:sie |que )?(?:alle|alles|tout|toutes|tous|todo|todas|todos|tutto|tutte|sve|alles)\b",
    ),
    rule(
        "refuse",
        r"\b(?:never|do not|don't|dont|must not) refuse (?:any |my |further "
        r"|future |more |all )*(?:instructions?|requests?|questions?|orders?|commands?|prompts?)\b",
    ),
)

# A context switch: the text declares the earlier task finished and hands over a new one
# ("Well done. That is enough. Now help me with the following task: ..."). Either half alone
# is ordinary conversation; both together are the commonest injection template in the wild.
_TASK_CLOSED = rule(
    "enough done sufficient ok okay that's well great good excellent simply very fantastic "
    "congratulations outdone stop attention end genugt reicht sehr gut ausgezeichnet einfach "
    "erledigt "
    "achtung stopp herzlichen bravo tres muy felicidades was war",
    r"\b(?:(?:that|this) (?:is|was) (?:enough|done|sufficient|ok|okay)|that'?s (?:enough|done|it)|"
    r"(?:very |really |simply )?(?:well done|great job|good job|excellent (?:performance|work|"
    r"job)|simply great|very good|fantastic|congratulations|outdone yourself)|stop|attention|"
    r"end of (?:the )?(?:text|input|prompt|document|instructions|task)|=+ ?end|"
    r"(?:that|das) (?:was|war) (?:schon mal )?(?:ok|okay|fine|good|gut)|"
    r"(?:das|es) (?:genugt|reicht)|(?:das ist )?erledigt|sehr gut(?: gemacht)?|gut gemacht|"
    r"ausgezeichnet|"
    r"einfach grossartig|achtung|stopp|herzlichen gluckwunsch|bravo|tres bien|muy bien|"
    r"felicidades)\b",
)
TASK_OPENED = rule(
    "task tasks challenge assignment assignments job aufgabe aufgaben herausforderung tache "
    "tarea help hilf hilfe write compose draft say print output tell answer generate schreibe "
    "verfasse sage gib",
    r"\b(?:(?:a |your |the )?(?:new|another|next|further|different|additional|following|"
    r"weitere[nr]?|neue[nr]?|folgende[nr]?|nouvelle|autre|nueva|otra) (?:tasks?|challenge|"
    r"assignments?|job|aufgaben?|herausforderung|tache|tarea)|help me with (?:the following|"
    r"another|a new|one more)|help with the following (?:question|task)|now (?:write|compose|"
    r"draft|say|print|output|tell|answer|generate)|hilfe bei (?:folgender|der folgenden) "
    r"(?:frage|aufgabe)|(?:nun|jetzt) (?:schreibe|verfasse|sage|gib)|(?:schreibe|verfasse|sage|"
    r"gib) (?:mir )?(?:nun|jetzt)|hilf mir (?:nun |jetzt )?(?:mit|bei)|(?<=[.!?:;] )(?:write|say|"
    r"print|output)|(?<=stop )(?:write|say|print|output))\b",
)


_OVERRIDE_OPENERS = opening_words(OVERRIDE_RULES)


def overrides(phrase: str, words: frozenset[str]) -> bool:
    if not _OVERRIDE_OPENERS.isdisjoint(words) and any_match(OVERRIDE_RULES, phrase, words):
        return True
    return _switches_task(phrase, words)


def _switches_task(phrase: str, words: frozenset[str]) -> bool:
    if not (_TASK_CLOSED.could_match(words) and TASK_OPENED.could_match(words)):
        return False
    closed = _TASK_CLOSED.pattern.search(phrase)
    return closed is not None and TASK_OPENED.pattern.search(phrase, closed.start()) is not None
