"""Mail commands: a reply that is one word asks for something instead of giving an order. Each is
answered by mail, to the player alone; none changes the game (`undo` withdraws his queued orders)."""

from __future__ import annotations

from typing import Any

from pbem.game import ruleset_of, show, waiting_for
from pbem.rules.base import order_text
from pbem.store import GamesDir

COMMANDS = ("help", "status", "games", "standing", "undo")
ALIASES = {"?": "help"}


def command_in(lines: list[str]) -> str | None:
    """The command a reply gives: its one line is one of COMMANDS (in any case, ended as a sentence)."""
    if len(lines) != 1:
        return None
    word = lines[0].strip().rstrip(".!").strip().casefold()
    word = ALIASES.get(word, word.rstrip("?").strip())
    return word if word in COMMANDS else None


def mentions_command(lines: list[str]) -> str | None:
    """A command word given among other lines (which pbem does not guess about), if any."""
    for line in lines:
        word = line.strip().rstrip(".!?").strip().casefold()
        if word in COMMANDS:
            return word
    return None


def whose_move(state: dict[str, Any], player: str) -> str:
    """Whose move a game waits for, as a player reads it."""
    if state["status"] == "finished":
        return "the game is over"
    if state["status"] == "paused":
        return "paused by the GM"
    waiting = waiting_for(state)
    if player in waiting:
        others = [p for p in waiting if p != player]
        return "your move" + (f" (and {', '.join(others)}'s)" if others else "")
    return f"waiting for {', '.join(waiting)}"


def games_lines(gd: GamesDir, address: str) -> list[dict[str, str]]:
    """Each game on this host in which `address` holds a seat: id, game, turn, whose move, since, due."""
    from pbem.deadlines import due, moment, stamp
    from pbem.mail.seats import games_of

    out = []
    for game in games_of(gd, address, active_only=False):
        state = gd.load(game)
        for entry in (p for p in state["players"] if str(p.get("email", "")).lower() == address):
            player = entry["name"]
            when = due(state) if state["status"] == "active" else None
            # the seat is named where he took it over under a name of his own (`pbem replace`)
            out.append({"game": game, "title": ruleset_of(state).title, "seat": player if entry.get("person") else "",
                        "turn": str(state["engine"]["turn"]), "move": whose_move(state, player),
                        "since": stamp(moment(state["waiting_since"])) if state["status"] == "active" else "",
                        "due": stamp(when) if when else "", "status": state["status"]})
    return out


def help_context(state: dict[str, Any], player: str) -> dict[str, Any]:
    """What `help` tells a player: what he may send now, examples from his own position, the rules."""
    from pbem.report import env, summarize_orders

    ruleset = ruleset_of(state)
    shown = show(state, player)
    legal = shown.get("legal_orders", []) if player in waiting_for(state) else []
    rules = env().get_template(f"{ruleset.name}/rules.txt.j2").render(view=shown["view"])
    return dict(title=ruleset.title, game=state["game"], player=player, turn=state["engine"]["turn"],
                move=whose_move(state, player), legal=summarize_orders(legal),
                example=order_text(legal[0]) if legal else ruleset.example_order,
                standing_kinds=list(ruleset.standing_help.items()), commands=COMMANDS, rules=rules.strip(),
                active=state["status"] == "active")


def standing_context(state: dict[str, Any], player: str) -> dict[str, Any]:
    """What `standing` tells a player: his standing orders, and the kinds his game has."""
    ruleset = ruleset_of(state)
    mine = state.get("standing", {}).get(player, [])
    return dict(game=state["game"], standing=[order_text(o) for o in mine],
                kinds=list(ruleset.standing_help.items()))


def withdraw(gd: GamesDir, state: dict[str, Any], player: str) -> list[str]:
    """Take `player`'s queued orders out of the queue (before the run applies them); what they were."""
    gone = []
    for path, entry in gd.queued(state["game"]):
        if entry.get("player") != player:
            continue
        orders = [order_text(o) for o in entry.get("orders") or []]
        what = ", ".join(orders) if orders else "standing orders" if "standing" in entry else "reports"
        turn = entry.get("turn")
        gone.append(f"{what} ({'sent ahead' if turn == 'next' else f'turn {turn}' if turn else 'any time'})")
        path.unlink(missing_ok=True)
    return gone

