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


def marked_table(page: str, marker: str) -> list[list[str]]:
    """The rows (cells without their padding) of the Markdown table right under the comment line that
    begins with `marker`, its header and rule left out."""
    lines = (DOCS / page).read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(marker))
    rows = []
    for line in lines[at + 1:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split(" | ")])
    assert len(rows) > 2, f"{page}: no table under {marker}"
    return rows[2:]


def test_the_exit_codes_of_the_reference_and_of_the_gm_guide_are_pbem_advances() -> None:
    """The reference's table is made from EXIT_CODES as the site is built; the guide's, written by hand
    with what to do for each, has a row for each code in the code's order, with its name and meaning."""
    from pbem.hostfail import EXIT_CODES

    spec = importlib.util.spec_from_file_location("docs_exit_codes_hook", DOCS / "hooks" / "exit_codes.py")
    assert spec and spec.loader
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    assert hook.MARKER in (DOCS / "reference" / "commands.md").read_text()
    made = hook.render().splitlines()
    assert made[2:] == [f"| {k.code} | `{k.name}` | {k.meaning} |" for k in EXIT_CODES]
    import yaml

    assert "docs/hooks/exit_codes.py" in yaml.safe_load((ROOT / "mkdocs.yml").read_text())["hooks"]

    guide = marked_table("gm-guide.md", "<!-- exit codes:")
    assert [row[:3] for row in guide] == [[str(k.code), f"`{k.name}`", k.meaning] for k in EXIT_CODES]
    assert all(len(row) == 4 and row[3] for row in guide), "every code says what to do"


def test_the_providers_of_the_mailbox_page_are_pbem_inits() -> None:
    """A row for each provider `pbem init --provider` knows (but `own`), in its order: its key, its
    servers as `host` port security, its kind of login and whether it has plus-addressing."""
    from pbem.providers import APP_PASSWORD, OAUTH2, OWN_SERVER, PASSWORD, PROVIDERS

    rows = marked_table("mailbox.md", "<!-- providers:")
    known = [p for p in PROVIDERS if p.key != OWN_SERVER]
    assert [row[1] for row in rows] == [f"`{p.key}`" for p in known]
    for row, provider in zip(rows, known):
        _, _, imap, smtp, login, plus, _source = row
        assert imap.startswith(f"`{provider.imap_host}` {provider.imap_port} {provider.imap_security}"), provider.key
        assert smtp.startswith(f"`{provider.smtp_host}` {provider.smtp_port} {provider.smtp_security}"), provider.key
        said = {APP_PASSWORD: login.startswith("an app password"), OAUTH2: login.startswith("**OAuth2 only**"),
                PASSWORD: "password" in login and not login.startswith(("an app password", "**OAuth2"))}
        assert said[provider.login], (provider.key, login)
        assert plus.startswith("yes" if provider.plus else "no"), provider.key


def test_what_proves_what_in_design_is_the_table_every_act_asks() -> None:
    """A row for each act of pbem.mail.proof.TABLE, in its order: what it needs as the code says it,
    and the mail words that ask for it named in its first cell."""
    from pbem.mail.proof import COMMAND_ACTS, TABLE

    rows = marked_table("design.md", "<!-- proof:")
    assert [needs for _, needs in rows] == list(TABLE.values())
    for (act_words, _), act in zip(rows, TABLE):
        words = [word for word, its in COMMAND_ACTS.items() if its == act and word != "orders"]
        assert all(f"`{word}" in act_words for word in words), (act, act_words)
