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
from typing import Any, Iterator

import jinja2

from pbem import data_dir
from pbem.errors import Listing, Refusal
from pbem.game import show
from pbem.i18n import DEFAULT_LANGUAGE, common_words, day_text, install, localize, moment_text, number_text, translator
from pbem.rules.base import Event, Order, get_ruleset, order_text, typed_text
from pbem.patterns import Pattern
from pbem.templating import Environment

BEGIN = "----- pbem orders begin -----"
END = "----- pbem orders end -----"
WIDTH = 72  # mail is read in plain-text clients at 72 columns, and on phones
# spaces never broken when a line is wrapped: between a number and its unit (`26 VP`, `5 time`; German
# `26 SP`, `5 Zeiteinheiten`, Dutch `26 WP`, `5 tijdseenheden`), before a score (`anna +10`, `ben 4
# (+2)`), before a `>` (a line starting with `>` reads as a quotation in mail), and inside a quoted order
# of a word and its number (`'prijs: 0'`: a phone shows it as code, and a reader copies it whole)
_UNITS = ("VP|time|points?|gifts?|cards?|tiles?|SP|Zeiteinheit(?:en)?|Punkte?|Geschenke?|Karten?|Plättchen"
          "|WP|tijdseenhe(?:id|den)|punt(?:en)?|geschenk(?:en)?|kaart(?:en)?|tegels?")
_GLUED = Pattern(rf"(?<=\d) (?=(?:{_UNITS})\b)|(?<=\w) (?=\(?[+-]\d|-?\d+->)| (?=>)|(?<=\w:) (?=\d+')")
_GLUE = "\x00"
# a short quoted command (`'standing: []'`, `'sag zu ben: ...'`) is never broken: a reader copies it whole
_QUOTED = Pattern(r"(?<![\w'])'[^'\n]{1,30}'(?![\w'])")


def _fill(text: str, width: int, first: str, rest: str) -> list[str]:
    """`text` broken at spaces into lines of `width` (a word longer than a line stays whole)."""
    for marker in (BEGIN, END):  # a marker line quoted in a sentence is copied whole, so kept whole
        text = text.replace(marker, marker.replace(" ", _GLUE))
    text = _QUOTED.sub(lambda m: m.group(0).replace(" ", _GLUE), text)
    lines = textwrap.wrap(_GLUED.sub(_GLUE, text), width, initial_indent=first, subsequent_indent=rest,
                          break_long_words=False, break_on_hyphens=False, replace_whitespace=False)
    return [line.replace(_GLUE, " ") for line in lines]


def _load(name: str) -> str | None:
    """A template by its name (`medici/report.txt.j2`, `common/error.txt.j2`): pbem's own, or one of a
    game that lives outside pbem/, from that game's `templates/` folder."""
    parts = name.split("/")
    from pbem.rules.base import files_of

    folder = files_of(parts[0], "templates") if len(parts) > 1 else None
    path = folder.joinpath(*parts[1:]) if folder is not None else data_dir("pbem.templates").joinpath(*parts)
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


def refill(text: Any, width: int = WIDTH) -> str:
    """Paragraphs kept as they are written where every line fits in `width`; a paragraph with a line
    too long (a translation, a long subject filled in) is refilled whole (`reflow`), so that it is
    never broken a second time with a word alone on a line."""
    paragraphs = []
    for para in str(text).strip("\n").split("\n\n"):
        fits = all(len(line) <= width for line in para.split("\n"))
        paragraphs.append(para if fits else reflow(para, width))
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
        """The file read whole, its code unmarshalled from memory: marshal reading a file asks it for
        each name and constant of the code, which costs four times as much."""
        import io
        import marshal
        import pickle

        try:
            with open(self._get_cache_filename(bucket), "rb") as f:
                data = f.read()
            head = io.BytesIO(data)
            if head.read(len(jinja2.bccache.bc_magic)) != jinja2.bccache.bc_magic or \
                    pickle.load(head) != bucket.checksum:  # another jinja2's, or another source's
                bucket.reset()
                return
            bucket.code = marshal.loads(memoryview(data)[head.tell():])
        except (OSError, ValueError, EOFError, TypeError, pickle.UnpicklingError):
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
    from pbem.usercache import user_cache

    folder = os.path.join(user_cache(), f"{kind}-py{sys.version_info[0]}{sys.version_info[1]}")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return _QuietCache(folder)


def _moment(stamp: Any) -> Any:
    from datetime import datetime

    return stamp if isinstance(stamp, datetime) else datetime.fromisoformat(str(stamp).replace("Z", "+00:00"))


class _Templates(Environment):
    """The reports' environment. Its words are installed by `pbem.i18n.install`; jinja2.ext.i18n,
    which reads `{% trans %}`, is loaded where a template is first read from its source (jinja2 asks
    for the extensions only there), not for one whose compiled code the cache holds."""

    def iter_extensions(self) -> Iterator[Any]:
        if not self.extensions:  # (it has no other)
            self.add_extension("jinja2.ext.i18n")
        return super().iter_extensions()


def _environment(lang: str, game: str | None) -> jinja2.Environment:
    e = _Templates(loader=jinja2.FunctionLoader(_load), autoescape=False, keep_trailing_newline=True,
                   undefined=jinja2.StrictUndefined, bytecode_cache=bytecode_cache("reports"))
    install(e, lang, game)
    # `words`: an order in the reader's order words; `number`: a number as his language writes it (English:
    # the digits alone); `moment`: an ISO stamp as his language writes a date and time (the template
    # passes the reader's `zone`)
    e.filters.update(wrap72=wrap72, wrap_items=wrap_items, reflow=reflow, refill=refill, fit=fit,
                     words=lambda text: localize(str(text), game, lang),
                     number=lambda value: number_text(value, lang),
                     moment=lambda stamp, zone=None: moment_text(_moment(stamp), lang, zone))
    e.globals["lang"] = lang
    e.globals["substitute_words"] = substitute_words
    e.globals["common_"] = common_words(lang)
    e.globals.update(MOVE=MOVE, BLOCK=BLOCK, SEED=SEED)  # the parts `move_first` puts in their place
    return e


@cache
def env() -> jinja2.Environment:
    """The templates in English, as written."""
    return _environment(DEFAULT_LANGUAGE, None)


@cache
def env_for(lang: str = DEFAULT_LANGUAGE, game: str | None = None) -> jinja2.Environment:
    """The templates in `lang`, with the words of `game`'s catalog (then the common one); English is
    `env()` itself. One environment per language and game, made once."""
    if lang == DEFAULT_LANGUAGE:
        return env()
    return _environment(lang, game)


# marks a report template writes around three parts, which `move_first` takes out and puts in their place
MOVE, BLOCK, SEED = "\x1e", "\x1d", "\x1c"


def _taken(text: str, mark: str) -> tuple[str, str]:
    """The part of `text` between the two `mark`s (empty: none), and the text without it."""
    start = text.find(mark)
    end = text.find(mark, start + 1) if start >= 0 else -1
    if end < 0:
        return "", text.replace(mark, "")
    return text[start + 1:end], text[:start] + text[end + 1:]


def _blank_lines(text: str) -> str:
    """`text` with at most one blank line in a row."""
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text


def move_first(text: str) -> str:
    """A report in the order its reader needs it: what is asked of him (his move, or whom the game waits
    for) first, then what happened, the board and the tables, the order block to fill in, and the seed's
    hash last. The templates mark the three parts that move (`MOVE`, `BLOCK`, `SEED`)."""
    block, text = _taken(text, BLOCK)
    move, text = _taken(text, MOVE)
    seed, text = _taken(text, SEED)
    parts = [move.strip("\n"), text.strip("\n"), block.strip("\n"), seed.strip("\n")]
    return _blank_lines("\n\n".join(p for p in parts if p)) + "\n"


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


def event_lines(ruleset: str, events: list[Event], lang: str = DEFAULT_LANGUAGE,
                options: dict[str, Any] | None = None) -> list[str]:
    """One line per event, in `lang`; `options`: the game's (an edition may name a thing otherwise)."""
    _ = translator(lang, ruleset).gettext
    macro = env_for(lang, ruleset).get_template(f"{ruleset}/events.j2").make_module({"options": options or {}}).event
    return [str(macro(e)).strip() + (_(" [substitute move: %(why)s]") % {"why": substitute_words(e["substitute"], lang)}
                                     if e.get("substitute") else "")
            for e in events]


def substitute_words(policy: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """The deadline policy that gave a substitute move (`default`, `bot`: pbem.yaml's words, which
    English writes as they are), in `lang`."""
    words = translator(lang)
    named = {"default": words.pgettext("deadline policy", "default"), "bot": words.pgettext("deadline policy", "bot")}
    return named.get(policy, policy)


def summarize_orders(orders: list[Order], lang: str = DEFAULT_LANGUAGE, game: str | None = None) -> list[str]:
    """Legal orders in few words: `pass`, `bid: N (N from 5 to 32)`; in `lang`'s words for `game`."""
    _ = translator(lang, game).gettext
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
            key, _sep, where = o.rpartition(" ")
            if key not in places:
                places[key] = []
                out.append(key)
            places[key].append(where)
        else:
            out.append(localize(typed_text(o), game, lang))
    for key, values in ranges.items():
        lo, hi = min(values), max(values)
        word = localize(key, game, lang)
        if lo == hi:
            text = f"{word}: {lo}"
        elif sorted(values) == list(range(lo, hi + 1)):
            text = f"{word}: N " + _("(N from %(lo)s to %(hi)s)") % {"lo": lo, "hi": hi}
        else:
            text = f"{word}: N " + _("(N one of %(values)s)") % {"values": " ".join(str(v) for v in sorted(values))}
        out[out.index(key)] = text
    for key, wheres in places.items():
        word = localize(key, game, lang)
        text = f"{word} {localize(wheres[0], game, lang)}" if len(wheres) == 1 else \
            f"{word} X " + _("(X one of %(places)s)") % {"places": " ".join(localize(w, game, lang) for w in wheres)}
        out[out.index(key)] = text
    return out


BLANK = Pattern(r"[A-Z](\.[A-Z])?\Z")  # what a player fills in: N, X, L.P, M...


def turn_file(state: dict[str, Any], player: str, legal: list[Order], lang: str = DEFAULT_LANGUAGE) -> str:
    """A turn file ready to fill in, between the reply markers. Every alternative is commented out, so
    the block sent back unchanged gives no order: the player keeps one by deleting its `#`. The keys
    stay as the schema spells them; the orders are in `lang`'s words, which pbem reads back."""
    game = state["ruleset"]
    _ = translator(lang, game).gettext
    choices = get_ruleset(game).order_block([c.split(" (")[0] for c in summarize_orders(legal)])
    choices = [localize(c, game, lang) for c in choices]
    given = {str(v) for o in legal if isinstance(o, dict) for v in o.values()}  # `harbour B`: a value, no blank
    blanks = sorted({word for c in choices for word in c.replace(":", " ").split()
                     if BLANK.match(word) and word not in given})
    fill = _("and fill in %(blanks)s and %(last)s") % {"blanks": ", ".join(blanks[:-1]), "last": blanks[-1]} \
        if len(blanks) > 1 else _("and fill in %(blank)s") % {"blank": blanks[0]} if blanks else ""
    keep = _("# To keep one order, delete the # in front of it")
    how = f"{keep} ({fill}):" if fill else f"{keep}:"
    if len(how) > 72:
        how = f"{keep}\n# {fill}:"
    lines = [BEGIN, f"game: {state['game']}", f"player: {player}", "token: YOUR-TOKEN",
             f"turn: {state['engine']['turn']}", "orders:", how]
    lines += [f"#  - {choice}" for choice in choices]
    lines.append(END)
    return "\n".join(lines)


@cache
def _notice_formats() -> list[tuple[re.Pattern[str], str]]:
    """Each notice's English format as a pattern that finds its values back in a text written from it:
    for a notice a game kept before notices had ids."""
    from pbem.game import NOTICES

    out = []
    for fmt in NOTICES:
        parts = re.split(r"%\((\w+)\)s", fmt)
        out.append((re.compile("".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.*?)" for i, p in enumerate(parts))
                               + r"\Z", re.DOTALL), fmt))
    return out


def _written(text: str, formats: list[tuple[re.Pattern[str], str]], lang: str, game: str | None,
             whole: bool) -> str:
    """`text`, written from one of `formats`, in `lang` (an order in it in `lang`'s words); a text of no
    format is translated whole (`whole`) or kept as it is."""
    if lang == DEFAULT_LANGUAGE:
        return text
    _ = translator(lang).gettext
    for pattern, fmt in formats:
        found = pattern.match(text)
        if found:
            args = {k: localize(v, game, lang) if k == "order" else v for k, v in found.groupdict().items()}
            return _(fmt) % args
    return _(text) if whole else text


def notice_text(text: str, lang: str = DEFAULT_LANGUAGE, game: str | None = None) -> str:
    """One of pbem's own notices (a substitute move, a new player...) kept without its id, in `lang`:
    found by its English format, written from its values (an order in `lang`'s order words)."""
    return _written(text, _notice_formats(), lang, game, whole=True)


def refusal_text(text: Refusal | str, lang: str = DEFAULT_LANGUAGE, game: str | None = None) -> str:
    """A refusal in `lang`: written from its id (`refusal_words`). A text without an id (a GM's
    message, something pbem has no words for) stays as it is."""
    if isinstance(text, Refusal):
        return refusal_words(text, lang, game)
    return str(text)


def refusal_words(refusal: Refusal, lang: str = DEFAULT_LANGUAGE, game: str | None = None) -> str:
    """A refusal written from its id in `lang`: its format's words in the catalog (the game's, then
    pbem's), its values in the player's words (a refusal it holds written the same way, an order in
    his order words, a place in a file as the schema spells it), and the refusals it lists under it."""
    if lang == DEFAULT_LANGUAGE:
        return str(refusal)
    translated = translator(lang, game)
    args: dict[str, Any] = {}
    for key, value in refusal.values.items():
        if isinstance(value, Refusal):
            args[key] = refusal_words(value, lang, game)
        elif not isinstance(value, str):
            args[key] = value
        elif _ISO_DAY.fullmatch(value):  # a day (`until`, `since`) as the reader's language writes one
            from datetime import date

            args[key] = day_text(date.fromisoformat(value), lang)
        elif key == "order" and value[:1] in ("'", '"'):
            args[key] = value[0] + localize(value[1:-1], game, lang) + value[-1]
        elif key in PERSONS or key in AS_WRITTEN:
            args[key] = value
        elif key == "kind" and translated.pgettext("piece", value) != value:  # what stands on a square
            args[key] = translated.pgettext("piece", value)
        elif key == "kind" and localize(value, game, lang) == value:  # a kind of decision: the game's word
            args[key] = translated.pgettext("decision", value)
        else:
            args[key] = localize(value, game, lang)
    words = re.sub(r"(['`])([^'`%]*)\1", lambda m: m.group(1) + localize(m.group(2), game, lang) + m.group(1),
                   translated.gettext(refusal.fmt))
    words = words % args if args else words
    if isinstance(refusal, Listing):
        words += "".join(f"\n  - {refusal_words(item, lang, game)}" for item in refusal.items)
    return words


_ISO_DAY = Pattern(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
PERSONS = {"player", "players", "owner", "game", "title", "person", "one", "other"}  # values written as they are
# values kept as the sender or the schema wrote them: a place in a file (`orders[2].bid`), a file name, a
# marker line; and a sentence with no id (what YAML's parser said, unknown to pbem). A key (`bid`) is
# written in the player's order words.
AS_WRITTEN = {"place", "name", "names", "begin", "end", "why", "what", "where", "tag",
              "seat", "before", "waiting", "undone", "until", "rule"}  # (and a notice's names, dates, rules)


def _refusals_module(game: str | None) -> Any:
    """A game's module of refusal formats (`MODULE_refusals` or `MODULE.refusals`, beside its rules:
    pbem.rules.contract.FILES), None where it has none."""
    import importlib

    from pbem.rules.base import KNOWN

    name = KNOWN.get(game or "")
    for module in (f"{name}.refusals", f"{name}_refusals") if name else ():
        try:
            return importlib.import_module(module)
        except ModuleNotFoundError:
            continue
    return None


def engine_refusals(game: str | None) -> tuple[str, ...]:
    """The English formats of a game's rules' refusals and of its schemas' messages (none known: empty)."""
    from pbem.rules.base import schema_messages

    module = _refusals_module(game)
    return tuple(module.REFUSALS) + schema_messages(game or "") if module is not None else ()


def engine_catalog_words(game: str | None) -> tuple[str, ...]:
    """What a game's rules put in its catalog besides its templates: the refusals' formats, its schemas'
    messages and the standing orders' help texts (pbem/rules/*refusals.py), and its options in words."""
    from pbem.rules.base import get_ruleset

    module = _refusals_module(game)
    if module is None:
        return ()
    return engine_refusals(game) + tuple(getattr(module, "STANDING_HELP", ())) + \
        tuple(get_ruleset(game).option_words.values())


def notices_in(events: list[Event], lang: str = DEFAULT_LANGUAGE, game: str | None = None) -> list[Event]:
    """The events with pbem's own notices in `lang`, each written from its id and values (a notice
    kept before notices had ids: see `notice_text`)."""
    if lang == DEFAULT_LANGUAGE:
        return events
    from pbem.game import NOTICE_MESSAGES, from_data

    out = []
    for e in events:
        if e.get("pipeline") and e.get("msg") in NOTICE_MESSAGES:
            said = from_data(e["msg"], NOTICE_MESSAGES[e["msg"]], e.get("values") or {})
            e = dict(e, text=refusal_words(said, lang, game))
        elif e.get("pipeline") and isinstance(e.get("text"), str):
            e = dict(e, text=notice_text(e["text"], lang, game))
        out.append(e)
    return out


def mark_report(text: str, state: dict[str, Any], lang: str) -> str:
    """A report with the line naming the bots' seats, above its seed commitment (near its top)."""
    from pbem.tablebots import bots_line

    line = bots_line(state, lang)
    if line is None:
        return text
    lines = text.split("\n")
    at = next((i for i, one in enumerate(lines) if one.rstrip().endswith("(sha256):")), 1)
    return "\n".join(lines[:at] + [wrap72(line, 2)] + lines[at:])


def render_report(state: dict[str, Any], player: str | None, events: list[Event], reply_keys: bool = True,
                  lang: str = DEFAULT_LANGUAGE, zone: str | None = None) -> str:
    """A turn report in `lang`: what happened (these events), the table, whose move, and the orders to
    send (`reply_keys`: by a reply of the order alone, else by the block with the token). `zone`: the
    time zone the reader's times are written in."""
    shown = show(state, player)
    legal = shown.get("legal_orders", [])
    game = state["ruleset"]
    ruleset = get_ruleset(game)
    shown["view"] = ruleset.view_in(shown["view"], player, lang)  # the text the game's view writes, in `lang`
    decision = ruleset.decision(state["engine"]) if state["status"] != "finished" else None
    templates = env_for(lang, game)
    standing = templates.get_template("common/standing.txt.j2").render(
        standing=[localize(typed_text(o), game, lang) for o in shown.get("standing", [])],
        kinds={localize(k, game, lang): v for k, v in ruleset.standing_help.items()}) \
        if player and state["status"] == "active" and ruleset.standing_help else ""
    context = dict(shown, player=player, events=notices_in(visible(events, player), lang, game), standing_text=standing,
                   order_choices=summarize_orders(legal, lang, game),
                   turn_file=turn_file(state, player, legal, lang) if player else "",
                   one_line=localize(typed_text(legal[0]), game, lang) if reply_keys and legal and player else None,
                   together=bool(decision and decision.together), zone=zone)
    if "result" not in context:
        context.update(result=None, seed=None)
    return mark_report(move_first(templates.get_template(f"{game}/report.txt.j2").render(context)), state, lang)


def render_error(state: dict[str, Any], player: str, turn: int | str | None, orders: list[Order], message: str,
                 standing: list[Any] | None = None, lang: str = DEFAULT_LANGUAGE) -> str:
    """The report a player gets when his orders are refused, in `lang`; only he receives it."""
    shown = show(state, player)
    game = state["ruleset"]
    _ = translator(lang, game).gettext
    what = _("Your orders for turn %(turn)s:") % {"turn": turn} if isinstance(turn, int) else \
        _("Your orders sent ahead (turn: next):") if orders else _("Your standing orders:")
    if not orders and standing:
        orders = standing
    return env_for(lang, game).get_template("common/error.txt.j2").render(
        ruleset=game, game=state["game"], player=player, turn=turn, what=what,
        orders=[localize(typed_text(o), game, lang) for o in orders], message=refusal_text(message, lang, game),
        current_turn=shown["turn"],
        waiting_for=shown["waiting_for"],
        legal=summarize_orders(shown["legal_orders"], lang, game) if player in shown["waiting_for"] else [])

