"""The state's YAML is PyYAML's safe dump of it, byte for byte, however it was made."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from pbem.history import History
from pbem.store.files import dump_yaml, parse_yaml

SHARED: dict[str, Any] = {"a": 1}
PAIR = [1, 2]
CASES: list[Any] = [
    {"twice": SHARED, "again": SHARED, "lists": [PAIR, PAIR]},  # one node met twice: an anchor and an alias
    {"octal": "012", "yes": "yes", "null": "null", "sexagesimal": "1:30", "empty": "", "tilde": "~", "half": 1.5,
     "minus_zero": -0.0, "inf": float("inf"), "true": True, "none": None, "negative": -7, "big": 10 ** 40,
     "no_dict": {}, "no_list": [], "unicode": "Müller ✓", "lines": "a\nb", "lead": " lead", "colon": "a: b",
     "dash": "- x", "quote": "'q'", "number_words": "1e3", "float_words": "3.0"},
    [[{}], [[]], {"k": [{"a": None}]}],
    {1: "int key", True: "bool key", None: "none key", 2.5: "float key"},
]


class Reference(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """PyYAML's safe dumper as it is, a history written as the list of its entries."""


Reference.add_representer(History, lambda dumper, history: dumper.represent_list(list(history)))


def pyyaml(value: Any) -> str:
    return yaml.dump(value, Dumper=Reference, sort_keys=False, allow_unicode=True, default_flow_style=False,
                     width=100)


@pytest.mark.parametrize("value", CASES)
def test_the_dump_is_pyyamls(value: Any) -> None:
    assert dump_yaml(value) == pyyaml(value)
    assert dump_yaml(value) == dump_yaml(value)  # the second time from the words' tags it kept


def test_a_history_is_written_as_the_list_of_its_entries(tmp_path: Path) -> None:
    history = History(tmp_path / "log.jsonl", 0, 0)
    history.extend([{"turn": 1, "order": "pass"}, {"turn": 2, "order": {"bid": 3}}])
    assert dump_yaml({"log": history}) == pyyaml({"log": list(history)})
    assert dump_yaml({"log": history, "again": history}) == pyyaml({"log": history, "again": history})


READ = """\
plain_octal: 012
quoted_octal: '012'
yes: yes
quoted_yes: "yes"
tilde: ~
null_word: null
quoted_null: 'null'
float: 1.5e3
int: -7
sexagesimal: 1:30
date: 2026-12-03
words: linen
list: [012, '012', yes, 'yes', ~]
"""


def test_the_load_is_pyyamls() -> None:
    theirs = yaml.load(READ, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    for _ in range(2):  # the second time from the words' tags it kept
        assert parse_yaml(READ, "the test's file") == theirs
    assert theirs["plain_octal"] == 10 and theirs["quoted_octal"] == "012" and theirs["list"][3] == "yes"
