"""Medina in its players' words: a wall's side as the order words write it, and refusals written from
their ids in German and Dutch."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem import i18n
from pbem.errors import IllegalOrder, Refusal
from pbem.game import apply_orders, new_game
from pbem.report import refusal_text
from pbem.store import GamesDir


def test_a_wall_side_is_the_same_letter_in_every_language() -> None:
    """A wall side is glued to its number as a column is to its row: O (Ost, Oost) would be column O."""
    words = i18n.order_words("medina")
    for side in "NSWE":
        assert words[side] == {"de": [side], "nl": [side]}


def test_a_kind_of_placement_is_named_in_the_games_words() -> None:
    from pbem.rules.medina.refusals import refuse

    assert refusal_text(refuse("taken", square="C3", kind="palace"), "nl", "medina") == "C3 is al bezet (paleis)"


def test_a_square_of_medina_never_swallows_the_frame(tmp_path: Path) -> None:
    """`%(square)s is not a square of the city` read as English text took `order 'palast grau Z99': Z99`
    for its square, and the German player read the English word `order`; by its id it cannot."""
    state, _ = new_game(GamesDir(tmp_path), "medina", "d1", [(p, f"{p}@x.test") for p in ("anna", "ben", "cleo")],
                        {}, "refusals-by-their-id-seed")
    mover = state["engine"]["current"]
    with pytest.raises(IllegalOrder) as refused:
        apply_orders(state, mover, state["engine"]["turn"], ["start Z99"])
    refusal = refused.value.refusal
    assert isinstance(refusal, Refusal) and refusal.values["why"].msg == "not-a-square"
    assert refusal_text(refusal, "de", "medina") == "Befehl 'start Z99': Z99 ist kein Feld der Stadt (A1 bis P11)"
