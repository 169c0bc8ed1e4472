"""The `pbem` command: a thin shell over the library. Exit codes: 0 success, 1 a domain error (the
message says what was wrong and where), 2 a usage error; `pbem advance` has one of its own for each
way a mail server fails (pbem.hostfail.EXIT_CODES)."""

from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import click

# what every command needs, and cheap; the rest each command imports for itself, so that a command
# loads only what it uses (tests/test_command_imports.py)
from pbem import __version__, deadlines
from pbem.deadlines import POLICIES
from pbem.errors import PbemError, SetupError
from pbem.rng import STRONG_SEED

if TYPE_CHECKING:
    from pbem.store import GamesDir


class ShardType(click.ParamType):
    """K/N: this host's share of the games, shard K of N (1 <= K <= N)."""

    name = "K/N"

    def convert(self, value: Any, param: Any, ctx: Any) -> tuple[int, int]:
        k, slash, n = str(value).partition("/")
        if slash and k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n):
            return int(k), int(n)
        self.fail(f"{value!r} is not K/N with 1 <= K <= N (e.g. 1/2)", param, ctx)


SHARD = ShardType()
CREATING_COMMANDS = ("new", "init")  # the only commands that may make a folder a games dir


def find_games_dir(ctx: click.Context, given: Path) -> Path:
    """The games dir a command works in: --games-dir or $PBEM_GAMES_DIR where given; else the games dir
    the current folder lies in (itself or the nearest folder above holding pbem.yaml or pbem's
    .gitignore); else ./games."""
    from click.core import ParameterSource

    from pbem.store.gamesdir import enclosing_games_dir

    if ctx.get_parameter_source("games_dir") not in (ParameterSource.DEFAULT, None):
        return given
    try:
        here = Path.cwd()
    except OSError:  # the current folder was removed
        return given
    return enclosing_games_dir(here) or given


def permission_message(gd: GamesDir, exc: PermissionError, command: str) -> str:
    """A file pbem may not read or write, in one line with the way out."""
    from pbem.store.gitrepo import ownership_message, user_name

    where = exc.filename or gd.root
    try:
        owner = gd.root.stat().st_uid
    except OSError:
        return f"{where}: permission denied"
    if owner != os.geteuid():
        return ownership_message(gd.root, owner, os.geteuid(), command)
    try:
        holder = user_name(Path(where).stat().st_uid)
    except OSError:
        holder = "another user"
    me = user_name(os.geteuid())
    return (f"{where}: permission denied: it belongs to {holder}, not to {me} who owns the games dir (did someone "
            f"run pbem as another user?); `sudo chown -R {me}: {gd.root}` gives the games dir back to {me}")


def games_dir_option(f: Callable[..., Any]) -> Callable[..., Any]:
    """`--games-dir DIR` on every command (default: the games dir the current folder lies in, else
    ./games; or $PBEM_GAMES_DIR). Only `new` and `init` (by their command name) may create the games
    dir; every other command first refuses a folder that is not one. A games dir of another user is
    refused in one line with the way out, before anything is read. The warnings the games dir
    collected (a stale git lock removed) go to stderr."""
    @click.option("--games-dir", "games_dir", envvar="PBEM_GAMES_DIR", default="games",
                  type=click.Path(file_okay=False, path_type=Path),
                  help="The folder holding the games (a git repository of its own)  [default: the games dir "
                       "the current folder is in, else ./games]")
    @functools.wraps(f)
    def wrapper(*args: Any, games_dir: Path, **kwargs: Any) -> Any:
        from pbem.store import GamesDir

        ctx = click.get_current_context()
        gd = GamesDir(find_games_dir(ctx, games_dir), create=ctx.command.name in CREATING_COMMANDS)
        command = f"{ctx.command_path} ..."
        try:
            gd.check_owner(command)
            if not gd.create:
                gd.check()
            return f(*args, gd=gd, **kwargs)
        except PbemError as exc:
            raise click.ClickException(str(exc)) from None
        except PermissionError as exc:
            raise click.ClickException(permission_message(gd, exc, command)) from None
        finally:
            for warning in gd.warnings:
                click.echo(f"Warning: {warning}", err=True)
    return wrapper


def emit_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False))


@click.group(name="pbem", context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__)  # not read from the metadata: that costs a third of a start
def main() -> None:
    """Host board games by email: turn files in, reports out, every turn committed to git."""
    from pbem.clock import now

    try:
        now()  # a broken PBEM_NOW is one line here, not a traceback somewhere in a run
    except PbemError as exc:
        raise click.ClickException(str(exc)) from None


# -- option values: a malformed value is a usage error (exit 2), like click's own ---------------------

def _usage(parse: Callable[[str], Any]) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """A click callback that parses each value with `parse` and turns its PbemError into a usage error."""
    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if value is None:
            return None
        try:
            return [parse(v) for v in value] if isinstance(value, tuple) else parse(value)
        except PbemError as exc:
            raise click.BadParameter(str(exc), ctx, param) from None
    return callback


def _player(spec: str) -> tuple[str, str]:
    from pbem.game import parse_player

    return parse_player(spec)


def _key_value(spec: str) -> tuple[str, str]:
    key, sep, value = spec.partition("=")
    if not sep or not key:
        raise SetupError(f"{spec!r} is not KEY=VALUE")
    return key, value


def _reports_choice(spec: str) -> tuple[str, str]:
    name, _, choice = spec.partition("=")
    if not name or choice not in ("moves", "all"):
        raise SetupError(f"{spec!r} is not PLAYER=moves or PLAYER=all")
    return name, choice


def _seat_language(spec: str) -> tuple[str, str | None]:
    """`anna=de`; `anna=default` gives the seat back the host's language."""
    from pbem.i18n import check_language

    name, sep, code = spec.partition("=")
    if not sep or not name:
        raise SetupError(f"{spec!r} is not PLAYER=LANGUAGE")
    return name, None if code == "default" else check_language(code)


def _seat_timezone(spec: str) -> tuple[str, str | None]:
    """`anna=Europe/Berlin`; `anna=default` gives the seat back the host's time zone."""
    from pbem.i18n import check_timezone

    name, sep, zone = spec.partition("=")
    if not sep or not name:
        raise SetupError(f"{spec!r} is not PLAYER=TIMEZONE")
    return name, None if zone == "default" else check_timezone(zone)


def _language(code: str) -> str:
    from pbem.i18n import check_language

    return check_language(code)


def seat_settings(state: dict[str, Any], languages: list[tuple[str, str | None]],
                  zones: list[tuple[str, str | None]]) -> dict[str, Any]:
    """The game with its seats' languages and time zones set; a name that plays no seat is refused."""
    from pbem import game as games

    for key, pairs in (("language", languages), ("timezone", zones)):
        for name, value in pairs:
            seat = games.seat_of(state, name)
            if seat is None:
                raise SetupError(f"--{key} {name}=...: game {state['game']!r} has no player {name!r}")
            state = games.set_seat(state, seat, key, value)
    return state


def _duration(what: str, off: tuple[str, ...]) -> Callable[[str], str]:
    def check(text: str) -> str:
        if text.strip().lower() not in off:
            try:
                deadlines.parse_duration(text, what)
            except PbemError as exc:  # click names the option already
                raise SetupError(str(exc).removeprefix(f"{what} ")) from None
        return text
    return check


def read_deck(path: Path, ruleset: str) -> Any:
    from pbem.turnfile import load_yaml, schema_errors

    what = f"the deck file {str(path)!r}"
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SetupError(f"cannot read {what}: {exc.strerror}") from None
    value, lines = load_yaml(data, what)
    try:
        problems = schema_errors(value, f"{ruleset}.deck", lines)
    except FileNotFoundError:
        raise SetupError(f"{ruleset} does not take a deck file") from None
    if problems:
        raise SetupError(f"{what} is not valid:\n" + "\n".join(f"  - {p}" for p in problems))
    return value


def rules_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """--option KEY=VALUE, as `pbem new` and `pbem open` take it."""
    return click.option("--option", "options", multiple=True, metavar="KEY=VALUE", callback=_usage(_key_value),
                        help="A rules option, e.g. edition=amigo.")(f)


def deadline_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """--deadline, --grace and --policy of a game to be made (`pbem new`, `pbem open`)."""
    for option in reversed([
            click.option("--deadline", default=None, metavar="DURATION", callback=_usage(_duration("deadline", ())),
                         help="Time for each decision, e.g. 48h or 2d."),
            click.option("--grace", default=None, metavar="DURATION",
                         callback=_usage(_duration("grace period", ("0", "none"))),
                         help="Grace period after the deadline, e.g. 6h."),
            click.option("--policy", default=None, type=click.Choice(POLICIES),
                         help="At the deadline: wait (default), default (the most passive order) or bot.")]):
        f = option(f)
    return f


def table_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """--talk and --observers of a game to be made (`pbem new`, `pbem open`)."""
    from pbem.talk import OBSERVER_CHOICES, TALK_CHOICES

    f = click.option("--observers", default=None, type=click.Choice(OBSERVER_CHOICES),
                     help="Whether others may watch the public reports by mail ('watch GAME'); default no.")(f)
    return click.option("--talk", default=None, type=click.Choice(TALK_CHOICES),
                        help="Table talk by mail ('say: ...'): to everyone (public, the default), also to one "
                             "player (private), or none.")(f)


class SeatedCommand(click.Command):
    """A command that keeps its arguments as given, so that `--player` and `--bot` seat in the order
    they were written (click gathers each option's values apart)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["raw_args"] = list(args)
        return super().parse_args(ctx, args)


def seating(ctx: click.Context, players: list[tuple[str, str]], bots: list[str]) -> list[tuple[str, str]]:
    """Players and bots (with the bots' empty address) in the order the command line gives them."""
    from pbem.tablebots import BOT_ADDRESS

    people, robots = list(players), list(bots)
    seats: list[tuple[str, str]] = []
    raw = ctx.meta.get("raw_args", [])
    for i, arg in enumerate(raw):
        if arg == "--":
            break
        kind = arg.partition("=")[0]
        if kind in ("--player", "--bot") and (kind != arg or i + 1 < len(raw)):
            if kind == "--player" and people:
                seats.append(people.pop(0))
            elif kind == "--bot" and robots:
                seats.append((robots.pop(0), BOT_ADDRESS))
    return seats + people + [(b, BOT_ADDRESS) for b in robots]


def _bot_name(name: str) -> str:
    from pbem.names import setup_check

    return setup_check(name, "bot name")


@main.command(cls=SeatedCommand)
@click.argument("ruleset")
@click.argument("game")
@click.option("--player", "players", multiple=True, required=True, metavar="NAME=EMAIL",
              callback=_usage(_player), help="A player, in seating order; repeat for each.")
@click.option("--bot", "bots", multiple=True, metavar="NAME", callback=_usage(_bot_name),
              help="A seat the game's bot plays, in seating order among the players; repeatable.")
@rules_options
@click.option("--seed", default=None, help=f"The secret seed of the game's chance (default: a random one; "
                                            f"at least {STRONG_SEED} characters, unless --weak-seed).")
@click.option("--weak-seed", is_flag=True, help="Accept a short, guessable seed (tests, demos, replays).")
@click.option("--deck", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="A YAML file fixing the card order.")
@deadline_options
@click.option("--language", "languages", multiple=True, metavar="PLAYER=LANG", callback=_usage(_seat_language),
              help="A player's language (en, de, nl; default: pbem.yaml's language, else en); repeatable.")
@click.option("--timezone", "zones", multiple=True, metavar="PLAYER=ZONE", callback=_usage(_seat_timezone),
              help="A player's time zone, e.g. anna=Europe/Berlin (default: pbem.yaml's); repeatable.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@table_options
@games_dir_option
def new(gd: GamesDir, ruleset: str, game: str, players: list[tuple[str, str]], options: list[tuple[str, str]],
        seed: str | None, weak_seed: bool, deck: Path | None, deadline: str | None, grace: str | None,
        policy: str | None, languages: list[tuple[str, str | None]], zones: list[tuple[str, str | None]],
        as_json: bool, bots: list[str], talk: str | None, observers: str | None) -> None:
    """Start a new game of RULESET called GAME."""
    from pbem import game as games
    from pbem.config import load_config
    from pbem.rules.base import get_ruleset
    from pbem import gm
    from pbem.mail.boxes import Postman  # the mail stack and the templates: only for commands that mail
    from pbem.starting import start_game

    rules = get_ruleset(ruleset)
    opts = dict(options)
    seats = seating(click.get_current_context(), list(players), list(bots or []))
    people = [(n, e) for n, e in seats if n not in (bots or ())]
    if deadline is None and (grace is not None or policy is not None):
        raise click.UsageError("set a deadline (such as --deadline 48h) before a grace period or a policy")
    games.check_seed(seed, weak_seed)
    fixed = read_deck(deck, rules.name) if deck is not None else None
    rule = gm.deadline_rule(deadline, grace, policy) if (deadline or grace or policy) else None
    config = load_config(gd.root)
    games.check_addresses(people, config)
    postman = Postman(config)
    delivered: list[Any] = []  # the errors of the welcome mails not sent
    names = ", ".join(n + (" (bot)" if n in (bots or ()) else "") for n, _ in seats)
    state, tokens = start_game(gd, rules.name, game, seats, opts, f"{game}: new {rules.name} game for {names}", postman,
                               seed, fixed, rule, bots=list(bots or []),
                               settings=lambda state: seat_settings(state, languages or [], zones or []),
                               talk=talk, observers=observers, lock=True,
                               then=lambda: delivered.extend(postman.deliver()[1]))
    errors = delivered
    for error in errors:
        click.echo(f"Warning: a welcome mail was not sent (pbem advance retries): {error}", err=True)
    if as_json:
        emit_json({"game": game, "ruleset": rules.name,
                   "players": [{"name": n, "email": e, "token": tokens[n]} if n in tokens else {"name": n, "bot": True}
                               for n, e in seats]})
        return
    click.echo(f"New {rules.title} game {game!r} in {gd.root / game}")
    click.echo(f"Seed commitment: sha256 {state['seed_sha256']}")
    click.echo("Players and their secret tokens (shown only now; pbem keeps only a hash):")
    for n, e in seats:
        click.echo(f"  {n:<12} {e:<32} {tokens[n]}" if n in tokens else f"  {n:<12} (the bot plays this seat)")
    if state["status"] == "finished":
        click.echo("The bots played the game to its end.")
        return
    click.echo(f"Waiting for {', '.join(games.waiting_for(state))} (turn {state['engine']['turn']}).")


@main.command("open")
@click.argument("ruleset")
@click.argument("game")
@click.option("--seats", type=click.IntRange(1, 99), required=True, help="How many players the game takes.")
@rules_options
@deadline_options
@click.option("--fill-with-bots-after", "fill_after", default=None, metavar="DURATION",
              callback=_usage(_duration("time before bots fill the seats", ())),
              help="Bots take the seats still free this long after now (e.g. 48h), and the game starts.")
@table_options
@games_dir_option
def open_(gd: GamesDir, ruleset: str, game: str, seats: int, options: list[tuple[str, str]],
          deadline: str | None, grace: str | None, policy: str | None, fill_after: str | None,
          talk: str | None, observers: str | None) -> None:
    """Open a game of RULESET called GAME that players join by mail ('join GAME'); it starts when its
    seats are full, or with `pbem start`."""
    from pbem.config import load_config
    from pbem.rules.base import get_ruleset
    from pbem import gm, lobby

    rules = get_ruleset(ruleset)
    if deadline is None and (grace is not None or policy is not None):
        raise click.UsageError("set a deadline (such as --deadline 48h) before a grace period or a policy")
    rule = gm.deadline_rule(deadline, grace, policy) if (deadline or grace or policy) else None
    with gd.lock():
        gd.ensure_repo()
        entry = lobby.open_game(gd, rules.name, game, seats, dict(options), rule, gm.parse_now())
        if talk or observers:
            entry["table"] = {k: v for k, v in (("talk", talk), ("observers", observers)) if v}
        if fill_after is not None:
            from pbem.tablebots import set_fill

            set_fill(entry, deadlines.parse_duration(fill_after, "time before bots fill the seats"), gm.parse_now())
        path = lobby.save(gd, entry)
        gd.commit_paths([path], f"{game}: open {rules.name} game, {seats} seats\n")
    fill = f"; bots take the seats still free at {entry['bots_at']}" if fill_after is not None else ""
    click.echo(f"Opened {rules.title} game {game!r} with {seats} seats; players join by mailing "
               f"'join {game}' to {load_config(gd.root).gm_address}{fill}.")


@main.command()
@click.argument("game")
@games_dir_option
def start(gd: GamesDir, game: str) -> None:
    """Start the open game GAME now, with the players who have joined (at least the ruleset's
    minimum): its seed is drawn and the welcome mails go out."""
    from pbem import game as games
    from pbem.config import load_config
    from pbem import lobby
    from pbem.mail.boxes import Postman
    from pbem.starting import start_entry

    config = load_config(gd.root)
    with gd.lock():
        entry = lobby.load(gd, game)
        postman = Postman(config)
        state, _ = start_entry(gd, config, entry, postman, at_least=True)
        sent, errors = postman.deliver()
    for error in errors:
        click.echo(f"Warning: a welcome mail was not sent (pbem advance retries): {error}", err=True)
    click.echo(f"Started {games.ruleset_of(state).title} game {game!r} for "
               f"{', '.join(games.player_names(state))}; waiting for {', '.join(games.waiting_for(state))} "
               f"(turn {state['engine']['turn']}).")


@main.command()
@click.argument("turnfile", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path))
@games_dir_option
def submit(gd: GamesDir, turnfile: Path) -> None:
    """Queue a player's TURNFILE ('-' for standard input) for the next `pbem advance`."""
    from pbem import game as games

    if str(turnfile) == "-":
        data = sys.stdin.buffer.read()
    else:
        try:
            data = turnfile.read_bytes()
        except OSError as exc:
            raise PbemError(f"cannot read the turn file {str(turnfile)!r}: {exc.strerror}") from None
    with gd.lock():
        done = games.submit(gd, data)
    orders = "; ".join(games.order_text(o) for o in done.orders)
    note = " (it replaces the orders queued before)" if done.replaced else ""
    if done.orders:
        when = "for his next decision" if done.turn == games.NEXT else f"turn {done.turn}"
        click.echo(f"Queued {done.player}'s orders for {done.game}, {when}: {orders}{note}.")
    if done.standing is not None:
        standing = "; ".join(games.order_text(o) for o in done.standing) or "none (this clears them)"
        click.echo(f"Queued {done.player}'s standing orders for {done.game}: {standing}.")
    if done.reports is not None:
        click.echo(f"Queued {done.player}'s choice of reports for {done.game}: {done.reports}.")
    if done.paused:
        click.echo(f"{done.game} is paused by the GM: they are applied when it resumes.")


def _advance_help() -> str:
    from pbem.hostfail import exit_codes_help

    return ("Read new mail, apply every queued order of every game, act on deadlines, write the reports, "
            "commit to git, send.\n\n" + exit_codes_help())


@main.command(help=_advance_help())
@click.option("--dry-run", is_flag=True, help="Say what a run would do; change nothing, read and send no mail.")
@click.option("--quiet", "-q", is_flag=True, help="Print only what needs the GM (for cron).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Games advanced in parallel processes  [default: the number of cores]")
@click.option("--shard", type=SHARD, default=None, metavar="K/N",
              help="Only the games of shard K of N (by a hash of the game id), for N hosts sharing one remote.")
@games_dir_option
def advance(gd: GamesDir, dry_run: bool, quiet: bool, jobs: int | None, shard: tuple[int, int] | None) -> None:
    # the help is _advance_help's: the exit codes come from their table in pbem.hostfail
    from pbem import advance as batch

    if dry_run:
        for line in batch.dry_run(gd, shard):
            click.echo(line)
        return
    bar: Any = None

    def progress(total: int, game: str) -> None:  # a bar at a terminal, never under cron or --quiet
        nonlocal bar
        if bar is None:
            bar = click.progressbar(length=total, label="advancing", file=sys.stderr)
            bar.__enter__()
        bar.update(1)
    try:
        run = batch.advance(gd, progress=progress if sys.stderr.isatty() and not quiet else None,
                            jobs=jobs or os.cpu_count() or 1, shard=shard)
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)

    def say(text: str, err: bool = False, needed: bool = False) -> None:  # --quiet: only what needs the GM
        if err or needed or not quiet:
            click.echo(text, err=err)

    for warning in gd.warnings:  # first: what pbem mended before the run
        say(f"Warning: {warning}", err=True)
    gd.warnings.clear()
    outcomes = run.outcomes
    for line in run.mail:
        say(line, err=line.startswith("Warning: "))
    busy = [o for o in outcomes if o.error or o.summary() != f"{o.game}: nothing to do"]
    for o in busy if len(outcomes) > 1 else outcomes:  # from cron over many games: only what happened
        say(o.summary(), err=bool(o.error), needed=bool(o.overdue))
    if len(outcomes) > 1 and not busy:
        say(f"nothing to do in {len(outcomes)} games")
    if run.sent:
        say(f"{run.sent} mail{'s' if run.sent != 1 else ''} {run.delivery}.")
    for error in run.send_errors:
        say(f"Not sent (retried by the next run): {error}", err=True)
    if not outcomes:
        say(f"No games in {gd.root}.")
    if run.alerted:
        say(f"The host has failed since {run.failing_since}: the GM is mailed about it (once).", needed=True)
    broken = [o.game for o in outcomes if o.error]
    problems = ([f"{len(broken)} game{'s' if len(broken) > 1 else ''} skipped: {', '.join(broken)}"]
                if broken else []) + run.errors
    for failure in run.host_failures:  # one line each, under --quiet too: cron mails it to the GM
        click.echo(f"Error: {failure}", err=True)
    if problems and run.host_failures:
        click.echo(f"Error: {'; '.join(problems)}", err=True)
    elif problems:
        raise click.ClickException("; ".join(problems))
    if run.exit_code:
        raise click.exceptions.Exit(run.exit_code)


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@games_dir_option
def status(gd: GamesDir, as_json: bool) -> None:
    """Every game: ruleset, turn, whose move, since when."""
    from pbem import game as games
    from pbem import gm
    from pbem.absence import away_now

    rows = []
    for game in gd.games():
        try:  # a missing or corrupt state file, a corrupt queued file: the game needs the GM
            state = gd.load(game)
            queued = len(gd.queued(game))
        except PbemError as exc:
            rows.append({"game": game, "error": str(exc)})
            continue
        when = deadlines.due(state)
        away = away_now(state, gm.parse_now())
        rows.append({"game": game, "ruleset": state["ruleset"], "turn": state["engine"]["turn"],
                     "status": state["status"], "waiting_for": games.waiting_for(state),
                     "since": state["waiting_since"], "queued": queued,
                     "deadline": deadlines.describe(state), "due": deadlines.stamp(when) if when else None,
                     "needs_gm": gm.needs_gm(state, gm.parse_now()), **({"away": away} if away else {})})
    from pbem import lobby

    waiting = lobby.entries(gd)
    if as_json:
        emit_json(rows)
        return
    from pbem.hostfail import host_lines, last_run

    health = last_run(gd.root)
    failing, problems = host_lines(health)
    for line in failing:  # first: while the host fails, the games cannot hear their players
        click.echo(line)
    if failing:
        click.echo("")
    if not rows and not waiting:
        click.echo(f"No games in {gd.root}.")
        return
    click.echo(f"{'game':<16} {'ruleset':<16} {'turn':>5}  {'status':<9} {'waiting for':<24} {'since':<21} "
               f"{'due':<21} queued")
    for r in rows:
        if "error" in r:
            click.echo(f"{r['game']:<16} NEEDS THE GM: {r['error']}")
            continue
        click.echo(f"{r['game']:<16} {r['ruleset']:<16} {r['turn']:>5}  {r['status']:<9} "
                   f"{', '.join(r['waiting_for']) or '-':<24} {r['since']:<21} {r['due'] or '-':<21} {r['queued']}")
    if waiting:
        click.echo(f"\nNot begun ({len(waiting)}):")
        for entry in waiting:
            click.echo(f"  {entry['game']:<16} {entry['ruleset']:<16} {lobby.describe(entry)}")
    absent = [(r["game"], p, until) for r in rows for p, until in sorted(r.get("away", {}).items())]
    if absent:
        click.echo("\nAway (the clock of their decisions waits):")
        for game, player, until in absent:
            click.echo(f"  {game}: {player} until {until}")
    attention = [r for r in rows if r.get("error") or r.get("needs_gm")]
    if attention:
        click.echo("\nNeeds the GM:")
        for r in attention:
            click.echo(f"  {r['game']}: {r.get('needs_gm') or r.get('error')}")
    for line in problems:
        click.echo(line)


@main.command()
@click.argument("game")
@click.option("--as", "player", default=None, metavar="NAME", help="Show what this player sees.")
@click.option("--language", "language", default=None, metavar="LANG", callback=_usage(_language),
              help="Write it in this language (en, de, nl; default: the player's, else pbem.yaml's).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@games_dir_option
def show(gd: GamesDir, game: str, player: str | None, language: str | None, as_json: bool) -> None:
    """What GAME looks like now: to the GM, or `--as` a player (in his language), with the orders he
    may give."""
    from pbem import game as games
    from pbem.config import load_config

    state = games.load_checked(gd, game)
    shown = games.show(state, player)
    if as_json:
        emit_json(shown)
    else:
        from pbem.i18n import language_of, timezone_of
        from pbem.report import render_report

        config = load_config(gd.root)
        seat = games.seat_of(state, player) if player else None
        click.echo(render_report(state, seat or player, [], config.reply_keys,
                                 lang=language or language_of(state, seat, config),
                                 zone=timezone_of(state, seat, config)), nl=False)


@games_dir_option
def _verify_game(gd: GamesDir, game: str) -> None:
    from pbem import game as games

    state = games.load_checked(gd, game)
    problems = games.verify(state)
    if problems:
        raise PbemError(f"{game}: the replay does not match:\n" + "\n".join(f"  - {p}" for p in problems))
    click.echo(f"{game}: verified: {len(state['log'])} orders replay to the identical game.")


def _verify_log(path: Path) -> None:
    """`pbem verify --log FILE`: a finished game from its published log, without a games dir."""
    from pbem import archive

    try:
        check = archive.verify_log(path)
    except PbemError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"{check.game} ({check.title}): {check.orders} orders replay from the seed to the end of the game.")
    click.echo(f"The seed matches its commitment, sha256 {check.seed_sha256}.")
    click.echo("Final standings:")
    for r in check.standings:
        click.echo(f"  {r['rank']}. {r['player']:<12} {r['score']}")
    if not check.matches:
        raise click.ClickException(f"the replayed standings ({archive.standings_text(check.standings)}) are not "
                                   f"the ones the log file claims ({archive.standings_text(check.claimed)})")
    click.echo("They are the standings the log file claims.")


@main.command()
@click.argument("game", required=False)
@click.option("--log", "log_file", type=click.Path(dir_okay=False, path_type=Path), default=None, metavar="FILE",
              help="Check a finished game from its published log (game.yaml of `pbem archive`); no games dir needed.")
@click.option("--games-dir", "games_dir", envvar="PBEM_GAMES_DIR", default="games",
              type=click.Path(file_okay=False, path_type=Path),
              help="The folder holding the games (a git repository of its own)  [default: the games dir the "
                   "current folder is in, else ./games]")
def verify(game: str | None, log_file: Path | None, games_dir: Path) -> None:
    """Replay GAME from its seed and order log; exit 0 only if the result is identical. With --log FILE:
    replay a published finished game and compare its standings with those the file claims."""
    if log_file is not None:
        if game is not None:
            raise click.UsageError("give GAME or --log FILE, not both")
        _verify_log(log_file)
        return
    if game is None:
        raise click.UsageError("Missing argument 'GAME' (or --log FILE).")
    _verify_game(game=game, games_dir=games_dir)


@main.command()
@click.argument("games_", metavar="[GAME]...", nargs=-1)
@click.option("--out", "out", required=True, type=click.Path(path_type=Path), metavar="DIR",
              help="The folder to write the web site to (made if missing; its archive files are rewritten).")
@click.option("--commit-url", default=None, metavar="URL",
              help="Link each turn to its commit: a URL with {commit} for the commit id.")
@click.option("--language", "language", default="en", show_default=True, metavar="LANG",
              help="The language of the pages, the boards and what happened (en, de, nl).")
@games_dir_option
def archive(gd: GamesDir, games_: tuple[str, ...], out: Path, commit_url: str | None, language: str) -> None:
    """Write a static web site of GAME... (default: every game) to DIR: a page per turn with the board,
    what happened and the git commit. Active games show what every player may see; finished games
    everything, with the seed and the order log for `pbem verify --log`."""
    from pbem.archive import write_archive

    if commit_url is not None and "{commit}" not in commit_url:
        raise click.BadParameter("must contain {commit}, where the commit id goes", param_hint="'--commit-url'")
    from pbem.i18n import check_language

    check_language(language)
    done, problems = write_archive(gd, list(dict.fromkeys(games_)) or None, out, commit_url, language)
    for a in done:
        what = "finished: everything, the seed and the order log" if a.finished else \
            "only what every player may see"
        click.echo(f"{a.game}: {a.pages} turn page{'s' if a.pages != 1 else ''} ({what})")
    if not done and not problems:
        click.echo(f"No games in {gd.root}.")
    click.echo(f"Wrote {out / 'index.html'}")
    if problems:
        raise PbemError(f"{len(problems)} game{'s' if len(problems) > 1 else ''} not archived:\n"
                        + "\n".join(f"  - {p}" for p in problems))


def _provider_choices() -> list[str]:
    from pbem.providers import BY_KEY

    return [*BY_KEY, "local"]


@main.command()
@click.option("--address", "--gm-address", "address", default=None, metavar="ADDRESS",
              help="The GM's mail address: players write to it, pbem sends from it [default without "
                   "--provider: gm@example.org].")
@click.option("--name", "gm_name", default=None, help="The GM's name in mail  [default: Game Master]")
@click.option("--provider", default=None, type=click.Choice(_provider_choices(), case_sensitive=False),
              help="The mail provider, whose servers pbem knows; own: your own server (give --imap-host and "
                   "--smtp-host); local (the default without asking): a Maildir in, .eml files out.")
@click.option("--imap-host", default=None, help="The IMAP server, instead of the provider's.")
@click.option("--imap-port", default=None, type=click.IntRange(1, 65535), help="Its port.")
@click.option("--imap-security", default=None, type=click.Choice(["tls", "starttls", "none"]),
              help="tls (993), starttls (143), none (localhost alone).")
@click.option("--smtp-host", default=None, help="The SMTP server, instead of the provider's.")
@click.option("--smtp-port", default=None, type=click.IntRange(1, 65535), help="Its port.")
@click.option("--smtp-security", default=None, type=click.Choice(["tls", "starttls", "none"]),
              help="starttls (587), tls (465), none (localhost alone).")
@click.option("--user", default=None, help="The login at both servers  [default: the address]")
@click.option("--folder", default=None, help="The IMAP folder players' mail arrives in  [default: INBOX]")
@click.option("--password-file", default=None, type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
              metavar="FILE", help="A file whose first line is the password (mode 0600); '-': read it from "
                                   "standard input and keep it in the games dir's .pbem-password.")
@click.option("--password-command", default=None, metavar="COMMAND",
              help="A command that prints the password, or the OAuth2 access token where the provider "
                   "takes OAuth2 alone (run by /bin/sh each time pbem logs in).")
@click.option("--ca-file", default=None, type=click.Path(dir_okay=False, path_type=Path),
              help="The CA certificate (PEM) that signed the servers' certificates (a self-signed server).")
@click.option("--no-test", is_flag=True, help="Write pbem.yaml without logging in or sending the test mail.")
@click.option("--wait", "wait_seconds", type=click.FloatRange(min=0), default=60.0, show_default=True,
              metavar="SECONDS", help="How long the test mail may take to arrive in the inbox.")
@click.option("--interactive/--no-interactive", default=None,
              help="Ask for what the options do not give  [default: when standard input is a terminal]")
@games_dir_option
def init(gd: GamesDir, address: str | None, gm_name: str | None, provider: str | None, imap_host: str | None,
         imap_port: int | None, imap_security: str | None, smtp_host: str | None, smtp_port: int | None,
         smtp_security: str | None, user: str | None, folder: str | None, password_file: Path | None,
         password_command: str | None, ca_file: Path | None, no_test: bool, wait_seconds: float,
         interactive: bool | None) -> None:
    """Set up the games dir's mail: ask for (or take from the options) the GM's address and his mail
    provider or server, log in to IMAP and SMTP, send the GM a test mail and read it back, then write
    pbem.yaml. The password goes to a file git ignores (mode 0600), or pbem.yaml names a command that
    prints it; pbem.yaml never holds it. Without --provider, and not asking: a commented pbem.yaml for
    mail on this machine."""
    from pbem import game as games
    from pbem.config import CONFIG_FILE, Config, starter_config
    from pbem import init as setup_mail

    path = gd.root / CONFIG_FILE
    if path.exists():
        raise PbemError(f"{path} already exists; edit it, or remove it first")
    if password_file is not None and password_command is not None:
        raise click.UsageError("give --password-file or --password-command, not both")
    secret = None
    if password_command is not None:
        secret = setup_mail.Secret(command=password_command)
    elif password_file is not None and str(password_file) == "-":
        typed = sys.stdin.readline().rstrip("\r\n")
        if not typed:
            raise PbemError("--password-file -: standard input gave no password")
        secret = setup_mail.Secret(text=typed)
    elif password_file is not None:
        secret = setup_mail.Secret(file=password_file.resolve())
    given = setup_mail.Given(name=gm_name, address=address, provider=provider and provider.lower(),
                             imap_host=imap_host, imap_port=imap_port, imap_security=imap_security,
                             smtp_host=smtp_host, smtp_port=smtp_port, smtp_security=smtp_security, user=user,
                             folder=folder, secret=secret, ca_file=ca_file, test=not no_test, wait=wait_seconds)
    name, address, setup = setup_mail.set_up(given, gd.root, sys.stdin.isatty() if interactive is None else interactive)
    text = setup_mail.mail_config_text(setup, gd.root) if setup is not None else starter_config(name, address)
    with gd.lock():
        if path.exists():
            raise PbemError(f"{path} already exists; edit it, or remove it first")
        before = []
        for game in gd.games():
            try:
                state = gd.load(game)
            except PbemError:
                continue  # a broken game is the GM's to mend; `pbem status` lists it
            games.check_addresses([(p["name"], p["email"]) for p in state["players"]],
                                  Config(gd.root, gm_address=address))
            before.append(game)
        gd.ensure_repo()
        said = setup_mail.write_setup(gd, text, setup)
    if setup is None:
        click.echo(f"Wrote {path}. Edit it to say where mail comes in and how it goes out.")
    else:
        for note in setup.notes:
            click.echo(f"Note: {note}.")
        click.echo(f"Wrote {path}; {'; '.join(said)}.")
        click.echo("Next: `pbem doctor` checks the whole games dir; `pbem new` or `pbem open` starts a game.")
    if before:
        click.echo(f"Warning: {', '.join(before)} began before {CONFIG_FILE}: their players' mail so far came "
                   f"from {Config(gd.root).gm_address}, which they cannot answer; their next report comes "
                   f"from the new address.", err=True)


def gm_change(gd: GamesDir, game: str, change: Callable[[dict[str, Any]], dict[str, Any]], message: str,
              postman: bool = True) -> dict[str, Any]:
    """Load a game, change it, tell the players (reports), save and commit, all under the lock."""
    from pbem import game as games
    from pbem.config import load_config
    from pbem import advance as batch
    from pbem.mail.boxes import Postman

    with gd.lock():
        state = games.load_checked(gd, game)
        new_state = change(state)
        post = Postman(load_config(gd.root)) if postman else None
        batch.write_reports(gd, new_state, post)
        gd.save(game, new_state)
        gd.commit(game, f"{game}: {message}\n")
        if post:
            post.deliver()
    return new_state


@main.command(name="set")
@click.argument("game")
@click.option("--deadline", default=None, metavar="DURATION", callback=_usage(_duration("deadline", ("none", "off"))),
              help="Time for each decision (48h, 2d; 'none' removes it).")
@click.option("--grace", default=None, metavar="DURATION", callback=_usage(_duration("grace period", ("0", "none"))),
              help="Grace period after the deadline.")
@click.option("--policy", default=None, type=click.Choice(POLICIES), help="What happens at the deadline.")
@click.option("--reports", "reports", multiple=True, metavar="PLAYER=moves|all", callback=_usage(_reports_choice),
              help="When a player gets mail: moves (when he must act, may bid, scorings, the end) or all.")
@click.option("--language", "languages", multiple=True, metavar="PLAYER=LANG", callback=_usage(_seat_language),
              help="A player's language: en, de, nl, or default (pbem.yaml's).")
@click.option("--timezone", "zones", multiple=True, metavar="PLAYER=ZONE", callback=_usage(_seat_timezone),
              help="A player's time zone (Europe/Berlin...), or default (pbem.yaml's).")
@games_dir_option
def set_(gd: GamesDir, game: str, deadline: str | None, grace: str | None, policy: str | None,
         reports: list[tuple[str, str]], languages: list[tuple[str, str | None]],
         zones: list[tuple[str, str | None]]) -> None:
    """Change GAME's deadline, grace period or deadline policy, when players get mail, or a player's
    language or time zone."""
    from pbem import game as games
    from pbem import gm

    if deadline is None and grace is None and policy is None and not reports and not languages and not zones:
        raise click.UsageError("say what to set: --deadline, --grace, --policy, --reports, --language or --timezone")
    state = games.load_checked(gd, game)
    for name, _ in reports:
        if games.seat_of(state, name) is None:
            raise PbemError(f"game {game!r} has no player {name!r}")
    seat_settings(state, languages or [], zones or [])  # every name checked before anything changes
    if deadline is not None or grace is not None or policy is not None:
        rule = gm.deadline_rule(deadline, grace, policy, state.get("deadline"))
        new_state = gm_change(gd, game, lambda s: gm.set_deadline(s, rule), f"deadline {deadlines.describe(dict(state, deadline=rule)) if rule else 'removed'}")
        click.echo(f"{game}: deadline {deadlines.describe(new_state)}.")
    if reports:
        def change(s: dict[str, Any]) -> dict[str, Any]:
            for name, choice in reports:
                s = games.set_reports(s, games.seat_of(s, name) or name, choice)
            return s
        said = ", ".join(f"{n} {c}" for n, c in reports)
        gm_change(gd, game, change, f"reports: {said}")
        click.echo(f"{game}: reports {said}.")
    if languages or zones:
        said = ", ".join([f"{n} language {v or 'default'}" for n, v in languages or []]
                         + [f"{n} time zone {v or 'default'}" for n, v in zones or []])
        gm_change(gd, game, lambda s: seat_settings(s, languages or [], zones or []), said)
        click.echo(f"{game}: {said}.")


@main.command()
@click.argument("game")
@click.argument("old")
@click.argument("new", metavar="NEW=EMAIL", callback=_usage(_player))
@click.option("--json", "as_json", is_flag=True, help="Print the new token as JSON.")
@games_dir_option
def replace(gd: GamesDir, game: str, old: str, new: tuple[str, str], as_json: bool) -> None:
    """Hand OLD's seat in GAME to a new player: a new token, a welcome mail, the clock restarted."""
    from pbem import game as games
    from pbem.config import load_config
    from pbem import gm

    from pbem import advance as batch
    from pbem.mail.boxes import Postman
    from pbem.i18n import language_of, timezone_of
    from pbem.mail.post import post_report, welcome_text
    from pbem.report import render_report, visible

    person, email = new
    with gd.lock():
        state = games.load_checked(gd, game)
        config = load_config(gd.root)
        games.check_addresses([new], config)
        state, token = gm.replace(state, old, f"{person}={email}")
        seat = games.seat_of(state, person) or old
        post = Postman(config)
        # the newcomer's welcome comes first: it carries his token and the whole game so far
        lang = language_of(state, seat, config)
        report = render_report(state, seat, visible(state["events"], seat), config.reply_keys, lang,
                               timezone_of(state, seat, config))
        seq = state["reports_sent"][seat] + 1
        gd.write_report(game, seat, f"{seq:04d}-welcome-turn-{state['engine']['turn']:04d}.txt", report)
        post_report(post, state, seat, seq, welcome_text(state, seat, token, report, config.reply_keys, lang),
                    "welcome")
        state["reports_sent"][seat] = seq
        state["reported"][seat] = len(state["events"])
        batch.write_reports(gd, state, post)  # the others hear who took the seat
        gd.save(game, state)
        gd.commit(game, f"{game}: {person} takes over the seat of {old}\n")
        post.deliver()
    if as_json:
        emit_json({"game": game, "seat": seat, "player": person, "token": token})
        return
    click.echo(f"{person} now plays seat {seat!r} in {game}; the secret token (shown only now): {token}")


@main.command()
@click.argument("game")
@games_dir_option
def pause(gd: GamesDir, game: str) -> None:
    """Pause GAME: orders wait in the queue and no deadline runs."""
    from pbem import gm

    gm_change(gd, game, gm.pause, "paused by the GM")
    click.echo(f"{game}: paused.")


@main.command()
@click.argument("game")
@games_dir_option
def resume(gd: GamesDir, game: str) -> None:
    """Resume a paused GAME; the deadline starts again."""
    from pbem import gm

    gm_change(gd, game, gm.resume, "resumed by the GM")
    click.echo(f"{game}: resumed.")


@main.command()
@click.argument("game")
@click.option("--to", "to_turn", type=int, required=True, help="The decision to go back to.")
@games_dir_option
def rollback(gd: GamesDir, game: str, to_turn: int) -> None:
    """Rebuild GAME from its order log up to decision TURN; the undone orders are kept for the record."""
    from pbem import gm

    holder: dict[str, Any] = {}

    def change(state: dict[str, Any]) -> dict[str, Any]:
        changed, holder["undone"] = gm.rollback(state, to_turn)
        return changed
    gm_change(gd, game, change, f"rolled back to turn {to_turn}")
    click.echo(f"{game}: back at turn {to_turn}; {len(holder['undone'])} order(s) undone and kept for the record.")


@main.command()
@click.argument("ruleset", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@games_dir_option
def standings(gd: GamesDir, ruleset: str | None, as_json: bool) -> None:
    """The results of the games finished here, per ruleset and player: games, rated games, wins,
    average place and an OpenSkill rating. A game with a bot, or with two seats of one address, moves no
    rating and is listed as not rated. Players are shown by their seat names, never by their addresses."""
    from pbem.rules.base import get_ruleset
    from pbem import standings as table

    if ruleset is not None:
        ruleset = get_ruleset(ruleset).name
    tables = table.standings(gd, ruleset)
    if as_json:
        emit_json(table.as_json(tables))
        return
    if not tables:
        what = f"{get_ruleset(ruleset).title} games" if ruleset else "games"
        click.echo(f"No finished {what} in {gd.root}.")
        return
    click.echo(table.standings_text(tables), nl=False)


@main.command(name="rulesets")
def list_rulesets() -> None:
    """The games pbem can host (a game of the GM's own that cannot be loaded is named on stderr, exit 1)."""
    from pbem.rules.base import KNOWN, get_ruleset
    from pbem.rules.base import OUTSIDE_PROBLEMS

    problems = list(OUTSIDE_PROBLEMS)
    for name in sorted(KNOWN):
        try:
            cls = type(get_ruleset(name))
        except SetupError as exc:
            problems.append(str(exc))
            continue
        opts = "; ".join(f"{k}: {'|'.join(v)}" for k, v in cls.options.items()) or "no options"
        count = f"{cls.min_players}" if cls.min_players == cls.max_players else f"{cls.min_players}-{cls.max_players}"
        click.echo(f"{name:<16} {cls.title}, {count} players ({opts})")
    if problems:
        raise click.ClickException("; ".join(problems))


@main.command()
@click.option("--interval", type=click.FloatRange(min=0, min_open=True), default=5.0, show_default=True,
              metavar="MINUTES", help="A run at least this often, mail or not.")
@click.option("--poll", type=click.FloatRange(min=0.1), default=2.0, show_default=True, metavar="SECONDS",
              help="How often a Maildir or mbox inbox, the clock and pbem.yaml are looked at.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Games advanced in parallel processes  [default: the number of cores]")
@click.option("--once", is_flag=True, help="No run at the start: wait for one reason to run, run, exit.")
@games_dir_option
def watch(gd: GamesDir, interval: float, poll: float, jobs: int | None, once: bool) -> None:
    """Run `pbem advance` as mail arrives (IMAP IDLE, a Maildir or mbox looked at every few seconds),
    when a deadline comes, and at least every --interval; a line per run that did something. SIGTERM or
    SIGINT: the run at work finishes, then exit 0."""
    from pbem.watch import watch as watch_games

    watch_games(gd.root, interval * 60, poll, jobs or os.cpu_count() or 1, once)


@main.command()
@click.option("--send", is_flag=True, help="Also mail the GM a test message through the outbox and wait for it "
                                           "in the inbox (to gm+doctor.<random>@ where replies use plus-addressing).")
@click.option("--wait", "wait_seconds", type=click.FloatRange(min=0), default=30.0, show_default=True,
              metavar="SECONDS", help="How long --send waits for the test message to arrive.")
@games_dir_option
def doctor(gd: GamesDir, send: bool, wait_seconds: float) -> None:
    """Check the games dir and pbem.yaml, one line per check: the inbox opens, SMTP logs in (no mail
    sent), the GM's address is no player's, git works, the disk has room, the reply-key secret is
    private. Exit 1 if any check fails."""
    from pbem.doctor import checks

    failed = []
    for check in checks(gd, send, wait_seconds):
        click.echo(check.line())
        if check.failed:
            failed.append(check.name)
    if failed:
        raise click.ClickException(f"{len(failed)} check{'s' if len(failed) > 1 else ''} failed: {', '.join(failed)}")
