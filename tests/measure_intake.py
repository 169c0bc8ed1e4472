"""Not a test: the cost of reading a player's mail. A game of test_i18n_mail (GAME, the first of
rooms.GAMES unless given) for MAILS replies (one a run), each run's read_inbox called inside
sys.call_tracing, so that callgrind counts the intake alone:

    MAILS=12 valgrind --tool=callgrind --toggle-collect=sys_call_tracing --callgrind-out-file=F \
        .venv/bin/python -m pytest -q tests/measure_intake.py

("Collected" over MAILS is the figure a mail.)"""
from __future__ import annotations

import os
import sys

import pytest

import pbem.mail.run as mailrun
from pbem import bots
from conftest_mail import MailGames
from rooms import GAMES
from test_i18n_mail import CLIENTS, LANGS, g, in_words, latest, new_game, room, typed  # noqa: F401

MAILS = int(os.environ.get("MAILS", "12"))
GAME = os.environ.get("GAME", GAMES[0])


def test_bench(g: MailGames, monkeypatch: pytest.MonkeyPatch) -> None:
    """MAILS replies, each queued."""
    real = mailrun.read_inbox
    monkeypatch.setattr(mailrun, "read_inbox", lambda *a, **k: sys.call_tracing(lambda: real(*a, **k), ()))
    new_game(g, GAME, room(GAME).PLAYERS)
    for n in range(MAILS):
        shown = g.pbem.show("g1")
        player = shown["waiting_for"][0]
        seen = g.pbem.show("g1", player)
        order = bots.choose(GAME, seen["view"], player, seen["legal_orders"])
        line = in_words(typed(order), GAME, LANGS[player], n)
        g.inbox.deliver(CLIENTS[n % len(CLIENTS)](latest(g, player), player, line))
        r = g.advance()
        assert "queued" in r.output, r.output
