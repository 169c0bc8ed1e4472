"""pbem's template environment renders what jinja2's own renders, and fails where it fails."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import jinja2
import pytest
from markupsafe import Markup, escape as markupsafe_escape

from pbem.templating import Environment, escape

VALUES: dict[str, Any] = {
    "zero": 0.0, "minus_zero": -0.0, "yes": True, "one": 1, "one_float": 1.0, "big": 10 ** 30,
    "nan": float("nan"), "word": "linen", "hostile": "<b>\"Tom\" & 'Jerry'</b>", "safe": Markup("<i>x</i>"),
    "none": None, "seat": {"name": "anna", "items": "the key", "colour": "#E69F00"},
    "rows": [{"x": 1.5, "label": "a<b"}, {"x": -0.0, "label": "c"}],
}


@jinja2.pass_context
def said(context: Any, word: str) -> str:
    return f"{word}:{context.get('lang', '?')}"


@lru_cache(maxsize=None)
def width(word: str) -> int:
    return len(word) * 7


SOURCE = """{{ zero }} {{ minus_zero }} {{ zero }} {{ minus_zero }} {{ yes }} {{ one }} {{ one_float }}
{{ big }} {{ nan }} {{ word }} {{ hostile }} {{ hostile }} {{ safe }} {{ none }}
{{ seat.name }} {{ 'a method' if seat.items is callable else seat.items }} {{ seat.items() | list | length }} {{ seat.get('colour') }} {{ seat['name'] }}
{% macro cell(row) %}<{{ row.x }}|{{ row.label }}|{{ width(row.label) }}>{% endmacro %}
{% for row in rows %}{{ cell(row) }}{{ said(row.label) }}{{ loop.index }}{% endfor %}
{{ range(3) | list }} {{ "a,b".split(",") }} {{ said("end") }}"""


@pytest.mark.parametrize("autoescape", [True, False])
def test_the_same_text_as_jinja2s_own_environment(autoescape: bool) -> None:
    def rendered(kind: type[jinja2.Environment]) -> str:
        e = kind(autoescape=autoescape, undefined=jinja2.StrictUndefined)
        e.globals.update(said=said, width=width, lang="nl")
        return e.from_string(SOURCE).render(**VALUES)

    ours = rendered(Environment)
    assert ours == rendered(jinja2.Environment)
    assert " 0.0 -0.0 0.0 -0.0 " in f" {ours}"  # a cached 0.0 is never -0.0's words
    assert "anna a method 3 #E69F00 anna" in ours  # a dict's attribute before its item of that name
    if autoescape:
        assert "&lt;b&gt;&#34;Tom&#34; &amp; &#39;Jerry&#39;&lt;/b&gt;" in ours and "<i>x</i>" in ours


def test_a_missing_key_fails_as_jinja2s_own() -> None:
    for kind in (Environment, jinja2.Environment):
        e = kind(autoescape=True, undefined=jinja2.StrictUndefined)
        with pytest.raises(jinja2.UndefinedError, match="has no attribute 'colour'"):
            e.from_string("{{ seat.colour }}").render(seat={"name": "anna"})


def test_escape_is_markupsafes() -> None:
    for value in [0.0, -0.0, 0, 1, True, False, 2.5, "", "<&>", "plain", Markup("<b>"), None, 10 ** 20,
                  "<i>a long text a player wrote, & more</i> " * 40]:
        for _ in range(2):  # the second time from what it kept
            got = escape(value)
            assert type(got) is Markup and str(got) == str(markupsafe_escape(value)), value
