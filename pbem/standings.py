"""Standings: the results of the games finished on this host, per ruleset and player: games, wins,
average place, and a rating by OpenSkill (the Plackett-Luce model of the `openskill` library, rated
game by game in the order they ended).

A player is his address (the seat's registered one), so his games count together under whatever
seat name he took; he is shown by the seat name of his latest game, never by his address (two
players of one name are told apart as `anna`, `anna (2)`). A bot is its seat name and is shown as a
bot. A game of one player (the Florenz solo game) is no contest between players and is left out.
The rating shown is OpenSkill's ordinal, mu - 3 sigma: 0 for a newcomer, growing as results make it
surer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.errors import PbemError
from pbem.i18n import N_, translator
from pbem.rules.base import get_ruleset


@dataclass
class Row:
    """One player's standing in one ruleset."""

    key: str                      # his address, or `bot:NAME`: never shown
    name: str                     # what is shown
    bot: bool = False
    games: int = 0
    wins: int = 0
    places: list[int] = field(default_factory=list)
    rating: float = 0.0

    @property
    def place(self) -> float:
        return sum(self.places) / len(self.places) if self.places else 0.0


@dataclass
class Table:
    """A ruleset's standings, best rating first."""

    ruleset: str
    title: str
    games: int
    rows: list[Row]


def identity(player: dict[str, Any]) -> str:
    """Who a seat's player is across games: his address, or the bot of that name."""
    if player.get("bot"):
        return f"bot:{player['name']}"
    if "email" not in player:  # a clone of the games dir: a finished game's addresses stay on the GM's machine
        return f"seat:{player['name']}"
    return str(player["email"]).lower()


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
    names: dict[str, str] = {}  # each human's latest seat name
    for state in finished_games(gd):
        if ruleset is not None and state["ruleset"] != ruleset:
            continue
        rules = get_ruleset(state["ruleset"])
        result = {r["player"]: int(r["rank"]) for r in rules.result(state["engine"])}
        table = tables.setdefault(rules.name, {})
        counts[rules.name] = counts.get(rules.name, 0) + 1
        seated = [p for p in state["players"] if p["name"] in result]
        for p in seated:
            key = identity(p)
            row = table.setdefault(key, Row(key, p["name"], bool(p.get("bot"))))
            row.games += 1
            row.wins += result[p["name"]] == 1
            row.places.append(result[p["name"]])
            if not p.get("bot"):
                names[key] = p.get("person") or p["name"]
        teams = [[ratings.get((rules.name, identity(p))) or model.rating()] for p in seated]
        rated = model.rate(teams, ranks=[result[p["name"]] for p in seated])
        for p, team in zip(seated, rated):
            ratings[(rules.name, identity(p))] = team[0]
    out = []
    for name in sorted(tables):
        rows = list(tables[name].values())
        for row in rows:
            row.rating = ratings[(name, row.key)].ordinal()
            if not row.bot:
                row.name = names[row.key]
        _distinguish(rows)
        rows.sort(key=lambda r: (-round(r.rating, 6), -r.wins, r.place, r.name))
        out.append(Table(name, get_ruleset(name).title, counts[name], rows))
    return out


def _distinguish(rows: list[Row]) -> None:
    """Players of one name in a table (different addresses) as `anna`, `anna (2)`, by who came first."""
    seen: dict[str, int] = {}
    for row in rows:
        if row.bot:
            continue
        seen[row.name] = seen.get(row.name, 0) + 1
        if seen[row.name] > 1:
            row.name = f"{row.name} ({seen[row.name]})"


# -- as text: `pbem standings` and the answer to `standings` by mail --------------------------------------

BOT_MARK = N_("%(name)s (bot)")
HEADINGS = (N_("player"), N_("games"), N_("wins"), N_("avg place"), N_("rating"))
GAMES_COUNT = N_("%(title)s: %(count)s finished games")
ONE_GAME = N_("%(title)s: 1 finished game")


def shown_name(row: Row, lang: str = "en") -> str:
    return translator(lang).gettext(BOT_MARK) % {"name": row.name} if row.bot else row.name


def table_text(table: Table, lang: str = "en", me: set[str] | None = None) -> list[str]:
    """A ruleset's standings as lines of at most 72 columns; `me`: the keys of the reader's own rows,
    marked with `*`."""
    _ = translator(lang).gettext
    heads = [_(h) for h in HEADINGS]
    names = [shown_name(r, lang) for r in table.rows]
    nw = max([len(heads[0]), *map(len, names)])
    nw = min(nw, 30)
    widths = [max(len(h), 5) for h in heads[1:]]
    title = _(ONE_GAME) % {"title": table.title} if table.games == 1 else \
        _(GAMES_COUNT) % {"title": table.title, "count": table.games}
    lines = [title, "  " + " ".join([f"{'#':>3}", heads[0].ljust(nw)] + [h.rjust(w) for h, w in zip(heads[1:], widths)])]
    for i, (row, name) in enumerate(zip(table.rows, names), start=1):
        mark = "*" if me and row.key in me else " "
        values = [str(row.games), str(row.wins), f"{row.place:.2f}", f"{row.rating:.1f}"]
        lines.append(f"{mark} " + " ".join([f"{i:>3}", name[:nw].ljust(nw)] + [v.rjust(w) for v, w in zip(values, widths)]))
    return [line.rstrip() for line in lines]


def standings_text(tables: list[Table], lang: str = "en", me: set[str] | None = None) -> str:
    """Every table, one after another, with a blank line between."""
    return "\n\n".join("\n".join(table_text(t, lang, me)) for t in tables) + "\n" if tables else ""
