"""What a player reads must not give away what is hidden: the seed (until the game is over, when the
final report reveals it), the order of the cards still in the bag, the cards set aside unseen, and the
other players' tokens. Checked on every report each player receives and on every `show --as` along
whole games, and by changing the hidden parts of a game and checking that no player's view moves."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import helpers
from helpers import Mirror, as_json, keys_in, send_turn
from pbem import bots
from pbem.advance import write_reports
from pbem.game import apply_orders, new_game, show
from pbem.report import render_report
from pbem.rng import Rng, commitment
from pbem.rules.base import get_ruleset
from pbem.store import GamesDir

pytestmark = pytest.mark.usefixtures("pictures_unexamined")

RULES = get_ruleset("medici")
NAMES = ["anna", "ben", "cleo", "dario", "eva", "fritz"]
HIDDEN_KEYS = {"deck", "set_aside", "fixed_days"}


# -- what must not show -------------------------------------------------------------------------------

class Secrets(helpers.Secrets):
    """The hidden facts of a game at one moment, taken from the GM's view."""

    hidden_keys = HIDDEN_KEYS

    def __init__(self, seed: str, tokens: dict[str, str], gm_view: dict[str, Any], finished: bool) -> None:
        super().__init__(seed, tokens, finished)
        self.deck = list(gm_view["deck"])
        self.set_aside = list(gm_view["set_aside"])

    def runs(self) -> list[list[str]]:
        """Card sequences that no player may see: the next three cards of the bag, the first three set
        aside (shorter lists could match a public list by chance: the 5s come in pairs)."""
        return [cards[:3] for cards in (self.deck, self.set_aside) if len(cards) >= 3]


def perturbed(state: dict[str, Any], salt: str) -> dict[str, Any]:
    """The same game with everything hidden changed: the cards in the bag and set aside swapped around
    (their counts kept) and, while the game runs, another seed."""
    other = dict(state, engine=copy.deepcopy(state["engine"]))
    engine = other["engine"]
    pool = engine["deck"] + engine["set_aside"]
    Rng(f"perturb-{salt}").shuffle(pool, "hidden")
    if pool == engine["deck"] + engine["set_aside"] and len(pool) > 1:
        pool = pool[1:] + pool[:1]
    engine["deck"], engine["set_aside"] = pool[:len(engine["deck"])], pool[len(engine["deck"]):]
    if other["status"] == "active":
        other["seed"] = other["seed"] + "-something-else"
    return other


def check_views_ignore_hidden(state: dict[str, Any], events: list[dict[str, Any]], salt: str) -> None:
    """No player's view or report may change when only hidden things change."""
    helpers.check_views_ignore_hidden(state, perturbed(state, salt), events, "hidden cards or the seed")


# -- a whole game through the CLI ---------------------------------------------------------------------

def test_cli_game_reports_and_shows_keep_the_secrets(pbem, tmp_path: Path) -> None:
    seed = "Hush-Seed-31337"
    players = NAMES[:3]
    args = ["new", "medici", "m1", *helpers.seed_args(seed), "--json"]
    for p in players:
        args += ["--player", f"{p}={p}@example.org"]
    r = pbem(*args)
    assert r.exit_code == 0, r.output
    tokens = {p["name"]: p["token"] for p in json.loads(r.stdout)["players"]}
    gd = GamesDir(pbem.games)
    mirror = Mirror(RULES, gd.load("m1"))
    reports = pbem.games / "m1" / "reports"
    read: set[Path] = set()
    first_reports: dict[str, str] = {}
    last_reports: dict[str, str] = {}
    turnfile = tmp_path / "turn.yaml"
    steps = 0
    while True:
        player = mirror.waiting()
        finished = player is None
        secrets = Secrets(seed, tokens, RULES.view(mirror.engine, None), finished)

        # every report written since the last look
        for p in players:
            for path in sorted((reports / p).iterdir()):
                if path in read:
                    continue
                read.add(path)
                text = path.read_text("utf-8")
                first_reports.setdefault(p, text)
                last_reports[p] = text
                secrets.check_text(text, p, f"report {path.name} of {p}")

        # now and then (the CLI reads the whole state file each time): the GM's JSON and what every
        # player sees, as text and as JSON; and the views do not move when the hidden cards do
        if steps % 5 == 0 or finished:
            gm_raw = pbem("show", "m1", "--json")
            assert gm_raw.exit_code == 0, gm_raw.output
            gm = json.loads(gm_raw.stdout)
            assert gm["view"] == as_json(RULES.view(mirror.engine, None))  # the mirror is the stored game
            if not finished:  # the GM's own view has no seed before the end either
                assert "seed" not in gm
                assert seed not in gm_raw.stdout
            for p in players:
                text = pbem("show", "m1", "--as", p)
                assert text.exit_code == 0, text.output
                secrets.check_text(text.stdout, p, f"show --as {p} at turn {gm['turn']}")
                raw = pbem("show", "m1", "--as", p, "--json")
                assert raw.exit_code == 0, raw.output
                secrets.check_view(json.loads(raw.stdout), p, f"show --as {p} --json at turn {gm['turn']}")
            state = gd.load("m1")
            check_views_ignore_hidden(state, state["events"][-12:], f"cli-{steps}")
        if finished:
            break

        # the player to move reads his view (checked too) and sends the bot's order
        raw = pbem("show", "m1", "--as", player, "--json")
        assert raw.exit_code == 0, raw.output
        seen = json.loads(raw.stdout)
        secrets.check_view(seen, player, f"show --as {player} --json at turn {seen['turn']}")
        assert seen["waiting_for"] == [player] and seen["view"]["you"] == player
        order = bots.choose("medici", seen["view"], player, seen["legal_orders"])
        send_turn(pbem, turnfile, "m1", player, tokens[player], seen["turn"], [order])
        mirror.apply(player, order)
        steps += 1
        assert steps < 1000

    # the commitment from the first report, the seed in the last; the seed matches the commitment
    for p in players:
        assert commitment(seed) in first_reports[p]
        assert seed not in first_reports[p]
        assert "The seed was: " + seed in last_reports[p]
        assert seed in pbem("show", "m1", "--as", p).stdout
    assert gm["seed"] == seed and gm["seed_sha256"] == commitment(seed)
    assert pbem("verify", "m1").exit_code == 0


# -- more games through the same library calls the CLI makes ------------------------------------------

def random_chooser(prng: Rng):
    def choose(view: dict[str, Any], player: str, legal: list[Any]) -> Any:
        if legal[0] == "pass" and len(legal) > 1 and prng.below(2, "pass") == 0:
            return "pass"
        return legal[prng.below(len(legal), "pick")]
    return choose


LIBRARY_CASES = [(3, "amigo", "random", "s-3a"), (4, "riogrande", "bot", "s-4r"), (5, "amigo", "random", "s-5a"),
                 (6, "riogrande", "bot", "s-6r")]


@pytest.mark.parametrize("n, edition, kind, tag", LIBRARY_CASES, ids=[c[3] for c in LIBRARY_CASES])
def test_library_game_reports_and_views_keep_the_secrets(tmp_path: Path, n: int, edition: str, kind: str,
                                                           tag: str) -> None:
    """new_game, apply_orders and write_reports (what `pbem new` and `pbem advance` call, without git),
    and show/render_report as `pbem show --as` prints them."""
    seed = f"Quiet-{tag}-seed-9f8e7d"
    gd = GamesDir(tmp_path / "games")
    players = NAMES[:n]
    state, tokens = new_game(gd, "medici", "g1", [(p, f"{p}@example.org") for p in players],
                             {"edition": edition}, seed)
    state["reports"] = {p: "all" for p in players}  # a report for every change: each is checked
    paths = write_reports(gd, state)
    assert len(paths) == n
    first = {p: (tmp_path / "games" / "g1" / "reports" / p / "0001-turn-0001.txt").read_text("utf-8")
             for p in players}
    for p in players:
        assert commitment(seed) in first[p]
    choose = random_chooser(Rng(f"chooser-{tag}")) if kind == "random" else None
    last: dict[str, str] = {}
    step = 0
    while True:
        finished = state["status"] == "finished"
        secrets = Secrets(seed, tokens, show(state)["view"], finished)
        if not finished:  # not even the GM's JSON has the seed before the end
            assert "seed" not in show(state)
            assert seed not in json.dumps(show(state))
        secrets.check_reports(paths, last)
        for p in players:
            shown = show(state, p)
            secrets.check_view(shown, p, f"the view of {p} at turn {shown['turn']}")
            secrets.check_text(render_report(state, p, []), p, f"show --as {p} at turn {shown['turn']}")
        if step % 4 == 0 or finished:
            check_views_ignore_hidden(state, state["events"][-12:], f"{tag}-{step}")
        if finished:
            break
        player = show(state)["waiting_for"][0]
        seen = show(state, player)
        pick = choose or (lambda v, pl, lg: bots.choose("medici", v, pl, lg))
        order = pick(seen["view"], player, seen["legal_orders"])
        state, _ = apply_orders(state, player, seen["turn"], [order])
        paths = write_reports(gd, state)
        assert {p.parent.name for p in paths} == set(players)  # every order is news for everyone
        step += 1
        assert step < 2000
    assert sorted(last) == sorted(players)
    for p in players:
        assert "The seed was: " + seed in last[p]


def test_an_unfinished_game_never_shows_the_seed_to_the_gm_json(pbem) -> None:
    pbem.new("m1", ("anna", "ben", "cleo", "dario"))
    r = pbem("show", "m1", "--json")
    assert r.exit_code == 0
    assert "test-seed" not in r.stdout
    assert "seed" not in json.loads(r.stdout)
    assert json.loads(r.stdout)["seed_sha256"] == commitment("test-seed")
    # the GM does see the bag, in his own view only
    gm_view = json.loads(r.stdout)["view"]
    assert len(gm_view["deck"]) + len(gm_view["lot"]) == 24
    for p in ("anna", "ben", "cleo", "dario"):
        mine = pbem.show("m1", p)
        assert not set(keys_in(mine)) & HIDDEN_KEYS
        assert mine["view"]["cards_left"] == len(gm_view["deck"])


def test_the_checks_would_notice_a_leak(pbem) -> None:
    """The checks above are not vacuous: the GM's view, or a report quoting the bag, fails them."""
    pbem.new("m1", ("anna", "ben", "cleo"))
    gm = pbem.show("m1")
    secrets = Secrets("test-seed", {"anna": "tok-a", "ben": "tok-b"}, gm["view"], finished=False)
    assert len(secrets.deck) >= 3 and len(secrets.set_aside) >= 3
    with pytest.raises(AssertionError):
        secrets.check_view(gm, "anna", "the GM view")
    leaky = dict(gm, view={k: v for k, v in gm["view"].items() if k not in HIDDEN_KEYS})
    secrets.check_view(leaky, "anna", "the GM view without the hidden keys")
    leaky["view"]["next"] = [gm["view"]["lot"][0]] + gm["view"]["deck"][:3]
    with pytest.raises(AssertionError):
        secrets.check_view(leaky, "anna", "a view listing the bag")
    for text in ("seed: test-seed", "token tok-b", "next: " + ", ".join(gm["view"]["deck"][:3]),
                 ", ".join(gm["view"]["set_aside"][:4])):
        with pytest.raises(AssertionError):
            secrets.check_text(text, "anna", "a leaky text")
    secrets.check_text("token tok-a", "anna", "his own token")
    Secrets("test-seed", {}, gm["view"], finished=True).check_text("The seed was: test-seed", "anna", "end")
