"""Florenz display: the board as a report draws it (the 3x3 locations with their boast tiles, cups,
queues, guards, carriages, targets and rings, in fixed width), and the small helpers every part of the
display shares. Read from a player's view alone, as `view.display` is.

What the report prints of the display as it stands is written in the reader's language (`lang`): its
words from the Florenz catalog (`Words`), its orders in his order words; English, the default, is the
text as written here."""

from __future__ import annotations

import textwrap
from functools import cache
from typing import Any

from pbem.i18n import DEFAULT_LANGUAGE, N_, localize, translator
from pbem.rules.florenz import board as B
from pbem.rules.florenz.data import (
    BOAST_SLOT_ORDER,
    BOAST_SLOTS,
    DECK_OF,
    MEDICI,
    ROWS,
    SCANDAL_CARDS,
    SLOTS,
)

WIDTH = 72            # the widest line of a report (mail is read at 72 columns, and on phones)
CELL = 22             # the inner width of one location on the board (2 + 70 columns in all)
DECKS: list[str] = [DECK_OF[m] for m in MEDICI]
SHORT = {"cosimo": "Co", "contessina": "Ct", "giovanni": "Gi", "messere": "Me", "carissima": "Ca",
         "figliolo": "Fi"}
RANK_PLURAL = {"debutant": "debutants", "lady": "ladies", "maestro": "maestro"}
RANK_SHORT = {"debutant": "deb", "lady": "lady", "maestro": "maestro"}  # on the board
#: the boast tiles' names, as reports give them (their ids stay in the orders)
TILE_NAMES = {"great-influence": N_("great-influence"), "loud": N_("loud"), "scandalmonger": N_("scandalmonger"),
              "sharp-elbows": N_("sharp-elbows"), "ruler-of-the-street": N_("ruler-of-the-street"),
              "rising": N_("rising"), "well-represented": N_("well-represented"), "generous": N_("generous"),
              "omnipresent": N_("omnipresent")}
GAME = "florenz"


class Words:
    """The display's words in one language (English: as written): `_` a message of the Florenz catalog,
    `n_` one with a number, `ranks` the ranks as the board shortens them, `tile` a boast tile's name,
    `order` an order in the reader's order words."""

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        self.lang = lang
        t = translator(lang, GAME)
        self._, self.n_ = t.gettext, t.ngettext
        pgettext = t.pgettext
        self.ranks = {"debutant": pgettext("rank on the board", "deb"), "lady": pgettext("rank on the board", "lady"),
                      "maestro": pgettext("rank on the board", "maestro")}

    def tile(self, tile: str) -> str:
        return self._(TILE_NAMES[tile]) if tile in TILE_NAMES and self.lang != DEFAULT_LANGUAGE else tile

    def order(self, text: str) -> str:
        return localize(text, GAME, self.lang)


@cache
def words(lang: str = DEFAULT_LANGUAGE) -> Words:
    """The display's words in `lang`, made once."""
    return Words(lang)


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


def name_width(view: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> int:
    """How wide a family name may be in a queue line: `>L.N name rank`."""
    room = CELL - len(">9.9 ") - 1 - max(len(r) for r in words(lang).ranks.values())
    longest = max((len(piece_name(view, p)) for q in view["queues"].values() for p in q), default=4)
    return max(4, min(longest, room))


def cell_lines(view: dict[str, Any], loc: str, player: str | None, nw: int,
               lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """The lines of one location: number and boast tile, cups, the queue, guards, Medici, rings."""
    w = words(lang)
    _ = w._
    tile = view["boast"][loc]
    name = w.tile(tile["tile"])
    head = f"[{loc}] {name}"
    # a long tile name goes on over the next line, never cut (`[8] Herrscher der` / `    Straße`)
    lines = [clip(line, CELL) for line in textwrap.wrap(head, CELL, subsequent_indent=" " * len(f"[{loc}] "))]
    cups = [f"{slot_range(s)} {clip(c['family'], 10) if c else '-'}" for s, c in cups_of(tile).items()]
    first = " " + _("cups") + " "
    lines += wrap(cups, CELL, "  ", first, " " * len(first))
    queue = view["queues"][loc]
    open_ = view["open_slots"][loc]
    for n in range(1, SLOTS + 1):
        mark = "*" if n <= len(queue) and queue[n - 1]["family"] == player else " "
        if n <= len(queue):
            p = queue[n - 1]
            text = f"{clip(piece_name(view, p), nw):<{nw}} {w.ranks[p['rank']]}"
        elif n <= open_:
            text = "-"
        else:
            text = "## " + _("blocked") + " ##"
        lines.append(clip(f"{mark}{loc}.{n} {text}".rstrip(), CELL))
    extras: list[str] = []
    extras += [_("spy %(family)s") % {"family": clip(f, 12)} for f in guard_names(view, "spy", loc)]
    extras += [_("doorman %(family)s") % {"family": clip(f, 12)} for f in guard_names(view, "doorman", loc)]
    for m in MEDICI:
        if view["carriages"].get(m) == loc:
            extras.append(_("%(medici)s's carriage") % {"medici": title(m)})
    for m in MEDICI:
        if view.get("targets", {}).get(m) == loc:
            extras.append(_("target of %(medici)s") % {"medici": title(m)})
    extras += [_("ring %(family)s") % {"family": clip(f, 12)} for f, where in view.get("rings", {}).items()
               if where == loc]
    if extras:
        lines += wrap(extras, CELL, "; ", " ", " ")
    return lines


def board_lines(view: dict[str, Any], player: str | None, lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """The 3x3 board: three cells per row, each a column of lines, in fixed width."""
    nw = name_width(view, lang)
    rule = "+" + "+".join("-" * CELL for _ in range(3)) + "+"
    out = [rule]
    for row in ROWS:
        cells = [cell_lines(view, loc, player, nw, lang) for loc in row]
        height = max(len(c) for c in cells)
        for i in range(height):
            out.append("|" + "|".join(f"{(c[i] if i < len(c) else ''):<{CELL}}" for c in cells) + "|")
        out.append(rule)
    return out
