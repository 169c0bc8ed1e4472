"""Refusals as message ids: the rules refuse with an id and its values (`pbem.errors.Refusal`), pbem puts
them in its frames by id, and the player reads them written from the id in his language. Every id has
its sentence in every catalog: one without a translation fails here, by its id."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from pbem.errors import IllegalOrder, Refusal
from pbem.game import FRAME_MESSAGES, apply_orders, new_game
from pbem.report import _refusals_module, refusal_text
from pbem.store import GamesDir
from rooms import GAMES

LOCALE = Path(__file__).resolve().parent.parent / "pbem" / "locale"
# the messages given by id, with the catalog their words are in
BY_ID = [("pbem", msg, fmt) for msg, fmt in FRAME_MESSAGES.items()] + \
        [(game, msg, fmt) for game in GAMES for msg, fmt in getattr(_refusals_module(game), "MESSAGES", {}).items()]


def catalog(lang: str, domain: str) -> Any:
    with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


@pytest.mark.parametrize("lang", ["de", "nl"])
def test_every_message_id_has_its_sentence_in_every_language(lang: str) -> None:
    missing = []
    for domain, msg, fmt in BY_ID:
        entry = catalog(lang, domain).get(fmt)
        if entry is None or not entry.string or entry.fuzzy:
            missing.append(msg)
    assert not missing, f"{lang}: no sentence for the ids {missing}"


def a_medici_game(tmp_path: Path) -> dict[str, Any]:
    state, _ = new_game(GamesDir(tmp_path), "medici", "m1", [(p, f"{p}@x.test") for p in ("anna", "ben", "cleo")],
                        {}, "refusals-by-their-id-seed")
    return state


def test_a_refusal_of_the_rules_reaches_the_player_by_its_id(tmp_path: Path) -> None:
    state = a_medici_game(tmp_path)
    auctioneer = state["engine"]["auctioneer"]
    with pytest.raises(IllegalOrder) as refused:
        apply_orders(state, auctioneer, state["engine"]["turn"], [{"bid": 5}])
    refusal = refused.value.refusal
    assert isinstance(refusal, Refusal) and refusal.msg == "order-refused"
    why = refusal.values["why"]
    assert isinstance(why, Refusal) and why.msg == "auctioneer-draws" and why.values == {"order": "'bid: 5'"}
    assert str(refusal) == "order 'bid: 5': you are the auctioneer: send 'draw' or 'auction', not 'bid: 5'"
    assert refusal_text(refusal, "de", "medici") == \
        "Befehl 'bieten: 5': du bist Auktionator: schicke 'aufdecken' oder 'versteigern', nicht 'bieten: 5'"
    assert refusal_text(refusal, "nl", "medici") == \
        "order 'bieden: 5': jij bent de veilingmeester: stuur 'trekken' of 'veilen', niet 'bieden: 5'"


def test_one_order_of_several_is_refused_in_its_frame_by_id(tmp_path: Path) -> None:
    state = a_medici_game(tmp_path)
    auctioneer = state["engine"]["auctioneer"]
    with pytest.raises(IllegalOrder) as refused:
        apply_orders(state, auctioneer, state["engine"]["turn"], ["auction", {"bid": 999}])
    refusal = refused.value.refusal
    assert isinstance(refusal, Refusal)
    assert refusal.msg in ("order-n-refused-nothing", "no-longer-yours")
    german = refusal_text(refusal, "de", "medici")
    assert german.startswith("Befehl 2 ('bieten: 999')") and "order" not in german and "bid" not in german
