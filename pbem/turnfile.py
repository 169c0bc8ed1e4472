"""Reading what players send: hardened YAML, then JSON Schema, with errors in plain words.

Player text is hostile. Before the C safe loader builds anything, a scan of the parser's events
rejects oversized input, anchors and aliases (the "billion laughs"), explicit tags, duplicate keys and
deep nesting. Schema errors are all reported at once, each with its line and its place in the file.
"""

from __future__ import annotations

import datetime
import importlib.resources
import json
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Iterator

import jsonschema
import yaml

from pbem.errors import TurnFileError
from pbem.rules.base import Order

MAX_BYTES = 64 * 1024
MAX_DEPTH = 8
MAX_ORDERS = 50

_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@cache
def schema(name: str) -> dict[str, Any]:
    """A schema from schemas/, loaded once."""
    text = importlib.resources.files("pbem.schemas").joinpath(f"{name}.schema.json").read_text("utf-8")
    return json.loads(text)


def _scan(text: str, what: str) -> None:
    """Reject hostile YAML by its parse events alone; nothing is constructed here."""
    depth = 0
    documents = 0
    keys: list[set[str] | None] = []  # per open collection: the scalar keys seen (mappings only)
    expect_key: list[bool] = []
    try:
        for event in yaml.parse(text, Loader=_SafeLoader):
            line = event.start_mark.line + 1
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise TurnFileError(f"{what}, line {line}: holds more than one YAML document ('---')")
            if isinstance(event, yaml.AliasEvent):
                raise TurnFileError(f"{what}, line {line}: aliases ('*name') are not allowed")
            if getattr(event, "anchor", None):
                raise TurnFileError(f"{what}, line {line}: anchors ('&name') are not allowed")
            tag = getattr(event, "tag", None)
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                if tag and not event.implicit:
                    raise TurnFileError(f"{what}, line {line}: tags ({_short(tag)!r}) are not allowed")
                if keys and keys[-1] is not None:
                    expect_key[-1] = not expect_key[-1]
                    if expect_key[-1]:  # a list or mapping as a key: nothing in pbem is keyed so
                        kind = "mapping" if isinstance(event, yaml.MappingStartEvent) else "list"
                        raise TurnFileError(f"{what}, line {line}: a {kind} cannot be a key; keys are "
                                            f"plain words such as 'orders'")
                depth += 1
                if depth > MAX_DEPTH:
                    raise TurnFileError(f"{what}, line {line}: nested more than {MAX_DEPTH} levels deep")
                is_map = isinstance(event, yaml.MappingStartEvent)
                keys.append(set() if is_map else None)
                expect_key.append(False)
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
                keys.pop()
                expect_key.pop()
            elif isinstance(event, yaml.ScalarEvent):
                if event.value == "<<" and event.implicit[0]:  # plain '<<' is YAML's merge key
                    raise TurnFileError(f"{what}, line {line}: the merge key '<<' is not allowed")
                if tag and event.implicit == (False, False):
                    raise TurnFileError(f"{what}, line {line}: tags ({_short(tag)!r}) are not allowed")
                if keys and keys[-1] is not None:
                    expect_key[-1] = not expect_key[-1]
                    if expect_key[-1]:  # this scalar is a key
                        if event.value in keys[-1]:
                            raise TurnFileError(f"{what}, line {line}: the key {event.value!r} appears twice")
                        keys[-1].add(event.value)
    except yaml.YAMLError as exc:
        problem = getattr(exc, "problem", None) or str(exc)
        raise TurnFileError(f"{what}{_where(exc)}: not valid YAML ({problem})") from None


def load_yaml(data: bytes | str, what: str = "the turn file") -> tuple[Any, dict[tuple, int]]:
    """Parse untrusted YAML: the value and a map from each place in it to its line number."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if len(raw) > MAX_BYTES:
        raise TurnFileError(f"{what} is {len(raw)} bytes; the limit is {MAX_BYTES}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TurnFileError(f"{what} is not UTF-8 text (byte {exc.start})") from None
    _scan(text, what)
    try:
        node = yaml.compose(text, Loader=_SafeLoader)
        lines: dict[tuple, int] = {}
        _lines(node, (), lines)
        return yaml.load(text, Loader=_SafeLoader), lines
    except yaml.YAMLError as exc:
        raise TurnFileError(f"{what}{_where(exc)}: not valid YAML ({getattr(exc, 'problem', None) or exc})") from None
    except ValueError as exc:  # a date that does not exist (2026-02-30)
        raise TurnFileError(f"{what}{_bad_scalar(node)}: a value could not be read ({exc})") from None


def _bad_scalar(node: Any) -> str:
    """Where the scalar is that the safe loader cannot construct."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, yaml.ScalarNode):
            try:
                yaml.load(yaml.serialize(n, Dumper=yaml.SafeDumper), Loader=_SafeLoader)
            except ValueError:
                return f", line {n.start_mark.line + 1}"
        elif isinstance(n, yaml.MappingNode):
            stack.extend(v for kv in n.value for v in kv)
        elif isinstance(n, yaml.SequenceNode):
            stack.extend(n.value)
    return ""


def _where(exc: yaml.YAMLError) -> str:
    mark = getattr(exc, "problem_mark", None)
    return f", line {mark.line + 1}" if mark else ""


def _short(tag: str) -> str:
    return tag.replace("tag:yaml.org,2002:", "!!")


def _lines(node: Any, path: tuple, out: dict[tuple, int]) -> None:
    if node is None:
        return
    out[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            out[path + (k.value,)] = k.start_mark.line + 1
            _lines(v, path + (k.value,), out)
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            _lines(v, path + (i,), out)


_TYPE_WORDS = {"integer": "a whole number", "string": "text", "object": "a mapping (key: value)",
               "array": "a list", "boolean": "true or false", "number": "a number", "null": "empty"}


def place(path: tuple) -> str:
    """A place in the file as a reader would name it: `orders[2].bid`."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the top level"


def shown(value: Any) -> str:
    """A value as a player would recognise it."""
    if value is None:
        return "nothing"
    if isinstance(value, (datetime.date, datetime.datetime)):
        return f"the date {value.isoformat()}"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    return repr(value)


def plain(error: jsonschema.ValidationError) -> str:
    """One schema error in plain words."""
    v, val = error.validator, error.validator_value
    inst = error.instance
    if "message" in error.schema and v not in ("required", "additionalProperties"):
        return error.schema["message"].replace("{value}", shown(inst))
    if v == "type":
        kinds = val if isinstance(val, list) else [val]
        return f"must be {' or '.join(_TYPE_WORDS.get(k, k) for k in kinds)}, not {shown(inst)}"
    if v == "required":
        missing = [k for k in val if k not in inst]
        return f"lacks {', '.join(repr(k) for k in missing)}"
    if v in ("anyOf", "oneOf") and error.context and all(e.validator == "required" for e in error.context):
        keys = [k for e in error.context for k in e.validator_value if k not in inst]
        return f"lacks {' or '.join(repr(k) for k in dict.fromkeys(keys))}"
    if v == "dependentRequired":
        missing = [k for deps in val.values() for k in deps if k not in inst]
        return f"lacks {', '.join(repr(k) for k in missing)}"
    if v == "additionalProperties":
        extra = sorted(k for k in inst if k not in error.schema.get("properties", {}))
        return f"has unknown field{'s' if len(extra) > 1 else ''} {', '.join(repr(k) for k in extra)}"
    if v == "minimum":
        return f"must be at least {val}, not {shown(inst)}"
    if v == "maximum":
        return f"must be at most {val}, not {shown(inst)}"
    if v == "minItems":
        return f"must hold at least {val} item{'s' if val != 1 else ''}"
    if v == "maxItems":
        return f"may hold at most {val} items, not {len(inst)}"
    if v == "maxLength":
        return f"may be at most {val} characters long"
    if v == "minLength":
        return "must not be empty" if val == 1 else f"must be at least {val} characters long"
    if v == "pattern":
        return f"{inst!r} is not of the allowed form"
    if v == "enum":
        return f"must be one of {', '.join(repr(x) for x in val)}, not {shown(inst)}"
    if v == "const":
        return f"must be {val!r}, not {shown(inst)}"
    return error.message


def _is_integer(checker: Any, instance: Any) -> bool:
    """A whole number is an int: `3.0` is a float that looks whole, and `true` is no number."""
    return isinstance(instance, int) and not isinstance(instance, bool)


def _ecma_pattern(validator: Any, pattern: str, instance: Any, schema: dict[str, Any]) -> Iterator[Any]:
    """`pattern` as JSON Schema means it (ECMA 262): `$` matches only at the very end, where Python's
    `$` also matches before a final newline (`"start B2\\n"` would pass `^start [A-Z][0-9]$`)."""
    if isinstance(instance, str) and not _compiled(pattern).search(instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(re.sub(r"(?<!\\)\$", r"\\Z", pattern))


_Strict = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    validators={"pattern": _ecma_pattern},
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
)


@cache
def validator(name: str) -> Any:
    """The validator of a schema from schemas/: whole numbers must be ints, patterns anchor as in ECMA."""
    return _Strict(schema(name))


def _deepest(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """For a failed oneOf, the error of the branch the sender most likely meant, if one is clear."""
    while error.validator in ("oneOf", "anyOf") and error.context \
            and not all(e.validator == "required" for e in error.context):  # "one of these keys": said whole
        # the branch the sender meant is the one he came closest to: the fewest errors
        branches: dict[Any, list[jsonschema.ValidationError]] = {}
        for e in error.context:
            branches.setdefault(e.relative_schema_path[0], []).append(e)
        fewest = min(len(errs) for errs in branches.values())
        if len(branches) > 2 and all(len(errs) == fewest for errs in branches.values()):
            break  # no branch is nearer than the others: the sender meant none of them
        closest = [e for errs in branches.values() if len(errs) == fewest for e in errs]
        # a branch that failed only on the kind of value (a string where a mapping was meant) says
        # nothing; any other error names what the sender got wrong inside the branch he chose
        deeper = [e for e in closest if e.relative_path or e.validator not in ("type", "enum", "const")]
        if not deeper:
            break
        error = jsonschema.exceptions.best_match(deeper)
    return error


def schema_errors(value: Any, schema_name: str, lines: dict[tuple, int] | None = None,
                  prefix: tuple = ()) -> list[str]:
    """Every error of `value` against a schema, sorted by place, each with its line."""
    out: list[str] = []
    def order(e: jsonschema.ValidationError) -> list[tuple[int, int | str]]:
        return [(0, p) if isinstance(p, int) else (1, str(p)) for p in e.absolute_path]

    found = []
    for err in validator(schema_name).iter_errors(value):
        err = _deepest(err)
        path = prefix + tuple(err.absolute_path)
        line = (lines or {}).get(path, 0)
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            extra = [k for k in err.instance if k not in err.schema.get("properties", {})]
            line = (lines or {}).get(path + (extra[0],), line) if extra else line
        # a token is never echoed, not even one of the wrong kind: the message may go to a log or a mail
        words = "must be text, as your welcome mail gives it" if path[-1:] == ("token",) else plain(err)
        found.append((line, order(err), f"{f'line {line}, ' if line else ''}{place(path)}: {words}"))
    for _, _, text in sorted(found, key=lambda f: (f[0], f[1])):  # in the order of the file
        if text not in out:
            out.append(text)
    return out


NEXT = "next"  # `turn: next`: the orders answer the sender's next decision, whenever it comes


@dataclass(frozen=True)
class TurnFile:
    game: str
    player: str
    token: str
    turn: int | str | None               # a decision number, NEXT, or None (standing orders alone)
    orders: list[Order] | None
    lines: dict[tuple, int] = field(default_factory=dict, compare=False, repr=False)
    standing: list[dict[str, Any]] | None = None
    reports: str | None = None           # moves | all: when he wants mail


def parse_turnfile(data: bytes | str, order_schema: str | None = None) -> TurnFile:
    """Read a turn file. The envelope is checked first; the orders against `order_schema`, which the
    caller finds from the game (None: leave the orders to be checked once the game is known)."""
    value, lines = load_yaml(data)
    if value is None:
        raise TurnFileError("the turn file is empty")
    if isinstance(value, dict) and "orders" in value and value["orders"] is None:  # the report's block, unchanged
        raise TurnFileError("the turn file gives no order: choose one of the orders listed and delete "
                            "the '#' in front of it")
    problems = schema_errors(value, "turnfile", lines)
    if problems:
        raise TurnFileError("the turn file is not valid:\n" + "\n".join(f"  - {p}" for p in problems))
    if order_schema and "orders" in value:
        check_orders(value["orders"], order_schema, lines)
    return TurnFile(value["game"], value["player"], value["token"], value.get("turn"), value.get("orders"), lines,
                    value.get("standing"), value.get("reports"))


def check_orders(orders: list[Any], order_schema: str, lines: dict[tuple, int] | None = None,
                 key: str = "orders") -> None:
    """Each item of `key` against a schema; every problem at once."""
    problems = []
    for i, order in enumerate(orders):
        problems += schema_errors(order, order_schema, lines, (key, i))
    if problems:
        raise TurnFileError("the turn file is not valid:\n" + "\n".join(f"  - {p}" for p in problems))
