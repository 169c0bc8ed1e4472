"""What the sender wrote himself: not the quote, the reply header or the signature; HTML as text;
typed characters as he meant them."""

from __future__ import annotations

import re

# The line a mail client writes above the mail it quotes (the attribution), in English, German and
# Dutch, as Gmail, Apple Mail, Outlook, Thunderbird, Yahoo, Proton, Fastmail and mutt write it.
ATTRIBUTION = re.compile(
    r"^(On\s.{0,250}\swrote|Am\s.{0,250}\sschrieb\s.{0,150}|Op\s.{0,250}\sschreef\s.{0,150}"
    r"|Op\s.{0,250}\sheeft\s.{0,150}\shet volgende geschreven)\s?:$",
    re.IGNORECASE)
# Shorter ones (`Anna wrote:`, `Anna schrieb am ...:`, mutt's `* Anna <anna@example.net> [date]:`) could
# be the sender's own words: they are attributions only above a quote.
LOOSE_ATTRIBUTION = re.compile(
    r"^(.{1,150}\s(wrote|schrieb|schreef|a écrit|escribió|ha scritto)(\s(on|am|op)\s.{0,100})?\s?"
    r"|.{0,150}[^\s<>@]+@[^\s<>@]+.{0,100}):$",
    re.IGNORECASE)

# Lines from which on the rest is the mail answered or forwarded, or the sender's signature.
SEPARATOR = re.compile(
    r"^(-{2,}\s?(Original Message|Ursprüngliche Nachricht|Oorspronkelijk bericht|Origineel bericht"
    r"|Forwarded message|Weitergeleitete Nachricht|Doorgestuurd bericht)\s?-{2,}"
    r"|Begin forwarded message:|Anfang der weitergeleiteten Nachricht:|Begin doorgestuurd bericht:"
    r"|_{20,})$",
    re.IGNORECASE)
# what phones and mail apps put under the text (not typed by the sender: safe to cut)
APP_SIGNATURE = re.compile(
    r"^(Sent (from|with|via) .{1,60}|Get Outlook for .{1,80}"
    r"|Von meinem .{1,60} gesendet\.?|Gesendet (von|mit|vom) .{1,60}"
    r"|Outlook für .{1,40} (herunterladen|beziehen).{0,60}"
    r"|(Verstuurd|Verzonden) (vanaf|vanuit|van|met) .{1,60}|Outlook voor .{1,40} (downloaden|ophalen).{0,60})$",
    re.IGNORECASE)
# the header block of a mail Outlook or a phone copies below a reply, unquoted
FROM_FIELD = re.compile(r"^\*?(From|Von|Van)\*?:\s?\*?\s*\S", re.IGNORECASE)
HEADER_FIELD = re.compile(
    r"^\*?(Sent|Date|To|Cc|Subject|Gesendet|Datum|An|Betreff|Verzonden|Aan|Onderwerp)\*?:", re.IGNORECASE)


def html_to_text(markup: str) -> str:
    """The text of an HTML mail body: blocks become lines, quoted replies are dropped."""
    from pbem.mail.html import html_to_text as convert

    return convert(markup)


def _seen(line: str) -> str:
    """A line as a pattern should see it: wide spaces as spaces, no invisible characters, no blanks
    around it."""
    return as_typed(line).strip()


def reply_header(lines: list[str], i: int, above_quote: bool = False) -> int:
    """How many lines (0, 1 or 2) the attribution at line `i` spans: Gmail wraps a long one in two.
    `above_quote`: the quote is known to follow, though not in `lines` (an HTML blockquote)."""
    line = _seen(lines[i])
    if not line or len(line) > 320:
        return 0
    if ATTRIBUTION.match(line) or LOOSE_ATTRIBUTION.match(line) and (above_quote or _quote_follows(lines, i + 1)):
        return 1
    if i + 1 < len(lines) and line.startswith(("On ", "Am ", "Op ")) and not ATTRIBUTION.match(_seen(lines[i + 1])):
        joined = f"{line} {_seen(lines[i + 1])}".replace("< ", "<")
        if len(joined) <= 320 and ATTRIBUTION.match(joined):
            return 2
    return 0


def _quote_follows(lines: list[str], i: int) -> bool:
    """Whether the lines from `i` on go on with a `>` quote, after blank lines."""
    while i < len(lines) and not _seen(lines[i]):
        i += 1
    return i < len(lines) and _seen(lines[i]).startswith(">")


def _ends_own_text(lines: list[str], i: int) -> bool:
    """Whether the sender's own text has ended before line `i`: a signature, a separator, a phone's
    line, or an Outlook header block."""
    line = _seen(lines[i])
    if line == "--" or SEPARATOR.match(line) or len(line) <= 120 and APP_SIGNATURE.match(line):
        return True
    if FROM_FIELD.match(line):
        following = next((_seen(rest) for rest in lines[i + 1:i + 4] if _seen(rest)), "")
        return "@" in line or bool(HEADER_FIELD.match(following))
    return False


def own_text(body: str, keep_places: bool = False) -> str:
    """What the sender wrote himself: no quoted lines, nothing from a signature, a forwarded mail or
    a reply header under his text on. A reply header at the top, over a `>` quote, is part of the
    quote: a bottom-posted or interleaved answer below it is his. `keep_places`: a quoted line leaves
    a blank line behind, so that every line he wrote keeps its number in the mail (an error names the
    line as he counts it)."""
    out: list[str] = []
    lines = body.replace("\r\n", "\n").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        header = reply_header(lines, i)
        if header:
            # above a quote and below nothing he wrote, it heads a bottom-posted or interleaved answer;
            # in a top-posted one whatever follows is the mail answered (a client may have broken its
            # long quoted lines into unquoted pieces)
            if not _quote_follows(lines, i + header) or any(s.strip() for s in out):
                break
            if keep_places:
                out.extend([""] * header)
            i += header
            continue
        if _ends_own_text(lines, i):
            break
        if _seen(line).startswith(">"):
            if keep_places:
                out.append("")
        else:
            out.append(line.rstrip())
        i += 1
    return "\n".join(out)


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
