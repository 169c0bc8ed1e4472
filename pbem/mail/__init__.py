"""Mail, along the road a mail takes: read from a box (`boxes`), recognised (`incoming`), its sender's
seat found (`ids`, `seats`), his own text read (`own_text`, `html`) for orders (`orders`) or commands
(`commands`), answered (`compose`), with no secret in any text (`secrets`); `run` is a run's mail side.

Mail text never goes through a shell and never decides a file path. Everything read is capped.
"""
