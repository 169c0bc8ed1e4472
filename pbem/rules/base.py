"""The ruleset contract, the registry of games and the shapes they exchange with the pipeline.

A game is a sequence of decisions. The engine says who must decide (`decision`) and what they may
choose (`legal_orders`); an order is one such choice. Chance is the engine's own step, drawn from the
`Rng` it is handed. State is plain data (dicts, lists, ints, strings) that round-trips through YAML.
Engines never read files, print, or use `random`.
"""

from __future__ import annotations

import importlib
import os
import re
from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, ClassVar, NamedTuple, Union

import yaml

from pbem import data_dir
from pbem.errors import IllegalOrder, SetupError
from pbem.refusals import refuse
from pbem.rng import Rng

Order = Union[str, dict[str, Any]]
Event = dict[str, Any]
State = dict[str, Any]


class Decision(NamedTuple):
    """Who must act now and what kind of choice it is (a tuple: made at every look, it must be cheap)."""

    players: tuple[str, ...]
    kind: str


class OnePlayer(dict[str, Decision]):
    """The decisions of one kind that one player makes alone, by player: each made once, as a game looks
    at them before and after every order."""

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def __missing__(self, player: str) -> Decision:
        made = self[player] = Decision((player,), self.kind)
        return made


@cache
def board_data(name: str) -> dict[str, Any]:
    """A game's tables and boards, from `pbem/rules/<name>.yaml`; loaded once."""
    text = (data_dir("pbem.rules") / f"{name}.yaml").read_text("utf-8")
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # safe; C when there is one


def order_text(order: Order) -> str:
    """An order as a player would write it in a turn file: `draw`, `bid: 7`, `{load: 4, harbour: B}`."""
    if isinstance(order, dict):
        text = ", ".join(f"{k}: {v}" for k, v in order.items())
        return text if len(order) == 1 else "{" + text + "}"
    return str(order)


def typed_text(order: Order) -> str:
    """An order as a player types it in a reply: `draw`, `bid: 7`, `load 4 harbour B` (never the braces
    of `{load: 4, harbour: B}`, which pbem reads too)."""
    if isinstance(order, dict) and len(order) > 1:
        return " ".join(f"{k} {v}" for k, v in order.items())
    return order_text(order)


@dataclass
class StandingMove:
    """What a player's standing orders do at his decision now."""

    order: Order | None                     # the order they give (None: they do not answer this decision)
    entries: list[dict[str, Any]]           # his standing orders afterwards
    dropped: list[str]                      # standing orders dropped now, each with why (he is told)


class Ruleset(ABC):
    """One game's rules. Subclasses declare their metadata and are found through `RULESETS`."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: an order of the game, for a help text when the player's own legal orders are not known
    example_order: ClassVar[str] = ""
    #: option name -> allowed values; the first value is the default
    options: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: each option's value in words for players (English, in the game's catalog): `edition riogrande`
    #: reads `the Rio Grande edition (2006)`
    option_words: ClassVar[dict[tuple[str, str], str]] = {}
    #: the folder of a game that lives outside pbem/ (see `OUTSIDE`), holding its `templates/`,
    #: `schemas/` and `locale/` as pbem's own folders hold them for its games; None: pbem's own folders
    files: ClassVar[Path | None] = None

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
                known = ", ".join(sorted(self.options)) or "none"
                raise SetupError(f"{self.name} has no option {key!r} (options: {known})")
            if value not in self.options[key]:
                raise SetupError(
                    f"option {key}={value!r} is not allowed for {self.name} "
                    f"(choose one of: {', '.join(self.options[key])})")
            out[key] = value
        return out

    def check_players(self, players: list[str]) -> None:
        n = len(players)
        if not self.min_players <= n <= self.max_players:
            count = (f"{self.min_players}" if self.min_players == self.max_players
                     else f"{self.min_players} to {self.max_players}")
            raise SetupError(f"{self.title} needs {count} players, not {n}")

    @abstractmethod
    def check_deck(self, deck: Any, players: list[str], options: dict[str, str]) -> dict[str, Any]:
        """A fixed card order read from a `--deck` file, checked; `SetupError` if it is wrong."""

    @abstractmethod
    def setup(self, players: list[str], options: dict[str, str], rng: Rng,
              deck: dict[str, Any] | None = None) -> tuple[State, list[Event]]:
        """A new game, and what happened while setting it up."""

    @abstractmethod
    def decision(self, state: State) -> Decision | None:
        """Who is to act now; None when the game is over."""

    @abstractmethod
    def candidate_orders(self, state: State, player: str) -> list[Order]:
        """Every order that might be legal for `player` now; `legal_orders` filters them."""

    @abstractmethod
    def why_illegal(self, state: State, player: str, order: Order) -> str | None:
        """Why `order` may not be given now, in words fit for the player; None if it is legal."""

    @abstractmethod
    def _apply(self, state: State, player: str, order: Order, rng: Rng) -> list[Event]:
        """Carry out a legal order (mutating state) and every chance step that follows it."""

    @abstractmethod
    def view(self, state: State, player: str | None) -> dict[str, Any]:
        """What `player` may see (None: the GM, who sees everything)."""

    def view_in(self, view: dict[str, Any], player: str | None, lang: str) -> dict[str, Any]:
        """`player`'s view (as `view` gave it) with the text it writes itself in `lang`, for a report in
        that language; a game whose view writes no text gives it back as it is."""
        return view

    def picture_board(self) -> dict[str, Any]:
        """What the game's board picture (`templates/<game>/board.svg.j2`) needs besides a view: where
        the fixed parts of its board lie, if the picture draws them."""
        return {}

    def bot_view(self, state: State, player: str) -> dict[str, Any]:
        """What a bot reads of `player`'s view: the view, less what only a human reader needs (display
        text), which a game may leave out to save time. Never more than `view` shows."""
        return self.view(state, player)

    @abstractmethod
    def result(self, state: State) -> list[dict[str, Any]]:
        """Final standings, best first: `{"player", "score", "rank"}`; ties share a rank."""

    def passive_order(self, state: State, player: str) -> Order | None:
        """The most passive legal order (pass, decline...), given for a player who missed his deadline
        under the `default` policy; None when the game has none (the bot moves instead)."""
        return None

    # -- standing orders: answers to a player's routine decisions, given ahead ----------------------
    #: the kinds of standing order the game takes, and what each does (for help texts)
    standing_help: ClassVar[dict[str, str]] = {}

    def check_standing(self, state: State, player: str, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Standing orders as a player gives them (already schema-checked), bound to the moment they are
        given; `IllegalOrder` when they cannot stand."""
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

    # -- mail only when it matters ------------------------------------------------------------------
    #: events a player hears of at once, even when nothing waits for him (scorings, the end)
    mail_events: ClassVar[frozenset[str]] = frozenset({"game_end"})

    def mail_moment(self, state: State, player: str, events: list[Event],
                    standing: list[dict[str, Any]]) -> bool:
        """Whether `events` (unread by `player`, who is not to move) are a moment he must hear of now;
        otherwise they wait for his next mail. `standing`: his standing orders."""
        return any(e["type"] in self.mail_events for e in events)

    def standing_shown(self, entry: dict[str, Any]) -> dict[str, Any]:
        """A standing order as the player wrote it (without what pbem bound it to)."""
        return dict(entry)

    def order_block(self, choices: list[str]) -> list[str]:
        """The orders a report's turn file offers, commented out, from the legal orders in few words
        (`bid: N`); a game with many alike may offer them as one pattern the report explains."""
        return choices

    def legal_orders(self, state: State, player: str) -> list[Order]:
        return [o for o in self.candidate_orders(state, player) if self.why_illegal(state, player, o) is None]

    def apply(self, state: State, player: str, order: Order, rng: Rng) -> list[Event]:
        """Apply one order, or raise `IllegalOrder` and leave `state` untouched."""
        reason = self.why_illegal(state, player, order)
        if reason is not None:
            raise IllegalOrder(reason)
        return self._apply(state, player, order, rng)


#: every game pbem hosts, by name: the module that holds it (imported when a game of it is first used)
KNOWN: dict[str, str] = {
    "florenz": "pbem.rules.florenz",
    "medici": "pbem.rules.medici",
    "medici-strozzi": "pbem.rules.medici_strozzi",
    "medina": "pbem.rules.medina",
}
OWN = frozenset(KNOWN)  # the games of pbem's own package
RULESETS: dict[str, type[Ruleset]] = {}  # the rulesets imported so far

#: the GM's own games, which live outside pbem/: `PBEM_RULESETS=goofspiel=tests.goofspiel.rules` (pairs
#: of name and module, separated by commas or spaces), read once when pbem starts
ENVIRONMENT = "PBEM_RULESETS"
NAME = re.compile(r"[a-z][a-z0-9-]{0,23}\Z")
MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z")


def outside_rulesets(text: str) -> tuple[dict[str, str], list[str]]:
    """The games a `PBEM_RULESETS` value names (name -> module), and what is wrong with it, entry by
    entry (a game of pbem's own cannot be named again)."""
    found: dict[str, str] = {}
    problems: list[str] = []
    for item in text.replace(",", " ").split():
        name, sep, module = item.partition("=")
        if not sep or not NAME.match(name) or not MODULE.match(module):
            problems.append(f"{ENVIRONMENT}: {item!r} is not NAME=MODULE (such as goofspiel=mygames.goofspiel)")
        elif name in OWN or name in found:
            problems.append(f"{ENVIRONMENT}: the ruleset {name!r} is named twice or is one of pbem's own")
        else:
            found[name] = module
    return found, problems


OUTSIDE, OUTSIDE_PROBLEMS = outside_rulesets(os.environ.get(ENVIRONMENT, ""))
KNOWN.update(OUTSIDE)


def register(cls: type[Ruleset]) -> type[Ruleset]:
    """A ruleset known by its name; a game that lives outside pbem/ tells the languages where its
    catalogs and order words are."""
    from pbem.i18n import OUTSIDE_LOCALES

    RULESETS[cls.name] = cls
    if cls.files is not None and cls.name in OUTSIDE:
        OUTSIDE_LOCALES[cls.name] = Path(cls.files) / "locale"
    return cls


def get_ruleset(name: str) -> Ruleset:
    """The ruleset called `name`, or `SetupError` listing the known ones."""
    if name not in RULESETS:
        if name not in KNOWN:
            wrong = "".join(f"; {p}" for p in OUTSIDE_PROBLEMS)
            raise SetupError(f"unknown ruleset {name!r} (known: {', '.join(sorted(KNOWN))}){wrong}")
        try:
            importlib.import_module(KNOWN[name])
        except ImportError as exc:
            if name not in OUTSIDE:
                raise
            raise SetupError(f"the ruleset {name!r} ({ENVIRONMENT}) cannot be imported from "
                             f"{KNOWN[name]!r}: {exc}") from None
        if name not in RULESETS:
            raise SetupError(f"the module {KNOWN[name]!r} registers no ruleset {name!r}")
    return RULESETS[name]()


def files_of(game: str | None, kind: str) -> Path | None:
    """Where a game that lives outside pbem/ keeps its files of `kind` (`templates`, `schemas`,
    `locale`); None for pbem's own games and its common files, which are in pbem's folders."""
    if game not in OUTSIDE:
        return None
    folder = type(get_ruleset(game)).files
    return None if folder is None else Path(folder) / kind


def standings(players: list[str], scores: dict[str, int]) -> list[dict[str, Any]]:
    """Final standings, best first; tied players share a rank (and keep their seating order)."""
    ranked = sorted(players, key=lambda p: -scores[p])
    return [{"player": p, "score": scores[p], "rank": 1 + sum(1 for q in ranked if scores[q] > scores[p])}
            for p in ranked]


def stack(fixed: list[str], everything: list[str], rng: Rng, label: str) -> list[str]:
    """A draw pile: the fixed items (from a deck file) on top, the rest shuffled beneath them."""
    rest = list(everything)
    for item in fixed:
        rest.remove(item)
    rng.shuffle(rest, label)
    return list(fixed) + rest


def check_stacks(deck: Any, key: str, unit: str, thing: str, example: str, available: Counter[str],
                 unknown: str, most: tuple[int, str] | None = None, stacks: int = 3) -> list[list[str]]:
    """The lists of a `--deck` file (`days: [[...], ...]`), each checked against what the game has."""
    if not isinstance(deck, dict) or set(deck) != {key}:
        raise SetupError(f"the deck file must hold one key, {key!r}: a list of up to {stacks} lists of {thing}s")
    lists = deck[key]
    if not isinstance(lists, list) or not 1 <= len(lists) <= stacks:
        raise SetupError(f"{key!r} must be a list of 1 to {stacks} lists of {thing}s")
    for i, items in enumerate(lists, start=1):
        if not isinstance(items, list) or not all(isinstance(c, str) for c in items):
            raise SetupError(f"{unit} {i} of the deck file must be a list of {thing} ids such as {example!r}")
        if most and len(items) > most[0]:
            raise SetupError(f"{unit} {i} of the deck file lists {len(items)} {thing}s; {most[1]}")
        for item in items:
            if item not in available:
                raise SetupError(f"{unit} {i} of the deck file: {item!r} is not {unknown}")
        for item, n in Counter(items).items():
            if n > available[item]:
                raise SetupError(f"{unit} {i} of the deck file lists {item!r} {n} times; the game has {available[item]}")
    return [list(x) for x in lists]


def shared_ranking(scores: dict[str, int], payouts: list[int]) -> list[dict[str, Any]]:
    """Rank by score, best first; tied players pool the payouts of the places they occupy and split
    them rounding down. Places beyond the table pay nothing."""
    order = sorted(scores, key=lambda p: -scores[p])
    out: list[dict[str, Any]] = []
    place = 0
    while place < len(order):
        tied = [p for p in order if scores[p] == scores[order[place]]]
        pool = sum(payouts[place:place + len(tied)])
        share = pool // len(tied)
        for p in tied:
            out.append({"player": p, "score": scores[p], "place": place + 1, "payout": share})
        place += len(tied)
    return out
