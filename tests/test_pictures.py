"""The board pictures: every SVG of whole bot games of every ruleset parses as XML and its
pieces, by position and colour, are what the view says (so a picture never disagrees with the text
report, which is written from the same view); a player's picture keeps the same secrets as his report
(it does not move when anything hidden from him changes); the same state gives the same bytes; the PNG
decodes (signature, IHDR size, the IDAT stream inflates to exactly its rows).
"""

from __future__ import annotations

import copy
import struct
import xml.etree.ElementTree as ET
import zlib
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

import helpers
from pbem.game import new_game
from pbem.pictures import FAMILY_COLOURS, SEAT_COLOURS, WIDTH, board_png, board_svg, good_colour, seats
from pbem.rng import Rng
from pbem.rules.base import get_ruleset
from pbem.store import GamesDir

SVG = "{http://www.w3.org/2000/svg}"
NAMES = ["anna", "ben", "cleo", "dora", "emil", "fritz"]

# (ruleset, players, options, seed, every): the pictures are drawn after every `every` orders
GAMES: list[tuple[str, int, dict[str, str], str, int]] = [
    ("medici", 3, {"edition": "riogrande"}, "pic-rg-3", 2),
    ("medici", 6, {"edition": "amigo"}, "pic-amigo-6", 5),
    ("medici-strozzi", 2, {}, "pic-strozzi", 2),
    ("medina", 3, {}, "pic-medina-3", 3),
    ("medina", 4, {}, "pic-medina-4", 4),
    ("florenz", 3, {}, "pic-florenz-3", 5),
    ("florenz", 5, {}, "pic-florenz-5", 9),
    ("florenz", 1, {"solo": "normal"}, "pic-solo", 3),
]


def names_for(ruleset: str, n: int) -> list[str]:
    return ["lorenzo", "filippo"] if ruleset == "medici-strozzi" else NAMES[:n]


def bot_game(tmp_path: Path, ruleset: str, names: list[str], options: dict[str, str], seed: str,
             every: int) -> Iterator[dict[str, Any]]:
    """The states of a whole bot game: the first, every `every` orders, and the last."""
    gd = GamesDir(tmp_path / "games")
    state, _ = new_game(gd, ruleset, "p1", [(p, f"{p}@example.org") for p in names], options, seed)
    steps = 0
    while True:
        if steps % every == 0 or state["status"] != "active":
            yield state
        if state["status"] != "active":
            return
        state = helpers.bot_move(state)
        steps += 1
        assert steps < 3000, "the game does not end"


# -- reading a picture ----------------------------------------------------------------------------------

def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.get("version") == "1.1"
    assert root.get("viewBox") == f"0 0 {WIDTH} {root.get('height')}" and root.get("width") == str(WIDTH)
    assert 300 <= int(root.get("height")) <= 1100
    # no external resources: no links, images or styles that fetch anything
    for el in root.iter():
        assert el.tag.split("}")[1] not in ("image", "use", "script", "foreignObject", "a"), el.tag
        assert not any("href" in k for k in el.attrib), el.attrib
    return root


def pieces(root: ET.Element, cls: str) -> list[ET.Element]:
    return [el for el in root.iter() if cls in (el.get("class") or "").split()]


def fill_of(el: ET.Element) -> str:
    """The fill of a piece's first shape."""
    shape = next(c for c in el.iter() if c.tag in (f"{SVG}rect", f"{SVG}circle", f"{SVG}path") and c.get("fill") != "none")
    return shape.get("fill")


def texts(el: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in el.iter(f"{SVG}text")]


def check_legend(root: ET.Element, state: dict[str, Any], viewer: str | None) -> dict[str, dict[str, Any]]:
    """Every seat named in the legend beside its colour and number; the seats by name."""
    by_name = {s["name"]: s for s in seats(state)}
    legend = {el.get("data-player"): el for el in pieces(root, "legend-seat")}
    if state["ruleset"] != "florenz":
        assert set(legend) == set(by_name)
        for name, s in by_name.items():
            assert legend[name].get("data-colour") == s["colour"] == fill_of(legend[name])
            number, label = texts(legend[name])
            assert number == str(s["n"]) and label.split(" (")[0] == name
    title = "".join(root.find(f"{SVG}title").itertext())
    assert title.endswith(f", as {viewer} sees it" if viewer else ", as every player sees it")
    return by_name


def token_of(el: ET.Element, s: dict[str, Any]) -> None:
    """A seat's token: its colour and its number (colour alone carries no meaning)."""
    token = next(t for t in el.iter() if t.get("class") == "token")
    assert token.get("data-player") == s["name"] and fill_of(token) == s["colour"]
    assert texts(token) == [str(s["n"])]


# -- what each game's picture must show: the view's pieces, where the view has them --------------------

def check_medici(root: ET.Element, view: dict[str, Any], seat: dict[str, dict[str, Any]]) -> int:
    markers = {(el.get("data-player"), el.get("data-good")): el for el in pieces(root, "marker")}
    assert len(markers) == len(view["players"]) * len(view["goods"])
    cards = pieces(root, "card")
    n = 0
    for p in view["players"]:
        for g in view["goods"]:
            el = markers[(p["name"], g)]
            assert el.get("data-step") == str(p["tracks"][g]) and el.get("data-colour") == seat[p["name"]]["colour"]
            token_of(el, seat[p["name"]])
            n += 1
        hold = [el for el in cards if el.get("data-where") == "hold" and el.get("data-player") == p["name"]]
        assert [el.get("data-card") for el in hold] == p["hold"]
        assert [el.get("data-slot") for el in hold] == [str(i) for i in range(len(p["hold"]))]
        (box,) = [el for el in pieces(root, "hold") if el.get("data-player") == p["name"]]
        assert box.get("data-money") == str(p["money"]) and box.get("data-value") == str(p["hold_value"])
        token_of(box, seat[p["name"]])
        n += len(hold)
    assert [el.get("data-card") for el in cards if el.get("data-where") == "lot"] == view["lot"]
    for el in cards:
        assert fill_of(el) == good_colour(el.get("data-card"))
        assert texts(el) == list(el.get("data-card").rsplit("-", 1))
    assert len(cards) == len(view["lot"]) + sum(len(p["hold"]) for p in view["players"])
    return n + len(cards)


def check_strozzi(root: ET.Element, view: dict[str, Any], seat: dict[str, dict[str, Any]]) -> int:
    markers = {(el.get("data-harbour"), el.get("data-good")): el for el in pieces(root, "marker")}
    assert set(markers) == {(h, g) for h, goods in view["harbours"].items() for g in goods}
    for (h, g), el in markers.items():
        step = view["markers"][h][g]
        assert el.get("data-step") == str(step)
        assert el.get("data-player") == (view["medici"] if step > 0 else view["strozzi"] if step < 0 else "")
        assert texts(el) == ["%+d" % step]
    cards = pieces(root, "card")
    n = len(markers)
    for p in view["players"]:
        (fam,) = [el for el in pieces(root, "family") if el.get("data-player") == p["name"]]
        assert fam.get("data-money") == str(p["money"]) and fam.get("data-family") == p["family"]
        token_of(fam, seat[p["name"]])
        ships = [el for el in pieces(root, "ship") if el.get("data-player") == p["name"]]
        assert [(el.get("data-capacity"), el.get("data-harbour")) for el in ships] == \
            [(str(s["capacity"]), s["harbour"] or "") for s in p["ships"]]
        for s, el in zip(p["ships"], ships):
            assert fill_of(el) == seat[p["name"]]["colour"]
            assert [c.get("data-card") for c in pieces(el, "card")] == s["cargo"]
            n += len(s["cargo"])
    assert [el.get("data-card") for el in cards if el.get("data-where") == "lot"] == view["lot"]
    for el in cards:
        assert fill_of(el) == good_colour(el.get("data-card"))
    return n


MEDINA_KIND = {"g": ("palace", "grey"), "k": ("palace", "black"), "b": ("palace", "brown"),
               "o": ("palace", "orange"), "s": ("stable", None), "m": ("merchant", None)}


def check_medina(root: ET.Element, view: dict[str, Any], seat: dict[str, dict[str, Any]]) -> int:
    grid = view["grid"]
    by_number = {str(s["n"]): s for s in seat.values()}
    cells = {el.get("data-cell"): el for el in pieces(root, "piece") + pieces(root, "square")}
    walls = {el.get("data-wall") for el in pieces(root, "wall")}
    spaces = {el.get("data-wall-space") for el in pieces(root, "wall-space")}
    towers = {el.get("data-tower") for el in pieces(root, "tower")}
    rows, cols = len(grid), len(grid[0])
    n = 0
    expect_walls = set()
    for r, row in enumerate(grid):
        for c, code in enumerate(row):
            if code.startswith("T"):
                assert code[1] in towers
                continue
            if r in (0, rows - 1) or c in (0, cols - 1):
                side = "N" if r == 0 else "S" if r == rows - 1 else "W" if c == 0 else "E"
                name = f"{side}{c if side in 'NS' else r}"
                assert (name in walls) == (code == "##") and (name in spaces) == (code == "::"), name
                expect_walls.add(name)
                continue
            square = f"{view['letters'][c - 1]}{r}"
            el = cells.pop(square)
            if code == "..":
                assert el.get("data-kind") == "empty"
                continue
            n += 1
            kind, colour = MEDINA_KIND[code[0].lower()]
            assert el.get("data-kind") == kind, (square, code)
            if kind == "merchant":
                assert el.get("data-current") == ("yes" if code == "MM" else "no")
                continue
            assert el.get("data-colour") == colour
            owner = by_number.get(code[1])
            assert el.get("data-player") == (owner["name"] if owner else "")
            bands = [b for b in el.iter() if b.get("class") == "owner"]
            assert [b.get("fill") for b in bands] == ([owner["colour"]] if owner else [])
            if owner:
                assert texts(el) == [str(owner["n"])]
    assert not cells, f"pieces off the board: {sorted(cells)}"
    assert walls | spaces == expect_walls and len(towers) == 4
    roofs = {el.get("data-cell"): el for el in pieces(root, "roof")}
    owned = [x for x in view["palaces"] if x["owner"]]
    assert set(roofs) == {x["at"] for x in owned}
    for x in owned:
        el = roofs[x["at"]]
        assert (el.get("data-player"), el.get("data-colour"), el.get("data-size")) == (x["owner"], x["colour"], str(x["size"]))
        assert fill_of(el) == seat[x["owner"]]["colour"] and texts(el) == [str(seat[x["owner"]]["n"])]
    for p in view["players"]:
        (el,) = [e for e in pieces(root, "supply") if e.get("data-player") == p["name"]]
        assert el.get("data-score") == str(p["score"])
        token_of(el, seat[p["name"]])
    return n + len(roofs)


def check_florenz(root: ET.Element, view: dict[str, Any], seat: dict[str, dict[str, Any]]) -> int:
    fams = view["families"]
    key = {f: ("S" if view["solo"] and f != view["players"][0] else str(i + 1)) for i, f in enumerate(fams)}
    legend = {el.get("data-player"): el for el in pieces(root, "legend-seat")}
    assert set(legend) == set(fams)
    for f in fams:
        assert f in texts(legend[f])[-1] and texts(legend[f])[0] == key[f]
    all_pieces = pieces(root, "piece")
    n = 0
    for loc, queue in view["queues"].items():
        here = sorted((el for el in all_pieces if el.get("data-location") == loc), key=lambda el: int(el.get("data-place")))
        assert [(el.get("data-family"), el.get("data-rank"), el.get("data-colour")) for el in here] == \
            [(p["family"], p["rank"], p["colour"]) for p in queue], loc
        assert [el.get("data-place") for el in here] == [str(i + 1) for i in range(len(queue))]
        for el, p in zip(here, queue):
            assert fill_of(el) == FAMILY_COLOURS[p["colour"]]
            assert texts(el) == [key[p["family"]] + p["rank"][0].upper()]
        blocked = [el for el in pieces(root, "blocked") if el.get("data-location") == loc]
        assert len(blocked) == 7 - view["open_slots"][loc]
        n += len(queue)
        tile = view["boast"][loc]
        cups = {el.get("data-slot"): el for el in pieces(root, "cup") if el.get("data-location") == loc}
        assert {s: (el.get("data-family"), el.get("data-colour")) for s, el in cups.items()} == \
            {s: (c["family"], c["colour"]) for s, c in tile.items() if s != "tile" and c}
        (where,) = [el for el in pieces(root, "location") if el.get("data-location") == loc]
        assert where.get("data-tile") == tile["tile"]
    guards = Counter((el.get("data-kind"), el.get("data-where"), el.get("data-family"), el.get("data-colour"))
                     for el in pieces(root, "guard"))
    assert guards == Counter((kind, where, g["family"], g["colour"]) for kind, places in view["guards"].items()
                             for where, gs in places.items() for g in gs)
    for el in pieces(root, "guard"):
        assert fill_of(el) == FAMILY_COLOURS[el.get("data-colour")]
    n += sum(guards.values())
    for what, table in (("carriage", view["carriages"]), ("target", view.get("targets", {}))):
        assert {el.get("data-medici"): el.get("data-where") for el in pieces(root, what)} == \
            {m: at for m, at in table.items() if at}
    assert {el.get("data-family"): el.get("data-where") for el in pieces(root, "ring")} == dict(view.get("rings", {}))
    sectors = {el.get("data-round"): el for el in pieces(root, "sector")}
    for r, el in sectors.items():
        sector = view["sectors"].get(r)
        assert el.get("data-seen") == ("yes" if sector is not None else "no")
        if sector is not None:
            assert el.get("data-location") == (sector["location"] or "") and \
                el.get("data-time") == ("" if sector["time"] is None else str(sector["time"]))
    hands = view["scandal"]["hand"]
    for el in pieces(root, "family"):
        f = el.get("data-player")
        held = hands.get(f, [])
        assert el.get("data-cards") == str(sum(held.values()) if isinstance(held, dict) else len(held))
        assert el.get("data-vp") == str(view["vp"].get(f, 0)) and el.get("data-time") == str(view["time"].get(f, 0))
        plan = view.get("plan_cards", {}).get(f)
        assert el.get("data-plan") == (None if plan is None else str(plan))
    return n


CHECKS: dict[str, Callable[[ET.Element, dict[str, Any], dict[str, dict[str, Any]]], int]] = {
    "medici": check_medici, "medici-strozzi": check_strozzi, "medina": check_medina, "florenz": check_florenz}


def check_picture(state: dict[str, Any], viewer: str | None) -> tuple[str, int]:
    """Draw the picture `viewer` gets and compare it with his view (None: the public one); the SVG
    and how many pieces were compared."""
    svg = board_svg(state, viewer)
    root = parse(svg)
    seat = check_legend(root, state, viewer)
    view = get_ruleset(state["ruleset"]).view(state["engine"], viewer if viewer else "")
    return svg, CHECKS[state["ruleset"]](root, view, seat)


@pytest.mark.parametrize("ruleset,n,options,seed,every", GAMES, ids=[g[3] for g in GAMES])
def test_every_picture_of_whole_games_shows_the_view(tmp_path: Path, ruleset: str, n: int,
                                                      options: dict[str, str], seed: str, every: int) -> None:
    names = names_for(ruleset, n)
    drawn = compared = 0
    last = None
    for state in bot_game(tmp_path, ruleset, names, options, seed, every):
        for viewer in [*names, None]:
            svg, k = check_picture(state, viewer)
            drawn += 1
            compared += k
        last = state
    assert last["status"] == "finished" and drawn > 10 * (n + 1)
    assert compared > 100
    assert board_svg(last, names[0]) == board_svg(copy.deepcopy(last), names[0])  # the same bytes


def test_a_picture_escapes_what_it_prints_and_refuses_a_stranger(tmp_path: Path) -> None:
    gd = GamesDir(tmp_path / "games")
    state, _ = new_game(gd, "medici", "p1", [(p, f"{p}@example.org") for p in NAMES[:3]], {}, "pic-esc")
    state = copy.deepcopy(state)
    state["engine"]["lot"] = ["<b>&\"-1"]  # not a real card: what the picture prints is escaped
    root = ET.fromstring(board_svg(state, "anna"))
    assert [el.get("data-card") for el in pieces(root, "card")] == ["<b>&\"-1"]
    with pytest.raises(ValueError, match="no player 'zoe'"):
        board_svg(state, "zoe")


def test_seat_colours_differ_and_pieces_carry_more_than_colour() -> None:
    assert len(set(SEAT_COLOURS)) == 6 and len(set(FAMILY_COLOURS.values())) == len(FAMILY_COLOURS)


# -- secrets: a picture shows what its viewer may see, nothing more ------------------------------------

def bag_shuffled(state: dict[str, Any], salt: str) -> Iterator[tuple[str, dict[str, Any], set[str]]]:
    """Medici and Medici vs Strozzi: the cards or tiles still hidden in another order (their counts
    kept), and another seed; no player may notice."""
    everyone = {p["name"] for p in state["players"]}
    engine = state["engine"]
    keys = ["deck", "set_aside"] if state["ruleset"] == "medici" else ["bag"]
    pool = [c for k in keys for c in engine[k]]
    moved = list(pool)
    Rng(f"perturb-{salt}").shuffle(moved, "hidden")
    if moved == pool and len(pool) > 1:
        moved = moved[1:] + moved[:1]
    other = dict(state, engine=copy.deepcopy(engine))
    at = 0
    for k in keys:
        other["engine"][k] = moved[at:at + len(engine[k])]
        at += len(engine[k])
    yield "the hidden cards", other, everyone
    yield "the seed", dict(state, seed=state["seed"] + "-something-else"), everyone


def hidden_variants(state: dict[str, Any], salt: str) -> Iterator[tuple[str, dict[str, Any], set[str]]]:
    if state["ruleset"] == "florenz":
        from test_florenz_secrets import variants  # the text reports' own list of Florenz secrets
        yield from variants(state, salt)
    elif state["ruleset"] == "medina":  # nothing hidden but the seed: supplies and the city are open
        yield "the seed", dict(state, seed=state["seed"] + "-something-else"), {p["name"] for p in state["players"]}
    else:
        yield from bag_shuffled(state, salt)


SECRET_GAMES = [
    ("medici", 4, {}, "pic-secret-medici", 9),
    ("medici-strozzi", 2, {}, "pic-secret-strozzi", 5),
    ("medina", 3, {}, "pic-secret-medina", 6),
    ("florenz", 3, {}, "pic-secret-florenz", 11),
    ("florenz", 1, {"solo": "harder"}, "pic-secret-solo", 7),
]


@pytest.mark.parametrize("ruleset,n,options,seed,every", SECRET_GAMES, ids=[g[3] for g in SECRET_GAMES])
def test_no_picture_moves_when_what_its_viewer_may_not_see_changes(tmp_path: Path, ruleset: str, n: int,
                                                                  options: dict[str, str], seed: str,
                                                                  every: int) -> None:
    names = names_for(ruleset, n)
    tried = 0
    for k, state in enumerate(bot_game(tmp_path, ruleset, names, options, seed, every)):
        drawn = {p: board_svg(state, p) for p in [*names, None]}
        for what, other, blind in hidden_variants(state, f"{seed}-{k}"):
            tried += 1
            assert board_svg(other, None) == drawn[None], f"the public picture depends on {what}"
            for p in sorted(blind):
                assert board_svg(other, p) == drawn[p], f"{p}'s picture depends on {what}"
    assert tried > 15


def test_florenz_pictures_name_no_card_and_only_their_own_plan(tmp_path: Path) -> None:
    """The hands are drawn as counts only (as every player sees them); a player's own plan card is in
    his picture, nobody else's until the end; the public picture has none while the game runs."""
    from pbem.rules.florenz.data import SCANDAL_CARDS

    names = names_for("florenz", 4)
    states = list(bot_game(tmp_path, "florenz", names, {}, "pic-plans", 25))
    for state in states:
        for viewer in [*names, None]:
            svg = board_svg(state, viewer)
            assert not any(card in svg for card in SCANDAL_CARDS)
            plans = {el.get("data-player") for el in pieces(ET.fromstring(svg), "family") if el.get("data-plan")}
            if state["status"] == "active":
                assert plans == ({viewer} if viewer else set())
            else:
                assert plans == set(names)


# -- the PNG --------------------------------------------------------------------------------------------

def decode_png(png: bytes) -> tuple[int, int, int]:
    """(width, height, bytes per pixel) of a PNG, after checking its chunks' CRCs and that its image
    data inflates to exactly one filter byte and one row of pixels per row."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks = 8, []
    while at < len(png):
        (length,) = struct.unpack(">I", png[at:at + 4])
        kind, data = png[at + 4:at + 8], png[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", png[at + 8 + length:at + 12 + length])
        assert zlib.crc32(kind + data) == crc, kind
        chunks.append((kind, data))
        at += 12 + length
    assert chunks[0][0] == b"IHDR" and chunks[-1][0] == b"IEND"
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    assert depth == 8 and interlace == 0
    bpp = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
    if colour == 3:
        assert any(kind == b"PLTE" for kind, _ in chunks)
    raw = zlib.decompress(b"".join(data for kind, data in chunks if kind == b"IDAT"))
    assert len(raw) == height * (1 + width * bpp)
    assert all(raw[row * (1 + width * bpp)] <= 4 for row in range(height))  # a known filter on every row
    return width, height, bpp


@pytest.mark.parametrize("ruleset,n", [("medici", 5), ("medici-strozzi", 2), ("medina", 4), ("florenz", 4)])
def test_the_png_of_a_board_decodes_at_its_size(tmp_path: Path, ruleset: str, n: int) -> None:
    names = names_for(ruleset, n)
    states = list(bot_game(tmp_path, ruleset, names, {}, f"pic-png-{ruleset}", 40))
    for state in (states[len(states) // 2], states[-1]):
        svg = board_svg(state, names[-1])
        png = board_png(svg)
        width, height, _ = decode_png(png)
        assert (width, height) == (WIDTH, int(ET.fromstring(svg).get("height")))
        assert 5_000 < len(png) < 150_000
        assert board_png(svg) == png  # the same SVG, the same bytes


def test_text_in_a_picture_is_drawn_with_a_font_that_is_there() -> None:
    """The pictures' words need a font: DejaVu Sans (Debian's fonts-dejavu-core, which `make install`
    puts there) or, failing it, one of the system's. A word drawn black on white must leave ink."""
    import io

    from PIL import Image

    from pbem.pictures import FONT, _fonts

    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="200" height="40" viewBox="0 0 200 40" '
           f'font-family="{FONT}"><text x="10" y="30" font-size="24">anna 1</text></svg>')
    with Image.open(io.BytesIO(board_png(svg))) as image:
        dark = sum(image.convert("L").histogram()[:128])
    assert dark > 100, f"no text drawn: install fonts-dejavu-core (found {_fonts() or 'no DejaVu Sans'})"
