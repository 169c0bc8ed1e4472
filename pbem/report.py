"""Rendering what a player reads, from his view alone (or the GM's view for the GM).

Templates live in templates/<ruleset>/ (report.txt.j2 and events.j2, whose `event` macro writes one
line per event) and templates/common/. Reports are plain text for email.
"""

from __future__ import annotations

import re
import textwrap
import os
import sys
from functools import cache
from typing import Any

import jinja2

from pbem import data_dir
from pbem.game import show
from pbem.rules.base import Event, Order, get_ruleset, order_text

BEGIN = "----- pbem orders begin -----"
END = "----- pbem orders end -----"
WIDTH = 72  # mail is read in plain-text clients at 72 columns, and on phones
# spaces never broken when a line is wrapped: between a number and its unit (`26 VP`, `5 time`), before
# a score (`anna +10`, `ben 4 (+2)`), and before a `>` (a line starting with `>` reads as a quotation in
# mail)
_GLUED = re.compile(r"(?<=\d) (?=(?:VP|time|points?|gifts?|cards?|tiles?)\b)|(?<=\w) (?=\(?[+-]\d|-?\d+->)| (?=>)")
_GLUE = "\x00"


def _fill(text: str, width: int, first: str, rest: str) -> list[str]:
    """`text` broken at spaces into lines of `width` (a word longer than a line stays whole)."""
    for marker in (BEGIN, END):  # a marker line quoted in a sentence is copied whole, so kept whole
        text = text.replace(marker, marker.replace(" ", _GLUE))
    lines = textwrap.wrap(_GLUED.sub(_GLUE, text), width, initial_indent=first, subsequent_indent=rest,
                          break_long_words=False, break_on_hyphens=False, replace_whitespace=False)
    return [line.replace(_GLUE, " ") for line in lines]


def _load(name: str) -> str | None:
    path = data_dir("pbem.templates").joinpath(*name.split("/"))
    return path.read_text("utf-8") if path.is_file() else None


def wrap72(text: Any, indent: int | str | None = None, width: int = WIDTH) -> str:
    """Each line of `text` wider than `width` broken at spaces (never inside a word, nor at a hyphen);
    its continuation lines start with `indent` (a number: that many spaces; None: the line's own
    leading spaces and two more, a hanging indent). Lines that fit are kept as they are."""
    out: list[str] = []
    for line in str(text).split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        lead = line[:len(line) - len(line.lstrip(" "))]
        rest = lead + "  " if indent is None else (" " * indent if isinstance(indent, int) else indent)
        out += _fill(line, width, "", rest) or [line]
    return "\n".join(out)


def wrap_items(items: Any, lead: str = "", sep: str = "; ", end: str = ".", indent: int = 4,
               width: int = WIDTH) -> str:
    """`lead` and the items joined by `sep`, then `end`, broken into lines only between items (an
    order such as `{load: 4, harbour: B}` is never cut); continuation lines start with `indent` spaces."""
    items = [str(i) for i in items]
    lines: list[str] = []
    line = lead
    for k, item in enumerate(items):
        piece = item + (sep.rstrip() if k < len(items) - 1 else end)
        if line.strip() and len(line) + len(piece) > width:
            lines.append(line.rstrip())
            line = " " * indent
        line += piece + " "
    lines.append(line.rstrip())
    return "\n".join(lines)


def reflow(text: Any, width: int = WIDTH) -> str:
    """Paragraphs (separated by blank lines) refilled to `width`: a paragraph's lines are joined and
    wrapped again, keeping the first line's leading spaces for all of them."""
    paragraphs = []
    for para in str(text).strip("\n").split("\n\n"):
        lines = para.split("\n")
        lead = lines[0][:len(lines[0]) - len(lines[0].lstrip(" "))]
        joined = " ".join(line.strip() for line in lines)
        paragraphs.append("\n".join(_fill(joined, width, lead, lead)))
    return "\n\n".join(paragraphs)


def fit(name: Any, width: int, indent: int = 0) -> str:
    """A name in a table column `width` wide: padded, or when longer, alone on its line with the rest
    of the row on the next, after `indent + width` spaces."""
    name = str(name)
    return f"{name:<{width}}" if len(name) <= width else f"{name}\n{' ' * (indent + width)}"


class _QuietCache(jinja2.FileSystemBytecodeCache):
    """Compiled templates kept between commands (compiling them costs a command more than the rest of
    its work); a cache that cannot be read or written is no cache, never an error."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (OSError, ValueError, EOFError):
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass


def bytecode_cache(kind: str) -> jinja2.BytecodeCache | None:
    """The compiled templates of one kind of environment (`kind`: each environment's own settings
    compile differently), under $PBEM_CACHE, else $XDG_CACHE_HOME/pbem, else ~/.cache/pbem; none
    where it cannot be made. A template's cached code is used only while its source is unchanged
    (jinja2 checks a checksum)."""
    base = os.environ.get("PBEM_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "pbem")
    folder = os.path.join(base, f"{kind}-py{sys.version_info[0]}{sys.version_info[1]}")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return _QuietCache(folder)


@cache
def env() -> jinja2.Environment:
    e = jinja2.Environment(loader=jinja2.FunctionLoader(_load), autoescape=False, keep_trailing_newline=True,
                           undefined=jinja2.StrictUndefined, bytecode_cache=bytecode_cache("reports"),
                           extensions=["jinja2.ext.i18n"])
    e.filters.update(wrap72=wrap72, wrap_items=wrap_items, reflow=reflow, fit=fit)
    e.install_null_translations(newstyle=True)  # type: ignore[attr-defined]  # English: as written
    return e


def addressed(event: Event) -> list[str] | None:
    """Whom an event is for (`to`, a list of players); None: everyone. An event's own `to` that is not
    a list (a Florenz promotion's new rank) addresses nobody."""
    to = event.get("to")
    return to if isinstance(to, list) else None


def visible(events: list[Event], player: str | None) -> list[Event]:
    """The events a player may read: public ones and those addressed to him (`to`); all (`None`: the GM)."""
    return [e for e in events if player is None or (to := addressed(e)) is None or player in to]


def public(events: list[Event]) -> list[Event]:
    """The events every player may read (what may go where anyone can read it: a commit message)."""
    return [e for e in events if addressed(e) is None]


def event_lines(ruleset: str, events: list[Event]) -> list[str]:
    macro = env().get_template(f"{ruleset}/events.j2").module.event
    return [str(macro(e)).strip() + (f" [substitute move: {e['substitute']}]" if e.get("substitute") else "")
            for e in events]


def summarize_orders(orders: list[Order]) -> list[str]:
    """Legal orders in few words: `pass`, `bid: N (N from 5 to 32)`."""
    out: list[str] = []
    ranges: dict[str, list[int]] = {}
    places: dict[str, list[str]] = {}
    for o in orders:
        if isinstance(o, dict) and len(o) == 1 and isinstance(next(iter(o.values())), int):
            key, value = next(iter(o.items()))
            if key not in ranges:
                ranges[key] = []
                out.append(key)  # placeholder, filled in below
            ranges[key].append(value)
        elif isinstance(o, str) and " " in o:  # `palace grey C7`: grouped by all but the place
            key, _, where = o.rpartition(" ")
            if key not in places:
                places[key] = []
                out.append(key)
            places[key].append(where)
        else:
            out.append(order_text(o))
    for key, values in ranges.items():
        lo, hi = min(values), max(values)
        if lo == hi:
            text = f"{key}: {lo}"
        elif sorted(values) == list(range(lo, hi + 1)):
            text = f"{key}: N (N from {lo} to {hi})"
        else:
            text = f"{key}: N (N one of {' '.join(str(v) for v in sorted(values))})"
        out[out.index(key)] = text
    for key, wheres in places.items():
        text = f"{key} {wheres[0]}" if len(wheres) == 1 else f"{key} X (X one of {' '.join(wheres)})"
        out[out.index(key)] = text
    return out


BLANK = re.compile(r"[A-Z](\.[A-Z])?\Z")  # what a player fills in: N, X, L.P, M...


def turn_file(state: dict[str, Any], player: str, legal: list[Order]) -> str:
    """A turn file ready to fill in, between the reply markers. Every alternative is commented out, so
    the block sent back unchanged gives no order: the player keeps one by deleting its `#`."""
    choices = get_ruleset(state["ruleset"]).order_block([c.split(" (")[0] for c in summarize_orders(legal)])
    blanks = sorted({word for c in choices for word in c.replace(":", " ").split() if BLANK.match(word)})
    fill = f"and fill in {', '.join(blanks[:-1])} and {blanks[-1]}" if len(blanks) > 1 else \
        f"and fill in {blanks[0]}" if blanks else ""
    how = f"# To keep one order, delete the # in front of it{f' ({fill})' if fill else ''}:"
    if len(how) > 72:
        how = f"# To keep one order, delete the # in front of it\n# {fill}:"
    lines = [BEGIN, f"game: {state['game']}", f"player: {player}", "token: YOUR-TOKEN",
             f"turn: {state['engine']['turn']}", "orders:", how]
    lines += [f"#  - {choice}" for choice in choices]
    lines.append(END)
    return "\n".join(lines)


def render_report(state: dict[str, Any], player: str | None, events: list[Event], reply_keys: bool = True) -> str:
    """A turn report: what happened (these events), the table, whose move, and the orders to send
    (`reply_keys`: by a reply of the order alone, else by the block with the token)."""
    shown = show(state, player)
    legal = shown.get("legal_orders", [])
    ruleset = get_ruleset(state["ruleset"])
    standing = env().get_template("common/standing.txt.j2").render(
        standing=[order_text(o) for o in shown.get("standing", [])], kinds=ruleset.standing_help) \
        if player and state["status"] == "active" and ruleset.standing_help else ""
    context = dict(shown, player=player, events=visible(events, player), standing_text=standing,
                   order_choices=summarize_orders(legal),
                   turn_file=turn_file(state, player, legal) if player else "",
                   one_line=order_text(legal[0]) if reply_keys and legal and player else None)
    if "result" not in context:
        context.update(result=None, seed=None)
    return env().get_template(f"{state['ruleset']}/report.txt.j2").render(context)


def render_error(state: dict[str, Any], player: str, turn: int | str | None, orders: list[Order], message: str,
                 standing: list[Any] | None = None) -> str:
    """The report a player gets when his orders are refused; only he receives it."""
    shown = show(state, player)
    what = f"Your orders for turn {turn}:" if isinstance(turn, int) else \
        "Your orders sent ahead (turn: next):" if orders else "Your standing orders:"
    if not orders and standing:
        orders = standing
    return env().get_template("common/error.txt.j2").render(
        ruleset=state["ruleset"], game=state["game"], player=player, turn=turn, what=what,
        orders=[order_text(o) for o in orders], message=message, current_turn=shown["turn"],
        waiting_for=shown["waiting_for"],
        legal=summarize_orders(shown["legal_orders"]) if player in shown["waiting_for"] else [])

