"""Mail as pbem reads and writes it: composing reports and replies, recognising mail that is not for
pbem, and finding the orders in a player's mail.

Mail text never goes through a shell and never decides a file path. Everything read is capped.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import html
import re
import unicodedata
from dataclasses import dataclass, field
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, getaddresses
from datetime import datetime
from functools import cache
from typing import Any, Iterable

from pbem.config import Config
from pbem.errors import PbemError, TurnFileError
from pbem.game import ruleset_of, seat_of, token_hash, waiting_for
from pbem.report import BEGIN, END, wrap72
from pbem.rules.base import order_text
from pbem.store import GAME_ID, GamesDir, dump_yaml
from pbem.turnfile import Source, fold_case, load_yaml, schema

LOOP_HEADER = "X-Pbem-Loop"
ATTACHMENT_SUFFIXES = (".yaml", ".yml", ".txt")
ENVELOPE_KEYS = ("game", "player", "token", "turn")
LINE_KEYS = ENVELOPE_KEYS + ("reports",)  # the keys an order line may give besides orders
_GAME = r"([a-z0-9][a-z0-9_-]{0,39})"
_PLAYER = r"([a-z][a-z0-9_-]{0,23})"
# the ids of the mail pbem sends for a game and player, each naming game, player and turn:
THREAD_ID = re.compile(rf"^<pbem\.{_GAME}\.{_PLAYER}\.(\d+)\.t(\d+)@[^>]+>$")  # reports, the welcome
REMINDER_ID = re.compile(rf"^<pbem\.remind\.{_GAME}\.{_PLAYER}\.t(\d+)\.(\d+)@[^>]+>$")
REPLY_ID = re.compile(rf"^<pbem\.reply\.{_GAME}\.{_PLAYER}\.t(\d+)\.([0-9a-f]+)@[^>]+>$")  # acks, refusals
REPLY_HEADER = re.compile(
    r"^\s*(On .{0,200} wrote:|Am .{0,200} schrieb .{0,100}:|Op .{0,200} schreef .{0,100}:|"
    r"-{2,} ?Original Message ?-{2,}|-{2,} ?Ursprüngliche Nachricht ?-{2,}|From: .{0,200}|Von: .{0,200})\s*$",
    re.IGNORECASE)


# -- outgoing -----------------------------------------------------------------------------------------

def thread_id(config: Config, game: str, player: str, seq: int, turn: int) -> str:
    """The Message-ID of a player's `seq`th mail in a game; it names the game, player and turn, so a
    reply (In-Reply-To) tells pbem what it answers."""
    return f"<pbem.{game}.{player}.{seq}.t{turn}@{config.domain}>"


def reminder_id(config: Config, game: str, player: str, turn: int, n: int) -> str:
    """The Message-ID of the `n`th reminder of a turn; like a report's, it names game, player and turn."""
    return f"<pbem.remind.{game}.{player}.t{turn}.{n}@{config.domain}>"


def reply_id(config: Config, answered: str, game: str | None = None, player: str | None = None,
             turn: int | None = None) -> str:
    """The Message-ID of pbem's answer to the mail `answered`: one answer per mail. An answer to a
    seat's registered address names game, player and turn, so that a reply to it finds its game; an
    answer to anyone else names nothing."""
    digest = hashlib.sha256(answered.encode("utf-8", "replace")).hexdigest()[:24]
    if game is None or player is None or turn is None:
        return f"<pbem.reply.{digest}@{config.domain}>"
    return f"<pbem.reply.{game}.{player}.t{turn}.{digest}@{config.domain}>"


def thread_of(ref: str) -> tuple[str, str, int] | None:
    """(game, player, turn) of one of pbem's own Message-IDs (report, welcome, reminder, answer)."""
    m = THREAD_ID.match(ref)
    if m:
        return m.group(1), m.group(2), int(m.group(4))
    for pattern in (REMINDER_ID, REPLY_ID):
        m = pattern.match(ref)
        if m:
            return m.group(1), m.group(2), int(m.group(3))
    return None


@dataclass(frozen=True)
class Picture:
    """An image shown inside a mail's HTML part: PNG bytes, its alternative text and file name."""

    png: bytes
    alt: str
    filename: str


def picture_cid(message_id: str) -> str:
    """The Content-ID of a mail's picture, made from the mail's own Message-ID (so it is unique and
    the same mail gets the same bytes)."""
    return f"<board.{message_id.strip('<>')}>"


def report_html(body: str, cid: str, picture: Picture) -> str:
    """The HTML part of a mail with a picture: the picture, then the text exactly as the plain part
    has it, in a <pre> (so that the HTML part read as text, or quoted back, is that text)."""
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>\n"
            f"<p><img src=\"cid:{html.escape(cid.strip('<>'))}\" alt=\"{html.escape(picture.alt)}\" "
            "style=\"max-width: 100%; height: auto;\"></p>\n"
            f"<pre style=\"font-family: monospace; white-space: pre-wrap;\">{html.escape(body, quote=False)}</pre>\n"
            "</body></html>\n")


def compose(config: Config, to_name: str, to_address: str, subject: str, body: str, message_id: str,
            in_reply_to: str | None = None, references: list[str] | None = None,
            date: datetime | None = None, picture: Picture | None = None) -> EmailMessage:
    """A plain-text mail from the GM; headers encoded so that non-ASCII names and subjects survive. A
    line of the body wider than 72 columns is broken at spaces, with a hanging indent.

    With a `picture`: multipart/alternative, the same plain text first (what every reader and pbem's
    own order parsing take), then multipart/related with an HTML part (the picture and the text) and
    the PNG, which the HTML shows by its Content-ID (mail clients do not show SVG)."""
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
    body = wrap72(body)  # every mail pbem writes, not only the reports, is read at 72 columns
    msg.set_content(body, charset="utf-8", cte=_seven_bit(body))
    if picture is not None:
        cid = picture_cid(message_id)
        markup = report_html(body, cid, picture)
        msg.add_alternative(markup, subtype="html", charset="utf-8", cte=_seven_bit(markup))
        html_part = msg.get_payload()[1]
        html_part.add_related(picture.png, maintype="image", subtype="png", cid=cid, disposition="inline",
                              filename=picture.filename)
        html_part.set_param("type", "text/html")  # RFC 2387: the root part's type
        # boundaries from the Message-ID, not random: the same mail is the same bytes (`=_` never
        # occurs in quoted-printable or base64 text)
        mark = hashlib.sha256(message_id.encode()).hexdigest()[:24]
        msg.set_boundary(f"=_pbem_a_{mark}")
        html_part.set_boundary(f"=_pbem_r_{mark}")
    return msg


def _seven_bit(text: str) -> str | None:
    """The transfer encoding of a text part: its own 7 bits, or quoted-printable when it is not ASCII
    (left to itself, the email package sends short lines as 8bit, which a relay without 8BITMIME
    refuses or mangles)."""
    return None if text.isascii() else "quoted-printable"


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
    in_reply_to: list[str]  # the ids of In-Reply-To, then those of References
    message: EmailMessage
    size: int
    doubt: str | None = None  # why the sender is not clear (several addresses, a malformed From:...)
    thread: list[str] = field(default_factory=list)  # the ids it answers, the closest first


ADDRESS = re.compile(r"^[^@\s<>]+@[^@\s<>]+$")
ADDRESS_IN_TEXT = re.compile(r"[^\s@<>()\[\],;:\"']+@[\w-]+(?:\.[\w-]+)+")


def _header(msg: EmailMessage, name: str) -> str:
    """A header as text; a header too broken to parse reads as its raw bytes, or as nothing."""
    try:
        return str(msg.get(name, ""))
    except Exception:  # the email package raises several kinds on hostile headers
        raw = msg.get_all(name, failobj=[]) if hasattr(msg, "get_all") else []
        return " ".join(str(getattr(v, "_value", "")) for v in raw) if raw else ""


def sender_of(msg: EmailMessage) -> tuple[str, str, str | None]:
    """(address, display name, doubt): the one address a mail comes from, as the email package itself
    parses From:. A From: that could be read as more than one sender (several headers or addresses,
    a malformed header) gives no address, so the mail is set aside; a display name that is another
    address keeps the real one, with the doubt, so the mail is answered as a stranger's."""
    unclear = "so its sender is not clear"
    try:
        headers = msg.get_all("From", failobj=[])
        if len(headers) > 1:
            return "", "", f"it has {len(headers)} From: headers, {unclear}"
        if not headers:
            return "", "", None
        addresses, defects = list(headers[0].addresses), list(headers[0].defects)
    except Exception:  # the email package raises several kinds on hostile headers
        return "", "", f"its From: header cannot be read, {unclear}"
    if len(addresses) > 1:
        return "", "", f"its From: header names {len(addresses)} addresses, {unclear}"
    if defects:
        # `anna@x.org <anna@x.org>`, the name unquoted, names one sender all the same
        raw = next((str(v) for k, v in msg.raw_items() if k.lower() == "from"), "")
        same = re.fullmatch(r"\s*([^\s\"<>@]+@[^\s\"<>@]+)\s*<([^\s<>@]+@[^\s<>@]+)>\s*", raw)
        if same and same.group(1).lower() == same.group(2).lower() and ADDRESS.match(same.group(2)):
            return same.group(2).lower(), "", None
        return "", "", f"its From: header is malformed, {unclear}"
    if not addresses or not ADDRESS.match(addresses[0].addr_spec.strip()):
        return "", "", None
    address = addresses[0].addr_spec.strip().lower()
    name = _one_line(addresses[0].display_name or "")
    folded = unicodedata.normalize("NFKC", name).lower()
    others = [a for a in ADDRESS_IN_TEXT.findall(folded) if a != address]
    if others:
        return address, "", f"the name in its From: header is another address ({_one_line(others[0])[:80]!r})"
    return address, name, None


def read_mail(raw: bytes) -> Incoming:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    address, name, doubt = sender_of(msg)
    found = re.search(r"<[^<>\s]+>", _header(msg, "Message-ID"))
    # a mail without a usable id is still read once: its content names it
    mid = found.group(0) if found else f"<sha256.{hashlib.sha256(raw).hexdigest()[:32]}@pbem.invalid>"
    answered = re.findall(r"<[^<>\s]+>", _header(msg, "In-Reply-To"))
    refs = re.findall(r"<[^<>\s]+>", _header(msg, "References"))
    # what it answers: In-Reply-To first (the mail answered), then References from the latest back
    thread = list(dict.fromkeys(answered + refs[::-1]))
    return Incoming(mid, address, name, _one_line(_header(msg, "Subject")), answered + refs,
                    msg, len(raw), doubt, thread)


def mail_thread(mail: Incoming) -> tuple[str, str, int] | None:
    """(game, player, turn) of the mail of pbem's that this mail answers, the closest first."""
    for ref in mail.thread:
        found = thread_of(ref)
        if found:
            return found
    return None


def _fold(text: str) -> str:
    """Text compared without case or accents: `Réponse` reads as `reponse`, `ＯＯＯ` as `ooo`."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


# The subjects auto-responders give (they start the subject; the words are folded as `_fold` does).
# A word that a player's own subject might start with is matched only as a whole word.
AUTO_REPLY_WORDS = [
    # English
    r"auto[ _-]?(matic|mated)?[ _-]?(reply|replied|response|respond|responder|answer)",
    r"out[ _-]?of[ _-]?(the[ _-]?)?office", r"ooo\b", r"absen(ce|t)\b", r"vacation\b", r"on (holiday|leave)\b",
    # German
    r"automatische (antwort|ruckantwort|abwesenheitsnotiz)", r"abwesenheit", r"abwesend\b",
    r"nicht im buro\b", r"autoantwort", r"urlaubsabwesenheit",
    # French
    r"reponse automatique", r"message d['’ ]?absence", r"absente?\b", r"absence du bureau",
    # Spanish, Portuguese, Italian
    r"respuesta automatica", r"fuera de (la )?oficina", r"ausente\b", r"resposta automatica",
    r"fora do escritorio", r"risposta automatica", r"fuori (sede|ufficio)\b", r"assente\b",
    # Dutch, Scandinavian, Finnish
    r"automatisch antwoord", r"afwezig\b", r"afwezigheid", r"niet aanwezig\b", r"automatiskt svar",
    r"automatisk svar", r"autosvar", r"franvaro", r"frav(ae|æ)r", r"ikke til stede\b", r"automaattinen vastaus",
    r"poissa\b",
    # Polish, Czech, Slovak, Hungarian, Turkish
    r"automatyczna odpowiedz", r"nieobecnosc", r"poza biurem\b", r"automaticka odpoved", r"mimo kancelar",
    r"nepritomnost", r"automatikus valasz", r"hazon kivul", r"otomatik (yan[iı]t|cevap)", r"ofis d[iı]s[iı]nda",
    # Russian, Ukrainian, Greek
    r"автоматическии ответ", r"автоответ", r"вне офиса", r"нет на месте", r"автоматична відповідь",
    r"αυτοματη απαντηση", r"εκτος γραφειου",
    # Japanese, Chinese, Korean
    r"自動応答", r"自動返信", r"不在", r"自动回复", r"自動回覆", r"自动答复", r"자동\s?응답", r"부재",
]


@cache
def auto_reply_subject() -> re.Pattern[str]:
    """The subject of an out-of-office reply, compiled on first use (only a run that reads mail needs it)."""
    return re.compile(r"^[\s\[\](){}*\"'<>:!-]*(" + "|".join(_fold(w) for w in AUTO_REPLY_WORDS) + ")")


def not_for_pbem(mail: Incoming, config: Config) -> str | None:
    """Why this mail must be set aside without a reply (bounce, auto-reply, own mail, loop), or None."""
    msg = mail.message
    if not mail.sender:
        return mail.doubt or "it has no sender address"
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
    if auto_reply_subject().match(_fold(mail.subject)):
        return "it is an out-of-office reply"
    if mail.size > config.max_mail_bytes:
        return f"it is {mail.size} bytes, more than the limit of {config.max_mail_bytes}"
    return None


def html_to_text(markup: str) -> str:
    """The text of an HTML mail body: blocks become lines, quoted replies are dropped."""
    from pbem.htmltext import html_to_text as convert

    return convert(markup)


def own_text(body: str, keep_places: bool = False) -> str:
    """What the sender wrote himself: no quoted lines, nothing from a reply header or signature on.
    `keep_places`: a quoted line leaves a blank line behind, so that every line he wrote keeps its
    number in the mail (an error names the line as he counts it)."""
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
            if keep_places:
                out.append("")
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


def between_markers(text: str) -> tuple[str, int] | None:
    """The lines between the marker lines, and how many lines of `text` come before them."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if typed(line) == BEGIN]
    if not starts:
        return None
    ends = [i for i, line in enumerate(lines) if typed(line) == END and i > starts[0]]
    if not ends:
        raise TurnFileError(f"the mail has the line {BEGIN!r} but not the line {END!r} after it")
    return "\n".join(lines[starts[0] + 1:ends[0]]), starts[0] + 1


# A whole turn file in a mail's text: a line `orders:` (in another case only as YAML writes a key: an
# `Orders: see the attachment` is prose), or a line `standing:` with its list below it in a text that
# names its game (order lines give each standing order on its own `standing:` line).
TURN_FILE_LINE = re.compile(r"^(orders\s*:|(?i:orders)\s*:\s*(#.*|\[.*)?$)", re.MULTILINE)
STANDING_LIST = re.compile(r"^standing\s*:\s*(#.*)?$", re.IGNORECASE | re.MULTILINE)
GAME_LINE = re.compile(r"^game\s*:", re.IGNORECASE | re.MULTILINE)


def _is_turn_file(text: str) -> bool:
    return bool(TURN_FILE_LINE.search(text) or STANDING_LIST.search(text) and GAME_LINE.search(text))


Found = tuple[dict[str, Any], Source]


def _found(value: dict[str, Any], text: str, what: str,
           names: dict[tuple, tuple[int, str]] | None = None) -> Found:
    """The turn file as a mapping, its envelope in the schema's case (`Game: M1` is `game: m1`), its
    orders as sent; and the bytes to submit, which name the player's own lines in an error: the lines
    of his mail, or of his order block."""
    return fold_case(value, schema("turnfile")), Source(text, what, names)


def find_orders(mail: Incoming) -> dict[str, Any]:
    """The turn file a mail carries, as a mapping (see `orders_in`)."""
    return orders_in(mail)[0]


def orders_in(mail: Incoming) -> Found:
    """The turn file a mail carries: an attachment, the body, or the order lines between the report's
    reply markers. Order lines need no envelope: game, player and turn come from the report the mail
    answers, the token from a `token:` line. Returns the turn file as a mapping (not yet checked) and
    the bytes to submit, which name the player's own lines in an error.
    A mail that holds orders in more than one of these places is refused: pbem does not guess."""
    attachments, plain, markup = _parts(mail.message)
    if plain is not None:
        body: str | None = own_text(plain, keep_places=True)
    elif markup is not None:
        body = own_text(html_to_text(markup), keep_places=True)
    else:
        body = None
    marked = between_markers(body) if body is not None else None
    block, before = marked if marked is not None else (None, 0)
    text = block if block is not None else body
    turn_file = text is not None and _is_turn_file(text)
    in_text = turn_file or (block is not None and _holds_orders(block))
    if len(attachments) + in_text > 1:
        raise TurnFileError(_twice(in_text, [name for name, _ in attachments]))
    if attachments:
        name, content = attachments[0]
        return _turn_file(content, f"the attachment {name!r}",
                          f"the attachment {name!r} is not a turn file (game:, player:, token:, turn:, orders:)")
    if text is None:
        raise TurnFileError("the mail has no text in which to find orders")
    if turn_file:  # its lines keep their numbers in the mail; typed in a mail client, as order lines are
        return _turn_file("\n" * before + as_typed(text), "the turn file in the mail",
                          "the turn file in the mail is not a mapping of game:, player:, token:, turn:, orders:")
    if block is None:
        if plain is not None and _orders_in_quote(plain):
            raise TurnFileError("your orders are inside the report your mail quotes, which pbem does not read "
                                "(lines that begin with '>', or below a line such as 'On ... wrote:' or "
                                "'From: ...'): write them between marker lines of your own, above the quote "
                                "and without '>' in front")
        raise TurnFileError(f"the mail holds no orders: put them between the lines {BEGIN!r} and {END!r} "
                            f"of your report, or attach a turn file")
    return order_lines(block, mail)


def _orders_in_quote(body: str) -> bool:
    """Whether the player filled in the order block of the report his mail quotes (with '>', or below a
    reply header, where `own_text` does not look): a token there is his own writing (a report only ever
    shows the placeholder). A common slip, which gets its own answer."""
    unquoted = [re.sub(r"^(\s*>)+ ?", "", line) for line in body.replace("\r\n", "\n").split("\n")]
    try:
        marked = between_markers("\n".join(unquoted))
    except TurnFileError:
        return False
    return marked is not None and bool(tokens_in_text(marked[0]))


def _holds_orders(block: str) -> bool:
    """Whether the lines between the markers give an order (not only the token or the envelope)."""
    for line in block.split("\n"):
        text = line.strip().removeprefix("- ").strip()
        if text and not text.startswith("#") and not ENVELOPE_LINE.match(text):
            return True
    return False


def _twice(in_text: bool, names: list[str]) -> str:
    """Why a mail with orders in several places is refused, naming the places."""
    count = len(names) + in_text
    places = ["in its text"] if in_text else []
    if names:
        quoted = [repr(n) for n in names]
        listed = quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} and {quoted[-1]}"
        places.append(f"in the attachment{'s' if len(names) > 1 else ''} {listed}")
    return (f"the mail holds orders {'twice' if count == 2 else f'{count} times'}: "
            f"{' and '.join(places)}; send them once")


def _turn_file(text: str, what: str, not_a_mapping: str) -> Found:
    """A whole turn file from a mail, submitted as the player wrote it; its token is never quoted in an
    error."""
    value, lines = _load(text, what)
    if not isinstance(value, dict):
        raise TurnFileError(not_a_mapping)
    token = next((k for k in value if isinstance(k, str) and k.casefold() == "token"), None)
    if token is not None and not isinstance(value[token], str):
        line = lines.get((token,))
        raise TurnFileError(f"{what}{f', line {line}' if line else ''} (the token line): {NOT_TEXT}")
    return _found(value, text, what)


NOT_TEXT = "the token is not text; copy it from your welcome mail, in quotes if need be"


def _load(text: str, what: str, one_line: bool = False) -> tuple[Any, dict[tuple, int]]:
    """`load_yaml` for text from a mail: an error names the token line as such, never quotes a token,
    and (`one_line`: the text is one line of the mail) names no line within the line."""
    try:
        return load_yaml(text, what, case_blind=True)
    except TurnFileError as exc:
        message = str(exc)
        found = re.match(re.escape(what) + r", line (\d+)(?=:)", message)
        if found and one_line:
            message = what + message[found.end():]
        elif found:
            lines = text.split("\n")
            n = int(found.group(1))
            # an unclosed quote runs on: the error is found further down than the token line
            opened = [i for i, line in enumerate(lines[:n], start=1) if TOKEN_LINE.match(line.strip())
                      and _unclosed(line)]
            if 0 < n <= len(lines) and TOKEN_LINE.match(lines[n - 1].strip()) or opened:
                n = n if not opened else opened[-1]
                message = f"{what}, line {n} (the token line)" + message[found.end():]
        raise TurnFileError(hide_tokens(message, tokens_in_text(text))) from None


def _unclosed(line: str) -> bool:
    """Whether a `token: ...` line opens a quote it does not close."""
    value = line.partition(":")[2].strip()
    return bool(value) and value[0] in "\"'" and (len(value) == 1 or value[-1] != value[0])


ORDER_BLOCK = "the order block"  # what an error calls the order lines of a mail
# what mail clients and phones put in typed text: no-break and other wide spaces, invisible joiners, and
# typographic quotes (an autocorrected `token: "x"`)
_SPACES = re.compile("[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]")
_INVISIBLE = re.compile("[\u200b-\u200d\u2060\ufeff]")
_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u00ab": '"', "\u00bb": '"',
                         "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'"})


def as_typed(text: str) -> str:
    """Text as the player meant it: wide spaces as spaces, no invisible characters, plain quotes.
    Orders and tokens are plain words, so nothing is lost."""
    return _INVISIBLE.sub("", _SPACES.sub(" ", text)).translate(_QUOTES)


def typed(line: str) -> str:
    """An order line as the player meant it (`as_typed`), without blanks around it."""
    return as_typed(line).strip()


STANDING_LINE = re.compile(r"^standing\s*:(.*)$", re.IGNORECASE)


def order_lines(block: str, mail: Incoming) -> Found:
    """`bid: 7` and `pass` lines (with `token: ...`) into a turn file, the rest taken from the thread.
    Besides orders, a line may give `turn: next` (the orders answer his next decision), `reports: all`
    or `moves`, and `standing: ORDER` (one standing order a line; all of them replace his standing
    orders; `standing: []` clears them). Keys and words may come in any case. An error names the line
    (counting the lines that are not blank), here and in every later check of the turn file built from
    them; a line that gives or mentions the token is never quoted."""
    turnfile: dict[str, Any] = {}
    orders: list[Any] = []
    standing: list[Any] | None = None
    names: dict[tuple, tuple[int, str]] = {}  # the place each line gave in the turn file: its line and name
    lines = [text for text in map(typed, block.split("\n")) if text]  # HTML mail has blank ones between
    for n, text in enumerate(lines, start=1):
        if text.startswith("#"):
            continue
        text = text[1:].strip() if text.startswith(("- ", "-\t")) or text == "-" else text
        if not TOKEN_LINE.match(text):
            text = text.rstrip(".!").rstrip() or text  # `draw.`: an order ended as a sentence is that order
        mentions = re.search("token", text, re.IGNORECASE)
        label = f"order line {n} " + ("(the token line)" if mentions else f"({text!r})")
        if TOKEN_LINE.match(text):
            label = f"order line {n} (the token line)"
            _once(names, ("token",), label)
            turnfile["token"] = _token_line(text, label)
            names[("token",)] = (n, label)
            continue
        given = STANDING_LINE.match(text)
        if given:
            rest = given.group(1).strip()
            if not rest or rest.startswith("#"):
                raise TurnFileError(f"{label}: give one standing order a line, after 'standing: ' on the same "
                                    f"line, or write 'standing: []' to clear them")
            value, _ = _load(rest, label, one_line=True)
            if standing is None:
                standing = []
            for item in value if isinstance(value, list) else [value]:
                names[("standing", len(standing))] = (n, label)
                standing.append(item)
            continue
        value, _ = _load(text, label, one_line=True)
        key = next(iter(value)) if isinstance(value, dict) and len(value) == 1 else None
        if isinstance(key, str) and key.casefold() in LINE_KEYS:
            key = key.casefold()
            if key == "token" and not isinstance(value[next(iter(value))], str):
                raise TurnFileError(f"order line {n} (the token line): {NOT_TEXT}")
            _once(names, (key,), label)
            turnfile[key] = next(iter(value.values()))
            names[(key,)] = (n, label)
        else:
            names[("orders", len(orders))] = (n, label)
            orders.append(value)
    # else the turn file check would name a line of a file the player never wrote
    if "token" not in turnfile:
        raise TurnFileError(f"there is no token line between the lines {BEGIN!r} and {END!r}: write "
                            f"'token: ' and your token there, above your orders")
    if not orders and standing is None and "reports" not in turnfile:
        raise TurnFileError(f"there is no order between the lines {BEGIN!r} and {END!r}: write your "
                            f"orders there, one a line, below your token")
    thread = mail_thread(mail)
    if thread:
        turnfile.setdefault("game", thread[0])
        turnfile.setdefault("player", thread[1])
        if orders:  # standing orders and reports alone answer no turn
            turnfile.setdefault("turn", thread[2])
    missing = [k for k in ("game", "player", "turn") if k not in turnfile and (orders or k != "turn")]
    if missing:
        raise TurnFileError(f"the mail does not say which game its orders are for: reply to your latest "
                            f"report, or write the lines {', '.join(f'{k}:' for k in missing)} above your "
                            f"orders")
    if orders:
        turnfile["orders"] = orders
    if standing is not None:
        turnfile["standing"] = standing
    value = fold_case(turnfile, schema("turnfile"))
    return _found(value, dump_yaml(value), ORDER_BLOCK, names)


def _once(names: dict[tuple, tuple[int, str]], place: tuple, label: str) -> None:
    """Refuse a second line that gives the same thing (`turn: 3` and `Turn: 4`): pbem does not guess."""
    if place in names:
        raise TurnFileError(f"{label}: a second '{place[0]}:' line (the first is order line {names[place][0]}); "
                            f"keep one")


def _token_line(text: str, label: str) -> str:
    """The token of a `token: ...` order line; what is wrong with the line, without quoting it."""
    value, _ = _load(text, label, one_line=True)
    if not (isinstance(value, dict) and len(value) == 1 and str(next(iter(value))).lower() == "token"):
        raise TurnFileError(f"{label}: write it as 'token: ' and then your token, as your welcome mail "
                            f"gives it")
    (token,) = value.values()
    if not isinstance(token, str):
        raise TurnFileError(f"{label}: {NOT_TEXT}")
    return token


# -- tokens: never in a message ------------------------------------------------------------------------

# a line that gives the token: `token: x`, `Token = x`, `"token": "x"`, `- token:x`, `token x`
TOKEN_LINE = re.compile(r"""^[\s>*#-]*["']?token["']?(?![\w-])""", re.IGNORECASE)
ENVELOPE_LINE = re.compile(r"""^["']?(game|player|token|turn)["']?(?![\w-])""", re.IGNORECASE)
TOKEN_VALUE = re.compile(r"""(?<![\w-])["']?token["']?(?![\w-])[ \t]*[:=]?[ \t]*(\S*)""", re.IGNORECASE)
PLACEHOLDER = "YOUR-TOKEN"
HIDDEN = "(hidden)"
PIECE = 6  # no piece of a token this long may show


def tokens_in_text(text: str) -> list[str]:
    """Every word a text gives as a token (`token: x` in any shape, a broken one too)."""
    found = []
    for m in TOKEN_VALUE.finditer(text):
        word = m.group(1).strip("\"'{}[](),;")
        if len(word) >= 4 and word != PLACEHOLDER:
            found.append(word[:200])
    return list(dict.fromkeys(found))[:100]


def mail_texts(msg: EmailMessage) -> list[str]:
    """Every text a mail holds (its text parts, HTML as text, its text attachments), decoded loosely."""
    out = []
    for part in msg.walk():
        if part.is_multipart():
            continue
        filename = part.get_filename() or ""
        ctype = part.get_content_type()
        if not (ctype.startswith("text/") or filename.lower().endswith(ATTACHMENT_SUFFIXES)):
            continue
        try:
            text = (part.get_payload(decode=True) or b"").decode("utf-8", "replace")
        except Exception:  # a part too broken to decode holds nothing pbem reads either
            continue
        out.append(html_to_text(text) if ctype == "text/html" and not filename else text)
    return out


def tokens_in(mail: Incoming) -> list[str]:
    """Every word a mail gives as a token, anywhere in it: what no message about it may show."""
    return list(dict.fromkeys(t for text in mail_texts(mail.message) for t in tokens_in_text(text)))


def game_tokens_in(mail: Incoming, state: dict[str, Any]) -> list[str]:
    """The words of a mail that are a token of the game (a token pasted without `token:`)."""
    hashes = {p["token_sha256"] for p in state["players"]}
    words = {w for text in mail_texts(mail.message) for w in re.findall(r"[A-Za-z0-9_-]{8,64}", text)}
    return sorted(w for w in words if token_hash(w) in hashes)


def hide_tokens(text: str, secrets: Iterable[str]) -> str:
    """`text` with every piece of a secret (6 characters or more; a shorter secret whole, as a word)
    replaced by '(hidden)'."""
    covered = [False] * len(text)
    for secret in secrets:
        if len(secret) < PIECE:
            for m in re.finditer(rf"(?<![\w-]){re.escape(secret)}(?![\w-])", text):
                covered[m.start():m.end()] = [True] * (m.end() - m.start())
            continue
        for i in range(len(secret) - PIECE + 1):
            piece = secret[i:i + PIECE]
            at = text.find(piece)
            while at != -1:
                covered[at:at + PIECE] = [True] * PIECE
                at = text.find(piece, at + 1)
    if not any(covered):
        return text
    out, i = [], 0
    while i < len(text):
        if covered[i]:
            while i < len(text) and covered[i]:
                i += 1
            out.append(HIDDEN)
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


class HandlingError(Exception):
    """A mail could not be handled; the error's own words, cleared of tokens."""


def scrub(exc: BaseException, secrets: list[str]) -> BaseException:
    """`exc`, or an error in its place, whose words show no token."""
    try:
        text = str(exc)
    except Exception:
        text = ""
    clean = hide_tokens(text, secrets)
    if clean == text:
        return exc
    exc.args = (clean,)
    try:
        now = str(exc)
    except Exception:
        now = text
    return exc if hide_tokens(now, secrets) == now else HandlingError(f"{type(exc).__name__}: {clean}")


# -- whom a mail is from, and what pbem answers ----------------------------------------------------------

def sender_seat(gd: GamesDir, mail: Incoming, turnfile: Any = None) -> tuple[dict[str, Any], str] | None:
    """The game and seat a mail is about, when it comes from that seat's registered address (so that
    an answer about the game goes to the player alone): from its turn file (game:, player:) or from the
    mail of pbem's it answers. None for anyone else, and when the game is not known."""
    if not mail.sender or mail.doubt:
        return None
    about: list[tuple[Any, Any]] = []
    if isinstance(turnfile, dict):
        about.append((turnfile.get("game"), turnfile.get("player")))
    thread = mail_thread(mail)
    if thread:
        about.append(thread[:2])
    if not about:  # a mail that names no game: the one game its sender plays, if he plays one only
        about = [(game, None) for game in _games_of(gd, mail.sender)]
        about = about if len(about) == 1 else []
    for game, player in about:
        if not isinstance(game, str) or not GAME_ID.match(game) or not gd.exists(game):
            continue
        try:
            state = gd.load(game)
        except PbemError:
            continue
        seats = [p["name"] for p in state["players"] if str(p.get("email", "")).lower() == mail.sender]
        named = seat_of(state, player) if isinstance(player, str) else None
        if named in seats:
            return state, named
        if len(seats) == 1:
            return state, seats[0]
    return None


def _games_of(gd: GamesDir, address: str) -> list[str]:
    """The active games in which `address` is a seat's registered address."""
    found = []
    for game in gd.games():
        try:
            state = gd.load(game)
        except PbemError:
            continue
        if state["status"] == "active" and any(str(p.get("email", "")).lower() == address
                                               for p in state["players"]):
            found.append(game)
    return found


NEUTRAL_EXAMPLE = "# your orders, one a line, as your report lists them"


def example_orders(seat: tuple[dict[str, Any], str] | None) -> list[str]:
    """Example order lines for a help text: the seat's own first legal order when it is his move,
    else an order of his game, else (the game unknown) no game's order at all."""
    if seat is None:
        return [NEUTRAL_EXAMPLE]
    state, player = seat
    if state["status"] == "active" and player in waiting_for(state):
        legal = ruleset_of(state).legal_orders(state["engine"], player)
        if legal:
            return [order_text(legal[0])]
    return [ruleset_of(state).example_order or NEUTRAL_EXAMPLE]


# -- reading an inbox without changing it ------------------------------------------------------------------

def peek_inbox(config: Config) -> list[tuple[str, bytes]]:
    """Every mail waiting in the configured inbox, in the order a run reads them, read without changing
    anything: nothing moved or flagged, no folder created, no IMAP expunge."""
    import imaplib
    import mailbox

    from pbem.mailbox import ImapInbox, inbox_path

    kind = config.inbox["type"]
    path = inbox_path(config)
    if path is None:
        inbox = ImapInbox(config)
        try:
            return [(key, inbox.read(key)) for key in inbox.keys()]
        finally:
            try:
                inbox.imap.logout()  # not close(): that expunges
            except (OSError, imaplib.IMAP4.error):
                pass
    if not path.exists():
        return []
    if kind == "maildir":
        box = mailbox.Maildir(path, factory=None, create=False)

        def delivered(key: str) -> tuple[int, int, str]:  # as MaildirInbox.keys orders them
            m = re.match(r"^(\d+)\.(?:M(\d+))?", key)
            return (int(m.group(1)), int(m.group(2) or 0), key) if m else (0, 0, key)
        return [(key, box.get_bytes(key)) for key in sorted(box.keys(), key=delivered)]
    mbox = mailbox.mbox(path, factory=None, create=False)
    mbox.lock()
    try:
        return [(str(k), mbox.get_bytes(k)) for k in sorted(mbox.keys())]
    finally:
        mbox.unlock()
        mbox.close()


def recipients(msg: EmailMessage) -> list[str]:
    return [a for _, a in getaddresses([str(msg.get("To", ""))])]
