"""The orders in a player's mail: a turn file attached or in the text, or order lines between the
report's marker lines."""

from __future__ import annotations

import re
from typing import Any

from pbem.talk import TALK_LINE
from pbem.errors import TurnFileError
from pbem.i18n import N_
from pbem.mail.ids import mail_thread
from pbem.mail.incoming import Incoming, parts as _parts
from pbem.mail.own_text import as_typed, html_to_text, own_text, typed
from pbem.mail.seats import Proven
from pbem.mail.secrets import ENVELOPE_LINE, TOKEN_LINE, hide_tokens, tokens_in_text
from pbem.report import BEGIN, END
from pbem.store import dump_yaml
from pbem.turnfile import Source, fold_case, load_yaml, schema

ENVELOPE_KEYS = ("game", "player", "token", "turn")
LINE_KEYS = ENVELOPE_KEYS + ("reports",)  # the keys an order line may give besides orders


def between_markers(text: str) -> tuple[str, int] | None:
    """The lines between the marker lines, and how many lines of `text` come before them."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if typed(line) == BEGIN]
    if not starts:
        return None
    ends = [i for i, line in enumerate(lines) if typed(line) == END and i > starts[0]]
    if not ends:
        raise TurnFileError(f"the mail has the line {BEGIN!r} but not the line {END!r} after it")
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


def _found(value: dict[str, Any], text: str, what: str,
           names: dict[tuple, tuple[int, str]] | None = None) -> Found:
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
    attachments, plain, markup = _parts(mail.message)
    if plain is not None:
        body: str | None = own_text(plain, keep_places=True)
    elif markup is not None:
        body = own_text(html_to_text(markup), keep_places=True)
    else:
        body = None
    marked = between_markers(body) if body is not None else None
    block, before = marked if marked is not None else (None, 0)
    text = block if block is not None else body
    turn_file = text is not None and _is_turn_file(text)
    in_text = turn_file or (block is not None and _holds_orders(block))
    if len(attachments) + in_text > 1:
        raise TurnFileError(_twice(in_text, [name for name, _ in attachments]))
    if attachments:
        name, content = attachments[0]
        return _turn_file(content, f"the attachment {name!r}",
                          f"the attachment {name!r} is not a turn file (game:, player:, token:, turn:, orders:)")
    if text is None:
        raise TurnFileError("the mail has no text in which to find orders")
    if turn_file:  # its lines keep their numbers in the mail; typed in a mail client, as order lines are
        return _turn_file("\n" * before + as_typed(text), "the turn file in the mail",
                          "the turn file in the mail is not a mapping of game:, player:, token:, turn:, orders:")
    if block is None and plain is not None and _orders_in_quote(plain, proven is not None):
        where = ("alone, one a line, above the quote" if proven is not None else
                 "between marker lines of your own, above the quote and without '>' in front")
        raise TurnFileError(f"your orders are inside the report your mail quotes, which pbem does not read "
                            f"(lines that begin with '>', or below a line such as 'On ... wrote:' or "
                            f"'From: ...'): write them {where}")
    if block is None and proven is not None and any(typed(line) for line in text.split("\n")):
        return order_lines(text, mail, proven, own=True)
    if block is None:
        if proven is not None:
            raise TurnFileError("your mail gives no order: write your order alone on a line above the quoted "
                                "mail")
        raise NoOrders(f"the mail holds no orders: put them between the lines {BEGIN!r} and {END!r} "
                       f"of your report, or attach a turn file")
    return order_lines(block, mail, proven)


def _orders_in_quote(body: str, proven: bool = False) -> bool:
    """Whether the player filled in the order block of the report his mail quotes (with '>', or below a
    reply header, where `own_text` does not look): a token there is his own writing (a report only ever
    shows the placeholder). A common slip, which gets its own answer."""
    unquoted = [re.sub(r"^(\s*>)+ ?", "", line) for line in body.replace("\r\n", "\n").split("\n")]
    try:
        marked = between_markers("\n".join(unquoted))
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


# A mail with orders in several places, in English (the GM's console reads it so); the player reads it
# in his language (`pbem.game.REFUSALS` lists these formats, `pbem.report.refusal_text` writes them)
TWICE_TEXT_AND_ONE = N_("the mail holds orders twice: in its text and in the attachment %(name)s; send them once")
TWICE_TWO = N_("the mail holds orders twice: in the attachments %(names)s and %(name)s; send them once")
TIMES_TEXT_AND_MORE = N_("the mail holds orders %(n)s times: in its text and in the attachments %(names)s and "
                         "%(name)s; send them once")
TIMES_MORE = N_("the mail holds orders %(n)s times: in the attachments %(names)s and %(name)s; send them once")


def _twice(in_text: bool, names: list[str]) -> str:
    """Why a mail with orders in several places is refused, naming the places."""
    quoted = [repr(n) for n in names]
    if in_text and len(quoted) == 1:
        return TWICE_TEXT_AND_ONE % {"name": quoted[0]}
    fmt = (TWICE_TWO if len(quoted) == 2 else TIMES_MORE) if not in_text else TIMES_TEXT_AND_MORE
    return fmt % {"n": len(names) + in_text, "names": ", ".join(quoted[:-1]), "name": quoted[-1]}


def _turn_file(text: str, what: str, not_a_mapping: str) -> Found:
    """A whole turn file from a mail, submitted as the player wrote it; its token is never quoted in an
    error."""
    value, lines = _load(text, what)
    if not isinstance(value, dict):
        raise TurnFileError(not_a_mapping)
    token = next((k for k in value if isinstance(k, str) and k.casefold() == "token"), None)
    if token is not None and not isinstance(value[token], str):
        line = lines.get((token,))
        raise TurnFileError(f"{what}{f', line {line}' if line else ''} (the token line): {NOT_TEXT}")
    return _found(value, text, what)


NOT_TEXT = "the token is not text; copy it from your welcome mail, in quotes if need be"


def _load(text: str, what: str, one_line: bool = False) -> tuple[Any, dict[tuple, int]]:
    """`load_yaml` for text from a mail: an error names the token line as such, never quotes a token,
    and (`one_line`: the text is one line of the mail) names no line within the line."""
    try:
        return load_yaml(text, what, case_blind=True)
    except TurnFileError as exc:
        message = str(exc)
        found = re.match(re.escape(what) + r", line (\d+)(?=:)", message)
        if found and one_line:
            message = what + message[found.end():]
        elif found:
            lines = text.split("\n")
            n = int(found.group(1))
            # an unclosed quote runs on: the error is found further down than the token line
            opened = [i for i, line in enumerate(lines[:n], start=1) if TOKEN_LINE.match(line.strip())
                      and _unclosed(line)]
            if 0 < n <= len(lines) and TOKEN_LINE.match(lines[n - 1].strip()) or opened:
                n = n if not opened else opened[-1]
                message = f"{what}, line {n} (the token line)" + message[found.end():]
        raise TurnFileError(hide_tokens(message, tokens_in_text(text))) from None


def _unclosed(line: str) -> bool:
    """Whether a `token: ...` line opens a quote it does not close."""
    value = line.partition(":")[2].strip()
    return bool(value) and value[0] in "\"'" and (len(value) == 1 or value[-1] != value[0])


ORDER_BLOCK = "the order block"  # what an error calls the order lines of a mail
OWN_REPLY = "your reply"  # and the lines of a reply without marker lines


STANDING_LINE = re.compile(r"^standing\s*:(.*)$", re.IGNORECASE)


NEXT_LINE = re.compile(r"^next\s*:\s*(.*)$", re.IGNORECASE)
# what a player writes around his orders in a reply: a greeting, thanks, a closing with his name
PLEASANTRY = re.compile(
    r"^(hi|hello|hey|dear|hallo|hoi|moin|servus|thanks|thank you|thx|ty|cheers|regards|best|best regards|"
    r"kind regards|greetings|danke|danke schön|vielen dank|grüße|viele grüße|liebe grüße|gruß|lg|vg|mfg|"
    r"bedankt|dank je|dank je wel|dankjewel|groeten|groetjes|met vriendelijke groet|mvg|ciao|bye)"
    r"(?:[\s,.!]+[\w.-]{1,30})?[\s,.!]*$", re.IGNORECASE)


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
    names: dict[tuple, tuple[int, str]] = {}  # the place each line gave in the turn file: its line and name
    lines = [text for text in map(typed, block.split("\n")) if text]  # HTML mail has blank ones between
    ahead: list[bool] = []  # for each order: whether it was written `next: ...`
    his_names = {w.casefold() for w in (mail.sender_name, *mail.sender_name.split()[:1],
                                        proven.player if proven else "") if w}
    for n, text in enumerate(lines, start=1):
        if text.startswith("#"):
            continue
        if own and (PLEASANTRY.match(text) or text.rstrip(",.!").casefold() in his_names):
            continue  # "Hi," and "Cheers, Anna" around the orders of a reply
        if own and TALK_LINE.match(text):
            continue  # table talk, passed on to the other players (`pbem.mail.talk`)
        sent_ahead = NEXT_LINE.match(text) if own else None
        if sent_ahead:
            text = sent_ahead.group(1).strip()
        if own and proven is not None and not sent_ahead:
            text = _bare_amount(text, proven)
        text = text[1:].strip() if text.startswith(("- ", "-\t")) or text == "-" else text
        if not TOKEN_LINE.match(text):
            text = text.rstrip(".!").rstrip() or text  # `draw.`: an order ended as a sentence is that order
        mentions = re.search("token", text, re.IGNORECASE)
        label = f"order line {n} " + ("(the token line)" if mentions else f"({text!r})")
        if TOKEN_LINE.match(text):
            label = f"order line {n} (the token line)"
            _once(names, ("token",), label)
            turnfile["token"] = _token_line(text, label)
            names[("token",)] = (n, label)
            continue
        given = STANDING_LINE.match(text)
        if given:
            rest = given.group(1).strip()
            if not rest or rest.startswith("#"):
                raise TurnFileError(f"{label}: give one standing order a line, after 'standing: ' on the same "
                                    f"line, or write 'standing: []' to clear them")
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
                raise TurnFileError(f"order line {n} (the token line): {NOT_TEXT}")
            _once(names, (key,), label)
            turnfile[key] = next(iter(value.values()))
            names[(key,)] = (n, label)
        else:
            names[("orders", len(orders))] = (n, label)
            orders.append(value)
            ahead.append(bool(sent_ahead))
    # else the turn file check would name a line of a file the player never wrote
    if "token" not in turnfile and proven is None:
        raise TurnFileError(f"there is no token line between the lines {BEGIN!r} and {END!r}: write "
                            f"'token: ' and your token there, above your orders")
    if not orders and standing is None and "reports" not in turnfile:
        if own:
            raise TurnFileError("your mail gives no order: write your order alone on a line above the "
                                "quoted mail")
        raise TurnFileError(f"there is no order between the lines {BEGIN!r} and {END!r}: write your "
                            f"orders there, one a line, below your token")
    if any(ahead) and not all(ahead):
        n = names[("orders", ahead.index(False) if ahead[0] else ahead.index(True))][0]
        raise TurnFileError(f"order line {n}: orders for now and orders sent ahead ('next: ...') go in "
                            f"separate mails")
    if any(ahead):
        if "turn" in turnfile and turnfile["turn"] != "next":
            raise TurnFileError("the mail gives a 'turn:' line and orders sent ahead ('next: ...'); keep one")
        turnfile["turn"] = "next"
    thread = (proven.game, proven.player, proven.turn) if proven is not None else mail_thread(mail)
    if thread:
        turnfile.setdefault("game", thread[0])
        turnfile.setdefault("player", thread[1])
        if orders:  # standing orders and reports alone answer no turn
            turnfile.setdefault("turn", thread[2])
    missing = [k for k in ("game", "player", "turn") if k not in turnfile and (orders or k != "turn")]
    if missing:
        raise TurnFileError(f"the mail does not say which game its orders are for: reply to your latest "
                            f"report, or write the lines {', '.join(f'{k}:' for k in missing)} above your "
                            f"orders")
    if orders:
        turnfile["orders"] = orders
    if standing is not None:
        turnfile["standing"] = standing
    value = fold_case(turnfile, schema("turnfile"))
    return _found(value, dump_yaml(value), OWN_REPLY if own else ORDER_BLOCK, names)


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


def _once(names: dict[tuple, tuple[int, str]], place: tuple, label: str) -> None:
    """Refuse a second line that gives the same thing (`turn: 3` and `Turn: 4`): pbem does not guess."""
    if place in names:
        raise TurnFileError(f"{label}: a second '{place[0]}:' line (the first is order line {names[place][0]}); "
                            f"keep one")


def _token_line(text: str, label: str) -> str:
    """The token of a `token: ...` order line; what is wrong with the line, without quoting it."""
    value, _ = _load(text, label, one_line=True)
    if not (isinstance(value, dict) and len(value) == 1 and str(next(iter(value))).lower() == "token"):
        raise TurnFileError(f"{label}: write it as 'token: ' and then your token, as your welcome mail "
                            f"gives it")
    (token,) = value.values()
    if not isinstance(token, str):
        raise TurnFileError(f"{label}: {NOT_TEXT}")
    return token


def own_lines(mail: Incoming) -> list[str]:
    """The lines a reply's sender wrote himself (above the quote and the signature), as he meant them,
    without blank lines or the greetings and closings around them. Empty when the mail carries a turn
    file, an attachment or marker lines (those are read as orders)."""
    attachments, plain, markup = _parts(mail.message)
    if attachments:
        return []
    body = own_text(plain) if plain is not None else own_text(html_to_text(markup)) if markup is not None else ""
    try:
        if between_markers(body) is not None or _is_turn_file(body):
            return []
    except TurnFileError:
        return []
    own = {w.casefold() for w in (mail.sender_name, *mail.sender_name.split()[:1]) if w}
    return [text for text in map(typed, body.split("\n"))
            if text and not PLEASANTRY.match(text) and text.rstrip(",.!").casefold() not in own]
