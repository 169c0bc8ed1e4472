"""The mail side of a run: orders read from the inbox, reports and replies posted to the players.

A run reads the inbox first (each mail once: its Message-ID is remembered in mail/seen.log), queues
the orders it finds, lets the batch advance the games and commit, then sends, and only then takes the
handled mail out of the inbox. If the run dies half way, the next one finds the mail still there:
either already seen (and its orders queued or applied) or not yet, and reads it again; nothing is lost,
nothing applied twice.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Collection

from pbem import digests
from pbem.clock import now_moment
from pbem.config import Config
from pbem.errors import AuthError, PbemError, TurnFileError, mapped
from pbem.game import apply_orders, describe_turn, check_submission, submit, waiting_for
from pbem.mail.boxes import Inbox, Postman, open_inbox, peek_inbox
from pbem.mail.ids import keyring, mail_thread, split_key
from pbem.mail.incoming import Incoming, not_for_pbem, once, read_mail
from pbem.mail.lobby import handle_lobby, open_lines, without_paths
from pbem.mail.lobby_keys import lobby_answer_id
from pbem.visible import CONTROLS, visible
from pbem.i18n import N_, language_of, localize, timezone_of, translator
from pbem.mail.commands import (command_in, games_lines, help_context, language_choices, mentions_command,
                                standing_context, withdraw)
from pbem.mail.post import board_picture, phone_moves
from pbem.mail.replies import reply, seat_language
from pbem.mail.orders import NoOrders, find_orders, orders_in, own_lines, reads_as_lines
from pbem.mail.proof import LOBBY, Proof, allows, check_command_allowed, check_orders_allowed, check_seat_plays
from pbem.mail.seats import Proven, example_orders, sender_seat
from pbem.mail.sender import Sender, lookup
from pbem.mail.secrets import game_tokens_in, hide_tokens, scrub, tokens_in
from pbem.refusals import refuse
from pbem.report import refusal_text
from pbem.rules.base import order_text
from pbem.store import GamesDir, crash_point, write_atomic
from pbem.store.seen import SeenMail
from pbem.talk import table_of

MAX_REPLIES_PER_SENDER = 10  # more mails than this from one address in one thread in one run look like a loop
MAX_ADDRESS = 254  # the longest address a mail may come from (longer: set aside, never written anywhere)
REFUSALS_A_DAY = 5  # refused mails in a row from one address in a day: the next are a machine's, not answered
SAME_REFUSED = 2  # times the same text may be refused from one address (in a week) before it is not answered
LOOPS_FILE = ("mail", "refused.txt")
REFUSED_LINE = re.compile(r"mail from [^:]*: refused")
LINE_GAME = re.compile(r"mail from [^:\s]*: ([a-z0-9][a-z0-9_-]{0,39})(?=:| turn | sent ahead| any time)")


def thread_key(mail: Incoming) -> str:
    """The conversation a mail belongs to: the mail of pbem's it answers (its id without the key),
    else none."""
    for ref in mail.thread[:1]:
        return split_key(ref)[0][:200]
    return ""


def own_digest(mail: Incoming) -> str:
    """A short digest of what the sender wrote himself (his own lines, else the subject), by which the
    same text sent again is known. Read once for the mail."""
    return once(mail, "digest", lambda: _own_digest(mail))


def _own_digest(mail: Incoming) -> str:
    from pbem.mail.incoming import texts_of

    try:
        own = "\n".join(own_lines(mail)) or "\n".join(texts_of(mail))
    except Exception:
        own = ""
    text = own or re.sub(r"^(?:(?:re|aw|antw|fwd?|wg)\s*:\s*)+", "", mail.subject.strip(), flags=re.I)
    return digests.sha256(text.casefold().encode("utf-8", "replace")).hexdigest()[:16]


def shown_address(address: str) -> str:
    """An address as a run's line shows it: cut when it is longer than an address can be."""
    return address if len(address) <= MAX_ADDRESS else address[:60] + f"... ({len(address)} characters)"


PROVEN, UNPROVEN = "p", "u"  # how refused.txt marks a refusal: of a mail a key or token proves, of one nothing proves


class Loops:
    """The refused mails of each address, kept a week (mail/refused.txt, out of git): a conversation
    with a machine (an auto-responder that answers every answer, whatever its headers) ends after a
    few refusals, since nothing it sends is ever accepted. Any mail of his that pbem accepts forgets
    them.

    Mail that a key or token proves and mail that nothing proves are counted apart. A refusal of a
    mail nothing proves counts only against mail nothing proves: anyone can write a From:, so forged
    mail never sets aside a mail that a key or token proves. A refusal of a proven mail counts against
    both (a responder at that address answers pbem's keyed mail with its key, and without)."""

    def __init__(self, gd: GamesDir, today: str) -> None:
        from datetime import date, timedelta

        self.path = gd.root.joinpath(*LOOPS_FILE)
        self.today = today
        week = (date.fromisoformat(today) - timedelta(days=7)).isoformat()
        self.kept: list[tuple[str, str, str, str]] = []  # (address, day, digest, PROVEN or UNPROVEN)
        from pbem.mended import mended, read_lines

        spoiled = 0
        for line in read_lines(self.path, gd.root, "its readable lines are kept, the rest forgotten") or []:
            parts = line.split(" ")
            if len(parts) == 3:  # a line written before proven and unproven were counted apart
                parts.append(UNPROVEN)
            if len(parts) == 4 and re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", parts[1]) \
                    and parts[3] in (PROVEN, UNPROVEN):
                if parts[1] >= week:
                    self.kept.append((parts[0], parts[1], parts[2], parts[3]))
            elif line.strip():
                spoiled += 1
        if spoiled:
            mended(self.path, gd.root, f"{spoiled} of its lines are not 'address day digest proof'",
                   "they are forgotten")
        self.changed = False

    def looping(self, address: str, digest: str, proven: bool = False) -> str | None:
        """Why a mail is a machine's answer not to answer again, or None. `proven`: a key or token
        proves the mail (only refusals of proven mail count against it)."""
        mine = [k for k in self.kept if k[0] == address and (k[3] == PROVEN or not proven)]
        which = "proven by a key or token" if proven else "that nothing proves"
        if sum(1 for k in mine if k[1] == self.today) >= REFUSALS_A_DAY:
            return (f"{REFUSALS_A_DAY} mails from {address} were refused today, one after another; the next "
                    f"{which} are not answered until one of his is accepted (an auto-responder?)")
        if sum(1 for k in mine if k[2] == digest) >= SAME_REFUSED:
            return f"the same text from {address} ({which}) was refused {SAME_REFUSED} times already " \
                   f"(an auto-responder?)"
        return None

    def note(self, address: str, digest: str, refused: bool, proven: bool = False) -> None:
        """Note what became of a mail: a refusal is kept; a mail accepted forgets the refusals it
        outweighs (a proven one all of them, one that nothing proves those of mail nothing proves)."""
        if refused:
            self.kept.append((address, self.today, digest, PROVEN if proven else UNPROVEN))
            self.changed = True
            return
        kept = [k for k in self.kept if k[0] != address or (k[3] == PROVEN and not proven)]
        if len(kept) != len(self.kept):
            self.kept, self.changed = kept, True

    def save(self) -> None:
        if self.changed:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, "".join(f"{a} {d} {h} {k}\n" for a, d, h, k in self.kept))


class Guard:
    """The guard against loops of one run (or of a dry run, which notes nothing on disk): the mails of
    one address in one thread in this run, and the refusals of the week (`Loops`). Each counts mail
    that a key or token proves apart from mail that nothing proves, keyed on the mail's `Sender`."""

    def __init__(self, gd: GamesDir) -> None:
        self.loops = Loops(gd, now_moment().date().isoformat())
        self.in_thread: Counter[tuple[str, str, bool]] = Counter()

    def why(self, who: Sender, mail: Incoming) -> str | None:
        """Why the mail is set aside as part of a loop, or None; counts it."""
        thread = thread_key(mail)
        self.in_thread[(who.address, thread, who.proven)] += 1
        count = self.in_thread[(who.address, thread, True)] + \
            (0 if who.proven else self.in_thread[(who.address, thread, False)])
        if count > MAX_REPLIES_PER_SENDER:
            which = " proven by a key or token" if who.proven else ""
            return f"more than {MAX_REPLIES_PER_SENDER} mails from {who.address}{which} in one run in one thread " \
                   f"(a loop?)"
        return self.loops.looping(who.address, own_digest(mail), who.proven)

    def note(self, who: Sender, mail: Incoming, refused: bool) -> None:
        self.loops.note(who.address, own_digest(mail), refused, who.proven)


def unfit(mail: Incoming, config: Config) -> str | None:
    """Why a mail is set aside unread before anything looks its sender up: not a player's mail (an
    auto-reply, a bounce, pbem's own), or an address no file may hold."""
    why = not_for_pbem(mail, config)
    if why is None and len(mail.sender) > MAX_ADDRESS:
        why = f"its sender's address is {len(mail.sender)} characters long; an address has at most {MAX_ADDRESS}"
    if why is None and CONTROLS.search(mail.sender):  # nothing pbem writes (a file, a commit) may hold them
        why = "its sender's address holds control characters"
    return why


# -- reading the inbox ------------------------------------------------------------------------------

@dataclass
class Intake:
    """What reading the inbox did; `handled` are the mails to take out after the commit, each with the
    game it concerned (None: none) and the index of its line in `lines` (None: it has none)."""

    inbox: Inbox | None
    handled: list[tuple[str, bool, str | None, int | None]] = field(default_factory=list)  # (key, set aside?, game, line)
    lines: list[str] = field(default_factory=list)
    new_ids: list[str] = field(default_factory=list)


def seen_ids(gd: GamesDir) -> SeenMail:
    """The mail read before (see pbem.store.seen)."""
    return SeenMail(gd.root, now_moment().date())


def remember(gd: GamesDir, ids: SeenMail) -> None:
    ids.save()


def game_of(mail: Incoming) -> str | None:
    """The game a mail's orders name, else the game of the mail of pbem's it answers (the mail stays in
    the inbox until that game's run commits; a shard's host takes the mail of its own games). Read
    once for the mail."""
    return once(mail, "game", lambda: _game_of(mail))


def _game_of(mail: Incoming) -> str | None:
    try:
        game = find_orders(mail).get("game")
    except Exception:  # no turn file or token: a reply of his own lines, a command, or nothing
        game = None
    if not isinstance(game, str):
        thread = mail_thread(mail)
        game = thread[0] if thread else None
    return game


def read_inbox(gd: GamesDir, config: Config, postman: Postman,
               mine: Callable[[str | None], bool] = lambda game: True) -> Intake:
    """Queue the orders of every new mail and post the acknowledgements and refusals. With `mine`
    (`pbem advance --shard`), mail for a game `mine` refuses is left in the inbox for its own host."""
    intake = Intake(open_inbox(config))
    if intake.inbox is None:
        return intake
    intake.lines += [f"Warning: {w}" for w in getattr(intake.inbox, "warnings", [])]
    seen = seen_ids(gd)
    guard = Guard(gd)

    def handled(key: str, aside: bool, line: str, game: str | None = None, about: str | None = None) -> None:
        # each line names the game it is about first (a GM reads the log of many games), and shows
        # no control character a mail brought (the console and the commit message read it)
        about = about or game
        if about is None:  # a lobby command's line names its entry after the sender
            from pbem.lobby import exists as in_lobby

            named = LINE_GAME.match(line)
            if named and (gd.exists(named.group(1)) or in_lobby(gd, named.group(1))):
                about = named.group(1)
        intake.lines.append(visible(f"{about}: {line}" if about else line))
        intake.handled.append((key, aside, game, len(intake.lines) - 1))

    for key in intake.inbox.keys():  # noqa: SIM118 (an Inbox, not a dict)
        raw = intake.inbox.read(key)
        if len(raw) > config.max_mail_bytes:
            if mine(None):
                handled(key, True, f"mail {key}: set aside: {len(raw)} bytes, over the limit of {config.max_mail_bytes}")
            continue
        try:
            mail = read_mail(raw)
        except Exception as exc:  # mail the email package cannot read at all
            if mine(None):
                handled(key, True, f"mail {key}: set aside: it cannot be read ({type(exc).__name__})")
            continue
        if not mine(game_of(mail)):
            continue  # another shard's host reads it
        if mail.message_id in seen:  # filed as it was the first time: mail not for pbem is set aside
            aside = not_for_pbem(mail, config) is not None
            handled(key, aside, f"mail {mail.message_id}: read before; taken out of the inbox",
                    None if aside else game_of(mail))
            continue
        # the mail read; then who sent it and what proves it, looked up once; then the guard, which
        # counts on what that proves; then the act and its answer
        why = unfit(mail, config)
        who = None
        if why is None:
            try:
                who = lookup(gd, config, mail)
            except Exception as exc:  # one hostile mail must not stop the others
                why = f"it could not be handled ({type(exc).__name__}: {scrub(exc, tokens_in(mail))})"
        if why is None and who is not None:
            why = guard.why(who, mail)
        if why or who is None:
            handled(key, True, f"mail from {shown_address(mail.sender) or '?'}: set aside: {why}", about=game_of(mail))
        else:
            try:
                line = handle(gd, postman, mail, who)
            except Exception as exc:  # one hostile mail must not stop the others
                handled(key, True, f"mail from {mail.sender}: set aside: it could not be handled "
                                   f"({type(exc).__name__}: {exc})", about=game_of(mail))
            else:
                handled(key, False, line, game_of(mail))
                guard.note(who, mail, refused=REFUSED_LINE.match(line) is not None)
        seen.add(mail.message_id)
        intake.new_ids.append(mail.message_id)
        crash_point("remember")
        remember(gd, seen)
    guard.loops.save()
    if mine(None):  # the lobby is the first shard's, as mail that names no game is
        from pbem.mail.lobby import lapse

        intake.lines += lapse(gd, postman, now_moment())
    return intake


def handle(gd: GamesDir, postman: Postman, mail: Incoming, who: Sender | None = None) -> str:
    """One mail from `who` (its sender, proven and looked up once; None: looked up here): `stop`,
    `watch`/`unwatch`, table talk (then the rest of the mail), or the rest of the run (`handle_mail`)."""
    from pbem.donotmail import is_stop
    from pbem.mail.observers import watch_command
    from pbem.mail.stop import handle_stop
    from pbem.mail.talk import table_talk

    if who is None:
        who = lookup(gd, postman.config, mail)
    if mail.doubt:
        return handle_mail(gd, postman, mail, who)
    proof = who.proof
    own = own_lines(mail)
    attached = any(True for _ in mail.message.iter_attachments())  # a turn file's subject is no `stop`
    if is_stop(own, "" if attached else mail.subject):
        return handle_stop(gd, postman, mail, proof)
    watched = watch_command(gd, postman, mail, proof, own, who)
    if watched is not None:
        return watched
    talked = table_talk(gd, postman, mail, proof)
    if talked is None:
        return handle_mail(gd, postman, mail, who)
    line, only = talked
    return line if only else f"{handle_mail(gd, postman, mail, who)} (and {line.split(': ', 1)[1]})"


def handle_mail(gd: GamesDir, postman: Postman, mail: Incoming, who: Sender) -> str:
    """One player's mail: queue its orders and acknowledge them, answer its command, or say what was
    wrong. A mail with its sender's reply key needs no token: its own lines are its orders or its
    command. No token the mail holds reaches the answer, the line returned (the console and the commit
    message) or an error raised from here. An error names the lines of the player's own mail or order
    block, never those of a turn file pbem built from them."""

    hidden = tokens_in(mail)
    try:
        if mail.doubt:  # whom the mail comes from is not clear: it is answered as a stranger's
            told = reply(postman, mail, "common/stranger.txt.j2", hidden=hidden, open_games=open_lines(gd), who=who)
            return f"mail from {mail.sender}: refused as a stranger's: {mail.doubt}" + NOT_TOLD * (not told)
        keys = keyring(postman.config)
        proof = who.proof  # who sent it, decided once: every act below asks `allows`
        proven = proof.key
        lines: list[str] = []  # his own lines, when a proven reply has no marker lines or turn file
        command = None
        if proven is not None:
            lines = own_lines(mail)
            command = command_in(lines)
        if command is None:
            said = lobby_command(gd, postman, mail, who, lines if proven is not None else own_lines(mail))
            if said is not None:
                return said
        turnfile = None
        try:
            check_seat_plays(gd, proof)  # a seat its player resigned from takes nothing from him
            if proven is not None and command is not None:
                check_command_allowed(proof, command)
                return answer(gd, postman, mail, proven, command, hidden, who)
            turnfile, data = orders_in(mail, proven)  # data: the bytes to submit, naming the player's own lines
            if proven is not None:
                check_orders_allowed(proof, turnfile)
                also = mentions_command(lines)
                if also:
                    raise TurnFileError(refuse("command-alone", command=also))
            done = submit(gd, data, source=f"mail {mail.message_id}", sender=mail.sender,
                          proven=(proven.game, proven.player) if proven is not None else None)
        except AuthError:
            if not who.seats:  # a player writing from another address than his seat's: where to write from
                told = no_seat(gd, postman, mail, who, hidden)
            else:
                told = reply(postman, mail, "common/stranger.txt.j2", hidden=hidden, open_games=open_lines(gd),
                             who=who)
            return f"mail from {mail.sender}: refused (not a player's address with his token)" + NOT_TOLD * (not told)
        except PbemError as exc:
            seat = (proven.state, proven.player) if proven is not None else sender_seat(gd, mail, turnfile, who.seats)
            if keys is not None and proven is None and isinstance(exc, NoOrders) and not hidden:
                return_to = seat or who.first  # a fresh mail of a player: his games, and how to reply
                lang = seat_language(postman.config, return_to)
                zone = timezone_of(*return_to, postman.config) if return_to else None
                plays = games_lines(gd, mail.sender, lang, zone, who)
                if plays:
                    return answer_games(postman, mail, plays, hidden, seat, lang=lang, who=who,
                                        once_a_day=not proof.address)  # nothing proves it his: as a stranger's
            if seat is None and not who.seats and (mail_thread(mail) is not None or turnfile is not None):
                # a mail about a game, from an address that plays none: where to write from
                told = no_seat(gd, postman, mail, who, hidden)
                return f"mail from {mail.sender}: refused: this address plays no game here" + NOT_TOLD * (not told)
            if seat is not None:
                hidden += game_tokens_in(mail, seat[0])
            # no token and no folder of the host in a mail: taken out of each value, the refusal keeps its id
            message = mapped(exc.refusal, lambda text: without_paths(hide_tokens(text, hidden), gd))
            if proven is not None and (lines or reads_as_lines(mail)):  # his order alone: what he may send now
                state = gd.load(proven.game)
                lang = language_of(state, proven.player, postman.config)
                context = help_context(state, proven.player, lang)
                told = reply(postman, mail, "common/reply-refused.txt.j2", seat=(state, proven.player),
                             hidden=hidden, message=refusal_text(message, lang, state["ruleset"]),
                             legal=context["legal"], game=proven.game, turn=context["turn"], move=context["move"])
            else:
                # the frame and the refusal in one language: the seat's, else the one the sender reads
                lang = seat_language(postman.config, seat) if seat is not None else who.language
                game = seat[0]["ruleset"] if seat is not None else None
                told = reply(postman, mail, "common/mail-error.txt.j2", seat=seat, hidden=hidden, who=who, lang=lang,
                             message=refusal_text(message, lang, game),
                             example=[localize(line, game, lang) for line in example_orders(seat, lang)])
            return f"mail from {mail.sender}: refused: {message.splitlines()[0]}" + NOT_TOLD * (not told)
        state = gd.load(done.game)
        # the ack names the turn after these orders: a reply to it gives the player's next ones (orders
        # sent ahead, standing orders and reports alone answer no turn: it names the turn as it is)
        together: list[str] = []  # a decision of several players: those whose orders it still waits for
        if isinstance(done.turn, int) and done.orders:
            try:
                state, _ = apply_orders(dict(state, status="active") if state["status"] == "paused" else state,
                                        done.player, done.turn, done.orders)
            except PbemError:
                pass
            else:
                if state["engine"]["turn"] == done.turn and state["status"] != "finished":
                    together = [p for p in waiting_for(state) if p != done.player]
        seat = (state, done.player)
        lang, game = language_of(state, done.player, postman.config), state["ruleset"]
        orders = [hide_tokens(order_text(o), hidden) for o in done.orders]
        standing = None if done.standing is None else [order_text(o) for o in done.standing]
        reply(postman, mail, "common/ack.txt.j2", seat=seat, hidden=hidden, game=done.game, turn=done.turn,
              orders=[localize(o, game, lang) for o in orders], replaced=done.replaced, paused=done.paused,
              standing=None if standing is None else [localize(o, game, lang) for o in standing],
              reports=done.reports, passed=[hide_tokens(line, hidden) for line in getattr(data, "passed", [])],
              together=together)
        what = [f"queued {', '.join(orders)}"] if orders else []
        what += [] if standing is None else [f"standing orders {'; '.join(standing) or 'cleared'}"]
        what += [] if done.reports is None else [f"reports {done.reports}"]
        return f"mail from {mail.sender}: {done.game} {describe_turn(done.turn)}: {'; '.join(what)}"
    except Exception as exc:  # the caller reports it: without the tokens
        raise scrub(exc, hidden) from None


NOT_TOLD = " (not answered: an address that plays no game here hears from pbem once a day)"


def lobby_command(gd: GamesDir, postman: Postman, mail: Incoming, who: Sender,
                  lines: list[str]) -> str | None:
    """Carry out a lobby command (join, leave, new ... with, accept, decline, withdraw, rematch) or the
    `games` of a mail that proves no seat; the run's line, or None when the mail gives none. An
    answer to an invitation counts only in a reply to it: in a seat's reply it is an order of his game."""
    from pbem.lobby import LobbyError
    from pbem.mail.lobby import ANSWERS, CALLED_OFF, AnswerUnclear, Command, CommandError, answer_in, parse, \
        subject_language
    from pbem.mail.lobby_keys import gone_games

    proof = who.proof
    proven = proof.key
    gone = gone_games(gd, postman.config, mail) if proven is None and not proof.lobby and \
        not (lines and _command_word(lines[0]) in ("games", "standings", "help")) else []

    def called_off() -> str:  # an answer to an invitation whose game has ended unstarted: nothing is left to answer
        return handle_lobby(gd, postman, mail, Command("unknown", game=gone[0], words=" ".join(lines[:1])), proof,
                            now_moment(), refusal=LobbyError(CALLED_OFF, game=gone[0]), who=who,
                            lang=subject_language(mail.subject))

    try:
        command = parse(lines, "" if lines or proven is not None else mail.subject)
    except CommandError as exc:
        if gone:
            return called_off()
        first = lines[0].split()[0].casefold() if lines and lines[0].split() else ""
        if proven is not None and first not in ("new", "neu", "neues", "nieuw", "rematch", "revanche"):
            return None  # in a seat's reply, a line that is no lobby command is an order of his game
        return handle_lobby(gd, postman, mail, Command("unknown", words=" ".join(lines[:1])), proof, now_moment(),
                            refusal=exc, who=who)
    if gone and (command is None or command.verb in ANSWERS):  # a new command in that thread is read as one
        return called_off()
    asks = _command_word(lines[0]) if len(lines) == 1 else None  # `games`, `standings`: they only read
    if command is None and proven is None and proof.lobby and asks not in ("games", "standings", "help"):
        # a reply to an invitation in words of his own: `Yes, gladly!`, `Nein danke`
        command = answer_in(lines or [mail.subject])
        if command is None:
            return handle_lobby(gd, postman, mail, Command("unknown", words=" ".join(lines[:1])), proof, now_moment(),
                                refusal=AnswerUnclear(), who=who)
    if command is None:
        if proven is None and asks == "games":
            return answer_stranger_games(gd, postman, mail, who)
        if proven is None and asks == "help" and (mail_thread(mail) is None or who.seats):
            # (a reply to a game's mail from an address with no seat is told where to write from instead)
            return answer_stranger_help(gd, postman, mail, who, lines[0])
        if proven is None and asks == "standings":
            from pbem.mail.standings import answer_standings, word_language

            seat = who.first
            lang = word_language(lines[0]) or seat_language(postman.config, seat)
            told = answer_standings(gd, postman, mail, seat, [], lang, who=who)
            return f"mail from {mail.sender}: answered 'standings'" + NOT_TOLD * (not told)
        return None
    if command.verb in ANSWERS and proven is not None and not proof.lobby:
        return None
    return handle_lobby(gd, postman, mail, command, proof, now_moment(), who=who)


def _command_word(line: str) -> str | None:
    from pbem.mail.commands import _word

    return _word(line)


def answer_stranger_help(gd: GamesDir, postman: Postman, mail: Incoming, who: Sender, line: str) -> str:
    """`help` from a mail that proves no seat (a stranger, a seat of a game not begun): what he may
    write to this address, and the open games, in the language of his word (`hilfe`: German)."""
    from pbem.mail.standings import word_language

    lang = word_language(line) or who.language
    told = reply(postman, mail, "common/lobby-help.txt.j2", lang=lang, open_games=open_lines(gd),
                 once_a_day=not who.proof.address, who=who, message_id=lobby_answer_id(postman.config, mail, "help"))
    return f"mail from {mail.sender}: answered 'help' with the lobby's commands" + NOT_TOLD * (not told)


def answer_stranger_games(gd: GamesDir, postman: Postman, mail: Incoming, who: Sender) -> str:
    """`games` from a mail that proves no seat: the sender's games (as a fresh mail of a player gets
    them) and the open games; answered at most once a day unless a key or token proves his address."""
    seat = who.first
    lang = who.language
    plays = games_lines(gd, mail.sender, lang, timezone_of(*seat, postman.config) if seat else None, who)
    told = reply(postman, mail, "common/cmd-games.txt.j2", seat=None if seat is None else seat, games=plays,
                 lang=lang, intro=None, open_games=open_lines(gd), once_a_day=not who.proof.address,
                 waiting_games=list(who.waiting), who=who)
    return f"mail from {mail.sender}: answered with the player's games ({len(plays)}) and the open games" \
        + NOT_TOLD * (not told)


def answer(gd: GamesDir, postman: Postman, mail: Incoming, proven: Proven, command: str,
           hidden: list[str], who: Sender) -> str:
    """Answer a mail command by mail, to the player alone, in his language; none changes the game
    (`language XX` queues his choice, which this run applies to his seat)."""
    from pbem.report import render_report

    config = postman.config
    state, player = gd.load(proven.game), proven.player
    seat = (state, player)
    lang, zone = language_of(state, player, config), timezone_of(state, player, config)
    line = f"mail from {mail.sender}: {proven.game}: answered '{command}'"
    if command == "help":
        reply(postman, mail, "common/cmd-help.txt.j2", seat=seat, hidden=hidden, talk=table_of(gd, proven.game)["talk"],
              **help_context(state, player, lang))
    elif command == "status":
        report = render_report(state, player, [], config.reply_keys, lang, zone)
        picture = board_picture(state, player, lang) if config.pictures else None
        moves = phone_moves(state, player, lang) if picture is not None else None
        reply(postman, mail, "common/cmd-status.txt.j2", seat=seat, hidden=hidden, picture=picture, moves=moves,
              report=report)
    elif command == "games":
        return answer_games(postman, mail, games_lines(gd, mail.sender, lang, zone, who), hidden, seat, intro=None,
                            who=who)
    elif command == "standing":
        reply(postman, mail, "common/cmd-standing.txt.j2", seat=seat, hidden=hidden,
              **standing_context(state, player, lang))
    elif command.startswith("away ") or command == "back":
        from pbem.mail.absence import answer_absence

        line += answer_absence(gd, postman, mail, seat, hidden, lang, command, who)
    elif command == "standings":
        from pbem.mail.standings import answer_standings

        answer_standings(gd, postman, mail, seat, hidden, lang, who=who)
    elif command == "undo":
        withdrawn = withdraw(gd, state, player, lang)
        reply(postman, mail, "common/cmd-undo.txt.j2", seat=seat, hidden=hidden, game=proven.game,
              withdrawn=withdrawn)
        line += f" (withdrew {len(withdrawn)})"
    elif command.startswith("language "):
        asked = command.split(" ", 1)[1]
        known = asked in dict(language_choices())
        if known:
            choose_language(gd, state, player, asked, mail.message_id)
            line += f" (queued language {asked})"
        reply(postman, mail, "common/cmd-language.txt.j2", seat=seat, hidden=hidden, lang=asked if known else lang,
              known=known, asked=asked, game=proven.game, choices=language_choices())
    return line


def choose_language(gd: GamesDir, state: dict[str, Any], player: str, lang: str, message_id: str) -> None:
    """A player's `language XX`, queued as his orders are: the run that read it applies it to his seat,
    saves and commits the state as it does every change, and writes his next mail in it. (The state
    has one writer, the batch; the queue is what survives a run that dies before its commit.)"""
    from pbem.game import now

    gd.enqueue(state["game"], {"player": player, "turn": None, "received": now(),
                               "source": f"mail {message_id}", "language": lang})


HOW_TO_REPLY = N_("Your mail names no game and carries no orders pbem can read. To play, reply to the latest "
                  "mail of your game with your order alone on a line.")


def answer_games(postman: Postman, mail: Incoming, plays: list[dict[str, str]], hidden: list[str],
                 seat: tuple[dict[str, Any], str] | None, intro: str | None = HOW_TO_REPLY,
                 lang: str | None = None, once_a_day: bool = False, who: Sender | None = None) -> str:
    """The `games` answer: the sender's games on this host (also what a fresh mail of his gets, once
    a day: `once_a_day`). `who`: the sender, looked up already (his places in the lobby)."""
    from pbem.mail.readers import lobby_seats

    lang = lang or seat_language(postman.config, seat)
    gd = GamesDir(postman.config.root)
    waiting = list(who.waiting) if who is not None else lobby_seats(gd, mail.sender)
    told = reply(postman, mail, "common/cmd-games.txt.j2", seat=seat, hidden=hidden, games=plays, lang=lang,
                 intro=translator(lang).gettext(intro) if intro else intro,
                 open_games=open_lines(gd), waiting_games=waiting, once_a_day=once_a_day, who=who)
    return f"mail from {mail.sender}: answered with the player's games ({len(plays)})" + NOT_TOLD * (not told)


def no_seat(gd: GamesDir, postman: Postman, mail: Incoming, who: Sender, hidden: list[str]) -> bool:
    """Answer a mail about a game from an address that holds no seat here (a player writing from
    another address than the one he was invited with: a token or key from it proves nothing): this
    address plays no game here; write from that one, or ask the GM to change it. It never names the
    address a seat has. Answered once a day at most, as any mail nothing proves (False: not now)."""
    return reply(postman, mail, "common/no-seat.txt.j2", hidden=hidden, open_games=open_lines(gd), who=who)


def preview_inbox(gd: GamesDir, config: Config, mine: Callable[[str | None], bool] = lambda game: True) -> list[str]:
    """What a run would do with each mail waiting in the inbox, one line a mail (for `pbem advance
    --dry-run`; with `mine`, only the mail `read_inbox` would take). Nothing changes: no mail is marked
    seen, moved or flagged, nothing is queued or posted. Like a run's lines, these show no token."""
    from pbem.mail.addresses import reading_only

    with reading_only():
        return _preview_inbox(gd, config, mine)


def _preview_inbox(gd: GamesDir, config: Config, mine: Callable[[str | None], bool]) -> list[str]:
    lines: list[str] = []
    seen = seen_ids(gd)
    guard = Guard(gd)  # counted as the run counts, never saved
    about: str | None = None

    def add(line: str) -> None:  # as a run's line: the game first
        lines.append(f"{about}: {line}" if about else line)

    for key, raw in peek_inbox(config):
        if len(raw) > config.max_mail_bytes:
            if mine(None):
                lines.append(f"mail {key}: would be set aside: {len(raw)} bytes, over the limit of "
                             f"{config.max_mail_bytes}")
            continue
        try:
            mail = read_mail(raw)
        except Exception as exc:  # mail the email package cannot read at all
            if mine(None):
                lines.append(f"mail {key}: would be set aside: it cannot be read ({type(exc).__name__})")
            continue
        about = game_of(mail)
        if not mine(about):
            continue
        if mail.message_id in seen:
            add(f"mail {mail.message_id}: read before; would be taken out of the inbox")
            continue
        seen.add(mail.message_id)
        why = unfit(mail, config)
        who = None
        if why is None:
            try:
                who = lookup(gd, config, mail)
            except Exception as exc:  # as a run would: set aside
                why = f"it could not be handled ({type(exc).__name__}: {scrub(exc, tokens_in(mail))})"
        if why is None and who is not None:
            why = guard.why(who, mail)
        if why or who is None:
            add(f"mail from {shown_address(mail.sender) or '?'}: would be set aside: {why}")
            continue
        line = _preview_mail(gd, config, mail, who)
        add(line)
        guard.note(who, mail, refused=WOULD_REFUSE.match(line) is not None)
    return [visible(line) for line in lines]


WOULD_REFUSE = re.compile(r"mail from [^:]*: would be refused")


def _preview_mail(gd: GamesDir, config: Config, mail: Incoming, who: Sender) -> str:
    """What a run would do with one mail that the guard lets through: its line."""
    if mail.doubt:
        return f"mail from {mail.sender}: would be refused as a stranger's: {mail.doubt}"
    hidden = tokens_in(mail)
    turnfile = None
    proof = who.proof
    proven = proof.key
    said = preview_table(gd, config, mail, proof)
    if said is not None:
        return said
    if proven is not None and command_in(own_lines(mail)):
        command = command_in(own_lines(mail)) or ""
        try:
            check_seat_plays(gd, proof)
            check_command_allowed(proof, command)
        except PbemError as exc:
            return f"mail from {mail.sender}: would be refused: {exc}"
        return f"mail from {mail.sender}: {proven.game}: would answer '{command}'"
    said = preview_lobby(gd, config, mail, proof)
    if said is not None:
        return said
    try:
        turnfile, data = orders_in(mail, proven)
        if proven is not None:
            check_orders_allowed(proof, turnfile)
        done, _ = check_submission(gd, data, mail.sender,
                                   proven=(proven.game, proven.player) if proven is not None else None)
    except AuthError:
        return f"mail from {mail.sender}: would be refused (not a player's address with his token)"
    except PbemError as exc:
        seat = (proven.state, proven.player) if proven is not None else sender_seat(gd, mail, turnfile, who.seats)
        if keyring(config) is not None and proven is None and isinstance(exc, NoOrders) and not hidden \
                and (seat or who.first):
            return f"mail from {mail.sender}: would answer with the player's games"
        if seat is None and not who.seats and (mail_thread(mail) is not None or turnfile is not None):
            return f"mail from {mail.sender}: would be refused: this address plays no game here"
        secrets = hidden + (game_tokens_in(mail, seat[0]) if seat is not None else [])
        return f"mail from {mail.sender}: would be refused: {hide_tokens(str(exc), secrets).splitlines()[0]}"
    except Exception as exc:  # as a run would: set aside, the error shown without tokens
        return f"mail from {mail.sender}: would be set aside: it could not be handled " \
            f"({type(exc).__name__}: {hide_tokens(str(exc), hidden)})"
    orders = ", ".join(hide_tokens(order_text(o), hidden) for o in done.orders)
    what = [f"would queue {orders}"] if orders else []
    if done.standing is not None:
        what.append(f"would set standing orders {'; '.join(order_text(o) for o in done.standing) or '(none)'}")
    if done.reports is not None:
        what.append(f"would set reports {done.reports}")
    also = " (replacing the orders queued before)" if done.replaced else ""
    return f"mail from {mail.sender}: {done.game} {describe_turn(done.turn)}: {'; '.join(what)}{also}"


def preview_table(gd: GamesDir, config: Config, mail: Incoming, proof: Proof) -> str | None:
    """What a run would do with a mail's `stop`, `watch`/`unwatch` or table talk, if it gives one."""
    from pbem.donotmail import is_stop
    from pbem.mail.observers import COMMAND
    from pbem.mail.proof import TALK
    from pbem.mail.talk import talk_lines

    own = own_lines(mail)
    if is_stop(own, mail.subject):
        return f"mail from {mail.sender}: would carry out 'stop' (a player is asked to confirm the resignation)"
    if len(own) == 1 and COMMAND.match(own[0].strip()):
        return f"mail from {mail.sender}: would carry out '{own[0].strip()}'"
    if proof.seat is not None and allows(proof, TALK) and talk_lines(mail)[0]:
        return f"mail from {mail.sender}: {proof.seat.game}: would pass on table talk" + \
            (" (and read the rest of the mail)" if talk_lines(mail)[1] else "")
    return None


def preview_lobby(gd: GamesDir, config: Config, mail: Incoming, proof: Proof) -> str | None:
    """What a run would do with a mail's lobby command, if it gives one (see `lobby_command`)."""
    from pbem.mail.lobby import ANSWERS, CommandError, parse

    proven = proof.key
    own = own_lines(mail)
    try:
        command = parse(own, "" if own or proven is not None else mail.subject)
    except CommandError as exc:
        return f"mail from {mail.sender}: would be refused: {exc}"
    if command is None or command.verb in ANSWERS and proven is not None and not proof.lobby:
        return None
    if command.verb == "join" and not allows(proof, LOBBY) and (command.game or "") not in proof.lobby:
        return f"mail from {mail.sender}: would ask to confirm '{command.words}' by a reply"
    if command.verb not in ("join", *ANSWERS) and not allows(proof, LOBBY):
        return f"mail from {mail.sender}: would be refused: '{command.words}' counts only in a reply to a mail pbem sent"
    return f"mail from {mail.sender}: would carry out '{command.words}'"


def close_inbox(intake: Intake) -> None:
    if intake.inbox is not None:
        intake.inbox.close()


def finish_intake(intake: Intake, keep: Collection[str] = ()) -> None:
    """After the commit: take the handled mail out of the inbox, but for the mail of the games in
    `keep` (their run did not commit: that mail stays, read before, until a run commits them)."""
    if intake.inbox is None:
        return
    try:
        for key, aside, game, line in intake.handled:
            if game is not None and game in keep:
                if line is not None:
                    intake.lines[line] = intake.lines[line].removesuffix("; taken out of the inbox") \
                        + f" (the mail stays in the inbox until {game} is committed)"
                continue
            crash_point("file-mail")
            intake.inbox.done(key, aside)
    finally:
        intake.inbox.close()
