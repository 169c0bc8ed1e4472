"""pbem.raster draws pbem's own board SVGs with Pillow: every board of every game looks as resvg (a
general SVG renderer) draws it, anything outside the vocabulary is refused by name and then drawn by
resvg, and the PNG written from the palette image decodes to the same pixels."""

from __future__ import annotations

import io
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from rooms import GAMES, every_table, tables
from pbem import pictures, raster
from pbem.pictures import board_png, board_svg

from test_pictures import bot_game

FONTS = tuple(Path(f) for f in pictures._fonts())
needs_fonts = pytest.mark.skipif(len(FONTS) != 2, reason="DejaVu Sans is not installed (make install adds it)")


def resvg_image(svg: str) -> Image.Image:
    import resvg_py

    png = resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff", font_files=[str(f) for f in FONTS],
                                skip_system_fonts=True)
    with Image.open(io.BytesIO(bytes(png))) as image:
        return image.convert("RGB")


def difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """The mean difference of two pictures (0-255, grey), and the share of pixels far apart (> 96)."""
    assert a.size == b.size
    diff = ImageChops.difference(a, b).convert("L")
    return ImageStat.Stat(diff).mean[0], sum(diff.histogram()[97:]) / (a.size[0] * a.size[1])




@needs_fonts
@pytest.mark.parametrize(("ruleset", "names", "options"), every_table())
def test_every_board_is_drawn_as_resvg_draws_it(tmp_path: Path, ruleset: str, names: list[str],
                                                options: dict[str, str]) -> None:
    """The same picture, to the eye: edges and letters are smoothed a little differently, so the two
    differ by a few levels on average (about 1-3 of 255), and by much in a pixel or two of a thousand."""
    states = list(bot_game(tmp_path, ruleset, names, options, f"raster-{ruleset}-{len(names)}", 30))
    for state in [states[0], states[len(states) // 2], states[-1]]:
        for viewer in (names[0], None):
            svg = board_svg(state, viewer)
            drawn = raster.draw(svg, FONTS)  # pbem's own boards never need resvg
            mean, far = difference(drawn, resvg_image(svg))
            assert mean < 4 and far < 0.003, (state["engine"]["turn"], viewer, mean, far)


def svg_of(body: str, width: int = 60, height: int = 40, extra: str = "") -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}"{extra}>{body}</svg>')


@pytest.mark.parametrize(("body", "extra", "named"), [
    ('<ellipse cx="5" cy="5" rx="4" ry="2"/>', "", "the element <ellipse>"),
    ('<rect x="1" y="1" width="5" height="5" transform="rotate(45)"/>', "", "the attribute 'transform' of <rect>"),
    ('<g opacity="0.5"><rect x="1" y="1" width="5" height="5"/></g>', "", "the attribute 'opacity' of <g>"),
    ('<path d="M 1 1 C 2 2 3 3 4 4"/>', "", "the path 'M 1 1 C 2 2 3 3 4 4'"),
    ('<text x="1" y="9">a <tspan>b</tspan></text>', "", "the element <tspan>"),
    ('<rect x="1" y="1" width="5" height="5" fill="url(#shade)"/>', "", "the colour 'url(#shade)'"),
    ('<rect x="1" y="1" width="5" height="5" fill="#FF000080"/>', "", "the colour '#FF000080'"),
    ('<rect x="1" y="1" width="5" height="5"/>', ' preserveAspectRatio="none"', "the attribute 'preserveAspectRatio' of <svg>"),
])
def test_what_is_not_pbems_vocabulary_is_refused_by_name_and_drawn_by_resvg(body: str, extra: str, named: str) -> None:
    svg = svg_of(body, extra=extra)
    with pytest.raises(raster.Unsupported) as refused:
        raster.draw(svg, FONTS)
    assert named in str(refused.value)
    with Image.open(io.BytesIO(board_png(svg))) as image:  # the mail still gets its picture
        assert image.size == (60, 40)


def test_a_viewbox_other_than_the_size_is_left_to_resvg() -> None:
    svg = svg_of('<rect x="0" y="0" width="40" height="16" fill="#000000"/>').replace('viewBox="0 0 60 40"',
                                                                                      'viewBox="0 0 40 16"')
    with pytest.raises(raster.Unsupported, match="viewBox"):
        raster.draw(svg, FONTS)
    with Image.open(io.BytesIO(board_png(svg))) as image:
        assert image.convert("L").getpixel((45, 30)) == 0  # resvg scaled the rectangle to fill it all


@needs_fonts
def test_a_picture_twice_its_viewbox_is_drawn_twice_as_large() -> None:
    """A board for a phone: its viewBox half its size, every shape and word drawn at twice the size,
    as resvg draws it."""
    shapes = ('<rect x="5" y="4" width="20" height="10" fill="#FF0000" stroke="#000000"/>'
              '<circle cx="40" cy="20" r="8" fill="#0000FF"/>')
    svg = svg_of(shapes, 120, 80).replace('viewBox="0 0 120 80"', 'viewBox="0 0 60 40"')
    drawn = raster.draw(svg, FONTS)
    assert drawn.size == (120, 80)
    assert drawn.getpixel((30, 18)) == (255, 0, 0) and drawn.getpixel((80, 40)) == (0, 0, 255)
    assert drawn.getpixel((62, 18)) == (255, 255, 255)  # the rectangle ends at 25, drawn at 50
    mean, far = difference(drawn, resvg_image(svg))
    assert mean < 2 and far < 0.003, (mean, far)
    words = raster.draw(svg_of('<text x="4" y="30" font-size="20">HH</text>', 120, 80)
                        .replace('viewBox="0 0 120 80"', 'viewBox="0 0 60 40"'), FONTS)
    ink = [y for x in range(120) for y in range(80) if words.getpixel((x, y))[0] < 128]
    assert max(ink) <= 60 and max(ink) - min(ink) >= 26  # capitals of 20 units, 0.73 em, twice as tall


@needs_fonts
def test_fill_and_stroke_pass_from_a_group_to_its_shapes() -> None:
    image = raster.draw(svg_of('<g fill="#FF0000" stroke="#0000FF" stroke-width="4">'
                               '<rect x="10" y="10" width="40" height="20"/></g>'), FONTS)
    assert image.getpixel((30, 20)) == (255, 0, 0)  # inside: the group's fill
    assert image.getpixel((10, 20)) == (0, 0, 255)  # on the edge: the group's stroke, centred on it
    assert image.getpixel((30, 5)) == (255, 255, 255)


@needs_fonts
def test_words_are_drawn_on_their_baseline_at_their_anchor() -> None:
    image = raster.draw(svg_of('<text x="30" y="30" font-size="20" text-anchor="middle">HH</text>', 60, 40), FONTS)
    ink = [(x, y) for x in range(60) for y in range(40) if image.getpixel((x, y))[0] < 128]
    xs, ys = [x for x, _ in ink], [y for _, y in ink]
    assert max(ys) <= 30 and min(ys) >= 14  # capitals stand on the baseline, about 0.73 em tall
    assert abs((min(xs) + max(xs)) / 2 - 30) <= 1.5  # centred on x


def test_dashes_are_laid_along_the_line_as_svg_lays_them() -> None:
    assert raster._dashed([(0, 0), (10, 0)], [3, 3]) == [[(0, 0), (3, 0)], [(6, 0), (9, 0)]]
    # a dash turns a corner with the line; a list of odd length is said twice (2 is 2 on, 2 off)
    assert raster._dashed([(0, 0), (4, 0), (4, 4)], [5, 1]) == [[(0, 0), (4, 0), (4, 1)], [(4, 2), (4, 4)]]
    assert raster._dashed([(0, 0), (6, 0)], [2]) == [[(0, 0), (2, 0)], [(4, 0), (6, 0)]]


def test_a_path_of_lines_gives_its_subpaths() -> None:
    assert raster._path_points("M 1 2 L 3 4 L 5,6 Z M 7 8 L 9 10", 2) == [
        [(2, 4), (6, 8), (10, 12), (2, 4)], [(14, 16), (18, 20)]]
    with pytest.raises(raster.Unsupported):
        raster._path_points("M 1 2 L 3", 1)


def test_the_png_written_decodes_to_the_palette_image() -> None:
    image = Image.new("RGB", (37, 11), "#FFFFFF")
    for x in range(37):
        image.putpixel((x, x % 11), (x * 7 % 256, 40, 200))
    palette = pictures.indexed(image)
    png = pictures.png_bytes(palette.size, bytes(palette.getpalette() or []), palette.tobytes())
    with Image.open(io.BytesIO(png)) as decoded:
        assert decoded.mode == "P" and decoded.size == (37, 11)
        assert decoded.convert("RGB").tobytes() == palette.convert("RGB").tobytes()


def test_a_font_pillow_cannot_read_leaves_the_picture_to_resvg(monkeypatch: pytest.MonkeyPatch) -> None:
    def unreadable(path: str, size: int) -> None:
        raise OSError("cannot open resource")
    monkeypatch.setattr(raster, "_font", unreadable)
    svg = svg_of('<text x="5" y="30" font-size="24">ab</text>', extra=f' font-family="{pictures.FONT}"')
    with pytest.raises(OSError):
        raster.draw(svg, FONTS)
    pictures.board_png.cache_clear()
    with Image.open(io.BytesIO(board_png(svg))) as image:
        assert image.size == (60, 40)
        assert sum(image.convert("L").histogram()[:128]) > 20  # resvg drew the word


@needs_fonts
def test_words_drawn_once_and_pasted_again_are_the_words_pillow_draws() -> None:
    """A board's words are drawn once (per font, size and anchor) and pasted where they come again:
    the picture is the one Pillow's own text drawing gives, pixel for pixel."""
    from PIL import ImageDraw, ImageFont

    texts = [(10, 20, "start", "normal", "p1 bids 7"), (150, 20, "middle", "bold", "linen"),
             (290, 20, "end", "normal", "p1 bids 7"), (150, 45, "middle", "bold", "linen")]
    body = "".join(f'<text x="{x}" y="{y}" font-size="13" text-anchor="{a}" font-weight="{w}">{t}</text>'
                   for x, y, a, w, t in texts)
    drawn = raster.draw(svg_of(body, 300, 60), FONTS)
    s = raster.SUPERSAMPLE
    plain = Image.new("RGB", (300 * s, 60 * s), "#FFFFFF")
    pen = ImageDraw.Draw(plain)
    for x, y, a, w, t in texts:
        font = ImageFont.truetype(str(FONTS[w == "bold"]), 13 * s)
        pen.text((x * s, y * s), t, fill=(0, 0, 0), font=font, anchor=raster.ANCHOR[a])
    assert drawn.tobytes() == plain.reduce(s).tobytes()


@pytest.mark.parametrize("body", ['<rect x="5" y="5" width="0" height="9" stroke="#000000"/>',
                                  '<rect x="5" y="5" width="-3" height="9"/>', '<circle cx="9" cy="9" r="0"/>'])
def test_a_shape_without_an_area_draws_nothing(body: str) -> None:
    image = raster.draw(svg_of(body), FONTS)
    assert image.getcolors() == [(60 * 40, (255, 255, 255))]


def test_a_shape_under_a_pixel_is_drawn_without_complaint() -> None:
    image = raster.draw(svg_of('<rect x="5" y="5" width="0.2" height="0.3"/><circle cx="9" cy="9" r="0.2"/>'), FONTS)
    assert image.convert("L").getextrema()[0] < 255  # the rectangle leaves a trace


def test_a_broken_svg_is_left_to_resvg_which_refuses_it_by_raising() -> None:
    with pytest.raises(ValueError):  # the mail then goes out as text alone (see test_mail_pictures)
        board_png("<svg")


# -- a board drawn once for the viewers who see it alike -------------------------------------------------

def whole(svg: str) -> bytes:
    """The pixels of `svg` drawn whole, as if no viewer's board were kept."""
    return raster._painted(svg, FONTS, still=False).image.reduce(raster.SUPERSAMPLE).tobytes()


@needs_fonts
@pytest.mark.parametrize(("ruleset", "names", "options"), every_table())
def test_each_viewer_of_a_board_shared_gets_the_pixels_of_his_whole_drawing(
        tmp_path: Path, ruleset: str, names: list[str], options: dict[str, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every player's board for a phone, drawn one after another as a run posts them: the pixels of
    his own board drawn whole (his line and his name in bold where they are), and the board painted
    once for all those whose SVG is the same but for their marked words."""
    from pbem.mail.phone import phone_board_svg

    painted = []
    real = raster._painted
    monkeypatch.setattr(raster, "_painted", lambda svg, fonts, apart=False, still=True: painted.append(apart) or real(svg, fonts, apart, still))
    states = list(bot_game(tmp_path, ruleset, names, options, f"shared-{ruleset}-{len(names)}", 30))
    for state in [states[1], states[len(states) // 2], states[-1]]:
        raster._BASES.clear()
        svgs = [phone_board_svg(state, viewer) for viewer in names]
        assert all(raster.VIEWER_MARK in svg for svg in svgs)
        wholes = [whole(svg) for svg in svgs]
        painted.clear()
        for svg, pixels in zip(svgs, wholes):
            assert raster.draw(svg, FONTS).tobytes() == pixels
        bases = {raster._TITLE.sub("", raster._MARKS.sub("", svg)) for svg in svgs}
        assert painted.count(True) == len(bases)  # each board painted once, however many see it
        assert painted.count(False) == 0  # no viewer's words had to be drawn with the rest of his board


@needs_fonts
@pytest.mark.parametrize(("ruleset", "names", "options"), every_table())
def test_a_board_painted_over_its_still_part_has_the_pixels_of_its_whole_drawing(
        tmp_path: Path, ruleset: str, names: list[str], options: dict[str, str]) -> None:
    """Every board of every table, for a phone and for the archive, early, midway and at the end: painted
    over its still part (kept from the boards before it, or painted for it), the pixels of the whole
    board painted in document order; a board whose template marks a still part is painted over it."""
    from pbem.mail.phone import phone_board_svg

    raster._STILLS.clear()
    states = list(bot_game(tmp_path, ruleset, names, options, f"still-{ruleset}-{len(names)}", 30))
    for state in [states[1], states[len(states) // 2], states[-1]]:
        for svg in [phone_board_svg(state, names[0]), phone_board_svg(state, None), board_svg(state, names[-1])]:
            painted = raster._painted(svg, FONTS)
            assert painted.shrunk().tobytes() == whole(svg)
            assert (painted.still is not None) == (f'data-layer="{raster.STILL}"' in svg)
    if ruleset == "medici":
        assert raster._STILLS  # Medici's boards for a phone have a still part


@needs_fonts
@pytest.mark.parametrize("ruleset", GAMES)
def test_a_board_repainted_from_the_one_before_has_the_pixels_of_its_whole_drawing(
        tmp_path: Path, ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's boards for a phone drawn one after another as runs post them, to its players in turn,
    to every player, and to a player whose board was drawn two boards before: each board over a still
    part is repainted from the one before it where they differ, and each has the pixels of its whole
    drawing."""
    from pbem.mail.phone import phone_board_svg

    names, options = tables(ruleset)[0]
    repainted = []
    real = raster._repainted
    monkeypatch.setattr(raster, "_repainted", lambda before, painted: repainted.append(real(before, painted)) or repainted[-1])
    raster._STILLS.clear()
    raster._BASES.clear()
    states = list(bot_game(tmp_path, ruleset, names, options, f"repainted-{ruleset}", 2))[:5]
    stills = False
    for n, state in enumerate(states):
        mover = names[n % len(names)]
        for viewer in (mover, None, names[(n + 1) % len(names)], mover):
            svg = phone_board_svg(state, viewer)
            stills = stills or f'data-layer="{raster.STILL}"' in svg
            assert raster.draw(svg, FONTS).tobytes() == whole(svg), (n, viewer)
    assert any(squares is not None for squares in repainted) == stills


STILL_PART = ('<g data-layer="still"><rect x="20" y="20" width="40" height="20" fill="#F4F4F4" stroke="#999999"/>'
              '<text x="22" y="34" font-size="9">step</text></g>')


@needs_fonts
def test_a_still_part_is_painted_once_for_boards_that_differ_elsewhere() -> None:
    """Two boards alike in their still part alone: it is painted once, and each is its own whole
    drawing, what lies over the still part (a marker) included."""
    raster._STILLS.clear()
    boards = [svg_of(f'<text x="4" y="12" font-size="9">turn {turn}</text>' + STILL_PART
                     + f'<circle cx="{cx}" cy="30" r="6" fill="#E69F00" stroke="#000000"/>')
              for turn, cx in ((1, 30), (2, 50))]
    painted = [raster._painted(svg, FONTS) for svg in boards]
    assert [p.shrunk().tobytes() for p in painted] == [whole(svg) for svg in boards]
    assert len(raster._STILLS) == 1 and painted[0].still is painted[1].still
    assert painted[0].shrunk().tobytes() != painted[1].shrunk().tobytes()


@needs_fonts
def test_a_still_part_let_go_keeps_no_pixels_and_its_board_is_drawn_again_whole() -> None:
    """More still parts than a process keeps: one let go holds no pixels, nor the board last painted over
    it, though a board painted over it still names it; that board drawn again has its whole pixels."""
    raster._STILLS.clear()
    boards = [svg_of(f'<text x="4" y="12" font-size="9">turn {n}</text>' + STILL_PART.replace(">step<", f">step {n}<"))
              for n in range(raster.KEPT_STILL + 2)]
    first = raster._painted(boards[0], FONTS)
    assert first.shrunk().tobytes() == whole(boards[0])
    for svg in boards[1:]:
        assert raster.draw(svg, FONTS).tobytes() == whole(svg)
    gone = first.still
    assert gone is not None and all(kept is not gone for kept in raster._STILLS.values())
    assert (gone.image, gone.shown, gone.last, gone.kept) == (None, None, None, None)
    assert raster.draw(boards[0], FONTS).tobytes() == whole(boards[0])


@needs_fonts
def test_what_is_painted_before_a_still_part_and_meets_it_gets_the_board_painted_in_order() -> None:
    """A shape before the still part that the still part covers in part: the board painted in document
    order (the still part over the shape), not the shape over a copy of the still part."""
    raster._STILLS.clear()
    svg = svg_of('<rect x="10" y="25" width="46" height="10" fill="#D55E00"/>' + STILL_PART)
    painted = raster._painted(svg, FONTS)
    assert painted.still is None and painted.shrunk().tobytes() == whole(svg)
    assert painted.shrunk().getpixel((52, 30)) == (0xF4, 0xF4, 0xF4)  # the still part over the shape


MARKED = '<text x="4" y="12" font-size="9" data-mark="viewer"{bold}>{name}</text>'


@needs_fonts
def test_words_under_what_is_painted_after_them_get_their_board_drawn_whole() -> None:
    """A viewer's words that something painted later covers: his board is drawn whole (the shape over
    his words), as is a board whose viewers' words would share pixels."""
    raster._BASES.clear()
    covered = '<rect x="10" y="2" width="20" height="14" fill="#56B4E9"/>'
    boards = [svg_of(MARKED.format(bold=bold, name=name) + covered)
              for bold, name in (("", "anna"), (' font-weight="bold"', "ben"))]
    for svg in boards:
        assert raster.draw(svg, FONTS).tobytes() == whole(svg)
    assert raster.draw(boards[0], FONTS).getpixel((12, 10)) == (0x56, 0xB4, 0xE9)  # the shape over the words
    crowded = [svg_of(MARKED.format(bold="", name=name) + MARKED.format(bold="", name="cleo")) for name in ("anna", "ben")]
    for svg in crowded:
        assert raster.draw(svg, FONTS).tobytes() == whole(svg)


@needs_fonts
def test_boards_that_differ_beyond_their_viewers_words_are_drawn_each_its_own() -> None:
    """Only what lies in the marked words may differ between viewers who share a board: a board with
    anything else different (a hand shown to its owner alone) is drawn for itself."""
    raster._BASES.clear()
    hands = [svg_of(MARKED.format(bold="", name="anna") + f'<rect x="10" y="20" width="{w}" height="10" fill="#E69F00"/>')
             for w in (20, 30)]
    drawn = [raster.draw(svg, FONTS).tobytes() for svg in hands]
    assert drawn == [whole(svg) for svg in hands] and drawn[0] != drawn[1]
    assert len(raster._BASES) == 2


@needs_fonts
@pytest.mark.parametrize(("ruleset", "names", "options"), every_table())
def test_every_board_marks_a_still_part_that_a_second_viewers_board_is_painted_over(
        tmp_path: Path, ruleset: str, names: list[str], options: dict[str, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game's boards, for a phone and for the archive, mark a still part; the board of a second viewer
    of the same turn is painted over it as kept from the first's: what lies outside it alone is painted."""
    from pbem.mail.phone import phone_board_svg

    painted: list[object] = []
    real = raster._paint
    monkeypatch.setattr(raster, "_paint", lambda *args, **kw: painted.append(args[2]) or real(*args, **kw))
    states = list(bot_game(tmp_path, ruleset, names, options, f"kept-{ruleset}-{len(names)}", 30))
    state = states[len(states) // 2]
    second = names[1] if len(names) > 1 else None
    for board in (phone_board_svg, board_svg):
        raster._STILLS.clear()
        raster._painted(board(state, names[0]), FONTS)
        svg = board(state, second)
        found: list[tuple[object, dict[str, str]]] = []
        layer: list[tuple[int, int]] = []
        raster._collect(ET.fromstring(svg), raster.DEFAULTS, found, None, layer)
        still = {id(found[index][0]) for start, end in layer for index in range(start, end)}
        assert still, f"{board.__name__} of {ruleset} marks no still part"
        painted.clear()
        over = raster._painted(svg, FONTS)
        assert over.still is not None and len(raster._STILLS) == 1  # the first board's, not painted again
        assert painted and not still.intersection(map(id, painted))
        assert over.shrunk().tobytes() == whole(svg)


# -- the still part kept between processes ---------------------------------------------------------------

#: a process of its own draws a board: how many shapes and words it painted, and the digest of its pixels
DRAWN_IN_A_PROCESS = """
import hashlib, sys
from pathlib import Path
from pbem import raster
painted = []
real = raster._paint
raster._paint = lambda *args, **kw: painted.append(args[2]) or real(*args, **kw)
image = raster.draw(Path(sys.argv[1]).read_text(), (Path(sys.argv[2]), Path(sys.argv[3])))
print(len(painted), hashlib.sha256(image.tobytes()).hexdigest())
"""


@needs_fonts
def test_a_still_part_is_kept_for_the_next_process_and_painted_again_where_its_file_is_spoilt(tmp_path: Path) -> None:
    """A process that paints a board keeps its still part in the user's cache; the next one paints what
    lies outside it alone, to the same pixels. A file cut short, of garbage, or another board's under its
    name is painted again, and kept anew."""
    import hashlib
    import os
    import subprocess
    import sys

    from pbem.mail.phone import phone_board_svg

    names = ["anna", "ben", "cleo", "dora"]
    state = list(bot_game(tmp_path, "medici", names, {}, "kept-on-disk", 30))[1]
    boards = {}
    for lang in ("en", "de"):
        boards[lang] = tmp_path / f"board-{lang}.svg"
        boards[lang].write_text(phone_board_svg(state, "anna", lang))
    env = {**os.environ, "PBEM_CACHE": str(tmp_path / "cache")}
    folder = tmp_path / "cache" / "stills"

    def drawn(lang: str = "en") -> tuple[int, str]:
        out = subprocess.run([sys.executable, "-c", DRAWN_IN_A_PROCESS, str(boards[lang]), *map(str, FONTS)],
                             env=env, capture_output=True, text=True, check=True).stdout.split()
        return int(out[0]), out[1]

    pixels = hashlib.sha256(raster.draw(boards["en"].read_text(), FONTS).tobytes()).hexdigest()
    found: list[tuple[object, dict[str, str]]] = []
    layer: list[tuple[int, int]] = []
    raster._collect(ET.fromstring(boards["en"].read_text()), raster.DEFAULTS, found, None, layer)
    still = sum(end - start for start, end in layer)
    first = drawn()
    assert first[1] == pixels
    [kept] = folder.glob("*.still")
    good = kept.read_bytes()
    second = drawn()
    assert second == (first[0] - still, pixels)  # the still part read, not painted
    drawn("de")
    [other] = [f for f in folder.glob("*.still") if f != kept]
    for spoilt in (good[:len(good) // 2], bytes(len(good)), other.read_bytes()):
        kept.write_bytes(spoilt)
        assert drawn() == first
        assert kept.read_bytes() == good


@needs_fonts
def test_boards_painted_over_a_still_part_read_from_its_file_have_the_pixels_of_their_whole_drawings(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A still part read from the user's cache gives its pixels to the first board painted over it and
    is made again from its file for the boards after it (painted over it whole, or repainted from the
    board before): each board has the pixels of its whole drawing."""
    from pbem.mail.phone import phone_board_svg

    monkeypatch.setenv("PBEM_CACHE", str(tmp_path / "cache"))
    names = ["anna", "ben", "cleo", "dora"]
    states = list(bot_game(tmp_path, "medici", names, {}, "kept-and-read", 7))[1:6]
    raster._STILLS.clear()
    raster.draw(phone_board_svg(states[0], "anna"), FONTS)  # paints the still part and keeps its file
    for repaint in (False, True):
        raster._STILLS.clear()
        raster._BASES.clear()
        if not repaint:
            monkeypatch.setattr(raster, "REPAINTED_AT_MOST", -1.0)
        else:
            monkeypatch.undo()
            monkeypatch.setenv("PBEM_CACHE", str(tmp_path / "cache"))
        for n, state in enumerate(states):
            svg = phone_board_svg(state, names[n % len(names)])
            assert raster.draw(svg, FONTS).tobytes() == whole(svg), (repaint, n)
            [still] = raster._STILLS.values()
            assert still.kept is not None  # read from its file, not painted


@needs_fonts
def test_the_still_parts_kept_between_processes_are_the_newest_that_fit(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """However many boards a process paints, the user's cache keeps the still parts of the newest
    that fit in `KEPT_ON_DISK_BYTES`, each the same pixels read back as painted; the newest is kept
    even where it alone is more."""
    monkeypatch.setenv("PBEM_CACHE", str(tmp_path))
    folder = tmp_path / "stills"
    boards = [svg_of(STILL_PART.replace("step", f"step {n}")) for n in range(6)]
    written: list[Path] = []

    def paint(svg: str) -> None:
        raster._STILLS.clear()
        raster._painted(svg, FONTS)
        [new] = set(folder.glob("*.still")) - set(written)
        written.append(new)
        os.utime(new, ns=(len(written) * 10**9, len(written) * 10**9))  # in order, not within a clock tick

    paint(boards[0])
    size = written[0].stat().st_size
    monkeypatch.setattr(raster, "KEPT_ON_DISK_BYTES", 3 * size + size // 2)
    for svg in boards[1:]:
        paint(svg)
    assert set(folder.glob("*.still")) == set(written[-3:])
    raster._STILLS.clear()
    painted = raster._painted(boards[-3], FONTS)  # read back
    assert painted.still is not None and painted.still.kept is not None
    assert painted.shrunk().tobytes() == whole(boards[-3])
    monkeypatch.setattr(raster, "KEPT_ON_DISK_BYTES", 1)
    paint(svg_of(STILL_PART.replace("step", "step 6")))
    assert list(folder.glob("*.still")) == [written[-1]]


@needs_fonts
def test_a_cache_that_cannot_be_written_paints_the_still_part_all_the_same(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A user's cache that is a file, not a folder: the still part is painted, each time, and nothing fails."""
    blocked = tmp_path / "cache"
    blocked.write_text("not a folder")
    monkeypatch.setenv("PBEM_CACHE", str(blocked))
    svg = svg_of(STILL_PART.replace("step", "blocked"))
    for _ in range(2):
        raster._STILLS.clear()
        painted = raster._painted(svg, FONTS)
        assert painted.still is not None and painted.shrunk().tobytes() == whole(svg)
    assert blocked.read_text() == "not a folder"
