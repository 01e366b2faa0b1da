"""The table as a card player expects to see it, in Debian's Chromium at desktop and phone sizes:
opponents as fanned backs with a picture of their own, the last move marked, what can be played
standing up and the rest stepping back, the trump card lying under the stock inside the felt,
reactions drawn by the app, the keyboard always one key from the hand, and on a phone a one-line
header and hand cards a thumb can hit. Screenshots go to the build artefacts.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_kit import (
    my_turn,
    need_chromium,
    serving,
    settled,
    shot,
    status,
    table_with_a_bot,
    wait_for_turn_or_end,
)

need_chromium()

from server_kit import ServerThread  # noqa: E402

DESKTOP = {"width": 1280, "height": 860}
SUITS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """One server for the module: each test makes its own table in its own context."""
    with serving(tmp_path_factory.mktemp("look") / "look.sqlite3", bot_delay=0.05) as server:
        yield server


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.eval_on_selector(selector, "e => { const r = e.getBoundingClientRect(); "
                                  "return {x: r.x, y: r.y, w: r.width, h: r.height}; }")
    return dict(found)


#: Everything a turn's checks read off the page, measured in one call (each look from the
#: test is a round trip to the browser: forty turns of a dozen looks each were most of the
#: test's time).
LOOK = """() => {
  const q = (s) => document.querySelector(s);
  const all = (s) => [...document.querySelectorAll(s)];
  const rect = (e) => {
    if (!e) return null;
    const r = e.getBoundingClientRect();
    return { x: r.x, y: r.y, w: r.width, h: r.height };
  };
  return {
    opponents: all("#board .opponent:not(.my-seat)").map((o) => ({
      count: o.querySelector(".count").innerText,
      backs: o.querySelectorAll(".fan .card.back").length,
      who: o.querySelector(".who").innerText,
      avatar: o.querySelector(".avatar").innerText })),
    hand: all("#hand .hand-card").map((c) => ({
      playable: c.classList.contains("playable"),
      opacity: Number(getComputedStyle(c).opacity),
      lift: new DOMMatrix(getComputedStyle(c).transform).m42 })),
    board: rect(q("#board")),
    trump: rect(q("#board [data-pile=stock] .card:not(.back)")),
    stock: rect(q("#board [data-pile=stock] .card.back")),
    dimmed: !!q("#hand.my-turn .hand-card:not(.playable)"),
    onTable: all("#board .table-cards .card").map((c) => c.dataset.card),
    marked: all("#board .table-cards .card.last").map((c) => c.dataset.card),
    latest: q("#log li") ? q("#log li:first-child").innerText : "",
    widths: all("#hand .hand-card .card").map((c) => c.getBoundingClientRect().width),
    header: rect(q("header")),
  };
}"""


def seat_looks(look: dict[str, Any]) -> None:
    """Each opponent: backs fanned to its card count (eight at most) and an avatar with the
    initial of its name."""
    for opp in look["opponents"]:
        count = int(re.search(r"\d+", opp["count"]).group())
        backs = opp["backs"]
        assert backs == min(count, 8), (count, backs)
        name = opp["who"].replace("Bot ", "")
        initial = opp["avatar"].strip()
        assert initial and initial[0] in name, (initial, name)


def hand_looks(look: dict[str, Any]) -> None:
    """On one's turn the playable cards stand up and the others are dimmed."""
    styles = look["hand"]
    assert styles, "no hand drawn"
    for s in styles:
        if s["playable"]:
            assert s["lift"] < -8 and s["opacity"] == 1, s
        else:
            assert s["opacity"] < 0.8, s


def trump_inside(look: dict[str, Any]) -> None:
    if look["trump"] is None:
        return  # the trump card was drawn already
    board, trump, stock = look["board"], look["trump"], look["stock"]
    assert trump["x"] >= board["x"] and trump["x"] + trump["w"] <= board["x"] + board["w"]
    assert trump["w"] > trump["h"], "the trump card lies across the stock"
    assert stock["x"] > trump["x"], "the stock lies on the trump card's far half"


def play_one_move(page: Any) -> None:
    """A legal move, by the keyboard where it is a card: Enter on the card in the hand (and on
    the card to cover, when there is a choice); take or pass by their buttons."""
    n = int(page.evaluate("document.body.dataset.n"))
    moves = page.eval_on_selector_all("#actions .action", "bs => bs.map(b => b.dataset.action)")
    single = [m for m in moves if re.fullmatch(r"[2-9TJQKA][cdhs]", m)]
    cover = [m for m in moves if re.fullmatch(r"[2-9TJQKA][cdhs]>[2-9TJQKA][cdhs]", m)]
    if single or cover:
        card, _, target = (single or cover)[0].partition(">")
        page.focus(f"#hand .hand-card[data-card='{card}']")
        page.keyboard.press("Enter")
        if target and page.query_selector(f".pair.target[data-attack='{target}']"):
            page.focus(f".pair.target[data-attack='{target}']")
            page.keyboard.press("Enter")
    else:
        page.click(f"#actions .action[data-action='{moves[0]}']")
    page.wait_for_function(f"Number(document.body.dataset.n) > {n} || "
                           "document.body.dataset.status === 'over'", timeout=15000)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_table_people_recognise(tmp_path: Path, size: str, srv: ServerThread,
                                  browser: Any) -> None:
    viewport = DESKTOP if size == "desktop" else PHONE
    # Reduced motion: the test reads where cards come to rest, not a transition midway.
    page = browser.new_context(viewport=viewport, reduced_motion="reduce").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    table_with_a_bot(page, srv.base, bot="random")
    seen_last = seen_dimmed = False
    for _ in range(40):
        if not wait_for_turn_or_end(page):
            break
        settled(page)
        look = page.evaluate(LOOK)
        seat_looks(look)
        hand_looks(look)
        trump_inside(look)
        seen_dimmed |= look["dimmed"]
        on_table, marked, latest = look["onTable"], look["marked"], look["latest"]
        named = {rank.replace("10", "T") + SUITS[suit]
                 for rank, suit in re.findall(r"(10|[2-9JQKA])([♣♦♥♠])",
                                              latest.rpartition(" with ")[2])}
        # The last move's cards on the felt are marked, and no others.
        assert set(marked) == named & set(on_table), (marked, latest, on_table)
        if marked and not seen_last:
            seen_last = True
            shot(page, f"table-look-{size}", also=tmp_path)
        if size == "phone":
            widths = look["widths"]
            assert min(widths) >= 56, widths
            header = look["header"]
            assert header["h"] <= 48, f"the header takes {header['h']} px"
        play_one_move(page)
        if seen_last and seen_dimmed and size == "desktop":
            break
    assert seen_last, "no move of the bot's was marked on the table"
    reactions = page.eval_on_selector_all(
        "#reactions button", "bs => bs.map(b => [b.querySelector('svg') !== null, "
        "b.innerText.trim()])")
    assert reactions and all(svg and not text for svg, text in reactions), reactions
    assert not errors, errors
    page.context.close()


def test_the_keyboard_stays_in_the_hand(srv: ServerThread, browser: Any) -> None:
    """A skip link leads to the hand; arrows walk it; after every move (one's own and the
    bot's answer) the focus is back in the hand, not at the top of the page."""
    page = browser.new_context(viewport=DESKTOP).new_page()
    table_with_a_bot(page, srv.base, bot="random")
    assert wait_for_turn_or_end(page)
    # The skip link is the page's first stop for Tab, shown when it has the focus.
    assert page.evaluate("document.querySelector('a[href], button, input, select, "
                         "[tabindex]').id") == "skip-to-hand"
    page.focus("#skip-to-hand")
    assert box(page, "#skip-to-hand")["y"] >= 0
    page.keyboard.press("Enter")
    assert page.evaluate("!!document.activeElement.closest('#hand')")
    cards = page.eval_on_selector_all("#hand .hand-card", "cs => cs.map(c => c.dataset.card)")
    page.focus(f"#hand .hand-card[data-card='{cards[0]}']")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == cards[1]
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.card") == cards[-1]
    page.keyboard.press("Home")
    assert page.evaluate("document.activeElement.dataset.card") == cards[0]
    checked = 0
    for _ in range(12):
        if status(page) == "over" or not my_turn(page):
            break
        play_one_move(page)
        if not wait_for_turn_or_end(page):
            break
        settled(page)
        assert page.evaluate("!!document.activeElement.closest('#hand, #actions')"), \
            page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
        checked += 1
    assert checked >= 2, "too few moves to see the focus come back"
    page.context.close()


def test_the_lobby_starts_a_game_in_one_click(tmp_path: Path, srv: ServerThread,
                                              browser: Any) -> None:
    """"Play against bots" up front deals a game at once (Ready pressed for the person); the
    game list names games in words, never by id; each game offers only the seat counts it
    accepts (friese_fool 4 to 8; team_fool, partners, 4 and 6)."""
    from bito.server import games

    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(srv.base + "/")
    page.wait_for_selector("#variant option[value='podkidnoy']", state="attached")
    names = page.eval_on_selector_all("#variant option", "os => os.map(o => [o.value, o.text])")
    assert names and all(f"({value})" not in text for value, text in names), names[:5]
    for game in ("friese_fool", "team_fool", "podkidnoy"):
        page.select_option("#variant", game)
        offered = page.eval_on_selector_all("#players option",
                                            "os => os.map(o => Number(o.value))")
        low, high, partners = games.seat_range(game)
        assert offered == [n for n in range(low, high + 1) if not partners or n % 2 == 0]
    page.fill("#name", "Zoe")
    page.click("#play-bots")
    page.wait_for_selector("#hand .hand-card", timeout=20000)
    assert status(page) == "playing"
    shot(page, "lobby-one-click-game", also=tmp_path)
    page.context.close()
