"""Absence: a player away (`away until 3 Dec`, `weg bis 3. Dez`, `weg tot 3 dec`) has the clock of his
decisions start when he is back, in every game he plays here, for at most `absence.max` (pbem.yaml,
14 days by default). The other players are told once; `back` (`wieder da`, `weer terug`) ends it.

A game keeps `away: {seat: STAMP}`, the moment the seat's player is back (the start of the day he
named, in his time zone). A decision of his that began before then is due `deadline` after it.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta, timezone
from typing import Any

from pbem.errors import PbemError
from pbem.i18n import N_
from pbem.refusals import AWAY_NOTICE  # noqa: F401 (a notice: its format lives with the others)

AWAY_WORDS = ("away until", "away till", "weg bis", "weg tot", "afwezig tot")
BACK_WORDS = ("back", "wieder da", "weer terug", "terug van weg")
AWAY_LINE = re.compile(rf"^(?:{'|'.join(AWAY_WORDS)})\b\s*:?\s*(.*)$", re.IGNORECASE)
DEFAULT_MAX_DAYS = 14

UNREADABLE = N_("%(said)r: write the day you are back, such as 'away until 3 Dec' or 'away until 2026-12-03'")
PASSED = N_("%(day)s has passed; write a day to come, such as 'away until 3 Dec'")
TOO_LONG = N_("you may be away for at most %(days)s days on this host, until %(day)s at the latest")


class AbsenceError(PbemError):
    """An absence that cannot be set: an English format and its values, for the player's language."""

    def __init__(self, fmt: str, **values: Any) -> None:
        self.fmt, self.values = fmt, values
        super().__init__(fmt % values)

    def text(self, lang: str) -> str:
        from pbem.i18n import translator

        return translator(lang).gettext(self.fmt) % self.values


def asked(line: str) -> str | None:
    """What an `away until ...` line names as the day (as written), or None when it is no such line."""
    found = AWAY_LINE.match(line.strip().rstrip(".!").strip())
    return found.group(1).strip() if found else None


def is_back(line: str) -> bool:
    return line.strip().rstrip(".!").strip().casefold() in BACK_WORDS


def _months() -> dict[str, int]:
    """Month names and their abbreviations in every language pbem writes, to their numbers."""
    from babel.dates import get_month_names

    names: dict[str, int] = {}
    for lang in ("en", "de", "nl"):
        for width in ("wide", "abbreviated"):
            for number, name in get_month_names(width, locale=lang).items():
                names[name.casefold().rstrip(".")] = number
    names.update({"mrz": 3, "maerz": 3, "sept": 9, "mrt": 3})
    return names


def parse_day(text: str, today: date) -> date:
    """The day a player wrote (`3 Dec`, `3. Dezember`, `dec 3`, `3.12.`, `2026-12-03`), in the year in
    which it comes next from `today` when he gave none."""
    said = text.strip().rstrip(".").strip()
    low = said.casefold().replace(",", " ")
    year: int | None = None
    month = day = None
    iso = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", low)
    dotted = re.fullmatch(r"(\d{1,2})[./](\d{1,2})[./]?(\d{4})?", low)
    if iso:
        year, month, day = int(iso.group(1)), int(iso.group(2)), int(iso.group(3))
    elif dotted:
        day, month = int(dotted.group(1)), int(dotted.group(2))
        year = int(dotted.group(3)) if dotted.group(3) else None
    else:
        words = [w.rstrip(".") for w in low.split()]
        months = _months()
        numbers = [w for w in words if w.isdigit()]
        named = [months[w] for w in words if w in months]
        if len(named) == 1 and 1 <= len(numbers) <= 2 and len(words) == len(numbers) + 1:
            month = named[0]
            day = int(numbers[0])
            if len(numbers) == 2:
                year = int(numbers[1])
    if month is None or day is None:
        raise AbsenceError(UNREADABLE, said=f"away until {said}")
    try:
        found = date(year or today.year, month, day)
        if year is None and found < today:
            found = date(today.year + 1, month, day)
    except ValueError:
        raise AbsenceError(UNREADABLE, said=f"away until {said}") from None
    return found


def back_moment(day: date, zone: str | None) -> datetime:
    """The start of `day` in the player's time zone, in UTC."""
    from zoneinfo import ZoneInfo

    tz = ZoneInfo(zone) if zone else timezone.utc
    return datetime.combine(day, time(0, 0), tz).astimezone(timezone.utc)


def check(day: date, at: datetime, zone: str | None, max_days: int) -> datetime:
    """The moment the player is back, checked: after now, and at most `max_days` ahead."""
    until = back_moment(day, zone)
    if until <= at:
        raise AbsenceError(PASSED, day=day.isoformat())
    latest = at + timedelta(days=max_days)
    if until > latest:
        raise AbsenceError(TOO_LONG, days=max_days, day=latest.date().isoformat())
    return until


def away(state: dict[str, Any], player: str, until: str) -> dict[str, Any]:
    """A copy of the game with `player` away until `until` (a stamp); the others are told once."""
    import copy

    from pbem.gamestate import notice

    new = copy.deepcopy(state)
    new.setdefault("away", {})[player] = until
    others = [p["name"] for p in state["players"] if p["name"] != player and not p.get("bot")]
    notice(new, AWAY_NOTICE, to=others, args={"player": player, "until": until[:10]})
    return new


def back(state: dict[str, Any], player: str, at: str) -> dict[str, Any]:
    """A copy of the game with `player` back now: the clock of his decision starts now if his absence
    held it."""
    import copy

    new = copy.deepcopy(state)
    table = new.get("away", {})
    if player in table:
        if table[player] > at:
            table[player] = at
        else:
            del table[player]
    if not table:
        new.pop("away", None)
    return new


def held_until(state: dict[str, Any], waiting: list[str]) -> datetime | None:
    """The latest moment one of the players a decision waits for is back, if one is away."""
    from pbem.clock import moment

    table = state.get("away")
    if not table:
        return None
    moments = [moment(table[p]) for p in waiting if p in table]
    return max(moments) if moments else None


def away_now(state: dict[str, Any], at: datetime) -> dict[str, str]:
    """The seats whose player is away at `at`, with the stamp he is back."""
    from pbem.clock import moment

    return {p: until for p, until in state.get("away", {}).items() if moment(until) > at}
