"""The batch: for every game, apply the queued orders, write the reports, commit to git.

One broken game (a corrupt state file, a crash in its engine) is reported and skipped; it never stops
the others. Files are written in an order that makes a crash harmless: reports first (their names are
fixed by the state, so a rerun writes the same files), then the state, then the queue is cleared, then
git. A rerun after a crash finds the orders either still queued against the old state, or stale
against the new one; none is applied twice.
"""

from __future__ import annotations

import shutil
import traceback
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from pbem.errors import PbemError
from pbem.game import apply_orders, player_names, waiting_for
from pbem.report import event_lines, render_error, render_report, visible
from pbem.rules.base import Event, order_text
from pbem.config import load_config
from pbem.mailbox import Postman
from pbem.gm import deadline_actions, parse_now
from pbem.mailrun import close_inbox, finish_intake, post_reminder, post_report, read_inbox, welcome_text
from pbem.store import dump_yaml
from pbem.store import GamesDir


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


def refuse(gd: GamesDir, state: dict[str, Any], player: str, turn: int, orders: list[Any],
           message: str, postman: Postman | None = None) -> Path:
    """An error report for the sender alone; the game is not touched (only his report counter)."""
    seq = state["reports_sent"][player] + 1
    state["reports_sent"][player] = seq
    text = render_error(state, player, turn, orders, message)
    if postman is not None:
        post_report(postman, state, player, seq, text, "refused")
    return gd.write_report(state["game"], player, f"{seq:04d}-refused-turn-{turn:04d}.txt", text)


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


def advance_game(gd: GamesDir, game: str, postman: Postman | None = None, at: datetime | None = None,
                 dry_run: bool = False, dirty: bool = True) -> Outcome:
    """Apply one game's queue, then its deadline policy; write reports, save, commit (with `dry_run`:
    only say what would happen)."""
    outcome = Outcome(game)
    state = gd.load(game)
    before = dump_yaml(state)
    known = len(state["events"])
    queue = gd.queued(game) if state["status"] != "paused" else []  # a paused game keeps its queue
    first_turn = state["engine"]["turn"]
    done: list[tuple[Path, str | None]] = []  # queue file, and where to keep it (None: delete)
    for path, entry in queue:
        player, turn, orders = entry["player"], entry["turn"], entry["orders"]
        try:
            state, _ = apply_orders(state, player, turn, orders, entry.get("received"))
        except PbemError as exc:
            outcome.refused.append(f"{player} (turn {turn}): {exc}")
            if not dry_run:
                outcome.reports.append(refuse(gd, state, player, turn, orders, str(exc), postman))
            done.append((path, "rejected"))
            continue
        outcome.applied.append(f"{player} {', '.join(order_text(o) for o in orders)}")
        done.append((path, None))
    if state["status"] == "active":
        state, substitutes, outcome.reminded = deadline_actions(state, at or parse_now())
        outcome.substitutes += substitutes
    outcome.finished = state["status"] == "finished"
    if dry_run:
        return outcome
    if dump_yaml(state) == before and not done:
        if not dirty:
            return outcome
        # what a run that died before its commit left behind is committed now, described as it happened
        last = gd.committed(game)
        if last is not None and last.get("engine", {}).get("turn") != state["engine"]["turn"]:
            message = commit_message(state, last["engine"]["turn"], state["events"][len(last["events"]):], outcome)
            outcome.committed = gd.commit(game, message + "(committed by the next run: the run that made it died)\n")
        else:
            outcome.committed = gd.commit(game, f"{game}: changes an interrupted run left uncommitted\n")
        return outcome
    for player in outcome.reminded:
        if postman is not None:
            post_reminder(postman, state, player)
    outcome.reports += write_reports(gd, state, postman)
    gd.save(game, state)
    for path, keep in done:
        if keep:
            dest = gd.game_dir(game) / keep / path.name
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(path, dest)
        else:
            path.unlink()
    outcome.committed = gd.commit(game, commit_message(state, first_turn, state["events"][known:], outcome))
    return outcome


@dataclass
class Run:
    """What one `pbem advance` did."""

    outcomes: list[Outcome] = field(default_factory=list)
    mail: list[str] = field(default_factory=list)
    sent: int = 0
    delivery: str = ""
    send_errors: list[str] = field(default_factory=list)


def advance(gd: GamesDir, mail: bool = True) -> Run:
    """Read new mail, advance every game as far as its queued orders allow, commit, send.

    The inbox is read first and its mail taken out only after the commits, so a run that dies half
    way leaves the mail to be read again (see pbem.mailrun)."""
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
            run.outcomes = advance_all(gd, postman)
            if intake:
                gd.commit_paths(["mail/seen.txt"], f"mail: read {len(intake.new_ids)} new mail\n\n"
                                + "".join(f"- {line}\n" for line in intake.lines))
        except BaseException:
            if intake:
                close_inbox(intake)  # the mail stays in the inbox, to be read again
            raise
        if intake:
            if any(o.error for o in run.outcomes):
                close_inbox(intake)  # not all committed: the mail stays (seen, so never applied twice)
            else:
                finish_intake(intake)  # committed: now the mail may leave the inbox
        if postman:
            run.delivery = postman.describe()
            try:
                run.sent, run.send_errors = postman.deliver()
            except PbemError as exc:
                run.send_errors = [str(exc)]
    return run


def dry_run(gd: GamesDir) -> list[str]:
    """What `pbem advance` would do now, game by game; nothing is written, no mail is read or sent."""
    lines = []
    config = load_config(gd.root)
    if config.inbox["type"] != "imap":
        inbox = config.path(config.inbox.get("path", "mail/inbox"))
        waiting = sum(1 for _ in (inbox / "new").iterdir()) + sum(1 for _ in (inbox / "cur").iterdir()) \
            if config.inbox["type"] == "maildir" and (inbox / "new").is_dir() else None
        if waiting:
            lines.append(f"mail: {waiting} mail(s) in {inbox} would be read")
    for game in gd.games():
        try:
            outcome = advance_game(gd, game, dry_run=True)
        except PbemError as exc:
            outcome = Outcome(game, error=str(exc))
        lines.append(outcome.summary())
    return [f"(dry run) {line}" for line in lines] or ["(dry run) no games"]


def advance_all(gd: GamesDir, postman: Postman | None) -> list[Outcome]:
    outcomes = []
    dirty = gd.uncommitted()
    for game in gd.games():
        try:
            outcomes.append(advance_game(gd, game, postman, dirty=game in dirty))
        except PbemError as exc:
            outcomes.append(Outcome(game, error=str(exc)))
        except Exception as exc:  # a bug in one engine must not stop the other games
            where = traceback.extract_tb(exc.__traceback__)[-1]
            outcomes.append(Outcome(game, error=f"internal error {type(exc).__name__}: {exc} "
                                                f"(at {Path(where.filename).name}:{where.lineno})"))
    return outcomes

