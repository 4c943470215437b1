"""One hash of every word the public API says over seeded random games of every ruleset
and option (tools/game_dump.py's configs): each decision's prompt and options' words,
and each event's kind, player, words and data. Run it on two trees to show that a change
kept the words: ``PYTHONPATH=<tree>/src python tools/words_hash.py`` prints
``decisions sha256``."""
import hashlib
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from game_dump import configs  # noqa: E402

from endeavor import GameConfig, new_game  # noqa: E402


def main() -> None:
    h = hashlib.sha256()
    n = 0
    for cfg in configs():
        s = new_game(GameConfig(**cfg))
        r = random.Random(cfg["seed"])
        while not s.is_over:
            d = s.decision()
            assert d is not None
            h.update(d.prompt.encode())
            for o in d.options:
                h.update(o.text.encode())
            a = d.options[r.randrange(len(d.options))].action
            for e in s.apply(a):
                h.update(f"{e.kind}|{e.player}|{e.text}|"
                         f"{json.dumps(e.data, sort_keys=True)}".encode())
            n += 1
    print(n, h.hexdigest())


if __name__ == "__main__":
    main()
