"""Mail commands: a reply that is one word asks for something instead of giving an order. Each is
answered by mail, to the player alone, in his language; none changes the game (`undo` withdraws his
queued orders; `language de` queues his choice of language, which the run applies to his seat)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pbem.game import ruleset_of, show, waiting_for
from pbem.i18n import DEFAULT_LANGUAGE, LANGUAGES, localize, translator
from pbem.rules.base import order_text, typed_text
from pbem.store import GamesDir

if TYPE_CHECKING:
    from pbem.mail.sender import Sender

COMMANDS = ("help", "status", "games", "standing", "undo", "standings")
ALIASES = {"?": "help"}
# each command in the words of the languages pbem writes (the help in that language shows them); no
# command word may be an order word of a game (tests/test_i18n.py checks)
COMMAND_WORDS = {
    "de": {"hilfe": "help", "spiele": "games", "dauerbefehle": "standing", "zurück": "undo", "zurueck": "undo",
           "tabelle": "standings", "rangliste": "standings"},
    "nl": {"hulp": "help", "spellen": "games", "vast": "standing", "terug": "undo", "stand": "standings",
           "ranglijst": "standings"},
}
LANGUAGE_WORDS = ("language", "sprache", "taal")  # `language de`, `sprache de`, `taal nl`
LANGUAGE_COMMAND = re.compile(rf"^(?:{'|'.join(LANGUAGE_WORDS)})\s*:?\s*(\S+)$", re.IGNORECASE)
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "nl": "Nederlands"}


def _word(line: str) -> str:
    word = line.strip().rstrip(".!").strip().casefold()
    word = ALIASES.get(word, word.rstrip("?").strip())
    for words in COMMAND_WORDS.values():
        word = words.get(word, word)
    return word


def command_in(lines: list[str]) -> str | None:
    """The command a reply gives: its one line is one of COMMANDS in any language pbem writes (in any
    case, ended as a sentence), or `language XX` (returned as `language XX`, XX as he wrote it)."""
    if len(lines) != 1:
        return None
    from pbem.absence import asked as away_asked, is_back

    day = away_asked(lines[0])
    if day is not None:
        return f"away {day}"
    if is_back(lines[0]):
        return "back"
    asked = language_asked(lines[0])
    if asked is not None:
        return f"language {asked}"
    word = _word(lines[0])
    return word if word in COMMANDS else None


def language_asked(line: str) -> str | None:
    """The language a line `language de` (`sprache de`, `taal nl`) asks for, as written (lower case)."""
    found = LANGUAGE_COMMAND.match(line.strip().rstrip(".!").strip())
    return found.group(1).casefold() if found else None


def mentions_command(lines: list[str]) -> str | None:
    """A command word given among other lines (which pbem does not guess about), if any."""
    for line in lines:
        said = line.strip().rstrip(".!?").strip().casefold()
        if language_asked(line) is not None:
            return said
        word = said
        for words in COMMAND_WORDS.values():
            word = words.get(word, word)
        if word in COMMANDS:
            return said
    return None


def whose_move(state: dict[str, Any], player: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """Whose move a game waits for, as a player reads it."""
    _ = translator(lang).gettext
    if state["status"] == "finished":
        return _("the game is over")
    if state["status"] == "paused":
        return _("paused by the GM")
    waiting = waiting_for(state)
    if player in waiting:
        others = [p for p in waiting if p != player]
        return _("your move (and %(others)s's)") % {"others": ", ".join(others)} if others else _("your move")
    return _("waiting for %(players)s") % {"players": ", ".join(waiting)}


def games_lines(gd: GamesDir, address: str, lang: str = DEFAULT_LANGUAGE,
                zone: str | None = None, who: Sender | None = None) -> list[dict[str, str]]:
    """Each game on this host in which `address` holds a seat: id, game, turn, whose move, since, due
    (in `lang`, times in `zone`). `who`: the mail's sender, whose seats are looked up already."""
    from pbem.deadlines import due, moment
    from pbem.i18n import moment_text
    from pbem.mail.seats import games_of

    now = moment(_now())
    out = []
    games = games_of(gd, address, active_only=False) if who is None else list(dict.fromkeys(s.game for s in who.seats))
    for game in games:
        state = gd.load(game) if who is None else who.state(game)
        if state is None:
            continue
        for entry in (p for p in state["players"] if str(p.get("email", "")).lower() == address):
            player = entry["name"]
            when = due(state) if state["status"] == "active" else None
            # the seat is named where he took it over under a name of his own (`pbem replace`)
            out.append({"game": game, "title": ruleset_of(state).title, "seat": player if entry.get("person") else "",
                        "turn": str(state["engine"]["turn"]), "move": whose_move(state, player, lang),
                        "since": moment_text(moment(state["waiting_since"]), lang, zone, now)
                        if state["status"] == "active" else "",
                        "due": moment_text(when, lang, zone, now) if when else "", "status": state["status"]})
    return out


def _now() -> str:
    from pbem.game import now

    return now()


def first_seat(gd: GamesDir, address: str) -> tuple[dict[str, Any], str] | None:
    """The first seat `address` holds on this host (whose language a mail to him about all his games
    is written in), or None. (A mail's own handling asks its `Sender.first` instead.)"""
    from pbem.mail.seats import games_of

    for game in games_of(gd, address, active_only=False):
        state = gd.load(game)
        for entry in state["players"]:
            if str(entry.get("email", "")).lower() == address:
                return state, entry["name"]
    return None


def help_context(state: dict[str, Any], player: str, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """What `help` tells a player, in `lang`: what he may send now, examples from his own position, the
    rules."""
    from pbem.report import env_for, summarize_orders

    ruleset = ruleset_of(state)
    game = ruleset.name
    _ = translator(lang, game).gettext
    shown = show(state, player)
    legal = shown.get("legal_orders", []) if player in waiting_for(state) else []
    rules = env_for(lang, game).get_template(f"{game}/rules.txt.j2").render(view=shown["view"])
    return dict(title=ruleset.title, game=state["game"], player=player, turn=state["engine"]["turn"],
                move=whose_move(state, player, lang), legal=summarize_orders(legal, lang, game),
                example=localize(typed_text(legal[0]) if legal else ruleset.example_order, game, lang),
                standing_kinds=[(localize(k, game, lang), _(v)) for k, v in ruleset.standing_help.items()],
                commands=COMMANDS, rules=rules.strip(), active=state["status"] == "active",
                other=next_seat(state, player))


def next_seat(state: dict[str, Any], player: str) -> str:
    """The seat after `player`'s at the table (the one an example of private talk names)."""
    from pbem.game import player_names

    names = player_names(state)
    return names[(names.index(player) + 1) % len(names)] if player in names else names[0]


def standing_context(state: dict[str, Any], player: str, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """What `standing` tells a player: his standing orders, and the kinds his game has."""
    ruleset = ruleset_of(state)
    game = ruleset.name
    _ = translator(lang, game).gettext
    mine = state.get("standing", {}).get(player, [])
    return dict(game=state["game"], standing=[localize(typed_text(o), game, lang) for o in mine],
                kinds=[(localize(k, game, lang), _(v)) for k, v in ruleset.standing_help.items()])


def withdraw(gd: GamesDir, state: dict[str, Any], player: str, lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """Take `player`'s queued orders out of the queue (before the run applies them); what they were."""
    game = state["ruleset"]
    _ = translator(lang, game).gettext
    gone = []
    for path, entry in gd.queued(state["game"]):
        if entry.get("player") != player or "language" in entry:  # his choice of language is no order
            continue
        orders = [localize(typed_text(o), game, lang) for o in entry.get("orders") or []]
        what = ", ".join(orders) if orders else _("standing orders") if "standing" in entry else _("reports")
        turn = entry.get("turn")
        when = _("sent ahead") if turn == "next" else _("turn %(turn)s") % {"turn": turn} if turn else _("any time")
        gone.append(f"{what} ({when})")
        path.unlink(missing_ok=True)
    return gone


def language_choices() -> list[tuple[str, str]]:
    """Each language pbem writes, with its own name."""
    return [(code, LANGUAGE_NAMES[code]) for code in LANGUAGES]

