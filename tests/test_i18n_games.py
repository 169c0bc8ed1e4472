"""Medici (both editions) and Medici vs Strozzi in German and Dutch: whole bot games render every
report (each player's and the GM's, with the events he has not read) and the rules in short in both
languages, with no English word of the games' glossaries left and every line within 72 columns; the
catalogs are complete (every word the templates mark, none untranslated or fuzzy, the placeholders
kept); the translations use the glossaries' words (docs/glossary/); the order words
(pbem/locale/words/) cover every word the games' schemas take, no word stands for two orders in any
language, and the rules in short quote the orders in the words reports show.
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
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

import helpers
import pbem.report as report
from pbem.game import new_game, show
from pbem import i18n
from pbem.i18n import install, translator
from pbem.store import GamesDir

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "pbem" / "locale"
GAMES = ("medici", "medici-strozzi")
LANGS = ("de", "nl")
WIDTH = 72

# English words and phrases of the glossaries' English column that no German or Dutch report may
# show (case kept: `Bid` is the report's word, `bid` an order word, which is the order words' business)
ENGLISH: dict[str, list[str]] = {
    "medici": ["YOUR MOVE", "THE TABLE", "ON THE TABLE NOW", "SINCE YOUR LAST REPORT", "WAITING FOR",
               "FINAL STANDINGS", "Seed commitment", "auctioneer", "Auctioneer", "Bid", "bids", "lot", "hold",
               "day", "Day", "money", "Money", "bag", "card", "cards", "passes", "reveals", "draws", "buys",
               "Majority", "Bonus fields", "value", "scoring", "Nobody", "player", "players", "tracks", "step",
               "poorest", "random", "free space", "free spaces", "linen", "furs", "grain", "dyes", "spices",
               "metals", "porcelain", "cloth", "gold", "Dyes", "Spices", "Furs", "Linen", "Grain", "Metals",
               "Porcelain", "Cloth", "nothing", "the game is over", "Reply", "report for", "GM view"],
    "medici-strozzi": ["YOUR MOVE", "THE FAMILIES", "THE HARBOURS", "ON THE TABLE NOW", "SINCE YOUR LAST REPORT",
                       "WAITING FOR", "FINAL STANDINGS", "Seed commitment", "lot", "tile", "tiles", "Tiles",
                       "ship", "ships", "Harbour", "in harbour", "to harbour", "round", "Round", "money", "Money",
                       "bag", "cargo", "Markers", "value", "draws", "asks", "buys", "declines", "pays",
                       "loads", "throws", "overboard", "Thrown", "drawer", "against", "tie", "nobody",
                       "not yet loaded", "furs", "spices", "silk", "gold", "nothing", "Draw", "Buy",
                       "Load", "the game is over", "Reply", "report for", "GM view"],
}


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
    return [w for w in ENGLISH[game] if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]


def too_wide(text: str, what: str) -> list[str]:
    return [f"{what}: {len(line)} columns: {line!r}" for line in text.split("\n") if len(line) > WIDTH]


NAMES = ["anna", "ben", "cleo", "dora", "emil", "fritz"]
LONG = [f"{c}-player-with-long-name{i}" for i, c in enumerate("abcdef")]  # 24 characters, the most
PLAYED = [
    ("medici", NAMES[:4], {"edition": "riogrande"}, "i18n-rg-4", "g1"),
    ("medici", NAMES[:3], {"edition": "amigo"}, "i18n-amigo-3", "g1"),
    ("medici", LONG[:6], {"edition": "amigo"}, "i18n-amigo-6-long", "a-game-id-of-forty-characters-0123456789"),
    ("medici", LONG[:5], {"edition": "riogrande"}, "i18n-rg-5-long", "g1"),
    ("medici-strozzi", ["lorenzo", "filippo"], {}, "i18n-strozzi", "g1"),
    ("medici-strozzi", LONG[:2], {}, "i18n-strozzi-long", "a-game-id-of-forty-characters-0123456789"),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ruleset,names,options,seed,game", PLAYED, ids=[p[3] for p in PLAYED])
def test_every_report_is_in_the_language_and_fits(tmp_path: Path, ruleset: str, names: list[str],
                                                   options: dict[str, str], seed: str, game: str, lang: str) -> None:
    gd = GamesDir(tmp_path / "games")
    state, _ = new_game(gd, ruleset, game, [(p, f"p{i}@example.org") for i, p in enumerate(names)], options, seed)
    bad: list[str] = []
    for p in names[:2]:
        text = rules_text(state, p, lang)
        bad += too_wide(text, f"the rules for {p}")
        bad += [f"the rules: English {w!r}" for w in english_left(text, ruleset)]
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
            bad += [f"{what}: English {w!r}" for w in english_left(text, ruleset)]
            read[p] = len(state["events"])
        if state["status"] != "active" or len(bad) > 20:
            break
        state = helpers.bot_move(state)
    assert not bad, "\n".join(bad[:20])
    assert rendered > 20 * len(names)


# the engines' reasons, which the events carry in English, in every shape they come in
REASONS = {
    "medici": [
        {"type": "day_start", "day": 1, "cards": 18, "start_player": "anna", "why": "drawn at random"},
        {"type": "day_start", "day": 2, "cards": 18, "start_player": "anna", "why": "the poorest"},
        {"type": "day_start", "day": 3, "cards": 18, "start_player": "ben", "why": "drawn among the poorest (anna, ben)"},
        {"type": "pass", "player": "cleo", "forced": "only 1 free space in the hold"},
        {"type": "pass", "player": "cleo", "forced": "only 2 free spaces in the hold"},
        {"type": "pass", "player": "cleo", "forced": "only 3 money, the lowest bid is 7"},
        {"type": "unsold", "lot": ["gold-10"]},
    ],
    "medici-strozzi": [
        {"type": "round_over", "round": 1, "why": "the bag is empty"},
        {"type": "round_over", "round": 2, "why": "lorenzo's ships are full"},
        {"type": "score_harbour", "round": 1, "harbour": "C", "values": {"lorenzo": 4, "filippo": 4}, "winner": None,
         "moves": {"spices": {"from": 0, "to": 1}, "silk": {"from": 0, "to": 0}}, "markers": {"lorenzo": 10, "filippo": 0}},
    ],
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_the_engines_reasons_are_in_the_language(lang: str, game: str) -> None:
    event = fresh_env(lang, game).get_template(f"{game}/events.j2").module.event
    english = report.env().get_template(f"{game}/events.j2").module.event
    for e in REASONS[game]:
        text = str(event(e))
        assert not english_left(text, game), (text, english_left(text, game))
        assert text != str(english(e))
        assert "(anna, ben)" in text or "anna, ben" not in str(english(e))


def test_the_english_reports_are_as_written(tmp_path: Path) -> None:
    """English is the text as written: the language's own environment renders what `env()` renders."""
    gd = GamesDir(tmp_path / "games")
    state, _ = new_game(gd, "medici", "g1", [(p, f"{p}@example.org") for p in NAMES[:3]], {}, "i18n-en")
    for _ in range(30):
        state = helpers.bot_move(state)
    for p in [*NAMES[:3], None]:
        assert render(state, p, state["events"], "en") == report.render_report(state, p, state["events"])


# -- the boards ------------------------------------------------------------------------------------------------

BOARD_ENGLISH = {
    "medici": ["Goods tracks", "Holds", "money", "value", "auctioneer", "cards left", "high bid", "No lot", "The lot",
               "day"],
    "medici-strozzi": ["Harbours", "monopoly markers", "side", "Ships", "money", "ship", "harbour", "empty", "value",
                       "drawn by", "tiles in the bag", "price", "bought by", "The lot", "No lot", "round"],
}


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
    names = NAMES[:4] if game == "medici" else ["lorenzo", "filippo"]
    state, _ = new_game(GamesDir(tmp_path / "games"), game, "g1", [(p, f"{p}@example.org") for p in names], {},
                        "i18n-boards")
    for _step in range(12):
        state = helpers.bot_move(state)
    texts = " ".join(re.findall(r">([^<>]+)<", board_words(state, picture_env(lang, game))))
    left = [w for w in BOARD_ENGLISH[game] if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", texts)]
    assert not left
    english = " ".join(re.findall(r">([^<>]+)<", board_words(state, picture_env(None, game))))
    assert all(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", english) for w in ("money", "value"))


# -- the catalogs -------------------------------------------------------------------------------------------

KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "npgettext": ((1, "c"), 2, 3)}


def marked(game: str) -> set[Any]:
    """Every message the game's templates mark, and its rules' refusals, as the catalogs key them."""
    out: set[Any] = set()
    for path in sorted((ROOT / "templates" / game).glob("*.j2")):
        for _line, message, _comments, _context in extract_from_file(
                "jinja2", str(path), keywords=KEYWORDS, options={"extensions": "jinja2.ext.i18n"}):
            out.add(message)
    return out | set(report.engine_catalog_words(game))  # and the rules' refusals (pbem/rules/*refusals.py)


def catalog(lang: str, game: str) -> Any:
    with (LOCALE / lang / "LC_MESSAGES" / f"{game}.po").open("rb") as f:
        return read_po(f, locale=lang, domain=game)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_the_catalogs_are_complete(lang: str, game: str) -> None:
    cat = catalog(lang, game)
    messages = [m for m in cat if m.id]
    assert {m.id for m in messages} == marked(game), "the catalog and the templates' marked words differ"
    with (LOCALE / f"{game}.pot").open("rb") as f:
        assert {m.id for m in read_po(f) if m.id} == marked(game), "the .pot is not the templates' words"
    untranslated = [m.id for m in messages if not (all(m.string) if isinstance(m.string, tuple) else m.string)]
    assert not untranslated
    assert not [m.id for m in messages if m.fuzzy]
    assert not cat.obsolete
    assert not [(m.id, errors) for m, errors in cat.check()], "placeholders differ"


# -- the glossaries --------------------------------------------------------------------------------------------

def goods_rows(game: str) -> list[tuple[str, str, str]]:
    """The goods table of a game's glossary: (card id, German, Dutch)."""
    text = (ROOT / "docs" / "glossary" / f"{game}.md").read_text("utf-8")
    section = re.split(r"\n## [^\n]*goods\n", text)[1].split("\n## ")[0]
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


# each glossary term as the translation of a message that speaks of it
SPOT = {
    "medici": [
        ("You are the auctioneer: draw another card, or put the lot up for auction.",
         {"de": ["Auktionator", "Warenpaket", "versteigere", "Karte"], "nl": ["veilingmeester", "pakket", "veil", "kaart"]}),
        ("Day %(day)s scoring, hold values: %(ranking)s.", {"de": ["Spielrunde", "Abrechnung", "Lager"],
                                                              "nl": ["dag", "Waardering", "lading"]}),
        ("Bonus fields: %(payouts)s.", {"de": ["Prämienfelder"], "nl": ["Bonusvelden"]}),
        ("Majority: %(payouts)s.", {"de": ["Monopolstellung"], "nl": ["Handelsmonopolie"]}),
        ("%(player)s +%(payout)s (step %(step)s)", {"de": ["Feld"], "nl": ["trap"]}),
        ("High bid: %(amount)s by %(player)s.", {"de": ["Höchstgebot"], "nl": ["Hoogste bod"]}),
        ("The bag is empty.", {"de": ["Stapel"], "nl": ["buidel"]}),
        ("tracks", {"de": ["Kontore"], "nl": ["piramides"]}),
        ("hold", {"de": ["Lager"], "nl": ["lading"]}),
        ("%(player)s passes.", {"de": ["passt"], "nl": ["past"]}),
    ],
    "medici-strozzi": [
        ("%(player)s declines, so the drawer must buy.", {"de": ["lehnt", "ab", "kaufen"], "nl": ["weigert", "kopen"]}),
        ("Load the lot onto one of your ships, or throw it overboard.",
         {"de": ["Warenpaket", "Schiffe", "wirf es ab"], "nl": ["pakket", "schepen", "overboord"]}),
        ("Round %(round)s scored. Money: %(money)s.", {"de": ["Runde", "Geld"], "nl": ["Ronde", "Geld"]}),
        ("Tiles left in the bag: %(n)s.", {"de": ["Plättchen", "Beutel"], "nl": ["Tegels", "buidel"]}),
        ("Markers: %(player)s +%(pay)s.", {"de": ["Markierungssteine"], "nl": ["Markeerstenen"]}),
        ("THE HARBOURS", {"de": ["HÄFEN"], "nl": ["HAVENS"]}),
    ],
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_the_translations_use_the_glossary_words(lang: str, game: str) -> None:
    _ = translator(lang, game).gettext
    for message, words in SPOT[game]:
        text = _(message)
        assert text != message, message
        for w in words[lang]:
            assert w in text, (message, w, text)


# -- the order words ----------------------------------------------------------------------------------------

def order_words(game: str) -> dict[str, dict[str, list[str]]]:
    """The game's order words as pbem reads them (pbem's shared ones where its table names one)."""
    return i18n.order_words(game)


def schema_words(game: str) -> set[str]:
    """Every word a game's order and standing schemas take: string orders, keys, constant values."""
    out: set[str] = set()

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

    for kind in ("orders", "standing"):
        walk(json.loads((ROOT / "schemas" / f"{game}.{kind}.schema.json").read_text("utf-8")))
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


def quoted(text: str) -> list[str]:
    return [" ".join(q.split()) for q in re.findall(r'"([^"]+)"', text)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_the_rules_quote_the_orders_as_reports_show_them(lang: str, game: str) -> None:
    """Each order quoted in the rules in short is, in a language, its words' first, and pbem's own keys
    (`turn: next`, `standing:`, `reports: all`) are the language's (`zug: nächster`, `vast:`...)."""
    from pbem.turnfile import KEY_WORDS, VALUE_WORDS

    first = {canonical: langs[lang][0] for canonical, langs in order_words(game).items()}
    keys = {"de": {"turn: next": "zug: nächster", "standing:": "dauer:", "reports: all": "berichte: alle"},
            "nl": {"turn: next": "beurt: volgende", "standing:": "vast:", "reports: all": "verslagen: alle"}}[lang]
    assert all(KEY_WORDS[k.split(":")[0]] == e.split(":")[0] for e, k in keys.items())  # words pbem reads
    assert VALUE_WORDS["turn"][keys["turn: next"].split(": ")[1]] == "next"
    cat = catalog(lang, game)
    in_rules = {message for _line, message, _comments, _context in extract_from_file(
        "jinja2", str(ROOT / "templates" / game / "rules.txt.j2"), options={"extensions": "jinja2.ext.i18n"})}
    rules = [m for m in cat if m.id and m.id in in_rules]
    assert rules
    for m in rules:
        english = quoted(m.id)
        assert english
        shown = [keys.get(q) or re.sub(r"[a-z_]+", lambda w: first.get(w.group(0), w.group(0)), q) for q in english]
        assert quoted(m.string) == shown
