"""A question's search terms: its words worth searching for, never query syntax."""

from __future__ import annotations

import re
import unicodedata

_WORD = re.compile(r"[^\W_]+")
MAX_TERMS = 16
MAX_TERM_LENGTH = 40

# Words that carry no retrieval signal in a question about a financial knowledge base.
_STOP_WORDS_TEXT = """
    a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing down during each either else
    ever few for from further get got had has have having he her here hers herself him himself
    his how i if in into is it its itself just let me might more most much must my myself no
    nor not now of off on once only or other ought our ours ourselves out over own per please
    same shall she should so some such tell than that the their theirs them themselves then
    there these they this those through to too under until up upon us very was we were what
    whats when where which while who whom whose why will with within without would you your
    yours yourself yourselves company companies many show give explain describe
    near
"""
STOP_WORDS = frozenset(_STOP_WORDS_TEXT.split())


def query_terms(text: str) -> list[str]:
    """The words of a question worth searching for: lowercased, deduplicated, no stop words.

    Every term is a run of letters and digits, so no user text ever reaches a query
    language as syntax; callers still quote each term themselves.
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    terms: list[str] = []
    for word in _WORD.findall(folded):
        if word in STOP_WORDS or len(word) > MAX_TERM_LENGTH or word in terms:
            continue
        if len(word) == 1 and not word.isdigit():
            continue  # the "s" of "Apple's", the "t" of "don't"
        terms.append(word)
        if len(terms) == MAX_TERMS:
            break
    return terms
