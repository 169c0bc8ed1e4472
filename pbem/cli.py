"""The `pbem` command: a thin shell over the library. Exit codes: 0 success, 1 a domain error (the
message says what was wrong and where), 2 a usage error; `pbem advance` has one of its own for each
way a mail server fails (pbem.hostfail.EXIT_CODES).

Each command lives in a module of its own under pbem.commands, imported only when the command line
names it: a command loads what it uses and nothing else (tests/test_command_imports.py)."""

from __future__ import annotations

import importlib
from typing import Any

import click

from pbem import __version__
from pbem.errors import PbemError

# every command, in the order the docs' reference lists them, and where it is
COMMANDS = {name: f"pbem.commands.{name}:{function}" for name, function in [
    ("new", "new"), ("open", "open_"), ("start", "start"), ("submit", "submit"), ("advance", "advance"),
    ("status", "status"), ("show", "show"), ("verify", "verify"), ("archive", "archive"), ("init", "init"),
    ("set", "set_"), ("replace", "replace"), ("pause", "pause"), ("resume", "resume"), ("rollback", "rollback"),
    ("standings", "standings"), ("rulesets", "list_rulesets"), ("watch", "watch"), ("doctor", "doctor")]}


class LazyGroup(click.Group):
    """A group whose commands are imported when they are asked for: the one a command line names, or
    all of them for `pbem --help` and the docs' reference."""

    def __init__(self, *args: Any, lazy: dict[str, str], **kwargs: Any) -> None:
        self.lazy = lazy
        super().__init__(*args, **kwargs)

    @property  # type: ignore[override]
    def commands(self) -> dict[str, click.Command]:
        """Every command, imported, in the order of `lazy` (what mkdocs-click lists)."""
        return {name: self._load(name) for name in self.lazy}

    @commands.setter
    def commands(self, value: dict[str, click.Command]) -> None:  # click.Group.__init__ gives none
        if value:
            raise TypeError("a LazyGroup's commands are named by `lazy`")

    def _load(self, name: str) -> click.Command:
        module, _, function = self.lazy[name].partition(":")
        command = getattr(importlib.import_module(module), function)
        assert isinstance(command, click.Command) and command.name == name, self.lazy[name]
        return command

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self.lazy)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return self._load(cmd_name) if cmd_name in self.lazy else None


@click.group(name="pbem", cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__)  # not read from the metadata: that costs a third of a start
def main() -> None:
    """Host board games by email: turn files in, reports out, every turn committed to git."""
    from pbem.clock import now

    try:
        now()  # a broken PBEM_NOW is one line here, not a traceback somewhere in a run
    except PbemError as exc:
        raise click.ClickException(str(exc)) from None


#: objects made (less those freed) between two collections of the youngest: Python's 700 collects some
#: sixty times while a short command imports its modules, each time walking what it made, which costs
#: an advance of one order 2% of its instructions; this many still keeps a long run's garbage in bounds
YOUNGEST = 50_000


def run() -> None:
    """The `pbem` program: the command its line names, then the exit, leaving the process's objects
    to the end of the process (the collection of every object at exit costs about 4% of a short
    command, and a program that ends frees them all anyway). The tests call `main` in-process."""
    import gc

    gc.set_threshold(YOUNGEST, *gc.get_threshold()[1:])
    try:
        main()
    finally:
        gc.freeze()
