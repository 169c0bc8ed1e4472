from __future__ import annotations
import pytest
from conftest import Pbem
from conftest_mail import FilesOut, MaildirDrop, MailGames, answer, send, to
from test_lobby import plain

@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    games = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    games.write_config()
    (pbem.games / "mail").mkdir()
    return games

def dump(sent):
    for m in sent:
        print("=====", to(m), m["Subject"]); print(plain(m))

def test_scratch(g):
    assert g.pbem("open", "medici", "g1", "--seats", "4").exit_code == 0
    lines, sent = send(g, "jutta@x.test", "mitspielen g1"); dump(sent)
    lines, sent = send(g, "jutta@x.test", "hilfe"); print(lines); dump(sent)
    lines, sent = send(g, "dora@x.test", "hilfe", proven=False); print(lines); dump(sent)
    lines, sent = send(g, "jan@x.test", "meedoen g1"); dump(sent)
    lines, sent = send(g, "jan@x.test", "hulp"); print(lines); dump(sent)

def test_called_off(g):
    from test_i18n_whole_mails import a_german_player
    a_german_player(g)
    lines, sent = send(g, "anna@players.test", "nieuw medici met joost@x.test, kees@x.test")
    invitation = {to(m): m for m in sent}
    lines, told = answer(g, invitation["joost@x.test"], "joost@x.test", "Nee, helaas")
    lines, told = answer(g, invitation["kees@x.test"], "kees@x.test", "misschien"); print(lines); dump(told)
    lines, told = send(g, "kees@x.test", "spellen me"); print(lines); dump(told)
