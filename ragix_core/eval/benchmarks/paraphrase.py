"""The paraphrase set (``bench:paraphrase``): questions about a real source tree, each asked three ways.

The tree is the sdist of sqlparse 0.6.1, read from ``.bench`` as a tarball (``pip download --no-deps
--no-binary :all: sqlparse==0.6.1 -d .bench``), never installed. The questions and their answers were
computed once by benchmarks/paraphrase/generate.py and frozen in benchmarks/paraphrase/questions.yaml, a
held-out set that nobody tunes on. That file is read from the source checkout: an editable install
(``pip install -e .``) finds it next to ragix_core, a wheel install does not ship it.

Each scenario starts from an empty working copy into which its setup unpacks the sdist, its top directory
dropped so that the project root is the working directory: the very tree the generator computed the
answers on. Answers are judged by their expected and forbidden patterns (eval/matching.py).
"""

from __future__ import annotations

import hashlib
import tarfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Dict, List, Optional

from ragix_core.eval.benchmarks.data import bench_dirs
from ragix_core.eval.benchmarks.errors import BenchmarkError
from ragix_core.eval.scenario import Scenario, load_scenario_file

__all__ = ["paraphrase_scenarios", "find_sdist", "unpack_sdist", "fact_of",
           "PACKAGE", "VERSION", "SDIST", "SDIST_SHA256", "SDIST_HINT", "QUESTIONS"]

PACKAGE = "sqlparse"
VERSION = "0.6.1"
SDIST = f"{PACKAGE}-{VERSION}.tar.gz"
# The answers hold for this exact file only: another build of the same version could differ.
SDIST_SHA256 = "ca722573f848ff2d30e40ea30f53a104b7dea7635ea9285891263eb2c58fb6e7"
SDIST_HINT = f"pip download --no-deps --no-binary :all: {PACKAGE}=={VERSION} -d .bench"
QUESTIONS = Path(__file__).resolve().parents[3] / "benchmarks" / "paraphrase" / "questions.yaml"


def find_sdist() -> Path:
    """The pinned sdist in the first benchmark directory that has it, its sha256 checked."""
    dirs = bench_dirs()
    for d in dirs:
        path = d / SDIST
        if path.is_file():
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            if digest != SDIST_SHA256:
                raise BenchmarkError(f"{path}: sha256 {digest} is not the pinned {SDIST_SHA256}; "
                                     f"remove it and get it again with: {SDIST_HINT}")
            return path
    raise BenchmarkError(f"paraphrase data not found: no {SDIST} in {', '.join(str(d) for d in dirs)}; "
                         f"get it with: {SDIST_HINT}")


def unpack_sdist(sdist: Path, dest: Path) -> None:
    """Write the sdist's files under ``dest``, without its top directory. Only plain files and
    directories inside that top directory are accepted (no links, no absolute or ``..`` paths)."""
    top = f"{PACKAGE}-{VERSION}"
    with tarfile.open(sdist, "r:gz") as tf:
        for member in tf.getmembers():
            parts = PurePosixPath(member.name).parts
            if not parts or parts[0] != top or ".." in parts or not (member.isfile() or member.isdir()):
                raise BenchmarkError(f"{sdist}: unexpected member {member.name!r}")
            target = dest.joinpath(*parts[1:])
            if member.isdir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(tf.extractfile(member).read())


def fact_of(scenario_id: str) -> str:
    """``para-<fact>-<n>`` -> ``<fact>``: the three phrasings of a fact share it."""
    return scenario_id.rsplit("-", 1)[0]


@dataclass(frozen=True)
class SdistSetup:
    """A run's working copy is the package's source, unpacked from its sdist (an object, not a closure: it
    is sent to workers with --jobs, which read the sdist from the same path)."""
    sdist: Path

    def __call__(self, work: Path) -> None:
        unpack_sdist(self.sdist, work)


def paraphrase_scenarios(facts: Optional[int] = None) -> List[Scenario]:
    """Every phrasing of the first ``facts`` facts (all of them when None), in the frozen order."""
    sdist = find_sdist()
    if not QUESTIONS.is_file():
        raise BenchmarkError(f"{QUESTIONS}: the frozen questions are not there; bench:paraphrase reads them "
                             "from a source checkout (pip install -e .)")
    by_fact: Dict[str, List[Scenario]] = {}
    for scen in load_scenario_file(QUESTIONS):
        by_fact.setdefault(fact_of(scen.id), []).append(scen)
    chosen = list(by_fact.values())[:facts] if facts is not None else list(by_fact.values())

    setup = SdistSetup(Path(sdist))
    out: List[Scenario] = []
    for group in chosen:
        for scen in group:
            scen.empty_workdir = True
            scen.setup = setup
            scen.source = f"paraphrase ({PACKAGE} {VERSION})"
            scen.category = "paraphrase"
            out.append(scen)
    return out
