"""Every game in German and Dutch part-way through: reports mid-game and the rules in short read in the
language (no distinctive English word of the game's glossary, every line 72 columns at most, the
glossary's terms in use), every event has its sentence, the order words of a game whose orders are lines
of a pattern cover its orders and have no word that means two things, and orders shown in a language's
words read back as written.

A game's data for these checks is in its room (tests/rooms/): ENGLISH, TERMS, PART_GAMES, EVENTS,
ORDER_WORDS, SPELT_ORDERS and ALIKE; a game without one skips the check that needs it, saying so.

Reports are rendered through the rendering API with a language where it has one, else through a fresh
environment with `pbem.i18n.install(env, lang, game)`. What a game's view writes itself (a board or a
table drawn as text in its rules' Python) is in the language too, and checked with the rest (the
catalogs are tests/test_i18n_games.py's).
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

from pbem import i18n, report
from pbem.game import apply_orders, new_game, show, waiting_for
from pbem.rules.base import order_text
from pbem.store import GamesDir
from helpers import has_word
from rooms import GAMES, NAMES, each, need, room

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("de", "nl")
WIDTH = 72

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
    return [w for w in need(game, "ENGLISH") if w not in same and w not in orders]


def english_in(text: str, game: str, lang: str) -> list[str]:
    return [w for w in foreign(game, lang) if has_word(text, w)]


def check(text: str, game: str, lang: str, state: dict[str, Any], player: str | None) -> None:
    for line in text.splitlines():
        assert len(line) <= WIDTH, f"{len(line)} columns: {line!r}"
    assert english_in(own_words(text, state, player), game, lang) == [], text


# -- reports --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game,players,seed,steps,options,said", each("PART_GAMES"))
def test_reports_mid_game_read_in_the_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str,
                                               game: str, players: int, seed: str, steps: int,
                                               options: dict[str, Any] | None, said: dict[str, str] | None) -> None:
    terms = need(game, "TERMS")
    state = play(tmp_path, game, players, seed, steps, options)
    on_move = waiting_for(state)[0] if state["status"] == "active" else NAMES[0]
    for player in [on_move, NAMES[0], None]:
        text = render(monkeypatch, state, player, state["events"][-40:], lang)
        check(text, game, lang, state, player)
        english = report.render_report(state, player, state["events"][-40:])
        assert text != english
    text = render(monkeypatch, state, on_move, state["events"][-40:], lang)
    for term in terms[lang]:
        assert term in text, f"{term!r} not in:\n{text}"
    if said:
        assert said[lang] in flat(text)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_in_short_read_in_the_language(tmp_path: Path, game: str, lang: str) -> None:
    state = play(tmp_path, game, len(room(game).PLAYERS), "rules", 0)
    text = environment(lang, game).get_template(f"{game}/rules.txt.j2").render(view=show(state, "anna")["view"])
    check(text, game, lang, state, "anna")
    english = report.env().get_template(f"{game}/rules.txt.j2").render(view=show(state, "anna")["view"])
    assert len(text.split("\n\n")) == len(english.split("\n\n"))


# -- events ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_every_event_has_its_sentence_in_the_language(game: str, lang: str) -> None:
    for e in need(game, "EVENTS"):
        e = {**e, "turn": 5}
        line = event_line(game, e, lang)
        english = report.event_lines(game, [e])[0]
        assert line and not line.startswith("["), (e, line)
        assert line != english, (e, line)
        assert english_in(line, game, lang) == [], (e, line)


# -- order words ----------------------------------------------------------------------------------------

def words_of(game: str) -> dict[str, dict[str, list[str]]]:
    """The game's order words as pbem reads them (pbem's shared ones where its table names one)."""
    return i18n.order_words(game)


def schema_words(game: str) -> set[str]:
    """Every word the game's order schema spells (its pattern's words, hyphenated ids whole, and the
    sides of a wall, a class of N, S, W and E); a game whose orders are no pattern skips
    (tests/test_i18n_games.py checks the words its schemas list)."""
    from pbem.rules.base import schema_files

    schema = json.loads(schema_files(game, ("orders",))[0].read_text("utf-8"))
    if "pattern" not in schema:
        pytest.skip(f"{game}'s orders are no pattern: tests/test_i18n_games.py reads the words its schemas list")
    pattern = schema["pattern"]
    sides = {c for group in re.findall(r"\[([NSWE]+)\]", pattern) for c in group}
    return set(re.findall(r"[a-z]+(?:-[a-z]+)*", pattern)) | sides


@pytest.mark.parametrize("game", GAMES)
def test_order_words_cover_the_orders_and_mean_one_thing(game: str) -> None:
    schema_words(game)  # (a game whose orders are no pattern skips here, saying why)
    words = words_of(game)
    required = need(game, "ORDER_WORDS")
    assert required <= set(words), required - set(words)
    assert set(words) <= schema_words(game), set(words) - schema_words(game)
    meaning: dict[str, str] = {w.casefold(): w for w in schema_words(game)}  # English: the canonical words
    for canonical, langs in words.items():
        assert set(langs) == set(LANGS), canonical
        for lang, spelt in langs.items():
            assert spelt and all(isinstance(s, str) and s.strip() for s in spelt), (canonical, lang)
            for s in spelt:
                other = meaning.setdefault(s.casefold(), canonical)
                assert other == canonical, f"{s!r} means {other!r} and {canonical!r}"


@pytest.mark.skipif(not hasattr(i18n, "canonical"), reason="order words are read with pbem.i18n.canonical")
@pytest.mark.parametrize("game", GAMES)
def test_orders_in_the_languages_words_read_back_as_written(game: str) -> None:
    orders, alike = need(game, "SPELT_ORDERS"), need(game, "ALIKE")
    for lang in LANGS:
        for order in orders:
            shown = i18n.localize(order, game, lang)
            assert i18n.canonical(shown, game) == order, (lang, order, shown)
            if order.split(" ")[0] not in alike:
                assert shown != order, (lang, order)
