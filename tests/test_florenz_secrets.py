"""What a Florenz player reads must not give away what is hidden (FLORENZ-PLAN.md §19): the seed (until
the game is over, when the final report reveals it), the order of each scandal deck, of the location and
time tile stacks and of Strozzi's deck, the other families' hands (only how many cards of each deck they
hold), the other families' plan cards (and, in the harder solo game, Strozzi's), and the other players'
tokens.

Along whole games (2-5 families and the harder solo game) each hidden part is changed on its own and no
player's view (`show --as`) and no rendered report may move; every report each player receives keeps the
secrets; the events addressed `to: [player]` (the cards drawn, the plan cards dealt) reach no other
player's report. Then a solo game through the `pbem` command itself, `show --as` as text and JSON.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import helpers
import pytest
from helpers import Mirror, as_json, send_turn

from pbem import bots
from pbem.advance import write_reports
from pbem.game import apply_orders, new_game, show
from pbem.report import render_report, visible
from pbem.rng import Rng, commitment
from pbem.rules.base import get_ruleset
from pbem.store import GamesDir

pytestmark = pytest.mark.usefixtures("pictures_unexamined")

R = get_ruleset("florenz")
NAMES = ["anna", "ben", "cleo", "dora", "emil"]
STROZZI = "Strozzi"
PLAN_CARDS = [1, 2, 3, 4, 5, 6]


# -- what must not show -------------------------------------------------------------------------------

class Secrets(helpers.Secrets):
    """The hidden facts of a game at one moment, from the engine state."""

    hidden = "the next scandal cards"

    def __init__(self, seed: str, tokens: dict[str, str], engine: dict[str, Any], finished: bool) -> None:
        super().__init__(seed, tokens, finished)
        self.decks = {name: list(cards) for name, cards in engine["scandal"]["deck"].items()}

    def runs(self) -> list[list[str]]:
        """The next six cards of each scandal deck (shorter runs of its four kinds could match a public
        discard pile by chance)."""
        return [cards[:6] for cards in self.decks.values() if len(cards) >= 6]


def rotated(items: list[Any], salt: str) -> list[Any]:
    """`items` in another order (shuffled; rotated when the shuffle gives them back unchanged)."""
    out = list(items)
    Rng(f"perturb-{salt}").shuffle(out, "hidden")
    if out == items:
        out = out[1:] + out[:1]
    return out


def variants(state: dict[str, Any], salt: str) -> Iterator[tuple[str, dict[str, Any], set[str]]]:
    """The same game with one hidden part changed at a time: (what, the changed game, the players who
    must not see the change)."""
    engine = state["engine"]
    everyone = set(engine["players"])
    active = state["status"] == "active"

    def changed(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
        other = dict(state, engine=copy.deepcopy(engine))
        change(other["engine"])
        return other

    for name, cards in engine["scandal"]["deck"].items():
        if len(set(cards)) > 1:
            yield (f"the order of the {name} deck",
                   changed(lambda e, n=name, c=cards: e["scandal"]["deck"].update({n: rotated(c, salt + n)})), everyone)
    if len(engine["location_stack"]) > 1:
        yield ("the order of the location tiles",
               changed(lambda e: e.update(location_stack=rotated(engine["location_stack"], salt))), everyone)
    if len(engine["time_stack"]) > 1:
        yield ("the order of the time tiles",
               changed(lambda e: e.update(time_stack=rotated(engine["time_stack"], salt))), everyone)
    if engine["strozzi"] and len(set(engine["strozzi"]["deck"])) > 1:
        yield ("the order of Strozzi's deck",
               changed(lambda e: e["strozzi"].update(deck=rotated(engine["strozzi"]["deck"], salt))), everyone)
    if active:
        yield "the seed", dict(state, seed=state["seed"] + "-something-else"), everyone
    hands = engine["scandal"]["hand"]
    # two families' hands: a card of one swapped with another card of the same deck in the other's hand
    # (or, with no such pair, in the deck); every third family must not notice
    for f in engine["players"]:
        for g in [*engine["players"], None]:
            if g == f:
                continue
            pool = hands[g] if g else [c for cards in engine["scandal"]["deck"].values() for c in cards]
            pair = next(((i, j) for i, a in enumerate(hands[f]) for j, b in enumerate(pool)
                         if a != b and a.split("-")[0] == b.split("-")[0]), None)
            if pair is None:
                continue
            i, j = pair
            a, b = hands[f][i], pool[j]

            def swap(e: dict[str, Any], f: str = f, g: str | None = g, i: int = i, a: str = a, b: str = b) -> None:
                e["scandal"]["hand"][f][i] = b
                if g:
                    e["scandal"]["hand"][g][e["scandal"]["hand"][g].index(b)] = a
                else:
                    deck = e["scandal"]["deck"][a.split("-")[0]]
                    deck[deck.index(b)] = a
            yield f"{f}'s hand ({a} for {b}, with {g or 'the deck'})", changed(swap), everyone - {f, g}
            break
    # another family's plan card (or Strozzi's), changed to a card nobody has
    if active:
        plans = engine["plan_cards"]
        free = [c for c in PLAN_CARDS if c not in plans.values()]
        for f in plans:
            yield (f"{f}'s plan card", changed(lambda e, f=f: e["plan_cards"].update({f: free[0]})),
                   everyone - {f})


def check_views_ignore_hidden(state: dict[str, Any], events: list[dict[str, Any]], salt: str) -> int:
    """No player's view or report moves when one hidden part changes; the number of changes tried."""
    seen = {p: show(state, p) for p in state["engine"]["players"]}
    read = {p: render_report(state, p, events) for p in seen}
    n = 0
    for what, other, blind in variants(state, salt):
        n += 1
        for p in sorted(blind):
            assert show(other, p) == seen[p], f"{p}'s view depends on {what}"
            assert render_report(other, p, events) == read[p], f"{p}'s report depends on {what}"
    return n


def hidden_from(event: dict[str, Any], player: str) -> bool:
    """Whether an event is addressed to others: its `to` is a list of players without `player` (a
    promotion's `to` is the new rank, and such an event is for everyone)."""
    to = event.get("to")
    return isinstance(to, list) and player not in to


def check_private_events(state: dict[str, Any], events: list[dict[str, Any]]) -> int:
    """Events addressed `to` some players reach nobody else's report: with their contents replaced by
    marks, the others' reports neither show a mark nor differ from reports without those events. The
    number of private events seen."""
    private = [e for e in events if isinstance(e.get("to"), list)]
    if not private:
        return 0
    for p in (q["name"] for q in state["players"]):
        # the contents of every event addressed to others replaced by a mark of its own
        marked = [dict(e, **{key: f"zzsecret{k}x" for key in e if key not in ("type", "to", "turn", "family")})
                  if hidden_from(e, p) else e for k, e in enumerate(events)]
        text = render_report(state, p, marked)
        assert "zzsecret" not in text, f"an event addressed to others shows in {p}'s report"
        assert text == render_report(state, p, [e for e in events if not hidden_from(e, p)])
        assert [e for e in visible(events, p) if hidden_from(e, p)] == []
    return len(private)


# -- players ---------------------------------------------------------------------------------------------

def player_with_cards(prng: Rng) -> Callable[[dict[str, Any], str, list[Any]], Any]:
    """The bot, but one time in two it plays a scandal card when it can (the bot never does: the hands
    would stay small)."""
    def choose(view: dict[str, Any], player: str, legal: list[Any]) -> Any:
        cards = [o for o in legal if o.startswith("play ")]
        if cards and prng.below(3, "card") == 0:
            return cards[prng.below(len(cards), "which")]
        return bots.choose("florenz", view, player, legal)
    return choose


# -- whole games through the library calls the CLI makes --------------------------------------------------

LIBRARY_CASES = [
    pytest.param(2, None, 8, id="2"),
    pytest.param(3, None, 10, id="3"),
    pytest.param(4, None, 14, id="4"),
    pytest.param(5, None, 24, id="5"),
    pytest.param(1, "harder", 4, id="solo-harder"),
]


@pytest.mark.parametrize("n, solo, every", LIBRARY_CASES)
def test_library_game_reports_and_views_keep_the_secrets(tmp_path: Path, n: int, solo: str | None,
                                                           every: int) -> None:
    """new_game, apply_orders and write_reports (what `pbem new` and `pbem advance` call, without git),
    and show/render_report as `pbem show --as` prints them; every `every` orders each hidden part
    changed on its own moves no view and no report."""
    seed = f"Florenz-Quiet-{n}-{solo}-seed-5a1c"
    gd = GamesDir(tmp_path / "games")
    players = NAMES[:n]
    state, tokens = new_game(gd, "florenz", "g1", [(p, f"{p}@example.org") for p in players],
                             {"solo": solo} if solo else {}, seed)
    paths = write_reports(gd, state)
    assert len(paths) == n
    for p in players:
        first = (tmp_path / "games" / "g1" / "reports" / p / "0001-turn-0001.txt").read_text("utf-8")
        assert commitment(seed) in first and seed not in first
    assert check_private_events(state, state["events"]) == n   # the plan cards dealt
    choose = player_with_cards(Rng(f"chooser-{seed}"))
    last: dict[str, str] = {}
    step = tried = private = 0
    kinds: set[str] = set()
    while True:
        finished = state["status"] == "finished"
        secrets = Secrets(seed, tokens, state["engine"], finished)
        gm = show(state)
        if not finished:  # not even the GM's JSON has the seed before the end
            assert "seed" not in gm and seed not in json.dumps(gm)
        secrets.check_reports(paths, last)
        if step % 3 == 0 or finished:
            for p in players:
                shown = show(state, p)
                secrets.check_view(shown, p, f"the view of {p} at turn {shown['turn']}")
                view = shown["view"]
                if not finished:
                    assert set(view["plan_cards"]) == {p}
                for f, hand in view["scandal"]["hand"].items():
                    assert isinstance(hand, list) if f == p else isinstance(hand, dict)
                assert all(isinstance(x, int) for x in view["scandal"]["deck"].values())
                if view["strozzi"]:
                    assert isinstance(view["strozzi"]["deck"], int)
        if step % every == 0 or finished:
            tried += check_views_ignore_hidden(state, state["events"][-15:], f"{n}-{step}")
            kinds |= {what.split(" (")[0] for what, _, _ in variants(state, "names")}
        if finished:
            break
        player = gm["waiting_for"][0]
        seen = show(state, player)
        order = choose(seen["view"], player, seen["legal_orders"])
        before = len(state["events"])
        state, _ = apply_orders(state, player, seen["turn"], [order])
        private += check_private_events(state, state["events"][before:])
        step += 1
        # the reports of several orders at once (as an `advance` with several turn files queued)
        paths = write_reports(gd, state) if step % 3 == 0 or state["status"] == "finished" else []
        assert step < 1000
    assert sorted(last) == sorted(players)
    for p in players:
        assert seed in last[p]   # the final report reveals it
    # every hidden part was changed at some point of the game (and the check was not vacuous)
    assert tried > 20
    assert {"the order of the messere deck", "the order of the carissima deck", "the order of the figliolo deck",
            "the order of the location tiles", "the order of the time tiles", "the seed"} <= kinds, kinds
    assert {f"{p}'s plan card" for p in players} <= kinds, kinds
    if n > 2:
        assert any(k.endswith("'s hand") for k in kinds), kinds
    if solo == "harder":
        assert {"the order of Strozzi's deck", "Strozzi's plan card"} <= kinds, kinds
    assert private > 0   # cards were drawn, each addressed to its drawer


def test_the_checks_would_notice_a_leak() -> None:
    """The checks above are not vacuous: a view showing the GM's state, another family's hand or plan
    card, or a stack in its order fails them."""
    rng = Rng("leaky")
    engine, _ = R.setup(NAMES[:3], {}, rng)
    engine["scandal"]["hand"]["ben"] = ["messere-cup", "figliolo-guard"]
    gm = R.view(engine, None)
    secrets = Secrets("leaky", {"anna": "tok-a", "ben": "tok-b"}, engine, finished=False)
    assert len(secrets.runs()) == 3
    with pytest.raises(AssertionError):
        secrets.check_view({"view": as_json(gm)}, "anna", "the GM view")
    secrets.check_view({"view": as_json(R.view(engine, "anna"))}, "anna", "anna's view")
    for text in ("seed: leaky", "token tok-b", "next: " + ", ".join(engine["scandal"]["deck"]["carissima"][:6])):
        with pytest.raises(AssertionError):
            secrets.check_text(text, "anna", "a leaky text")
    # a view that hid nothing would move with every variant
    state = {"engine": engine, "status": "active", "seed": "leaky", "players": [{"name": p} for p in NAMES[:3]]}
    moved = set()
    for what, other, blind in variants(state, "leak"):
        if "anna" in blind and R.view(other["engine"], None) != R.view(engine, None):
            moved.add(what.split(" (")[0])
    assert {"the order of the messere deck", "the order of the location tiles", "the order of the time tiles",
            "ben's hand", "ben's plan card", "cleo's plan card"} <= moved, moved


# -- a whole game through the pbem command ------------------------------------------------------------------

def test_cli_solo_game_reports_and_shows_keep_the_secrets(pbem: Any, tmp_path: Path) -> None:
    """The harder solo game through `pbem new`, `submit` and `advance`: every report, and `show --as`
    as text and JSON now and then, keep the secrets; Strozzi's deck and plan card stay hidden until
    the end, when the seed comes out."""
    seed = "Florenz-Hush-Seed-90210"
    r = pbem("new", "florenz", "f1", "--player", "anna=anna@example.org", "--seed", seed, "--json",
             "--option", "solo=harder")
    assert r.exit_code == 0, r.output
    tokens = {p["name"]: p["token"] for p in json.loads(r.stdout)["players"]}
    gd = GamesDir(pbem.games)
    mirror = Mirror(R, gd.load("f1"))
    reports = pbem.games / "f1" / "reports" / "anna"
    read: set[Path] = set()
    last = ""
    turnfile = tmp_path / "turn.yaml"
    steps = 0
    while True:
        player = mirror.waiting()
        finished = player is None
        secrets = Secrets(seed, tokens, mirror.engine, finished)
        for path in sorted(reports.iterdir()):
            if path not in read:
                read.add(path)
                last = path.read_text("utf-8")
                secrets.check_text(last, "anna", f"report {path.name}")
        if steps % 6 == 0 or finished:
            gm_raw = pbem("show", "f1", "--json")
            assert gm_raw.exit_code == 0, gm_raw.output
            gm = json.loads(gm_raw.stdout)
            assert gm["view"] == as_json(R.view(mirror.engine, None))   # the mirror is the stored game
            if not finished:
                assert "seed" not in gm and seed not in gm_raw.stdout
            text = pbem("show", "f1", "--as", "anna")
            assert text.exit_code == 0, text.output
            secrets.check_text(text.stdout, "anna", f"show --as anna at turn {gm['turn']}")
            raw = pbem("show", "f1", "--as", "anna", "--json")
            assert raw.exit_code == 0, raw.output
            seen = json.loads(raw.stdout)
            secrets.check_view(seen, "anna", f"show --as anna --json at turn {gm['turn']}")
            if not finished:
                assert list(seen["view"]["plan_cards"]) == ["anna"]
                assert seen["view"]["strozzi"]["deck"] == len(mirror.engine["strozzi"]["deck"])
                state = gd.load("f1")
                check_views_ignore_hidden(state, state["events"][-10:], f"cli-{steps}")
        if finished:
            break
        order = mirror.bot_order(player)
        send_turn(pbem, turnfile, "f1", player, tokens[player], mirror.engine["turn"], [order])
        mirror.apply(player, order)
        steps += 1
        assert steps < 500
    assert seed in last and seed in pbem("show", "f1", "--as", "anna").stdout
    final = pbem.show("f1", "anna")
    assert final["seed"] == seed and STROZZI in final["view"]["plan_cards"]   # revealed at the end
    assert pbem("verify", "f1").exit_code == 0
