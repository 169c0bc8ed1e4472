"""How many replies of the corpus (tests/fixtures/replies) each way of finding a player's own text gets
exactly right: pbem's own patterns (as in the work tree, and as in an older commit given with
--baseline), and the PyPI package mail-parser-reply when it is installed. Not a test: a measurement,
written into docs/OWN-TEXT.md.

    .venv/bin/python tests/measure_own_text.py [--baseline REV] [--show NAME]
"""

from __future__ import annotations

import argparse
import email
import email.policy
import importlib.util
import json
import re
import subprocess
import sys
import types
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.mail.incoming import parts  # noqa: E402
from pbem.mail.own_text import as_typed  # noqa: E402

CORPUS = ROOT / "tests" / "fixtures" / "replies"
EXPECTED = "X-Expected-Own-Text"

Reader = Callable[[str | None, str | None], str]  # (plain part, HTML part) -> own text


def load(path: Path) -> tuple[str | None, str | None, str]:
    """A fixture's plain part, HTML part and expected own text."""
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    _, plain, markup = parts(msg)  # type: ignore[arg-type]
    return plain, markup, json.loads(str(msg[EXPECTED]))


def lines(text: str) -> list[str]:
    """The lines that count: as typed, without blanks around them, no blank lines."""
    return [s for s in (as_typed(line).strip() for line in text.replace("\r\n", "\n").split("\n")) if s]


def _module(name: str, source: str) -> types.ModuleType:
    module = types.ModuleType(name)
    exec(compile(source, name, "exec"), module.__dict__)
    return module


def pbem_reader(rev: str | None) -> Reader:
    """pbem's own_text and HTML converter, from the work tree or from commit `rev`."""
    if rev is None:
        from pbem.mail.html import html_to_text
        from pbem.mail.own_text import own_text
    else:
        def show(path: str) -> str:
            return subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, check=True, capture_output=True,
                                  text=True).stdout
        html_to_text = _module("old_html", show("pbem/mail/html.py")).html_to_text
        own_text = _module("old_own_text", show("pbem/mail/own_text.py")).own_text

    def read(plain: str | None, markup: str | None) -> str:
        return own_text(plain if plain is not None else html_to_text(markup or ""))
    return read


def package_readers() -> dict[str, Reader]:
    """mail-parser-reply (text only: an HTML mail goes through pbem's converter first), as it comes
    and with its `>` quotes dropped afterwards, which it leaves in."""
    if importlib.util.find_spec("mailparser_reply") is None:
        return {}
    from mailparser_reply import EmailReplyParser

    from pbem.mail.html import html_to_text
    parser = EmailReplyParser(languages=["en", "de", "nl"])

    def text(plain: str | None, markup: str | None) -> str:
        return plain if plain is not None else html_to_text(markup or "")

    def latest(plain: str | None, markup: str | None) -> str:
        return parser.parse_reply(text(plain, markup)) or ""

    def body(plain: str | None, markup: str | None) -> str:
        message = parser.read(text(plain, markup))
        return message.replies[0].body if message.replies else ""

    def unquoted(reader: Reader) -> Reader:
        return lambda plain, markup: "\n".join(line for line in reader(plain, markup).split("\n")
                                               if not re.match(r"\s*>", line))
    return {"package latest_reply": latest, "package body": body,
            "package latest_reply, > dropped": unquoted(latest), "package body, > dropped": unquoted(body)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", help="a commit whose own_text.py and html.py to measure as well")
    ap.add_argument("--show", help="print what each reader finds in this fixture")
    args = ap.parse_args()
    readers: dict[str, Reader] = {}
    if args.baseline:
        readers[f"pbem at {args.baseline}"] = pbem_reader(args.baseline)
    readers["pbem (work tree)"] = pbem_reader(None)
    readers.update(package_readers())
    cases = sorted(CORPUS.glob("*.eml"))
    if args.show:
        plain, markup, expected = load(CORPUS / f"{args.show}.eml")
        print(f"expected: {lines(expected)}")
        for name, read in readers.items():
            print(f"{name}: {lines(read(plain, markup))}")
        return
    print(f"corpus: {len(cases)} replies")
    for name, read in readers.items():
        wrong = []
        for path in cases:
            plain, markup, expected = load(path)
            try:
                ok = lines(read(plain, markup)) == lines(expected)
            except Exception:  # a reader that breaks on a mail reads it wrong
                ok = False
            if not ok:
                wrong.append(path.stem)
        print(f"\n{name}: {len(cases) - len(wrong)}/{len(cases)} right")
        for stem in wrong:
            print(f"  wrong: {stem}")


if __name__ == "__main__":
    main()
