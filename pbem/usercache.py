"""Where this user's caches live: what pbem computes once and keeps between its processes."""

from __future__ import annotations

import os


def user_cache() -> str:
    """The folder of this user's caches (compiled templates and catalogs, what a setpriv can do): $PBEM_CACHE, else
    $XDG_CACHE_HOME/pbem, else ~/.cache/pbem. Anything in it can be removed; pbem makes it again."""
    return os.environ.get("PBEM_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "pbem")
