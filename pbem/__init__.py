"""pbem: a play-by-email and turn-file batch processor for board games."""

__version__ = "0.1.0"
