"""Reading what players send: hardened YAML, then JSON Schema, with errors in plain words.

Player text is hostile. Before the C safe loader builds anything, a scan of the parser's events
rejects oversized input, anchors and aliases (the "billion laughs"), explicit tags, duplicate keys and
deep nesting. A tab that breaks the YAML is named as such. Keys and order words are then put in the case the
schemas expect (`Bid: 2` is `bid: 2`), where that is unambiguous. Schema errors are all reported at once,
each with its line and its place in the file, or with the sender's own name for the line when pbem wrote
the file from his order lines.
"""

from __future__ import annotations

import datetime
import itertools
import json
import re
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Iterator

import yaml

from pbem import data_dir
from pbem.errors import Refusal, TurnFileError
from pbem.refusals import at, listing, problem, refuse
from pbem.rules.base import Order
from pbem.schemacheck import Check, Unsupported, compile_schema
from pbem.patterns import Pattern

if TYPE_CHECKING:
    import jsonschema  # imported when something is validated: a command that validates nothing starts faster

MAX_BYTES = 64 * 1024
MAX_DEPTH = 8
MAX_ORDERS = 50

_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# What a player is told of YAML he sent that pbem does not read is a refusal by its id (pbem.refusals):
# English for the GM's console and the commits, and written in the player's language from its id.
THE_TURN_FILE = refuse("the-turn-file")


def _line_of(what: Refusal | str, line: int | None) -> Refusal | str:
    """The file, or a line of it where the line is known: `the turn file, line 3`."""
    return refuse("what-line", what=what, line=line) if line else what


@cache
def schema(name: str) -> dict[str, Any]:
    """A schema from schemas/ (a game's that lives outside pbem/: from its own `schemas/`), loaded once."""
    from pbem.rules.base import files_of

    folder = files_of(name.split(".")[0], "schemas") if "." in name else None
    text = ((folder or data_dir("pbem.schemas")) / f"{name}.schema.json").read_text("utf-8")
    return json.loads(text)


def _scan(text: str, what: Refusal | str, case_blind: bool = False) -> None:
    """Reject hostile YAML by its parse events alone; nothing is constructed here. `case_blind`: keys
    that differ only in case (`bid`, `Bid`) are the same key, so one of them is a duplicate."""
    depth = 0
    documents = 0
    keys: list[dict[str, str] | None] = []  # per open collection: the scalar keys seen (mappings only)
    expect_key: list[bool] = []
    try:
        for event in yaml.parse(text, Loader=_SafeLoader):
            line = event.start_mark.line + 1
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise TurnFileError(at(_line_of(what, line), refuse("documents")))
            if isinstance(event, yaml.AliasEvent):
                raise TurnFileError(at(_line_of(what, line), refuse("aliases")))
            if getattr(event, "anchor", None):
                raise TurnFileError(at(_line_of(what, line), refuse("anchors")))
            tag = getattr(event, "tag", None)
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                if tag and not event.implicit:
                    raise TurnFileError(at(_line_of(what, line), refuse("tags", tag=repr(_short(tag)))))
                if keys and keys[-1] is not None:
                    expect_key[-1] = not expect_key[-1]
                    if expect_key[-1]:  # a list or mapping as a key: nothing in pbem is keyed so
                        why = "mapping-key" if isinstance(event, yaml.MappingStartEvent) else "list-key"
                        raise TurnFileError(at(_line_of(what, line), refuse(why)))
                depth += 1
                if depth > MAX_DEPTH:
                    raise TurnFileError(at(_line_of(what, line), refuse("nested", n=MAX_DEPTH)))
                is_map = isinstance(event, yaml.MappingStartEvent)
                keys.append({} if is_map else None)
                expect_key.append(False)
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
                keys.pop()
                expect_key.pop()
            elif isinstance(event, yaml.ScalarEvent):
                if event.value == "<<" and event.implicit[0]:  # plain '<<' is YAML's merge key
                    raise TurnFileError(at(_line_of(what, line), refuse("merge-key")))
                if event.implicit[0] and len(event.value) > MAX_NUMBER_CHARS and _is_int(event.value):
                    # Python makes no int of more than 4300 digits, nor a text of one (0x...): refused
                    # here, by its size, before anything is built of it
                    raise TurnFileError(at(_line_of(what, line), refuse("number-too-long", n=len(event.value),
                                                                        most=MAX_NUMBER_CHARS)))
                if tag and event.implicit == (False, False):
                    raise TurnFileError(at(_line_of(what, line), refuse("tags", tag=repr(_short(tag)))))
                if keys and keys[-1] is not None:
                    expect_key[-1] = not expect_key[-1]
                    if expect_key[-1]:  # this scalar is a key
                        seen = keys[-1].get(event.value.casefold() if case_blind else event.value)
                        if seen == event.value:
                            raise TurnFileError(at(_line_of(what, line), refuse("key-twice", one=repr(event.value))))
                        if seen is not None:
                            raise TurnFileError(at(_line_of(what, line), refuse("same-key-twice", one=repr(seen),
                                                                                  other=repr(event.value))))
                        keys[-1][event.value.casefold() if case_blind else event.value] = event.value
    except yaml.YAMLError as exc:
        raise TurnFileError(_not_yaml(text, what, exc)) from None


MAX_NUMBER_CHARS = 30  # a whole number a player writes: no game needs a longer one


def _is_int(value: str) -> bool:
    """Whether YAML reads a plain scalar as a whole number (10, 0x1f, 0o17, 0b101, 1_000, 190:20:30)."""
    return yaml.resolver.Resolver().resolve(yaml.ScalarNode, value, (True, False)) == "tag:yaml.org,2002:int"


LINE_BREAK = Pattern("\r\n|[\r\n\x85\u2028\u2029]")  # what YAML counts as the end of a line


def _not_yaml(text: str, what: Refusal | str, exc: yaml.YAMLError) -> Refusal:
    """Why the parser gave up, in words. A tab is named as such (YAML allows no tab in indentation, and
    players paste them): on the line the parser stopped at, up to where it stopped, else the first line
    before it indented with one."""
    mark = getattr(exc, "problem_mark", None)
    if mark is not None:
        lines = LINE_BREAK.split(text)
        tabbed = [n for n in range(min(mark.line, len(lines))) if re.match(r"^[ ]*\t", lines[n])]
        here = mark.line < len(lines) and "\t" in lines[mark.line][:mark.column + 1]  # up to where it stopped
        tab_line = mark.line if here else tabbed[0] if tabbed else None
        if tab_line is not None:
            return at(_line_of(what, tab_line + 1), refuse("tab"))
    line, why = yaml_problem(text, exc)
    if isinstance(exc, yaml.reader.ReaderError):
        return at(_line_of(what, line), why)
    return at(_line_of(what, line), refuse("not-yaml", why=why))


def yaml_problem(text: str, exc: yaml.YAMLError) -> tuple[int | None, Refusal]:
    """Where (a line number, if known) and why YAML refused `text`, in one line of words. A character
    YAML forbids (a control character pasted with the text) is named by its code point: the reader
    gives only an offset, which the C reader counts in bytes and the Python reader in characters."""
    if isinstance(exc, yaml.reader.ReaderError) and isinstance(exc.character, int):
        kind = "control-character" if exc.character < 0x20 or 0x7F <= exc.character < 0xA0 else "character"
        where = text.find(chr(exc.character))  # the reader stops at the first one
        line = len(LINE_BREAK.findall(text, 0, where)) + 1 if where >= 0 else None
        return line, refuse(kind, code=f"{exc.character:04X}")
    mark = getattr(exc, "problem_mark", None)
    said = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    return (mark.line + 1 if mark else None), problem(said)


def load_yaml(data: bytes | str, what: Refusal | str = THE_TURN_FILE, case_blind: bool = False) -> tuple[Any, dict[tuple, int]]:
    """Parse untrusted YAML: the value and a map from each place in it to its line number. `case_blind`:
    keys that differ only in case count as the same key (a duplicate)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if len(raw) > MAX_BYTES:
        raise TurnFileError(refuse("too-big", what=what, size=len(raw), limit=MAX_BYTES))
    try:
        # Windows editors save "Unicode" text as UTF-16 with a byte order mark, which says what it is
        text = raw.decode("utf-16") if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TurnFileError(refuse("not-utf8", what=what, n=exc.start)) from None
    _scan(text, what, case_blind)
    try:
        node = yaml.compose(text, Loader=_SafeLoader)
        lines: dict[tuple, int] = {}
        _lines(node, (), lines)
        return yaml.load(text, Loader=_SafeLoader), lines
    except yaml.YAMLError as exc:
        raise TurnFileError(_not_yaml(text, what, exc)) from None
    except ValueError as exc:  # a date that does not exist (2026-02-30)
        raise TurnFileError(at(_line_of(what, _bad_scalar(node)), refuse("unreadable", why=problem(str(exc))))) from None


def _bad_scalar(node: Any) -> int | None:
    """Where the scalar is that the safe loader cannot construct."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, yaml.ScalarNode):
            try:
                yaml.load(yaml.serialize(n, Dumper=yaml.SafeDumper), Loader=_SafeLoader)
            except ValueError:
                return n.start_mark.line + 1
        elif isinstance(n, yaml.MappingNode):
            stack.extend(v for kv in n.value for v in kv)
        elif isinstance(n, yaml.SequenceNode):
            stack.extend(n.value)
    return None


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


_TYPE_WORDS = {"integer": "a-whole-number", "string": "text", "object": "a-mapping-of-keys", "array": "a-list",
               "boolean": "true-or-false", "number": "a-number", "null": "empty-value"}  # a JSON type's id


def place(path: tuple) -> Refusal | str:
    """A place in the file as a reader would name it: `orders[2].bid`."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or refuse("the-top-level")


def shown(value: Any) -> Refusal | str:
    """A value as a player would recognise it."""
    if value is None:
        return refuse("nothing")
    if isinstance(value, (datetime.date, datetime.datetime)):
        return refuse("the-date", date=value.isoformat())
    if isinstance(value, (dict, list)):
        return refuse("a-mapping" if isinstance(value, dict) else "a-list")
    return repr(value)


def _type_words(kinds: list[str]) -> Refusal | str:
    """JSON types in words: `a whole number or text`."""
    return _either([refuse(_TYPE_WORDS[k]) if k in _TYPE_WORDS else k for k in kinds])


def _either(words: list[Refusal | str]) -> Refusal | str:
    """Words one of which is meant: `'load' or 'harbour'`."""
    out = words[-1]
    for word in reversed(words[:-1]):
        out = refuse("either", one=word, other=out)
    return out


def _keys(keys: list[str]) -> str:
    return ", ".join(repr(k) for k in keys)


def plain(error: jsonschema.ValidationError) -> Refusal:
    """One schema error in plain words."""
    v, val = error.validator, error.validator_value
    inst = error.instance
    if "message" in error.schema and v not in ("required", "additionalProperties"):
        # the schema's own words, its catalog's key (the game's, or pbem's for the turn file's)
        said = error.schema["message"]
        return Refusal("schema", said.replace("{value}", "%(value)s"), **({"value": shown(inst)} if "{value}" in said else {}))
    if v == "type":
        return refuse("must-be", type=_type_words(val if isinstance(val, list) else [val]), value=shown(inst))
    if v == "required":
        return refuse("lacks", keys=_keys([k for k in val if k not in inst]))
    if v in ("anyOf", "oneOf") and error.context and all(e.validator == "required" for e in error.context):
        keys = list(dict.fromkeys(k for e in error.context for k in e.validator_value if k not in inst))
        return refuse("lacks", keys=_either([repr(k) for k in keys]))
    if v == "dependentRequired":
        return refuse("lacks", keys=_keys([k for deps in val.values() for k in deps if k not in inst]))
    if v == "additionalProperties":
        extra = sorted(k for k in inst if k not in error.schema.get("properties", {}))
        return refuse("unknown-fields" if len(extra) > 1 else "unknown-field", keys=_keys(extra))
    if v == "minimum":
        return refuse("at-least", n=val, value=shown(inst))
    if v == "maximum":
        return refuse("at-most", n=val, value=shown(inst))
    if v == "minItems":
        return refuse("items-at-least", n=val)
    if v == "maxItems":
        return refuse("items-at-most", n=val, count=len(inst))
    if v == "maxLength":
        return refuse("chars-at-most", n=val)
    if v == "minLength":
        return refuse("not-empty") if val == 1 else refuse("chars-at-least", n=val)
    if v == "pattern":
        return refuse("form", value=repr(inst))
    if v == "enum":
        return refuse("one-of", values=_keys(val), value=shown(inst))
    if v == "const":
        return refuse("must-be", type=repr(val), value=shown(inst))
    return Refusal("schema", error.message)  # a check pbem has no words for: jsonschema's


def _is_integer(checker: Any, instance: Any) -> bool:
    """A whole number is an int: `3.0` is a float that looks whole, and `true` is no number."""
    return isinstance(instance, int) and not isinstance(instance, bool)


def _ecma_pattern(validator: Any, pattern: str, instance: Any, schema: dict[str, Any]) -> Iterator[Any]:
    """`pattern` as JSON Schema means it (ECMA 262): `$` matches only at the very end, where Python's
    `$` also matches before a final newline (`"start B2\\n"` would pass `^start [A-Z][0-9]$`)."""
    if isinstance(instance, str) and not _compiled(pattern).search(instance):
        from jsonschema import ValidationError

        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(re.sub(r"(?<!\\)\$", r"\\Z", pattern))


@cache
def _strict() -> Any:
    import jsonschema

    return jsonschema.validators.extend(
        jsonschema.Draft202012Validator,
        validators={"pattern": _ecma_pattern},
        type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
    )


@cache
def validator(name: str) -> Any:
    """The validator of a schema from schemas/: whole numbers must be ints, patterns anchor as in ECMA."""
    return _strict()(schema(name))


@cache
def verdict(name: str) -> Check | None:
    """The compiled yes-or-no of a schema from schemas/ (see pbem.schemacheck); None where only
    jsonschema can say."""
    try:
        return compile_schema(schema(name))
    except Unsupported:
        return None


def fits(value: Any, name: str) -> bool:
    """Whether `value` is valid against the schema `name`: the compiled verdict, without jsonschema."""
    check = verdict(name)
    if check is not None:
        return check(value)
    return not any(True for _ in validator(name).iter_errors(value))


@cache
def state_validator(name: str) -> Any:
    """`validator` of a schema whose local `$ref`s are written out in place: the same verdicts at half
    the cost of resolving each reference on every use (a state is checked at every save). For what
    pbem writes itself; a player's input keeps `validator`, whose error choice the messages rely on."""
    whole = schema(name)
    flat = _inline(whole, whole.get("$defs", {}))
    if "$defs" in whole:
        flat["$defs"] = whole["$defs"]  # a recursive definition still refers to them
    return _strict()(flat)


def _inline(node: Any, defs: dict[str, Any], seen: tuple[str, ...] = ()) -> Any:
    if isinstance(node, list):
        return [_inline(x, defs, seen) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: _inline(v, defs, seen) for k, v in node.items() if k not in ("$ref", "$defs")}
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/") and ref not in seen:
        target = _inline(defs[ref[len("#/$defs/"):]], defs, (*seen, ref))
        # a keyword beside the reference applies with it: merged, or both kept under allOf
        out = {"allOf": [target], **out} if set(target) & set(out) else {**target, **out}
    elif ref is not None:
        out["$ref"] = ref
    return out


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
        from jsonschema.exceptions import best_match

        error = best_match(deeper)
    return error


def _folded(path: tuple) -> tuple:
    return tuple(p.casefold() if isinstance(p, str) else p for p in path)


def _get(table: dict[tuple, Any] | None, path: tuple) -> Any:
    """`table[path]`, its keys matched without regard to case where need be (the file may say `Bid`
    where the value, put in the schema's case, says `bid`); None if it has none."""
    if not table:
        return None
    if path in table:
        return table[path]
    folded = _folded(path)
    return next((v for k, v in table.items() if _folded(k) == folded), None)


def _at(lines: dict[tuple, int] | None, path: tuple, line_of: tuple) -> tuple[int, Refusal | str]:
    """Where a place is, as its sender knows it, and a number to sort by: `line 6, orders[0].bid` (the
    line of `line_of`); in a file pbem wrote from his order lines, his own name for the line that gave
    the place (`order line 2 ('bid: x'), bid`), and a place pbem filled in itself by its name alone."""
    names = getattr(lines, "names", None)
    if names is not None:
        for k in range(len(path), 0, -1):
            named = _get(names, path[:k])
            if named is not None:
                n, name = named
                return n, refuse("name-place", name=name, key=place(path[k:])) if path[k:] else name
        return 0, place(path)
    line = _get(lines, line_of) or _get(lines, path) or 0
    return line, refuse("line-place", line=line, place=place(path)) if line else place(path)


def schema_errors(value: Any, schema_name: str, lines: dict[tuple, int] | None = None,
                  prefix: tuple = ()) -> list[Refusal]:
    """Every error of `value` against a schema, sorted by place, each with its line."""
    if fits(value, schema_name):  # the usual case, answered without jsonschema
        return []
    out: list[Refusal] = []
    def order(e: jsonschema.ValidationError) -> list[tuple[int, int | str]]:
        return [(0, p) if isinstance(p, int) else (1, str(p)) for p in e.absolute_path]

    found = []
    for err in validator(schema_name).iter_errors(value):
        err = _deepest(err)
        path = prefix + tuple(err.absolute_path)
        line_of = path
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            extra = [k for k in err.instance if k not in err.schema.get("properties", {})]
            line_of = path + (extra[0],) if extra else path  # the line of the first unknown field
        line, where = _at(lines, path, line_of)
        # a token is never echoed, not even one of the wrong kind: the message may go to a log or a mail
        words = refuse("token-text") if path[-1:] == ("token",) else plain(err)
        found.append((line, order(err), at(where, words)))
    for _, _, text in sorted(found, key=lambda f: (f[0], f[1])):  # in the order of the file
        if text not in out:
            out.append(text)
    return out


# -- the case of keys and words ---------------------------------------------------------------------------

# Text the schemas leave open whose case is fixed all the same: game ids and player names are lower case
# by definition (store.GAME_ID, store.PLAYER_NAME), the harbours of Medici vs Strozzi upper case (A, B, C).
CASE_OF = {"game": str.lower, "player": str.lower, "harbour": str.upper}
MAX_SPELLINGS = 4096  # the spellings of one string tried against a pattern (3 per word that has letters)


def fold_case(value: Any, part: Any) -> Any:
    """`value` with its keys and words in the case a schema (or a part of one) expects, wherever only one
    reading fits: a phone writes `Bid: 2`, `Pass`, `Turn: Next`, `Palace orange g6`. A key is the
    schema's property of that name in any case; a word the `enum` or `const` member it spells in any
    case; a string that fails its `pattern` is tried with each word in lower and in upper case, and
    taken if exactly one spelling fits. A value that fits several branches of a `oneOf`, or a word that
    could be spelt either way, is left as sent; so is text the schema leaves open (a token's case
    matters), but for CASE_OF. Returns a new value; `value` is not changed."""
    if not isinstance(value, (str, dict)) or not isinstance(part, dict) or not _can_fold(part):
        return value  # a number, a list: nothing to put in any case
    if isinstance(value, str) and _spelt_right(value, part):
        return value
    props = part.get("properties")
    if isinstance(value, dict) and isinstance(props, dict):
        out: dict[Any, Any] = {}
        for key, item in value.items():
            name = key
            if isinstance(key, str) and key not in props:
                same = [p for p in props if p.casefold() == key.casefold()]
                if len(same) == 1 and same[0] not in value and same[0] not in out:
                    name = same[0]
            if name in props:
                item = fold_case(item, props[name])
                if name in CASE_OF and isinstance(item, str):
                    item = CASE_OF[name](item)
            out[name] = item
        value = out
    elif isinstance(value, str):
        value = _fold_word(value, part)
    branches = part.get("oneOf") or part.get("anyOf")
    if isinstance(branches, list) and any(isinstance(b, dict) and _can_fold(b) for b in branches):
        value = _fold_branches(value, branches)
    return value


def _can_fold(part: dict[str, Any]) -> bool:
    """Whether a schema part names any key or word whose case a value could miss."""
    known = _FOLDABLE.get(id(part))
    if known is None or known[0] is not part:
        branches = part.get("oneOf") or part.get("anyOf") or []
        can = any(k in part for k in ("properties", "enum", "const", "pattern")) \
            or any(isinstance(b, dict) and _can_fold(b) for b in branches)
        known = _FOLDABLE[id(part)] = (part, can)
    return known[1]


_FOLDABLE: dict[int, tuple[dict[str, Any], bool]] = {}  # id(part) -> (part, whether it can fold)


def _spelt_right(text: str, part: dict[str, Any]) -> bool:
    """Whether a string is spelt as a word, a const or the pattern of the part (or a branch) has it."""
    if text in part.get("enum", []) or part.get("const") == text:
        return True
    if isinstance(part.get("pattern"), str) and _compiled(part["pattern"]).search(text):
        return True
    return any(isinstance(b, dict) and _spelt_right(text, b) for b in part.get("oneOf") or part.get("anyOf") or [])


def _fold_word(text: str, part: dict[str, Any]) -> str:
    words = [w for w in part.get("enum", []) if isinstance(w, str)]
    if isinstance(part.get("const"), str):
        words.append(part["const"])
    if words and text not in words:
        same = {w for w in words if w.casefold() == text.casefold()}
        if len(same) == 1:
            return same.pop()
    pattern = part.get("pattern")
    if isinstance(pattern, str) and not _compiled(pattern).search(text):
        fits = {s for s in _spellings(text) if _compiled(pattern).search(s)}
        if len(fits) == 1:
            return fits.pop()
    return text


def _spellings(text: str) -> list[str]:
    """`text` with each of its words as sent, in lower and in upper case (none if that is too many)."""
    choices = [sorted({w, w.lower(), w.upper()}) for w in text.split(" ")]
    count = 1
    for c in choices:
        count *= len(c)
        if count > MAX_SPELLINGS:
            return []
    return [" ".join(words) for words in itertools.product(*choices)]


_PART_VERDICTS: dict[int, tuple[dict[str, Any], Check]] = {}  # id(part) -> (part, verdict); parts of cached schemas


def _fits(value: Any, part: dict[str, Any]) -> bool:
    known = _PART_VERDICTS.get(id(part))
    if known is None or known[0] is not part:
        try:
            check = compile_schema(part)
        except (Unsupported, LookupError):  # a keyword or a reference it cannot read alone: jsonschema says
            check = _strict()(part).is_valid
        known = _PART_VERDICTS[id(part)] = (part, check)
    return bool(known[1](value))


def _fold_branches(value: Any, branches: list[Any]) -> Any:
    """A value under a oneOf: folded within the one branch it fits; if it fits none, the one folding
    that makes it fit a branch, or else the one folding any branch makes (`Bid: x` is `bid: x`, which
    the schema then refuses in words about a bid)."""
    fits = [b for b in branches if isinstance(b, dict) and _fits(value, b)]
    if len(fits) == 1:
        return fold_case(value, fits[0])
    if fits:
        return value
    tried: dict[str, tuple[Any, bool]] = {}
    for branch in branches:
        folded = fold_case(value, branch)
        if folded != value:
            tried.setdefault(repr(folded), (folded, _fits(folded, branch)))
    good = [folded for folded, ok in tried.values() if ok]
    if len(good) == 1:
        return good[0]
    if not good and len(tried) == 1:
        return next(iter(tried.values()))[0]
    return value


NEXT = "next"  # `turn: next`: the orders answer the sender's next decision, whenever it comes


class Source(bytes):
    """A turn file's bytes that say where they come from, for its errors: `what` names the file ("the
    attachment 'turn.yaml'"), and `names`, for a file pbem wrote itself from a sender's order lines,
    gives for a place in it (`("orders", 0)`) the number and name of the line he wrote (`(2, "order
    line 2 ('bid: x')")`), so that no error names a line of a file he never saw. It goes through
    `game.submit` as any bytes do, to `parse_turnfile`."""

    what: Refusal | str
    names: dict[tuple, tuple[int, Refusal]] | None

    def __new__(cls, data: bytes | str, what: Refusal | str = THE_TURN_FILE,
                names: dict[tuple, tuple[int, Refusal]] | None = None) -> "Source":
        self = super().__new__(cls, data.encode("utf-8") if isinstance(data, str) else data)
        self.what, self.names = what, names
        return self


class Lines(dict):  # type: ignore[type-arg]
    """A turn file's map from each place in it to its line number, with what an error calls the file
    and the sender's own names for its places (see `Source`)."""

    def __init__(self, lines: dict[tuple, int] | None = None, what: Refusal | str = THE_TURN_FILE,
                 names: dict[tuple, tuple[int, Refusal]] | None = None) -> None:
        super().__init__(lines or {})
        self.what, self.names = what, names


@dataclass(frozen=True)
class TurnFile:
    game: str
    player: str
    token: str | None                    # None: the mail's reply key proved its sender
    turn: int | str | None               # a decision number, NEXT, or None (standing orders alone)
    orders: list[Order] | None
    lines: dict[tuple, int] = field(default_factory=dict, compare=False, repr=False)
    standing: list[dict[str, Any]] | None = None
    reports: str | None = None           # moves | all: when he wants mail


#: the order block's keys in German and Dutch, as the reports show them to those players (anyone may
#: write them, and the English ones): `zug: nächster`, `dauer: ...`, `berichte: alle`, `nächster: ...`
KEY_WORDS = {"zug": "turn", "beurt": "turn", "dauer": "standing", "dauerbefehl": "standing", "vast": "standing",
             "berichte": "reports", "verslagen": "reports", "nächster": "next", "naechster": "next",
             "volgende": "next"}
VALUE_WORDS = {"turn": {"nächster": "next", "naechster": "next", "volgende": "next"},
               "reports": {"alle": "all", "züge": "moves", "zuege": "moves", "zetten": "moves"}}


def english_keys_of(value: Any) -> Any:
    """A turn file with its German or Dutch keys (`zug`, `berichte`, `vast`...) and their values'
    words (`nächster`, `alle`) in pbem's own English; anything else as it is."""
    if not isinstance(value, dict):
        return value
    out: dict[Any, Any] = {}
    for key, item in value.items():
        name = KEY_WORDS.get(key.casefold(), key) if isinstance(key, str) else key
        if name == "next" or name in out:  # `next:` begins an order line of a reply alone; a key twice stays
            name = key
        if isinstance(item, str) and name in VALUE_WORDS:
            item = VALUE_WORDS[name].get(item.casefold(), item)
        out[name] = item
    return out


def parse_turnfile(data: bytes | str, order_schema: str | None = None, need_token: bool = True) -> TurnFile:
    """Read a turn file (a `Source` names itself in the errors). Keys and words are put in the schemas'
    case first. The envelope is checked first; the orders against `order_schema`, which the caller
    finds from the game (None: leave the orders to be checked once the game is known). Without
    `need_token` (a mail whose reply key proved its sender) the token may be left out."""
    what, names = getattr(data, "what", THE_TURN_FILE), getattr(data, "names", None)
    try:
        value, found = load_yaml(data, what, case_blind=True)
    except TurnFileError as exc:
        if names is None:
            raise
        # a file pbem wrote from order lines (each read on its own before): none of its lines is the sender's
        raise TurnFileError(without_line(exc.refusal)) from None
    lines = Lines(found, what, names)
    if value is None:
        raise TurnFileError(refuse("empty", what=what))
    value = fold_case(english_keys_of(value), schema("turnfile"))
    if isinstance(value, dict) and "orders" in value and value["orders"] is None:  # the report's block, unchanged
        if "standing" not in value and "reports" not in value:
            raise TurnFileError(refuse("no-order-kept", what=what))
        # its orders left commented out, standing: or reports: added: those alone, for no turn
        value = {k: v for k, v in value.items() if k not in ("orders", "turn")}
    proven = not need_token and isinstance(value, dict) and "token" not in value
    problems = schema_errors(dict(value, token="-") if proven else value, "turnfile", lines)
    if problems:
        raise TurnFileError(listing("not-valid", problems, what=what))
    if order_schema and "orders" in value:
        check_orders(value["orders"], order_schema, lines)
    return TurnFile(value["game"], value["player"], value.get("token"), value.get("turn"), value.get("orders"), lines,
                    value.get("standing"), value.get("reports"))


def without_line(refusal: Refusal | str) -> Refusal | str:
    """A refusal of YAML at a line of a file (`the turn file, line 3: ...`) said of the file alone."""
    if isinstance(refusal, Refusal) and refusal.msg == "at":
        where = refusal.values["place"]
        if isinstance(where, Refusal) and where.msg == "what-line":
            return at(where.values["what"], refusal.values["why"])
    return refusal


_WORD = Pattern(r"^(?:-?\d+|[A-Za-z0-9_]+)$")  # a number, or a word of letters and digits (`QH`, `10S`, `C7`)


def _as_pair(item: Any, part: dict[str, Any]) -> Any:
    """`bid 7`, `bid:7`, `bid = 7` or `pass day`, which the game's schema refuses as text, is `bid: 7`
    (`pass: day`), and `load 4 harbour B` or `load: 4, harbour: B` is `{load: 4, harbour: B}`, where
    the game has orders keyed so. A game whose orders are words (`send 4`) keeps them: they fit as sent."""
    if isinstance(item, dict) and len(item) == 1:
        (key, value), = item.items()  # `load: 4, harbour: B` without braces: YAML reads one key
        if not (isinstance(key, str) and isinstance(value, str) and re.search("[,:=]", value)):
            return item
        text = f"{key}: {value}"
    elif isinstance(item, str):
        text = item
    else:
        return item
    words = [w for w in re.split(r"[\s,:=]+", text.strip()) if w]
    if len(words) < 2 or len(words) % 2 or not all(_WORD.match(w) for w in words) or _fits(item, part):
        return item
    keys = words[0::2]
    known = _property_names(json.dumps(part, sort_keys=True))
    if any(k.casefold() not in known or k[0].isdigit() or k[0] == "-" for k in keys) or len(set(keys)) < len(keys):
        return item  # no order of the game is keyed so: left for the schema to refuse as sent
    pairs = {k: int(v) if v.lstrip("-").isdigit() else v for k, v in zip(keys, words[1::2])}
    # a bid the schema refuses (`bid x`) is refused as a bid, in words about its amount
    return fold_case(pairs, part)


@cache
def _property_names(text: str) -> frozenset[str]:
    """Every property name a schema (as JSON text) knows, in any of its branches, case-folded."""
    names: set[str] = set()
    stack: list[Any] = [json.loads(text)]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("properties"), dict):
                names.update(k.casefold() for k in node["properties"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return frozenset(names)


def check_orders(orders: list[Any], order_schema: str, lines: dict[tuple, int] | None = None,
                 key: str = "orders") -> None:
    """Each item of `key` against a schema; every problem at once. Each item is first written in the
    game's canonical order words (a player's `bieten 7` is `bid 7`: pbem.i18n.canonical, so the queue,
    the order log and turn files keep one form whatever language he wrote in) and put in the case the
    schema expects (`fold_case`), in the list itself: the caller goes on with them as the game reads
    them. A schema that does not exist raises FileNotFoundError before anything changes."""
    from pbem.i18n import canonical

    part = schema(order_schema)
    game = order_schema.rsplit(".", 1)[0]  # `medici.orders`, `medici.standing`: the game's words
    for i, item in enumerate(orders):
        orders[i] = _as_pair(fold_case(canonical(item, game), part), part)
    problems = []
    for i, item in enumerate(orders):
        problems += schema_errors(item, order_schema, lines, (key, i))
    if problems:
        raise TurnFileError(listing("not-valid", problems, what=getattr(lines, "what", THE_TURN_FILE)))
