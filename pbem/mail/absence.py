"""`away until 3 Dec` (`weg bis 3. Dez`, `weg tot 3 dec`) and `back` (`wieder da`, `weer terug`) by
mail: in a reply that proves the player's seat, queued in each of his games not over (as his orders
are: the run that reads it applies it and commits), answered to him alone."""

from __future__ import annotations

from typing import Any

from pbem.store import GamesDir


def answer_absence(gd: GamesDir, postman: Any, mail: Any, seat: tuple[dict[str, Any], str], hidden: list[str],
                   lang: str, command: str, who: Any = None) -> str:
    """Queue the absence (or its end) in every game of the sender and answer him; the run's words.
    `who`: the mail's `Sender`, looked up once for the mail (his games not finished)."""
    from pbem.absence import AbsenceError, check, parse_day
    from pbem.deadlines import moment, stamp
    from pbem.game import now
    from pbem.i18n import timezone_of
    from pbem.mail.replies import reply
    from pbem.mail.seats import games_of

    config = postman.config
    state, player = seat
    zone = timezone_of(state, player, config)
    at = moment(now())
    mine = []
    games = games_of(gd, mail.sender, active_only=True) if who is None else \
        list(dict.fromkeys(s.game for s in who.playing))
    for game in games:
        other = gd.load(game)
        if other["status"] == "finished":
            continue
        mine += [(game, p["name"]) for p in other["players"] if str(p.get("email", "")).lower() == mail.sender
                 and (command != "back" or p["name"] in other.get("away", {}))]
    if command == "back":
        for game, name in mine:
            gd.enqueue(game, {"player": name, "turn": None, "received": now(), "source": f"mail {mail.message_id}",
                              "back": True})
        reply(postman, mail, "common/cmd-away.txt.j2", seat=seat, hidden=hidden, message=None, back=True)
        return f" (back in {', '.join(g for g, _ in mine) or 'no game'})"
    try:
        from zoneinfo import ZoneInfo

        today = at.astimezone(ZoneInfo(zone)).date() if zone else at.date()
        until = check(parse_day(command.split(" ", 1)[1], today), at, zone, config.absence_max_days)
    except AbsenceError as exc:
        reply(postman, mail, "common/cmd-away.txt.j2", seat=seat, hidden=hidden, message=exc.text(lang), back=False)
        return f" (refused: {exc})"
    when = stamp(until)
    for game, name in mine:
        gd.enqueue(game, {"player": name, "turn": None, "received": now(), "source": f"mail {mail.message_id}",
                          "away": when})
    games = ", ".join(dict.fromkeys(g for g, _ in mine))
    reply(postman, mail, "common/cmd-away.txt.j2", seat=seat, hidden=hidden, message=None, back=False,
          until=until.date().isoformat(), games=games)
    return f" (away until {when} in {games})"
