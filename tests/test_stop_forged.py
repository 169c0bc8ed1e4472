"""Forged and replayed `stop` mails, through `pbem advance` over a Maildir inbox: the question a
player's `stop` gets can be answered only by whoever received it (its id is made under the host's
secret and a reply needs that mail's own key, not any key of the seat); it is sent at most once a day
however the `stop` is proven; and a player whose games are paused, or who holds a seat in a game not
begun, is a player: a forged `stop` does not silence him."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import (address, flat_text as text, MailGames, player_mail, run_mails as run, send,
                          started_game, to, unkeyed)
from pbem.config import load_config
from pbem.donotmail import never_mail, unsubscribe_header
from pbem.mail.ids import reply_id, split_key


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    return started_game(pbem)


def reply_to(msg: Any, sender: str, body: str, **kw: Any) -> bytes:
    return player_mail(sender, body, subject=f"Re: {msg['Subject']}", in_reply_to=str(msg["Message-ID"]), **kw)


NEXT_DAY = "2026-11-22T12:00:00+00:00"


def resigned(g: MailGames) -> str:
    path = g.root / "m1" / "resigned.txt"
    return path.read_text("utf-8") if path.exists() else ""


def assert_ben_still_plays(g: MailGames) -> None:
    assert resigned(g) == ""
    assert not never_mail(load_config(g.root), address("ben"))


def test_a_reply_naming_the_computable_id_with_an_old_key_resigns_nobody(g: MailGames) -> None:
    """The attacker forges ben's `stop` with a Message-ID of his own, computes the id the question
    used to get from it, and answers it with ben's turn-1 key (from his welcome mail) in References."""
    forged = "<forged-stop@evil.test>"
    lines, sent = run(g, player_mail(address("ben"), "stop", message_id=forged))
    assert [to(m) for m in sent] == [address("ben")]
    question = str(sent[0]["Message-ID"])
    computed = reply_id(load_config(g.root), forged, "m1", "ben", g.state()["engine"]["turn"])
    assert unkeyed(question) != computed  # nothing the attacker wrote gives the question's id
    old_key = str(g.welcome["ben"]["Message-ID"])
    assert split_key(old_key)[1] is not None
    lines, sent = run(g, player_mail(address("ben"), "stop", in_reply_to=computed, references=[old_key, computed],
                                     message_id="<forged-confirm@evil.test>"))
    assert_ben_still_plays(g)
    assert lines == ["m1: mail from ben@players.test: stop: a player's; not answered (he was asked to confirm a "
                     "stop today)"]
    assert sent == []


def test_the_questions_own_id_with_a_key_of_the_seat_grafted_on_resigns_nobody(g: MailGames) -> None:
    """Even where the attacker learns the question's id (without its key), a key of the seat's, old
    or latest, does not stand in for the key of that very mail."""
    lines, sent = run(g, player_mail(address("ben"), "stop"))
    bare = unkeyed(sent[0]["Message-ID"])
    for seat_mail in (g.welcome["ben"], g.last_report("ben")):
        seat_key = split_key(str(seat_mail["Message-ID"]))[1]
        grafted = f"{bare[:bare.rindex('@')]}.k{seat_key}{bare[bare.rindex('@'):]}"
        run(g, player_mail(address("ben"), "stop", in_reply_to=grafted, references=[str(seat_mail["Message-ID"])]))
        run(g, player_mail(address("ben"), "stop", in_reply_to=bare, references=[str(seat_mail["Message-ID"])]))
    assert_ben_still_plays(g)


def test_the_question_answered_from_another_address_resigns_nobody(g: MailGames) -> None:
    lines, sent = run(g, reply_to(g.welcome["ben"], address("ben"), "stop"))
    question = sent[0]
    run(g, reply_to(question, address("cleo"), "stop"))
    assert resigned(g) == ""
    lines, sent = run(g, reply_to(question, address("ben"), "stop"))
    assert lines[0] == "m1: mail from ben@players.test: m1: stop: ben resigned; never mailed again"
    assert resigned(g) == "ben\n"


def test_the_unsubscribe_mailto_replayed_asks_once_a_day(g: MailGames) -> None:
    """ben's List-Unsubscribe mailto (gm+stop.KEY), replayed from his address three times in a run and
    again in the next run, and his own keyed `stop` the same day: one question in all."""
    mailto = unsubscribe_header(load_config(g.root), address("ben"))[len("<mailto:"):-len("?subject=stop>")]
    lines, sent = run(g, *[player_mail(address("ben"), None, subject="stop", to=mailto) for _ in range(3)])
    assert [to(m) for m in sent] == [address("ben")]
    assert "To resign from game m1, reply to this mail with 'stop'." in text(sent[0])
    assert lines[1:] == ["mail from ben@players.test: stop: a player's; not answered (he was asked to confirm "
                         "a stop today)"] * 2
    lines, sent = run(g, player_mail(address("ben"), None, subject="stop", to=mailto),
                      reply_to(g.last_report("ben"), address("ben"), "stop"))
    assert sent == []
    assert_ben_still_plays(g)


def test_a_forged_stop_from_a_player_whose_only_game_is_paused_asks_him(g: MailGames) -> None:
    """The GM pauses ben's only game; a forged `stop` in his name only asks him to confirm, and when
    the game resumes he gets his reports as before."""
    r = g.pbem("pause", "m1")
    assert r.exit_code == 0, r.output
    g.outbox.skip()
    lines, sent = run(g, player_mail(address("ben"), "stop"))
    assert lines == ["m1: mail from ben@players.test: m1: stop: asked ben to confirm the resignation"]
    assert [to(m) for m in sent] == [address("ben")]
    assert_ben_still_plays(g)
    r = g.pbem("resume", "m1")
    assert r.exit_code == 0, r.output
    g.outbox.skip()
    from pbem.rules.base import order_text

    heard = []
    for _ in range(6):
        player, _turn = g.mover()
        lines, sent = run(g, reply_to(g.last_report(player), address(player), order_text(g.legal_order(player))))
        heard += [to(m) for m in sent]
    assert address("ben") in heard


def test_a_forged_stop_from_a_seat_in_a_game_not_begun_asks_him(g: MailGames, monkeypatch: Any) -> None:
    """dora holds a seat in an open game and plays no other: a forged `stop` asks her to confirm, and
    when the game fills she gets her welcome; her own reply to the question gives her seat back."""
    r = g.pbem("open", "medici", "g1", "--seats", "3")
    assert r.exit_code == 0, r.output
    dora = "dora@players.test"
    lines, sent = send(g, dora, "join g1")
    assert lines[-1].endswith("g1: joined as dora"), lines
    monkeypatch.setenv("PBEM_NOW", NEXT_DAY)  # (her join was answered today: a mail nothing proves, once a day)
    lines, sent = run(g, player_mail(dora, "stop"))
    assert lines == [f"g1: mail from {dora}: g1: stop: asked dora to confirm giving back the seat"]
    assert "To give back your seat in game g1, reply to this mail with 'stop'." in text(sent[0])
    assert not never_mail(load_config(g.root), dora)
    question = sent[0]
    lines, sent = run(g, reply_to(question, dora, "stop"))
    assert lines == [f"g1: mail from {dora}: g1: stop: dora left; never mailed again"]
    assert never_mail(load_config(g.root), dora)
    assert [to(m) for m in sent] == [dora]  # the lobby's answer, written before the address was listed


def test_a_forged_stop_from_a_seat_in_an_open_game_does_not_keep_the_welcome_away(g: MailGames,
                                                                                  monkeypatch: Any) -> None:
    r = g.pbem("open", "medici", "g1", "--seats", "3")
    assert r.exit_code == 0, r.output
    dora = "dora@players.test"
    send(g, dora, "join g1")
    monkeypatch.setenv("PBEM_NOW", NEXT_DAY)
    lines, sent = run(g, player_mail(dora, "stop"))
    assert lines == [f"g1: mail from {dora}: g1: stop: asked dora to confirm giving back the seat"]
    send(g, "eve@players.test", "join g1")
    lines, sent = send(g, "fay@players.test", "join g1")
    assert g.gd.exists("g1"), lines
    assert dora in [to(m) for m in sent]
