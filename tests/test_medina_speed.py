"""The Medina engine's and bot's short cuts give what the long way gives: the city kept from one position
to the next equals the city worked out afresh, the bot's view (made of parts kept from one position to
the next) is a part of the view and the bot chooses the same from both, and the bot's way of weighing
many palace orders as one lot chooses as scoring every order one by one would."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from pbem import bots
from pbem.rng import Rng
from pbem.rules.medina import board as medina
from pbem.rules.base import State, get_ruleset
from pbem.rules.medina.bot import PALACE_LETTERS, WORDS

R = get_ruleset("medina")


def positions(players: int, seed: int, bot: bool) -> Iterator[tuple[State, str]]:
    """Every position of a game, with the player to move: bots playing, or random legal orders."""
    names = [f"p{i}" for i in range(players)]
    rng, pick = Rng(f"speed-{seed}"), random.Random(seed)
    state, _ = R.setup(names, R.check_options({}), rng)
    while (d := R.decision(state)) is not None:
        player = d.players[0]
        yield state, player
        legal = R.legal_orders(state, player)
        R.apply(state, player, bots.choose("medina", R.view(state, player), player, legal) if bot
                else pick.choice(legal), rng)


GAMES = [(3, 1, True), (4, 2, True), (3, 3, False), (4, 4, False)]


def fresh(state: State) -> State:
    """A copy of the state: a new object, so no city is kept for it."""
    return copy.deepcopy(state)


@pytest.mark.parametrize("players,seed,bot", GAMES)
def test_the_kept_city_is_the_city_worked_out_afresh(players: int, seed: int, bot: bool) -> None:
    for state, player in positions(players, seed, bot):
        legal = R.legal_orders(state, player)  # fills the kept city's orders
        kept, new = R._city(state), R.city(state)
        for name in ("owner_of", "claimed", "open_palace", "growth", "street_next", "merchants", "near_palace",
                     "beside_palace", "palaces_around"):
            assert getattr(kept, name) == getattr(new, name), name
        assert list(kept.clear) == list(new.clear)
        for colour, orders in kept.clear_palaces.items():  # in step with the clear squares
            assert list(orders) == [medina.PALACE_ORDER[colour][s] for s in kept.clear]
        for colour, made in kept.clear_lists.items():  # the lists kept are those of the clear squares now
            assert made == [medina.PALACE_ORDER[colour][s] for s in kept.clear]
        assert R.legal_orders(state, player) == legal


@pytest.mark.parametrize("players,seed,bot", GAMES)
def test_a_copy_of_a_position_is_seen_and_played_alike(players: int, seed: int, bot: bool) -> None:
    for state, player in positions(players, seed, bot):
        seen = (R.legal_orders(state, player), R.view(state, player), R.scores(state))
        copied = fresh(state)  # looked at afresh: the kept city is the original's no more
        assert (R.legal_orders(copied, player), R.view(copied, player), R.scores(copied)) == seen


@pytest.mark.parametrize("players,seed,bot", GAMES)
def test_only_a_roof_or_a_stable_on_a_claimed_palace_moves_a_palace_tile(players: int, seed: int, bot: bool) -> None:
    for state, _ in positions(players, seed, bot):
        events: list[dict[str, Any]] = []
        tiles = dict(state["palace_bonus"])
        R._palace_bonus(state, events)  # as it would after any placement: it finds nothing to change
        assert events == [] and state["palace_bonus"] == tiles


@pytest.mark.parametrize("players,seed", [(3, 5), (4, 6)])
def test_the_bots_view_is_part_of_the_view_and_chosen_from_alike(players: int, seed: int) -> None:
    for state, player in positions(players, seed, True):
        view, bot_view = R.view(state, player), R.bot_view(state, player)
        assert bot_view.keys() <= view.keys()
        assert all(bot_view[key] == view[key] for key in bot_view)
        legal = R.legal_orders(state, player)
        assert bots.choose("medina", bot_view, player, legal) == bots.choose("medina", view, player, legal)


@pytest.mark.parametrize("players,seed,bot", GAMES)
def test_the_kept_score_lines_are_the_scores(players: int, seed: int, bot: bool) -> None:
    for state, player in positions(players, seed, bot):
        R.bot_view(state, player)  # fills the kept lines
        city, scores = R._city(state), R.scores(state)
        assert all(line == scores[p] for p, line in city.score_lines.items())
        assert all(R._score_line(state, city, p) == scores[p] for p in state["players"])


@pytest.mark.parametrize("players,seed,bot", GAMES)
def test_a_bots_view_stays_as_it_was_while_the_game_goes_on(players: int, seed: int, bot: bool) -> None:
    taken = [(R.bot_view(state, player), json.dumps(R.view(state, player), sort_keys=True))
             for state, player in positions(players, seed, bot)]
    for bot_view, view in taken:  # the parts a bot's view shares with the city were replaced, never changed
        assert all(bot_view[key] == json.loads(view)[key] for key in bot_view)


def scored_one_by_one(view: dict[str, Any], me: str, legal: list[str]) -> str:
    """The bot's choice the long way: every legal order scored, the best taken, ties by the order's text."""
    grid, letters = view["grid"], view["letters"]
    columns, rows = len(letters), len(grid) - 2
    seat = str(next(p["seat"] for p in view["players"] if p["name"] == me))
    mine = {f"{letter}{seat}" for letter in "GKBOS"}
    mood = bots.temperament(me)

    def cell(square: str) -> str:
        return grid[int(square[1:])][letters.index(square[0]) + 1]

    def beside(square: str) -> list[str]:
        col, row = letters.index(square[0]), int(square[1:])
        return [grid[row + dr][col + dc + 1] for dc, dr in ((-1, 0), (1, 0), (0, -1), (0, 1))
                if 0 <= col + dc < columns and 1 <= row + dr <= rows]

    def inside(wall: str) -> str:
        side, pos = wall[0], int(wall[1:])
        square = {"N": f"{letters[pos - 1]}1", "S": f"{letters[pos - 1]}{rows}", "W": f"A{pos}",
                  "E": f"{letters[-1]}{pos}"}[side]
        return cell(square)

    def score(order: str) -> float:
        kind, colour, where = WORDS[order]
        if kind == "roof":
            size = next(p["size"] for p in view["palaces"]
                        if p["at"] == where or p["colour"] == colour and p["owner"] is None)
            return size * (1.5 + mood) + (6 if size >= 3 + 2 * mood else -5)
        if kind == "wall":
            mark = inside(where)
            return 4 if mark[1] == seat else 1 if mark != ".." else 0.5
        if kind == "start":
            return -abs(letters.index(where[0]) - len(letters) / 2) - abs(int(where[1:]) - 6)
        near = beside(where)
        if kind == "palace":
            return 3 + mood + 0.5 * (near.count("MM") + near.count("mm"))
        if kind == "stable":
            return 2 + 3 * sum(n in mine for n in near)
        return 1 + 2 * sum(n in mine for n in near) + sum(0.5 for n in near if n[0] in PALACE_LETTERS)

    return min(legal, key=lambda order: (-score(order), order))


@pytest.mark.parametrize("players,seed,bot", GAMES)
def test_the_bot_chooses_as_scoring_every_order_would(players: int, seed: int, bot: bool) -> None:
    for state, player in positions(players, seed, bot):
        view, legal = R.bot_view(state, player), R.legal_orders(state, player)
        assert bots.choose("medina", view, player, legal) == scored_one_by_one(view, player, legal)
        shuffled = random.Random(seed).sample(legal, len(legal))  # the bot reads no order into the list
        assert bots.choose("medina", view, player, shuffled) == scored_one_by_one(view, player, legal)


@pytest.mark.parametrize("players,seed,bot", GAMES)
def test_the_kept_points_and_roofs_are_worked_out_afresh_alike(players: int, seed: int, bot: bool) -> None:
    """A merchant or a wall beside a claimed palace adds a point to its kept points instead of dropping them;
    the roof orders are kept until a palace is founded or claimed."""
    for state, player in positions(players, seed, bot):
        R.bot_view(state, player)  # fills the kept points of the claimed palaces
        kept, new = R._city(state), R.city(state)
        for pid, points in kept.points.items():
            assert points == R._palace_score(state, state["palaces"][pid], new)
        assert R._roof_orders(state, kept) == R._roof_orders(state, new)


@pytest.mark.parametrize("players,seed,bot", GAMES)
def test_the_kept_lines_of_a_bots_view_are_made_afresh_alike(players: int, seed: int, bot: bool) -> None:
    """Only the lines of the players whose pieces or score a placement changes are made anew (not everyone's
    when a bonus tile moves or pieces go back): the others kept are as a copy of the position makes them."""
    for state, player in positions(players, seed, bot):
        kept = R.bot_view(state, player)
        assert kept == R.bot_view(fresh(state), player)


@pytest.mark.parametrize("players,seed,bot", GAMES)
def test_after_any_placement_no_more_pieces_go_back(players: int, seed: int, bot: bool) -> None:
    """Why a wall need not look for pieces to send back: each placement sends back all it can, and looking
    again (as after a wall, which changes nothing they go back for) finds nothing."""
    for state, _ in positions(players, seed, bot):
        if state["phase"] == "build":
            copied = fresh(state)
            events: list[dict[str, Any]] = []
            assert not R._return_pieces(copied, events, R._city(copied)) and events == [] and copied == state


def test_the_wall_squares_worked_out_once_are_the_wall_squares() -> None:
    assert medina.WALL_SQUARE == {wall: medina.wall_square(wall) for wall in medina.ALL_WALLS}


@pytest.mark.parametrize("players,seed,bot", GAMES)
def test_a_decision_is_asked_for_alike(players: int, seed: int, bot: bool) -> None:
    for state, player in positions(players, seed, bot):
        assert R.decision(state) == R.decision(fresh(state)) == ((player,), "start" if state["phase"] == "start"
                                                                   else "build", False)
