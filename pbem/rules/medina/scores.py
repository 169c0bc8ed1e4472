"""How Medina scores: palaces, merchants and walls beside them, and the bonus tiles."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.rules.base import State, standings
from pbem.rules.medina.board import ORTHO, PALACE_TILE, POINT_KINDS, TOWER_TILE, WALLS_AT

if TYPE_CHECKING:
    from pbem.rules.medina.city import City


class Scoring:
    """`Medina`'s scores: each claimed palace's points, each player's line, the standings."""

    def left_over(self, state: State, player: str) -> dict[str, int]:
        s = state["supply"][player]
        out = {f"{c} palace": n for c, n in s["palace"].items() if n}
        out.update({k: s[k] for k in ("stable", "merchant", "wall", "roof") if s[k]})
        return out

    # -- scoring --------------------------------------------------------------------------------

    def palace_score(self, state: State, palace: dict[str, Any]) -> dict[str, int]:
        """A claimed palace's points: its pieces, the merchants and walls touching it."""
        points = self._palace_score(state, palace, self._city(state))
        return {kind: points[kind] for kind in POINT_KINDS}

    def _palace_score(self, state: State, palace: dict[str, Any], city: City) -> dict[str, Any]:
        """`palace_score` with the palace's colour and first square, as the scores show it; kept in the
        city (not to be changed by the caller)."""
        if (points := city.points.get(palace["id"])) is None:
            squares = set(palace["parts"] + palace["stables"])
            beside = set().union(*map(ORTHO.__getitem__, squares))
            built = state["walls"]
            pieces, merchants = len(squares), len(beside.intersection(city.merchants))
            walls = sum(1 for s in squares for w in WALLS_AT[s] if w in built)  # a segment stands by one square
            points = city.points[palace["id"]] = {"pieces": pieces, "merchants": merchants, "walls": walls,
                                                  "total": pieces + merchants + walls,
                                                  "colour": palace["colour"], "at": palace["parts"][0]}
        return points

    def scores(self, state: State) -> dict[str, dict[str, Any]]:
        out = {p: {"palaces": [], "bonus": [], "total": 0} for p in state["players"]}
        city = self._city(state)
        known, palaces = city.points, state["palaces"]
        for palace in palaces:
            if owner := palace["owner"]:
                s = known.get(palace["id"]) or self._palace_score(state, palace, city)
                line = out[owner]
                line["palaces"].append(s.copy())
                line["total"] += s["total"]
        for colour, pid in state["palace_bonus"].items():
            if pid is not None:
                tile, points = PALACE_TILE[colour]
                line = out[palaces[pid]["owner"]]
                line["bonus"].append({"tile": tile, "points": points})
                line["total"] += points
        for tower, owner in state["tower_bonus"].items():
            if owner is not None:
                tile, points = TOWER_TILE[tower]
                line = out[owner]
                line["bonus"].append({"tile": tile, "points": points})
                line["total"] += points
        return out

    def _score_line(self, state: State, city: City, player: str) -> dict[str, Any]:
        """One player's line of `scores`."""
        line: dict[str, Any] = {"palaces": [], "bonus": [], "total": 0}
        known, palaces = city.points, state["palaces"]
        for pid in city.claimed.get(player, ()):
            s = known.get(pid) or self._palace_score(state, palaces[pid], city)
            line["palaces"].append(s.copy())
            line["total"] += s["total"]
        for colour, pid in state["palace_bonus"].items():
            if pid is not None and palaces[pid]["owner"] == player:
                tile, points = PALACE_TILE[colour]
                line["bonus"].append({"tile": tile, "points": points})
                line["total"] += points
        for tower, owner in state["tower_bonus"].items():
            if owner == player:
                tile, points = TOWER_TILE[tower]
                line["bonus"].append({"tile": tile, "points": points})
                line["total"] += points
        return line

    def result(self, state: State) -> list[dict[str, Any]]:
        return standings(state["players"], {p: s["total"] for p, s in self.scores(state).items()})

    # -- what players see -----------------------------------------------------------------------

