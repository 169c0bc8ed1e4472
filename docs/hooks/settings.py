"""MkDocs' hook for the docs site. The settings reference, made from the config schema (schemas/config.schema.json), the defaults of
pbem.config.Config and the GM's words for each setting (docs/reference/settings.yaml).

MkDocs runs it as a hook while it builds the site: the page docs/reference/settings.md holds the line
`<!-- settings: made from schemas/config.schema.json -->`, and the tables take its place. A setting's words are its entry in settings.yaml, else the schema's
"description" (so a setting added to the schema with a description is documented at once). The tests
(tests/test_docs_reference.py) import it to check that every setting of the schema has its words, and
that no words describe a setting the schema does not have.
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path
from typing import Any, Iterator

import yaml

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schemas" / "config.schema.json"
TEXTS = ROOT / "docs" / "reference" / "settings.yaml"
MARKER = "<!-- settings: made from schemas/config.schema.json -->"


def load_schema() -> dict[str, Any]:
    return json.loads(SCHEMA.read_text(encoding="utf-8"))


def load_texts() -> dict[str, dict[str, str]]:
    """The GM's words for each setting: {dotted key: {text: ..., default: ...}}."""
    value = yaml.safe_load(TEXTS.read_text(encoding="utf-8")) or {}
    return {key: ({"text": entry} if isinstance(entry, str) else entry) for key, entry in value.items()}


def variant_name(schema: dict[str, Any]) -> str | None:
    """The `type:` values a variant of a oneOf takes (`imap`; `maildir, mbox`), or None."""
    kind = schema.get("properties", {}).get("type", {})
    if "const" in kind:
        return str(kind["const"])
    if "enum" in kind:
        return ", ".join(map(str, kind["enum"]))
    return None


def settings(schema: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, dict[str, Any], str | None, bool]]:
    """Every setting under `schema`: (dotted key, its schema, the variant it belongs to, required)."""
    for name, sub in schema.get("properties", {}).items():
        key = f"{prefix}{name}"
        required = name in schema.get("required", [])
        variants = [v for v in sub.get("oneOf", []) if v.get("type") == "object"]
        if sub.get("type") == "object" and "properties" in sub:
            yield key, sub, None, required
            for inner, inner_schema, variant, inner_required in settings(sub, key + "."):
                yield inner, inner_schema, variant, inner_required
        elif variants:
            yield key, sub, None, required
            for variant in variants:
                for inner, inner_schema, _, inner_required in settings(variant, key + "."):
                    yield inner, inner_schema, variant_name(variant), inner_required
        else:
            yield key, sub, None, required


def leaf_keys(schema: dict[str, Any] | None = None) -> set[str]:
    """The dotted keys of every setting (a section such as `inbox` included)."""
    return {key for key, _, _, _ in settings(schema or load_schema())}


def values_of(schema: dict[str, Any]) -> str:
    """What a setting takes, in words, from its schema."""
    if "const" in schema:
        return f"`{schema['const']}`"
    if "enum" in schema:
        return " \\| ".join(f"`{json.dumps(v) if not isinstance(v, str) else v}`" for v in schema["enum"])
    if "oneOf" in schema:
        return "; or ".join(values_of(v) for v in schema["oneOf"])
    kind = schema.get("type")
    if kind == "object":
        return "a section"
    if kind == "array":
        item = schema.get("items", {})
        return f"a list of {values_of(item).removeprefix('a ')}" + (
            f" (at most {schema['maxItems']})" if "maxItems" in schema else "")
    words = {"string": "text", "integer": "a whole number", "boolean": "`true` \\| `false`", "number": "a number"}
    said = words.get(kind, str(kind))
    bounds = []
    if "minimum" in schema:
        bounds.append(f"from {schema['minimum']:,}")
    if "maximum" in schema:
        bounds.append(f"to {schema['maximum']:,}")
    if "maxLength" in schema and kind == "string":
        bounds.append(f"at most {schema['maxLength']} characters")
    return said + (f" ({', '.join(bounds)})" if bounds else "")


def code_defaults() -> dict[str, Any]:
    """The defaults pbem.config.Config gives a setting of the same name (`lobby.create` is
    `lobby_create`)."""
    from pbem.config import Config

    return {name: value for name, value in vars(Config(Path("."))).items() if name != "root" and not name.startswith("_")}


def default_of(key: str, texts: dict[str, dict[str, str]], defaults: dict[str, Any]) -> str:
    attribute = key.replace(".", "_")
    if attribute in defaults and not isinstance(defaults[attribute], dict):
        value = defaults[attribute]
        return "none" if value is None else f"`{json.dumps(value) if not isinstance(value, str) else value}`"
    return texts.get(key, {}).get("default", "")


def render() -> str:
    """The settings' tables, one a section of pbem.yaml."""
    schema, texts, defaults = load_schema(), load_texts(), code_defaults()
    out: list[str] = []
    rows: list[str] = []
    top_level: list[str] = []

    def flush() -> None:
        if rows:
            out.extend(["| setting | what it does | takes | default |", "|---|---|---|---|", *rows, ""])
            rows.clear()

    for key, sub, variant, required in settings(schema):
        text = texts.get(key, {}).get("text") or sub.get("description", "")
        text = text[:1].upper() + text[1:]
        if "." not in key and (sub.get("type") == "object" or "oneOf" in sub and key in ("inbox", "outbox")):
            flush()
            out.extend([f"## {key}", "", text, ""])
            continue
        if "." not in key:
            top_level.append(key)
        label = f"`{key}`" + (f" ({variant})" if variant else "") + (" (required)" if required else "")
        rows.append(f"| {label} | {text} | {values_of(sub)} | {default_of(key, texts, defaults)} |")
    flush()
    return "\n".join(out)


TRANSLATION_LINK = re.compile(r"\]\(((?:[\w-]+/)*)([\w-]+)\.(de|nl)\.md\)")


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """MkDocs' hook: the settings' tables in place of the marker line; and a link to a page's German
    or Dutch file (players.de.md, which GitHub shows) made a link to that language's site
    (de/players/), since each language's site holds its own pages alone."""
    if MARKER in markdown:
        markdown = markdown.replace(MARKER, render())
    here = "/" + page.url

    def to_site(m: re.Match[str]) -> str:
        folder, stem, lang = m.groups()
        return "](" + posixpath.relpath(f"/{lang}/{folder}{stem}/", here if here.endswith("/") else posixpath.dirname(here)) + "/)"
    return TRANSLATION_LINK.sub(to_site, markdown)
