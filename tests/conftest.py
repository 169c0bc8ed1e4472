"""Shared fixtures. The helpers several test files use live in helpers.py; only fixtures live here."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import Pbem, fixed_clock

__all__ = ["Pbem"]  # test_mail_servers imports it from here


@pytest.fixture(autouse=True)
def _fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs at a known time, and git never asks who the author is."""
    fixed_clock(monkeypatch)


@pytest.fixture
def pbem(tmp_path: Path) -> Pbem:
    return Pbem(tmp_path / "games")
