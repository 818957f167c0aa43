"""A fixed corpus and queries for ranking parity (deterministic: the same events on every run)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from typing import Any, Dict, List

NOW = datetime(2026, 11, 26, 12, 0, 0, tzinfo=timezone.utc)

_STEMS = ("compile rust crate linker cargo python import module permission denied docker network timeout git "
          "merge conflict disk full memory segfault pip wheel ssl certificate dns port socket yaml parse json "
          "unicode locale café naïve straße kernel driver mount fstab systemd journal cron ssh key agent proxy "
          "gpg signature tarball checksum makefile cmake ninja gcc clang llvm header pkgconfig libffi openssl "
          "sqlite postgres redis nginx apache tls handshake cookie session token oauth jwt grep sed awk find "
          "xargs rsync scp curl wget http https redirect cache invalidation race deadlock mutex thread fork "
          "signal zombie orphan cgroup namespace seccomp apparmor selinux bwrap sandbox quota inode symlink").split()


def events(n: int = 200, seed: int = 39, now: datetime = NOW) -> List[Dict[str, Any]]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        goal = " ".join(rng.sample(_STEMS, rng.randint(3, 6)))
        error = " ".join(rng.sample(_STEMS, rng.randint(2, 5)))
        meta: Dict[str, Any] = {"i": i}
        if rng.random() < 0.2:
            meta["recovered"] = True
        out.append({
            "timestamp": (now - timedelta(hours=7 * i + 1)).isoformat(),  # distinct, all within 90 days
            "session_id": f"s{i % 17}",
            "event_type": "reflection" if rng.random() < 0.1 else "execution",
            "step_num": i,
            "goal": goal.capitalize() + ("!" if i % 5 == 0 else ""),
            "step_description": f"step {i}: run {rng.choice(_STEMS)}",
            "error": error + (" (exit 2)" if i % 4 == 0 else ""),
            "llm_critique": f"Next time check {rng.choice(_STEMS)} first" if i % 3 == 0 else None,
            "outcome_status": rng.choice(["success", "failure", "failure"]),
            "meta": meta,
        })
    return out


QUERIES = [
    "rust linker", "python import module", "permission denied", "docker network timeout",
    "git merge conflict", "ssl certificate", "CAFE naive", "Straße", "the kernel driver",
    "segfault (exit 2)", "openssl libffi", "deadlock mutex thread", "bwrap sandbox seccomp",
    "find xargs", "oauth jwt token", "zombie orphan signal", "tls handshake", "cron journal systemd",
    "nothing-matches-this zzzz", "a",
]
