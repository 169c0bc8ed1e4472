"""Shared fixtures. The helpers several test files use live in helpers.py; only fixtures live here."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

# The test game of simultaneous secret bids, a package of this folder, is registered for the tests
# alone, before pbem is imported; the CLI the tests start as a process finds it the same way (the line
# below is the only one outside the game's own files that may name it: test_rooms)
TESTS = str(Path(__file__).resolve().parent)
os.environ["PBEM_RULESETS"] = "goofspiel=goofspiel,whist=whist"
os.environ["PYTHONPATH"] = os.pathsep.join([TESTS, *filter(None, [os.environ.get("PYTHONPATH")])])

import pytest  # noqa: E402

from helpers import BlankBoards, Pbem, fixed_clock, no_disk_flush  # noqa: E402

__all__ = ["Pbem"]  # test_mail_servers imports it from here

# The files of the longest tests (a whole game by mail, an install, spamassassin), the longest first:
# run first, so that in `make test` (three processes, each taking from the others' queues when its own
# runs out) none starts last and keeps the others waiting.
LONGEST_FIRST = ("test_install.py", "test_spam.py", "test_reply_keys.py", "test_typed_values.py",
                 "test_i18n_mail.py", "test_lobby.py", "test_secrets_at_rest.py", "test_mail_servers.py", "test_medina_cli.py",
                 "test_mail_rounds.py", "test_standing_games.py", "test_private_for_good.py",
                 "test_mail_clients.py", "test_docs.py", "test_determinism.py", "test_standings.py",
                 "test_secrets.py", "test_florenz_games.py", "test_parsed_cache.py", "test_reply_generator.py")


def pytest_configure(config: pytest.Config) -> None:
    """The tests' process collects its garbage as the `pbem` command does (pbem.cli.run): a young
    generation of YOUNGEST objects, not Python's 700, which in a process holding every test's items
    and fixtures collects often and walks much."""
    import gc

    from pbem.cli import YOUNGEST

    gc.set_threshold(YOUNGEST, *gc.get_threshold()[1:])


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files of LONGEST_FIRST first, in its order; the others after them, as they were collected."""
    rank = {name: n for n, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


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


@pytest.fixture
def pictures_unexamined(monkeypatch: pytest.MonkeyPatch) -> Iterator[BlankBoards]:
    """The boards in the mail of this test's in-process runs are blank PNGs of their size (see
    helpers.BlankBoards), and every board's SVG must be read: for tests of a mail's words and its
    replies' orders, where drawing pictures no assertion looks at took a third of their time."""
    blank = BlankBoards()
    monkeypatch.setattr("pbem.pictures.board_png", blank)
    yield blank
    assert blank.refused == [], blank.refused
