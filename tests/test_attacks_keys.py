"""What a reply key proves, attacked through `pbem advance` over a Maildir inbox: a key proves that its
address received the mail of one decision. A forged From: with an old key (a forwarded report) acts
on that decision and nothing else; a `turn:` line or a turn file in the body never moves it; orders
sent ahead, standing orders, reports, `undo` and `language` need the key of his latest mail, or his
token. Loops with a machine end; each line of a run names its game.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import (address, FilesOut, MaildirDrop, MailGames, player_mail, started_game,
                          threaded_reply as reply_to)
from pbem.mail.run import MAX_REPLIES_PER_SENDER

pytestmark = pytest.mark.usefixtures("pictures_unexamined")


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    return started_game(pbem)


def run(g: MailGames, *mails: bytes) -> list[str]:
    for raw in mails:
        g.inbox.deliver(raw)
    r = g.advance()
    return [line for line in r.output.splitlines() if " mail from " in line or line.startswith("mail ")]


def play_one(g: MailGames) -> None:
    """The mover's legal order, given by a reply to his latest report (the game moves on a decision)."""
    from pbem.rules.base import order_text

    player, _ = g.mover()
    order = g.legal_order(player)
    run(g, reply_to(g.last_report(player), player, order_text(order)))
    g.outbox.skip()


def refusal(g: MailGames) -> str:
    answers = [m for m in g.outbox.new() if str(m["Message-ID"]).startswith("<pbem.reply.")]
    assert len(answers) == 1, answers
    return " ".join(answers[0].get_body(("plain",)).get_content().split())


def old_key_of_a_seat_not_moving(g: MailGames) -> tuple[str, Any]:
    """A seat's welcome mail (its turn-1 key) once the game has passed turn 1 and later reports went
    out: what a forwarded old report gives an attacker."""
    player = g.mover()[0]
    welcome = g.welcome[player]
    while g.mover()[1] < 3:
        play_one(g)
    return player, welcome


def test_a8_a_turn_line_does_not_move_an_old_keys_decision(g: MailGames) -> None:
    """A8: the welcome's turn-1 key with `turn: N` (the current turn) and an order is refused; nothing
    is queued."""
    player, welcome = old_key_of_a_seat_not_moving(g)
    while g.mover()[0] != player:
        play_one(g)
    turn = g.mover()[1]
    lines = run(g, reply_to(welcome, player, f"turn: {turn}\n{_order(g, player)}"))
    assert lines == [f"m1: mail from {address(player)}: refused: your reply answers turn 1; a 'turn:' line cannot "
                     f"make it answer turn {turn}: reply to the mail of that turn, or give your token"]
    assert g.queued() == []
    assert "a 'turn:' line cannot make it answer turn" in refusal(g)


def test_a9_a_whole_turn_file_in_the_body_does_not_move_an_old_keys_decision(g: MailGames) -> None:
    """A9: a turn file (game:, player:, turn:, orders:) without a token, in a reply with an old key."""
    player, welcome = old_key_of_a_seat_not_moving(g)
    while g.mover()[0] != player:
        play_one(g)
    turn = g.mover()[1]
    body = f"game: m1\nplayer: {player}\nturn: {turn}\norders:\n  - {_order(g, player)}\n"
    lines = run(g, reply_to(welcome, player, body))
    assert len(lines) == 1 and "refused: your reply answers turn 1; a 'turn:' line cannot make it answer" in lines[0]
    assert g.queued() == []


def _order(g: MailGames, player: str) -> str:
    from pbem.rules.base import order_text

    return order_text(g.legal_order(player))


def test_a10_orders_sent_ahead_need_the_key_of_the_latest_mail(g: MailGames) -> None:
    """A10: `next: ...` in a reply to an old report is refused and says what to do; the same in a reply
    to his latest report is queued."""
    player, welcome = old_key_of_a_seat_not_moving(g)
    while g.mover()[0] == player:
        play_one(g)
    lines = run(g, reply_to(welcome, player, "next: pass"))
    latest = g.state()["engine"]["turn"]
    assert lines == [f"m1: mail from {address(player)}: refused: your reply answers an older mail of pbem's "
                     f"(turn 1): orders sent ahead, standing orders, 'reports', 'undo' and 'language' need a reply "
                     f"to your latest mail (turn {_latest(g, player)}), or your token"]
    assert g.queued() == []
    assert "need a reply to your latest mail" in refusal(g)
    assert latest == g.state()["engine"]["turn"]


def _latest(g: MailGames, player: str) -> int:
    from pbem.mail.ids import thread_of

    found = thread_of(g.state()["last_mail"][player])
    assert found is not None
    return found[2]


def test_a10_orders_sent_ahead_in_a_reply_to_the_latest_report_are_queued(g: MailGames) -> None:
    player, _ = old_key_of_a_seat_not_moving(g)
    while g.mover()[0] == player:
        play_one(g)
    lines = run(g, reply_to(g.last_report(player), player, "next: pass"))
    assert len(lines) == 1 and lines[0].startswith(f"m1: mail from {address(player)}: m1 sent ahead: queued pass")


@pytest.mark.parametrize("body", ["standing: max_bid: 9", "reports: all", "undo", "language de"])
def test_a11_standing_orders_reports_undo_and_language_need_the_latest_key(g: MailGames, body: str) -> None:
    """A11: what changes more than one decision, in a reply to an old report, is refused; nothing is
    queued and his seat keeps its language."""
    player, welcome = old_key_of_a_seat_not_moving(g)
    lines = run(g, reply_to(welcome, player, body))
    assert len(lines) == 1
    assert "refused: your reply answers an older mail of pbem's (turn 1)" in lines[0]
    assert g.queued() == []
    assert next(p for p in g.state()["players"] if p["name"] == player).get("language") is None


def test_a11_the_token_allows_what_an_old_key_does_not(g: MailGames) -> None:
    """His token, given in a reply to an old report, proves the seat: the standing order is set."""
    player, welcome = old_key_of_a_seat_not_moving(g)
    lines = run(g, reply_to(welcome, player, f"token: {g.tokens[player]}\nstanding: max_bid: 9"))
    assert len(lines) == 1 and "standing orders max_bid: 9" in lines[0], lines


def test_a12_an_old_key_never_plays_a_later_decision(g: MailGames) -> None:
    """A12: a forged From: with the welcome's key and a bare order, at a later turn when it is his move:
    the order answers turn 1, which has passed; refused as stale."""
    player, welcome = old_key_of_a_seat_not_moving(g)
    while g.mover()[0] != player:
        play_one(g)
    lines = run(g, reply_to(welcome, player, _order(g, player)))
    assert len(lines) == 1 and "refused: your reply answers turn 1; the game is at turn" in lines[0]
    assert g.queued() == []


def test_m2_a_key_in_the_plus_address_is_bound_to_its_turn_too(g: MailGames) -> None:
    """M2: the turn-1 key given in the GM's plus address, with `turn:` of the current turn."""
    from pbem.mail.ids import keyring
    from pbem.config import load_config

    g.extra["reply_address"] = "plus"
    g.write_config()
    player, _ = old_key_of_a_seat_not_moving(g)
    while g.mover()[0] != player:
        play_one(g)
    key = keyring(load_config(g.root)).seat_key(g.state(), player, 1)
    turn = g.mover()[1]
    raw = player_mail(address(player), f"turn: {turn}\n{_order(g, player)}", to=f"gm+1.{key}@pbem.test")
    lines = run(g, raw)
    assert len(lines) == 1 and "a 'turn:' line cannot make it answer turn" in lines[0], lines
    assert g.queued() == []


def test_commands_that_only_read_are_answered_on_an_old_key(g: MailGames) -> None:
    player, welcome = old_key_of_a_seat_not_moving(g)
    assert run(g, reply_to(welcome, player, "status")) == [f"m1: mail from {address(player)}: m1: answered 'status'"]


# -- loops ---------------------------------------------------------------------------------------------

def test_r10_an_auto_responder_without_any_marker_is_answered_twice_then_never(g: MailGames) -> None:
    """R10b: a responder at a player's address answers each of pbem's mails with the same text, with
    no Auto-Submitted header and no auto-reply subject: after two refusals it is not answered again,
    round after round; a real order of his is then taken and answered."""
    player = g.mover()[0]
    away = "I am away until Monday and will read your mail then."
    latest = g.last_report(player)
    answered = 0
    for _ in range(6):
        lines = run(g, reply_to(latest, player, away))
        sent = [m for m in g.outbox.new() if str(m["To"]).endswith(address(player) + ">") or address(player) in str(m["To"])]
        answered += len(sent)
        if sent:
            latest = sent[-1]
    assert answered == 2
    assert "set aside: the same text from" in lines[0] and "refused 2 times already (an auto-responder?)" in lines[0]
    lines = run(g, reply_to(g.last_report(player), player, _order(g, player)))
    assert "queued" in lines[0], lines


def test_r10_a_responder_that_varies_its_text_is_answered_a_few_times_a_day(g: MailGames) -> None:
    """R10c: the text differs every time (a date in it): five refusals in a row in a day, then none."""
    player = g.mover()[0]
    latest = g.last_report(player)
    told = 0
    for n in range(8):
        run(g, reply_to(latest, player, f"Out of office, message number {n} of today."))
        sent = [m for m in g.outbox.new() if address(player) in str(m["To"])]
        told += len(sent)
        latest = sent[-1] if sent else latest
    assert told == 5


def test_twelve_games_answered_in_one_run_are_not_a_loop(pbem: Pbem) -> None:
    """A player in twelve games answers each report before the run: every order is queued (the
    guard counts mails in one thread, not all mails of one address)."""
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    games = [f"m{n}" for n in range(1, MAX_REPLIES_PER_SENDER + 3)]
    for game in games:
        g.new(game)
    g.outbox.skip()
    mails = []
    for game in games:
        player = g.mover(game)[0]
        welcome = [m for m in g.outbox.all() if str(m["Message-ID"]).startswith(f"<pbem.{game}.{player}.1.")][0]
        mails.append((game, reply_to(welcome, player, _order_in(g, player, game))))
    lines = run(g, *(raw for _, raw in mails))
    assert len(lines) == len(games)
    for game, _ in mails:
        assert any(line.startswith(f"{game}: mail from ") and ": queued " in line for line in lines), (game, lines)


def _order_in(g: MailGames, player: str, game: str) -> str:
    from pbem.rules.base import order_text

    return order_text(g.legal_order(player, game))


def test_the_same_thread_more_than_the_limit_in_one_run_is_a_loop(g: MailGames) -> None:
    player = g.mover()[0]
    report = g.last_report(player)
    lines = run(g, *(reply_to(report, player, f"hello {n}") for n in range(MAX_REPLIES_PER_SENDER + 2)))
    aside = [line for line in lines if "in one run in one thread (a loop?)" in line]
    assert len(aside) == 2


def test_each_line_of_a_run_names_its_game_first(g: MailGames) -> None:
    """A refusal's line starts with the game, as a GM greps a log of many games."""
    player = g.mover()[0]
    lines = run(g, reply_to(g.last_report(player), player, "bid: 9999999"))
    assert len(lines) == 1 and re.match(rf"m1: mail from {re.escape(address(player))}: refused: ", lines[0]), lines
