"""Absences over time: a player may be away at most `absence.total` days in any `absence.window` days
(30 in 90 by default), his renewals and early returns counted together, so that `away until` sent
again before each absence ends cannot hold a game for good. Each run here is a real `pbem advance`
over a Maildir, with the clock moved between them."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import FilesOut, MaildirDrop, MailGames, mail_lines, player_mail, to


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    games = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    games.new("m1", ["anna", "ben", "cleo"])
    games.outbox.skip()
    return games


def words(msg: Any) -> str:
    return " ".join(msg.get_body(("plain",)).get_content().split())


def away(g: MailGames, mp: pytest.MonkeyPatch, at: str, body: str, player: str = "anna") -> tuple[list[str], str]:
    """`body` from `player` in a reply to his welcome mail, read by a run at `at`: the run's mail lines
    and the words of pbem's answer to him."""
    mp.setenv("PBEM_NOW", at)
    welcome = g.welcome[player]
    g.inbox.deliver(player_mail(f"{player}@players.test", body, subject=f"Re: {welcome['Subject']}",
                                in_reply_to=str(welcome["Message-ID"])))
    r = g.advance()
    mine = [m for m in g.outbox.new() if to(m) == f"{player}@players.test"]
    assert len(mine) == 1, r.output
    return mail_lines(r.output), words(mine[0])


def test_renewing_an_absence_before_it_ends_stops_at_30_days_in_90(g: MailGames, monkeypatch: pytest.MonkeyPatch) -> None:
    """`away until` 14 days ahead, sent again every 13 days: the first two are taken, the third is
    refused with the days left (4) and the latest day; a fourth within them is taken, and then no day
    is left until the oldest days of the 90 have passed."""
    lines, said = away(g, monkeypatch, "2026-11-21T12:00:00Z", "away until 5 Dec")
    assert said.startswith("You are away until 2026-12-05.")
    _, said = away(g, monkeypatch, "2026-12-04T12:00:00Z", "away until 18 Dec")
    assert said.startswith("You are away until 2026-12-18.")
    assert g.state()["away"] == {"anna": "2026-12-18T00:00:00Z"}
    lines, said = away(g, monkeypatch, "2026-12-17T12:00:00Z", "away until 31 Dec")
    refusal = ("on this host you may be away for at most 30 days in any 90 days, and since 2026-09-22 you have "
               "been away for 26 of them; days left: 4, so until 2026-12-21 at the latest")
    assert said == f"{refusal} Nothing changed."
    assert lines == [f"mail from anna@players.test: m1: answered 'away 31 Dec' (refused: {refusal})"]
    assert g.state()["away"] == {"anna": "2026-12-18T00:00:00Z"}  # the absence he had stands
    _, said = away(g, monkeypatch, "2026-12-17T12:00:00Z", "away until 21 Dec")
    assert said.startswith("You are away until 2026-12-21.")
    _, said = away(g, monkeypatch, "2026-12-21T12:00:00Z", "away until 22 Dec")  # the last half day
    assert said.startswith("You are away until 2026-12-22.")
    _, said = away(g, monkeypatch, "2026-12-22T12:00:00Z", "away until 24 Dec")
    assert said == ("on this host you may be away for at most 30 days in any 90 days, and since 2026-09-24 you "
                    "have been away for 30 of them; no day is left now: you may be away again from 2027-02-20 "
                    "Nothing changed.")
    assert g.state()["away"] == {"anna": "2026-12-22T00:00:00Z"}
    _, said = away(g, monkeypatch, "2027-02-20T12:00:00Z", "away until 22 Feb")  # the day it named
    assert said.startswith("You are away until 2027-02-22.")


def test_back_early_gives_the_days_not_taken_back(g: MailGames, monkeypatch: pytest.MonkeyPatch) -> None:
    """An absence ended by `back` counts until he was back; so does one a newer absence replaced."""
    away(g, monkeypatch, "2026-11-21T12:00:00Z", "away until 5 Dec")
    _, said = away(g, monkeypatch, "2026-12-03T12:00:00Z", "back")
    assert said.startswith("Welcome back.")
    away(g, monkeypatch, "2026-12-04T12:00:00Z", "away until 18 Dec")
    away(g, monkeypatch, "2026-12-05T12:00:00Z", "away until 19 Dec")  # replaces the one before
    _, said = away(g, monkeypatch, "2026-12-10T12:00:00Z", "away until 24 Dec")
    # taken: 12 days until he was back, 1 of the absence replaced, 5 of the last: 18; 12 are left
    assert said == ("on this host you may be away for at most 30 days in any 90 days, and since 2026-09-23 you "
                    "have been away for 18 of them; days left: 12, so until 2026-12-22 at the latest Nothing "
                    "changed.")


def test_the_total_and_its_window_come_from_pbem_yaml_and_are_said_in_the_players_language(
        pbem: Pbem, monkeypatch: pytest.MonkeyPatch) -> None:
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games), absence={"total": "5d", "window": "30d"})
    g.new("m1", ["anna", "ben", "cleo"])
    assert g.pbem("set", "m1", "--language", "anna=de").exit_code == 0
    g.outbox.skip()
    _, said = away(g, monkeypatch, "2026-11-21T12:00:00Z", "weg bis 30. Nov")
    assert said == ("auf diesem Server darfst du in jedem Zeitraum von 30 Tagen höchstens 5 Tage weg sein, und seit "
                    "Dienstag, 27. Oktober warst du 0 davon weg; Tage übrig: 5, also spätestens bis Donnerstag, "
                    "26. November Es hat sich nichts geändert.")
    assert "away" not in g.state()


def test_a_total_longer_than_its_window_is_refused_by_the_run(pbem: Pbem) -> None:
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games), absence={"total": "100d", "window": "90d"})
    g.write_config()
    r = g.pbem("advance")
    assert r.exit_code == 1
    assert r.stderr == (f"Error: {g.root / 'pbem.yaml'}: absence.total (100d) is longer than absence.window (90d), "
                        f"which holds it\n")


def test_the_absences_file_names_no_address(g: MailGames, monkeypatch: pytest.MonkeyPatch) -> None:
    away(g, monkeypatch, "2026-11-21T12:00:00Z", "away until 5 Dec")
    text = (g.root / "mail" / "absences.txt").read_text("utf-8")
    assert "anna" not in text and "players.test" not in text
    assert text.endswith(" 2026-11-21T12:00:00Z 2026-12-05T00:00:00Z\n")
