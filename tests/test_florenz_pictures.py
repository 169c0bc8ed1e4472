"""Florenz's board pictures: the hands as counts, each plan card in its own family's picture alone."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from pbem.pictures import board_svg
from test_pictures import bot_game, names_for, pieces


def test_florenz_pictures_name_no_card_and_only_their_own_plan(tmp_path: Path) -> None:
    """The hands are drawn as counts only (as every player sees them); a player's own plan card is in
    his picture, nobody else's until the end; the public picture has none while the game runs."""
    from pbem.rules.florenz.data import SCANDAL_CARDS

    names = names_for("florenz", 4)
    states = list(bot_game(tmp_path, "florenz", names, {}, "pic-plans", 25))
    for state in states:
        for viewer in [*names, None]:
            svg = board_svg(state, viewer)
            assert not any(card in svg for card in SCANDAL_CARDS)
            plans = {el.get("data-player") for el in pieces(ET.fromstring(svg), "family") if el.get("data-plan")}
            if state["status"] == "active":
                assert plans == ({viewer} if viewer else set())
            else:
                assert plans == set(names)
