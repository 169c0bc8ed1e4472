"""The `replies` section of `make bench`: a Medici game played by mail through `pbem new` and `pbem
advance`, each order a player's reply to the latest mail pbem sent him, quoting it as a phone does.
Replied with the order alone, every mail is taken and the player types nothing but his orders."""

from __future__ import annotations

import mailbox
from pathlib import Path

import pytest

from benchmarks.bench import play_by_replies
from pbem.mail.incoming import read_mail
from pbem.mail.orders import own_lines
from pbem.report import BEGIN, END

pytestmark = pytest.mark.usefixtures("pictures_unexamined")


def test_a_day_of_one_line_replies_is_never_refused_and_types_the_orders_alone(tmp_path: Path) -> None:
    play = play_by_replies(tmp_path / "games", "reply", days=1)
    assert play.day == 2  # the first day was played through
    assert play.refusals == 0 and play.fallbacks == 0
    assert play.orders == play.sent == play.runs > 20
    assert play.typed == play.goal
    # what pbem read as the players' own text is the order alone: the quoted mail is never read
    read = mailbox.Maildir(tmp_path / "games" / "mail" / "read", create=False)
    own = [own_lines(read_mail(read.get_bytes(key))) for key in read.keys()]
    assert len(own) == play.sent and all(len(lines) == 1 for lines in own)
    assert sum(len(lines[0]) for lines in own) == play.goal


def test_the_token_way_types_markers_and_token_around_each_order(tmp_path: Path) -> None:
    play = play_by_replies(tmp_path / "games", "token", limit=6)
    assert play.refusals == 0 and play.orders == play.sent == play.runs == 6
    overhead = len(BEGIN) + len("token: ") + 16 + len(END) + 3  # the token is 16 characters, 3 line ends
    assert play.typed == play.goal + play.sent * overhead


def test_the_reading_of_replies_is_measured_by_language_and_kind() -> None:
    from benchmarks.bench_replies import GOAL_MAIN, GOAL_OTHER, MAIN, measure

    fixtures, by_language, by_kind = measure(120)
    assert fixtures.cases["all"] >= 250 and by_language.cases["all"] == 120
    assert fixtures.wrong["all"] == 0 and by_language.wrong["all"] == 0  # nothing applied he did not type
    assert fixtures.applied["all"] == fixtures.ordered["all"] >= 150
    for lang, n in by_language.cases.items():
        goal = GOAL_MAIN if lang in MAIN else GOAL_OTHER
        assert by_language.applied[lang] >= goal * n, lang
    assert {"attribution", "header", "separator", "html", "phone", "banner"} <= set(by_kind.cases)
