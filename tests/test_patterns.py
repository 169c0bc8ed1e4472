"""A `Pattern` is a compiled regular expression that is compiled when first used."""

from __future__ import annotations

import re

import pytest

from pbem.patterns import Pattern


def test_a_pattern_answers_as_the_compiled_one() -> None:
    source, flags = r"^(ab+)\s*(\d*)$", re.IGNORECASE
    lazy, compiled = Pattern(source, flags), re.compile(source, flags)
    for text in ("ABB 12", "ab", "a 1", ""):
        found, expected = lazy.match(text), compiled.match(text)
        assert (found and found.groups()) == (expected and expected.groups())
    assert lazy.match("ABB 12").groups() == ("ABB", "12")
    assert (lazy.pattern, lazy.flags) == (compiled.pattern, compiled.flags)
    assert Pattern(r"\s+").split("a  b c") == ["a", "b", "c"]
    assert Pattern(r"\d").sub("#", "a1b22") == "a#b##"


def test_a_pattern_is_compiled_when_first_used_and_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = re.compile
    monkeypatch.setattr(re, "compile", lambda *a: calls.append(a) or real(*a))
    words = Pattern(r"\w+")
    assert calls == []
    assert words.findall("one two") == ["one", "two"]
    assert words.findall("three") == ["three"]
    assert calls == [(r"\w+", 0)]


def test_a_pattern_that_does_not_compile_fails_where_it_is_used() -> None:
    broken = Pattern(r"(")
    with pytest.raises(re.error):
        broken.match("(")
