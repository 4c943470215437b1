"""The board's pan and zoom (static/panzoom.js) on a phone-sized frame, driven directly:
the board opens on the decision's targets, and a target the zoom buttons in the frame's
corner would cover is shown beside or above them instead (a CI game once tapped the
buttons where it meant a city at the board's edge); the view keeps following the targets
when the frame changes size, until the player moves it."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import Server

#: a frame like the phone layout's (360 px wide) with a drawn board of the app's size
#: (1200 × 860 units) and `targets` [x, y] (40 × 40 units each) on it; returns where the
#: targets and the buttons are on screen after `pz.focus`, and after `then` ("resize":
#: the frame 120 px shorter; "zoom": the player taps + and then the frame shrinks;
#: "reset": the player taps ⤢)
FOCUS = """async ([targets, then]) => {
  const { panZoom } = await import('/static/panzoom.js');
  const shell = document.createElement('div');
  shell.className = 'shell';
  shell.style.cssText = 'position:fixed;left:0;top:0;z-index:9999;background:#fff';
  const wrap = document.createElement('div');
  wrap.style.cssText = 'position:relative;width:360px;height:400px;overflow:hidden';
  shell.append(wrap);
  document.body.append(shell);
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 1200 860');
  svg.setAttribute('class', 'board');
  svg.style.cssText = 'position:absolute;inset:0;width:100%;height:100%';
  const els = targets.map(([x, y], i) => {
    const g = document.createElementNS(NS, 'g');
    g.setAttribute('class', 'target');
    g.setAttribute('data-target', `t${i}`);
    const rect = document.createElementNS(NS, 'rect');
    for (const [k, v] of [['x', x - 20], ['y', y - 20], ['width', 40], ['height', 40]]) {
      rect.setAttribute(k, v);
    }
    g.append(rect);
    svg.append(g);
    return g;
  });
  const pz = panZoom(wrap, { minScale: () => 0.82 });
  pz.setSvg(svg);
  pz.focus('.target');
  const frames = () => new Promise((done) =>
    requestAnimationFrame(() => requestAnimationFrame(done)));
  await frames();
  const measure = () => {
    const frame = svg.getBoundingClientRect();
    const buttons = wrap.querySelector('.pz-controls').getBoundingClientRect();
    return {
      scale: frame.width / svg.viewBox.baseVal.width,
      targets: els.map((el) => { const r = el.getBoundingClientRect();
        const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
        return { inFrame: x >= frame.left && x <= frame.right
                   && y >= frame.top && y <= frame.bottom,
                 covered: r.right > buttons.left && r.bottom > buttons.top
                   && r.left < buttons.right && r.top < buttons.bottom,
                 hit: (() => { const top = document.elementFromPoint(x, y);
                   return !!top && el.contains(top); })() }; }),
      viewBox: svg.getAttribute('viewBox'),
    };
  };
  const first = measure();
  if (then === 'zoom') { wrap.querySelector('[data-testid=zoom-in]').click(); await frames(); }
  if (then === 'reset') { wrap.querySelector('[data-testid=zoom-reset]').click(); await frames(); }
  const before = svg.getAttribute('viewBox');
  if (then && then !== 'reset') { wrap.style.height = '280px'; await frames(); }
  const after = measure();
  shell.remove();
  return { first, after, before };
}"""


def focus(page: Any, targets: list[tuple[int, int]], then: str | None = None) -> dict[str, Any]:
    return dict(page.evaluate(FOCUS, [targets, then]))


@pytest.fixture
def phone_page(server: Server, page: Any) -> Any:
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(server.url + "/")
    page.wait_for_load_state("load")
    return page


def shown(target: dict[str, Any]) -> bool:
    return bool(target["inFrame"] and not target["covered"] and target["hit"])


@pytest.mark.parametrize("targets", [
    [(1160, 820)],               # the board's bottom right corner: beside the buttons
    [(600, 400), (900, 560)],    # centred, the lower right one would be under them
    [(1160, 700), (1160, 820)],  # down the board's right edge
    [(420, 300), (770, 600)],    # the frame's width apart: nudged out from under them
], ids=["corner", "pair", "edge", "spread"])
def test_focus_keeps_targets_out_from_under_the_zoom_buttons(
        phone_page: Any, targets: list[tuple[int, int]]) -> None:
    seen = focus(phone_page, targets)["first"]
    assert seen["scale"] >= 0.82 - 1e-6  # never smaller than a phone's 32 px targets
    assert all(shown(t) for t in seen["targets"]), seen


def test_focus_follows_the_targets_when_the_frame_changes_size(phone_page: Any) -> None:
    # two targets one above the other: both fit the frame; in a frame 120 px shorter the
    # same view would show neither, a new focus shows one of them
    seen = focus(phone_page, [(300, 420), (300, 800)], then="resize")
    assert all(shown(t) for t in seen["first"]["targets"]), seen
    assert any(shown(t) for t in seen["after"]["targets"]), seen


def test_a_view_the_player_moved_stays_when_the_frame_changes_size(phone_page: Any) -> None:
    seen = focus(phone_page, [(300, 420), (300, 800)], then="zoom")
    assert seen["before"] != seen["first"]["viewBox"]  # + zoomed in
    # the frame shrank: the view keeps the player's zoom and centre
    before = [float(v) for v in seen["before"].split()]
    after = [float(v) for v in seen["after"]["viewBox"].split()]
    assert after[2] == pytest.approx(before[2])
    assert after[1] + after[3] / 2 == pytest.approx(before[1] + before[3] / 2)
    assert after[3] < before[3]


def test_reset_on_a_phone_shows_all_of_the_decisions_targets(phone_page: Any) -> None:
    # the four corners and the middle: at the phone's minimum zoom the board opens on
    # some of them; ⤢ shows every one, further out, clear of the buttons
    corners = [(60, 100), (1140, 100), (60, 800), (1000, 700), (600, 430)]
    seen = focus(phone_page, corners, then="reset")
    assert seen["first"]["scale"] >= 0.82 - 1e-6
    assert not all(shown(t) for t in seen["first"]["targets"]), seen
    assert seen["after"]["scale"] < 0.82
    assert all(shown(t) for t in seen["after"]["targets"]), seen
    # targets that fit the phone's minimum: ⤢ shows them there, not further out
    near = focus(phone_page, [(300, 300), (420, 380)], then="reset")
    assert near["after"]["scale"] >= 0.82 - 1e-6
    assert all(shown(t) for t in near["after"]["targets"]), near
