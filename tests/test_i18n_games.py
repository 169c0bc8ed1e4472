"""Every game in German and Dutch: whole bot games render every report (each player's and the GM's,
with the events he has not read) and the rules in short in both languages, with no English word of the
game's glossary left (its room's ENGLISH) and every line within 72 columns; the catalogs are complete
(every word the templates mark, none untranslated or fuzzy, the placeholders kept); the translations use
the glossaries' words (docs/glossary/); the order words cover every word the game's schemas take, no word
stands for two orders in any language, and the rules in short quote the orders in the words reports show.

A game's data for these checks is in its room (tests/rooms/): WHOLE_GAMES, ENGLISH, REASONS,
BOARD_GLOSSARY, GLOSSARY_SPOTS; a game without one skips the check that needs it, saying so.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import re
from pathlib import Path
from typing import Any, Iterator

import jinja2
import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.pofile import read_po

import helpers
from helpers import has_word
import pbem.report as report
from pbem.game import new_game, show
from pbem import i18n
from pbem.i18n import install, translator
from pbem.rules.base import files_of, schema_files
from pbem.store import GamesDir
from rooms import GAMES, each, need, room

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "pbem" / "locale"
LANGS = ("de", "nl")
WIDTH = 72

# -- rendering in a language ----------------------------------------------------------------------------

def fresh_env(lang: str, game: str) -> jinja2.Environment:
    """A copy of the report environment, its own, with the words of `lang` for `game`."""
    base = report.env()
    e = jinja2.Environment(loader=base.loader, autoescape=False, keep_trailing_newline=True,
                           undefined=jinja2.StrictUndefined, extensions=["jinja2.ext.i18n"])
    e.filters.update(base.filters)
    e.globals.update({k: v for k, v in base.globals.items()  # (English: the words as written, pbem's own)
                      if not lang or k not in ("_", "gettext", "ngettext", "pgettext", "npgettext")})
    install(e, lang, game)
    e.globals["common_"] = i18n.common_words(lang)  # the words every game says, in pbem's catalog
    return e


@contextlib.contextmanager
def templates_in(e: jinja2.Environment) -> Iterator[None]:
    saved = {name: getattr(report, name) for name in ("env", "env_for") if hasattr(report, name)}
    report.env = lambda: e  # type: ignore[assignment]
    if "env_for" in saved:
        report.env_for = lambda *args, **kwargs: e  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(report, name, value)


def render(state: dict[str, Any], player: str | None, events: list[Any], lang: str) -> str:
    """A report in `lang`: through the rendering API where it takes a language, else through a fresh
    environment with the language's words installed."""
    if "lang" in inspect.signature(report.render_report).parameters:
        return report.render_report(state, player, events, lang=lang)  # type: ignore[call-arg]
    with templates_in(fresh_env(lang, state["ruleset"])):
        return report.render_report(state, player, events)


def rules_text(state: dict[str, Any], player: str, lang: str) -> str:
    view = show(state, player)["view"]
    return fresh_env(lang, state["ruleset"]).get_template(f"{state['ruleset']}/rules.txt.j2").render(view=view)


def english_left(text: str, game: str) -> list[str]:
    """The glossary's English words in `text`, leaving out what is not the game's to say: the order
    block (pbem's own keys), the standing-orders paragraph (the common catalog's) and quoted orders."""
    text = re.sub(re.escape(report.BEGIN) + r".*?" + re.escape(report.END), "", text, flags=re.DOTALL)
    text = "\n\n".join(p for p in text.split("\n\n") if "standing: []" not in p)
    text = re.sub(r"'[^'\n]*'", "", text)
    return [w for w in need(game, "ENGLISH") if has_word(text, w)]


def too_wide(text: str, what: str) -> list[str]:
    return [f"{what}: {len(line)} columns: {line!r}" for line in text.split("\n") if len(line) > WIDTH]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game,names,options,seed,game_id", each("WHOLE_GAMES"))
def test_every_report_is_in_the_language_and_fits(tmp_path: Path, game: str, names: tuple[str, ...],
                                                   options: dict[str, str], seed: str, game_id: str, lang: str) -> None:
    gd = GamesDir(tmp_path / "games")
    state, _ = new_game(gd, game, game_id, [(p, f"p{i}@example.org") for i, p in enumerate(names)], options, seed)
    bad: list[str] = []
    for p in names[:2]:
        text = rules_text(state, p, lang)
        bad += too_wide(text, f"the rules for {p}")
        bad += [f"the rules: English {w!r}" for w in english_left(text, game)]
    read: dict[str | None, int] = {p: 0 for p in [*names, None]}
    rendered = 0
    while True:
        for p in [*names, None]:
            unseen = report.visible(state["events"][read[p]:], p)
            if p is not None and not unseen and rendered:
                continue
            text = render(state, p, unseen, lang)
            rendered += 1
            what = f"turn {state['engine']['turn']}, {p or 'the GM'}"
            bad += too_wide(text, what)
            bad += [f"{what}: English {w!r}" for w in english_left(text, game)]
            read[p] = len(state["events"])
        if state["status"] != "active" or len(bad) > 20:
            break
        state = helpers.bot_move(state)
    assert not bad, "\n".join(bad[:20])
    assert rendered > 20 * len(names)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_the_engines_reasons_are_in_the_language(lang: str, game: str) -> None:
    event = fresh_env(lang, game).get_template(f"{game}/events.j2").module.event
    english = report.env().get_template(f"{game}/events.j2").module.event
    for e in need(game, "REASONS"):
        text = str(event(e))
        assert not english_left(text, game), (text, english_left(text, game))
        assert text != str(english(e))
        assert "(anna, ben)" in text or "anna, ben" not in str(english(e))


@pytest.mark.parametrize("game", GAMES)
def test_the_english_reports_are_as_written(tmp_path: Path, game: str) -> None:
    """English is the text as written: the language's own environment renders what `env()` renders."""
    gd = GamesDir(tmp_path / "games")
    names = room(game).PLAYERS
    state, _ = new_game(gd, game, "g1", [(p, f"{p}@example.org") for p in names], {}, "i18n-en")
    for _ in range(30):
        if state["status"] != "active":
            break
        state = helpers.bot_move(state)
    for p in [*names, None]:
        assert render(state, p, state["events"], "en") == report.render_report(state, p, state["events"])


# -- the boards ------------------------------------------------------------------------------------------------

def picture_env(lang: str | None, game: str) -> jinja2.Environment:
    """The pictures' environment, with the words of `lang` for `game` (None: English, as pbem.pictures makes it)."""
    import pbem.pictures as pictures

    base = pictures.env()
    e = jinja2.Environment(loader=base.loader, autoescape=True, keep_trailing_newline=True,
                           undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                           extensions=["jinja2.ext.i18n"] if lang else [])
    e.globals.update({k: v for k, v in base.globals.items()  # (English: the words as written, pbem's own)
                      if not lang or k not in ("_", "gettext", "ngettext", "pgettext", "npgettext")})
    if lang:
        install(e, lang, game)
        e.globals["common_"] = i18n.common_words(lang)  # the words every game says, in pbem's catalog
    return e


def board_words(state: dict[str, Any], e: jinja2.Environment) -> str:
    """The words of both boards (the wide one and the phone's) of `state`, drawn in `e`."""
    import pbem.pictures as pictures
    from pbem.mail.phone import phone_board_svg

    saved = pictures.env
    pictures.env = lambda: e  # type: ignore[assignment]
    try:
        svgs = [pictures.board_svg(state, state["players"][0]["name"]), phone_board_svg(state, None)]
    finally:
        pictures.env = saved  # type: ignore[assignment]
    return "\n".join(re.sub(r"<title>.*?</title>", "", svg) for svg in svgs)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_the_boards_words_are_in_the_language(tmp_path: Path, lang: str, game: str) -> None:
    """Where the pictures' environment has a language, the boards' own words are in it; where it has
    none, the boards are drawn as written."""
    names, board_english, shown = need(game, "BOARD_GLOSSARY")
    state, _ = new_game(GamesDir(tmp_path / "games"), game, "g1", [(p, f"{p}@example.org") for p in names], {},
                        "i18n-boards")
    for _step in range(12):
        state = helpers.bot_move(state)
    texts = " ".join(re.findall(r">([^<>]+)<", board_words(state, picture_env(lang, game))))
    left = [w for w in board_english if has_word(texts, w)]
    assert not left
    english = " ".join(re.findall(r">([^<>]+)<", board_words(state, picture_env(None, game))))
    assert all(has_word(english, w) for w in shown)


# -- the catalogs -------------------------------------------------------------------------------------------

def templates_of(game: str) -> Path:
    """The folder of the game's templates (pbem's, or its own beside its rules)."""
    return files_of(game, "templates") or ROOT / "templates" / game


def locale_of(game: str) -> Path:
    """The folder of the game's catalogs (pbem's, or its own beside its rules)."""
    return files_of(game, "locale") or LOCALE


KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "npgettext": ((1, "c"), 2, 3)}


def marked(game: str) -> set[tuple[str | None, Any]]:
    """Every message the game's templates mark, the words its rules' Python marks (`_()`, `N_()`: a
    view that writes a board as text, as `make catalogs` reads its room's SOURCES), and its rules' refusals, as the
    catalogs key them: (context, id)."""
    out: set[tuple[str | None, Any]] = set()
    for path in sorted(templates_of(game).rglob("*.j2")):
        for _line, message, _comments, context in extract_from_file(
                "jinja2", str(path), keywords=KEYWORDS, options={"extensions": "jinja2.ext.i18n"}):
            out.add((context, message))
    for source in need(game, "SOURCES"):
        path = ROOT / source
        for py in sorted(path.rglob("*.py")) if path.is_dir() else [path] if path.suffix == ".py" else []:
            for _line, message, _comments, context in extract_from_file("python", str(py),
                                                                         keywords={**DEFAULT_KEYWORDS, "N_": None}):
                out.add((context, message))
    # and the rules' refusals (pbem/rules/*refusals.py), their schemas' messages, their options in words
    return out | {(None, words) for words in report.engine_catalog_words(game)}


def catalog(lang: str, game: str) -> Any:
    with (locale_of(game) / lang / "LC_MESSAGES" / f"{game}.po").open("rb") as f:
        return read_po(f, locale=lang, domain=game)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_the_catalogs_are_complete(lang: str, game: str) -> None:
    cat = catalog(lang, game)
    messages = [m for m in cat if m.id]
    assert {(m.context, m.id) for m in messages} == marked(game), "the catalog and the marked words differ"
    with (locale_of(game) / f"{game}.pot").open("rb") as f:
        assert {(m.context, m.id) for m in read_po(f) if m.id} == marked(game), "the .pot is not the marked words"
    untranslated = [m.id for m in messages if not (all(m.string) if isinstance(m.string, tuple) else m.string)]
    assert not untranslated
    assert not [m.id for m in messages if m.fuzzy]
    assert not cat.obsolete
    assert not [(m.id, errors) for m, errors in cat.check()], "placeholders differ"


# -- the glossaries --------------------------------------------------------------------------------------------

def goods_rows(game: str) -> list[tuple[str, str, str]]:
    """The goods table of a game's glossary: (card id, German, Dutch); the test skips a game whose
    glossary has no section of goods."""
    glossary = ROOT / "docs" / "glossary" / f"{game}.md"
    sections = re.split(r"\n## [^\n]*goods\n", glossary.read_text("utf-8")) if glossary.is_file() else []
    if len(sections) < 2:
        pytest.skip(f"{glossary.relative_to(ROOT)} " + ("has no section of goods" if sections else "is not written"))
    section = sections[1].split("\n## ")[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) >= 3 and re.match(r"[a-z]+(-\d+)?\b", cells[0]) and not cells[0].startswith("---"):
            rows.append((cells[0].split()[0], cells[1], cells[2]))
    return rows


@pytest.mark.parametrize("game", GAMES)
def test_the_goods_are_named_as_the_glossary_names_them(game: str) -> None:
    rows = goods_rows(game)
    assert len(rows) >= 5
    for card, de, nl in rows:
        good = card.split("-")[0]
        value = card[len(good):]
        assert translator("de", game).gettext(good) + value == de, card
        assert translator("nl", game).gettext(good) + value == nl, card


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_the_translations_use_the_glossary_words(lang: str, game: str) -> None:
    _ = translator(lang, game).gettext
    for message, words in need(game, "GLOSSARY_SPOTS"):
        text = _(message)
        assert text != message, message
        for w in words[lang]:
            assert w in text, (message, w, text)


# -- the order words ----------------------------------------------------------------------------------------

def order_words(game: str) -> dict[str, dict[str, list[str]]]:
    """The game's order words as pbem reads them (pbem's shared ones where its table names one)."""
    return i18n.order_words(game)


def schemas_listing_words(game: str) -> list[Any]:
    """The game's order and standing schemas, where they list the words they take; a game whose orders
    are a line of a pattern (`palace COLOUR SQUARE`) skips: tests/test_i18n_mid_game.py reads its words."""
    schemas = [json.loads(path.read_text("utf-8")) for path in schema_files(game)]
    if any("pattern" in schema for schema in schemas):
        pytest.skip(f"{game}'s orders are lines of a pattern, not words its schemas list")
    return schemas


def schema_words(game: str) -> set[str]:
    """Every word a game's order and standing schemas take: string orders, keys, constant values."""
    out: set[str] = set()
    schemas = schemas_listing_words(game)

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            out.update(node.get("enum", []))
            if isinstance(node.get("const"), str):
                out.add(node["const"])
            out.update(node.get("properties", {}))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schemas)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_the_order_words_cover_the_schemas_and_never_clash(game: str) -> None:
    words = order_words(game)
    assert set(words) == schema_words(game)
    meaning: dict[str, str] = {w: w for w in words}  # English: each canonical word stands for itself
    for canonical, langs in words.items():
        assert set(langs) == set(LANGS), canonical
        for lang, spelt in langs.items():
            assert spelt and all(isinstance(s, str) and s == s.strip() and s for s in spelt), (canonical, lang)
            for s in spelt:
                key = s.casefold()
                assert meaning.setdefault(key, canonical) == canonical, f"{s!r} stands for {meaning[key]} and {canonical}"


def quoted(text: str | tuple[str, ...]) -> list[str]:
    text = text[0] if isinstance(text, tuple) else text  # a counted message: its first form
    return [" ".join(q.split()) for q in re.findall(r'"([^"]+)"', text)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_the_rules_quote_the_orders_as_reports_show_them(lang: str, game: str) -> None:
    """Each order quoted in the rules in short is, in a language, its words' first, and pbem's own keys
    (`turn: next`, `standing:`, `reports: all`) are the language's (`zug: nächster`, `vast:`...)."""
    from pbem.turnfile import KEY_WORDS, VALUE_WORDS

    schemas_listing_words(game)  # (a pattern's placeholders, COLOUR SQUARE, are words of each language)
    first = {canonical: langs[lang][0] for canonical, langs in order_words(game).items()}
    keys = {"de": {"turn: next": "zug: nächster", "standing:": "dauer:", "reports: all": "berichte: alle"},
            "nl": {"turn: next": "beurt: volgende", "standing:": "vast:", "reports: all": "verslagen: alle"}}[lang]
    assert all(KEY_WORDS[k.split(":")[0]] == e.split(":")[0] for e, k in keys.items())  # words pbem reads
    assert VALUE_WORDS["turn"][keys["turn: next"].split(": ")[1]] == "next"
    cat = catalog(lang, game)
    in_rules = {message for _line, message, _comments, _context in extract_from_file(
        "jinja2", str(templates_of(game) / "rules.txt.j2"), options={"extensions": "jinja2.ext.i18n"})}
    rules = [m for m in cat if m.id and m.id in in_rules and quoted(m.id)]  # (a paragraph may quote no order)
    assert rules, "the rules in short quote no order"
    for m in rules:
        english = quoted(m.id)
        shown = [keys.get(q) or re.sub(r"[a-z_]+", lambda w: first.get(w.group(0), w.group(0)), q) for q in english]
        assert quoted(m.string) == shown
