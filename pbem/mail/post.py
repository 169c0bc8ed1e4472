"""The mail pbem sends a seat's player of its own accord: his reports (the welcome mail is the root of
his thread), the reminder before a deadline, each with his reply key, and the board as a picture.
What answers a player's mail is in pbem.mail.replies; pbem.mail.run reads the inbox."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from pbem.clock import now_moment
from pbem.config import Config
from pbem.game import player_names, ruleset_of, show, waiting_for
from pbem.i18n import DEFAULT_LANGUAGE, language_of, localize, timezone_of, translator
from pbem.mail.boxes import Postman
from pbem.mail.compose import Moves, Picture, compose
from pbem.mail.ids import keyring, reminder_id, thread_id, thread_of
from pbem.report import env_for, wrap72
from pbem.rules.base import Order, order_text, typed_text
from pbem.tablebots import is_bot


def player_address(state: dict[str, Any], player: str) -> tuple[str, str]:
    """The name and address mail to a seat goes to: the person who plays it (who may have taken the
    seat over with `pbem replace`), not the seat's name."""
    entry = next(p for p in state["players"] if p["name"] == player)
    return entry.get("person") or player, entry["email"]


@dataclass(frozen=True)
class Keyed:
    """The ids of a mail to a seat's player, carrying his reply key (as they are sent; the state keeps
    them without), and the Reply-To address with the key."""

    message_id: str
    references: list[str]
    reply_to: str | None

    @property
    def in_reply_to(self) -> str | None:
        return self.references[-1] if self.references else None


def keyed(config: Config, state: dict[str, Any], player: str, mid: str, refs: list[str]) -> Keyed:
    """The ids of a mail to `player` with his reply key in each of pbem's own (none when keys are off)."""
    keys = keyring(config)
    if keys is None:
        return Keyed(mid, refs, None)
    found = thread_of(mid)
    reply_to = keys.reply_address(config, state, player, found[2]) if found else None
    return Keyed(keys.sign(mid, state, player), [keys.sign(r, state, player) for r in refs], reply_to)


def subject(config: Config, state: dict[str, Any], player: str, kind: str = "report") -> str:
    """A mail's subject, in the player's language: the prefix, the game, the turn and whose move."""
    _ = translator(language_of(state, player, config)).gettext
    game, turn = state["game"], state["engine"]["turn"]
    waiting = ", ".join(waiting_for(state))
    if kind == "welcome":
        move = _("your move") if player in waiting_for(state) else _("waiting for %(players)s") % {"players": waiting}
        what = _("welcome to %(title)s; turn %(turn)s: %(move)s") % {"title": ruleset_of(state).title,
                                                                    "turn": turn, "move": move}
    elif kind == "refused":
        what = _("turn %(turn)s: your orders were refused") % {"turn": turn}
    elif state["status"] == "finished":
        what = _("the game is over")
    elif player in waiting_for(state):
        what = _("turn %(turn)s: your move") % {"turn": turn}
    else:
        what = _("turn %(turn)s: waiting for %(players)s") % {"turn": turn, "players": waiting}
    return f"{config.subject_prefix} {game} {what}".strip()


def post_report(postman: Postman, state: dict[str, Any], player: str, seq: int, text: str,
                kind: str = "report") -> None:
    """A report as mail, in the game's thread for this player (the welcome mail is its root)."""
    config = postman.config
    game, turn = state["game"], state["engine"]["turn"]
    mid = thread_id(config, game, player, seq, turn)
    threads = state.setdefault("last_mail", {})
    previous = threads.get(player)
    root = thread_id(config, game, player, 1, 1)
    refs = [r for r in dict.fromkeys([root, previous]) if r and r != mid]
    name, address = player_address(state, player)
    ids = keyed(config, state, player, mid, refs)
    lang = language_of(state, player, config)
    pictured = kind in PICTURED and config.pictures
    msg = compose(config, name, address, subject(config, state, player, kind), text, ids.message_id,
                  in_reply_to=ids.in_reply_to, references=ids.references or None, date=now_moment(),
                  picture=board_picture(state, player, lang) if pictured else None,
                  reply_to=ids.reply_to, moves=phone_moves(state, player, lang) if pictured else None)
    postman.post(f"{game}.{player}.{seq:04d}", msg)
    threads[player] = mid


PICTURED = ("report", "welcome")  # the mails that show the board (a refusal does not)


def board_picture(state: dict[str, Any], player: str, lang: str = DEFAULT_LANGUAGE) -> Picture | None:
    """The board as `player` may see it, as a PNG for his mail, with the words that say what it shows
    and where it is, in his language; drawn only when a mail is posted. None (the mail goes out as
    text alone, complete on its own) if it cannot be drawn."""
    from pbem.mail.phone import phone_board_svg
    from pbem.pictures import board_png

    turn = state["engine"]["turn"]
    try:
        png = board_png(phone_board_svg(state, player, lang))
    except Exception as exc:  # a picture is never worth a lost report
        print(f"Warning: no board picture in {state['game']}'s mail to {player}: "
              f"{type(exc).__name__}: {exc}", file=sys.stderr)
        return None
    _ = translator(lang).gettext
    alt = _("The board of %(game)s at turn %(turn)s, as %(player)s may see it") % {
        "game": state["game"], "turn": turn, "player": player}
    filename = f"{state['game']}-turn-{turn}.png"
    note = _("The board is the picture at the end of this mail.")
    return Picture(png, alt, filename, note, _("The board is the picture above, under your move."))


MOST_BUTTONS = 13  # the buttons of a mail at most (a hand of 13 cards): four rows or five on a phone
FEW = 6  # a choice with a blank (`bid: N`, `send X`) gets a button for each of its values up to this many


def quick_orders(legal: list[Order]) -> list[Order]:
    """The orders a player most often wants, out of the legal ones: those his report lists whole
    (`pass`, `promote 6.1`, `load 5 harbour C`), then, for a choice with a blank, each of its values
    where they are few (`bonus time`, `bonus vp`); at most MOST_BUTTONS (all of them where they are no
    more), in the report's order. A choice
    of many values (a bid from 1 to 40, a palace on any of 120 squares) gets none: the player writes it."""
    groups: dict[str, list[Order]] = {}  # the choices as `pbem.report.summarize_orders` lists them
    for order in legal:
        if isinstance(order, dict) and len(order) == 1 and isinstance(next(iter(order.values())), int):
            key = f"{next(iter(order))}:"
        elif isinstance(order, str) and " " in order:
            key = order.rpartition(" ")[0] + " "
        else:
            key = order_text(order)
        groups.setdefault(key, []).append(order)
    if len(legal) <= MOST_BUTTONS:
        return list(legal)
    whole = [g[0] for g in groups.values() if len(g) == 1]
    chosen = whole[:MOST_BUTTONS]
    for group in groups.values():
        if 1 < len(group) <= FEW and len(chosen) + len(group) <= MOST_BUTTONS:
            chosen += group
    return [o for o in legal if o in chosen]


def phone_moves(state: dict[str, Any], player: str, lang: str = DEFAULT_LANGUAGE) -> Moves | None:
    """The buttons of a mail that asks `player` for his move, in his language (None: it is not his
    move): the orders he most often wants (`quick_orders`), each as he would type it, and the line that
    says how to write any other."""
    from pbem.report import summarize_orders

    if state["status"] != "active" or player not in waiting_for(state) or is_bot(state, player):
        return None
    ruleset = ruleset_of(state)
    legal = ruleset.legal_orders(state["engine"], player)
    if not legal:
        return None
    game = state["ruleset"]
    chosen = quick_orders(legal)
    _ = translator(lang).gettext
    left = [o for o in legal if o not in chosen]
    other = _("Any other order: reply with it alone, as the list above gives it, such as '%(order)s'.") % {
        "order": localize(typed_text(left[len(left) // 2]), game, lang)} if left else ""
    return Moves([localize(typed_text(o), game, lang) for o in chosen], summarize_orders(legal, lang, game),
                 _("Tap an order: a reply with it opens, ready to send."), other)


def post_reminder(postman: Postman, state: dict[str, Any], late: list[str]) -> None:
    """Remind the late players of a decision once, each in a mail of his own; tell the others (those
    who have sent their orders too) in one mail whom the game waits for. Each reads it in his
    language, the due time in his time zone."""
    from pbem.deadlines import after_the_deadline, due
    from pbem.i18n import moment_text

    config = postman.config
    when = due(state)
    game, turn = state["game"], state["engine"]["turn"]
    sent = state.get("reminders", {}).get(str(turn), 0)  # a turn reminded again (after a pause) gets new mail
    for player in player_names(state):
        if is_bot(state, player):
            continue  # bots get no mail
        name, address = player_address(state, player)
        lang = language_of(state, player, config)
        _ = translator(lang).gettext
        by = moment_text(when, lang, timezone_of(state, player, config), now_moment()) if when else "-"
        # in the player's thread: a reply to a reminder finds game, player and turn like one to a report
        root, previous = thread_id(config, game, player, 1, 1), state.get("last_mail", {}).get(player)
        refs = [r for r in dict.fromkeys([root, previous]) if r]
        if player in late:
            passive = ruleset_of(state).passive_order(state["engine"], player)
            order = None if passive is None else localize(order_text(passive), state["ruleset"], lang)
            after = after_the_deadline(state["deadline"], order, lang)
            text = (_("Game %(game)s waits for your orders for turn %(turn)s.") % {"game": game, "turn": turn} + "\n"
                    + wrap72(_("They are due by %(due)s.") % {"due": by} + f" {after}", 0)
                    + "\n" + _("Your latest report has a turn file ready to fill in.") + "\n")
            what = _("reminder: turn %(turn)s is due") % {"turn": turn}
        else:
            text = wrap72(_("Game %(game)s is waiting for %(player)s (turn %(turn)s, due by %(due)s).")
                          % {"game": game, "player": ", ".join(late), "turn": turn, "due": by}, 0) + "\n"
            what = _("turn %(turn)s: waiting for %(players)s") % {"turn": turn, "players": ", ".join(late)}
        ids = keyed(config, state, player, reminder_id(config, game, player, turn, sent), refs)
        msg = compose(config, name, address, f"{config.subject_prefix} {game} {what}".strip(), text,
                      ids.message_id, in_reply_to=ids.in_reply_to, references=ids.references, date=now_moment(),
                      reply_to=ids.reply_to)
        postman.post(f"{state['game']}.{player}.remind-{turn:04d}" + (f"-{sent}" if sent > 1 else ""), msg)


def welcome_text(state: dict[str, Any], player: str, token: str, report: str, reply_keys: bool = True,
                 lang: str = DEFAULT_LANGUAGE) -> str:
    """The welcome mail of a seat's player in `lang` (a newcomer to a seat is greeted by his own name);
    with `reply_keys` he is told to reply with his order alone."""
    ruleset = ruleset_of(state)
    templates = env_for(lang, ruleset.name)
    _ = translator(lang).gettext
    view = show(state, player)["view"]
    rules = templates.get_template(f"{ruleset.name}/rules.txt.j2").render(view=view)
    players = [_("%(seat)s (played by %(person)s)") % {"seat": p["name"], "person": p["person"]}
               if p.get("person") else p["name"] for p in state["players"]]
    return templates.get_template("common/welcome.txt.j2").render(
        title=ruleset.title, game=state["game"], player=player, name=player_address(state, player)[0],
        token=token, players=players, rules=rules.strip(), report=report, reply_keys=reply_keys)
