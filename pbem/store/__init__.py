"""A games dir on disk: one directory per game, its state file, its queue of orders, its reports.

    games/
      .pbem.lock                 held by every command that writes (an flock: the kernel drops it when
                                 the process dies, so it is never stale); it holds the holder's pid
                                 while held, so the next holder knows one died and removes the
                                 temporary files of its half-done writes
      lobby/GAME.yaml            a game not begun: an open game, a challenge (see pbem.lobby)
      .gitignore, pbem.yaml      pbem's own; with a game folder, what marks a games dir
      mail/                      the mail pbem read and sends (see pbem.mail.run)
      m1/
        state.yaml               the game: format version, players, seed, engine state, what it reported
        public.yaml              what every player may know: all git holds of the game while it runs
        events.yaml, log.yaml    its history: every event and every accepted order, only ever appended
        queue/<n>-<player>.yaml  orders accepted by `pbem submit`, not yet applied (no tokens)
        reports/<player>/...     every report and error report a player was sent
        rejected/...             the orders `pbem advance` refused, for the GM's record

The state file decides alone what the game is, in one atomic rename: it records how much of each
history file exists (see pbem.history), so a crash can never leave a log that disagrees with the state.
The history is appended before the state file is replaced; a run reads only the part it needs. The
state file is validated against schemas/ before every write (the history lines when written) and ends
in a checksum line: when read, a file whose checksum is right is one pbem wrote and validated, and is
not walked again; any other (edited by hand) is validated in full. Format 1 (the history inside the
state file) is read, and the next save writes format 2.

The package, by what each part does:

    files       canonical YAML, atomic files (temp, fsync, rename), one sync for the file system
    statefile   the state file's format, its validation and its checksum
    parsed      the cache of parsed state files in .git
    processes   crash points (tests), the workers of --jobs, children that die with pbem, gits at work
    gitrepo     git in the games dir: its lock files, status, commits of some paths, bounded messages
    public      what git holds of a running game; the change-over of a games dir of an older pbem
    seen        the Message-IDs of the mail read, hashed, outside git
    batch       a run's commits: a few written by pbem itself, the rest through one `git fast-import`
    objects     git's loose objects, read and written as git does
    gamesdir    the games dir itself (GamesDir): games, state, queue, reports, pbem's lock

The names other modules use are all importable from here.
"""

from __future__ import annotations

from pbem.store.batch import CommitBatch
from pbem.store.files import (dump_yaml, make_private, parse_yaml, private_file, private_folder, read_text_file,
                              read_yaml_file, write_atomic)
from pbem.store.gamesdir import GAME_ID, GAME_PARTS, GITIGNORE, PLAYER_NAME, RESERVED, GamesDir, queue_slot
from pbem.store.gitrepo import GIT_LOCKS, GIT_WAIT, GitRepo, _git_env
from pbem.store.processes import (_setpriv, become_worker, crash_point, dies_with_pbem, git_at_work,
                                  process_start)
from pbem.store.statefile import (CHECKSUM, FORMAT, OLD_FORMAT, SCHEMA_OF, STATE_FILE, check_history, check_state,
                                  check_state_file, checksum, from_old_format, state_body, state_file_text,
                                  written_by_pbem)
from pbem.history import HISTORIES
from pbem.store.public import PRIVATE_PARTS, PUBLIC_FILE

__all__ = [
    "CHECKSUM", "FORMAT", "GAME_ID", "GAME_PARTS", "GITIGNORE", "GIT_LOCKS", "GIT_WAIT", "HISTORIES", "OLD_FORMAT",
    "PLAYER_NAME", "PRIVATE_PARTS", "PUBLIC_FILE", "RESERVED", "SCHEMA_OF", "STATE_FILE", "CommitBatch", "GamesDir",
    "GitRepo", "become_worker", "check_history", "check_state", "check_state_file", "checksum", "crash_point",
    "dies_with_pbem", "dump_yaml", "from_old_format", "git_at_work", "make_private", "parse_yaml", "private_file",
    "private_folder", "process_start", "queue_slot", "read_text_file", "read_yaml_file", "state_body",
    "state_file_text", "write_atomic", "written_by_pbem",
    "_git_env", "_setpriv",  # the identity pbem commits with (pbem doctor); whether setpriv serves (tests)
]
