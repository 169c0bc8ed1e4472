"""Standing orders, orders sent ahead (`turn: next`) and the choice of reports, through the command as
a GM and his players use them: `pbem submit`, `pbem advance`, `pbem show --as`, `pbem set --reports`.
Every refusal is asserted with its exact message and exit code, and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

import helpers
from helpers import Pbem, assert_error, assert_usage_error, player_args, snapshot
from pbem.errors import IllegalOrder
from pbem.game import new_game, set_standing
from pbem.store import GamesDir
from rooms import GAMES, need, room

GOOD = player_args("anna", "ben", "cleo")
SEED = "standing-cli-seed-0001"


class Game:
    def __init__(self, pbem: Pbem, tmp_path: Path, ruleset: str = "medici", players: list[str] | None = None) -> None:
        self.pbem, self.tmp = pbem, tmp_path
        r = pbem("new", ruleset, "m1", *player_args(*(players or ["anna", "ben", "cleo"])), "--seed", SEED, "--json")
        assert r.exit_code == 0, r.output
        self.tokens = {p["name"]: p["token"] for p in json.loads(r.stdout)["players"]}
        self.n = 0

    def submit(self, player: str, **body: Any) -> Any:
        self.n += 1
        path = self.tmp / f"turn-{self.n}.yaml"
        path.write_text(yaml.safe_dump({"game": "m1", "player": player, "token": self.tokens[player], **body},
                                       sort_keys=False))
        return self.pbem("submit", str(path))

    def advance(self) -> str:
        """What the run said about the game (the line on mail written is left out)."""
        r = self.pbem("advance")
        assert r.exit_code == 0, r.output
        return "".join(line + "\n" for line in r.stdout.splitlines() if line.startswith("m1:"))

    def gm(self) -> dict[str, Any]:
        return self.pbem.show("m1")

    def seats(self) -> list[str]:
        """The auctioneer first, then the bidders in order."""
        first = self.gm()["waiting_for"][0]
        names = list(self.tokens)
        i = names.index(first)
        return names[i:] + names[:i]

    def reports(self, player: str) -> list[Path]:
        return sorted((self.pbem.games / "m1" / "reports" / player).iterdir())


def test_standing_orders_are_queued_then_set_and_shown_to_their_owner_alone(pbem: Pbem, tmp_path: Path) -> None:
    g = Game(pbem, tmp_path)
    a, b, c = g.seats()
    r = g.submit(b, standing=[{"max_bid": 9}, {"pass": "day"}])
    assert r.exit_code == 0, r.output
    assert r.stdout == f"Queued {b}'s standing orders for m1: max_bid: 9; pass: day.\n"
    assert pbem.show("m1", b)["standing"] == []  # queued, not yet set
    assert g.advance() == f"m1: applied {b} standing orders\n"
    assert pbem.show("m1", b)["standing"] == [{"max_bid": 9}, {"pass": "day"}]
    for other in (a, c):
        assert pbem.show("m1", other)["standing"] == []
        assert "max_bid: 9" not in (pbem("show", "m1", "--as", other).stdout)
    assert "standing" not in g.gm()
    assert "YOUR STANDING ORDERS\n  max_bid: 9\n  pass: day\n" in pbem("show", "m1", "--as", b).stdout
    r = g.submit(b, standing=[])
    assert r.stdout == f"Queued {b}'s standing orders for m1: none (this clears them).\n"
    g.advance()
    assert pbem.show("m1", b)["standing"] == []


def test_standing_orders_play_in_the_run_that_reaches_them(pbem: Pbem, tmp_path: Path) -> None:
    g = Game(pbem, tmp_path)
    a, b, c = g.seats()
    for p in (b, c):
        assert g.submit(p, standing=[{"pass": "day"}]).exit_code == 0
    assert g.submit(a, turn=1, orders=["auction"]).exit_code == 0
    out = g.advance()
    assert out == (f"m1: applied {b} standing orders; {c} standing orders; {a} auction; {b} pass (by standing "
                   f"order); {c} pass (by standing order)\n")
    assert g.gm()["waiting_for"] == [a]  # the auctioneer bids last, and has no standing order
    state = helpers.load_game(pbem.games)
    assert [(e["player"], e["order"], e.get("by")) for e in state["log"]] == [
        (a, "auction", None), (b, "pass", "standing"), (c, "pass", "standing")]
    assert pbem("verify", "m1").exit_code == 0


def test_orders_sent_ahead_wait_for_their_decision(pbem: Pbem, tmp_path: Path) -> None:
    g = Game(pbem, tmp_path)
    a, b, c = g.seats()
    r = g.submit(c, turn="next", orders=[{"bid": 3}])
    assert r.exit_code == 0, r.output
    assert r.stdout == f"Queued {c}'s orders for m1, for his next decision: bid: 3.\n"
    assert g.advance() == "m1: nothing to do\n"
    assert len(list((pbem.games / "m1" / "queue").iterdir())) == 1  # held
    assert g.submit(a, turn=1, orders=["auction"]).exit_code == 0
    assert g.submit(b, turn="next", orders=[{"bid": 1}]).exit_code == 0
    out = g.advance()
    assert out == f"m1: applied {a} auction; {b} bid: 1 (sent ahead); {c} bid: 3 (sent ahead)\n"
    assert not list((pbem.games / "m1" / "queue").iterdir())


def test_orders_sent_ahead_that_are_illegal_then_are_dropped_and_he_is_told(pbem: Pbem, tmp_path: Path) -> None:
    g = Game(pbem, tmp_path)
    a, b, c = g.seats()
    assert g.submit(c, turn="next", orders=[{"bid": 3}]).exit_code == 0
    assert g.submit(a, turn=1, orders=["auction"]).exit_code == 0
    assert g.submit(b, turn="next", orders=[{"bid": 5}]).exit_code == 0
    out = g.advance()
    message = (f"your orders sent ahead could not be applied when your decision came: order 'bid: 3': "
               f"bid 3 is not higher than the high bid of 5 by {b}")
    assert out == f"m1: applied {a} auction; {b} bid: 5 (sent ahead), refused {c} (sent ahead): {message}\n"
    assert g.gm()["waiting_for"] == [c]
    refusal = [p for p in g.reports(c) if "-refused-" in p.name]
    assert len(refusal) == 1
    text = refusal[0].read_text()
    assert "Your orders sent ahead (turn: next):\n  - bid: 3\n\nwere refused" in text
    assert (pbem.games / "m1" / "rejected").is_dir()


def test_a_later_turn_file_replaces_orders_sent_ahead(pbem: Pbem, tmp_path: Path) -> None:
    g = Game(pbem, tmp_path)
    a, b, c = g.seats()
    assert g.submit(a, turn="next", orders=["draw"]).exit_code == 0
    r = g.submit(a, turn="next", orders=["auction"])
    assert r.stdout == f"Queued {a}'s orders for m1, for his next decision: auction (it replaces the orders queued before).\n"
    assert g.advance() == f"m1: applied {a} auction (sent ahead)\n"


def test_standing_refusals_change_nothing(pbem: Pbem, tmp_path: Path) -> None:
    g = Game(pbem, tmp_path)
    before = snapshot(pbem.games)
    assert_error(g.submit("anna", standing=[{"max_bid": -1}]),
                 "the turn file is not valid:\n  - line 5, standing[0].max_bid: must be at least 0, not -1")
    assert_error(g.submit("anna", standing=[{"bid": 3}]),
                 "the turn file is not valid:\n  - line 5, standing[0]: is not a Medici standing order; send "
                 "max_bid: N, draw_until: N (1-3) or pass: day")
    assert_error(g.submit("anna", standing=[{"pass": "day"}, {"pass": "day"}]),
                 "standing orders: the standing order 'pass' is given 2 times; keep one")
    assert_error(g.submit("anna", orders=["draw"]),
                 "the turn file is not valid:\n  - line 1, the top level: lacks 'turn'")
    assert_error(g.submit("anna", turn="soon", orders=["draw"]),
                 "the turn file is not valid:\n  - line 4, turn: must be a whole number (the turn your orders "
                 "answer) or 'next', not 'soon'")
    assert_error(g.submit("anna", turn="next", orders=["dance"]),
                 "the turn file is not valid:\n  - line 6, orders[0]: is not a Medici order; send one of: draw, "
                 "auction, pass, bid: N")
    assert snapshot(pbem.games) == before


# -- mail only when it matters --------------------------------------------------------------------------

def test_only_the_player_to_move_gets_a_report_unless_he_asked_for_all(pbem: Pbem, tmp_path: Path) -> None:
    g = Game(pbem, tmp_path)
    a, b, c = g.seats()
    r = g.submit(c, reports="all")
    assert r.stdout == f"Queued {c}'s choice of reports for m1: all.\n"
    g.advance()
    counts = {p: len(g.reports(p)) for p in (a, b, c)}
    assert g.submit(a, turn=1, orders=["draw"]).exit_code == 0
    g.advance()
    # the auctioneer drew: his own move again; b hears nothing yet, c asked for every change
    assert {p: len(g.reports(p)) - counts[p] for p in (a, b, c)} == {a: 1, b: 0, c: 1}
    assert g.submit(a, turn=2, orders=["auction"]).exit_code == 0
    g.advance()
    # a lot goes up: b is to bid; a (the auctioneer) may bid on it last, so he hears of it too
    assert {p: len(g.reports(p)) - counts[p] for p in (a, b, c)} == {a: 2, b: 1, c: 2}
    text = g.reports(b)[-1].read_text()
    assert f"{a} draws another card." in text  # what happened while b had no mail is in his next one


def test_set_reports(pbem: Pbem, tmp_path: Path) -> None:
    g = Game(pbem, tmp_path)
    r = pbem("set", "m1", "--reports", "ben=all", "--reports", "cleo=moves")
    assert r.exit_code == 0, r.output
    assert r.stdout == "m1: reports ben all, cleo moves.\n"
    state = yaml.safe_load((pbem.games / "m1" / "state.yaml").read_text())
    assert state["reports"] == {"ben": "all"}
    before = snapshot(pbem.games)
    assert_usage_error(pbem("set", "m1", "--reports", "ben=some"),
                       "Invalid value for '--reports': 'ben=some' is not PLAYER=moves or PLAYER=all")
    assert_error(pbem("set", "m1", "--reports", "zed=all"), "game 'm1' has no player 'zed'")
    assert snapshot(pbem.games) == before


def test_a_standing_order_of_the_wrong_shape_never_reaches_the_rules(tmp_path: Path) -> None:
    takers = [game for game in GAMES if need(game, "STANDING")]  # the games that take standing orders
    assert takers
    for ruleset in takers:
        names = room(ruleset).PLAYERS
        state, _ = new_game(GamesDir(tmp_path / ruleset, create=True), ruleset, "m1",
                            [(n, f"{n}@example.org") for n in names], {}, SEED)
        for wrong in ([1], [{}], [{"max_bid": 1, "pass": "day"}]):
            with pytest.raises(IllegalOrder, match=r"^standing orders: standing\[0\] is not one standing order such as "):
                set_standing(state, names[0], wrong)
