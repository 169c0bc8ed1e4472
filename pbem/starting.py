"""Starting a game: set up, its first state file and reports (each player's welcome mail, with a
postman), committed. `pbem new`, the lobby (an open game full, a challenge accepted, `pbem start`),
a game against bots by mail and an open game whose time for players ran out all start one here.

It sits above the reports and the mail pbem sends (pbem.reporting), and below everything that starts
a game: the command line, the lobby's commands by mail (pbem.mail.lobby, pbem.mail.tablebots) and the
run (pbem.advance).
"""

from __future__ import annotations

from contextlib import nullcontext
from datetime import datetime
from typing import Any, Callable, Collection

from pbem import lobby
from pbem.config import Config
from pbem.errors import SetupError
from pbem.game import new_game, set_seat
from pbem.i18n import N_
from pbem.refusals import refuse
from pbem.names import setup_check
from pbem.reporting import write_reports
from pbem.rules.base import get_ruleset
from pbem.store import GamesDir
from pbem.tablebots import BOT_ADDRESS, bot_names, fill_at


def start_game(gd: GamesDir, ruleset: str, game: str, people: list[tuple[str, str]], options: dict[str, str],
               headline: str, postman: Any = None, seed: str | None = None, deck: Any = None,
               deadline: dict[str, Any] | None = None, bots: Collection[str] = (),
               settings: Callable[[dict[str, Any]], dict[str, Any]] | None = None, talk: str | None = None,
               observers: str | None = None, besides: Callable[[], list[str]] | None = None,
               lock: bool = False, then: Callable[[], None] | None = None) -> tuple[dict[str, Any], dict[str, str]]:
    """Start `game`: set it up and check it (nothing is written if it cannot start), change its state
    with `settings` (its seats' languages and time zones; it may refuse too), then, under the games
    dir's lock if `lock` asks for it, make the games dir a git repository if it is none yet, write
    the table talk settings, do what starting changes `besides` (the paths it returns are committed
    with the game), write the first reports (posted with `postman`: each player's welcome mail) and
    the state, and commit it all under `headline`; then do `then` (still under the lock: `pbem new`
    delivers the welcome mails). Returns the state and each player's token."""
    for name, _ in people:  # whatever gave them (the command line, a lobby file, a mail), before all else
        setup_check(name)
    state, tokens = new_game(gd, ruleset, game, people, options, seed, deck, deadline, bots=bots)
    if settings is not None:
        state = settings(state)
    with gd.lock() if lock else nullcontext():
        if gd.exists(game) or gd.is_game_folder(game):
            raise SetupError(refuse("game-taken", game=game, where=str(gd.root)))
        gd.ensure_repo()
        from pbem.talk import write_table

        write_table(gd, game, talk, observers)
        also = besides() if besides is not None else []
        write_reports(gd, state, postman, tokens)
        gd.save(game, state)
        message = (f"{headline}\n\n"
                   f"Options: {', '.join(f'{k}={v}' for k, v in state['options'].items()) or 'none'}.\n"
                   f"Seed commitment: sha256 {state['seed_sha256']}.\n")
        if also:
            gd.commit_paths([game, *also], message)
        else:
            gd.commit(game, message)
        if then is not None:
            then()
    return state, tokens


def start_entry(gd: GamesDir, config: Config, entry: dict[str, Any], postman: Any = None,
                at_least: bool = False) -> tuple[dict[str, Any], dict[str, str]]:
    """The game made from a lobby entry: its seed drawn, its players seated in the order they came,
    their welcome mails posted (with `postman`), saved and committed with the entry's end. `at_least`:
    the GM starts it with fewer players than seats, at least the ruleset's minimum."""
    rules = get_ruleset(entry["ruleset"])
    seated = entry["seated"]
    bots = entry.get("bots", [])
    if len(seated) + len(bots) < rules.min_players:
        raise lobby.LobbyError(N_("game %(game)r has %(count)s of the %(least)s players %(title)s needs at least"),
                               game=entry["game"], count=len(seated), least=rules.min_players, title=rules.title)
    if not at_least and not lobby.ready(entry):
        raise lobby.LobbyError(N_("game %(game)r is not full yet"), game=entry["game"])

    def languages(state: dict[str, Any]) -> dict[str, Any]:
        for s in seated:
            if s.get("language"):
                state = set_seat(state, s["name"], "language", s["language"])
        return state

    people = [(s["name"], s["email"]) for s in seated] + [(b, BOT_ADDRESS) for b in bots]
    how = "opened by the GM" if entry["kind"] == lobby.OPEN else f"a challenge of {lobby.challenger_name(entry)}"
    table = entry.get("table") or {}
    started = start_game(gd, rules.name, entry["game"], people, entry["options"],
                         f"{entry['game']}: new {rules.name} game for {', '.join(n for n, _ in people)} ({how})",
                         postman, deadline=entry["deadline"], bots=bots, settings=languages, talk=table.get("talk"),
                         observers=table.get("observers"),
                         besides=lambda: [lobby.remove(gd, entry["game"], addresses=False)])
    lobby.forget_addresses(gd, entry["game"])  # the game holds them now, saved
    return started


def fill_open_games(gd: Any, config: Any, postman: Any, at: datetime) -> list[str]:
    """Start each open game whose time for bots has come: its free seats go to bots, its players get
    their welcome mails. A game nobody has joined stays open (bots alone would play for nobody)."""
    lines = []
    for entry in lobby.entries(gd):
        when = fill_at(entry)
        if entry["kind"] != lobby.OPEN or when is None or at < when or not entry["seated"]:
            continue
        free = entry["seats"] - len(entry["seated"])
        entry["bots"] = entry.get("bots", []) + bot_names(free, [s["name"] for s in entry["seated"]])
        entry["seats"] = len(entry["seated"])
        state, _ = start_entry(gd, config, entry, postman)
        lines.append(f"{entry['game']}: the time for players ran out; {', '.join(entry['bots'])} "
                     f"{'take' if len(entry['bots']) > 1 else 'takes'} the free seats; the game starts")
    return lines
