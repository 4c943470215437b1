"""Where the web board puts each city and trade route (a development tool).

The browser board (``src/endeavor/web/static/boardmap.js``) draws the three boards on
one world map: fixed region areas, each with its shipping track, deck, Governor and open
sea, and the sites placed inside. This script searches site positions (simulated
annealing, seeded) that keep every board's links short, free of crossings, clear of other
sites and labels, and off the tracks and cards; it prints the ``SITES`` table and the
``BENDS`` (links drawn curved) to paste into boardmap.js, and the remaining faults.

    python tools/board_layout.py [iterations] [seed] [--refine]

``--refine`` starts from the table in boardmap.js (cooler, smaller steps: ``--hot=60``)
instead of a random placement.

The region areas and reserved boxes below mirror boardmap.js: change both together.
"""

from __future__ import annotations

import math
import random
import re
import sys
from pathlib import Path

from endeavor import data as D
from endeavor.config import GameConfig
from endeavor.state import new_game

# region areas [x, y, w, h] (boardmap.js REGIONS)
AREAS = {
    "NA": (10, 10, 345, 265), "CA": (10, 290, 345, 230), "SA": (10, 535, 345, 315),
    "EU": (370, 10, 445, 410), "AF": (395, 435, 390, 225),
    "FE": (830, 10, 360, 320), "IN": (830, 345, 360, 315),
}
# boxes no site, label or link may cover: tracks, decks and Governors, open sea, names
RESERVED = [
    # NA: deck+gov, track, sea, name
    (16, 16, 116, 92), (140, 32, 212, 36), (14, 110, 116, 48), (16, 234, 135, 38),
    # CA
    (16, 296, 116, 92), (133, 312, 182, 36), (14, 390, 116, 48), (16, 476, 100, 38),
    # SA (deck at the bottom, name at the top)
    (16, 760, 116, 92), (140, 782, 175, 36), (14, 700, 116, 48), (16, 538, 135, 40),
    # FE: deck+gov top right, track to its left, sea, name bottom right
    (1066, 16, 116, 92), (820, 32, 236, 36), (1070, 110, 116, 48), (1098, 284, 87, 36),
    # IN: deck bottom right, track bottom, sea, name top right
    (1066, 571, 116, 92), (850, 592, 206, 36), (1070, 490, 116, 48), (1120, 344, 65, 38),
    # AF: deck bottom right, track bottom, sea, name
    (666, 571, 116, 92), (470, 592, 186, 36), (670, 495, 116, 48), (398, 620, 72, 38),
    # EU: name, decks
    (376, 16, 110, 40), (556, 16, 116, 96),
]
MIN_GAP = 92  # between two sites' centres
R = 17  # a site's radius


def label_lines(name: str) -> list[str]:
    """A site name as the board writes it: one line, or two split at a space."""
    if len(name) <= 10 or " " not in name:
        return [name]
    words = name.split(" ")
    best = None
    for k in range(1, len(words)):
        a, b = " ".join(words[:k]), " ".join(words[k:])
        if best is None or max(len(a), len(b)) < max(len(best[0]), len(best[1])):
            best = (a, b)
    assert best is not None
    return list(best)


def label_box(x: float, y: float, name: str) -> tuple[float, float, float, float]:
    lines = label_lines(name)
    w = max(len(line) for line in lines) * 6.0 + 6
    return (x - w / 2, y + R + 2, w, 12.5 * len(lines) + 2)


def boards() -> dict[str, list[tuple[str, str]]]:
    out = {}
    for name, cfg in (("A", GameConfig(players=3)), ("B", GameConfig(players=5)),
                      ("classic", GameConfig(players=4, ruleset="classic"))):
        st = new_game(cfg)
        out[name] = [(D.SITES[a].code, D.SITES[b].code) for a, b in st.info.board.links]
    return out


def sites() -> dict[str, tuple[str, str]]:
    """code -> (region code, name) over every board."""
    out = {}
    for cfg in (GameConfig(players=3), GameConfig(players=5)):
        st = new_game(cfg)
        for s in range(len(D.SITES)):
            site = D.SITES[s]
            if s in st.info.sites or any(s in rs for rs in st.info.routes_in):
                out[site.code] = (D.REGION_CODES[site.region], site.name)
    return out


def rect_overlap(a: tuple[float, ...], b: tuple[float, ...], pad: float = 0) -> float:
    ox = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]) + pad
    oy = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]) + pad
    return max(0.0, ox) * max(0.0, oy)


def curve(a: tuple[float, float], b: tuple[float, float], bend: float,
          n: int = 8) -> list[tuple[float, float]]:
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    cx, cy = mx - (b[1] - a[1]) * bend, my + (b[0] - a[0]) * bend
    pts = []
    for i in range(n + 1):
        t = i / n
        pts.append(((1 - t) ** 2 * a[0] + 2 * (1 - t) * t * cx + t * t * b[0],
                    (1 - t) ** 2 * a[1] + 2 * (1 - t) * t * cy + t * t * b[1]))
    return pts


def seg_cross(p1: tuple[float, float], p2: tuple[float, float], p3: tuple[float, float],
              p4: tuple[float, float]) -> bool:
    def orient(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    d1, d2 = orient(p3, p4, p1), orient(p3, p4, p2)
    d3, d4 = orient(p1, p2, p3), orient(p1, p2, p4)
    return d1 * d2 < 0 and d3 * d4 < 0


def point_in(p: tuple[float, float], r: tuple[float, ...], pad: float = 0) -> bool:
    return r[0] - pad <= p[0] <= r[0] + r[2] + pad and r[1] - pad <= p[1] <= r[1] + r[3] + pad


BENDS = (0.0, 0.18, -0.18, 0.32, -0.32)


class Layout:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.sites = sites()
        self.boards = boards()
        self.links = sorted({lk for links in self.boards.values() for lk in links})
        self.pos: dict[str, tuple[float, float]] = {}
        for code, (region, _) in self.sites.items():
            x, y, w, h = AREAS[region]
            self.pos[code] = (x + w / 2 + self.rng.uniform(-40, 40),
                              y + h / 2 + self.rng.uniform(-40, 40))
        self.bend = {lk: 0.0 for lk in self.links}

    def site_cost(self, code: str) -> tuple[float, list[str]]:
        x, y = self.pos[code]
        region, name = self.sites[code]
        ax, ay, aw, ah = AREAS[region]
        cost = 0.0
        faults = []
        lb = label_box(x, y, name)
        foot = (min(x - R, lb[0]), y - R, max(2 * R, lb[2]), lb[1] + lb[3] - (y - R))
        out = max(0, ax + 4 - foot[0]) + max(0, foot[0] + foot[2] - (ax + aw - 4)) \
            + max(0, ay + 4 - foot[1]) + max(0, foot[1] + foot[3] - (ay + ah - 4))
        if out:
            cost += 50 * out + 500
            faults.append(f"{code} outside its region")
        for r in RESERVED:
            ov = rect_overlap(foot, r, 6)
            if ov:
                cost += 2 * ov + 500
                faults.append(f"{code} on a reserved box {r}")
        return cost, faults

    def pair_cost(self, a: str, b: str) -> float:
        (x1, y1), (x2, y2) = self.pos[a], self.pos[b]
        d = math.hypot(x1 - x2, y1 - y2)
        cost = 0.0
        if d < MIN_GAP:
            cost += (MIN_GAP - d) ** 2 * 3 + 300
        la = label_box(x1, y1, self.sites[a][1])
        lb = label_box(x2, y2, self.sites[b][1])
        cost += 3 * rect_overlap(la, lb, 8)
        return cost

    def link_geom(self, lk: tuple[str, str]) -> list[tuple[float, float]]:
        return curve(self.pos[lk[0]], self.pos[lk[1]], self.bend[lk])

    def link_cost(self, lk: tuple[str, str],
                  pts: list[tuple[float, float]]) -> tuple[float, list[str]]:
        cost = 0.0
        faults = []
        length = sum(math.dist(pts[i], pts[i + 1]) for i in range(len(pts) - 1))
        cost += length * 1.0
        x0, y0 = min(p[0] for p in pts) - 60, min(p[1] for p in pts) - 40
        x1, y1 = max(p[0] for p in pts) + 60, max(p[1] for p in pts) + 40
        for code, (_, name) in self.sites.items():
            if code in lk:
                continue
            x, y = self.pos[code]
            if not (x0 <= x <= x1 and y0 <= y <= y1):
                continue
            lb = label_box(x, y, name)
            for p in pts[1:-1]:
                if math.dist(p, (x, y)) < R + 12:
                    cost += 400
                    faults.append(f"{lk} passes over {code}")
                    break
                if point_in(p, lb, 4):
                    cost += 300
                    faults.append(f"{lk} passes over {code}'s name")
                    break
        for r in RESERVED:
            if any(point_in(p, r, 2) for p in pts[2:-2]):
                cost += 250
                faults.append(f"{lk} crosses reserved {r}")
        # the token at the middle: clear of every label and of the endpoints' circles
        mid = pts[len(pts) // 2]
        tok = (mid[0] - 17, mid[1] - 11, 34, 22)
        for code, (_, name) in self.sites.items():
            x, y = self.pos[code]
            if rect_overlap(tok, label_box(x, y, name), 3) or math.dist(mid, (x, y)) < 45:
                cost += 300
                faults.append(f"{lk} token on {code}")
        for r in RESERVED:
            if rect_overlap(tok, r, 2):
                cost += 300
                faults.append(f"{lk} token on reserved {r}")
        return cost, faults

    def total(self, want_faults: bool = False) -> tuple[float, list[str]]:
        cost = 0.0
        faults: list[str] = []
        codes = list(self.sites)
        for code in codes:
            c, f = self.site_cost(code)
            cost += c
            faults += f
        for i, a in enumerate(codes):
            for b in codes[i + 1:]:
                c = self.pair_cost(a, b)
                if c and want_faults and c >= 300:
                    faults.append(f"{a} too near {b}")
                cost += c
        geom = {lk: self.link_geom(lk) for lk in self.links}
        for lk in self.links:
            c, f = self.link_cost(lk, geom[lk])
            cost += c
            faults += f
        box = {lk: (min(p[0] for p in g), min(p[1] for p in g),
                    max(p[0] for p in g), max(p[1] for p in g)) for lk, g in geom.items()}
        for links in self.boards.values():
            for i, l1 in enumerate(links):
                for l2 in links[i + 1:]:
                    if set(l1) & set(l2):
                        continue
                    b1, b2 = box[l1], box[l2]
                    if b1[0] > b2[2] or b2[0] > b1[2] or b1[1] > b2[3] or b2[1] > b1[3]:
                        continue
                    p, q = geom[l1], geom[l2]
                    if any(seg_cross(p[s], p[s + 1], q[t], q[t + 1])
                           for s in range(len(p) - 1) for t in range(len(q) - 1)):
                        cost += 800
                        faults.append(f"{l1} crosses {l2}")
        return cost, faults

    def load(self, path: Path) -> None:
        """Start from the SITES and BENDS tables of boardmap.js."""
        text = path.read_text()
        for code, x, y in re.findall(r"^\s+(\w+): \[(-?\d+), (-?\d+)\],$", text, re.M):
            if code in self.pos:
                self.pos[code] = (float(x), float(y))
        for a, b, bend in re.findall(r'^\s+"(\w+)-(\w+)": (-?[\d.]+),$', text, re.M):
            if (a, b) in self.bend:
                self.bend[(a, b)] = float(bend)

    def crossings(self, lks: set[tuple[str, str]]) -> float:
        """The crossing penalty of every pair of a board's links with one in ``lks``."""
        cost = 0.0
        geom: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for links in self.boards.values():
            for l1 in links:
                if l1 not in lks:
                    continue
                for l2 in links:
                    if l2 == l1 or set(l1) & set(l2) or (l2 in lks and l2 < l1):
                        continue
                    p = geom.get(l1) or geom.setdefault(l1, self.link_geom(l1))
                    q = geom.get(l2) or geom.setdefault(l2, self.link_geom(l2))
                    if (max(a[0] for a in p) < min(b[0] for b in q)
                            or max(b[0] for b in q) < min(a[0] for a in p)
                            or max(a[1] for a in p) < min(b[1] for b in q)
                            or max(b[1] for b in q) < min(a[1] for a in p)):
                        continue
                    if any(seg_cross(p[s], p[s + 1], q[t], q[t + 1])
                           for s in range(len(p) - 1) for t in range(len(q) - 1)):
                        cost += 800
        return cost

    def near(self, points: list[tuple[float, float]]) -> set[tuple[str, str]]:
        """The links whose box (with a margin) holds one of ``points``."""
        out = set()
        for k in self.links:
            (ax, ay), (bx, by) = self.pos[k[0]], self.pos[k[1]]
            x0, x1 = min(ax, bx) - 110, max(ax, bx) + 110
            y0, y1 = min(ay, by) - 110, max(ay, by) + 110
            if any(x0 <= x <= x1 and y0 <= y <= y1 for x, y in points):
                out.add(k)
        return out

    def local(self, code: str | None, lk: tuple[str, str] | None,
              around: set[tuple[str, str]] | None = None) -> float:
        """Every cost term that moving ``code`` (or bending ``lk``) can change; ``around``:
        the links whose own cost may change with the move."""
        cost = 0.0
        if code is not None:
            cost += self.site_cost(code)[0]
            cost += sum(self.pair_cost(code, other) for other in self.sites if other != code)
            cost += sum(self.link_cost(k, self.link_geom(k))[0] for k in (around or ()))
            cost += self.crossings({k for k in self.links if code in k})
        else:
            assert lk is not None
            cost += self.link_cost(lk, self.link_geom(lk))[0]
            cost += self.crossings({lk})
        return cost

    def anneal(self, iterations: int, hot: float = 400.0, reach: float = 60.0) -> None:
        codes = list(self.sites)
        for it in range(iterations):
            temp = hot * (1 - it / iterations) + 1
            if self.rng.random() < 0.8:
                code = self.rng.choice(codes)
                old = self.pos[code]
                step = 6 + reach * (1 - it / iterations)
                new_pos = (old[0] + self.rng.gauss(0, step), old[1] + self.rng.gauss(0, step))
                around = self.near([old, new_pos]) | {k for k in self.links if code in k}
                before = self.local(code, None, around)
                self.pos[code] = new_pos
                delta = self.local(code, None, around) - before
                if not (delta < 0 or self.rng.random() < math.exp(-delta / temp)):
                    self.pos[code] = old
            else:
                lk = self.rng.choice(self.links)
                before = self.local(None, lk)
                old_b = self.bend[lk]
                self.bend[lk] = self.rng.choice(BENDS)
                delta = self.local(None, lk) - before
                if not (delta < 0 or self.rng.random() < math.exp(-delta / temp)):
                    self.bend[lk] = old_b


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    iterations = int(args[0]) if args else 6000
    seed = int(args[1]) if len(args) > 1 else 1
    lay = Layout(seed)
    if "--refine" in sys.argv:
        lay.load(Path(__file__).parent.parent / "src/endeavor/web/static/boardmap.js")
        hot = float(next((a.split("=")[1] for a in sys.argv if a.startswith("--hot=")), 60))
        lay.anneal(iterations, hot=hot, reach=hot / 3)
    else:
        lay.anneal(iterations)
    cost, faults = lay.total(want_faults=True)
    print("// cost", round(cost), "faults", len(faults))
    for f in sorted(set(faults)):
        print("//  ", f)
    print("export const SITES = {")
    for code, (x, y) in lay.pos.items():
        print(f"  {code}: [{round(x)}, {round(y)}],")
    print("};")
    print("export const BENDS = {")
    for lk, b in lay.bend.items():
        if b:
            print(f'  "{lk[0]}-{lk[1]}": {b},')
    print("};")


if __name__ == "__main__":
    main()
