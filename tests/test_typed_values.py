"""Every value a player types (a day, a number, a name, a turn, a count, a duration, a game id) is read or
refused with a line in words; none raises, since a mail that raises is set aside unanswered and its
player waits. Numbers are read in the digits 0 to 9 alone, everywhere (as YAML reads them): a digit of
another script (٣, ３, ²) is refused, never read as a number the player may not have meant.

Each parser is fed huge numbers, digits of other scripts, control characters and words of 10,000
characters; then the same values go through the real `pbem advance` over a Maildir."""

from __future__ import annotations

from datetime import date, datetime, timezone
from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import FilesOut, MaildirDrop, MailGames, mail_lines, player_mail, to
from pbem.errors import PbemError

pytestmark = pytest.mark.usefixtures("pictures_unexamined")

HOSTILE = ["9" * 30, "9" * 5000, "\u0663", "\u00b2", "\uff13", "\U0001d7d1", "\x00", "\x1b[31m", "\u202e", "x" * 10000,
           "-1", "0", "0x" + "f" * 5000, "1_" + "0" * 5000, "1e999", "\u2028", "\ufeff3", "3" + "\u0301" * 50]
AWAY = ["{v}", "{v} Dec", "3 {v}", "3 Dec {v}", "{v}-12-03", "2026-{v}-03", "3.{v}.", "3.12.{v}", "Dez {v}"]
COMMANDS = ["{v}", "language {v}", "away until {v}", "sprache {v}", "{v} dec"]
LOBBY = ["join {v}", "join g7 as {v}", "new medici with {v} bots", "new medici with bot, bot deadline {v}",
         "new medici with bot, bot deadline {v}d", "new medici {v} with bot, bot", "new {v} with bot, bot",
         "new medici with bot, bot edition {v}", "new medici with bot, bot language {v}", "withdraw {v}",
         "leave {v}", "rematch {v}", "accept {v}", "new medici with {v}@far.test, bot"]
ORDERS = ["bid: {v}", "{v}", "turn: {v}\nbid: 1", "standing: {v}", "reports: {v}", "next: {v}", "game: {v}\nbid: 1",
          "player: {v}\nbid: 1", "standing: max_bid: {v}", "say: {v}", "say to {v}: hi"]
AT = datetime(2026, 11, 21, 12, tzinfo=timezone.utc)


def filled(templates: list[str]) -> list[str]:
    return [t.format(v=v) for t in templates for v in HOSTILE]


@pytest.mark.parametrize("said", filled(AWAY))
def test_a_day_is_read_or_refused_by_id(said: str) -> None:
    from pbem.absence import AbsenceError, check, check_total, parse_day

    try:
        day = parse_day(said, AT.date())
        check(day, AT, "Europe/Berlin", 14)
        check_total(day, AT, "Europe/Berlin", [], 30, 90)
    except AbsenceError as exc:
        assert exc.refusal.msg in ("away-unreadable", "away-digits", "away-passed", "away-too-long")
        assert len(str(exc)) < 300  # what he wrote is echoed cut short


@pytest.mark.parametrize("said,msg,text", [
    ("3 Dez 9999999999", "away-unreadable", "'away until 3 Dez 9999999999': write the day you are back, such as "
                                            "'away until 3 Dec' or 'away until 2026-12-03'"),
    ("\u0663 Dec", "away-digits", "'away until \u0663 Dec': write the day in the digits 0 to 9, such as 'away until "
                                  "3 Dec' or 'away until 2026-12-03'"),
    ("\uff13.12.", "away-digits", "'away until \uff13.12': write the day in the digits 0 to 9, such as 'away until "
                                  "3 Dec' or 'away until 2026-12-03'"),
    ("x" * 10000, "away-unreadable", "'away until " + "x" * 57 + "...': write the day you are back, such as 'away "
                                     "until 3 Dec' or 'away until 2026-12-03'"),
    ("0001-01-01", "away-passed", "0001-01-01 has passed; write a day to come, such as 'away until 3 Dec'"),
    ("9999-12-31", "away-too-long", "you may be away for at most 14 days on this host, until 2026-12-05 at the latest")])
def test_the_day_refused_says_why(said: str, msg: str, text: str) -> None:
    """A huge year (it raised OverflowError), an Arabic-Indic or full-width digit (it was read as 3),
    a day so far back or ahead that no moment of it exists in every time zone."""
    from pbem.absence import AbsenceError, check, parse_day

    with pytest.raises(AbsenceError) as exc:
        check(parse_day(said, AT.date()), AT, "Pacific/Kiritimati", 14)
    assert (exc.value.refusal.msg, str(exc.value)) == (msg, text)


@pytest.mark.parametrize("line", filled(COMMANDS))
def test_a_command_line_is_read_or_is_none(line: str) -> None:
    from pbem.mail.commands import command_in

    assert command_in([line]) is None or isinstance(command_in([line]), str)


@pytest.mark.parametrize("line", filled(LOBBY))
def test_a_lobby_command_is_read_or_refused_in_words(line: str) -> None:
    from pbem.mail.lobby import CommandError, parse

    try:
        command = parse([line])
    except CommandError as exc:
        assert str(exc)
    else:
        assert command is None or command.bots < 10


@pytest.mark.parametrize("value", HOSTILE)
def test_a_duration_is_read_or_refused_in_words(value: str) -> None:
    from pbem.deadlines import parse_duration

    for text in (value, f"{value}d", f"{value}h"):
        try:
            assert 0 < parse_duration(text) <= 366 * 24
        except PbemError as exc:
            assert len(str(exc)) < 120


@pytest.mark.parametrize("value", HOSTILE)
def test_a_yaml_value_is_read_or_refused_in_words(value: str) -> None:
    from pbem.errors import TurnFileError
    from pbem.turnfile import load_yaml

    for text in (f"turn: {value}\n", f"orders:\n- bid: {value}\n", f"game: {value}\n"):
        try:
            load_yaml(text)
        except TurnFileError as exc:
            assert "set_int_max_str_digits" not in str(exc)


def test_a_number_longer_than_any_game_takes_is_refused_by_its_line() -> None:
    from pbem.errors import TurnFileError
    from pbem.turnfile import load_yaml

    for number in ("9" * 5000, "0x" + "f" * 5000, "1_" + "0" * 40):
        with pytest.raises(TurnFileError) as exc:
            load_yaml(f"game: m1\nturn: {number}\n")
        assert str(exc.value) == (f"the turn file, line 2: a number of {len(number)} characters; no number pbem reads "
                                  f"has more than 30")


# -- through the run ------------------------------------------------------------------------------------

@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    games = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    games.new("m1", ["anna", "ben", "cleo"])
    games.outbox.skip()
    return games


def reply(g: MailGames, body: str, player: str = "cleo") -> tuple[Any, list[str], list[Any]]:
    welcome = g.welcome[player]
    g.inbox.deliver(player_mail(f"{player}@players.test", body, subject=f"Re: {welcome['Subject']}",
                                in_reply_to=str(welcome["Message-ID"])))
    r = g.advance()
    return r, mail_lines(r.output), [m for m in g.outbox.new() if to(m) == f"{player}@players.test"]


def words(msg: Any) -> str:
    return " ".join(msg.get_body(("plain",)).get_content().split())


@pytest.mark.parametrize("body,line,told", [
    ("away until 3 Dez 9999999999",
     "m1: answered 'away 3 Dez 9999999999' (refused: 'away until 3 Dez 9999999999': write the day you are back, such "
     "as 'away until 3 Dec' or 'away until 2026-12-03')",
     "'away until 3 Dez 9999999999': write the day you are back, such as 'away until 3 Dec' or 'away until "
     "2026-12-03' Nothing changed."),
    ("away until \u0663 Dec",
     "m1: answered 'away \u0663 Dec' (refused: 'away until \u0663 Dec': write the day in the digits 0 to 9, such as "
     "'away until 3 Dec' or 'away until 2026-12-03')",
     "'away until \u0663 Dec': write the day in the digits 0 to 9, such as 'away until 3 Dec' or 'away until "
     "2026-12-03' Nothing changed."),
    ("bid: 0x" + "f" * 5000,
     "refused: order line 1 ('bid: 0x" + "f" * 5000 + "'): a number of 5002 characters; no number pbem reads has "
     "more than 30",
     "a number of 5002 characters; no number pbem reads has more than 30"),
    ("new medici with bot, bot deadline " + "9" * 5000 + "d",
     "refused 'new': deadline '" + "9" * 37 + "...' is longer than a year",
     "deadline '" + "9" * 37 + "...' is longer than a year"),
    ("new medici with \u00b2 bots",
     "refused 'unknown': 'new medici with \u00b2 bots': name the players to invite after 'with', e.g. 'new medici "
     "with ben@example.org, cleo@example.org'",
     "'new medici with \u00b2 bots': name the players to invite after 'with'")])
def test_a_hostile_value_in_a_players_reply_is_answered_with_its_refusal(g: MailGames, body: str, line: str,
                                                                          told: str) -> None:
    """The big year of an absence raised OverflowError, a digit ² raised ValueError in the count of
    bots, a duration or a hexadecimal number of 5000 digits raised ValueError: each mail was set aside
    unanswered."""
    r, lines, mine = reply(g, body)
    assert lines == [f"mail from cleo@players.test: {line}"]
    assert len(mine) == 1 and told in words(mine[0])
    assert g.inbox.set_aside() == [] and g.inbox.waiting() == []


def test_every_hostile_value_in_every_command_is_answered(g: MailGames, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every value in every kind of line, from each player, through the run; the clock moves a day a
    run, so that the loop guard (a few refusals a day) lets each mail be read."""
    bodies = filled([f"away until {t}" for t in AWAY] + COMMANDS + LOBBY + ORDERS)
    players = ["anna", "ben", "cleo"]
    day = 0
    while bodies:
        day += 1
        monkeypatch.setenv("PBEM_NOW", f"{date.fromordinal(date(2026, 11, 21).toordinal() + day)}T12:00:00Z")
        sent = 0
        for player in players:
            for _ in range(4):
                if bodies:
                    welcome = g.welcome[player]
                    g.inbox.deliver(player_mail(f"{player}@players.test", bodies.pop(), in_reply_to=str(
                        welcome["Message-ID"]), subject=f"Re: {welcome['Subject']} {len(bodies)}"))
                    sent += 1
        r = g.advance()
        lines = mail_lines(r.output)
        assert len(lines) == sent and not [line for line in lines if "set aside" in line], r.output
        g.outbox.skip()
    assert g.inbox.set_aside() == []


@pytest.mark.parametrize("ruleset", __import__("rooms").GAMES)
def test_hostile_values_in_every_games_orders_are_refused_in_words(pbem: Pbem, ruleset: str) -> None:
    """Each legal order of the player to move, its numbers (or a word after it) replaced by each hostile
    value, in a turn file with his token: accepted or refused with a PbemError, in every game's rules."""
    import json
    import re

    from conftest_mail import GM, address, order_line
    from pbem.game import check_submission, show, waiting_for
    from pbem.store import GamesDir
    from rooms import room

    (pbem.games).mkdir(parents=True)
    (pbem.games / "pbem.yaml").write_text(f"gm: {{name: GM, address: {GM}}}\n")
    players = list(room(ruleset).PLAYERS)
    r = pbem("new", ruleset, "m1", "--seed", "typed-values-seed-0123", "--json",
             *[arg for p in players for arg in ("--player", f"{p}={address(p)}")])
    assert r.exit_code == 0, r.output
    tokens = {p["name"]: p["token"] for p in json.loads(r.stdout)["players"]}
    gd = GamesDir(pbem.games)
    state = gd.load("m1")
    player = waiting_for(state)[0]
    seen = show(state, player)
    shapes = list(dict.fromkeys(order_line(o) for o in seen["legal_orders"]))[:8]
    for text in shapes:
        for value in HOSTILE:
            line = re.sub(r"[0-9]+", lambda m: value, text) if re.search(r"[0-9]", text) else f"{text} {value}"
            # as a player writes it: YAML reads `bid: 0xfff...` as the number it spells
            data = f"game: m1\nplayer: {player}\ntoken: {json.dumps(tokens[player])}\nturn: {seen['turn']}\n" \
                   f"orders:\n- {line}\n"
            try:
                check_submission(gd, data.encode(), sender=address(player), source="typed")
            except PbemError as exc:
                assert "set_int_max_str_digits" not in str(exc) and "Traceback" not in str(exc)
