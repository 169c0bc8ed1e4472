"""One report skeleton for every game (templates/common/report.txt.j2), its words translated once in
pbem's domain; and the catalogs made from the code by `python -m pbem.catalogs catalogs` (`make catalogs`),
one game's domain alone with `--game`, without rewriting a catalog whose entries stay the same."""

from __future__ import annotations

import filecmp
import shutil
import subprocess
import sys
from pathlib import Path

import jinja2
import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from pbem import catalogs, i18n
from pbem.game import apply_orders, new_game, show, waiting_for
from pbem.report import env, env_for, render_report
from pbem.rules.base import KNOWN, files_of
from pbem.store import GamesDir
from rooms import EXAMPLE, GAMES, room

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "pbem" / "locale"
SKELETON = "common/report.txt.j2"
LANGS = ("de", "nl")


def skeleton_words() -> set[str]:
    """Every text the skeleton says (with `common_()`)."""
    found = extract_from_file("jinja2", str(ROOT / "templates" / SKELETON), keywords={"common_": None},
                              options={"extensions": "jinja2.ext.i18n"})
    return {message for _line, message, _comments, _context in found}


def templates_of(game: str) -> Path:
    """A game's templates: templates/GAME, or the folder of a game that lives outside pbem/."""
    return files_of(game, "templates") or ROOT / "templates" / game


def locale_of(game: str) -> Path:
    """A game's catalogs: pbem/locale, or the `locale/` of a game that lives outside pbem/."""
    return files_of(game, "locale") or LOCALE


def msgids(path: Path) -> set[str]:
    with path.open("rb") as f:
        return {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}


def test_the_skeleton_says_the_common_lines() -> None:
    words = skeleton_words()
    assert {"SINCE YOUR LAST REPORT", "FINAL STANDINGS", "YOUR MOVE", "Seed commitment (sha256):",
            "Nothing for you to do: waiting for %(players)s.", "WAITING FOR %(players)s"} <= words


@pytest.mark.parametrize("game", sorted(KNOWN))
def test_every_games_report_extends_the_skeleton(game: str) -> None:
    source = (templates_of(game) / "report.txt.j2").read_text("utf-8")
    tree = env().parse(source)
    extends = list(tree.find_all(jinja2.nodes.Extends))
    assert len(extends) == 1 and isinstance(extends[0].template, jinja2.nodes.Const)
    assert extends[0].template.value == SKELETON
    # nothing of its own outside its blocks: the skeleton writes the report, the game fills it
    blocks = {b.name for b in tree.find_all(jinja2.nodes.Block)}
    assert "board" in blocks and blocks <= {"board", "final", "now", "decision", "move"}


@pytest.mark.parametrize("game", sorted(KNOWN))
def test_no_games_catalog_holds_a_skeleton_word(game: str) -> None:
    words = skeleton_words()
    locale = locale_of(game)
    for catalog in [locale / f"{game}.pot", *[locale / lang / "LC_MESSAGES" / f"{game}.po" for lang in LANGS]]:
        assert msgids(catalog) & words == set(), catalog
    assert words <= msgids(LOCALE / "pbem.pot")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(KNOWN))
def test_the_skeletons_words_come_from_pbems_domain_in_every_game(lang: str, game: str) -> None:
    """`common_()` in a game's environment is pbem's catalog alone: the game's catalog cannot word a
    skeleton line otherwise; and every skeleton line is translated."""
    common = env_for(lang, game).globals["common_"]
    words = i18n.translator(lang)
    for message in skeleton_words():
        assert common(message) == words.gettext(message) != message, message
    assert common("WAITING FOR %(players)s", players="ben") == words.gettext("WAITING FOR %(players)s") % {
        "players": "ben"}


@pytest.mark.parametrize("game", GAMES)
def test_a_report_reads_the_skeleton_in_the_readers_language(tmp_path: Path, game: str) -> None:
    """The move first, the seed's hash last, and the skeleton's lines in German: for the player to move
    and for one who waits."""
    count, options = room(game).TABLES[0]
    names = list(room(game).PLAYERS[:count])
    state, _ = new_game(GamesDir(tmp_path / "games"), game, "s1", [(p, f"{p}@example.org") for p in names], options,
                        "skeleton-seed")
    if set(waiting_for(state)) == set(names):  # a decision of every player at once: one decides first
        first = names[-1]
        state, _ = apply_orders(state, first, state["engine"]["turn"],
                                [show(state, first)["legal_orders"][0]])
    mover = waiting_for(state)[0]
    other = next(p for p in names if p not in waiting_for(state))
    text = render_report(state, mover, state["events"], lang="de")
    lines = text.rstrip("\n").split("\n")
    assert lines[0].startswith(("DEIN ZUG", "DEIN ZUG:"))
    assert f" s1 - Zug {state['engine']['turn']} - Bericht für {mover}" in text
    assert "SEIT DEINEM LETZTEN BERICHT" in text and "-----" in text
    assert lines[-2:] == ["Hinterlegter Seed (sha256):", "  " + state["seed_sha256"]]
    waiting = render_report(state, other, state["events"], lang="de").split("\n")
    assert waiting[0].startswith(f"Für dich gibt es nichts zu tun: die Partie wartet auf {mover}")
    gm = render_report(state, None, state["events"], lang="nl").split("\n")
    assert gm[0].startswith(f"WACHT OP {mover}") and " - weergave van de spelleider" in gm[2]


# -- the catalogs, made from the code -------------------------------------------------------------------

def run_catalogs(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pbem.catalogs", "catalogs", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_catalogs_are_in_step_with_the_code(tmp_path: Path) -> None:
    """Made again from the code, no catalog changes: none is rewritten (not even its date)."""
    copy = tmp_path / "locale"
    shutil.copytree(LOCALE, copy)
    before = files(copy)
    # a game that lives outside pbem/ is covered while it is registered, in its own folder
    outside = {game: files(folder) for game in sorted(KNOWN) if (folder := files_of(game, "locale"))}
    result = run_catalogs("--locale", str(copy))
    assert (result.returncode, result.stdout, result.stderr) == (0, "every catalog is up to date\n", "")
    assert files(copy) == before
    assert {game: files(files_of(game, "locale")) for game in outside} == outside  # type: ignore[arg-type]


def test_one_games_catalogs_alone(tmp_path: Path) -> None:
    """`--game GAME` brings that game's .pot and .po files up to date and touches no other file; the
    translations kept, a word the code no longer says gone, a new one in."""
    game = next(g for g in GAMES if g != EXAMPLE and (LOCALE / f"{g}.pot").is_file())
    copy = tmp_path / "locale"
    shutil.copytree(LOCALE, copy)
    stale = '\nmsgid "a word nobody says any more"\nmsgstr "ein Wort, das keiner mehr sagt"\n'
    for domain in (game, EXAMPLE):  # both out of step with the code
        with (copy / "de" / "LC_MESSAGES" / f"{domain}.po").open("a", encoding="utf-8") as f:
            f.write(stale)
    pot = copy / f"{game}.pot"
    said = sorted(msgids(pot))[0]  # a word the code says, taken out of the template
    pot.write_text(pot.read_text("utf-8").replace(f'msgid "{said}"\nmsgstr ""\n\n', ""), "utf-8")
    assert said not in msgids(pot)
    before = files(copy)

    result = run_catalogs("--locale", str(copy), "--game", game)
    assert result.returncode == 0 and result.stderr == ""
    after = files(copy)
    changed = sorted(name for name in before if before[name] != after.get(name))
    assert changed == [f"de/LC_MESSAGES/{game}.po", f"{game}.pot"]
    assert sorted(after) == sorted(before)
    assert result.stdout == f"wrote {copy / (game + '.pot')}\nwrote {copy / 'de' / 'LC_MESSAGES' / (game + '.po')}\n"
    assert said in msgids(pot)
    assert "a word nobody says any more" not in msgids(copy / "de" / "LC_MESSAGES" / f"{game}.po")
    assert "a word nobody says any more" in msgids(copy / "de" / "LC_MESSAGES" / f"{EXAMPLE}.po")
    # the game's catalogs are as the repository's again, translations and all (the German one newly dated)
    assert filecmp.cmp(copy / "nl" / "LC_MESSAGES" / f"{game}.po", LOCALE / "nl" / "LC_MESSAGES" / f"{game}.po",
                       shallow=False)
    with (copy / "de" / "LC_MESSAGES" / f"{game}.po").open("rb") as f:
        kept = {m.id: m.string for m in read_po(f) if m.id}
    with (LOCALE / "de" / "LC_MESSAGES" / f"{game}.po").open("rb") as f:
        assert kept == {m.id: m.string for m in read_po(f) if m.id}

    again = run_catalogs("--locale", str(copy), "--game", game)
    assert again.stdout == "every catalog is up to date\n" and files(copy) == after


def test_an_unknown_game_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / "locale"
    shutil.copytree(LOCALE, copy)
    before = files(copy)
    result = run_catalogs("--locale", str(copy), "--game", "chess")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"error: unknown game 'chess' (known: {', '.join(sorted(KNOWN))})\n"
    assert files(copy) == before


def test_a_new_language_gets_its_catalogs(tmp_path: Path) -> None:
    """A language with no catalog yet gets one per domain, every entry untranslated."""
    copy = tmp_path / "locale"
    shutil.copytree(LOCALE, copy)
    written = catalogs.update_catalogs(copy, [EXAMPLE], languages=("de", "nl", "fr"))
    assert written == [copy / "fr" / "LC_MESSAGES" / f"{EXAMPLE}.po"]
    with written[0].open("rb") as f:
        made = read_po(f, locale="fr")
    assert {m.id if isinstance(m.id, str) else m.id[0] for m in made if m.id} == msgids(copy / f"{EXAMPLE}.pot")
    assert not any(any(m.string) if isinstance(m.string, tuple) else m.string for m in made if m.id)
