"""Florenz display: the report's tables, from a player's view alone: the Medici and the visible disc
sectors, the families, the scandal cards in hand, the plan cards and what each boast tile pays."""

from __future__ import annotations

import textwrap
from typing import Any

from pbem.i18n import DEFAULT_LANGUAGE, N_
from pbem.rules.florenz import board as B
from pbem.rules.florenz.data import (
    BOAST_TILES,
    DECK_OF,
    DISC,
    GUARD_OF,
    LOCATIONS,
    MEDICI,
    PLAN_CARDS,
    ROUNDS,
    SCANDAL_CARDS,
    SLOTS,
    medici_of,
    route,
)
from pbem.rules.florenz.view_board import (
    WIDTH,
    cups_of,
    cups_placed,
    gifts_total,
    hand_counts,
    hand_size,
    members_on_board,
    slot_range,
    supply_of,
    title,
    words,
)

MEDICI_OF_DECK: dict[str, str] = {deck: m for m, deck in DECK_OF.items()}

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
#: what each boast tile counts, in a few words (after `N VP`)
COUNT_TEXT: dict[str, str] = {
    "ladies_and_maestro_on_board": N_("per lady/maestro of yours on the board"),
    "cups_placed": N_("per cup of yours on tiles, this one too"),
    "scandal_cards_in_hand": N_("per scandal card in your hand"),
    "queue_heads": N_("per queue you head"),
    "members_in_row": N_("per member of yours in this row"),
    "members_in_column": N_("per member of yours in this column"),
    "locations_with_two_members": N_("per location with 2+ members of yours"),
    "gifts_given": N_("per gift you have given"),
    "locations_with_a_member": N_("per location with a member of yours"),
}
PLURAL = {"escort": "escorts", "spy": "spies", "doorman": "doormen"}



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


def sector_lines(view: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> list[dict[str, Any]]:
    """The visible sectors of the disc, this round's first (`scoring` and `now_text` in `lang`)."""
    _, ngettext = words(lang)._, words(lang).n_
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
            entry["scoring"] = _("offers, strongest family first: %(offers)s") % {"offers": ", ".join(
                ngettext("%(time)s time for %(vp)s VP", "%(time)s time for %(vp)s VP", o["time"])
                % {"time": o["time"], "vp": o["vp"]} for o in disc["offers"])}
        else:
            vps = " ".join(str(v) for v in disc["queue_vp"][:open_most])
            who = _("ladies and maestros only, debutants' places 0") if m == "contessina" else _("every petitioner")
            entry["scoring"] = _("queue VP for places 1-%(last)s: %(vps)s (%(who)s)") % {
                "last": open_most, "vps": vps, "who": who}
        queue = view["queues"].get(dest, []) if dest is not None else []
        if dest is None or view.get("phase") == "over":
            entry["now_text"] = ""
        elif "offers" in disc:
            entry["now_text"] = (_("strongest there now: %(families)s") % {
                "families": ", ".join(B.strength_order(queue))}) if queue else _("nobody stands there now")
        else:
            scores = B.queue_vp(queue, n)
            entry["now_text"] = (_("scored as it stands now: %(scores)s") % {
                "scores": ", ".join(f"{f} {vp}" for f, vp in scores.items())}) if queue \
                else _("nobody stands there now")
        out.append(entry)
    return out


# -- families -----------------------------------------------------------------------------------------

def family_table(view: dict[str, Any], player: str | None, lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """The families in two blocks: VP, time and what lies on each family's board; then its members
    and cups on the map, the gifts it gave and the cards it holds. A name longer than its column
    stands alone on its line, the numbers on the next. A column is as wide as its heading in `lang`."""
    fams = view["families"]
    nw = max(6, min(14, max(len(f) for f in fams)))
    _ = words(lang)._

    def name(f: str) -> list[str]:
        mark = "*" if f == player else " "
        return [f"{mark} {f:<{nw}}"] if len(f) <= nw else [f"{mark} {f}", " " * (nw + 2)]

    def heads(*pairs: tuple[str, int]) -> list[tuple[str, int]]:
        """Each column's heading and its width: the English one's at least."""
        return [(h, max(width, len(h))) for h, width in pairs]

    def row(cells: list[tuple[str, int]], values: list[Any]) -> str:
        return " ".join(f"{v:>{width}}" for v, (_h, width) in zip(values, cells))

    family = _("family")
    nw = max(nw, len(family))
    first = heads((_("VP"), 4), (_("time"), 4))
    board = heads((_("deb"), 3), (_("lady"), 4), (_("maestro"), 7), (_("guard"), 5), (_("gift"), 4), (_("cup"), 3))
    board_width = len(row(board, [h for h, _w in board]))
    on_board = _("on the family board")
    lines = [f"  {'':<{nw}} {row(first, ['', ''])} | {on_board:^{board_width}}",
             f"  {family:<{nw}} {row(first, [h for h, _w in first])} | {row(board, [h for h, _w in board])}"]
    for f in fams:
        s = supply_of(view, f)
        *above, last = name(f)
        lines += above + [
            f"{last:<{nw + 2}} {row(first, [view['vp'].get(f, 0), view['time'].get(f, 0)])} | "
            + row(board, [s.get(k, 0) for k in ("debutant", "lady", "maestro", "guard", "gift", "cup")])]
    second = heads((_("members"), 7), (_("cups"), 4))
    gifts = heads(("Co", 3), ("Ct", 3), ("Gi", 3))
    cards = heads(("Me", 3), ("Ca", 3), ("Fi", 3))
    widths = [len(row(part, [h for h, _w in part])) for part in (second, gifts, cards)]
    titles = [_("on the map"), _("gifts given"), _("cards held")]
    lines += ["",
              f"  {'':<{nw}} " + " | ".join(f"{t:^{w}}" for t, w in zip(titles, widths)),
              f"  {family:<{nw}} " + " | ".join(row(part, [h for h, _w in part]) for part in (second, gifts, cards))]
    for f in fams:
        g = view.get("gifts_given", {}).get(f, {})
        h = hand_counts(view, f)
        *above, last = name(f)
        lines += above + [
            f"{last:<{nw + 2}} {row(second, [members_on_board(view, f), cups_placed(view, f)])} | "
            f"{row(gifts, [g.get(m, 0) for m in MEDICI])} | {row(cards, [h[d] for d in ('messere', 'carissima', 'figliolo')])}"]
    return [line.rstrip() for line in lines]


def turn_order(view: dict[str, Any]) -> list[str]:
    """The families from the start family on, clockwise."""
    fams = view["families"]
    start = view.get("start_family")
    i = fams.index(start) if start in fams else 0
    return fams[i:] + fams[:i]


def passed_text(view: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> str:
    _ = words(lang)._
    parts = []
    for k, f in enumerate(view.get("passed", [])):
        ring = view.get("rings", {}).get(f)
        notes = []
        if k == 0 and len(view["passed"]) < len(view["families"]):
            notes.append(_("first"))
        notes.append(_("ring on %(location)s") % {"location": ring} if ring else _("no ring"))
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


def boast_note(view: dict[str, Any], family: str, loc: str, counts: tuple[int, int, int] | None = None,
               lang: str = DEFAULT_LANGUAGE) -> str:
    """What a boast at `loc` would give `family` now, or why it cannot; `counts` are the family's cups
    placed, cards in hand and gifts given, when the caller has them."""
    _ = words(lang)._
    tile = view["boast"][loc]
    cups = cups_of(tile)
    if B.has_cup(cups, family):
        return _("your cup lies here")
    if not supply_of(view, family).get("cup", 0):
        return _("you have no cup left")
    if counts is None:
        counts = (cups_placed(view, family), hand_size(view, family), gifts_total(view, family))
    vp = B.boast_vp(tile["tile"], family, view["queues"], loc, *counts)
    slot = B.cup_slot(vp, cups)
    if slot is None:
        return _("%(vp)s VP, but no slot free") % {"vp": vp}
    if not B.members(view["queues"][loc], family):
        return _("%(vp)s VP -> %(slot)s, no member") % {"vp": vp, "slot": slot_range(slot)}
    return f"{vp} VP -> {slot_range(slot)}" if lang == DEFAULT_LANGUAGE else \
        _("%(vp)s VP -> %(slot)s") % {"vp": vp, "slot": slot_range(slot)}


def tile_table(view: dict[str, Any], player: str | None, lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """The nine boast tiles: what each pays, and (for a player, on a line of its own) what boasting
    there would give now. In a language, a tile's name and what it pays in its words, a line too wide
    broken under its text."""
    lines = []
    counts = (cups_placed(view, player), hand_size(view, player), gifts_total(view, player)) if player else None
    if lang == DEFAULT_LANGUAGE:
        for loc in LOCATIONS:
            t = view["boast"][loc]["tile"]
            spec = BOAST_TILES[t]
            lines.append(f"  {loc}  {t:<20} {spec['vp_each']} VP {COUNT_TEXT[spec['count']]}")
            if player:
                lines.append(f"{'':<25} now: {boast_note(view, player, loc, counts)}")
        return lines
    w = words(lang)
    _ = w._
    names = {loc: w.tile(view["boast"][loc]["tile"]) for loc in LOCATIONS}
    nw = max(20, max(len(n) for n in names.values()))
    indent = " " * (nw + 6)
    for loc in LOCATIONS:
        spec = BOAST_TILES[view["boast"][loc]["tile"]]
        counts_what = COUNT_TEXT[spec["count"]]
        pays = _("%(vp)s VP") % {"vp": spec["vp_each"]} + " " + _(counts_what)
        lines += textwrap.wrap(pays, WIDTH, initial_indent=f"  {loc}  {names[loc]:<{nw}} ", subsequent_indent=indent,
                               break_long_words=False, break_on_hyphens=False)
        if player:
            now = _("now: %(note)s") % {"note": boast_note(view, player, loc, counts, lang)}
            lines += textwrap.wrap(now, WIDTH, initial_indent=indent, subsequent_indent=indent + "  ",
                                   break_long_words=False, break_on_hyphens=False)
    return lines
