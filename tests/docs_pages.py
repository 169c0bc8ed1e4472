"""What the docs tests read of the Markdown pages (README.md and docs/**/*.md): their fenced blocks with
the marker line before each, their links, and the anchors their headings make. The conventions are
written down in docs/contributing.md ("Examples in the docs")."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SHELL = ("sh", "console", "bash", "shell")
MARKER = re.compile(r"^<!--\s*(run|not run|pbem\.yaml)\b:?\s*(.*?)\s*-->$")
FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w.+-]*)")


def pages() -> list[Path]:
    """Every page a reader reads: the README and each Markdown file of docs/."""
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


@dataclass
class Block:
    page: Path
    line: int           # the line of its opening fence, from 1
    language: str
    text: str
    marker: str | None  # "run", "not run" or "pbem.yaml"; None where the line before has none
    argument: str       # what follows the marker: the reason not run, "exits 1"

    def where(self) -> str:
        return f"{name(self.page)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The fenced code blocks of a page, each with the marker comment on the line before it."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        indent, fence, language = opening.groups()
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(fence):
            j += 1
        before = lines[i - 1].strip() if i else ""
        marked = MARKER.match(before)
        body = [line[len(indent):] if line.startswith(indent) else line for line in lines[i + 1:j]]
        found.append(Block(page, i + 1, language.lower(), "\n".join(body) + "\n",
                           marked.group(1) if marked else None, marked.group(2) if marked else ""))
        i = j + 1
    return found


def prose(page: Path, code: bool = False) -> str:
    """The page without its fenced blocks and inline code (where a link is only an example); with
    `code`, its inline code kept."""
    text, keep, inside = page.read_text(encoding="utf-8").splitlines(), [], None
    for line in text:
        opening = FENCE.match(line)
        if opening and inside is None:
            inside = opening.group(2)
            keep.append("")
            continue
        if inside is not None:
            if line.strip().startswith(inside):
                inside = None
            keep.append("")
            continue
        keep.append(line if code else re.sub(r"`[^`]*`", "", line))
    return "\n".join(keep)


LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def links(page: Path) -> list[tuple[int, str]]:
    """Each link target of the page's prose, with its line."""
    found = []
    for number, line in enumerate(prose(page).splitlines(), start=1):
        found.extend((number, m.group(1)) for m in LINK.finditer(line))
    return found


def headings(page: Path) -> list[str]:
    """The headings' words, in order."""
    words = []
    for line in prose(page).splitlines():
        m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if m:
            words.append(re.sub(r"[*_]|\[([^\]]*)\]\([^)]*\)", r"\1", m.group(2)))
    return words


def mkdocs_anchor(words: str) -> str:
    """The id MkDocs (Python-Markdown's toc) gives a heading."""
    value = unicodedata.normalize("NFKD", words).encode("ascii", "ignore").decode("ascii")
    value = re.sub(r"[^\w\s-]", "", value).strip().lower()
    return re.sub(r"[-\s]+", "-", value)


def github_anchor(words: str) -> str:
    """The id GitHub gives a heading."""
    value = words.strip().lower()
    value = re.sub(r"[^\w\- ]", "", value)
    return value.replace(" ", "-")


def anchors(page: Path, github: bool) -> set[str]:
    """The anchors of a page's headings; a heading met again gets -1, -2... as both number them."""
    seen: dict[str, int] = {}
    found = set()
    for words in headings(page):
        base = (github_anchor if github else mkdocs_anchor)(words)
        count = seen.get(base, 0)
        found.add(base if count == 0 else f"{base}{'-' if github else '_'}{count}")
        seen[base] = count + 1
    return found
