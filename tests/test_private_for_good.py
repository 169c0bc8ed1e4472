"""What is said to one player, the players' addresses and their tokens stay on the GM's machine for
good: a game played by mail through `pbem advance` to its end, with talk to one player and to the
table and an observer watching, leaves none of them in any object of git's history, in the archive
or in the observer's mail; the seed is in git only once the game is over. And what reads the
addresses back after the end (standings, the index of addresses, a rematch) still finds them."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from conftest import Pbem
from helpers import git_history
from conftest_mail import (FilesOut, MaildirDrop, MailGames, address, fast_forward, flat_text, order_body, player_mail,
                           player_of, run_mails as run, threaded_reply, to)
from pbem.mail.addresses import seats_of
from pbem.rules.base import order_text
from pbem.standings import standings

pytestmark = pytest.mark.usefixtures("pictures_unexamined")

SEED = "a-long-secret-seed-for-the-whole-game-0123456789"
PLAYERS = ("anna", "ben", "cleo")
WATCHER = "olga@watchers.test"
PRIVATE = "meet me at the port at dawn, zq-private-7f3a"
PUBLIC = "good luck, everyone"



def mails_text(mails: list[Any]) -> str:
    return "\n".join(m.as_string() for m in mails)


def new_game(pbem: Pbem) -> tuple[MailGames, dict[str, str], dict[str, Any]]:
    """Game m1 of anna, ben and cleo by mail, with talk to one player and observers: its tokens and
    each player's welcome mail."""
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    g.write_config()
    r = pbem("new", "medici", "m1", "--seed", SEED, "--talk", "private", "--observers", "yes", "--json",
             *[a for p in PLAYERS for a in ("--player", f"{p}={address(p)}")])
    assert r.exit_code == 0, r.output
    tokens = {p["name"]: p["token"] for p in json.loads(r.stdout)["players"]}
    return g, tokens, {player_of(m): m for m in g.outbox.new()}


def test_a_whole_game_by_mail_leaves_no_private_talk_address_or_token_in_git_the_archive_or_an_observers_mail(
        pbem: Pbem, tmp_path: Path) -> None:
    g, tokens, latest = new_game(pbem)
    _, sent = run(g, player_mail(WATCHER, "watch m1"))
    lines, sent = run(g, player_mail(WATCHER, "watch m1", subject=f"Re: {sent[0]['Subject']}",
                                     in_reply_to=str(sent[0]["Message-ID"])))
    assert lines == [f"mail from {WATCHER}: watch m1: watching"]
    watched: list[Any] = []
    # anna says a line to ben alone, one to the table, and one with her token in it (hidden)
    lines, sent = run(g, threaded_reply(latest["anna"], "anna",
                                        f"say to ben: {PRIVATE}\nsay: {PUBLIC}\nsay: my token is {tokens['anna']}"))
    assert lines == ["m1: mail from anna@players.test: m1: anna said 3 line(s) of talk to ben, cleo"]
    assert sorted(to(m) for m in sent) == [address("ben"), address("cleo")]
    assert PRIVATE in flat_text(next(m for m in sent if to(m) == address("ben")))
    assert all(tokens["anna"] not in m.as_string() for m in sent)
    decisions = 0
    while (shown := pbem.show("m1"))["status"] != "finished":
        player, turn = shown["waiting_for"][0], shown["turn"]
        order = order_text(g.legal_order(player))
        if decisions == 1:  # once with the token in an order block, as a turn file's orders
            body = order_body(tokens[player], [f"turn: {turn}", order])
        else:
            body = order
        lines, sent = run(g, threaded_reply(latest[player], player, body))
        assert any("queued" in line or "applied" in line for line in lines), lines
        for m in sent:
            if to(m) == WATCHER:
                watched.append(m)
            else:
                latest[player_of(m)] = m
        decisions += 1
        if decisions == 4:  # mid-game: git has no seed yet, and nothing of what was said to ben
            everything = git_history(g.root)
            assert SEED.encode() not in everything and PRIVATE.encode() not in everything
        assert decisions < 400
    assert watched, "the observer got the public reports"

    everything = git_history(g.root)
    assert SEED.encode() in everything  # revealed once the game is over, with all its files
    assert PUBLIC.encode() in everything  # the table's talk is the game's record
    state = g.state()
    secrets = [PRIVATE, *(address(p) for p in PLAYERS), *tokens.values(),
               *(hashlib.sha256(t.encode()).hexdigest() for t in tokens.values()),
               *(p["token_sha256"] for p in state["players"])]
    for secret in secrets:
        assert secret.encode() not in everything, secret
    # everything of the game's folder is in git: what is kept apart is in mail/, which git ignores
    ignored = g.git("status", "--porcelain", "--untracked-files=all", "--ignored", "--", "m1")
    assert ignored == ""
    kept = g.root / "mail" / "seats" / "m1.json"
    assert json.loads(kept.read_text())["ben"]["email"] == address("ben")
    assert kept.stat().st_mode & 0o777 == 0o600 and kept.parent.stat().st_mode & 0o777 == 0o700

    out = tmp_path / "site"
    r = pbem("archive", "--out", str(out))
    assert r.exit_code == 0, r.output
    site = b"".join(p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file())
    assert PUBLIC.encode() in site and SEED.encode() in site
    for secret in secrets:
        assert secret.encode() not in site, secret
    seen = mails_text(watched)
    for secret in [*secrets, SEED]:
        assert secret not in seen, secret

    # a clone holds the game by its seats' names alone, and still verifies and archives it
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(g.root), str(clone)], check=True)
    assert Pbem(clone)("verify", "m1").exit_code == 0
    r = Pbem(clone)("archive", "--out", str(tmp_path / "clone-site"))
    assert r.exit_code == 0, r.output
    assert "email" not in (clone / "m1" / "state.yaml").read_text()

    # on the GM's machine the addresses are read back: standings, who plays here, a rematch
    r = pbem("standings", "--json")
    assert r.exit_code == 0, r.output
    assert sorted(row["name"] for row in json.loads(r.stdout)[0]["players"]) == sorted(PLAYERS)
    assert "@" not in r.stdout
    assert sorted(row.key for row in standings(g.gd)[0].rows) == [address(p) for p in PLAYERS]  # who, by address
    assert [s.game for s in seats_of(g.gd, address("cleo"))] == ["m1"]
    r = pbem("replace", "m1", "ben", "dora=dora@players.test")
    assert (r.exit_code, r.stderr) == (1, "Error: game 'm1' is finished; its seats cannot change hands\n")
    lines, sent = run(g, threaded_reply(latest["anna"], "anna", "rematch"))
    assert lines == [f"m1: mail from {address('anna')}: m1-1: challenged {address('ben')}, {address('cleo')}"], lines
    assert sorted(to(m) for m in sent) == [address("anna"), address("ben"), address("cleo")]


def test_talk_in_a_finished_game_is_refused_and_nothing_passed_on(pbem: Pbem) -> None:
    """After the end nobody sits at the table: a keyed `say:` is answered with the refusal alone. (The
    bots play to the last decision; its player asks for his report by `status` and replies his order.)"""
    g, tokens, latest = new_game(pbem)
    player, order = fast_forward(g, "m1")
    for line in ("status", order_text(order)):
        _, sent = run(g, threaded_reply(latest[player], player, line))
        latest.update({player_of(m): m for m in sent if to(m) != WATCHER})
    assert pbem.show("m1")["status"] == "finished"
    lines, sent = run(g, threaded_reply(latest["anna"], "anna", "say: well played"))
    assert lines == ["m1: mail from anna@players.test: m1: talk refused: game m1 is over: its table talk has ended "
                     "(nothing was passed on)"]
    assert [to(m) for m in sent] == [address("anna")]
    assert "game m1 is over: its table talk has ended (nothing was passed on)" in flat_text(sent[0])
    assert not (g.root / "m1" / "talk.jsonl").exists() and not (g.root / "mail" / "talk" / "m1.jsonl").exists()


def test_queued_orders_name_their_mail_by_its_hash_never_by_its_message_id(pbem: Pbem) -> None:
    """A mail client may make the Message-ID of the address (`<...anna.players.test@...>`); orders
    queued from a mail keep its hash (as mail/seen.log does), so refused orders, which git takes
    with the game once it is over, never name it."""
    from pbem.store.seen import digest

    g, tokens, latest = new_game(pbem)
    player = next(p for p in PLAYERS if p != pbem.show("m1")["waiting_for"][0])
    mid = f"<20261121.ahead.{address(player)}>"
    raw = threaded_reply(latest[player], player, "turn: next\ndraw", message_id=mid)
    lines, _ = run(g, raw)
    assert any("queued" in line for line in lines), lines
    held = [p.read_text() for p in (g.root / "m1" / "queue").glob("*.yaml")]
    assert len(held) == 1 and f"source: mail {digest(mid)}" in held[0]
    assert address(player) not in held[0] and "ahead" not in held[0]
