"""Shared fixtures. The helpers several test files use live in helpers.py; only fixtures live here."""

from __future__ import annotations

import os
from pathlib import Path

# The test game of simultaneous secret bids, a package of this folder, is registered for the tests
# alone, before pbem is imported; the CLI the tests start as a process finds it the same way (the line
# below is the only one outside the game's own files that may name it: test_rooms)
TESTS = str(Path(__file__).resolve().parent)
os.environ["PBEM_RULESETS"] = "goofspiel=goofspiel"
os.environ["PYTHONPATH"] = os.pathsep.join([TESTS, *filter(None, [os.environ.get("PYTHONPATH")])])

import pytest  # noqa: E402

from helpers import Pbem, fixed_clock, no_disk_flush  # noqa: E402

__all__ = ["Pbem"]  # test_mail_servers imports it from here


@pytest.fixture(autouse=True, scope="session")
def _no_disk_flush() -> None:
    """What pbem writes in the tests' own process goes to the page cache and stays there: no test cuts
    the power, and each fsync waits milliseconds on the disk. (A pbem the tests start as a process
    flushes as a host's does.)"""
    no_disk_flush()


@pytest.fixture(autouse=True)
def _fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs at a known time, and git never asks who the author is."""
    fixed_clock(monkeypatch)


@pytest.fixture
def pbem(tmp_path: Path) -> Pbem:
    return Pbem(tmp_path / "games")
