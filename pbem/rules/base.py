"""The registry of games, and the helpers their rules share (standings, draw piles, deck files).

The contract a game keeps (the `Ruleset` class, its state, events, decisions, files and templates) is
`pbem.rules.contract`; its names are importable from here too, as every game imports them.
"""

from __future__ import annotations

import importlib
import os
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from pbem import data_dir, i18n
from pbem.errors import SetupError
from pbem.patterns import Pattern
from pbem.rng import Rng
from pbem.rules.contract import (NAME, ContractError, Decision, Event, OnePlayer, Order, Ruleset, StandingMove,
                                 State)
from pbem.rules.contract import problems as contract_problems

__all__ = ["ContractError", "Decision", "Event", "OnePlayer", "Order", "Ruleset", "StandingMove", "State",
           "board_data", "check_stacks", "files_of", "get_ruleset", "order_text", "register", "schema_files",
           "schema_messages", "shared_ranking",
           "stack", "standings", "typed_text"]

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
MODULE = Pattern(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z")


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
    catalogs and order words are. `ContractError` naming what it lacks of the contract
    (`pbem.rules.contract.problems`): it is not registered."""
    from pbem.i18n import OUTSIDE_LOCALES

    name = getattr(cls, "name", None)
    module = KNOWN.get(name, cls.__module__) if isinstance(name, str) else cls.__module__
    folder = getattr(cls, "files", None)
    found = contract_problems(cls, module, Path(folder) / "templates" if folder else data_dir("pbem.templates") / name,
                     Path(folder) / "schemas" if folder else data_dir("pbem.schemas"))
    if found:
        where = f" ({ENVIRONMENT})" if name in OUTSIDE else ""
        raise ContractError(f"the ruleset {name!r}{where} breaks the contract (pbem/rules/contract.py): "
                            + "; ".join(found))
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


def _load_outside(game: str) -> None:
    """Import a game of the GM's own (`PBEM_RULESETS`) that is not yet, so that its words are looked up
    in its own folder (pbem.i18n asks before the first lookup); a game that cannot be imported is left to
    `get_ruleset` to name."""
    if game in OUTSIDE and game not in RULESETS:
        try:
            get_ruleset(game)
        except SetupError:
            pass


i18n.LOAD_OUTSIDE = _load_outside


def files_of(game: str | None, kind: str) -> Path | None:
    """Where a game that lives outside pbem/ keeps its files of `kind` (`templates`, `schemas`,
    `locale`); None for pbem's own games and its common files, which are in pbem's folders."""
    if game not in OUTSIDE:
        return None
    folder = type(get_ruleset(game)).files
    return None if folder is None else Path(folder) / kind


#: the schemas of what a player sends: their `message`s are read by players (a deck file is the GM's)
PLAYERS_SCHEMAS = ("orders", "standing")


def schema_files(game: str, kinds: tuple[str, ...] = PLAYERS_SCHEMAS) -> list[Path]:
    """A game's schema files of `kinds` (`<game>.<kind>.schema.json`, in its own `schemas/` or pbem's)."""
    folder = files_of(game, "schemas") or data_dir("pbem.schemas")
    return [p for kind in kinds if (p := folder / f"{game}.{kind}.schema.json").is_file()]


def schema_messages(game: str) -> tuple[str, ...]:
    """What the schemas of a game's orders and standing orders say in their own words (each `message`,
    pbem.turnfile.plain), once each: the catalog's words for them, written nowhere else."""
    import json

    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            said = node.get("message")
            if isinstance(said, str) and said not in found:
                found.append(said)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in schema_files(game):
        walk(json.loads(path.read_text("utf-8")))
    return tuple(found)


def standings(players: list[str], scores: dict[str, int],
              tiebreak: dict[str, tuple[int, ...]] | None = None) -> list[dict[str, Any]]:
    """Final standings, best first: by score, then, among equal scores, by `tiebreak` (each player's
    numbers, compared in turn, the higher better); players tied on all of them share a rank (and keep
    their seating order)."""
    def key(p: str) -> tuple[int, ...]:
        return (scores[p], *(tiebreak[p] if tiebreak else ()))
    ranked = sorted(players, key=lambda p: tuple(-x for x in key(p)))
    return [{"player": p, "score": scores[p], "rank": 1 + sum(1 for q in ranked if key(q) > key(p))}
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
