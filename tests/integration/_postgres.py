"""A private, throw-away PostgreSQL cluster on loopback for integration tests.

The cluster lives in a fresh temporary directory, listens on 127.0.0.1 on a free port (and
a Unix socket in the same directory) and trusts local connections. PostgreSQL refuses to
run as root, so as root the cluster is owned and run by the unprivileged ``postgres`` user
(created by Debian's package) through ``runuser``.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["PostgresCluster", "find_pg_bin", "free_port"]


def free_port() -> int:
    """A TCP port nobody listens on right now (on 127.0.0.1)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def find_pg_bin() -> Path | None:
    """The directory holding ``initdb`` and ``pg_ctl`` (Debian keeps them off PATH)."""
    override = os.environ.get("GRACE_TEST_PG_BIN")
    if override:
        return Path(override) if (Path(override) / "initdb").exists() else None

    def version(path: str) -> int:
        name = Path(path).parent.parent.name
        return int(name) if name.isdigit() else 0

    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=version, reverse=True)
    found = shutil.which("pg_ctl")
    if found:
        candidates.append(str(Path(found).resolve()))
    for path in candidates:
        bindir = Path(path).parent
        if (bindir / "initdb").exists():
            return bindir
    return None


def _runuser() -> str:
    """``runuser`` (util-linux keeps it in /usr/sbin, off a minimal PATH such as ``env -i``)."""
    path = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"])
    return shutil.which("runuser", path=path) or "runuser"


@dataclass
class PostgresCluster:
    """``initdb`` + ``pg_ctl start`` in a temp dir; :meth:`stop` removes everything."""

    bindir: Path
    port: int = 0
    root: Path | None = None
    user: str | None = None

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        cmd = list(args)
        if self.user is not None:
            cmd = [_runuser(), "-u", self.user, "--", *cmd]
        return subprocess.run(
            cmd, check=True, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
        )

    @property
    def url(self) -> str:
        """Connection URL of the ``grace`` superuser to the ``postgres`` database."""
        return f"postgresql://grace@127.0.0.1:{self.port}/postgres?sslmode=disable"

    def start(self) -> PostgresCluster:
        """Create and start the cluster (raises with the server's log on failure)."""
        self.root = Path(tempfile.mkdtemp(prefix="grace-pg-"))
        if os.geteuid() == 0:
            # PostgreSQL refuses root: run it as Debian's ``postgres`` user (else ``nobody``).
            try:
                entry = pwd.getpwnam("postgres")
            except KeyError:
                entry = pwd.getpwnam("nobody")
            self.user = entry.pw_name
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self.root.chmod(0o700)
        data = self.root / "data"
        self.port = free_port()
        try:
            self._run(
                str(self.bindir / "initdb"),
                "-D",
                str(data),
                "-U",
                "grace",
                "--auth=trust",
                "--no-sync",
                "-E",
                "UTF8",
                "--locale=C",
            )
            options = (
                f"-p {self.port} -h 127.0.0.1 -k {self.root} "
                "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            )
            self._run(
                str(self.bindir / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(self.root / "server.log"),
                "-o",
                options,
                "-w",
                "-t",
                "30",
                "start",
            )
        except subprocess.CalledProcessError as exc:
            log = self.root / "server.log"
            detail = log.read_text() if log.exists() else ""
            self.stop()
            raise RuntimeError(
                f"could not start PostgreSQL: {exc.stderr or exc.stdout}\n{detail}"
            ) from exc
        return self

    def stop(self) -> None:
        """Stop the server (fast shutdown) and delete the directory."""
        if self.root is None:
            return
        data = self.root / "data"
        if (data / "postmaster.pid").exists():
            try:
                self._run(str(self.bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop")
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
                pass
        shutil.rmtree(self.root, ignore_errors=True)
        self.root = None
