"""A mail as it comes in: its sender, what it answers, its parts, and whether it is for pbem at all
(bounces, auto-replies, loops are not)."""

from __future__ import annotations

import email
import email.policy
import re
import unicodedata
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import getaddresses
from functools import cache
from typing import Any, Callable, TypeVar

from pbem import digests
from pbem.config import Config
from pbem.errors import TurnFileError
from pbem.mail import LOOP_HEADER, one_line
from pbem.mail.headers import Headers
from pbem.mail.ids import split_key
from pbem.refusals import refuse

ATTACHMENT_SUFFIXES = (".yaml", ".yml", ".txt")


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
    # what reading the mail found (its parts, its own lines, its game), kept for its whole handling:
    # a mail does not change once read, and each step of the intake asks again
    memo: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)


T = TypeVar("T")


def once(mail: Incoming, what: str, read: Callable[[], T]) -> T:
    """`read()` the first time `what` is asked of this mail, its answer kept from then on (an error is
    not kept: it is raised again by reading again)."""
    if what not in mail.memo:
        mail.memo[what] = read()
    return mail.memo[what]  # type: ignore[no-any-return]


ADDRESS = re.compile(r"^[^@\s<>]+@[^@\s<>]+$")
MAX_ID = 500  # characters of a Message-ID (mail clients write 40 to 120; one line of mail holds 998)
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
    name = one_line(addresses[0].display_name or "")
    folded = unicodedata.normalize("NFKC", name).lower()
    others = [a for a in ADDRESS_IN_TEXT.findall(folded) if a != address]
    if others:
        return address, "", f"the name in its From: header is another address ({one_line(others[0])[:80]!r})"
    return address, name, None


class _ParsedOnce(Headers):
    """The default policy's headers, each parsed once for its mail: the email package parses a header
    anew whenever it is asked for (every `get_content_type` of a part parses its Content-Type again),
    and the intake asks for the same ones many times. A header object is never changed once made."""

    def __init__(self) -> None:
        super().__init__()
        self._parsed: dict[tuple[str, str], Any] = {}

    def __call__(self, name: str, value: str) -> Any:
        key = (name, value)
        if key not in self._parsed:  # (a header that cannot be parsed raises, as it would each time)
            self._parsed[key] = super().__call__(name, value)
        return self._parsed[key]


def read_mail(raw: bytes) -> Incoming:
    # the default policy, but for a header registry of this mail's own (one per mail: none outlives it)
    msg = email.message_from_bytes(raw, policy=email.policy.default.clone(header_factory=_ParsedOnce()))
    address, name, doubt = sender_of(msg)
    found = re.search(r"<[^<>\s]+>", _header(msg, "Message-ID"))
    # a mail without a usable id is still read once: its content names it. pbem's own mail coming back
    # is known by its id without the reply key, which must reach neither mail/seen.log nor the console
    mid = split_key(found.group(0))[0] if found else f"<sha256.{digests.sha256(raw).hexdigest()[:32]}@pbem.invalid>"
    if len(mid) > MAX_ID:  # named by a hash of fixed size wherever it goes (the console, a queued entry's source)
        mid = f"<sha256.{digests.sha256(mid.encode('utf-8', 'surrogateescape')).hexdigest()[:32]}@pbem.invalid>"
    answered = re.findall(r"<[^<>\s]+>", _header(msg, "In-Reply-To"))
    refs = re.findall(r"<[^<>\s]+>", _header(msg, "References"))
    # what it answers: In-Reply-To first (the mail answered), then References from the latest back
    thread = list(dict.fromkeys(answered + refs[::-1]))
    return Incoming(mid, address, name, one_line(_header(msg, "Subject")), answered + refs,
                    msg, len(raw), doubt, thread)


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


def mail_parts(mail: Incoming) -> tuple[list[tuple[str, str]], str | None, str | None]:
    """`parts` of a mail's message, read once for the mail."""
    attachments, plain, markup = once(mail, "parts", lambda: parts(mail.message))
    return list(attachments), plain, markup


def parts(msg: EmailMessage) -> tuple[list[tuple[str, str]], str | None, str | None]:
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
                    raise TurnFileError(refuse("attachment-not-text", name=repr(filename))) from None
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


def texts_of(mail: Incoming) -> list[str]:
    """`mail_texts` of a mail's message, read once for the mail."""
    return list(once(mail, "texts", lambda: mail_texts(mail.message)))


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
        if ctype == "text/html" and not filename:
            from pbem.mail.html import html_to_text  # the HTML reader is loaded for an HTML mail alone

            text = html_to_text(text)
        out.append(text)
    return out


def recipients(msg: EmailMessage) -> list[str]:
    return [a for _, a in getaddresses([str(msg.get("To", ""))])]


def addressed_to(msg: EmailMessage) -> list[str]:
    """Every address a mail was sent or delivered to (To, Cc, Delivered-To, X-Original-To)."""
    values = [_header(msg, name) for name in ("To", "Cc", "Delivered-To", "X-Original-To")]
    try:
        return [a for _, a in getaddresses(values) if a][:50]
    except Exception:  # a header too broken to read names nobody
        return []
