"""Who a mail comes from, asked once: what the host knows of the sender's address.

The intake reads a mail, proves its sender (`pbem.mail.proof`), then looks his address up once: his
seats in the games begun here, his places in the lobby, the language he reads, whether he asked never
to be mailed. That one `Sender` is handed to everything that handles the mail (the guard against
loops, the act the proof allows, the answer), so no part of it asks the index of addresses again.

A game that is not finished (running or paused by the GM) is his game, and so is a game not begun in
which he holds a seat: `Sender.plays` is the one answer to "does he play here", wherever pbem asks it
(`pbem.lobby.plays` for an address alone, where no mail is being handled).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pbem.config import Config
from pbem.errors import PbemError
from pbem.i18n import LANGUAGES, language_of
from pbem.mail import addresses
from pbem.mail.addresses import SeatAt
from pbem.mail.incoming import Incoming
from pbem.mail.proof import Proof, prove
from pbem.store import GamesDir


@dataclass(frozen=True)
class Place:
    """A game not begun in which the address holds a seat, as a `games` answer lists it."""

    game: str
    title: str
    seated: int
    seats: int


@dataclass(frozen=True)
class Sender:
    """What the host knows of a mail's sender, looked up once for the mail: `proof` (what proves
    him), `seats` (every seat his address holds in a game begun here, ended ones too, by game),
    `waiting` (the games not begun where he holds a seat), `invited` (those where an invitation to
    him waits), `entry_languages` (the language he reads in each of those, where it sets one), `words`
    (the language his mail's own words are in, where they tell), `never_mail` (he asked never to be
    mailed again)."""

    address: str
    proof: Proof
    seats: tuple[SeatAt, ...] = ()
    waiting: tuple[Place, ...] = ()
    invited: tuple[str, ...] = ()
    entry_languages: tuple[tuple[str, str], ...] = ()
    words: str | None = None
    never_mail: bool = False
    host_language: str = "en"
    gd: GamesDir | None = field(default=None, repr=False, compare=False)
    config: Config | None = field(default=None, repr=False, compare=False)
    _loaded: dict[str, dict[str, Any] | None] = field(default_factory=dict, repr=False, compare=False)

    @property
    def proven(self) -> bool:
        """Whether a key or token shows that this address receives pbem's mail (what the guard
        against loops counts apart: no forged mail ever counts against it)."""
        return self.proof.address

    @property
    def playing(self) -> tuple[SeatAt, ...]:
        """His seats in the games that are not finished (running or paused)."""
        return tuple(s for s in self.seats if s.playing)

    @property
    def plays(self) -> bool:
        """Whether he plays here: a seat in a game not finished, or in a game not begun."""
        return bool(self.playing or self.waiting)

    @property
    def known(self) -> bool:
        """Whether his address is a player's here at all: a seat in a game begun or ended, or in a
        game not begun (a player is answered whenever he writes; a stranger once a day)."""
        return bool(self.seats or self.waiting)

    def state(self, game: str) -> dict[str, Any] | None:
        """The state of one of his games, loaded once for the mail (None: it cannot be loaded)."""
        if game not in self._loaded:
            try:
                self._loaded[game] = self.gd.load(game) if self.gd is not None else None
            except PbemError:
                self._loaded[game] = None
        return self._loaded[game]

    @cached_property
    def first(self) -> tuple[dict[str, Any], str] | None:
        """His first seat here (whose language a mail to him about all his games is written in)."""
        for at in self.seats:
            state = self.state(at.game)
            if state is not None and any(p["name"] == at.player for p in state["players"]):
                return state, at.player
        return None

    @property
    def seat_language(self) -> str | None:
        """The language of his first seat, if he holds one."""
        return language_of(self.first[0], self.first[1], self.config) if self.first is not None else None

    @property
    def lobby_language(self) -> str | None:
        """The language he reads in the first game not begun he is part of (his seat's, else his
        invitation's, else the challenge's)."""
        return self.entry_languages[0][1] if self.entry_languages else None

    def entry_language(self, game: str) -> str | None:
        """The language he reads in one game not begun, where it sets one."""
        return dict(self.entry_languages).get(game)

    @property
    def known_language(self) -> str | None:
        """The language the host knows he reads: his first seat's, else his place's in the lobby."""
        return self.seat_language or self.lobby_language

    @property
    def language(self) -> str:
        """The language a mail to him is written in: the one the host knows he reads, else the one
        his words are in, else the host's."""
        return self.known_language or (self.words if self.words in LANGUAGES else self.host_language)

    @cached_property
    def away(self) -> tuple[str, ...]:
        """The games not finished in which a seat of his is away."""
        found = []
        for at in self.playing:
            state = self.state(at.game)
            if state is not None and at.player in (state.get("away") or {}):
                found.append(at.game)
        return tuple(dict.fromkeys(found))


def lookup(gd: GamesDir, config: Config, mail: Incoming) -> Sender:
    """The mail's sender and his proof, and what the host knows of his address: one lookup of the
    index of addresses and one of the lobby, for the whole handling of the mail."""
    address = mail.sender if not mail.doubt else ""
    seats = tuple(addresses.seats_of(gd, address)) if address else ()
    proof = prove(gd, mail, config, seats)
    return know(gd, config, mail, proof, seats)


def know(gd: GamesDir, config: Config, mail: Incoming, proof: Proof, seats: tuple[SeatAt, ...]) -> Sender:
    """What the host knows of the address of a mail proven by `proof`, given its `seats`."""
    from pbem import lobby
    from pbem.donotmail import never_mail
    from pbem.mail.orders import own_lines
    from pbem.mail.readers import words_language
    from pbem.rules.base import get_ruleset

    address = proof.sender
    waiting: list[Place] = []
    invited: list[str] = []
    languages: list[tuple[str, str]] = []
    if address and not mail.doubt:  # whom a mail comes from is not clear: nothing of the From: is looked up
        for entry in lobby.entries(gd):
            sat = [s for s in entry.get("seated", []) if s.get("email") == address]
            asked = [i for i in entry.get("invited", []) if i.get("email") == address]
            if sat:
                waiting.append(Place(entry["game"], get_ruleset(entry["ruleset"]).title, len(entry["seated"]),
                                     entry["seats"]))
            if asked:
                invited.append(entry["game"])
            # his seat's language, else his invitation's, else the challenge's (as readers.entry_language)
            said = next((str(p["language"]) for p in sat + asked if p.get("language")), None) \
                or (entry.get("language") if sat or asked else None)
            if said:
                languages.append((entry["game"], said))
    try:
        words = words_language(own_lines(mail) or [mail.subject])
    except Exception:  # a mail too broken to read its lines tells no language
        words = None
    return Sender(address, proof, seats, tuple(waiting), tuple(invited), tuple(languages), words,
                  bool(address) and not mail.doubt and never_mail(config, address), config.language, gd, config)
