"""Which chunk a claim cites: the one the draft names, or the chunk where its text really stands.

The draft names a context label (S3) or a chunk id; the resolver maps it to the chunk, its path,
source and tier, and checks the quote there (``matching.support``). Then it looks at the other
places the run has seen — every chunk of the context (the retrieved chunks) and the other chunks
of the cited document — because a small model often copies the right words under the wrong label:
- **repair**: the cited chunk does not hold the quote (or the claim, when there is no quote) but
  another place does. The citation moves there: exact matches before close ones, then by rank.
  A claim that no retrieved text supports stays unsupported, and a label or chunk that does not
  exist stays fabricated (nothing is looked up for it).
- **preference**: the cited chunk holds it, and a place of higher rank states the same (the quote
  and the claim's gist, or the claim's sentence with >= 80 % of its content words and its numbers).
  Rank: the lower tier number first (the more authoritative source), then how many of the
  question's content words the page's title, section heading and file name hold — the page that is
  *about* the question's subject, not a news or result-code page naming the number in passing.
  Only the main side moves so: in monitor mode the less credible side's sources are the point.
- **grounding**: the quote stands in the cited chunk, but that chunk does not state what the answer
  says (the model copied the page's first sentence, and the value stands in another chunk). The
  citation moves to the place that states every missing answer term and the claim (>= CLAIM_CLOSE
  of its content words, its numbers, in one sentence; or in a manual's entry of a few lines, read
  with the page's title: ``matching.entry_support``), by rank; the quote becomes those words.
"""


from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Dict, List, Optional, Set, Tuple

from .context import Context, normalize_label
from .draft import Citation, ClaimIn
from .matching import CLAIM_CLOSE, CLOSE, NUMBER, claim_support, content_words, entry_support, support, term_in

__all__ = ["Resolver", "Place", "subject_words", "about", "citation_at", "UNKNOWN_TIER"]

UNKNOWN_TIER = 99  # a source without a tier ranks after every tier
_STRENGTH = {"exact": 0, "close": 1}
# A quote of fewer content words ("64", "Quellmere") says nothing of what a page documents:
# it may repair a citation but never move one that stands.
MIN_MOVE_WORDS = 2


@dataclass
class Place:
    """One chunk the run has seen, with what ranks it."""
    chunk: str
    path: str
    text: str
    label: Optional[str] = None
    source: Optional[str] = None
    tier: Optional[int] = None
    type: str = "unknown"
    title: str = ""
    heading: str = ""


def subject_words(question: str) -> Set[str]:
    """The question's content words, numbers left out (a number says what is asked, not about what)."""
    return {w for w in content_words(question) if not NUMBER.fullmatch(w)}


def about(place: Place, subject: Set[str]) -> int:
    """How many of the question's content words the page's title, heading and file name hold."""
    return len(subject & content_words(f"{place.title} {place.heading} {PurePosixPath(place.path).stem}"))


def _rank(place: Place, subject: Set[str]) -> Tuple[int, int]:
    return (place.tier if place.tier is not None else UNKNOWN_TIER, -about(place, subject))


class Resolver:
    """Maps what a draft cites to real chunks: the run's context first, then the index by chunk id."""

    def __init__(self, context: Context, index: Any, docs_dir: Path, source_map: Any, tier_filter: Any) -> None:
        self.context = context
        self.index = index
        self.docs_dir = Path(docs_dir)
        self.source_map = source_map
        self.tier_filter = tier_filter
        self._texts: Dict[str, str] = {}
        self._documents: Dict[str, List[Place]] = {}

    def resolve(self, claim: ClaimIn, side: str = "main", question: str = "") -> Citation:
        cit = Citation(source_ref=claim.source, claim=claim.text, claimed_quote=claim.quote, side=side)
        cited = self._cited_place(claim.source)
        if cited is None:
            return cit  # cites nothing that exists
        _fill(cit, cited)
        cit.exists = self._on_disk(cited)
        if not cit.exists:
            return cit
        cit.support, cit.quote = support(claim.quote, claim.text, cited.text)
        subject = subject_words(question)
        found, why = None, ""
        if cit.support == "none":
            found, why = self._repair(claim, cited, subject), "the cited chunk does not hold it; this one does"
        elif side == "main":
            found = self._prefer(claim, cited, subject)
            more_authoritative = found is not None and _rank(found[0], subject)[0] < _rank(cited, subject)[0]
            why = "a more authoritative source states it" if more_authoritative else "this page is about the question's subject"
        if found is not None:
            place, kind, quote = found
            cit.cited_chunk, cit.repair = cit.chunk, why
            _fill(cit, place)
            cit.support, cit.quote = kind, quote
        return cit

    def ground(self, cit: Citation, terms: List[str], question: str = "") -> bool:
        """Move ``cit`` to the place that states ``terms`` (what the answer says and the cited chunk
        does not) and the citation's claim; False, unchanged, when no place the run has seen does."""
        hit = self.index.get(cit.chunk) if self.index is not None and cit.chunk else None
        if hit is None or not terms:
            return False
        cited = self._place_of_hit(hit)
        subject = subject_words(question)
        best = None
        for n, place in enumerate(self._others(cited)):
            if not all(term_in(t, [place.text]) for t in terms):
                continue
            kind, sentence = claim_support(cit.claim, place.text, CLAIM_CLOSE)
            if kind == "none" or not all(term_in(t, [sentence]) for t in terms):
                # a manual's definition list states it over lines: an option's name, its description
                sentence = entry_support(cit.claim, terms, place.text, f"{place.title} {place.heading}")
            if not sentence or not self._on_disk(place):
                continue
            key = (_rank(place, subject), n)
            if best is None or key < best[0]:
                best = (key, place, sentence)
        if best is None:
            return False
        _, place, sentence = best
        cit.cited_chunk = cit.cited_chunk or cit.chunk
        cit.repair = "the cited quote does not state the answer; this chunk does"
        _fill(cit, place)
        cit.support, cit.quote = "close", sentence
        return True

    def text_of(self, chunk: Optional[str], fallback: str = "") -> str:
        """A chunk's text from the index (``fallback`` when the index does not hold it)."""
        if not chunk:
            return fallback
        if chunk not in self._texts:
            hit = self.index.get(chunk) if self.index is not None else None
            if hit is None:
                return fallback
            self._texts[chunk] = hit.text
        return self._texts[chunk]

    # -- places ---------------------------------------------------------------------------

    def _cited_place(self, ref: str) -> Optional[Place]:
        item = self.context.by_label(ref) if normalize_label(ref) else None
        if item is not None:
            return self._place_of_item(item)
        hit = self.index.get(ref) if self.index is not None else None
        return self._place_of_hit(hit) if hit is not None else None

    def _place_of_item(self, item: Dict[str, Any]) -> Place:
        meta = item.get("_reasoning_metadata") or {}
        text = item.get("_text") or self.text_of(item["chunk"], str(item.get("description") or ""))
        return Place(item["chunk"], item["path"], text, item["label"], meta.get("original_source"), meta.get("tier"),
                     meta.get("type", "unknown"), str(item.get("name") or item.get("title") or ""),
                     str(item.get("heading") or ""))

    def _place_of_hit(self, hit: Any) -> Place:
        info = self.source_map.info(hit.path)
        return Place(hit.chunk, hit.path, hit.text, self.context.label_of(hit.chunk), info.source, info.tier,
                     info.type, hit.title, hit.heading)

    def _others(self, cited: Place) -> List[Place]:
        """Every chunk of the context, then the cited document's other chunks; not the cited one."""
        out = [self._place_of_item(i) for i in self.context if i["chunk"] != cited.chunk]
        seen = {p.chunk for p in out} | {cited.chunk}
        out += [p for p in self._document(cited.path) if p.chunk not in seen]
        return out

    def _document(self, path: str) -> List[Place]:
        """The chunks of one indexed document, read once a run ([] without an index)."""
        if self.index is not None and path not in self._documents:
            self._documents[path] = [self._place_of_hit(h) for h in self.index.chunks_of(path)]
        return self._documents.get(path, [])

    def context_places(self) -> List[Place]:
        """Every chunk the run retrieved, as places."""
        return [self._place_of_item(i) for i in self.context]

    def page_text(self, path: str) -> str:
        """A cited document's title and text (its indexed chunks; the context's when there is no index)."""
        if self.index is not None:
            places = self._document(path)
            return "\n".join(([places[0].title] if places else []) + [p.text for p in places])
        return "\n".join(str(i.get("_text") or "") for i in self.context if i.get("path") == path)

    def _on_disk(self, place: Place) -> bool:
        return (self.docs_dir / place.path).is_file() and (self.index is None or self.index.get(place.chunk) is not None)

    # -- moving a citation ----------------------------------------------------------------

    def _repair(self, claim: ClaimIn, cited: Place, subject: Set[str]) -> Optional[Tuple[Place, str, str]]:
        """The best other place holding the quote (or the claim): exact before close, then by rank."""
        best = None
        for n, place in enumerate(self._others(cited)):
            kind, quote = support(claim.quote, claim.text, place.text)
            if kind == "none" or not self._on_disk(place):
                continue
            key = (_STRENGTH[kind], _rank(place, subject), n)
            if best is None or key < best[0]:
                best = (key, (place, kind, quote))
        return best[1] if best else None

    def _prefer(self, claim: ClaimIn, cited: Place, subject: Set[str]) -> Optional[Tuple[Place, str, str]]:
        """A place of strictly higher rank that states what the cited chunk states, if any."""
        if len(content_words(claim.quote or claim.text)) < MIN_MOVE_WORDS:
            return None
        here = _rank(cited, subject)
        best = None
        for n, place in enumerate(self._others(cited)):
            rank = _rank(place, subject)
            if rank >= here:
                continue
            kind, quote = _states_the_same(claim, place.text)
            if kind == "none" or not self._on_disk(place):
                continue
            key = (rank, _STRENGTH[kind], n)
            if best is None or key < best[0]:
                best = (key, (place, kind, quote))
        return best[1] if best else None


def _states_the_same(claim: ClaimIn, text: str) -> Tuple[str, str]:
    """Whether ``text`` states what the claim says: its quote and the claim's gist, or the claim's
    sentence closely (>= CLOSE of its content words, every number)."""
    if claim.quote.strip():
        kind, quote = support(claim.quote, claim.text, text)
        if kind != "none" and (not content_words(claim.text) or claim_support(claim.text, text, CLAIM_CLOSE)[0] != "none"):
            return kind, quote
    return claim_support(claim.text, text, CLOSE)


def citation_at(place: Place, sentence: str, side: str = "other") -> Citation:
    """A citation of ``sentence`` as it stands in ``place`` (ragix's, not the draft's: its claim is the sentence)."""
    cit = Citation(source_ref=place.label or place.chunk, claim=sentence, claimed_quote=sentence, side=side,
                   quote=sentence, support="exact", exists=True)
    _fill(cit, place)
    return cit


def _fill(cit: Citation, place: Place) -> None:
    cit.label, cit.chunk, cit.path = place.label, place.chunk, place.path
    cit.source, cit.tier, cit.type = place.source, place.tier, place.type
