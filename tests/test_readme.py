"""The documentation's examples run as written: the README's Python start and its bots
example, the bots page's (docs/bots.md), the rulesets' configurations (docs/rules.md),
the test-support example and the "write an Exploit" module with its test file
(CONTRIBUTING.md; in a separate process, so the made-up Exploit never joins this test
session's registry). The README's and the
docs' relative links lead to files that exist, and the README links every page of
docs/."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).parent.parent
#: where the examples live: the README, CONTRIBUTING.md and the documentation's pages
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCKS = [(page, block) for page in PAGES
          for block in re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"),
                                  flags=re.S)]


def _blocks(test: object) -> list[str]:
    return [b for _page, b in BLOCKS if callable(test) and test(b)]


def _block(first_line: str) -> str:
    found = _blocks(lambda b: b.splitlines()[0].strip() == first_line)
    assert len(found) == 1, f"the docs have {len(found)} python blocks starting {first_line!r}"
    return found[0]


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_quick_start_runs() -> None:
    found = _blocks(lambda b: "state = new_game(config)" in b)
    assert found, "the README has its Python start"
    for code in found:
        code = code.replace("    for event in state.apply(d.options[0].action):",
                            "    for event in state.apply(d.options[-1].action):")
        assert "game_end None Game over" in _run(code)


def test_bots_example_runs() -> None:
    code = next(b for b in _blocks(lambda b: "from endeavor.bots import make\n" in b)
                if "bot.choose(state)" in b and "analyse" not in b)
    # the first decision of a game is the start tile
    assert _run(code).strip() in ("start colonial-house", "start merchant-dock")


def test_bots_page_example_runs() -> None:
    code = next(b for b in _blocks(lambda b: "bot.analyse(state, top=3)" in b))
    lines = _run(code).splitlines()
    # the first decision is the start tile: two options, both ranked
    assert len(lines) == 2 and all(line.startswith("start ") for line in lines)


def test_testing_example_runs() -> None:
    code = next(iter(_blocks(lambda b: b.startswith("from endeavor import testing as T\ns ="))))
    assert _run(code).startswith("Your Docks: Ship + Occupy")


def test_write_an_exploit(tmp_path: Path) -> None:
    module = _block("# src/endeavor/exploits/lighthouse.py")
    test = _block("# tests/test_exploit_lighthouse.py")
    (tmp_path / "lighthouse.py").write_text(module)
    (tmp_path / "test_lighthouse.py").write_text(test)
    driver = textwrap.dedent(f"""
        import importlib.util, sys
        import endeavor.exploits
        spec = importlib.util.spec_from_file_location(
            "endeavor.exploits.lighthouse", {str(tmp_path / "lighthouse.py")!r})
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod
        spec.loader.exec_module(mod)
        sys.path.insert(0, {str(tmp_path)!r})
        import test_lighthouse
        test_lighthouse.test_keep_the_light()
        from endeavor import GameConfig, new_game, testing as T
        s = new_game(GameConfig(players=3, seed=1, exploits=("lighthouse",)))
        T.play_random(s, seed=2)
        print("ok", [e.id for e in s.modules])
    """)
    assert _run(driver).strip() == "ok ['lighthouse']"


def test_ruleset_configs_run() -> None:
    code = next(iter(_blocks(lambda b: b.startswith("GameConfig(players=4, exploits="))))
    driver = "from endeavor import GameConfig, new_game\nconfigs = [\n" + "\n".join(
        f"    {line.split('#')[0].strip()}" if line.startswith("GameConfig") else f"    {line}"
        for line in code.strip().splitlines()) + "\n]\n"
    driver = driver.replace(")\n    ", "),\n    ")
    driver += "for c in configs:\n    new_game(c)\nprint(len(configs))\n"
    out = subprocess.run([sys.executable, "-c", driver], capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr + driver
    assert out.stdout.strip() == "3"


LINK = re.compile(r"\]\(([^)#\s]+)(#[^)\s]*)?\)")


def _links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return [m.group(1) for m in LINK.finditer(text) if "://" not in m.group(1)]


def test_relative_links_lead_somewhere() -> None:
    broken = [f"{page.relative_to(ROOT)}: {link}" for page in PAGES for link in _links(page)
              if not (page.parent / link).exists()]
    assert not broken, broken


def test_the_readme_links_every_page() -> None:
    linked = {(ROOT / link).resolve() for link in _links(ROOT / "README.md")}
    include_only = {"index.md", "contributing.md", "changelog.md"}
    missing = [p.name for p in (ROOT / "docs").glob("*.md")
               if p.resolve() not in linked and p.name not in include_only]
    assert not missing, f"the README links no path to {missing}"
