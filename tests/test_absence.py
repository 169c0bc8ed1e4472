"""Absence: `away until 3 Dec` (`weg bis`, `weg tot`) in a reply holds the clock of the player's
decisions until he is back, in every game he plays here, for at most `absence.max`; the others are
told once; `back` ends it; `pbem status` shows it."""

from __future__ import annotations

from datetime import date, datetime, timezone
from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import FilesOut, MaildirDrop, MailGames, player_mail
from pbem.absence import AbsenceError, check, parse_day
from pbem.deadlines import due, stamp

TODAY = date(2026, 11, 21)


@pytest.mark.parametrize("said,day", [
    ("3 Dec", date(2026, 12, 3)), ("3 December", date(2026, 12, 3)), ("Dec 3", date(2026, 12, 3)),
    ("3. Dez", date(2026, 12, 3)), ("3. Dezember 2026", date(2026, 12, 3)), ("3 dec", date(2026, 12, 3)),
    ("3 december", date(2026, 12, 3)), ("3.12.", date(2026, 12, 3)), ("2026-12-03", date(2026, 12, 3)),
    ("5 Jan", date(2027, 1, 5)), ("5. Januar", date(2027, 1, 5)), ("5 januari", date(2027, 1, 5)),
    ("1 mrt", date(2027, 3, 1)), ("1. März", date(2027, 3, 1))])
def test_a_day_in_each_language(said: str, day: date) -> None:
    assert parse_day(said, TODAY) == day


@pytest.mark.parametrize("said", ["soon", "3 Foo", "32 Dec", "Dec", "3 4 Dec 2026", "2026-13-01"])
def test_a_day_that_cannot_be_read_is_refused(said: str) -> None:
    with pytest.raises(AbsenceError) as exc:
        parse_day(said, TODAY)
    assert str(exc.value) == (f"'away until {said}': write the day you are back, such as 'away until 3 Dec' or "
                              f"'away until 2026-12-03'")


def test_an_absence_is_after_now_and_at_most_the_hosts_longest() -> None:
    at = datetime(2026, 11, 21, 12, tzinfo=timezone.utc)
    assert stamp(check(date(2026, 12, 3), at, "Europe/Berlin", 14)) == "2026-12-02T23:00:00Z"
    with pytest.raises(AbsenceError) as exc:
        check(date(2026, 11, 21), at, None, 14)
    assert str(exc.value) == "2026-11-21 has passed; write a day to come, such as 'away until 3 Dec'"
    with pytest.raises(AbsenceError) as exc:
        check(date(2026, 12, 6), at, None, 14)
    assert str(exc.value) == "you may be away for at most 14 days on this host, until 2026-12-05 at the latest"


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    games = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    games.write_config()
    return games


def plain(msg: Any) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def reply_to(g: MailGames, msg: Any, sender: str, body: str) -> list[Any]:
    g.inbox.deliver(player_mail(sender, body, subject=f"Re: {msg['Subject']}", in_reply_to=str(msg["Message-ID"])))
    g.advance()
    return g.outbox.new()


def test_away_holds_the_clock_tells_the_others_once_shows_in_status_and_back_ends_it(g: MailGames) -> None:
    g.new("m1", ["anna", "ben", "cleo"])
    assert g.pbem("set", "m1", "--deadline", "48h").exit_code == 0
    g.outbox.skip()
    first = g.pbem.show("m1")["waiting_for"][0]
    before = due(g.state("m1"))
    sent = reply_to(g, g.welcome[first], f"{first}@players.test", "away until 3 Dec")
    mine = [m for m in sent if m["To"].addresses[0].addr_spec == f"{first}@players.test"]
    assert "You are away until 2026-12-03. The deadlines of your decisions wait until then" in \
        " ".join(plain(mine[0]).split())
    others = [m for m in sent if m["To"].addresses[0].addr_spec != f"{first}@players.test"]
    assert sorted(m["To"].addresses[0].addr_spec for m in others) == sorted(
        f"{p}@players.test" for p in ("anna", "ben", "cleo") if p != first)
    for m in others:
        assert f"{first} is away until 2026-12-03; the deadlines wait until then." in \
            " ".join(plain(m).split())
    state = g.state("m1")
    assert state["away"] == {first: "2026-12-03T00:00:00Z"}
    assert before is not None and stamp(due(state)) == "2026-12-05T00:00:00Z"
    r = g.pbem("status")
    assert f"\nAway (the clock of their decisions waits):\n  m1: {first} until 2026-12-03T00:00:00Z\n" in r.stdout
    g.advance()  # told once: a run that changes nothing mails nobody
    assert g.outbox.new() == []
    sent = reply_to(g, mine[0], f"{first}@players.test", "back")
    assert "Welcome back. The deadlines of your decisions run again from now." in plain(sent[0])
    state = g.state("m1")
    assert stamp(due(state)) == "2026-11-23T12:00:00Z"
    assert "Away" not in g.pbem("status").stdout


@pytest.mark.parametrize("lang,words,message", [
    ("en", "away until someday", "'away until someday': write the day you are back, such as 'away until 3 Dec' "
                                 "or 'away until 2026-12-03'"),
    ("de", "weg bis 20. November", "auf diesem Server darfst du höchstens 14 Tage weg sein, also spätestens bis "
                                   "Samstag, 5. Dezember"),
    ("nl", "weg tot 10 januari", "op deze server mag je hoogstens 14 dagen weg zijn, dus uiterlijk tot zaterdag 5 december")])
def test_an_absence_that_cannot_be_is_refused_in_the_players_language(g: MailGames, lang: str, words: str,
                                                                       message: str) -> None:
    g.new("m1", ["anna", "ben", "cleo"])
    assert g.pbem("set", "m1", "--language", f"anna={lang}").exit_code == 0
    g.outbox.skip()
    sent = reply_to(g, g.welcome["anna"], "anna@players.test", words)
    assert len(sent) == 1
    assert " ".join(plain(sent[0]).split()).startswith(message)
    assert "away" not in g.state("m1")


def test_absence_max_comes_from_pbem_yaml(pbem: Pbem) -> None:
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games), absence={"max": "3d"})
    g.new("m1", ["anna", "ben", "cleo"])
    g.outbox.skip()
    sent = reply_to(g, g.welcome["anna"], "anna@players.test", "away until 3 Dec")
    assert " ".join(plain(sent[0]).split()).startswith(
        "you may be away for at most 3 days on this host, until 2026-11-24 at the latest")
    sent = reply_to(g, g.welcome["anna"], "anna@players.test", "away until 23 Nov")
    assert g.state("m1")["away"] == {"anna": "2026-11-23T00:00:00Z"}


def test_away_without_the_key_of_a_mail_pbem_sent_changes_nothing(g: MailGames) -> None:
    """A fresh mail (no reply key) with anna's From, and a reply from another address in anna's thread:
    neither sets an absence (a From proves nothing)."""
    g.new("m1", ["anna", "ben", "cleo"])
    g.outbox.skip()
    g.inbox.deliver(player_mail("anna@players.test", "away until 3 Dec", subject="holiday"))
    g.advance()
    reply_to(g, g.welcome["anna"], "mallory@far.test", "away until 3 Dec")
    assert "away" not in g.state("m1")
    assert g.gd.queued("m1") == []
