"""One-line replies proven by reply keys: every mail pbem sends a player carries a key (an HMAC of game,
seat, seat generation and turn under a secret outside git) in its Message-ID and, as gm+TURN.KEY@, in
its Reply-To. A mail from the seat's registered address that carries the key needs no token and no
marker lines: its own text is its orders, or one of the commands. Each attack a mail system meets
(another address, another seat or game, a replaced seat, a forged key, a guessed id, a spoofed name, a
replay) moves nothing.
"""

from __future__ import annotations

import html
import re
import subprocess
from typing import Any, Callable

import pytest

from conftest import Pbem
from conftest_mail import (GM, FilesOut, MaildirDrop, MailGames, address, parse, player_mail, player_of,
                           quote, unkeyed)
from rooms import EXAMPLE, GAMES, room
from pbem import bots
from pbem.mail.ids import KEYED_ID, split_key
from pbem.store.seen import digest
from pbem.rules.base import get_ruleset, order_text
from test_mail_hardening import new_game

pytestmark = pytest.mark.usefixtures("pictures_unexamined")



@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    return MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))


def plain(msg: Any) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def typed(order: Any) -> str:
    """An order as a player types it on a phone: `bid 7`, `load 4 harbour B`, `palace grey C7`."""
    if isinstance(order, dict):
        return " ".join(f"{k} {v}" for k, v in order.items())
    return str(order)


def latest(g: MailGames, player: str) -> Any:
    """The latest mail pbem sent `player` (report, welcome, acknowledgement, refusal or answer): in the
    order they were written, as his inbox shows them."""
    folder = g.root / "mail" / "outbox"
    for path in sorted(folder.glob("*.eml"), key=lambda p: (p.stat().st_mtime_ns, p.name), reverse=True):
        msg = g.outbox.message(path) if isinstance(g.outbox, FilesOut) else parse(path.read_bytes())
        if player_of(msg) == player:
            return msg
    return g.welcome[player]


def reply(report: Any, player: str, body: str | None, **kw: Any) -> bytes:
    """`player`'s reply to a mail of pbem's, threaded under it as every client threads a reply."""
    refs = str(report.get("References", "")).split() + [str(report["Message-ID"])]
    kw.setdefault("subject", f"Re: {report['Subject']}")
    return player_mail(address(player), body, in_reply_to=str(report["Message-ID"]), references=refs, **kw)


def mail_lines(output: str) -> list[str]:
    """The run's lines about mail, without the game each names first (`m1: mail from ...`)."""
    lines = [re.sub(r"^[a-z0-9][a-z0-9_-]*: (?=mail )", "", line) for line in output.splitlines()]
    return [line for line in lines if line.startswith("mail ")]


def answers(g: MailGames) -> list[Any]:
    return [m for m in g.outbox.new() if str(m["Message-ID"]).startswith("<pbem.reply.")]


# -- the shapes of reply that mail clients write, with the order alone ---------------------------------------

def gmail(report: Any, player: str, line: str) -> bytes:
    text = plain(report)
    markup = (f'<div dir="ltr">{html.escape(line)}</div><br><div class="gmail_quote"><div dir="ltr" '
              f'class="gmail_attr">On Sat, Nov 21, 2026 at 12:00\u202fPM Game Master &lt;{GM}&gt; wrote:<br></div>'
              f'<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex"><pre>{html.escape(text)}</pre>'
              f"</blockquote></div>")
    return reply(report, player, None, html=markup)


def apple_mail(report: Any, player: str, line: str) -> bytes:
    body = f"{line}\n\nSent from my iPhone\n\n> On 21 Nov 2026, at 12:00, Game Master <{GM}> wrote:\n> \n" \
           f"{quote(plain(report))}\n"
    markup = (f"<html><body><div dir=\"auto\">{html.escape(line)}</div><div><br>Sent from my iPhone</div>"
              f"<blockquote type=\"cite\"><pre>{html.escape(plain(report))}</pre></blockquote></body></html>")
    return reply(report, player, body, html=markup)


def outlook(report: Any, player: str, line: str) -> bytes:
    body = f"{line}\n\n________________________________\nFrom: Game Master <{GM}>\n" \
           f"Sent: Saturday, November 21, 2026 12:00 PM\nTo: {player}\nSubject: {report['Subject']}\n\n{plain(report)}\n"
    return reply(report, player, body)


def phone_de(report: Any, player: str, line: str) -> bytes:
    typed_line = line[:1].upper() + line[1:] + "."
    body = f"{typed_line}\n\nVon meinem iPhone gesendet\n\nAm 21.11.2026 um 12:00 schrieb Game Master <{GM}>:\n\n" \
           f"{quote(plain(report))}\n"
    return reply(report, player, body)


def plain_bottom(report: Any, player: str, line: str) -> bytes:
    body = f"On Sat, 21 Nov 2026 at 12:00, Game Master <{GM}> wrote:\n{quote(plain(report))}\n\n{line}\n\n-- \nAnna\n"
    return reply(report, player, body)


CLIENTS: list[Callable[[Any, str, str], bytes]] = [gmail, apple_mail, outlook, phone_de, plain_bottom]


@pytest.mark.parametrize("ruleset", GAMES)
def test_a_whole_game_by_one_line_replies_from_every_client(g: MailGames, ruleset: str) -> None:
    """Every decision answered by a reply of the order alone, from the shapes of mail that Gmail, Apple
    Mail, Outlook, a German phone and a bottom-poster write, to the end: every mail queued, none refused,
    no token anywhere in the players' mail, and the game takes exactly the orders sent."""
    new_game(g, ruleset, room(ruleset).PLAYERS)
    g.outbox.skip()
    sent: list[tuple[str, Any]] = []
    for n in range(2000):
        shown = g.pbem.show("g1")
        if shown["status"] != "active":
            break
        player = shown["waiting_for"][0]
        seen = g.pbem.show("g1", player)
        order = bots.choose(ruleset, seen["view"], player, seen["legal_orders"])
        client = CLIENTS[n % len(CLIENTS)]
        g.inbox.deliver(client(latest(g, player), player, typed(order)))
        r = g.advance()
        assert mail_lines(r.output) == [f"mail from {address(player)}: g1 turn {seen['turn']}: queued "
                                        f"{order_text(order)}"], (client.__name__, typed(order), r.output)
        sent.append((player, order))
        g.outbox.skip()
    assert g.pbem.show("g1")["status"] == "finished"
    log = g.state("g1")["log"]
    assert [(e["player"], e["order"]) for e in log if e.get("by") is None] == sent
    assert g.inbox.set_aside() == []


# -- what a reply may say ---------------------------------------------------------------------------------

def mover_reply(g: MailGames, body: str, **kw: Any) -> tuple[str, list[str], list[Any]]:
    player, _ = g.mover()
    g.inbox.deliver(reply(latest(g, player), player, body, **kw))
    r = g.advance()
    return player, mail_lines(r.output), answers(g)


def test_two_lines_are_two_orders_and_a_greeting_is_passed_over(g: MailGames) -> None:
    g.new()
    g.outbox.skip()
    name = g.mover()[0].title()
    player, lines, (ack,) = mover_reply(g, f"Hi GM,\n\ndraw\nauction\n\nCheers,\n{name}\n")
    assert lines == [f"mail from {address(player)}: m1 turn 1: queued draw, auction"]
    assert plain(ack).startswith("Your orders for game m1, turn 1, were received:\n\n  - draw\n  - auction\n")
    assert [e["order"] for e in g.state()["log"]] == ["draw", "auction"]


def test_a_bid_as_a_sentence_and_an_order_sent_ahead(g: MailGames) -> None:
    g.new()
    auctioneer, _ = g.mover()
    g.inbox.deliver(reply(latest(g, auctioneer), auctioneer, "draw\nauction\n"))
    g.advance()
    bidder, turn = g.mover()
    other = next(p for p in g.pbem.show("m1")["waiting_for"] if p == bidder)
    assert other == bidder
    g.inbox.deliver(reply(latest(g, bidder), bidder, "Bid 1.\n"))
    r = g.advance()
    assert mail_lines(r.output) == [f"mail from {address(bidder)}: m1 turn {turn}: queued bid: 1"]
    later = next(p for p in ("anna", "ben", "cleo") if p not in (auctioneer, bidder))
    g.inbox.deliver(reply(latest(g, later), later, "next: bid 9\n"))
    r = g.advance()
    assert mail_lines(r.output)[0].startswith(f"mail from {address(later)}: m1 sent ahead: queued bid: 9")


def test_a_bare_amount_is_a_bid_where_the_decision_takes_one_number(g: MailGames) -> None:
    g.new()
    auctioneer, _ = g.mover()
    # where no order takes a number (the auctioneer draws or auctions), a number is no order
    g.inbox.deliver(reply(latest(g, auctioneer), auctioneer, "3\n"))
    assert mail_lines(g.advance().output) == [f"mail from {address(auctioneer)}: refused: your reply is not valid:"]
    g.inbox.deliver(reply(latest(g, auctioneer), auctioneer, "draw\nauction\n"))
    g.advance()
    bidder, turn = g.mover()
    g.inbox.deliver(reply(latest(g, bidder), bidder, "3!\n"))
    assert mail_lines(g.advance().output) == [f"mail from {address(bidder)}: m1 turn {turn}: queued bid: 3"]


def test_orders_now_and_orders_sent_ahead_go_in_separate_mails(g: MailGames) -> None:
    g.new()
    g.outbox.skip()
    before = g.state()["log"]
    player, lines, (refusal,) = mover_reply(g, "draw\nnext: auction\n")
    assert lines == [f"mail from {address(player)}: refused: order line 2: orders for now and orders sent "
                     f"ahead ('next: ...') go in separate mails"]
    assert g.state()["log"] == before and g.queued() == []


def test_standing_orders_in_a_one_line_reply(g: MailGames) -> None:
    g.new()
    player = next(p for p in ("anna", "ben", "cleo") if p not in g.pbem.show("m1")["waiting_for"])
    g.inbox.deliver(reply(latest(g, player), player, "standing: max_bid 9\n"))
    r = g.advance()
    assert mail_lines(r.output) == [f"mail from {address(player)}: m1 any time: standing orders max_bid: 9"]
    assert g.state()["standing"][player] == [{"max_bid": 9}]


def test_a_line_that_is_neither_an_order_nor_a_command_names_what_he_may_send(g: MailGames) -> None:
    g.new()
    g.outbox.skip()
    player, lines, (refusal,) = mover_reply(g, "When is the next auction?\n")
    assert lines == [f"mail from {address(player)}: refused: your reply is not valid:"]
    assert " ".join(plain(refusal).split("\n\n")[0].split()).endswith("could not be used, and nothing in the game changed:")
    assert plain(refusal).endswith(
        "\n\n  your reply is not valid:\n"
        "    - order line 1 ('When is the next auction?'): is not a Medici order;\n"
        "      send one of: draw, auction, pass, bid: N\n\n"
        "What you may send now, as a reply to this mail, alone on a line:\n"
        "  - draw\n  - auction\n\n"
        "Or one word: help, status, games, standing or undo.\n")
    assert g.queued() == []


def test_a_reply_to_a_decision_that_has_passed_is_stale(g: MailGames) -> None:
    """A reply to the mail of turn 1 after the game moved on is refused as stale and never applied to
    another decision, even when it would be legal there."""
    g.new()
    player, _ = g.mover()
    first = latest(g, player)
    g.inbox.deliver(reply(first, player, "draw\n"))
    g.advance()
    assert g.pbem.show("m1")["turn"] == 2 and g.mover()[0] == player
    g.outbox.skip()
    log = g.state()["log"]
    g.inbox.deliver(reply(first, player, "draw\n"))  # the same reply again, to the turn-1 mail
    r = g.advance()
    assert mail_lines(r.output) == [f"mail from {address(player)}: refused: your reply answers turn 1; the game is "
                                    f"at turn 2: reply to your latest report (or send 'status' to get it again)"]
    assert g.state()["log"] == log and g.queued() == []


def test_orders_filled_into_the_quoted_report_are_named_as_such(g: MailGames) -> None:
    g.new()
    player, _ = g.mover()
    report = plain(latest(g, player)).replace("#  - draw", "  - draw")
    g.outbox.skip()
    g.inbox.deliver(reply(latest(g, player), player, f"On Sat, GM wrote:\n{quote(report)}\n"))
    r = g.advance()
    assert mail_lines(r.output) == [
        f"mail from {address(player)}: refused: your orders are inside the report your mail quotes, which pbem "
        f"does not read (lines that begin with '>', or below a line such as 'On ... wrote:' or 'From: ...'): "
        f"write them alone, one a line, above the quote"]


# -- commands --------------------------------------------------------------------------------------------------

def command(g: MailGames, player: str, word: str) -> tuple[list[str], str]:
    g.outbox.skip()
    g.inbox.deliver(reply(latest(g, player), player, f"{word}\n\nSent from my iPhone\n"))
    r = g.advance()
    (answer,) = answers(g)
    assert player_of(answer) == player
    return mail_lines(r.output), plain(answer)


def test_help_says_what_he_may_send_now_from_his_own_position(g: MailGames) -> None:
    g.new()
    player, turn = g.mover()
    before = g.state()
    lines, text = command(g, player, "Help")
    assert lines == [f"mail from {address(player)}: m1: answered 'help'"]
    assert text.startswith(f"Medici game m1, turn {turn}: your move.\n\nWhat you may send now: reply to this "
                           f"mail with your order alone\non a line, for example\n\n    draw\n\nYour orders now:\n"
                           f"  - draw\n  - auction\n")
    assert "  standing: max_bid: N\n" in text and "  undo      withdraw the orders" in text
    assert "MEDICI IN SHORT" in text.upper() or "Medici" in text
    assert g.state()["log"] == before["log"]


def test_status_sends_his_report_again(g: MailGames) -> None:
    g.new()
    player, _ = g.mover()
    lines, text = command(g, player, "status")
    assert lines == [f"mail from {address(player)}: m1: answered 'status'"]
    assert text.startswith("Your latest report, as the game stands now:\n\n")
    assert "YOUR MOVE" in text and "Reply to this mail with your order alone on a line, such as 'draw'" in text


def test_games_lists_his_games_and_a_fresh_mail_gets_them_too(g: MailGames) -> None:
    g.new()
    other = next(game for game in GAMES if game != EXAMPLE and "anna" in room(game).PLAYERS)  # another game
    new_game(g, other, room(other).PLAYERS, "g2")
    lines, text = command(g, "anna", "games")
    assert lines == ["mail from anna@players.test: m1: answered 'games'"] or \
        lines == ["mail from anna@players.test: answered with the player's games (2)"]
    assert "Your games on this host:" in text and "  m1 (Medici), turn 1:" in text
    assert f"  g2 ({get_ruleset(other).title}), turn 1:" in text
    # a fresh mail to the GM, with no key and no token, gets the same list and a line on how to reply
    g.outbox.skip()
    g.inbox.deliver(player_mail(address("anna"), "what's up?\n", subject="hello"))
    r = g.advance()
    (answer,) = answers(g)
    assert mail_lines(r.output) == ["mail from anna@players.test: answered with the player's games (2)"]
    assert plain(answer).startswith("Your mail names no game and carries no orders pbem can read. To play,\n"
                                    "reply to the latest mail of your game with your order alone on a line.\n")
    assert f"  g2 ({get_ruleset(other).title}), turn 1:" in plain(answer)


def test_standing_and_undo(g: MailGames) -> None:
    g.new()
    waiting = next(p for p in ("anna", "ben", "cleo") if p not in g.pbem.show("m1")["waiting_for"])
    lines, text = command(g, waiting, "standing")
    assert text.startswith("You have no standing orders in game m1.\n")
    g.inbox.deliver(reply(latest(g, waiting), waiting, "next: pass\n"))
    g.advance()
    assert len(g.queued()) == 1
    lines, text = command(g, waiting, "undo")
    assert lines == [f"mail from {address(waiting)}: m1: answered 'undo' (withdrew 1)"]
    assert text.startswith("Withdrawn from game m1, before the next run applied them:\n  - pass (sent ahead)\n")
    assert g.queued() == []
    lines, text = command(g, waiting, "undo")
    assert text.startswith("No orders of yours wait in game m1: nothing was withdrawn.")


def test_a_command_among_orders_is_refused(g: MailGames) -> None:
    g.new()
    g.outbox.skip()
    player, lines, _ = mover_reply(g, "draw\nhelp\n")
    assert lines[0].startswith(f"mail from {address(player)}: refused:")
    assert g.queued() == [] and g.state()["log"] == []


# -- the attacks a mail system meets ------------------------------------------------------------------------------

def assert_nothing_moved(g: MailGames, before: dict[str, Any]) -> None:
    after = g.state()
    assert after["log"] == before["log"] and after["engine"] == before["engine"] and g.queued() == []


def test_a_key_from_another_address_moves_nothing(g: MailGames) -> None:
    """Anna forwards her report to mallory, who replies with the key in its ids: a stranger's mail."""
    g.new()
    player, _ = g.mover()
    before = g.state()
    report = latest(g, player)
    refs = [str(report["Message-ID"])]
    g.outbox.skip()
    g.inbox.deliver(player_mail("mallory@evil.test", "draw\n", in_reply_to=refs[0], references=refs,
                                to=str(report["Reply-To"].addresses[0].addr_spec)))
    r = g.advance()
    assert mail_lines(r.output)[0].startswith("mail from mallory@evil.test: refused")
    assert_nothing_moved(g, before)


def test_a_spoofed_display_name_moves_nothing(g: MailGames) -> None:
    g.new()
    player, _ = g.mover()
    before = g.state()
    report = latest(g, player)
    g.inbox.deliver(player_mail("mallory@evil.test", "draw\n", sender_name=f'"{address(player)}"',
                                in_reply_to=str(report["Message-ID"])))
    r = g.advance()
    assert "refused as a stranger's" in mail_lines(r.output)[0]
    assert_nothing_moved(g, before)


def test_a_player_replying_in_another_players_thread_moves_nothing(g: MailGames) -> None:
    g.new()
    mover, _ = g.mover()
    other = next(p for p in ("anna", "ben", "cleo") if p != mover)
    before = g.state()
    report = latest(g, mover)
    g.inbox.deliver(player_mail(address(other), "draw\n", in_reply_to=str(report["Message-ID"])))
    g.advance()
    assert_nothing_moved(g, before)


@pytest.mark.parametrize("forge", ["forged", "guessed", "other-turn", "other-seat", "other-game"])
def test_a_forged_or_borrowed_key_moves_nothing(g: MailGames, forge: str) -> None:
    g.new()
    new_game(g, "medici", ("anna", "ben", "cleo"), "g2")
    mover, _ = g.mover()
    other = next(p for p in ("anna", "ben", "cleo") if p != mover)
    before = g.state()
    real = str(latest(g, mover)["Message-ID"])  # <pbem.m1.MOVER.N.tT.kKEY@...>
    bare, key = split_key(real)
    assert key is not None
    other_key = split_key(str([m for m in g.outbox.all() if player_of(m) == other][-1]["Message-ID"]))[1]
    g2_key = split_key(str(g.welcome[mover]["Message-ID"]))[1]  # the welcome of g2, the latest one read
    forged = {
        "forged": bare.replace("@", ".kaaaaaaaaaaaaaaaa@"),
        "guessed": bare,  # the id without any key: guessable from the others' mail
        "other-turn": re.sub(r"\.t(\d+)\.", lambda m: f".t{int(m.group(1)) + 1}.", real),
        "other-seat": bare.replace("@", f".k{other_key}@"),
        "other-game": bare.replace("@", f".k{g2_key}@"),
    }[forge]
    g.inbox.deliver(player_mail(address(mover), "draw\n", in_reply_to=forged))
    r = g.advance()
    assert "queued" not in r.output
    assert_nothing_moved(g, before)


def test_a_replaced_seat_keys_are_worthless(g: MailGames) -> None:
    """`pbem replace` renews the seat's generation: a key of the old seat proves nothing, even from the
    same address."""
    g.new()
    mover, _ = g.mover()
    old = latest(g, mover)
    r = g.pbem("replace", "m1", mover, f"{mover}2={address(mover)}")
    assert r.exit_code == 0, r.output
    before = g.state()
    g.outbox.skip()
    g.inbox.deliver(reply(old, mover, "draw\n"))
    r = g.advance()
    assert "queued" not in r.output
    assert_nothing_moved(g, before)
    # the new welcome's key works
    welcome = [m for m in g.outbox.all() if "welcome" in str(m["Subject"]) and player_of(m) == mover][-1]
    g.inbox.deliver(reply(welcome, mover, "draw\n"))
    assert "queued draw" in g.advance().output


def test_a_mail_with_a_key_and_a_wrong_token_is_refused(g: MailGames) -> None:
    g.new()
    player, _ = g.mover()
    before = g.state()
    g.inbox.deliver(reply(latest(g, player), player, "token: WRONGTOKEN123\ndraw\n"))
    r = g.advance()
    assert mail_lines(r.output) == [f"mail from {address(player)}: refused (not a player's address with his token)"]
    assert_nothing_moved(g, before)


def test_the_plus_address_alone_proves_the_reply(g: MailGames) -> None:
    """A client that drops In-Reply-To still sends to the Reply-To address, which carries the key."""
    g.new()
    player, turn = g.mover()
    to = latest(g, player)["Reply-To"].addresses[0].addr_spec
    assert re.fullmatch(rf"gm\+{turn}\.[a-z2-7]{{16}}@pbem\.test", to)
    g.inbox.deliver(player_mail(address(player), "draw\n", to=to, subject="move"))
    assert mail_lines(g.advance().output) == [f"mail from {address(player)}: m1 turn {turn}: queued draw"]


def test_a_replay_under_a_new_message_id_is_stale(g: MailGames) -> None:
    g.new()
    player, _ = g.mover()
    raw = reply(latest(g, player), player, "draw\n")
    g.inbox.deliver(raw)
    g.advance()
    before = g.state()
    g.inbox.deliver(raw.replace(b"Message-ID: <player.", b"Message-ID: <replayed."))
    r = g.advance()
    assert "your reply answers turn 1; the game is at turn 2" in r.output
    assert_nothing_moved(g, before)


def test_no_key_reaches_git_the_console_the_archive_or_another_players_mail(g: MailGames, tmp_path: Any) -> None:
    g.new()
    outputs = []
    for _ in range(12):
        player, _ = g.mover()
        seen = g.pbem.show("m1", player)
        order = bots.choose("medici", seen["view"], player, seen["legal_orders"])
        g.inbox.deliver(reply(latest(g, player), player, typed(order)))
        outputs.append(g.advance().output)
    outputs.append(g.pbem("status").output)
    site = tmp_path / "site"
    assert g.pbem("archive", "--out", str(site)).exit_code == 0
    keys: dict[str, set[str]] = {}
    for m in g.outbox.all():
        for ref in [str(m["Message-ID"]), *str(m.get("References", "")).split()]:
            found = KEYED_ID.match(ref)
            if found:
                keys.setdefault(player_of(m), set()).add(found.group(2))
    assert set(keys) == {"anna", "ben", "cleo"}
    everything = {k for ks in keys.values() for k in ks}
    history = subprocess.run(["git", "log", "-p", "--all"], cwd=g.root, capture_output=True, text=True).stdout
    tracked = subprocess.run(["git", "ls-files"], cwd=g.root, capture_output=True, text=True).stdout.split()
    files = "".join((g.root / f).read_text("utf-8", "replace") for f in tracked)
    archive = "".join(p.read_text("utf-8", "replace") for p in site.rglob("*") if p.is_file())
    for key in everything:
        assert key not in history and key not in files and key not in archive
        assert all(key not in out for out in outputs)
    for m in g.outbox.all():  # each mail carries its own player's keys only
        raw = m.as_string()
        for player, ks in keys.items():
            if player != player_of(m):
                assert not any(k in raw for k in ks)
    secret = g.root / "mail" / "reply-key.secret"
    assert secret.is_file() and secret.stat().st_mode & 0o077 == 0
    assert "mail/reply-key.secret" not in tracked


def test_with_reply_keys_off_a_mail_needs_its_token(g: MailGames) -> None:
    g.extra["reply_keys"] = False
    g.new()
    player, _ = g.mover()
    report = latest(g, player)
    assert report["Reply-To"] is None and split_key(str(report["Message-ID"]))[1] is None
    before = g.state()
    g.inbox.deliver(reply(report, player, "draw\n"))
    r = g.advance()
    assert mail_lines(r.output)[0].startswith(f"mail from {address(player)}: refused: the mail holds no orders")
    assert_nothing_moved(g, before)


def test_without_plus_addressing_the_key_is_in_the_message_id_alone(g: MailGames) -> None:
    g.extra["reply_address"] = "none"
    g.new()
    player, turn = g.mover()
    report = latest(g, player)
    assert report["Reply-To"] is None and split_key(str(report["Message-ID"]))[1] is not None
    assert unkeyed(report["Message-ID"]) == f"<pbem.m1.{player}.1.t1@pbem.test>"
    g.inbox.deliver(reply(report, player, "draw\n"))
    assert mail_lines(g.advance().output) == [f"mail from {address(player)}: m1 turn {turn}: queued draw"]


def test_pbems_own_mail_coming_back_leaves_no_key_in_seen_or_the_console(g: MailGames) -> None:
    """A report that comes back into the inbox (a copy to the GM, a loop) is set aside; the id it is
    remembered by (hashed, in mail/seen.log) and any line about it carry no key."""
    g.new()
    player, _ = g.mover()
    mine = latest(g, player)
    key = split_key(str(mine["Message-ID"]))[1]
    assert key
    raw = mine.as_bytes()
    g.inbox.deliver(raw)
    first = g.advance().output
    g.inbox.deliver(raw)  # read before: taken out of the inbox, with a line naming its id
    second = g.advance().output
    seen = (g.root / "mail" / "seen.log").read_text("utf-8")
    assert digest(unkeyed(mine["Message-ID"])) in seen and digest(str(mine["Message-ID"])) not in seen
    assert key not in seen and key not in first and key not in second
    assert key not in subprocess.run(["git", "log", "-p"], cwd=g.root, capture_output=True, text=True).stdout
