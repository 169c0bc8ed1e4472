"""Absence: a player away (`away until 3 Dec`, `weg bis 3. Dez`, `weg tot 3 dec`) has the clock of his
decisions start when he is back, in every game he plays here, for at most `absence.max` (pbem.yaml,
14 days by default), and for at most `absence.total` days in any `absence.window` days (30 in 90 by
default: absences renewed one after another cannot hold a game for good). The other players are told
once; `back` (`wieder da`, `weer terug`) ends it.

A game keeps `away: {seat: STAMP}`, the moment the seat's player is back (the start of the day he
named, in his time zone). A decision of his that began before then is due `deadline` after it.

The day is read in the digits 0 to 9 only, as every number pbem reads (YAML's are): a digit of
another script is refused by name rather than read as a number the player may not have meant.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime, time, timedelta, timezone
from typing import Any

from pbem.errors import PbemError, Refusal
from pbem.refusals import AWAY_NOTICE  # noqa: F401 (a notice: its format lives with the others)
from pbem.refusals import refuse
from pbem.patterns import Pattern

AWAY_WORDS = ("away until", "away till", "weg bis", "weg tot", "afwezig tot")
BACK_WORDS = ("back", "wieder da", "weer terug", "terug van weg")
AWAY_LINE = Pattern(rf"^(?:{'|'.join(AWAY_WORDS)})\b\s*:?\s*(.*)$", re.IGNORECASE)
DEFAULT_MAX_DAYS = 14
DEFAULT_TOTAL_DAYS, DEFAULT_WINDOW_DAYS = 30, 90
ISO_DAY = Pattern(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
SHOWN_CHARS = 60  # of what the player wrote, echoed in a refusal (a 10,000-character word is not)


class AbsenceError(PbemError):
    """An absence that cannot be set: a refusal by its id, written in the player's language by `text`."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal)

    def text(self, lang: str) -> str:
        from pbem.i18n import day_text, translator

        said = self.refusal
        assert isinstance(said, Refusal)
        values = {k: day_text(date.fromisoformat(v), lang) if isinstance(v, str) and ISO_DAY.fullmatch(v) else v
                  for k, v in said.values.items()}  # its values are days (in the reader's words) and numbers
        return translator(lang).gettext(said.fmt) % values


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
    names.update({"mrz": 3, "maerz": 3, "mär": 3, "sept": 9, "mrt": 3})
    return names


def foreign_digit(text: str) -> bool:
    """Whether `text` holds a digit that is not one of 0 to 9 (٣, ３, ², ...)."""
    return any(c not in "0123456789" and (c.isdigit() or unicodedata.category(c) == "Nd") for c in text)


def shown(said: str) -> str:
    """What the player wrote, as a refusal echoes it: cut when it is long."""
    return said if len(said) <= SHOWN_CHARS else said[:SHOWN_CHARS - 3] + "..."


def parse_day(text: str, today: date, words: str | None = None) -> date:
    """The day a player wrote (`3 Dec`, `3. Dezember`, `dec 3`, `3.12.`, `2026-12-03`), in the year in
    which it comes next from `today` when none is given. A day of one or two digits, a year of four.
    `words`: the whole line as the player wrote it (`weg bis irgendwann`), which a refusal quotes."""
    said = text.strip().rstrip(".").strip()
    quoted = shown(words.strip()) if words else f"away until {shown(said)}"
    unreadable = refuse("away-unreadable", said=quoted)
    if foreign_digit(said):
        raise AbsenceError(refuse("away-digits", said=quoted))
    low = said.casefold().replace(",", " ")
    year: int | None = None
    month = day = None
    iso = re.fullmatch(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})", low)
    dotted = re.fullmatch(r"([0-9]{1,2})[./]([0-9]{1,2})[./]?([0-9]{4})?", low)
    if iso:
        year, month, day = int(iso.group(1)), int(iso.group(2)), int(iso.group(3))
    elif dotted:
        day, month = int(dotted.group(1)), int(dotted.group(2))
        year = int(dotted.group(3)) if dotted.group(3) else None
    else:
        words = [w.rstrip(".") for w in low.split()]
        months = _months()
        numbers = [w for w in words if re.fullmatch(r"[0-9]+", w)]
        named = [months[w] for w in words if w in months]
        if len(named) == 1 and 1 <= len(numbers) <= 2 and len(words) == len(numbers) + 1 \
                and len(numbers[0]) <= 2 and all(len(n) == 4 for n in numbers[1:]):
            month = named[0]
            day = int(numbers[0])
            if len(numbers) == 2:
                year = int(numbers[1])
    if month is None or day is None:
        raise AbsenceError(unreadable)
    try:
        found = date(year or today.year, month, day)
        if year is None and found < today:
            found = date(today.year + 1, month, day)
    except (ValueError, OverflowError):
        raise AbsenceError(unreadable) from None
    return found


def back_moment(day: date, zone: str | None) -> datetime:
    """The start of `day` in the player's time zone, in UTC."""
    from zoneinfo import ZoneInfo

    tz = ZoneInfo(zone) if zone else timezone.utc
    return datetime.combine(day, time(0, 0), tz).astimezone(timezone.utc)


def check(day: date, at: datetime, zone: str | None, max_days: int) -> datetime:
    """The moment the player is back, checked: after now, and at most `max_days` ahead."""
    latest = at + timedelta(days=max_days)
    if day < at.date() - timedelta(days=1):  # far in the past: no moment of it is needed to tell
        raise AbsenceError(refuse("away-passed", day=day.isoformat()))
    if day > latest.date() + timedelta(days=1):  # far ahead (year 9999): likewise
        raise AbsenceError(refuse("away-too-long", days=max_days, day=latest.date().isoformat()))
    until = back_moment(day, zone)
    if until <= at:
        raise AbsenceError(refuse("away-passed", day=day.isoformat()))
    if until > latest:
        raise AbsenceError(refuse("away-too-long", days=max_days, day=latest.date().isoformat()))
    return until


Span = tuple[datetime, datetime]  # an absence: from the moment it was asked to the moment he was back


def away_for(spans: list[Span], start: datetime, end: datetime) -> timedelta:
    """How long `spans` cover between `start` and `end`, each moment counted once."""
    clipped = sorted((max(a, start), min(b, end)) for a, b in spans if min(b, end) > max(a, start))
    total, reach = timedelta(0), None
    for a, b in clipped:
        a = max(a, reach) if reach is not None else a
        if b > a:
            total += b - a
        reach = b if reach is None else max(reach, b)
    return total


def check_total(day: date, at: datetime, zone: str | None, spans: list[Span], total_days: int,
                window_days: int) -> None:
    """Refuse an absence until `day` asked at `at` when, with his earlier absences (`spans`, up to
    `at`), the player would be away more than `total_days` in some `window_days` days. The refusal
    says how many days are left (the latest day he may name now), or, with none left, from when he may
    be away again."""
    total, window, one_day = timedelta(days=total_days), timedelta(days=window_days), timedelta(days=1)
    spans = [(a, min(b, at)) for a, b in spans if a < at]  # what is ahead of an absence is asked again now

    def fits(until: datetime) -> bool:  # the window that ends with this absence holds the most of it
        return away_for(spans, until - window, at) + (until - at) <= total

    if fits(back_moment(day, zone)):
        return
    today = at.astimezone(_zone(zone)).date()
    latest = None
    for n in range(1, (day - today).days):
        if not fits(back_moment(today + timedelta(days=n), zone)):
            break
        latest = today + timedelta(days=n)
    if latest is not None:
        since = back_moment(latest, zone) - window
        raise AbsenceError(refuse("away-days-left", total=total_days, window=window_days,
                                  since=since.date().isoformat(), taken=away_for(spans, since, at).days,
                                  left=(latest - today).days, day=latest.isoformat()))
    since = back_moment(today + one_day, zone) - window
    free = today + one_day
    for n in range(1, window_days + 2):  # after a window's days every absence of now is out of it
        free = today + timedelta(days=n)
        start = back_moment(free, zone)
        if away_for(spans, start + one_day - window, start) + one_day <= total:
            break
    raise AbsenceError(refuse("away-no-day-left", total=total_days, window=window_days,
                              since=since.date().isoformat(), taken=away_for(spans, since, at).days,
                              day=free.isoformat()))


def _zone(zone: str | None) -> Any:
    from zoneinfo import ZoneInfo

    return ZoneInfo(zone) if zone else timezone.utc


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
