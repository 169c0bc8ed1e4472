"""The games the tests know, each in its room: the one place a cross-game test learns a game's own data.

`GAMES` is every game of `pbem.rules.base.KNOWN`, sorted, read when the tests run (a game a test
registers, such as the one conftest.py adds, is in it too). A test that holds for every game is
parametrized over `GAMES` and asks `room(game)` for what it needs; it never lists the games itself.

A game's room is the module `tests/rooms/<game>.py` (a `-` in the game's name written `_`). A new game
adds its room and nothing else in the cross-game tests. `tests/test_rooms.py` checks that every game
has one, and that no test file outside a game's own names a game but through this registry (or
`EXAMPLE`).

A room supplies, as module constants:

Required (a cross-game test fails for a game whose room lacks one):
  PLAYERS        tuple[str, ...]: the names of a usual table, as many as the game allows.
  TABLES         list[tuple[int, dict]]: (player count, options) of the tables a test that draws,
                 validates or saves every kind of game goes through: each count and option that
                 changes what the game looks like. The first is the usual table.

Optional (a test that needs one skips the game with `pytest.skip`, naming the room and attribute:
`need(game, "NAME")` in a test; `each("NAME")` parametrizes a test over the entries of a list attribute
of every game, a game that lacks it getting one parameter marked skip with that reason; a test over all
games at once checks the others, then skips naming what was left out):
  EXAMPLE_ORDER  str: the order pbem shows a player as an example of the game (his rules'
                 `example_order`), written as a mail line.
  ILLEGAL        str: an order line the rules refuse to the first player to decide, at the start (a
                 well-formed order, refused by the rules, not by the schema); or callable(view) -> str
                 for a game where which order that is depends on the deal (his view at the start).
  STANDING       list[dict]: valid standing orders, one entry of the game's standing schema each;
                 an empty list says the game takes no standing orders.
  STANDING_CHOICES  callable(random.Random) -> list[dict]: some standing orders a player might give
                 now (empty for a game that takes none).
  AHEAD          list: orders a player may queue for a decision that is not his yet, and the rules
                 take when it comes (or refuse then, the order being of the game).
  DECKS          list[dict]: valid deck files (`pbem new --deck`); absent for a game without decks.
  BOARD_ENGLISH  list[str]: English words of its board pictures that a German or Dutch picture of the
                 game may not show.
  SOURCES        list[str]: the paths (from the project's root) whose player words go into the game's
                 own catalog, pbem/locale/<lang>/LC_MESSAGES/<game>.po.
  LISTED         str: how `pbem rulesets` describes the game (after its name).
  WRONG          list: orders its rules refuse at one time or another of a game (their refusals are
                 translated); RANDOM_DECISIONS (int): how many decisions a random game of it plays to
                 meet them.
  ALL_TABLES     list[tuple[int, dict, str, int]]: every player count and option, each as (count,
                 options, seed, every): a report is rendered after each `every` orders (a slow engine
                 skips some); LONG_TABLES: the same, for the tables played with the longest names.
  READINGS       list[tuple[str, Any, Any]]: (kind, sent, read): an order ("orders") or standing order
                 ("standing") as a player may write it, and as the game's schema reads it.
  PICTURE_TABLES, SECRET_TABLES  list[tuple[int, dict, str, int]]: (count, options, seed, every) of the
                 bot games whose pictures are checked: what they show, what they keep from a viewer.
  PICTURE_CHECK  callable(root, view, seat) -> int: its board picture (parsed SVG) shows the view's
                 pieces where the view has them; how many it compared.
  SEAT_LEGEND    bool: its picture names each seat beside its colour and number (else PICTURE_CHECK
                 reads its legend).
  HIDDEN_VARIANTS  callable(state, salt) -> iterator of (what, state changed, players blind to it).
  PHONE_TABLES   list[tuple[int, dict, str]]: games whose every text is read as a phone's HTML;
                 PHONE_SHAPE (count, options, seed, orders, least of each HTML element): a report's
                 shape; PHONE_SHOTS: reports opened in a phone-sized browser; PHONE_TEXT_CHECK
                 (callable(text), optional with no skip): what its own text becomes on a phone.
  MID_GAME       int: how many orders the bots play to bring a game to its middle: it still runs, and
                 (with PRIVATE_EVENTS) an event told to one player alone has happened.
  HIDES          bool: the game hides more than its seed while it runs (cards in a bag, plan cards):
                 the archive of a finished game shows it, marked as hidden at the time.
  RANDOM_START   bool: its starting engine depends on the seed (a replay from a wrong seed tells).
  PRIVATE_EVENTS bool: some events are told to some players alone (the archive marks them).
  SECRETS        callable(state, tokens) -> helpers.Secrets: what no text for the whole table may hold.
  OWN_WORDS      dict[str, str]: order words its table gives words of its own although another game's
                 table holds them too, each with why (a meaning of its own: Medici's `draw` turns a card
                 face up); OWN_MESSAGES: the same for messages of its catalog another domain holds.
  PERTURBED      callable(state, k) -> engine: the state's engine with its hidden parts changed (the
                 k-th way); what every player sees stays the same.
  In German and Dutch (tests/test_i18n_games.py, tests/test_i18n_mid_game.py):
  ENGLISH        list[str]: English words of its glossary that no German or Dutch text of it may show.
  WHOLE_GAMES    list[tuple[tuple[str, ...], dict, str, str]]: (players, options, seed, game id) of bot
                 games played to their end, every report of each player and the GM rendered in both.
  PART_GAMES     list[tuple[int, str, int, dict | None, dict | None]]: (count, seed, orders, options, what a
                 report of those options says in each language) of games played part-way by random
                 legal orders; TERMS dict[str, list[str]]: glossary terms its reports use, by language.
  REASONS        list[dict]: the events that carry its engine's reasons in English, in every shape;
                 EVENTS list[dict]: an event of each kind its events template writes.
  BOARD_GLOSSARY tuple[tuple[str, ...], list[str], list[str]]: (players, English words of its glossary no
                 German or Dutch board of that table shows after 12 bot moves, words the English shows).
  GLOSSARY_SPOTS list[tuple[str, dict[str, list[str]]]]: messages speaking of a glossary term, each with
                 the words its translation holds in each language.
  ORDER_WORDS    set[str]: the words of its orders (a pattern's) its order words must translate;
                 SPELT_ORDERS list[str]: orders that read back as written from each language's words;
                 ALIKE tuple[str, ...]: the order words both languages spell as English.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import Any, Iterable

import pytest

from pbem.rules.base import KNOWN, get_ruleset

HERE = Path(__file__).parent

#: every game pbem hosts while the tests run, sorted
GAMES: list[str] = sorted(KNOWN)

#: the one game a test of the pipeline (mail, CLI, store, lobby, ...) may name when it needs just "a
#: game": the test is about pbem, not about that game, and any game would do. The guard in
#: tests/test_rooms.py lets its name stand in such a test, and no other game's.
EXAMPLE = "medici"

#: the game a test of the pipeline plays when it needs a whole game quickly, at a table of two seats (a
#: bot's seat beside a player, a game by mail to its end): any game of two would do; this one ends
#: soonest. The guard in tests/test_rooms.py lets a test name it through this name alone.
QUICK = "medici-strozzi"

#: the games a test of the pipeline plays to their end at a table of three that one player leaves (a
#: rematch without him), each with the options that end it soonest: one that the two left may play
#: again, and one that two may not play. Any games of such tables would do; these end soonest.
LEFT_BY_ONE = {"two may play": ("goofspiel", {"cards": "5"}), "two may not": ("whist", {"hand": "3"})}

#: names enough for the largest table of any game
NAMES = ("anna", "ben", "cleo", "dora", "emil", "fred", "gina", "hugo")
#: the longest names a player may have (24 characters), and the longest game id (40)
LONG_NAMES = tuple(f"{c}-player-with-long-name{i}" for i, c in enumerate("abcdefgh"))
LONG_GAME = "a-game-id-of-forty-characters-0123456789"

#: the languages a test of the players' languages gives the seats of a table, round the table: the first
#: seat reads German, the second Dutch, the third English, the fourth German again...
SEAT_LANGUAGES = ("de", "nl", "en")


def languages(players: Iterable[str] = NAMES) -> dict[str, str]:
    """Each player's language, SEAT_LANGUAGES in turn round the table: a table of any size has a German
    and a Dutch reader, and an English one from three seats on."""
    return {p: SEAT_LANGUAGES[i % len(SEAT_LANGUAGES)] for i, p in enumerate(players)}


def titles() -> tuple[str, ...]:
    """Every game's title as the registry has it (`Medici vs Strozzi`): a name, written alike in every
    language, which a test of a mail's language leaves out as it leaves out the players' names (the
    lobby's list of games names them all), the longest first: a title that holds another goes whole."""
    return tuple(sorted({get_ruleset(game).title for game in GAMES}, key=lambda t: (-len(t), t)))


def room_file(game: str) -> Path:
    """The file that holds `game`'s room."""
    return HERE / f"{game.replace('-', '_')}.py"


def room(game: str) -> ModuleType:
    """The room of `game`: its test data. Fails naming the file a game without one must add."""
    path = room_file(game)
    if not path.exists():
        pytest.fail(f"the game {game!r} has no room: add {path.relative_to(HERE.parent.parent)} "
                    f"(tests/rooms/__init__.py says what it supplies)", pytrace=False)
    module = importlib.import_module(f"rooms.{path.stem}")
    for name in ("PLAYERS", "TABLES"):
        if not hasattr(module, name):
            pytest.fail(f"{path.relative_to(HERE.parent.parent)} lacks {name}, which every room supplies",
                        pytrace=False)
    return module


def need(game: str, name: str) -> Any:
    """The optional attribute `name` of `game`'s room; the test is skipped, saying so, if it has none."""
    module = room(game)
    if not hasattr(module, name):
        pytest.skip(f"tests/rooms/{room_file(game).name} has no {name}")
    return getattr(module, name)


def tables(game: str) -> list[tuple[list[str], dict[str, Any]]]:
    """`game`'s tables as (player names, options)."""
    return [(list(NAMES[:count]), dict(options)) for count, options in room(game).TABLES]


def each(attribute: str) -> list[Any]:
    """A pytest parameter (game, *entry) for each entry of the room attribute `attribute` (a list) of each
    game; a game whose room lacks it gets one parameter that skips, saying so."""
    out = []
    for game in GAMES:
        module = room_file(game).exists() and importlib.import_module(f"rooms.{room_file(game).stem}")
        entries = getattr(module, attribute, None) if module else None
        if entries is None:
            reason = f"tests/rooms/{room_file(game).name} has no {attribute}" if module else f"{game} has no room"
            out.append(pytest.param(game, *([None] * ARITY.get(attribute, 1)), id=f"{game}-no-{attribute}",
                                    marks=pytest.mark.skip(reason=reason)))
            continue
        for entry in entries:
            entry = entry if isinstance(entry, tuple) else (entry,)
            out.append(pytest.param(game, *entry, id="-".join([game, *(str(x) for x in entry if isinstance(x, (str, int)))])))
    return out


#: how many values an entry of a list-valued room attribute holds (a skipped parameter fills them)
ARITY = {"ALL_TABLES": 4, "LONG_TABLES": 4, "PICTURE_TABLES": 4, "SECRET_TABLES": 4, "PHONE_TABLES": 3, "PHONE_SHOTS": 4,
         "READINGS": 3, "WHOLE_GAMES": 4, "PART_GAMES": 5}


def every_table() -> list[Any]:
    """A pytest parameter (game, names, options) for each table of each game, with a readable id."""
    out = []
    for game in GAMES:
        if not room_file(game).exists():
            out.append(pytest.param(game, [], {}, id=game))  # room() fails it, naming the file
            continue
        for names, options in tables(game):
            label = "-".join([game, str(len(names)), *(f"{k}={v}" for k, v in sorted(options.items()))])
            out.append(pytest.param(game, names, options, id=label))
    return out
