"""The compiled verdicts of pbem.schemacheck against jsonschema's, on every schema pbem has.

A compiled verdict answers "valid?" for every save and most turn files without jsonschema; jsonschema
only words the errors. So the two must agree on every value, valid or not. The values: what whole
games of every ruleset produce (state files, engines, events, log lines, orders, turn files, queue
entries), and thousands of mutants of them (a node replaced by a value of another kind, a key dropped
or added, a list item dropped or doubled, a word's case changed, a newline after a word).
"""

from __future__ import annotations

import copy
import importlib.resources
import random
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

from helpers import play_pipeline_game
from rooms import GAMES, room, room_file, tables
from pbem import bots
from pbem.config import STARTER
from pbem.schemacheck import Unsupported, compile_schema, equal
from pbem.store import HISTORIES, state_body
from pbem.turnfile import fits, validator, verdict

SCHEMAS = sorted(p.name.removesuffix(".schema.json")
                 for p in importlib.resources.files("pbem.schemas").iterdir() if p.name.endswith(".schema.json"))

ODD = [None, True, False, 0, -1, 1, 2.5, 3.0, 10**6, "", "x", "A", "next", "bid", [], [1], {}, {"a": 1}]


def jsonschema_says(value: Any, name: str) -> bool:
    return not any(True for _ in validator(name).iter_errors(value))


@pytest.mark.parametrize("name", SCHEMAS)
def test_every_schema_compiles(name: str) -> None:
    """No schema falls back to jsonschema for its verdict: a keyword pbem uses is a keyword compiled."""
    assert verdict(name) is not None


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Any]]:
    """Valid values of each schema, from whole bot games through the pipeline library."""
    out: dict[str, list[Any]] = {name: [] for name in SCHEMAS}
    for i, (ruleset, names, options) in enumerate(t for game in GAMES for t in ((game, *table) for table in tables(game))):
        seen: list[dict[str, Any]] = []

        def orders_of(state: dict[str, Any], player: str, shown: dict[str, Any]) -> list[Any]:
            if len(seen) % 9 == 0:
                seen.append(copy.deepcopy(state))
            else:
                seen.append({})
            order = bots.choose(ruleset, shown["view"], player, shown["legal_orders"])
            out.get(f"{ruleset}.orders", []).extend(shown["legal_orders"][:6])
            out["turnfile"].append({"game": "g1", "player": player, "token": "abcdefgh12345678",
                                    "turn": shown["turn"], "orders": [order]})
            out["queue"].append({"player": player, "turn": shown["turn"], "orders": [order],
                                 "received": "2026-11-24T04:00:00Z"})
            return [order]

        _, final, _ = play_pipeline_game(tmp_path_factory.mktemp(f"g{i}"), ruleset, names, options,
                                         f"schemacheck-{i}-seed", orders_of, check_every=50)
        for state in [s for s in seen if s] + [final]:
            out["state"].append(state_body(state, {key: [len(state[key]), 0] for key in HISTORIES}))
            out.get(f"{ruleset}.state", []).append(state["engine"])
        out["event"].extend(final["events"])
        out["log-entry"].extend(final["log"])
    starter = yaml.safe_load(STARTER.format(name='"Gina"', address='"gm@example.org"'))
    out["config"] += [starter, {**starter, "inbox": {"type": "imap", "host": "imap.example.org", "port": 993,
                                                     "security": "tls", "user": "gm@example.org",
                                                     "password_env": "PBEM_IMAP_PASSWORD", "folder": "INBOX"}},
                      {**starter, "outbox": {"type": "smtp", "host": "smtp.example.org", "port": 587,
                                             "security": "starttls", "user": "gm", "password": "x"}}]
    for game in GAMES:  # the standing orders and deck files no bot writes, from the games' rooms
        for kind, attribute in (("standing", "STANDING"), ("deck", "DECKS")):
            if f"{game}.{kind}" in out and hasattr(room(game), attribute):
                out[f"{game}.{kind}"] += copy.deepcopy(getattr(room(game), attribute))
    for name, values in out.items():
        values[:] = [v for v in values if jsonschema_says(v, name)]  # a queue entry may need more than this
    return out


def places(value: Any, path: tuple = ()) -> Iterator[tuple]:
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from places(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from places(v, path + (i,))


def mutant(value: Any, rnd: random.Random) -> Any:
    """`value` with one change at a random place."""
    value = copy.deepcopy(value)
    path = rnd.choice(list(places(value)))
    if not path:
        return rnd.choice(ODD)
    parent = value
    for p in path[:-1]:
        parent = parent[p]
    key, node = path[-1], parent[path[-1]]
    how = rnd.randrange(6)
    if how == 0 and isinstance(parent, dict):
        del parent[key]
    elif how == 1 and isinstance(parent, dict):
        parent[rnd.choice(["zzz", "Turn", "extra", str(key) + "s"])] = rnd.choice(ODD)
    elif how == 2 and isinstance(parent, list):
        rnd.choice([parent.pop, lambda k: parent.insert(k, copy.deepcopy(parent[k]))])(key)
    elif how == 3 and isinstance(node, str):
        parent[key] = rnd.choice([node.upper(), node.lower(), node.title(), node + "\n", node[:-1], node + "x"])
    elif how == 4 and isinstance(node, int) and not isinstance(node, bool):
        parent[key] = rnd.choice([node - 1, node + 1, -node, node * 100, float(node), bool(node)])
    else:
        parent[key] = rnd.choice(ODD)
    return value


def test_the_verdicts_agree_on_valid_values_and_their_mutants(corpus: dict[str, list[Any]]) -> None:
    rnd = random.Random(13)
    tried = refused = 0
    for name, values in corpus.items():
        for value in values:
            assert fits(value, name), (name, value)
        for value in values[:: max(1, len(values) // 150)]:
            for _ in range(8):
                bad = mutant(value, rnd)
                expected = jsonschema_says(bad, name)
                assert fits(bad, name) == expected, (name, bad)
                tried += 1
                refused += not expected
    unfilled = [f"tests/rooms/{room_file(game).name} has no {attribute}" for game in GAMES
                for kind, attribute in (("standing", "STANDING"), ("deck", "DECKS"))
                if f"{game}.{kind}" in corpus and not hasattr(room(game), attribute)]
    empty = [name for name in SCHEMAS if not corpus[name]]
    assert len(empty) == len(unfilled), empty  # no values of a schema but for a room's data left out
    assert len(corpus["config"]) == 3 and sum(map(len, corpus.values())) > 2000
    assert tried > 5000 and refused > tried // 4  # the mutants reach the refusals too
    if unfilled:
        pytest.skip(f"the standing orders or deck files of a game are not tried: {'; '.join(unfilled)}")


def test_the_keywords_as_jsonschema_reads_them() -> None:
    """Each keyword on its own, at the edges where JSON and Python differ."""
    cases: list[tuple[dict[str, Any], list[Any]]] = [
        ({"type": "integer"}, [1, 1.0, True, "1", None]),
        ({"type": "number"}, [1, 1.5, False]),
        ({"type": ["string", "null"]}, ["a", None, 0]),
        ({"enum": [1, "a", None]}, [1, 1.0, True, "a", None, "A"]),
        ({"const": False}, [False, 0, None]),
        ({"const": [1, {"a": True}]}, [[1, {"a": True}], [1.0, {"a": True}], [1, {"a": 1}]]),
        ({"pattern": "^start [A-Z][0-9]$"}, ["start B2", "start B2\n", "xstart B2", 5]),
        ({"minLength": 2, "maxLength": 3}, ["a", "ab", "abcd", 7]),
        ({"minimum": 0, "exclusiveMaximum": 5}, [0, -1, 5, 4.9, True, "3"]),
        ({"items": {"type": "integer"}, "prefixItems": [{"type": "string"}]}, [["a", 1], [1, 1], ["a", "b"], []]),
        ({"contains": {"const": 1}, "minContains": 2, "maxContains": 3}, [[1], [1, 1], [1, 1, 1, 1], "x"]),
        ({"contains": {"const": 1}, "minContains": 0}, [[], [2]]),
        ({"uniqueItems": True}, [[1, 2], [1, 1.0], [1, True], [[1], [1]]]),
        ({"properties": {"a": {"type": "integer"}}, "patternProperties": {"^b": {"type": "string"}},
          "additionalProperties": False}, [{"a": 1}, {"b1": "x"}, {"b1": 1}, {"c": 1}, {"a": "x"}, []]),
        ({"required": ["a"], "dependentRequired": {"b": ["c"]}}, [{"a": 1}, {"a": 1, "b": 1}, {"a": 1, "b": 1, "c": 1}]),
        ({"propertyNames": {"pattern": "^[a-z]+$"}, "maxProperties": 1}, [{"ab": 1}, {"Ab": 1}, {"a": 1, "b": 2}]),
        ({"if": {"required": ["a"]}, "then": {"required": ["b"]}, "else": {"required": ["c"]}},
         [{"a": 1}, {"a": 1, "b": 1}, {"c": 1}, {}]),
        ({"oneOf": [{"type": "integer"}, {"minimum": 0}]}, [1, -1, 0.5, -0.5]),
        ({"not": {"anyOf": [{"const": 1}, {"allOf": [{"type": "string"}, {"maxLength": 1}]}]}}, [1, "a", "ab", 2]),
        ({"$defs": {"tree": {"type": "array", "items": {"$ref": "#/$defs/tree"}}}, "$ref": "#/$defs/tree"},
         [[], [[[]]], [[1]]]),
    ]
    from pbem.turnfile import _strict

    for node, values in cases:
        check = compile_schema(node)
        for value in values:
            assert check(value) == _strict()(node).is_valid(value), (node, value)


def test_an_unknown_keyword_is_left_to_jsonschema() -> None:
    with pytest.raises(Unsupported, match="unevaluatedProperties"):
        compile_schema({"type": "object", "unevaluatedProperties": False})
    with pytest.raises(Unsupported, match="other.json"):
        compile_schema({"$ref": "other.json#/x"})


def test_json_equality() -> None:
    assert equal(1, 1.0) and not equal(1, True) and not equal(0, False) and equal([{"a": 1}], [{"a": 1.0}])
    assert not equal({"a": 1}, {"a": 1, "b": 2}) and not equal("1", 1)


def test_a_valid_save_imports_no_jsonschema(tmp_path: Path) -> None:
    """The point of it all: validating a valid state, turn file or queue entry leaves jsonschema unloaded."""
    import subprocess
    import sys

    code = ("import sys; from pbem.turnfile import parse_turnfile; "
            "parse_turnfile('game: g1\\nplayer: anna\\ntoken: abcdefgh12345678\\nturn: 3\\norders: [pass]\\n', "
            "'medici.orders'); print('jsonschema' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
