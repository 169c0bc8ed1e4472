"""The clock and pbem's stamps: the time now (tests fix it with PBEM_NOW), a stamp read and written
(`2026-11-24T18:00:00Z`, always UTC), and a length of time in its short form (`2d`, `36h`, `90m`).

It imports nothing of pbem but its errors, so that every module may ask it the time: the deadlines,
the absences, the store and the language's date words alike.
"""

from __future__ import annotations

import os
from datetime import datetime, timezone

from pbem.errors import SetupError


def now() -> str:
    """The time, as ISO 8601 UTC; tests set PBEM_NOW to control the clock."""
    fixed = os.environ.get("PBEM_NOW")
    if not fixed:
        return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    try:
        moment = datetime.fromisoformat(fixed.strip().replace("Z", "+00:00"))
    except ValueError:
        raise SetupError(f"PBEM_NOW={fixed!r} is not a time in ISO 8601 form "
                         f"(such as 2026-11-24T18:00:00Z); unset it to use the clock") from None
    if moment.tzinfo is None:  # a time without a zone is read as UTC, the zone of every stamp pbem writes
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def moment(stamp: str) -> datetime:
    """A stamp as a time."""
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def stamp(when: datetime) -> str:
    """A time as a stamp."""
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def now_moment() -> datetime:
    """The time now (as `now`), as a time rather than a stamp."""
    return moment(now())


def show_hours(hours: float) -> str:
    """A length of time in hours, in its short form: `2d`, `36h`, `90m`."""
    if hours >= 24 and hours % 24 == 0:
        return f"{int(hours // 24)}d"
    if hours == int(hours):
        return f"{int(hours)}h"
    return f"{int(round(hours * 60))}m"
