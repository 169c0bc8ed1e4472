"""The HTML part of a report mail, written for a phone (a screen 360 CSS pixels wide), and the board
drawn for it.

The HTML is made from the mail's own text, the very text of the plain part, by reading the structure
every report template writes: the title and the headings (lines of capitals at the margin), the events
(`[  38] ...`), tables (a header of words over aligned rows; tables cut by `|` into groups; the boxes of
a board drawn with `+--+` and `|`; a grid of short codes such as a city), lists under a line ending in
`:`, the orders a player may send (the items that start with an order of the report's order block, in
any language; in a refusal, which has no block, those under an English `You may send:`), the order
block between the reply markers, and lines broken at 72 columns (joined again where the next word would
not have fitted). Whatever it does not recognise is shown line by line.

So the HTML shows exactly the words of the text, nothing more (it cannot show what the player's report
does not) and nothing less (a line a template adds shows up without anyone writing HTML for it), for
every game, a fifth one, a template a GM changed and every other mail pbem writes with a picture; but
for a board drawn in text, which the picture shows: the board is shown once, and a line in the board's
place says where it is. A long HTML shows the picture itself, by `cid:`, under the move; a short one
has no <img> (a short HTML part with one scores as spam: see `pbem.mail.compose`), and the mail
carries the picture as an inline part after its text. A mail that asks for a move adds, under the list
of its choices, a button for each order it offers (`Buttons`): a `mailto:` link that replies with it.

Styles are inline (mail clients strip <style> in places). Colours are the page's own (`Canvas`,
`CanvasText`, with `color-scheme: light dark`) or tints that read on light and dark alike, so dark mode
keeps every word readable; the picture is opaque, on a white background of its own. The HTML is ASCII
in lines of at most 76 characters, so the part goes as 7-bit text.

The board for a phone (`phone_board_svg`) is templates/<game>/board-phone.svg.j2: 360 units wide, no
word under 10 units (9.4 pixels when shown 340 wide), drawn at twice its size.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Iterator

from pbem.i18n import DEFAULT_LANGUAGE
from pbem.patterns import Pattern
from pbem.report import BEGIN, END, WIDTH, _GLUED

# Styles are written without spaces: they stand on every element (mail clients strip <style> in places),
# and a mail is read on a phone's data plan.
FONT = "-apple-system,'Segoe UI',Roboto,'DejaVu Sans',Helvetica,Arial,sans-serif"
MONO = "Menlo,Consolas,'DejaVu Sans Mono',monospace"
LINE = "#8A8A8A"  # rules and borders: seen on white and on black
TINT = "rgba(128,128,128,.14)"  # a shade that darkens white and lightens black
SHADE = "rgba(128,128,128,.3)"
BODY = (f"margin:0;padding:8px;font-family:{FONT};font-size:15px;line-height:1.45;color-scheme:light dark;"
        "background-color:Canvas;color:CanvasText;-webkit-text-size-adjust:100%;text-size-adjust:100%;"
        "overflow-wrap:break-word;word-wrap:break-word")
CODE = f"font-family:{MONO};font-size:14px;background-color:{TINT};padding:0 3px;-webkit-user-select:all;user-select:all"
TABLE = "border-collapse:collapse;max-width:100%;margin:4px 0 10px;font-size:14px;line-height:1.3"
CELL = f"padding:3px 3px;border-bottom:1px solid {LINE};text-align:left"
FOLD = 76  # the HTML's lines: short enough for the mail to go as 7-bit text, not quoted-printable

EVENT = Pattern(r"(\s*)\[\s*(\d+)\] (.*)")
BOX_RULE = Pattern(r"\s*\+-[-+]*\+\s*")
INLINE_CHOICES = Pattern(r"(\s*)(You may \w+): (.*)")
LABELLED = Pattern(r"\s*\S[^:]{0,40}: \S.*")  # `Sie dürfen senden: ziehen; versteigern.`
SHAPE = Pattern(r"#\s*-\s+(\S.*)")  # an order of the block, commented out: `#  - bid: N`
TICKED = Pattern(r"`([^`\n]+)`")
GAP = Pattern(r"(?<=\S) {2,}(?=\S)")
CHIPS = Pattern(r"(?<=\S) {3,}(?=\S)")  # between the columns of a line of aligned pairs


# -- the text's lines ---------------------------------------------------------------------------------

def indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def first_chunk(line: str) -> str:
    """The first piece of `line` the 72-column wrapping would not have broken (a number and its unit
    stay together, as `report.wrap72` keeps them)."""
    glued = _GLUED.sub("\x00", line.strip())
    return glued.split(" ", 1)[0]


def broken_before(previous: str, line: str, first: int = 0) -> bool:
    """Whether `line` continues `previous`: the wrapping broke there because its first word did not
    fit on `previous` (a line that ended early ended on purpose). A wrapped line never starts left of
    its first line (`first`, that line's indent). Some templates wrap at 70 columns (then indent
    by 2): a word that would have run past 70 counts as broken off."""
    return bool(line.strip()) and len(previous) + 1 + len(first_chunk(line)) > WIDTH - 2 and indent(line) >= first


def is_heading(line: str) -> bool:
    """A heading: capitals at the margin (`THE TABLE`, `YOUR MOVE: ...`, `MEDICI g1 - turn 4 - ...`,
    `ÜBER DEN TISCH`), four letters or more of them."""
    if not line or line[0] == " " or line in (BEGIN, END):
        return False
    caps = []
    for word in line.split(" "):
        if not word or word != word.upper() or not any(c.isalpha() for c in word):
            break
        caps.append(word)
    run = " ".join(caps)
    return sum(c.isalpha() for c in run) >= 4 and (len(run) == len(line) or line[len(run)] in " :(")


def structural(lines: list[str], i: int) -> bool:
    """Whether line `i` starts a block of its own (it never continues the line before it)."""
    line = lines[i]
    return (not line.strip() or line.strip() in (BEGIN, END) or is_heading(line) or EVENT.fullmatch(line) is not None
            or BOX_RULE.fullmatch(line) is not None or is_rule(line))


def is_rule(line: str) -> bool:
    return len(line.strip()) >= 20 and set(line.strip()) <= {"=", "-"} and line.strip() not in (BEGIN, END)


def joined(lines: list[str], i: int) -> tuple[str, int]:
    """The logical line starting at `i`: the physical lines the wrapping made of it, joined; and the
    index after it."""
    text, j = lines[i].strip(), i + 1
    last = lines[i]
    while j < len(lines) and not structural(lines, j) and broken_before(last, lines[j], indent(lines[i])):
        text += " " + lines[j].strip()
        last = lines[j]
        j += 1
    return text, j


# -- blocks ---------------------------------------------------------------------------------------------

class Block:  # not a dataclass: one costs its module's import ~3M instructions, compiling its methods
    """A piece of the text: its kind (heading, rule, line, events, choices, list, orders, table, boxes,
    grid, gap), its words, its level (a heading's; a line's depth) and its items."""

    __slots__ = ("kind", "text", "level", "items")

    def __init__(self, kind: str, text: str = "", level: int = 0, items: list[Any] | None = None) -> None:
        self.kind, self.text, self.level = kind, text, level
        self.items = [] if items is None else items

    def __repr__(self) -> str:
        return f"Block({self.kind!r}, {self.text!r}, {self.level}, {self.items!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Block) and (self.kind, self.text, self.level, self.items) == \
            (other.kind, other.text, other.level, other.items)


def order_shapes(lines: list[str]) -> set[str]:
    """The orders the text's order blocks list (`bid: N`, `palace grey X`): in any language, an item
    that starts with one is an order."""
    shapes: set[str] = set()
    inside = False
    for line in lines:
        if line.strip() in (BEGIN, END):
            inside = line.strip() == BEGIN
        elif inside and (m := SHAPE.fullmatch(line.strip())):
            shapes.add(m.group(1))
    return shapes


def is_order(item: str, shapes: set[str]) -> bool:
    """An order of the block, alone or with its note in brackets at its end (`bid: N (N from 5 to
    32)`): not one followed by words of a sentence."""
    head, bracket, note = item.partition(" (")
    return head.removesuffix(".") in shapes and (not bracket or note.removesuffix(".").endswith(")"))


def blocks(text: str) -> Iterator[Block]:
    """The text's blocks, in order."""
    lines = text.replace("\r\n", "\n").rstrip("\n").split("\n")
    shapes = order_shapes(lines)
    base = 0  # the indent of a section's own lines
    titled = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            yield Block("gap")
            i += 1
        elif line.strip() == BEGIN:
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == END), len(lines) - 1)
            yield Block("orders", items=lines[i:end + 1])
            i = end + 1
        elif is_rule(line):
            yield Block("rule")
            i += 1
        elif BOX_RULE.fullmatch(line):
            j = i
            while j < len(lines) and lines[j].strip()[:1] in ("|", "+"):
                j += 1
            yield Block("boxes", items=box_cells(lines[i:j]))
            i = j
        elif is_heading(line):
            text_, i = joined(lines, i)
            yield Block("heading", text_, 2 if titled else 1)
            titled, base = True, 2
        elif m := EVENT.fullmatch(line):
            events = []
            while i < len(lines) and (m := EVENT.fullmatch(lines[i])):
                words, j = [m.group(3)], i + 1
                while j < len(lines) and not structural(lines, j) and indent(lines[j]) > len(m.group(1)) + 2:
                    words.append(lines[j].strip())
                    j += 1
                events.append((m.group(2), " ".join(words)))
                i = j
            yield Block("events", items=events)
        elif (grid := grid_rows(lines, i)) is not None:
            rows, i = grid
            yield Block("grid", items=rows)
        elif (table := table_rows(lines, i)) is not None:
            tables, i = table
            for t in tables:
                yield Block("table", t[0], items=t[1])
        elif (INLINE_CHOICES.fullmatch(line) or LABELLED.fullmatch(line)) and \
                (found := choices_at(lines, i, shapes)) is not None:
            (label, items), i = found
            yield Block("choices", label, items=items)
        elif (head := labelled_list(lines, i)) is not None:
            label, first = head
            depth = indent(lines[first])
            items: list[str] = []
            j = first
            while j < len(lines) and not structural(lines, j) and indent(lines[j]) >= depth:
                if indent(lines[j]) == depth or not items or not broken_before(lines[j - 1], lines[j], depth):
                    items.append(lines[j].strip() if indent(lines[j]) == depth or not items
                                 else "\n" + lines[j].strip())
                else:
                    items[-1] += " " + lines[j].strip()
                j += 1
            merged: list[str] = []
            for item in items:  # a deeper line that is not a wrapped one belongs to the item above it
                if item.startswith("\n") and merged:
                    merged[-1] += item
                else:
                    merged.append(item.lstrip("\n"))
            # the orders among the items: those of the order block, or where there is none (a refusal)
            # all of them under an English `You may ...:`
            orders = [is_order(item, shapes) if shapes else label.startswith("You may") for item in merged]
            if any(orders):
                yield Block("choices", label, items=list(zip(merged, orders)))
            else:
                yield Block("list", label, items=merged)
            i = j
        else:
            text_, j = joined(lines, i)
            yield Block("line", text_, max(0, indent(line) - base) // 2)
            i = j


def labelled_list(lines: list[str], i: int) -> tuple[str, int] | None:
    """The label of a list that starts at `i` (a line ending in `:`, or two or more the wrapping made of
    one, such as `You may send (long lists are shortened: ...\n  it can end up):`) and the index of its
    first item, indented deeper; None where no list starts there."""
    line = lines[i]
    label, first = (line.strip(), i + 1) if line.rstrip().endswith(":") else joined(lines, i)
    if not label.endswith(":") or first >= len(lines) or indent(lines[first]) <= indent(line) \
            or structural(lines, first):
        return None
    return label, first


def inline_choices(text: str, shapes: set[str]) -> tuple[str, list[tuple[str, bool]]] | None:
    """`You may send: pass; bid: N (N from 5 to 32).`, in any language: its label and its orders (each
    with whether it is one), or None when the line lists no orders."""
    label, _, rest = text.partition(": ")
    items = re.split(r"; (?=\S)", rest.removesuffix("."))
    orders = [is_order(item, shapes) if shapes else INLINE_CHOICES.fullmatch(text) is not None for item in items]
    # in English the label says so; in another language every item must be an order of the block (one
    # alone too: `Je kunt sturen: prijs: N (N van 0 tot 300).`)
    if not any(orders) or not (INLINE_CHOICES.fullmatch(text) or all(orders)):
        return None
    return label + ":", list(zip(items, orders))


def choices_at(lines: list[str], i: int, shapes: set[str]) -> tuple[tuple[str, list[tuple[str, bool]]], int] | None:
    """The orders listed by the line at `i` (`inline_choices`) and the index after it: with the lines
    the wrapping seems to have made of it, or fewer; a choices line that ends near the margin is not
    wrapped into the sentence below it (`Antworte auf ...`). A list wrapped between its items
    (`report.wrap_items`: `spielen: 10S;` is never cut) goes on in lines indented deeper than its
    first, whatever the first word of such a line, which alone may have fitted on the line above."""
    end = joined(lines, i)[1]
    while end < len(lines) and not structural(lines, end) and indent(lines[end]) > indent(lines[i]):
        end += 1
    for j in range(end, i, -1):
        choices = inline_choices(" ".join(line.strip() for line in lines[i:j]), shapes)
        if choices is not None:
            return choices, j
    return None


def box_cells(lines: list[str]) -> list[list[list[str]]]:
    """The boxes of a board drawn with `+--+` and `|`: rows of cells, each cell its lines."""
    rows: list[list[list[str]]] = []
    current: list[list[str]] | None = None
    for line in lines:
        body = line.strip()
        if body.startswith("+"):
            if current:
                rows.append(current)
            current = None
            continue
        cells = body.strip("|").split("|")
        if current is None:
            current = [[] for _ in cells]
        for k, cell in enumerate(cells[:len(current)]):
            if cell.strip():
                current[k].append(cell.strip())
    if current:
        rows.append(current)
    return rows


def grid_rows(lines: list[str], i: int) -> tuple[list[list[str]], int] | None:
    """A grid of short codes (a city of squares): lines of at least 10 words of at most 3 characters,
    one space or two between them; a single blank line may stand inside. Its rows of cells (by column,
    '' where a row has none), and the index after it."""
    def grid_line(line: str) -> bool:
        codes = line.split()
        return len(codes) >= 10 and all(len(c) <= 3 for c in codes) and "   " not in line.strip()

    j, rows = i, []
    while j < len(lines):
        if grid_line(lines[j]):
            rows.append(lines[j])
            j += 1
        elif not lines[j].strip() and j + 1 < len(lines) and grid_line(lines[j + 1]) and rows:
            j += 1
        else:
            break
    if len(rows) < 3:
        return None
    most = max(len(r.split()) for r in rows)
    spans = gaps([r for r in rows if len(r.split()) == most], 0)
    cells = []
    for row in rows:
        out = [""] * len(spans)
        for m in re.finditer(r"\S+", row):
            k = next((k for k, (a, b) in enumerate(spans) if m.start() < b and a < m.end()), None)
            if k is not None:
                out[k] = m.group()
        cells.append(out)
    if all(r[-1] == r[0] for r in cells):  # labels repeated on the right: once is enough on a phone
        cells = [r[:-1] for r in cells]
    return cells, j


def gaps(rows: list[str], start: int) -> list[tuple[int, int]]:
    """The column spans of aligned rows: runs of positions where some row has a character, between
    positions that are blank in every row."""
    width = max(len(r) for r in rows)
    filled = [any(p < len(r) and r[p] != " " for r in rows) for p in range(width)]
    spans, at = [], None
    for p in range(start, width):
        if filled[p] and at is None:
            at = p
        elif not filled[p] and at is not None:
            spans.append((at, p))
            at = None
    if at is not None:
        spans.append((at, width))
    return spans


def cut(row: str, spans: list[tuple[int, int]]) -> list[str]:
    return [row[a:b].strip() for a, b in spans]


def tabular(line: str, columns: int) -> bool:
    """A row of a table with `columns` columns: cells parted by two spaces or more."""
    return len(re.split(r" {2,}", line.strip().removeprefix("* "))) >= max(2, columns - 1)


def header_cells(line: str) -> list[str]:
    """The column names of a table's header: three words or more, no number among them."""
    names = line.split()
    return names if len(names) >= 3 and not any(c.isdigit() for c in line) else []


def table_rows(lines: list[str], i: int) -> tuple[list[tuple[str, list[list[str]]]], int] | None:
    """A table at line `i`: a header of words over aligned rows, or rows cut by `|` into groups. Its
    tables (a caption and rows of cells, the first row the header) and the index after it."""
    piped = pipe_table(lines, i)
    if piped is not None:
        return piped
    head = header_cells(lines[i])
    if not head:
        return None
    j = i + 1
    while j < len(lines) and not structural(lines, j) and (
            tabular(lines[j], len(head)) or indent(lines[j]) > len(lines[i]) // 2):
        j += 1
    rows = lines[i:j]
    if len(rows) < 2:
        return None
    spans = gaps(rows, min(indent(r) for r in rows))
    header = cut(rows[0], spans)
    # a column without a header word belongs to the one beside it: the `*` of the reader's own row
    # before the first, a list of cards that happens to align after the last
    merged: list[tuple[int, int]] = []
    for k, (a, b) in enumerate(spans):
        if not header[k] and merged and (k > 0 and any(header[:k])):
            merged[-1] = (merged[-1][0], b)
        elif not header[k] and k + 1 < len(spans):
            spans[k + 1] = (a, spans[k + 1][1])
        else:
            merged.append((a, b))
    if len(merged) < 3:
        return None
    body: list[list[str]] = []
    for row in rows[1:]:
        cells = cut(row, merged)
        if not cells[0] and body:  # a row wrapped onto the next line
            body[-1] = [f"{x} {y}".strip() for x, y in zip(body[-1], cells)]
        else:
            body.append(cells)
    return [("", [cut(rows[0], merged), *body])], j


def pipe_table(lines: list[str], i: int) -> tuple[list[tuple[str, list[list[str]]]], int] | None:
    """Rows cut into groups by `|` at the same places: each group a table of its own (the first column
    repeated in each), its caption the words over the group's column names."""
    def pipes(line: str) -> tuple[int, ...]:
        return tuple(p for p, c in enumerate(line) if c == "|")

    marks = pipes(lines[i])
    if not marks:
        return None
    j = i
    while j < len(lines) and lines[j].strip() and pipes(lines[j]) == marks:
        j += 1
    rows = lines[i:j]
    if len(rows) < 3:
        return None
    bounds = [0, *marks, max(len(r) for r in rows) + 1]
    heads = 0
    while heads < len(rows) and not any(c.isdigit() for c in rows[heads]):
        heads += 1
    if heads == 0 or heads == len(rows):
        return None
    tables = []
    key: list[str] = []
    for g in range(len(bounds) - 1):
        part = [r[bounds[g] + (1 if g else 0):bounds[g + 1]] for r in rows]
        caption = " ".join(p.strip() for p in part[:heads - 1] if p.strip())
        body = part[heads - 1:]
        spans = gaps(body, 0)
        header = cut(body[0], spans)
        merged: list[tuple[int, int]] = []
        for k, (a, b) in enumerate(spans):
            if not header[k] and k + 1 < len(spans):
                spans[k + 1] = (a, spans[k + 1][1])
            elif not header[k] and merged:
                merged[-1] = (merged[-1][0], b)
            else:
                merged.append((a, b))
        cells = [cut(r, merged) for r in body]
        if g == 0:
            key = [c[0] for c in cells]
        else:
            cells = [[k, *c] for k, c in zip(key, cells)]
        tables.append((caption, cells))
    return tables, j


# -- HTML -------------------------------------------------------------------------------------------------

# as html.escape writes them (the stdlib's html module is not loaded for it: its table of entities
# costs more to import than all the escaping of a run)
_TEXT_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_QUOTED_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})


def esc(text: str) -> str:
    """Text in HTML's text: &, < and > escaped."""
    return text.translate(_TEXT_ESCAPES)


def quoted(text: str) -> str:
    """Text in an HTML attribute's double quotes: &, <, >, " and ' escaped."""
    return text.translate(_QUOTED_ESCAPES)


def words(text: str) -> str:
    """Text as HTML: `quoted` orders as code, gaps of aligned columns kept visible."""
    out, at = [], 0
    for m in TICKED.finditer(text):
        out.append(_gapped(text[at:m.start()]))
        out.append(f'<code style="{CODE}">{esc(m.group(1))}</code>')
        at = m.end()
    out.append(_gapped(text[at:]))
    return "".join(out)


def _gapped(text: str) -> str:
    return GAP.sub("\u00a0 ", esc(text))


def chips(text: str) -> str:
    """A line of columns (`1-2:  anna       1-4:  ben`, `Cosimo      carriage at 2`): each short column
    a piece that wraps as a whole, so that a narrow screen breaks the line between them."""
    parts = CHIPS.split(text)
    if len(parts) == 1:
        return words(text)
    return " \u00a0 ".join(f'<span style="white-space:nowrap">{words(p)}</span>' if len(p) <= 24 else words(p)
                           for p in parts)


def order_item(item: str) -> str:
    """One order a player may send, as code he can copy, and what follows it in brackets as words."""
    order, sep, rest = item.partition(" (")
    if " | " in order and not sep:
        return " | ".join(f'<code style="{CODE}">{esc(o)}</code>' for o in order.split(" | "))
    head = f'<code style="{CODE}">{esc(order)}</code>'
    return head + (f" {words('(' + rest)}" if sep else "")


def render(block: Block) -> str:
    """One block as HTML. Elements side by side stand on lines of their own: no word runs into the
    next across a tag (the way spam hides words from filters, which count it)."""
    if block.kind == "gap":
        return ""
    if block.kind == "rule":
        return f'<hr style="border:0;border-top:1px solid {LINE};margin:16px 0">'
    if block.kind == "heading":
        if block.level == 1:
            return f'<h1 style="font-size:19px;line-height:1.3;margin:6px 0 8px">{words(block.text)}</h1>'
        return (f'<h2 style="font-size:16px;line-height:1.3;margin:18px 0 6px;padding-bottom:2px;'
                f'border-bottom:1px solid {LINE}">{words(block.text)}</h2>')
    if block.kind == "line":
        own = block.text.startswith("* ")  # the reader's own row
        style = f"margin:0 0 4px;padding-left:{min(block.level, 2) * 14}px" + (";font-weight:bold" if own else "")
        return f'<p style="{style}">{chips(block.text)}</p>'
    if block.kind == "events":  # the turn's number hangs left of its lines
        return "\n".join(f'<p style="margin:0 0 4px;padding-left:2.4em;text-indent:-2.4em"><b>{esc(turn)}</b>'
                         f" \u00a0{words(text)}</p>" for turn, text in block.items)
    if block.kind in ("choices", "list"):
        items = block.items if block.kind == "choices" else [(it, False) for it in block.items]
        if len(items) == 1 and block.kind == "list":  # one paragraph: a code alone reads as a tracker
            return (f'<p style="margin:6px 0;padding-left:14px;text-indent:-14px">{words(block.text)}<br>'
                    f'{"<br>".join(chips(part) for part in block.items[0].split(chr(10)))}</p>')
        lis = "\n".join(f'<li style="margin:0 0 5px">'
                        f'{"<br>".join((order_item if order else chips)(part) for part in it.split(chr(10)))}</li>'
                        for it, order in items)
        return f'<p style="margin:6px 0 4px">{words(block.text)}</p><ul style="margin:0 0 8px;padding-left:22px">{lis}</ul>'
    if block.kind == "orders":
        text = esc("\n".join(block.items))
        return (f'<pre style="font-family:{MONO};font-size:14px;line-height:1.4;white-space:pre-wrap;'
                f'overflow-wrap:anywhere;word-break:break-word;margin:8px 0 12px;padding:8px;'
                f'border:1px solid {LINE};background-color:{TINT}">\n{text}</pre>')
    if block.kind == "table":
        return table_html(block.text, block.items)
    if block.kind == "grid":  # squares shaded as a chessboard: each reads on its own
        shade = f' style="background-color:{SHADE}"'
        rows = "\n".join("<tr>" + "\n".join(f"<td{shade if c and (r + k) % 2 else ''}>{esc(c)}</td>"
                                            for k, c in enumerate(row)) + "</tr>" for r, row in enumerate(block.items))
        return (f'<table cellpadding="0" style="border-collapse:separate;border-spacing:1px;margin:4px 0 10px;'
                f'font-family:{MONO};font-size:14px;line-height:1.25;text-align:center;'
                f'background-color:{TINT}">{rows}</table>')
    if block.kind == "boxes":  # two boxes a row on a phone, three on a wider screen
        boxes = "\n".join(
            f'<div style="display:inline-block;vertical-align:top;box-sizing:border-box;width:160px;max-width:100%;'
            f'margin:0 4px 6px 0;padding:4px 6px;border:1px solid {LINE};overflow-wrap:anywhere">'
            + "\n".join(f"<div><b>{words(x)}</b></div>" if k == 0 else f"<div>{words(x)}</div>"
                        for k, x in enumerate(cell)) + "</div>" for row in block.items for cell in row)
        return f'<div style="margin:6px 0 8px;font-size:14px;line-height:1.3">{boxes}</div>'
    raise ValueError(block.kind)


def table_html(caption: str, rows: list[list[str]]) -> str:
    def right(k: int) -> bool:  # a column of numbers reads aligned on the right
        return all(re.fullmatch(r"[-+]?\d+", r[k]) for r in rows[1:] if r[k])

    # names, numbers and the column names keep whole; a column of words wraps, and breaks a word
    # only where it must (the table never runs wider than the screen)
    aligns = [";text-align:right;white-space:nowrap" if right(k) else ";white-space:nowrap" if k == 0
              else ";overflow-wrap:anywhere" for k in range(len(rows[0]))]
    # a column's name keeps whole where it can; a long one over a column of numbers (German goods:
    # `Getreide`, `Gewürze`) may break rather than push the table past the screen
    heads = [(";white-space:nowrap" if k == 0 or not right(k) else ";overflow-wrap:anywhere")
             + (";text-align:right" if right(k) else "") for k in range(len(rows[0]))]

    def cells(tag: str, row: list[str]) -> str:
        return "\n".join(f'<{tag} style="{CELL}{aligns[k] if tag == "td" else heads[k]}">{words(c)}</{tag}>'
                         for k, c in enumerate(row))

    body = "\n".join(f'<tr valign="top"{" style=font-weight:bold" if r and r[0].startswith("* ") else ""}>'
                   f"{cells('td', r)}</tr>" for r in rows[1:])
    cap = f'<caption style="text-align:left;font-weight:bold;padding:2px 0">{words(caption)}</caption>' if caption else ""
    return f'<table style="{TABLE}">{cap}<tr valign="bottom">{cells("th", rows[0])}</tr>{body}</table>'


SAFE = Pattern(r"<(?:/?(?:tr|td|th|li|ul|table|caption|h1|h2)\b|p\b|hr\b|br\b|div>|/div>\s*<div>)")
BLOCK = Pattern(r"<(?:p|li|td|th|h1|h2|caption|div)[ >]")


#: a tag read whole: a `>` in a quoted font name or a link's address does not end it, and one that a
#: line ends inside (or a quote or link in it) runs to the line's end
_TAG = Pattern(r"""<(?:[^'>h]|h(?!ref=")|'[^']*(?:'|$)|href="[^"]*(?:"|$))*>?""")
#: what matters inside a tag: a quoted font name and a link are one word each; a space, a style's `;`,
#: a font list's `,` and the tag's end may break the line
_IN_TAG = Pattern(r"""'[^']*(?:'|$)|href="[^"]*(?:"|$)|[ ;,>]""")


@functools.lru_cache(maxsize=4096)
def _tag_pieces(tag: str) -> tuple[str, tuple[tuple[str, str], ...] | None, tuple[str, str], bool]:
    """A tag cut where a line may break in it: the words before its first break (they continue the
    line's piece before the tag), the pieces between (each with what comes before it), the last piece,
    and whether the tag opens a <pre> (it ends with `>`). None for the pieces between where the tag
    has no break in it."""
    breaks_after = BLOCK.match(tag) is not None and not tag.startswith("<pre")
    parts: list[tuple[str, str]] = []
    start, sep, closed = 0, "", False
    for m in _IN_TAG.finditer(tag, 1):
        ch, j = m.group(), m.start()
        if ch[0] in "'h":  # a quoted font name, a link
            continue
        if ch == " ":
            parts.append((sep, tag[start:j]))
            start, sep = j + 1, " "
        elif ch != ">" or breaks_after:
            parts.append((sep, tag[start:j + 1]))
            start, sep = j + 1, ""
        closed = ch == ">"
    last = (sep, tag[start:])
    if not parts:
        return tag, None, last, closed and tag.startswith("<pre")
    return parts[0][1], tuple(parts[1:]), last, closed and tag.startswith("<pre")


def fold(markup: str) -> str:
    """HTML in lines of at most `FOLD` characters, broken where HTML takes a line's end as a space: at
    a space (not in a <pre>, nor in a quoted font name), after a style's `;`, or before the tag of a
    block. ASCII lines that short let the mail carry the HTML as plain 7-bit text."""
    out: list[str] = []
    pre = False
    for line in markup.split("\n"):
        folded, pre = _fold_line(line, True) if pre else _folded(line)
        out.append(folded)
    return "\n".join(out)


@functools.lru_cache(maxsize=4096)
def _folded(line: str) -> tuple[str, bool]:
    """`_fold_line` of a line that starts outside a <pre>, once a process: the mails of a run repeat
    most of their lines (a table's cells, the styles of its headings), a mail's two readings all."""
    return _fold_line(line, False)


def _fold_line(line: str, pre: bool) -> tuple[str, bool]:
    """One line of HTML folded (`fold`), starting inside a <pre> or not; and whether it ends inside one.
    It is read tag by tag, each tag cut once a process (`_tag_pieces`)."""
    if pre:
        j = line.find("</pre>")
        if j < 0:
            return line, True
        cur, at, pre = line[:j + 6], j + 6, False
    else:
        cur, at = "", 0
    pieces: list[tuple[str, str]] = []  # (what comes before the piece, the piece)
    sep = ""
    while True:
        m = _TAG.search(line, at)
        j = len(line) if m is None else m.start()
        if j > at:  # words between tags break at their spaces
            said = line[at:j].split(" ")
            if len(said) == 1:
                cur += said[0]
            else:
                pieces.append((sep, cur + said[0]))
                pieces.extend((" ", w) for w in said[1:-1])
                sep, cur = " ", said[-1]
        if m is None:
            break
        if cur and SAFE.match(line, j):  # a block's tag may start a line
            pieces.append((sep, cur))
            sep, cur = "", ""
        first, between, (last_sep, last), opens = _tag_pieces(m.group())
        if between is None:
            cur += first
        else:
            pieces.append((sep, cur + first))
            pieces.extend(between)
            sep, cur = last_sep, last
        at = m.end()
        if opens:
            k = line.find("</pre>", at)
            if k < 0:
                cur += line[at:]
                pre = True
                break
            cur += line[at:k + 6]
            at = k + 6
    pieces.append((sep, cur))
    out: list[str] = []
    current = pieces[0][1]
    for before, piece in pieces[1:]:
        if len(current) + len(before) + len(piece) > FOLD:
            out.append(current)
            current = piece
        else:
            current += before + piece
    out.append(current)
    return "\n".join(out), pre


BOARDS = ("boxes", "grid")  # a board drawn in text: the picture shows it on a phone

# a button: a tap target of 44 pixels and more, its own colours (white on blue reads in dark mode too)
BUTTON = ("display:inline-block;box-sizing:border-box;min-width:48px;min-height:44px;max-width:100%;"
          "margin:0 8px 8px 0;padding:11px 16px;border-radius:8px;background-color:#1A5FB4;color:#FFFFFF;"
          "font-size:16px;line-height:22px;font-weight:bold;text-decoration:none;text-align:center;"
          "overflow-wrap:anywhere")


class Buttons:  # not a dataclass: one costs its module's import ~3M instructions, compiling its methods
    """The orders of a mail that asks for a move, as buttons: `links`, each order's words and the
    `mailto:` that replies with it (none: no buttons, the move still placed); `listed`, the choices the
    report lists (the buttons stand under that list); `label`, the line above them; `other`, the line
    under them that says how to write any other order."""

    __slots__ = ("links", "listed", "label", "other")

    def __init__(self, links: list[tuple[str, str]], listed: list[str], label: str, other: str = "") -> None:
        self.links, self.listed, self.label, self.other = links, listed, label, other

    def __repr__(self) -> str:
        return f"Buttons({self.links!r}, {self.listed!r}, {self.label!r}, {self.other!r})"


class Board:  # not a dataclass: one costs its module's import ~3M instructions, compiling its methods
    """The picture of the board in the HTML: its part's Content-ID and the words that say what it shows."""

    __slots__ = ("cid", "alt")

    def __init__(self, cid: str, alt: str) -> None:
        self.cid, self.alt = cid, alt

    def __repr__(self) -> str:
        return f"Board({self.cid!r}, {self.alt!r})"


def buttons_html(buttons: Buttons) -> str:
    """The buttons, each a link of its own on a line of its own, the line above and the line under them."""
    links = "\n".join(f'<a href="{quoted(href)}" style="{BUTTON}">{esc(order)}</a>' for order, href in buttons.links)
    other = f'\n<p style="margin:0 0 10px">{words(buttons.other)}</p>' if buttons.other else ""
    return (f'<div class="pbem-buttons" style="margin:10px 0 0">\n<p style="margin:0 0 6px">{words(buttons.label)}</p>\n'
            f'<div style="margin:0 0 2px">\n{links}\n</div>{other}\n</div>')


def board_html(board: Board) -> str:
    """The picture at the screen's width, on its own white (it is opaque: dark mode leaves it as drawn)."""
    return (f'<div style="margin:10px 0 12px"><img src="cid:{quoted(board.cid)}" alt="{quoted(board.alt)}" '
            'style="display:block;width:100%;max-width:720px;height:auto;border:0;background-color:#FFFFFF"></div>')


def _the_move(found: list[Block], listed: list[str]) -> int | None:
    """The index of the block that lists the choices of the player's move (the first list of orders
    that holds one of `listed`), None where there is none."""
    shown = {" ".join(c.split()) for c in listed}
    for k, block in enumerate(found):
        if block.kind == "choices" and any(" ".join(item.split()) in shown for item, _ in block.items):
            return k
    return None


@functools.lru_cache(maxsize=8)
def _read(text: str) -> tuple[tuple[Block, str], ...]:
    """The text's blocks, each with its HTML (none for a board drawn in text), read once for both
    HTML parts a mail may be written with (with the picture in it or without)."""
    return tuple((block, "" if block.kind in BOARDS else render(block)) for block in blocks(text))


def body_html(text: str, note: str = "", buttons: Buttons | None = None, board: Board | None = None) -> str:
    """The text as HTML blocks, but for a board drawn in text (Florenz's boxes, Medina's city): the
    picture shows the board once, and `note` (a line that says where) stands in its place.

    With `buttons`, the buttons stand under the list of the move's choices. With `board`, the picture
    stands in the HTML: under the move (before the heading after its choices); where there is no move,
    in the place of the board drawn in text, else under the first section."""
    read = _read(text)
    found = [block for block, _ in read]
    move = _the_move(found, buttons.listed) if buttons is not None else None
    headings = [k for k, b in enumerate(found) if b.kind == "heading"]
    drawn = next((k for k, b in enumerate(found) if b.kind in BOARDS), None)
    picture_at: int | None = None  # the picture goes before this block (len(found): at the end)
    if board is not None:
        if move is not None:
            picture_at = next((k for k in headings if k > move), len(found))
        elif drawn is not None:
            picture_at = drawn
        else:
            picture_at = headings[1] if len(headings) > 1 else len(found)
    out: list[str] = []
    noted = not note
    for k, (block, html_) in enumerate(read):
        if k == picture_at:
            out.append(board_html(board))  # type: ignore[arg-type]
        if block.kind in BOARDS:
            if not noted and picture_at != k:
                out.append(f'<p style="margin:6px 0 10px;font-style:italic">{words(note)}</p>')
            noted = True
        elif html_:
            out.append(html_)
        if k == move and buttons is not None and buttons.links:
            out.append(buttons_html(buttons))
    if picture_at == len(found):
        out.append(board_html(board))  # type: ignore[arg-type]
    return "\n".join(out)


def phone_html(text: str, note: str = "", buttons: Buttons | None = None, board: Board | None = None) -> str:
    """The HTML part of a mail: the text, its board left to the picture (`note` in the board's place:
    see `body_html`), with the move's `buttons` and the `board` in it where given. ASCII alone (any
    other character as a reference), in lines of at most `FOLD` characters but for a button's link."""
    return fold(phone_markup(text, note, buttons, board))


def phone_markup(text: str, note: str = "", buttons: Buttons | None = None, board: Board | None = None) -> str:
    """`phone_html` before it is folded (`fold` only breaks lines: its HTML is never shorter)."""
    markup = ('<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
              '<meta name="viewport" content="width=device-width, initial-scale=1">'
              '<meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark">'
              f'</head><body style="{BODY}">\n<div style="max-width:640px">\n{body_html(text, note, buttons, board)}\n</div>\n'
              "</body></html>\n")
    return markup.encode("ascii", "xmlcharrefreplace").decode("ascii")


# -- the board, drawn for a phone ----------------------------------------------------------------------

PHONE = 360  # the width of a board for a phone, in the units its words are measured in


def phone_board_svg(state: dict[str, Any], viewer: str | None, lang: str = DEFAULT_LANGUAGE) -> str:
    """The board as `viewer` may see it (None: what every player may see), its words in `lang`, drawn for a phone by
    templates/<game>/board-phone.svg.j2: 360 units wide, no word under 10 units, drawn at twice
    that size. A game without such a template gets the board of the archive."""
    from pbem.pictures import board_svg, render_board
    from pbem.report import _load

    name = f"{state['ruleset']}/board-phone.svg.j2"
    if _load(name) is None:
        return board_svg(state, viewer, lang=lang)
    return render_board(state, viewer, name, lang, PHONE=PHONE)
