"""A game against bots started by mail: `new medici with bot, bot` (`mit bot`, `met bot`), or a
`rematch` of such a game. The challenger takes the first seat, the bots the others, and the game
starts at once: his welcome mail is the answer. Who may do it is pbem.yaml's `lobby.bots`."""

from __future__ import annotations

from typing import Any

from pbem import lobby
from pbem.i18n import N_

BOTS_REFUSED = N_("this host does not start games against bots")
TOO_MANY_BOT_GAMES = N_("you play %(count)s games against bots that are not over (%(games)s), the most this host "
                        "allows; finish one first")


def may_play_bots(gd: Any, config: Any, address: str) -> bool:
    """Whether pbem.yaml's `lobby.bots` lets `address` start a game against bots: true (the default)
    lets whoever may challenge (`lobby.create`), false nobody; a rule as `lobby.create`'s otherwise."""
    rule = config.lobby_bots
    if rule is True:
        return lobby.may_create(gd, config, address)
    if rule is False:
        return False
    return lobby.may_create(gd, _Rule(config, rule), address)


class _Rule:
    """A config whose `lobby_create` is another rule (lobby.may_create reads only that)."""

    def __init__(self, config: Any, rule: Any) -> None:
        self.lobby_create = rule
        self.config = config


def check_bots(work: Any) -> None:
    """Refuse bots to whom `lobby.bots` does not allow them: silently to an address that plays no
    game here (an answer would mail whoever the From names), else with the reason."""
    from pbem.mail.lobby_keys import Silent

    if may_play_bots(work.gd, work.config, work.sender):
        return
    if not lobby.plays_here(work.gd, work.sender):
        raise Silent(f"{work.sender} may not start games against bots on this host "
                     f"(pbem.yaml lobby.bots: {work.config.lobby_bots})")
    raise lobby.LobbyError(BOTS_REFUSED)


def bot_games(gd: Any, address: str) -> list[str]:
    """The games not over in which `address` plays alone against bots."""
    from pbem.mail.seats import games_of

    found = []
    for game in games_of(gd, address, active_only=True):
        state = gd.load(game)
        others = [p for p in state["players"] if str(p.get("email", "")).lower() != address]
        if state["status"] != "finished" and others and all(p.get("bot") for p in others):
            found.append(game)
    return found


def against_bots(work: Any, command: Any, lang: str) -> str:
    """`new RULESET with bot, bot`: the game of the sender against the bots, started now."""
    from pbem.i18n import LANGUAGES
    from pbem.tablebots import bot_names

    check_bots(work)
    rule = None
    if command.deadline is not None:
        from pbem.gm import deadline_rule

        rule = deadline_rule(command.deadline, None, None)
    language = command.language_option
    if language is not None and language not in LANGUAGES:
        raise lobby.LobbyError(N_("language %(language)r is not one pbem writes (choose one of: %(languages)s)"),
                               language=language, languages=", ".join(LANGUAGES))
    seat = lobby.Seat(lobby.seat_name(work.sender, []), work.sender, command.language)
    if work.proven is not None:
        seat = lobby.Seat(work.proven.player, work.sender, command.language)
    assert command.ruleset is not None
    game = command.game or lobby.free_id(work.gd, command.ruleset)
    return start_against_bots(work, command.ruleset, game, seat, bot_names(command.bots, [seat.name]),
                              command.options, rule, language)


def start_against_bots(work: Any, ruleset: str, game: str, seat: Any, bots: list[str], options: dict[str, str],
                       deadline: dict[str, Any] | None, language: str | None) -> str:
    """Start `game` of `seat`'s player against `bots` at once: checked as `pbem new` checks a game,
    the bots' first decisions made, his welcome mail posted, committed."""
    from pbem.game import set_seat
    from pbem.starting import start_game
    from pbem.tablebots import BOT_ADDRESS

    check_bots(work)
    mine = bot_games(work.gd, work.sender)
    if len(mine) >= work.config.lobby_invitations:
        raise lobby.LobbyError(TOO_MANY_BOT_GAMES, count=len(mine), games=", ".join(mine))
    # checked as a challenge is: the id, the options, the number of seats
    lobby.new_entry(work.gd, lobby.CHALLENGE, ruleset, game, options, deadline, work.sender, work.at, 1, len(bots))
    people = [(seat.name, work.sender)] + [(b, BOT_ADDRESS) for b in bots]
    chosen = language or seat.language
    start_game(work.gd, ruleset, game, people, options,
               f"{game}: new {ruleset} game for {seat.name} against {', '.join(bots)} (bots; asked by mail)",
               work.postman, deadline=deadline, bots=bots,
               settings=(lambda state: set_seat(state, seat.name, "language", chosen)) if chosen else None)
    return f"{game}: {seat.name} plays against {', '.join(bots)} (bots); the game starts"
