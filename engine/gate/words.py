"""The gate's lexicon: the words each rule family is built from. Words are written folded
(lower case, ASCII, accents removed, hyphens as spaces), as engine/gate/folding.py leaves a
question; a phrase is written with single spaces."""

from __future__ import annotations


def forms(*entries: str) -> list[str]:
    """'ignor:e,es,ed' -> ['ignore', 'ignores', 'ignored']; an entry without ':' is one word."""
    found: list[str] = []
    for entry in entries:
        stem, colon, endings = entry.partition(":")
        if colon:
            found.extend(stem + ending for ending in endings.split(","))
        else:
            found.append(stem)
    return found


def word_list(text: str) -> list[str]:
    """A word list written as one string, to keep long lexicons readable."""
    return text.split()


# --- instruction override ------------------------------------------------------------------
# Imperatives that tell the assistant to drop what it was told.
OVERRIDE_VERBS = forms(
    "ignor:e,es,ed,ing,ieren,iere,iert,ier,ierst,ez,er,a,ar,en",
    "disregard:,s,ed,ing",
    "forget:,s,ting",
    "forgot",
    "overrid:e,es,ing",
    "overwrit:e,ing",
    "bypass:,ing",
    "circumvent",
    "skip",
    "discard",
    "abandon",
    "neglect",
    "delete",
    "erase",
    "drop",
    "wipe",
    "unlearn",
    "leave",
    "vergiss",
    "vergesst",
    "vergessen",
    "missacht:e,en",
    "verwirf",
    "verwerfen",
    "streich:e,en",
    "lass",
    "lassen",
    "oubli:e,ez,er",
    "olvid:a,e,ar,en,ate,ad",
    "descart:a,e,ar",
    "omit:e,ir",
    "dimentic:a,ate,are",
    "esquec:a,e,er",
    "negeer",
    "vergeet",
    "zaboravi",
    "zanemari",
)
OVERRIDE_PHRASES = (
    "do not follow",
    "don't follow",
    "dont follow",
    "never follow",
    "stop following",
    "no longer follow",
    "do not obey",
    "don't obey",
    "stop obeying",
    "pay no attention to",
    "set aside",
    "put aside",
    "throw away",
    "throw out",
    "get rid of",
    "free yourself from",
    "break free from",
    "ne tiens pas compte de",
    "ne tenez pas compte de",
    "fais abstraction de",
    "haz caso omiso de",
    "no sigas",
    "nicht befolgen",
    "befolge nicht",
)
OVERRIDERS = OVERRIDE_VERBS + list(OVERRIDE_PHRASES)

# Words that may sit between a verb and its object without changing what is meant. Misspellings
# of "previous" are listed because real attempts are typed in a hurry.
QUALIFIERS = word_list(
    "all any every each the your ur my its these those this that of about also just now "
    "completely entirely totally whole entire full complete exact same other such and or "
    "previous prior preceding above earlier former foregoing aforementioned initial original "
    "precious previos prevous pervious old existing current given default system hidden secret "
    "safety content ethical moral programmed provided preset standard usual base basic core "
    "first last few many most more some "
    "alle alles die der das den dem deine deinen deiner ihre ihren sie du bisherigen bisherige "
    "vorherigen vorherige vorigen obigen obige vorangehenden vorangegangenen fruheren "
    "ursprunglichen samtliche samtlichen gesamten nun jetzt bitte einfach mal davor zuvor "
    "vorher gegebenen erhaltenen "
    "toutes tous tout les des tes vos mes ces la le precedentes precedents anterieures ci "
    "dessus votre ton ta de "
    "todas todos todo las los tus sus mis estas esas anteriores previas previos lo "
    "tutte tutti le gli tue precedenti as os suas vorige eerdere sve sva prethodne"
)

# What the assistant was told. Strong targets mean the assistant's setup in any context; weak
# ones only with a marker tying them to the conversation ("previous", "above", "your").
INSTRUCTION_SPELLINGS = forms(
    "instruction:,s",
    "intruction:,s",
    "instrution:,s",
    "istruction:,s",
    "insruction:,s",
    "instuction:,s",
    "instrucion:,s",
    "instruciton:,s",
    "instructon:,s",
    "instrction:,s",
)
STRONG_TARGETS = INSTRUCTION_SPELLINGS + forms(
    "prompt:,s",
    "promt:,s",
    "propmt:,s",
    "directive:,s",
    "guideline:,s",
    "guardrail:,s",
    "safeguards",
    "programming",
    "rules",
    "commands",
    "system prompt",
    "system message",
    "conditioning",
    "anweisung:,en",
    "instruktion:,en",
    "befehl:,e",
    "regel:,n",
    "richtlinien",
    "vorgaben",
    "systemprompt",
    "consignes",
    "regles",
    "instruccion:,es",
    "reglas",
    "directrices",
    "indicaciones",
    "normas",
    "istruzioni",
    "regole",
    "instrucoes",
    "regras",
    "instructies",
    "regels",
    "instrukcije",
    "upute",
)
WEAK_TARGETS = word_list(
    "text texts information info informationen infos task tasks assignment assignments message "
    "messages input inputs context conversation requests request content everything all words "
    "sentences lines statements documents articles orders order directions restrictions "
    "constraints limitations filters training moderation ethics morals "
    "principles protocols configuration expressions "
    "aufgaben aufgabe auftrage auftrag angaben ausfuhrungen alles gesagte taches tout todo lo"
)
MARKERS = word_list(
    "previous prior preceding above earlier former foregoing aforementioned initial original old "
    "precious previos prevous pervious provided given last your ur "
    "bisherigen bisherige vorherigen vorherige vorigen obigen obige vorangehenden "
    "vorangegangenen fruheren deine deinen ihre precedentes precedents anterieures dessus tes vos "
    "anteriores previas previos tus precedenti tue vorige eerdere prethodne"
)
AFTER_MARKERS = (
    "above",
    "before",
    "beforehand",
    "so far",
    "until now",
    "up to now",
    "earlier",
    "previously",
    "you",
    "we discussed",
    "i said",
    "i told you",
    "davor",
    "zuvor",
    "vorher",
    "bisher",
    "oben",
    "precedemment",
    "antes",
    "anteriormente",
)


# --- prompt extraction ---------------------------------------------------------------------
EXTRACT_VERBS = forms(
    "reveal",
    "print",
    "show",
    "display",
    "output",
    "repeat",
    "recite",
    "quote",
    "echo",
    "dump",
    "leak",
    "disclose",
    "expose",
    "tell",
    "give",
    "provide",
    "list",
    "share",
    "spell",
    "write",
    "type",
    "copy",
    "paste",
    "translate",
    "summarize",
    "summarise",
    "paraphrase",
    "describe",
    "explain",
    "return",
    "send",
    "state",
    "say",
    "read",
    "enumerate",
    "confirm",
    "what",
    "whats",
    "what's",
    "which",
    "respond with",
    "zeig:,e,en",
    "gib",
    "nenne",
    "wiederhol:e,en",
    "verrat:e,en",
    "drucke",
    "schreibe",
    "revele",
    "revelez",
    "montre",
    "montrez",
    "affiche",
    "affichez",
    "repete",
    "repetez",
    "donne",
    "donnez",
    "dis",
    "ecris",
    "traduis",
    "revela",
    "muestra",
    "muestrame",
    "repite",
    "dime",
    "dame",
    "escribe",
    "imprime",
    "traduce",
)
SECRET_TARGETS = (
    "system prompt",
    "system message",
    "system instructions",
    "initial prompt",
    "original prompt",
    "hidden prompt",
    "secret prompt",
    "pre prompt",
    "preprompt",
    "meta prompt",
    "prompt text",
    "prompt texts",
    "prompt texte",
    "prompttext",
    "prompttexte",
    "developer message",
    "hidden instructions",
    "secret instructions",
    "initial instructions",
    "original instructions",
    "first instructions",
    "systemprompt",
    "passphrase",
    "pass phrase",
    "passcode",
    "passwort",
    "mot de passe",
    "contrasena",
    "secret word",
    "secret key",
    "secret code",
    "secret phrase",
    "magic word",
    "api key",
    "access code",
    "access token",
    "credentials",
)
# "password" alone is Gandalf's target; "password policy" and friends are ordinary questions.
OWNER_WORDS = word_list(
    "your ur yours deine deinen deiner deines ihre ihren ihrer tes vos ton votre tus tu"
)
OWNED_TARGETS = forms(
    "instruction:,s",
    "prompt:,s",
    "rules",
    "guidelines",
    "directives",
    "programming",
    "configuration",
    "config",
    "training data",
    "context window",
    "system prompt",
    "orders",
    "commands",
    "anweisungen",
    "regeln",
    "consignes",
    "regles",
    "instrucciones",
    "reglas",
    "prompt text",
    "prompt texts",
    "prompt texte",
)
TOLD_WORDS = (
    "instruction instructions prompt prompts rules guidelines directives directions programming "
    "orders commands anweisungen instrucciones consignes text words message"
)

# --- role play ----------------------------------------------------------------------------
PERSONA_VERBS = "act behave roleplay role pretend impersonate pose"
SECOND_PERSON = frozenset(
    word_list("you your u ur yourself du dich dir dein tu vous te toi eres usted")
)

# --- restricted material ------------------------------------------------------------------
RESTRICTED_WORDS = (
    "restricted confidential classified secret top internal eyes privileged nonpublic embargoed "
    "vertrauliche vertraulichen vertraulicher vertrauliches geheime geheimen geheimer geheimes "
    "confidentiel confidentiels confidentielle confidentielles confidencial confidenciales "
    "reservado reservados restringido restringidos"
)
ACCESS_CONTROLS = (
    "access permission permissions classification classifications clearance authorization "
    "authorisation authentication redaction redactions security filter filters acl acls "
    "entitlement entitlements zugriffskontrolle zugriffskontrollen berechtigungen"
)
DOC_WORDS = word_list(
    "documents document docs doc files file memos memo memoranda reports report material "
    "materials information info data records record passages passage notes minutes sources "
    "source content contents emails email mails communications drafts draft papers filings "
    "chunks excerpts sections section pages facts figures numbers details attachments folders "
    "folder databases database archives archive correspondence ones items dokumente "
    "unterlagen informationen daten documentos informacion archivos"
)

# --- encoded payloads and ciphers ---------------------------------------------------------
INSTRUCTION_WORDS = frozenset(
    word_list(
        "ignore disregard forget instruction instructions prompt system password secret reveal "
        "pretend jailbreak override bypass rules confidential restricted"
    )
)

CIPHER_WORDS = frozenset(
    word_list(
        "rot rot13 caesar cipher backward backwards reversed reverse decode decipher decrypt "
        "unscramble base64 hex"
    )
)
