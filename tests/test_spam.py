"""Into the inbox, not the spam folder: every kind of mail pbem writes, scored by SpamAssassin's own
content rules (Debian's package, no network tests, the `spamassassin -L -t` of a mail server), must
score at most 1.0 of the 5 points that mean spam; a mail that shows the board in its HTML (by `cid:`,
under the move) or offers the buttons of a move scores nothing at all.

A short game of every ruleset is played through the real pipeline (a Maildir inbox, `.eml` files out,
`pbem advance` as the GM runs it): welcome mails, an order and its acknowledgement, the reports it
causes, a mail refused, orders sent ahead that are dropped, a stranger's mail, the reminders, and the
final report. Every `.eml` in the outbox is scored, whatever its kind, so that a new kind of mail is
scored too. The test starts its own spamd on localhost (the rules are compiled once) and scores the
mails in parallel with spamc; `make test` installs the package where it is missing
(tests/install-spamassassin.sh), and the test is skipped where it is not there.

The clock is set to the real time (the rules compare a mail's Date with the time it is scanned), the
reminder less than an hour later.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from email.message import EmailMessage
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Iterator

import pytest

from conftest import Pbem
from conftest_mail import (FilesOut, MaildirDrop, MailGames, address, fast_forward, order_body, order_line, parse,
                           player_mail, turn_file)
from mailservers import free_port
from rooms import GAMES, room, room_file, tables
from pbem import bots
from test_mail_hardening import answer, new_game
from test_reply_keys import latest, reply, typed

MOST = 1.0  # the most a mail of pbem's may score (5 means spam)
SPAMD = shutil.which("spamd") or ("/usr/sbin/spamd" if os.path.exists("/usr/sbin/spamd") else None)
SPAMC = shutil.which("spamc")
SPAMASSASSIN = shutil.which("spamassassin")
needs_spamassassin = pytest.mark.skipif(
    not (SPAMASSASSIN or (SPAMD and SPAMC)),
    reason="SpamAssassin is not installed (make test installs it: tests/install-spamassassin.sh)")

NO_LEARNING = ["--cf=use_bayes 0", "--cf=bayes_auto_learn 0"]



def tables_of_every_game() -> dict[str, tuple[str, tuple[str, ...], list[str]]]:
    """Each table of each game, by a label: (game, players, options as `pbem new` takes them)."""
    out = {}
    for game in GAMES:
        for names, options in tables(game):
            label = "-".join([game, str(len(names)), *options.values()])
            out[label] = (game, tuple(names), [a for k, v in options.items() for a in ("--option", f"{k}={v}")])
    return out


KINDS = ("welcome", "report", "acknowledgement", "refusal", "refused orders", "reminder", "stranger",
         "final report")


# -- SpamAssassin -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Score:
    points: float
    rules: list[str]  # `name (points)`, the rules the mail hit


class Scorer:
    """Scores mails: a spamd of the test's own on localhost (started once, its rules compiled once)
    asked by spamc, or where there is no spamd, one `spamassassin -L -t` per mail."""

    def __init__(self) -> None:
        self.port: int | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self.folder = tempfile.mkdtemp(prefix="pbem-spamd-")

    def start(self) -> None:
        if not (SPAMD and SPAMC):
            return
        self.port = free_port()
        log = open(os.path.join(self.folder, "spamd.log"), "wb")
        # -L: no network tests; -x: no user preferences; no Bayes (it would learn from these mails and
        # score the next run's otherwise), nothing written to a home; the children score in parallel
        self.process = subprocess.Popen(
            [SPAMD, "-L", "-x", *NO_LEARNING, "-H", self.folder, "-i", "127.0.0.1", "-A", "127.0.0.1",
             "-p", str(self.port), "--max-children", str(max(2, os.cpu_count() or 2)), "--min-children", "2",
             "-s", "stderr", "-r", os.path.join(self.folder, "spamd.pid")], stdout=log, stderr=log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"spamd stopped: {self.log()}")
            if subprocess.run([SPAMC, "-p", str(self.port), "-K"], capture_output=True).returncode == 0:
                return
            time.sleep(0.3)
        raise RuntimeError(f"spamd did not answer within a minute: {self.log()}")

    def log(self) -> str:
        return Path(self.folder, "spamd.log").read_text("utf-8", "replace")[-2000:]

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        shutil.rmtree(self.folder, ignore_errors=True)

    def score(self, raw: bytes) -> Score:
        if self.port is not None:
            out = subprocess.run([SPAMC, "-p", str(self.port), "-R", "-x"], input=raw, capture_output=True)
            report = out.stdout.decode("utf-8", "replace")
            points = float(report.split("/", 1)[0])
        else:
            out = subprocess.run([SPAMASSASSIN, "-L", "-t", "-x", *NO_LEARNING], input=raw, capture_output=True,
                                 env=dict(os.environ, HOME=self.folder))
            report = out.stdout.decode("utf-8", "replace")
            points = float(re.search(r"^X-Spam-Status: \w+, score=(-?[\d.]+)", report, re.M).group(1))
        return Score(points, rules_hit(report))


def rules_hit(report: str) -> list[str]:
    """The rules of a SpamAssassin report's table (` 1.2 RULE_NAME  description`)."""
    return [f"{m.group(2)} ({m.group(1)})" for m in re.finditer(r"^\s*(-?\d+\.\d+)\s+([A-Z][A-Z0-9_]+)\s", report, re.M)]


@pytest.fixture(scope="module")
def scorer() -> Iterator[Scorer]:
    s = Scorer()
    try:
        s.start()
    except RuntimeError as exc:
        s.stop()
        pytest.fail(str(exc))
    yield s
    s.stop()


def test_the_scorer_can_fail() -> None:
    """The report of a mail SpamAssassin finds spammy is read as such (points and rules)."""
    report = ("Content analysis details:   (6.1 points, 5.0 required)\n\n pts rule name   description\n"
              "---- ------------- ----------\n 2.8 HTML_IMAGE_ONLY_24 BODY: HTML: images with 2000-2400 bytes of words\n"
              " 3.3 DATE_IN_FUTURE_03_06 Date: is 3 to 6 hours after Received: date\n-0.0 NO_RELAYS  Informational\n")
    assert rules_hit(report) == ["HTML_IMAGE_ONLY_24 (2.8)", "DATE_IN_FUTURE_03_06 (3.3)", "NO_RELAYS (-0.0)"]


@needs_spamassassin
def test_spamassassin_scores_a_spammy_mail_as_spam(scorer: Scorer) -> None:
    """The rules are there and run: a mail shaped as spam scores high (else every mail would pass)."""
    raw = (b"From: winner@lottery.test\r\nTo: you@players.test\r\nSubject: YOU HAVE WON $1,000,000 !!!\r\n"
           b"MIME-Version: 1.0\r\nContent-Type: text/html\r\n\r\n<html><body><p>CLICK HERE to claim your prize "
           b"money NOW, 100% free, no risk, act now! Viagra cheap</p></body></html>\r\n")
    assert scorer.score(raw).points > 3


# -- every kind of mail pbem writes -------------------------------------------------------------------

def at(monkeypatch: pytest.MonkeyPatch, when: datetime) -> None:
    monkeypatch.setenv("PBEM_NOW", when.isoformat())


def bot_order(g: MailGames, player: str) -> Any:
    seen = g.pbem.show("g1", player)
    return bots.choose(g.pbem.show("g1")["ruleset"], seen["view"], player, seen["legal_orders"])


def play_every_kind(pbem: Pbem, monkeypatch: pytest.MonkeyPatch, game: str) -> list[Path]:
    """A short game of `game` by mail that makes pbem write every kind of mail; the outbox's files."""
    ruleset, players, options = tables_of_every_game()[game]
    start = datetime.now(timezone.utc).replace(microsecond=0) - timedelta(hours=1)
    at(monkeypatch, start)
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    tokens = new_game(g, ruleset, players, "g1", "--deadline", "1h", *options)  # the welcome mails
    # orders sent ahead for the decision that is his now, which the rules refuse: dropped, he is told
    mover = g.pbem.show("g1")["waiting_for"][0]
    illegal = room(ruleset).ILLEGAL
    illegal = illegal(g.pbem.show("g1", mover)["view"]) if callable(illegal) else illegal
    g.inbox.deliver(answer(g, mover, order_body(tokens[mover], ["turn: next", illegal])))
    g.advance()
    # an order, quoting the report: the acknowledgement and the reports it causes
    order = bot_order(g, mover)
    quoted = g.welcome[mover].get_body(("plain",)).get_content()
    before = g.pbem.show("g1")["turn"]
    g.inbox.deliver(answer(g, mover, order_body(tokens[mover], [order_line(order)], quoted=quoted)))
    g.advance()
    shown = g.pbem.show("g1")
    if shown["turn"] == before and shown["status"] == "active":  # a decision of several players at once:
        for other in shown["waiting_for"]:  # its reports come when the last of them has sent his order
            g.inbox.deliver(answer(g, other, order_body(tokens[other], [order_line(bot_order(g, other))])))
        g.advance()
    # a mail refused (an order the game has not), and a stranger's turn file
    mover, turn = g.mover("g1")
    g.inbox.deliver(answer(g, mover, order_body(tokens[mover], ["frobnicate the harbour"])))
    g.inbox.deliver(player_mail("mallory@strangers.test", turn_file("g1", mover, "not-his-token-at-all", turn,
                                                                    [bot_order(g, mover)]), subject="My orders"))
    g.advance()
    # what a player may send by a reply (his reply key in it): an order alone on a line, and the
    # commands (status sends his report again, with the board); a fresh mail that names no game
    mover = g.pbem.show("g1")["waiting_for"][0]
    g.inbox.deliver(reply(latest(g, mover), mover, f"{typed(bot_order(g, mover))}\n"))
    g.advance()
    later = next((p for p in players if p not in g.pbem.show("g1")["waiting_for"]), players[0])
    for word in ("help", "status", "games", "standing", "undo"):
        g.inbox.deliver(reply(latest(g, later), later, f"{word}\n\nSent from my phone\n"))
    g.inbox.deliver(player_mail(address(later), "What's up?\n", subject="hello"))
    g.advance()
    # the reminders: a quarter of the hour left
    at(monkeypatch, start + timedelta(minutes=46))
    g.advance()
    mover = g.pbem.show("g1")["waiting_for"][0]
    g.inbox.deliver(answer(g, mover, order_body(tokens[mover], [order_line(bot_order(g, mover))])))
    g.advance()
    # the end: the bots play on to the last decision, whose player sends it by mail
    at(monkeypatch, start + timedelta(minutes=50))
    last, order = fast_forward(g)
    turn = g.pbem.show("g1")["turn"]  # his latest report is of long ago: a whole turn file, with its turn
    g.inbox.deliver(answer(g, last, turn_file("g1", last, tokens[last], turn, [order])))
    r = g.advance()
    assert g.pbem.show("g1")["status"] == "finished", r.output
    return sorted((pbem.games / "mail" / "outbox").glob("*.eml"))


def kind_of(name: str, raw: bytes | EmailMessage) -> str:
    """What a mail is, told by its file's name, its subject and its words (only to name it, and to see
    every kind scored)."""
    msg = parse(raw) if isinstance(raw, bytes) else raw
    subject, text = str(msg["Subject"]), msg.get_body(("plain",)).get_content()
    if ".remind-" in name:
        return "reminder"
    if name.startswith("reply-"):
        if "were received" in text:
            return "acknowledgement"
        if "pbem takes orders only from" in text or "this address plays no game here" in text:
            return "stranger"
        if "could not be used" in text:
            return "refusal"
        return "answer to a command"
    if "welcome to" in subject:
        return "welcome"
    if "your orders were refused" in subject:
        return "refused orders"
    if "the game is over" in subject:
        return "final report"
    return "report"


def shape_of(raw: bytes | EmailMessage) -> str:
    """How a mail with a picture shows it, or that it has the buttons of a move: `buttons` (a mail
    with buttons), `board in the HTML` (multipart/related, by `cid:`), `board after the text`
    (multipart/mixed), or `text` (no picture)."""
    msg = parse(raw) if isinstance(raw, bytes) else raw
    part = msg.get_body(("html",))
    if part is not None and 'href="mailto:' in part.get_content():
        return "buttons"
    return {"multipart/related": "board in the HTML", "multipart/mixed": "board after the text"}.get(
        next((p.get_content_type() for p in msg.walk() if p.get_content_type() in ("multipart/related",
                                                                               "multipart/mixed")), ""), "text")


@needs_spamassassin
def test_every_mail_pbem_writes_scores_at_most_1_point(pbem: Pbem, monkeypatch: pytest.MonkeyPatch,
                                                         scorer: Scorer, tmp_path: Path) -> None:
    mails: list[tuple[str, str, bytes]] = []
    played, lacking = [], []
    for game, (ruleset, _, _) in tables_of_every_game().items():
        if not hasattr(room(ruleset), "ILLEGAL"):
            lacking.append(f"tests/rooms/{room_file(ruleset).name} has no ILLEGAL")
            continue
        played.append(game)
        pbem.games = tmp_path / game / "games"
        for path in play_every_kind(pbem, monkeypatch, game):
            raw = path.read_bytes()
            mails.append((game, path.name, raw))
    # each mail read once, for its kind and its shape (a parse of a mail with its picture costs milliseconds)
    kind_of_mail, shape_of_mail = [], []
    for _, name, raw in mails:
        msg = parse(raw)
        kind_of_mail.append(kind_of(name, msg))
        shape_of_mail.append(shape_of(msg))
    kinds = {(game, kind) for (game, _, _), kind in zip(mails, kind_of_mail)}
    assert {(game, kind) for game in played for kind in KINDS} <= kinds, kinds
    t0 = time.monotonic()
    with ThreadPoolExecutor(max(2, os.cpu_count() or 2)) as pool:
        scores = list(pool.map(lambda m: scorer.score(m[2]), mails))
    print(f"\n{len(mails)} mails scored in {time.monotonic() - t0:.1f} s")
    if os.environ.get("PBEM_SPAM_SCORES"):
        with open(os.environ["PBEM_SPAM_SCORES"], "w") as f:
            for (game, name, _), kind, sc in zip(mails, kind_of_mail, scores):
                f.write(f"{game}\t{name}\t{kind}\t{sc.points}\t{' '.join(sc.rules)}\n")
    worst: dict[str, tuple[float, str]] = {}
    for (game, name, _), kind, s in zip(mails, kind_of_mail, scores):
        if s.points > worst.get(kind, (-99.0, ""))[0]:
            worst[kind] = (s.points, f"{game}/{name}: {', '.join(s.rules)}")
    print("\nthe highest score of each kind of mail:")
    for kind, (points, what) in sorted(worst.items()):
        print(f"  {kind:16} {points:5.1f}  {what}")
    too_high = [f"{game}/{name} ({kind}): {s.points} points: {', '.join(s.rules)}"
                for (game, name, _), kind, s in zip(mails, kind_of_mail, scores) if s.points > MOST]
    assert not too_high, "\n".join(too_high)
    # the mails that show the board in their HTML, and those with the buttons of a move (either shape),
    # score nothing at all; both shapes are among them
    shown = set(shape_of_mail)
    assert {"board in the HTML", "board after the text", "buttons"} <= shown, shown
    scored = [f"{game}/{name} ({kind}): {s.points} points: {', '.join(s.rules)}"
              for (game, name, _), kind, shape, s in zip(mails, kind_of_mail, shape_of_mail, scores)
              if shape in ("board in the HTML", "buttons") and s.points > 0.0]
    assert not scored, "\n".join(scored)
    if lacking:
        pytest.skip(f"a game's mails are not scored: {'; '.join(sorted(set(lacking)))}")
