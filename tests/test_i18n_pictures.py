"""The board pictures in the reader's language: the pictures' environment per language and game,
`board_svg(..., lang=)` and `phone_board_svg(..., lang=)`, English as it always was, and the boards'
own words translated where the catalogs have them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import helpers
import pbem.pictures as pictures
from pbem.game import new_game
from pbem.mail.phone import phone_board_svg
from pbem.store import GamesDir

GAMES = ("medici", "medici-strozzi", "medina", "florenz")
LANGS = ("de", "nl")
NAMES = ["lorenzo", "filippo", "cleo", "dora"]


def game_state(tmp_path: Path, game: str, steps: int = 12) -> dict[str, Any]:
    """A game of `game` after a few bot moves."""
    names = NAMES[:2] if game == "medici-strozzi" else NAMES[:3]
    state, _ = new_game(GamesDir(tmp_path / "games"), game, "g1", [(p, f"{p}@example.org") for p in names], {},
                        "i18n-pictures")
    for _step in range(steps):
        if state["status"] != "active":
            break
        state = helpers.bot_move(state)
    return state


def words(svg: str) -> str:
    """The words an SVG shows (its title apart)."""
    return " ".join(re.findall(r">([^<>]+)<", re.sub(r"<title>.*?</title>", "", svg)))


def test_one_environment_per_language_and_game_and_english_is_the_plain_one() -> None:
    assert pictures.env_for("en", "medici") is pictures.env()
    assert pictures.env_for("de", "medici") is pictures.env_for("de", "medici")
    assert pictures.env_for("de", "medici") is not pictures.env_for("de", "medina")
    assert pictures.env_for("de", "medici") is not pictures.env_for("nl", "medici")


@pytest.mark.parametrize("game", GAMES)
def test_english_is_drawn_as_before(tmp_path: Path, game: str) -> None:
    state = game_state(tmp_path, game)
    viewer = state["players"][0]["name"]
    assert pictures.board_svg(state, viewer, lang="en") == pictures.board_svg(state, viewer)
    assert phone_board_svg(state, viewer, "en") == phone_board_svg(state, viewer)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", ("medici", "medici-strozzi"))
def test_the_boards_are_drawn_in_the_readers_language(tmp_path: Path, game: str, lang: str) -> None:
    state = game_state(tmp_path, game)
    viewer = state["players"][0]["name"]
    for draw in (pictures.board_svg, phone_board_svg):
        english, local = words(draw(state, viewer)), words(draw(state, viewer, lang=lang))
        assert "money" in english and "money" not in local


#: the English words of each game's boards that a German or Dutch board may not show
BOARD_ENGLISH = {
    "florenz": ["round", "setting up", "The disc", "sectors in sight", "to", "reached", "time", "time gained",
                "The families", "scandal card", "scandal cards", "plan card", "VP", "spy", "doorman", "carriage",
                "target", "cups"],
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(BOARD_ENGLISH))
def test_no_english_board_word_is_left(tmp_path: Path, game: str, lang: str) -> None:
    for steps in (0, 40):
        state = game_state(tmp_path / str(steps), game, steps)
        for viewer in (None, state["players"][0]["name"]):
            for draw in (pictures.board_svg, phone_board_svg):
                shown = words(draw(state, viewer, lang=lang))
                left = [w for w in BOARD_ENGLISH[game] if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", shown)]
                assert not left, f"{draw.__name__} {viewer} after {steps}: {left}"
