"""Which research mode a question asks for, when the user gave none (spec 004's strict / discovery / monitor).

The mode is read from what a user writes about *sources*, never from the topic:

- **strict**: the answer must rest on credible sources only. A restriction (only, just, solely,
  exclusively, strictly, nothing but) within a few words of a credible-source phrase (official,
  authoritative, primary, vendor, verified, trusted ... docs / documentation / sources / manual),
  or low-tier sources excluded ("ignore the forums", "excluding blogs and social media").
- **monitor**: the question compares what sources say. A comparison word (compare, contrast,
  differ, disagree, contradict, conflict, versus, vs) within a few words of sources as its object
  ("what the sources say", "official docs vs forums", "do the reports agree").
- **discovery**: every tier is welcome ("any source", "including forums", "what are people saying").

A question that says none of these gets None: the caller falls back to the configured default.
Both strict and monitor phrases: monitor (a comparison needs the low tiers it would drop).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import List, Optional, Tuple

__all__ = ["ModeChoice", "detect_mode", "choose_mode"]

_WINDOW = 6  # words between a restriction and the sources it restricts to
_SEP = r"[\s,:\"'()/-]+"  # between words of one clause (a sentence end breaks a phrase)

_RESTRICT = r"(?:only|just|solely|exclusively|strictly|nothing\s+but|purely)"
_CREDIBLE = (r"(?:official|authoritative|primary|vendor(?:'s)?|verified|trusted|reliable|credible|canonical|"
             r"upstream|first-party|reputable)")
_SOURCE_NOUN = (r"(?:docs?|documentation|documents?|sources?|manuals?|references?|materials?|pages?|publications?|"
                r"statements?|announcements?|records?|specs?|specifications?|websites?|sites?|channels?|outlets?)")
_CREDIBLE_SOURCES = rf"{_CREDIBLE}(?:\s+[\w'-]+)?\s+{_SOURCE_NOUN}"
# Plural or mass nouns only: "exclude blog posts from the sitemap" is about a site, not about sources.
_LOW_TIER = (r"(?:forums|blogs|social\s+media|community\s+posts|user\s+comments|rumou?rs|hearsay|gossip|reddit|"
             r"tweets|unofficial\s+sources?|unverified\s+sources?|third-party\s+sources?)")
_EXCLUDE = (r"(?:ignore|ignoring|exclude|excluding|disregard|disregarding|skip|skipping|leave\s+out|leaving\s+out|"
            r"not\s+from|nothing\s+from|no\s+input\s+from)")
_COMPARE = (r"(?:compare|compared|comparing|comparison|contrast|contrasting|differ|differs|differing|difference|"
            r"differences|disagree|disagrees|disagreement|agree|contradict|contradicts|contradiction|contradictions|"
            r"conflict|conflicts|conflicting|discrepanc(?:y|ies)|inconsisten(?:t|cy|cies)|versus|vs\.?)")
_SOURCES_AS_OBJECT = (rf"(?:sources|reports|outlets|accounts|claims|forums|blogs|{_CREDIBLE_SOURCES}|"
                      r"what\s+(?:[\w'-]+\s+){0,3}(?:say|says|said|claim|claims|report|reports|state|states))")
_EVERY_TIER = (r"(?:any\s+sources|any\s+source(?!\s+(?:code|files?|trees?|packages?|archives?|tarballs?))|"
               r"all\s+(?:the\s+)?sources|every\s+source|all\s+tiers|"
               r"including\s+(?:the\s+)?(?:forums|blogs|social\s+media|community|unofficial\s+sources?|rumou?rs)|"
               r"what\s+(?:are\s+)?(?:people|users|the\s+community)\s+(?:are\s+)?(?:saying|say|think))")


@dataclass(frozen=True)
class ModeChoice:
    """The mode a run uses and why (``source``: "flag", "question" or "config")."""

    mode: str
    source: str
    reason: str

    def as_dict(self) -> dict:
        return {"mode": self.mode, "source": self.source, "reason": self.reason}


def _near(first: str, second: str, window: int = _WINDOW) -> "re.Pattern[str]":
    """``first`` followed within ``window`` words by ``second``, in one clause."""
    return re.compile(rf"\b{first}(?:{_SEP}[\w'-]+){{0,{window}}}?{_SEP}{second}\b", re.IGNORECASE)


_STRICT = [
    _near(_RESTRICT, _CREDIBLE_SOURCES),
    re.compile(rf"\b{_CREDIBLE_SOURCES}{_SEP}(?:only|alone|exclusively)\b", re.IGNORECASE),
    _near(_EXCLUDE, _LOW_TIER, 3),
]
_MONITOR = [_near(_COMPARE, _SOURCES_AS_OBJECT, 5), _near(_SOURCES_AS_OBJECT, _COMPARE, 4)]
_DISCOVERY = [re.compile(rf"\b{_EVERY_TIER}", re.IGNORECASE)]


def _first(patterns: List["re.Pattern[str]"], text: str) -> Optional[str]:
    for pattern in patterns:
        m = pattern.search(text)
        if m:
            return " ".join(m.group(0).split())
    return None


def detect_mode(question: str) -> Optional[Tuple[str, str]]:
    """(mode, the words that asked for it) when the question asks for a mode, else None."""
    if not isinstance(question, str) or not question.strip():
        return None
    monitor = _first(_MONITOR, question)
    if monitor:
        return "monitor", monitor
    strict = _first(_STRICT, question)
    if strict:
        return "strict", strict
    discovery = _first(_DISCOVERY, question)
    if discovery:
        return "discovery", discovery
    return None


def choose_mode(question: str, flag: Optional[str], default: str) -> ModeChoice:
    """The explicit ``--mode`` wins; else the question's words; else the configured default."""
    if flag:
        return ModeChoice(flag, "flag", f"--mode {flag} was given")
    found = detect_mode(question)
    if found:
        mode, phrase = found
        return ModeChoice(mode, "question", f"the question says {phrase!r}")
    return ModeChoice(default, "config", f"the question names no mode; research.default_mode is {default}")
