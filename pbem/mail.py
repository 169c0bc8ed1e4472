"""Mail as pbem reads and writes it: composing reports and replies, recognising mail that is not for
pbem, and finding the orders in a player's mail.

Mail text never goes through a shell and never decides a file path. Everything read is capped.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import html.parser
import re
from dataclasses import dataclass
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, getaddresses, parseaddr
from datetime import datetime
from typing import Any

from pbem.config import Config
from pbem.errors import TurnFileError
from pbem.report import BEGIN, END
from pbem.turnfile import load_yaml

LOOP_HEADER = "X-Pbem-Loop"
ATTACHMENT_SUFFIXES = (".yaml", ".yml", ".txt")
ENVELOPE_KEYS = ("game", "player", "token", "turn")
THREAD_ID = re.compile(r"^<pbem\.([a-z0-9][a-z0-9_-]{0,39})\.([a-z][a-z0-9_-]{0,23})\.(\d+)\.t(\d+)@[^>]+>$")
REPLY_HEADER = re.compile(
    r"^\s*(On .{0,200} wrote:|Am .{0,200} schrieb .{0,100}:|Op .{0,200} schreef .{0,100}:|"
    r"-{2,} ?Original Message ?-{2,}|-{2,} ?Ursprüngliche Nachricht ?-{2,}|From: .{0,200}|Von: .{0,200})\s*$",
    re.IGNORECASE)


# -- outgoing -----------------------------------------------------------------------------------------

def thread_id(config: Config, game: str, player: str, seq: int, turn: int) -> str:
    """The Message-ID of a player's `seq`th mail in a game; it names the game, player and turn, so a
    reply (In-Reply-To) tells pbem what it answers."""
    return f"<pbem.{game}.{player}.{seq}.t{turn}@{config.domain}>"


def compose(config: Config, to_name: str, to_address: str, subject: str, body: str, message_id: str,
            in_reply_to: str | None = None, references: list[str] | None = None,
            date: datetime | None = None) -> EmailMessage:
    """A plain-text mail from the GM; headers encoded so that non-ASCII names and subjects survive."""
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = Address(_one_line(config.gm_name), addr_spec=config.gm_address)
    msg["To"] = Address(_one_line(to_name), addr_spec=to_address)
    msg["Subject"] = _one_line(subject)
    if date is not None:
        msg["Date"] = format_datetime(date)
    msg["Message-ID"] = message_id
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
    if references:
        msg["References"] = " ".join(references)
    msg["Auto-Submitted"] = "auto-generated"  # RFC 3834: auto-responders must not answer
    msg[LOOP_HEADER] = config.gm_address
    msg.set_content(body, charset="utf-8")
    return msg


def _one_line(text: str) -> str:
    """A header value from text a stranger may have written: no line breaks, capped."""
    return " ".join(text.split())[:200]


# -- incoming -----------------------------------------------------------------------------------------

@dataclass
class Incoming:
    """A mail as read from the inbox."""

    message_id: str
    sender: str          # the address, lower case
    sender_name: str
    subject: str
    in_reply_to: list[str]
    message: EmailMessage
    size: int


def _header(msg: EmailMessage, name: str) -> str:
    """A header as text; a header too broken to parse reads as its raw bytes, or as nothing."""
    try:
        return str(msg.get(name, ""))
    except Exception:  # the email package raises several kinds on hostile headers
        raw = msg.get_all(name, failobj=[]) if hasattr(msg, "get_all") else []
        return " ".join(str(getattr(v, "_value", "")) for v in raw) if raw else ""


def read_mail(raw: bytes) -> Incoming:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    name, address = parseaddr(_header(msg, "From"))
    found = re.search(r"<[^<>\s]+>", _header(msg, "Message-ID"))
    # a mail without a usable id is still read once: its content names it
    mid = found.group(0) if found else f"<sha256.{hashlib.sha256(raw).hexdigest()[:32]}@pbem.invalid>"
    refs = re.findall(r"<[^<>\s]+>", f"{_header(msg, 'In-Reply-To')} {_header(msg, 'References')}")
    return Incoming(mid, address.strip().lower(), _one_line(name), _one_line(_header(msg, "Subject")), refs,
                    msg, len(raw))


def not_for_pbem(mail: Incoming, config: Config) -> str | None:
    """Why this mail must be set aside without a reply (bounce, auto-reply, own mail, loop), or None."""
    msg = mail.message
    if not mail.sender:
        return "it has no sender address"
    if mail.sender == config.gm_address.lower():
        return "it comes from the GM's own address"
    if msg.get(LOOP_HEADER) is not None:
        return "it is pbem's own mail coming back (a mail loop)"
    local = mail.sender.partition("@")[0]
    if local in ("mailer-daemon", "postmaster", "noreply", "no-reply", "bounce", "bounces"):
        return f"it comes from {local}@, a bounce or a robot"
    if str(msg.get("Return-Path", "")).strip() == "<>":
        return "it has an empty Return-Path (a bounce)"
    if msg.get_content_type() == "multipart/report":
        return "it is a delivery report (a bounce)"
    auto = str(msg.get("Auto-Submitted", "no")).strip().lower()
    if auto and auto != "no":
        return f"it is automatic (Auto-Submitted: {auto})"
    if str(msg.get("Precedence", "")).strip().lower() in ("bulk", "junk", "list", "auto_reply"):
        return "it is bulk or list mail (Precedence)"
    for header in ("X-Autoreply", "X-Autorespond", "List-Id", "List-Unsubscribe"):
        if msg.get(header) is not None:
            return f"it is automatic or list mail ({header})"
    if re.match(r"^\s*(auto(matic)? ?reply|out of (the )?office|abwesenheit)", mail.subject, re.IGNORECASE):
        return "it is an out-of-office reply"
    if mail.size > config.max_mail_bytes:
        return f"it is {mail.size} bytes, more than the limit of {config.max_mail_bytes}"
    return None


class _Text(html.parser.HTMLParser):
    """HTML to plain text: blocks become lines, blockquotes (quoted replies) are dropped."""

    BLOCKS = {"p", "div", "br", "tr", "li", "pre", "h1", "h2", "h3", "h4", "table"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.quote = 0
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "blockquote":
            self.quote += 1
        elif tag in ("style", "script", "head"):
            self.skip += 1
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "blockquote":
            self.quote = max(0, self.quote - 1)
        elif tag in ("style", "script", "head"):
            self.skip = max(0, self.skip - 1)
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.quote and not self.skip:
            self.parts.append(data)


def html_to_text(markup: str) -> str:
    parser = _Text()
    parser.feed(markup)
    parser.close()
    return "".join(parser.parts).replace("\xa0", " ")


def own_text(body: str) -> str:
    """What the sender wrote himself: no quoted lines, nothing from a reply header or signature on."""
    out = []
    lines = body.replace("\r\n", "\n").split("\n")
    for i, line in enumerate(lines):
        if line.rstrip() == "--" or line == "-- ":
            break
        joined = f"{line} {lines[i + 1]}" if i + 1 < len(lines) else line  # a header wrapped in two
        if (REPLY_HEADER.match(line) or REPLY_HEADER.match(joined) and line.lstrip().startswith(("On ", "Am ", "Op "))) \
                and not line.strip().startswith(("game:", "player:")):
            break
        if line.lstrip().startswith(">"):
            continue
        out.append(line.rstrip())
    return "\n".join(out)


def _parts(msg: EmailMessage) -> tuple[list[tuple[str, str]], str | None, str | None]:
    """(attachments that may hold a turn file, the plain-text body, the HTML body)."""
    attachments: list[tuple[str, str]] = []
    plain = markup = None
    for part in msg.walk():
        if part.is_multipart():
            continue
        filename = part.get_filename()
        ctype = part.get_content_type()
        if filename:
            if filename.lower().endswith(ATTACHMENT_SUFFIXES):
                payload = part.get_payload(decode=True) or b""
                try:
                    attachments.append((filename, payload.decode("utf-8")))
                except UnicodeDecodeError:
                    raise TurnFileError(f"the attachment {filename!r} is not UTF-8 text") from None
            continue
        if ctype in ("text/plain", "text/html"):
            try:
                text = part.get_content()
            except (LookupError, ValueError):  # an unknown charset: read it as UTF-8, replacing the rest
                text = (part.get_payload(decode=True) or b"").decode("utf-8", "replace")
            if ctype == "text/plain" and plain is None:
                plain = text
            elif ctype == "text/html" and markup is None:
                markup = text
    return attachments, plain, markup


def between_markers(text: str) -> str | None:
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if line.strip() == BEGIN]
    if not starts:
        return None
    ends = [i for i, line in enumerate(lines) if line.strip() == END and i > starts[0]]
    if not ends:
        raise TurnFileError(f"the mail has the line {BEGIN!r} but not the line {END!r} after it")
    return "\n".join(lines[starts[0] + 1:ends[0]])


def find_orders(mail: Incoming) -> dict[str, Any]:
    """The turn file a mail carries: an attachment, the body, or the order lines between the report's
    reply markers. Order lines need no envelope: game, player and turn come from the report the mail
    answers, the token from a `token:` line. Returns the turn file as a mapping (not yet checked)."""
    attachments, plain, markup = _parts(mail.message)
    if attachments:
        name, text = attachments[0]
        value, _ = load_yaml(text, f"the attachment {name!r}")
        if not isinstance(value, dict):
            raise TurnFileError(f"the attachment {name!r} is not a turn file (game:, player:, token:, turn:, orders:)")
        return value
    if plain is not None:
        body = own_text(plain)
    elif markup is not None:
        body = own_text(html_to_text(markup))
    else:
        raise TurnFileError("the mail has no text in which to find orders")
    block = between_markers(body)
    text = block if block is not None else body
    if re.search(r"^orders\s*:", text, re.MULTILINE):
        value, _ = load_yaml(text.strip("\n"), "the turn file in the mail")
        if not isinstance(value, dict):
            raise TurnFileError("the turn file in the mail is not a mapping of game:, player:, token:, turn:, orders:")
        return value
    if block is None:
        raise TurnFileError(f"the mail holds no orders: put them between the lines {BEGIN!r} and {END!r} "
                            f"of your report, or attach a turn file")
    return order_lines(block, mail)


def order_lines(block: str, mail: Incoming) -> dict[str, Any]:
    """`bid: 7` and `pass` lines (with `token: ...`) into a turn file, the rest taken from the thread."""
    turnfile: dict[str, Any] = {}
    orders: list[Any] = []
    for n, line in enumerate(block.split("\n"), start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        text = text[1:].strip() if text.startswith("- ") or text == "-" else text
        value, _ = load_yaml(text, f"order line {n} ({text!r})")
        if isinstance(value, dict) and len(value) == 1 and next(iter(value)) in ENVELOPE_KEYS:
            turnfile.update(value)
        else:
            orders.append(value)
    for ref in reversed(mail.in_reply_to):
        m = THREAD_ID.match(ref)
        if m:
            turnfile.setdefault("game", m.group(1))
            turnfile.setdefault("player", m.group(2))
            turnfile.setdefault("turn", int(m.group(4)))
            break
    turnfile["orders"] = orders
    return turnfile


def recipients(msg: EmailMessage) -> list[str]:
    return [a for _, a in getaddresses([str(msg.get("To", ""))])]
