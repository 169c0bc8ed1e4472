"""A game by mail in few round trips: a 4-player Medici game played by bots as players by
mail would, each answering only the mail he got, through submit and `pbem advance` with its real
outbox. With standing orders it ends in at most 40 runs (one order a mail: one run per decision), each
player gets at most one mail per run in which he must act or may bid, plus the end, and the game is
exactly the game of the same decisions sent one order at a time."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.bench import play_by_mail
from pbem.game import apply_orders, new_game, ruleset_of
from pbem.store import GamesDir

pytestmark = pytest.mark.usefixtures("pictures_unexamined")


@pytest.mark.parametrize("seed", ["mail-play-seed-0001", "mail-play-seed-0002"])
def test_standing_orders_finish_a_game_by_mail_in_few_runs(tmp_path: Path, seed: str) -> None:
    play = play_by_mail(tmp_path / "games", seed=seed, standing=True)
    state = play.state
    assert state["status"] == "finished"
    decisions = len(state["log"])
    assert decisions > 80  # a whole game: every one of them once a mail round trip without standing orders
    assert play.runs <= 40, play.runs
    assert sum(1 for e in state["log"] if e.get("by") == "standing") > decisions / 2
    for player, mails in play.mails.items():
        assert mails <= play.needed[player] + 1, (player, mails, play.needed[player])  # + the end

    # the same decisions, sent one order at a time, give the same game
    names = [p["name"] for p in state["players"]]
    again, _ = new_game(GamesDir(tmp_path / "again", create=True), "medici", "m1",
                        [(n, f"{n}@example.org") for n in names], {}, seed)
    for entry in state["log"]:
        again, _ = apply_orders(again, entry["player"], entry["turn"], [entry["order"]])
    assert again["engine"] == state["engine"]
    assert [{k: v for k, v in e.items() if k != "by"} for e in state["events"] if not e.get("pipeline")] \
        == again["events"]
    result = ruleset_of(state).result(state["engine"])
    assert result == ruleset_of(again).result(again["engine"])


def test_without_standing_orders_every_decision_is_a_run(tmp_path: Path) -> None:
    play = play_by_mail(tmp_path / "games", standing=False)
    assert play.state["status"] == "finished"
    assert play.runs == len(play.state["log"])
