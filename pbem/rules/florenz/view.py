"""Florenz display: what a report shows, derived from a player's view alone (FLORENZ-PLAN.md §19).

`display(view, player)` is called at the end of `Florenz.view()` with the view already filtered for
`player` (None: the GM) and its result is stored as `view["display"]`. It computes every derived,
display-ready value the templates in `templates/florenz/` print: the 3x3 board as fixed-width lines, the
families' table, the Medici and their routes, the visible disc sectors, the hand with each card's
meaning and cost, the plan card, what boasting would give now, the decision in words. It reads the view
only, so it can show nothing the view hides; the values are plain JSON data (`show --json` prints them).
"""

from __future__ import annotations

from typing import Any

from pbem.i18n import DEFAULT_LANGUAGE
from pbem.rules.florenz import actions as A
from pbem.rules.florenz import board as B
from pbem.rules.florenz.data import CYCLE, DATA, DISC, MEDICI, PATHS, ROUNDS, medici_of
from pbem.rules.florenz.view_board import (
    DECKS,
    RANK_SHORT,
    WIDTH,
    board_lines,
    guard_names,
    hand_counts,
    title,
    words,
    wrap,
)
from pbem.rules.florenz.view_tables import (
    counted,
    family_table,
    hand_lines,
    medici_lines,
    passed_text,
    plan_text,
    sector_lines,
    tile_table,
    turn_order,
)

# -- the decision -------------------------------------------------------------------------------------

def decision(view: dict[str, Any]) -> dict[str, Any]:
    """Who decides now and what, in words (`title` a heading, `text` the sentence)."""
    out = _decision(view)
    out["title"] = TITLES.get(out["kind"], "")
    return out


TITLES = {"place": "place your first debutant", "action": "your action", "bonus": "a bonus (you have passed)",
          "travel": "the travel card's second member", "giovanni": "Giovanni's offer",
          "colour": "Strozzi's colour"}


def _decision(view: dict[str, Any]) -> dict[str, Any]:
    phase = view.get("phase")
    who = view.get("on_turn")
    if phase == "over" or who is None:
        return {"kind": None, "family": None, "text": "The game is over."}
    if phase == "place":
        return {"kind": "place", "family": who,
                "text": "Place your first debutant, free of cost, on an empty queue: `place L`."}
    if phase == "giovanni":
        g = view.get("giovanni") or {}
        r = view["round"]
        offers = DISC[r].get("offers", [])
        k = g.get("offer", 0)
        offer = offers[k] if k < len(offers) else {"time": 0, "vp": 0}
        return {"kind": "giovanni", "family": who,
                "text": (f"Giovanni scores at {g.get('location')} and offers you place {k + 1}: spend "
                         f"{offer['time']} time for {offer['vp']} VP (`accept`; you may discard cards for "
                         f"time first) or `decline` (then you are out of this scoring).")}
    pending = view.get("pending")
    if pending and pending.get("kind") == "colour":
        return {"kind": "colour", "family": pending.get("family"),
                "text": ("Strozzi's card 5 places a piece of the colour he has fewer of in play, and he has "
                         "as many orange as blue pieces: you choose, `colour orange` or `colour blue`.")}
    if pending and pending.get("kind") == "travel":
        return {"kind": "travel", "family": who,
                "text": (f"Finish Figliolo's travel card: the member now at {pending.get('moved')} has "
                         "travelled; a second member may travel 1-3 steps (`travel L.P to A [to B [to C]]`), "
                         "or `done`.")}
    if who in view.get("passed", []):
        ring = view.get("rings", {}).get(who)
        swap = f", or `swap {ring}.P with {ring}.Q` at your ring" if ring else ""
        return {"kind": "bonus", "family": who,
                "text": f"You have passed: take a bonus instead of a turn: `bonus time` (+1), `bonus vp` (+1){swap}."}
    last = len(view.get("passed", [])) == len(view["families"]) - 1
    end = ("or `pass`: all the others have passed, so your pass ends the action phase (no ring)." if last
           else "or pass: `pass L` puts your ring on L, a location without a ring"
           + (" (the first to pass gains 2 time)." if not view.get("passed") else "."))
    return {"kind": "action", "family": who, "text": f"Take one action, {end}"}


def hurry_help(view: dict[str, Any], player: str | None, lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """The two-member hurries open to `player` now, in words: any two of his single moves by different
    members, then the pairs that do not work together and those that work only in the order given.
    Empty unless he takes an action now with time for a hurry. In `lang`, its orders in his words."""
    if player is None or decision(view)["kind"] != "action" or view["on_turn"] != player \
            or view["time"].get(player, 0) < DATA["action_time"]["hurry"]:
        return []
    singles = [step for step in A.member_steps(view, player) if A.steps_work(view, player, [step])]
    pairs = A.hurry_pairs(view, player)
    together = {frozenset(pair) for pair in pairs}
    apart = [(a, b) for i, a in enumerate(singles) for b in singles[i + 1:]
             if a[0] != b[0] and frozenset((a, b)) not in together]
    expected = {frozenset((a, b)) for i, a in enumerate(singles) for b in singles[i + 1:] if a[0] != b[0]}
    ordered = [(a, b) for a, b in pairs if frozenset((a, b)) not in expected]
    if not pairs:
        return []
    w = words(lang)
    _, ngettext, order = w._, w.n_, w.order
    hurry = order("hurry L.P to M and K.Q to N")
    cost = DATA["action_time"]["hurry"]
    lines = [ngettext("%(hurry)s (%(time)s time): two of your members one step each: any two `%(move)s`s above by "
                      "different members, in either order",
                      "%(hurry)s (%(time)s time): two of your members one step each: any two `%(move)s`s above by "
                      "different members, in either order", cost) % {"hurry": hurry, "time": cost, "move": order("move")}
             if expected else _("%(hurry)s: only as listed below") % {"hurry": hurry}]
    if apart:
        lines.append(_("not together (no room for both):"))
        lines += ["  " + order(f"{a[0]} to {a[1]} with {b[0]} to {b[1]}") for a, b in apart]
    if ordered:
        lines.append(_("also, in this order only (first out of the full queue, then in):"))
        lines += ["  " + order(f"hurry {a[0]} to {a[1]} and {b[0]} to {b[1]}") for a, b in ordered]
    return lines


def costs(view: dict[str, Any], family: str) -> str:
    c = DATA["action_time"]
    given = view.get("gifts_given", {}).get(family, {})
    gifts = ", ".join(f"{m} {B.gift_cost(given.get(m, 0))}" for m in MEDICI)
    return (f"send {c['send']}, promote {c['promote']}, move {c['move']}, hurry {c['hurry']}, "
            f"boast {c['boast']}, gift ({gifts}), pass {c['pass']}; discard a card: +1 time")


# -- everything ---------------------------------------------------------------------------------------

def display(view: dict[str, Any], player: str | None, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """Display-ready data for the report template, computed from the (already filtered) view. In `lang`
    the parts the report prints as they stand (the board, the tiles, the tables, the disc's scoring,
    who passed, the hurries, Giovanni's offers) are in its words; the rest stays English, which the
    template knows and writes in the reader's words itself (`show --json` gives the English)."""
    fams = view["families"]
    gm = player is None
    sc = view["scandal"]
    deck_sizes = {d: (len(v) if isinstance(v, list) else int(v)) for d, v in sc["deck"].items()}
    out: dict[str, Any] = {
        "families": len(fams),
        "round": view.get("round") or 0,
        "rounds": ROUNDS,
        "active_medici": title(medici_of(view["round"])) if view.get("round") else None,
        "board": board_lines(view, player, lang),
        "paths": [line.rstrip() for line in wrap(
            [f"{p + ':':<5} {' '.join(guard_names(view, 'escort', p)) or '-':<10}"
             for p in sorted(PATHS, key=lambda p: tuple(int(x) for x in p.split("-")))],
            WIDTH, " ", "  ", "  ")],
        "cycle": " > ".join(CYCLE + CYCLE[:1]),
        "park": "-".join(str(x) for x in DATA["park_diagonal"]),
        "tiles": tile_table(view, player, lang),
        "medici": medici_lines(view),
        "sectors": sector_lines(view, lang),
        "location_tiles": [str(x) for x in view.get("location_stack", [])],
        "time_tiles": [str(x) for x in view.get("time_stack", [])],
        "table": family_table(view, player, lang),
        "turn_order": [f"{f} ({'orange and blue' if view.get('solo') and f != view['players'][0] else view['colour'][f]})"
                       for f in turn_order(view)],
        "passed": passed_text(view, lang),
        "decks": deck_sizes,
        "deck_order": {d: list(v) for d, v in sc["deck"].items() if isinstance(v, list)} if gm else {},
        "discards": {d: counted(sc["discard"].get(d, [])) for d in DECKS},
        "hands": {f: hand_counts(view, f) for f in fams},
        "hand": hand_lines(view, player) if player else [],
        "all_hands": {f: hand_lines(view, f) for f in fams} if gm else {},
        "plans": [plan_text(view, f, c) for f, c in view.get("plan_cards", {}).items()],
        "decision": decision(view),
        "removed": {f: ", ".join(r) for f, r in view.get("removed", {}).items() if r},
        "time": None, "costs": None, "giovanni": None,
        "hurry": hurry_help(view, player, lang),
    }
    if player:
        out["time"] = view["time"].get(player, 0)
        out["costs"] = costs(view, player)
    g = view.get("giovanni")
    if g:
        r = view["round"]
        offers = DISC[r].get("offers", [])
        k = g.get("offer", 0)
        _, ngettext = words(lang)._, words(lang).n_
        out["giovanni"] = {
            "location": g.get("location"),
            "offer": k + 1,
            "offers": "; ".join(f"{i + 1}. " + ngettext("%(time)s time for %(vp)s VP", "%(time)s time for %(vp)s VP",
                                                        o["time"]) % {"time": o["time"], "vp": o["vp"]}
                                + (" " + _("(taken)") if i < k else "") for i, o in enumerate(offers)),
            "candidates": ", ".join(g.get("candidates", [])) or "nobody",
        }
    return out



#: what the display offers its callers: `display` and what it is made of, here and in `view_board` and
#: `view_tables`, found here as they always were
__all__ = ["DECKS", "RANK_SHORT", "TITLES", "WIDTH", "board_lines", "costs", "counted", "decision",
           "display", "family_table", "guard_names", "hand_counts", "hand_lines", "hurry_help",
           "medici_lines", "passed_text", "plan_text", "sector_lines", "tile_table", "title", "turn_order",
           "wrap"]
