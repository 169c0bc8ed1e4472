"""What a player sees of Medina: the grid, the players and the palaces (and a bot's share of it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.rules.base import State
from pbem.rules.medina.board import COLOUR_LETTER, EMPTY_GRID, LETTERS, SQUARE_CELL, WALL_CELL

if TYPE_CHECKING:
    from pbem.rules.medina.city import City


class Views:
    """`Medina`'s views: the grid drawn once and kept, each player's and each palace's line."""

    def grid(self, state: State) -> list[list[str]]:
        """The city with its wall ring, two characters a square: `g-` an unclaimed grey palace piece,
        `G2` one claimed by player 2, `s-`/`S2` stables, `mm` the market street (`MM` the current one),
        `##` a wall, `..` an empty square or wall space, `T1`-`T4` the towers."""
        city = self._city(state)
        if city.grid is None:
            city.grid = self._draw_grid(state)
        return [row.copy() for row in city.grid]

    def _draw_grid(self, state: State) -> list[list[str]]:
        """The grid worked out afresh: the empty city with every wall and piece put on it."""
        current = set(state["streets"][-1]) if state["streets"] else set()
        palace_marks = [self._palace_marks(state, p) for p in state["palaces"]]  # by palace id
        rows = [row.copy() for row in EMPTY_GRID]
        for wall in state["walls"]:
            row, col = WALL_CELL[wall]
            rows[row][col] = "##"
        for sq, piece in state["board"].items():
            row, col = SQUARE_CELL[sq]
            if piece["kind"] == "merchant":
                rows[row][col] = "MM" if sq in current else "mm"
            else:
                rows[row][col] = palace_marks[piece["palace"]][piece["kind"] == "stable"]
        return rows

    def _palace_marks(self, state: State, palace: dict[str, Any]) -> tuple[str, str]:
        """How a palace's parts and its stables show on the grid."""
        letter = COLOUR_LETTER[palace["colour"]]
        if not palace["owner"]:
            return letter + "-", "s-"
        seat = str(state["players"].index(palace["owner"]) + 1)
        return letter.upper() + seat, "S" + seat

    def _redraw(self, state: State, grid: list[list[str]], kind: str, where: str) -> None:
        """Bring a kept grid up to date after a placement of `kind` at `where`: each row it changes is
        replaced by a changed copy (a bot's view may share the old one)."""
        if kind == "wall":
            row, col = WALL_CELL[where]
            grid[row] = grid[row].copy()
            grid[row][col] = "##"
            return
        marks: dict[str, str] = {}
        if kind == "merchant":
            streets = state["streets"]
            if streets[-1] == [where] and len(streets) > 1:  # a new street: the old one is current no more
                marks.update(dict.fromkeys(streets[-2], "mm"))
            marks[where] = "MM"
        elif kind == "roof":  # the owner shows on every piece of the palace
            palace = self.palace(state, state["board"][where]["palace"])
            part, stable = self._palace_marks(state, palace)
            marks.update(dict.fromkeys(palace["parts"], part))
            marks.update(dict.fromkeys(palace["stables"], stable))
        else:  # a palace part or a stable, shown as the palace's other pieces show: one cell changes
            palace = self.palace(state, state["board"][where]["palace"])
            row, col = SQUARE_CELL[where]
            grid[row] = grid[row].copy()
            grid[row][col] = self._palace_marks(state, palace)[kind == "stable"]
            return
        copied: set[int] = set()
        for sq, mark in marks.items():
            row, col = SQUARE_CELL[sq]
            if row not in copied:
                grid[row] = grid[row].copy()
                copied.add(row)
            grid[row][col] = mark

    @staticmethod
    def _supply_view(supply: dict[str, Any]) -> dict[str, Any]:
        """A player's pieces in hand, as the view shows them (a copy)."""
        return {"palace": dict(supply["palace"]), "stable": supply["stable"], "merchant": supply["merchant"],
                "wall": supply["wall"], "roof": supply["roof"]}

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        decision = self.decision(state)
        return {
            "phase": state["phase"],
            "turn": state["turn"],
            "current": state["current"],
            "placed_this_turn": state["placed"],
            "letters": LETTERS,
            "grid": self.grid(state),
            "players": self._players_view(state),
            "palaces": self._palaces_view(state),
            "street_ends": ([state["streets"][-1][0], state["streets"][-1][-1]] if state["streets"] else []),
            "roof_compulsory": bool(decision) and self.roof_compulsory(state, state["current"]),
            "waiting_for": list(decision.players) if decision else [],
            "you": player,
        }

    def bot_view(self, state: State, player: str) -> dict[str, Any]:
        """What the bot reads of the view: the grid, the players and the palaces. Whose turn it is, the
        street's ends and the duty to roof it does not need: its legal orders tell it those. Made of the
        parts kept in the city, which no placement changes (see `City`): to be read, not changed."""
        city = self._city(state)
        if city.grid is None:
            city.grid = self._draw_grid(state)
        if city.palace_lines is None:
            city.palace_lines = self._palaces_view(state)
        return {"letters": LETTERS, "grid": list(city.grid), "players": self._player_lines(state, city),
                "palaces": list(city.palace_lines)}

    def _player_lines(self, state: State, city: City) -> list[dict[str, Any]]:
        """`_players_view` from the lines kept in the city, the missing ones made."""
        lines, scores, players = city.player_lines, city.score_lines, state["players"]
        if len(lines) < len(players):
            for seat, p in enumerate(players, 1):
                if p not in lines:
                    if (score := scores.get(p)) is None:
                        score = scores[p] = self._score_line(state, city, p)
                    lines[p] = self._player_line(state, seat, p, score)
        return [lines[p] for p in players]

    def _player_line(self, state: State, seat: int, player: str, score: dict[str, Any]) -> dict[str, Any]:
        """A player as the view shows him, with his line of the scores."""
        return {
            "name": player, "seat": seat,
            "supply": self._supply_view(state["supply"][player]),
            "claimed": list(state["roofed"][player]),
            "returned": dict(state["returned"][player]),
            "score": score["total"],
            "bonus": score["bonus"],
            "palaces": score["palaces"],
        }

    def _players_view(self, state: State) -> list[dict[str, Any]]:
        """Each player as the view shows him: his pieces, claims and score."""
        scores = self.scores(state)
        return [self._player_line(state, seat, p, scores[p]) for seat, p in enumerate(state["players"], 1)]

    def _palaces_view(self, state: State) -> list[dict[str, Any]]:
        """Every palace as the view shows it: its colour, first square, size and owner."""
        return [self._palace_line(x) for x in state["palaces"]]

    @staticmethod
    def _palace_line(palace: dict[str, Any]) -> dict[str, Any]:
        """A palace as the view shows it."""
        return {"colour": palace["colour"], "at": palace["parts"][0], "size": len(palace["parts"]) + len(palace["stables"]),
                "owner": palace["owner"]}

