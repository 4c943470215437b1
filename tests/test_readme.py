"""The README's examples run as written: the Python API quick start, the test-support
example and the "write an Exploit" module with its test file (in a separate process,
so the made-up Exploit never joins this test session's registry)."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text()
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.S)


def _block(first_line: str) -> str:
    found = [b for b in BLOCKS if b.splitlines()[0].strip() == first_line]
    assert len(found) == 1, f"README has {len(found)} python blocks starting {first_line!r}"
    return found[0]


def test_quick_start_runs() -> None:
    code = next(b for b in BLOCKS if "state = new_game(config)" in b)
    code = code.replace("    for event in state.apply(d.options[0].action):",
                        "    for event in state.apply(d.options[-1].action):")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "game_end None Game over" in out.stdout


def test_testing_example_runs() -> None:
    code = next(b for b in BLOCKS if b.startswith("from endeavor import testing as T\ns ="))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Your Docks: Ship + Occupy")


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
    out = subprocess.run([sys.executable, "-c", driver], capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok ['lighthouse']"


def test_ruleset_configs_run() -> None:
    code = next(b for b in BLOCKS if b.startswith("GameConfig(players=4, exploits="))
    driver = "from endeavor import GameConfig, new_game\nconfigs = [\n" + "\n".join(
        f"    {line.split('#')[0].strip()}" if line.startswith("GameConfig") else f"    {line}"
        for line in code.strip().splitlines()) + "\n]\n"
    driver = driver.replace(")\n    ", "),\n    ")
    driver += "for c in configs:\n    new_game(c)\nprint(len(configs))\n"
    out = subprocess.run([sys.executable, "-c", driver], capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr + driver
    assert out.stdout.strip() == "3"
