"""Pictures of the board: SVG drawn from a player's view by templates/<game>/board.svg.j2, and PNG.

`board_svg(state, viewer)` draws what `viewer` may see (None: what every player may see) from the
ruleset's own `view()`, the same data his text report is written from, so a picture can show nothing
his report does not. Every piece carries `class` and `data-*` attributes (`data-player`, `data-cell`,
`data-good`...) so that tests compare the pieces with the view. Seats have colours, and every piece
also shows its seat's number (or name), with a legend naming the players: colour alone carries no
meaning. Plain SVG 1.1, fixed viewBox 720 wide, no external resources; text in DejaVu Sans (Debian's
fonts-dejavu-core) or a generic sans-serif.

`board_png(svg)` renders it for mail, since mail clients do not show SVG: drawn by Pillow
(`pbem.raster`, which paints the part of SVG the board templates use, three times faster than a general
renderer), or by resvg (resvg-py's self-contained wheel) for anything else, such as a template a GM
changed; then reduced to a palette of colours and written as a PNG (a third of the size; the same bytes
for the same SVG).
"""

from __future__ import annotations

import io
import struct
import zlib
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import jinja2

from pbem.i18n import DEFAULT_LANGUAGE, common_words, install
from pbem.report import _load, bytecode_cache
from pbem.rules.base import get_ruleset
from pbem.templating import Environment

#: the viewer named when the ruleset is asked for what every player may see: the views hide each
#: player's secrets from everybody but him, and no player is called ""
PUBLIC = ""
FONT = "'DejaVu Sans', Verdana, Arial, sans-serif"
WIDTH = 720
#: seat colours (Okabe-Ito, told apart by the colour-blind too); pieces also show the seat number
SEAT_COLOURS = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#CC79A7", "#D55E00"]
#: Florenz families play their own colours
FAMILY_COLOURS = {"blue": "#2A6FDB", "orange": "#F08A24", "violet": "#8E5BC8", "green": "#3A9A48",
                  "black": "#333333"}
#: goods of Medici and Medici vs Strozzi (and their gold)
GOODS_COLOURS = {"linen": "#EFE6CF", "furs": "#8B5A2B", "grain": "#E8C547", "dyes": "#B03A6E",
                 "spices": "#D9632B", "metals": "#9AA5A8", "porcelain": "#BFDDF2", "cloth": "#3C7DBF",
                 "indigo": "#3B4FA8", "silk": "#E59AC0", "gold": "#D4AF37"}
DARK = {"#8B5A2B", "#B03A6E", "#3C7DBF", "#3B4FA8", "#333333", "#2A6FDB", "#8E5BC8", "#3A9A48",
        "#D9632B", "#D55E00", "#009E73", "#CC79A7"}
#: where Debian puts DejaVu Sans (fonts-dejavu-core); resvg loads only these when they are there
FONT_FILES = [Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
              Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")]


def ink(fill: str) -> str:
    """Text colour readable on `fill`."""
    return "#FFFFFF" if fill in DARK else "#000000"


def good_colour(card: str) -> str:
    return GOODS_COLOURS.get(str(card).rsplit("-", 1)[0], "#DDDDDD")


def card_parts(card: str) -> tuple[str, str]:
    good, _, value = str(card).rpartition("-")
    return good, value


def english(message: str, **variables: Any) -> str:
    """A board's words as written, where its environment has no language (`_` of the templates)."""
    return message % variables if variables else message


def english_n(singular: str, plural: str, num: int, **variables: Any) -> str:
    """`english` for a word counted (`ngettext` of the templates)."""
    return (singular if num == 1 else plural) % {"num": num, **variables}


def pick(items: list[Any], words: dict[Any, Any]) -> list[Any]:
    """Each item's word in `words` (an item with none: itself)."""
    return [words.get(item, item) for item in items]


@lru_cache(maxsize=4096)
def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of `text` in DejaVu Sans at `size` units, as pbem.raster draws it (no font: an
    estimate of 0.62 em a character)."""
    fonts = _fonts()
    if len(fonts) < len(FONT_FILES):
        return len(text) * size * 0.62
    return float(_measuring_font(fonts[1 if bold else 0]).getlength(text)) * size / 100


@cache
def _measuring_font(path: str) -> Any:
    """DejaVu Sans at 100 units, read once a process (FreeType's loading of a face costs more than
    measuring a board's words)."""
    from PIL import ImageFont

    return ImageFont.truetype(path, 100)


def _environment(extensions: list[str]) -> jinja2.Environment:
    kind = "pictures-i18n" if extensions else "pictures"  # each compiles differently
    e = Environment(loader=jinja2.FunctionLoader(_load), autoescape=True, keep_trailing_newline=True,
                    undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                    bytecode_cache=bytecode_cache(kind), extensions=extensions)
    e.globals.update(FONT=FONT, WIDTH=WIDTH, ink=ink, good_colour=good_colour, card_parts=card_parts,
                     family_colours=FAMILY_COLOURS,
                     pick=pick, text_width=text_width)
    return e


def english_p(context: str, message: str, **variables: Any) -> str:
    """`english` for a word with its context (`pgettext` of the templates)."""
    return english(message, **variables)


@cache
def env() -> jinja2.Environment:
    """The board templates in English: their words as written, through the same `_`, `ngettext` and
    `pgettext` the other languages' templates get (so a template says each word once)."""
    e = _environment([])
    e.globals.update(_=english, gettext=english, ngettext=english_n, pgettext=english_p, common_=english)
    return e


@cache
def env_for(lang: str = DEFAULT_LANGUAGE, game: str | None = None) -> jinja2.Environment:
    """The board templates with the words of `lang` (the game's catalog, then the common one); English
    is `env()` itself. One environment per language and game, made once."""
    if lang == DEFAULT_LANGUAGE:
        return env()
    e = _environment(["jinja2.ext.i18n"])
    install(e, lang, game)
    e.globals["common_"] = common_words(lang)  # a word of pbem's catalog alone, as reports say it
    return e


def picture_env(lang: str, game: str) -> jinja2.Environment:
    """The environment a board of `game` is drawn in for a reader of `lang`."""
    return env() if lang == DEFAULT_LANGUAGE else env_for(lang, game)


def seats(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Each seat: its number (1...), name and colour."""
    names = [p["name"] for p in state["players"]]
    return [{"n": i + 1, "name": name, "colour": SEAT_COLOURS[i % len(SEAT_COLOURS)]}
            for i, name in enumerate(names)]


def board_svg(state: dict[str, Any], viewer: str | None, when: str | None = None,
              lang: str = DEFAULT_LANGUAGE) -> str:
    """The SVG text of the board as `viewer` may see it (None: what every player may see), its words in
    `lang`. Its title names `when` it is drawn ("after turn 65"), by default the decision the game
    waits for ("turn 66")."""
    return render_board(state, viewer, f"{state['ruleset']}/board.svg.j2", lang, when=when or "")


def render_board(state: dict[str, Any], viewer: str | None, template: str, lang: str = DEFAULT_LANGUAGE,
                 **extra: Any) -> str:
    """A board template rendered from `viewer`'s view (None: what every player may see), in `lang`."""
    names = [p["name"] for p in state["players"]]
    if viewer is not None and viewer not in names:
        raise ValueError(f"game {state['game']!r} has no player {viewer!r}")
    ruleset = get_ruleset(state["ruleset"])
    view = ruleset.view(state["engine"], PUBLIC if viewer is None else viewer)
    seat_list = seats(state)
    return picture_env(lang, state["ruleset"]).get_template(template).render(
        view=view, viewer=viewer, game=state["game"], title=ruleset.title, status=state["status"],
        turn=state["engine"]["turn"], seats=seat_list, seat={s["name"]: s for s in seat_list},
        board=ruleset.picture_board(), **extra)


@cache
def _fonts() -> list[str]:
    return [str(f) for f in FONT_FILES if f.is_file()]


#: colours of a board's PNG palette: the drawings use a few dozen, the rest are the edges' blends (at 32
#: the octree merges the pale fills of the tracks and bonus steps into white)
PNG_COLOURS = 64
#: the palette is chosen from every `PALETTE_SAMPLE`-th pixel of every `PALETTE_SAMPLE`-th row, and each pixel
#: then takes its nearest colour in it: measured on Medici boards for a phone (720x1236), the octree over
#: every pixel takes 5.4 ms, over every second pixel of every second row 3.3 ms (a mean error of 2.5 a
#: channel), over every third about 16M instructions less a game of the Medici run than every second,
#: for a mean error of 2.6 (at most 2.9, and 0.03% of pixels off by more than 24, as at every second)
#: and PNGs of the same size; a line a pixel wide may be missed by the sample either way, and then takes
#: the nearest colour
PALETTE_SAMPLE = 3
#: zlib's level for a board's pixels, measured on a Medici board for a phone (720x1236, 64 colours, rows
#: unfiltered): level 3 takes 2.2 ms for 42 KB, level 1 1.8 ms for 46 KB, level 4 3.1 ms for 39 KB and
#: level 6 5 ms for 36 KB; the Up filter makes every level bigger (the palette's indices are no gradient)
PNG_LEVEL = 3


@lru_cache(maxsize=32)  # players who may see the same board share one picture in a run
def board_png(svg: str) -> bytes:
    """PNG bytes of an SVG, reduced to a palette of `PNG_COLOURS` colours (fast octree over a sample of
    its pixels, each pixel then its nearest colour; no dithering: flat colours and crisp text stay so),
    about a third of the size of the full-colour image. The same SVG gives the same bytes."""
    from PIL import Image

    image = _indexed_drawing(_drawing(svg))
    # each row behind its filter byte (0, none): the image pasted one pixel right of a column of zeros
    framed = Image.new("P", (image.size[0] + 1, image.size[1]), 0)
    framed.paste(image, (1, 0))
    return _png(image.size, bytes(image.getpalette() or []), framed.tobytes())


def indexed(drawn: Any) -> Any:
    """An RGB picture as one of `PNG_COLOURS` palette colours a pixel: the palette the fast octree's over
    a sample of its pixels, each pixel then its nearest colour in it."""
    from PIL import Image

    width, height = drawn.size
    sample = drawn.resize((max(1, width // PALETTE_SAMPLE), max(1, height // PALETTE_SAMPLE)),
                          Image.Resampling.NEAREST)
    palette = sample.quantize(PNG_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return drawn.quantize(palette=palette, dither=Image.Dither.NONE)


def _indexed_drawing(drawing: Any) -> Any:
    """A drawing (`pbem.raster.Drawing`) in palette colours (`indexed`). A kept board with its viewer's
    words drawn over it takes the board's palette and the board's pixels in it, made once for all its
    viewers, and only the words' pixels are matched to it: the same picture for the same SVG, whoever
    was drawn before."""
    from PIL import Image

    base = drawing.base
    if base is None:
        return indexed(drawing.image)
    if base.indexed is None:
        base.indexed = indexed(base.shown)
    image = base.indexed.copy()
    for patch, at in drawing.patches:
        image.paste(patch.quantize(palette=base.indexed, dither=Image.Dither.NONE), at)
    return image


def png_bytes(size: tuple[int, int], palette: bytes, pixels: bytes) -> bytes:
    """A palette PNG (8-bit indices, rows unfiltered, zlib at `PNG_LEVEL`): a tenth bigger than Pillow's
    own (which filters its rows at level 6) in a third of its time, and no image plugins to import."""
    width, height = size
    return _png(size, palette, b"".join(b"\0" + pixels[y * width:(y + 1) * width] for y in range(height)))


def _png(size: tuple[int, int], palette: bytes, rows: bytes) -> bytes:
    """The PNG of `rows`: each row of 8-bit palette indices behind its filter byte."""
    width, height = size

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))
            + chunk(b"PLTE", palette) + chunk(b"IDAT", zlib.compress(rows, PNG_LEVEL)) + chunk(b"IEND", b""))


def _drawn(svg: str) -> Any:
    """The RGB image of an SVG (`_drawing`)."""
    return _drawing(svg).image


def _drawing(svg: str) -> Any:
    """An SVG drawn (a `pbem.raster.Drawing`): by Pillow (`pbem.raster`) when it is pbem's own
    vocabulary and DejaVu Sans is there, else by resvg (all of SVG, and the system's fonts)."""
    from PIL import Image

    from pbem import raster

    fonts = _fonts()
    if len(fonts) == len(FONT_FILES):
        try:
            return raster.drawing(svg, (Path(fonts[0]), Path(fonts[1])))
        except Exception:  # outside its vocabulary, a font FreeType cannot read...: resvg draws all SVG
            pass
    import resvg_py

    rendered = bytes(resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff", font_files=fonts or None,
                                           skip_system_fonts=bool(fonts)))
    with Image.open(io.BytesIO(rendered)) as image:
        return raster.Drawing(image.convert("RGB"))
