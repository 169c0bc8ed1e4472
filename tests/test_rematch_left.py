"""A rematch by mail after a player left the game (`stop`, confirmed): the others are invited and he is
not, the challenger is told who was left out and why; where too few would be left for the game, or
nobody, the rematch is refused with what to do instead, and nobody is mailed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import MailGames, address, answer, mail_host, player_of, to, token_of
from helpers import seed_args
from pbem import bots, lobby
from pbem.rules.base import get_ruleset, order_text
from rooms import LEFT_BY_ONE

pytestmark = pytest.mark.usefixtures("pictures_unexamined")


def plain(msg: Any) -> str:
    return " ".join(msg.get_body(("plain",)).get_content().split())


def table(g: MailGames, ruleset: str, players: tuple[str, ...], options: dict[str, str]) -> dict[str, Any]:
    """Game m1 of `ruleset` by mail; each player's latest mail from pbem (his welcome)."""
    args = ["new", ruleset, "m1", *seed_args("rematch-seed"), "--json"]
    for key, value in options.items():
        args += ["--option", f"{key}={value}"]
    for p in players:
        args += ["--player", f"{p}={address(p)}"]
    r = g.pbem(*args)
    assert r.exit_code == 0, r.output
    assert {p["name"] for p in json.loads(r.stdout)["players"]} == set(players)
    latest = {}
    for msg in g.outbox.new():
        latest[player_of(msg)] = msg
        token_of(msg)
    return latest


def resign(g: MailGames, latest: dict[str, Any], player: str) -> None:
    lines, sent = answer(g, latest[player], address(player), "stop")
    assert lines == [f"mail from {address(player)}: m1: stop: asked {player} to confirm the resignation"]
    lines, sent = answer(g, sent[0], address(player), "stop")
    assert lines[0] == f"mail from {address(player)}: m1: stop: {player} resigned; never mailed again"
    del latest[player]
    for msg in sent:  # the game goes on: the rule for missing players plays his seat
        latest[player_of(msg)] = msg


def play_to_the_end(g: MailGames, latest: dict[str, Any], ruleset: str) -> None:
    """m1 played to its end by one-line replies of the seats still at the table."""
    for _ in range(300):
        shown = g.pbem.show("m1")
        if shown["status"] != "active":
            break
        player = next(p for p in shown["waiting_for"] if p in latest)
        seen = g.pbem.show("m1", player)
        order = bots.choose(ruleset, seen["view"], player, seen["legal_orders"])
        lines, sent = answer(g, latest[player], address(player), order_text(order))
        assert any("queued" in line for line in lines), lines
        for msg in sent:  # his latest report (not pbem's answer to his order)
            if player_of(msg) in latest and not str(msg["Subject"]).startswith("Re:"):
                latest[player_of(msg)] = msg
    assert g.pbem.show("m1")["status"] == "finished"


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    return mail_host(pbem)


def test_a_rematch_invites_those_still_at_the_table_and_says_who_was_left_out(g: MailGames) -> None:
    game, options = LEFT_BY_ONE["two may play"]
    latest = table(g, game, ("anna", "ben", "cleo"), options)
    resign(g, latest, "ben")
    play_to_the_end(g, latest, game)
    lines, sent = answer(g, latest["anna"], address("anna"), "rematch")
    assert lines == ["mail from anna@players.test: m1-1: challenged cleo@players.test (not invited: ben, who left m1)"]
    assert sorted(to(m) for m in sent) == [address("anna"), address("cleo")]
    mine = next(m for m in sent if to(m) == address("anna"))
    assert "Not invited again, as they left game m1: ben." in plain(mine)
    invitation = next(m for m in sent if to(m) == address("cleo"))
    lines, sent = answer(g, invitation, address("cleo"), "accept")
    assert lines == ["mail from cleo@players.test: m1-1: cleo@players.test accepted; m1-1 starts"]
    assert [p["name"] for p in g.state("m1-1")["players"]] == ["anna", "cleo"]


def test_a_rematch_too_few_would_play_is_refused_in_the_players_language(g: MailGames) -> None:
    game, options = LEFT_BY_ONE["two may not"]
    rules = get_ruleset(game)
    latest = table(g, game, ("anna", "ben", "cleo"), options)
    r = g.pbem("set", "m1", "--language", "anna=de")
    assert r.exit_code == 0, r.output
    resign(g, latest, "ben")
    play_to_the_end(g, latest, game)
    g.outbox.new()
    lines, sent = answer(g, latest["anna"], address("anna"), "revanche")
    assert lines == ["mail from anna@players.test: refused 'rematch': a rematch of game m1 would be 2 players without "
                     f"ben, who left it, and {rules.title} needs {rules.min_players} to {rules.max_players} players, "
                     f"not 2; challenge others with 'new {game} with ADDRESS, ADDRESS'"]
    assert [to(m) for m in sent] == [address("anna")]
    assert "eine Revanche der Partie m1 hätte ohne die Ausgestiegenen (ben) nur 2 Spieler, und " \
           f"{rules.title} braucht {rules.min_players} bis {rules.max_players} Spieler, nicht 2" in plain(sent[0])
    assert lobby.entries(g.gd) == []


def test_a_rematch_with_nobody_left_is_refused(g: MailGames) -> None:
    game, options = LEFT_BY_ONE["two may play"]
    latest = table(g, game, ("anna", "ben"), options)
    resign(g, latest, "ben")
    play_to_the_end(g, latest, game)
    lines, sent = answer(g, latest["anna"], address("anna"), "rematch")
    assert lines == ["mail from anna@players.test: refused 'rematch': nobody is left to invite to a rematch of game "
                     f"m1: ben left it; to play again, challenge others with 'new {game} with ADDRESS, ADDRESS'"]
    assert [to(m) for m in sent] == [address("anna")]
