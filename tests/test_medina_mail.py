"""Medina by mail and in turn files: squares and words in any case, placements sent ahead and refused."""

from __future__ import annotations

from conftest import Pbem
from conftest_mail import MailGames
from test_mail_input import address, answer, block, g, mover, new, queued, refusal, run, submit, text  # noqa: F401

MEDINA_HELP = ("is not a Medina placement; send one of: start SQUARE, palace COLOUR SQUARE, stable SQUARE, "
               "merchant SQUARE, wall SIDEn, roof COLOUR SQUARE (e.g. 'palace grey C7', 'wall N5', "
               "'roof orange E4')")


def test_medina_squares_and_words_in_any_case(pbem: Pbem) -> None:
    tokens = new(pbem, "medina", "d1")
    player, turn = mover(pbem, "d1")
    first = pbem.show("d1", player)["legal_orders"][0]  # start B2
    word, square = first.split()
    r = submit(pbem, f"game: D1\nplayer: {player}\ntoken: {tokens[player]}\nturn: {turn}\n"
                     f"orders:\n  - {word.capitalize()} {square.lower()}\n")
    assert r.exit_code == 0, r.output
    assert r.stdout == f"Queued {player}'s orders for d1, turn {turn}: {first}.\n"
    waiting = next(p for p in tokens if p != player)
    r = submit(pbem, f"Game: d1\nPlayer: {waiting}\nToken: {tokens[waiting]}\nTurn: Next\n"
                     f"Orders:\n  - Palace Orange g6\n  - roof GREY c3\n")
    assert r.exit_code == 0, r.output
    assert r.stdout == f"Queued {waiting}'s orders for d1, for his next decision: palace orange G6; roof grey C3.\n"


def test_medina_order_lines_in_any_case(g: MailGames) -> None:
    tokens = new(g.pbem, "medina", "d1", mail=g)
    player, turn = g.mover("d1")
    first = g.pbem.show("d1", player)["legal_orders"][0]  # start B2
    word, square = first.split()
    printed, (ack,) = run(g, answer(g, player, block(f"Token: {tokens[player]}", f"{word.upper()} {square.lower()}")))
    assert printed == [f"mail from {address(player)}: d1 turn {turn}: queued {first}"]
    assert text(ack).startswith(f"Your orders for game d1, turn {turn}, were received:\n\n  - {first}\n")


def test_medina_placements_sent_ahead_and_refused(g: MailGames) -> None:
    tokens = new(g.pbem, "medina", "d1", mail=g)
    player, turn = g.mover("d1")
    waiting = next(p for p in tokens if p != player)
    printed, (ahead, wrong, standing) = run(
        g, answer(g, waiting, block(f"token: {tokens[waiting]}", "turn: Next", "Palace Orange g6")),
        answer(g, player, block(f"token: {tokens[player]}", "start b2", "Palace pink C7")),
        answer(g, player, block(f"token: {tokens[player]}", "standing: pass: day")))
    no_standing = ("standing orders: Medina takes no standing orders; send your next orders ahead with "
                   "'turn: next' instead")
    assert printed == [f"mail from {address(waiting)}: d1 sent ahead: queued palace orange G6",
                       f"mail from {address(player)}: refused: the order block is not valid:",
                       f"mail from {address(player)}: refused: {no_standing}"]
    assert text(ahead).startswith("Your orders for game d1, for your next decision, were received:\n\n"
                                  "  - palace orange G6\n")
    first = g.pbem.show("d1", player)["legal_orders"][0]
    assert text(wrong) == refusal(f"the order block is not valid:\n  - order line 3 ('Palace pink C7'): {MEDINA_HELP}",
                                  first)
    assert text(standing) == refusal(no_standing, first)
    assert [(e["player"], e["turn"], e["orders"]) for e in g.queued("d1")] == [(waiting, "next", ["palace orange G6"])]
