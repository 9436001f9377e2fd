"""A PostgreSQL server of the test's own, with pg_stat_statements loaded, on a free
loopback port in a temporary directory — the shared server of the test run is never
reconfigured (ALTER SYSTEM would change it for every database on it)."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time

import psycopg
import pytest

from tests.redis_server import free_port

_BIN = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
BIN = _BIN[-1] if _BIN else None
# initdb refuses to run as root; the Debian package's postgres user owns the cluster then.
AS_POSTGRES = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
requires_pg_binaries = pytest.mark.skipif(
    BIN is None or not os.path.exists(f"{BIN}/initdb") or (os.geteuid() == 0 and not shutil.which("runuser")),
    reason="needs the PostgreSQL server binaries (initdb, postgres)",
)


class OwnPostgres:
    def __init__(self) -> None:
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="stgy-pg-")
        os.chmod(self.dir, 0o777)
        self.data = os.path.join(self.dir, "data")
        self.proc: subprocess.Popen | None = None

    def _run(self, *args: str) -> None:
        subprocess.run([*AS_POSTGRES, *args], check=True, capture_output=True, timeout=120)

    def start(self) -> "OwnPostgres":
        self._run(f"{BIN}/initdb", "-D", self.data, "-A", "trust", "-U", "postgres", "--no-sync")
        self.proc = subprocess.Popen(
            [*AS_POSTGRES, f"{BIN}/postgres", "-D", self.data, "-p", str(self.port),
             "-k", self.dir, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off",
             "-c", "shared_preload_libraries=pg_stat_statements"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with psycopg.connect(self.dsn, autocommit=True) as conn:
                    conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
                return self
            except psycopg.OperationalError:
                time.sleep(0.1)
        raise AssertionError("own postgres did not start")

    @property
    def dsn(self) -> str:
        return f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres"

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="module")
def own_postgres():
    server = OwnPostgres().start()
    yield server
    server.stop()
