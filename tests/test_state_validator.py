"""The state validator with its `$ref`s written out in place gives the same verdicts as the schema
as written, on every state of whole bot games and on states broken one field at a time."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pbem import bots
from pbem.rng import Rng
from pbem.rules.base import get_ruleset
from pbem.turnfile import state_validator, validator
from rooms import every_table



def verdicts(name: str, value: Any) -> tuple[bool, bool]:
    return (not any(True for _ in validator(name).iter_errors(value)),
            not any(True for _ in state_validator(name).iter_errors(value)))


def broken(engine: dict[str, Any]) -> list[dict[str, Any]]:
    """The engine with one top-level field at a time given a value of the wrong kind."""
    out = []
    for key, value in engine.items():
        wrong = "x" if not isinstance(value, str) else 7
        out.append(dict(copy.deepcopy(engine), **{key: wrong}))
        if isinstance(value, dict) and value:
            inner = next(iter(value))
            changed = copy.deepcopy(engine)
            changed[key][inner] = {"not": "this"} if not isinstance(value[inner], dict) else "x"
            out.append(changed)
    return out


@pytest.mark.parametrize("ruleset, names, options", every_table())
def test_the_written_out_validator_agrees_with_the_schema(ruleset: str, names: list[str], options: dict[str, str]) -> None:
    rules = get_ruleset(ruleset)
    n = len(names)
    rng = Rng(f"validator-{ruleset}-{n}-seed-000")
    state, _ = rules.setup(names, rules.check_options(options), rng)
    name = f"{ruleset}.state"
    steps, rejected = 0, 0
    while (decision := rules.decision(state)) is not None:
        if steps % 15 == 0:
            assert verdicts(name, state) == (True, True)
            for bad in broken(state):
                first, second = verdicts(name, bad)
                assert first == second, sorted(set(bad) ^ set(state))
                rejected += not first
        p = decision.players[0]
        rules.apply(state, p, bots.choose(ruleset, rules.view(state, p), p, rules.legal_orders(state, p)), rng)
        steps += 1
    assert verdicts(name, state) == (True, True)
    assert rejected > 10  # the broken states were refused, by both
