"""``python -m tools.loadtest [options]`` from a checkout (see :mod:`tools.loadtest`)."""

import sys

from .options import main

sys.exit(main())
