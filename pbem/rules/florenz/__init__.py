"""Florenz (Dean Morris), with its solo game against Strozzi.

The package: `data` (the data file, checked, and the tables derived from it), `board` (queues,
control, boasting, plan cards and crests as pure functions on plain data), `orders` (the order grammar),
`actions` (phase 2, over `petitioners`, `moves` and `boasts_and_gifts`), `scandal` (the scandal cards),
`solo` (Strozzi), `flow` (set-up, the phases, scoring, the end), `view` (the report's display, over
`view_board` and `view_tables`), `bot` (over `worth` and `targets`) and the `Florenz` ruleset over them.
FLORENZ-PLAN.md is the rules as implemented, with every reading chosen.
"""

from __future__ import annotations

from typing import Any, Callable

from pbem.i18n import DEFAULT_LANGUAGE, N_
from pbem.rng import Rng
from pbem.rules.base import Decision, Event, Order, Ruleset, StandingMove, State, register
from pbem.rules.florenz import actions as A
from pbem.rules.florenz import board as B
from pbem.rules.florenz import flow as F
from pbem.errors import SetupError
from pbem.rules.florenz import scandal as S
from pbem.rules.florenz import solo as SOLO
from pbem.rules.florenz.view import display
from pbem.rules.florenz.data import BOAST_SLOT_ORDER, LOCATIONS, SCANDAL_CARDS
from pbem.rules.florenz.orders import parse
from pbem.rules.florenz.refusals import refuse
from pbem.refusals import refuse as standing_refused

#: which verbs each decision kind accepts (besides `discard`, allowed at every decision of the holder)
KIND_VERBS: dict[str, tuple[str, ...]] = {
    "place": ("place",),
    "action": A.ACTION_VERBS,
    "bonus": A.BONUS_VERBS,
    "giovanni": ("accept", "decline"),
    "travel": ("travel", "done"),
    "colour": ("colour",),
}


#: the parts of a player's view the bot reads (`bot.py`: the queues an order leaves, the doormen, the
#: Medici's carriages and targets, the plan card, time and gifts, and what a boast would give)
BOT_VIEW_KEYS = ("round", "queues", "guards", "boast", "targets", "carriages", "time", "gifts_given",
                 "plan_cards", "scandal")


#: the deck each scandal card belongs to
DECK_OF_CARD: dict[str, str] = {card: spec["deck"] for card, spec in SCANDAL_CARDS.items()}


#: the parts of a view that hide some of the state from a player (`Florenz._part`)
HIDDEN = frozenset({"location_stack", "time_stack", "scandal", "strozzi", "plan_cards"})

#: the parts of the bot's view that hide some of the state (the others are in `COPY_SHOWN`)
BOT_VIEW_HIDDEN = tuple(key for key in BOT_VIEW_KEYS if key in HIDDEN)


def _copy_boast(boast: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The boast tiles, each with its cups (None or a flat dict) copied."""
    out = {}
    for loc, tile in boast.items():
        out[loc] = copied = tile.copy()
        for slot in BOAST_SLOT_ORDER:
            cup = copied[slot]
            if cup is not None:
                copied[slot] = cup.copy()
    return out


#: a deep copy of each part of the state the bot's view shows whole, by the part's shape (pieces, guards
#: and cups are flat dicts): about twice as fast as a `marshal` round trip, and made at every decision
COPY_SHOWN: dict[str, Callable[[Any], Any]] = {
    "round": lambda n: n,
    "queues": lambda queues: {loc: [piece.copy() for piece in queue] if queue else []
                              for loc, queue in queues.items()},
    # most crests hold no guard: an empty list is made without a comprehension's frame
    "guards": lambda guards: {kind: {crest: [guard.copy() for guard in on] if on else []
                                     for crest, on in crests.items()} for kind, crests in guards.items()},
    "boast": _copy_boast,
    "targets": dict.copy,
    "carriages": dict.copy,
    "time": dict.copy,
    "gifts_given": lambda given: {family: to.copy() for family, to in given.items()},
}


def plain_copy(value: Any) -> Any:
    """A deep copy of plain data (dicts, lists and scalars, as a state is): `copy.deepcopy` without its
    bookkeeping, which a view per decision cannot afford."""
    if type(value) is dict:
        return {k: plain_copy(v) for k, v in value.items()}
    if type(value) is list:
        return [plain_copy(v) for v in value]
    return value


@register
class Florenz(Ruleset):
    """Florenz for 2-5 families, or one player against Strozzi (option `solo`: normal, easier, harder)."""

    name = "florenz"
    title = "Florenz"
    example_order = "send 4"
    min_players = 1
    max_players = 5
    options = {"solo": ("normal", "easier", "harder")}
    option_words = {("solo", "normal"): N_("the solo game against Strozzi"),
                    ("solo", "easier"): N_("the easier solo game against Strozzi"),
                    ("solo", "harder"): N_("the harder solo game against Strozzi")}

    # -- set-up ---------------------------------------------------------------------------------

    def check_deck(self, deck: Any, players: list[str], options: dict[str, str]) -> dict[str, Any]:
        return F.check_deck(deck, players)

    def setup(self, players: list[str], options: dict[str, str], rng: Rng,
              deck: dict[str, Any] | None = None) -> tuple[State, list[Event]]:
        self.check_players(players)
        variant = self.check_options(options)["solo"]
        if len(players) > 1 and variant != "normal":
            raise SetupError(f"solo={variant} is for the solo game: one player against Strozzi "
                             f"({len(players)} players given)")
        return F.setup(players, rng, F.check_deck(deck, players) if deck else {},
                       solo=variant if len(players) == 1 else None)

    # -- decisions ------------------------------------------------------------------------------

    def decision(self, state: State) -> Decision | None:
        phase = state["phase"]
        if phase == "over":
            return None
        pending = state["pending"]
        if pending and pending["kind"] == "colour":
            return Decision((pending["family"],), "colour")
        family = state["on_turn"]
        if phase == "place":
            return Decision((family,), "place")
        if phase == "giovanni":
            return Decision((family,), "giovanni")
        if state["pending"] and state["pending"]["kind"] == "travel":
            return Decision((family,), "travel")
        return Decision((family,), "bonus" if family in state["passed"] else "action")

    def candidate_orders(self, state: State, player: str) -> list[Order]:
        d = self.decision(state)
        if d is None or player not in d.players:
            return []
        out: list[Order] = [f"discard {c}" for c in sorted(set(state["scandal"]["hand"][player]))]
        if d.kind == "place":
            return [f"place {loc}" for loc in LOCATIONS]
        if d.kind == "giovanni":
            return ["accept", "decline"] + out
        if d.kind == "travel":
            return S.travel_candidates(state, player) + out
        if d.kind == "colour":
            return [f"colour {c}" for c in SOLO.COLOURS] + out
        if d.kind == "bonus":
            ring = state["rings"].get(player)
            swaps = [] if ring is None else [f"swap {ring}.{p} with {ring}.{q}"
                                             for p, q in B.bonus_swaps(state["queues"][ring], player)]
            return ["bonus time", "bonus vp"] + swaps + out
        orders = [text for text, _ in A.action_candidates(state, player)]
        return orders + S.candidates(state, player) + out

    def legal_orders(self, state: State, player: str) -> list[Order]:
        """`candidate_orders` that pass `why_illegal`, in the same order; an action decision judges its
        actions and scandal cards by their own rules on facts gathered once (moves, hurries and travels
        by counting free slots), since it has ~1,000 candidates and a decision's other orders are few.
        A bonus decision's candidates are all legal (`bonus_swaps` offers only the swaps `why_swap`
        allows, and the discards are of cards in hand)."""
        d = self.decision(state)
        if d is not None and player in d.players and d.kind == "bonus":
            return self.candidate_orders(state, player)   # both bonuses, the swaps next to the ring, discards
        if d is None or player not in d.players or d.kind != "action":
            return super().legal_orders(state, player)
        orders: list[Order] = [*A.legal_actions(state, player), *S.legal_plays(state, player)]
        return orders + [f"discard {c}" for c in sorted(set(state["scandal"]["hand"][player]))]

    # -- standing orders ------------------------------------------------------------------------

    mail_events = frozenset({"round", "final_score", "game_end"})

    standing_help = {
        "giovanni: accept|decline": "answer every offer of Giovanni so; it lasts until replaced",
        "bonus: time|vp": "once you have passed, take this bonus each time; it lasts until replaced",
    }

    def check_standing(self, state: State, player: str, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return self.one_of_each(entries)

    def standing_move(self, state: State, player: str, entries: list[dict[str, Any]]) -> StandingMove:
        d = self.decision(state)
        if d is None or player not in d.players:
            return StandingMove(None, entries, [])
        by_kind = {next(iter(e)): e for e in entries}
        kind = {"giovanni": "giovanni", "bonus": "bonus"}.get(d.kind)
        if kind is None or kind not in by_kind:
            return StandingMove(None, entries, [])
        value = by_kind[kind][kind]
        order = value if kind == "giovanni" else f"bonus {value}"
        why = self.why_illegal(state, player, order)
        if why is not None:
            return StandingMove(None, [e for e in entries if kind not in e],
                                [standing_refused("standing-kind-why", key=kind, value=value, why=why)])
        return StandingMove(order, entries, [])

    def why_illegal(self, state: State, player: str, order: Order) -> str | None:
        d = self.decision(state)
        if d is None:
            return refuse("game-over")
        if player not in d.players:
            return refuse("not-your-turn", players=", ".join(d.players), kind=d.kind)
        o = parse(order)
        if o is None:
            return refuse("not-an-order", order=repr(order))
        verb = o["verb"]
        if verb == "discard":
            return A.why_discard(state, player, o)
        if verb not in KIND_VERBS[d.kind]:
            return refuse("not-now", verb=verb, kind=d.kind)
        if verb == "play":
            return S.why_play(state, player, order)
        if verb in ("travel", "done"):
            return S.why_travel(state, player, order)
        if verb == "colour":
            return SOLO.why_colour(state, o["colour"])
        if verb == "place":
            return F.why_place(state, o["location"])
        if verb in ("accept", "decline"):
            return F.why_giovanni(state, player, verb)
        return A.WHY[verb](state, player, o)

    def _apply(self, state: State, player: str, order: Order, rng: Rng) -> list[Event]:
        o = parse(order)
        assert o is not None
        events: list[Event] = []
        state["turn"] += 1
        verb = o["verb"]
        if verb == "discard":
            A.do_discard(state, player, o, events)
        elif verb == "place":
            F.do_place(state, player, o["location"], rng, events)
        elif verb in ("accept", "decline"):
            F.do_giovanni(state, player, verb, rng, events)
        elif verb == "colour":
            SOLO.do_colour(state, o["colour"], events)
            F.after_turn(state, rng, events)
        elif verb in ("travel", "done"):
            S.do_travel(state, player, order, events)
            F.after_turn(state, rng, events)
        elif verb == "play":
            S.do_play(state, player, order, events)
            if not state["pending"]:
                F.after_turn(state, rng, events)
        else:
            A.DO[verb](state, player, o, events)
            F.after_turn(state, rng, events)
        return events

    def passive_order(self, state: State, player: str) -> Order | None:
        d = self.decision(state)
        if d is None or player not in d.players:
            return None
        if d.kind == "place":
            return next(f"place {loc}" for loc in LOCATIONS if not state["queues"][loc])
        if d.kind == "bonus":
            return "bonus vp"
        if d.kind == "giovanni":
            return "decline"
        if d.kind == "travel":
            return "done"
        if d.kind == "colour":
            return f"colour {SOLO.COLOURS[0]}"
        if A.is_last_to_pass(state):
            return "pass"
        return next(f"pass {loc}" for loc in LOCATIONS if loc not in state["rings"].values())

    # -- views and the end ----------------------------------------------------------------------

    #: more orders of one kind than this in a turn file are offered as their pattern (the report
    #: lists them): a late game has over a hundred hurries and travels
    SPELLED_OUT = 4

    def order_block(self, choices: list[str]) -> list[str]:
        """Orders of a kind with many choices (hurries of one member, of two, each scandal card
        played) come as the kind's pattern: the turn file stays short on a phone."""
        kinds: dict[str, list[str]] = {}
        for choice in choices:
            kinds.setdefault(self._kind(choice), []).append(choice)
        out = []
        for kind, alike in kinds.items():
            out += alike if len(alike) <= self.SPELLED_OUT or kind not in self._patterns() else [self._patterns()[kind]]
        return out

    @staticmethod
    def _kind(choice: str) -> str:
        words = choice.split()
        if words[0] == "hurry":
            return "hurry two" if " and " in choice else "hurry"
        return " ".join(words[:2]) if words[0] == "play" else words[0]

    @staticmethod
    def _patterns() -> dict[str, str]:
        from pbem.rules.florenz.scandal import ARGS

        return {"hurry": "hurry L.P to M to N", "hurry two": "hurry L.P to M and K.Q to N",
                **{f"play {card}": f"play {card} {shape}" for card, (_, _, shape) in ARGS.items()}}

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        """Everything for the GM; for a player the stacks' contents sorted, deck sizes, others' hands as
        counts per deck, and only his own plan card until the end (§19)."""
        out = {key: self._part(state, key, player) for key in state}
        out["display"] = display(out, player)
        return out

    def view_in(self, view: dict[str, Any], player: str | None, lang: str) -> dict[str, Any]:
        """The view with its display (the board, the tables...) written in `lang`."""
        if lang == DEFAULT_LANGUAGE:
            return view
        return dict(view, display=display({k: v for k, v in view.items() if k != "display"}, player, lang))

    def picture_board(self) -> dict[str, Any]:
        """Where the locations and paths lie, whose round each is: the fixed board the picture draws."""
        from pbem.rules.florenz.data import BOAST_SLOT_ORDER, DISC, MEDICI, PATHS, ROUNDS, ROWS, SLOTS

        return {"rows": ROWS, "paths": PATHS, "medici": MEDICI, "rounds": ROUNDS, "slots": SLOTS,
                "slot_order": BOAST_SLOT_ORDER, "disc_medici": {str(n): DISC[n]["medici"] for n in DISC},
                "medici_colours": {"cosimo": "#C0392B", "contessina": "#E884B5", "giovanni": "#2E6FD1"}}

    def bot_view(self, state: State, player: str) -> dict[str, Any]:
        """The parts of `player`'s view the bot reads (`BOT_VIEW_KEYS`), each as `view` has it, without
        the display text, which costs most of a view. The parts shown whole are copied by their shape
        (`COPY_SHOWN`), the others as `view` hides them."""
        view = {key: copy(state[key]) for key, copy in COPY_SHOWN.items()}
        for key in BOT_VIEW_HIDDEN:
            view[key] = self._part(state, key, player)
        return view

    @staticmethod
    def _part(state: State, key: str, player: str | None) -> Any:
        """One top-level part of the view: a copy of the state's, with what `player` may not see hidden
        (None: the GM, who sees everything)."""
        value = state[key]
        if player is None:
            return plain_copy(value)
        if key == "location_stack":
            return sorted(value, key=int)
        if key == "time_stack":
            return sorted(value)
        if key == "scandal":
            return {part: Florenz._scandal_part(value, part, cards, player) for part, cards in value.items()}
        if key == "strozzi" and value:
            return {k: len(v) if k == "deck" else plain_copy(v) for k, v in value.items()}
        if key == "plan_cards" and state["phase"] != "over":
            return {f: c for f, c in value.items() if f == player}
        return plain_copy(value)

    @staticmethod
    def _scandal_part(scandal: dict[str, Any], part: str, value: Any, player: str) -> Any:
        """The scandal decks as sizes, the discards as they lie, the player's own hand and the others'
        as counts per deck."""
        if part == "deck":
            return {d: len(cards) for d, cards in value.items()}
        if part == "hand":
            return {f: list(cards) if f == player else Florenz._per_deck(cards, scandal["discard"])
                    for f, cards in value.items()}
        if part == "discard":   # each deck's pile: card names
            return {d: list(cards) for d, cards in value.items()}
        return plain_copy(value)

    @staticmethod
    def _per_deck(cards: list[str], decks: dict[str, Any]) -> dict[str, int]:
        """How many of the cards come from each deck."""
        counts = dict.fromkeys(decks, 0)
        for card in cards:
            deck = DECK_OF_CARD[card]
            if deck in counts:
                counts[deck] += 1
        return counts

    def result(self, state: State) -> list[dict[str, Any]]:
        return F.result(state)


