"""HTML mail bodies as plain text, for finding the orders in them (imported only for an HTML mail)."""

from __future__ import annotations

import html.parser
import re

from pbem.mail.own_text import reply_header

# Containers in which mail clients put the mail answered or forwarded, its attribution with it (Gmail,
# Thunderbird, Yahoo, Proton): dropped whole, as a blockquote is.
# A class with `quote` in its name is one too (`tutanota_quote`, `x_gmail_quote`, Yahoo's `ydp...yahoo_quoted`),
# and so is GMX's and web.de's `<div name="quote">`.
QUOTE_CLASSES = {"gmail_quote", "gmail_quote_container", "moz-cite-prefix", "moz-forward-container", "yahoo_quoted",
                 "protonmail_quote", "zmail_extra", "AppleOriginalContents"}
# Where Outlook begins the mail answered: its header block, with the mail after it as siblings, not inside
# (an id may carry a prefix, as `x_divRplyFwdMsg` in a forwarded copy).
QUOTE_STARTS = {"appendonsend", "divRplyFwdMsg", "mail-editor-reference-message-container", "OLK_SRC_BODY_SECTION",
                "ms-outlook-mobile-reference-message"}
# Where a client puts the sender's signature: read as the `-- ` line above it.
SIGNATURE_CLASSES = {"gmail_signature", "moz-signature", "ms-outlook-mobile-signature"}
RULE = "_" * 32  # an <hr>: Outlook's rule line above the header block of the mail answered
_WHITE = re.compile(r"[ \t\r\n\f]+")


class _Text(html.parser.HTMLParser):
    """HTML to plain text: blocks become lines, blockquotes (quoted replies) are dropped, and so is
    the attribution line right above one."""

    BLOCKS = {"p", "div", "br", "tr", "li", "pre", "h1", "h2", "h3", "h4", "table", "hr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.dropping: str | None = None  # the tag of the quote being dropped
        self.depth = 0  # how deep in it (tags of its name)
        self.skip = 0
        self.pre = 0
        self.ended = False  # the rest is the mail answered
        self.line_start = True

    @staticmethod
    def _drops(tag: str, attrs: dict[str, str | None]) -> bool:
        classes = (attrs.get("class") or "").split()
        return (tag == "blockquote" or bool(set(classes) & QUOTE_CLASSES) or (attrs.get("name") or "") == "quote"
                or any("quote" in c.casefold() and "unquote" not in c.casefold() for c in classes))

    @staticmethod
    def _ends(attrs: dict[str, str | None]) -> bool:
        found = attrs.get("id") or ""
        return any(found == start or found.endswith("_" + start) for start in QUOTE_STARTS) \
            or bool(set((attrs.get("class") or "").split()) & QUOTE_STARTS)

    @staticmethod
    def _signs(attrs: dict[str, str | None]) -> bool:
        return bool(set((attrs.get("class") or "").split()) & SIGNATURE_CLASSES) \
            or attrs.get("data-smartmail") == "gmail_signature" \
            or (attrs.get("id") or "") in ("Signature", "signature", *SIGNATURE_CLASSES)

    def _newline(self) -> None:
        if self.parts and not self.line_start:
            self.parts[-1] = self.parts[-1].rstrip(" ")
        self.parts.append("\n")
        self.line_start = True

    def _line(self, text: str) -> None:
        """A line of its own (a rule, a signature's `--`)."""
        self._newline()
        self.parts.append(text)
        self.line_start = False
        self._newline()

    def _drop_attribution(self) -> None:
        """Blank the attribution just above a quote ('On ... wrote:' in a <div> of its own, as
        Fastmail and others write it), so that an answer below the quote is still read."""
        lines = "".join(self.parts).split("\n")
        last = max((i for i, line in enumerate(lines) if line.strip()), default=None)
        if last is None:
            return
        for start in (last, last - 1, last - 2):
            if start >= 0 and reply_header(lines, start, above_quote=True) + start - 1 == last:
                lines[start:last + 1] = [""] * (last + 1 - start)
                self.parts = ["\n".join(lines)]
                return

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if self.ended:
            return
        if self.dropping:
            self.depth += tag == self.dropping
        elif self._ends(found):
            self.ended = True
        elif tag == "hr":
            self._line(RULE)
        elif self._signs(found):
            self._line("--")
        elif self._drops(tag, found):
            if tag == "blockquote":
                self._drop_attribution()
            self.dropping, self.depth = tag, 1
            self._newline()
        elif tag in ("style", "script", "head"):
            self.skip += 1
        else:
            self.pre += tag == "pre"
            if tag in self.BLOCKS:
                self._newline()

    def handle_endtag(self, tag: str) -> None:
        if self.ended:
            return
        if self.dropping:
            self.depth -= tag == self.dropping
            if not self.depth:
                self.dropping = None
                self._newline()
        elif tag in ("style", "script", "head"):
            self.skip = max(0, self.skip - 1)
        else:
            if tag == "pre":
                self.pre = max(0, self.pre - 1)
            if tag in self.BLOCKS:
                self._newline()

    def handle_data(self, data: str) -> None:
        if self.ended or self.dropping or self.skip:
            return
        if self.pre:
            text = data.replace("\r\n", "\n")
        else:  # as a browser shows it: a run of white space is one space, none at a line's start
            text = _WHITE.sub(" ", data)
            if self.line_start:
                text = text.lstrip(" ")
        if text:
            self.parts.append(text)
            self.line_start = text.endswith("\n")


def html_to_text(markup: str) -> str:
    """The text of `markup`, one line per block, without its blockquotes and other quoted mail."""
    parser = _Text()
    parser.feed(markup)
    parser.close()
    return "".join(parser.parts).replace("\xa0", " ")
