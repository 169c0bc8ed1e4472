"""A schema's verdict alone, fast: `fits(value)` is True exactly when the jsonschema validator of
`turnfile.validator` finds no error.

Most of what pbem checks is valid (every state it saves, almost every turn file), and a yes needs no
explanation. So a schema is compiled once into plain Python predicates, which answer in a fraction of
jsonschema's time and without importing it; jsonschema is asked only for a no, to word the errors.
The semantics are Draft 2020-12 as `turnfile.validator` extends it: a whole number is an `int` (never
`3.0` or `true`), and `pattern` anchors `$` at the very end, as ECMA 262 does. A keyword this module
does not know makes `compile_schema` raise `Unsupported`, and the caller asks jsonschema instead:
it may be slower, never wrong. tests/test_schemacheck.py compares the verdicts on every schema.
"""

from __future__ import annotations

import re
from typing import Any, Callable

Check = Callable[[Any], bool]

#: keywords that assert nothing (annotations; `format` is not asserted without a format checker)
NOTES = frozenset({"$comment", "$id", "$schema", "$defs", "title", "description", "default", "examples",
                   "format", "deprecated", "readOnly", "writeOnly",
                   "message"})  # pbem's own: how a refusal is worded (turnfile.plain)
#: keywords read together with another one
WITH_OTHERS = frozenset({"then", "else", "minContains", "maxContains", "additionalProperties",
                         "patternProperties", "properties", "required", "items", "prefixItems"})


class Unsupported(Exception):
    """The schema uses a keyword this module does not compile."""


def _always(value: Any) -> bool:
    return True


def _never(value: Any) -> bool:
    return False


def _is_number(value: Any) -> bool:
    """A JSON number: what YAML and JSON read one as (the `numbers` ABCs would cost a command their import)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_TYPES: dict[str, Check] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": _is_number,
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def equal(one: Any, two: Any) -> bool:
    """JSON equality as jsonschema has it: `1 == 1.0`, but `true` is not `1`."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, list) and isinstance(two, list):
        return len(one) == len(two) and all(equal(a, b) for a, b in zip(one, two))
    if isinstance(one, dict) and isinstance(two, dict):
        return one.keys() == two.keys() and all(equal(one[k], two[k]) for k in one)
    if isinstance(one, bool) or isinstance(two, bool):
        return isinstance(one, bool) and isinstance(two, bool) and one == two
    return bool(one == two)


def ecma(pattern: str) -> re.Pattern[str]:
    """`pattern` with `$` meaning the very end (Python's also matches before a final newline)."""
    return re.compile(re.sub(r"(?<!\\)\$", r"\\Z", pattern))


def compile_schema(schema: Any) -> Check:
    """The predicate of a whole schema (with its local `$ref`s); `Unsupported` if it cannot be made."""
    return _Compiler(schema).compile(schema)


class _Compiler:
    def __init__(self, root: Any) -> None:
        self.root = root
        self.refs: dict[str, Check] = {}

    def ref(self, pointer: str) -> Check:
        if not pointer.startswith("#"):
            raise Unsupported(f"$ref {pointer!r}")
        if pointer not in self.refs:
            target: list[Check] = []
            self.refs[pointer] = lambda v: target[0](v)  # a definition may refer to itself
            node = self.root
            for part in filter(None, pointer[1:].split("/")):
                part = part.replace("~1", "/").replace("~0", "~")
                node = node[int(part)] if isinstance(node, list) else node[part]
            target.append(self.compile(node))
        return self.refs[pointer]

    def compile(self, node: Any) -> Check:
        if node is True:
            return _always
        if node is False:
            return _never
        if not isinstance(node, dict):
            raise Unsupported(f"schema {node!r}")
        checks: list[Check] = []
        for key, arg in node.items():
            if key in NOTES or key in WITH_OTHERS:
                continue
            make = getattr(self, "k_" + key.lstrip("$"), None)
            if make is None:
                raise Unsupported(f"keyword {key!r}")
            checks.append(make(arg, node))
        if any(k in node for k in ("properties", "required", "additionalProperties", "patternProperties")):
            checks.append(self.object(node))
        if "items" in node or "prefixItems" in node:
            checks.append(self.array(node))
        if not checks:
            return _always
        if len(checks) == 1:
            return checks[0]
        checks.sort(key=lambda c: c not in _TYPES.values())  # the type first: the cheapest no

        def every(v: Any) -> bool:
            for check in checks:
                if not check(v):
                    return False
            return True
        return every

    # -- any value --------------------------------------------------------------------------------------
    def k_ref(self, arg: str, node: dict[str, Any]) -> Check:
        return self.ref(arg)

    def k_type(self, arg: str | list[str], node: dict[str, Any]) -> Check:
        if isinstance(arg, str):
            return _TYPES[arg]
        kinds = [_TYPES[t] for t in arg]
        return lambda v: any(k(v) for k in kinds)

    def k_enum(self, arg: list[Any], node: dict[str, Any]) -> Check:
        if all(isinstance(x, str) for x in arg):
            words = frozenset(arg)
            return lambda v: isinstance(v, str) and v in words
        return lambda v: any(equal(x, v) for x in arg)

    def k_const(self, arg: Any, node: dict[str, Any]) -> Check:
        return lambda v: equal(v, arg)

    def k_allOf(self, arg: list[Any], node: dict[str, Any]) -> Check:
        parts = [self.compile(s) for s in arg]
        return lambda v: all(p(v) for p in parts)

    def k_anyOf(self, arg: list[Any], node: dict[str, Any]) -> Check:
        parts = [self.compile(s) for s in arg]
        return lambda v: any(p(v) for p in parts)

    def k_oneOf(self, arg: list[Any], node: dict[str, Any]) -> Check:
        parts = [self.compile(s) for s in arg]
        return lambda v: sum(1 for p in parts if p(v)) == 1

    def k_not(self, arg: Any, node: dict[str, Any]) -> Check:
        part = self.compile(arg)
        return lambda v: not part(v)

    def k_if(self, arg: Any, node: dict[str, Any]) -> Check:
        test = self.compile(arg)
        then = self.compile(node.get("then", True))
        other = self.compile(node.get("else", True))
        return lambda v: then(v) if test(v) else other(v)

    # -- numbers ----------------------------------------------------------------------------------------
    def k_minimum(self, arg: float, node: dict[str, Any]) -> Check:
        return lambda v: not _is_number(v) or v >= arg

    def k_maximum(self, arg: float, node: dict[str, Any]) -> Check:
        return lambda v: not _is_number(v) or v <= arg

    def k_exclusiveMinimum(self, arg: float, node: dict[str, Any]) -> Check:
        return lambda v: not _is_number(v) or v > arg

    def k_exclusiveMaximum(self, arg: float, node: dict[str, Any]) -> Check:
        return lambda v: not _is_number(v) or v < arg

    # -- strings ----------------------------------------------------------------------------------------
    def k_pattern(self, arg: str, node: dict[str, Any]) -> Check:
        search: list[Callable[[str], Any]] = []  # compiled for its first string: many a field is absent

        def check(v: Any) -> bool:
            if not isinstance(v, str):
                return True
            if not search:
                search.append(ecma(arg).search)
            return search[0](v) is not None
        return check

    def k_minLength(self, arg: int, node: dict[str, Any]) -> Check:
        return lambda v: not isinstance(v, str) or len(v) >= arg

    def k_maxLength(self, arg: int, node: dict[str, Any]) -> Check:
        return lambda v: not isinstance(v, str) or len(v) <= arg

    # -- arrays -----------------------------------------------------------------------------------------
    def array(self, node: dict[str, Any]) -> Check:
        first = [self.compile(s) for s in node.get("prefixItems", [])]
        rest = self.compile(node.get("items", True))
        n = len(first)

        def items(v: Any) -> bool:
            if not isinstance(v, list):
                return True
            for check, item in zip(first, v):
                if not check(item):
                    return False
            if rest is not _always:
                for item in v[n:] if n else v:
                    if not rest(item):
                        return False
            return True
        return items

    def k_minItems(self, arg: int, node: dict[str, Any]) -> Check:
        return lambda v: not isinstance(v, list) or len(v) >= arg

    def k_maxItems(self, arg: int, node: dict[str, Any]) -> Check:
        return lambda v: not isinstance(v, list) or len(v) <= arg

    def k_uniqueItems(self, arg: bool, node: dict[str, Any]) -> Check:
        if not arg:
            return _always
        return lambda v: not isinstance(v, list) or not any(
            equal(v[i], v[j]) for i in range(len(v)) for j in range(i + 1, len(v)))

    def k_contains(self, arg: Any, node: dict[str, Any]) -> Check:
        part = self.compile(arg)
        least, most = node.get("minContains", 1), node.get("maxContains")

        def contains(v: Any) -> bool:
            if not isinstance(v, list):
                return True
            found = sum(1 for item in v if part(item))
            return (least == 0 or found >= least) and (most is None or found <= most)
        return contains

    # -- objects ----------------------------------------------------------------------------------------
    def object(self, node: dict[str, Any]) -> Check:
        props = {k: self.compile(s) for k, s in node.get("properties", {}).items()}
        required = tuple(node.get("required", ()))
        patterns = [(re.compile(p).search, self.compile(s)) for p, s in node.get("patternProperties", {}).items()]
        extra = self.compile(node.get("additionalProperties", True))

        def fields(v: Any) -> bool:
            if not isinstance(v, dict):
                return True
            for key in required:
                if key not in v:
                    return False
            for key, value in v.items():
                check = props.get(key)
                if check is not None and not check(value):
                    return False
                matched = False
                for search, part in patterns:
                    if search(key):
                        matched = True
                        if not part(value):
                            return False
                if check is None and not matched and not extra(value):
                    return False
            return True
        return fields

    def k_propertyNames(self, arg: Any, node: dict[str, Any]) -> Check:
        part = self.compile(arg)
        return lambda v: not isinstance(v, dict) or all(part(k) for k in v)

    def k_minProperties(self, arg: int, node: dict[str, Any]) -> Check:
        return lambda v: not isinstance(v, dict) or len(v) >= arg

    def k_maxProperties(self, arg: int, node: dict[str, Any]) -> Check:
        return lambda v: not isinstance(v, dict) or len(v) <= arg

    def k_dependentRequired(self, arg: dict[str, list[str]], node: dict[str, Any]) -> Check:
        return lambda v: not isinstance(v, dict) or all(
            all(d in v for d in deps) for key, deps in arg.items() if key in v)
