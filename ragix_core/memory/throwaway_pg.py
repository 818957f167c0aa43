"""A throwaway PostgreSQL cluster on loopback, for the corpus tests and benchmarks.

``initdb`` in a temporary directory, ``pg_ctl start`` on a free 127.0.0.1 port
(no Unix socket, trust authentication: nothing but this machine's processes can
reach it, and only while it runs), ``stop`` removes everything. PostgreSQL
refuses to run as root: as root the cluster runs as the ``postgres`` system user
(through ``runuser``), which owns the temporary directory.

Nothing here is used by ragix at run time: a team's corpus lives in the
PostgreSQL server they already operate (docs/SCALE.md).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import List, Optional

__all__ = ["ThrowawayCluster", "find_bindir", "ClusterError"]

_USER = "ragix"  # the cluster's superuser (trust auth on loopback)


class ClusterError(RuntimeError):
    """The cluster could not be created, started or stopped; the message carries PostgreSQL's own words."""


def find_bindir() -> Optional[Path]:
    """Where initdb and pg_ctl are: $RAGIX_PG_BINDIR, Debian's /usr/lib/postgresql/N/bin, or $PATH."""
    env = os.environ.get("RAGIX_PG_BINDIR")
    candidates: List[str] = [env] if env else []
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]), reverse=True)
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(os.path.dirname(on_path))
    for directory in candidates:
        if all(os.access(os.path.join(directory, tool), os.X_OK) for tool in ("initdb", "pg_ctl", "postgres")):
            return Path(directory)
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ThrowawayCluster:
    def __init__(self, bindir: Optional[Path] = None, settings: Optional[dict] = None) -> None:
        found = bindir or find_bindir()
        if found is None:
            raise ClusterError("PostgreSQL server binaries (initdb, pg_ctl) not found; install postgresql "
                               "or set RAGIX_PG_BINDIR")
        self.bindir = Path(found)
        self.settings = dict(settings or {})
        self.port = 0
        self.root: Optional[Path] = None
        self._runas: List[str] = []

    @property
    def data(self) -> Path:
        assert self.root is not None
        return self.root / "data"

    @property
    def dsn(self) -> str:
        return f"host=127.0.0.1 port={self.port} user={_USER} dbname=postgres"

    def _run(self, tool: str, *args: str) -> str:
        cmd = self._runas + [str(self.bindir / tool), *args]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if proc.returncode != 0:
            log = self.root / "server.log" if self.root else None
            tail = log.read_text(errors="replace")[-2000:] if log and log.exists() else ""
            raise ClusterError(f"{tool} failed ({proc.returncode}): {proc.stderr.strip() or proc.stdout.strip()}"
                               + (f"\nserver log:\n{tail}" if tail else ""))
        return proc.stdout

    def _options(self) -> str:
        opts = [f"-p {self.port}", "-c listen_addresses=127.0.0.1", "-c unix_socket_directories=''"]
        opts += [f"-c {k}={v}" for k, v in self.settings.items()]
        return " ".join(opts)

    def start(self) -> "ThrowawayCluster":
        self.root = Path(tempfile.mkdtemp(prefix="ragix-pg-"))
        if os.geteuid() == 0:  # postgres will not run as root
            try:
                owner = pwd.getpwnam("postgres")
            except KeyError:
                raise ClusterError("running as root and there is no 'postgres' user to run the cluster as") from None
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
            self._runas = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", str(self.data), "-U", _USER, "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8",
                  "--no-sync")
        # A free port can be taken between our probe and the server's bind (another cluster starting at the
        # same moment, as in parallel tests): the server then says so in its log, and another port is tried.
        for attempt in range(3):
            self.port = _free_port()
            try:
                self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"), "-o",
                          self._options(), "-w", "-t", "60", "start")
                return self
            except ClusterError as exc:
                if attempt == 2 or "Address already in use" not in str(exc):
                    raise
        raise AssertionError("unreachable: the last attempt returns or raises")

    def restart(self) -> None:
        # -l as in start: a server writing to our captured stdout would keep the pipe (and us) waiting.
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"), "-o", self._options(),
                  "-m", "fast", "-w", "-t", "60", "restart")

    def stop(self) -> None:
        if self.root is None:
            return
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None

    def create_database(self, name: str) -> str:
        """A fresh UTF8 database; returns its DSN."""
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.dsn, autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {} ENCODING 'UTF8' TEMPLATE template0").format(sql.Identifier(name)))
        return f"host=127.0.0.1 port={self.port} user={_USER} dbname={name}"

    def __enter__(self) -> "ThrowawayCluster":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
