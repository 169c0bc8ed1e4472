"""The compiled templates kept on disk between commands (pbem.report.bytecode_cache): a template is
rendered from its cached code while its source is unchanged, compiled anew when the source changed,
and a cache file cut short or spoiled is no cache, never an error."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from pbem.report import bytecode_cache

SOURCE = "{% for p in players %}{{ p }} has {{ points[p] }} VP\n{% endfor %}"
VALUES = {"players": ["anna", "ben"], "points": {"anna": 12, "ben": 7}}
RENDERED = "anna has 12 VP\nben has 7 VP\n"


def environment(source: str) -> tuple[jinja2.Environment, jinja2.BytecodeCache]:
    cache = bytecode_cache("test")
    assert cache is not None
    return jinja2.Environment(loader=jinja2.DictLoader({"t.j2": source}), bytecode_cache=cache), cache


def cached_code(cache: jinja2.BytecodeCache, env: jinja2.Environment, source: str) -> object:
    """The code the cache holds for `t.j2` of `source` (None: none)."""
    return cache.get_bucket(env, "t.j2", None, source).code


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PBEM_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_a_template_is_rendered_from_its_cached_code_while_its_source_is_unchanged(folder: Path) -> None:
    env, cache = environment(SOURCE)
    assert cached_code(cache, env, SOURCE) is None
    assert env.get_template("t.j2").render(VALUES) == RENDERED
    [kept] = list(folder.glob("test-py*/*"))
    again, cache = environment(SOURCE)  # as the next command makes it
    code = cached_code(cache, again, SOURCE)
    assert code is not None and code == again.compile(SOURCE, "t.j2")
    assert again.get_template("t.j2").render(VALUES) == RENDERED
    assert list(folder.glob("test-py*/*")) == [kept]


def test_a_changed_source_is_compiled_anew(folder: Path) -> None:
    env, _ = environment(SOURCE)
    env.get_template("t.j2").render(VALUES)
    changed = SOURCE.replace("VP", "points")
    again, cache = environment(changed)
    assert cached_code(cache, again, changed) is None
    assert again.get_template("t.j2").render(VALUES) == RENDERED.replace("VP", "points")


@pytest.mark.parametrize("spoil", ["cut short", "not jinja's", "garbage after the header"])
def test_a_spoiled_cache_file_is_no_cache(folder: Path, spoil: str) -> None:
    env, _ = environment(SOURCE)
    env.get_template("t.j2").render(VALUES)
    [kept] = list(folder.glob("test-py*/*"))
    data = kept.read_bytes()
    kept.write_bytes({"cut short": data[:len(data) // 2], "not jinja's": b"xx" + data[2:],
                      "garbage after the header": data[:len(data) - 200] + b"\xff" * 200}[spoil])
    again, cache = environment(SOURCE)
    assert cached_code(cache, again, SOURCE) is None
    assert again.get_template("t.j2").render(VALUES) == RENDERED
    assert kept.read_bytes() == data  # written whole again
