"""Refusals as message ids: the rules refuse with an id and its values (`pbem.errors.Refusal`), pbem puts
them in its frames by id, and the player reads them written from the id in his language. Every id has
its sentence in every catalog: one without a translation fails here, by its id."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from pbem import refusals as pipeline
from pbem.errors import IllegalOrder, Refusal
from pbem.game import NOTICE_MESSAGES, apply_orders, new_game
from pbem.report import _refusals_module, refusal_text
from pbem.rules.base import schema_messages
from pbem.store import GamesDir
from rooms import GAMES

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "pbem" / "locale"


def rules_files(game: str) -> list[Path]:
    """The Python files of a game's rules: its package's modules, or its one module."""
    import importlib

    from pbem.rules.base import KNOWN

    path = Path(importlib.import_module(KNOWN[game]).__file__ or "")
    return sorted(path.parent.glob("*.py")) if path.name == "__init__.py" else [path]


# each module of ids, the catalog its words are in, and the code that refuses with its ids
MODULES = [("pbem", pipeline, [p for p in (ROOT / "pbem").rglob("*.py") if "rules" not in p.parts]
            + [ROOT / "pbem" / "rules" / "base.py"])] + \
          [(game, _refusals_module(game), rules_files(game)) for game in GAMES if _refusals_module(game) is not None]
BY_ID = [(domain, msg, fmt) for domain, module, _ in MODULES for msg, fmt in module.MESSAGES.items()] + \
        [("pbem", msg, fmt) for msg, fmt in pipeline.RULES_MESSAGES.items()] + \
        [("pbem", "yaml-problem", fmt) for fmt in pipeline.YAML_PROBLEMS] + \
        [("pbem", "schema", fmt) for fmt in pipeline.SCHEMA_MESSAGES] + \
        [(game, "schema", fmt) for game in GAMES for fmt in schema_messages(game)] + \
        [("pbem", msg, fmt) for msg, fmt in NOTICE_MESSAGES.items()]


def catalog(lang: str, domain: str) -> Any:
    from pbem.rules.base import files_of

    locale = files_of(domain, "locale") or LOCALE
    with (locale / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


@pytest.mark.parametrize("lang", ["de", "nl"])
def test_every_message_id_has_its_sentence_in_every_language(lang: str) -> None:
    missing = []
    for domain, msg, fmt in BY_ID:
        entry = catalog(lang, domain).get(fmt)
        if entry is None or not entry.string or entry.fuzzy:
            missing.append(f"{domain}:{msg}")
        elif sorted(re.findall(r"%\(\w+\)s", entry.string)) != sorted(re.findall(r"%\(\w+\)s", fmt)):
            missing.append(f"{domain}:{msg} (its values)")
    assert not missing, f"{lang}: no sentence for the ids {missing}"


@pytest.mark.parametrize("domain, module, sources", MODULES, ids=[m[0] for m in MODULES])
def test_every_id_the_code_refuses_with_is_written_once(domain: str, module: Any, sources: list[Path]) -> None:
    """An id the code names exists in its module (a game's rules: or among the words every game says,
    `RULES_MESSAGES`); no format is written twice (one sentence, one id)."""
    used = {msg for path in sources for msg in re.findall(r"\brefuse(?:_rules)?\(\s*\"([a-z0-9-]+)\"", path.read_text("utf-8"))}
    assert used, domain
    known = set(module.MESSAGES) | set(pipeline.RULES_MESSAGES)
    assert not used - known, f"{domain}: ids refused with but not written: {used - known}"
    formats = list(module.MESSAGES.values()) + (list(pipeline.RULES_MESSAGES.values()) if domain == "pbem" else [])
    assert len(set(formats)) == len(formats), f"{domain}: a format under two ids"


def test_no_refusals_module_repeats_a_sentence_of_the_code() -> None:
    """The rules and the pipeline raise by id: no English format of a module of ids is also a text the
    code writes out again (the sentence is in MESSAGES, once)."""
    for domain, module, sources in MODULES:
        for path in sources:
            if path.name.endswith("refusals.py"):
                continue
            code = re.sub(r"\b_\(\"", "_(", path.read_text("utf-8"))  # (a view may say it too, as its own words)
            for fmt in module.MESSAGES.values():
                head = fmt.split("%(")[0]
                if len(head) >= 20:  # a sentence, not a frame such as `%(place)s: %(why)s`
                    assert f'"{head}' not in code, (domain, path.name, fmt)


def a_medici_game(tmp_path: Path) -> dict[str, Any]:
    state, _ = new_game(GamesDir(tmp_path), "medici", "m1", [(p, f"{p}@x.test") for p in ("anna", "ben", "cleo")],
                        {}, "refusals-by-their-id-seed")
    return state


def test_a_refusal_of_the_rules_reaches_the_player_by_its_id(tmp_path: Path) -> None:
    state = a_medici_game(tmp_path)
    auctioneer = state["engine"]["auctioneer"]
    with pytest.raises(IllegalOrder) as refused:
        apply_orders(state, auctioneer, state["engine"]["turn"], [{"bid": 5}])
    refusal = refused.value.refusal
    assert isinstance(refusal, Refusal) and refusal.msg == "order-refused"
    why = refusal.values["why"]
    assert isinstance(why, Refusal) and why.msg == "auctioneer-draws" and why.values == {"order": "'bid: 5'"}
    assert str(refusal) == "order 'bid: 5': you are the auctioneer: send 'draw' or 'auction', not 'bid: 5'"
    assert refusal_text(refusal, "de", "medici") == \
        "Befehl 'bieten: 5': du bist Auktionator: schicke 'aufdecken' oder 'versteigern', nicht 'bieten: 5'"
    assert refusal_text(refusal, "nl", "medici") == \
        "order 'bieden: 5': jij bent de veilingmeester: stuur 'trekken' of 'veilen', niet 'bieden: 5'"


def test_one_order_of_several_is_refused_in_its_frame_by_id(tmp_path: Path) -> None:
    state = a_medici_game(tmp_path)
    auctioneer = state["engine"]["auctioneer"]
    with pytest.raises(IllegalOrder) as refused:
        apply_orders(state, auctioneer, state["engine"]["turn"], ["auction", {"bid": 999}])
    refusal = refused.value.refusal
    assert isinstance(refusal, Refusal)
    assert refusal.msg in ("order-n-refused-nothing", "no-longer-yours")
    german = refusal_text(refusal, "de", "medici")
    assert german.startswith("Befehl 2 ('bieten: 999')") and "order" not in german and "bid" not in german


def test_a_text_without_an_id_stays_as_it_is() -> None:
    """No English is read back by its words any more: a text with no id (a GM's message) is kept whole."""
    assert refusal_text("bid 50 is more than your money (43)", "de", "medici") == "bid 50 is more than your money (43)"


def test_a_notice_keeps_its_id_and_is_written_from_it(tmp_path: Path) -> None:
    """A standing order the rules refuse when its time comes: the notice keeps its English, its id and
    its values (the refusal among them as plain data, as the state file holds it), and the player reads
    it written from the id."""
    import copy

    import yaml

    from pbem.game import STANDING_REFUSED, notice
    from pbem.report import notices_in

    state = a_medici_game(tmp_path)
    auctioneer = state["engine"]["auctioneer"]
    with pytest.raises(IllegalOrder) as refused:
        apply_orders(state, auctioneer, state["engine"]["turn"], [{"bid": 5}])
    notice(state, STANDING_REFUSED, to=[auctioneer], args={"order": "'bid: 5'", "why": refused.value.refusal})
    event = yaml.safe_load(yaml.safe_dump(copy.deepcopy(state["events"][-1])))  # as the state file keeps it
    assert event["msg"] == "standing-order-refused" and event["values"]["why"]["msg"] == "order-refused"
    assert event["text"] == ("Your standing orders gave 'bid: 5', which the rules refuse now (order 'bid: 5': you are "
                             "the auctioneer: send 'draw' or 'auction', not 'bid: 5'); they were dropped.")
    (german,) = notices_in([event], "de", "medici")
    assert german["text"] == ("Deine Dauerbefehle ergaben 'bieten: 5', was die Regeln jetzt nicht erlauben (Befehl "
                              "'bieten: 5': du bist Auktionator: schicke 'aufdecken' oder 'versteigern', nicht "
                              "'bieten: 5'); sie wurden gestrichen.")
    assert notices_in([event], "en", "medici") == [event]
