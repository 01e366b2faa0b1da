"""Issue 34 items 1 and 6: every family drawn as cards and played by clicks in Debian's Chromium.

One server and one browser for the module; each game is one person against bots, from the
Ready button to the end screen, played only by clicking the hand's cards and the move buttons
as a person would. The games are spread over English and Russian and over a desktop and a phone
window so that every family is played in both languages and at both sizes, short games
(small decks, two seats where the game allows) keeping the module's cost bounded. On every
table: a screenshot (``build/test-artifacts/browser/<game>-<lang>-<size>.png``), axe-core
finds no serious or critical violation, the cards are drawn as cards (never a text dump of the
view), and no text of the page reads like the engine's insides (an option key, a seed citation).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, NamedTuple

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

from browser_kit import (
    axe_violations,
    need_chromium,
    serving,
    settled,
    shot,
    status,
)
from server_kit import ServerThread, create_table

need_chromium()

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
LOCALES = {"en": "en-GB", "ru": "ru-RU"}
NAMES = {"en": "Alice", "ru": "Аня"}


class Game(NamedTuple):
    """One game of the set: the spec the lobby would make, its seats, language and size."""

    spec: str
    players: int
    lang: str
    size: str

    @property
    def game(self) -> str:
        return self.spec.split("+")[0]


GAMES = [
    # Durak, from its own frame (both languages and sizes)
    Game("podkidnoy+deck.size=24", 2, "en", "desktop"),
    Game("perevodnoy+deck.size=24", 2, "ru", "phone"),
    # Mau-Mau and the adjacent-rank game (the shedding family)
    Game("czech_fool+shed.rounds=1", 2, "en", "phone"),
    Game("ontoys_adjacent_rank", 2, "ru", "desktop"),
    # Fool!'s four colours, its wild 1s and the Fool disc (four seats at least)
    Game("friese_fool+fool.max_rounds=1", 4, "en", "desktop"),
    Game("friese_fool+fool.max_rounds=1", 4, "ru", "phone"),
    # animal sounds and Cheat's face-down claims (the social family)
    Game("animal_sounds+animal.deck_size=32", 2, "en", "phone"),
    Game("believe_not_believe_2+cheat.deck_size=32", 2, "ru", "desktop"),
    # China fool, the heaped, chain, Polish and prelude games (the bout family)
    Game("chinese", 2, "en", "desktop"),
    # (random bots may pass a heap back and forth for hundreds of moves: the game's own move
    # cap ends such a game as a draw, as it ends any game that goes round in circles)
    Game("heaped+heap.deck_size=32+heap.move_cap=160", 2, "ru", "phone"),
    Game("chain_fool", 2, "ru", "desktop"),
    Game("polish_fool+polish.deck_size=32+polish.move_cap=160", 2, "en", "phone"),
    Game("deck_duel_prelude", 2, "ru", "desktop"),
]

#: What a player must never read: an option key with its value, a citation of the rules'
#: seeds or paragraphs, the catalogue's internal marks, a card in notation.
INTERNAL = re.compile(r"\b[a-z_]+\.[a-z_]+\s*=|\b[a-z]+\.(?:show_trump|size|rounds|deck_size)\b"
                      r"|\bS\d+:\d+|§\s*\d|\([A-Z]{1,2}\d+\)|NOT FROM THE SEEDS|\(podkidnoy\)"
                      r"|Traceback")
NOTATION = re.compile(r"(?<![\w#])(?:10|[2-9TJQKA])[cdhs](?![\w])|\b[gryb]\d{1,2}\b")
#: Latin words a Russian page may show: the players' and the app's own names.
LATIN_ALLOWED = {"bito", "Alice"}
MOVE_CAP = 600


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    db = tmp_path_factory.mktemp("families") / "families.sqlite3"
    # The bots here play at random: their workers need not load the compiled playouts (on a
    # loaded machine, compiling them the first time outlasts a worker's start-up cap).
    with pytest.MonkeyPatch.context() as env:
        env.setenv("BITO_KERNEL", "off")
        with serving(db, timer=300, bot_delay=0.02) as srv:
            yield srv


def page_words(page: Any) -> str:
    """Everything the page says: its text and the words of its labels and titles."""
    return str(page.evaluate("""() => document.body.innerText + '\\n' +
        [...document.querySelectorAll('[aria-label],[title],title')]
          .map(e => (e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || '')
                    + ' ' + (e.tagName === 'title' ? e.textContent : '')).join('\\n')"""))


def assert_words_clean(page: Any, game: Game) -> None:
    words = page_words(page)
    found = INTERNAL.findall(words)
    assert not found, (game, found)
    shown = str(page.evaluate("document.getElementById('board').innerText + ' ' + "
                              "document.getElementById('actions').innerText"))
    assert not NOTATION.findall(shown), (game, NOTATION.findall(shown))
    if game.lang == "ru":  # the table says nothing in English
        latin = {w for w in re.findall(r"[A-Za-z]{3,}", shown)} - LATIN_ALLOWED
        assert not latin, (game, sorted(latin))


#: The page's answer once it is the player's turn at a frame past ``after`` (or the game is
#: over): the frame's number, whether cards are drawn as cards, and the moves offered, each
#: with whether its first card lies in the hand. One look a turn: each look from the test is
#: a round trip to the browser, and a game has hundreds of turns.
TURN = """(after) => {
  const d = document.body.dataset;
  if (d.status === "over") return { over: true };
  if (d.myTurn !== "true" || Number(d.n) <= after) return null;
  const inHand = (card) => !!document.querySelector(`#hand [data-card="${CSS.escape(card)}"]`);
  return {
    over: false,
    n: Number(d.n),
    drawn: !!document.querySelector("#hand svg.card, #board .table-cards svg.card"),
    moves: [...document.querySelectorAll("#actions button")].map((b) => {
      const cards = (b.dataset.cards || "").split(" ").filter(Boolean);
      return { text: b.dataset.action, kind: b.dataset.kind, cards,
               inHand: cards.length > 0 && inHand(cards[0]) };
    }),
  };
}"""


def next_turn(page: Any, after: int, timeout: float = 90) -> dict[str, Any] | None:
    """The turn (see TURN) once the page's player is to move at a frame past ``after``;
    None when the game is over."""
    from playwright.sync_api import TimeoutError as Late

    try:
        found = page.wait_for_function(TURN, arg=after, timeout=timeout * 1000).json_value()
    except Late:
        raise AssertionError(f"neither my turn past frame {after} nor the end after "
                             f"{timeout} s: {page.inner_text('#status')!r}") from None
    return None if found["over"] else dict(found)


def choose(page: Any, moves: list[dict[str, Any]], step: int) -> None:
    """One move by clicks: a move that puts down the most cards (so the game moves on), by
    clicking its card in the hand (then the move's button when that card can be played
    several ways) or, for several cards, the move's button; else the first move's button.
    The clicks are a person's, at the element's place, without Playwright's wait for it to
    stand still (nothing moves: the page is in reduced motion)."""
    assert moves, "my turn but no move is offered"
    playing = [m for m in moves if m["cards"]]
    if playing:
        most = max(len(m["cards"]) for m in playing)
        best = [m for m in playing if len(m["cards"]) == most]
        pick = best[step % len(best)]
        card = pick["cards"][0]
        if most == 1 and pick["kind"] != "defend" and pick["inHand"]:
            page.click(f"#hand [data-card='{card}']", force=True)
            if page.query_selector(".hand-card.selected"):  # several ways: choose this one
                page.click(f"#actions [data-action='{pick['text']}']", force=True)
            return
        page.click(f"#actions [data-action='{pick['text']}']", force=True)
        return
    page.click(f"#actions [data-action='{moves[0]['text']}']", force=True)


def seated_page(browser: Any, made: dict[str, Any], lang: str, size: str,
                errors: list[str]) -> Any:
    """A page of a fresh browser context in ``lang`` at ``size`` that holds the seat the
    table's creator was given (as the lobby's page would have kept it), its script errors
    collected in ``errors``. The context asks for reduced motion, a setting people use: a
    click then lands at once instead of waiting for the card under it to stop sliding (the
    flights themselves are test_browser_motion's and test_browser_table_words' to check)."""
    context = browser.new_context(locale=LOCALES[lang], viewport=SIZES[size],
                                  reduced_motion="reduce")
    context.add_init_script(
        f"localStorage.setItem('bito:{made['table']}', "
        f"JSON.stringify({{token: '{made['token']}', seat: {made['seat']}}}));")
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def play_game(browser: Any, server: ServerThread, game: Game, errors: list[str]) -> Any:
    made = create_table(server.http, name=NAMES[game.lang], variant=game.spec,
                        players=game.players, seats=["random"] * (game.players - 1))
    page = seated_page(browser, made, game.lang, game.size, errors)
    page.goto(f"{server.base}/t/{made['table']}")
    page.click("#ready")
    # dealt (a prelude's hands start empty: its first moves turn up the stock)
    page.wait_for_function("document.body.dataset.status !== 'waiting'", timeout=20000)
    return page


@pytest.mark.parametrize("game", GAMES, ids=[f"{g.game}-{g.lang}-{g.size}" for g in GAMES])
def test_a_whole_game_by_clicks(browser: Any, server: ServerThread, game: Game) -> None:
    errors: list[str] = []
    page = play_game(browser, server, game, errors)
    name = f"{game.game}-{game.lang}-{game.size}"
    steps, looked, drawn, n = 0, False, False, -1
    # each turn: the page's player to move at a frame past the last move's (so that move
    # played), until the game is over
    while (turn := next_turn(page, n)) is not None:
        # the cards are drawn as cards (a prelude's hands may stay empty to the end)
        drawn = drawn or turn["drawn"]
        if not looked and steps >= 4:  # a table in play: drawn, accessible, in words
            settled(page)
            shot(page, name)
            assert axe_violations(page) == [], game
            assert_words_clean(page, game)
            looked = True
        n = turn["n"]
        choose(page, turn["moves"], steps)
        steps += 1
        assert steps < MOVE_CAP, (game, "the game did not end")
    assert status(page) == "over"
    assert drawn and not page.query_selector("pre.view-text")  # never the view's text
    page.wait_for_selector("#end:not([hidden])")
    if not looked:  # a game over before the page's second move: its end is what there is
        shot(page, name)
    assert_words_clean(page, game)
    assert axe_violations(page) == [], game
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_no_page_reads_like_the_engines_insides(browser: Any, server: ServerThread,
                                                lang: str) -> None:
    """The lobby (every game chosen in turn), a finished table's end screen and its replay:
    no option key, seed citation or catalogue mark in any text a player reads."""
    from server_kit import Client, play_to_end

    # a public table with house rules: the lobby's list says them on hover
    create_table(server.http, public=True, variant="podkidnoy+deck.size=24+deal.hand_size=7")
    made = create_table(server.http, name=NAMES[lang], variant="czech_fool+shed.rounds=1",
                        players=2, seats=["random"])
    alice = Client(server.base, made["table"], made["token"])
    alice.send({"type": "ready"})
    play_to_end({0: alice}, timeout=120)
    alice.close()
    errors: list[str] = []
    page = seated_page(browser, made, lang, "desktop", errors)
    page.goto(server.base + "/")
    page.wait_for_selector("#public-tables li a")
    page.wait_for_selector("#variant option", state="attached")
    games = page.eval_on_selector_all("#variant option", "os => os.map(o => o.value)")
    assert len(games) > 10
    for game in games:
        page.select_option("#variant", game)
        found = INTERNAL.findall(page_words(page))
        assert not found, (lang, game, found)
    for path in (f"/t/{made['table']}", f"/replay/{made['table']}"):
        page.goto(server.base + path)
        page.wait_for_load_state("networkidle")
        found = INTERNAL.findall(page_words(page))
        assert not found, (lang, path, found)
    assert not errors, errors
    page.context.close()
