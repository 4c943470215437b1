"""Dump records + per-step legal-code hashes + final JSON for many seeded random games.
usage: PYTHONPATH=<tree>/src python dump.py OUT [quick]"""
import hashlib, json, random, sys, zlib
from endeavor import GameConfig, new_game, final_scores
from endeavor.rules.module import exploit_ids

def configs():
    out = []
    seed = 0
    for ruleset in ("age_of_sail",):
        for players in (2, 3, 4, 5):
            for board in ("A", "B"):
                for ex in ((), "random"):
                    for k in range(4):
                        seed += 1
                        out.append(dict(players=players, board=board, exploits=ex, seed=seed))
    for e in exploit_ids():
        for players in (2, 4):
            for k in range(3):
                seed += 1
                out.append(dict(players=players, exploits=(e,), seed=seed))
    for players in (3, 4, 5):
        for k in range(6):
            seed += 1
            out.append(dict(players=players, ruleset="classic", seed=seed))
        for k in range(2):
            seed += 1
            out.append(dict(players=players, ruleset="classic", seed=seed,
                            options={"phase_order": "by_player"}))
    for opts in ({}, {"limited_occupation": True}, {"no_token_reaction": True},
                 {"building_shortage": True},
                 {"limited_occupation": True, "no_token_reaction": True, "building_shortage": True}):
        for ex in ((), "random"):
            for k in range(4):
                seed += 1
                o = {"silent_fleet": True, **opts}
                out.append(dict(players=2, exploits=ex, seed=seed, options=o))
    for opts in ({"phase_order": "by_player"}, {"plus_same_region": True},
                 {"discard_pile_bonus": False}):
        for ex in ((), "random"):
            for k in range(4):
                seed += 1
                out.append(dict(players=4, exploits=ex, seed=seed, options=opts))
    return out

def main():
    path = sys.argv[1]
    quick = len(sys.argv) > 2
    cfgs = configs()
    with open(path, "w") as fh:
        for gi, c in enumerate(cfgs):
            for pw in (1.0, 0.15):
                rng = random.Random(gi * 7 + int(pw * 100))
                s = new_game(GameConfig(**c))
                h = hashlib.sha256()
                events = hashlib.sha256()
                step = 0
                use_events = (gi % 5 == 0)
                while not s.is_over:
                    codes = s.legal_codes()
                    h.update(repr(codes).encode())
                    if pw < 1.0 and len(codes) > 1 and codes[-1] == (255 << 16) and rng.random() >= pw:
                        code = codes[rng.randrange(len(codes) - 1)]
                    else:
                        code = codes[rng.randrange(len(codes))]
                    if not quick and step % 7 == 0:
                        h.update(s.to_json().encode())
                        d = s.decision()
                        h.update(repr((d.player, d.kind, d.prompt, [o.text for o in d.options])).encode())
                    if not quick and step % 11 == 3:
                        t = s.copy()
                        t.apply_code(code)
                        h.update(t.to_json().encode())
                    if use_events:
                        from endeavor.actions import BY_CODE
                        ev = s.apply(BY_CODE[code])
                        events.update(repr([(e.kind, e.player, e.text) for e in ev]).encode())
                    else:
                        s.apply_code(code)
                    step += 1
                rec = json.dumps(s.record(), sort_keys=True)
                fin = s.to_json()
                sc = [(x.player, x.total, x.rank, x.lines) for x in final_scores(s)]
                fh.write(json.dumps({"i": gi, "pw": pw, "cfg": repr(c), "steps": step,
                                     "legal": h.hexdigest(), "events": events.hexdigest(),
                                     "rec": hashlib.sha256(rec.encode()).hexdigest(),
                                     "final": hashlib.sha256(fin.encode()).hexdigest(),
                                     "scores": repr(sc)}) + "\n")
    print(len(cfgs) * 2, "games")

if __name__ == "__main__":
    main()
