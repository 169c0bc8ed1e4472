"""The same seed and the same orders give the same game, byte for byte; the replay of the order log is the
stored game; another seed is another game; a --deck file fixes the cards that come out of the bag."""

from __future__ import annotations

import copy
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

import helpers
from helpers import Mirror, send_turn
from pbem import bots
from pbem.game import apply_orders, new_game, replay, show, verify
from pbem.rng import Rng
from pbem.rules.base import get_ruleset
from pbem.rules.medici import full_deck
from pbem.store import GamesDir, dump_yaml
from rooms import GAMES, need, tables

RULES = get_ruleset("medici")
PLAYERS = ("anna", "ben", "cleo")
TOKEN_HASH = re.compile(rb"token_sha256: [0-9a-f]{64}")
CHECKSUM = re.compile(rb"^checksum: [0-9a-f]{64}$", re.M)


def cli_bot_game(pbem, tmp_path: Path, seed: str, edition: str = "riogrande") -> list[tuple[str, int, Any]]:
    """A whole game of bots through `pbem new`, `submit` and `advance`; the orders sent. The bots read
    the view `pbem show --as` prints (checked against the CLI now and then)."""
    args = ["new", "medici", "m1", *helpers.seed_args(seed), "--json", "--option", f"edition={edition}"]
    for p in PLAYERS:
        args += ["--player", f"{p}={p}@example.org"]
    r = pbem(*args)
    assert r.exit_code == 0, r.output
    tokens = {p["name"]: p["token"] for p in json.loads(r.stdout)["players"]}
    mirror = Mirror(RULES, GamesDir(pbem.games).load("m1"))
    sent: list[tuple[str, int, Any]] = []
    turnfile = tmp_path / f"turn-{pbem.games.name}.yaml"
    while (player := mirror.waiting()) is not None:
        turn = mirror.engine["turn"]
        order = mirror.bot_order(player)
        if len(sent) % 20 == 0:
            seen = pbem.show("m1", player)
            assert seen["turn"] == turn and seen["waiting_for"] == [player]
            assert bots.choose("medici", seen["view"], player, seen["legal_orders"]) == order
        send_turn(pbem, turnfile, "m1", player, tokens[player], turn, [order])
        mirror.apply(player, order)
        sent.append((player, turn, order))
        assert len(sent) < 1000
    gm = pbem.show("m1")
    assert gm["status"] == "finished"
    assert gm["view"] == json.loads(json.dumps(RULES.view(mirror.engine, None)))
    return sent


def files_under(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_same_seed_and_orders_give_the_same_game_byte_for_byte(pbem, tmp_path: Path) -> None:
    first = pbem
    second = type(pbem)(tmp_path / "other-games")
    orders_a = cli_bot_game(first, tmp_path, "same-seed")
    orders_b = cli_bot_game(second, tmp_path, "same-seed")
    assert orders_a == orders_b

    state_a = helpers.game_bytes(first.games / "m1")
    state_b = helpers.game_bytes(second.games / "m1")
    # the tokens are drawn afresh for every game (secret, never stored), but a finished game's state
    # file holds neither their hashes nor the addresses (they stay out of git, under mail/): the same
    assert not TOKEN_HASH.findall(state_a) and b"@example.org" not in state_a
    assert state_a == state_b and len(CHECKSUM.findall(state_a)) == 1

    reports_a = files_under(first.games / "m1" / "reports")
    reports_b = files_under(second.games / "m1" / "reports")
    assert len(reports_a) > len(orders_a)  # a report for each decision, the first ones and the scorings
    assert reports_a.keys() == reports_b.keys()
    for name in reports_a:
        assert reports_a[name] == reports_b[name], name

    # the history in git tells the same story
    log = ["git", "log", "--format=%B", "--", "m1"]
    history_a = subprocess.run(log, cwd=first.games, capture_output=True, text=True, check=True).stdout
    history_b = subprocess.run(log, cwd=second.games, capture_output=True, text=True, check=True).stdout
    assert history_a == history_b
    assert history_a.count("m1: turn") == len(orders_a)

    # and the replay of the stored log is the stored game
    state = GamesDir(first.games).load("m1")
    rebuilt = replay(state)
    assert rebuilt["engine"] == state["engine"]
    assert rebuilt["events"] == state["events"]
    assert rebuilt["rng_counter"] == state["rng_counter"]
    assert verify(state) == []


def library_bot_game(tmp_path: Path, seed: str, n: int = 4, edition: str = "amigo",
                     deck: Any = None, stop_at_day: int | None = None, game: str = "g1"):
    gd = GamesDir(tmp_path / f"games-{game}")
    people = [(p, f"{p}@example.org") for p in ("anna", "ben", "cleo", "dario", "eva", "fritz")[:n]]
    state, _ = new_game(gd, "medici", game, people, {"edition": edition}, seed, deck)
    states = [state]
    while state["status"] == "active":
        if stop_at_day and state["engine"]["day"] >= stop_at_day:
            break
        player = show(state)["waiting_for"][0]
        seen = show(state, player)
        order = bots.choose("medici", seen["view"], player, seen["legal_orders"])
        state, _ = apply_orders(state, player, seen["turn"], [order])
        states.append(state)
    return states


def test_replay_equals_the_stored_game_at_every_step(tmp_path: Path) -> None:
    states = library_bot_game(tmp_path, "replay-me", n=5, edition="riogrande")
    assert states[-1]["status"] == "finished"
    for state in states[::7] + states[-1:]:
        before = copy.deepcopy(state)
        rebuilt = replay(state)
        assert rebuilt["engine"] == state["engine"]
        assert rebuilt["events"] == state["events"]
        assert rebuilt["rng_counter"] == state["rng_counter"]
        assert state == before  # replaying leaves the stored game alone
        assert dump_yaml(rebuilt["engine"]) == dump_yaml(state["engine"])


def test_engine_alone_is_deterministic() -> None:
    """setup and apply with the same seed and orders give equal states and events."""
    def run(seed: str) -> tuple[Any, list]:
        rng = Rng(seed)
        state, events = RULES.setup(["a", "b", "c", "d", "e", "f"], {"edition": "amigo"}, rng)
        log = list(events)
        while (d := RULES.decision(state)) is not None:
            p = d.players[0]
            order = bots.choose("medici", RULES.view(state, p), p, RULES.legal_orders(state, p))
            log += RULES.apply(state, p, order, rng)
        return state, log
    assert run("det") == run("det")
    assert run("det") != run("det2")


def test_different_seeds_give_different_games(tmp_path: Path) -> None:
    seeds = [f"seed-{i}" for i in range(6)]
    decks = []
    for s in seeds:
        state, _ = RULES.setup(list(PLAYERS), {"edition": "riogrande"}, Rng(s))
        decks.append(tuple(state["lot"] + state["deck"]))
    assert len(set(decks)) == len(seeds)
    # whole games through the library: the event logs differ
    a = library_bot_game(tmp_path, "one", game="a")[-1]
    b = library_bot_game(tmp_path, "two", game="b")[-1]
    assert a["events"] != b["events"]
    assert a["engine"]["set_aside"] != b["engine"]["set_aside"]
    assert a["seed_sha256"] != b["seed_sha256"]


DECK = {"days": [["dyes-5", "gold-10", "spices-0", "linen-3"], ["furs-4", "dyes-5"], ["grain-1"]]}


def write_deck(tmp_path: Path, deck: dict[str, Any]) -> Path:
    path = tmp_path / "deck.yaml"
    path.write_text(dump_yaml(deck))
    return path


def reveals(events: list[dict[str, Any]]) -> list[tuple[int, str]]:
    """(day, card) for every card taken from the bag, in order: reveals and free fills."""
    out, day = [], 0
    for e in events:
        if e["type"] == "day_start":
            day = e["day"]
        elif e["type"] == "reveal":
            out.append((day, e["card"]))
        elif e["type"] == "free_fill":
            out += [(day, c) for c in e["cards"]]
    return out


def test_deck_file_fixes_the_first_reveal_via_cli(pbem, tmp_path: Path) -> None:
    path = write_deck(tmp_path, DECK)
    firsts = set()
    for i, seed in enumerate(("deck-a", "deck-b", "deck-c")):
        game = f"d{i}"
        args = ["new", "medici", game, "--seed", seed, "--weak-seed", "--deck", str(path)]
        for p in PLAYERS:
            args += ["--player", f"{p}={p}@example.org"]
        r = pbem(*args)
        assert r.exit_code == 0, r.output
        gm = pbem.show(game)
        state = GamesDir(pbem.games).load(game)
        reveal = next(e for e in state["events"] if e["type"] == "reveal")
        assert reveal["card"] == DECK["days"][0][0]
        assert gm["view"]["lot"] == ["dyes-5"]
        assert gm["view"]["deck"][:3] == DECK["days"][0][1:]  # the rest of the fixed cards follow
        for p in PLAYERS:  # and every player sees the fixed first card
            assert pbem.show(game, p)["view"]["lot"] == ["dyes-5"]
        firsts.add(tuple(gm["view"]["deck"]))
    assert len(firsts) == 3  # the cards after the fixed ones come from each game's seed


def test_deck_file_fixes_the_cards_of_every_day(tmp_path: Path) -> None:
    states = library_bot_game(tmp_path, "deck-days", n=3, edition="riogrande", deck=copy.deepcopy(DECK))
    final = states[-1]
    assert final["status"] == "finished"
    taken = reveals(final["events"])
    for day, fixed in enumerate(DECK["days"], start=1):
        today = [c for d, c in taken if d == day]
        assert today[:len(fixed)] == fixed, (day, today)


def test_a_full_day_in_the_deck_file_fixes_that_day_completely(tmp_path: Path) -> None:
    cards = RULES.setup(list(PLAYERS), {"edition": "riogrande"}, Rng("pick-18"))[0]
    day1 = cards["lot"] + cards["deck"]  # 18 cards in some order
    assert len(day1) == 18
    day1 = day1[::-1]
    for seed in ("x", "y"):
        state, _ = RULES.setup(list(PLAYERS), {"edition": "riogrande"}, Rng(seed), {"days": [list(day1)]})
        assert state["lot"] + state["deck"] == day1
        assert sorted(state["set_aside"]) == sorted(_minus(full_deck("riogrande"), day1))


def _minus(cards: list[str], taken: list[str]) -> list[str]:
    rest = list(cards)
    for c in taken:
        rest.remove(c)
    return rest


# -- the deck file and the replay --------------------------------------------------------------

def test_new_game_stores_the_deck_file_as_given(tmp_path: Path) -> None:
    state, _ = new_game(GamesDir(tmp_path / "games"), "medici", "g1",
                        [(p, f"{p}@example.org") for p in PLAYERS], {}, "s", copy.deepcopy(DECK))
    assert state["deck"] == DECK


def test_a_deck_file_game_verifies_via_cli(pbem, tmp_path: Path) -> None:
    path = write_deck(tmp_path, DECK)
    args = ["new", "medici", "m1", "--seed", "deck-verify", "--weak-seed", "--deck", str(path)]
    for p in PLAYERS:
        args += ["--player", f"{p}={p}@example.org"]
    assert pbem(*args).exit_code == 0
    r = pbem("verify", "m1")
    assert r.exit_code == 0, r.output


def test_a_whole_deck_file_game_verifies(tmp_path: Path) -> None:
    final = library_bot_game(tmp_path, "deck-whole", n=3, edition="riogrande", deck=copy.deepcopy(DECK))[-1]
    assert final["status"] == "finished"
    assert final["deck"] == DECK  # the record of the deck file is kept as given, for the replay
    assert verify(final) == []
    text = dump_yaml(final)
    assert "&id" not in text and "*id" not in text  # no shared objects, so no YAML aliases


def test_replay_leaves_a_deck_file_game_alone(tmp_path: Path) -> None:
    state = library_bot_game(tmp_path, "deck-replay", n=3, edition="riogrande", deck=copy.deepcopy(DECK),
                             stop_at_day=2)[-1]
    assert state["engine"]["day"] == 2
    before = copy.deepcopy(state)
    replay(state)
    assert state == before


def whole_bot_game(tmp_path: Path, game: str, seed: str) -> dict[str, Any]:
    """A whole game of `game` at its room's usual table, the bots playing every seat."""
    names, options = tables(game)[0]
    state, _ = new_game(GamesDir(tmp_path / seed), game, "g1", [(p, f"{p}@example.org") for p in names], options,
                        seed)
    while state["status"] == "active":
        state = helpers.bot_move(state)
        assert len(state["log"]) < 3000, "the game does not end"
    return state


@pytest.mark.parametrize("game", GAMES)
def test_every_game_is_the_same_from_the_same_seed_and_replays_to_itself(tmp_path: Path, game: str) -> None:
    """Every game: the same seed and orders give the same stored game, byte for byte; the replay of its
    log is the stored game; another seed is another game (where the seed sets the start)."""
    one = whole_bot_game(tmp_path / "one", game, "same-seed")
    two = whole_bot_game(tmp_path / "two", game, "same-seed")
    assert dump_yaml(one["engine"]) == dump_yaml(two["engine"]) and one["events"] == two["events"]
    assert one["log"] == two["log"]
    rebuilt = replay(one)
    assert rebuilt["engine"] == one["engine"] and rebuilt["events"] == one["events"]
    assert rebuilt["rng_counter"] == one["rng_counter"] and verify(one) == []
    other = whole_bot_game(tmp_path / "other", game, "another-seed")
    assert other["seed_sha256"] != one["seed_sha256"]
    if need(game, "RANDOM_START"):
        assert other["events"] != one["events"]
