"""Pillow draws the board SVGs pbem writes itself, three times faster than a general SVG renderer.

The board templates use a small part of SVG: `g`, `rect` (with `rx`), `circle`, `line`, `path` made of
straight lines (M, L, Z), and one-line `text` in DejaVu Sans, with fill, stroke, stroke width, dashes,
font size and weight, and text anchor (inherited from the enclosing groups, as in SVG). `draw` paints
exactly that, at `SUPERSAMPLE` times the size, then shrinks the image by averaging (the anti-aliasing).
A picture whose size is a whole multiple of its viewBox is drawn that many times larger.
Anything else (a transform, an opacity, a curve, a template a GM changed) raises `Unsupported`, and the
caller hands the SVG to resvg, which draws all of SVG.

Words marked `data-mark="viewer"` are those drawn as their viewer sees them (the line that names him,
his own name in bold). A board that is the same for several viewers but for these words is drawn once
(`draw` keeps the last few), and each viewer's words are drawn over a copy, in the few pixels they
cover: the pixels of the whole drawing, since a board is only shared where nothing drawn after such
words lies under them.

The groups marked `data-layer="still"` are a board's still part: what every board of its template,
language and size draws alike (Medici's goods tracks, their labels and steps; Florenz's locations, their
names and cup slots). It is painted once and kept (`KEPT_STILL` a process, `KEPT_ON_DISK_BYTES` in the
user's cache for the processes after, named by everything that decides its pixels), and each board is painted
over a copy: the rest in document order after it, the same pixels as long as nothing of the rest meets a
still shape or word that comes after it (else the board is painted in order); only the squares (`TILE`)
something was painted in are shrunk anew, the rest are the still part's own shrunk pixels. Words on a
ground of one colour are inked once for that ground, then pasted.

A board painted over the same still part as the board before it (the same game's next board, another
player's view of it) is repainted from that one: every shape and word paints a pixel from the pixel
under it alone, so a pixel that the same shapes and words meet, in the same order, is the same; only
the squares where a shape or word of either board is not the other's are painted anew (by everything
that meets them, on the still part) and shrunk anew. A board drawn so has the pixels of its whole
drawing, whatever came before it.
"""

from __future__ import annotations

import math
import os
import re
import struct
import zlib
import xml.etree.ElementTree as ET
from collections import OrderedDict
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageColor, ImageDraw, ImageFont
from PIL import __version__ as PIL_VERSION

from pbem import digests

#: how many times larger than the picture it is drawn before being shrunk (edges get 4 shades)
SUPERSAMPLE = 2
SVG_NS = "{http://www.w3.org/2000/svg}"
#: the presentation attributes drawn here; each passes from a group to what it holds
INHERITED = ("fill", "stroke", "stroke-width", "stroke-dasharray", "font-size", "font-weight",
             "text-anchor", "font-family")
#: attributes that change nothing drawn (what pbem's tests read, and the element's own id)
IGNORED = ("class", "id", "version", "viewBox", "width", "height")
SHAPE = {"rect": ("x", "y", "width", "height", "rx"), "circle": ("cx", "cy", "r"),
         "line": ("x1", "y1", "x2", "y2"), "path": ("d",), "text": ("x", "y"), "g": (), "svg": (),
         "title": ()}
PATH_TOKEN = re.compile(r"[MLZmlz]|-?\d+(?:\.\d+)?")
ANCHOR = {"start": "ls", "middle": "ms", "end": "rs"}  # SVG's text-anchor as Pillow's, on the baseline


class Unsupported(ValueError):
    """The SVG uses something `draw` does not paint."""


@cache
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def draw(svg: str, fonts: tuple[Path, Path]) -> Image.Image:
    """The picture of `svg` as an RGB image, its text in `fonts` (regular, bold); raises `Unsupported`.
    A board already drawn for another viewer but for his marked words is that drawing with these."""
    return drawing(svg, fonts).image.copy()


class Drawing:  # not a dataclass: each costs this module's import a third of a millisecond or more
    """A picture drawn (`drawing`): the whole of it; where it is a kept board with its viewer's words
    drawn over it, that board (`base`) and the words' pixels to paste over it (each patch, shrunk, and
    its place), the whole picture made from them when it is asked for (a PNG is made of the board's
    palette and the patches alone)."""

    __slots__ = ("whole", "base", "patches")
    whole: Image.Image | None
    base: Painted | None
    patches: list[tuple[Image.Image, tuple[int, int]]]

    def __init__(self, whole: Image.Image | None, base: Painted | None = None) -> None:
        self.whole, self.base, self.patches = whole, base, []

    @property
    def image(self) -> Image.Image:
        if self.whole is None:
            assert self.base is not None and self.base.shown is not None
            self.whole = self.base.shown.copy()
            for patch, at in self.patches:
                self.whole.paste(patch, at)
        return self.whole


def drawing(svg: str, fonts: tuple[Path, Path]) -> Drawing:
    """`draw`, saying where the picture is a kept board with its viewer's words over it (so that what
    is made of the board, such as its PNG palette, is made once for its viewers too)."""
    marks = _MARKS.findall(svg)
    if not marks:
        return Drawing(_painted(svg, fonts).shrunk())
    key = (_TITLE.sub("", _MARKS.sub("\0", svg)), fonts)
    base = _BASES.get(key)
    if base is None:
        base = _BASES[key] = _painted(svg, fonts, apart=True)
        base.shown = base.shrunk()
        while len(_BASES) > KEPT:
            _BASES.popitem(last=False)
    else:
        _BASES.move_to_end(key)
    shown = base.over(marks, fonts)
    return shown if shown is not None else Drawing(_painted(svg, fonts).shrunk())


#: the attribute of words drawn as their viewer sees them, and how they stand in a board's SVG
VIEWER_MARK = 'data-mark="viewer"'
_MARKS = re.compile(r'<text\b[^<>]*\s' + VIEWER_MARK + r'[^<>]*>[^<]*</text>')
_TITLE = re.compile(r"<title>[^<]*</title>")
#: the boards drawn apart from their viewers' words that are kept (those of the game being posted)
KEPT = 2
DEFAULTS = {"fill": "#000000", "stroke": "none", "stroke-width": "1", "font-size": "16", "font-weight": "normal",
            "text-anchor": "start"}


Box = tuple[float, float, float, float]


class Painted:
    """A picture painted `SUPERSAMPLE` times its size (`scale`: pixels a unit); drawn apart from its
    viewer's words: where each would be painted (its place in the painting order, and the style its
    groups give it), and the box of every shape or word painted after the first of them."""

    __slots__ = ("image", "scale", "slots", "later", "shown", "cleared", "indexed", "still", "dirty",
                 "signatures", "boxes", "since", "reduced")
    image: Image.Image
    scale: int
    slots: list[tuple[int, dict[str, str]]]
    later: list[tuple[int, Box]]
    shown: Image.Image | None
    cleared: dict[tuple[int, Box], bool]
    #: `shown` in a palette's colours, where a caller made it once for all its viewers (pbem.pictures)
    indexed: Image.Image | None
    #: painted over a copy of a board's still part: that part, and the box of everything painted over it
    still: Still | None
    dirty: list[Box] | None
    #: what was painted over the still part, in order (each element's `_signature`, and its box)
    signatures: list[object] | None
    boxes: list[Box] | None
    #: repainted from the board before it over the same still part: that board, and the squares repainted
    since: tuple[Painted, list[tuple[int, int, int, int]]] | None
    #: `shrunk()`, made once
    reduced: Image.Image | None

    def __init__(self, image: Image.Image, scale: int, slots: list[tuple[int, dict[str, str]]],
                 later: list[tuple[int, Box]], still: Still | None = None, dirty: list[Box] | None = None) -> None:
        self.image, self.scale, self.slots, self.later, self.still, self.dirty = image, scale, slots, later, still, dirty
        self.shown = self.indexed = self.signatures = self.boxes = self.since = self.reduced = None
        self.cleared = {}

    def shrunk(self) -> Image.Image:
        """The picture at its size, each pixel the mean of the `SUPERSAMPLE` x `SUPERSAMPLE` it was
        painted as; over a still part, its own shrunk pixels but in the squares something was painted in;
        repainted from the board before, that board's shrunk pixels but in the squares repainted.
        Made once; the image is shared, not to be changed."""
        if self.reduced is None:
            self.reduced = self._shrink()
            if self.still is not None and self.signatures is not None:
                self.still.last = self  # the next board over this still part is repainted from this one
        return self.reduced

    def _shrink(self) -> Image.Image:
        k = SUPERSAMPLE
        if self.since is not None:
            before, squares = self.since
            shown = before.shrunk().copy()
            for left, top, right, bottom in squares:
                shown.paste(self.image.reduce(k, box=(left, top, right, bottom)), (left // k, top // k))
            self.since = None  # the board before is no longer needed
            return shown
        still = self.still
        shown = still.fresh_shown() if still is not None and self.dirty is not None else None
        if shown is None:
            if still is not None and self.dirty is not None and not still.shrunk_once:
                # the first board over a still part painted here: the still part is shrunk when a second comes
                still.shrunk_once = True
                return self.image.reduce(k)
            if still is None or self.dirty is None or (still.image is None and still.kept is None):
                return self.image.reduce(k)  # (the last: a still part let go since, its pixels gone)
            still.shown = still.painted().reduce(k)
            shown = still.shown.copy()
        width, height = self.image.size
        for left, top, right, bottom in _squares(self.dirty, TILE * k, width, height):
            shown.paste(self.image.reduce(k, box=(left, top, right, bottom)), (left // k, top // k))
        return shown

    def over(self, marks: list[str], fonts: tuple[Path, Path]) -> Drawing | None:
        """The picture shrunk, with the viewer's words `marks` (their SVG, in order) drawn over it; None
        where that would not be the whole drawing's (a word under something painted after it, or two
        words in the same pixels)."""
        if len(marks) != len(self.slots) or self.shown is None:
            return None
        shown = Drawing(None, self)
        taken: list[Box] = []
        width, height = self.image.size
        for mark, (index, style) in zip(marks, self.slots):
            found: list[tuple[ET.Element, dict[str, str]]] = []
            _collect(ET.fromstring(mark), style, found, None)
            element, own = found[0]
            box = _text_box(element, own, fonts, self.scale)
            if box is None:
                continue
            if not _clear(self, index, box):
                return None
            k = SUPERSAMPLE
            region = (max(0, math.floor(box[0] / k) * k), max(0, math.floor(box[1] / k) * k),
                      min(width, math.ceil(box[2] / k) * k), min(height, math.ceil(box[3] / k) * k))
            if region[0] >= region[2] or region[1] >= region[3]:
                continue
            if any(_meet(region, other) for other in taken):
                return None
            taken.append(region)
            patch = self.image.crop(region)
            _text(patch, ImageDraw.Draw(patch), element, own, _colour(own["fill"]), fonts, self.scale,
                  origin=(int(region[0]), int(region[1])))
            shrunk, at = patch.reduce(k), (int(region[0]) // k, int(region[1]) // k)
            shown.patches.append((shrunk, at))
        return shown


_BASES: OrderedDict[tuple[str, tuple[Path, Path]], Painted] = OrderedDict()


def _squares(boxes: list[Box], tile: int, width: int, height: int) -> list[tuple[int, int, int, int]]:
    """The squares of side `tile` of a picture `width` x `height` that any of `boxes` meets, as few
    rectangles: each row's runs of squares, a run as wide as the one above it joined to it."""
    columns, rows = -(-width // tile), -(-height // tile)
    met = [bytearray(columns) for _ in range(rows)]
    for x0, y0, x1, y1 in boxes:
        if x1 <= x0 or y1 <= y0:
            continue
        c0, c1 = max(0, int(x0 // tile)), min(columns - 1, int(x1 // tile))
        if c0 > c1:
            continue
        run = b"\1" * (c1 - c0 + 1)
        for r in range(max(0, int(y0 // tile)), min(rows - 1, int(y1 // tile)) + 1):
            met[r][c0:c1 + 1] = run
    done: list[tuple[int, int, int, int]] = []
    open_runs: dict[tuple[int, int], int] = {}  # a run of squares (its first and last column): its top row
    for r, row in enumerate(met + [bytearray(columns)]):
        runs, c = set(), 0
        while True:
            c = row.find(1, c)
            if c < 0:
                break
            e = row.find(0, c)
            e = columns if e < 0 else e
            runs.add((c, e))
            c = e
        for run in [run for run in open_runs if run not in runs]:
            top = open_runs.pop(run)
            done.append((run[0] * tile, top * tile, min(width, run[1] * tile), min(height, r * tile)))
        for run in runs:
            open_runs.setdefault(run, r)
    return done


def _clear(painted: Painted, index: int, box: Box) -> bool:
    """Whether nothing painted after the `index`-th element meets `box` (asked once a box and place)."""
    known = painted.cleared.get((index, box))
    if known is None:
        known = painted.cleared[(index, box)] = not any(
            after > index and _meet(box, other) for after, other in painted.later)
    return known


def _meet(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _painted(svg: str, fonts: tuple[Path, Path], apart: bool = False, still: bool = True) -> Painted:
    """`svg` painted `SUPERSAMPLE` times its size; `apart`: without its viewer's words. Its still part
    (the groups `data-layer="still"`) is painted once and kept, and the rest painted over a copy, where
    nothing of the rest meets a still shape or word after it (else, or without `still`, all is painted
    in order)."""
    root = ET.fromstring(svg)
    if root.tag != f"{SVG_NS}svg":
        raise Unsupported(f"the root is {root.tag!r}, not svg")
    width, height = _number(root, "width"), _number(root, "height")
    if width != int(width) or height != int(height):
        raise Unsupported(f"a size of {width:g} x {height:g}, not whole pixels")
    # the picture's size a whole multiple of its viewBox: drawn that many times larger (a board for a
    # phone is drawn at twice its size, for a screen of two pixels or more to the CSS pixel)
    scale = next((k for k in (1, 2, 3, 4) if root.get("viewBox", f"0 0 {width:g} {height:g}").split()
                  == ["0", "0", f"{width / k:g}", f"{height / k:g}"]), None)
    if scale is None:
        raise Unsupported(f"the viewBox {root.get('viewBox')!r} is not the picture's size")
    size = (int(width) * SUPERSAMPLE, int(height) * SUPERSAMPLE)
    s = SUPERSAMPLE * scale
    groups: dict[ET.Element, dict[str, str]] | None = {} if apart else None
    found: list[tuple[ET.Element, dict[str, str]]] = []
    layer: list[tuple[int, int]] = []
    _collect(root, DEFAULTS, found, groups, layer if still else None)
    kept = _still(found, layer, groups, fonts, s, size)
    if kept is not None:
        return _painted_over(kept, found, layer, groups, fonts, s)
    return _painted_in_order(found, groups, fonts, s, size)


class Still:
    """A board's still part painted on white, `SUPERSAMPLE` times larger (`image`); the box of each of
    its shapes and words, and whether it painted nothing at all; shrunk (`shown`) once a second board
    is painted over it (a process that posts one board shrinks that board alone). Read from the
    user's cache, its pixels are made from the file's where they are wanted (`kept`): the first board
    painted over it takes them, with no copy."""

    __slots__ = ("image", "extents", "blank", "shown", "shrunk_once", "kept", "cells", "last")
    image: Image.Image | None
    extents: list[Box]
    blank: bool
    shown: Image.Image | None
    shrunk_once: bool
    kept: KeptPixels | None
    #: the still shapes and words (their places in `extents`) by the squares of side `CELL` they meet
    cells: dict[tuple[int, int], list[int]] | None
    #: the board last painted over it and shrunk: the next is repainted from it where they differ
    last: Painted | None

    def __init__(self, image: Image.Image | None, extents: list[Box], blank: bool,
                 kept: KeptPixels | None = None) -> None:
        self.image, self.extents, self.blank, self.kept = image, extents, blank, kept
        self.shown = self.cells = self.last = None
        self.shrunk_once = False

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size if self.image is not None else self.kept.size  # type: ignore[union-attr]

    def painted(self) -> Image.Image:
        """The still part as painted, kept to paint from (made once)."""
        if self.image is None:
            assert self.kept is not None
            self.image = self.kept.image(1)
        return self.image

    def fresh(self) -> Image.Image:
        """A copy of the still part as painted, to paint over."""
        if self.image is None and self.kept is not None:
            return self.kept.image(1)
        return self.painted().copy()

    def fresh_shown(self) -> Image.Image | None:
        """A copy of the still part shrunk, where it is made (None: not yet)."""
        if self.shown is None and self.kept is not None:
            return self.kept.image(SUPERSAMPLE)
        return self.shown.copy() if self.shown is not None else None

    def meets(self, box: Box, after: int) -> bool:
        """Whether `box` meets a still shape or word from the `after`-th on (those painted after it)."""
        if after >= len(self.extents) or box[2] <= box[0] or box[3] <= box[1]:
            return False
        cells = self.cells
        if cells is None:
            cells = self.cells = {}
            for k, extent in enumerate(self.extents):
                if extent[2] > extent[0] and extent[3] > extent[1]:
                    for cell in _cells(extent):
                        cells.setdefault(cell, []).append(k)
        extents = self.extents
        return any(k >= after and _meet(box, extents[k]) for cell in _cells(box) for k in cells.get(cell, ()))


#: the side, in painted pixels, of the squares a still part's shapes are found by
CELL = 128


class KeptPixels:
    """A still part's pixels as its file in the user's cache keeps them: the squares its shapes and
    words meet, painted and shrunk, each pair from its offset in `data`; white elsewhere."""

    __slots__ = ("data", "size", "pieces")
    data: memoryview
    size: tuple[int, int]
    pieces: list[tuple[tuple[int, int, int, int], int]]  # each square, and where its painted pixels begin

    def __init__(self, data: memoryview, size: tuple[int, int],
                 pieces: list[tuple[tuple[int, int, int, int], int]]) -> None:
        self.data, self.size, self.pieces = data, size, pieces

    def image(self, scale: int) -> Image.Image:
        """The still part painted (`scale` 1) or shrunk (`SUPERSAMPLE`)."""
        width, height = self.size
        picture = Image.new("RGB", (width // scale, height // scale), "#FFFFFF")
        for (x0, y0, x1, y1), at in self.pieces:
            if scale != 1:
                at += 4 * (x1 - x0) * (y1 - y0)
            w, h = (x1 - x0) // scale, (y1 - y0) // scale
            picture.paste(Image.frombytes("RGB", (w, h), self.data[at:at + 4 * w * h], "raw", "RGBX"),
                          (x0 // scale, y0 // scale))
        return picture


def _cells(box: Box) -> list[tuple[int, int]]:
    return [(x, y) for x in range(int(box[0] // CELL), int(box[2] // CELL) + 1)
            for y in range(int(box[1] // CELL), int(box[3] // CELL) + 1)]


#: the value of `data-layer` that marks a board's still part: what every board of its template,
#: language and size draws alike (the frame, tracks, printed labels), painted once a process
STILL = "still"
#: the still parts kept (a run posts the boards of a game or two templates, in a language or two)
KEPT_STILL = 4
_STILLS: OrderedDict[tuple[object, ...], Still] = OrderedDict()
#: the side of the squares, in pixels of the picture, that are shrunk anew where something was painted
#: over the still part (the rest is the still part's own shrunk pixels)
TILE = 16


def _still(found: list[tuple[ET.Element, dict[str, str]]], layer: list[tuple[int, int]],
           groups: dict[ET.Element, dict[str, str]] | None, fonts: tuple[Path, Path], s: int,
           size: tuple[int, int]) -> Still | None:
    """The still part of a board (`layer`: where its groups' elements lie in `found`), painted or kept;
    None where there is none, or a viewer's word lies in it."""
    part = [found[index] for start, end in layer for index in range(start, end)]
    if not part or (groups and any(element in groups for element, _ in part)):
        return None
    key = (size, s, fonts, tuple(_signature(element, style) for element, style in part))
    still = _STILLS.get(key)
    if still is not None:
        _STILLS.move_to_end(key)
        return still
    kept = _kept_file(key, fonts)
    still = _read_still(kept, size, len(part)) if kept is not None else None
    if still is None:
        image = Image.new("RGB", size, "#FFFFFF")
        pen = ImageDraw.Draw(image)
        blank = True
        for element, style in part:
            if blank and _white_fill_alone(element, style):
                continue
            blank = False
            _paint(image, pen, element, style, fonts, s)
        still = Still(image, [_extent(element, style, fonts, s) for element, style in part], blank)
        if kept is not None:
            _write_still(kept, still)
    _STILLS[key] = still
    while len(_STILLS) > KEPT_STILL:
        _, gone = _STILLS.popitem(last=False)
        # a board kept for its viewers may still name it, but paints from it no more: its pixels go
        gone.last, gone.image, gone.shown, gone.kept = None, None, None, None
    return still


# -- the still parts kept between processes ------------------------------------------------------------

#: the bytes of the still parts kept in the user's cache (pbem.usercache), each the pixels of the squares
#: its shapes and words may paint, painted and shrunk (a Medici board's for a phone: about 5 MB, a
#: Florenz one's 12): the newest used, as many as fit (the newest always). Each board (phone, archive),
#: language and number of seats has its own, and Florenz more (its rows grow with what stands there): eight
#: files were too few for the next run to find its own (one Florenz game by mail in three languages wrote
#: 24 of them)
KEPT_ON_DISK_BYTES = 256 * 2**20
#: the first bytes of a still part's file; a file of another format, cut short or another's is painted again
STILL_MAGIC = b"pbem-still 2\n"
#: its key, the board's size, blank, how many extents and pieces of pixels, the crc32 of what follows
#: up to the pixels (the extents and the pieces' boxes)
_STILL_HEAD = struct.Struct(">32sIIBIII")
#: the side of the squares, in painted pixels, whose pixels are kept where a still shape or word meets them
KEPT_SQUARE = TILE * SUPERSAMPLE


def _kept_file(key: tuple[object, ...], fonts: tuple[Path, Path]) -> Path | None:
    """Where the still part of `key` is kept between processes: named by everything that decides its
    pixels (its shapes and words, the fonts' files, Pillow, this module's code); None without fonts."""
    from pbem.usercache import user_cache

    try:
        stamps = [(str(font), font.stat().st_size, font.stat().st_mtime_ns) for font in fonts]
    except OSError:
        return None
    digest = digests.sha256(repr((key, stamps, PIL_VERSION, _source())).encode()).hexdigest()
    return Path(user_cache()) / "stills" / f"{digest}.still"


@cache
def _source() -> str:
    """The digest of this module's source: a change to how it paints paints every still part again."""
    return digests.sha256(Path(__file__).read_bytes()).hexdigest()


def _write_still(path: Path, still: Still) -> None:
    """Keep a still part in `path`: the pixels, painted and shrunk (`still.shown`, made now), of the
    squares its shapes and words meet (white elsewhere), in Pillow's own layout of four bytes a pixel;
    written whole or not at all, and the oldest files beyond `KEPT_ON_DISK_BYTES` removed. A cache that
    cannot be written is none."""
    size = still.image.size
    k = SUPERSAMPLE
    pieces = [] if still.blank else _squares(still.extents, KEPT_SQUARE, *size)
    still.shown = Image.new("RGB", (size[0] // k, size[1] // k), "#FFFFFF")
    pixels = []
    for box in pieces:
        piece = still.image.crop(box)
        shrunk = piece.reduce(k)
        still.shown.paste(shrunk, (box[0] // k, box[1] // k))
        pixels += [piece.tobytes("raw", "RGBX"), shrunk.tobytes("raw", "RGBX")]
    boxes = struct.pack(f">{4 * len(still.extents)}d{4 * len(pieces)}I",
                        *(v for e in still.extents for v in e), *(v for box in pieces for v in box))
    head = _STILL_HEAD.pack(bytes.fromhex(path.stem), *size, still.blank, len(still.extents), len(pieces),
                            zlib.crc32(boxes))
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        part_file = path.with_name(f"{path.name}.{os.getpid()}.part")
        part_file.write_bytes(b"".join([STILL_MAGIC, head, boxes, *pixels]))
        os.replace(part_file, path)
        with os.scandir(path.parent) as entries:
            others = sorted(((entry.stat().st_mtime_ns, entry.stat().st_size, entry.path) for entry in entries
                             if entry.name.endswith(".still") and entry.name != path.name), reverse=True)
        total = path.stat().st_size  # the file just written is kept, whatever its time says
        for _, size_of, old in others:
            total += size_of
            if total > KEPT_ON_DISK_BYTES:
                try:
                    os.unlink(old)
                except FileNotFoundError:  # another process's run removed it first
                    pass
    except OSError:
        pass


def _read_still(path: Path, size: tuple[int, int], count: int) -> Still | None:
    """The still part kept in `path` for a board of `size` with `count` still shapes and words; None
    where there is none, or the file is cut short, spoilt or another's."""
    try:
        data = memoryview(path.read_bytes())
    except OSError:
        return None
    at = len(STILL_MAGIC) + _STILL_HEAD.size
    if len(data) < at or data[:len(STILL_MAGIC)] != STILL_MAGIC:
        return None
    key, width, height, blank, extents, count_pieces, crc = _STILL_HEAD.unpack_from(data, len(STILL_MAGIC))
    layout = struct.Struct(f">{4 * extents}d{4 * count_pieces}I")
    if (key != bytes.fromhex(path.stem) or (width, height) != size or extents != count
            or len(data) < at + layout.size or zlib.crc32(data[at:at + layout.size]) != crc):
        return None
    numbers = layout.unpack_from(data, at)
    at += layout.size
    k = SUPERSAMPLE
    pieces = [numbers[i:i + 4] for i in range(4 * extents, len(numbers), 4)]
    if any(not (0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height) or (x0 | y0 | x1 | y1) % k
           for x0, y0, x1, y1 in pieces) \
            or len(data) != at + 4 * sum((x1 - x0) * (y1 - y0) + (x1 - x0) // k * ((y1 - y0) // k)
                                          for x0, y0, x1, y1 in pieces):
        return None
    offsets = []
    for x0, y0, x1, y1 in pieces:
        offsets.append(((x0, y0, x1, y1), at))
        at += 4 * ((x1 - x0) * (y1 - y0) + (x1 - x0) // k * ((y1 - y0) // k))
    try:
        os.utime(path)  # the newest used is the last removed
    except OSError:
        pass
    return Still(None, [tuple(numbers[i:i + 4]) for i in range(0, 4 * extents, 4)], bool(blank),  # type: ignore[misc]
                 kept=KeptPixels(data, size, offsets))


def _painted_over(still: Still, found: list[tuple[ET.Element, dict[str, str]]], layer: list[tuple[int, int]],
                  groups: dict[ET.Element, dict[str, str]] | None, fonts: tuple[Path, Path], s: int
                  ) -> Painted:
    """`_painted` over a copy of the still part: the rest painted in order after it (the same pixels, as
    nothing of the rest meets a still shape or word that comes after it); `_painted` in order where
    something does."""
    kept = bytearray(len(found))
    for start, end in layer:
        kept[start:end] = b"\1" * (end - start)
    blank = True  # nothing painted yet, in document order: a white ground there changes no pixel
    boxes: dict[int, Box] = {}  # the rest as painted (a white ground on white is not), and its box
    passed = 0  # the still shapes and words before the element
    for index, (element, style) in enumerate(found):
        if kept[index]:
            passed += 1
            if blank and not _white_fill_alone(element, style):
                blank = False
            continue
        if groups is not None and element in groups:
            continue
        if blank and _white_fill_alone(element, style):
            continue
        blank = False
        box = boxes[index] = _extent(element, style, fonts, s)
        if still.meets(box, passed):
            return _painted_in_order(found, groups, fonts, s, still.size)
    painted = Painted(None, s, [], [], still=still, dirty=[])  # type: ignore[arg-type]  # its image comes below
    passed = 0
    for index, (element, style) in enumerate(found):
        if groups is not None and element in groups:
            painted.slots.append((index, groups[element]))
            continue
        if kept[index]:
            if painted.slots:
                painted.later.append((index, still.extents[passed]))
            passed += 1
            continue
        box = boxes.get(index)
        if box is None:
            continue  # a white ground on a white picture
        if painted.slots:
            painted.later.append((index, box))
        painted.dirty.append(box)
    order = list(boxes)
    painted.signatures = [_signature(*found[index]) for index in order]
    painted.boxes = list(boxes.values())
    squares = _repainted(still.last, painted) if still.last is not None else None
    if squares is None:
        painted.image = still.fresh()
        pen = ImageDraw.Draw(painted.image)
        for index in order:
            _paint(painted.image, pen, *found[index], fonts, s)
        return painted
    # a pixel outside the squares is painted by the same shapes and words, in the same order, as the board
    # before (each of them paints a pixel from the one under it alone): those squares alone are painted
    # anew, on the still part itself, by whatever meets them; then the still part is made itself again
    before = still.last
    assert before is not None
    canvas = still.painted()
    width, height = canvas.size
    over = [index for index, box in boxes.items() if any(_meet(box, square) for square in squares)]
    regions = [(max(0, math.floor(x0)), max(0, math.floor(y0)), min(width, math.ceil(x1) + 1),
                min(height, math.ceil(y1) + 1)) for x0, y0, x1, y1 in (boxes[index] for index in over)]
    under = [(region, canvas.crop(region)) for region in regions if region[0] < region[2] and region[1] < region[3]]
    # the board before has been shrunk, and its pixels move on to this one: it is painted from no more
    # (a viewer of it who comes later gets it repainted, from the last board, as this one is)
    image, still.last = before.image, None
    for key in [key for key, kept in _BASES.items() if kept is before]:
        del _BASES[key]
    try:
        pen = ImageDraw.Draw(canvas)
        for index in over:
            _paint(canvas, pen, *found[index], fonts, s)
        for square in squares:
            image.paste(canvas.crop(square), square[:2])
    finally:
        for region, pixels in under:  # each taken before anything was painted: the still part's own
            canvas.paste(pixels, region[:2])
    painted.image = image
    painted.since = (before, squares)
    return painted


#: a board is repainted from the one before where the squares they differ in are at most this share of it
REPAINTED_AT_MOST = 0.5


def _signature(element: ET.Element, style: dict[str, str]) -> object:
    """What decides an element's pixels: its tag, attributes, words and style."""
    return element.tag, tuple(element.attrib.items()), element.text, tuple(style.items())


def _repainted(before: Painted, painted: Painted) -> list[tuple[int, int, int, int]] | None:
    """The squares (of side `TILE`, as the picture is shrunk) in which `painted` differs from `before`,
    painted over the same still part: where a shape or word of either is not the other's, in the same
    order among those they share; None where they are more than `REPAINTED_AT_MOST` of the picture."""
    from difflib import SequenceMatcher

    assert before.signatures is not None and before.boxes is not None
    assert painted.signatures is not None and painted.boxes is not None
    # each signature as a number, so that the matcher hashes small things
    numbers: dict[object, int] = {}
    old = [numbers.setdefault(sign, len(numbers)) for sign in before.signatures]
    new = [numbers.setdefault(sign, len(numbers)) for sign in painted.signatures]
    changed: list[Box] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag != "equal":
            changed += before.boxes[i1:i2] + painted.boxes[j1:j2]
    width, height = painted.still.size if painted.still is not None else painted.image.size
    squares = _squares(changed, TILE * SUPERSAMPLE, width, height)
    if sum((r - l) * (b - t) for l, t, r, b in squares) > REPAINTED_AT_MOST * width * height:
        return None
    return squares


def _painted_in_order(found: list[tuple[ET.Element, dict[str, str]]],
                      groups: dict[ET.Element, dict[str, str]] | None, fonts: tuple[Path, Path], s: int,
                      size: tuple[int, int]) -> Painted:
    """Every element painted in document order on white (the still part among them)."""
    image = Image.new("RGB", size, "#FFFFFF")
    pen = ImageDraw.Draw(image)
    painted = Painted(image, s, [], [])
    blank = True  # nothing painted yet: the picture is white all over
    for index, (element, style) in enumerate(found):
        if groups is not None and element in groups:
            painted.slots.append((index, groups[element]))
            continue
        if painted.slots:
            painted.later.append((index, _extent(element, style, fonts, s)))
        if blank and _white_fill_alone(element, style):
            continue  # a white ground on a white picture changes no pixel
        blank = False
        _paint(image, pen, element, style, fonts, s)
    return painted


def _extent(element: ET.Element, style: dict[str, str], fonts: tuple[Path, Path], s: int) -> Box:
    """A box, `s` times larger, that holds every pixel the element may paint."""
    tag = element.tag.removeprefix(SVG_NS)
    if tag == "text":
        box = _text_box(element, style, fonts, s)
        return (0, 0, 0, 0) if box is None else (box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2)
    edge = (_stroke(style, s)[0] if _colour(style["stroke"]) is not None else 0) / 2 + 2
    if tag == "rect":
        x, y, w, h = (_number(element, k) * s for k in ("x", "y", "width", "height"))
        return x - edge, y - edge, x + w + edge, y + h + edge
    if tag == "circle":
        cx, cy, r = (_number(element, k) * s for k in ("cx", "cy", "r"))
        return cx - r - edge, cy - r - edge, cx + r + edge, cy + r + edge
    if tag == "line":
        points = [(_number(element, "x1") * s, _number(element, "y1") * s),
                  (_number(element, "x2") * s, _number(element, "y2") * s)]
    else:
        points = [p for subpath in _path_points(element.get("d", ""), s) for p in subpath] or [(0, 0)]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs) - edge, min(ys) - edge, max(xs) + edge, max(ys) + edge


def _white_fill_alone(element: ET.Element, style: dict[str, str]) -> bool:
    """A shape painted in white alone (no stroke): on a picture still all white, it changes nothing."""
    return element.tag == _SVG_RECT and style["stroke"] == "none" and _colour(style["fill"]) == (255, 255, 255)


_SVG_RECT = f"{SVG_NS}rect"


#: the attributes each element may have: its own, the presentation attributes, and those ignored
_ALLOWED = {tag: frozenset((*INHERITED, *names, *IGNORED)) for tag, names in SHAPE.items()}
_INHERITED = frozenset(INHERITED)


def _collect(element: ET.Element, style: dict[str, str], found: list[tuple[ET.Element, dict[str, str]]],
             groups: dict[ET.Element, dict[str, str]] | None, layer: list[tuple[int, int]] | None = None) -> None:
    """Every element in document order (the order SVG paints in) into `found`, with its presentation
    attributes; `groups`: each word marked as its viewer's, with those its groups give it; `layer`: where
    where each outermost group marked as the still part begins and ends in `found`."""
    tag = element.tag.removeprefix(SVG_NS)
    allowed = _ALLOWED.get(tag)
    if allowed is None:
        raise Unsupported(f"the element <{tag}>")
    attributes = element.attrib
    for name in attributes:
        if name not in allowed and not name.startswith(("data-", "{")):
            raise Unsupported(f"the attribute {name!r} of <{tag}>")
    inherited = style
    own = _INHERITED.intersection(attributes)
    if own:
        style = {**style, **{name: attributes[name] for name in own}}
    if tag == "text" or tag == "title":
        if tag == "text":
            found.append((element, style))
            if groups is not None and attributes.get("data-mark") == "viewer":
                groups[element] = inherited
        if len(element):
            raise Unsupported(f"the element <{element[0].tag.removeprefix(SVG_NS)}> inside <{tag}>")
        return
    if tag != "g" and tag != "svg":
        found.append((element, style))
    still = layer is not None and attributes.get("data-layer") == STILL
    start = len(found)
    for child in element:
        _collect(child, style, found, groups, layer)
    if still and len(found) > start:
        while layer and layer[-1][0] >= start:  # a still group inside this one is of it
            layer.pop()
        layer.append((start, len(found)))


def _number(element: ET.Element, name: str, default: float = 0.0) -> float:
    value = element.get(name)
    if value is None:
        return default
    try:
        return float(value)
    except ValueError:
        raise Unsupported(f"{name}={value!r}") from None


def _colour(value: str) -> tuple[int, int, int] | None:
    known = _COLOURS.get(value, False)
    if known is not False:
        return known
    if value == "none":
        return None
    try:
        rgb = ImageColor.getrgb(value)
    except ValueError:
        raise Unsupported(f"the colour {value!r}") from None
    if len(rgb) == 4 and rgb[3] != 255:  # see-through: painted over what lies below, which this does not do
        raise Unsupported(f"the colour {value!r}")
    if len(_COLOURS) < 4096:
        _COLOURS[value] = rgb[:3]
    return rgb[:3]


#: the colours read so far (a board uses a few dozen, each many times)
_COLOURS: dict[str, tuple[int, int, int] | None] = {"none": None}


def _ink(pen: ImageDraw.ImageDraw, rgb: tuple[int, int, int]) -> int:
    """Pillow's ink of a colour, as its own drawing functions make it for an RGB picture."""
    ink = _INKS.get(rgb)
    if ink is None:
        ink = _INKS[rgb] = pen.draw.draw_ink(rgb)
    return ink


_INKS: dict[tuple[int, int, int], int] = {}


def _stroke(style: dict[str, str], s: int) -> tuple[float, list[float]]:
    """The stroke's width and dashes, `s` times larger."""
    key = (style["stroke-width"], style.get("stroke-dasharray", "none"), s)
    known = _STROKES.get(key)
    if known is not None:
        return known
    try:
        width = float(style["stroke-width"]) * s
        dashes = [float(d) * s for d in style.get("stroke-dasharray", "none").replace(",", " ").split()] \
            if style.get("stroke-dasharray", "none") != "none" else []
    except ValueError:
        raise Unsupported(f"stroke-width {style['stroke-width']!r} or dashes {style.get('stroke-dasharray')!r}") from None
    if len(_STROKES) < 4096:
        _STROKES[key] = (width, dashes)
    return width, dashes


_STROKES: dict[tuple[str, str, int], tuple[float, list[float]]] = {}


def _paint(image: Image.Image, pen: ImageDraw.ImageDraw, element: ET.Element, style: dict[str, str],
           fonts: tuple[Path, Path], s: int = SUPERSAMPLE) -> None:
    """Paint one element, its coordinates `s` times larger."""
    tag = element.tag.removeprefix(SVG_NS)
    fill, stroke = _colour(style["fill"]), _colour(style["stroke"])
    width, dashes = _stroke(style, s)
    if tag == "text":
        _text(image, pen, element, style, fill, fonts, s)
        return
    if tag == "rect":
        x, y, w, h = (_number(element, k) * s for k in ("x", "y", "width", "height"))
        if w <= 0 or h <= 0:  # SVG draws no rectangle without an area
            return
        rx = min(_number(element, "rx") * s, w / 2, h / 2)
        if fill is not None:
            box = _box(x, y, x + w - 1, y + h - 1)
            if rx:
                pen.rounded_rectangle(box, rx, fill=fill)
            else:  # ImageDraw.rectangle's own call
                pen.draw.draw_rectangle(box, _ink(pen, fill), 1)
        if stroke is not None and width > 0 and not dashes:  # an edge centred on the rectangle's, in one call
            line, half = max(1, round(width)), width / 2
            edge = (x - half, y - half, x + w - 1 + half, y + h - 1 + half)
            if rx:
                pen.rounded_rectangle(edge, rx + half, outline=stroke, width=line)
            else:
                pen.draw.draw_rectangle(edge, _ink(pen, stroke), 0, line)
            return
        outline = [_rounded_outline(x, y, w, h, rx)]
    elif tag == "circle":
        cx, cy, r = (_number(element, k) * s for k in ("cx", "cy", "r"))
        if r <= 0:  # nor a circle without a radius
            return
        if fill is not None:
            pen.draw.draw_ellipse(_box(cx - r, cy - r, cx + r - 1, cy + r - 1), _ink(pen, fill), 1)  # ImageDraw.ellipse's
        if stroke is not None and width > 0 and not dashes:  # a ring centred on the circle's edge
            outer = r + width / 2
            pen.draw.draw_ellipse((cx - outer, cy - outer, cx + outer - 1, cy + outer - 1), _ink(pen, stroke), 0,
                                  max(1, round(width)))
            return
        outline = [_arc_points(cx, cy, r, 0, 360, 48, closed=True)]
    elif tag == "line":
        x1, y1, x2, y2 = (_number(element, k) * s for k in ("x1", "y1", "x2", "y2"))
        outline = [[(x1, y1), (x2, y2)]]
    else:  # path
        outline = _path_points(element.get("d", ""), s)
        if fill is not None:
            for points in outline:
                if len(points) > 2:
                    pen.polygon(points, fill=fill)
    if stroke is not None and width > 0:
        for points in outline:
            for segment in _dashed(points, dashes) if dashes else [points]:
                pen.line(segment, fill=stroke, width=max(1, round(width)), joint="curve")


def _text(image: Image.Image, pen: ImageDraw.ImageDraw, element: ET.Element, style: dict[str, str],
          fill: tuple[int, int, int] | None, fonts: tuple[Path, Path], s: int = SUPERSAMPLE,
          origin: tuple[int, int] = (0, 0)) -> None:
    """Paint one `text`, its coordinates `s` times larger, on an image whose corner is `origin`."""
    words_at = _words_at(element, style, fill, fonts, s)
    if words_at is None:
        return
    font, size, words, anchor, x, y = words_at
    x -= origin[0]
    y -= origin[1]
    key = (font, size, words, anchor)
    if key not in _SEEN:  # words met for the first time are drawn; met again, kept and pasted
        if len(_SEEN) > 8192:
            _SEEN.clear()
        _SEEN.add(key)
        pen.text((x, y), words, fill=fill, font=_font(font, size), anchor=anchor)
        return
    mask, left, top = _words(font, size, words, anchor)
    x += left
    y += top
    width, height = mask.size
    box = (x, y, x + width, y + height)
    under = image.im.crop(box)
    ground = under.getcolors(1)  # one colour under the words (a card, a token, the white): inked once
    if not ground:
        image.im.paste(fill, box, mask.im)  # Image.paste's own call, without its checks
        return
    key = (font, size, words, anchor, fill, ground[0][1])
    inked = _INKED.get(key)
    if inked is None:
        if len(_INKED) > 4096:
            _INKED.clear()
        under.paste(fill, (0, 0, width, height), mask.im)
        inked = _INKED[key] = under
    image.im.paste(inked, box)


def _words_at(element: ET.Element, style: dict[str, str], fill: tuple[int, int, int] | None,
              fonts: tuple[Path, Path], s: int) -> tuple[str, int, str, str, int, int] | None:
    """What a `text` paints, `s` times larger: its font file, size, words, Pillow's anchor and the
    anchor's point; None when it paints nothing."""
    words = _BLANKS.sub(" ", element.text or "").strip(" ")
    if not words or fill is None:
        return None
    anchor = ANCHOR.get(style["text-anchor"])
    weight = style["font-weight"]
    if anchor is None or weight not in ("normal", "bold", "400", "700"):
        raise Unsupported(f"text-anchor {style['text-anchor']!r} or font-weight {weight!r}")
    try:
        size = round(float(style["font-size"].removesuffix("px")) * s)
    except ValueError:
        raise Unsupported(f"font-size {style['font-size']!r}") from None
    font = str(fonts[weight in ("bold", "700")])
    return font, size, words, anchor, round(_number(element, "x") * s), round(_number(element, "y") * s)


def _text_box(element: ET.Element, style: dict[str, str], fonts: tuple[Path, Path], s: int) -> Box | None:
    """The box of the ink of a `text`, `s` times larger (None: it paints nothing)."""
    words_at = _words_at(element, style, _colour(style["fill"]), fonts, s)
    if words_at is None:
        return None
    font, size, words, anchor, x, y = words_at
    left, top, right, bottom = _ink_box(font, size, words, anchor)
    return x + left, y + top, x + right, y + bottom


@lru_cache(maxsize=8192)
def _ink_box(font: str, size: int, words: str, anchor: str) -> tuple[int, int, int, int]:
    """The box of the ink of `words` from their anchor point (laid out once: the same words come on
    every board, and again where a board is shared)."""
    return _font(font, size).getbbox(words, anchor=anchor)


_BLANKS = re.compile(r"[ \t\r\n]+")
#: the words drawn so far (by font, size and anchor): a second time, they are kept as a mask
_SEEN: set[tuple[str, int, str, str]] = set()
#: words pasted on a ground of one colour, by font, size, anchor, ink and that colour: the pixels they
#: give, pasted as they are where the same words come on the same ground (most of a board's words)
_INKED: dict[tuple[str, int, str, str, tuple[int, int, int], object], object] = {}


@lru_cache(maxsize=4096)
def _words(font: str, size: int, words: str, anchor: str) -> tuple[Image.Image, int, int]:
    """The ink of `words` (a mask), and where its corner lies from the anchor point: drawn once, then
    pasted wherever the same words come again (seat numbers, labels, values: most of a board's text)."""
    face = _font(font, size)
    left, top, right, bottom = _ink_box(font, size, words, anchor)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), words, fill=255, font=face, anchor=anchor)
    return mask, left, top


def _box(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
    """Pillow's box, inclusive at both ends: a shape under a pixel wide still covers one."""
    return x0, y0, max(x0, x1), max(y0, y1)


def _rounded_outline(x: float, y: float, w: float, h: float, rx: float) -> list[tuple[float, float]]:
    """A rectangle's edge as SVG strokes it: from the end of the top-left corner, clockwise."""
    if not rx:
        return [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]
    points: list[tuple[float, float]] = []
    for cx, cy, start in ((x + w - rx, y + rx, 270), (x + w - rx, y + h - rx, 0), (x + rx, y + h - rx, 90),
                          (x + rx, y + rx, 180)):
        points += _arc_points(cx, cy, rx, start, start + 90, 6)
    return points + [points[0]]


def _arc_points(cx: float, cy: float, r: float, start: float, end: float, steps: int,
                closed: bool = False) -> list[tuple[float, float]]:
    points = [(cx + r * math.cos(math.radians(start + (end - start) * i / steps)),
               cy + r * math.sin(math.radians(start + (end - start) * i / steps))) for i in range(steps + 1)]
    return points if not closed else points[:-1] + [points[0]]


def _path_points(d: str, scale: float) -> list[list[tuple[float, float]]]:
    """The subpaths of a path of straight lines (absolute M, L and Z only)."""
    tokens = PATH_TOKEN.findall(d)
    if "".join(tokens) != re.sub(r"[\s,]+", "", d):
        raise Unsupported(f"the path {d!r}")
    subpaths: list[list[tuple[float, float]]] = []
    command, numbers = "", []
    for token in tokens + ["M"]:
        if token[0].isalpha():
            if len(numbers) % 2:
                raise Unsupported(f"the path {d!r}")
            points = [(numbers[i] * scale, numbers[i + 1] * scale) for i in range(0, len(numbers), 2)]
            if command == "M":
                subpaths.append(points)
            elif command == "L" and subpaths:
                subpaths[-1] += points
            elif command in ("Z", "z") and subpaths:
                subpaths[-1].append(subpaths[-1][0])
            elif command:
                raise Unsupported(f"the path command {command!r}")
            command, numbers = token, []
        else:
            numbers.append(float(token))
    return subpaths


def _dashed(points: list[tuple[float, float]], dashes: list[float]) -> list[list[tuple[float, float]]]:
    """The drawn pieces of a polyline under a dash pattern (dash, gap, dash, gap...), as SVG lays it."""
    pattern = dashes * 2 if len(dashes) % 2 else dashes
    if sum(pattern) <= 0:
        return [points]
    pieces: list[list[tuple[float, float]]] = []
    index, left, on = 0, pattern[0], True
    current: list[tuple[float, float]] = [points[0]]
    for (x1, y1), (x2, y2) in zip(points, points[1:]):
        length = math.hypot(x2 - x1, y2 - y1)
        done = 0.0
        while length - done > left:
            done += left
            at = (x1 + (x2 - x1) * done / length, y1 + (y2 - y1) * done / length)
            if on:
                pieces.append(current + [at])
            current = [at]
            index = (index + 1) % len(pattern)
            left, on = pattern[index], not on
        left -= length - done
        current.append((x2, y2))
    if on and len(current) > 1:
        pieces.append(current)
    return pieces

