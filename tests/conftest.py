"""Shared fixtures. Test files keep their own helpers; only what several files need lives here."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main as pbem_main


@pytest.fixture(autouse=True)
def _fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs at a known time, and git never asks who the author is."""
    monkeypatch.setenv("PBEM_NOW", "2026-11-21T12:00:00+00:00")
    monkeypatch.delenv("PBEM_GAMES_DIR", raising=False)
    for key in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"):
        monkeypatch.setenv(key, "pbem tests")
    for key in ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"):
        monkeypatch.setenv(key, "tests@localhost")


class Pbem:
    """Runs the `pbem` command in-process against one games dir, as a GM would type it."""

    def __init__(self, games: Path) -> None:
        self.games = games
        self.runner = CliRunner()

    def __call__(self, *args: str, input: str | bytes | None = None):
        return self.runner.invoke(pbem_main, [*map(str, args), "--games-dir", str(self.games)], input=input)

    def new(self, game: str = "m1", players: tuple[str, ...] = ("anna", "ben", "cleo"), *extra: str) -> dict[str, str]:
        """Create a game; returns each player's token."""
        args = ["new", "medici", game, "--seed", "test-seed", "--json"]
        for p in players:
            args += ["--player", f"{p}={p}@example.org"]
        r = self(*args, *extra)
        assert r.exit_code == 0, r.output
        return {p["name"]: p["token"] for p in json.loads(r.stdout)["players"]}

    def show(self, game: str = "m1", player: str | None = None) -> dict:
        r = self("show", game, "--json", *(["--as", player] if player else []))
        assert r.exit_code == 0, r.output
        return json.loads(r.stdout)


@pytest.fixture
def pbem(tmp_path: Path) -> Pbem:
    return Pbem(tmp_path / "games")
