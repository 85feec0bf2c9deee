"""Fixtures for integration tests: the repo root (the PostgreSQL cluster: tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
