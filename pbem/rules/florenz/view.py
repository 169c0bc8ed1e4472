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

from pbem.rules.florenz import actions as A
from pbem.rules.florenz import board as B
from pbem.rules.florenz.data import (
    BOAST_SLOT_ORDER,
    BOAST_SLOTS,
    BOAST_TILES,
    CYCLE,
    DATA,
    DECK_OF,
    DISC,
    GUARD_OF,
    LOCATIONS,
    MEDICI,
    PATHS,
    PLAN_CARDS,
    ROUNDS,
    ROWS,
    SCANDAL_CARDS,
    SLOTS,
    medici_of,
    route,
)

WIDTH = 72            # the widest line of a report (mail is read at 72 columns, and on phones)
CELL = 22             # the inner width of one location on the board (2 + 70 columns in all)
MEDICI_OF_DECK: dict[str, str] = {deck: m for m, deck in DECK_OF.items()}
DECKS: list[str] = [DECK_OF[m] for m in MEDICI]
SHORT = {"cosimo": "Co", "contessina": "Ct", "giovanni": "Gi", "messere": "Me", "carissima": "Ca",
         "figliolo": "Fi"}
RANK_PLURAL = {"debutant": "debutants", "lady": "ladies", "maestro": "maestro"}
RANK_SHORT = {"debutant": "deb", "lady": "lady", "maestro": "maestro"}  # on the board

#: one line per scandal card: what it does and how to write it (after `play CARD `)
CARD_TEXT: dict[str, tuple[str, str]] = {
    "messere-cup": ("take your cup back from a boast tile (you keep its VP, may boast there again)", "L"),
    "messere-swap": ("swap two petitioners of the same rank in one queue, any families", "L.P with L.Q"),
    "messere-retire": ("remove one of your petitioners from the game for good, +3 time", "L.P"),
    "messere-boast": ("boast at any tile, no member needed there (no extra boast cost)", "L"),
    "carissima-gift": ("a gift to any Medici wherever his carriage is, with its guard", "MEDICI CREST"),
    "carissima-swap": ("your petitioner swaps with a lower-ranked one at a grid neighbour", "L.P with M.Q"),
    "carissima-promote": ("promote one of your debutants to a lady", "L.P"),
    "carissima-advance": ("your petitioner steps before all others of its rank in its queue", "L.P"),
    "figliolo-guard": ("a guard from your supply on any crest, even one another family holds", "CREST"),
    "figliolo-teleport": ("move one of your petitioners to any location with room, no escorts", "L.P to M"),
    "figliolo-travel": ("move 1-2 of your petitioners 1-3 steps each along paths (escorts pay)",
                        "L.P to A [to B [to C]]"),
    "figliolo-debutant": ("send a debutant where you already have a lady or the maestro", "L"),
}
#: what each boast tile counts, in a few words
COUNT_TEXT: dict[str, str] = {
    "ladies_and_maestro_on_board": "per lady/maestro of yours on the board",
    "cups_placed": "per cup of yours on tiles, this one too",
    "scandal_cards_in_hand": "per scandal card in your hand",
    "queue_heads": "per queue you head",
    "members_in_row": "per member of yours in this row",
    "members_in_column": "per member of yours in this column",
    "locations_with_two_members": "per location with 2+ members of yours",
    "gifts_given": "per gift you have given",
    "locations_with_a_member": "per location with a member of yours",
}
PLURAL = {"escort": "escorts", "spy": "spies", "doorman": "doormen"}


# -- small helpers ------------------------------------------------------------------------------------

def title(medici: str) -> str:
    return medici.capitalize()


def clip(text: str, width: int) -> str:
    """`text` cut to `width` characters (a `~` marks a cut)."""
    return text if len(text) <= width else text[:width - 1] + "~"


def wrap(items: list[str], width: int, sep: str = "  ", first: str = "", rest: str = "") -> list[str]:
    """Items joined by `sep` into lines of at most `width` characters; `first` starts the first line,
    `rest` the others (an item longer than a line is cut)."""
    lines: list[str] = []
    line = ""
    for item in items:
        lead = rest if lines else first
        if not line:
            line = clip(lead + item, width)
        elif len(line + sep + item) <= width:
            line += sep + item
        else:
            lines.append(line)
            line = clip(rest + item, width)
    if line or not lines:
        lines.append(line)
    return lines


def cups_of(tile: dict[str, Any]) -> dict[str, Any]:
    return {slot: tile.get(slot) for slot in BOAST_SLOT_ORDER}


def slot_range(slot: str) -> str:
    low, high = BOAST_SLOTS[slot]["min"], BOAST_SLOTS[slot]["max"]
    return f"{low}+" if high is None else f"{low}-{high}"


def hand_counts(view: dict[str, Any], family: str) -> dict[str, int]:
    """Cards a family holds per deck: from the list (own hand, GM) or the counts (others)."""
    hand = view["scandal"]["hand"].get(family, [])
    if isinstance(hand, dict):
        return {d: int(hand.get(d, 0)) for d in DECKS}
    return {d: sum(1 for c in hand if SCANDAL_CARDS.get(c, {}).get("deck") == d) for d in DECKS}


def hand_size(view: dict[str, Any], family: str) -> int:
    return sum(hand_counts(view, family).values())


def supply_of(view: dict[str, Any], family: str) -> dict[str, int]:
    """What a family has on its board (Strozzi: both colours together)."""
    return dict(view["supply"].get(family, {}))


def piece_colour_shown(view: dict[str, Any], piece: dict[str, Any]) -> bool:
    """Whether a piece's colour is worth printing: a family of several colours (Strozzi)."""
    return bool(view.get("solo")) and piece["family"] != view["players"][0]


def guard_names(view: dict[str, Any], kind: str, crest: str) -> list[str]:
    return B.guards_on(view["guards"], kind, crest)


def cups_placed(view: dict[str, Any], family: str) -> int:
    return sum(1 for tile in view["boast"].values() for slot in BOAST_SLOT_ORDER
               if tile.get(slot) and tile[slot]["family"] == family)


def gifts_total(view: dict[str, Any], family: str) -> int:
    return sum(view.get("gifts_given", {}).get(family, {}).values())


def members_on_board(view: dict[str, Any], family: str) -> int:
    return sum(B.members(q, family) for q in view["queues"].values())


# -- the board ----------------------------------------------------------------------------------------

def piece_name(view: dict[str, Any], piece: dict[str, Any]) -> str:
    """A petitioner's family as the board shows it: Strozzi's pieces (solo) with their colour's
    initial, `Strozzi-o` and `Strozzi-b`."""
    name = piece["family"]
    return f"{name}-{piece['colour'][0]}" if piece_colour_shown(view, piece) else name


def name_width(view: dict[str, Any]) -> int:
    """How wide a family name may be in a queue line: `>L.N name rank`."""
    room = CELL - len(">9.9 ") - 1 - max(len(r) for r in RANK_SHORT.values())
    longest = max((len(piece_name(view, p)) for q in view["queues"].values() for p in q), default=4)
    return max(4, min(longest, room))


def cell_lines(view: dict[str, Any], loc: str, player: str | None, nw: int) -> list[str]:
    """The lines of one location: number and boast tile, cups, the queue, guards, Medici, rings."""
    tile = view["boast"][loc]
    head = f"[{loc}] {tile['tile']}"
    lines = [head if len(head) <= CELL else clip(f"[{loc}]{tile['tile']}", CELL)]
    cups = [f"{slot_range(s)} {clip(c['family'], 10) if c else '-'}" for s, c in cups_of(tile).items()]
    lines += wrap(cups, CELL, "  ", " cups ", "      ")
    queue = view["queues"][loc]
    open_ = view["open_slots"][loc]
    for n in range(1, SLOTS + 1):
        mark = "*" if n <= len(queue) and queue[n - 1]["family"] == player else " "
        if n <= len(queue):
            p = queue[n - 1]
            text = f"{clip(piece_name(view, p), nw):<{nw}} {RANK_SHORT[p['rank']]}"
        elif n <= open_:
            text = "-"
        else:
            text = "## blocked ##"
        lines.append(clip(f"{mark}{loc}.{n} {text}".rstrip(), CELL))
    extras: list[str] = []
    for kind in ("spy", "doorman"):
        extras += [f"{kind} {clip(f, 12)}" for f in guard_names(view, kind, loc)]
    for m in MEDICI:
        if view["carriages"].get(m) == loc:
            extras.append(f"{title(m)}'s carriage")
    for m in MEDICI:
        if view.get("targets", {}).get(m) == loc:
            extras.append(f"target of {title(m)}")
    extras += [f"ring {clip(f, 12)}" for f, where in view.get("rings", {}).items() if where == loc]
    if extras:
        lines += wrap(extras, CELL, "; ", " ", " ")
    return lines


def board_lines(view: dict[str, Any], player: str | None) -> list[str]:
    """The 3x3 board: three cells per row, each a column of lines, in fixed width."""
    nw = name_width(view)
    rule = "+" + "+".join("-" * CELL for _ in range(3)) + "+"
    out = [rule]
    for row in ROWS:
        cells = [cell_lines(view, loc, player, nw) for loc in row]
        height = max(len(c) for c in cells)
        for i in range(height):
            out.append("|" + "|".join(f"{(c[i] if i < len(c) else ''):<{CELL}}" for c in cells) + "|")
        out.append(rule)
    return out


# -- the Medici and the disc --------------------------------------------------------------------------

def medici_lines(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Each Medici: carriage, target, the locations the carriage would enter, his rounds and guard."""
    out = []
    r = view.get("round") or 0
    for m in MEDICI:
        at = view["carriages"].get(m)
        target = view.get("targets", {}).get(m)
        rounds = [n for n in range(1, ROUNDS + 1) if medici_of(n) == m]
        left = [n for n in rounds if n >= max(r, 1)]
        active = bool(r) and medici_of(r) == m and view.get("phase") != "over"
        moved = active and view["sectors"].get(str(r), {}).get("location") is None
        out.append({
            "medici": title(m),
            "guard": PLURAL[GUARD_OF[m]],
            "deck": DECK_OF[m],
            "carriage": at,
            "target": target,
            "route": route(at, target) if at and target and not moved else [],
            "rounds": rounds,
            "rounds_left": left,
            "active": active,
            "moved": moved,
        })
    return out


def sector_lines(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The visible sectors of the disc, this round's first."""
    r = max(view.get("round") or 0, 1)
    open_most = max(view["open_slots"].values()) if view.get("open_slots") else SLOTS
    out = []
    for n in range(r, ROUNDS + 1):
        sector = view["sectors"].get(str(n))
        if sector is None:
            continue
        disc = DISC[n]
        m = disc["medici"]
        if sector.get("time") is None:
            time = "gained"
        else:
            time = str(sector["time"])
        dest = sector.get("location")
        entry: dict[str, Any] = {
            "round": n,
            "now": n == view.get("round") and view.get("phase") != "over",
            "medici": title(m),
            "time": time,
            "destination": dest if dest is not None else "reached",
            "head_vp": disc["head_vp"],
            "head_text": f"{disc['head_vp']} VP per queue head on the way"
                         + (" (none for a debutant)" if m == "contessina" else ""),
            "gifts": disc.get("gifts", 0),
        }
        if "offers" in disc:
            entry["scoring"] = "offers, strongest family first: " + ", ".join(
                f"{o['time']} time for {o['vp']} VP" for o in disc["offers"])
        else:
            vps = " ".join(str(v) for v in disc["queue_vp"][:open_most])
            who = "ladies and maestros only, debutants' places 0" if m == "contessina" else "every petitioner"
            entry["scoring"] = f"queue VP for places 1-{open_most}: {vps} ({who})"
        queue = view["queues"].get(dest, []) if dest is not None else []
        if dest is None or view.get("phase") == "over":
            entry["now_text"] = ""
        elif "offers" in disc:
            entry["now_text"] = ("strongest there now: " + ", ".join(B.strength_order(queue))) if queue \
                else "nobody stands there now"
        else:
            scores = B.queue_vp(queue, n)
            entry["now_text"] = ("scored as it stands now: " + ", ".join(f"{f} {vp}" for f, vp in scores.items())) \
                if queue else "nobody stands there now"
        out.append(entry)
    return out


# -- families -----------------------------------------------------------------------------------------

def family_table(view: dict[str, Any], player: str | None) -> list[str]:
    """The families in two blocks: VP, time and what lies on each family's board; then its members
    and cups on the map, the gifts it gave and the cards it holds. A name longer than its column
    stands alone on its line, the numbers on the next."""
    fams = view["families"]
    nw = max(6, min(14, max(len(f) for f in fams)))

    def name(f: str) -> list[str]:
        mark = "*" if f == player else " "
        return [f"{mark} {f:<{nw}}"] if len(f) <= nw else [f"{mark} {f}", " " * (nw + 2)]

    lines = [f"  {'':<{nw}} {'':>4} {'':>4} | {'on the family board':^31}",
             f"  {'family':<{nw}} {'VP':>4} {'time':>4} | {'deb':>3} {'lady':>4} {'maestro':>7} {'guard':>5}"
             f" {'gift':>4} {'cup':>3}"]
    for f in fams:
        s = supply_of(view, f)
        *first, last = name(f)
        lines += first + [
            f"{last} {view['vp'].get(f, 0):>4} {view['time'].get(f, 0):>4} |"
            f" {s.get('debutant', 0):>3} {s.get('lady', 0):>4} {s.get('maestro', 0):>7} {s.get('guard', 0):>5}"
            f" {s.get('gift', 0):>4} {s.get('cup', 0):>3}"]
    lines += ["",
              f"  {'':<{nw}} {'on the map':^12} | {'gifts given':^11} | {'cards held':^11}",
              f"  {'family':<{nw}} {'members':>7} {'cups':>4} | {'Co':>3} {'Ct':>3} {'Gi':>3} |"
              f" {'Me':>3} {'Ca':>3} {'Fi':>3}"]
    for f in fams:
        g = view.get("gifts_given", {}).get(f, {})
        h = hand_counts(view, f)
        *first, last = name(f)
        lines += first + [
            f"{last} {members_on_board(view, f):>7} {cups_placed(view, f):>4} |"
            f" {g.get('cosimo', 0):>3} {g.get('contessina', 0):>3} {g.get('giovanni', 0):>3} |"
            f" {h['messere']:>3} {h['carissima']:>3} {h['figliolo']:>3}"]
    return [line.rstrip() for line in lines]


def turn_order(view: dict[str, Any]) -> list[str]:
    """The families from the start family on, clockwise."""
    fams = view["families"]
    start = view.get("start_family")
    i = fams.index(start) if start in fams else 0
    return fams[i:] + fams[:i]


def passed_text(view: dict[str, Any]) -> str:
    parts = []
    for k, f in enumerate(view.get("passed", [])):
        ring = view.get("rings", {}).get(f)
        notes = []
        if k == 0 and len(view["passed"]) < len(view["families"]):
            notes.append("first")
        notes.append(f"ring on {ring}" if ring else "no ring")
        parts.append(f"{f} ({', '.join(notes)})")
    return ", ".join(parts)


# -- scandal cards, plan cards, boasting ---------------------------------------------------------------

def card_cost(view: dict[str, Any], family: str, card: str) -> str:
    spec = SCANDAL_CARDS[card]["time"]
    if spec == "gift":
        given = view.get("gifts_given", {}).get(family, {})
        return "gift " + "/".join(str(B.gift_cost(given.get(m, 0))) for m in MEDICI) + " time"
    n = int(spec)
    return f"+{n} time" if n > 0 else f"costs {-n} time"


def hand_lines(view: dict[str, Any], family: str) -> list[dict[str, str]]:
    hand = view["scandal"]["hand"].get(family, [])
    if isinstance(hand, dict):
        return []
    out = []
    for card in hand:
        text, shape = CARD_TEXT.get(card, ("", ""))
        out.append({"card": card, "medici": title(MEDICI_OF_DECK[SCANDAL_CARDS[card]["deck"]]),
                    "cost": card_cost(view, family, card), "text": text, "order": f"play {card} {shape}"})
    return out


def counted(cards: list[str]) -> str:
    """`messere-cup x2, messere-swap`, in the order first seen."""
    seen: dict[str, int] = {}
    for c in cards:
        seen[c] = seen.get(c, 0) + 1
    return ", ".join(c if n == 1 else f"{c} x{n}" for c, n in seen.items()) or "none"


def plan_text(view: dict[str, Any], family: str, card: int) -> dict[str, Any]:
    spec = PLAN_CARDS[card]
    there = sum(B.members(view["queues"].get(loc, []), family) for loc in spec["locations"])
    return {"family": family, "card": card, "locations": ", ".join(spec["locations"]),
            "table": ", ".join(f"{n}: {vp}" for n, vp in spec["vp"].items()),
            "members": there, "vp": B.plan_vp(card, family, view["queues"])}


def boast_note(view: dict[str, Any], family: str, loc: str, counts: tuple[int, int, int] | None = None) -> str:
    """What a boast at `loc` would give `family` now, or why it cannot; `counts` are the family's cups
    placed, cards in hand and gifts given, when the caller has them."""
    tile = view["boast"][loc]
    cups = cups_of(tile)
    if B.has_cup(cups, family):
        return "your cup lies here"
    if not supply_of(view, family).get("cup", 0):
        return "you have no cup left"
    if counts is None:
        counts = (cups_placed(view, family), hand_size(view, family), gifts_total(view, family))
    vp = B.boast_vp(tile["tile"], family, view["queues"], loc, *counts)
    slot = B.cup_slot(vp, cups)
    if slot is None:
        return f"{vp} VP, but no slot free"
    note = f"{vp} VP -> {slot_range(slot)}"
    if not B.members(view["queues"][loc], family):
        note += ", no member"
    return note


def tile_table(view: dict[str, Any], player: str | None) -> list[str]:
    """The nine boast tiles: what each pays, and (for a player, on a line of its own) what boasting
    there would give now."""
    lines = []
    counts = (cups_placed(view, player), hand_size(view, player), gifts_total(view, player)) if player else None
    for loc in LOCATIONS:
        t = view["boast"][loc]["tile"]
        spec = BOAST_TILES[t]
        lines.append(f"  {loc}  {t:<20} {spec['vp_each']} VP {COUNT_TEXT[spec['count']]}")
        if player:
            lines.append(f"{'':<25} now: {boast_note(view, player, loc, counts)}")
    return lines


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


def hurry_help(view: dict[str, Any], player: str | None) -> list[str]:
    """The two-member hurries open to `player` now, in words: any two of his single moves by different
    members, then the pairs that do not work together and those that work only in the order given.
    Empty unless he takes an action now with time for a hurry."""
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
    lines = [f"hurry L.P to M and K.Q to N ({DATA['action_time']['hurry']} time): two of your members "
             "one step each: any two `move`s above by different members, in either order"
             if expected else "hurry L.P to M and K.Q to N: only as listed below"]
    if apart:
        lines.append("not together (no room for both):")
        lines += [f"  {a[0]} to {a[1]} with {b[0]} to {b[1]}" for a, b in apart]
    if ordered:
        lines.append("also, in this order only (first out of the full queue, then in):")
        lines += [f"  hurry {a[0]} to {a[1]} and {b[0]} to {b[1]}" for a, b in ordered]
    return lines


def costs(view: dict[str, Any], family: str) -> str:
    c = DATA["action_time"]
    given = view.get("gifts_given", {}).get(family, {})
    gifts = ", ".join(f"{m} {B.gift_cost(given.get(m, 0))}" for m in MEDICI)
    return (f"send {c['send']}, promote {c['promote']}, move {c['move']}, hurry {c['hurry']}, "
            f"boast {c['boast']}, gift ({gifts}), pass {c['pass']}; discard a card: +1 time")


# -- everything ---------------------------------------------------------------------------------------

def display(view: dict[str, Any], player: str | None) -> dict[str, Any]:
    """Display-ready data for the report template, computed from the (already filtered) view."""
    fams = view["families"]
    gm = player is None
    sc = view["scandal"]
    deck_sizes = {d: (len(v) if isinstance(v, list) else int(v)) for d, v in sc["deck"].items()}
    out: dict[str, Any] = {
        "families": len(fams),
        "round": view.get("round") or 0,
        "rounds": ROUNDS,
        "active_medici": title(medici_of(view["round"])) if view.get("round") else None,
        "board": board_lines(view, player),
        "paths": [line.rstrip() for line in wrap(
            [f"{p + ':':<5} {' '.join(guard_names(view, 'escort', p)) or '-':<10}"
             for p in sorted(PATHS, key=lambda p: tuple(int(x) for x in p.split("-")))],
            WIDTH, " ", "  ", "  ")],
        "cycle": " > ".join(CYCLE + CYCLE[:1]),
        "park": "-".join(str(x) for x in DATA["park_diagonal"]),
        "tiles": tile_table(view, player),
        "medici": medici_lines(view),
        "sectors": sector_lines(view),
        "location_tiles": [str(x) for x in view.get("location_stack", [])],
        "time_tiles": [str(x) for x in view.get("time_stack", [])],
        "table": family_table(view, player),
        "turn_order": [f"{f} ({'orange and blue' if view.get('solo') and f != view['players'][0] else view['colour'][f]})"
                       for f in turn_order(view)],
        "passed": passed_text(view),
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
        "hurry": hurry_help(view, player),
    }
    if player:
        out["time"] = view["time"].get(player, 0)
        out["costs"] = costs(view, player)
    g = view.get("giovanni")
    if g:
        r = view["round"]
        offers = DISC[r].get("offers", [])
        k = g.get("offer", 0)
        out["giovanni"] = {
            "location": g.get("location"),
            "offer": k + 1,
            "offers": "; ".join(f"{i + 1}. {o['time']} time for {o['vp']} VP" + (" (taken)" if i < k else "")
                                for i, o in enumerate(offers)),
            "candidates": ", ".join(g.get("candidates", [])) or "nobody",
        }
    return out
