"""MkDocs' hook for the docs site: the table of pbem's exit codes, made from pbem.hostfail.EXIT_CODES
(the table `pbem advance --help` prints), in place of the line `<!-- exit codes: made from
pbem.hostfail.EXIT_CODES -->` of docs/reference/commands.md. tests/test_docs_reference.py imports it
to check the page and the code agree."""

from __future__ import annotations

from typing import Any

MARKER = "<!-- exit codes: made from pbem.hostfail.EXIT_CODES -->"


def render() -> str:
    """The exit codes as a Markdown table: code, cause, what it means."""
    from pbem.hostfail import EXIT_CODES

    rows = [f"| {kind.code} | `{kind.name}` | {kind.meaning} |" for kind in EXIT_CODES]
    return "\n".join(["| code | cause | what it means |", "|---|---|---|", *rows])


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """MkDocs' hook: the table in place of the marker line."""
    return markdown.replace(MARKER, render()) if MARKER in markdown else markdown
