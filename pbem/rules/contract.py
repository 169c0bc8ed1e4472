"""The ruleset contract: everything a game gives pbem and everything pbem gives a game, in one place.

A game is a sequence of decisions. The engine says who must decide (`decision`) and what they may
choose (`legal_orders`); an order is one such choice. Chance is the engine's own step, drawn from the
`Rng` it is handed (`rng.below(n, label)`, `rng.choice(items, label)`, `rng.shuffle(items, label)`, the
label naming the draw; `pbem.rules.base.stack` makes a draw pile with a deck file's cards on top). The
state is plain data (dicts, lists, ints, strings) that round-trips through YAML. Engines never read
files, print, or use `random`.

A game is a class derived from `Ruleset`, decorated with `pbem.rules.base.register` and named by one
line of `pbem.rules.base.KNOWN` (a game of the GM's own: by `PBEM_RULESETS`). Beside it live its bot,
its refusals, its templates, its schemas and its catalogs (`FILES`). `register` checks what can be
checked without playing (`problems`) and refuses a ruleset that breaks the contract, naming what is
missing; `pbem rulesets --check` also plays a game of each by its bot (`pbem.rules.checking`).

The contributor's guide (docs/contributing.md, "The ruleset contract") is made from this module:
`python -m pbem.rules.contract docs/contributing.md` writes it, and a test fails when they differ.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import json
import sys
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any, ClassVar, NamedTuple, Union

from pbem.errors import IllegalOrder, Refusal, SetupError
from pbem.patterns import Pattern
from pbem.refusals import refuse
from pbem.rng import Rng

Order = Union[str, dict[str, Any]]
Event = dict[str, Any]
State = dict[str, Any]

#: what a game's name may be: it names its files, its catalog domain and its games' ids
NAME = Pattern(r"[a-z][a-z0-9-]{0,23}\Z")

#: the keys every state must hold, and what pbem reads in each (the state schema requires them too)
REQUIRED_STATE_KEYS: dict[str, str] = {
    "turn": "the number of the decision the game waits for: 1 at the start, one more each time a "
            "decision is settled. A decision of several players keeps its turn until the last of them "
            "has decided; the order log, the deadlines and the turn files count by it.",
}

#: the keys of an event the game writes (`setup` and `_apply` return events: dicts)
EVENT_KEYS: dict[str, str] = {
    "type": "required: what happened, a word of the game's own (its `events.j2` writes it)",
    "to": "optional: the players it is told to (a list); without it every player reads it. A player's "
          "secret (his card drawn, his choice before it is opened) is an event `to` him alone: his "
          "reports, the GM and the finished game's archive show it, nobody else's text does",
}

#: keys pbem writes into an event itself: an engine never sets them
RESERVED_EVENT_KEYS: dict[str, str] = {
    "turn": "the decision it happened at (0: the setup)",
    "pipeline": "marks pbem's own notices (a substitute move, a new player...)",
    "substitute": "the order came from the deadline's policy (`default` or `bot`)",
    "by": "the order came from a standing order, an order sent ahead, or a bot's seat",
}

#: event types pbem itself knows of (`Ruleset.mail_events`: mailed at once)
GAME_END = "game_end"

#: the keys of each row of `Ruleset.result`, best first
RESULT_KEYS: dict[str, str] = {
    "player": "the player's name",
    "score": "his score, a number (the standings' column)",
    "rank": "his place from 1; tied players share a rank (`pbem.rules.base.standings(players, scores, "
            "tiebreak)` ranks by score, then by each player's `tiebreak` tuple of numbers, the higher better, "
            "and gives players equal in all of them one rank)",
}


class Decision(NamedTuple):
    """Who must act now and what kind of choice it is (a tuple: made at every look, it must be cheap).

    `players`: those the decision waits for. One player: he may give several orders in one reply, each
    applied while the decision is still his. Several players (`together`): each gives one order, and
    the decision keeps its turn until the last is in; the players already in leave `players`
    (`pbem.rules.simultaneous.SecretChoices` keeps such a round's choices secret until then).
    `kind`: a word of the game naming the choice (`bid`, `draw`, `lead`), said in `pbem status` and
    reminders. `OnePlayer(kind)[player]` is a one-player decision made once and kept (which player and
    which kind may hang on what only he holds: the orders he may give are `legal_orders`' alone)."""

    players: tuple[str, ...]
    kind: str
    together: bool = False


class OnePlayer(dict[str, Decision]):
    """The decisions of one kind that one player makes alone, by player: each made once, as a game looks
    at them before and after every order."""

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def __missing__(self, player: str) -> Decision:
        made = self[player] = Decision((player,), self.kind)
        return made


class StandingMove:  # not a dataclass: one costs its module's import ~3M instructions, compiling its methods
    """What a player's standing orders do at his decision now: the order they give (None: they do not
    answer this decision), his standing orders afterwards, and those dropped now, each with why (he is
    told)."""

    __slots__ = ("order", "entries", "dropped")

    def __init__(self, order: Order | None, entries: list[dict[str, Any]], dropped: list[str]) -> None:
        self.order, self.entries, self.dropped = order, entries, dropped

    def __repr__(self) -> str:
        return f"StandingMove({self.order!r}, {self.entries!r}, {self.dropped!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StandingMove) and \
            (self.order, self.entries, self.dropped) == (other.order, other.entries, other.dropped)


class Ruleset(ABC):
    """One game's rules. A subclass sets the class attributes without a default and defines the
    abstract methods; the others it may override."""

    #: the game's name: lower case, digits and `-`, at most 24 characters (its files are named by it)
    name: ClassVar[str]
    #: the game's name for players (`Medici`); reports and mails name it so
    title: ClassVar[str]
    #: the fewest players a table may have
    min_players: ClassVar[int]
    #: the most players a table may have
    max_players: ClassVar[int]
    #: an order of the game as a player writes it (`bid: 7`), for a help text when his own legal orders
    #: are not known
    example_order: ClassVar[str] = ""
    #: option name -> allowed values; the first value is the default
    options: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: each option's value in words for players (English, in the game's catalog, so written `N_()` of
    #: `pbem.i18n`, which the catalog tool reads): `edition riogrande` reads `the Rio Grande edition (2006)`
    option_words: ClassVar[dict[tuple[str, str], str]] = {}
    #: the folder of a game that lives outside pbem/ (`PBEM_RULESETS`), holding its `templates/`,
    #: `schemas/` and `locale/` as pbem's own folders hold them for its games; None: pbem's own folders
    files: ClassVar[Path | None] = None
    #: the kinds of standing order the game takes, and what each does (for help texts); none: it takes none
    standing_help: ClassVar[dict[str, str]] = {}
    #: events a player hears of at once, even when nothing waits for him (scorings, the end)
    mail_events: ClassVar[frozenset[str]] = frozenset({GAME_END})

    def options_text(self, options: dict[str, str], lang: str = "en") -> str:
        """The options a player chooses among (those with more than one value), in `lang`'s words."""
        from pbem.i18n import translator

        _ = translator(lang, self.name).gettext
        return ", ".join(_(self.option_words[(k, v)]) if (k, v) in self.option_words else f"{k} {v}"
                         for k, v in options.items() if len(self.options.get(k, ())) > 1)

    def check_options(self, given: dict[str, str]) -> dict[str, str]:
        """The full option set, or `SetupError` naming the unknown option or value."""
        out = {k: v[0] for k, v in self.options.items()}
        for key, value in given.items():
            if key not in self.options:
                if not self.options:
                    raise SetupError(refuse("no-options", game=self.name, option=key))
                raise SetupError(refuse("no-option", game=self.name, option=key, known=", ".join(sorted(self.options))))
            if value not in self.options[key]:
                raise SetupError(refuse("option-value", option=key, value=value, game=self.name,
                                        values=", ".join(self.options[key])))
            out[key] = value
        return out

    def check_players(self, players: list[str]) -> None:
        """`SetupError` unless the table has `min_players` to `max_players` players."""
        refusal = self.players_refusal(len(players))
        if refusal is not None:
            raise SetupError(refusal)

    def players_refusal(self, n: int) -> Refusal | None:
        """Why a table of `n` players cannot play this game (None: it can)."""
        if self.min_players <= n <= self.max_players:
            return None
        if self.min_players == self.max_players:
            return refuse("players-exactly", title=self.title, count=self.min_players, n=n)
        return refuse("players-between", title=self.title, least=self.min_players, most=self.max_players, n=n)

    @abstractmethod
    def check_deck(self, deck: Any, players: list[str], options: dict[str, str]) -> dict[str, Any]:
        """A fixed card order read from a `--deck` file, checked; `SetupError` if it is wrong (a game
        without decks refuses every deck file)."""

    @abstractmethod
    def setup(self, players: list[str], options: dict[str, str], rng: Rng,
              deck: dict[str, Any] | None = None) -> tuple[State, list[Event]]:
        """A new game, and what happened while setting it up. `options` is the full set, as
        `check_options` gave it (every option, its default where none was chosen). The state holds
        `REQUIRED_STATE_KEYS` (`turn` is 1); the events are `EVENT_KEYS` dicts."""

    @abstractmethod
    def decision(self, state: State) -> Decision | None:
        """Who is to act now; None when the game is over."""

    @abstractmethod
    def candidate_orders(self, state: State, player: str) -> list[Order]:
        """Every order that might be legal for `player` now; `legal_orders` filters them."""

    @abstractmethod
    def why_illegal(self, state: State, player: str, order: Order) -> str | None:
        """Why `order` may not be given now, as a `Refusal` of the game's refusals module (or of
        `pbem.refusals.RULES_MESSAGES`, the words every game says); None if it is legal."""

    @abstractmethod
    def _apply(self, state: State, player: str, order: Order, rng: Rng) -> list[Event]:
        """Carry out a legal order (mutating state) and every chance step that follows it; what
        happened, as events. When the decision is settled, `state["turn"]` grows by one."""

    @abstractmethod
    def view(self, state: State, player: str | None) -> dict[str, Any]:
        """What `player` may see (None: the GM, who sees everything; "": what every player may see).
        The report, the pictures and the bot are made from it alone, so it holds no other player's
        secret."""

    @abstractmethod
    def result(self, state: State) -> list[dict[str, Any]]:
        """Final standings, best first: rows of `RESULT_KEYS`; ties share a rank."""

    def view_in(self, view: dict[str, Any], player: str | None, lang: str) -> dict[str, Any]:
        """`player`'s view (as `view` gave it) with the text it writes itself in `lang`, for a report in
        that language; a game whose view writes no text gives it back as it is."""
        return view

    def picture_board(self) -> dict[str, Any]:
        """What the game's board picture (`board.svg.j2`) needs besides a view: where the fixed parts
        of its board lie, if the picture draws them (its context's `board`)."""
        return {}

    def bot_view(self, state: State, player: str) -> dict[str, Any]:
        """What a bot reads of `player`'s view: the view, less what only a human reader needs (display
        text), which a game may leave out to save time. Never more than `view` shows."""
        return self.view(state, player)

    def passive_order(self, state: State, player: str) -> Order | None:
        """The most passive legal order (pass, decline...), given for a player who missed his deadline
        under the `default` policy; None when the game has none (the bot moves instead)."""
        return None

    def check_standing(self, state: State, player: str, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Standing orders as a player gives them (already checked by `<game>.standing.schema.json`),
        bound to the moment they are given; `IllegalOrder` when they cannot stand."""
        if entries:
            raise IllegalOrder(refuse("no-standing-orders", title=self.title))
        return []

    @staticmethod
    def one_of_each(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Standing orders of different kinds (each is one `kind: value` mapping), copied."""
        kinds = [next(iter(e)) for e in entries]
        for kind in kinds:
            if kinds.count(kind) > 1:
                raise IllegalOrder(refuse("standing-twice", kind=repr(kind), count=kinds.count(kind)))
        return [dict(e) for e in entries]

    def refresh_standing(self, state: State, player: str, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """After any order: bind standing orders to what they wait for, drop those whose time is over."""
        return entries

    def standing_move(self, state: State, player: str, entries: list[dict[str, Any]]) -> StandingMove:
        """The order `player`'s standing orders give at his decision now."""
        return StandingMove(None, entries, [])

    def standing_shown(self, entry: dict[str, Any]) -> dict[str, Any]:
        """A standing order as the player wrote it (without what pbem bound it to)."""
        return dict(entry)

    def mail_moment(self, state: State, player: str, events: list[Event],
                    standing: list[dict[str, Any]]) -> bool:
        """Whether `events` (unread by `player`, who is not to move) are a moment he must hear of now;
        otherwise they wait for his next mail. `standing`: his standing orders."""
        return any(e["type"] in self.mail_events for e in events)

    def order_block(self, choices: list[str]) -> list[str]:
        """The orders a report's turn file offers, commented out, from the legal orders in few words
        (`bid: N`); a game with many alike may offer them as one pattern the report explains."""
        return choices

    def legal_orders(self, state: State, player: str) -> list[Order]:
        """The orders `player` may give now (not to be overridden: `candidate_orders` less the refused)."""
        return [o for o in self.candidate_orders(state, player) if self.why_illegal(state, player, o) is None]

    def apply(self, state: State, player: str, order: Order, rng: Rng) -> list[Event]:
        """Apply one order, or raise `IllegalOrder` and leave `state` untouched (not to be overridden)."""
        reason = self.why_illegal(state, player, order)
        if reason is not None:
            raise IllegalOrder(reason)
        return self._apply(state, player, order, rng)


#: class attributes a ruleset must set (they have no default)
REQUIRED_ATTRIBUTES: dict[str, type] = {"name": str, "title": str, "min_players": int, "max_players": int,
                                        "example_order": str}

# -- the files beside a ruleset ----------------------------------------------------------------------------

#: a game's files: where each lies (`GAME` its name, `MODULE` the module `KNOWN` names, `FILES` its
#: `files` folder, or pbem's folders when it has none), whether it is required, and what it holds
FILES: list[tuple[str, bool, str]] = [
    ("MODULE (a module, or a package's __init__.py)", True,
     "the `Ruleset` subclass, decorated with `@register`"),
    ("MODULE.bot or MODULE_bot", True,
     "the bot: a function `choose(view, player, legal) -> order` decorated with `@pbem.bots.bot(GAME)`; "
     "it reads the player's view alone and returns one of `legal`; the same view gives the same order"),
    ("MODULE.refusals or MODULE_refusals", True,
     "the refusals: `MESSAGES, REFUSALS, refuse = rules_refusals({id: N_(english), ...})` "
     "(`pbem.refusals.rules_refusals`, `pbem.i18n.N_`); its `refuse` knows pbem's `game-over`, "
     "`not-your-decision` and `chosen-already` too; may hold `STANDING_HELP`, the standing orders' help texts"),
    ("templates/GAME/report.txt.j2", True, "the turn report: extends `common/report.txt.j2`"),
    ("templates/GAME/events.j2", True, "a macro `event(e)`: one line for an event"),
    ("templates/GAME/rules.txt.j2", True, "the rules in short, for the welcome mail and `rules` by mail"),
    ("templates/GAME/board.svg.j2", True, "the board picture, 720 units wide"),
    ("templates/GAME/board-phone.svg.j2", False, "the board for a phone, 360 units wide (else the board)"),
    ("schemas/GAME.orders.schema.json", True,
     "ONE order's shape (JSON Schema 2020-12; an order is a word, `pass`, or a mapping, `play: QH`), "
     "not the list; a `message` on any of its nodes is what a player reads when that node refuses his "
     "order (`{value}`: what he sent; a missing or unknown key keeps pbem's words), and goes into the "
     "game's catalog from the schema; a typed `play qh` is read as `play: QH` where the schema's "
     "`pattern` or `enum` spells it so"),
    ("schemas/GAME.state.schema.json", True, "the state's shape; it requires `REQUIRED_STATE_KEYS`"),
    ("schemas/GAME.standing.schema.json", False, "a standing order's shape, for a game that takes them"),
    ("schemas/GAME.deck.schema.json", False, "a `--deck` file's shape"),
    ("locale/de/LC_MESSAGES/GAME.po, locale/nl/...", True,
     "its words in German and Dutch (`make catalogs GAME=GAME` makes them; then fill in the msgstr)"),
    ("locale/words/GAME.yaml", False, "its order words in each language (`bid`: `bieten`, `bieden`)"),
    ("locale/words/options.yaml", False,
     "how players name its options and their values in a challenge by mail, in each language "
     "(`GAME: {edition: {de: [ausgabe], nl: [uitgave]}}`); read, never written"),
]
TEMPLATES = ("report.txt.j2", "events.j2", "rules.txt.j2", "board.svg.j2")
SCHEMAS = ("orders", "state")
#: what a refusals module exports
REFUSALS_EXPORTS = ("MESSAGES", "REFUSALS", "refuse")

# -- what each template is given ---------------------------------------------------------------------------

#: the report (`report.txt.j2`, which extends common/report.txt.j2): its context
REPORT_CONTEXT: dict[str, str] = {
    "game": "the game's id (`g1`)",
    "ruleset": "the game's name",
    "options": "the table's options",
    "turn": "the decision the game waits for",
    "status": "`active`, `paused` or `finished`",
    "waiting_for": "the players the decision waits for",
    "waiting_since": "when it began to wait (ISO)",
    "seed_sha256": "the seed's commitment",
    "view": "the reader's view, through `view_in` in his language",
    "bots": "the seats bots play (only where there are some)",
    "legal_orders": "the reader's legal orders (a player's report)",
    "standing": "his standing orders (a player's report)",
    "result": "at the end: `{standings: [RESULT_KEYS rows]}`; else None",
    "seed": "at the end: the seed; else None",
    "player": "the reader (None: the GM)",
    "events": "the events since his last report that he may read",
    "standing_text": "his standing orders in words (the skeleton shows it)",
    "order_choices": "his legal orders in few words (`bid: N (N from 1 to 5)`)",
    "turn_file": "the order block to fill in",
    "one_line": "an order he may send alone in a reply, or None",
    "together": "the decision is one of several players at once (`Decision.together`): the skeleton "
                "says a secret choice's words",
    "zone": "the time zone his times are written in",
}
#: the report's globals and filters (every text template has them)
REPORT_GLOBALS: dict[str, str] = {
    "_, ngettext, {% trans %}": "the game's catalog, then pbem's",
    "common_": "a word of pbem's catalog alone: the skeleton's words, and the words every game says "
               "(`common_(\"THE TABLE\")`, `common_(\"the game is over\")`)",
    "lang": "the reader's language",
    "wrap72, wrap_items, reflow, fit": "filters that fit text to 72 columns",
    "words, number, moment": "filters: an order in his order words, a number, an ISO time in his language",
    "MOVE, BLOCK, SEED": "the marks around the parts `move_first` moves (the skeleton sets them)",
}
#: the blocks and variables a report sets for the skeleton
REPORT_BLOCKS: dict[str, str] = {
    "heading": "a variable: the game's name in capitals",
    "subtitle": "a variable: its second line",
    "event": "imported from its `events.j2`",
    "board": "a block: its board and tables",
    "final": "a block: what it shows only at the end, before the standings",
    "now": "a block: what is on the table now",
    "decision": "a block: what the reader decides, under YOUR MOVE",
    "move": "a block: the whole of YOUR MOVE (rarely needed: a secret choice has its words in the "
            "skeleton)",
    "waiting_what": "a variable (optional): the decision the game waits for, in words",
}
#: a board picture (`board.svg.j2`, `board-phone.svg.j2`): its context
PICTURE_CONTEXT: dict[str, str] = {
    "view": "the view of `viewer` (\"\" for the public picture)",
    "viewer": "the player it is drawn for (None: what every player may see)",
    "game": "the game's id",
    "title": "the ruleset's `title`",
    "status": "`active`, `paused` or `finished`",
    "turn": "the decision the game waits for",
    "seats": "each seat: `{n, name, colour}`",
    "seat": "the same by name",
    "board": "`picture_board()`",
    "when": "when it is drawn (`after turn 65`), or \"\": the title says the turn (board.svg.j2 only)",
    "PHONE": "its width, 360 (board-phone.svg.j2 only)",
}
#: a board picture's globals: always `_` and `ngettext` (English: the words as written)
PICTURE_GLOBALS: dict[str, str] = {
    "_, ngettext": "the game's catalog, then pbem's (English: the text as written)",
    "WIDTH, FONT": "the picture's width (720) and its font",
    "ink, good_colour, card_parts, family_colours, pick, text_width": "drawing helpers (pbem.pictures)",
    "common/board-parts.svg.j2": "macros `header(height, title, game, turn, viewer, status, line2=, when=)`, "
                                 "`legend(seats, y, viewer)`, `token(x, y, seat)`, imported with "
                                 "`{% import ... as parts %}`",
    "common/board-phone-parts.svg.j2": "the same for a phone (imported `with context`)",
}
#: the other templates: their context
OTHER_CONTEXT: dict[str, str] = {
    "events.j2": "a macro `event(e)` of one event (its `EVENT_KEYS` and `turn`; a notice of pbem's has "
                 "`pipeline`, written `e.text`: ask `e.get(\"pipeline\")`, a game's event has no such key "
                 "and the templates' undefined is strict); `game_end` comes from `common/events.j2` "
                 "(`{% from \"common/events.j2\" import game_end %}`); the module gets `options`",
    "rules.txt.j2": "`view`: the GM's view of a game just begun",
}


# -- the checks at registration ----------------------------------------------------------------------------

class ContractError(SetupError):
    """A ruleset that breaks the contract: the message names each thing missing."""


def abstract_left(cls: type) -> list[str]:
    """The abstract methods `cls` does not define."""
    return sorted(getattr(cls, "__abstractmethods__", ()))


def problems(cls: type, module: str, templates: Path, schemas: Path) -> list[str]:
    """What `cls`, registered from `module`, lacks of the contract, each in words; checked without
    playing: its attributes and methods, its bot and refusals modules, its templates (the folder
    `templates` holds them) and schemas (in `schemas`)."""
    found: list[str] = []
    missing = [a for a, kind in REQUIRED_ATTRIBUTES.items()
               if not isinstance(getattr(cls, a, None), kind) or isinstance(getattr(cls, a, None), bool)
               or getattr(cls, a, None) == ""]
    if missing:
        found.append("it sets no " + ", ".join(f"{a} ({REQUIRED_ATTRIBUTES[a].__name__})" for a in missing))
    name = getattr(cls, "name", None)
    if isinstance(name, str) and not NAME.match(name):
        found.append(f"its name {name!r} is not lower case letters, digits and -, at most 24")
    low, high = getattr(cls, "min_players", None), getattr(cls, "max_players", None)
    if isinstance(low, int) and isinstance(high, int) and not 1 <= low <= high:
        found.append(f"its players {low} to {high} are no range from 1")
    left = abstract_left(cls)
    if left:
        found.append(f"it does not define {', '.join(left)}")
    options = getattr(cls, "options", {})
    if not isinstance(options, dict) or not all(isinstance(v, tuple) and v and all(isinstance(x, str) for x in v)
                                                for v in options.values()):
        found.append("its options are not name -> a tuple of values, the default first")
    package = _is_package(module)
    for part, exports in (("bot", ()), ("refusals", REFUSALS_EXPORTS)):
        where = f"{module}.{part}" if package else f"{module}_{part}"
        if _spec(where) is None:
            found.append(f"it has no {part} module {where}")
        elif exports:
            held = sys.modules.get(where) or importlib.import_module(where)
            lacking = [e for e in exports if not hasattr(held, e)]
            if lacking:
                found.append(f"its refusals module {where} has no {', '.join(lacking)}")
    if isinstance(name, str) and name:
        absent = [t for t in TEMPLATES if not (templates / t).is_file()]
        if absent:
            found.append(f"it has no template {', '.join(absent)} in {templates}")
        for kind in SCHEMAS:
            path = schemas / f"{name}.{kind}.schema.json"
            if not path.is_file():
                found.append(f"it has no schema {path}")
            elif kind == "state":
                required = json.loads(path.read_text("utf-8")).get("required", [])
                lacking = [k for k in REQUIRED_STATE_KEYS if k not in required]
                if lacking:
                    found.append(f"its state schema {path.name} does not require {', '.join(lacking)}")
    return found


def _spec(module: str) -> Any:
    try:
        return importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None


def _is_package(module: str) -> bool:
    """Whether `module` is a package (its bot and refusals are modules inside it)."""
    held = sys.modules.get(module)
    if held is not None:
        return hasattr(held, "__path__")
    spec = _spec(module)
    return spec is not None and spec.submodule_search_locations is not None


# -- the page of the contributor's guide ---------------------------------------------------------------------

BEGIN = "<!-- the ruleset contract: made from pbem/rules/contract.py (python -m pbem.rules.contract docs/contributing.md) -->"
END = "<!-- end of the ruleset contract -->"


def _attribute_notes(cls: type) -> dict[str, str]:
    """The `#:` comments above each class attribute of `cls`, read from its source."""
    lines = inspect.getsource(cls).splitlines()
    tree = ast.parse("\n".join(lines))
    notes: dict[str, str] = {}
    body = tree.body[0].body  # type: ignore[attr-defined]
    for node in body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            said = []
            i = node.lineno - 2
            while i >= 0 and lines[i].strip().startswith("#:"):
                said.insert(0, lines[i].strip()[2:].strip())
                i -= 1
            notes[node.target.id] = " ".join(said)
    return notes


def _summary(doc: str | None) -> str:
    return " ".join((doc or "").split())


def _signature(fn: Any) -> str:
    """`(state: State, player: str) -> list[Order]`, without `self`."""
    sig = inspect.signature(fn)
    params = [f"{p.name}: {p.annotation}" + (f" = {p.default!r}" if p.default is not p.empty else "")
              for p in sig.parameters.values() if p.name != "self"]
    return f"({', '.join(params)}) -> {sig.return_annotation}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _table(rows: dict[str, str], head: tuple[str, str]) -> list[str]:
    out = [f"| {head[0]} | {head[1]} |", "| --- | --- |"]
    out += [f"| {_cell(k if k.startswith('`') else f'`{k}`')} | {_cell(v)} |" for k, v in rows.items()]
    return out


def page() -> str:
    """The section of the contributor's guide that says the contract, from this module."""
    notes = _attribute_notes(Ruleset)
    required_methods = abstract_left(Ruleset)
    own = {n: f for n, f in vars(Ruleset).items() if callable(f) or isinstance(f, staticmethod)}
    may = [n for n in own if n not in required_methods and not n.startswith("__")]
    out = ["## The ruleset contract", "",
           "What a game gives pbem and what pbem gives a game. `pbem/rules/contract.py` says it in code; this "
           "section is made from it.", "",
           _summary((__doc__ or "").split("\n\n")[1]), "",
           "A game is a class derived from `Ruleset` (`pbem.rules.contract`, also importable from "
           "`pbem.rules.base`), decorated with `@register` and named by one line of `KNOWN` "
           "(a game of the GM's own: by `PBEM_RULESETS`). Registration refuses a ruleset that breaks "
           "the contract, naming what is missing; `pbem rulesets --check` also plays a game of each by "
           "its bot and names what it breaks.", "",
           "### What a ruleset sets", ""]
    out += _table({a: notes.get(a, "") for a in REQUIRED_ATTRIBUTES}, ("required attribute", "what it is"))
    out += ["", "It may set:", ""]
    out += _table({a: notes.get(a, "") for a in notes if a not in REQUIRED_ATTRIBUTES}, ("attribute", "what it is"))
    out += ["", "### What a ruleset defines", ""]
    out += _table({f"`{n}{_signature(own[n])}`": _summary(own[n].__doc__) for n in required_methods},
                  ("required method", "what it does"))
    out += ["", "It may override:", ""]
    out += _table({f"`{n}{_signature(getattr(Ruleset, n))}`": _summary(getattr(Ruleset, n).__doc__) for n in may},
                  ("method", "what it does"))
    out += ["", "### The state", "", "Plain data that round-trips through YAML, checked by its state schema. It "
            "holds:", ""]
    out += _table(REQUIRED_STATE_KEYS, ("key", "what pbem reads in it"))
    out += ["", "### Events and who reads them", ""]
    out += _table(EVENT_KEYS, ("key", "what it is"))
    out += ["", "pbem writes these into each event itself; an engine never sets them:", ""]
    out += _table(RESERVED_EVENT_KEYS, ("key", "what it is"))
    out += ["", f"An event of type `{GAME_END}` (the game is over) is mailed at once (`mail_events`); it carries "
            "`standings`, the rows of `result`, which `common/events.j2`'s `game_end` macro writes.", "",
            "### Decisions of one or of several players", "", _summary(Decision.__doc__), "",
            "### Standings", ""]
    out += _table(RESULT_KEYS, ("key", "what it is"))
    out += ["", "### The files beside it", "",
            "`GAME` is its name, `MODULE` the module `KNOWN` names; templates, schemas and catalogs lie in "
            "pbem's folders (`templates/`, `schemas/`, `pbem/locale/`) or, for a game with `files`, in "
            "that folder's own. Its templates are named `GAME/...` wherever they lie: a report imports "
            "`{% from \"GAME/events.j2\" import event %}`, a board `{% import \"GAME/parts.svg.j2\" as own %}` "
            "(a template of its own beside the required ones, for what its boards share).", "",
            "| file | required | what it holds |", "| --- | --- | --- |"]
    out += [f"| `{f}` | {'yes' if req else 'no'} | {what} |" for f, req, what in FILES]
    out += ["", "### What the templates get", "", "The report (`report.txt.j2`) gets:", ""]
    out += _table(REPORT_CONTEXT, ("name", "what it is"))
    out += ["", "and these globals and filters:", ""]
    out += _table(REPORT_GLOBALS, ("name", "what it is"))
    out += ["", "The skeleton writes the header, the events since the reader's last report (each by the game's "
            "`event`), the final standings and the seed, YOUR MOVE's choices (`order_choices`), how to reply and "
            "the order block, and whom the game waits for; a game writes only its own blocks. It sets, for the "
            "skeleton:", ""]
    out += _table(REPORT_BLOCKS, ("name", "what it is"))
    out += ["", "A board picture (`board.svg.j2`, `board-phone.svg.j2`) gets:", ""]
    out += _table(PICTURE_CONTEXT, ("name", "what it is"))
    out += ["", "and:", ""]
    out += _table(PICTURE_GLOBALS, ("name", "what it is"))
    out += ["", "The others:", ""]
    out += _table(OTHER_CONTEXT, ("template", "what it gets"))
    return "\n".join(out) + "\n"


def placed(text: str) -> str:
    """`text` (the contributor's guide) with its contract section made anew between `BEGIN` and `END`."""
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[:start] + "\n" + page() + text[end:]


def main(argv: list[str] | None = None) -> int:
    """`python -m pbem.rules.contract PAGE`: write the contract's section into PAGE (between its marks)."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        sys.stderr.write("usage: python -m pbem.rules.contract docs/contributing.md\n")
        return 2
    path = Path(args[0])
    text = path.read_text("utf-8")
    if BEGIN not in text or END not in text:
        sys.stderr.write(f"error: {path} has no marks {BEGIN!r} ... {END!r}\n")
        return 2
    new = placed(text)
    if new != text:
        path.write_text(new, "utf-8")
        sys.stdout.write(f"wrote {path}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
