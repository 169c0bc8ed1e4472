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

from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from pbem import digests
from pbem.errors import PbemError, StoreError
from pbem.hostfail import HostFailure
from pbem.game import NEXT, copy_game, describe_turn, play_queue, waiting_for
from pbem import refusals
from pbem.rules.base import Event, order_text
from pbem.config import Config, load_config
from pbem.gamestate import resigned_seats
from pbem.reporting import readers_config, write_reports
from pbem.mail.boxes import SAFE_NAME, Postman, held_back, inbox_empty, inbox_exists
from pbem.gm import deadline_actions, parse_now
from pbem.store import (PUBLIC_FILE, STATE_FILE, CommitBatch, GamesDir, crash_point, become_worker, private_folder,
                        queue_slot, write_atomic)


class Outcome:  # not a dataclass: one costs its module's import ~3M instructions, compiling its methods
    """What one run did to one game."""

    def __init__(self, game: str, error: str | None = None) -> None:
        self.game = game
        self.applied: list[str] = []
        self.refused: list[str] = []
        self.reports: list[Path] = []
        self.committed = False
        self.error = error
        self.finished = False
        self.substitutes: list[str] = []
        self.reminded: list[str] = []
        self.overdue: list[str] = []  # their deadline passed under `wait`: the game needs the GM
        self.pending: tuple[str, list[str]] | None = None  # a deferred commit: its message and the files written
        self.dequeue: list[Path] = []  # queue files the run clears after its one sync

    def __repr__(self) -> str:
        return f"Outcome({self.game!r}, {self.summary()!r})"

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
        if self.overdue:
            parts.append(f"{', '.join(self.overdue)} missed the deadline: the game waits for the GM (policy: wait; "
                         f"`pbem set`, `pbem replace` or `pbem pause` decides)")
        if self.finished:
            parts.append("the game is over")
        return f"{self.game}: {', '.join(parts) if parts else 'nothing to do'}"


def refuse(gd: GamesDir, state: dict[str, Any], player: str, turn: int | str | None, orders: list[Any],
           message: str, postman: Postman | None = None, standing: list[Any] | None = None) -> Path:
    """An error report for the sender alone; the game is not touched (only his report counter)."""
    from pbem.i18n import language_of
    from pbem.mail.post import post_report
    from pbem.report import render_error

    seq = state["reports_sent"][player] + 1
    state["reports_sent"][player] = seq
    config = readers_config(gd, postman)
    text = render_error(state, player, turn, orders, message, standing, language_of(state, player, config))
    if postman is not None:
        post_report(postman, state, player, seq, text, "refused")
    number = turn if isinstance(turn, int) else state["engine"]["turn"]
    return gd.write_report(state["game"], player, f"{seq:04d}-refused-turn-{number:04d}.txt", text)


def commit_message(state: dict[str, Any], first_turn: int, events: list[Event], outcome: Outcome) -> str:
    from pbem.report import event_lines, public

    game = state["game"]
    last = state["engine"]["turn"]
    head = f"{game}: turn {first_turn}" + (f"-{last - 1}" if last - 1 > first_turn else "")
    if outcome.applied:
        head += f": orders of {', '.join(dict.fromkeys(a.split(' ')[0] for a in outcome.applied))}"
    if outcome.substitutes:
        head += f"; substitute moves for {', '.join(dict.fromkeys(a.split(' ')[0] for a in outcome.substitutes))}"
    if outcome.reminded:
        head += f"; reminded {', '.join(outcome.reminded)}"
    if outcome.overdue:
        head += f"; {', '.join(outcome.overdue)} missed the deadline, waiting for the GM"
    if outcome.finished:
        head += "; the game is over"
    lines = [head, ""]
    # the repository may be published (`pbem archive --commit-url`): what one player alone saw stays out
    lines += [f"- {line}" for line in event_lines(state["ruleset"], public(events), options=state.get("options"))]
    lines += [f"- refused: {r}" for r in outcome.refused]
    lines += [f"- reminded: {p}" for p in outcome.reminded]
    if state["status"] == "active":
        lines.append(f"Now turn {last}, waiting for {', '.join(waiting_for(state))}.")
    return "\n".join(lines) + "\n"


def already_applied(state: dict[str, Any], entry: dict[str, Any]) -> bool:
    """Queued orders a run applied and saved, then died before taking them out of the queue: the order
    log holds them, from the same player for the same turn (or sent ahead), received at the same
    moment; standing orders the state says were set at that moment. The log is read from its end, only
    as far back as the turn the orders answer (or, sent ahead, the turn they were sent at): a run never
    reads the whole history."""
    received, orders = entry.get("received"), entry.get("orders")
    if "away" in entry:  # an absence: applied if the game has it (applying it again would tell the others twice)
        return state.get("away", {}).get(entry["player"]) == entry["away"]
    if entry.get("back"):  # back: applied if no absence of his lasts beyond the moment he said so
        return state.get("away", {}).get(entry["player"], "") <= entry.get("received", "")
    if "language" in entry:  # a choice of language: applied if the seat has it (applying it again is harmless)
        return any(p["name"] == entry["player"] and p.get("language") == entry["language"] for p in state["players"])
    if orders is None:  # standing orders alone: the state names the last queue file that set them
        return state.get("standing_since", {}).get(entry["player"], "") >= entry.get("queued", "~")
    if not received or not orders:
        return False
    ahead = entry.get("turn") == NEXT
    earliest = entry.get("sent_at_turn", 1) if ahead else entry["turn"]
    log = state["log"]
    for i in range(len(log) - 1, -1, -1):
        e = log[i]
        if e["turn"] < earliest:
            return False  # the log's turns only grow: nothing earlier answers these orders
        if (e.get("by") == "premove" if ahead else e["turn"] == entry["turn"]) and e["player"] == entry["player"] \
                and e["received"] == received and not e.get("substitute"):
            run = log[i:i + len(orders)]
            if [e["order"] for e in run] == list(orders) and all(
                    e["player"] == entry["player"] and e["received"] == received and not e.get("substitute")
                    for e in run):
                return True
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
    gd.trim_history(game, state)
    if gd.public_behind(game):
        gd.write_public(game, state)
    last = gd.committed_state(game)
    if last is None:
        return gd.commit(game, f"{game}: changes an interrupted run left uncommitted\n")
    text, turn, events = last
    if text in ((gd.game_dir(game) / name).read_text("utf-8") for name in (PUBLIC_FILE, STATE_FILE)
                if (gd.game_dir(game) / name).is_file()):
        return False  # only reports and the like: this run's commit takes them
    message = commit_message(state, turn, state["events"][events:], Outcome(game))
    return gd.commit(game, message + "(committed by the next run: the run that made it did not commit)\n")


def advance_game(gd: GamesDir, game: str, postman: Postman | None = None, at: datetime | None = None,
                 dry_run: bool = False, dirty: bool = True, defer_commit: bool = False) -> Outcome:
    """Apply one game's queue, then its deadline policy; write reports, save, commit (with `dry_run`:
    only say what would happen). `dirty`: git has changes of this game that no run committed. With
    `defer_commit` (a game git had clean), the commit is left in `outcome.pending` for the run's batch."""
    outcome = Outcome(game)
    gd.written.clear()
    state = gd.load(game)
    queue = gd.queued(game) if state["status"] != "paused" else []  # a paused game keeps its queue
    if dirty and not dry_run:
        outcome.committed = commit_leftovers(gd, game, state)
    # a run died between the state file and the public one: git saw no change, the public file is behind
    behind = not dry_run and not dirty and gd.public_behind(game)
    if behind:
        gd.write_public(game, state)  # committed with this run's commit of the game
    before = copy_game(state)  # to tell whether the run changed the game (refuse() counts in place)
    known = len(state["events"])
    first_turn = state["engine"]["turn"]
    done: list[tuple[Path, str | None]] = []  # queue file, and where to keep it (None: delete)
    newest = {queue_slot(e): p for p, e in queue}  # a file a newer one replaced, left by a crash
    pending = []
    for path, entry in queue:
        entry["queued"] = path.name  # unique and in the order of arrival (it starts with the time in ns)
        if newest[queue_slot(entry)] != path or already_applied(state, entry):
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
            if entry.get("language") is not None:
                what.append(f"language {entry['language']}")
            if entry.get("away") is not None:
                what.append(f"away until {entry['away']}")
            if entry.get("back"):
                what.append("back")
            outcome.applied.append(f"{r.player} {'; '.join(what)}")
        elif r.outcome in ("refused", "dropped"):
            message = r.message if r.outcome == "refused" else refusals.refuse("sent-ahead-failed", why=r.message)
            outcome.refused.append(f"{r.player} ({describe_turn(r.turn)}): {message}")
            if not dry_run:
                outcome.reports.append(refuse(gd, state, r.player, r.turn, r.orders, message, postman,
                                              standing=entry.get("standing")))
    outcome.applied += auto
    gone = resigned_seats(gd, game) if state["status"] == "active" else []
    if gone:  # a resigned seat is played under the game's missing-player policy
        from pbem.mail.stop import play_resigned

        state, more = play_resigned(state, gone)
        outcome.substitutes += more
        if more:
            state, _, again = play_queue(state, [])
            outcome.applied += again
    if state["status"] == "active":
        state, substitutes, outcome.reminded, outcome.overdue = deadline_actions(state, at or parse_now())
        outcome.substitutes += substitutes
        if substitutes:  # standing orders may answer what comes after a substitute move
            state, _, more = play_queue(state, [])
            outcome.applied += more
    outcome.finished = state["status"] == "finished"
    if dry_run:
        return outcome
    changed = state != before
    if not changed and not done:
        left = f"{game}: changes an interrupted run left uncommitted\n"
        if dirty:  # reports and the like that a run wrote before it died
            outcome.committed = gd.commit(game, left) or outcome.committed
        elif behind and defer_commit:
            outcome.pending = (left, gd.tracked_paths(game, gd.written))
        elif behind:
            outcome.committed = gd.commit(game, left) or outcome.committed
        return outcome
    if changed:
        if outcome.reminded and postman is not None:
            from pbem.mail.post import post_reminder

            post_reminder(postman, state, outcome.reminded)
        crash_point("reports")
        outcome.reports += write_reports(gd, state, postman)
        crash_point("save")
        gd.save(game, state)
    # a game of the run's batch leaves its queue to the run, which clears every game's queue after one
    # sync for them all (see dequeue): a sync costs as much as the rest of a game's run
    grouped = defer_commit and not dirty and gd.sync_later
    if gd.sync_later and (changed or done) and not grouped:
        gd.sync()  # the queue is cleared only when what it became is durable
    import shutil

    for path, keep in done:
        if not grouped:
            crash_point("dequeue")
        if keep:  # in a batch the record is copied now, for this game's commit; the queue file goes later
            dest = gd.game_dir(game) / keep / path.name
            private_folder(dest.parent)
            (shutil.copy if grouped else shutil.move)(path, dest)  # with its mode: a player's orders, 0600
            gd.written.add(f"{game}/{keep}/{path.name}")
        if grouped:
            outcome.dequeue.append(path)
        elif not keep:
            path.unlink()
    crash_point("commit")
    message = commit_message(state, first_turn, state["events"][known:], outcome) if changed \
        else f"{game}: changes an interrupted run left uncommitted\n"
    if defer_commit and not dirty:
        outcome.pending = (message, gd.tracked_paths(game, gd.written)) if gd.written else None
        return outcome
    try:
        outcome.committed = gd.commit(game, message) or outcome.committed
    except StoreError as exc:
        if not changed:
            raise
        raise StoreError(f"{exc}; the new state is saved in {game}/{STATE_FILE} but not committed "
                         f"(the next `pbem advance` commits it)") from None
    return outcome


class Run:  # not a dataclass: one costs its module's import ~3M instructions, compiling its methods
    """What one `pbem advance` did."""

    def __init__(self) -> None:
        self.outcomes: list[Outcome] = []
        self.mail: list[str] = []
        self.sent = 0
        self.delivery = ""
        self.send_errors: list[str] = []
        self.errors: list[str] = []  # what failed besides the games (exit 1)
        self.host_failures: list[HostFailure] = []  # a mail server failed (exit: its kind's code)
        self.set_aside = 0  # mails the run set aside
        self.failing_since: str | None = None  # the first of the failing runs in a row (this one failed)
        self.alerted = False  # this run mailed the GM that the host fails

    @property
    def exit_code(self) -> int:
        """0; a host failure's code (the inbox's first); 1 for a game skipped or another error."""
        if self.host_failures:
            return self.host_failures[0].code
        return 1 if self.errors or any(o.error for o in self.outcomes) else 0


class BatchPostman(Postman):
    """The postman of a run: its mails are written as the games' files are, without an fsync each (two
    metadata writes and a wait on the disk a mail); the run syncs the file system once before the mail
    leaves the games dir or the inbox is emptied (`advance`). Delivered to files, the mails are written
    the same way and synced at once, before they are moved to mail/sent."""

    def post(self, name: str, msg: Any) -> Path:
        if not SAFE_NAME.match(name):
            raise ValueError(f"unsafe outgoing mail name {name!r}")
        from email import policy

        path = self.outgoing / f"{name}.eml"
        if held_back(self.config, msg):
            return path
        smtp = msg.policy if msg.policy.linesep == "\r\n" else policy.SMTP
        write_atomic(path, msg.as_bytes(policy=smtp), durable=False)
        return path

    def deliver(self) -> tuple[int, list[str]]:
        section = self.config.outbox
        if section["type"] != "files":
            return super().deliver()
        waiting = self.waiting()
        if not waiting:
            return 0, []
        folder = self.config.path(section.get("path", "mail/outbox"))
        errors: list[str] = []
        written = []
        try:
            private_folder(folder)
        except OSError as exc:
            return 0, [f"{folder}: {exc}"]
        for path in waiting:  # the bytes `post` wrote are the mail as sent
            try:
                write_atomic(folder / path.name, path.read_bytes(), durable=False)
            except OSError as exc:
                errors.append(f"{path.name}: {exc}")
                continue
            written.append(path)
        if written:
            sync_folder(folder)  # the mails are in the outbox for good before they leave mail/outgoing
        sent = 0
        for path in written:
            try:
                private_folder(self.sent)
                path.replace(self.sent / path.name)
            except OSError as exc:
                errors.append(f"{path.name}: {exc}")
                continue
            sent += 1
        return sent, errors


def sync_folder(folder: Path) -> None:
    """Make everything written so far on `folder`'s file system durable, in one call."""
    GamesDir(folder).sync()


def in_shard(game: str | None, shard: tuple[int, int] | None) -> bool:
    """Whether a game belongs to shard K of N (`shard` = (K, N)): by a hash of its id, so every host
    agrees without asking. Mail that names no game is the first shard's."""
    if shard is None:
        return True
    k, n = shard
    if game is None:
        return k == 1
    return int.from_bytes(digests.sha256(game.encode("utf-8")).digest()[:8], "big") % n == k - 1


LOBBY_FOLDER = "lobby"  # pbem.lobby.LOBBY_DIR, named here to look for it without loading pbem.lobby


def has_lobby(gd: GamesDir) -> bool:
    """Whether the games dir has a lobby: without one there is no game to fill or challenge to lapse,
    and a run loads neither the lobby nor the start of games."""
    return (gd.root / LOBBY_FOLDER).is_dir()


def _intake_has_work(gd: GamesDir, config: Config) -> bool:
    """Whether reading the inbox has anything to do: mail in it (an IMAP inbox may always have), or a
    challenge in the lobby whose invitations lapse now (the intake tells its players). A run with
    neither loads no mail stack, templates or pictures."""
    if not inbox_empty(config):
        return True
    if not has_lobby(gd):
        return False
    from pbem import lobby
    from pbem.clock import now_moment

    at = now_moment()
    return any(lobby.lapsed(entry, at) for entry in lobby.entries(gd))


def advance(gd: GamesDir, mail: bool = True, progress: Callable[[int, str], None] | None = None,
            jobs: int = 1, shard: tuple[int, int] | None = None) -> Run:
    """Read new mail, advance every game as far as its queued orders allow, commit, send.

    The inbox is read first and its mail taken out only after the commits, so a run that dies half
    way leaves the mail to be read again (see pbem.mail.run). Mail for a game whose run did not commit
    stays in the inbox; all other handled mail leaves it."""
    run = Run()
    with gd.lock():
        gd.ensure_repo()
        gd.sync_later = True
        config = load_config(gd.root) if mail else None
        if config is not None:
            from pbem.config import password_problem

            written = password_problem(config)
            if written:
                gd.warnings.append(written)
        postman = BatchPostman(config) if config else None
        intake = None
        if config and postman and inbox_exists(config) and _intake_has_work(gd, config):
            from pbem.mail import run as mailrun

            try:
                intake = mailrun.read_inbox(gd, config, postman, lambda game: in_shard(game, shard))
                run.mail = intake.lines
                run.set_aside = sum(1 for _, aside, _, _ in intake.handled if aside)
            except HostFailure as exc:  # the games still advance on the turn files they have
                run.host_failures.append(exc)
            except PbemError as exc:
                run.mail = [f"mail could not be read: {exc}"]
        if in_shard(None, shard) and has_lobby(gd):  # the lobby is the first shard's
            from pbem.starting import fill_open_games

            try:
                run.mail += fill_open_games(gd, config, postman, parse_now())
            except PbemError as exc:
                run.errors.append(f"the open games could not be filled with bots: {exc}")
        try:
            run.outcomes = advance_all(gd, postman, progress, jobs, shard)
            if postman is not None and not any(o.dequeue for o in run.outcomes) and postman.waiting():
                gd.sync()  # the mails posted (no queue was cleared, which syncs): durable before they leave
        except BaseException:
            if intake:
                mailrun.close_inbox(intake)  # the mail stays in the inbox, to be read again
            raise
        if intake:
            if intake.new_ids:
                gd.sync()  # the mail read is known as read (mail/seen.log) for good before it leaves the inbox
            try:  # committed: now the mail may leave the inbox, but for the games that did not commit
                mailrun.finish_intake(intake, {o.game for o in run.outcomes if o.error})
            except (PbemError, OSError) as exc:  # it stays, read before: the next run takes it out
                run.errors.append(f"the mail read could not be taken out of the inbox: {exc}")
        if postman:
            alert = _alert_before_delivery(gd, config, postman, run)
            run.delivery = postman.describe()
            crash_point("deliver")
            gd.begin_index_history()  # git indexes the run's commits while the mail is delivered
            try:
                run.sent, run.send_errors = postman.deliver()
            except PbemError as exc:
                run.send_errors = [str(exc)]
                postman.failure = exc
            if isinstance(postman.failure, HostFailure):  # said once, as the host's failure
                run.host_failures.append(postman.failure)
                run.send_errors = [e for e in run.send_errors if e != str(postman.failure)]
            auto = config is not None and config.archive.get("update") == "auto"
            before = _shown_health(gd) if auto else None
            _record_health(gd, run, alert)
            if auto:
                changed = [o.game for o in run.outcomes if o.committed]
                if changed or _shown_health(gd) != before:
                    from pbem.archive import update_archive

                    try:
                        problems = update_archive(gd, config.archive, config.path(config.archive["out"]), changed)
                    except (PbemError, OSError) as exc:
                        problems = [str(exc)]
                    run.errors += [f"the archive could not be written: {p}" for p in problems]
    from pbem.mended import told

    run.mail[:0] = [f"Warning: {line}" for line in told(gd.root)]  # first: what was found damaged, and mended
    return run


def _shown_health(gd: GamesDir) -> Any:
    """What the archive's front page shows of the last run (a run that changes it writes the page)."""
    from pbem.archive import last_run_problems

    shown = last_run_problems(gd)
    return None if shown is None else {k: v for k, v in shown.items() if k != "at"}


def _alert_before_delivery(gd: GamesDir, config: Any, postman: Postman, run: Run) -> Path | None:
    """The mail to the GM that the host has failed for an hour, posted to go out with this run's mail
    (None: none is due). Only the inbox can have failed so far: the outbox is tried by the delivery."""
    from pbem.gm import parse_now
    from pbem.hostfail import alert_due, alert_mail, failing_since

    now = parse_now()
    since, mailed, runs = failing_since(gd.root, run.host_failures, now)
    if not alert_due(since, mailed, now) or config is None or since is None:
        return None
    name = f"host-failing-{since.replace(':', '').replace('-', '')}"
    return postman.post(name, alert_mail(config, run.host_failures, since, runs))


def _record_health(gd: GamesDir, run: Run, alert: Path | None) -> None:
    """mail/last-run.json: this run's problems, and since when the host fails; a run that worked ends
    the failure (the next one counts, and mails the GM, anew). An alert the delivery did not send is
    taken back: it would arrive long after, and the next run posts it again."""
    from pbem.clock import stamp
    from pbem.gm import parse_now
    from pbem.hostfail import failing_since, last_run, write_last_run

    now = parse_now()
    since, mailed, runs = failing_since(gd.root, run.host_failures, now)
    if alert is not None:
        if alert.parent.with_name("sent").joinpath(alert.name).exists():
            mailed = run.alerted = True
        else:
            alert.unlink(missing_ok=True)
    run.failing_since = since
    record = {"at": stamp(now), "failures": [f.record() for f in run.host_failures], "failing_since": since,
              "failing_runs": runs, "mailed": mailed, "set_aside": run.set_aside,
              "games_skipped": sorted(o.game for o in run.outcomes if o.error)}
    before = last_run(gd.root)
    troubled = bool(record["failures"] or record["set_aside"] or record["games_skipped"])
    if (before is None and not troubled) or (before is not None and {**before, "at": None} == {**record, "at": None}):
        return  # a run with nothing new to say writes nothing (a healthy host has no file at all)
    try:
        write_last_run(gd.root, record)
    except OSError as exc:
        run.errors.append(f"mail/last-run.json could not be written: {exc}")


def dry_run(gd: GamesDir, shard: tuple[int, int] | None = None) -> list[str]:
    """What `pbem advance` would do now: each waiting mail, then game by game (the mail's own orders
    not counted); nothing is written, no mail is moved, marked or sent. With `shard`, only what that
    shard's run would do."""
    from pbem.mail.run import preview_inbox

    config = load_config(gd.root)
    try:  # read without marking anything seen or moving it
        lines = preview_inbox(gd, config, lambda game: in_shard(game, shard))
    except PbemError as exc:
        lines = [f"mail could not be read: {exc}"]
    for game in (g for g in gd.games() if in_shard(g, shard)):
        try:
            outcome = advance_game(gd, game, dry_run=True)
        except PbemError as exc:
            outcome = Outcome(game, error=str(exc))
        lines.append(outcome.summary())
    return [f"(dry run) {line}" for line in lines] or ["(dry run) no games"]


def advance_all(gd: GamesDir, postman: Postman | None, progress: Callable[[int, str], None] | None = None,
                jobs: int = 1, shard: tuple[int, int] | None = None) -> list[Outcome]:
    """Advance every game; `progress(games, game)` is told of each game as it is done. A game git has
    changes of (a run died) is advanced first, alone, with its own commits; the others by `jobs`
    processes, each game's commit made by this process alone, in the order of the games, through one
    `git fast-import` (see CommitBatch): the same commits whatever `jobs` is."""
    status = gd.status()
    dirty = gd.uncommitted(status)
    games = [g for g in gd.games(status) if in_shard(g, shard)]
    outcomes: dict[str, Outcome] = {}

    def tell(game: str) -> None:
        if progress is not None:
            progress(len(games), game)

    for game in (g for g in games if g in dirty):
        outcomes[game] = _advance_one(gd, game, postman, dirty=True)
        tell(game)
    clean = [g for g in games if g not in dirty]
    batch = CommitBatch(gd)
    try:
        for outcome in _advance_clean(gd, clean, postman, jobs):
            outcomes[outcome.game] = outcome
            if outcome.pending is not None:
                message, paths = outcome.pending
                try:
                    outcome.committed = batch.commit(message, paths) or outcome.committed
                except StoreError as exc:
                    outcome.error = f"{exc}; the new state is saved in {outcome.game}/{STATE_FILE} but not " \
                                    f"committed (the next `pbem advance` commits it)"
            tell(outcome.game)
        batch.finish()  # git writes the commits out meanwhile
        dequeue(gd, outcomes.values())
        batch.close()
    except StoreError as exc:  # the files are saved: the next run commits them as an interrupted run's
        for outcome in outcomes.values():
            if outcome.pending is not None and not outcome.error:
                outcome.committed = False
                outcome.error = f"{exc}; the new state is saved in {outcome.game}/{STATE_FILE} but not " \
                                f"committed (the next `pbem advance` commits it)"
    finally:
        batch.release()
    return [outcomes[g] for g in games]


def dequeue(gd: GamesDir, outcomes: Iterable[Outcome]) -> None:
    """Clear the queue files the games of a batch applied or refused, once one sync has made what
    they became durable. A run that dies before leaves them: the next run finds them applied
    (`already_applied`) or refused (`already_refused`) and clears them then."""
    paths = [path for outcome in outcomes for path in outcome.dequeue]
    if paths:
        gd.sync()
    for path in paths:
        crash_point("dequeue")
        path.unlink(missing_ok=True)


def _advance_one(gd: GamesDir, game: str, postman: Postman | None, dirty: bool, defer: bool = False) -> Outcome:
    """One game's run; an error becomes the game's outcome (one bad game never stops the batch)."""
    try:
        return advance_game(gd, game, postman, dirty=dirty, defer_commit=defer)
    except PbemError as exc:
        return Outcome(game, error=str(exc))
    except Exception as exc:  # a bug in one engine must not stop the other games
        import traceback

        where = traceback.extract_tb(exc.__traceback__)[-1]
        return Outcome(game, error=f"internal error {type(exc).__name__}: {exc} "
                                   f"(at {Path(where.filename).name}:{where.lineno})")


_worker: tuple[GamesDir, Postman | None] | None = None  # a worker process's games dir and postman


def _start_worker(root: Path, postman: Postman | None) -> None:
    global _worker
    gd = GamesDir(root)
    gd.sync_later = True
    _worker = (gd, postman)
    become_worker()


def _work(game: str) -> Outcome:
    assert _worker is not None
    gd, postman = _worker
    crash_point("worker", whole_run=False)
    return _advance_one(gd, game, postman, dirty=False, defer=True)


DIED = ("the process advancing it died (killed?); what it saved, the next `pbem advance` commits, and "
        "its queue is applied then")


def _advance_clean(gd: GamesDir, games: list[str], postman: Postman | None, jobs: int) -> Iterator[Outcome]:
    """The outcomes of games git has clean, in order, their commits deferred; `jobs` processes."""
    jobs = min(jobs, len(games) // 4)  # a process costs a fork: only for a few games each
    if jobs <= 1:
        for game in games:
            yield _advance_one(gd, game, postman, dirty=False, defer=True)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    context = multiprocessing.get_context("fork")  # the workers inherit the loaded rulesets and templates
    given = 0
    # a worker that dies (the kernel's OOM killer) breaks the pool at once, where a Pool would wait
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_start_worker,
                             initargs=(gd.root, postman)) as pool:
        try:
            # chunks of a few games: the last one keeps one worker busy while the others wait
            for outcome in pool.map(_work, games, chunksize=max(1, min(8, len(games) // (jobs * 32)))):
                given += 1
                yield outcome
        except BrokenProcessPool:
            for game in games[given:]:
                yield Outcome(game, error=DIED)
