"""The subject of pbem's answer to a mail: one `Re: ` before the thread's subject, however many reply
prefixes the players' clients piled up, in the languages they write in."""

from __future__ import annotations

import pytest

from conftest import Pbem
from conftest_mail import address, player_mail, run_mails as run, started_game
from pbem.mail.compose import reply_subject


@pytest.mark.parametrize(("subject", "answer"), [
    ("[pbem] m1: turn 3", "Re: [pbem] m1: turn 3"),
    ("Re: [pbem] m1: turn 3", "Re: [pbem] m1: turn 3"),
    ("Re: Re: Re: Re: [pbem] m1", "Re: [pbem] m1"),
    ("AW: Re: AW: [pbem] m1", "Re: [pbem] m1"),  # German Outlook
    ("Antw: Re: [pbem] m1", "Re: [pbem] m1"),  # Dutch Outlook
    ("RE[2]: Aw: Re^3: SV: x", "Re: x"),
    ("re:re:x", "Re: x"),
    ("  Re:   spaced  ", "Re: spaced"),
    ("Reisen: ein Wort, kein Präfix", "Re: Reisen: ein Wort, kein Präfix"),
    ("Fwd: [pbem] m1", "Re: Fwd: [pbem] m1"),  # a forward is not a reply: its mark stays
    ("Re:", "Re:"),
    ("", "Re:"),
])
def test_an_answer_has_one_re_before_the_subject(subject: str, answer: str) -> None:
    assert reply_subject(subject) == answer


def test_a_long_thread_of_answers_keeps_one_re_and_folds_after_the_first_word(pbem: Pbem) -> None:
    """A player whose client adds its own prefix to every reply (`AW:` here, after the `Re:` of the one
    before) gets answers whose subject stays the first mail's with one `Re: `, its header never folded
    before its first word."""
    g = started_game(pbem)
    welcome = g.welcome["anna"]
    first = str(welcome["Subject"])
    msg = welcome
    for _ in range(4):
        refs = [*str(msg.get("References", "")).split(), str(msg["Message-ID"])]
        _, sent = run(g, player_mail(address("anna"), "help", subject=f"AW: Re: {msg['Subject']}",
                                     in_reply_to=str(msg["Message-ID"]), references=refs))
        (msg,) = [m for m in sent if "anna" in str(m["To"])]
        assert str(msg["Subject"]) == f"Re: {first}"
        header = next(line for line in msg.as_string().splitlines() if line.startswith("Subject:"))
        assert header.strip() != "Subject:" and header.startswith("Subject: Re: ")
