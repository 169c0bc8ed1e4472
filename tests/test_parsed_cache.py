"""The cache of parsed state files (`GamesDir._parsed`): a load from it gives exactly what parsing the
state file gives, type for type, at every step of whole games of every ruleset; and it is used only for
the very text it was kept for."""

from __future__ import annotations

import marshal
import shutil
from pathlib import Path
from typing import Any

import pytest

from helpers import play_pipeline_game
from rooms import every_table
from pbem import bots, store
from pbem.store import HISTORIES, STATE_FILE, GamesDir



def same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (`1 == True` and `[1] == (1,)` are not enough;
    a history is read lazily, so it is compared as a list)."""
    if not isinstance(a, (dict, list)) and hasattr(a, "__getitem__") and not isinstance(a, str):
        a, b = list(a), list(b)
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def without_history(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in HISTORIES}


def parsed_afresh(gd: GamesDir, game: str) -> dict[str, Any]:
    shutil.rmtree(gd.root / ".git" / "pbem-parsed", ignore_errors=True)
    return gd.load(game)


@pytest.mark.parametrize("ruleset,names,options", every_table())
def test_a_cached_load_is_the_parsed_state_at_every_step(tmp_path: Path, ruleset: str, names: list[str],
                                                        options: dict[str, str]) -> None:
    checked = []

    def orders_of(state: dict[str, Any], player: str, shown: dict[str, Any]) -> list[Any]:
        gd = GamesDir(tmp_path / "games")
        gd.ensure_repo()  # the cache lives in .git
        gd.save("g1", state)
        cached = gd.load("g1")
        assert (gd.root / ".git" / "pbem-parsed" / "g1.marshal").is_file()
        fresh = parsed_afresh(gd, "g1")
        assert same(cached, fresh)
        assert same(without_history(cached), without_history(state))
        assert all(list(cached[key]) == list(state[key]) for key in HISTORIES)
        checked.append(state["engine"]["turn"])
        return [bots.choose(ruleset, shown["view"], player, shown["legal_orders"])]

    _, final, _ = play_pipeline_game(tmp_path, ruleset, names, options, f"parsed-{ruleset}-{len(names)}",
                                     orders_of, check_every=50)
    assert len(checked) > min(20, len(final["log"]) - 1)  # (a short game: every order of it)


def test_the_cache_serves_only_the_text_it_was_kept_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def orders_of(state: dict[str, Any], player: str, shown: dict[str, Any]) -> list[Any]:
        GamesDir(tmp_path / "games").ensure_repo()  # the cache lives in .git
        return [bots.choose("medici", shown["view"], player, shown["legal_orders"])]

    gd, state, _ = play_pipeline_game(tmp_path, "medici", ["anna", "ben", "cleo"], {}, "parsed-edits", orders_of,
                                      check_every=50)
    path = gd.root / "g1" / STATE_FILE
    text = path.read_text("utf-8")
    assert gd.load("g1")["status"] == "finished"
    assert (gd.root / ".git" / "pbem-parsed" / "g1.marshal").is_file()
    with monkeypatch.context() as m:  # served from the cache: no YAML parsed
        m.setattr(store.gamesdir, "parse_yaml", lambda text, what: pytest.fail("parsed"))
        assert gd.load("g1")["status"] == "finished"
    # a hand edit with the checksum left as it was: the file is parsed and checked, not served from the cache
    path.write_text(text.replace("status: finished", "status: paused"), "utf-8")
    assert gd.load("g1")["status"] == "paused"
    # a cache that is not pbem's (truncated, garbage): the file is parsed
    cache = gd.root / ".git" / "pbem-parsed" / "g1.marshal"
    path.write_text(text, "utf-8")
    kept = cache.read_bytes()
    fresh = parsed_afresh(gd, "g1")
    assert same(marshal.loads(cache.read_bytes()), marshal.loads(kept))  # parsed, it is kept for the next load
    # a whole marshal naming this text, but not sealed as pbem seals what it keeps (a write cut short
    # that happens to read as marshal): the file is parsed
    forged = marshal.dumps((marshal.loads(kept)[0], dict(marshal.loads(kept)[1], status="paused")))
    for junk in (kept[:40], kept[:-1], b"not marshal", b"", forged, forged + kept[-16:]):
        cache.write_bytes(junk)
        assert same(gd.load("g1"), fresh)
