"""The ruleset contract (pbem/rules/contract.py) is written once and kept: the contributor's guide says it
as the code does, a ruleset that breaks it is refused when it is registered (or, in what only a game
shows, by `pbem rulesets --check`) with a message naming what is missing, and every game keeps it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pbem import data_dir
from pbem.rules import contract
from pbem.rules.checking import check_game
from rooms import GAMES

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "contributing.md"


def test_the_contributors_guide_says_the_contract_as_the_code_does() -> None:
    text = GUIDE.read_text("utf-8")
    assert contract.BEGIN in text and contract.END in text
    assert contract.placed(text) == text, "run: python -m pbem.rules.contract docs/contributing.md"


def test_the_page_names_every_part_of_the_contract() -> None:
    made = contract.page()
    for name in [*contract.REQUIRED_ATTRIBUTES, *contract.abstract_left(contract.Ruleset), *contract.REQUIRED_STATE_KEYS,
                 *contract.EVENT_KEYS, *contract.REPORT_CONTEXT, *contract.PICTURE_CONTEXT, "MODULE.refusals", "MODULE.bot"]:
        assert f"`{name}" in made, name


def pbem_process(tmp_path: Path, rulesets: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PBEM_RULESETS=rulesets,
               PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "pbem", "rulesets", *args], capture_output=True, text=True,
                          cwd=tmp_path, env=env)


DICE = '''
from pbem.rules.base import Ruleset, register


@register
class Dice(Ruleset):
    name = "dice"
    title = "Dice"
    min_players = 2
    max_players = 4

    def setup(self, players, options, rng, deck=None):
        return {"turn": 1}, []
'''


def test_a_ruleset_that_breaks_the_contract_is_refused_when_it_is_registered(tmp_path: Path) -> None:
    (tmp_path / "dice.py").write_text(DICE, "utf-8")
    r = pbem_process(tmp_path, "dice=dice")
    assert r.returncode == 1
    templates, schemas = data_dir("pbem.templates") / "dice", data_dir("pbem.schemas")
    assert r.stderr == (
        "Error: the ruleset 'dice' (PBEM_RULESETS) breaks the contract (pbem/rules/contract.py): it sets no "
        "example_order (str); it does not define _apply, candidate_orders, check_deck, decision, result, view, "
        "why_illegal; it has no bot module dice_bot; it has no refusals module dice_refusals; it has no template "
        f"report.txt.j2, events.j2, rules.txt.j2, board.svg.j2 in {templates}; it has no schema "
        f"{schemas / 'dice.orders.schema.json'}; it has no schema {schemas / 'dice.state.schema.json'}\n")
    assert "dice " not in r.stdout  # not listed as a game pbem hosts
    # nor can a game of it be begun
    env = dict(os.environ, PBEM_RULESETS="dice=dice", PYTHONPATH=str(tmp_path))
    new = subprocess.run([sys.executable, "-m", "pbem", "new", "dice", "d1", "--player", "anna=a@example.org",
                          "--player", "ben=b@example.org", "--games-dir", str(tmp_path / "games")],
                         capture_output=True, text=True, cwd=tmp_path, env=env)
    assert new.returncode == 1 and new.stderr.startswith("Error: the ruleset 'dice' (PBEM_RULESETS) breaks the contract")
    assert not (tmp_path / "games" / "d1").exists()


COIN = '''
"""Coin: every player calls heads or tails at once (a decision of several players), twice."""
from pathlib import Path

from pbem.rules.base import Decision, Ruleset, register

from coin.refusals import refuse


@register
class Coin(Ruleset):
    name = "coin"
    title = "Coin"
    min_players = 2
    max_players = 4
    example_order = "call: heads"
    files = Path(__file__).parent

    def check_deck(self, deck, players, options):
        return {}

    def setup(self, players, options, rng, deck=None):
        return {"turn": 1, "players": list(players), "calls": {}}, [{"type": "start"}]

    def decision(self, state):
        if state["turn"] > 2:
            return None
        return Decision(tuple(p for p in state["players"] if p not in state["calls"]), "call")  # not together

    def candidate_orders(self, state, player):
        return [{"call": "heads"}, {"call": "tails"}]

    def why_illegal(self, state, player, order):
        d = self.decision(state)
        return None if d and player in d.players else refuse("not-your-decision", players=", ".join(d.players) if d else "")

    def _apply(self, state, player, order, rng):
        state["calls"][player] = order["call"]
        if len(state["calls"]) == len(state["players"]):
            state["calls"] = {}
            state["turn"] += 1
        return []

    def view(self, state, player):
        return {"turn": state["turn"]}

    def result(self, state):
        return [{"player": p, "score": 0, "rank": 1} for p in state["players"]]
'''
COIN_BOT = '''
from pbem.bots import bot


@bot("coin")
def choose(view, player, legal):
    return legal[0]
'''
COIN_REFUSALS = '''
from pbem.i18n import N_
from pbem.refusals import rules_refusals

MESSAGES, REFUSALS, refuse = rules_refusals({"no-coin": N_("there is no coin")})
'''


def a_coin_game(tmp_path: Path) -> None:
    folder = tmp_path / "coin"
    (folder / "templates").mkdir(parents=True)
    (folder / "schemas").mkdir()
    (folder / "__init__.py").write_text(COIN, "utf-8")
    (folder / "bot.py").write_text(COIN_BOT, "utf-8")
    (folder / "refusals.py").write_text(COIN_REFUSALS, "utf-8")
    for name in contract.TEMPLATES:
        (folder / "templates" / name).write_text("", "utf-8")
    (folder / "schemas" / "coin.orders.schema.json").write_text(json.dumps({"type": "object"}), "utf-8")
    (folder / "schemas" / "coin.state.schema.json").write_text(json.dumps({"type": "object", "required": ["turn"]}),
                                                               "utf-8")


def test_what_only_a_game_shows_is_checked_by_playing_it(tmp_path: Path) -> None:
    a_coin_game(tmp_path)
    r = pbem_process(tmp_path, "coin=coin", "coin")
    assert (r.returncode, r.stdout, r.stderr) == (0, "coin             Coin, 2-4 players (no options)\n", "")
    r = pbem_process(tmp_path, "coin=coin", "--check", "coin")
    assert r.returncode == 1
    assert r.stdout == "coin             Coin, 2-4 players (no options)\n"
    assert r.stderr == ("Error: the ruleset 'coin' breaks the contract (pbem/rules/contract.py) in a game by its "
                        "bot: after 0 orders: the decision waits for several players but is not `together`\n")
    # made `together`, it keeps the contract
    init = tmp_path / "coin" / "__init__.py"
    init.write_text(init.read_text("utf-8").replace('"call")  # not together', '"call", together=True)'), "utf-8")
    r = pbem_process(tmp_path, "coin=coin", "--check", "coin")
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout == ("coin             Coin, 2-4 players (no options)\n"
                        "                 keeps the contract: 6 orders of 3 players by its bot\n")


def test_an_unknown_name_to_check_is_refused(tmp_path: Path) -> None:
    r = pbem_process(tmp_path, "", "--check", "chess")
    assert r.returncode == 1
    assert r.stderr.startswith("Error: unknown ruleset 'chess' (known: ")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_keeps_the_contract_in_play(game: str) -> None:
    assert check_game(game, most=60) > 0


def test_a_board_picture_gets_what_the_contract_says(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The context of a board and of a report, as the contract's page lists them."""
    import jinja2

    from pbem.game import new_game
    from pbem.pictures import board_svg
    from pbem.report import render_report
    from pbem.store import GamesDir
    from rooms import EXAMPLE, room

    seen: list[dict[str, Any]] = []
    render = jinja2.Template.render

    def recorded(self: jinja2.Template, *args: Any, **kwargs: Any) -> str:
        seen.append(dict(*args, **kwargs))
        return render(self, *args, **kwargs)
    monkeypatch.setattr(jinja2.Template, "render", recorded)
    players = list(room(EXAMPLE).PLAYERS)
    state, _ = new_game(GamesDir(tmp_path), EXAMPLE, "g1", [(p, f"{p}@x.test") for p in players], {}, "context-seed")
    board_svg(state, players[0], when="after turn 1")
    assert set(seen[-1]) == set(contract.PICTURE_CONTEXT) - {"PHONE"}
    render_report(state, players[0], [])
    assert set(seen[-1]) == set(contract.REPORT_CONTEXT) - {"bots"}
