"""Every act a mail can ask for has a row in the proof table (`pbem.mail.proof.TABLE`), found from the
code's own tables of words: the mail commands, the words that set a seat's language or absence, the
lobby's verbs, `stop`, `watch` and `unwatch`, table talk and orders. A command without a row is
refused, through `pbem advance` as anywhere else."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import address, flat_text as text, player_mail, run_mails as run, started_game
from pbem.mail import proof
from pbem.mail.proof import COMMAND_ACTS, TABLE, Proof, act_of, allows


def every_command() -> dict[str, set[str]]:
    """Each command pbem reads in a mail, by the name of its row's key, with the words it is read from."""
    from pbem.absence import AWAY_WORDS, BACK_WORDS
    from pbem.donotmail import STOP_WORDS
    from pbem.mail.commands import ALIASES, COMMAND_WORDS, COMMANDS, LANGUAGE_WORDS, command_in
    from pbem.mail.lobby_words import VERBS
    from pbem.mail.observers import UNWATCH_WORDS, WATCH_WORDS
    from pbem.talk import TALK_LINE

    found: dict[str, set[str]] = {}

    def read(line: str) -> None:
        command = command_in([line])
        assert command is not None, line
        found.setdefault(command.split(" ", 1)[0], set()).add(line)

    for word in [*COMMANDS, *ALIASES, *(w for words in COMMAND_WORDS.values() for w in words)]:
        read(word)
    for word in LANGUAGE_WORDS:
        read(f"{word} de")
    for word in AWAY_WORDS:
        read(f"{word} 3 Dec")
    for word in BACK_WORDS:
        read(word)
    for verb, words in VERBS.items():
        found.setdefault(verb, set()).update(words)
    found["stop"] = set(STOP_WORDS)
    found["watch"] = set(WATCH_WORDS)
    found["unwatch"] = set(UNWATCH_WORDS)
    found["say"] = {w for w in ("say", "sag", "sage", "zeg") if TALK_LINE.match(f"{w}: hello")}
    found["orders"] = {"orders"}
    return found


def test_every_command_the_code_reads_has_a_row() -> None:
    commands = every_command()
    assert len(commands) >= 20
    missing = {name: sorted(words) for name, words in commands.items() if act_of(name) not in TABLE}
    assert missing == {}
    assert sorted(set(COMMAND_ACTS) - set(commands)) == []  # no row for a command the code does not read


def test_every_row_of_the_table_is_some_acts() -> None:
    assert set(COMMAND_ACTS.values()) | {proof.ASK} == set(TABLE)


def test_an_act_without_a_row_is_allowed_by_no_proof() -> None:
    from pbem.mail.seats import Proven

    state = {"game": "m1", "players": [], "engine": {"turn": 1}}
    seat = Proven(state, "anna", 1)
    for given in (Proof("a@x.test"), Proof("a@x.test", proof.TOKEN, seat, True, frozenset({"g1"}), True, seat,
                                             frozenset({"m1"}))):
        assert not allows(given, "dance")
    assert allows(Proof("a@x.test", proof.TOKEN, seat, True, frozenset(), True, seat), proof.AHEAD)


def test_a_command_whose_row_is_taken_out_is_refused_by_its_id(pbem: Pbem, monkeypatch: Any) -> None:
    """The table decides: with the row of `status` gone, a keyed `status` is refused, not answered."""
    g = started_game(pbem)
    lines, sent = run(g, player_mail(address("anna"), "status", subject=f"Re: {g.welcome['anna']['Subject']}",
                                     in_reply_to=str(g.welcome["anna"]["Message-ID"])))
    assert lines == ["m1: mail from anna@players.test: m1: answered 'status'"]
    monkeypatch.delitem(COMMAND_ACTS, "status")
    lines, sent = run(g, player_mail(address("anna"), "status", subject=f"Re: {g.welcome['anna']['Subject']}",
                                     in_reply_to=str(g.welcome["anna"]["Message-ID"])))
    said = "'status' is not a command this host carries out by mail; reply 'help' for the commands"
    assert lines == [f"m1: mail from anna@players.test: refused: {said}"]
    assert said in text(sent[0])


@pytest.mark.parametrize("lang, said", [
    ("de", "'status' ist kein Kommando, das dieser Server per Mail ausführt; antworte mit 'hilfe', um die "
           "Kommandos zu sehen"),
    ("nl", "'status' is geen opdracht die deze server per mail uitvoert; antwoord 'hulp' voor de opdrachten")])
def test_the_refusal_of_a_command_without_a_row_in_german_and_dutch(lang: str, said: str) -> None:
    from pbem.refusals import refuse
    from pbem.report import refusal_text

    assert refusal_text(refuse("no-such-act", command="status"), lang, None) == said
