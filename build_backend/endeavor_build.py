"""In-tree PEP 517 build backend: setuptools, plus mypy (for mypyc) only when it is used.

``pip install .`` builds the engine compiled with mypyc where it can (CPython and a
working C compiler), pure Python otherwise. mypy is asked for as a build requirement only
for a compiled build, so a pure build never downloads it. Editable installs
(``pip install -e .``) are always pure Python: a compiled ``.so`` beside the sources would
shadow every edit of a ``.py`` file. The choice itself is made in ``setup.py``
(:func:`choose`), which this backend imports.

Environment: ``ENDEAVOR_PURE=1`` forces a pure-Python build, ``ENDEAVOR_MYPYC=1`` forces a
compiled one (the build fails instead of falling back); see ``setup.py``.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import (  # noqa: F401  (the rest of the PEP 517 interface)
    build_sdist,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

#: what the compiled build needs besides setuptools: mypyc ships with mypy; the engine
#: needs a recent one (native classes with a custom ``__new__``; tested with 2.4)
MYPYC_REQUIRES = ["mypy>=2.4"]


def _setup_module() -> Any:
    """``setup.py`` as a module (for :func:`choose`), without running ``setup()``."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path.insert(0, root)
    try:
        import setup  # noqa: PLC0415  (setup.py only calls setup() under __main__)
    finally:
        sys.path.remove(root)
    return setup


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    """setuptools' requirements, plus mypy when the wheel will be compiled."""
    requires = list(_setuptools.get_requires_for_build_wheel(config_settings))
    if _setup_module().choose(editable=False, mypyc_importable=True) == "mypyc":
        requires += MYPYC_REQUIRES
    return requires


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None
                                    ) -> list[str]:
    """setuptools' requirements only: an editable install is always pure Python."""
    return list(_setuptools.get_requires_for_build_editable(config_settings))


def build_wheel(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                metadata_directory: str | None = None) -> str:
    """A wheel, compiled or pure as :func:`setup.choose` decides."""
    return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                   metadata_directory: str | None = None) -> str:
    """An editable install, always pure Python (edits to ``src/`` take effect at once)."""
    os.environ["ENDEAVOR_EDITABLE"] = "1"
    try:
        return _setuptools.build_editable(wheel_directory, config_settings,
                                          metadata_directory)
    finally:
        del os.environ["ENDEAVOR_EDITABLE"]
