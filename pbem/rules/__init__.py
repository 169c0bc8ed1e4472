"""The games pbem knows. Importing this package registers each of them."""

from pbem.rules import florenz, medici, medici_strozzi, medina  # noqa: F401
