"""Orders as players really type them (an order block that cannot misfire), through
`pbem submit` and through real mail (a Maildir inbox, .eml files out, `pbem advance` as the GM runs it):

- keys and order words in any case (a phone capitalises the first letter of a line): `Bid: 2`, `Pass`,
  `Token: ...`, `Game: M1`, `Turn: Next`, `Palace orange g6`, `Max_bid: 9`; the token's value as sent;
  keys that differ only in case are one key, given twice;
- a tab named as such, with its line;
- an error in an order block names the player's own line ("order line 2 ('bid: x')"), an error in a turn
  file in a mail the line of his mail, never a line of a file pbem built;
- the new features in order lines: `turn: next`, `standing: ORDER` (one a line; `standing: []` clears
  them) and `reports: all|moves`.

Every message is asserted exactly: it is what the player reads.
"""

from __future__ import annotations

import re

import json
from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import (mail_error, FilesOut, MaildirDrop, MailGames, address, player_mail, player_of, token_of,
                           turn_file)
from helpers import assert_error, snapshot
from pbem.report import BEGIN, END

DATE = "Sat, 21 Nov 2026 12:30:00 +0000"  # the Date of every player_mail
SEED = "mail-input-seed-0001"
MEDICI_HELP = "is not a Medici order; send one of: draw, auction, pass, bid: N"
STANDING_HELP = "is not a Medici standing order; send max_bid: N, draw_until: N (1-3) or pass: day"


# -- helpers ----------------------------------------------------------------------------------------------

def new(pbem: Pbem, ruleset: str = "medici", game: str = "m1", players: tuple[str, ...] = ("anna", "ben", "cleo"),
        mail: MailGames | None = None) -> dict[str, str]:
    """A game; its players' tokens (read from the welcome mails when the game has mail)."""
    if mail is not None:
        mail.write_config()
    args = ["new", ruleset, game, "--seed", SEED, "--json"]
    for p in players:
        args += ["--player", f"{p}={address(p)}"]
    r = pbem(*args)
    assert r.exit_code == 0, r.output
    tokens = {p["name"]: p["token"] for p in json.loads(r.stdout)["players"]}
    if mail is not None:
        for msg in mail.outbox.new():
            mail.welcome[player_of(msg)] = msg
            mail.tokens[player_of(msg)] = token_of(msg)
        assert mail.tokens == tokens
    return tokens


def mover(pbem: Pbem, game: str = "m1") -> tuple[str, int]:
    shown = pbem.show(game)
    return shown["waiting_for"][0], shown["turn"]


def submit(pbem: Pbem, text: str) -> Any:
    return pbem("submit", "-", input=text)


def queued(pbem: Pbem, game: str = "m1") -> list[dict[str, Any]]:
    from pbem.store import GamesDir

    return [e for _, e in GamesDir(pbem.games).queued(game)]


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    return MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))


def text(msg: Any) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def answer(g: MailGames, player: str, body: str, **kw: Any) -> bytes:
    """A player's mail answering his latest report, as his mail client writes it."""
    report = g.last_report(player)
    refs = str(report.get("References", "")).split() + [str(report["Message-ID"])]
    kw.setdefault("subject", "Re: orders")
    return player_mail(address(player), body, in_reply_to=str(report["Message-ID"]), references=refs, **kw)


def block(*lines: str) -> str:
    return "\n".join([BEGIN, *lines, END]) + "\n"


def run(g: MailGames, *mails: bytes) -> tuple[list[str], list[Any]]:
    """Deliver the mails, run `pbem advance`: the lines it prints about mail, and the answers it sent
    (in the order of the mails)."""
    for raw in mails:
        g.inbox.deliver(raw)
    r = g.advance()
    lines = [re.sub(r"^[a-z0-9][a-z0-9_-]*: (?=mail )", "", line) for line in r.output.splitlines()]
    lines = [line for line in lines if line.startswith("mail ")]  # without the game each names first
    sent = {str(m["In-Reply-To"]): m for m in g.outbox.new() if str(m["Message-ID"]).startswith("<pbem.reply.")}
    from conftest_mail import parse

    return lines, [sent[str(parse(raw)["Message-ID"])] for raw in mails]


def refusal(message: str, example: str) -> str:
    """The whole answer to a refused mail, its subject "Re: orders"."""
    return mail_error("Re: orders", message, example)


# -- 1. pbem submit: keys and words in any case --------------------------------------------------------------

def test_submit_reads_keys_and_order_words_in_any_case(pbem: Pbem) -> None:
    tokens = new(pbem)
    player, turn = mover(pbem)
    r = submit(pbem, f"Game: M1\nPlayer: {player.capitalize()}\nToken: {tokens[player]}\nTurn: {turn}\n"
                     f"Orders:\n  - Draw\n  - AUCTION\n")
    assert r.exit_code == 0, r.output
    assert r.stdout == f"Queued {player}'s orders for m1, turn {turn}: draw; auction.\n"
    assert [e["orders"] for e in queued(pbem)] == [["draw", "auction"]]


def test_submit_bid_pass_turn_next_standing_and_reports_in_any_case(pbem: Pbem) -> None:
    tokens = new(pbem)
    player, _ = mover(pbem)
    other = next(p for p in tokens if p != player)
    r = submit(pbem, f"game: m1\nplayer: {other}\ntoken: {tokens[other]}\nTurn: Next\norders:\n  - Bid: 2\n"
                     f"  - Pass\nStanding:\n  - Max_Bid: 9\n  - PASS: Day\nReports: All\n")
    assert r.exit_code == 0, r.output
    assert r.stdout == (f"Queued {other}'s orders for m1, for his next decision: bid: 2; pass.\n"
                        f"Queued {other}'s standing orders for m1: max_bid: 9; pass: day.\n"
                        f"Queued {other}'s choice of reports for m1: all.\n")
    (entry,) = queued(pbem)
    assert (entry["turn"], entry["orders"], entry["standing"], entry["reports"]) == \
        ("next", [{"bid": 2}, "pass"], [{"max_bid": 9}, {"pass": "day"}], "all")


def test_the_tokens_value_keeps_its_case(pbem: Pbem) -> None:
    tokens = new(pbem)
    player, turn = mover(pbem)
    token = tokens[player]
    assert token.swapcase() != token
    before = snapshot(pbem.games)
    assert_error(submit(pbem, f"game: m1\nplayer: {player}\nToken: {token.swapcase()}\nturn: {turn}\n"
                              f"orders: [draw]\n"),
                 f"the token for {player!r} in game 'm1' is wrong")
    assert snapshot(pbem.games) == before


@pytest.mark.parametrize("orders, line, key", [
    ("  - {bid: 1, Bid: 2}\n", 6, "'Bid' appears twice ('bid' and 'Bid'"),
    ("  - bid: 1\n    BID: 2\n", 7, "'BID' appears twice ('bid' and 'BID'"),
], ids=["flow", "block"])
def test_keys_that_differ_only_in_case_are_one_key_given_twice(pbem: Pbem, orders: str, line: int, key: str) -> None:
    tokens = new(pbem)
    player, turn = mover(pbem)
    assert_error(submit(pbem, f"game: m1\nplayer: {player}\ntoken: {tokens[player]}\nturn: {turn}\norders:\n{orders}"),
                 f"the turn file, line {line}: the key {key} are the same key)")


def test_envelope_keys_that_differ_only_in_case_are_one_key_given_twice(pbem: Pbem) -> None:
    tokens = new(pbem)
    player, turn = mover(pbem)
    assert_error(submit(pbem, f"game: m1\nplayer: {player}\ntoken: {tokens[player]}\nturn: {turn}\n"
                              f"Turn: next\norders: [draw]\n"),
                 "the turn file, line 5: the key 'Turn' appears twice ('turn' and 'Turn' are the same key)")


def test_a_word_that_is_no_order_in_any_case_is_still_refused(pbem: Pbem) -> None:
    tokens = new(pbem)
    player, turn = mover(pbem)
    assert_error(submit(pbem, f"game: m1\nplayer: {player}\ntoken: {tokens[player]}\nturn: {turn}\n"
                              f"orders:\n  - Drew\n  - Bid: seven\n"),
                 f"the turn file is not valid:\n  - line 6, orders[0]: {MEDICI_HELP}\n"
                 f"  - line 7, orders[1].bid: must be a whole number, not 'seven'")


# -- 2. pbem submit: a tab ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("orders, line", [
    ("\t- draw\n", 6),
    ("  - draw\n\t- auction\n", 7),
    ("  -\tdraw\n", 6),
], ids=["indented-with-a-tab", "a-second-line", "after-the-dash"])
def test_a_tab_in_a_turn_file_is_named_with_its_line(pbem: Pbem, orders: str, line: int) -> None:
    tokens = new(pbem)
    player, turn = mover(pbem)
    before = snapshot(pbem.games)
    assert_error(submit(pbem, f"game: m1\nplayer: {player}\ntoken: {tokens[player]}\nturn: {turn}\norders:\n{orders}"),
                 f"the turn file, line {line}: a tab character; indent with spaces")
    assert snapshot(pbem.games) == before


def test_a_tab_where_yaml_allows_one_is_fine(pbem: Pbem) -> None:
    tokens = new(pbem)
    player, turn = mover(pbem)
    r = submit(pbem, f"game:\tm1\nplayer: {player}\ntoken: {tokens[player]}\nturn: {turn}\t# now\n"
                     f"orders:\n  - draw\n")
    assert r.exit_code == 0, r.output


# -- 3. mail: order lines in any case, and the new features -----------------------------------------------------

def test_order_lines_in_any_case(g: MailGames) -> None:
    tokens = new(g.pbem, mail=g)
    player, turn = g.mover()
    lines, (ack,) = run(g, answer(g, player, block(f"Token: {tokens[player]}", "Draw", "- AUCTION")))
    assert lines == [f"mail from {address(player)}: m1 turn {turn}: queued draw, auction"]
    assert text(ack).startswith(f"Your orders for game m1, turn {turn}, were received:\n\n  - draw\n  - auction\n")
    assert [(e["player"], e["order"]) for e in g.state()["log"]] == [(player, "draw"), (player, "auction")]


def test_an_order_written_without_its_colon(g: MailGames) -> None:
    """`Draw` then `bid 7`, as the reports themselves word a bid ('anna bids 7'): the game's schema reads
    it as `bid: 7`, as it reads `bid:7`; a standing `pass day` as `pass: day`."""
    tokens = new(g.pbem, mail=g)
    player, turn = g.mover()
    lines, _ = run(g, answer(g, player, block(f"token: {tokens[player]}", "auction")))
    bidder = g.mover()[0]
    lines, (ack,) = run(g, answer(g, bidder, block(f"token: {tokens[bidder]}", "Bid 7", "standing: pass day")))
    assert lines == [f"mail from {address(bidder)}: m1 turn {turn + 1}: queued bid: 7; standing orders pass: day"]
    assert g.state()["log"][-1]["order"] == {"bid": 7}


def test_order_lines_with_their_envelope_in_any_case(g: MailGames) -> None:
    """A fresh mail, not a reply: game, player and turn on lines of their own, capitalised."""
    tokens = new(g.pbem, mail=g)
    player, turn = g.mover()
    raw = player_mail(address(player), block("Game: M1", f"Player: {player.upper()}", f"Turn: {turn}",
                                             f"TOKEN: {tokens[player]}", "draw"), subject="Re: orders")
    lines, _ = run(g, raw)
    assert lines == [f"mail from {address(player)}: m1 turn {turn}: queued draw"]


def test_a_bid_sent_ahead_with_turn_next(g: MailGames) -> None:
    tokens = new(g.pbem, mail=g)
    player, turn = g.mover()
    waiting = next(p for p in tokens if p != player)
    lines, (ack,) = run(g, answer(g, waiting, block(f"token: {tokens[waiting]}", "Turn: Next", "Bid: 1")))
    assert lines == [f"mail from {address(waiting)}: m1 sent ahead: queued bid: 1"]
    assert text(ack) == ("Your orders for game m1, for your next decision, were received:\n\n  - bid: 1\n\n"
                         "They are applied when your decision comes, if they are legal then.\n"
                         "You get a report in this game's thread when the game needs you.\n")
    assert [(e["turn"], e["orders"]) for e in g.queued()] == [("next", [{"bid": 1}])]


def test_standing_orders_and_reports_in_order_lines(g: MailGames) -> None:
    tokens = new(g.pbem, mail=g)
    player, _ = g.mover()
    waiting = next(p for p in tokens if p != player)
    lines, (ack,) = run(g, answer(g, waiting, block(f"token: {tokens[waiting]}", "standing: Max_bid: 9",
                                                    "Standing: Pass: Day", "reports: All")))
    assert lines == [f"mail from {address(waiting)}: m1 any time: standing orders max_bid: 9; pass: day; "
                     f"reports all"]
    assert text(ack) == (f"Your standing orders for game m1 are now:\n\n  - max_bid: 9\n  - pass: day\n\n"
                         "They answer your decisions as they come, from this run on.\n\n"
                         "From now on you get a mail for every change in the game.\n"
                         "You get a report in this game's thread when the game needs you.\n")
    state = g.state()
    assert state["reports"] == {waiting: "all"}
    assert [next(iter(e)) for e in state["standing"][waiting]] == ["max_bid", "pass"]
    # a flow list on one line, and `standing: []` to clear them
    lines, _ = run(g, answer(g, waiting, block(f"token: {tokens[waiting]}", "standing: [draw_until: 2, pass: day]")))
    assert lines == [f"mail from {address(waiting)}: m1 any time: standing orders draw_until: 2; pass: day"]
    lines, (ack,) = run(g, answer(g, waiting, block(f"token: {tokens[waiting]}", "Standing: []")))
    assert lines == [f"mail from {address(waiting)}: m1 any time: standing orders cleared"]
    assert text(ack).startswith("Your standing orders for game m1 are cleared.\n")
    assert "standing" not in g.state()


def test_orders_and_standing_orders_in_one_block(g: MailGames) -> None:
    tokens = new(g.pbem, mail=g)
    player, turn = g.mover()
    lines, _ = run(g, answer(g, player, block(f"token: {tokens[player]}", "draw", "standing: draw_until: 3")))
    assert lines == [f"mail from {address(player)}: m1 turn {turn}: queued draw; standing orders draw_until: 3"]


def test_the_reports_block_with_its_orders_left_out_sets_standing_orders_alone(g: MailGames) -> None:
    """The block of the report sent back with standing: added and every order still commented out:
    the standing orders alone, for no turn (they do not replace orders queued for this turn)."""
    tokens = new(g.pbem, mail=g)
    player, turn = g.mover()
    report = text(g.last_report(player))
    ready = report[report.index(BEGIN):report.index(END)].splitlines()[1:]
    body = "\n".join([BEGIN, *ready, "standing:", "  - draw_until: 2", END]).replace("YOUR-TOKEN", tokens[player])
    lines, _ = run(g, answer(g, player, body))
    assert lines == [f"mail from {address(player)}: m1 any time: standing orders draw_until: 2"]


# -- 4. mail: errors name the player's own lines ---------------------------------------------------------------

def test_an_order_line_the_schema_refuses_is_named_by_its_own_line(g: MailGames) -> None:
    tokens = new(g.pbem, mail=g)
    player, _ = g.mover()
    before = g.state()
    lines, (reply,) = run(g, answer(g, player, block(f"token: {tokens[player]}", "draw", "Bid: x", "# fine",
                                                     "attack: rome")))
    message = ("the order block is not valid:\n"
               "  - order line 3 ('Bid: x'), bid: must be a whole number, not 'x'\n"
               "  - order line 5 ('attack: rome'): lacks 'bid'")
    assert lines == [f"mail from {address(player)}: refused: the order block is not valid:"]
    assert text(reply) == refusal(message, "draw")
    assert g.state()["log"] == before["log"] and g.queued() == []


@pytest.mark.parametrize("lines, message", [
    (["turn: soon", "draw"], "order line 2 ('turn: soon'): must be a whole number (the turn your orders answer) "
                             "or 'next', not 'soon'"),
    (["standing: max_bid: -1"], "order line 2 ('standing: max_bid: -1'), max_bid: must be at least 0, not -1"),
    (["draw", "standing: bid: 3"], f"order line 3 ('standing: bid: 3'): {STANDING_HELP}"),
    (["reports: some"], "order line 2 ('reports: some'): must be one of 'moves', 'all', not 'some'"),
], ids=["turn", "standing-value", "standing-kind", "reports"])
def test_the_new_lines_the_schema_refuses_are_named_by_their_own_line(g: MailGames, lines: list[str],
                                                                        message: str) -> None:
    tokens = new(g.pbem, mail=g)
    player, _ = g.mover()
    printed, (reply,) = run(g, answer(g, player, block(f"token: {tokens[player]}", *lines)))
    assert printed == [f"mail from {address(player)}: refused: the order block is not valid:"]
    assert text(reply) == refusal(f"the order block is not valid:\n  - {message}", "draw")


@pytest.mark.parametrize("lines, message", [
    (["standing:", "- max_bid: 9"], "order line 2 ('standing:'): give one standing order a line, after "
                                    "'standing: ' on the same line, or write 'standing: []' to clear them"),
    (["turn: 3", "draw", "Turn: 4"], "order line 4 ('Turn: 4'): a second 'turn:' line (the first is order "
                                     "line 2); keep one"),
    (["draw", "TOKEN: again"], "order line 3 (the token line): a second 'token:' line (the first is order "
                               "line 1); keep one"),
    (["{bid: 1, Bid: 2}"], "order line 2 ('{bid: 1, Bid: 2}'): the key 'Bid' appears twice ('bid' and 'Bid' "
                           "are the same key)"),
    (["-\tdraw", "-\t-\tdraw"], "order line 3 ('-\\tdraw'): a tab character; indent with spaces"),
], ids=["bare-standing", "turn-twice", "token-twice", "a-key-twice", "tab"])
def test_an_order_block_that_could_misfire_is_refused(g: MailGames, lines: list[str], message: str) -> None:
    tokens = new(g.pbem, mail=g)
    player, _ = g.mover()
    printed, (reply,) = run(g, answer(g, player, block(f"token: {tokens[player]}", *lines)))
    assert printed == [f"mail from {address(player)}: refused: {message}"]
    assert text(reply) == refusal(message, "draw")
    assert g.queued() == []


def test_an_error_in_a_turn_file_in_the_mail_names_the_line_of_the_mail(g: MailGames) -> None:
    """Counting every line of the mail as the player wrote it: quoted lines and the lines before the
    markers too."""
    tokens = new(g.pbem, mail=g)
    player, turn = g.mover()
    body = ("Hello GM,\n> what do you bid?\n\n" + BEGIN + f"\ngame: m1\nplayer: {player}\n"
            f"token: {tokens[player]}\nturn: {turn}\norders:\n  - draw\n  - bid: x\n{END}\n")
    printed, (reply,) = run(g, answer(g, player, body))
    message = "the turn file in the mail is not valid:\n  - line 11, orders[1].bid: must be a whole number, not 'x'"
    assert printed == [f"mail from {address(player)}: refused: the turn file in the mail is not valid:"]
    assert text(reply) == refusal(message, "draw")


def test_a_tab_in_a_turn_file_in_the_mail_is_named_with_the_line_of_the_mail(g: MailGames) -> None:
    tokens = new(g.pbem, mail=g)
    player, turn = g.mover()
    body = (f"Hi\n\n{BEGIN}\ngame: m1\nplayer: {player}\ntoken: {tokens[player]}\nturn: {turn}\n"
            f"orders:\n\t- draw\n{END}\n")
    printed, (reply,) = run(g, answer(g, player, body))
    message = "the turn file in the mail, line 9: a tab character; indent with spaces"
    assert printed == [f"mail from {address(player)}: refused: {message}"]
    assert text(reply) == refusal(message, "draw")


def test_an_attached_turn_file_is_read_as_written(g: MailGames) -> None:
    tokens = new(g.pbem, mail=g)
    player, turn = g.mover()
    bad = f"# my turn\ngame: m1\nplayer: {player}\ntoken: {tokens[player]}\nturn: {turn}\norders:\n  - bid: x\n"
    good = f"Game: M1\nPlayer: {player}\nToken: {tokens[player]}\nTurn: {turn}\nOrders:\n  - Draw\n"
    tab = f"game: m1\nplayer: {player}\ntoken: {tokens[player]}\nturn: {turn}\norders:\n \t- draw\n"
    printed, (bad_reply, tab_reply, _) = run(
        g, player_mail(address(player), "Attached.\n", attachments=[("turn.yaml", bad)], subject="Re: orders"),
        player_mail(address(player), "Attached.\n", attachments=[("turn.txt", tab)], subject="Re: orders"),
        player_mail(address(player), "Attached.\n", attachments=[("turn.yml", good)], subject="Re: orders"))
    message = "the attachment 'turn.yaml' is not valid:\n  - line 7, orders[0].bid: must be a whole number, not 'x'"
    assert printed == [f"mail from {address(player)}: refused: the attachment 'turn.yaml' is not valid:",
                       f"mail from {address(player)}: refused: the attachment 'turn.txt', line 6: a tab character; "
                       f"indent with spaces",
                       f"mail from {address(player)}: m1 turn {turn}: queued draw"]
    assert text(bad_reply) == refusal(message, "draw")
    assert text(tab_reply) == refusal("the attachment 'turn.txt', line 6: a tab character; indent with spaces",
                                      "draw")


def test_a_turn_file_in_the_mail_in_any_case(g: MailGames) -> None:
    tokens = new(g.pbem, mail=g)
    player, turn = g.mover()
    body = (f"Here you are:\n\n{BEGIN}\nGame: M1\nPlayer: {player.capitalize()}\nToken: {tokens[player]}\n"
            f"Turn: {turn}\nOrders:\n  - Draw\n  - Auction\n{END}\n")
    printed, _ = run(g, answer(g, player, body))
    assert printed == [f"mail from {address(player)}: m1 turn {turn}: queued draw, auction"]


def test_prose_that_starts_with_orders_is_no_turn_file(g: MailGames) -> None:
    """`Orders: see the attachment` is prose, not a second turn file beside the attachment."""
    tokens = new(g.pbem, mail=g)
    player, turn = g.mover()
    tf = turn_file("m1", player, tokens[player], turn, ["draw"])
    printed, _ = run(g, player_mail(address(player), "Orders: see the attachment.\n", subject="Re: orders",
                                    attachments=[("turn.yaml", tf)]))
    assert printed == [f"mail from {address(player)}: m1 turn {turn}: queued draw"]
