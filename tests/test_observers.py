"""Observers through `pbem advance` over a Maildir inbox: `watch GAME` is confirmed by a reply to the
mail pbem sends the address (a forged From: subscribes nobody), at most one such mail a day; only a
game that allows observers takes them; they get the public reports only, never a hand."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import (address, FilesOut, flat_text as text, MaildirDrop, MailGames, player_mail,
                          run_mails as run, to)
from pbem.mail.observers import observers
from rooms import GAMES, room

pytestmark = pytest.mark.usefixtures("pictures_unexamined")

WATCHER = "olga@watchers.test"


def make(pbem: Pbem, *extra: str) -> MailGames:
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    g.write_config()
    r = pbem("new", "medici", "m1", "--weak-seed", "--seed", "s", *extra,
             *[a for p in ("anna", "ben", "cleo") for a in ("--player", f"{p}={address(p)}")])
    assert r.exit_code == 0, r.output
    for msg in g.outbox.new():
        g.welcome[msg["To"].addresses[0].username] = msg
    return g


def reply_to(msg: Any, sender: str, body: str) -> bytes:
    return player_mail(sender, body, subject=f"Re: {msg['Subject']}", in_reply_to=str(msg["Message-ID"]))


def test_watch_is_confirmed_by_a_reply_then_public_reports_come(pbem: Pbem) -> None:
    g = make(pbem, "--observers", "yes")
    lines, sent = run(g, player_mail(WATCHER, "watch m1"))
    assert lines == [f"mail from {WATCHER}: watch m1: asked to confirm by a reply"]
    assert [to(m) for m in sent] == [WATCHER]
    assert "To watch it, reply to this mail with 'watch m1'." in text(sent[0])
    assert observers(g.gd, "m1") == {}
    lines, sent = run(g, reply_to(sent[0], WATCHER, "watch m1"))
    assert lines == [f"mail from {WATCHER}: watch m1: watching"]
    assert WATCHER in observers(g.gd, "m1")
    from pbem.rules.base import order_text

    player, _ = g.mover()
    lines, sent = run(g, reply_to(g.welcome[player], address(player), order_text(g.legal_order(player))))
    public = [m for m in sent if to(m) == WATCHER]
    assert len(public) == 1
    body = public[0].get_body(("plain",)).get_content()
    assert "reply 'unwatch m1' to stop" in " ".join(body.split())
    assert body.startswith("Game m1 (Medici), turn 2: ")
    assert_public_only(g, "m1", [body])
    lines, sent = run(g, reply_to(public[0], WATCHER, "unwatch m1"))
    assert lines == [f"mail from {WATCHER}: unwatch m1: no longer watching"]
    assert observers(g.gd, "m1") == {}


def assert_public_only(g: MailGames, game: str, bodies: list[str]) -> None:
    """Each line of an observer's mails is one of pbem's own sentences or a public event's line; no
    event addressed to one seat reaches them, nor any hidden value of the game."""
    from pbem.report import addressed, event_lines, public

    state = g.state(game)
    events = state["events"]
    allowed = {f"  - {line}" for line in event_lines(state["ruleset"], public(events))}
    private = [line for e in events if addressed(e) is not None for line in event_lines(state["ruleset"], [e])]
    fixed = [" ".join(line.split()) for line in allowed] + [
        f"You watch game {game}; reply 'unwatch {game}' to stop.", "What happened", "Final standings",
        "Reply 'stop' and this host never writes to this address again."]
    for body in bodies:  # (lines are broken at 72 columns: compared with their blanks run together)
        flat = " ".join(body.split())
        for line in private:
            assert " ".join(line.split()) not in flat
        head, _, rest = flat.partition(". ")
        assert head.startswith(f"Game {game} (")
        for text in sorted(fixed, key=len, reverse=True):
            rest = rest.replace(text, "")
        assert rest.replace("-", "").split() == [], rest


def test_a_forged_watch_subscribes_nobody_and_is_answered_once_a_day(pbem: Pbem) -> None:
    g = make(pbem, "--observers", "yes")
    run(g, player_mail(WATCHER, "watch m1"))
    lines, sent = run(g, player_mail(WATCHER, "watch m1", message_id="<w2@watchers.test>"))
    assert sent == [] and lines == [f"mail from {WATCHER}: watch m1: asked to confirm by a reply "
                                    f"(not answered: one such mail a day)"]
    assert observers(g.gd, "m1") == {}


def test_a_game_that_allows_no_observers_refuses_in_each_language(pbem: Pbem) -> None:
    g = make(pbem)
    lines, sent = run(g, player_mail(WATCHER, "watch m1"))
    assert lines == [f"mail from {WATCHER}: watch m1: refused: game m1 takes no observers"]
    assert "game m1 takes no observers" in text(sent[0])
    lines, sent = run(g, player_mail("p@de.test", "zuschauen m1"))
    assert lines == ["mail from p@de.test: zuschauen m1: refused: game m1 takes no observers"]
    assert "bei der Partie m1 kann niemand zuschauen" in text(sent[0])
    assert text(sent[0]).endswith("Antworte 'stopp', dann schreibt dieser Server nie wieder an diese Adresse.")
    lines, sent = run(g, player_mail("p@nl.test", "meekijken m9"))
    assert lines == ["mail from p@nl.test: meekijken m9: refused: there is no game 'm9' on this host"]


def test_a_key_for_another_address_does_not_confirm(pbem: Pbem) -> None:
    g = make(pbem, "--observers", "yes")
    lines, sent = run(g, player_mail(WATCHER, "watch m1"))
    lines, sent = run(g, reply_to(sent[0], "mallory@evil.test", "watch m1"))
    assert observers(g.gd, "m1") == {}
    assert lines == ["mail from mallory@evil.test: watch m1: asked to confirm by a reply"]


def test_an_open_game_keeps_its_table_settings_when_it_starts(pbem: Pbem) -> None:
    from pbem.talk import table_of
    from test_lobby import send

    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    g.write_config()
    (pbem.games / "mail").mkdir()
    r = pbem("open", "medici", "g1", "--seats", "3", "--observers", "yes", "--talk", "none")
    assert r.exit_code == 0, r.output
    for p in ("anna", "ben", "cleo"):
        lines, _sent = send(g, address(p), "join g1")
    assert g.gd.exists("g1"), lines
    assert table_of(g.gd, "g1") == {"talk": "none", "observers": "yes"}
    assert "g1/table.json" in g.git("ls-files", "g1")
    lines, sent = run(g, player_mail(WATCHER, "watch g1"))
    assert lines == [f"mail from {WATCHER}: watch g1: asked to confirm by a reply"]


def test_a_bad_table_setting_is_a_usage_error(pbem: Pbem) -> None:
    r = pbem("new", "medici", "m1", "--weak-seed", "--seed", "s", "--talk", "loud",
             "--player", "anna=a@x.test", "--player", "ben=b@x.test", "--player", "cleo=c@x.test")
    assert r.exit_code == 2
    assert "Invalid value for '--talk': 'loud' is not one of 'public', 'private', 'none'." in r.output
    assert not (pbem.games / "m1").exists()


@pytest.mark.parametrize("game", GAMES)
def test_an_observer_never_gets_a_hidden_card(pbem: Pbem, game: str) -> None:
    from pbem import bots
    from pbem.rules.base import order_text

    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    g.write_config()
    r = pbem("new", game, "f1", "--weak-seed", "--seed", "s", "--observers", "yes",
             *[a for p in room(game).PLAYERS for a in ("--player", f"{p}={address(p)}")])
    assert r.exit_code == 0, r.output
    latest = {to(m): m for m in g.outbox.new()}
    lines, sent = run(g, player_mail(WATCHER, "watch f1"))
    run(g, reply_to(sent[0], WATCHER, "watch f1"))
    bodies = []
    for _ in range(12):
        shown = g.pbem.show("f1")
        if shown["status"] != "active":
            break
        player = shown["waiting_for"][0]
        seen = g.pbem.show("f1", player)
        order = bots.choose(game, seen["view"], player, seen["legal_orders"])
        lines, sent = run(g, reply_to(latest[address(player)], address(player), order_text(order)))
        for m in sent:
            latest[to(m)] = m if to(m) != WATCHER else latest.get(to(m), m)
        bodies += [m.get_body(("plain",)).get_content() for m in sent if to(m) == WATCHER]
    assert bodies
    assert any(e.get("to") or e.get("player") for e in g.state("f1")["events"])
    assert_public_only(g, "f1", bodies)
