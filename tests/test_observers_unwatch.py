"""`unwatch` through `pbem advance` over a Maildir inbox: it counts only in a reply carrying the key of
a mail about watching that game that pbem sent the observer's address (a public report, the mail that
confirmed his watch); a forged From: ends nobody's watch, and is told so once a day without saying
whether that address watches."""

from __future__ import annotations

from typing import Any

from conftest import Pbem
from conftest_mail import address, flat_text as text, player_mail, run_mails as run, to
from pbem.mail.observers import observers
from pbem.rules.base import order_text
from test_observers import make, reply_to

WATCHER = "olga@watchers.test"


def watching(pbem: Pbem) -> tuple[Any, list[Any]]:
    """m1 with olga watching, and the mails she got: the one that confirmed her watch and one public
    report."""
    g = make(pbem, "--observers", "yes")
    lines, sent = run(g, player_mail(WATCHER, "watch m1"))
    lines, started = run(g, reply_to(sent[0], WATCHER, "watch m1"))
    assert WATCHER in observers(g.gd, "m1")
    player, _ = g.mover()
    lines, sent = run(g, reply_to(g.welcome[player], address(player), order_text(g.legal_order(player))))
    return g, started + [m for m in sent if to(m) == WATCHER]


def test_a_forged_unwatch_ends_no_watch(pbem: Pbem, monkeypatch: Any) -> None:
    g, mails = watching(pbem)
    monkeypatch.setenv("PBEM_NOW", "2026-11-22T12:00:00+00:00")  # (her watch was asked today: once a day)
    lines, sent = run(g, player_mail(WATCHER, "unwatch m1", message_id="<forged@evil.test>"))
    assert lines == [f"mail from {WATCHER}: unwatch m1: refused: not a reply to a mail about the game"]
    assert "'unwatch m1' counts only in a reply to a mail about game m1 that pbem sent you" in text(sent[0])
    lines, sent = run(g, player_mail(WATCHER, "nicht zuschauen m1", message_id="<forged2@evil.test>"))
    assert sent == [] and lines[-1].endswith("(not answered)")
    # a watch mail's id from another address, or the id without its key, ends nothing either
    run(g, reply_to(mails[-1], "mallory@evil.test", "unwatch m1"))
    from conftest_mail import unkeyed

    run(g, player_mail(WATCHER, "unwatch m1", in_reply_to=unkeyed(mails[-1]["Message-ID"])))
    assert WATCHER in observers(g.gd, "m1")


def test_unwatch_in_a_reply_to_a_watch_mail_ends_the_watch(pbem: Pbem) -> None:
    g, mails = watching(pbem)
    assert len(mails) == 2
    lines, sent = run(g, reply_to(mails[0], WATCHER, "unwatch m1"))  # the mail that confirmed his watch
    assert lines == [f"mail from {WATCHER}: unwatch m1: no longer watching"]
    assert observers(g.gd, "m1") == {}
    assert "You no longer watch game m1." in text(sent[0])


def test_unwatch_of_another_game_in_a_reply_is_refused(pbem: Pbem) -> None:
    g, mails = watching(pbem)
    lines, sent = run(g, reply_to(mails[-1], WATCHER, "unwatch m2"))
    assert lines == [f"mail from {WATCHER}: unwatch m2: refused: not a reply to a mail about the game"]
    assert WATCHER in observers(g.gd, "m1")
