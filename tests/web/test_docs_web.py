"""The HTTP API example of docs/browser.md (which the README links) runs as written
against a real ``endeavor serve`` process (only the port differs): a whole 2-player game
against the server's bot, to the scores."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from endeavor.web.loadtest import ServerProcess

ROOT = Path(__file__).parent.parent.parent
PAGE = (ROOT / "docs" / "browser.md").read_text(encoding="utf-8")


def test_http_api_example_plays_a_game_to_the_scores(tmp_path: Path) -> None:
    blocks = [b for b in re.findall(r"```python\n(.*?)```", PAGE, flags=re.S)
              if b.startswith("import httpx\n")]
    assert len(blocks) == 1, "docs/browser.md has one HTTP API example"
    with ServerProcess(f"sqlite:///{tmp_path / 'readme.db'}") as server:
        code = blocks[0].replace("http://127.0.0.1:8000", server.url)
        assert code != blocks[0]
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             timeout=300, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "'total'" in out.stdout and "'rank': 1" in out.stdout
