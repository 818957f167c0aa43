"""Write the frozen paraphrase set, benchmarks/paraphrase/questions.yaml, from the pinned sqlparse sdist.

    python benchmarks/paraphrase/generate.py     # reads .bench/sqlparse-0.6.1.tar.gz (scripts/test.sh gets it)

Run it once, from a committed generator (its commit goes in the header), and commit the result: the set is
held out, so it is not regenerated to suit an engine. Every answer is computed from the files of the sdist as
bench:paraphrase unpacks them (facts.py, source_tree.py); none is typed in. tests/eval/test_paraphrase.py
re-runs the generation and fails when the frozen questions differ from it (a changed sdist or generator).

The file is a scenario file (scenario.py) with three extra keys per scenario that the loader ignores:
``fact``, ``kind`` and ``level`` (easy: one command; hard: a pipeline, two steps or code structure), and
``answer``, the computed answer as a reviewer reads it.
"""

from __future__ import annotations

import datetime
import re
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Tuple

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from benchmarks import provenance  # noqa: E402
from benchmarks.paraphrase.facts import FACTS  # noqa: E402
from benchmarks.paraphrase.source_tree import Tree  # noqa: E402
from ragix_core.eval.benchmarks.paraphrase import (  # noqa: E402
    PACKAGE, QUESTIONS, SDIST, SDIST_SHA256, VERSION, find_sdist, unpack_sdist)

__all__ = ["scenarios", "body", "render", "header_fields", "body_of"]

_HEADER_END = "# ---\n"  # the header above it records the run; the body below is what is compared


def scenarios(sdist: Path) -> List[Dict[str, Any]]:
    slugs = [f.slug for f in FACTS]
    if len(set(slugs)) != len(slugs):
        raise ValueError("two facts share a slug")
    out: List[Dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        unpack_sdist(sdist, Path(tmp))
        tree = Tree(Path(tmp))
        for fact in FACTS:
            if len(set(fact.phrasings)) != 3:
                raise ValueError(f"{fact.slug}: three different phrasings are needed")
            try:
                answer = fact.answer(tree)
            except Exception as exc:  # name the fact: a bare traceback from a lambda says nothing
                raise RuntimeError(f"{fact.slug}: {type(exc).__name__}: {exc}") from exc
            for n, text in enumerate(fact.phrasings, 1):
                scen: Dict[str, Any] = {
                    "id": f"para-{fact.slug}-{n}",
                    "fact": fact.slug,
                    "kind": fact.kind,
                    "level": fact.level,
                    "description": f"{fact.kind} ({fact.level}), phrasing {n} of 3",
                    "input": text,
                    "expected_patterns": answer.expected,
                }
                if answer.forbidden:
                    scen["forbidden_patterns"] = answer.forbidden
                scen["answer"] = answer.text
                out.append(scen)
    return out


def body(sdist: Path) -> str:
    return yaml.safe_dump(scenarios(sdist), sort_keys=False, allow_unicode=True, width=110)


def render(sdist: Path, commit: str, date: str) -> str:
    text = body(sdist)
    facts = len(FACTS)
    header = [
        f"# The paraphrase set: questions about the source tree of {PACKAGE} {VERSION}, each asked three ways.",
        "# Frozen: written once by benchmarks/paraphrase/generate.py; do not edit by hand. Run it with",
        "# `ragix eval bench:paraphrase` (the sdist is unpacked into each scenario's working copy).",
        f"# package: {PACKAGE}",
        f"# version: {VERSION}",
        f"# sdist: {SDIST}",
        f"# sdist_sha256: {SDIST_SHA256}",
        f"# generator_commit: {commit}",
        f"# generated: {date}",
        f"# facts: {facts} ({3 * facts} scenarios)",
    ]
    return "\n".join(header) + "\n" + _HEADER_END + text


def header_fields(text: str) -> Dict[str, str]:
    """The ``# key: value`` lines of a frozen file's header."""
    head, _ = _split(text)
    return dict(re.findall(r"^# ([a-z0-9_]+): (.*)$", head, re.MULTILINE))


def body_of(text: str) -> str:
    return _split(text)[1]


def _split(text: str) -> Tuple[str, str]:
    head, sep, rest = text.partition(_HEADER_END)
    if not sep:
        raise ValueError(f"no header end line {_HEADER_END.strip()!r}")
    return head, rest


def main() -> None:
    commit = provenance.commit()  # before writing: the file itself would make the checkout dirty
    QUESTIONS.write_text(render(find_sdist(), commit, datetime.date.today().isoformat()), encoding="utf-8")
    print(f"wrote {QUESTIONS.relative_to(ROOT)}: {len(FACTS)} facts, {3 * len(FACTS)} scenarios, "
          f"generator {commit}")


if __name__ == "__main__":
    main()
