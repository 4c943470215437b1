"""The page's footer (written by the server into the page) says which build of the
engine computes the server's bots and reviews, as ``GET /api/status`` does: pure Python
here (the tests' servers compute in their own processes), ``compiled (mypyc)`` on a
server whose engine workers are the compiled build's (``make test-web-compiled``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import Server


def _footer(page: Any, server: Server) -> str:
    page.goto(server.url + "/")
    footer = page.get_by_test_id("site-footer")
    status = server.get("/api/status")
    want = f"Endeavor {status['version']} · engine: {status['engine']['text']}"
    page.wait_for_function("(want) => document.getElementById('site-footer')"
                           ".textContent === want", arg=want)
    assert footer.get_attribute("data-build") == status["engine"]["build"]
    return str(footer.text_content())


def test_the_footer_says_the_build(page: Any, server: Server) -> None:
    assert _footer(page, server).endswith("engine: pure Python")


@pytest.fixture(scope="module")
def compiled_server(tmp_path_factory: pytest.TempPathFactory,
                    compiled_python: str) -> Iterator[Server]:
    srv = Server(Path(tmp_path_factory.mktemp("compiled-server")),
                 ("--review-iterations", "0", "--engine-python", compiled_python))
    try:
        yield srv
    finally:
        srv.stop()


@pytest.mark.compiled_engine
def test_the_footer_on_the_compiled_build(page: Any, compiled_server: Server) -> None:
    assert _footer(page, compiled_server).endswith("engine: compiled (mypyc)")
