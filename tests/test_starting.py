"""pbem.starting.start_game, the one way a game starts (`pbem new`, `pbem start`, the lobby by mail, a
game against bots): checked before anything is written, then its first state, reports and commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import commit_count, git
from pbem.errors import SetupError
from pbem.game import set_seat
from pbem.starting import start_game
from pbem.store import GamesDir

PEOPLE = [("anna", "anna@example.org"), ("ben", "ben@example.org"), ("cleo", "cleo@example.org")]
SEED = "a seed long enough to be strong"


def test_a_game_that_cannot_start_writes_nothing(tmp_path: Path) -> None:
    root = tmp_path / "games"
    called: list[str] = []
    with pytest.raises(SetupError, match="medici has no option 'colour'"):
        start_game(GamesDir(root, create=True), "medici", "m1", PEOPLE, {"colour": "red"}, "m1: new game",
                   seed=SEED, besides=lambda: called.append("besides") or [], then=lambda: called.append("then"),
                   lock=True)
    assert called == []
    assert not root.exists()


def test_a_refused_setting_writes_nothing(tmp_path: Path) -> None:
    root = tmp_path / "games"

    def refuse(state: dict) -> dict:
        raise SetupError("no such seat")

    with pytest.raises(SetupError, match="no such seat"):
        start_game(GamesDir(root, create=True), "medici", "m1", PEOPLE, {}, "m1: new game", seed=SEED,
                   settings=refuse, lock=True)
    assert not root.exists()


def test_a_game_starts_in_one_commit_with_what_it_changed_besides(tmp_path: Path) -> None:
    root = tmp_path / "games"
    gd = GamesDir(root, create=True)
    order: list[str] = []

    def besides() -> list[str]:
        order.append("besides")
        (root / "lobby").mkdir()
        (root / "lobby" / "m1.yaml").write_text("game: m1\n")
        return ["lobby/m1.yaml"]

    def then() -> None:
        order.append("then, after " + git(root, "log", "-1", "--format=%s").strip())

    state, tokens = start_game(gd, "medici", "m1", PEOPLE, {}, "m1: new medici game for anna, ben, cleo",
                               seed=SEED, settings=lambda s: set_seat(s, "anna", "language", "de"), besides=besides, then=then,
                               lock=True)
    assert order == ["besides", "then, after m1: new medici game for anna, ben, cleo"]
    assert sorted(tokens) == ["anna", "ben", "cleo"]
    assert gd.load("m1")["players"][0]["language"] == "de"
    assert git(root, "log", "-1", "--format=%B") == (
        "m1: new medici game for anna, ben, cleo\n\nOptions: edition=riogrande.\n"
        f"Seed commitment: sha256 {state['seed_sha256']}.\n\n")
    assert "lobby/m1.yaml" in git(root, "show", "--name-only", "--format=", "HEAD").split()
    assert sorted(p.name for p in (root / "m1" / "reports").iterdir()) == ["anna", "ben", "cleo"]


def test_a_game_id_taken_is_refused_under_the_lock(tmp_path: Path) -> None:
    root = tmp_path / "games"
    start_game(GamesDir(root, create=True), "medici", "m1", PEOPLE, {}, "m1: new game", seed=SEED, lock=True)
    commits = commit_count(root)
    with pytest.raises(SetupError, match="already exists"):
        start_game(GamesDir(root), "medici", "m1", PEOPLE, {}, "m1: new game", seed=SEED, lock=True)
    assert commit_count(root) == commits
