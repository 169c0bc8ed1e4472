"""What the sender wrote himself: not the quote, the reply header or the signature; HTML as text;
typed characters as he meant them."""

from __future__ import annotations

import re

REPLY_HEADER = re.compile(
    r"^\s*(On .{0,200} wrote:|Am .{0,200} schrieb .{0,100}:|Op .{0,200} schreef .{0,100}:|"
    r"-{2,} ?Original Message ?-{2,}|-{2,} ?Ursprüngliche Nachricht ?-{2,}|From: .{0,200}|Von: .{0,200})\s*$",
    re.IGNORECASE)


def html_to_text(markup: str) -> str:
    """The text of an HTML mail body: blocks become lines, quoted replies are dropped."""
    from pbem.mail.html import html_to_text as convert

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
