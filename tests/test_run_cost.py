"""What makes a real run cheap changes no byte it writes: a run's mails written without an fsync each and
delivered to files as they were posted; the phone HTML folded as a reading character by character folds
it; a board's white ground left unpainted on a picture still white; the PNG rows as png_bytes writes
them; mail headers parsed once a process; and `make bench` prints the cost of a real run beside its
goals, in units measured alongside."""

from __future__ import annotations

import email
import email.policy
import random
import re
from datetime import datetime, timezone
from pathlib import Path

import pytest

from pbem import pictures, raster
from pbem.advance import BatchPostman
from pbem.config import load_config
from pbem.mail import phone
from pbem.mail.boxes import Postman
from pbem.mail.compose import Picture, compose

FONTS = tuple(Path(f) for f in pictures._fonts())
needs_fonts = pytest.mark.skipif(len(FONTS) != 2, reason="DejaVu Sans is not installed (make install adds it)")
WHEN = datetime(2026, 11, 26, 10, 0, tzinfo=timezone.utc)


def mail(config, name: str, subject: str, body: str, n: int, png: bytes | None = None) -> email.message.EmailMessage:
    return compose(config, name, f"player{n}@example.org", subject, body, f"<pbem.g{n}.p{n}.2.t61.kabc@localhost>",
                   in_reply_to="<root@localhost>", references=["<root@localhost>"], date=WHEN,
                   picture=Picture(png, f"Das Brett von g{n}", f"g{n}-turn-61.png") if png else None,
                   reply_to=f"pbem+{n}.abc@localhost")


# -- the mails of a run ---------------------------------------------------------------------------------

def test_a_runs_postman_writes_and_delivers_the_bytes_the_postman_does(tmp_path: Path) -> None:
    """Posted without an fsync each and delivered to files with one sync for all: the same files, the
    outbox holding the very bytes posted, the posted ones moved to mail/sent."""
    folders = {}
    for kind in ("plain", "batch"):
        (tmp_path / kind).mkdir()
    # the same mails for both (each games dir's own secret keys its List-Unsubscribe)
    config = load_config(tmp_path / "plain")
    mails = [mail(config, name, f"[pbem] g{n} Zug 61: du bist dran – {n}", "Grüße\n" * (n + 1), n)
             for n, name in enumerate(["anna", "Jörg Müller", "Zoë, Esq."])]
    for kind, cls in (("plain", Postman), ("batch", BatchPostman)):
        root = tmp_path / kind
        postman = cls(load_config(root))
        for n, msg in enumerate(mails):
            postman.post(f"g{n}.p{n}.0002", msg)
        assert postman.deliver() == (3, [])
        assert postman.waiting() == []
        folders[kind] = {p.relative_to(root).as_posix(): p.read_bytes()
                         for p in sorted((root / "mail").rglob("*.eml"))}
    assert folders["batch"] == folders["plain"]
    assert sorted(folders["batch"]) == sorted([f"mail/outbox/g{n}.p{n}.0002.eml" for n in range(3)]
                                              + [f"mail/sent/g{n}.p{n}.0002.eml" for n in range(3)])


def test_a_runs_postman_sends_through_smtp_as_the_postman_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only delivery to files is its own; any other outbox is the postman's."""
    postman = BatchPostman(load_config(tmp_path))
    postman.config.outbox = {"type": "smtp", "host": "mail.example.org"}
    called = []
    monkeypatch.setattr(Postman, "deliver", lambda self: called.append(self) or (0, []))
    assert postman.deliver() == (0, [])
    assert called == [postman]


def test_headers_parsed_once_make_the_same_mails(tmp_path: Path) -> None:
    """The second mail with the same headers is the bytes of the first, and changing a header of one
    mail (as set_boundary does) leaves the other as it was."""
    config = load_config(tmp_path)
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8
    first = [mail(config, name, subject, "Grüße\n", n, png if n % 2 else None).as_bytes()
             for n, (name, subject) in enumerate([("anna", "[pbem] g1 turn 61: your move"),
                                                  ("Jörg Müller", "[pbem] g1 Zug 61: du bist dran – Öl " * 4)])]
    again = [mail(config, name, subject, "Grüße\n", n, png if n % 2 else None).as_bytes()
             for n, (name, subject) in enumerate([("anna", "[pbem] g1 turn 61: your move"),
                                                  ("Jörg Müller", "[pbem] g1 Zug 61: du bist dran – Öl " * 4)])]
    assert again == first
    one, other = mail(config, "anna", "same", "x\n", 1), mail(config, "anna", "same", "x\n", 1)
    one.replace_header("Subject", "changed")
    assert one["Subject"] == "changed" and other["Subject"] == "same"
    parsed = email.message_from_bytes(first[1], policy=email.policy.default)
    assert parsed["To"].addresses[0].display_name == "Jörg Müller"


# -- the phone HTML ---------------------------------------------------------------------------------------

def fold_by_characters(markup: str) -> str:
    """`phone.fold` as a reading of every character in turn: what the fast reading must give."""
    out: list[str] = []
    pre = pending = False
    for line in markup.split("\n"):
        pieces: list[tuple[str, str]] = []
        start, sep = 0, ""
        tag = quote = block = False
        for i, ch in enumerate(line):
            if pre:
                if line.startswith("</pre>", i):
                    pre, tag = False, True
                continue
            if tag:
                if ch == "'":
                    quote = not quote
                elif ch == ">" and not quote:
                    if block and not pending:
                        pieces.append((sep, line[start:i + 1]))
                        start, sep = i + 1, ""
                    tag, pre, pending = False, pending, False
                elif ch == " " and not quote:
                    pieces.append((sep, line[start:i]))
                    start, sep = i + 1, " "
                elif ch in ";," and not quote:
                    pieces.append((sep, line[start:i + 1]))
                    start, sep = i + 1, ""
                continue
            if ch == "<":
                block = phone.BLOCK.match(line, i) is not None
                if phone.SAFE.match(line, i) and i > start:
                    pieces.append((sep, line[start:i]))
                    start, sep = i, ""
                tag, pending = True, line.startswith("<pre", i)
            elif ch == " ":
                pieces.append((sep, line[start:i]))
                start, sep = i + 1, " "
        pieces.append((sep, line[start:]))
        current = ""
        for k, (before, piece) in enumerate(pieces):
            if k and len(current) + len(before) + len(piece) > phone.FOLD:
                out.append(current)
                current = piece
            else:
                current += (before if k else "") + piece
        out.append(current)
    return "\n".join(out)


def test_the_phone_html_is_folded_as_a_reading_of_every_character_folds_it() -> None:
    text = ("MEDICI g1 - turn 61 - your move\n\nTHE TABLE\n  player   money  value\n* anna        17      5\n"
            "  ben         32     12\n\nYou may send: draw; pass.\n\n----- pbem orders begin -----\n"
            "token: abc\n#  - draw\n----- pbem orders end -----\n")
    markup = phone.phone_html(text, "The board <of> g1 – 'as anna sees it'")
    assert markup == phone.phone_html(text, "The board <of> g1 – 'as anna sees it'")
    unfolded = markup.replace("\n", " ")
    assert phone.fold(unfolded) == fold_by_characters(unfolded)
    rnd = random.Random(13)
    pieces = ["<", ">", " ", "'", ";", ",", "\n", "a", "word", "<pre>", "</pre>", "<pre style='a b'>", "<p ",
              "<p>", "<div>", "</div> <div>", "<td>", "<br>", "<li style=\"x:1;y:2\">", "x" * 40, "  "]
    for _ in range(3000):
        markup = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 60)))
        assert phone.fold(markup) == fold_by_characters(markup), repr(markup)


# -- the board picture ------------------------------------------------------------------------------------

def svg_of(body: str, width: int = 120, height: int = 80) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" height="{height}" '
            f'viewBox="0 0 {width // 2} {height // 2}">{body}</svg>')


@needs_fonts
@pytest.mark.parametrize("ground", ['<rect x="0" y="0" width="60" height="40" fill="#FFFFFF"/>',
                                    '<rect x="0" y="0" width="60" height="40" fill="white"/>',
                                    '<g fill="#FFFFFF"><rect x="2" y="2" width="30" height="30"/></g>'])
def test_a_white_ground_left_unpainted_is_the_picture_painted(ground: str, monkeypatch: pytest.MonkeyPatch) -> None:
    body = (ground + '<rect x="5" y="4" width="20" height="10" rx="3" fill="#E69F00" stroke="#000000" stroke-width="0.8"/>'
            '<circle cx="40" cy="20" r="8" fill="#56B4E9" stroke="#000000"/><text x="30" y="36" font-size="9" '
            'text-anchor="middle" font-weight="bold">p1 bids 7</text>'
            '<rect x="0" y="0" width="60" height="40" fill="#FFFFFF" stroke="none"/>'  # white over ink: painted
            '<text x="4" y="12" font-size="9">over</text>')
    svg = svg_of(body)
    skipped = raster.draw(svg, FONTS)
    monkeypatch.setattr(raster, "_white_fill_alone", lambda element, style: False)
    painted = raster.draw(svg, FONTS)
    assert skipped.tobytes() == painted.tobytes()
    assert len(skipped.getcolors(10000) or []) > 2  # the second white rectangle covered the shapes


@needs_fonts
def test_a_boards_png_has_the_rows_png_bytes_writes() -> None:
    svg = svg_of('<rect x="5" y="4" width="20" height="10" fill="#E69F00" stroke="#000000"/>'
                 '<text x="4" y="36" font-size="9">ab</text>', 121, 80).replace('viewBox="0 0 60 40"', 'viewBox="0 0 121 80"')
    pictures.board_png.cache_clear()
    png = pictures.board_png(svg)
    image = pictures.indexed(pictures._drawn(svg))
    assert png == pictures.png_bytes(image.size, bytes(image.getpalette() or []), image.tobytes())


# -- make bench ---------------------------------------------------------------------------------------------

def test_the_bench_prints_each_goal_beside_its_figure_and_the_unit(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.bench import ONE_ORDER_GOAL_FLOOR, ONE_ORDER_GOAL_MS, RUN_GOALS, one_order_cost, run_cost

    one_order_cost(repeat=1, decision=8)
    run_cost(games=6, decision=8, repeat=1, profile=6)
    out = capsys.readouterr().out
    assert re.search(rf"pbem advance of one order in one game \(4-player Medici\) +\d+\.\d ms  goal +"
                     rf"{ONE_ORDER_GOAL_MS:.0f} ms  ratio \d+\.\d\d  (ok|over)", out), out
    assert re.search(r"  its CPU \(all its processes, git too\) +\d+\.\d ms\n", out), out
    assert re.search(rf"  against python -c 'import yaml, click' +\d+\.\d ms  goal +{ONE_ORDER_GOAL_FLOOR:.1f} x   "
                     rf"ratio \d+\.\d\d  (ok|over)\n", out), out
    assert re.search(r"unit: C-YAML load \+ dump .* +\d+\.\d+ ms", out), out
    for what, goal in (("pictures", RUN_GOALS[True]), ("text alone", RUN_GOALS[False])):
        assert re.search(rf"pbem advance, 6 games, 1 order each, mail to files, {what} +\d+\.\d+ ms/game = "
                         rf"\d+\.\d+ units  goal {goal:3.1f} units  (ok|over)", out), out
    # the run after one that mailed everyone: only the players the order concerns get mail
    mails = [int(n) for n in re.findall(r"; (\d+) mails", out)]
    assert len(mails) == 2 and 6 <= mails[0] == mails[1] < 6 * 4, out
    assert "CPU" in out and "the unit measured again" in out
    # where the time goes: the top functions of a profiled run, by cumulative time, then by their own
    profile = out.split("where the time of that run goes", 1)[1].splitlines()[1:]
    by_cumulative = profile[1:7]
    figures = [float(line.split()[0]) for line in by_cumulative]
    assert figures == sorted(figures, reverse=True), profile
    assert any("pbem/advance.py" in line and " advance_game" in line for line in by_cumulative), profile
    assert "by its own time" in profile[7] and len(profile) == 11, profile
