"""A ruleset's contract checked by playing (`pbem rulesets --check`): a game of it set up and played by
its bot, every step held against `pbem.rules.contract`. What registration checks (attributes, methods,
files) is checked before any of this; here is what only a game shows: the state's required keys and
its schema, the events' keys and whom they are told to, the decisions, the bot's orders, the
refusals, the standings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from pbem import data_dir
from pbem.errors import IllegalOrder, Refusal
from pbem.rng import Rng
from pbem.rules.base import Ruleset, files_of, get_ruleset
from pbem.rules.contract import EVENT_KEYS, REQUIRED_STATE_KEYS, RESERVED_EVENT_KEYS, RESULT_KEYS, Decision

#: the players of a checked game, as many as it needs
NAMES = ("anna", "ben", "cleo", "dora", "emil", "fred", "gina", "hugo")
#: the orders a checked game plays at most (a game not over by then is checked as far as it went)
MOST_ORDERS = 2000


class Broken(Exception):
    """What a played game shows of a broken contract, in words."""


def table(ruleset: Ruleset) -> list[str]:
    """The players of the checked game: three where the game allows, else as near as it allows."""
    return list(NAMES[:min(max(ruleset.min_players, 3), ruleset.max_players, len(NAMES))])


def check_game(name: str, seed: str = "the ruleset contract", most: int = MOST_ORDERS) -> int:
    """Play a game of `name` by its bot and check it against the contract; the orders played, or
    `Broken` naming the first thing it breaks."""
    from pbem import bots

    ruleset = get_ruleset(name)
    players = table(ruleset)
    rng = Rng(seed)
    state, events = ruleset.setup(players, ruleset.check_options({}), rng)
    _check_state(ruleset, state, "setup")
    if state["turn"] != 1:
        raise Broken(f"setup: the state's turn is {state['turn']!r}, not 1")
    _check_events(events, players, "setup")
    played = 0
    while played < most:
        decision = ruleset.decision(state)
        if decision is None:
            break
        player = _check_decision(ruleset, state, decision, players, played)
        legal = ruleset.legal_orders(state, player)
        where = f"order {played + 1} ({player}, {decision.kind})"
        try:
            order = bots.choose(name, ruleset.bot_view(state, player), player, legal)
        except AssertionError:
            raise Broken(f"{where}: its bot chose an order that is not legal") from None
        turn = state["turn"]
        try:
            events = ruleset.apply(state, player, order, rng)
        except IllegalOrder as exc:
            raise Broken(f"{where}: {order!r} is legal, but apply refuses it: {exc}") from None
        played += 1
        _check_events(events, players, where)
        _check_state(ruleset, state, where)
        after = ruleset.decision(state)
        if state["turn"] not in (turn, turn + 1):
            raise Broken(f"{where}: the turn went from {turn} to {state['turn']!r}; it grows by one a settled "
                         "decision")
        waiting = set(after.players) if after else set()
        if decision.together and waiting and waiting < set(decision.players) and state["turn"] != turn:
            raise Broken(f"{where}: a decision of several players moved on to turn {state['turn']} before "
                         f"{', '.join(sorted(waiting))} decided")
    for viewer in (None, "", *players):
        _plain(ruleset.view(state, viewer), f"the view of {viewer!r}")
    if ruleset.decision(state) is None:
        _check_result(ruleset.result(state), players)
    return played


def _check_state(ruleset: Ruleset, state: Any, where: str) -> None:
    if not isinstance(state, dict):
        raise Broken(f"{where}: the state is a {type(state).__name__}, not a dict")
    lacking = [k for k in REQUIRED_STATE_KEYS if k not in state]
    if lacking:
        raise Broken(f"{where}: the state has no {', '.join(lacking)}")
    if not isinstance(state["turn"], int) or isinstance(state["turn"], bool):
        raise Broken(f"{where}: the state's turn is {state['turn']!r}, not a whole number")
    _plain(state, "the state", where)
    problems = _schema_errors(ruleset.name, state)
    if problems:
        raise Broken(f"{where}: the state does not fit {ruleset.name}.state.schema.json: {problems[0]}")


def _schema_errors(name: str, state: dict[str, Any]) -> list[str]:
    import jsonschema

    folder = files_of(name, "schemas") or data_dir("pbem.schemas")
    schema = json.loads((Path(folder) / f"{name}.state.schema.json").read_text("utf-8"))
    return [f"{'.'.join(map(str, e.absolute_path)) or 'the state'}: {e.message}"
            for e in jsonschema.Draft202012Validator(schema).iter_errors(state)]


def _plain(value: Any, what: str, where: str | None = None) -> None:
    """`value` round-trips through YAML unchanged (plain data)."""
    try:
        same = yaml.safe_load(yaml.safe_dump(value)) == value
    except yaml.YAMLError:
        same = False
    if not same:
        raise Broken(f"{where + ': ' if where else ''}{what} is not plain data that YAML keeps as it is")


def _check_events(events: Any, players: list[str], where: str) -> None:
    if not isinstance(events, list):
        raise Broken(f"{where}: the events are a {type(events).__name__}, not a list")
    for event in events:
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise Broken(f"{where}: the event {event!r} has no type ({EVENT_KEYS['type']})")
        reserved = sorted(set(event) & set(RESERVED_EVENT_KEYS))
        if reserved:
            raise Broken(f"{where}: the event {event['type']!r} sets {', '.join(reserved)}, which pbem writes")
        to = event.get("to")
        if isinstance(to, list) and not set(to) <= set(players):
            raise Broken(f"{where}: the event {event['type']!r} is told to {to}, who are not all players")


def _check_decision(ruleset: Ruleset, state: dict[str, Any], decision: Any, players: list[str],
                    played: int) -> str:
    """The first player `decision` waits for, once it is checked."""
    where = f"after {played} orders"
    if not isinstance(decision, Decision) or not decision.players:
        raise Broken(f"{where}: the decision {decision!r} is no Decision of at least one player")
    strangers = [p for p in decision.players if p not in players]
    if strangers or len(set(decision.players)) != len(decision.players):
        raise Broken(f"{where}: the decision waits for {list(decision.players)}, not players each once")
    if len(decision.players) > 1 and not decision.together:
        raise Broken(f"{where}: the decision waits for several players but is not `together`")
    for p in decision.players:
        if not ruleset.legal_orders(state, p):
            raise Broken(f"{where}: {p} must decide ({decision.kind}) but has no legal order")
    first = decision.players[0]
    sample = ruleset.legal_orders(state, first)[0]
    for other in players:
        if other in decision.players:
            continue
        if ruleset.legal_orders(state, other):
            raise Broken(f"{where}: {other} has legal orders while the decision waits for others")
        why = ruleset.why_illegal(state, other, sample)
        if not isinstance(why, Refusal):
            raise Broken(f"{where}: an order of {other}, who is not to decide, is not refused by an id "
                         f"(why_illegal gave {why!r})")
    return first


def _check_result(rows: Any, players: list[str]) -> None:
    if not isinstance(rows, list) or not all(isinstance(r, dict) and set(RESULT_KEYS) <= set(r) for r in rows):
        raise Broken(f"the result is not rows of {', '.join(RESULT_KEYS)}")
    ranks = [r["rank"] for r in rows]
    if ranks != sorted(ranks) or (ranks and ranks[0] != 1):
        raise Broken(f"the result's ranks {ranks} are not best first from 1")
