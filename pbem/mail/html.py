"""HTML mail bodies as plain text, for finding the orders in them (imported only for an HTML mail)."""

from __future__ import annotations

import html.parser


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
    """The text of `markup`, one line per block, without its blockquotes."""
    parser = _Text()
    parser.feed(markup)
    parser.close()
    return "".join(parser.parts).replace("\xa0", " ")
