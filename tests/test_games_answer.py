"""The answer to `games`: its parts (the player's games, his seats in games not begun, the open
games) stand one blank line apart, whichever of them he has, in every language."""

from __future__ import annotations

import itertools

import pytest

from pbem.i18n import LANGUAGES
from pbem.report import env_for

GAMES = [dict(game="m1", title="Lotto", seat=None, turn=3, move="waiting for ben", since=None, due=None)]
WAITING = [dict(game="g3", title="Bazaar", seated=1, seats=3)]
OPEN = [dict(game="g2", title="Bazaar", free=1, seats=3)]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("games,waiting,open_games", list(itertools.product([[], GAMES], [[], WAITING], [[], OPEN])))
def test_the_parts_of_the_games_answer_stand_one_blank_line_apart(lang: str, games: list, waiting: list,
                                                                  open_games: list) -> None:
    text = env_for(lang).get_template("common/cmd-games.txt.j2").render(
        intro=None, games=games, waiting_games=waiting, open_games=open_games)
    assert "\n\n\n" not in text and not text.startswith("\n")
    blocks = text.strip("\n").split("\n\n")
    heads = [b for b in blocks if not b.startswith("  ")]  # each part's heading (or the no-seat line) opens a block
    assert len(heads) == bool(games) * 2 + bool(waiting) + bool(open_games) + (not games and not waiting)
