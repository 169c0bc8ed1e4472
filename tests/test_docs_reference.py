"""The reference the docs site makes from the code, and what the hand-written docs say of the code:
every setting of the config schema has its words and none describes a setting the schema lacks;
every `pbem COMMAND --option` the docs name is a command with that option."""

from __future__ import annotations

import importlib.util
import re
from types import ModuleType

import click

from docs_pages import DOCS, ROOT, blocks, name, pages
from pbem.cli import main


def settings_hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_settings_hook", DOCS / "hooks" / "settings.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_setting_of_the_schema_has_its_words_and_no_words_are_about_another() -> None:
    hook = settings_hook()
    schema, texts = hook.load_schema(), hook.load_texts()
    keys = hook.leaf_keys(schema)
    described = {key for key, sub, _, _ in hook.settings(schema) if sub.get("description")}
    assert keys - set(texts) - described == set(), "settings without words in docs/reference/settings.yaml"
    assert set(texts) - keys == set(), "words in docs/reference/settings.yaml for settings the schema lacks"
    defaults = hook.code_defaults()
    hand_written = {k for k, v in texts.items() if "default" in v and k.replace(".", "_") in defaults}
    assert hand_written == set(), "a default pbem.config.Config gives is not written by hand"


def test_the_settings_page_lists_every_setting_with_what_it_takes() -> None:
    hook = settings_hook()
    page = hook.render()
    for key, sub, _, _ in hook.settings(hook.load_schema()):
        if "." in key:
            assert f"| `{key}`" in page, key
        else:
            assert f"`{key}`" in page or f"## {key}" in page, key
    assert "| `inbox.ca_file` (imap) | A PEM file" in page
    assert "| `reply_address` |" in page and "`plus` \\| `none`" in page
    marked = (DOCS / "reference" / "settings.md").read_text()
    assert hook.MARKER in marked


COMMAND = re.compile(r"(?<![\w./-])(?<!-u )pbem(?:-host)? ([a-z][a-z-]*)((?:[ \t]+[^\s|;#`]+)*)")


def command_lines(page_text: str, language: str) -> list[str]:
    """The lines of a code block that are commands: an sh block's lines without their comments, a
    console block's `$ ` lines, a text block's lines that begin with pbem (a synopsis)."""
    found = []
    for line in page_text.splitlines():
        if language == "console":
            if line.startswith("$ "):
                found.append(line[2:])
        elif language == "sh":
            found.append(re.sub(r"(^|\s)#.*$", "", line))
        elif line.lstrip().startswith(("pbem ", "pbem-host ")):
            found.append(re.sub(r"\s#.*$", "", line))
    return found


def named_commands() -> list[tuple[str, str, list[str]]]:
    """Every `pbem COMMAND ...` of the docs' code (inline code that begins with it, and the commands of
    code blocks): where, the command, the options given to it."""
    from docs_pages import prose

    found = []
    for page in pages():
        lines = [span for span in re.findall(r"`([^`\n]+)`", prose(page, code=True)) if span.startswith(("pbem ", "pbem-host "))]
        for block in blocks(page):
            lines += command_lines(block.text, block.language)
        for line in lines:
            for m in COMMAND.finditer(line):
                options = [t.split("=")[0] for t in m.group(2).split() if re.match(r"^--?[a-z]", t)]
                found.append((name(page), m.group(1), options))
    return found


def test_every_command_and_option_the_docs_name_exists() -> None:
    assert isinstance(main, click.Group)
    wrong = []
    for where, command, options in named_commands():
        if command not in main.commands:
            wrong.append(f"{where}: pbem {command}: no such command")
            continue
        known = {opt for p in main.commands[command].params for opt in (*p.opts, *p.secondary_opts)} | {"-h", "--help"}
        wrong.extend(f"{where}: pbem {command} {o}: no such option" for o in options if o not in known)
    assert wrong == []
    assert len({c for _, c, _ in named_commands()}) >= 15  # the docs name most commands
