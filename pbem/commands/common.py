"""What the commands share: the games dir a command works in, the options that read a value (a
malformed value is a usage error, exit 2, like click's own), the options of a game to be made, JSON out."""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import click

from pbem import deadlines
from pbem.deadlines import POLICIES
from pbem.errors import PbemError, SetupError

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
    import json  # the commands that print no JSON (and `pbem --help`, which imports every command) load none

    click.echo(json.dumps(value, indent=2, ensure_ascii=False))


def parsed_by(parse: Callable[[str], Any]) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """A click callback that parses each value with `parse` and turns its PbemError into a usage error."""
    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if value is None:
            return None
        try:
            return [parse(v) for v in value] if isinstance(value, tuple) else parse(value)
        except PbemError as exc:
            raise click.BadParameter(str(exc), ctx, param) from None
    return callback


def parse_player(spec: str) -> tuple[str, str]:
    from pbem.game import parse_player

    return parse_player(spec)


def parse_key_value(spec: str) -> tuple[str, str]:
    key, sep, value = spec.partition("=")
    if not sep or not key:
        raise SetupError(f"{spec!r} is not KEY=VALUE")
    return key, value


def parse_reports(spec: str) -> tuple[str, str]:
    name, _, choice = spec.partition("=")
    if not name or choice not in ("moves", "all"):
        raise SetupError(f"{spec!r} is not PLAYER=moves or PLAYER=all")
    return name, choice


def parse_seat_language(spec: str) -> tuple[str, str | None]:
    """`anna=de`; `anna=default` gives the seat back the host's language."""
    from pbem.i18n import check_language

    name, sep, code = spec.partition("=")
    if not sep or not name:
        raise SetupError(f"{spec!r} is not PLAYER=LANGUAGE")
    return name, None if code == "default" else check_language(code)


def parse_seat_timezone(spec: str) -> tuple[str, str | None]:
    """`anna=Europe/Berlin`; `anna=default` gives the seat back the host's time zone."""
    from pbem.i18n import check_timezone

    name, sep, zone = spec.partition("=")
    if not sep or not name:
        raise SetupError(f"{spec!r} is not PLAYER=TIMEZONE")
    return name, None if zone == "default" else check_timezone(zone)


def parse_language(code: str) -> str:
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


def parse_duration(what: str, off: tuple[str, ...]) -> Callable[[str], str]:
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
    return click.option("--option", "options", multiple=True, metavar="KEY=VALUE", callback=parsed_by(parse_key_value),
                        help="A rules option, e.g. edition=amigo.")(f)


def deadline_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """--deadline, --grace and --policy of a game to be made (`pbem new`, `pbem open`)."""
    for option in reversed([
            click.option("--deadline", default=None, metavar="DURATION", callback=parsed_by(parse_duration("deadline", ())),
                         help="Time for each decision, e.g. 48h or 2d."),
            click.option("--grace", default=None, metavar="DURATION",
                         callback=parsed_by(parse_duration("grace period", ("0", "none"))),
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


def parse_bot_name(name: str) -> str:
    from pbem.names import setup_check

    return setup_check(name, "bot name")


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
