"""A throwaway Ray cluster for the tests: ``ray start --head --block`` on this machine, stopped afterwards.

Started from this interpreter (``python -m ray.scripts.scripts``), so the workers run the checkout under test;
the checkout is on their PYTHONPATH, so the test helpers (tests/eval/ray_runners.py) can be sent by reference.
Ray refuses a loopback node address unless its single-machine mode is forced
(``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``), which is what a test cluster is. Stopped by its process group (the
one ``ray start`` leads), never by ``ray stop``, which stops every Ray on the machine.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, Optional

__all__ = ["RayCluster", "free_port", "LOOPBACK_ENV"]

ROOT = Path(__file__).resolve().parents[2]
# Ray's switch for single-machine clusters: node address 127.0.0.1 (both for `ray start` and the driver)
LOOPBACK_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_USAGE_STATS_ENABLED": "0"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RayCluster:
    def __init__(self, num_cpus: int = 2, env: Optional[Dict[str, str]] = None) -> None:
        self.num_cpus = num_cpus
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        # short: Ray's Unix socket paths live under it and must stay below 108 bytes
        self.temp_dir = Path(tempfile.mkdtemp(prefix="rgxray-", dir="/tmp"))
        self.env = {**os.environ, **LOOPBACK_ENV, **(env or {}),
                    "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
        self.proc: Optional[subprocess.Popen] = None

    def start(self, timeout: float = 90.0) -> "RayCluster":
        cmd = [sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--block",
               f"--num-cpus={self.num_cpus}", "--node-ip-address=127.0.0.1", f"--port={self.port}",
               "--include-dashboard=false", "--object-store-memory=100000000", "--disable-usage-stats",
               f"--temp-dir={self.temp_dir}"]
        log = open(self.temp_dir / "ray-start.log", "wb")
        self.proc = subprocess.Popen(cmd, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"ray start exited {self.proc.returncode}: {self.log()[-2000:]}")
            if b"Ray runtime started" in (self.temp_dir / "ray-start.log").read_bytes():
                return self
            time.sleep(0.5)
        self.stop()
        raise RuntimeError(f"ray start did not come up in {timeout:.0f}s: {self.log()[-2000:]}")

    def log(self) -> str:
        return (self.temp_dir / "ray-start.log").read_text(errors="replace")

    def stop(self) -> None:
        if self.proc is not None:
            for sig, wait in ((signal.SIGTERM, 15.0), (signal.SIGKILL, 5.0)):
                try:
                    os.killpg(self.proc.pid, sig)  # the group `ray start` leads: its GCS, raylet, workers
                except ProcessLookupError:
                    break
                end = time.monotonic() + wait
                while time.monotonic() < end and _group_alive(self.proc.pid):
                    time.sleep(0.2)
                    self.proc.poll()
                if not _group_alive(self.proc.pid):
                    break
            self.proc.poll()
            self.proc = None
        shutil.rmtree(self.temp_dir, ignore_errors=True)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
