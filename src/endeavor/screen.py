"""Moved to :mod:`endeavor.terminal.screen`; this import path is kept for one release.

It is the same module object, so whatever is read or patched here is read or patched
there.
"""

import sys

from .terminal import screen as _moved
from .terminal.screen import *  # noqa: F403  (for type checkers: the module's names)

sys.modules[__name__] = _moved
