"""The compiled catalogs kept in the user's cache folder: a process that writes to a German or Dutch
player reads the .mo a process before it compiled, and never a copy of other .po bytes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbem import i18n

READ = ("from pbem.i18n import translator; import sys; "
        "print(translator('de', 'medici').gettext('the game is over')); print('babel' in sys.modules)")


def test_a_second_process_reads_the_kept_catalog_without_babel(tmp_path: Path) -> None:
    env = {**os.environ, "PBEM_CACHE": str(tmp_path)}
    first = subprocess.run([sys.executable, "-c", READ], env=env, capture_output=True, text=True, check=True)
    second = subprocess.run([sys.executable, "-c", READ], env=env, capture_output=True, text=True, check=True)
    assert first.stdout.split("\n")[:2] == ["die Partie ist zu Ende", "True"]
    assert second.stdout.split("\n")[:2] == ["die Partie ist zu Ende", "False"]
    kept = sorted(p.name for p in (tmp_path / "catalogs").iterdir())
    assert [k.split(".")[:2] for k in kept] == [["medici", "de"], ["pbem", "de"]]


PO = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "bid"\nmsgstr "%s"\n'


def words(data: bytes) -> str:
    from io import BytesIO
    import gettext

    return gettext.GNUTranslations(BytesIO(data)).gettext("bid")


def test_other_po_bytes_are_compiled_anew_and_only_the_latest_copy_is_kept(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_CACHE", str(tmp_path))
    assert words(i18n._compiled((PO % "bieten").encode(), "de", "x")) == "bieten"
    assert words(i18n._compiled((PO % "Gebot").encode(), "de", "x")) == "Gebot"
    assert len(list((tmp_path / "catalogs").glob("x.de.*.mo"))) == 1
    assert words(i18n._compiled((PO % "bieten").encode(), "de", "x")) == "bieten"


def test_a_spoilt_kept_catalog_is_compiled_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_CACHE", str(tmp_path))
    source = (PO % "bieten").encode()
    i18n._compiled(source, "de", "x")
    (kept,) = (tmp_path / "catalogs").glob("x.de.*.mo")
    kept.write_bytes(kept.read_bytes()[:30])
    assert words(i18n._compiled(source, "de", "x")) == "bieten"
    assert words(kept.read_bytes()) == "bieten"


def test_a_cache_folder_that_cannot_be_written_still_gives_the_words(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("PBEM_CACHE", str(blocked))
    assert words(i18n._compiled((PO % "bieten").encode(), "de", "x")) == "bieten"
