"""Medina and Florenz (and the solo game against Strozzi) in German and Dutch: the catalogs `medina` and
`florenz` are complete and in step with the templates, reports mid-game and the rules in short read in
the language (no distinctive English word of the glossaries, every line 72 columns at most, the
glossaries' terms in use), every event has its sentence, and the order words have no word that means two
things.

Reports are rendered through the rendering API with a language where it has one, else through a fresh
environment with `pbem.i18n.install(env, lang, game)`. What the Florenz view writes itself (the board,
the tables, the disc's scoring, who passed, the hurries: pbem/rules/florenz/view*.py) is in the
language too, and checked with the rest.
"""

from __future__ import annotations

import inspect
import json
from functools import cache
import random
import re
from pathlib import Path
from typing import Any

import jinja2
import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from pbem import i18n, report
from pbem.errors import IllegalOrder, Refusal
from pbem.game import apply_orders, new_game, show, waiting_for
from pbem.report import refusal_text
from pbem.rules.base import order_text
from pbem.store import GamesDir

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "pbem" / "locale"
GAMES = ("medina", "florenz")
LANGS = ("de", "nl")
NAMES = ["anna", "ben", "cleo", "dora", "emil"]
WIDTH = 72

#: English words of the glossaries that a German or Dutch report must not show (the words both languages
#: share with English are not here: Maestro, Bonus, Spion, orange...)
ENGLISH = {
    "medina": ["palace", "palaces", "stable", "stables", "merchant", "merchants", "market street", "roof",
               "roofs", "tower", "claimed", "placement", "points", "players", "grey", "brown", "black",
               "wall space", "SINCE YOUR LAST REPORT", "THE CITY", "YOUR MOVE", "WAITING FOR", "left:"],
    "florenz": ["queue", "petitioner", "petitioners", "debutants", "ladies", "boast", "boasts", "scandal",
                "carriage", "escort", "escorts", "doorman", "crest", "gift", "gifts", "round", "location",
                "locations", "target", "time", "plan card", "start coin", "passes", "family", "deck", "discards", "travel", "THE BOARD", "THE DISC", "THE FAMILIES", "YOUR MOVE",
                "SINCE YOUR LAST REPORT", "WAITING FOR", "Strozzi's", "celebrates",
                # the board and the tables the view writes
                "cups", "blocked", "carriage", "spy", "doorman", "member", "members", "per", "now:", "offers",
                "strongest", "scored", "nobody", "ring on", "no ring", "first", "lady", "guard", "gift",
                "gifts given", "cards held", "on the map", "queue VP", "every petitioner", "taken", "VP", "time",
                "not together", "in either order", "above", "spend", "scores at"],
}
#: glossary terms each language's report uses (spot checks)
TERMS = {
    ("medina", "de"): ["DIE STADT", "DIE SPIELER", "Palastteile", "Händler", "Ställe", "Mauern", "Dächer"],
    ("medina", "nl"): ["DE STAD", "DE SPELERS", "paleisdelen", "kooplieden", "stallen", "muren", "daken"],
    ("florenz", "de"): ["DER SPIELPLAN", "Warteschlange", "Bittsteller", "Prahltafeln", "Kutsche",
                        "SKANDALKARTEN", "MEDICI-SCHEIBE", "Startmünze", "Eskorten"],
    ("florenz", "nl"): ["HET SPEELBORD", "wachtrij", "verzoekers", "Opscheptegels", "koets",
                        "SCHANDAALKAARTEN", "MEDICI-SCHIJF", "startmunt", "Escortes"],
}
SOLO_TERMS = {"de": "Strozzis orange und blaue Figuren", "nl": "de oranje en blauwe stukken van Strozzi"}


# -- rendering in a language -----------------------------------------------------------------------------

@cache
def environment(lang: str, game: str) -> jinja2.Environment:
    """A fresh environment of the report templates with the words of `lang` for `game`."""
    base = report.env()
    e = jinja2.Environment(loader=base.loader, autoescape=False, keep_trailing_newline=True,
                           undefined=jinja2.StrictUndefined, extensions=["jinja2.ext.i18n"])
    e.filters.update(base.filters)
    if hasattr(i18n, "localize"):
        e.filters["words"] = lambda text: i18n.localize(str(text), game, lang)
    e.globals["lang"] = lang
    e.globals["common_"] = i18n.common_words(lang)  # the words every game says, in pbem's catalog
    i18n.install(e, lang, game)
    return e


def render(monkeypatch: pytest.MonkeyPatch, state: dict[str, Any], player: str | None, events: list[Any],
           lang: str) -> str:
    if "lang" in inspect.signature(report.render_report).parameters:
        return report.render_report(state, player, events, lang=lang)
    templates = environment(lang, state["ruleset"])
    with monkeypatch.context() as m:
        m.setattr(report, "env", lambda: templates)
        return report.render_report(state, player, events)


def event_line(game: str, event: dict[str, Any], lang: str) -> str:
    return str(environment(lang, game).get_template(f"{game}/events.j2").module.event(event)).strip()


# -- games mid-way --------------------------------------------------------------------------------------

def play(tmp_path: Path, game: str, players: int, seed: str, steps: int, options: dict[str, Any] | None = None
         ) -> dict[str, Any]:
    """A game after `steps` random legal orders (fewer when it ends first), mostly doing something."""
    gd = GamesDir(tmp_path / "games")
    state, _ = new_game(gd, game, "g1", [(p, f"{p}@example.org") for p in NAMES[:players]], options or {}, seed)
    r = random.Random(seed)
    for _ in range(steps):
        if state["status"] != "active":
            break
        p = waiting_for(state)[0]
        legal = show(state, p)["legal_orders"]
        doing = [o for o in legal if not order_text(o).startswith(("pass", "discard"))]
        state, _ = apply_orders(state, p, state["engine"]["turn"],
                                [r.choice(doing if doing and r.random() < 0.85 else legal)])
    return state


def flat(text: str) -> str:
    return " ".join(text.split())


def own_words(text: str, state: dict[str, Any], player: str | None) -> str:
    """The report without what other parts of pbem write: the turn file, the legal orders as the order
    machinery writes them, and what the game's view writes in English itself."""
    text = re.sub(rf"{re.escape(report.BEGIN)}.*?{re.escape(report.END)}", " ", text, flags=re.S)
    shown = show(state, player)
    others = report.summarize_orders(shown.get("legal_orders", []))
    out = flat(text)
    for s in sorted({flat(s) for s in others if " " in s.strip()}, key=len, reverse=True):
        out = re.sub(rf"(?<![\w-]){re.escape(s)}(?![\w-])", " ", out)
    return out


def foreign(game: str, lang: str) -> list[str]:
    """The English words a text in `lang` must not show: those of the glossary that the language does
    not share, less the order words while pbem writes no order in a language's words."""
    same = {"nl": {"families", "family", "per"}}.get(lang, set())
    orders = set() if hasattr(i18n, "localize") else set(words_of(game)) | {"grey", "black", "brown"}
    return [w for w in ENGLISH[game] if w not in same and w not in orders]


def english_in(text: str, game: str, lang: str) -> list[str]:
    return [w for w in foreign(game, lang) if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]


def check(text: str, game: str, lang: str, state: dict[str, Any], player: str | None) -> None:
    for line in text.splitlines():
        assert len(line) <= WIDTH, f"{len(line)} columns: {line!r}"
    assert english_in(own_words(text, state, player), game, lang) == [], text


# -- the catalogs ---------------------------------------------------------------------------------------

def catalog(lang: str, game: str):
    with (LOCALE / lang / "LC_MESSAGES" / f"{game}.po").open("rb") as f:
        return read_po(f, locale=lang, domain=game)


def extracted(game: str) -> set[tuple[str | None, str]]:
    """The messages the game's templates mark now (as pybabel extract finds them), its rules' refusals,
    and the words its rules' Python marks (the Florenz display: `_()`, `N_()`, as `make catalogs` reads
    pbem/rules/GAME)."""
    found = list(extract_from_dir(str(ROOT / "templates" / game), method_map=[("**.j2", "jinja2")],
                                  options_map={"**.j2": {"extensions": "jinja2.ext.i18n"}}, keywords=DEFAULT_KEYWORDS))
    found += extract_from_dir(str(ROOT / "pbem" / "rules" / game), method_map=[("**.py", "python")],
                              keywords={**DEFAULT_KEYWORDS, "N_": None, "ngettext": (1, 2)})
    out = set()
    for _file, _line, message, _comments, context in found:
        out.add((context, message[0] if isinstance(message, tuple) else message))
    from pbem.report import engine_catalog_words

    return out | {(None, fmt) for fmt in engine_catalog_words(game)}  # and the rules' refusals (pbem/rules/*refusals.py)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_the_catalogs_are_complete_and_in_step_with_the_templates(game: str, lang: str) -> None:
    cat = catalog(lang, game)
    ids = set()
    for m in cat:
        if not m.id:
            continue
        key = m.id[0] if isinstance(m.id, tuple) else m.id
        ids.add((m.context, key))
        assert not m.fuzzy, key
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        assert forms and all(forms), f"untranslated: {key!r}"
    assert not cat.obsolete
    assert [(m.id, errors) for m, errors in cat.check()] == []  # placeholders as in the English
    with (LOCALE / f"{game}.pot").open("rb") as f:
        template = {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id) for m in read_po(f) if m.id}
    assert ids == template == extracted(game)


# -- reports --------------------------------------------------------------------------------------------

CASES = [("medina", 3, "i18n-medina", 37, None), ("medina", 4, "i18n-medina-4", 300, None),
         ("florenz", 3, "i18n-florenz", 60, None), ("florenz", 5, "i18n-florenz-5", 140, None),
         ("florenz", 1, "i18n-solo", 45, {"solo": "normal"}), ("florenz", 1, "i18n-solo-h", 500, {"solo": "harder"})]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game,players,seed,steps,options", CASES)
def test_reports_mid_game_read_in_the_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str,
                                               game: str, players: int, seed: str, steps: int,
                                               options: dict[str, Any] | None) -> None:
    state = play(tmp_path, game, players, seed, steps, options)
    on_move = waiting_for(state)[0] if state["status"] == "active" else NAMES[0]
    for player in [on_move, NAMES[0], None]:
        text = render(monkeypatch, state, player, state["events"][-40:], lang)
        check(text, game, lang, state, player)
        english = report.render_report(state, player, state["events"][-40:])
        assert text != english
    text = render(monkeypatch, state, on_move, state["events"][-40:], lang)
    for term in TERMS[(game, lang)]:
        assert term in text, f"{term!r} not in:\n{text}"
    if options:
        assert SOLO_TERMS[lang] in flat(text)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_in_short_read_in_the_language(tmp_path: Path, game: str, lang: str) -> None:
    state = play(tmp_path, game, 3, "rules", 0)
    text = environment(lang, game).get_template(f"{game}/rules.txt.j2").render(view=show(state, "anna")["view"])
    check(text, game, lang, state, "anna")
    english = report.env().get_template(f"{game}/rules.txt.j2").render(view=show(state, "anna")["view"])
    assert len(text.split("\n\n")) == len(english.split("\n\n"))


# -- events ---------------------------------------------------------------------------------------------

MEDINA_EVENTS: list[dict[str, Any]] = [
    {"type": "start_player", "player": "anna"}, {"type": "place", "player": "anna", "order": "palace grey C7"},
    {"type": "found", "player": "anna", "colour": "brown", "at": "C7"},
    {"type": "new_street", "player": "anna", "at": "P11"},
    {"type": "tower_bonus", "tower": 2, "player": "anna", "wall": "N5", "from": "ben"},
    {"type": "tower_bonus", "tower": 2, "player": "anna", "wall": "N5", "from": None},
    {"type": "palace_bonus", "colour": "grey", "player": "anna", "at": "C7", "size": 5},
    {"type": "return", "colour": "grey", "counts": {"anna": 2, "ben": 0}, "why": "every player has claimed one"},
    {"type": "return", "colour": "black", "counts": {"anna": 1}, "why": "no piece fits any more"},
    {"type": "return_roofs", "player": "anna", "count": 1}, {"type": "return_roofs", "player": "anna", "count": 2},
    {"type": "skip", "player": "anna", "left": {"grey palace": 2, "stable": 1, "merchant": 3, "wall": 1, "roof": 2}},
    {"type": "game_end", "standings": [{"rank": 1, "player": "anna", "score": 40}]},
]


def event_samples(game: str) -> list[dict[str, Any]]:
    if game == "medina":
        return MEDINA_EVENTS
    from test_florenz_report import SAMPLES

    return [{"type": kind, **fields} for kind, fields in SAMPLES.items()]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_every_event_has_its_sentence_in_the_language(game: str, lang: str) -> None:
    for e in event_samples(game):
        e = {**e, "turn": 5}
        line = event_line(game, e, lang)
        english = report.event_lines(game, [e])[0]
        assert line and not line.startswith("["), (e, line)
        if e["type"] != "place" or game != "medina" or hasattr(i18n, "localize"):
            assert line != english, (e, line)
        assert english_in(line, game, lang) == [], (e, line)


# -- order words ----------------------------------------------------------------------------------------

REQUIRED = {
    "medina": {"start", "palace", "stable", "merchant", "wall", "roof", "grey", "black", "brown", "orange",
               "N", "S", "W", "E"},
    "florenz": {"place", "send", "promote", "move", "to", "and", "hurry", "boast", "gift", "play", "with",
                "pass", "bonus", "time", "vp", "swap", "accept", "decline", "discard", "colour", "orange",
                "blue", "travel", "done", "escort", "spy", "doorman"},
}


def words_of(game: str) -> dict[str, dict[str, list[str]]]:
    """The game's order words as pbem reads them (pbem's shared ones where its table names one)."""
    return i18n.order_words(game)


def schema_words(game: str) -> set[str]:
    """Every word the game's order schema spells (its pattern's words, hyphenated ids whole, and
    Medina's wall sides)."""
    pattern = json.loads((ROOT / "schemas" / f"{game}.orders.schema.json").read_text("utf-8"))["pattern"]
    sides = {c for group in re.findall(r"\[([NSWE]+)\]", pattern) for c in group}
    return set(re.findall(r"[a-z]+(?:-[a-z]+)*", pattern)) | sides


@pytest.mark.parametrize("game", GAMES)
def test_order_words_cover_the_orders_and_mean_one_thing(game: str) -> None:
    words = words_of(game)
    assert REQUIRED[game] <= set(words), REQUIRED[game] - set(words)
    assert set(words) <= schema_words(game), set(words) - schema_words(game)
    meaning: dict[str, str] = {w.casefold(): w for w in schema_words(game)}  # English: the canonical words
    for canonical, langs in words.items():
        assert set(langs) == set(LANGS), canonical
        for lang, spelt in langs.items():
            assert spelt and all(isinstance(s, str) and s.strip() for s in spelt), (canonical, lang)
            for s in spelt:
                other = meaning.setdefault(s.casefold(), canonical)
                assert other == canonical, f"{s!r} means {other!r} and {canonical!r}"
    # a wall side is glued to its number as a column is to its row: O (Ost, Oost) would be column O
    if game == "medina":
        for side in "NSWE":
            assert words[side] == {"de": [side], "nl": [side]}


@pytest.mark.skipif(not hasattr(i18n, "canonical"), reason="order words are read with pbem.i18n.canonical")
@pytest.mark.parametrize("game,orders", [
    ("medina", ["palace grey C7", "stable D7", "merchant E5", "wall N5", "wall E11", "roof orange E4", "start O5"]),
    ("florenz", ["place 6", "send 4", "promote 6.3", "move 1.1 to 2", "hurry 2.1 to 3 to 6",
                 "hurry 2.1 to 3 and 5.2 to 4", "boast 5", "gift cosimo escort 4-5", "gift giovanni doorman 3",
                 "gift contessina spy 7", "play messere-swap 6.2 with 6.4", "play figliolo-travel 6.3 to 5 to 4",
                 "travel 2.1 to 3", "done", "pass 6", "pass", "bonus time", "bonus vp", "swap 6.2 with 6.3",
                 "accept", "decline", "discard carissima-advance", "colour orange", "colour blue"]),
])
def test_orders_in_the_languages_words_read_back_as_written(game: str, orders: list[str]) -> None:
    for lang in LANGS:
        for order in orders:
            shown = i18n.localize(order, game, lang)
            assert i18n.canonical(shown, game) == order, (lang, order, shown)
            if order.split(" ")[0] not in ("bonus", "pass", "start"):
                assert shown != order, (lang, order)


def test_a_kind_of_decision_is_named_in_the_games_words() -> None:
    from pbem.rules.florenz.refusals import refuse as florenz
    from pbem.rules.medina.refusals import refuse as medina

    assert refusal_text(florenz("not-your-turn", players="anna", kind="action"), "de", "florenz") == \
        "du bist nicht am Zug: anna muss entscheiden (Aktion)"
    assert refusal_text(medina("taken", square="C3", kind="palace"), "nl", "medina") == "C3 is al bezet (paleis)"


def test_a_square_of_medina_never_swallows_the_frame(tmp_path: Path) -> None:
    """`%(square)s is not a square of the city` read as English text took `order 'palast grau Z99': Z99`
    for its square, and the German player read the English word `order`; by its id it cannot."""
    state, _ = new_game(GamesDir(tmp_path), "medina", "d1", [(p, f"{p}@x.test") for p in ("anna", "ben", "cleo")],
                        {}, "refusals-by-their-id-seed")
    mover = state["engine"]["current"]
    with pytest.raises(IllegalOrder) as refused:
        apply_orders(state, mover, state["engine"]["turn"], ["start Z99"])
    refusal = refused.value.refusal
    assert isinstance(refusal, Refusal) and refusal.values["why"].msg == "not-a-square"
    assert refusal_text(refusal, "de", "medina") == "Befehl 'start Z99': Z99 ist kein Feld der Stadt (A1 bis P11)"
