"""A seat its player resigned from takes nothing from him, through `pbem advance` over a Maildir inbox:
no orders (by his reply key or his token), no command (`undo`, `language`, `away`, `back`, `status`),
each refused by its id in his language; the game's rule for missing players plays the seat."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import (address, flat_text as text, MailGames, player_mail, run_mails as run, started_game,
                          to, turn_file)
from pbem.rules.base import order_text

REFUSED = ("you resigned from game m1 (ben): the game's rule for missing players plays your seat, and it "
           "takes no orders or commands from you")


def reply_to(msg: Any, sender: str, body: str, **kw: Any) -> bytes:
    return player_mail(sender, body, subject=f"Re: {msg['Subject']}", in_reply_to=str(msg["Message-ID"]), **kw)


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    """m1 and m2, both of anna, ben and cleo; ben has resigned m1 (so his address still gets mail)."""
    games = started_game(pbem)
    games.m1_welcome = games.welcome["ben"]  # type: ignore[attr-defined]
    games.m1_token = games.tokens["ben"]  # type: ignore[attr-defined]
    games.new("m2")
    games.outbox.skip()
    lines, sent = run(games, reply_to(games.m1_welcome, address("ben"), "stop"))  # type: ignore[attr-defined]
    assert lines == ["m1: mail from ben@players.test: m1: stop: asked ben to confirm the resignation"]
    lines, sent = run(games, reply_to(sent[0], address("ben"), "stop"))
    assert lines[0] == "m1: mail from ben@players.test: m1: stop: ben resigned"
    assert (games.root / "m1" / "resigned.txt").read_text("utf-8") == "ben\n"
    return games


def latest_m1(g: MailGames) -> Any:
    mails = [m for m in g.outbox.all() if to(m) == address("ben") and str(m["Message-ID"]).startswith("<pbem.m1.")]
    return mails[-1] if mails else g.m1_welcome  # type: ignore[attr-defined]


@pytest.mark.parametrize("body", ["undo", "language de", "away until 2026-11-25", "back", "status", "help"])
def test_a_resigned_seat_takes_no_command_by_its_key(g: MailGames, body: str) -> None:
    queued = g.queued("m1")
    lines, sent = run(g, reply_to(latest_m1(g), address("ben"), body))
    assert lines == [f"m1: mail from ben@players.test: refused: {REFUSED}"]
    assert [to(m) for m in sent] == [address("ben")]
    assert REFUSED in text(sent[0])
    assert g.queued("m1") == queued
    assert not any(p.get("language") or p.get("away") for p in g.state("m1")["players"] if p["name"] == "ben")


def test_a_resigned_seat_takes_no_orders_by_its_key_or_its_token(g: MailGames) -> None:
    player, turn = g.mover()
    order = order_text(g.legal_order(player))
    lines, sent = run(g, reply_to(latest_m1(g), address("ben"), order))
    assert lines == [f"m1: mail from ben@players.test: refused: {REFUSED}"]
    yaml_text = turn_file("m1", "ben", g.m1_token, turn, [order])  # type: ignore[attr-defined]
    lines, sent = run(g, player_mail(address("ben"), "my orders", attachments=[("m1-ben.yaml", yaml_text)]))
    assert lines == [f"m1: mail from ben@players.test: refused: {REFUSED}"]
    assert g.queued("m1") == []


def test_the_refusal_is_written_in_his_language(g: MailGames) -> None:
    r = g.pbem("set", "m1", "--language", "ben=de")
    assert r.exit_code == 0, r.output
    g.outbox.skip()
    lines, sent = run(g, reply_to(latest_m1(g), address("ben"), "undo"))
    assert "du bist aus der Partie m1 ausgestiegen (ben): für deinen Platz gilt jetzt die Regel der Partie für " \
           "fehlende Spieler, und er nimmt von dir keine Befehle und Kommandos mehr an" in text(sent[0])
    r = g.pbem("set", "m1", "--language", "ben=nl")
    assert r.exit_code == 0, r.output
    g.outbox.skip()
    lines, sent = run(g, reply_to(latest_m1(g), address("ben"), "status", message_id="<nl@players.test>"))
    assert "je bent uit partij m1 gestapt (ben)" in text(sent[0])


def test_a_resigned_seat_still_may_play_his_other_game(g: MailGames) -> None:
    player, turn = g.mover("m2")
    welcome = [m for m in g.outbox.all() if to(m) == address(player) and str(m["Message-ID"]).startswith("<pbem.m2.")]
    welcome = welcome or [g.welcome[player]]
    lines, sent = run(g, reply_to(welcome[-1], address(player), "status"))
    assert lines == [f"m2: mail from {address(player)}: m2: answered 'status'"]
