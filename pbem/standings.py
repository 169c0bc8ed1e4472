"""Standings: the results of the games finished on this host, per ruleset and player: games, wins,
average place, and a rating by OpenSkill (the Plackett-Luce model of the `openskill` library, rated
game by game in the order they ended).

A rating means something only where the games behind it were played by different people. So a game
moves no rating when a bot played a seat in it, or when two of its seats shared an address (one
person playing his own other seats; addresses are compared without case and without a `+tag`): the
end of a game records why in the state (`unrated: [bots, shared-address]`, empty when it is rated),
decided while the seats still have their addresses. Such a game is still one of its players' games,
listed as not rated with its reason; the rated games are counted apart, and a player none of whose
games was rated has no rating (shown `-`, listed after the rated players).

A player is his address (the seat's registered one, at the end of the game: a seat handed over by
`pbem replace` is its last player's), so his games count together under whatever seat name he took;
he is shown by the seat name of his latest game, never by his address (two players of one name are
told apart as `anna`, `anna (2)`, numbered in the order they first played). A seat whose address is
no longer in the state is a player of its own. A bot is its seat name and is shown as a bot. A game of
one player (the Florenz solo game) is no contest between players and is left out. The rating shown
is OpenSkill's ordinal, mu - 3 sigma: 0 for a newcomer, growing as results make it surer.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import Any

from pbem.errors import PbemError
from pbem.i18n import N_, translator
from pbem.rules.base import get_ruleset

BOTS = "bots"
SHARED_ADDRESS = "shared-address"
#: why a game moves no rating, in the order they are listed
UNRATED = {BOTS: N_("a bot played"), SHARED_ADDRESS: N_("two seats share an address")}


@dataclass
class Played:
    """One game in a player's history."""

    game: str
    place: int
    unrated: list[str]            # why it moved no rating (empty: it did)

    @property
    def rated(self) -> bool:
        return not self.unrated


@dataclass
class Row:
    """One player's standing in one ruleset."""

    key: str                      # his address, or `bot:NAME`: never shown
    name: str                     # what is shown
    bot: bool = False
    games: int = 0
    wins: int = 0
    places: list[int] = field(default_factory=list)
    rating: float | None = None   # None: no game of his was rated
    history: list[Played] = field(default_factory=list)

    @property
    def place(self) -> float:
        return sum(self.places) / len(self.places) if self.places else 0.0

    @property
    def rated(self) -> int:
        """How many of his games were rated."""
        return sum(p.rated for p in self.history)


@dataclass
class Game:
    """A finished game as the standings list it: its players (their rows) by place, and why it moved
    no rating (empty: it did)."""

    game: str
    seats: list[tuple[Row, int]]
    unrated: list[str]


@dataclass
class Table:
    """A ruleset's standings: the rated players by rating, best first, then the others."""

    ruleset: str
    title: str
    games: int
    rows: list[Row]
    rated: int = 0                # how many of the games were rated
    unrated: list[tuple[str, list[str]]] = field(default_factory=list)  # (game, why) of the others
    played: list[Game] = field(default_factory=list)                     # every game, in the order they ended


def mailbox(address: str) -> str:
    """Whose mailbox an address is: without case, and without a `+tag` in its local part."""
    local, at, domain = address.strip().lower().rpartition("@")
    return f"{local.split('+')[0]}{at}{domain}" if at else address.strip().lower()


def identity(player: dict[str, Any], game: str = "") -> str:
    """Who a seat's player is across games: his mailbox, or the bot of that name (a seat without an
    address is a player of its own)."""
    if player.get("bot"):
        return f"bot:{player['name']}"
    if not player.get("email"):
        return f"seat:{game}:{player['name']}"
    return mailbox(str(player["email"]))


def unrated_reasons(state: dict[str, Any]) -> list[str]:
    """Why a game moves no rating (empty: it moves them): a seat a bot plays, two seats of one
    mailbox. Asked when the game ends, while its seats have their addresses."""
    why = []
    if any(p.get("bot") for p in state["players"]):
        why.append(BOTS)
    boxes = [mailbox(str(p["email"])) for p in state["players"] if not p.get("bot") and p.get("email")]
    if len(boxes) != len(set(boxes)):
        why.append(SHARED_ADDRESS)
    return why


def unrated_of(state: dict[str, Any]) -> list[str]:
    """Why a finished game moves no rating, as its end recorded it (a game that ended before pbem
    recorded it: from its state now)."""
    recorded = state.get("unrated")
    return list(recorded) if isinstance(recorded, list) else unrated_reasons(state)


def finished_games(gd: Any) -> list[dict[str, Any]]:
    """Every finished game of the games dir with two players or more, in the order they ended."""
    found = []
    for game in gd.games():
        try:
            state = gd.load(game)
        except PbemError:
            continue  # a broken game is `pbem status`'s to show
        if state["status"] == "finished" and len(state["players"]) > 1:
            found.append(state)
    return sorted(found, key=lambda s: (s["waiting_since"], s["game"]))


def standings(gd: Any, ruleset: str | None = None) -> list[Table]:
    """The standings of every ruleset played to the end here (or of `ruleset`), by ruleset name."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    tables: dict[str, dict[str, Row]] = {}
    ratings: dict[tuple[str, str], Any] = {}
    counts: dict[str, int] = {}
    unrated: dict[str, list[tuple[str, list[str]]]] = {}
    played: dict[str, list[tuple[str, list[tuple[str, int]], list[str]]]] = {}
    names: dict[str, str] = {}  # each human's latest seat name
    for state in finished_games(gd):
        if ruleset is not None and state["ruleset"] != ruleset:
            continue
        rules = get_ruleset(state["ruleset"])
        result = {r["player"]: int(r["rank"]) for r in rules.result(state["engine"])}
        table = tables.setdefault(rules.name, {})
        counts[rules.name] = counts.get(rules.name, 0) + 1
        why = unrated_of(state)
        seated = [p for p in state["players"] if p["name"] in result]
        played.setdefault(rules.name, []).append(
            (state["game"], sorted(((identity(p, state["game"]), result[p["name"]]) for p in seated),
                                   key=lambda kp: kp[1]), why))
        for p in seated:
            key = identity(p, state["game"])
            row = table.setdefault(key, Row(key, p["name"], bool(p.get("bot"))))
            row.games += 1
            row.wins += result[p["name"]] == 1
            row.places.append(result[p["name"]])
            row.history.append(Played(state["game"], result[p["name"]], why))
            if not p.get("bot"):
                names[key] = p.get("person") or p["name"]
        if why:
            unrated.setdefault(rules.name, []).append((state["game"], why))
            continue
        keys = [identity(p, state["game"]) for p in seated]
        teams = [[ratings.get((rules.name, key)) or model.rating()] for key in keys]
        rated = model.rate(teams, ranks=[result[p["name"]] for p in seated])
        for key, team in zip(keys, rated):
            ratings[(rules.name, key)] = team[0]
    out = []
    for name in sorted(tables):
        rows = list(tables[name].values())
        for row in rows:
            if (name, row.key) in ratings:
                row.rating = ratings[(name, row.key)].ordinal()
            if not row.bot:
                row.name = names[row.key]
        _distinguish(rows)
        rows.sort(key=lambda r: (r.rating is None, -round(r.rating or 0.0, 6), -r.wins, r.place, r.name))
        games = unrated.get(name, [])
        listed = [Game(game, [(tables[name][key], place) for key, place in seats], why)
                  for game, seats, why in played[name]]
        out.append(Table(name, get_ruleset(name).title, counts[name], rows, counts[name] - len(games), games,
                         listed))
    return out


def _distinguish(rows: list[Row]) -> None:
    """Players of one name in a table (different addresses) as `anna`, `anna (2)`, by who came first
    (a number no other player's name already is)."""
    taken = {row.name for row in rows}
    seen: dict[str, int] = {}
    for row in rows:
        if row.bot:
            continue
        seen[row.name] = seen.get(row.name, 0) + 1
        if seen[row.name] > 1:
            n = seen[row.name]
            while f"{row.name} ({n})" in taken:
                n += 1
            seen[row.name] = n
            taken.add(f"{row.name} ({n})")
            row.name = f"{row.name} ({n})"


# -- as text: `pbem standings` and the answer to `standings` by mail --------------------------------------

BOT_MARK = N_("%(name)s (bot)")
HEADINGS = (N_("player"), N_("games"), N_("rated"), N_("wins"), N_("avg place"), N_("rating"))
GAMES_COUNT = N_("%(title)s: %(count)s finished games")
ONE_GAME = N_("%(title)s: 1 finished game")
NOT_RATED = N_("Not rated (%(why)s): %(games)s")
NO_RATING = "-"
WIDTH = 72


def shown_name(row: Row, lang: str = "en") -> str:
    return translator(lang).gettext(BOT_MARK) % {"name": row.name} if row.bot else row.name


def reasons_text(why: list[str], lang: str = "en") -> str:
    """Why a game moves no rating, in words: `a bot played; two seats share an address`."""
    _ = translator(lang).gettext
    return "; ".join(_(UNRATED[w]) for w in UNRATED if w in why)


def unrated_lines(table: Table, lang: str = "en") -> list[str]:
    """The games of a table that moved no rating, a line (wrapped at 72) for each reason."""
    by_reason: dict[tuple[str, ...], list[str]] = {}
    for game, why in table.unrated:
        by_reason.setdefault(tuple(w for w in UNRATED if w in why), []).append(game)
    lines = []
    for why, games in by_reason.items():
        text = translator(lang).gettext(NOT_RATED) % {"why": reasons_text(list(why), lang), "games": ", ".join(games)}
        lines += textwrap.wrap(text, WIDTH, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False)
    return lines


def table_text(table: Table, lang: str = "en", me: set[str] | None = None) -> list[str]:
    """A ruleset's standings as lines of at most 72 columns, then the games that moved no rating;
    `me`: the keys of the reader's own rows, marked with `*`."""
    _ = translator(lang).gettext
    heads = [_(h) for h in HEADINGS]
    names = [shown_name(r, lang) for r in table.rows]
    widths = [max(len(h), 5) for h in heads[1:]]
    nw = max([len(heads[0]), *map(len, names)])
    nw = min(nw, WIDTH - 6 - sum(w + 1 for w in widths))
    title = _(ONE_GAME) % {"title": table.title} if table.games == 1 else \
        _(GAMES_COUNT) % {"title": table.title, "count": table.games}
    lines = [title, "  " + " ".join([f"{'#':>3}", heads[0].ljust(nw)] + [h.rjust(w) for h, w in zip(heads[1:], widths)])]
    for i, (row, name) in enumerate(zip(table.rows, names), start=1):
        mark = "*" if me and row.key in me else " "
        rating = NO_RATING if row.rating is None else f"{row.rating:.1f}"
        values = [str(row.games), str(row.rated), str(row.wins), f"{row.place:.2f}", rating]
        lines.append(f"{mark} " + " ".join([f"{i:>3}", name[:nw].ljust(nw)] + [v.rjust(w) for v, w in zip(values, widths)]))
    return [line.rstrip() for line in lines] + unrated_lines(table, lang)


def standings_text(tables: list[Table], lang: str = "en", me: set[str] | None = None) -> str:
    """Every table, one after another, with a blank line between."""
    return "\n\n".join("\n".join(table_text(t, lang, me)) for t in tables) + "\n" if tables else ""


def as_json(tables: list[Table]) -> list[dict[str, Any]]:
    """The tables as `pbem standings --json` prints them."""
    return [{"ruleset": t.ruleset, "games": t.games, "rated_games": t.rated,
             "players": [{"name": r.name, "bot": r.bot, "games": r.games, "rated_games": r.rated, "wins": r.wins,
                          "place": round(r.place, 4), "rating": None if r.rating is None else round(r.rating, 6),
                          "history": [{"game": p.game, "place": p.place, "rated": p.rated, "unrated": p.unrated}
                                      for p in r.history]}
                         for r in t.rows]}
            for t in tables]
