"""Players start games by mail: `join GAME`, `leave GAME`, `new medici with ben@..., cleo@...`,
`accept`, `decline`, `withdraw`, `rematch`, in English, German or Dutch.

Who wrote a mail is known by its key, never by its From: alone, which anyone can forge. Every mail of
the lobby carries a key of its game and its recipient's address (as reports carry a seat's), and an
answer to an invitation counts only with it. Every act that mails someone else or changes a seat
needs a key of a mail pbem sent the sender's address, or his token (`pbem.mail.proof`); a fresh mail
may only ask, and is answered to its sender once a day (a `join` is confirmed by a reply to that
answer). What a proven sender can do is bounded too: only those pbem.yaml allows may challenge (by
default, addresses that play here), one address may have a few unanswered challenges and make a few a
day (withdrawn ones count), nobody is invited again while an invitation to him waits, and the host
mails at most `lobby.strangers_per_day` addresses that never wrote to it a day.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pbem import digests
from pbem import lobby
from pbem.config import Config
from pbem.deadlines import moment
from pbem.errors import PbemError
from pbem.i18n import LANGUAGES, N_, language_of, option_word, translator
from pbem.mail.boxes import Postman
from pbem.mail.compose import compose
from pbem.mail.ids import keyring
from pbem.mail.incoming import Incoming
from pbem.mail.lobby_keys import NO_ENTRY, Silent, lobby_id, lobby_key, stranger_may_hear, strangers_may_get
from pbem.mail.lobby_words import NO_WORDS, VERBS, YES_WORDS
from pbem.mail.proof import LOBBY, Proof, allows
from pbem.mail.seats import Proven

if TYPE_CHECKING:
    from pbem.mail.sender import Sender
from pbem.starting import start_entry
from pbem.store import GAME_ID, GamesDir
from pbem.visible import visible
from pbem.tablebots import BOT_WORDS, bot_seats

# answers to an invitation: they mean something only in a reply to one (a game may have an order `accept`)
ANSWERS = ("accept", "decline")
WITH = ("with", "mit", "met")
AS = ("as", "als")
AND = ("and", "und", "en", "&")
OPTION_WORDS = {"deadline": "deadline", "frist": "deadline", "termijn": "deadline", "bedenktijd": "deadline",
                "language": "language", "sprache": "language", "taal": "language",
                "game": "game", "spiel": "game", "spel": "game"}
# other ways players name a game than its registered name (every registered name is read too)
RULESET_WORDS = {"medici vs strozzi": "medici-strozzi", "medici gegen strozzi": "medici-strozzi",
                 "medici tegen strozzi": "medici-strozzi", "strozzi": "medici-strozzi", "florence": "florenz"}


def ruleset_names() -> dict[str, str]:
    """Each name a player may call a game by in a lobby command, and the game's registered name."""
    from pbem.rules.base import KNOWN

    return {**{name: name for name in KNOWN}, **{w: g for w, g in RULESET_WORDS.items() if g in KNOWN}}


@dataclass
class Command:
    """A lobby command as a player wrote it; `language` is the language of its words, if they tell."""

    verb: str
    game: str | None = None
    name: str | None = None
    ruleset: str | None = None
    invitees: list[str] = field(default_factory=list)
    options: dict[str, str] = field(default_factory=dict)
    deadline: str | None = None
    language: str | None = None
    language_option: str | None = None  # `language de` among a challenge's options: every seat's
    words: str | None = None
    bots: int = 0  # `with bot, bot`: seats the game's bot plays


class CommandError(lobby.LobbyError):
    """A lobby command that cannot be read."""


NAME_THE_PLAYERS = N_("%(said)r: name the players to invite after 'with', e.g. 'new medici with ben@example.org, "
                      "cleo@example.org'")


def _verb(word: str) -> tuple[str, str | None] | None:
    word = word.casefold().rstrip(".!:")
    for verb, words in VERBS.items():
        if word in words:
            return verb, words[word]
    return None


def parse(lines: list[str], subject: str = "") -> Command | None:
    """The lobby command a mail gives in its own lines (else in its subject), or None. A command is
    its first line (`new` may go on over the next lines); `CommandError` where it starts as one but
    cannot be read."""
    text = lines[0] if lines else re.sub(r"^(?:(?:re|aw|antw|fwd?|wg)\s*:\s*)+", "", subject.strip(), flags=re.I)
    words = text.replace(",", " , ").replace(";", " , ").split()
    found = _verb(words[0]) if words else None
    if found is None:
        return None
    verb, language = found
    rest = [w for w in words[1:]]
    if verb == "new":
        more = " ".join(lines[1:]).replace(",", " , ").replace(";", " , ").split()
        return _new(rest + ([","] if more else []) + more, language, " ".join(words))
    if len(lines) > 1:
        return None  # `join`, `yes` in a longer text: pbem does not guess (orders, a letter...)
    command = Command(verb, language=language, words=" ".join(words))
    if "," in rest and (verb in ANSWERS or verb == "rematch"):
        return None  # `yes, please do` and the like: not a bare answer
    rest = [w for w in rest if w != ","]
    if rest:
        command.game = rest.pop(0).casefold().rstrip(".!")
    if verb == "join" and len(rest) == 2 and rest[0].casefold() in AS:
        command.name = rest[1].rstrip(".!")
        rest = []
    if rest:
        if verb in ANSWERS or verb == "rematch":
            return None  # `yes, please do` and the like: not a bare answer
        if verb == "join":
            raise CommandError(N_("%(said)r is not a command pbem knows; write 'join GAME' or 'join GAME as NAME'"),
                               said=" ".join(words))
        raise CommandError(N_("%(said)r is not a command pbem knows; write '%(verb)s GAME'"), said=" ".join(words),
                           verb=words[0].casefold())
    if command.game is not None and not GAME_ID.match(command.game):
        if verb in ANSWERS:
            return None
        raise CommandError(N_("%(game)r is not a game's id"), game=command.game)
    return command


class AnswerUnclear(lobby.LobbyError):
    def __init__(self) -> None:
        super().__init__(N_("your reply to the invitation says neither yes nor no; reply with 'accept' or 'decline'"))


def answer_in(lines: list[str]) -> Command | None:
    """The answer a reply to an invitation gives in words of his own (`Yes, gladly!`, `Nein danke`,
    `graag`): its first line says yes or says no, not both; None when it says neither or both."""
    words = re.findall(r"[\w']+", lines[0].casefold()) if lines else []
    said: dict[str, str | None] = {}
    for word in words:
        for verb, known in (("accept", {**VERBS["accept"], **YES_WORDS}), ("decline", {**VERBS["decline"], **NO_WORDS})):
            if word in known:
                said.setdefault(verb, known[word])
    if len(said) != 1:
        return None
    verb, language = next(iter(said.items()))
    return Command(verb, language=language, words=lines[0])


def _new(words: list[str], language: str | None, said: str) -> Command:
    """`new RULESET [GAME] with ADDRESS, ADDRESS [edition amigo] [deadline 48h] [language de]`."""
    command = Command("new", language=language, words=said)
    low = [w.casefold() for w in words]
    at = next((i for i, w in enumerate(low) if w in WITH), None)
    if at is None:
        raise CommandError(NAME_THE_PLAYERS, said=said)
    head = [w for w in low[:at] if w != ","]
    name = " ".join(head)
    names = ruleset_names()
    for length in range(len(head), 0, -1):
        known = names.get(" ".join(head[:length]))
        if known:
            command.ruleset = known
            rest = head[length:]
            if rest:
                command.game = rest[0]
                if len(rest) > 1 or not GAME_ID.match(command.game):
                    raise CommandError(N_("%(said)r: %(game)r is not a game's id"), said=said, game=" ".join(rest))
            break
    else:
        raise CommandError(N_("%(name)r is not a game pbem plays; choose one of: %(games)s"), name=name,
                           games=", ".join(sorted(set(names.values()))))
    i = at + 1
    while i < len(words) and (words[i] in (",",) or low[i] in AND or "@" in words[i]
                              or low[i].rstrip(".!") in BOT_WORDS or _counted_bots(low, i)):
        if _counted_bots(low, i):  # `with 2 bots`
            command.bots += int(low[i])
            i += 1
        elif low[i].rstrip(".!") in BOT_WORDS:
            command.bots += 1
        elif "@" in words[i]:
            address = words[i].strip("<>()\"'.")
            try:
                command.invitees.append(lobby.check_address(address))
            except lobby.LobbyError:
                raise CommandError(N_("%(address)r is not an email address pbem can write to; nothing was sent"),
                                   address=visible(words[i][:80])) from None
        i += 1
    if not command.invitees and not command.bots:
        raise CommandError(NAME_THE_PLAYERS, said=said)
    rest = [w for w in words[i:] if w != ","]
    while rest:
        word = rest.pop(0)
        key, sep, value = word.partition("=")
        if not sep:
            key, value = word.rstrip(":"), rest.pop(0) if rest else ""
        key = key.casefold()
        if not value:
            raise CommandError(N_("%(said)r: the option %(key)r has no value"), said=said, key=key)
        what = OPTION_WORDS.get(key, key)
        if what == "deadline":
            if value.isdigit() and rest and rest[0].casefold().rstrip(".") in UNIT_WORDS:  # `frist 2 Tage`
                value += " " + rest.pop(0)
            command.deadline = as_duration(value)
        elif what == "language":
            command.language_option = value.casefold()
        elif what == "game":
            command.game = value.casefold()
        else:
            game = command.ruleset or ""  # known by now: an unknown game was refused above
            command.options[option_word(game, key)] = option_word(game, value)
    return command


#: the words a player writes a deadline's unit in, English, German or Dutch (`2 Tage`, `48 uur`), and the
#: letter pbem's durations write it with (`2d`)
UNIT_WORDS = {
    **dict.fromkeys(("m", "min", "mins", "minute", "minutes", "minuten", "minuut"), "m"),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours", "std", "stunde", "stunden", "u", "uur", "uren"), "h"),
    **dict.fromkeys(("d", "day", "days", "t", "tag", "tage", "tagen", "dag", "dagen"), "d"),
    **dict.fromkeys(("w", "wk", "week", "weeks", "woche", "wochen", "weken"), "w"),
}


def as_duration(said: str) -> str:
    """A deadline as a player wrote it (`2 Tage`, `48 Stunden`, `3 dagen`, `1 week`) as pbem writes
    durations (`2d`); what it cannot read stays as written, for the deadline's check to refuse."""
    found = re.fullmatch(r"([0-9]+)\s*([^\W\d_]+)\.?", said.strip().casefold())
    if found is None or found.group(2) not in UNIT_WORDS:
        return said
    return found.group(1) + UNIT_WORDS[found.group(2)]


def _counted_bots(low: list[str], i: int) -> bool:
    """Whether words i and i+1 are a number of bots (`2 bots`, `3 Bots`)."""
    return re.fullmatch("[1-9]", low[i]) is not None and i + 1 < len(low) and low[i + 1].rstrip(".!") in BOT_WORDS


# -- handling ------------------------------------------------------------------------------------------

@dataclass
class Lobby:
    """One mail's lobby command, carried out: the games dir, the postman, the mail, and what proves
    its sender (decided once for the mail: a seat's reply key or token, the lobby keys it carries)."""

    gd: GamesDir
    postman: Postman
    mail: Incoming
    proof: Proof | None
    at: datetime
    who: Sender | None = None  # the sender, looked up once for the mail (None: a lobby mail of pbem's own)

    @property
    def proven(self) -> Proven | None:
        return self.proof.key if self.proof is not None else None

    @property
    def keyed(self) -> frozenset[str]:
        return self.proof.lobby if self.proof is not None else frozenset()

    @property
    def address_proven(self) -> bool:
        """Whether a key or token shows that the sender's address receives pbem's mail."""
        return self.proof is not None and allows(self.proof, LOBBY)

    @property
    def config(self) -> Config:
        return self.postman.config

    @property
    def sender(self) -> str:
        return self.mail.sender

    def language(self, command: Command | None = None) -> str:
        """The language to answer in: in a reply to a mail about a game not begun, the one he reads in
        it (an invitee reads the challenge's until he says otherwise); else the one his words are in,
        else his seat's, else the host's."""
        from pbem.mail.readers import entry_language, reader_language

        for game in sorted(self.keyed):
            if self.who is not None:
                found = self.who.entry_language(game)
            else:
                try:
                    found = entry_language(lobby.load(self.gd, game), self.sender)
                except PbemError:  # the game has begun or is gone: no entry to read it from
                    continue
            if found:
                return found
        if command is not None and command.language in LANGUAGES:
            return command.language
        if self.proven is not None:
            return language_of(self.proven.state, self.proven.player, self.config)
        if self.who is not None:
            return self.who.known_language or self.config.language
        return reader_language(self.gd, self.config, self.sender)

    def may_create(self) -> bool:
        """Whether pbem.yaml's `lobby.create` lets the sender challenge others."""
        return lobby.may_create(self.gd, self.config, self.sender,
                                played=bool(self.who.seats) if self.who is not None else None)

    def post(self, to: str, game: str, nonce: str, template: str, what: str, lang: str, about: str,
             answering: Incoming | None = None, **context: Any) -> None:
        """A lobby mail to `to` about `game`, with its key (so a reply to it proves itself)."""
        self.postman.post(*self.written(to, game, nonce, template, what, lang, about, answering, **context))

    def written(self, to: str, game: str, nonce: str, template: str, what: str, lang: str, about: str,
                answering: Incoming | None = None, **context: Any) -> tuple[str, Any]:
        """A lobby mail as `post` sends it, written but not posted: its name in the outbox and the
        message (an address its To: cannot take fails here, before anything is saved)."""
        from pbem.clock import now_moment
        from pbem.report import env_for

        config = self.config
        _ = translator(lang).gettext
        from pbem.donotmail import footer

        body = env_for(lang).get_template(template).render(game=game, **context)
        plays = self.who.plays if self.who is not None and to == self.who.address else None
        body = body.rstrip("\n") + "\n" + footer(config, to, lang, plays=plays)
        mid = lobby_id(config, game, nonce, f"{about}\0{to}\0{answering.message_id if answering else ''}")
        keys = keyring(config)
        reply_to = None
        if keys is not None:
            key = lobby_key(keys, game, nonce, to)
            mid = f"{mid[:mid.rindex('@')]}.k{key}{mid[mid.rindex('@'):]}"
            if config.reply_address == "plus":
                local, _at, domain = config.gm_address.rpartition("@")
                reply_to = f"{local}+lobby.{key}@{domain}"
        refs = [answering.message_id] if answering is not None else None
        about_game = f"{game}: " if game != "lobby" else ""  # a refusal about no game names none
        msg = compose(config, "", to, f"{config.subject_prefix} {about_game}{_(what)}".strip(), body, mid,
                      in_reply_to=answering.message_id if answering else None, references=refs, date=now_moment(),
                      reply_to=reply_to)
        name = "lobby-" + digests.sha256(mid.encode()).hexdigest()[:24]
        return name, msg

    def answer(self, game: str, nonce: str, template: str, what: str, lang: str, **context: Any) -> bool:
        """An answer to the mail's sender; False when he is a stranger answered today already."""
        if not self.address_proven and not stranger_may_hear(self.gd, self.sender, self.at.date().isoformat(),
                                                             unproven=True,
                                                             player=self.who.known if self.who is not None else None):
            return False
        from pbem.mail.secrets import hide_tokens, tokens_in

        from pbem.i18n import header_moment

        date = header_moment(self.mail.message.get("Date"), lang, getattr(self.config, "timezone", None), self.at) \
            or translator(lang).gettext("(no date)")
        self.post(self.sender, game, nonce, template, what, lang, "answer", self.mail, date=date,
                  subject=hide_tokens(self.mail.subject, tokens_in(self.mail)), **context)
        return True

    def commit(self, paths: list[str], message: str) -> None:
        self.gd.commit_paths(paths, visible(message))


def handle_lobby(gd: GamesDir, postman: Postman, mail: Incoming, command: Command, proof: Proof,
                 at: datetime, refusal: lobby.LobbyError | None = None, who: Sender | None = None,
                 lang: str | None = None) -> str:
    """Carry out one lobby command and answer it (with `refusal`: a command that could not be read,
    answered with it); the run's line for it. `who`: the mail's sender, looked up once for the mail;
    `lang`: the language to answer in, where the caller knows it better than the mail's keys."""
    work = Lobby(gd, postman, mail, proof, at, who)
    lang = lang or work.language(command)
    try:
        if refusal is not None:
            raise refusal
        return _carry_out(work, command, lang)
    except Silent as exc:
        return f"mail from {mail.sender}: refused '{command.verb}' without an answer: {exc}"
    except PbemError as exc:
        from pbem.report import refusal_text

        message = exc.text(lang) if isinstance(exc, lobby.LobbyError) else refusal_text(exc.refusal, lang, None)
        message = without_paths(message, gd)
        told = work.answer(command.game or "lobby", NO_ENTRY, "common/lobby-refused.txt.j2",
                           N_("your mail could not be used"), lang, message=message, words=command.words)
        return f"mail from {mail.sender}: refused '{command.verb}': {exc}" + ("" if told else " (not answered: "
                                                                                "a stranger hears from pbem once a day)")


def _entry_for(work: Lobby, command: Command, kinds: tuple[str, ...]) -> dict[str, Any]:
    """The entry a command is about: the game it names, else the one game the mail's key is of, else
    the one entry the sender is part of."""
    if command.game is not None:
        return lobby.load(work.gd, command.game)
    mine = sorted(work.keyed) or [e["game"] for e in lobby.entries(work.gd)
                                  if e["kind"] in kinds and any(s["email"] == work.sender
                                                                for s in e["seated"] + e["invited"])]
    if len(mine) == 1:
        return lobby.load(work.gd, mine[0])
    if not mine:
        raise lobby.LobbyError(N_("%(said)r names no game, and you are part of none that has not begun"),
                               said=command.words)
    raise lobby.LobbyError(N_("%(said)r names no game; write '%(verb)s GAME' with one of: %(games)s"),
                           said=command.words, verb=command.verb, games=", ".join(mine))


def _carry_out(work: Lobby, command: Command, lang: str) -> str:
    gd, at, sender = work.gd, work.at, work.sender
    line = f"mail from {sender}: "
    bots_alone = command.verb == "new" and command.bots and not command.invitees  # lobby.bots decides
    if command.verb in ("new", "rematch") and not bots_alone and not work.may_create():
        raise Silent(f"{sender} may not start games on this host (pbem.yaml lobby.create: {work.config.lobby_create})")
    if command.verb not in ("join", *ANSWERS) and not work.address_proven:
        raise lobby.LobbyError(NEEDS_PROOF, said=command.words)
    if command.verb == "join":
        if command.game is None:
            raise lobby.LobbyError(N_("write 'join GAME' with the game's id; reply 'games' to see the open games"))
        entry = lobby.load(gd, command.game)
        if not work.address_proven and entry["game"] not in work.keyed:
            lobby.join(dict(entry, seated=list(entry["seated"])), sender, command.name, command.language, at)  # refuses what it would
            told = work.answer(entry["game"], entry["nonce"], "common/lobby-refused.txt.j2",
                               N_("reply to take your seat"), lang, words=command.words,
                               message=translator(lang).gettext(JOIN_BY_REPLY) % {"game": entry["game"],
                                                                                 "said": command.words})
            return line + f"{entry['game']}: asked to confirm '{command.words}' by a reply" + \
                ("" if told else " (not answered: a mail nothing proves is answered once a day)")
        name = lobby.join(entry, sender, command.name, command.language, at)
        path = lobby.save(gd, entry)
        work.commit([path], f"{entry['game']}: {name} joins ({len(entry['seated'])} of {entry['seats']} seats)\n")
        work.answer(entry["game"], entry["nonce"], "common/lobby-joined.txt.j2", N_("you have a seat"), lang,
                    **_context(entry, lang), name=name)
        line += f"{entry['game']}: joined as {name}"
        return line + _start_if_ready(work, entry)
    if command.verb == "leave":
        entry = _entry_for(work, command, (lobby.OPEN, lobby.CHALLENGE))
        name = lobby.leave(entry, sender)
        path = lobby.save(gd, entry)
        work.commit([path], f"{entry['game']}: {name} leaves\n")
        work.answer(entry["game"], entry["nonce"], "common/lobby-left.txt.j2", N_("you gave back your seat"), lang,
                    **_context(entry, lang), name=name)
        return line + f"{entry['game']}: {name} left" + (_fold_if_short(work, entry) if entry["kind"] == lobby.CHALLENGE else "")
    if command.verb in ANSWERS:
        entry = _entry_for(work, command, (lobby.CHALLENGE,))
        if entry["game"] not in work.keyed:
            raise lobby.LobbyError(N_("an answer to the invitation to game %(game)r counts only as a reply to the "
                                      "invitation itself; reply to it with '%(verb)s'"),
                                   game=entry["game"], verb=command.verb)
        accept = command.verb == "accept"
        name = lobby.answer(entry, sender, accept, at)
        path = lobby.save(gd, entry)
        work.commit([path], f"{entry['game']}: {name} {'accepts' if accept else 'declines'} the invitation\n")
        work.answer(entry["game"], entry["nonce"], "common/lobby-answered.txt.j2",
                    N_("you accepted") if accept else N_("you declined"), lang, **_context(entry, lang),
                    name=name, accepted=accept)
        line += f"{entry['game']}: {sender} {'accepted' if accept else 'declined'}"
        if not accept:
            return line + _fold_if_short(work, entry, declined=sender)
        return line + _start_if_ready(work, entry)
    if command.verb == "withdraw":
        entry = _entry_for(work, command, (lobby.CHALLENGE,))
        if entry["kind"] != lobby.CHALLENGE or entry["by"] != sender:
            raise lobby.LobbyError(N_("game %(game)r is not a challenge of yours"), game=entry["game"])
        path = lobby.remove(gd, entry["game"])
        work.commit([path], f"{entry['game']}: {lobby.challenger_name(entry)} withdraws the challenge\n")
        _tell_all(work, entry, "withdrawn", skip=())
        return line + f"{entry['game']}: challenge withdrawn"
    if command.verb in ("new", "rematch"):
        return line + _challenge(work, command, lang)
    raise lobby.LobbyError(N_("%(said)r is not a command pbem knows"), said=command.words)


def _challenge(work: Lobby, command: Command, lang: str) -> str:
    gd, config, sender, at = work.gd, work.config, work.sender, work.at
    left_out: list[str] = []  # a rematch's players who left the game it follows
    ended = None
    if command.verb == "new" and command.bots and not command.invitees:  # a game against bots alone
        from pbem.mail.tablebots import against_bots

        return against_bots(work, command, lang)
    if not work.may_create():
        raise Silent(f"{sender} may not start games on this host (pbem.yaml lobby.create: {config.lobby_create})")
    if command.verb == "rematch":
        ended = command.game or (work.proven.game if work.proven is not None else None)
        if ended is None:
            raise lobby.LobbyError(N_("'rematch' names no game: reply with it to a mail of the game that has ended, "
                                      "or write 'rematch GAME'"))
        if not GAME_ID.match(ended) or not gd.exists(ended):
            raise lobby.LobbyError(N_("there is no game %(game)r on this host"), game=ended)
        state = work.gd.load(ended)
        me, others = lobby.rematch_invitees(state, sender)
        seat = lobby.Seat(me.name, sender, me.language)
        robots = bot_seats(state)
        others, left_out = _still_at_table(work, state, others)
        if left_out and not others and not robots:
            raise lobby.LobbyError(N_("nobody is left to invite to a rematch of game %(game)s: %(names)s left it; "
                                      "to play again, challenge others with 'new %(ruleset)s with ADDRESS, ADDRESS'"),
                                   game=ended, names=", ".join(left_out), ruleset=state["ruleset"])
        if left_out:
            from pbem.rules.base import get_ruleset

            refusal = get_ruleset(state["ruleset"]).players_refusal(1 + len(others) + len(robots))
            if refusal is not None:
                raise lobby.LobbyError(N_("a rematch of game %(game)s would be %(n)s players without %(names)s, who "
                                          "left it, and %(refusal)s; challenge others with 'new %(ruleset)s with "
                                          "ADDRESS, ADDRESS'"),
                                       game=ended, n=1 + len(others) + len(robots), names=", ".join(left_out),
                                       refusal=refusal, ruleset=state["ruleset"])
        if robots and not others:  # the same bots again
            from pbem.mail.tablebots import start_against_bots

            return start_against_bots(work, state["ruleset"], lobby.free_id(gd, state["game"]), seat, robots,
                                      dict(state["options"]), state.get("deadline"), None)
        entry = lobby.challenge(gd, config, state["ruleset"], lobby.free_id(gd, state["game"]), seat,
                                [o.email for o in others], dict(state["options"]), state.get("deadline"), None, at,
                                bots=len(robots))
        if robots:
            entry["bots"] = robots
        by_address = {o.email: o for o in others}
        for invite in entry["invited"]:
            invite["name"] = by_address[invite["email"]].name
            if by_address[invite["email"]].language:
                invite["language"] = by_address[invite["email"]].language
    else:
        rule = None
        if command.deadline is not None:
            from pbem.gm import deadline_rule

            rule = deadline_rule(command.deadline, None, None)
        option_language = command.language_option
        if option_language is not None and option_language not in LANGUAGES:
            raise lobby.LobbyError(N_("language %(language)r is not one pbem writes (choose one of: %(languages)s)"),
                                   language=option_language, languages=", ".join(LANGUAGES))
        names = [] if work.proven is None else [work.proven.player]
        seat = lobby.Seat(names[0] if names else lobby.seat_name(sender, []), sender, command.language)
        assert command.ruleset is not None
        if config.gm_address.lower() in command.invitees:
            raise lobby.LobbyError(N_("%(address)s is this host's own address; it cannot play"),
                                   address=config.gm_address.lower())
        if command.bots:
            from pbem.mail.tablebots import check_bots

            check_bots(work)
        entry = lobby.challenge(gd, config, command.ruleset, command.game, seat, command.invitees,
                                command.options, rule, option_language, at, bots=command.bots)
    from pbem.donotmail import never_mail

    silenced = [i["email"] for i in entry["invited"] if never_mail(config, i["email"])]
    if silenced:
        raise lobby.LobbyError(NEVER_MAIL, address=silenced[0])
    today = at.date().isoformat()
    made, invited = lobby.today(gd, today, sender)
    if made.get(sender, 0) >= 2 * config.lobby_invitations:
        raise lobby.LobbyError(N_("you have made %(count)s challenges today, the most this host allows in a day "
                                  "(withdrawn ones count too); try again tomorrow"), count=made[sender])
    again = [i["email"] for i in entry["invited"] if invited.get(i["email"], 0) >= config.lobby_invitations]
    if again:
        raise lobby.LobbyError(N_("you have invited %(address)s %(count)s times today, the most this host allows; "
                                  "you can invite that address again tomorrow"), address=again[0],
                               count=invited[again[0]])
    context = _context(entry, lang)
    mails = []  # written before anything is saved: an address no mail can go to refuses the whole challenge
    for invite in entry["invited"]:
        their = invite.get("language") or entry.get("language") or work.config.language
        mails.append(work.written(invite["email"], entry["game"], entry["nonce"], "common/lobby-invite.txt.j2",
                                  N_("an invitation to play"), their, "invite", None, **_context(entry, their),
                                  by=sender, name=invite["name"]))
    mails.append(work.written(sender, entry["game"], entry["nonce"], "common/lobby-challenge.txt.j2",
                              N_("your invitations are sent"), lang, "challenge", work.mail, **context,
                              left_out=", ".join(left_out), ended=ended))
    strangers = [i["email"] for i in entry["invited"]
                 if not (lobby.plays_here(gd, i["email"]) or lobby.seated_here(gd, i["email"]))]
    if strangers and not strangers_may_get(gd, len(strangers), today, config.lobby_strangers_per_day):
        raise lobby.LobbyError(N_("this host has sent as many invitations to new players today as it sends in a "
                                  "day; try again tomorrow"))
    path = lobby.save(gd, entry)
    lobby.note_challenge(gd, today, sender, [i["email"] for i in entry["invited"]])
    work.commit([path], f"{entry['game']}: {lobby.challenger_name(entry)} challenges "
                        f"{', '.join(i['name'] for i in entry['invited'])} to {entry['ruleset']}\n")
    for name, msg in mails:
        work.postman.post(name, msg)
    return f"{entry['game']}: challenged {', '.join(i['email'] for i in entry['invited'])}" + \
        (f" (not invited: {', '.join(left_out)}, who left {ended})" if left_out else "")


def _still_at_table(work: Lobby, state: dict[str, Any], others: list[lobby.Seat]) -> tuple[list[lobby.Seat], list[str]]:
    """The players of a finished game its rematch invites: all but those who resigned from it (`stop`)
    or asked this host never to write to them; and the seats' names of those left out."""
    from pbem.donotmail import never_mail
    from pbem.gamestate import resigned_seats

    gone = set(resigned_seats(work.gd, state["game"]))
    left = [o for o in others if o.name in gone or never_mail(work.config, o.email)]
    return [o for o in others if o not in left], [o.name for o in left]


#: the subjects of the lobby's mails (after `[pbem] GAME: `): a reply's subject tells the language read
SUBJECTS = (N_("an invitation to play"), N_("the game will not take place"), N_("you accepted"), N_("you declined"),
            N_("your invitations are sent"), N_("you have a seat"), N_("you gave back your seat"),
            N_("reply to take your seat"), N_("your mail could not be used"))


def subject_language(subject: str) -> str | None:
    """The language of the lobby mail a reply's subject quotes (`Re: [pbem] g1: een uitnodiging om te
    spelen`: nl), where it is one language's; None where it tells none."""
    said = subject.casefold()
    for lang in LANGUAGES:
        if lang != "en" and any(translator(lang).gettext(s).casefold() in said for s in SUBJECTS):
            return lang
    return None


CALLED_OFF = N_("the game %(game)s does not take place, so there is nothing left to answer")
NEEDS_PROOF = N_("%(said)r changes a seat or sends mail to others, so it counts only in a reply to a mail pbem "
                 "sent you (a report, or a mail about the game), or with your token: reply to this mail with it")
NEVER_MAIL = N_("%(address)s asked this host never to write to it again; nothing was sent")
JOIN_BY_REPLY = N_("to take a seat in game %(game)s, reply to this mail with '%(said)s': pbem seats nobody on "
                   "a mail it cannot tell is yours")
def without_paths(text: str, gd: GamesDir) -> str:
    """`text` without the games dir's path (a refusal names no folder of the host)."""
    for root in sorted({str(gd.root.resolve()), str(gd.root)}, key=len, reverse=True):
        text = text.replace(f" in {root}", "").replace(root, "the games dir")
    return text


def _context(entry: dict[str, Any], lang: str) -> dict[str, Any]:
    from pbem.i18n import duration_text, moment_text
    from pbem.rules.base import get_ruleset

    rules = get_ruleset(entry["ruleset"])
    options = rules.options_text(entry["options"], lang)
    deadline = None
    if entry.get("deadline"):
        deadline = duration_text(entry["deadline"]["hours"], lang)
    return dict(title=rules.title, options=options, deadline=deadline, seats=entry["seats"],
                seated=[s["name"] for s in entry["seated"]], free=lobby.free_seats(entry),
                waiting=[i["email"] for i in lobby.pending(entry)], kind=entry["kind"],
                lapses=moment_text(moment(entry["lapses"]), lang) if entry.get("lapses") else None,
                players=[s["name"] for s in entry["seated"]] + [i["name"] for i in lobby.pending(entry)])


def _start_if_ready(work: Lobby, entry: dict[str, Any]) -> str:
    if not lobby.ready(entry):
        return ""
    start_entry(work.gd, work.config, entry, work.postman)
    return f"; {entry['game']} starts"


def _fold_if_short(work: Lobby, entry: dict[str, Any], declined: str | None = None) -> str:
    """After a decline: the game goes on without him if enough are left (and starts if all others
    have accepted), else the challenge is off and everyone in it is told."""
    if lobby.can_go_on(entry):
        return _start_if_ready(work, entry)
    path = lobby.remove(work.gd, entry["game"])
    work.commit([path], f"{entry['game']}: too few players left; the challenge is off\n")
    _tell_all(work, entry, "declined", skip=(declined,) if declined else ())
    return f"; too few left: {entry['game']} is off"


def _tell_all(work: Lobby, entry: dict[str, Any], why: str, skip: tuple[str, ...]) -> None:
    """Tell everyone seated in an entry that it is off. Whoever has not answered his invitation hears
    nothing more (as it promised him): pbem writes a stranger no second mail he did not ask for."""
    to = [(s["email"], s.get("language")) for s in entry["seated"]]
    for address, their in to:
        if address in skip:
            continue
        lang = their or (language_at(work, address) if address == entry["by"] else entry.get("language")) \
            or work.config.language
        work.post(address, entry["game"], entry["nonce"], "common/lobby-off.txt.j2",
                  N_("the game will not take place"), lang, f"off-{why}", None, **_context(entry, lang), why=why,
                  by=entry["by"])


def language_at(work: Lobby, address: str) -> str:
    """The language of an address's first seat on this host (the challenger's), else the host's."""
    from pbem.mail.commands import first_seat

    seat = first_seat(work.gd, address)
    return language_of(seat[0], seat[1], work.config) if seat else work.config.language


def lapse(gd: GamesDir, postman: Postman, at: datetime) -> list[str]:
    """End each challenge whose invitations have waited too long; everyone in it is told."""
    lines = []
    for entry in lobby.entries(gd):
        if not lobby.lapsed(entry, at):
            continue
        work = Lobby(gd, postman, _NO_MAIL, None, at)
        path = lobby.remove(gd, entry["game"])
        gd.commit_paths([path], f"{entry['game']}: the invitations lapsed unanswered\n")
        _tell_all(work, entry, "lapsed", skip=())
        lines.append(f"{entry['game']}: the invitations lapsed (unanswered: "
                     f"{', '.join(i['email'] for i in lobby.pending(entry))})")
    return lines


def _no_mail() -> Incoming:
    from email.message import EmailMessage

    return Incoming("<none@pbem.invalid>", "", "", "", [], EmailMessage(), 0)


_NO_MAIL = _no_mail()


def open_lines(gd: GamesDir) -> list[dict[str, Any]]:
    """The open games anyone may join, with their free seats."""
    from pbem.rules.base import get_ruleset

    return [{"game": e["game"], "title": get_ruleset(e["ruleset"]).title, "free": lobby.free_seats(e),
             "seats": e["seats"]} for e in lobby.entries(gd) if e["kind"] == lobby.OPEN and lobby.free_seats(e) > 0]

