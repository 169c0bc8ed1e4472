"""`pbem archive`: a static web site of the games, and `pbem verify --log`: a published game checked
without the GM's games dir.

    <out>/index.html             every archived game: ruleset, players, status, turn
    <out>/style.css              the one style sheet (no JavaScript, no network: works from file://)
    <out>/<game>/index.html      the game: its players, its turns, and once it is over the standings,
                                 the seed and the order log
    <out>/<game>/turn-NNNN.html  one page per decision that has an order in the log (0000: the start),
    <out>/<game>/turn-NNNN.svg   with the board after it, what happened, links to the turns before and
                                 after and to the git commit that recorded it
    <out>/<game>/game.yaml       a finished game only: ruleset, options, players, deck, seed, order log
                                 and result, which `pbem verify --log` replays

Past turns are rebuilt by replaying the order log from the seed (the state keeps only the present). An
active (or paused) game's pages show only what every player may see: the public board, the events not
addressed to anyone in particular, the seed's commitment. A finished game's pages show everything: the
events addressed to one player too, what was hidden at each turn, the seed.
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
import yaml

from pbem.errors import PbemError, StoreError
from pbem.i18n import DEFAULT_LANGUAGE, N_, install, localize, translator
from pbem.game import load_checked, player_names, ruleset_of, waiting_for
from pbem.pictures import PUBLIC, board_svg
from pbem.report import _load, addressed, bytecode_cache, event_lines, substitute_words
from pbem.rng import Rng, commitment
from pbem.rules.base import Event, get_ruleset, order_text
from pbem.store import GamesDir, dies_with_pbem, dump_yaml
from pbem.templating import Environment
from pbem.turnfile import yaml_problem

LOG_FORMAT = 1  # the format of game.yaml, the file `pbem verify --log` reads
LOG_FILE = "game.yaml"
PAGE = re.compile(r"^turn-\d{4,}\.(html|svg)\Z")  # the files of a game folder an archive rewrites
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


# -- git: which commit recorded which turn -------------------------------------------------------------

@dataclass(frozen=True)
class Commit:
    sha: str
    subject: str


SINCE_MARGIN = 2 * 86400  # seconds before a game's start that its history is looked for (clocks differ)


def game_commits(root: Path, game: str, created: str | None = None) -> list[Commit]:
    """The commits of one game's folder, newest first ([] where there is no git history). With
    `created` (the game's start), git stops walking the history a little before it: a host's older
    history, of games long over, is not read for a newer game."""
    if not (root / ".git").exists():
        return []
    since = []
    if created:
        from pbem.deadlines import moment

        try:
            since = [f"--since={int(moment(created).timestamp()) - SINCE_MARGIN}"]
        except ValueError:
            since = []
    try:
        argv, child = dies_with_pbem(["git", "log", "--format=%H%x00%s", *since, "--", f"{game}/"])
        r = subprocess.run(argv, cwd=root, capture_output=True, text=True, **child)
    except OSError:
        return []
    if r.returncode != 0:
        return []
    return [Commit(*line.split("\0", 1)) for line in r.stdout.splitlines() if "\0" in line]


def turn_commits(game: str, commits: list[Commit], turns: list[int]) -> dict[int, Commit]:
    """The commit that recorded each turn, from the subjects `pbem advance` and `pbem new` write
    (`m1: turn 5-7: ...`, `m1: new medici game for ...`). After a rollback the turns played again
    were recorded again: the newest commit naming a turn wins."""
    span = re.compile(rf"^{re.escape(game)}: turn (\d+)(?:-(\d+))?\b")
    found: dict[int, Commit] = {}
    for c in commits:  # newest first
        m = span.match(c.subject)
        if m:
            first = int(m.group(1))
            last = int(m.group(2) or first)
            for t in turns:
                if first <= t <= last:
                    found.setdefault(t, c)
        elif c.subject.startswith(f"{game}: new ") and 0 in turns:
            found.setdefault(0, c)
    return found


# -- the past, rebuilt from the seed ----------------------------------------------------------------------

def snapshots(state: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """(turn, engine) at the start (turn 0) and after each order of the log, replayed from the seed."""
    ruleset = ruleset_of(state)
    rng = Rng(state["seed"])
    engine, _ = ruleset.setup(player_names(state), dict(state["options"]), rng, state["deck"])
    out = [(0, copy.deepcopy(engine))]
    for entry in state["log"]:
        if entry["turn"] != engine["turn"]:
            raise StoreError(f"{state['game']}: the order log says turn {entry['turn']} where the replay is "
                             f"at turn {engine['turn']}; run pbem verify {state['game']}")
        try:
            ruleset.apply(engine, entry["player"], entry["order"], rng)
        except PbemError as exc:
            raise StoreError(f"{state['game']}: the order log does not replay at turn {entry['turn']}: {exc}; "
                             f"run pbem verify {state['game']}") from None
        out.append((entry["turn"], copy.deepcopy(engine)))
    return out


def public(event: Event) -> bool:
    """Whether every player may read an event: those addressed to some players (`to: [...]`) are theirs.
    (A `to` that is not a list is part of what happened, such as the rank a petitioner rose to.)"""
    return addressed(event) is None


#: the parts of the games' views that hide something, as a page names them in a language (English: the
#: view's own keys, `scandal.deck.messere`)
HIDDEN_KEYS = {"deck": N_("deck"), "set_aside": N_("set aside"), "fixed_days": N_("fixed days"), "bag": N_("bag"),
               "fixed_rounds": N_("fixed rounds"), "location_stack": N_("location tiles"),
               "time_stack": N_("time tiles"), "scandal": N_("scandal cards"), "hand": N_("hand"),
               "plan_cards": N_("plan cards"), "strozzi": N_("Strozzi's cards")}
NONE = N_("none")
CARD = re.compile(r"([a-z]+)-(\d+)\Z")  # a card of goods and its value: `furs-5`


def hidden_then(ruleset: Any, engine: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> list[tuple[str, str]]:
    """What the GM saw and the players did not at one moment: (where in the view, the GM's value),
    from the difference between the GM's view and the public one. Shown once the game is over; in
    `lang`, where and what in its words (a card, a good in the game's), joined by ` › `."""
    out: list[tuple[str, str]] = []
    game = getattr(ruleset, "name", None)

    def walk(gm: Any, seen: Any, path: str) -> None:
        if isinstance(gm, dict) and isinstance(seen, dict):
            for key, value in gm.items():
                if key in ("you", "display"):  # who looks, and the texts drawn from the rest
                    continue
                if key not in seen or value != seen[key]:
                    walk(value, seen.get(key), f"{path}.{key}" if path else str(key))
        elif gm != seen:
            out.append((path, _plain(gm)) if lang == DEFAULT_LANGUAGE else
                       (_where_in(path, game, lang), _plain(gm, lambda v: _item_in(v, game, lang), lang)))
    walk(ruleset.view(engine, None), ruleset.view(engine, PUBLIC), "")
    return out


def _where_in(path: str, game: str | None, lang: str) -> str:
    """A place in a view (`scandal.deck.messere`) in `lang`: `Skandalkarten › Stapel › messere`."""
    _ = translator(lang).gettext
    return " › ".join(_(HIDDEN_KEYS[part]) if part in HIDDEN_KEYS else part for part in path.split("."))


def _item_in(value: Any, game: str | None, lang: str) -> Any:
    """One value of a view in `lang`: a card of goods (`Pelze-5`) in the game's words, a card of
    orders (`messere-becher`) in its order words, the rest as it is."""
    if not isinstance(value, str):
        return value
    card = CARD.match(value)
    if card and game is not None:
        good = translator(lang, game).gettext(card.group(1))
        if good != card.group(1) or lang == DEFAULT_LANGUAGE:
            return f"{good}-{card.group(2)}"
    return localize(value, game, lang)


def _plain(value: Any, word: Any = None, lang: str = DEFAULT_LANGUAGE) -> str:
    """A value of a view in few words: a list of cards as `a, b, c`, a table as `k: v, ...`; `word`
    writes each of its values (in a language), `lang` says `none`."""
    scalar = (str, int, float, bool)
    word = word or (lambda v: v)
    none = translator(lang).gettext(NONE)
    if isinstance(value, list) and all(isinstance(v, scalar) for v in value):
        return ", ".join(str(word(v)) for v in value) or none
    if isinstance(value, dict) and all(isinstance(v, scalar) for v in value.values()):
        return ", ".join(f"{k}: {word(v)}" for k, v in value.items()) or none
    if isinstance(value, scalar):
        return str(word(value))
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


# -- the pages ---------------------------------------------------------------------------------------

@dataclass
class Move:
    """One order of a decision, as its page shows it."""

    player: str
    order: str | None = None                  # what he ordered (finished games only)
    mark: str | None = None                   # by standing order / sent ahead / substitute move


@dataclass
class Page:
    turn: int                                 # the decision (0: the start)
    name: str                                 # turn-0007
    player: str | None = None                 # who decided (several who decided at once: joined by commas)
    order: str | None = None                  # what he ordered (finished games only; several: each by name)
    mark: str | None = None                   # by standing order / sent ahead / substitute move
    moves: list[Move] = field(default_factory=list)  # every order of the decision, in the order given
    events: list[tuple[str, str]] = field(default_factory=list)  # (text, to whom: "" for everyone)
    hidden: list[tuple[str, str]] = field(default_factory=list)
    commit: Commit | None = None
    prev: str | None = None
    next: str | None = None


@dataclass
class Archived:
    """One game written to the archive."""

    game: str
    ruleset: str
    title: str
    status: str
    turn: int
    players: list[str]
    pages: int
    finished: bool


def page_name(turn: int) -> str:
    return f"turn-{turn:04d}"


def board_when(turn: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """When a turn page's board is drawn, in the words of the page's caption."""
    _ = translator(lang).gettext
    return _("at the start") if turn == 0 else _("after turn %(turn)s") % {"turn": turn}


#: how an order came, as a turn's page says it
MARKS = {"standing": N_("by standing order"), "premove": N_("sent ahead"), "bot": N_("by the bot")}


def _mark(entry: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> str | None:
    _ = translator(lang).gettext
    if entry.get("substitute"):
        return _("substitute move (%(why)s)") % {"why": substitute_words(entry["substitute"], lang)}
    mark = MARKS.get(entry.get("by", ""))
    return _(mark) if mark else None


@cache
def env(lang: str = DEFAULT_LANGUAGE) -> jinja2.Environment:
    """The archive's templates, their words in `lang` (English: as written)."""
    e = Environment(loader=jinja2.FunctionLoader(_load), autoescape=True, undefined=jinja2.StrictUndefined,
                    trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                    bytecode_cache=bytecode_cache("archive-i18n"), extensions=["jinja2.ext.i18n"])
    e.filters["order_text"] = order_text
    e.globals["lang"] = lang
    install(e, lang)
    return e


def render(template: str, lang: str = DEFAULT_LANGUAGE, **context: Any) -> str:
    return env(lang).get_template(f"archive/{template}").render(**context)


def game_record(state: dict[str, Any]) -> dict[str, Any]:
    """What `pbem verify --log` reads: everything needed to replay a finished game, and its result."""
    ruleset = ruleset_of(state)
    log = []
    for entry in state["log"]:
        row = {"turn": entry["turn"], "player": entry["player"], "order": entry["order"]}
        for key in ("substitute", "by"):
            if entry.get(key):
                row[key] = entry[key]
        log.append(row)
    return {
        "format": LOG_FORMAT,
        "game": state["game"],
        "ruleset": state["ruleset"],
        "options": dict(state["options"]),
        "players": player_names(state),
        "deck": state["deck"],
        "seed": state["seed"],
        "seed_sha256": state["seed_sha256"],
        "log": log,
        "result": [{"player": r["player"], "score": r["score"], "rank": r["rank"]}
                   for r in ruleset.result(state["engine"])],
    }


def game_pages(state: dict[str, Any], commits: list[Commit], lang: str = DEFAULT_LANGUAGE
               ) -> tuple[list[Page], dict[str, str]]:
    """A game's turn pages and their pictures (file name -> SVG text), in `lang`."""
    ruleset = ruleset_of(state)
    finished = state["status"] == "finished"
    # one page a decision: the board after its last order (a decision of several players has an order
    # of each); the orders of a decision still waiting for some of its players are not a page yet
    current = state["engine"]["turn"] if state["status"] != "finished" else None
    snaps = [(t, engine) for t, engine in dict(snapshots(state)).items() if t != current or t == 0]
    entries: dict[int, list[dict[str, Any]]] = {}
    for e in state["log"]:
        entries.setdefault(e["turn"], []).append(e)
    turns = [t for t, _ in snaps]
    pages = [Page(t, page_name(t)) for t in turns]
    by_turn = {p.turn: p for p in pages}
    # each event on the page of the last turn at or before its own (a notice given while the game
    # waited for turn 9 is on the page of turn 8... or of 9 once 9 has an order)
    events = list(state["events"])
    lines = event_lines(state["ruleset"], events, lang, state.get("options"))
    for event, line in zip(events, lines):
        if not finished and not public(event):
            continue
        at = max((t for t in turns if t <= event.get("turn", 0)), default=0)
        to = ", ".join(event["to"]) if not public(event) else ""
        by_turn[at].events.append((line, to))
    found = turn_commits(state["game"], commits, turns)
    pictures: dict[str, str] = {}
    for i, (page, (turn, engine)) in enumerate(zip(pages, snaps)):
        for entry in entries.get(turn, []) if turn else []:
            order = localize(order_text(entry["order"]), state["ruleset"], lang) if finished else None  # as reports show it
            page.moves.append(Move(entry["player"], order, _mark(entry, lang)))
        if len(page.moves) == 1:
            page.player, page.order, page.mark = page.moves[0].player, page.moves[0].order, page.moves[0].mark
        elif page.moves:
            page.player = ", ".join(dict.fromkeys(m.player for m in page.moves))
            if finished:
                page.order = "; ".join(f"{m.player}: {m.order}" for m in page.moves)
        page.commit = found.get(turn)
        page.prev = pages[i - 1].name if i else None
        page.next = pages[i + 1].name if i + 1 < len(pages) else None
        last = i + 1 == len(pages)
        shown = dict(state, engine=engine, status=state["status"] if last else "active")
        # the page shows the board after its own turn; the engine already waits for the next decision
        pictures[f"{page.name}.svg"] = board_svg(shown, None, board_when(turn, lang), lang=lang)
        if finished:
            page.hidden = hidden_then(ruleset, engine, lang)
    return pages, pictures


def describe(state: dict[str, Any]) -> dict[str, Any]:
    """A game as the index lists it."""
    ruleset = ruleset_of(state)
    status = state["status"]
    from pbem.deadlines import due, stamp

    when = due(state)
    return {"game": state["game"], "ruleset": state["ruleset"], "title": ruleset.title,
            "players": [p["name"] for p in state["players"]], "status": status,
            "turn": state["engine"]["turn"], "waiting_for": waiting_for(state) if status != "finished" else [],
            "since": state.get("waiting_since") if status != "finished" else None,
            "due": stamp(when) if when else None, "options": dict(state["options"])}


def check_out(gd: GamesDir, out: Path) -> Path:
    """The folder the archive goes to: a folder (new or not) outside the games dir."""
    target = out.resolve()
    if target.exists() and not target.is_dir():
        raise PbemError(f"{out} is a file; --out needs a folder for the archive")
    if target == gd.root or target.is_relative_to(gd.root):
        raise PbemError(f"{out} is inside the games dir {gd.root}; write the archive to a folder outside it")
    return target


def write_game(gd: GamesDir, state: dict[str, Any], out: Path, commit_url: str | None,
               lang: str = DEFAULT_LANGUAGE) -> Archived:
    """One game's folder of the archive, rewritten, its pages in `lang`."""
    game = state["game"]
    info = describe(state)
    finished = state["status"] == "finished"
    pages, pictures = game_pages(state, game_commits(gd.root, game, state.get("created")), lang)
    folder = out / game
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():  # what an earlier archive wrote (a rollback leaves fewer turns)
        if old.is_file() and (PAGE.match(old.name) or old.name == LOG_FILE):
            old.unlink()
    context = dict(info=info, finished=finished, seed_sha256=state["seed_sha256"], commit_url=commit_url,
                   pages=pages, log_file=LOG_FILE)
    if finished:
        record = game_record(state)
        (folder / LOG_FILE).write_text(
            f"# pbem game log: replay it with `pbem verify --log {LOG_FILE}`\n" + dump_yaml(record), "utf-8")
        context.update(seed=state["seed"], result=record["result"], log=record["log"])
        from pbem.talk import talk_of

        context.update(talk=talk_of(gd, game, public_only=True))  # talk to one player stays his and hers
    for name, svg in pictures.items():
        (folder / name).write_text(svg, "utf-8")
    for page in pages:
        (folder / f"{page.name}.html").write_text(render("turn.html.j2", lang, page=page, **context), "utf-8")
    (folder / "index.html").write_text(render("game.html.j2", lang, **context), "utf-8")
    return Archived(game, state["ruleset"], info["title"], state["status"], state["engine"]["turn"],
                    info["players"], len(pages), finished)


def write_archive(gd: GamesDir, games: list[str] | None, out: Path, commit_url: str | None = None,
                  lang: str = DEFAULT_LANGUAGE) -> tuple[list[Archived], list[str]]:
    """Write the archive of `games` (None: every game) to `out`, its pages in `lang`. Returns the games written and, when
    all games were asked for, the problems of those that could not be (a named game that cannot be
    read raises)."""
    target = check_out(gd, out)
    named = games is not None
    states = [load_checked(gd, g) for g in games] if named else []
    problems: list[str] = []
    if not named:
        for g in gd.games():
            try:
                states.append(gd.load(g))
            except PbemError as exc:
                problems.append(str(exc))
    target.mkdir(parents=True, exist_ok=True)
    done = []
    for state in states:
        try:
            done.append(write_game(gd, state, target, commit_url, lang))
        except PbemError as exc:
            if named:
                raise
            problems.append(str(exc))
    # the index lists every game of the games dir whose folder the archive holds (an earlier run may
    # have written others than this one)
    listed = []
    for g in sorted(d.name for d in target.iterdir() if (d / "index.html").is_file()):  # not every game
        if gd.is_game_folder(g):
            try:
                listed.append(describe(gd.load(g)))
            except PbemError:
                continue
    write_front(gd, target, listed, lang)
    write_standings(gd, target, lang, listed)
    (target / "style.css").write_text(render("style.css.j2", lang), "utf-8")
    _save_front_rows(gd, target, lang, listed)
    return done, problems


# -- the front page ----------------------------------------------------------------------------------

FRONT_ROWS = "pbem-archive-front.json"  # in .git/: each archived game's row of the front page, for a run to reuse


def last_run_problems(gd: GamesDir) -> dict[str, Any] | None:
    """The last run's problems, as the front page shows them (no host, user or address): the host's
    failures, the mail it set aside, the games it skipped; None when it had none."""
    from pbem.hostfail import last_run

    record = last_run(gd.root)
    if not record:
        return None
    failures = [{"service": f.get("service"), "kind": f.get("kind")} for f in record.get("failures", [])
                if isinstance(f, dict)]
    shown = {"at": record.get("at"), "failures": failures, "since": record.get("failing_since"),
             "set_aside": int(record.get("set_aside") or 0), "skipped": list(record.get("games_skipped") or [])}
    return shown if failures or shown["set_aside"] or shown["skipped"] else None


def write_front(gd: GamesDir, target: Path, listed: list[dict[str, Any]], lang: str = DEFAULT_LANGUAGE) -> None:
    """The front page: every game listed (whose move, since when, its deadline) under the last run's
    problems."""
    page = render("index.html.j2", lang, games=listed, problems=last_run_problems(gd))
    path = target / "index.html"
    try:
        if path.read_text("utf-8") == page:
            return  # unchanged: a web server's caches keep it
    except OSError:
        pass
    path.write_text(page, "utf-8")


def write_standings(gd: GamesDir, target: Path, lang: str, listed: list[dict[str, Any]]) -> None:
    """The standings page: every table of finished games, each game linked where the archive has it."""
    from pbem.standings import reasons_text, standings

    (target / "standings.html").write_text(
        render("standings.html.j2", lang, tables=standings(gd), archived={g["game"] for g in listed},
               reasons=lambda why: reasons_text(why, lang)), "utf-8")


def _front_path(gd: GamesDir) -> Path:
    return gd.root / ".git" / FRONT_ROWS


def _save_front_rows(gd: GamesDir, target: Path, lang: str, listed: list[dict[str, Any]]) -> None:
    if not (gd.root / ".git").is_dir():
        return
    try:
        _front_path(gd).write_text(json.dumps({"out": str(target), "lang": lang, "games": listed}), "utf-8")
    except OSError:
        pass  # the next run describes every game again


def _front_rows(gd: GamesDir, target: Path, lang: str) -> dict[str, dict[str, Any]]:
    try:
        saved = json.loads(_front_path(gd).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(saved, dict) or saved.get("out") != str(target) or saved.get("lang") != lang:
        return {}
    return {row["game"]: row for row in saved.get("games", []) if isinstance(row, dict) and "game" in row}


def update_archive(gd: GamesDir, settings: dict[str, Any], out: Path, changed: list[str]) -> list[str]:
    """`archive: update: auto` after a run: the pages of the games that changed (and of those the archive
    lacks), and the front page; the other games' pages stay as they are, their rows on the front page
    come from the last time. Returns the problems (a game that cannot be written)."""
    lang = settings.get("language", DEFAULT_LANGUAGE)
    target = check_out(gd, out)
    target.mkdir(parents=True, exist_ok=True)
    rows = _front_rows(gd, target, lang)
    games = gd.games()
    problems: list[str] = []
    wrote_finished = False
    for game in games:
        if game in rows and game not in changed and (target / game / "index.html").is_file():
            continue
        try:
            state = gd.load(game)
            write_game(gd, state, target, settings.get("commit_url"), lang)
        except PbemError as exc:
            problems.append(str(exc))
            rows.pop(game, None)
            continue
        rows[game] = describe(state)
        wrote_finished = wrote_finished or state["status"] == "finished"
    listed = [rows[g] for g in sorted(games) if g in rows]
    write_front(gd, target, listed, lang)
    if wrote_finished or not (target / "standings.html").is_file():
        write_standings(gd, target, lang, listed)
    style = render("style.css.j2", lang)
    if not (target / "style.css").is_file() or (target / "style.css").read_text("utf-8") != style:
        (target / "style.css").write_text(style, "utf-8")
    _save_front_rows(gd, target, lang, listed)
    return problems


# -- pbem verify --log ------------------------------------------------------------------------------------

@dataclass
class LogCheck:
    """What replaying a published game log gave."""

    game: str
    title: str
    orders: int
    seed_sha256: str
    standings: list[dict[str, Any]]
    claimed: list[dict[str, Any]]

    @property
    def matches(self) -> bool:
        return self.standings == self.claimed


def _shape(data: Any) -> str | None:
    """Why `data` is not a game log, or None."""
    if not isinstance(data, dict):
        return "it is not a mapping of ruleset, options, players, seed, log and result"
    for key in ("ruleset", "options", "players", "seed", "log", "result"):
        if key not in data:
            return f"{key!r} is missing"
    if data.get("format", LOG_FORMAT) != LOG_FORMAT:
        return f"its format {data['format']!r} is not {LOG_FORMAT}"
    if not isinstance(data["ruleset"], str):
        return "'ruleset' must be the name of a ruleset"
    options = data["options"]
    if not isinstance(options, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in options.items()):
        return "'options' must map option names to values"
    players = data["players"]
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        return "'players' must be a list of player names"
    if not isinstance(data["seed"], str) or not data["seed"]:
        return "'seed' must be the game's seed, a text"
    if "seed_sha256" in data and not isinstance(data["seed_sha256"], str):
        return "'seed_sha256' must be the seed's commitment, a text"
    if data.get("deck") is not None and not isinstance(data["deck"], dict):
        return "'deck' must be a deck file's mapping, or null"
    if not isinstance(data["log"], list):
        return "'log' must be a list of orders"
    for i, entry in enumerate(data["log"]):
        if not (isinstance(entry, dict) and isinstance(entry.get("turn"), int) and isinstance(entry.get("player"), str)
                and isinstance(entry.get("order"), (str, dict))):
            return f"log[{i}] must have a turn (a number), a player and an order"
    result = data["result"]
    if not isinstance(result, list) or not all(
            isinstance(r, dict) and isinstance(r.get("player"), str) and isinstance(r.get("score"), int)
            and isinstance(r.get("rank"), int) for r in result):
        return "'result' must be a list of standings (player, score, rank)"
    return None


def read_log(path: Path) -> dict[str, Any]:
    """A published game log, read and checked for its shape."""
    what = f"the log file {str(path)!r}"
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise PbemError(f"cannot read {what}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise PbemError(f"{what} is not YAML: it is not UTF-8 text") from None
    try:
        data = yaml.load(text, Loader=_SafeLoader)
    except yaml.YAMLError as exc:
        line, problem = yaml_problem(text, exc)
        raise PbemError(f"{what} is not YAML: {problem}" + (f" (line {line})" if line else "")) from None
    why = _shape(data)
    if why:
        raise PbemError(f"{what} is not a pbem game log: {why}")
    return data


def verify_log(path: Path) -> LogCheck:
    """Replay a published game log from its seed: the standings it reaches, and those it claims."""
    data = read_log(path)
    what = f"the log file {str(path)!r}"
    try:
        ruleset = get_ruleset(data["ruleset"])
        ruleset.check_players(data["players"])
        options = ruleset.check_options(data["options"])
        deck = ruleset.check_deck(data["deck"], data["players"], options) if data.get("deck") is not None else None
    except PbemError as exc:
        raise PbemError(f"{what}: {exc}") from None
    seed = data["seed"]
    if "seed_sha256" in data and data["seed_sha256"] != commitment(seed):
        raise PbemError(f"{what}: the seed does not match its commitment (sha256 {data['seed_sha256']})")
    rng = Rng(seed)
    try:
        engine, _ = ruleset.setup(list(data["players"]), options, rng, deck)
    except PbemError as exc:
        raise PbemError(f"{what} does not replay: the setup fails: {exc}") from None
    for i, entry in enumerate(data["log"], start=1):
        step = f"order {i} (turn {entry['turn']}, {entry['player']}: {order_text(entry['order'])})"
        if entry["turn"] != engine["turn"]:
            raise PbemError(f"{what} does not replay: {step}: the game is at turn {engine['turn']}")
        decision = ruleset.decision(engine)
        if decision is None:
            raise PbemError(f"{what} does not replay: {step}: the game is already over")
        if entry["player"] not in decision.players:
            raise PbemError(f"{what} does not replay: {step}: the decision is {', '.join(decision.players)}'s")
        try:
            ruleset.apply(engine, entry["player"], entry["order"], rng)
        except PbemError as exc:
            raise PbemError(f"{what} does not replay: {step}: {exc}") from None
    decision = ruleset.decision(engine)
    if decision is not None:
        raise PbemError(f"{what} does not replay to the end: after its {len(data['log'])} orders the game "
                        f"waits for {', '.join(decision.players)} (turn {engine['turn']})")
    standings = [{"player": r["player"], "score": r["score"], "rank": r["rank"]} for r in ruleset.result(engine)]
    claimed = [{"player": r["player"], "score": r["score"], "rank": r["rank"]} for r in data["result"]]
    return LogCheck(str(data.get("game") or path.stem), ruleset.title, len(data["log"]), commitment(seed),
                    standings, claimed)


def standings_text(rows: list[dict[str, Any]]) -> str:
    return "; ".join(f"{r['rank']}. {r['player']} {r['score']}" for r in rows) or "none"

