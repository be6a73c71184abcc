"""The application's own expected error: a bad option or combination of options.

It sits below every command module (and below ``cli``, which maps it to one line and
status 2), so a command raises it without importing the command line. The layers' own
expected errors live with the layers that raise them: ``solvers.common`` (``BoardError``
for board texts, ``OptionError`` for solver options), ``vision.common`` (``ImageError``,
``NoBoardFound``), ``puzzlepilot.games`` (``UnknownGame``).
"""
from __future__ import annotations


class UsageError(Exception):
    """A bad option or combination of options."""
