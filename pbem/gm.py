"""What a GM does to a running game besides advancing it: deadlines, a new player for a seat, a pause,
and a rollback when he made a mistake. Each returns the changed state; nothing here writes files."""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any

from pbem.clock import now
from pbem.deadlines import POLICIES, describe, moment, overdue, parse_duration, remind_at, substitute_at
from pbem.errors import PbemError
from pbem.gamestate import notice, ruleset_of, token_hash, waiting_for
from pbem.refusals import (DEADLINE_REMOVED, DEADLINE_SET, PAUSED, RESUMED, ROLLED_BACK, SEAT_TAKEN, SUBSTITUTE_BOT,
                           SUBSTITUTE_DEFAULT)
from pbem.rules.base import Order, order_text


def deadline_rule(deadline: str | None, grace: str | None, policy: str | None,
                  current: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """A deadline rule from `--deadline 48h --grace 6h --policy bot` (unset parts keep `current`)."""
    rule = dict(current or {"hours": 0, "grace_hours": 0, "policy": "wait"})
    if deadline is not None:
        if deadline.lower() in ("none", "off"):
            return None
        rule["hours"] = parse_duration(deadline)
    if grace is not None:
        rule["grace_hours"] = parse_duration(grace, "grace period") if grace not in ("0", "none") else 0
    if policy is not None:
        if policy not in POLICIES:
            raise PbemError(f"policy {policy!r} is not one of: {', '.join(POLICIES)}")
        rule["policy"] = policy
    if not rule["hours"]:
        raise PbemError("set a deadline (such as --deadline 48h) before a grace period or a policy")
    return rule


def set_deadline(state: dict[str, Any], rule: dict[str, Any] | None) -> dict[str, Any]:
    new = copy.deepcopy(state)
    new.pop("overdue", None)  # under the new rule a passed deadline is news again
    if rule is None:
        new.pop("deadline", None)
        notice(new, DEADLINE_REMOVED)
    else:
        new["deadline"] = rule
        notice(new, DEADLINE_SET, args={"rule": describe(new)})
    return new


def replace(state: dict[str, Any], old: str, spec: str) -> tuple[dict[str, Any], str]:
    """Hand `old`'s seat to NEW=EMAIL: a new token, the clock restarted. Returns the state and token."""
    seat = next((p for p in state["players"] if old in (p["name"], p.get("person"))), None)
    if seat is None:
        raise PbemError(f"game {state['game']!r} has no player {old!r}")
    if state["status"] == "finished":
        raise PbemError(f"game {state['game']!r} is finished; its seats cannot change hands")
    import secrets

    from pbem.game import parse_player

    person, email = parse_player(spec)
    if any(person in (p["name"], p.get("person")) for p in state["players"] if p["name"] != seat["name"]):
        raise PbemError(f"{person!r} already plays in game {state['game']!r}")
    new = copy.deepcopy(state)
    entry = next(p for p in new["players"] if p["name"] == seat["name"])
    before = entry.get("person", entry["name"])
    token = secrets.token_urlsafe(12)
    entry.update(email=email, token_sha256=token_hash(token))
    entry.pop("bot", None)  # a person takes over a bot's seat
    for key in ("language", "timezone"):  # the newcomer reads the host's until he or the GM says otherwise
        entry.pop(key, None)
    if person != entry["name"]:
        entry["person"] = person
    else:
        entry.pop("person", None)
    new["waiting_since"] = now()
    new.pop("reminded", None)
    new.pop("overdue", None)
    notice(new, SEAT_TAKEN,
           args={"person": person, "seat": repr(seat["name"]), "before": before})
    return new, token


def pause(state: dict[str, Any]) -> dict[str, Any]:
    if state["status"] != "active":
        raise PbemError(f"game {state['game']!r} is {state['status']}; only an active game can be paused")
    new = copy.deepcopy(state)
    new["status"] = "paused"
    notice(new, PAUSED)
    return new


def resume(state: dict[str, Any]) -> dict[str, Any]:
    if state["status"] != "paused":
        raise PbemError(f"game {state['game']!r} is {state['status']}, not paused")
    new = copy.deepcopy(state)
    new["status"] = "active"
    new["waiting_since"] = now()
    new.pop("reminded", None)
    new.pop("overdue", None)
    notice(new, RESUMED)
    return new


def rollback(state: dict[str, Any], to_turn: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Rebuild the game from its order log up to (not including) decision `to_turn`; the undone orders
    are kept in `undone` for the record."""
    current = state["engine"]["turn"]
    if current == 1:
        raise PbemError(f"game {state['game']!r} is at turn 1; there is nothing to roll back")
    if not 1 <= to_turn < current:
        raise PbemError(f"game {state['game']!r} is at turn {current}; roll back to a turn from 1 to {current - 1}")
    kept = [e for e in state["log"] if e["turn"] < to_turn]
    undone = [e for e in state["log"] if e["turn"] >= to_turn]
    from pbem.game import engine_events, replay

    rebuilt = replay(dict(state, log=kept))
    # the history before that turn stays as it was (notices, substitute marks), and must be the replay's
    events = [e for e in state["events"] if e["turn"] < to_turn]
    if engine_events(events) != rebuilt["events"]:
        raise PbemError(f"game {state['game']!r}: the stored history does not match its replay; run pbem verify")
    new = copy.deepcopy(state)
    new.update(engine=rebuilt["engine"], rng_counter=rebuilt["rng_counter"], log=kept,
               status="paused" if state["status"] == "paused" else "active", waiting_since=now())
    new["events"] = copy.deepcopy(events)
    new["reported"] = {p: min(n, len(events)) for p, n in state["reported"].items()}
    new["undone"] = state.get("undone", []) + [dict(e, undone_at=now()) for e in undone]
    new.pop("reminded", None)
    new.pop("overdue", None)
    lines = "; ".join(f"{e['player']} {order_text(e['order'])} (turn {e['turn']})" for e in undone)
    notice(new, ROLLED_BACK, args={"turn": to_turn, "undone": lines, "waiting": ", ".join(waiting_for(new))})
    return new, undone


def substitute(state: dict[str, Any], player: str, policy: str) -> tuple[dict[str, Any], Order, str]:
    """The order given for a player who missed his deadline, applied."""
    ruleset = ruleset_of(state)
    engine = state["engine"]
    order = ruleset.passive_order(engine, player) if policy == "default" else None
    how = policy
    if order is None:
        from pbem import bots

        order = bots.choose(ruleset.name, ruleset.bot_view(engine, player), player, ruleset.legal_orders(engine, player))
        how = "bot"
    flagged = copy.deepcopy(state)
    notice(flagged, SUBSTITUTE_DEFAULT
           if how == "default" else SUBSTITUTE_BOT,
           args={"player": player, "order": order_text(order)})
    from pbem.game import apply_orders

    new, _ = apply_orders(flagged, player, engine["turn"], [order], substitute=how)
    return new, order, how


def deadline_actions(state: dict[str, Any], at: datetime) -> tuple[dict[str, Any], list[str], list[str], list[str]]:
    """Substitute moves due at `at` under the game's policy; returns the state, what was done, the
    players to remind now (each decision is reminded once), and, under the `wait` policy, the players
    whose deadline has just passed: the game now needs the GM, who is told once a decision."""
    done: list[str] = []
    for _ in range(1000):  # each decision substituted restarts the clock, so this ends; the bound is a guard
        when = substitute_at(state)
        if when is None or at < when or state["deadline"]["policy"] == "wait" or state["status"] != "active":
            break
        # every late player of the decision at once: the orders of those who decide together do not
        # restart its clock, so each of them is as late as the first
        turn = state["engine"]["turn"]
        for player in waiting_for(state):
            if state["status"] != "active" or state["engine"]["turn"] != turn or player not in waiting_for(state):
                break
            state, order, how = substitute(state, player, state["deadline"]["policy"])
            done.append(f"{player} missed the deadline: {order_text(order)} ({how})")
    remind = []
    when = remind_at(state)
    if when is not None and at >= when and state.get("reminded") != state["engine"]["turn"]:
        remind = waiting_for(state)
        state = copy.deepcopy(state)
        state["reminded"] = turn = state["engine"]["turn"]
        counts = state.setdefault("reminders", {})
        counts[str(turn)] = counts.get(str(turn), 0) + 1
    late = []
    if overdue(state, at) and state.get("overdue") != state["engine"]["turn"]:
        late = waiting_for(state)
        state = copy.deepcopy(state)
        state["overdue"] = state["engine"]["turn"]
    return state, done, remind, late


def needs_gm(state: dict[str, Any], at: datetime) -> str | None:
    """Why a game needs the GM now, if it does."""
    if state["status"] == "paused":
        return "paused"
    if overdue(state, at):
        return f"{', '.join(waiting_for(state))} missed the deadline (policy: wait)"
    return None


def parse_now() -> datetime:
    return moment(now())

