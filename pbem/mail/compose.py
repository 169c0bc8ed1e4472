"""Outgoing mail: plain text at 72 columns, and with a picture of the board an HTML part beside it."""

from __future__ import annotations

import email.policy
import re
from datetime import datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime
from typing import Any

from pbem import digests
from pbem.config import Config
from pbem.donotmail import unsubscribe_header
from pbem.mail import LOOP_HEADER, one_line as _one_line
from pbem.mail.headers import Headers
from pbem.patterns import Pattern
from pbem.report import wrap72

class Picture:  # not a dataclass: one costs its module's import ~3M instructions, compiling its methods
    """A picture of the board: PNG bytes, the words that say what it shows (its alt text and
    Content-Description), its file name, and the lines that stand in the HTML where the text draws its
    board (which the HTML leaves to the picture): `note` where the picture is a part after the text,
    `above` where it stands in the HTML under the move."""

    __slots__ = ("png", "alt", "filename", "note", "above")

    def __init__(self, png: bytes, alt: str, filename: str, note: str = "", above: str = "") -> None:
        self.png, self.alt, self.filename, self.note, self.above = png, alt, filename, note, above

    def __repr__(self) -> str:
        return f"Picture({len(self.png)} bytes, {self.alt!r}, {self.filename!r})"


class Moves:  # not a dataclass: one costs its module's import ~3M instructions, compiling its methods
    """The orders a mail that asks for a move offers as buttons on a phone, each as the player types it
    in his language (`orders`); `listed`, the choices the report lists (the buttons stand under that
    list); `label`, the line above the buttons; `other`, the line that says how to write any other
    order (empty when every legal order has its button)."""

    __slots__ = ("orders", "listed", "label", "other")

    def __init__(self, orders: list[str], listed: list[str], label: str, other: str = "") -> None:
        self.orders, self.listed, self.label, self.other = orders, listed, label, other

    def __repr__(self) -> str:
        return f"Moves({self.orders!r}, {self.listed!r}, {self.label!r}, {self.other!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Moves) and (self.orders, self.listed, self.label, self.other) == \
            (other.orders, other.listed, other.label, other.other)


#: The HTML of at least this many bytes carries the board in itself, by `cid:`, under the move; a
#: shorter one leaves it to a part after the text. SpamAssassin's HTML_IMAGE_ONLY_* rules score any
#: <img> in HTML of at most 3,200 bytes (tags and styles counted) as spam: this is that with a margin.
HTML_HOLDS_THE_BOARD = 4096


#: the prefixes mail clients put before the subject of a reply, in the languages of pbem's players and
#: of the clients they use (Re, German Outlook's AW and Antwort, Dutch Outlook's Antw, SV, VS, Odp,
#: RIF), each perhaps with a count (`Re[2]:`, `Re^2:`)
_REPLY_PREFIX = Pattern(r"\s*(?:re|aw|antw|antwort|sv|vs|odp|rif)\s*(?:\[\d+\]|\^\d+)?\s*:", re.IGNORECASE)


def reply_subject(subject: str) -> str:
    """The subject of pbem's answer to a mail of `subject`: one `Re: ` before the subject without the
    pile of reply prefixes a thread gathers (`Re: AW: Re: [pbem] m1 ...` becomes `Re: [pbem] m1 ...`),
    so a long thread's subject neither grows nor folds before its first word."""
    rest = subject.strip()
    while (prefix := _REPLY_PREFIX.match(rest)) is not None:
        rest = rest[prefix.end():].lstrip()
    return f"Re: {rest}" if rest else "Re:"


def mailto(address: str, subject: str, body: str) -> str:
    """A `mailto:` URL (RFC 6068) that opens a mail to `address` with this subject and body: both
    percent-encoded as UTF-8, a space as %20 (a `+` is a plus there)."""
    from urllib.parse import quote

    return f"mailto:{address}?subject={quote(subject, safe='')}&body={quote(body, safe='')}"


def report_html(body: str, picture: Picture, moves: Moves | None = None, reply_to: str | None = None,
                subject: str = "", cid: str | None = None, folded: bool = True) -> str:
    """The HTML part of a mail with a picture, for a phone's screen: the plain part's own text with
    its headings, tables, lists and order block as HTML (`pbem.mail.phone`), its board left to the
    picture; with `moves` and the mail's Reply-To address (it carries the player's reply key), a
    button under the listed choices for each order, a `mailto:` that replies with it; with `cid`, the
    picture itself under the move. Not `folded`: before its lines are broken (see `phone_markup`)."""
    from pbem.mail.phone import Board, Buttons, phone_html, phone_markup

    buttons = None
    if moves is not None:  # without the key's address, no buttons: the move is still where the board goes
        links = [(order, mailto(reply_to, reply_subject(subject), order)) for order in moves.orders] if reply_to else []
        buttons = Buttons(links, moves.listed, moves.label, moves.other)
    board = Board(cid, picture.alt) if cid else None
    return (phone_html if folded else phone_markup)(body, picture.above if cid else picture.note, buttons=buttons,
                                                    board=board)


class _Policy(email.policy.EmailPolicy):
    """SMTP's policy, but a header of one id (Message-ID, In-Reply-To) stays on one line: one folded
    before its id (it carries a reply key, so it is long) reads back with a blank in front in some
    readers, which then miss the thread."""

    ONE_ID = frozenset({"message-id", "in-reply-to"})

    def fold(self, name: str, value: str) -> str:
        if name.lower() in self.ONE_ID:
            return f"{name}: {str(value).strip()}{self.linesep}"
        return super().fold(name, value)

    def fold_binary(self, name: str, value: str) -> bytes:
        if name.lower() in self.ONE_ID:
            return f"{name}: {str(value).strip()}{self.linesep}".encode("ascii", "replace")
        return super().fold_binary(name, value)

    def header_store_parse(self, name: str, value: Any) -> tuple[str, Any]:
        """A header given as text is parsed once for all the mails of a process: most are the same in
        every mail (From, Auto-Submitted, the parts' Content-Type and -Transfer-Encoding), and parsing
        costs more than the rest of writing a mail. A parsed header is never changed, only replaced."""
        if type(value) is not str:
            return super().header_store_parse(name, value)
        key = (name, value)
        known = _PARSED.get(key)
        if known is None:
            known = super().header_store_parse(name, value)
            if len(_PARSED) >= 4096:
                _PARSED.clear()
            _PARSED[key] = known
        return known


_PARSED: dict[tuple[str, str], tuple[str, Any]] = {}


_SMTP = _Policy(linesep="\r\n", header_factory=Headers())


def compose(config: Config, to_name: str, to_address: str, subject: str, body: str, message_id: str,
            in_reply_to: str | None = None, references: list[str] | None = None,
            date: datetime | None = None, picture: Picture | None = None,
            reply_to: str | None = None, moves: Moves | None = None) -> EmailMessage:
    """A plain-text mail from the GM; headers encoded so that non-ASCII names and subjects survive. A
    line of the body wider than 72 columns is broken at spaces, with a hanging indent.

    With a `picture`: multipart/alternative of the same plain text (which every reader and pbem's own
    order parsing take) and HTML for a phone, with `moves` (and a `reply_to` with the player's key)
    a button for each order. Where the HTML is long (`HTML_HOLDS_THE_BOARD`), the HTML and the PNG go
    as multipart/related and the HTML shows the picture under the move by `cid:`; a shorter HTML does
    not reference it (an <img> in a short HTML part is what SpamAssassin's HTML_IMAGE_ONLY_* rules
    score as spam): the mail is multipart/mixed, the alternative first, then the PNG as an inline
    image part that the client shows after the text. (Mail clients do not show SVG.)
    """
    msg = EmailMessage(policy=_SMTP)
    msg["From"] = Address(_one_line(config.gm_name), addr_spec=config.gm_address)
    msg["To"] = Address(_one_line(to_name), addr_spec=to_address)
    if reply_to:  # the GM's address with the player's reply key: his reply proves itself
        msg["Reply-To"] = Address(_one_line(config.gm_name), addr_spec=reply_to)
    msg["Subject"] = _one_line(subject)
    if date is not None:
        msg["Date"] = format_datetime(date)
    msg["Message-ID"] = message_id
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
    if references:
        msg["References"] = " ".join(references)
    msg["Auto-Submitted"] = "auto-generated"  # RFC 3834: auto-responders must not answer
    msg["List-Unsubscribe"] = unsubscribe_header(config, to_address)  # a client's button: `stop`, keyed
    msg[LOOP_HEADER] = config.gm_address
    body = wrap72(body)  # every mail pbem writes, not only the reports, is read at 72 columns
    msg.set_content(body, charset="utf-8", cte=_seven_bit(body))
    if picture is not None:
        # boundaries and the picture's Content-ID from the Message-ID, not random: the same mail is the
        # same bytes (`=_` never occurs in quoted-printable or base64 text)
        mark = digests.sha256(message_id.encode()).hexdigest()[:24]
        cid = f"board.{mark}@{config.domain}"
        kept = _one_line(subject)
        # the HTML is ASCII, and folded never shorter: a long one is known before it is folded
        markup = report_html(body, picture, moves, reply_to, kept, folded=False)
        inside = len(markup) >= HTML_HOLDS_THE_BOARD
        if not inside:
            from pbem.mail.phone import fold

            markup = fold(markup)
            inside = len(markup) >= HTML_HOLDS_THE_BOARD
        if inside:
            markup = report_html(body, picture, moves, reply_to, kept, cid)
        msg.add_alternative(markup, subtype="html", charset="utf-8", cte=_html_encoding(markup))
        if inside:
            html_part = msg.get_payload()[1]
            html_part.add_related(picture.png, maintype="image", subtype="png", cid=f"<{cid}>",
                                  disposition="inline", filename=picture.filename)
            html_part.get_payload()[1]["Content-Description"] = _one_line(picture.alt)
            msg.set_boundary(f"=_pbem_a_{mark}")
            html_part.set_boundary(f"=_pbem_r_{mark}")
        else:
            msg.add_attachment(picture.png, maintype="image", subtype="png", disposition="inline",
                               filename=picture.filename)
            msg.get_payload()[1]["Content-Description"] = _one_line(picture.alt)
            msg.set_boundary(f"=_pbem_m_{mark}")
            msg.get_payload()[0].set_boundary(f"=_pbem_a_{mark}")
    return msg


def _html_encoding(markup: str) -> str:
    """The transfer encoding of the HTML part: 7 bits where it is ASCII in lines SMTP carries (a
    button's `mailto:` is one unbroken word, longer than the other lines), else quoted-printable."""
    fits = markup.isascii() and max((len(line) for line in markup.split("\n")), default=0) <= 998
    return "7bit" if fits else "quoted-printable"


def _seven_bit(text: str) -> str | None:
    """The transfer encoding of a text part: its own 7 bits, or quoted-printable when it is not ASCII
    (left to itself, the email package sends short lines as 8bit, which a relay without 8BITMIME
    refuses or mangles)."""
    return None if text.isascii() else "quoted-printable"
