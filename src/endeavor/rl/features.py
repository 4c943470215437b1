"""Moved to :mod:`endeavor.encoding.features`; this import path is kept for one release.

It is the same module object, so whatever is read or patched here is read or patched
there.
"""

import sys

from ..encoding import features as _moved
from ..encoding.features import *  # noqa: F403  (for type checkers: the module's names)

sys.modules[__name__] = _moved
