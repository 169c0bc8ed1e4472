"""Not a test: the cost of reading a player's mail. The florenz game of test_i18n_mail for MAILS
replies (one a run), each run's read_inbox called inside sys.call_tracing, so that callgrind counts the
intake alone:

    MAILS=12 valgrind --tool=callgrind --toggle-collect=sys_call_tracing --callgrind-out-file=F \
        .venv/bin/python -m pytest -q tests/measure_intake.py

("Collected" over MAILS is the figure a mail.)"""
from __future__ import annotations

import os
import sys

import pbem.mail.run as mailrun
from pbem import bots
from test_i18n_mail import CLIENTS, LANGS, g, in_words, latest, new_game, room, typed  # noqa: F401

MAILS = int(os.environ.get("MAILS", "12"))


def test_bench(g, monkeypatch) -> None:
    real = mailrun.read_inbox
    monkeypatch.setattr(mailrun, "read_inbox", lambda *a, **k: sys.call_tracing(lambda: real(*a, **k), ()))
    new_game(g, "florenz", room("florenz").PLAYERS)
    for n in range(MAILS):
        shown = g.pbem.show("g1")
        player = shown["waiting_for"][0]
        seen = g.pbem.show("g1", player)
        order = bots.choose("florenz", seen["view"], player, seen["legal_orders"])
        line = in_words(typed(order), "florenz", LANGS[player], n)
        g.inbox.deliver(CLIENTS[n % len(CLIENTS)](latest(g, player), player, line))
        r = g.advance()
        assert "queued" in r.output, r.output
