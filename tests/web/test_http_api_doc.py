"""The HTTP API reference of the documentation site (tools/http_api_md.py, run by the
docs build): written from the app's OpenAPI schema, it names every endpoint and every
schema, and every schema it links to has its section."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import http_api_md  # noqa: E402


def test_every_endpoint_and_schema_is_on_the_page(tmp_path: Path) -> None:
    spec = http_api_md.schema()
    page = http_api_md.render(spec)
    for path, item in spec["paths"].items():
        for method in item:
            if method in http_api_md.METHODS:
                assert f"### `{method.upper()} {path}`" in page
    for name in spec["components"]["schemas"]:
        assert f"\n### {name}\n" in page
    anchors = set(re.findall(r"^\((schema-[a-z0-9-]+)\)=$", page, flags=re.M))
    linked = set(re.findall(r"\]\(#(schema-[a-z0-9-]+)\)", page))
    assert linked and linked <= anchors
    assert "/api/games/{game_id}/actions" in spec["paths"] or any(
        p.endswith("/actions") for p in spec["paths"])
    out = tmp_path / "http.md"
    http_api_md.write(out)
    assert out.read_text(encoding="utf-8") == page
