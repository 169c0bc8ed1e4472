"""The batch: for every game, apply the queued orders, write the reports, commit to git.

One broken game (a corrupt state or queue file, a missing state file, a crash in its engine, a git
that fails) is reported and skipped; it never stops the others. Files are written in an order that
makes a crash harmless: reports first (their names are fixed by the state, so a rerun writes the same
files), then the state, then the queue is cleared, then git. A rerun after a crash first commits what
the dead run saved, then finds its orders either still queued against the old state, or already in
the order log (dropped without a word: they were applied), or refused already (the player has that
refusal, counted by the saved state); none is applied or refused twice. `crash_point` names the
steps, for the tests that kill a run at each of them.
"""

from __future__ import annotations

import copy
import shutil
import traceback
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from pbem.errors import PbemError, StoreError
from pbem.game import NEXT, describe_turn, play_queue, player_names, ruleset_of, waiting_for
from pbem.report import event_lines, render_error, render_report, visible
from pbem.rules.base import Event, order_text
from pbem.config import load_config
from pbem.mailbox import Postman
from pbem.gm import deadline_actions, parse_now
from pbem.mailrun import (close_inbox, finish_intake, post_reminder, post_report, preview_inbox, read_inbox,
                          welcome_text)
from pbem.store import STATE_FILE, GamesDir, crash_point


@dataclass
class Outcome:
    """What one run did to one game."""

    game: str
    applied: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    reports: list[Path] = field(default_factory=list)
    committed: bool = False
    error: str | None = None
    finished: bool = False
    substitutes: list[str] = field(default_factory=list)
    reminded: list[str] = field(default_factory=list)

    def summary(self) -> str:
        if self.error:
            error = self.error.removeprefix(f"{self.game}: ")
            return f"{self.game}: SKIPPED: {error}"
        parts = []
        if self.applied:
            parts.append(f"applied {'; '.join(self.applied)}")
        if self.refused:
            parts.append(f"refused {'; '.join(self.refused)}")
        if self.substitutes:
            parts.append(f"substitute moves: {'; '.join(self.substitutes)}")
        if self.reminded:
            parts.append(f"reminded {', '.join(self.reminded)}")
        if self.finished:
            parts.append("the game is over")
        return f"{self.game}: {', '.join(parts) if parts else 'nothing to do'}"


def write_reports(gd: GamesDir, state: dict[str, Any], postman: Postman | None = None,
                  tokens: dict[str, str] | None = None) -> list[Path]:
    """A report for every player with events he has not yet read, also posted as mail when there is a
    postman (with `tokens`: the welcome mail of a new game); updates the counters in `state`."""
    paths = []
    for player in player_names(state):
        unseen = visible(state["events"][state["reported"][player]:], player)
        if not unseen and state["reports_sent"][player]:
            continue
        if state["reports_sent"][player] and not must_hear(state, player, unseen):
            continue  # the events wait for his next mail
        seq = state["reports_sent"][player] + 1
        text = render_report(state, player, unseen)
        name = f"{seq:04d}-turn-{state['engine']['turn']:04d}.txt"
        paths.append(gd.write_report(state["game"], player, name, text))
        if postman is not None:
            if tokens:
                post_report(postman, state, player, seq, welcome_text(state, player, tokens[player], text), "welcome")
            else:
                post_report(postman, state, player, seq, text)
        state["reports_sent"][player] = seq
        state["reported"][player] = len(state["events"])
    return paths


REPORTS = ("moves", "all")  # a player's choice: mail when it matters (the default), or for every change


def must_hear(state: dict[str, Any], player: str, unseen: list[Event]) -> bool:
    """Whether `player` gets a mail now for the events he has not read: when he is to move (no standing
    order answered it), at the moments his game marks (a scoring, the end, a lot he may bid on), for
    what the GM or pbem tells him, or always if he asked for every change."""
    if state.get("reports", {}).get(player, "moves") == "all" or state["status"] != "active":
        return True
    if player in waiting_for(state) or any(e.get("pipeline") for e in unseen):
        return True
    ruleset = ruleset_of(state)
    return ruleset.mail_moment(state["engine"], player, unseen, state.get("standing", {}).get(player, []))


def refuse(gd: GamesDir, state: dict[str, Any], player: str, turn: int | str | None, orders: list[Any],
           message: str, postman: Postman | None = None, standing: list[Any] | None = None) -> Path:
    """An error report for the sender alone; the game is not touched (only his report counter)."""
    seq = state["reports_sent"][player] + 1
    state["reports_sent"][player] = seq
    text = render_error(state, player, turn, orders, message, standing)
    if postman is not None:
        post_report(postman, state, player, seq, text, "refused")
    number = turn if isinstance(turn, int) else state["engine"]["turn"]
    return gd.write_report(state["game"], player, f"{seq:04d}-refused-turn-{number:04d}.txt", text)


def commit_message(state: dict[str, Any], first_turn: int, events: list[Event], outcome: Outcome) -> str:
    game = state["game"]
    last = state["engine"]["turn"]
    head = f"{game}: turn {first_turn}" + (f"-{last - 1}" if last - 1 > first_turn else "")
    if outcome.applied:
        head += f": orders of {', '.join(dict.fromkeys(a.split(' ')[0] for a in outcome.applied))}"
    if outcome.substitutes:
        head += f"; substitute moves for {', '.join(dict.fromkeys(a.split(' ')[0] for a in outcome.substitutes))}"
    if outcome.reminded:
        head += f"; reminded {', '.join(outcome.reminded)}"
    if outcome.finished:
        head += "; the game is over"
    lines = [head, ""]
    lines += [f"- {line}" for line in event_lines(state["ruleset"], events)]
    lines += [f"- refused: {r}" for r in outcome.refused]
    lines += [f"- reminded: {p}" for p in outcome.reminded]
    if state["status"] == "active":
        lines.append(f"Now turn {last}, waiting for {', '.join(waiting_for(state))}.")
    return "\n".join(lines) + "\n"


def already_applied(state: dict[str, Any], entry: dict[str, Any]) -> bool:
    """Queued orders a run applied and saved, then died before taking them out of the queue: the order
    log holds them, from the same player for the same turn (or sent ahead), received at the same
    moment; standing orders the state says were set at that moment."""
    received, orders = entry.get("received"), entry.get("orders")
    if orders is None:  # standing orders alone: the state names the last queue file that set them
        return state.get("standing_since", {}).get(entry["player"], "") >= entry.get("queued", "~")
    if not received or not orders:
        return False
    log = state["log"]
    ahead = entry.get("turn") == NEXT
    for i, e in enumerate(log):
        if (e.get("by") == "premove" if ahead else e["turn"] == entry["turn"]) and e["player"] == entry["player"] \
                and e["received"] == received and not e.get("substitute"):
            run = log[i:i + len(orders)]
            return [e["order"] for e in run] == list(orders) and all(
                e["player"] == entry["player"] and e["received"] == received and not e.get("substitute") for e in run)
    return False


def already_refused(gd: GamesDir, state: dict[str, Any], path: Path, entry: dict[str, Any]) -> bool:
    """Queued orders a run refused and saved, then died before moving them to rejected/: the player has
    a refusal report for this turn that the saved state counts, written after the file was queued (a
    player has one queued file per turn, so it can be the refusal of no other)."""
    player, turn = entry["player"], entry.get("turn")
    if not isinstance(turn, int):
        return False  # standing orders and orders sent ahead are checked again, harmlessly
    sent = state["reports_sent"].get(player, 0)
    stamp = path.name.split("-", 1)[0]
    queued_ns = int(stamp) if stamp.isdigit() else path.stat().st_mtime_ns
    folder = gd.game_dir(state["game"]) / "reports" / player
    for report in folder.glob(f"*-refused-turn-{turn:04d}.txt") if folder.is_dir() else []:
        seq = report.name.split("-", 1)[0]
        try:
            if seq.isdigit() and int(seq) <= sent and report.stat().st_mtime_ns >= queued_ns:
                return True
        except FileNotFoundError:
            continue
    return False


def commit_leftovers(gd: GamesDir, game: str, state: dict[str, Any]) -> bool:
    """A state that a run saved but did not commit (it died, or git failed) is committed on its own,
    described as it happened, before this run changes anything."""
    last = gd.committed(game)
    if last is None or not isinstance(last.get("engine"), dict) or not isinstance(last.get("events"), list):
        return gd.commit(game, f"{game}: changes an interrupted run left uncommitted\n")
    if last == state:
        return False  # only reports and the like: this run's commit takes them
    message = commit_message(state, last["engine"].get("turn", 1), state["events"][len(last["events"]):], Outcome(game))
    return gd.commit(game, message + "(committed by the next run: the run that made it did not commit)\n")


def advance_game(gd: GamesDir, game: str, postman: Postman | None = None, at: datetime | None = None,
                 dry_run: bool = False, dirty: bool = True) -> Outcome:
    """Apply one game's queue, then its deadline policy; write reports, save, commit (with `dry_run`:
    only say what would happen). `dirty`: git has changes of this game that no run committed."""
    outcome = Outcome(game)
    state = gd.load(game)
    queue = gd.queued(game) if state["status"] != "paused" else []  # a paused game keeps its queue
    if dirty and not dry_run:
        outcome.committed = commit_leftovers(gd, game, state)
    before = copy.deepcopy(state)  # a tenth of the cost of dumping it to compare (refuse() counts in place)
    known = len(state["events"])
    first_turn = state["engine"]["turn"]
    done: list[tuple[Path, str | None]] = []  # queue file, and where to keep it (None: delete)
    newest = {(e["player"], e.get("turn")): p for p, e in queue}  # a file a newer one replaced, left by a crash
    pending = []
    for path, entry in queue:
        entry["queued"] = path.name  # unique and in the order of arrival (it starts with the time in ns)
        if newest[(entry["player"], entry.get("turn"))] != path or already_applied(state, entry):
            done.append((path, None))
        elif already_refused(gd, state, path, entry):
            done.append((path, "rejected"))
        else:
            pending.append((path, entry))
    state, results, auto = play_queue(state, pending)
    for r in results:
        if r.outcome == "held":
            continue  # orders sent ahead wait in the queue for the sender's decision
        done.append((r.key, "rejected" if r.outcome in ("refused", "dropped") else None))
        entry = dict(pending)[r.key]
        if r.outcome == "applied" and r.turn != NEXT:
            what = [", ".join(order_text(o) for o in r.orders)] if r.orders else []
            if entry.get("standing") is not None:
                what.append("standing orders")
            outcome.applied.append(f"{r.player} {'; '.join(what)}")
        elif r.outcome in ("refused", "dropped"):
            message = r.message if r.outcome == "refused" else \
                f"your orders sent ahead could not be applied when your decision came: {r.message}"
            outcome.refused.append(f"{r.player} ({describe_turn(r.turn)}): {message}")
            if not dry_run:
                outcome.reports.append(refuse(gd, state, r.player, r.turn, r.orders, message, postman,
                                              standing=entry.get("standing")))
    outcome.applied += auto
    if state["status"] == "active":
        state, substitutes, outcome.reminded = deadline_actions(state, at or parse_now())
        outcome.substitutes += substitutes
        if substitutes:  # standing orders may answer what comes after a substitute move
            state, _, more = play_queue(state, [])
            outcome.applied += more
    outcome.finished = state["status"] == "finished"
    if dry_run:
        return outcome
    changed = state != before
    if not changed and not done:
        if dirty:  # reports and the like that a run wrote before it died
            outcome.committed = gd.commit(game, f"{game}: changes an interrupted run left uncommitted\n") \
                or outcome.committed
        return outcome
    if changed:
        for player in outcome.reminded:
            if postman is not None:
                post_reminder(postman, state, player)
        crash_point("reports")
        outcome.reports += write_reports(gd, state, postman)
        crash_point("save")
        gd.save(game, state)
    for path, keep in done:
        crash_point("dequeue")
        if keep:
            dest = gd.game_dir(game) / keep / path.name
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(path, dest)
        else:
            path.unlink()
    crash_point("commit")
    message = commit_message(state, first_turn, state["events"][known:], outcome) if changed \
        else f"{game}: changes an interrupted run left uncommitted\n"
    try:
        outcome.committed = gd.commit(game, message) or outcome.committed
    except StoreError as exc:
        if not changed:
            raise
        raise StoreError(f"{exc}; the new state is saved in {game}/{STATE_FILE} but not committed "
                         f"(the next `pbem advance` commits it)") from None
    return outcome


@dataclass
class Run:
    """What one `pbem advance` did."""

    outcomes: list[Outcome] = field(default_factory=list)
    mail: list[str] = field(default_factory=list)
    sent: int = 0
    delivery: str = ""
    send_errors: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # what failed besides the games (exit 1)


def advance(gd: GamesDir, mail: bool = True, progress: Callable[[int, str], None] | None = None) -> Run:
    """Read new mail, advance every game as far as its queued orders allow, commit, send.

    The inbox is read first and its mail taken out only after the commits, so a run that dies half
    way leaves the mail to be read again (see pbem.mailrun). Mail for a game whose run did not commit
    stays in the inbox; all other handled mail leaves it."""
    run = Run()
    with gd.lock():
        gd.ensure_repo()
        config = load_config(gd.root) if mail else None
        postman = Postman(config) if config else None
        intake = None
        if config and postman:
            try:
                intake = read_inbox(gd, config, postman)
                run.mail = intake.lines
            except PbemError as exc:  # the games still advance on the turn files they have
                run.mail = [f"mail could not be read: {exc}"]
        try:
            run.outcomes = advance_all(gd, postman, progress)
            if intake and gd.root.joinpath("mail", "seen.txt").is_file():
                crash_point("commit-seen")
                try:
                    gd.commit_paths(["mail/seen.txt"], f"mail: read {len(intake.new_ids)} new mail\n\n"
                                    + "".join(f"- {line}\n" for line in intake.lines))
                except StoreError as exc:  # seen.txt is on disk, which is what counts; the next run commits it
                    run.errors.append(str(exc))
        except BaseException:
            if intake:
                close_inbox(intake)  # the mail stays in the inbox, to be read again
            raise
        if intake:
            try:  # committed: now the mail may leave the inbox, but for the games that did not commit
                finish_intake(intake, {o.game for o in run.outcomes if o.error})
            except (PbemError, OSError) as exc:  # it stays, read before: the next run takes it out
                run.errors.append(f"the mail read could not be taken out of the inbox: {exc}")
        if postman:
            run.delivery = postman.describe()
            crash_point("deliver")
            try:
                run.sent, run.send_errors = postman.deliver()
            except PbemError as exc:
                run.send_errors = [str(exc)]
    return run


def dry_run(gd: GamesDir) -> list[str]:
    """What `pbem advance` would do now: each waiting mail, then game by game (the mail's own orders
    not counted); nothing is written, no mail is moved, marked or sent."""
    config = load_config(gd.root)
    try:
        lines = preview_inbox(gd, config)  # read without marking anything seen or moving it
    except PbemError as exc:
        lines = [f"mail could not be read: {exc}"]
    for game in gd.games():
        try:
            outcome = advance_game(gd, game, dry_run=True)
        except PbemError as exc:
            outcome = Outcome(game, error=str(exc))
        lines.append(outcome.summary())
    return [f"(dry run) {line}" for line in lines] or ["(dry run) no games"]


def advance_all(gd: GamesDir, postman: Postman | None,
                progress: Callable[[int, str], None] | None = None) -> list[Outcome]:
    """Advance every game; `progress(games, game)` is told of each game as it starts."""
    outcomes = []
    dirty = gd.uncommitted()
    games = gd.games()
    for game in games:
        if progress is not None:
            progress(len(games), game)
        try:
            outcomes.append(advance_game(gd, game, postman, dirty=game in dirty))
        except PbemError as exc:
            outcomes.append(Outcome(game, error=str(exc)))
        except Exception as exc:  # a bug in one engine must not stop the other games
            where = traceback.extract_tb(exc.__traceback__)[-1]
            outcomes.append(Outcome(game, error=f"internal error {type(exc).__name__}: {exc} "
                                                f"(at {Path(where.filename).name}:{where.lineno})"))
    return outcomes

