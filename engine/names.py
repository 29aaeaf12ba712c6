"""Companies a question names that the knowledge base does not hold.

The parser links the names it knows; this module reads the ones it does not, by where English
puts a company's name rather than by a list of names:

- a possessive: "Intel's margin", "Texas Instruments' revenue";
- after a preposition or beside another company: "for Oracle", "at Wells Fargo", "of AbbVie",
  "Apple and Samsung", "higher than Ford's";
- the subject of a question: "Does Intel pay...", "What did ORCL say...", "Has Siemens...";
- right before a metric: "Intel revenue", "ORCL operating income".

A name is a run of capitalised words or a ticker (2 to 5 capitals), joined by "&", "of" or a
hyphen ("Johnson & Johnson", "Bank of America", "Coca-Cola"). It is not a name when it is a
question word, a month or other period word, a metric word of the knowledge base, a common
finance acronym (EPS, R&D, MD&A), or a name or alias the knowledge base holds. What remains is
checked against the knowledge base's own words (metric labels, and passages the caller may
read): a name its documents mention ("OpenAI", "Greater China") is a topic, not a stranger.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from engine.cache import PerVocabulary
from engine.parser import NOT_CONTENT, UNSUPPORTED, label_initials
from engine.store import KnowledgeStore
from engine.text import normalise_word, words
from engine.types import Term, Vocabulary


def _set(text: str) -> frozenset[str]:
    return frozenset(word.casefold() for word in text.split())


# A word (internal &, ., - and ' allowed: AT&T, Amazon.com, Coca-Cola, McDonald's), with its
# possessive ending, or a lone ampersand between words.
_TOKEN = re.compile(
    r"[^\W_](?:[\w]|[&.\-](?=[^\W_])|['’](?=[^\W_s]))*(?:['’]s\b|(?<=s)['’](?!\w))?|&"
)
_POSSESSIVE = re.compile(r"(?:['’]s|(?<=s)['’])$")
_TICKER = re.compile(r"^[A-Z]{2,5}$")
# Words that open a question's subject: "Does Intel...", "What did ORCL say...".
_AUXILIARIES = _set("does did do has have had is are was were can could will would should")
# Words after which a capitalised name is a company being asked about.
_BEFORE_A_NAME = _set("for at of about from by on with between and or vs versus than like against")
_SUFFIXES = _set("inc corp corporation co ltd plc llc holdings ag se sa nv")
_WH = _set("what why how when where which who whom")
# Verbs that follow a company as the subject: "the risks Oracle highlighted", "Intel reported".
_SUBJECT_VERBS = _set(
    """said says say reported reports report announced announces made makes sold sells grew
    grows expects expected plans planned disclosed discloses posted posts earned earns spent
    spends generated generates"""
)
# Not company names, though written in capitals: the vocabulary of reports and questions.
_NOT_NAMES = _set(
    """
    EPS EBITDA EBIT EBT GAAP IFRS CEO CFO COO CTO CIO AI ML IT US USA UK EU EMEA APAC LATAM
    USD EUR GBP JPY CNY RMB INR CHF CAD AUD HKD SGD KRW BRL MXN SEK NOK DKK ZAR SEC IRS FX YOY
    QOQ YTD TTM LTM ROE ROA ROI ROIC FCF OCF CAPEX OPEX SGA COGS PPE IPO ESG KPI ARPU ASP NII
    NIM CET1 EV NOPAT WACC DCF LTV CAC ARR MRR SAAS API OEM GDP CPI NAV AUM LIBOR SOFR HQ FY
    H1 H2 Q1 Q2 Q3 Q4 MDA COVID NYSE NASDAQ ETF REIT TBD R&D MD&A SG&A PP&E M&A S&P P&L
    Form Item Note Notes Part Section Table Exhibit Schedule Annual Quarterly Report Reports
    Statement Statements Filing Filings
    Please Compare List Provide Explain Describe Summarize Summarise Tell Show Give Name
    Mr Mrs Ms Dr Yes No Not None Other Others Year Years
    Revenue Revenues Sales Income Profit Profits Loss Losses Expense Expenses Cost Costs Assets
    Liabilities Equity Cash Debt Margin Margins Earnings Dividend Dividends Capital Tax Taxes
    Interest Fair Value Values Total Net Gross Operating Growth Rate Rates Price Prices Share
    Shares Stock Segment Segments
    Monday Tuesday Wednesday Thursday Friday Saturday Sunday
    """
)
_SENTENCE_END = frozenset(".?!;:")


@dataclass(frozen=True, slots=True)
class _Word:
    text: str  # without a possessive ending
    start: int
    end: int
    possessive: bool
    initial: bool  # first word of a sentence
    joined: bool  # nothing but spaces between it and the word before


def unknown_companies(
    question: str,
    vocabulary: Vocabulary,
    store: KnowledgeStore,
    clearance: frozenset[str],
) -> tuple[str, ...]:
    """Names the question gives as companies that neither the vocabulary nor any passage the
    caller may read mentions. Empty when the question names none."""
    return tuple(
        name
        for name in company_mentions(question, vocabulary)
        if not _mentioned(name, vocabulary, store, clearance)
    )


def company_mentions(question: str, vocabulary: Vocabulary) -> tuple[str, ...]:
    """Names in a company's place in the question that the vocabulary does not hold."""
    known = _known_words(vocabulary)
    tokens = _words(question)
    found: list[str] = []
    for first, last in _spans(tokens, known.metrics):
        name = _POSSESSIVE.sub("", question[tokens[first].start : tokens[last].end])
        if _is_company_place(tokens, first, last, known.metrics) and not (
            known.holds(name) or known.abbreviates(name)
        ):
            found.append(name)
    return tuple(dict.fromkeys(found))


# A report page's running header names the company it is about, with its legal suffix:
# "Entergy Texas, Inc. and Subsidiaries", "Republic Services, Inc. notes to ...".
_OPENING_NAME = re.compile(
    r"^\s*(?P<name>[^\W\d_][\w&'’\-]*(?:\s+[^\W\d_][\w&'’\-]*){0,3}?)\s*,?\s*"
    r"(?P<suffix>inc|incorporated|corp|corporation|llc|ltd|limited|plc)\b\s*\.?",
    re.IGNORECASE,
)


def opening_company_names(page_text: str, label_words: frozenset[str]) -> tuple[str, ...]:
    """The names of the company a page opens on, in its running header ("entergy texas ,
    inc . and subsidiaries ..."): the name, and the name with its suffix. A question naming
    it ("the net revenue for Entergy Texas") names the page's company, not a line item. A
    name the page's line labels hold ("O'Reilly Automotive, Inc." in a stock table) is a
    line's, not the company's alias; one with a word that is no name ("the", "of") is none."""
    match = _OPENING_NAME.match(page_text)
    if match is None:
        return ()
    name = " ".join(match["name"].split())
    named = set(words(name))
    if not named or named <= label_words or named & NOT_CONTENT:
        return ()
    return (name, f"{name} {match['suffix']}")


def near_miss(name: str, vocabulary: Vocabulary) -> str | None:
    """The one company of the vocabulary (as the asker may see it) whose name or alias is
    one slip of the keyboard from `name` ("Microsfot", "Nvidai", "Telsa"): a letter left
    out, added, changed or two swapped. Names under five letters are never guessed at."""
    said = name.lower()
    if len(said) < 5:
        return None
    close = {
        term.name
        for term in vocabulary.entities
        for known in (term.name, *term.aliases)
        if len(known) >= 5 and _one_slip(said, known.lower())
    }
    return close.pop() if len(close) == 1 else None


def _one_slip(a: str, b: str) -> bool:
    """Whether two different words are one edit apart (Damerau: a swap counts as one)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        differ = [i for i in range(len(a)) if a[i] != b[i]]
        if len(differ) == 1:
            return True
        i, j = differ[0], differ[-1]
        return len(differ) == 2 and j == i + 1 and a[i] == b[j] and a[j] == b[i]
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k in range(len(short)) if short[k] != long[k]), len(short))
    return short[i:] == long[i + 1 :]


def unknown_company_text(names: Sequence[str], vocabulary: Vocabulary) -> str:
    """The not-found answer: which names the knowledge base holds nothing about."""
    said = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    text = f"The knowledge base holds nothing about {said}."
    held = [t.name for t in vocabulary.entities]
    if 1 < len(held) <= 24:
        text += f" It covers {', '.join(held)}."
    return text


# -- reading the question ----------------------------------------------------------------------


def _words(question: str) -> list[_Word]:
    tokens: list[_Word] = []
    boundary, previous_end = True, 0
    for match in _TOKEN.finditer(question):
        raw = match.group()
        possessive = bool(_POSSESSIVE.search(raw)) and len(raw) > 2
        text = _POSSESSIVE.sub("", raw) if possessive else raw
        joined = not question[previous_end : match.start()].strip()
        tokens.append(_Word(text, match.start(), match.end(), possessive, boundary, joined))
        following = question[match.end() : match.end() + 2].strip()[:1]
        boundary, previous_end = following in _SENTENCE_END, match.end()
    return tokens


def _name_like(word: _Word, metric_words: frozenset[str]) -> bool:
    text = word.text
    camel = text[:1].islower() and any(c.isupper() for c in text[1:3])  # eBay, iRobot
    if not (text[:1].isupper() or camel) or any(c.isdigit() for c in text):
        return False
    norm = normalise_word(text)
    parts = re.split(r"[\-/]", text.casefold())
    if norm in _NOT_NAMES or all(part in _NOT_NAMES for part in parts):
        return False
    if norm in NOT_CONTENT or norm in UNSUPPORTED or norm in metric_words:
        return False
    return len(text) > 1


def _spans(tokens: Sequence[_Word], metric_words: frozenset[str]) -> list[tuple[int, int]]:
    """Runs of name-like words in one sentence, joined by "&" or "of" ("Johnson & Johnson",
    "Bank of America") and closed by a company suffix ("Intel Corp"); a possessive ends one."""
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(tokens):
        if not _name_like(tokens[i], metric_words):
            i += 1
            continue
        last = i
        while not tokens[last].possessive and last + 1 < len(tokens):
            step = tokens[last + 1]
            if step.text.casefold() in _SUFFIXES and not step.initial:
                last += 1  # "Intel Corp", "Talespin, Inc."
                continue
            if step.initial or not step.joined:
                break
            if step.text in ("&", "of") and last + 2 < len(tokens):
                joined = tokens[last + 2]
                if _name_like(joined, metric_words) and joined.joined:
                    last += 2
                    continue
            if _name_like(step, metric_words):
                last += 1
                continue
            break
        spans.append((i, last))
        i = last + 1
    return spans


def _is_company_place(
    tokens: Sequence[_Word], first: int, last: int, metric_words: frozenset[str]
) -> bool:
    if tokens[last].possessive:
        return True
    if _line_item(tokens, last):
        return False
    before = tokens[first - 1].text.casefold() if first > 0 else ""
    if before in _BEFORE_A_NAME and not tokens[first].initial:
        return True
    if tokens[last].text.casefold() in _SUFFIXES or _after_auxiliary(tokens, first):
        return True
    after = tokens[last + 1] if last + 1 < len(tokens) else None
    if after is None or after.initial:
        return False
    following = after.text.casefold()
    if normalise_word(after.text) in metric_words:
        # "Intel revenue"; at the start of a sentence only a ticker ("INTC revenue"): a
        # capitalised first word before a metric is more often a modifier ("Adjusted EBITDA").
        return not tokens[first].initial or _TICKER.match(tokens[first].text) is not None
    if following in _SUBJECT_VERBS:
        return True
    return following.endswith("ed") and len(following) > 4 and following not in metric_words


def _line_item(tokens: Sequence[_Word], last: int) -> bool:
    """A capitalised line item goes on in lower case: "Travel and communication expense"."""
    rest = tokens[last + 1 : last + 3]
    return (
        len(rest) == 2
        and rest[0].text in ("and", "&")
        and rest[1].text[:1].islower()
        and rest[1].joined
    )


def _after_auxiliary(tokens: Sequence[_Word], first: int) -> bool:
    """The subject of a question, right after its inverted auxiliary: "Does Intel ...", "How
    much cash did Qualcomm hold", "What did ORCL say"."""
    i = first - 1
    if i >= 0 and tokens[i].text.casefold() == "the":
        i -= 1
    if i < 0 or tokens[i].text.casefold() not in _AUXILIARIES:
        return False
    start = i
    while start > 0 and not tokens[start].initial:
        start -= 1
    opener = tokens[start].text.casefold()
    if opener in ("who", "whom"):
        return False  # "Who is the Vice President of ...": a person or a role
    return start == i or opener in _WH or opener in _AUXILIARIES


# -- what the knowledge base holds -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Known:
    metrics: frozenset[str]  # every word of a metric name or alias
    entities: tuple[frozenset[str], ...]  # the words of each entity's names and aliases
    initials: frozenset[str] = frozenset()  # each metric label's initials ("r.d")

    def abbreviates(self, name: str) -> bool:
        """Whether the name is a line's initials joined by "&" ("S&M" for "Sales and
        marketing"): a line item, not a company the knowledge base lacks."""
        parts = name.split("&")
        letters = "".join(parts).lower()
        joined = len(parts) == 2 and all(parts) and letters.isalpha()
        return joined and ".".join(letters) in self.initials

    def holds(self, name: str) -> bool:
        """Every word of the name belongs to one company the vocabulary holds ("Chase", "JP
        Morgan", "Wal-Mart"); "Morgan Stanley" shares a word with JPMorgan, not the company."""
        named = frozenset(words(name)) - {"&"}
        return bool(named) and any(named <= label for label in self.entities)


def _build_known(vocabulary: Vocabulary) -> _Known:
    def label_words(terms: Iterable[Term]) -> Iterator[str]:
        for term in terms:
            for label in (term.name, *term.aliases):
                yield from words(label)

    return _Known(
        metrics=frozenset(label_words(vocabulary.metrics)),
        entities=tuple(frozenset(label_words([t])) for t in vocabulary.entities),
        initials=frozenset(
            label_initials(label) for t in vocabulary.metrics for label in (t.name, *t.aliases)
        ),
    )


_known_words = PerVocabulary(_build_known)


def _mentioned(
    name: str, vocabulary: Vocabulary, store: KnowledgeStore, clearance: frozenset[str]
) -> bool:
    """Whether the knowledge base's own words hold the name: a metric label, or a passage
    the caller may read (never one it may not: that would tell what a hidden passage says)."""
    if frozenset(words(name)) <= _known_words(vocabulary).metrics:
        return True
    pattern = _phrase(name)
    hits = store.search_passages(name, limit=5, classifications=clearance)
    return any(pattern.search(f"{p.title}\n{p.text}") for p in hits)


def _phrase(name: str) -> re.Pattern[str]:
    """The name as whole words; a ticker in capitals only ("SNOW" is not "snow")."""
    parts = [re.escape(part) for part in re.findall(r"[^\W_]+|&", name)]
    body = r"[\s\-.,]*".join(parts)
    flags = 0 if _TICKER.match(name) else re.IGNORECASE
    return re.compile(rf"(?<![^\W_]){body}(?![^\W_])", flags)
