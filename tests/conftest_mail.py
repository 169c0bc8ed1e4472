"""Helpers for the mail tests (imported explicitly by tests/test_mail.py and tests/test_mail_servers.py):
players' mails as a mail client would write them, and a games dir whose GM reads and sends mail
through a Maildir, an mbox file, or the real servers of tests/mailservers.py.
"""

from __future__ import annotations

import email
import email.policy
import json
import mailbox
import re
import subprocess
from email.message import EmailMessage
from email.utils import format_datetime
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable

import yaml

import helpers
from helpers import seed_args
from pbem.game import waiting_for
from pbem.report import BEGIN, END
from pbem.store import GamesDir
from rooms import EXAMPLE, room

GM = "gm@pbem.test"
GM_NAME = "Game Master"
PLAYERS = room(EXAMPLE).PLAYERS  # the example game's usual table
SEED = "mail-seed"


def address(player: str) -> str:
    return f"{player}@players.test"


class _HeadersOnce(email.policy.EmailPolicy):
    """email's default policy, each header value parsed once: the tests read a mail's To, Subject and
    Content-Type over and over (every `msg["To"]`, every get_content_type() of a walk parses the header
    again, through the slow headerregistry). A header object is immutable, so the same one serves every
    mail that has the same header; a header set anew is parsed anew."""

    def header_fetch_parse(self, name: str, value: str) -> Any:
        if hasattr(value, "name"):
            return value
        key = (name, value)
        held = _HEADERS.get(key)
        if held is None:
            if len(_HEADERS) > 50_000:  # a whole session's mails: bounded, as a cache of the tests' own
                _HEADERS.clear()
            held = _HEADERS[key] = super().header_fetch_parse(name, value)
        return held


_HEADERS: dict[tuple[str, str], Any] = {}
POLICY = _HeadersOnce()


def parse(raw: bytes) -> EmailMessage:
    """A mail as a client reads it (email's default policy)."""
    return email.message_from_bytes(raw, policy=POLICY)  # type: ignore[return-value]


_serial = iter(range(1, 10**9))


def player_mail(sender: str, body: str | None = None, *, html: str | None = None, subject: str = "Re: orders",
                in_reply_to: str | None = None, references: Iterable[str] | None = None,
                attachments: Iterable[tuple[str, str | bytes]] = (), message_id: str | None = None,
                headers: dict[str, str] | None = None, sender_name: str | None = None, to: str = GM) -> bytes:
    """A mail as a player's client sends it: plain text and/or HTML, attachments, threading headers."""
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = f"{sender_name} <{sender}>" if sender_name else sender
    msg["To"] = f"{GM_NAME} <{to}>"
    msg["Subject"] = subject
    msg["Date"] = format_datetime(datetime(2026, 11, 21, 12, 30, tzinfo=timezone.utc))
    msg["Message-ID"] = message_id or f"<player.{next(_serial)}.{sender.replace('@', '.')}@players.test>"
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
    refs = list(references) if references is not None else ([in_reply_to] if in_reply_to else [])
    if refs:
        msg["References"] = " ".join(refs)
    for key, value in (headers or {}).items():
        msg[key] = value
    if body is not None:
        msg.set_content(body, cte="quoted-printable")
        if html is not None:
            msg.add_alternative(html, subtype="html")
    elif html is not None:
        msg.set_content(html, subtype="html")
    else:
        msg.set_content("")
    for name, content in attachments:
        data = content.encode("utf-8") if isinstance(content, str) else content
        maintype, subtype = ("text", "plain") if name.endswith((".txt", ".yaml", ".yml")) else ("application", "octet-stream")
        if not msg.is_multipart():
            msg.make_mixed()
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return msg.as_bytes()


def quote(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.splitlines())


def order_body(token: str, orders: Iterable[str], quoted: str = "", greeting: str = "Here are my orders.",
               signature: str = "Anna") -> str:
    """A plain-text reply: the order lines between the markers, a signature, the quoted report."""
    lines = [greeting, "", BEGIN, f"token: {token}", *orders, END, "", "-- ", signature, ""]
    if quoted:
        lines += ["On Sat, 21 Nov 2026 at 12:00, Game Master <gm@pbem.test> wrote:", quote(quoted), ""]
    return "\n".join(lines)


def order_html(token: str, orders: Iterable[str], quoted: str = "") -> str:
    """An HTML-only reply: order lines between the markers in <div>s, the quoted report in a blockquote."""
    rows = "".join(f"<div>{line}</div>" for line in [BEGIN, f"token: {token}", *orders, END])
    quote_html = ("<div class=\"gmail_quote\"><div>On Sat, 21 Nov 2026 at 12:00, Game Master wrote:</div>"
                  f"<blockquote><pre>{_escape(quoted)}</pre></blockquote></div>") if quoted else ""
    return f"<html><head><style>div {{ color: #333; }}</style></head><body><div>Hi!</div>{rows}" \
           f"<div>--&nbsp;</div><div>Ben</div>{quote_html}</body></html>"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def turn_file(game: str, player: str, token: str, turn: int, orders: list[Any]) -> str:
    return yaml.safe_dump({"game": game, "player": player, "token": token, "turn": turn, "orders": orders},
                          sort_keys=False)


def order_line(order: Any) -> str:
    if isinstance(order, dict):
        (key, value), = order.items()
        return f"{key}: {value}"
    return str(order)


def token_of(welcome: EmailMessage) -> str:
    m = re.search(r"Your secret token is:\s+(\S+)", welcome.get_body(("plain",)).get_content())
    assert m, welcome.get_body(("plain",)).get_content()
    return m.group(1)


# -- inboxes: where the players' mail is delivered -------------------------------------------------

class MaildirDrop:
    """The default: a Maildir in the games dir (mail/inbox); read mail moves to mail/read, mail set
    aside to mail/set-aside."""

    kind = "maildir"

    def __init__(self, root: Path, path: str = "mail/inbox") -> None:
        self.root, self.path = root, path

    def section(self) -> dict[str, Any]:
        return {"type": "maildir", "path": self.path}

    def _box(self, rel: str) -> mailbox.Maildir:
        return mailbox.Maildir(self.root / rel, factory=None, create=True)

    def deliver(self, raw: bytes) -> None:
        self._box(self.path).add(raw)

    def waiting(self) -> list[bytes]:
        box = self._box(self.path)
        return [box.get_bytes(k) for k in sorted(box.keys())]

    def read(self) -> list[bytes]:
        box = self._box("mail/read")
        return [box.get_bytes(k) for k in sorted(box.keys())]

    def set_aside(self) -> list[bytes]:
        box = self._box("mail/set-aside")
        return [box.get_bytes(k) for k in sorted(box.keys())]


class MboxDrop(MaildirDrop):
    """An mbox file; handled mail is appended to mail/read.mbox or mail/set-aside.mbox."""

    kind = "mbox"

    def __init__(self, root: Path, path: str = "mail/inbox.mbox") -> None:
        super().__init__(root, path)

    def section(self) -> dict[str, Any]:
        return {"type": "mbox", "path": self.path}

    def _mbox(self, rel: str) -> list[bytes]:
        path = self.root / rel
        if not path.exists():
            return []
        box = mailbox.mbox(path, factory=None, create=False)
        try:
            return [box.get_bytes(k) for k in sorted(box.keys())]
        finally:
            box.close()

    def deliver(self, raw: bytes) -> None:
        (self.root / self.path).parent.mkdir(parents=True, exist_ok=True)
        box = mailbox.mbox(self.root / self.path, factory=None, create=True)
        box.lock()
        try:
            box.add(raw)
            box.flush()
        finally:
            box.unlock()
            box.close()

    def waiting(self) -> list[bytes]:
        return self._mbox(self.path)

    def read(self) -> list[bytes]:
        return self._mbox("mail/read.mbox")

    def set_aside(self) -> list[bytes]:
        return self._mbox("mail/set-aside.mbox")


class ImapDrop:
    """An IMAP account on the test dovecot; mail is delivered with APPEND."""

    kind = "imap"

    def __init__(self, server: Any, user: str, security: str = "tls", **overrides: Any) -> None:
        self.server, self.user, self.security, self.overrides = server, user, security, overrides

    def section(self) -> dict[str, Any]:
        return self.server.inbox(self.user, self.security, **self.overrides)

    def deliver(self, raw: bytes) -> None:
        self.server.append(self.user, raw)

    def waiting(self) -> list[bytes]:
        return self.server.folder_messages(self.user, "INBOX")

    def read(self) -> list[bytes]:
        return self.server.folder_messages(self.user, "pbem-read")

    def set_aside(self) -> list[bytes]:
        return self.server.folder_messages(self.user, self.overrides.get("set_aside_folder", "pbem-set-aside"))


# -- outboxes: where pbem's mail goes ----------------------------------------------------------------

class FilesOut:
    """The default: .eml files in mail/outbox."""

    def __init__(self, root: Path, path: str = "mail/outbox") -> None:
        self.root, self.path = root, path
        self.taken: set[str] = set()
        self._parsed: dict[str, tuple[bytes, EmailMessage]] = {}  # by file name: its bytes, the mail

    def section(self) -> dict[str, Any]:
        return {"type": "files", "path": self.path}

    def message(self, path: Path) -> EmailMessage:
        """The mail in `path`, parsed once while its bytes stay the same (all() and new() read every
        file of the outbox again, each time; a parse of a mail with its picture costs milliseconds)."""
        raw = path.read_bytes()
        held = self._parsed.get(path.name)
        if held is None or held[0] != raw:
            held = self._parsed[path.name] = (raw, parse(raw))
        return held[1]

    def all(self) -> list[EmailMessage]:
        folder = self.root / self.path
        return [self.message(p) for p in sorted(folder.glob("*.eml"))] if folder.is_dir() else []

    def new(self) -> list[EmailMessage]:
        folder = self.root / self.path
        paths = sorted(p for p in folder.glob("*.eml") if p.name not in self.taken) if folder.is_dir() else []
        self.taken.update(p.name for p in paths)
        return [self.message(p) for p in paths]

    def skip(self) -> None:
        """What new() would return now counts as returned, unread: for a test that looks at none of
        them (each parse of a mail and its picture costs milliseconds, every run of a whole game)."""
        folder = self.root / self.path
        if folder.is_dir():
            self.taken.update(p.name for p in folder.glob("*.eml"))


class SmtpOut:
    """The test SMTP server."""

    def __init__(self, server: Any, password_env: str | None = None, **overrides: Any) -> None:
        self.server, self.password_env, self.overrides = server, password_env, overrides
        self.received: list[Any] = []  # every mail the server took, in order
        self.returned = 0  # how many of them new() has returned

    def section(self) -> dict[str, Any]:
        return self.server.outbox(self.password_env, **self.overrides)

    def _collect(self) -> None:
        self.received += self.server.take()

    def new(self) -> list[EmailMessage]:
        """The mails received since the last call."""
        self._collect()
        out, self.returned = self.received[self.returned:], len(self.received)
        return [g.message for g in out]

    def skip(self) -> None:
        """The mails received so far count as returned by new()."""
        self._collect()
        self.returned = len(self.received)

    def all(self) -> list[EmailMessage]:
        self._collect()
        return [g.message for g in self.received]


# -- a games dir with mail ------------------------------------------------------------------------------

def recipient(msg: EmailMessage) -> str:
    return msg["To"].addresses[0].addr_spec.lower()


def player_of(msg: EmailMessage) -> str:
    return recipient(msg).partition("@")[0]


class MailGames:
    """A games dir (run through the `pbem` fixture) whose GM reads `inbox` and sends through `outbox`."""

    def __init__(self, pbem: Any, inbox: Any, outbox: Any, **extra: Any) -> None:
        self.pbem, self.inbox, self.outbox = pbem, inbox, outbox
        self.root: Path = pbem.games
        self.extra = extra
        self.tokens: dict[str, str] = {}
        self.welcome: dict[str, EmailMessage] = {}

    @property
    def gd(self) -> GamesDir:
        return GamesDir(self.root)

    def config(self) -> dict[str, Any]:
        value: dict[str, Any] = {"gm": {"name": GM_NAME, "address": GM}, "subject_prefix": "[pbem]",
                                 "inbox": self.inbox.section(), "outbox": self.outbox.section()}
        value.update(self.extra)
        return value

    def write_config(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        (self.root / "pbem.yaml").write_text(yaml.safe_dump(self.config(), sort_keys=False, allow_unicode=True),
                                             "utf-8")

    def new(self, game: str = "m1", players: Iterable[str] = PLAYERS, seed: str = SEED) -> dict[str, str]:
        """A game; returns the tokens as the players read them in their welcome mails."""
        self.write_config()
        args = ["new", EXAMPLE, game, *seed_args(seed), "--json"]
        for p in players:
            args += ["--player", f"{p}={address(p)}"]
        r = self.pbem(*args)
        assert r.exit_code == 0, r.output
        printed = {p["name"]: p["token"] for p in json.loads(r.stdout)["players"]}
        for msg in self.outbox.new():
            self.welcome[player_of(msg)] = msg
            self.tokens[player_of(msg)] = token_of(msg)
        assert self.tokens == printed
        return printed

    def advance(self, ok: bool = True) -> Any:
        r = self.pbem("advance")
        if ok:
            assert r.exit_code == 0, r.output
        return r

    def state(self, game: str = "m1") -> dict[str, Any]:
        return self.gd.load(game)

    def queued(self, game: str = "m1") -> list[dict[str, Any]]:
        return [e for _, e in self.gd.queued(game)]

    def git(self, *args: str) -> str:
        return subprocess.run(["git", *args], cwd=self.root, capture_output=True, text=True, check=True).stdout

    def mover(self, game: str = "m1") -> tuple[str, int]:
        shown = self.pbem.show(game)
        return shown["waiting_for"][0], shown["turn"]

    def legal_order(self, player: str, game: str = "m1") -> Any:
        """The order a bot would give now."""
        from pbem import bots

        seen = self.pbem.show(game, player)
        return bots.choose("medici", seen["view"], player, seen["legal_orders"])

    def last_report(self, player: str) -> EmailMessage:
        """The latest report mail a player received (the welcome mail is his first)."""
        reports = [m for m in self.outbox.all() if player_of(m) == player
                   and str(m["Message-ID"]).startswith("<pbem.") and not str(m["Message-ID"]).startswith("<pbem.reply.")]
        return reports[-1] if reports else self.welcome[player]


MAIL_DATE = "Sat, 21 Nov 2026 12:30:00 +0000"
NEVER_AGAIN = "\nReply 'stop' and this host never writes to this address again.\n"  # ends a mail to a non-player  # the Date of every player_mail


def mail_error(subject: str, message: str, example: str) -> str:
    """The whole refusal of a mail, as common/mail-error.txt.j2 writes it (a message of several lines
    indented under its first), its lines wider than 72 columns broken as every mail's are; its first
    paragraph, where a long subject makes it too wide, refilled whole (never broken twice)."""
    from pbem.report import refill, wrap72

    shown = message.replace("\n", "\n  ")
    opening = refill(f'Your mail of {MAIL_DATE} ("{subject}")\ncould not be used, and nothing in the game changed:')
    return wrap72(f"{opening}\n\n"
            f"  {shown}\n\n"
            "How to send orders: reply to your latest report and write your orders\n"
            "between the two marker lines it contains, with your token, for example\n\n"
            f"{BEGIN}\ntoken: YOUR-TOKEN\n{example}\n{END}\n\n"
            "or attach the turn file from the report (.yaml or .txt) with your token\n"
            "filled in. Lines quoted with '>' and everything below your signature\n"
            "are ignored.\n")


def unkeyed(ref: object) -> str:
    """One of pbem's Message-IDs without the reply key it carries."""
    from pbem.mail.ids import split_key

    return split_key(str(ref))[0]


def to(msg: Any) -> str:
    """The address a mail of pbem's went to."""
    return msg["To"].addresses[0].addr_spec


def mail_lines(output: str) -> list[str]:
    """The run's lines about mail, without the game each names first (`m1: mail from ...`)."""
    lines = [re.sub(r"^[a-z0-9][a-z0-9_-]*: (?=mail )", "", line) for line in output.splitlines()]
    return [line for line in lines if line.startswith("mail ")]


def send(g: "MailGames", sender: str, body: str, proven: bool = True, **kw: Any) -> tuple[list[str], list[Any]]:
    """A mail to the GM address; the run's mail lines and the mails it wrote. `proven`: as a player
    writes a lobby command, in a reply to the latest mail pbem sent him (which proves his address);
    a `join` from an address pbem never wrote to is confirmed by a reply to pbem's answer, as the
    answer asks. Without, a fresh mail (which proves nothing: anyone can forge its From:)."""
    if proven and "in_reply_to" not in kw:
        latest = [m for m in g.outbox.all() if to(m) == sender]
        if latest:
            kw.update(in_reply_to=str(latest[-1]["Message-ID"]), subject=f"Re: {latest[-1]['Subject']}")
    g.inbox.deliver(player_mail(sender, body, **kw))
    r = g.advance()
    lines, sent = mail_lines(r.output), g.outbox.new()
    if proven and len(lines) == 1 and len(sent) == 1 and ("asked to confirm" in lines[0]
                                                          or "counts only in a reply to a mail pbem" in lines[0]):
        return send(g, sender, body, in_reply_to=str(sent[0]["Message-ID"]), subject=f"Re: {sent[0]['Subject']}")
    return lines, sent


def answer(g: "MailGames", msg: Any, sender: str, body: str) -> tuple[list[str], list[Any]]:
    """`sender`'s reply to a mail of pbem's, threaded under it."""
    return send(g, sender, body, subject=f"Re: {msg['Subject']}", in_reply_to=str(msg["Message-ID"]))


def mail_host(pbem: Any) -> "MailGames":
    """A games dir with its pbem.yaml and mail folder, over a Maildir inbox and files out, no game yet."""
    games = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    games.write_config()
    (pbem.games / "mail").mkdir()
    return games


def started_game(pbem: Any) -> "MailGames":
    """Game m1 of anna, ben and cleo over a Maildir inbox and files out, its welcome mails read."""
    games = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    games.new()
    games.outbox.skip()
    return games


def threaded_reply(msg: Any, player: str, body: str, **kw: Any) -> bytes:
    """`player`'s reply to a mail of pbem's, threaded under it (its keyed Message-ID in In-Reply-To)."""
    refs = str(msg.get("References", "")).split() + [str(msg["Message-ID"])]
    return player_mail(address(player), body, subject=f"Re: {msg['Subject']}", in_reply_to=str(msg["Message-ID"]),
                       references=refs, **kw)


def run_mails(g: "MailGames", *mails: bytes) -> tuple[list[str], list[Any]]:
    """`mails` delivered and a run made: its lines about mail (the game each names first kept) and the
    mails it wrote."""
    for raw in mails:
        g.inbox.deliver(raw)
    r = g.advance()
    return [line for line in r.output.splitlines() if "mail from " in line], g.outbox.new()


def flat_text(msg: Any) -> str:
    """A mail's plain text with its lines joined, to look for a sentence wherever the lines break."""
    return " ".join(msg.get_body(("plain",)).get_content().split())


def fast_forward(g: "MailGames", game: str = "g1") -> tuple[str, Any]:
    """The game played by its bots to its last decision, saved as a run would (the next run commits
    it); returns the last decision's player and order, for him to send by mail."""
    gd = g.gd
    ahead = gd.load(game)
    while True:  # each bot_move is apply_orders of the bot's order to a copy: `state` stays as it was
        state, player, before = ahead, waiting_for(ahead)[0], len(ahead["log"])
        ahead = helpers.bot_move(state)
        if ahead["status"] != "active":
            break
    gd.save(game, state)
    return player, ahead["log"][before]["order"]
