"""A generated document collection about fictional companies, countries, people and products,
with question sets and gold answers, for benchmarks/research_bench.py (and nothing else).

Everything is invented from syllables with a seeded RNG, so no model can answer from memory
and the same seed gives the same collection. Documents span four sources and tiers:

    official/companies/*.md   Registry   tier 1  headquarters, founding year, founder, staff
    official/countries/*.html Atlas      tier 1  capital, export
    news/*.txt                Gazette    tier 2  flagship products (made by which company, when)
    people/*.md               Gazette    tier 2  where a founder was born
    blogs/*.md                Blog       tier 3  opinions (filler that shares the entities' names)
    forum/*.md                Forum      tier 5  rumours: a conflicting staff count for some
                                                 companies; processor facts found nowhere else

Question kinds (each with gold answer and gold documents):
    single      one document (staff count, founding year)
    multi       two to three documents chained (capital of the HQ country; founder's birthplace;
                export of the country where a product's maker is based)
    unanswerable  asked about facts no document has: the right answer declines
    conflict    the Registry and the Forum disagree on staff: monitor mode must report it
    strict_trap only the Forum has the answer: strict mode must decline, never cite it
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List

__all__ = ["Question", "generate", "SOURCES_YAML"]

SOURCES_YAML = """sources:
  "official/companies/**": Registry
  "official/countries/**": Atlas
  "news/**": Gazette
  "people/**": Gazette
  "blogs/**": Blog
  "forum/**": Forum
source_tiers:
  Registry: {tier: 1, type: official}
  Atlas: {tier: 1, type: official}
  Gazette: {tier: 2, type: news}
  Blog: {tier: 3, type: digital}
  Forum: {tier: 5, type: social}
mode_configs: {strict: {max_tier: 2}, discovery: {max_tier: 5}, monitor: {compare_tiers: [1, 5]}}
"""

_ON = ["bra", "vel", "qua", "zor", "mi", "tal", "dun", "ke", "lo", "sar", "ny", "thi", "gor", "pe", "ulm", "ras",
       "vo", "den", "cri", "mab"]
_GOODS = ["glass", "copper wire", "salt", "wool", "ceramic tiles", "olive oil", "timber", "paper", "honey", "tin"]
_CHIPS = ["Harrow-7", "Kestrel M2", "Umbra 9", "Falx X1", "Tessel 4", "Orrin Q"]


@dataclass
class Question:
    id: str
    kind: str
    question: str
    answer: str  # "" for questions whose right answer is to decline
    gold_docs: List[str] = field(default_factory=list)
    mode: str = "discovery"
    conflict_docs: List[str] = field(default_factory=list)  # monitor: the low-tier side
    # Frozen documentation sets (research_docsets.py): the parts a right answer must state, each as its
    # accepted forms (a number with and without its unit...); empty: ``answer`` is the one form.
    accept: List[List[str]] = field(default_factory=list)

    def to_dict(self) -> Dict[str, object]:
        return self.__dict__.copy()


def _name(rng: random.Random, used: set, parts: int = 2) -> str:
    while True:
        word = "".join(rng.choice(_ON) for _ in range(parts)).capitalize()
        if word not in used and len(word) >= 5:
            used.add(word)
            return word


def generate(root: Path, seed: int = 7, companies: int = 60, filler: int = 150) -> List[Question]:
    """Write the documents under ``root/docs``, the tiers in ``root/sources.yaml`` and the questions
    in ``root/questions.json``; return the questions."""
    rng = random.Random(seed)
    used: set = set()
    docs = root / "docs"
    docs.mkdir(parents=True, exist_ok=True)

    def write(rel: str, text: str) -> str:
        path = docs / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return rel

    countries = []
    for _ in range(companies // 3):
        c = {"name": _name(rng, used), "capital": _name(rng, used), "export": rng.choice(_GOODS)}
        c["doc"] = write(f"official/countries/{c['name'].lower()}.html",
                         f"<html><head><title>{c['name']}</title></head><body><nav>Atlas index</nav>"
                         f"<h1>{c['name']}</h1><p>{c['name']} is a small inland republic.</p>"
                         f"<h2>Government</h2><p>The capital of {c['name']} is {c['capital']}.</p>"
                         f"<h2>Economy</h2><p>The main export of {c['name']} is {c['export']}.</p></body></html>")
        countries.append(c)
    questions: List[Question] = []
    for i in range(companies):
        country = rng.choice(countries)
        founder = f"{_name(rng, used)} {_name(rng, used)}"
        birthplace = _name(rng, used)
        co = {"name": f"{_name(rng, used)} {rng.choice(['Industries', 'Works', 'Labs', 'Holdings'])}",
              "country": country, "founder": founder, "year": rng.randint(1950, 2015),
              "staff": rng.randint(40, 990) * 10, "product": f"{_name(rng, used)} {rng.randint(2, 9)}00",
              "released": rng.randint(2016, 2024), "chip": rng.choice(_CHIPS)}
        slug = co["name"].split()[0].lower()
        co["doc"] = write(f"official/companies/{slug}.md",
                          f"# {co['name']}\n\n{co['name']} is headquartered in {country['name']}. "
                          f"It was founded in {co['year']} by {founder}.\n\n## Staff\n\n"
                          f"{co['name']} employs {co['staff']} people.\n")
        person_doc = write(f"people/{founder.split()[1].lower()}.md",
                           f"# {founder}\n\n{founder} is an engineer and entrepreneur. {founder} was born in "
                           f"{birthplace}.\n")
        news_doc = write(f"news/{slug}-{co['product'].split()[0].lower()}.txt",
                         f"{co['product']} launched\n\nThe {co['product']} is the flagship product of {co['name']}. "
                         f"It was released in {co['released']}.\n")
        write(f"blogs/{slug}-review.md", f"# Thoughts on {co['name']}\n\nI visited {co['name']} last spring. "
                                         f"The people there were friendly and the {co['product']} looked good.\n")
        conflict = i % 4 == 0
        forum_lines = [f"# {co['name']} rumours\n"]
        if conflict:
            rumour = co["staff"] + rng.choice([-1, 1]) * rng.randint(5, 40) * 10
            forum_lines.append(f"A forum user insists that {co['name']} employs {rumour} people.\n")
        forum_lines.append(f"Someone who took one apart says the {co['product']} uses a {co['chip']} processor.\n")
        forum_doc = write(f"forum/{slug}-thread.md", "\n".join(forum_lines))
        n = co["name"]
        questions += [
            Question(f"single-staff-{i}", "single", f"How many people does {n} employ?", str(co["staff"]), [co["doc"]]),
            Question(f"single-year-{i}", "single", f"In what year was {n} founded?", str(co["year"]), [co["doc"]]),
            Question(f"multi-capital-{i}", "multi", f"What is the capital of the country where {n} is headquartered?",
                     country["capital"], [co["doc"], country["doc"]]),
            Question(f"multi-birth-{i}", "multi", f"In which town was the founder of {n} born?", birthplace,
                     [co["doc"], person_doc]),
            Question(f"multi-export-{i}", "multi",
                     f"What is the main export of the country where the maker of the {co['product']} is headquartered?",
                     country["export"], [news_doc, co["doc"], country["doc"]]),
            Question(f"unanswerable-{i}", "unanswerable", f"What was the annual revenue of {n} in 2023?", "", []),
            Question(f"strict_trap-{i}", "strict_trap", f"Which processor does the {co['product']} use?", "", [],
                     mode="strict"),
        ]
        if conflict:
            questions.append(Question(f"conflict-{i}", "conflict", f"How many people does {n} employ?",
                                      str(co["staff"]), [co["doc"]], mode="monitor", conflict_docs=[forum_doc]))
    for j in range(filler):  # notes that share words with the questions, to make retrieval work for it
        c = rng.choice(countries)
        write(f"blogs/notes-{j:03d}.md", f"# Travel note {j}\n\nA trip through {c['name']}: the people, the food, "
                                         f"the staff at the hotel and how many museums there are.\n")
    (root / "sources.yaml").write_text(SOURCES_YAML, encoding="utf-8")
    (root / "questions.json").write_text(json.dumps([q.to_dict() for q in questions], indent=1), encoding="utf-8")
    return questions
