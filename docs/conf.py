"""The documentation site (``make docs``): Sphinx with MyST (the pages are Markdown), the
Python API reference by autodoc from the docstrings (which use Sphinx's roles), and the
HTTP API reference written from the web app's OpenAPI schema before each build
(``tools/http_api_md.py``). Built with warnings as errors."""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tools"))

import http_api_md  # noqa: E402

import endeavor  # noqa: E402

project = "endeavor"
author = "the endeavor authors"
copyright = "the endeavor authors, MIT License"
release = endeavor.__version__
version = release

extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 4
exclude_patterns = ["_build"]
# a fence without a language is plain text (the layout, the layers, the review's table)
highlight_language = "text"
html_theme = "furo"
html_title = f"endeavor {release}"
html_static_path: list[str] = []

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": True}
# a method without a docstring of its own is documented where it is declared (the base
# class), not again with a copy of a third party's docstring (Gymnasium's Env.step...)
autodoc_inherit_docstrings = False
# the docstrings mention objects of the optional extras that the site need not import
autodoc_mock_imports = ["pyspiel", "open_spiel"]


# the HTTP API reference, from the app's OpenAPI schema (a fresh SQLite file: create_app
# migrates its database; nothing is served)
http_api_md.write(DOCS / "reference" / "http.md")
