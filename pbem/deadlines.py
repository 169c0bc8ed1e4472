"""Deadlines: when a decision is due, the reminder before it, and what happens after it.

A game may carry `deadline: {hours, grace_hours, policy}`. The decision is due `hours` after the game
began waiting for it. A late player is reminded once, when a quarter of the time is left (the others are
told whom the game waits for); after the due time plus the grace period the game's policy acts:
`wait` (nothing; the game needs the GM), `default` (the most passive legal order the rules allow) or
`bot` (the game's bot moves for him). Every substitute move is marked as such.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from pbem.clock import moment, show_hours, stamp
from pbem.errors import PbemError
from pbem.patterns import Pattern
from pbem.refusals import refuse

POLICIES = ("wait", "default", "bot")
MAX_HOURS = 366 * 24
_DURATION = Pattern(r"^([0-9]+)\s*([mhdw])\Z")  # digits 0-9 alone, as YAML reads numbers
_UNIT_HOURS = {"m": 1 / 60, "h": 1, "d": 24, "w": 168}


def parse_duration(text: str, what: str = "deadline") -> float:
    """`48h`, `2d`, `90m`, `1w` -> hours."""
    m = _DURATION.match(text.strip().lower())
    said = text if len(text) <= 40 else text[:37] + "..."  # a 10,000-character word is not echoed whole
    if not m or not m.group(1).strip("0") and what == "deadline":
        raise PbemError(refuse("deadline-not-a-duration", said=said) if what == "deadline"
                        else f"{what} {said!r} is not a duration such as 48h, 2d, 90m or 1w")
    digits = m.group(1).lstrip("0") or "0"
    if len(digits) > 9 or int(digits) * _UNIT_HOURS[m.group(2)] > MAX_HOURS:
        raise PbemError(refuse("deadline-over-a-year", said=said) if what == "deadline"
                        else f"{what} {said!r} is longer than a year")
    return int(digits) * _UNIT_HOURS[m.group(2)]


def due(state: dict[str, Any]) -> datetime | None:
    """When the current decision is due, or None without a deadline."""
    rule = state.get("deadline")
    if not rule or state["status"] != "active":
        return None
    start = moment(state["waiting_since"])
    if state.get("away"):  # the clock of an absent player's decision starts when he is back
        from pbem.absence import held_until
        from pbem.gamestate import waiting_for

        held = held_until(state, waiting_for(state))
        if held is not None and held > start:
            start = held
    return start + timedelta(hours=rule["hours"])


def remind_at(state: dict[str, Any]) -> datetime | None:
    when = due(state)
    return None if when is None else when - timedelta(hours=state["deadline"]["hours"] / 4)


def substitute_at(state: dict[str, Any]) -> datetime | None:
    when = due(state)
    return None if when is None else when + timedelta(hours=state["deadline"].get("grace_hours", 0))


def describe(state: dict[str, Any]) -> str:
    rule = state.get("deadline")
    if not rule:
        return "none"
    grace = f" + {show_hours(rule['grace_hours'])} grace" if rule.get("grace_hours") else ""
    return f"{show_hours(rule['hours'])}{grace}, then {rule['policy']}"


def after_the_deadline(rule: dict[str, Any], passive: str | None, lang: str = "en") -> str:
    """What happens when a late player's time and grace are up, as a sentence for him in `lang`;
    `passive`: the order the `default` policy gives for him, in his words (None: his game has none,
    and the bot moves instead)."""
    from pbem.i18n import translator

    _ = translator(lang).gettext
    if rule["policy"] == "wait":
        what = _("the game waits for the game master")
    elif rule["policy"] == "default" and passive is not None:
        what = _("the order '%(order)s' is given for you") % {"order": passive}
    else:
        what = _("the game's bot moves for you")
    if rule.get("grace_hours"):
        return _("After that and %(grace)s of grace, %(what)s.") % {"grace": show_hours(rule["grace_hours"]),
                                                                      "what": what}
    return _("After that, %(what)s.") % {"what": what}


def overdue(state: dict[str, Any], now: datetime) -> bool:
    """The deadline and its grace are past and the policy is to wait: the game needs the GM."""
    when = substitute_at(state)
    return when is not None and now >= when and state["deadline"]["policy"] == "wait"
