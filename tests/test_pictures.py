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
from pathlib import Path
from typing import Any, Iterator

import pytest

import helpers
from rooms import GAMES, each, need, room
from pbem.game import new_game
from pbem.pictures import FAMILY_COLOURS, SEAT_COLOURS, WIDTH, board_png, board_svg, seats
from pbem.rng import Rng
from pbem.rules.base import get_ruleset
from pbem.store import GamesDir

SVG = "{http://www.w3.org/2000/svg}"
NAMES = ["anna", "ben", "cleo", "dora", "emil", "fritz"]

def names_for(ruleset: str, n: int) -> list[str]:
    """The seats of a table of `n` (the same names in every game)."""
    return NAMES[:n]


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
    if need(state["ruleset"], "SEAT_LEGEND"):
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


def check_picture(state: dict[str, Any], viewer: str | None) -> tuple[str, int]:
    """Draw the picture `viewer` gets and compare it with his view (None: the public one); the SVG
    and how many pieces were compared."""
    svg = board_svg(state, viewer)
    root = parse(svg)
    seat = check_legend(root, state, viewer)
    view = get_ruleset(state["ruleset"]).view(state["engine"], viewer if viewer else "")
    return svg, need(state["ruleset"], "PICTURE_CHECK")(root, view, seat)


@pytest.mark.parametrize("ruleset,n,options,seed,every", each("PICTURE_TABLES"))
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

def bag_shuffled(state: dict[str, Any], salt: str, keys: list[str]) -> Iterator[tuple[str, dict[str, Any], set[str]]]:
    """The cards or tiles still hidden under the engine's `keys` in another order (their counts kept),
    and another seed; no player may notice."""
    everyone = {p["name"] for p in state["players"]}
    engine = state["engine"]
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
    """What is hidden in `state` changed, each way its room knows: (what, the state, who may not notice)."""
    yield from need(state["ruleset"], "HIDDEN_VARIANTS")(state, salt)


@pytest.mark.parametrize("ruleset,n,options,seed,every", each("SECRET_TABLES"))
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


@pytest.mark.parametrize("ruleset", GAMES)
def test_the_png_of_a_board_decodes_at_its_size(tmp_path: Path, ruleset: str) -> None:
    names = list(room(ruleset).PLAYERS)
    states = list(bot_game(tmp_path, ruleset, names, {}, f"pic-png-{ruleset}", 40))
    for state in (states[len(states) // 2], states[-1]):
        svg = board_svg(state, names[-1])
        png = board_png(svg)
        width, height, _ = decode_png(png)
        assert (width, height) == (WIDTH, int(ET.fromstring(svg).get("height")))
        assert 5_000 < len(png) < 150_000
        assert board_png(svg) == png  # the same SVG, the same bytes


def test_the_blank_stand_in_is_a_png_of_the_boards_size_and_refuses_what_it_cannot_read(tmp_path: Path) -> None:
    """helpers.BlankBoards, which the tests of a mail's words send in the picture's place: a PNG that
    decodes at the board's size, and an SVG it cannot read is kept, to fail the test that sent it."""
    names = list(room("medici").PLAYERS)
    svg = board_svg(next(bot_game(tmp_path, "medici", names, {}, "pic-blank", 40)), names[0])
    blank = helpers.BlankBoards()
    assert decode_png(blank(svg))[:2] == (WIDTH, int(ET.fromstring(svg).get("height")))
    for broken in (svg[:-20], svg.replace(' width="', ' span="', 1)):
        with pytest.raises((ET.ParseError, KeyError)):
            blank(broken)
    assert len(blank.refused) == 2 and blank.refused[0].startswith("ParseError: ")


@pytest.mark.parametrize("ruleset", GAMES)
def test_the_png_keeps_the_colours_of_the_drawing(tmp_path: Path, ruleset: str) -> None:
    """Its palette chosen from a sample of the pixels, each pixel its nearest colour: the PNG is the
    drawing within a few levels a channel, and the colour of every token (a seat's, a family's) is in
    it as the SVG gives it."""
    import io

    from PIL import Image

    from pbem.mail.phone import phone_board_svg
    from pbem.pictures import _drawn

    names = list(room(ruleset).PLAYERS)
    state = list(bot_game(tmp_path, ruleset, names, {}, f"pic-colours-{ruleset}", 40))[1]
    svg = phone_board_svg(state, names[0])
    drawn = _drawn(svg)
    with Image.open(io.BytesIO(board_png(svg))) as decoded:
        shown = decoded.convert("RGB")
        palette = decoded.getpalette() or []
    pairs = list(zip(drawn.tobytes()[::11], shown.tobytes()[::11]))
    assert sum(abs(a - b) for a, b in pairs) / len(pairs) < 4
    entries = [tuple(palette[i:i + 3]) for i in range(0, len(palette), 3)]
    tokens = {c.get("fill") for c in ET.fromstring(svg).iter(f"{SVG}circle")} - {None, "none"}
    assert len(tokens) >= 2
    for fill in tokens:
        colour = tuple(int(fill[k:k + 2], 16) for k in (1, 3, 5))
        assert min(max(abs(a - b) for a, b in zip(colour, entry)) for entry in entries) <= 8, fill


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
