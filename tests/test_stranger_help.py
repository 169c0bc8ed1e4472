"""`help` from an address that plays no game here: the lobby's commands and the open games, in the
language of his word; the answer carries his address's key, so that `join GAME` in his reply to it takes
the seat at once (his reply proves that the address is his), while the same words in a mail that does
not answer it with that key (a forged From:, another address) are only asked to be confirmed."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import MailGames, mail_host, send, to
from pbem import lobby


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    games = mail_host(pbem)
    r = games.pbem("open", "medici", "g1", "--seats", "3")
    assert r.exit_code == 0, r.output
    return games


def text(msg: Any) -> str:
    return " ".join(msg.get_body(("plain",)).get_content().split())


def test_a_reply_to_the_help_answer_takes_a_seat_at_once(g: MailGames) -> None:
    lines, sent = send(g, "zoe@far.test", "hilfe", proven=False)
    assert lines == ["mail from zoe@far.test: answered 'help' with the lobby's commands"]
    assert [to(m) for m in sent] == ["zoe@far.test"]
    assert "mitspielen PARTIE" in text(sent[0]) and "g1" in text(sent[0])
    lines, sent = send(g, "zoe@far.test", "mitspielen g1", proven=False, in_reply_to=str(sent[0]["Message-ID"]),
                       subject=f"Re: {sent[0]['Subject']}")
    assert lines == ["mail from zoe@far.test: g1: joined as zoe"]
    assert [s["email"] for s in lobby.load(g.gd, "g1")["seated"]] == ["zoe@far.test"]


def test_the_help_answers_key_proves_only_its_own_address(g: MailGames) -> None:
    _, sent = send(g, "zoe@far.test", "help", proven=False)
    lines, sent = send(g, "eve@far.test", "join g1", proven=False, in_reply_to=str(sent[0]["Message-ID"]),
                       subject=f"Re: {sent[0]['Subject']}")
    assert lines == ["mail from eve@far.test: g1: asked to confirm 'join g1' by a reply"]
    assert lobby.load(g.gd, "g1")["seated"] == []


def test_without_reply_keys_a_reply_to_the_help_answer_is_asked_to_confirm(pbem: Pbem) -> None:
    g = mail_host(pbem)
    g.extra["reply_keys"] = False
    g.write_config()
    assert g.pbem("open", "medici", "g1", "--seats", "3").exit_code == 0
    _, sent = send(g, "zoe@far.test", "help", proven=False)
    lines, _ = send(g, "zoe@far.test", "join g1", proven=False, in_reply_to=str(sent[0]["Message-ID"]),
                    subject=f"Re: {sent[0]['Subject']}")
    assert lines == ["mail from zoe@far.test: g1: asked to confirm 'join g1' by a reply (not answered: a mail "
                     "nothing proves is answered once a day)"]
    assert lobby.load(g.gd, "g1")["seated"] == []
