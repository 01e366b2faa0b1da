"""Sound and motion in Chromium (issue 19 item 5).

A whole game against a bot with animations and sound on: cards are animated (Web Animations
API) and sounds are synthesised (oscillators made), each kind of sound is heard, the game
finishes, no ghost card is left behind, and no move waits for an animation (each click is
made at once, without Playwright's wait for the page to be still). With the browser asking for
reduced motion, nothing is animated at all and the game still finishes. The sound switch is
remembered and silences the game.

The counts come from the page's own platform calls, wrapped before the app loads
(``Element.prototype.animate``, CSS ``transitionrun`` events, ``AudioContext`` oscillators),
not from the app's counters.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
sync_api = pytest.importorskip("playwright.sync_api")

from browser_kit import (  # noqa: E402
    need_chromium,
    serving,
    settled,
    shot,
    status,
    table_with_a_bot,
    wait_for_turn_or_end,
)
from server_kit import ServerThread  # noqa: E402

need_chromium()

COUNTERS = """
window.__seen = { animate: 0, transitions: 0, oscillators: 0 };
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.__seen.animate += 1;
  return animate.apply(this, args);
};
document.addEventListener('transitionrun', () => { window.__seen.transitions += 1; }, true);
document.addEventListener('animationstart', () => { window.__seen.transitions += 1; }, true);
const oscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function (...args) {
  window.__seen.oscillators += 1;
  return oscillator.apply(this, args);
};
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """One server for the module: each test makes its own table in its own context."""
    with serving(tmp_path_factory.mktemp("motion") / "motion.sqlite3", timer=300,
                 bot_delay=0.02) as srv:
        yield srv


#: The games are played with 24 cards: every kind of flight (a deal, a card played, bito, a
#: take) and sound comes in a short game as in a long one, in fewer turns.
DECK = "24"



def play_to_the_end(page: Any, limit: float = 150) -> int:
    """Play every turn at once by clicks that do not wait for the page to be still (a card
    from the hand when a plain lead fits, else a move button), sent to the element itself
    (a card may be mid-flight, where a click by position would find its neighbour); returns
    the moves made."""
    moves = 0
    deadline = time.time() + limit
    while time.time() < deadline and wait_for_turn_or_end(page):
        n = int(page.evaluate("Number(document.body.dataset.n)"))
        actions = page.eval_on_selector_all("#actions button",
                                            "bs => bs.map(b => b.dataset.action)")
        plain = [a for a in actions if re.fullmatch(r"[2-9TJQKA][cdhs]", a)]
        if plain and moves % 2 == 0:
            page.locator(f"#hand .hand-card[data-card='{plain[0]}']").dispatch_event("click")
        else:
            wanted = actions[moves % len(actions)]
            page.locator(f"#actions [data-action='{wanted}']").dispatch_event("click")
        moves += 1
        started = time.time()
        try:
            page.wait_for_function(f"Number(document.body.dataset.n) > {n} || "
                                   "document.body.dataset.status === 'over'", timeout=10000)
        except sync_api.TimeoutError:
            shot(page, "motion-stuck")
            raise AssertionError(f"move {moves} did not play: "
                                 f"{page.inner_text('#message')!r}") from None
        # The server answers at once; an animation in the way would show here.
        assert time.time() - started < 5
    assert status(page) == "over", "the game did not finish"
    return moves


def test_a_whole_game_with_animations_and_sound(server: ServerThread, browser: Any) -> None:
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 1100, "height": 900},
                              reduced_motion="no-preference")
    ctx.add_init_script(COUNTERS)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    table_with_a_bot(page, server.base, bot="random", deck=DECK)
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "true"
    moves = play_to_the_end(page)
    settled(page)  # every ghost's flight is over
    seen = page.evaluate("window.__seen")
    sounds = page.evaluate("window.bitoSound")
    motion = page.evaluate("window.bitoMotion")
    assert moves >= 3
    assert seen["animate"] > moves, seen  # the deal alone animates every card dealt to me
    assert motion["ghosts"] > 0, motion  # cards swept off the table (bito or take)
    assert seen["oscillators"] > 0 and sounds["played"] > 0 and sounds["failed"] == 0, sounds
    heard = set(sounds["asked"])
    assert {"card", "turn", "end"} <= heard and heard & {"take", "bito"}, heard
    assert page.eval_on_selector_all(".ghost-card", "g => g.length") == 0
    running = page.evaluate("document.getAnimations().filter(a => a.playState === 'running')"
                            ".length")
    assert running == 0
    shot(page, "motion-game-over")
    assert not errors, errors
    ctx.close()


def test_reduced_motion_animates_nothing(server: ServerThread, browser: Any) -> None:
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 1100, "height": 900}, reduced_motion="reduce")
    ctx.add_init_script(COUNTERS)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    table_with_a_bot(page, server.base, bot="random", deck=DECK)
    assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    play_to_the_end(page)
    settled(page)
    seen = page.evaluate("window.__seen")
    assert seen["animate"] == 0 and seen["transitions"] == 0, seen
    assert page.evaluate("window.bitoMotion.started") == 0
    assert page.evaluate("window.bitoSound.played") > 0  # sound is not motion: still on
    assert not errors, errors
    ctx.close()


def test_the_sound_switch_is_remembered_and_silences(server: ServerThread,
                                                     browser: Any) -> None:
    ctx = browser.new_context(reduced_motion="reduce")
    ctx.add_init_script(COUNTERS)
    page = ctx.new_page()
    link = table_with_a_bot(page, server.base, bot="random", deck=DECK)
    page.click("#sound-toggle")
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
    page.goto(link)
    page.wait_for_selector("#hand .hand-card")
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
    before = page.evaluate("window.__seen.oscillators")
    play_to_the_end(page)
    assert page.evaluate("window.__seen.oscillators") == before == 0
    assert page.evaluate("window.bitoSound.asked.length") == 0
    ctx.close()
