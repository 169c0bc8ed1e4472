"""pbem's word catalogs made anew from the code: `python -m pbem.catalogs [--game GAME]...` (`make
catalogs [GAME=x]`). Each domain's words are extracted (pbem's own: its Python and templates/common
and templates/archive; each game of the registry: its templates, its rules' modules and the
`message`s of its schemas), and a
catalog is written only where its entries change. A game that lives outside pbem/ (`PBEM_RULESETS`)
is covered too while it is registered: its words come from its own folder and its catalogs are
written into its own `locale/` (`pbem.rules.base.files_of`); pbem's domain takes no word of it, so
pbem's catalogs do not hang on which games a GM registers."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pbem.errors import SetupError
from pbem.i18n import COMMON_DOMAIN, LOCALE_DIR
from pbem.rules.base import KNOWN, OWN, files_of, get_ruleset, schema_messages

CATALOG_LANGUAGES = ("de", "nl")
CATALOG_WIDTH = 100
# `common_()`: a word of pbem's domain said in a game's template (the report skeleton's words)
COMMON_KEYWORDS = {"common_": None}


def _repository() -> Path:
    """The folder holding pbem/ and templates/ (an editable install: the checkout)."""
    from pbem import data_dir

    return data_dir("pbem.templates").parent


def _rules_files(game: str, root: Path) -> list[Path]:
    """A game's rules' Python: its package (pbem/rules/medina/), or its module with the modules named
    after it (medici.py, medici_bot.py...), less those of a game whose module's name is longer
    (medici_strozzi*.py belong to medici-strozzi); a game outside pbem/: every module of its folder."""
    if game not in OWN:
        import sys

        folder = type(get_ruleset(game)).files
        if folder is None:  # its files in pbem's folders: its words in its module alone
            return [Path(sys.modules[type(get_ruleset(game)).__module__].__file__ or "")]
        return sorted(Path(folder).rglob("*.py"))
    rules = root / "pbem" / "rules"
    module = KNOWN[game].rsplit(".", 1)[1]
    if (rules / module).is_dir():
        return sorted((rules / module).rglob("*.py"))
    others = [KNOWN[g].rsplit(".", 1)[1] for g in OWN if g != game]

    def owner(stem: str) -> str:
        return max((m for m in [module, *others] if stem == m or stem.startswith(m + "_")), key=len, default="")

    return [p for p in sorted(rules.glob("*.py")) if owner(p.stem) == module]


def _sources(domain: str, root: Path) -> list[tuple[Path, dict[str, Any]]]:
    """The files a domain's words are extracted from, each with the keywords that mark them: pbem's
    domain is pbem's Python (not the rules') with templates/common and templates/archive, and the
    `common_()` words of every game's templates; a game's domain is templates/GAME and its rules."""
    from babel.messages.extract import DEFAULT_KEYWORDS

    every = dict(DEFAULT_KEYWORDS)
    if domain != COMMON_DOMAIN:
        templates = _folder(domain, "templates") or root / "templates" / domain
        return [(p, every) for p in sorted(templates.rglob("*.j2"))] + \
            [(p, every) for p in _rules_files(domain, root)]
    own = dict(every, **COMMON_KEYWORDS)
    code = [p for p in sorted((root / "pbem").rglob("*.py"))
            if not {"rules", "locale"} & set(p.relative_to(root / "pbem").parts[:-1])]
    shared = [p for folder in ("common", "archive") for p in sorted((root / "templates" / folder).rglob("*.j2"))]
    games = [p for game in sorted(OWN) for p in sorted((root / "templates" / game).rglob("*.j2"))]
    return [(p, own) for p in code + shared] + [(p, COMMON_KEYWORDS) for p in games]


def _folder(game: str, kind: str) -> Path | None:
    """Where a registered game outside pbem/ keeps its files of `kind`; None for pbem's own."""
    if game in OWN or game not in KNOWN:
        return None
    get_ruleset(game)  # (it says where its files are as it registers)
    return files_of(game, kind)


def extract_domain(domain: str, root: Path | None = None) -> Any:
    """A domain's messages as a catalog template (.pot), in the order they are first met, without
    their places in the code (they would move with every edit and rewrite every catalog)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract
    from jinja2.ext import babel_extract

    root = root or _repository()
    template = Catalog(domain=domain, project="pbem", version="0.1.0", charset="utf-8", fuzzy=True)
    for path, keywords in _sources(domain, root):
        method = babel_extract if path.suffix == ".j2" else "python"
        options = {"extensions": "jinja2.ext.i18n"} if path.suffix == ".j2" else {}
        with path.open("rb") as f:
            for _line, message, comments, context in extract(method, f, keywords=keywords, options=options):
                template.add(message, None, auto_comments=comments, context=context)
    if domain != COMMON_DOMAIN:  # what its schemas say of an order of no shape they know, from the schemas
        for message in schema_messages(domain):
            template.add(message, None, flags=["python-format"] if "%(" in message else ())
    return template


_DATES = re.compile(rb'^"(POT-Creation-Date|PO-Revision-Date): [^"]*"$', re.MULTILINE)


def _write_if_changed(path: Path, catalog: Any) -> bool:
    """`catalog` written to `path` unless the file holds it already (its dates aside): a catalog
    whose entries did not change is not rewritten. True: written."""
    from io import BytesIO

    from babel.messages.pofile import write_po

    out = BytesIO()
    write_po(out, catalog, width=CATALOG_WIDTH, no_location=True, ignore_obsolete=True)
    new = out.getvalue()
    if path.is_file() and _DATES.sub(b"", path.read_bytes()) == _DATES.sub(b"", new):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(new)
    return True


def _same_messages(a: Any, b: Any) -> bool:
    """Two catalogs with the same entries, word for word (their headers aside)."""
    def entries(catalog: Any) -> list[tuple[Any, ...]]:
        return [(m.id, m.string, m.context, sorted(m.flags), m.auto_comments, m.user_comments)
                for m in catalog if m.id]
    return entries(a) == entries(b)


def update_catalogs(locale: Path = LOCALE_DIR, games: list[str] | None = None, root: Path | None = None,
                    languages: tuple[str, ...] = CATALOG_LANGUAGES) -> list[Path]:
    """Extract the words of pbem's domain and every game's (`games`: those games' alone) into
    `locale`/DOMAIN.pot (a game outside pbem/: its own `locale/`), and bring each language's catalog
    up to date with it (made where missing):
    new words come in untranslated, words no longer used go. A file whose entries stay the same is
    left as it is. Returns the files written."""
    from babel.messages.pofile import read_po

    for game in games or ():
        if game not in KNOWN:
            raise SetupError(f"unknown game {game!r} (known: {', '.join(sorted(KNOWN))})")
    domains = list(games) if games else [COMMON_DOMAIN, *sorted(KNOWN)]
    written: list[Path] = []
    for domain in domains:
        template = extract_domain(domain, root)
        folder = _folder(domain, "locale") or locale
        pot = folder / f"{domain}.pot"
        if pot.is_file():
            with pot.open("rb") as f:
                old = read_po(f, domain=domain)
            if _same_messages(old, template):
                template.creation_date = old.creation_date
        if _write_if_changed(pot, template):
            written.append(pot)
        for lang in languages:
            po = folder / lang / "LC_MESSAGES" / f"{domain}.po"
            if po.is_file():
                with po.open("rb") as f:
                    catalog = read_po(f, locale=lang, domain=domain)
                with po.open("rb") as f:
                    before = read_po(f, locale=lang, domain=domain)
                catalog.update(template, update_creation_date=False)
                if not _same_messages(before, catalog):
                    catalog.creation_date = template.creation_date
            else:
                with pot.open("rb") as f:
                    catalog = read_po(f, locale=lang, domain=domain)
                catalog.locale = lang
                catalog.fuzzy = False
            catalog.obsolete.clear()
            if _write_if_changed(po, catalog):
                written.append(po)
    return written


def main(argv: list[str] | None = None) -> int:
    """`python -m pbem.catalogs catalogs [--game GAME]...`: the catalogs made anew from the code."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m pbem.catalogs", description="pbem's word catalogs")
    commands = parser.add_subparsers(dest="command", required=True)
    cat = commands.add_parser("catalogs", help="extract every domain's words and update its catalogs")
    cat.add_argument("--game", action="append", help="only this game's domain (may be repeated)")
    cat.add_argument("--locale", type=Path, default=LOCALE_DIR, help="the folder of pbem's own catalogs (a game outside pbem/ keeps its own)")
    args = parser.parse_args(argv)
    try:
        written = update_catalogs(args.locale, args.game)
    except SetupError as e:
        print(f"error: {e}", file=__import__("sys").stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    if not written:
        print("every catalog is up to date")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
