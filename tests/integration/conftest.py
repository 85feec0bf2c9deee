"""Fixtures for integration tests: a private PostgreSQL cluster, free ports, the repo root."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration._postgres import PostgresCluster, find_pg_bin

ROOT = Path(__file__).resolve().parents[2]

REQUIRE_POSTGRES = os.environ.get("GRACE_TEST_REQUIRE_POSTGRES", "") not in ("", "0", "false")
"""Set by ``.ci/run``: missing PostgreSQL binaries fail the Postgres tests instead of skipping."""


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """URL of a private PostgreSQL cluster on loopback, started once per session."""
    bindir = find_pg_bin()
    if bindir is None:
        message = (
            "PostgreSQL server binaries not found (apt-get install postgresql, "
            "or set GRACE_TEST_PG_BIN)"
        )
        if REQUIRE_POSTGRES:
            pytest.fail(message + " and GRACE_TEST_REQUIRE_POSTGRES is set", pytrace=False)
        pytest.skip(message)
    cluster = PostgresCluster(bindir).start()
    try:
        yield cluster.url
    finally:
        cluster.stop()
