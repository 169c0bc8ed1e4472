"""pbem: a play-by-email and turn-file batch processor for board games."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path

__version__ = "0.1.0"


@cache
def data_dir(package: str) -> Path:
    """The folder of one of pbem's data packages (`pbem.templates`, `pbem.schemas`, `pbem.rules`),
    wherever the install put it: inside the package, or the repository's top-level folder that an
    editable install maps to it. (importlib.resources would find it too, at 4 ms of imports a command.)"""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise LookupError(f"pbem's data package {package!r} is not installed")
    return Path(next(iter(spec.submodule_search_locations)))
