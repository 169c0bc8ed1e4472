"""What the pipeline refuses a player (pbem.turnfile, pbem.mail, pbem.game, the rules' common part),
as message ids: each id and the English format it is written from, the catalogs' key, written here
once. `refuse(id, values)` makes the refusal; `pbem.report.refusal_words` writes it in the player's
language from its id. A value may be a refusal itself: a frame (`order line 2 ('bid: x'): ...`) holds
the refusal it frames, a place in a file the name of the file."""

from __future__ import annotations

import re
from typing import Callable

from pbem.errors import Listing, Refusal
from pbem.i18n import N_

MESSAGES = {
    # -- what YAML refuses (pbem.turnfile); `what` names the file, `why` says what is wrong
    "too-big": N_("%(what)s is %(size)s bytes; the limit is %(limit)s"),
    "not-utf8": N_("%(what)s is not UTF-8 text (byte %(n)s)"),
    "empty": N_("%(what)s is empty"),
    "no-order-kept": N_("%(what)s gives no order: choose one of the orders listed and delete the '#' in front of it"),
    "documents": N_("holds more than one YAML document ('---')"),
    "aliases": N_("aliases ('*name') are not allowed"),
    "anchors": N_("anchors ('&name') are not allowed"),
    "tags": N_("tags (%(tag)s) are not allowed"),
    "mapping-key": N_("a mapping cannot be a key; keys are plain words such as 'orders'"),
    "list-key": N_("a list cannot be a key; keys are plain words such as 'orders'"),
    "nested": N_("nested more than %(n)s levels deep"),
    "merge-key": N_("the merge key '<<' is not allowed"),
    "key-twice": N_("the key %(one)s appears twice"),  # (a key as the player wrote it: never in other words)
    "same-key-twice": N_("the key %(other)s appears twice (%(one)s and %(other)s are the same key)"),
    "tab": N_("a tab character; indent with spaces"),
    "not-yaml": N_("not valid YAML (%(why)s)"),
    "unreadable": N_("a value could not be read (%(why)s)"),
    "control-character": N_("a control character (U+%(code)s) that YAML does not allow; delete it"),
    "character": N_("a character (U+%(code)s) that YAML does not allow; delete it"),
    # -- where in a file: the file, its line, a place in it, a line of the sender's own
    "at": N_("%(place)s: %(why)s"),
    "not-valid": N_("%(what)s is not valid:"),  # and the problems, one a line (`pbem.errors.Listing`)
    "the-turn-file": N_("the turn file"),
    "the-order-block": N_("the order block"),
    "your-reply": N_("your reply"),
    "the-turn-file-in-the-mail": N_("the turn file in the mail"),
    "the-attachment": N_("the attachment %(name)s"),
    "what-line": N_("%(what)s, line %(line)s"),
    "what-token-line": N_("%(what)s, line %(line)s (the token line)"),
    "what-token": N_("%(what)s (the token line)"),
    "order-line": N_("order line %(n)s (%(order)s)"),
    "order-line-token": N_("order line %(n)s (the token line)"),
    "order-line-n": N_("order line %(n)s"),
    "line-place": N_("line %(line)s, %(place)s"),
    "name-place": N_("%(name)s, %(key)s"),  # a line of the sender's own, and a key in it
    "the-top-level": N_("the top level"),
    # -- the schema checks (pbem.turnfile.plain); the schemas' own `message`s are their games'
    "must-be": N_("must be %(type)s, not %(value)s"),
    "either": N_("%(one)s or %(other)s"),
    "a-whole-number": N_("a whole number"),
    "text": N_("text"),
    "a-mapping-of-keys": N_("a mapping (key: value)"),
    "a-list": N_("a list"),
    "true-or-false": N_("true or false"),
    "a-number": N_("a number"),
    "empty-value": N_("empty"),
    "nothing": N_("nothing"),
    "a-mapping": N_("a mapping"),
    "the-date": N_("the date %(date)s"),
    "lacks": N_("lacks %(keys)s"),
    "unknown-field": N_("has unknown field %(keys)s"),
    "unknown-fields": N_("has unknown fields %(keys)s"),
    "at-least": N_("must be at least %(n)s, not %(value)s"),
    "at-most": N_("must be at most %(n)s, not %(value)s"),
    "items-at-least-one": N_("must hold at least %(n)s item"),
    "items-at-least": N_("must hold at least %(n)s items"),
    "items-at-most": N_("may hold at most %(n)s items, not %(count)s"),
    "chars-at-most": N_("may be at most %(n)s characters long"),
    "not-empty": N_("must not be empty"),
    "chars-at-least": N_("must be at least %(n)s characters long"),
    "form": N_("%(value)s is not of the allowed form"),
    "one-of": N_("must be one of %(values)s, not %(value)s"),
    "token-text": N_("must be text, as your welcome mail gives it"),
    # -- the orders in a mail (pbem.mail.orders)
    "token-not-text": N_("the token is not text; copy it from your welcome mail, in quotes if need be"),
    "no-text": N_("the mail has no text in which to find orders"),
    "no-end-line": N_("the mail has the line %(begin)s but not the line %(end)s after it"),
    "no-orders": N_("the mail holds no orders: put them between the lines %(begin)s and %(end)s of your report, "
                    "or attach a turn file"),
    "no-token-line": N_("there is no token line between the lines %(begin)s and %(end)s: write 'token: ' and your "
                        "token there, above your orders"),
    "no-order-between": N_("there is no order between the lines %(begin)s and %(end)s: write your orders there, one "
                           "a line, below your token"),
    "no-own-order": N_("your mail gives no order: write your order alone on a line above the quoted mail"),
    "turn-and-ahead": N_("the mail gives a 'turn:' line and orders sent ahead ('next: ...'); keep one"),
    "which-game": N_("the mail does not say which game its orders are for: reply to your latest report, or write "
                     "the lines %(keys)s above your orders"),
    "now-and-ahead": N_("orders for now and orders sent ahead ('next: ...') go in separate mails"),
    "standing-line": N_("give one standing order a line, after 'standing: ' on the same line, or write "
                        "'standing: []' to clear them"),
    "token-how": N_("write it as 'token: ' and then your token, as your welcome mail gives it"),
    "line-twice": N_("a second '%(key)s:' line (the first is order line %(n)s); keep one"),
    "not-an-order-word": N_("the word %(word)s is not an order word; did you mean %(meant)s?"),
    "twice-text-and-one": N_("the mail holds orders twice: in its text and in the attachment %(name)s; send them "
                             "once"),
    "twice-two": N_("the mail holds orders twice: in the attachments %(names)s and %(name)s; send them once"),
    "times-text-and-more": N_("the mail holds orders %(n)s times: in its text and in the attachments %(names)s and "
                              "%(name)s; send them once"),
    "times-more": N_("the mail holds orders %(n)s times: in the attachments %(names)s and %(name)s; send them once"),
    "attachment-not-text": N_("the attachment %(name)s is not UTF-8 text"),
    "attachment-not-a-turn-file": N_("the attachment %(name)s is not a turn file (game:, player:, token:, turn:, "
                                     "orders:)"),
    "mail-turn-file-not-a-mapping": N_("the turn file in the mail is not a mapping of game:, player:, token:, "
                                       "turn:, orders:"),
    "in-quote": N_("your orders are inside the report your mail quotes, which pbem does not read (lines that begin "
                   "with '>', or below a line such as 'On ... wrote:' or 'From: ...'): write them %(where)s"),
    "above-the-quote": N_("alone, one a line, above the quote"),
    "own-markers": N_("between marker lines of your own, above the quote and without '>' in front"),
    "command-alone": N_("'%(command)s' is a command: send it alone, in a mail of its own"),
    # -- what a reply's key allows (pbem.mail.proof)
    "stale-reply": N_("your reply answers turn %(turn)s; the game is at turn %(current)s: reply to your latest "
                      "report (or send 'status' to get it again)"),
    "not-latest": N_("your reply answers an older mail of pbem's (turn %(turn)s): orders sent ahead, standing "
                     "orders, 'reports', 'undo' and 'language' need a reply to your latest mail (turn %(latest)s), "
                     "or your token"),
    "no-such-act": N_("'%(command)s' is not a command this host carries out by mail; reply 'help' for the "
                      "commands"),
    "resigned-seat": N_("you resigned from game %(game)s (%(player)s): the game's rule for missing players plays "
                        "your seat, and it takes no orders or commands from you"),
    "not-keys-turn": N_("your reply answers turn %(turn)s; a 'turn:' line cannot make it answer turn %(asked)s: "
                        "reply to the mail of that turn, or give your token"),
    # -- who may send orders (pbem.game.authenticate): says nothing about the game
    "no-game": N_("there is no game %(game)s"),
    "no-player": N_("game %(game)s has no player %(player)s"),
    "other-seat": N_("the mail you answer is about %(player)s in game %(game)s, not %(other)s in game %(wanted)s"),
    "wrong-token": N_("the token for %(player)s in game %(game)s is wrong"),
    "not-the-address": N_("%(person)s is not the address of %(player)s in game %(game)s"),
    # -- the turn the orders answer (pbem.game.check_turn)
    "paused": N_("game %(game)s is paused by the GM; send your orders when it resumes"),
    "finished": N_("game %(game)s is finished; it takes no more orders"),
    "stale": N_("your orders answer turn %(turn)s, but game %(game)s is at turn %(current)s: they are stale"),
    "ahead": N_("your orders answer turn %(turn)s, but game %(game)s is only at turn %(current)s"),
    "turn-not-yours": N_("turn %(turn)s of game %(game)s is not yours: the game waits for %(players)s"),
    "decided-already": N_("your orders for turn %(turn)s of game %(game)s are in already; the game waits for "
                          "%(players)s to send theirs"),
    # -- the frames pbem.game puts a refusal of the rules in
    "no-longer-yours": N_("order %(n)s (%(order)s): after order %(before)s the decision is no longer yours (the "
                          "game waits for %(players)s); nothing was applied"),
    "nobody": N_("nobody: the game is over"),
    "order-n-refused-nothing": N_("order %(n)s (%(order)s): %(why)s; nothing was applied"),
    "order-refused": N_("order %(order)s: %(why)s"),
    "sent-ahead-failed": N_("your orders sent ahead could not be applied when your decision came: %(why)s"),
    # -- standing orders (pbem.game.standing_of, pbem.rules.base)
    "standing-not-one": N_("standing orders: standing[%(n)s] is not one standing order such as %(order)s"),
    "standing-refused": N_("standing orders: %(why)s"),
    "no-standing-orders": N_("%(title)s takes no standing orders; send your next orders ahead with 'turn: next' "
                             "instead"),
    "standing-twice": N_("the standing order %(kind)s is given %(count)s times; keep one"),
    # a standing order the rules refuse when its time comes (in the notice that drops it)
    "standing-order-why": N_("%(order)s: %(why)s"),
    "standing-kind-why": N_("%(key)s: %(value)s (%(why)s)"),
    # -- table talk (pbem.mail.talk): nothing of a mail's talk is passed on when one of its lines is refused
    "talk-none": N_("game %(game)s has no table talk; nothing was passed on"),
    "talk-not-private": N_("in game %(game)s talk goes to every player: write 'say: ...' (nothing was passed on)"),
    "talk-no-such-player": N_("game %(game)s has no other player %(name)r; its players are: %(players)s (nothing "
                              "was passed on)"),
    "talk-too-long": N_("a line of table talk may have at most %(most)s characters; yours has %(length)s (nothing "
                        "was passed on)"),
    "talk-too-many": N_("you have said %(count)s things in game %(game)s today, the most a day; try again tomorrow "
                        "(nothing was passed on)"),
    "talk-attached": N_("table talk comes as text alone, without attachments (nothing was passed on)"),
    "talk-empty": N_("your 'say:' line says nothing (nothing was passed on)"),
    "talk-resigned": N_("you resigned from game %(game)s: your seat no longer talks at its table (nothing was "
                        "passed on)"),
    "talk-finished": N_("game %(game)s is over: its table talk has ended (nothing was passed on)"),
    # -- a player's absence (pbem.absence): `said` is his line as he wrote it (cut when long)
    "away-unreadable": N_("%(said)r: write the day you are back, such as 'away until 3 Dec' or 'away until "
                          "2026-12-03'"),
    "away-digits": N_("%(said)r: write the day in the digits 0 to 9, such as 'away until 3 Dec' or 'away until "
                      "2026-12-03'"),
    "away-passed": N_("%(day)s has passed; write a day to come, such as 'away until 3 Dec'"),
    "away-too-long": N_("you may be away for at most %(days)s days on this host, until %(day)s at the latest"),
    "away-days-left": N_("on this host you may be away for at most %(total)s days in any %(window)s days, and since "
                         "%(since)s you have been away for %(taken)s of them; days left: %(left)s, so until %(day)s "
                         "at the latest"),
    "away-no-day-left": N_("on this host you may be away for at most %(total)s days in any %(window)s days, and "
                           "since %(since)s you have been away for %(taken)s of them; no day is left now: you may "
                           "be away again from %(day)s"),
    # -- setting a game up (a challenge by mail, `pbem new`): the rules' options and table, a deadline
    "no-option": N_("%(game)s has no option %(option)r (options: %(known)s)"),
    "no-options": N_("%(game)s has no option %(option)r (options: none)"),
    "option-value": N_("option %(option)s=%(value)r is not allowed for %(game)s (choose one of: %(values)s)"),
    "players-exactly": N_("%(title)s needs %(count)s players, not %(n)s"),
    "players-between": N_("%(title)s needs %(least)s to %(most)s players, not %(n)s"),
    "game-taken": N_("game %(game)r already exists in %(where)s"),
    "deadline-not-a-duration": N_("deadline %(said)r is not a duration such as 48h, 2d, 90m or 1w"),
    "deadline-over-a-year": N_("deadline %(said)r is longer than a year"),
    # -- what YAML refuses (pbem.turnfile), appended here
    "number-too-long": N_("a number of %(n)s characters; no number pbem reads has more than %(most)s"),
}

#: what the schemas say in their own words (their `message`, pbem.turnfile.plain), the turn file's: the
#: games' are in their refusals modules (pbem/rules/*refusals.py)
SCHEMA_MESSAGES = (N_("must be a whole number (the turn your orders answer) or 'next', not %(value)s"),)

#: what YAML's parser (libyaml) says went wrong, as the player reads it after `not valid YAML`
YAML_PROBLEMS = (
    N_("found character that cannot start any token"), N_("did not find expected node content"),
    N_("did not find expected alphabetic or numeric character"), N_("found unexpected end of stream"),
    N_("did not find expected comment or line break"), N_("could not find expected directive name"),
    N_("did not find expected whitespace or line break"), N_("did not find expected <document start>"),
    N_("did not find expected key"), N_("did not find expected ',' or '}'"), N_("did not find expected ',' or ']'"),
    N_("found unknown escape character"), N_("found unexpected non-alphabetical character"),
    N_("did not find URI escaped octet"), N_("mapping values are not allowed in this context"),
    N_("could not find expected ':'"), N_("found unknown directive name"), N_("did not find expected tag URI"),
    N_("mapping keys are not allowed in this context"), N_("found unexpected ':'"),
    N_("block sequence entries are not allowed in this context"),
    N_("found a tab character where an indentation space is expected"),
    N_("found a tab character that violates indentation"), N_("did not find expected '-' indicator"),
    N_("found an incorrect leading UTF-8 octet"), N_("found undefined tag handle"),
    N_("found duplicate %YAML directive"), N_("but found another document"),
    N_("found incompatible YAML document"), N_("found unhashable key"),
    N_("day is out of range for month"), N_("month must be in 1..12"))


def _counted_key(many: str, one: str) -> str:
    """The value a refusal's format counts: the one key of `many` that its singular twin `one` leaves
    out (`%(cost)s time units` beside `1 time unit`), or `n` where the twin keeps every key."""
    keys = set(re.findall(r"%\((\w+)\)s", many)) - set(re.findall(r"%\((\w+)\)s", one))
    if not keys and "%(n)s" in many:
        return "n"
    if len(keys) != 1:
        raise ValueError(f"the singular of {many!r} must leave out exactly one of its values, or count n, "
                         f"not {sorted(keys)}")
    return keys.pop()


def twins(formats: dict[str, str]) -> dict[str, str]:
    """The ids of `formats` with a singular twin `<id>-one`, each with the value it counts: a refusal
    by such an id is its twin where that value is 1 (`refuse` and a game's `refuse` choose it)."""
    return {msg[:-4]: _counted_key(formats[msg[:-4]], fmt) for msg, fmt in formats.items()
            if msg.endswith("-one") and msg[:-4] in formats}


def _one_or_many(msg: str, values: dict[str, object], counted: dict[str, str]) -> str:
    return f"{msg}-one" if msg in counted and values.get(counted[msg]) == 1 else msg


_TWINS = twins(MESSAGES)


def refuse(msg: str, **values: object) -> Refusal:
    """The refusal `msg` with its values (its singular twin where it counts one)."""
    msg = _one_or_many(msg, values, _TWINS)
    return Refusal(msg, MESSAGES[msg], **values)


#: what the rules of every game say alike, written once (their words are in pbem's catalog): each game's
#: `refuse` knows these ids beside its own
RULES_MESSAGES = {
    "game-over": N_("the game is over"),
    "not-your-decision": N_("it is not your decision: the game waits for %(players)s"),
    "chosen-already": N_("you have chosen already; the decision is settled when %(players)s have chosen too"),
}


def refuse_rules(msg: str, **values: object) -> Refusal:
    """A refusal every game's rules say alike (`RULES_MESSAGES`), by its id."""
    return Refusal(msg, RULES_MESSAGES[msg], **values)


def rules_refusals(messages: dict[str, str]) -> tuple[dict[str, str], tuple[str, ...], Callable[..., Refusal]]:
    """A game's refusals module in one line, `MESSAGES, REFUSALS, refuse = rules_refusals({...})`: its
    ids with the English format of each (`N_()`, the game's catalog's key), the formats, and
    `refuse(id, **values)`, which knows the ids of `RULES_MESSAGES` too. An id of `RULES_MESSAGES`
    may not be given again (the words are pbem's), nor may a format be written under two ids."""
    again = sorted(set(messages) & set(RULES_MESSAGES))
    if again:
        raise ValueError(f"the refusals {', '.join(again)} are pbem's own (pbem.refusals.RULES_MESSAGES)")
    twice = sorted({f for f in messages.values() if list(messages.values()).count(f) > 1})
    if twice:
        raise ValueError(f"a format under two ids: {twice}")
    known = {**RULES_MESSAGES, **messages}
    counted = twins(known)

    def refuse(msg: str, **values: object) -> Refusal:
        """A refusal of the game's rules, by its id (its singular twin `<id>-one` where it counts one)."""
        msg = _one_or_many(msg, values, counted)
        return Refusal(msg, known[msg], **values)

    return dict(messages), tuple(messages.values()), refuse


def listing(msg: str, items: list[Refusal] | tuple[Refusal, ...], **values: object) -> Listing:
    """The refusal `msg` with its values, and under it `items`, one a line."""
    return Listing(msg, MESSAGES[msg], tuple(items), **values)


def problem(text: str) -> Refusal:
    """What YAML's parser says went wrong: its English is the format (`YAML_PROBLEMS` has the words of
    those a player meets; one it has none for stays as the parser says it)."""
    return Refusal("yaml-problem", text)


def at(where: Refusal | str, why: Refusal | str) -> Refusal:
    """`why`, said of a place: `order line 2 ('bid: x'): ...`."""
    return refuse("at", place=where, why=why)


# What the pipeline tells players. A notice keeps its English text (the console, the archive) and its id
# and values, which a report writes it from in the reader's language (`pbem.report.notices_in`).
STANDING_DROPPED = N_("Your standing order %(why)s; it was dropped.")
STANDING_REFUSED = N_("Your standing orders gave %(order)s, which the rules refuse now (%(why)s); they were "
                      "dropped.")
DEADLINE_REMOVED = N_("The GM removed the deadline.")
DEADLINE_SET = N_("The GM set the deadline: %(rule)s.")
SEAT_TAKEN = N_("%(person)s takes over the seat %(seat)s from %(before)s.")
PAUSED = N_("The GM paused the game. Orders wait until it resumes; no deadline runs.")
RESUMED = N_("The GM resumed the game; the deadline starts again now.")
ROLLED_BACK = N_("The GM rolled the game back to turn %(turn)s. Undone: %(undone)s. The game waits for "
                 "%(waiting)s.")
SUBSTITUTE_DEFAULT = N_("%(player)s missed the deadline; the default order is given: %(order)s.")
SUBSTITUTE_BOT = N_("%(player)s missed the deadline; the bot moves for this seat: %(order)s.")
AWAY_NOTICE = N_("%(player)s is away until %(until)s; the deadlines wait until then.")
NOTICE_MESSAGES = {"standing-dropped": STANDING_DROPPED, "standing-order-refused": STANDING_REFUSED,
                   "deadline-removed": DEADLINE_REMOVED, "deadline-set": DEADLINE_SET, "seat-taken": SEAT_TAKEN,
                   "paused-by-gm": PAUSED, "resumed": RESUMED, "rolled-back": ROLLED_BACK,
                   "substitute-default": SUBSTITUTE_DEFAULT, "substitute-bot": SUBSTITUTE_BOT,
                   "away": AWAY_NOTICE}
NOTICES = tuple(NOTICE_MESSAGES.values())
NOTICE_IDS = {fmt: msg for msg, fmt in NOTICE_MESSAGES.items()}
