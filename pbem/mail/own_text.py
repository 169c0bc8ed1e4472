"""What the sender wrote himself: not the quote, the reply header or the signature; HTML as text;
typed characters as he meant them.

A reply is read as a sequence of kinds of lines: each line becomes one letter (`line_kinds`), and one
regular expression over the string of letters (`REPLY`) finds the player's part of it. The words of
each kind are data, one file a language in pbem/mail/replywords/."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any

# The kinds of line, one letter each
BLANK = "b"
TEXT = "t"  # the player's own words (or a line no kind claims)
QUOTE = "q"  # a line quoted with `>`
ATTRIBUTION = "a"  # "On ... wrote:" (one to three lines), or a shorter one right above a quote
HEADER = "h"  # a header block of the mail answered or forwarded (From:/Sent:/To:/Subject: ...)
SEPARATOR = "s"  # "-----Original Message-----", "Forwarded message", Outlook's rule line
SIGNATURE = "d"  # the `-- ` line above a signature
PHONE = "p"  # "Sent from my iPhone", "Get Outlook for Android", ...
BANNER = "x"  # a company's warning paragraph, a tracking glyph

# The player's part of a reply, over the string of letters (matched from the first line):
REPLY = re.compile(r"""
    [bpx]*                      # above his text: blank lines, a phone's line, a banner
    (?:
        (?:a[ab]*)?q[qbtx]*     # a quote first (with its attribution): a bottom-posted or interleaved
                                #   answer, read through the quotes, to whatever ends it
      | [tbxq]*                 # his text on top (a quote without attribution in it is passed over)
        (?P<below>a[ab]*q[qbx]*b[tbx]*(?=[dpsh]|$))?
                                # and below a top-posted quote, after a blank line, his lines that run
                                #   to the end or a signature ("Hi," above the quote, `draw` below it)
    )
    """, re.VERBOSE)
OWN_KINDS = {TEXT, BLANK}  # the letters of the reply that are his lines (and the blank lines between)


@dataclass(frozen=True)
class Words:
    """The words of every language (pbem/mail/replywords/*.yaml), compiled into patterns."""

    attribution: re.Pattern[str]  # a dated attribution, whole (one to three lines joined)
    loose: re.Pattern[str]  # a short one, an attribution only right above a quote
    starts: re.Pattern[str]  # how the first line of a wrapped attribution begins
    on: re.Pattern[str]  # a dated attribution's first word (`On`, `Am`, `Le`)
    date: re.Pattern[str]  # a date or a time in it
    ends: re.Pattern[str]  # how its last line ends
    header: re.Pattern[str]  # a header field, its name in group `name`
    from_field: re.Pattern[str]
    separator: re.Pattern[str]
    phone: re.Pattern[str]
    banner: re.Pattern[str]
    courtesy: re.Pattern[str]  # a greeting or a closing, perhaps with a name after it
    languages: tuple[str, ...]


def _alternatives(words: list[str]) -> str:
    """Words as one alternation, longest first, a space as any run of spaces or a hyphen."""
    spelt = sorted({w.strip() for w in words if w and w.strip()}, key=lambda w: (-len(w), w))
    return "|".join(r"[\s-]+".join(re.escape(part) for part in w.split()) for w in spelt)


def _device(template: str) -> str:
    """A phone line's template as a pattern: `{device}` is up to six words, without a comma or a sentence
    mark (but a link's `://`), so that the player's own sentence is never taken for it."""
    word = r"(?:[^\s,;!?:]|:(?=//))+"
    device = rf"{word}(?:\s+{word}){{0,5}}"
    return re.sub(r"\\ ", r"\\s+", re.escape(template).replace(re.escape("{device}"), device))


@cache
def reply_words() -> Words:
    """The words of each kind of line, merged over every language's file."""
    import yaml

    safe_loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    found: dict[str, list[str]] = {k: [] for k in ("opens", "wrote", "header", "from", "separator", "phone", "banner",
                                                         "courtesy")}
    languages = []
    folder = resources.files("pbem.mail") / "replywords"
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if not path.name.endswith(".yaml"):
            continue
        data: dict[str, Any] = yaml.load(path.read_text("utf-8"), Loader=safe_loader) or {}
        languages.append(path.name.removesuffix(".yaml"))
        for kind, words in found.items():
            given = data.get(kind) or []
            bad = [w for w in given if not isinstance(w, str)]
            if bad:  # YAML reads a bare On, No or Yes as true or false: such a word is written in quotes
                raise ValueError(f"{path.name}: {kind}: {bad[0]!r} is not text; write it in quotes")
            words += given
    wrote = rf"(?<![^\W\d_])(?:{_alternatives(found['wrote'])})(?![^\W\d_])"
    on = rf"(?:{_alternatives(found['opens'])})\s"
    date = r"(?:\d{1,4}[./:-]\s?\d{1,2}|\b(?:19|20)\d\d\b)"
    address = r"[^\s<>@()]+@[^\s<>@()]+"
    # a date first, perhaps after a weekday: 2014-10-17, 25.11.2026, 25/11/2026, 2026. nov. 25., 25 нояб. 2026
    starts_dated = (r"(?:[^\W\d_]{1,4}\.?,?\s+)?(?:\d{4}[-/]\d{1,2}[-/]\d{1,2}|\d{4}年|\d{1,2}\.\s?\d{1,2}\.\s?\d{2,4}"
                    r"|\d{1,2}/\d{1,2}/\d{2,4}|\d{4}\.\s|\d{1,2}\.?\s+[^\W\d_]{3,}\.?\s+\d{4})")
    return Words(
        attribution=re.compile(
            rf"^(?:{on}(?=.*{date}).{{0,300}}{wrote}(?:\s.{{0,150}})?"  # On ... wrote / Am ... schrieb X
            rf"|(?=.*{date})(?=.*{address}).{{0,300}}{wrote}.{{0,150}}"  # Anna <a@x> schrieb am ... Uhr
            rf"|{starts_dated}.{{0,150}}{address}.{{0,150}})"  # 2014-10-17 11:28 Anna <a@x>
            r"\s?[:：]?$", re.IGNORECASE),
        loose=re.compile(rf"^(?:.{{1,150}}{wrote}(?:\s.{{0,100}})?|.{{0,150}}{address}.{{0,100}})\s?[:：]?$",
                         re.IGNORECASE),
        starts=re.compile(rf"^(?:{on}|{starts_dated}|.{{0,150}}(?:[<@]|{wrote}))", re.IGNORECASE),
        on=re.compile(rf"^{on}", re.IGNORECASE),
        date=re.compile(date),
        ends=re.compile(rf"(?:[:：]|{wrote})$", re.IGNORECASE),
        header=re.compile(rf"^\*{{0,2}}(?P<name>{_alternatives(found['header'])})\*{{0,2}}\s?[:：]", re.IGNORECASE),
        from_field=re.compile(rf"^\*{{0,2}}(?:{_alternatives(found['from'])})\*{{0,2}}\s?[:：]\s?\*{{0,2}}\s*\S",
                              re.IGNORECASE),
        separator=re.compile(
            rf"^(?:-{{2,}}\s*(?:{_alternatives(found['separator'])})\s*(?:-{{2,}}.*|:?)"  # between dashes
            rf"|(?:{_alternatives(found['separator'])})\s*:?\s*-*"  # alone, or with a colon
            r"|_{20,}|-{20,})$", re.IGNORECASE),
        phone=re.compile(rf"^(?:{'|'.join(_device(t) for t in found['phone'])})\.?(?:\s*<[^<>\s]+>)?$",  # and its link
                         re.IGNORECASE),
        banner=re.compile(rf"^(?:{_alternatives(found['banner'])})", re.IGNORECASE),
        courtesy=re.compile(rf"^(?:{_alternatives(found['courtesy'])})(?:[\s,.!]+[\w.-]{{1,30}})?[\s,.!]*$",
                            re.IGNORECASE),
        languages=tuple(languages),
    )


def _seen(line: str) -> str:
    """A line as a pattern should see it: wide spaces as spaces, no invisible characters, no blanks
    around it."""
    return as_typed(line).strip()


def _bare(line: str) -> str:
    """A line without the bold marks (`*...*`) a client's text part puts around a header or a rule."""
    return line.strip("*").strip() if line.startswith("*") else line


# a tracking mark alone on a line (Gmail trackers' `ᐧ`, a bullet), or two or three signs that are no word
_GLYPH = re.compile(r"[\u1427\u2022\u00b7\u2219\u25cf\u25aa]{1,3}|[^\w\s>#:+\-_.,!?()\[\]'\"]{1,3}")
MAX_ATTRIBUTION = 400


def _joined(seen: list[str], i: int, k: int) -> str | None:
    """Lines i..i+k-1 as one (a wrapped attribution), or None where one is blank or quoted."""
    part = seen[i:i + k]
    if len(part) < k or any(not s or s.startswith(">") for s in part):
        return None
    text = part[0]
    for s in part[1:]:
        text += s if text.endswith("<") else " " + s
    return _bare(text.strip("-").strip()) if len(text) <= MAX_ATTRIBUTION else None


def _attribution_at(seen: list[str], i: int, above_quote: bool) -> int:
    """How many lines (0 to 3) an attribution at line `i` spans. A short one (`Anna wrote:`) counts only
    right above a quote (`above_quote`: known to follow, else looked for)."""
    words = reply_words()
    first = seen[i]
    if not first or first.startswith(">") or len(first) > MAX_ATTRIBUTION:
        return 0
    one = _joined(seen, i, 1) or ""
    if words.attribution.match(one):
        return 1
    dashed = re.fullmatch(r"-{2,}\s*(.+?)\s*-{2,}", first)  # `---- Anna wrote ----`
    if dashed and words.loose.match(dashed.group(1)) and not words.separator.match(first):
        return 1
    if words.starts.match(first):
        for k in (2, 3):
            text = _joined(seen, i, k)
            # (the lines below alone an attribution: line `i` is the player's own, as `bid 7`, unless it
            # begins as one or holds a date: `On Nov 21, 2014,` / `at 10:18,` / `Anna <anna@x> wrote:`)
            if text and words.attribution.match(text) and words.ends.search(text) \
                    and (words.on.match(first) or words.date.search(first)
                         or not words.attribution.match(_joined(seen, i + 1, k - 1) or "")):
                return k
    if len(one) <= 250 and words.loose.match(one) and (above_quote or _quote_follows(seen, i + 1)):
        return 1
    return 0


def _quote_follows(seen: list[str], i: int) -> bool:
    """Whether the lines from `i` on go on with a `>` quote, after blank lines."""
    while i < len(seen) and not seen[i]:
        i += 1
    return i < len(seen) and seen[i].startswith(">")


def reply_header(lines: list[str], i: int, above_quote: bool = False) -> int:
    """How many lines (0 to 3) the attribution at line `i` spans (Gmail wraps a long one).
    `above_quote`: the quote is known to follow, though not in `lines` (an HTML blockquote)."""
    return _attribution_at([_seen(line) for line in lines], i, above_quote)


def _header_block(seen: list[str], i: int) -> int:
    """How many lines the header block of an embedded mail at line `i` spans (0: none): two header
    fields or more (any first: `Date:`, `Gesendet:`, `**Von:**`, `De :`), a value wrapped onto the
    next line between them; or one `From:` line that names an address."""
    words = reply_words()
    found = words.header.match(_bare(seen[i]))
    if not found:
        return 0
    names = {found.group("name").casefold()}
    end, j, loose = i + 1, i + 1, 0
    while j < len(seen) and seen[j] and not seen[j].startswith(">"):
        field = words.header.match(_bare(seen[j]))
        if field:
            names.add(field.group("name").casefold())
            end, loose = j + 1, 0
        else:
            loose += 1
            if loose > 1:
                break
        j += 1
    if len(names) >= 2:
        return end - i
    if words.from_field.match(seen[i]) and "@" in seen[i]:
        return 1
    return 0


@lru_cache(maxsize=16)  # a mail's body is read several times in its handling (each time with other options)
def line_kinds(body: str) -> str:
    """One letter a line of `body` (split at `\\n`): what kind of line each is (see the letters above)."""
    words = reply_words()
    # (as_typed maps no character to or from `\n`: the whole body at once, as each of its lines)
    seen = [line.strip() for line in as_typed(body.replace("\r\n", "\n")).split("\n")]
    kinds = [BLANK if not s else QUOTE if s.startswith(">") else "" for s in seen]
    i = 0
    while i < len(seen):
        if kinds[i]:
            i += 1
            continue
        line, bare = seen[i], _bare(seen[i])
        span = 1
        if line in ("--", "-- ") or line == "—":
            kind = SIGNATURE
        elif words.separator.match(bare):
            kind = SEPARATOR
        elif len(line) <= 100 and words.phone.match(line):
            kind = PHONE
        elif words.banner.match(bare) or _GLYPH.fullmatch(line):
            kind = BANNER
            while i + span < len(seen) and seen[i + span] and not kinds[i + span] and not _GLYPH.fullmatch(line):
                span += 1  # the rest of its paragraph
        elif (span := _attribution_at(seen, i, False)):
            kind = ATTRIBUTION
        elif (span := _header_block(seen, i)):
            kind = HEADER
        else:
            kind, span = TEXT, 1
        for j in range(i, i + span):
            kinds[j] = kind
        i += span
    return "".join(kinds)


def own_text(body: str, keep_places: bool = False, below_quote: bool = True) -> str:
    """What the sender wrote himself: no quoted lines, nothing from a signature, a forwarded mail or
    a reply header under his text on (see `REPLY`). `keep_places`: a line not his leaves a blank
    line behind, so that every line he wrote keeps its number in the mail (an error names the line as
    he counts it). `below_quote`: with his lines under a top-posted quote (else his text ends at the
    attribution)."""
    lines = body.replace("\r\n", "\n").split("\n")
    kinds = line_kinds(body)
    found = REPLY.match(kinds)
    assert found is not None  # (it matches the empty string)
    end = found.end() if below_quote or found.group("below") is None else found.start("below")
    out: list[str] = []
    for line, kind in zip(lines[:end], kinds[:end]):
        if kind in OWN_KINDS:
            out.append(line.rstrip())
        elif keep_places:
            out.append("")
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
