"""`away until 3 Dec` (`weg bis 3. Dez`, `weg tot 3 dec`) and `back` (`wieder da`, `weer terug`) by
mail: in a reply that proves the player's seat, queued in each of his games not over (as his orders
are: the run that reads it applies it and commits), answered to him alone.

The absences of each address are kept for `absence.window` days in mail/absences.txt (out of git, the
address hashed as the never-mail list hashes it): from the moment one was asked to the moment he is
back (cut short by `back` or by a newer absence), so that renewals count together against
`absence.total`."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from pbem import digests
from pbem.absence import Span
from pbem.config import Config
from pbem.store import GamesDir, write_atomic

ABSENCES_FILE = ("mail", "absences.txt")  # one absence a line: the address's hash, from, until (out of git)
_LINE = re.compile(r"^([ks][a-z0-9]{1,64}) ([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z) "
                   r"([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z)$")


def _who(config: Config, address: str) -> str:
    """How the file names an address: a MAC under the host's secret, else its SHA-256."""
    from pbem.mail.ids import keyring

    address = address.strip().lower()
    keys = keyring(config)
    if keys is not None:
        return "k" + keys.mac("pbem-absence", address)
    return "s" + digests.sha256(f"pbem-absence\0{address}".encode()).hexdigest()


def _read(gd: GamesDir) -> list[tuple[str, datetime, datetime]]:
    """Every absence the file holds; a line spoiled (a hand, a disk) is dropped and the GM told."""
    from pbem.deadlines import moment
    from pbem.mended import mended, read_lines

    path = gd.root.joinpath(*ABSENCES_FILE)
    forgotten = "those absences no longer count against the players' total"
    kept, spoiled = [], 0
    for line in read_lines(path, gd.root, forgotten) or []:
        found = _LINE.match(line)
        try:
            kept.append((found.group(1), moment(found.group(2)), moment(found.group(3))))  # type: ignore[union-attr]
        except (AttributeError, ValueError):
            spoiled += bool(line.strip())
    if spoiled:
        mended(path, gd.root, f"{spoiled} of its lines are not 'address from until'", forgotten)
    return kept


def _write(gd: GamesDir, kept: list[tuple[str, datetime, datetime]]) -> None:
    from pbem.deadlines import stamp

    path = gd.root.joinpath(*ABSENCES_FILE)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, "".join(f"{who} {stamp(a)} {stamp(b)}\n" for who, a, b in kept))


def taken(gd: GamesDir, config: Config, address: str) -> list[Span]:
    """The absences of `address` the file holds."""
    who = _who(config, address)
    return [(a, b) for w, a, b in _read(gd) if w == who]


def note(gd: GamesDir, config: Config, address: str, at: datetime, until: datetime | None) -> None:
    """`address` is away from `at` until `until` (None: he is back at `at`): an absence of his that
    runs past `at` ends at `at`; absences older than a window are forgotten."""
    who = _who(config, address)
    oldest = at - timedelta(days=config.absence_window_days)
    kept = [(w, a, min(b, at) if w == who else b) for w, a, b in _read(gd) if b > oldest]
    kept = [(w, a, b) for w, a, b in kept if b > a]
    if until is not None:
        kept.append((who, at, until))
    _write(gd, kept)


def answer_absence(gd: GamesDir, postman: Any, mail: Any, seat: tuple[dict[str, Any], str], hidden: list[str],
                   lang: str, command: str, who: Any = None) -> str:
    """Queue the absence (or its end) in every game of the sender and answer him; the run's words.
    `who`: the mail's `Sender`, looked up once for the mail (his games not finished)."""
    from pbem.absence import AbsenceError, check, check_total, parse_day
    from pbem.deadlines import moment, stamp
    from pbem.game import now
    from pbem.i18n import day_text, timezone_of
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
        note(gd, config, mail.sender, at, None)
        reply(postman, mail, "common/cmd-away.txt.j2", seat=seat, hidden=hidden, message=None, back=True)
        return f" (back in {', '.join(g for g, _ in mine) or 'no game'})"
    try:
        from zoneinfo import ZoneInfo

        today = at.astimezone(ZoneInfo(zone)).date() if zone else at.date()
        from pbem.mail.orders import own_lines

        written = own_lines(mail)
        day = parse_day(command.split(" ", 1)[1], today, words=written[0] if len(written) == 1 else None)
        until = check(day, at, zone, config.absence_max_days)
        check_total(day, at, zone, taken(gd, config, mail.sender), config.absence_total_days,
                    config.absence_window_days)
    except AbsenceError as exc:
        reply(postman, mail, "common/cmd-away.txt.j2", seat=seat, hidden=hidden, message=exc.text(lang), back=False)
        return f" (refused: {exc})"
    when = stamp(until)
    for game, name in mine:
        gd.enqueue(game, {"player": name, "turn": None, "received": now(), "source": f"mail {mail.message_id}",
                          "away": when})
    if mine:
        note(gd, config, mail.sender, at, until)
    games = ", ".join(dict.fromkeys(g for g, _ in mine))
    reply(postman, mail, "common/cmd-away.txt.j2", seat=seat, hidden=hidden, message=None, back=False,
          until=day_text(day, lang, today), games=games)
    return f" (away until {when} in {games})"
