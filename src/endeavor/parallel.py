"""Moved to :mod:`endeavor.analysis.parallel`; this import path is kept for one release.

It is the same module object, so whatever is read or patched here is read or patched
there.
"""

import sys

from .analysis import parallel as _moved
from .analysis.parallel import *  # noqa: F403  (for type checkers: the module's names)

sys.modules[__name__] = _moved
