"""`pbem archive`: the static web site of the games.

A finished game of each ruleset: an index row, a page per turn with its picture, links that all lead to
files of the archive, the seed, the order log and game.yaml (which `pbem verify --log` replays). An
active game of each ruleset, at two moments: the secrecy tests of the text reports on every file of its
archive (no seed, no token, no run of hidden cards), no event addressed to one player, no game.yaml;
and every past board rebuilt with its hidden parts changed gives the very same archive. Then the
command: --out checks, unknown games, rewriting, commit links, escaping.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import helpers
from helpers import Pbem, assert_error, assert_usage_error
from rooms import GAMES, need, tables
from mailservers import certs  # noqa: F401
from pbem import archive, bots
from pbem.game import apply_orders, new_game, notice, ruleset_of, show, waiting_for
from pbem.report import event_lines
from pbem.store import GamesDir, dump_yaml

def table_ids() -> dict[str, tuple[str, list[str], dict[str, str]]]:
    """Each table of each game by a game id: the game's name for its usual table, the name with the
    count and options for the others."""
    out = {}
    for game in GAMES:
        for i, (names, options) in enumerate(tables(game)):
            out[game if i == 0 else "-".join([game, str(len(names)), *options.values()])] = (game, names, options)
    return out


TABLES = table_ids()


# -- games played by the bots through the library, committed as `pbem advance` would -----------------------

def start(gd: GamesDir, game: str, seed: str) -> tuple[dict[str, Any], dict[str, str]]:
    ruleset, names, options = TABLES[game]
    gd.ensure_repo()
    state, tokens = new_game(gd, ruleset, game, [(n, f"{n}@example.org") for n in names], options, seed)
    gd.save(game, state)
    gd.commit(game, f"{game}: new {ruleset} game for {', '.join(names)}\n")
    return state, tokens


def play(gd: GamesDir, state: dict[str, Any], orders: int = 10**6, commit_every: int = 10,
         active: bool = False) -> dict[str, Any]:
    """The bots play up to `orders` more orders (or to the end; `active`: to the order before the one
    that ends it, for a short game); a commit every `commit_every` orders, its subject as `pbem
    advance` writes it."""
    game, rs = state["game"], state["ruleset"]
    first, who = state["engine"]["turn"], []
    for n in range(orders):
        if state["status"] != "active":
            break
        player = waiting_for(state)[0]
        seen = show(state, player)
        order = bots.choose(rs, seen["view"], player, seen["legal_orders"])
        new, _ = apply_orders(state, player, seen["turn"], [order])
        if active and new["status"] != "active":
            orders = n  # (what was played is committed below)
        else:
            state = new
            who.append(player)
        if who and ((n + 1) % commit_every == 0 or state["status"] != "active" or n + 1 >= orders):
            last = state["engine"]["turn"] - 1
            gd.save(game, state)
            gd.commit(game, f"{game}: turn {first}" + (f"-{last}" if last > first else "")
                      + f": orders of {', '.join(dict.fromkeys(who))}\n")
            first, who = state["engine"]["turn"], []
        if n >= orders:
            break
    return state


def finished_games(root: Path, games: tuple[str, ...] = tuple(GAMES),
                   commit_every: int = 10) -> tuple[GamesDir, dict[str, dict[str, Any]]]:
    """A games dir holding a finished game of each ruleset (the game id names the ruleset)."""
    gd = GamesDir(root, create=True)
    states = {}
    for game in games:
        state, _ = start(gd, game, f"Archive-{game}-seed-0123456789")
        states[game] = play(gd, state, commit_every=commit_every)
        assert states[game]["status"] == "finished"
    return GamesDir(root), states


# -- what an archive holds --------------------------------------------------------------------------

def files(out: Path) -> dict[str, str]:
    return {str(p.relative_to(out)): p.read_text("utf-8") for p in sorted(out.rglob("*")) if p.is_file()}


COMMIT_EVERY = 25
LINK = re.compile(r'(?:href|src)="([^"]*)"')


def check_links(out: Path) -> int:
    """Every link and picture of every page is relative and leads to a file of the archive."""
    n = 0
    for page in out.rglob("*.html"):
        for target in LINK.findall(page.read_text("utf-8")):
            if target == "data:,":  # the empty icon: no request for a favicon
                continue
            assert "://" not in target and not target.startswith("/"), f"{page}: {target} is not relative"
            assert (page.parent / target).is_file(), f"{page}: {target} leads nowhere"
            n += 1
    return n


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[GamesDir, dict[str, dict[str, Any]], Path]:
    root = tmp_path_factory.mktemp("finished")
    gd, states = finished_games(root / "games", tuple(TABLES), COMMIT_EVERY)
    out = root / "site"
    done, problems = archive.write_archive(gd, None, out)
    assert problems == []
    assert [a.game for a in done] == sorted(TABLES)
    return gd, states, out


def test_finished_games_show_everything(finished) -> None:
    gd, states, out = finished
    index = (out / "index.html").read_text("utf-8")
    assert check_links(out) > 1000
    for game, state in states.items():
        rules = ruleset_of(state)
        assert f'<a href="{game}/index.html">{game}</a>' in index
        assert rules.title in index
        turns = [0, *dict.fromkeys(e["turn"] for e in state["log"])]  # a page a decision (of one or more)
        folder = out / game
        assert sorted(p.name for p in folder.glob("turn-*.html")) == [f"turn-{t:04d}.html" for t in turns]
        assert sorted(p.name for p in folder.glob("turn-*.svg")) == [f"turn-{t:04d}.svg" for t in turns]
        page = (folder / "index.html").read_text("utf-8")
        assert state["seed"] in page and "pbem verify --log game.yaml" in page
        for row in rules.result(state["engine"]):
            assert f'<li value="{row["rank"]}">{row["player"]} <span class="num">{row["score"]}</span></li>' in page
        # the pages chain from the start to the end, each with its picture, its events, its commit
        for i, t in enumerate(turns):
            text = (folder / f"turn-{t:04d}.html").read_text("utf-8")
            assert f'<img src="turn-{t:04d}.svg"' in text
            assert (f'<a rel="prev" href="turn-{turns[i - 1]:04d}.html">' in text) == (i > 0)
            assert ('<a rel="next"' in text) == (i + 1 < len(turns))
            assert i + 1 == len(turns) or f'<a rel="next" href="turn-{turns[i + 1]:04d}.html">' in text
            assert "Recorded in git as" in text
            ordered = [e for e in state["log"] if t and e["turn"] == t]  # every order of its decision
            for entry in ordered:
                assert (f"Turn {t}: {entry['player']} ordered <code>" if len(ordered) == 1
                        else f"<li>{entry['player']} ordered <code>") in text
        # every event is told, those addressed to a player too (marked); what was hidden is shown
        everything = "".join(p.read_text("utf-8") for p in folder.glob("turn-*.html"))
        for event, line in zip(state["events"], event_lines(state["ruleset"], state["events"])):
            assert escape(line) in everything
        assert ("Hidden at the time" in everything) == need(state["ruleset"], "HIDES")
        assert (f"(seen by {state['players'][0]['name']} alone)" in everything) == \
            need(state["ruleset"], "PRIVATE_EVENTS")
        # game.yaml replays to the standings it claims
        check = archive.verify_log(folder / "game.yaml")
        assert check.matches and check.orders == len(state["log"])
        assert check.standings == [{k: r[k] for k in ("player", "score", "rank")} for r in rules.result(state["engine"])]


TITLE = re.compile(r"<title>([^<]*)</title>")


def test_a_turn_page_and_its_picture_name_the_same_turn(finished) -> None:
    """The page of turn 65 shows the board after turn 65, when the game already waits for turn 66: its
    title, its decision line, its caption and the picture's own title and heading all name turn 65."""
    _, states, out = finished
    for game, state in states.items():
        title = ruleset_of(state).title
        turns = [0, *dict.fromkeys(e["turn"] for e in state["log"])]
        gaps = [t for t, after in zip(turns[1:], turns[2:]) if after > t + 1]  # the next decision is not t + 1
        chosen = {0, turns[1], turns[2], turns[len(turns) // 2], *gaps[:2], turns[-2], turns[-1]}
        assert len(chosen) >= 5
        for t in sorted(chosen):
            page = (out / game / f"turn-{t:04d}.html").read_text("utf-8")
            svg = (out / game / f"turn-{t:04d}.svg").read_text("utf-8")
            when = "at the start" if t == 0 else f"after turn {t}"
            assert TITLE.findall(page) == [f"{game}: " + ("the start" if t == 0 else f"turn {t}")]
            assert (f"Turn {t}: " in page) == (t > 0)
            assert f"<figcaption>The board {when}." in page
            assert f'alt="The board {when}"' in page
            assert TITLE.findall(svg) == [f"{title} {game}, {when}, as every player sees it"]
            over = " - over" if t == turns[-1] else ""
            assert f'font-weight="bold">{title} - {game} - {when}{over}</text>' in svg


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&#34;").replace("'", "&#39;")


def test_commits_link_the_turns_they_recorded(finished, tmp_path: Path) -> None:
    gd, states, _ = finished
    commits = archive.game_commits(gd.root, "medici")
    assert len(commits) == 1 + -(-len(states["medici"]["log"]) // COMMIT_EVERY)  # `new`, then one every 25 orders
    out = tmp_path / "site"
    r = Pbem(gd.root)("archive", "medici", "--out", str(out), "--commit-url", "https://git.example.org/c/{commit}")
    assert r.exit_code == 0, r.output
    found = archive.turn_commits("medici", commits, [0, 1, 25, 26])
    assert found[0].subject.startswith("medici: new medici game")
    assert found[1] == found[25] != found[26]
    assert found[26].subject.startswith("medici: turn 26-50: orders of ")
    page = (out / "medici" / "turn-0026.html").read_text("utf-8")
    assert f'<a href="https://git.example.org/c/{found[26].sha}"><code>{found[26].sha[:12]}</code></a>' in page
    assert escape(found[26].subject) in page
    # only the subject: the body of a commit message lists every event, those addressed to one player too
    assert "- " + escape(event_lines("medici", states["medici"]["events"][-1:])[0]) not in page


# -- active games: what every player may see, and nothing more -----------------------------------------------

@pytest.mark.parametrize("game", list(TABLES))
def test_an_active_game_shows_only_what_every_player_may_see(game: str, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    gd = GamesDir(tmp_path / "games", create=True)
    state, tokens = start(gd, game, f"Secret-{game}-seed-0123456789")
    gd = GamesDir(tmp_path / "games")
    for stage, orders in enumerate((12, 18)):
        state = play(gd, state, orders, commit_every=7, active=True)
        assert state["status"] == "active" and state["log"]
        out = tmp_path / f"site-{stage}"
        done, _ = archive.write_archive(gd, [game], out)
        assert [a.finished for a in done] == [False]
        written = files(out)
        # a page a decision taken: the decision still waiting for some of its players is none yet
        decided = {e["turn"] for e in state["log"] if e["turn"] != state["engine"]["turn"]}
        assert len(written) == 3 + 1 + 2 * (len(decided) + 1)  # index, style, standings, game page, turn pages + pictures
        secrets = need(state["ruleset"], "SECRETS")(state, tokens)
        private = [line for e, line in zip(state["events"], event_lines(state["ruleset"], state["events"]))
                   if isinstance(e.get("to"), list)]
        for name, text in written.items():
            secrets.check_text(text, "", f"{name} of the archive at turn {state['engine']['turn']}")
            assert "Hidden at the time" not in text and "seen by" not in text
            for line in private:
                assert escape(line) not in text and line not in text, f"{name}: {line!r}, a private event, shows"
        assert not (out / game / "game.yaml").exists()
        assert state["seed_sha256"] in written[f"{game}/index.html"]
        assert check_links(out) > 0

        # every past board with its hidden parts changed (the bag, the decks, the hands, the plan cards):
        # not a byte of the archive moves
        real = archive.snapshots
        change = need(state["ruleset"], "PERTURBED")

        def perturbed(s: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
            return [(t, change(dict(s, engine=engine), k)) for k, (t, engine) in enumerate(real(s))]
        with monkeypatch.context() as m:
            m.setattr(archive, "snapshots", perturbed)
            archive.write_archive(gd, [game], tmp_path / f"other-{stage}")
        assert files(tmp_path / f"other-{stage}") == written


# -- the command ----------------------------------------------------------------------------------------

@pytest.fixture
def small(pbem: Pbem, tmp_path: Path) -> Pbem:
    """A medici game m1 of a few turns through the pbem command."""
    table = helpers.Table(pbem, tmp_path)
    table.create(["anna", "ben", "cleo"], "Small-archive-seed-0123456789")
    for _ in range(3):
        table.play(table.waiting(), ["draw"] if table.turn() == 1 else ["auction"] if table.turn() == 2 else ["pass"])
    return pbem


def test_archive_command(small: Pbem, tmp_path: Path) -> None:
    out = tmp_path / "site"
    r = small("archive", "--out", str(out))
    assert r.exit_code == 0, r.output
    assert r.stdout == f"m1: 4 turn pages (only what every player may see)\nWrote {out / 'index.html'}\n"
    assert sorted(p.name for p in (out / "m1").iterdir()) == [
        "index.html", *[f"turn-{t:04d}.{x}" for t in range(4) for x in ("html", "svg")]]
    # the turns link to the commits `pbem advance` made
    log = helpers.git(small.games, "log", "--format=%H %s", "--", "m1")
    sha, subject = next(line.split(" ", 1) for line in log.splitlines() if ": turn 2" in line)
    assert f'<code title="git show {sha}">{sha[:12]}</code>:\n{subject}</p>' in (out / "m1" / "turn-0002.html").read_text()

    # rewritten in place: the archive's old files go, other files stay
    (out / "m1" / "turn-0099.html").write_text("old")
    (out / "m1" / "turn-0099.svg").write_text("old")
    (out / "notes.txt").write_text("mine")
    (out / "m1" / "notes.txt").write_text("mine too")
    r = small("archive", "m1", "--out", str(out))
    assert r.exit_code == 0, r.output
    assert not (out / "m1" / "turn-0099.html").exists() and not (out / "m1" / "turn-0099.svg").exists()
    assert (out / "notes.txt").read_text() == "mine" and (out / "m1" / "notes.txt").read_text() == "mine too"


def test_archive_refuses(small: Pbem, tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert_error(small("archive", "--out", str(afile)), f"{afile} is a file; --out needs a folder for the archive")
    games = small.games.resolve()
    for inside in (small.games, small.games / "site", small.games / "m1" / "site"):
        assert_error(small("archive", "--out", str(inside)),
                     f"{inside} is inside the games dir {games}; write the archive to a folder outside it")
    assert not (small.games / "site").exists() and not (small.games / "m1" / "site").exists()
    assert_error(small("archive", "m2", "--out", str(tmp_path / "site")), f"there is no game 'm2' in {games}")
    assert_error(small("archive", "M1", "--out", str(tmp_path / "site")), "'M1' is not a game id")
    assert not (tmp_path / "site").exists()
    assert_usage_error(small("archive", "m1"), "Missing option '--out'.")
    assert_usage_error(small("archive", "m1", "--out", str(tmp_path / "site"), "--commit-url", "https://x.org/"),
                       "Invalid value for '--commit-url': must contain {commit}, where the commit id goes")
    assert_error(Pbem(tmp_path / "nowhere")("archive", "--out", str(tmp_path / "site")),
                 f"{(tmp_path / 'nowhere').resolve()} is not a pbem games dir (no such folder); "
                 f"`pbem new` or `pbem init` creates one")


def test_archive_of_no_games_and_of_a_broken_game(pbem: Pbem, tmp_path: Path) -> None:
    r = pbem("init")
    assert r.exit_code == 0, r.output
    out = tmp_path / "site"
    r = pbem("archive", "--out", str(out))
    assert r.exit_code == 0, r.output
    assert r.stdout == f"No games in {pbem.games.resolve()}.\nWrote {out / 'index.html'}\n"
    assert "No games are archived here." in (out / "index.html").read_text()
    # a game whose state file is corrupt is left out; the others are written
    pbem.new("m1")
    pbem.new("m2")
    (pbem.games / "m2" / "state.yaml").write_text("format: [")
    r = pbem("archive", "--out", str(out))
    assert r.exit_code == 1
    assert r.stdout == f"m1: 1 turn page (only what every player may see)\nWrote {out / 'index.html'}\n"
    assert r.stderr == "Error: 1 game not archived:\n  - m2: the state file is corrupt at line 2: did not find expected node content\n"
    assert 'href="m1/index.html"' in (out / "index.html").read_text()
    assert 'href="m2/index.html"' not in (out / "index.html").read_text()


def test_texts_are_escaped(pbem: Pbem, tmp_path: Path) -> None:
    pbem.new("m1")
    gd = GamesDir(pbem.games)
    state = gd.load("m1")
    notice(state, "The GM says: <script>alert('x')</script> & <b>bold</b> \"quoted\"")
    gd.save("m1", state)
    out = tmp_path / "site"
    r = pbem("archive", "m1", "--out", str(out))
    assert r.exit_code == 0, r.output
    text = (out / "m1" / "turn-0000.html").read_text()
    assert "The GM says: &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt; &#34;quoted&#34;" in text
    assert "<script" not in "".join(files(out).values())


def test_game_record_is_plain_data(finished) -> None:
    _, states, out = finished
    record = archive.game_record(states["medici"])
    assert set(record) == {"format", "game", "ruleset", "options", "players", "deck", "seed", "seed_sha256",
                           "log", "result"}
    assert all(set(e) <= {"turn", "player", "order", "substitute", "by"} for e in record["log"])
    text = (out / "medici" / "game.yaml").read_text()
    assert text.endswith(dump_yaml(record))
    assert "@example.org" not in text and "token" not in text
    assert json.loads(json.dumps(record)) == record


def test_a_games_commits_are_read_from_a_little_before_it_began(tmp_path: Path) -> None:
    """git stops walking the history two days before the game's start: commits of the game made
    within that margin (a clock set back) are found, and a commit older than the margin is not looked at."""
    import os
    import subprocess

    root = tmp_path / "games"
    (root / "g1").mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)

    def commit(stamp: str, text: str) -> None:
        (root / "g1" / "state.yaml").write_text(text)
        subprocess.run(["git", "add", "-A"], cwd=root, check=True)
        env = {**os.environ, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
        subprocess.run(["git", "commit", "-q", "-m", f"g1: turn {text}: x"], cwd=root, check=True, env=env)

    commit("2026-01-01T00:00:00+00:00", "1")  # long before
    commit("2026-03-09T12:00:00+00:00", "2")  # a day before the recorded start: a clock set back
    commit("2026-03-12T00:00:00+00:00", "3")
    assert [c.subject for c in archive.game_commits(root, "g1", "2026-03-10T12:00:00Z")] == \
        ["g1: turn 3: x", "g1: turn 2: x"]
    assert len(archive.game_commits(root, "g1")) == 3


# -- archive: update: auto, and its front page -----------------------------------------------------------

def _order_mail(g: Any, game: str = "m1") -> bytes:
    from conftest_mail import address, order_body, order_line, player_mail

    player = g.pbem.show(game)["waiting_for"][0]
    from conftest_mail import player_of

    report = [m for m in g.outbox.all() if player_of(m) == player and game in str(m["Subject"]).split()][-1]
    return player_mail(address(player), order_body(g.tokens[player], [order_line(g.legal_order(player, game))]),
                       in_reply_to=str(report["Message-ID"]), subject=f"Re: {report['Subject']}")


def test_each_run_that_changes_a_game_writes_its_pages_and_the_front_page(pbem: Pbem, tmp_path: Path) -> None:
    """Only the game that changed is written again; the front page lists every game, whose move, since
    when and its deadline, with no address and no token."""
    from conftest_mail import FilesOut, MaildirDrop, MailGames

    site = tmp_path / "site"
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games), archive={"out": str(site), "update": "auto"})
    g.new("m2")
    assert pbem("set", "m2", "--deadline", "2d").exit_code == 0
    g.outbox.new()  # the players' word of the deadline
    g.new("m1")
    assert g.advance().exit_code == 0
    assert not site.exists()  # nothing changed: nothing written
    g.inbox.deliver(_order_mail(g))
    assert g.advance().exit_code == 0
    assert (site / "m1" / "turn-0001.html").is_file() and (site / "m2" / "index.html").is_file()
    before = {p: p.stat().st_mtime_ns for p in (site / "m2").iterdir()}
    g.inbox.deliver(_order_mail(g))
    assert g.advance().exit_code == 0
    assert (site / "m1" / "turn-0002.html").is_file()
    assert {p: p.stat().st_mtime_ns for p in (site / "m2").iterdir()} == before  # m2 did not change
    front = (site / "index.html").read_text("utf-8")
    m1, m2 = g.pbem.show("m1"), g.pbem.show("m2")
    for game, shown, due in (("m1", m1, "–"), ("m2", m2, "2026-11-23T12:00:00Z")):
        row = front.split(f'<a href="{game}/index.html">{game}</a>', 1)[1].split("</tr>", 1)[0]
        assert f"waiting for {shown['waiting_for'][0]}" in row
        assert f"<td>{shown['waiting_since']}</td>\n<td>{due}</td>" in row, row
    assert "@" not in front and not any(token in front for token in g.tokens.values())
    assert "Problems of the last run" not in front


FRONT_PROBLEMS = {
    "en": ["The host cannot send mail since 2026-11-21T12:00:00Z. The mail server cannot be reached.",
           "1 mail was set aside unread."],
    "de": ["Seit 2026-11-21T12:00:00Z kann der Server keine Mail senden. Der Mailserver ist nicht erreichbar.",
           "1 Mail wurde ungelesen beiseitegelegt."],
    "nl": ["Sinds 2026-11-21T12:00:00Z kan de server geen mail versturen. De mailserver is niet bereikbaar.",
           "1 mail is ongelezen opzijgelegd."],
}


@pytest.mark.parametrize("lang", sorted(FRONT_PROBLEMS))
def test_the_front_page_shows_the_last_runs_problems(pbem: Pbem, certs: Any, tmp_path: Path, lang: str) -> None:
    """An SMTP server that is not there and a mail set aside: the front page says so in few words, in
    the archive's language, without the server's address; `pbem status` says it in the terminal, the
    failure first."""
    from conftest_mail import MaildirDrop, MailGames, SmtpOut, player_mail
    from mailservers import SmtpServer, free_port

    site = tmp_path / "site"
    down = SmtpServer(certs, "starttls")
    down.port = free_port()  # nothing listens there
    g = MailGames(pbem, MaildirDrop(pbem.games), SmtpOut(down),
                  archive={"out": str(site), "update": "auto", "language": lang})
    g.write_config()
    pbem.new("m1")
    g.inbox.deliver(player_mail("mailer-daemon@players.test", "Delivery failed\n", subject="Undeliverable"))
    r = pbem("advance", "--quiet")
    assert r.exit_code == 3, r.output
    front = (site / "index.html").read_text("utf-8")
    problems = front.split('<section class="problems">', 1)[1].split("</section>", 1)[0]
    assert re.findall(r"<li>(.*?)</li>", problems) == FRONT_PROBLEMS[lang]
    assert "127.0.0.1" not in front and str(down.port) not in front
    status = pbem("status").stdout.splitlines()
    assert status[:2] == ["THE HOST FAILS since 2026-11-21T12:00:00Z (1 run in a row):",
                          f"  the SMTP server 127.0.0.1:{down.port} refused the connection (nothing listens on port "
                          f"{down.port}): check outbox.host, outbox.port and outbox.security in pbem.yaml, and "
                          f"that the server runs"]
    assert status[-2:] == ["The last run (2026-11-21T12:00:00Z):",
                           "  1 mail set aside unread (mail/set-aside: `pbem advance` said why)"]
