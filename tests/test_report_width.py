"""Every line of every report fits 72 columns: mail is read in plain-text clients at 72 columns and on
phones. Whole bot games of every ruleset and size render, after every order, the report each
player would get (the events he has not yet read, as `write_reports` does) and the GM view, and the
rules in short each player's welcome mail carries; any line wider than 72 columns fails, named with the
ruleset, the turn and the line (the bigger games render after every second to fourth order, each report
then carrying the events of all the orders since the last). Games with the longest names pbem allows
(24-character players, a 40-character game id) render every few orders.

Also the order block at the end of a report: sent back unchanged it holds no order; with one
alternative's `#` deleted it holds exactly that order.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import helpers
from helpers import safe_load
from rooms import each, every_table
from pbem.game import new_game, show, waiting_for
from pbem.report import BEGIN, END, WIDTH, env, render_report, visible
from pbem.store import GamesDir

NAMES = ["anna", "ben", "cleo", "dora", "emil", "fritz"]
LONG = [f"{c}-player-with-long-name{i}" for i, c in enumerate("abcdef")]  # 24 characters, the most
LONG_GAME = "a-game-id-of-forty-characters-0123456789"  # 40, the most

def too_wide(text: str, what: str) -> list[str]:
    """Each line of `text` wider than 72 columns, named."""
    return [f"{what}, line {n}: {len(line)} columns: {line!r}"
            for n, line in enumerate(text.split("\n"), start=1) if len(line) > WIDTH]


def rules_text(state: dict[str, Any], player: str) -> str:
    """The rules in short, as `pbem.mail.run.welcome_text` renders them for a player's welcome mail."""
    view = show(state, player)["view"]
    return env().get_template(f"{state['ruleset']}/rules.txt.j2").render(view=view)


def play(tmp_path: Path, ruleset: str, names: list[str], options: dict[str, str], seed: str, *,
         game: str = "w1", every: int = 1) -> tuple[list[str], int, int]:
    """A whole bot game; every `every` orders (and at the start and the end) each player's report with
    the events he has not read and the GM view are rendered. Returns the lines too wide, the number
    of reports rendered and of orders played."""
    gd = GamesDir(tmp_path / "games")
    state, _ = new_game(gd, ruleset, game, [(p, f"{p}@example.org") for p in names], options, seed)
    label = f"{ruleset} {len(names)} {options or ''} ({seed})"
    bad: list[str] = []
    for p in names:
        bad += too_wide(rules_text(state, p), f"{label}: the rules for {p}")
    read = {p: 0 for p in [*names, None]}
    rendered = steps = 0
    while True:
        finished = state["status"] != "active"
        if steps % every == 0 or finished:
            for p in [*names, None]:
                unseen = visible(state["events"][read[p]:], p)
                if p is not None and not unseen and steps:
                    continue  # write_reports sends no report without news
                text = render_report(state, p, unseen)
                rendered += 1
                bad += too_wide(text, f"{label}, turn {state['engine']['turn']}, "
                                      f"{'the GM view' if p is None else 'report for ' + p}")
                read[p] = len(state["events"])
        if finished or len(bad) > 20:
            return bad, rendered, steps
        state = helpers.bot_move(state)
        steps += 1
        assert steps < 3000, "the game does not end"


@pytest.mark.parametrize("ruleset,n,options,seed,every", each("ALL_TABLES"))
def test_every_report_line_fits_72_columns(tmp_path: Path, ruleset: str, n: int, options: dict[str, str],
                                           seed: str, every: int) -> None:
    """Every player count and option of every game (its room's ALL_TABLES)."""
    names = NAMES[:n]
    bad, rendered, steps = play(tmp_path, ruleset, names, options, seed, every=every)
    assert not bad, "\n".join(bad)
    assert rendered > min(20 * n, 2 * (steps // every))  # (a short game: the GM's and a player's at each)


@pytest.mark.parametrize("ruleset,n,options,seed,every", each("LONG_TABLES"))
def test_the_longest_names_fit_too(tmp_path: Path, ruleset: str, n: int, options: dict[str, str],
                                   seed: str, every: int) -> None:
    assert all(len(name) == 24 for name in LONG) and len(LONG_GAME) == 40
    bad, _, _ = play(tmp_path, ruleset, LONG[:n], options, seed, game=LONG_GAME, every=every)
    assert not bad, "\n".join(bad)


# -- the order block ------------------------------------------------------------------------------------

def block(text: str) -> list[str]:
    return text.split(BEGIN + "\n")[1].split(END)[0].rstrip("\n").split("\n")


@pytest.mark.parametrize("ruleset,names,options", every_table())
def test_the_order_block_unchanged_holds_no_order(tmp_path: Path, ruleset: str, names: list[str],
                                                   options: dict[str, str]) -> None:
    gd = GamesDir(tmp_path / "games")
    state, _ = new_game(gd, ruleset, "b1", [(p, f"{p}@example.org") for p in names], options, "block-seed")
    player = waiting_for(state)[0]
    legal = show(state, player)["legal_orders"]
    lines = block(render_report(state, player, state["events"]))
    assert all(len(line) <= WIDTH for line in lines)
    assert lines[:5] == ["game: b1", f"player: {player}", "token: YOUR-TOKEN", f"turn: {state['engine']['turn']}",
                         "orders:"]
    assert lines[5].startswith("# To keep one order, delete the # in front of it")  # one line says how
    alternatives = lines[6:]
    assert alternatives and all(line.startswith("#  - ") for line in alternatives)
    # sent back unchanged, the block gives no order at all
    assert safe_load("\n".join(lines))["orders"] is None
    # with the `#` of one alternative deleted, that order and no other
    for k, line in enumerate(alternatives):
        kept = lines[:6] + [a[1:] if i == k else a for i, a in enumerate(alternatives)]
        orders = safe_load("\n".join(kept))["orders"]
        assert len(orders) == 1
        if not {"N", "X"} & set(line.replace(":", " ").split()):  # nothing left to fill in
            assert orders[0] in legal, (line, orders)


def test_a_quoted_order_of_a_word_and_its_number_is_never_broken() -> None:
    """A reader copies `'prijs: 0'` whole, and a phone shows it as code: the line breaks before it."""
    from pbem.report import wrap72

    text = "  Beantwoord deze mail met alleen je order op een regel, zoals 'prijs: 0'. Meerdere orders volgen."
    assert wrap72(text, 2).split("\n")[:2] == ["  Beantwoord deze mail met alleen je order op een regel, zoals",
                                               "  'prijs: 0'. Meerdere orders volgen."]
    assert wrap72("  " + "x" * 62 + " 'bid: 7'", 2) == "  " + "x" * 62 + "\n  'bid: 7'"
    assert wrap72("  " + "x" * 64 + " bid: 7 now", 2) == "  " + "x" * 64 + " bid:\n  7 now"  # unquoted: as before
