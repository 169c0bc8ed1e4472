"""Hostile and clumsy input, many times over: mutated replies and turn files of every game go through
the mail intake (`read_mail`, `orders_in`) and the checks of `submit`. Each is either accepted or
refused with a `PbemError`, whose message is one paragraph in words (never PyYAML's internals); no other
exception may come out, since a mail that raises one is set aside unanswered and its player waits.

The mutations are those of a mail client and a careless hand: lines duplicated, dropped, indented,
re-cased or cut; YAML's special characters, control characters, no-break spaces, emoji and line
separators put in; the envelope's keys repeated. A fixed seed keeps every run the same.
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable

import pytest

from conftest import Pbem
from conftest_mail import GM, address, order_body, order_line, parse, player_mail, player_of, turn_file
from rooms import GAMES, room
from pbem import bots
from pbem.errors import PbemError
from pbem.game import check_submission, show, waiting_for
from pbem.mail.incoming import read_mail
from pbem.mail.orders import orders_in
from pbem.store import GamesDir

MAILS = 150       # mutated mails a game
TURN_FILES = 250  # mutated turn files a game

SPECIAL = ["\t", "\r", "\x00", "\x07", "\x1b", "\x7f", "\u200b", "\ufeff", "\u00a0", "\u2028", "\x85", ":", "- ",
           "[", "]", "{", "}", "#", "'", '"', "\u201c", "&a", "*a", "!!str ", "|", ">", "%", "@", "`", "é", "😀",
           "---", "...", "~", "null", "1e9", "-1", "0x10", "9" * 25, " " * 40, "\\", "?", "<<: x"]


class Seat:
    """A game at its first decision, the mover's report mail and a legal order of his."""

    def __init__(self, pbem: Pbem, ruleset: str) -> None:
        root = pbem.games
        root.mkdir(parents=True)
        (root / "pbem.yaml").write_text(f"gm: {{name: GM, address: {GM}}}\n")
        players = list(room(ruleset).PLAYERS)
        r = pbem("new", ruleset, "m1", "--seed", "fuzz-seed-0123456789", "--json",
                 *[arg for p in players for arg in ("--player", f"{p}={address(p)}")])
        assert r.exit_code == 0, r.output
        self.tokens = {p["name"]: p["token"] for p in json.loads(r.stdout)["players"]}
        self.gd = GamesDir(root)
        state = self.gd.load("m1")
        self.player = waiting_for(state)[0]
        seen = show(state, self.player)
        self.turn = seen["turn"]
        self.order = bots.choose(ruleset, seen["view"], self.player, seen["legal_orders"])
        mails = [parse(p.read_bytes()) for p in sorted((root / "mail" / "outbox").glob("*.eml"))]
        report = [m for m in mails if player_of(m) == self.player][-1]
        self.report_id = str(report["Message-ID"])
        self.report = report.get_body(("plain",)).get_content()


def mutate(text: str, rnd: random.Random, seat: Seat) -> str:
    lines = text.split("\n")
    envelope = [f"token: {seat.tokens[seat.player]}", "game: m1", f"turn: {seat.turn}", f"player: {seat.player}",
                "orders:", "standing: []", "reports: moves", "- pass", "bid: 2"]
    for _ in range(rnd.randint(1, 4)):
        i = rnd.randrange(len(lines))
        kind = rnd.randrange(8)
        if kind == 0:
            lines.insert(i, rnd.choice(lines))
        elif kind == 1 and len(lines) > 1:
            del lines[i]
        elif kind == 2:
            j = rnd.randint(0, len(lines[i]))
            lines[i] = lines[i][:j] + rnd.choice(SPECIAL) + lines[i][j:]
        elif kind == 3 and lines[i]:
            j = rnd.randrange(len(lines[i]))
            lines[i] = lines[i][:j] + lines[i][j + 1:]
        elif kind == 4:
            lines[i] = lines[i].upper() if rnd.random() < 0.5 else lines[i].lower()
        elif kind == 5:
            lines[i] = "  " * rnd.randint(1, 3) + lines[i]
        elif kind == 6:
            lines[i] += rnd.choice(SPECIAL) + rnd.choice(["x", "1", "", "draw", "pass"])
        else:
            lines[i] = rnd.choice(envelope)
    return "\n".join(lines)


def outcome(check: Callable[[], Any]) -> str:
    """'ok', or the refusal's message; anything else fails the test with the input that caused it."""
    try:
        check()
    except PbemError as exc:
        message = str(exc)
        assert not any(internal in message for internal in ("<unicode string>", "position ", "#x")), message
        return message
    return "ok"


@pytest.mark.parametrize("ruleset", GAMES)
def test_mutated_mails_are_accepted_or_refused_in_words(pbem: Pbem, ruleset: str) -> None:
    seat = Seat(pbem, ruleset)
    rnd = random.Random(f"mail-{ruleset}")
    token = seat.tokens[seat.player]
    block = order_body(token, [order_line(seat.order)], quoted=seat.report)
    tf = turn_file("m1", seat.player, token, seat.turn, [seat.order])
    queue = sorted((pbem.games / "m1").rglob("*"))
    seen = {"ok": 0, "refused": 0}
    for n in range(MAILS):
        shape = n % 3
        if shape == 0:
            raw = player_mail(address(seat.player), mutate(block, rnd, seat), in_reply_to=seat.report_id)
        elif shape == 1:
            rows = "".join(f"<div>{line}</div>" for line in mutate(block, rnd, seat).split("\n"))
            raw = player_mail(address(seat.player), None, html=f"<html><body>{rows}</body></html>",
                              in_reply_to=seat.report_id)
        else:
            raw = player_mail(address(seat.player), "Attached.\n", in_reply_to=seat.report_id,
                              attachments=[(rnd.choice(["t.yaml", "t.txt", "t.yml"]), mutate(tf, rnd, seat))])

        def intake() -> None:
            mail = read_mail(raw)
            _, data = orders_in(mail)
            check_submission(seat.gd, data, sender=mail.sender, source="fuzz")
        seen["ok" if outcome(intake) == "ok" else "refused"] += 1
    assert seen["ok"] > 0 and seen["refused"] > 0, seen  # the mutations reach both ends
    assert sorted((pbem.games / "m1").rglob("*")) == queue  # checks alone: nothing was queued


@pytest.mark.parametrize("ruleset", GAMES)
def test_mutated_turn_files_are_accepted_or_refused_in_words(pbem: Pbem, ruleset: str) -> None:
    seat = Seat(pbem, ruleset)
    rnd = random.Random(f"bytes-{ruleset}")
    good = turn_file("m1", seat.player, seat.tokens[seat.player], seat.turn, [seat.order]).encode()
    refused = set()
    for _ in range(TURN_FILES):
        data = bytearray(good)
        for _ in range(rnd.randint(1, 4)):
            i = rnd.randrange(len(data) + 1)
            kind = rnd.randrange(5)
            if kind == 0:
                data[i:i] = bytes([rnd.randrange(256)])
            elif kind == 1 and i < len(data):
                del data[i]
            elif kind == 2:
                data[i:i] = rnd.choice([b"\xef\xbb\xbf", b"\r\n", b"\t", b"\n", b": ", b"'", b"{", b"#", b"\xe2\x80\xa8",
                                        b"\x00", b"\xc3"])
            elif kind == 3:
                data = data[:i]
            else:
                encoding = rnd.choice(["utf-16", "utf-16-le", "latin-1"])
                data = bytearray(data.decode("utf-8", "ignore").encode(encoding, "ignore"))
        message = outcome(lambda: check_submission(seat.gd, bytes(data)))
        if message != "ok":
            refused.add(message.split(":")[0])
    assert "the turn file is not valid" in refused or any(m.startswith("the turn file, line") for m in refused)
