"""`stop` by mail and List-Unsubscribe, through `pbem advance` over a Maildir inbox: an address that
plays no game goes on the never-mail list and hears nothing more; a challenge naming it is refused;
a player's `stop` only asks him to confirm, and only his reply to that mail resigns his seat."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import (address, flat_text as text, MailGames, player_mail, run_mails as run,
                          started_game, to)
from pbem.donotmail import never_mail, unsubscribe_header
from pbem.config import load_config


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    return started_game(pbem)


def reply_to(msg: Any, sender: str, body: str) -> bytes:
    return player_mail(sender, body, subject=f"Re: {msg['Subject']}", in_reply_to=str(msg["Message-ID"]))


STRANGER = "dora@elsewhere.test"


def test_a_strangers_answer_ends_with_the_stop_line_and_stop_silences_him(g: MailGames) -> None:
    lines, sent = run(g, player_mail(STRANGER, "hello?"))
    assert [to(m) for m in sent] == [STRANGER]
    assert text(sent[0]).endswith("Reply 'stop' and this host never writes to this address again.")
    assert sent[0]["List-Unsubscribe"] == unsubscribe_header(load_config(g.root), STRANGER)
    assert "List-Unsubscribe-Post" not in sent[0]
    lines, sent = run(g, player_mail(STRANGER, "STOP"))
    assert lines == [f"mail from {STRANGER}: stop: never mailed again"]
    assert sent == []
    assert never_mail(load_config(g.root), STRANGER)
    listed = (g.root / "lobby" / "never-mail.txt").read_text("utf-8")
    assert STRANGER not in listed and "lobby/never-mail.txt" in g.git("ls-files")
    lines, sent = run(g, player_mail(STRANGER, "games", message_id="<again@elsewhere.test>"))
    assert sent == []


@pytest.mark.parametrize("word", ["stop", "Stopp!", "unsubscribe"])
def test_the_words_of_stop(g: MailGames, word: str) -> None:
    lines, sent = run(g, player_mail(STRANGER, word))
    assert lines == [f"mail from {STRANGER}: stop: never mailed again"]


def test_the_unsubscribe_button_sends_to_the_keyed_mailto(g: MailGames) -> None:
    mailto = unsubscribe_header(load_config(g.root), STRANGER)[len("<mailto:"):-len("?subject=stop>")]
    lines, sent = run(g, player_mail(STRANGER, None, subject="stop", to=mailto))
    assert lines == [f"mail from {STRANGER}: stop: never mailed again"]


def test_a_challenge_naming_a_silenced_address_is_refused(g: MailGames) -> None:
    run(g, player_mail(STRANGER, "stop"))
    lines, sent = run(g, reply_to(g.welcome["anna"], address("anna"), f"new medici with {STRANGER}, ben@players.test"))
    assert [to(m) for m in sent] == [address("anna")]
    assert f"{STRANGER} asked this host never to write to it again; nothing was sent" in text(sent[0])


def test_a_forged_stop_for_a_player_does_not_unseat_him(g: MailGames) -> None:
    lines, sent = run(g, player_mail(address("ben"), "stop"))
    assert lines == ["m1: mail from ben@players.test: m1: stop: asked ben to confirm the resignation"]
    assert [to(m) for m in sent] == [address("ben")]
    assert "To resign from game m1, reply to this mail with 'stop'." in text(sent[0])
    assert not (g.root / "m1" / "resigned.txt").exists()
    assert not never_mail(load_config(g.root), address("ben"))
    # a second forged stop the same day is not answered at all
    lines, sent = run(g, player_mail(address("ben"), "stop", message_id="<forged2@x.test>"))
    assert sent == [] and lines[-1].endswith("not answered (a mail nothing proves is answered once a day)")


def test_a_players_reply_to_the_confirmation_resigns_his_seat(g: MailGames) -> None:
    lines, sent = run(g, reply_to(g.welcome["ben"], address("ben"), "stop"))
    ask = sent[0]
    lines, sent = run(g, reply_to(ask, address("ben"), "stop"))
    assert lines[0] == "m1: mail from ben@players.test: m1: stop: ben resigned; never mailed again"
    assert (g.root / "m1" / "resigned.txt").read_text("utf-8") == "ben\n"
    assert address("ben") not in [to(m) for m in sent]
    # his seat is played for him whenever the game waits for it
    for _ in range(6):
        player, _turn = g.mover()
        assert player != "ben"
        from pbem.rules.base import order_text

        run(g, reply_to(g.last_report(player), address(player), order_text(g.legal_order(player))))


def test_a_dry_run_says_what_stop_watch_and_talk_would_do(g: MailGames) -> None:
    g.inbox.deliver(player_mail(STRANGER, "stop"))
    g.inbox.deliver(player_mail("olga@watchers.test", "watch m1"))
    g.inbox.deliver(reply_to(g.welcome["anna"], address("anna"), "say: hello"))
    r = g.pbem("advance", "--dry-run")
    assert r.exit_code == 0, r.output
    assert f"mail from {STRANGER}: would carry out 'stop' (a player is asked to confirm the resignation)" in r.output
    assert "mail from olga@watchers.test: would carry out 'watch m1'" in r.output
    assert "mail from anna@players.test: m1: would pass on table talk" in r.output
    assert not never_mail(load_config(g.root), STRANGER) and g.outbox.new() == []


def test_a_dutch_players_stop_is_asked_in_dutch_and_a_german_in_german(g: MailGames) -> None:
    r = g.pbem("set", "m1", "--language", "ben=nl", "--language", "cleo=de")
    assert r.exit_code == 0, r.output
    g.outbox.skip()
    lines, sent = run(g, reply_to(g.last_report("ben"), address("ben"), "stop"))
    assert "Om uit partij m1 te stappen, antwoord je op deze mail met 'stop'." in text(sent[0])
    lines, sent = run(g, reply_to(g.last_report("cleo"), address("cleo"), "Stopp"))
    assert "Um aus der Partie m1 auszusteigen, antworte auf diese Mail mit 'stopp'." in text(sent[0])
    assert not (g.root / "m1" / "resigned.txt").exists()
