"""The orders in a player's mail: a turn file attached or in the text, or order lines between the
report's marker lines."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from pbem.talk import TALK_LINE
from pbem.errors import Refusal, TurnFileError, mapped
from pbem.mail.ids import mail_thread
from pbem.mail.incoming import Incoming, mail_parts, once
from pbem.mail.own_text import as_typed, own_text, typed
from pbem.mail.seats import Proven
from pbem.mail.secrets import ENVELOPE_LINE, TOKEN_LINE, hide_tokens, tokens_in_text
from pbem.refusals import at, refuse
from pbem.report import BEGIN, END
from pbem.store import dump_yaml
from pbem.turnfile import KEY_WORDS, VALUE_WORDS, Source, fold_case, load_yaml, schema, without_line

ENVELOPE_KEYS = ("game", "player", "token", "turn")
LINE_KEYS = ENVELOPE_KEYS + ("reports",)  # the keys an order line may give besides orders


def between_markers(text: str) -> tuple[str, int] | None:
    """The lines between the marker lines, and how many lines of `text` come before them."""
    lines = text.split("\n")
    # (as_typed maps no character to or from `\n`: the whole text at once, as each of its lines)
    seen = [line.strip() for line in as_typed(text).split("\n")]
    starts = [i for i, line in enumerate(seen) if line == BEGIN]
    if not starts:
        return None
    ends = [i for i, line in enumerate(seen) if line == END and i > starts[0]]
    if not ends:
        raise TurnFileError(refuse("no-end-line", begin=repr(BEGIN), end=repr(END)))
    return "\n".join(lines[starts[0] + 1:ends[0]]), starts[0] + 1


# A whole turn file in a mail's text: a line `orders:` (in another case only as YAML writes a key: an
# `Orders: see the attachment` is prose), or a line `standing:` with its list below it in a text that
# names its game (order lines give each standing order on its own `standing:` line).
TURN_FILE_LINE = re.compile(r"^(orders\s*:|(?i:orders)\s*:\s*(#.*|\[.*)?$)", re.MULTILINE)
STANDING_LIST = re.compile(r"^standing\s*:\s*(#.*)?$", re.IGNORECASE | re.MULTILINE)
GAME_LINE = re.compile(r"^game\s*:", re.IGNORECASE | re.MULTILINE)


def _is_turn_file(text: str) -> bool:
    return bool(TURN_FILE_LINE.search(text) or STANDING_LIST.search(text) and GAME_LINE.search(text))


Found = tuple[dict[str, Any], Source]


def _found(value: dict[str, Any], text: str, what: Refusal,
           names: dict[tuple, tuple[int, Refusal]] | None = None) -> Found:
    """The turn file as a mapping, its envelope in the schema's case (`Game: M1` is `game: m1`), its
    orders as sent; and the bytes to submit, which name the player's own lines in an error: the lines
    of his mail, or of his order block."""
    return fold_case(value, schema("turnfile")), Source(text, what, names)


class NoOrders(TurnFileError):
    """A mail that holds no orders at all: no turn file, no marker lines, no reply key."""


def find_orders(mail: Incoming) -> dict[str, Any]:
    """The turn file a mail carries, as a mapping (see `orders_in`)."""
    return orders_in(mail)[0]


def orders_in(mail: Incoming, proven: Proven | None = None) -> Found:
    """The turn file a mail carries: an attachment, the body, or the order lines between the report's
    reply markers. Order lines need no envelope: game, player and turn come from the report the mail
    answers, the token from a `token:` line. Returns the turn file as a mapping (not yet checked) and
    the bytes to submit, which name the player's own lines in an error.
    A mail that holds orders in more than one of these places is refused: pbem does not guess.
    With `proven` (the mail carries its sender's reply key) no token is needed, and without marker
    lines the player's own text, above the quote and his signature, is his order lines."""
    attachments, plain, markup = mail_parts(mail)
    body = _own(plain, markup, keep_places=True, below_quote=False)
    marked = between_markers(body) if body is not None else None
    block, before = marked if marked is not None else (None, 0)
    text = block if block is not None else body
    turn_file = text is not None and _is_turn_file(text)
    in_text = turn_file or (block is not None and _holds_orders(block))
    if len(attachments) + in_text > 1:
        raise TurnFileError(_twice(in_text, [name for name, _ in attachments]))
    if attachments:
        name, content = attachments[0]
        return _turn_file(content, refuse("the-attachment", name=repr(name)),
                          refuse("attachment-not-a-turn-file", name=repr(name)))
    if text is None:
        raise TurnFileError(refuse("no-text"))
    if turn_file:  # its lines keep their numbers in the mail; typed in a mail client, as order lines are
        return _turn_file("\n" * before + as_typed(text), refuse("the-turn-file-in-the-mail"),
                          refuse("mail-turn-file-not-a-mapping"))
    # his own text first: the quote is looked at only when it gives no order, and never refuses a mail
    # whose own lines do
    if block is None and proven is not None and any(typed(line) for line in text.split("\n")):
        try:
            return order_lines(text, mail, proven, own=True)
        except NoOwnOrder:
            # his lines under a top-posted quote ("Hi," above it, `draw` below), read only when those above
            # give no order: a quoted line some client broke off never adds to orders he wrote
            full = _own(plain, markup, keep_places=True, below_quote=True) or ""
            if full != text and any(typed(line) for line in full.split("\n")):
                try:
                    return order_lines(full, mail, proven, own=True)
                except NoOwnOrder:
                    pass
            if plain is not None and _orders_in_quote(plain, True):
                raise TurnFileError(refuse("in-quote", where=refuse("above-the-quote"))) from None
            raise
    if block is None and plain is not None and _orders_in_quote(plain, proven is not None):
        where = refuse("above-the-quote" if proven is not None else "own-markers")
        raise TurnFileError(refuse("in-quote", where=where))
    if block is None:
        if proven is not None:
            raise TurnFileError(refuse("no-own-order"))
        raise NoOrders(refuse("no-orders", begin=repr(BEGIN), end=repr(END)))
    return order_lines(block, mail, proven)


def _own(plain: str | None, markup: str | None, keep_places: bool = False, below_quote: bool = True) -> str | None:
    """The own text of a mail's plain part, else of its HTML part as text (None: neither)."""
    if plain is not None:
        return own_text(plain, keep_places=keep_places, below_quote=below_quote)
    if markup is not None:
        from pbem.mail.html import html_to_text  # the HTML reader is loaded for an HTML mail alone

        return own_text(html_to_text(markup), keep_places=keep_places, below_quote=below_quote)
    return None


class NoOwnOrder(TurnFileError):
    """A reply whose own lines give no order (a greeting alone, a name)."""


# the `>` marks that begin a line, with the blanks between them (a blank is never the `\n` that ends a line)
QUOTE_MARKS = re.compile(r"^(?:[^\S\n]*>)+ ?", re.MULTILINE)


def _orders_in_quote(body: str, proven: bool = False) -> bool:
    """Whether the player filled in the order block of the report his mail quotes (with '>', or below a
    reply header, where `own_text` does not look): a token there is his own writing (a report only ever
    shows the placeholder). A common slip, which gets its own answer."""
    try:
        marked = between_markers(QUOTE_MARKS.sub("", body.replace("\r\n", "\n")))
    except TurnFileError:
        return False
    # (with a reply key he needs no token: an order line there without its '#' is his writing too)
    return marked is not None and (bool(tokens_in_text(marked[0])) or proven and _holds_orders(marked[0]))


ORDERS_KEY = re.compile(r"^orders\s*:\s*(#.*)?$", re.IGNORECASE)  # the list's key, with no order of its own


def _holds_orders(block: str) -> bool:
    """Whether the lines between the markers give an order (not only the token or the envelope)."""
    for line in block.split("\n"):
        text = line.strip().removeprefix("- ").strip()
        if text and not text.startswith("#") and not ENVELOPE_LINE.match(text) and not ORDERS_KEY.match(text):
            return True
    return False


def _twice(in_text: bool, names: list[str]) -> Refusal:
    """Why a mail with orders in several places is refused, naming the places."""
    quoted = [repr(n) for n in names]
    if in_text and len(quoted) == 1:
        return refuse("twice-text-and-one", name=quoted[0])
    if not in_text and len(quoted) == 2:
        return refuse("twice-two", names=quoted[0], name=quoted[1])
    return refuse("times-text-and-more" if in_text else "times-more", n=len(names) + in_text,
                  names=", ".join(quoted[:-1]), name=quoted[-1])


def _turn_file(text: str, what: Refusal, not_a_mapping: Refusal) -> Found:
    """A whole turn file from a mail, submitted as the player wrote it; its token is never quoted in an
    error."""
    value, lines = _load(text, what)
    if not isinstance(value, dict):
        raise TurnFileError(not_a_mapping)
    token = next((k for k in value if isinstance(k, str) and k.casefold() == "token"), None)
    if token is not None and not isinstance(value[token], str):
        line = lines.get((token,))
        where = refuse("what-token-line", what=what, line=line) if line else refuse("what-token", what=what)
        raise TurnFileError(at(where, refuse("token-not-text")))
    return _found(value, text, what)


def _load(text: str, what: Refusal, one_line: bool = False) -> tuple[Any, dict[tuple, int]]:
    """`load_yaml` for text from a mail: an error names the token line as such, never quotes a token,
    and (`one_line`: the text is one line of the mail) names no line within the line."""
    try:
        return load_yaml(text, what, case_blind=True)
    except TurnFileError as exc:
        said = exc.refusal
        where = said.values.get("place") if isinstance(said, Refusal) and said.msg == "at" else None
        if isinstance(where, Refusal) and where.msg == "what-line" and where.values["what"] is what:
            if one_line:
                said = without_line(said)
            else:
                lines = text.split("\n")
                n = int(where.values["line"])  # type: ignore[call-overload]
                # an unclosed quote runs on: the error is found further down than the token line
                opened = [i for i, line in enumerate(lines[:n], start=1) if TOKEN_LINE.match(line.strip())
                          and _unclosed(line)]
                if 0 < n <= len(lines) and TOKEN_LINE.match(lines[n - 1].strip()) or opened:
                    n = n if not opened else opened[-1]
                    said = at(refuse("what-token-line", what=what, line=n), said.values["why"])  # type: ignore[union-attr]
        tokens = tokens_in_text(text)
        raise TurnFileError(mapped(said, lambda value: hide_tokens(value, tokens))) from None


def _unclosed(line: str) -> bool:
    """Whether a `token: ...` line opens a quote it does not close."""
    value = line.partition(":")[2].strip()
    return bool(value) and value[0] in "\"'" and (len(value) == 1 or value[-1] != value[0])


ORDER_BLOCK = refuse("the-order-block")  # what an error calls the order lines of a mail
OWN_REPLY = refuse("your-reply")  # and the lines of a reply without marker lines


STANDING_LINE = re.compile(r"^standing\s*:(.*)$", re.IGNORECASE)

KEY_LINE = re.compile(rf"^({'|'.join(KEY_WORDS)})(\s*:)(.*)$", re.IGNORECASE)


def english_keys(line: str) -> str:
    """An order line with a German or Dutch key (and the word of its value) in pbem's own English:
    `zug: nächster` is `turn: next`, `vast: maxbod: 9` is `standing: maxbod: 9`; other lines as they are."""
    found = KEY_LINE.match(line)
    if not found:
        return line
    key = KEY_WORDS[found.group(1).casefold()]
    value = found.group(3).strip()
    value = VALUE_WORDS.get(key, {}).get(value.casefold(), value)
    return f"{key}{found.group(2)} {value}".rstrip() if value else f"{key}{found.group(2)}"


NEXT_LINE = re.compile(r"^next\s*:\s*(.*)$", re.IGNORECASE)
# what a player writes around his orders in a reply: a greeting, thanks, a closing with his name (and
# the courtesy words of every language in pbem/mail/replywords/)
_PLEASANTRY = re.compile(
    r"^(hi|hello|hey|dear|hallo|hoi|moin|servus|thanks|thank you|thx|ty|cheers|regards|best|best regards|"
    r"kind regards|greetings|danke|danke schön|vielen dank|grüße|viele grüße|liebe grüße|gruß|lg|vg|mfg|"
    r"bedankt|dank je|dank je wel|dankjewel|groeten|groetjes|met vriendelijke groet|mvg|ciao|bye)"
    r"(?:[\s,.!]+[\w.-]{1,30})?[\s,.!]*$", re.IGNORECASE)


class _Pleasantry:
    """Matches a greeting or a closing, in English, German, Dutch or a language of the reply words."""

    @staticmethod
    def match(text: str) -> bool:
        from pbem.mail.own_text import reply_words

        return bool(_PLEASANTRY.match(text) or reply_words().courtesy.match(text))


PLEASANTRY = _Pleasantry()


def order_lines(block: str, mail: Incoming, proven: Proven | None = None, own: bool = False) -> Found:
    """`bid: 7` and `pass` lines (with `token: ...`) into a turn file, the rest taken from the thread.
    Besides orders, a line may give `turn: next` (the orders answer his next decision), `reports: all`
    or `moves`, and `standing: ORDER` (one standing order a line; all of them replace his standing
    orders; `standing: []` clears them). Keys and words may come in any case. With `proven` (the
    mail's reply key proved its sender) no token is needed; `own`: the lines are the player's own text
    of a reply (no marker lines), where greetings and closings are passed over and `next: ORDER` sends
    an order ahead. An error names the line
    (counting the lines that are not blank), here and in every later check of the turn file built from
    them; a line that gives or mentions the token is never quoted."""
    turnfile: dict[str, Any] = {}
    orders: list[Any] = []
    standing: list[Any] | None = None
    names: dict[tuple, tuple[int, Refusal]] = {}  # the place each line gave in the turn file: its line and name
    lines = [text for text in map(typed, block.split("\n")) if text]  # HTML mail has blank ones between
    ahead: list[bool] = []  # for each order: whether it was written `next: ...`
    his_names = {w.casefold() for w in (mail.sender_name, *mail.sender_name.split()[:1],
                                        proven.player if proven else "") if w}
    game = proven.state.get("ruleset") if own and proven is not None else None
    passed: list[str] = []  # the lines below his orders that are no orders: passed over, and told so
    for n, text in enumerate(lines, start=1):
        if text.startswith("#"):
            continue
        if own and (PLEASANTRY.match(text) or text.rstrip(",.!").casefold() in his_names):
            continue  # "Hi," and "Cheers, Anna" around the orders of a reply
        if own and TALK_LINE.match(text):
            continue  # table talk, passed on to the other players (`pbem.mail.talk`)
        if game is not None:
            judged = judge_line(text, game, _language(proven))
            ended = bool(orders or standing is not None or names)
            if isinstance(judged, tuple) and ended and _is_name(text):
                judged = False  # `Drew` or `Walt` under the orders signs them: passed over, and told so
            if isinstance(judged, tuple):  # a near miss of an order word: refused, with the word meant
                raise TurnFileError(at(refuse("order-line", n=n, order=repr(text)),
                                       refuse("not-an-order-word", word=repr(judged[0]), meant=repr(judged[1]))))
            if not judged and ended:
                passed = lines[n - 1:]  # a signature, a name, the client's words: his orders have ended
                break
        text = english_keys(text)
        sent_ahead = NEXT_LINE.match(text) if own else None
        if sent_ahead:
            text = sent_ahead.group(1).strip()
        if own and proven is not None and not sent_ahead:
            text = _bare_amount(text, proven)
        text = text[1:].strip() if text.startswith(("- ", "-\t")) or text == "-" else text
        if not TOKEN_LINE.match(text):
            text = text.rstrip(".!").rstrip() or text  # `draw.`: an order ended as a sentence is that order
        mentions = re.search("token", text, re.IGNORECASE)
        label = refuse("order-line-token", n=n) if mentions else refuse("order-line", n=n, order=repr(text))
        if TOKEN_LINE.match(text):
            label = refuse("order-line-token", n=n)
            _once(names, ("token",), label)
            turnfile["token"] = _token_line(text, label)
            names[("token",)] = (n, label)
            continue
        given = STANDING_LINE.match(text)
        if given:
            rest = given.group(1).strip()
            if not rest or rest.startswith("#"):
                raise TurnFileError(at(label, refuse("standing-line")))
            value, _ = _load(rest, label, one_line=True)
            if standing is None:
                standing = []
            for item in value if isinstance(value, list) else [value]:
                names[("standing", len(standing))] = (n, label)
                standing.append(item)
            continue
        value, _ = _load(text, label, one_line=True)
        key = next(iter(value)) if isinstance(value, dict) and len(value) == 1 else None
        if isinstance(key, str) and key.casefold() in LINE_KEYS:
            key = key.casefold()
            if key == "token" and not isinstance(value[next(iter(value))], str):
                raise TurnFileError(at(refuse("order-line-token", n=n), refuse("token-not-text")))
            _once(names, (key,), label)
            turnfile[key] = next(iter(value.values()))
            names[(key,)] = (n, label)
        else:
            names[("orders", len(orders))] = (n, label)
            orders.append(value)
            ahead.append(bool(sent_ahead))
    # else the turn file check would name a line of a file the player never wrote
    if "token" not in turnfile and proven is None:
        raise TurnFileError(refuse("no-token-line", begin=repr(BEGIN), end=repr(END)))
    if not orders and standing is None and "reports" not in turnfile:
        if own:
            raise NoOwnOrder(refuse("no-own-order"))
        raise TurnFileError(refuse("no-order-between", begin=repr(BEGIN), end=repr(END)))
    if any(ahead) and not all(ahead):
        n = names[("orders", ahead.index(False) if ahead[0] else ahead.index(True))][0]
        raise TurnFileError(at(refuse("order-line-n", n=n), refuse("now-and-ahead")))
    if any(ahead):
        if "turn" in turnfile and turnfile["turn"] != "next":
            raise TurnFileError(refuse("turn-and-ahead"))
        turnfile["turn"] = "next"
    thread = (proven.game, proven.player, proven.turn) if proven is not None else mail_thread(mail)
    if thread:
        turnfile.setdefault("game", thread[0])
        turnfile.setdefault("player", thread[1])
        if orders:  # standing orders and reports alone answer no turn
            turnfile.setdefault("turn", thread[2])
    missing = [k for k in ("game", "player", "turn") if k not in turnfile and (orders or k != "turn")]
    if missing:
        raise TurnFileError(refuse("which-game", keys=", ".join(f"{k}:" for k in missing)))
    if orders:
        turnfile["orders"] = orders
    if standing is not None:
        turnfile["standing"] = standing
    value = fold_case(turnfile, schema("turnfile"))
    found = _found(value, dump_yaml(value), OWN_REPLY if own else ORDER_BLOCK, names)
    # (a line naming the token is never quoted back)
    kept = [line for line in passed if not re.search("token", line, re.IGNORECASE)]
    found[1].passed = kept  # type: ignore[attr-defined]
    return found


def _language(proven: Proven) -> str:
    from pbem.i18n import language_of

    try:
        return language_of(proven.state, proven.player)
    except Exception:  # a seat's language is a nicety here: English words are always known
        return "en"


# What a line of a reply may begin with besides an order: the keys an order line gives, and the reply's own
# words for orders sent ahead and standing orders.
LINE_WORDS = frozenset((*LINE_KEYS, "standing", "next", "orders", *KEY_WORDS))


@cache
def order_starts(game: str) -> dict[str, frozenset[str]]:
    """The words an order of `game` may begin with, case-folded: by language ("en" the canonical words of
    its schemas, each other language its own words for them), and "all" of them together."""
    from pbem.i18n import order_words
    from pbem.turnfile import schema

    canonical: set[str] = set()
    for kind in ("orders", "standing"):
        try:
            stack: list[Any] = [schema(f"{game}.{kind}")]
        except (FileNotFoundError, OSError, ValueError):
            continue
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                # a property's name begins an order (`bid: 7`); its value (an enum such as `time|vp`) does not
                canonical.update(k.casefold() for k in (node.get("properties") or {}))
                canonical.update(str(v).casefold() for v in node.get("enum") or [] if isinstance(v, str))
                if isinstance(node.get("pattern"), str):  # `^(start [A-Z]...|palace (grey|...) ...)$`
                    canonical.update(_pattern_starts(node["pattern"]))
                stack.extend(v for k, v in node.items() if isinstance(v, (dict, list)) and k != "properties")
            elif isinstance(node, list):
                stack.extend(node)
    by_language: dict[str, set[str]] = {"en": set(canonical)}
    for word, langs in order_words(game).items():
        if word.casefold() in canonical:
            for lang, spelt in langs.items():
                by_language.setdefault(lang, set()).update(s.casefold() for s in spelt)
    every = set().union(*by_language.values(), LINE_WORDS)
    return {**{k: frozenset(v | LINE_WORDS) for k, v in by_language.items()}, "all": frozenset(every)}


def _is_name(text: str) -> bool:
    """Whether a line is a name alone, as one signs: `Drew`, `-Walt` (one capitalised word)."""
    word = text.strip().lstrip("-").strip().rstrip(".!")
    return word.isalpha() and word[:1].isupper() and (word[1:].islower() or len(word) == 1)


_FIRST_WORD = re.compile(r"^(?:-\s*)?([^\W\d][\w-]*)", re.UNICODE)


def _pattern_starts(pattern: str) -> set[str]:
    """The words an order pattern's alternatives begin with (`^(start ...|palace (grey|black) ...)$`: start,
    palace), not the words inside its groups."""
    starts, depth, at_start = set(), 0, True
    for i, c in enumerate(pattern):
        if c == "(":
            depth += 1
            at_start = depth == 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth <= 1:
            at_start = True
        elif at_start and c.isalpha():
            starts.add(re.match(r"[a-z][a-z_-]*", pattern[i:]).group(0))  # type: ignore[union-attr]
            at_start = False
        elif c not in "^":
            at_start = False
    return starts


def judge_line(text: str, game: str, lang: str = "en") -> bool | tuple[str, str]:
    """Whether a line of a reply may be an order of `game`: it begins with an order word of the game in any
    of its languages (or a key such as `token:`, or is a bare amount); or, as `(word, meant)`, a near miss
    of an order word in English or the player's language (`bdi 7`, `drwa`): a typo, refused with the
    word meant, never passed over."""
    line = text.strip().removeprefix("- ").strip()
    if re.fullmatch(r"\d{1,6}[.!]?", line) or TOKEN_LINE.match(line):
        return True
    found = _FIRST_WORD.match(line)
    if not found:
        return False
    word = found.group(1).casefold().rstrip("-")
    starts = order_starts(game)
    if word in starts["all"]:
        return True
    if len(word) >= 3:
        near = [w for w in sorted(starts["en"] | starts.get(lang, frozenset())) if _near(word, w)]
        if near:
            return word, near[0]
    return False


def _near(typed_word: str, word: str) -> bool:
    """Whether `typed_word` is `word` mistyped: one letter wrong, missing, extra, or two swapped (two
    edits for a word of seven letters or more)."""
    if typed_word == word or abs(len(typed_word) - len(word)) > 2:
        return False
    most = 2 if len(word) >= 7 else 1
    a, b = typed_word, word
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[len(b)] <= most


def _bare_amount(text: str, proven: Proven) -> str:
    """`7` alone, where the one order of the player's decision that takes a number is `bid` (or `price`):
    `bid: 7`, as a person reads it. Anything else as written."""
    amount = text.rstrip(".!").strip()
    if not re.fullmatch(r"\d{1,6}", amount):
        return text
    from pbem.game import ruleset_of, waiting_for

    state = proven.state
    if state["status"] != "active" or proven.player not in waiting_for(state) \
            or state["engine"]["turn"] != proven.turn:
        return text
    legal = ruleset_of(state).legal_orders(state["engine"], proven.player)
    keys = {k for o in legal if isinstance(o, dict) and len(o) == 1 for k, v in o.items() if isinstance(v, int)}
    return f"{keys.pop()}: {amount}" if len(keys) == 1 else text


def _once(names: dict[tuple, tuple[int, Refusal]], place: tuple, label: Refusal) -> None:
    """Refuse a second line that gives the same thing (`turn: 3` and `Turn: 4`): pbem does not guess."""
    if place in names:
        raise TurnFileError(at(label, refuse("line-twice", key=place[0], n=names[place][0])))


def _token_line(text: str, label: Refusal) -> str:
    """The token of a `token: ...` order line; what is wrong with the line, without quoting it."""
    value, _ = _load(text, label, one_line=True)
    if not (isinstance(value, dict) and len(value) == 1 and str(next(iter(value))).lower() == "token"):
        raise TurnFileError(at(label, refuse("token-how")))
    (token,) = value.values()
    if not isinstance(token, str):
        raise TurnFileError(at(label, refuse("token-not-text")))
    return token


def reads_as_lines(mail: Incoming) -> bool:
    """Whether a reply is read as lines of its own: no attachment, no marker lines, no turn file in its
    own text (a keyed reply that gives nothing at all is one too)."""
    attachments, plain, markup = mail_parts(mail)
    if attachments:
        return False
    body = _own(plain, markup, below_quote=False) or ""
    try:
        return between_markers(body) is None and not _is_turn_file(body)
    except TurnFileError:
        return False


def own_lines(mail: Incoming) -> list[str]:
    """The lines a reply's sender wrote himself (above the quote and the signature), as he meant them,
    without blank lines or the greetings and closings around them. Empty when the mail carries a turn
    file, an attachment or marker lines (those are read as orders). Read once for the mail."""
    return list(once(mail, "own lines", lambda: _own_lines(mail)))


def _own_lines(mail: Incoming) -> list[str]:
    attachments, plain, markup = mail_parts(mail)
    if attachments:
        return []
    own = {w.casefold() for w in (mail.sender_name, *mail.sender_name.split()[:1]) if w}
    found: list[str] = []
    for below_quote in (False, True):  # his lines under a top-posted quote only when none are above it
        body = _own(plain, markup, below_quote=below_quote) or ""
        try:
            if between_markers(body) is not None or _is_turn_file(body):
                return []
        except TurnFileError:
            return []
        found = [text for text in map(typed, body.split("\n"))
                 if text and not PLEASANTRY.match(text) and text.rstrip(",.!").casefold() not in own]
        if found:
            break
    return found
