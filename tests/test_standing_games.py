"""Whole games where players give standing orders and orders ahead (`turn: next`) beside their plain
orders, for every ruleset: the game stays valid after every step, round-trips through YAML, replays
from its log order by order to the identical game, and ends exactly as the same decisions sent one
order at a time.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from helpers import safe_load
from rooms import every_table, need
from pbem import bots
from pbem.errors import IllegalOrder
from pbem.history import HISTORIES
from pbem.game import NEXT, apply_orders, new_game, play_queue, replay, ruleset_of, set_standing, show, verify, waiting_for
from pbem.store import GamesDir, check_state, dump_yaml

def round_trip(state: dict[str, Any], step: int, grown: dict[str, int]) -> None:
    """The state is plain data: a YAML round trip gives it back unchanged. All of it every 25 steps;
    between, all but its histories, and the entries they gained since `grown` (their lengths then): a
    whole log read back at every step made the test's time grow with the square of the game's length."""
    if step % 25 == 0:
        assert safe_load(dump_yaml(state)) == state
        return
    rest = {key: value for key, value in state.items() if key not in HISTORIES}
    assert safe_load(dump_yaml(rest)) == rest
    gained = {key: list(state[key][grown[key]:]) for key in HISTORIES}
    assert safe_load(dump_yaml(gained)) == gained


@pytest.mark.parametrize("ruleset, names, options", every_table())
def test_a_whole_game_with_standing_orders_and_orders_sent_ahead(tmp_path: Path, ruleset: str, names: list[str],
                                                                 options: dict[str, str]) -> None:
    seed = "s1"
    standing_choices, ahead = need(ruleset, "STANDING_CHOICES"), need(ruleset, "AHEAD")
    rnd = random.Random(f"{ruleset}-{seed}")
    state, _ = new_game(GamesDir(tmp_path), ruleset, "g1", [(n, f"{n}@example.org") for n in names], options,
                        f"standing-{seed}-seed-of-16")
    rules = ruleset_of(state)
    by_standing = by_premove = refused = 0
    grown = {key: 0 for key in HISTORIES}
    for step in range(3000):
        if state["status"] != "active":
            break
        player = waiting_for(state)[0]
        queue: list[tuple[str, dict[str, Any]]] = []
        roll = rnd.random()
        if roll < 0.25:
            entries = standing_choices(rnd)
            try:
                set_standing(state, player, entries)
            except IllegalOrder:
                refused += 1
                entries = []
            queue.append(("s", {"player": player, "turn": None, "standing": entries}))
        elif roll < 0.35:  # orders sent ahead by someone else, for his next decision (until one was
            # played, by the player to move: a short game, of few rolls, plays one too)
            other = rnd.choice(names) if by_premove else player
            legal = rules.legal_orders(state["engine"], other) if other == player else []
            queue.append(("p", {"player": other, "turn": NEXT,
                                "orders": [legal[0]] if legal else [rnd.choice(ahead)]}))
        else:
            view = show(state, player)
            order = bots.choose(ruleset, view["view"], player, view["legal_orders"])
            queue.append(("d", {"player": player, "turn": state["engine"]["turn"], "orders": [order]}))
        before = len(state["log"])
        state, results, auto = play_queue(state, queue)
        by_standing += sum(1 for a in auto if a.endswith("(by standing order)"))
        by_premove += sum(1 for a in auto if a.endswith("(sent ahead)"))
        # held premoves stay out of the game until their moment; in this test they are simply forgotten
        assert all(r.outcome in ("applied", "held", "dropped", "replaced", "refused") for r in results)
        check_state(state, "g1")
        round_trip(state, step, grown)
        grown = {key: len(state[key]) for key in HISTORIES}
        assert all(e.get("by") in ("standing", "premove") for e in state["log"][before:] if "by" in e)
        if step % 25 == 0:
            assert verify(state) == []
    else:
        pytest.fail("the game does not end")
    assert state["status"] == "finished"
    assert safe_load(dump_yaml(state)) == state
    assert verify(state) == []
    assert by_premove > 0 and (by_standing > 0 or need(ruleset, "STANDING") == []), (by_premove, by_standing)
    # the same decisions sent one order at a time give the same game, event for event
    one_by_one, _ = new_game(GamesDir(tmp_path / "again"), ruleset, "g1", [(n, f"{n}@example.org") for n in names],
                             options, f"standing-{seed}-seed-of-16")
    for entry in state["log"]:
        one_by_one, _ = apply_orders(one_by_one, entry["player"], entry["turn"], [entry["order"]])
    assert one_by_one["engine"] == state["engine"]
    assert [dict((k, v) for k, v in e.items() if k != "by") for e in state["events"] if not e.get("pipeline")] \
        == [e for e in one_by_one["events"]]
    assert replay(state)["rng_counter"] == state["rng_counter"]
