"""The HTTP API reference as Markdown, written from the web app's OpenAPI schema
(``endeavor.web.app.create_app(...).openapi()``): every endpoint with its parameters,
request body and answers, then every schema with its fields. The documentation build
(docs/conf.py) runs it before each build, so the page is never out of date; run it alone
with ``python tools/http_api_md.py OUT.md``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

METHODS = ("get", "post", "put", "patch", "delete")


def schema() -> dict[str, Any]:
    """The app's OpenAPI schema (the app on a throwaway SQLite file: nothing is served)."""
    from endeavor.web.app import create_app

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{tmp}/openapi.db", send_notifications=False,
                         run_reviews=False)
        return app.openapi()


def _cell(text: object) -> str:
    """Text fit for one Markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _anchor(name: str) -> str:
    return "schema-" + name.lower().replace("_", "-")


def _type(s: dict[str, Any]) -> str:
    """A schema's type in a few words, schemas as links to their section."""
    if "$ref" in s:
        name = s["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#{_anchor(name)})"
    for key in ("anyOf", "oneOf", "allOf"):
        if key in s:
            return " or ".join(_type(x) for x in s[key])
    kind = s.get("type")
    if kind == "array":
        return f"array of {_type(s.get('items', {}))}"
    if kind == "object" and "additionalProperties" in s:
        extra = s["additionalProperties"]
        return f"object of {_type(extra) if isinstance(extra, dict) else 'any'}"
    if "enum" in s:
        return " or ".join(f"`{v}`" for v in s["enum"])
    if "const" in s:
        return f"`{s['const']}`"
    return str(kind or "any")


def _body_type(content: dict[str, Any]) -> str:
    return "; ".join(f"{_type(c.get('schema', {}))} ({media})" for media, c in content.items())


def render(spec: dict[str, Any]) -> str:
    """The whole page."""
    info = spec["info"]
    out = [
        "# HTTP API reference",
        "",
        "<!-- written by tools/http_api_md.py from the app's OpenAPI schema at each build:"
        " do not edit -->",
        "",
        f"{info['title']} {info['version']}, OpenAPI {spec['openapi']}. "
        f"{_cell(info.get('description', ''))}",
        "",
        "This page is generated from the running app's schema, which the server also serves"
        " at `/docs` and `/openapi.json`. The design and the contract in words (the game"
        " view's keys, the click targets, the WebSocket) are in [the web app's design and"
        " HTTP contract](../web.md).",
        "",
        "## Endpoints",
        "",
    ]
    for path, item in spec["paths"].items():
        for method in METHODS:
            op = item.get(method)
            if op is None:
                continue
            out += [f"### `{method.upper()} {path}`", ""]
            if op.get("summary"):
                out += [f"**{op['summary']}**", ""]
            if op.get("description"):
                out += [op["description"].strip(), ""]
            params = op.get("parameters", [])
            if params:
                out += ["| parameter | in | type | required | description |",
                        "|---|---|---|---|---|"]
                out += [f"| `{p['name']}` | {p['in']} | {_cell(_type(p.get('schema', {})))} | "
                        f"{'yes' if p.get('required') else 'no'} | "
                        f"{_cell(p.get('description', ''))} |" for p in params]
                out.append("")
            body = op.get("requestBody")
            if body:
                out += [f"Request body: {_body_type(body.get('content', {}))}"
                        f"{'' if body.get('required') else ' (optional)'}.", ""]
            out += ["| answer | description | body |", "|---|---|---|"]
            for code, answer in op.get("responses", {}).items():
                out.append(f"| {code} | {_cell(answer.get('description', ''))} | "
                           f"{_cell(_body_type(answer.get('content', {})))} |")
            out.append("")
    out += ["## Schemas", ""]
    for name, s in spec.get("components", {}).get("schemas", {}).items():
        out += [f"({_anchor(name)})=", f"### {name}", ""]
        if s.get("description"):
            out += [_cell(s["description"]), ""]
        props = s.get("properties", {})
        if props:
            required = set(s.get("required", []))
            out += ["| field | type | required | description |", "|---|---|---|---|"]
            out += [f"| `{field}` | {_cell(_type(p))} | {'yes' if field in required else 'no'}"
                    f" | {_cell(p.get('description', p.get('title', '')))} |"
                    for field, p in props.items()]
            out.append("")
        elif "enum" in s:
            out += [f"One of {_type(s)}.", ""]
    return "\n".join(out).rstrip() + "\n"


def write(path: Path) -> None:
    """Write the page to ``path`` unless it already says the same (no rebuild then)."""
    text = render(schema())
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tools/http_api_md.py OUT.md")
    write(Path(sys.argv[1]))
