"""Issue 34 items 2 and 5 in Chromium: the table says things in a player's words.

- A refused card is explained in words, in English and in Russian: no card in notation
  (``Jc``, ``7d``), no engine note (``(trump s)``), no rule name.
- The replay and the profile pages in Russian name the bots in Russian (as the table does:
  «Бот Вера (случайный)», never "Bot Vera (random)") and show games by name, never by id.
- The Russian chat placeholder fits its field, on a desktop and on a phone.
- The end screen says the result in words for the one reading it (won, lost, the fool, a
  draw) and names no role of the last bout; cards leaving the table fly to the discard on
  bito and to the taker on a take, and nothing flies when the browser asks for reduced
  motion.

Screenshots (``build/test-artifacts/browser``): ``words-table-{en,ru}-{desktop,phone}``,
``words-end-ru`` (desktop), ``words-end-en`` (phone), ``words-replay-ru``, ``words-profile-ru``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")
sync_api = pytest.importorskip("playwright.sync_api")

from bito.server import webtext  # noqa: E402
from bito.server.refusals import NOTATION  # noqa: E402
from browser_kit import (  # noqa: E402
    need_chromium,
    serving,
    settled,
    shot,
    status,
    table_with_a_bot,
    wait_for_turn_or_end,
)
from server_kit import Client, ServerThread, create_table, play_to_end  # noqa: E402

need_chromium()

CYRILLIC = re.compile(r"[А-Яа-яЁё]")
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
#: Words of the roles of a bout, which the end screen must not show.
ROLES = re.compile(r"attacker|defender|атакующ|отбивающ|защищающ|нападающ", re.IGNORECASE)
#: The engine's rule names that used to open a refusal.
RULES = re.compile(r"beat relation|throw-in|not in hand|transfer rank|bout limit")
#: Records every card that flies off the table (motion.js's ghosts) by its kind, watched from
#: the page's own DOM before the app loads.
GHOST_WATCH = """
window.ghostsSeen = [];
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) {
    if (n.classList && n.classList.contains("ghost-card")) {
      window.ghostsSeen.push([...n.classList].filter((c) => c.startsWith("ghost-")).join(" "));
    }
  }
}).observe(document, { childList: true, subtree: true });
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """One server for the module: each test makes its own tables, account and contexts."""
    with serving(tmp_path_factory.mktemp("words") / "words.sqlite3", timer=300,
                 bot_delay=0.05) as srv:
        yield srv


def page_in(browser: Any, lang: str, viewport: dict[str, int], errors: list[str],
            **options: Any) -> Any:
    ctx = browser.new_context(locale="ru-RU" if lang == "ru" else "en-GB", viewport=viewport,
                              **options)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def wait_turn(page: Any) -> str:
    page.wait_for_function("document.body.dataset.myTurn === 'true' || "
                           "document.body.dataset.status === 'over'", timeout=120000)
    return status(page)


def refused_card(page: Any, turns: int = 10) -> str | None:
    """Click a card of the hand no legal move uses (the page sends it anyway, so that the
    server explains) and return what the page says; None if no turn had such a card."""
    for _ in range(turns):
        if wait_turn(page) == "over":
            return None
        card = page.query_selector("#hand .hand-card:not(.playable)")
        if card is not None:
            card.dispatch_event("click")
            page.wait_for_function(
                "document.getElementById('message').classList.contains('error')")
            return str(page.inner_text("#message"))
        n = page.evaluate("Number(document.body.dataset.n)")
        page.locator("#actions button").first.dispatch_event("click")
        page.wait_for_function(f"Number(document.body.dataset.n) > {n}")
    return None


def placeholder_fits(page: Any) -> bool:
    """The chat field's placeholder fits inside the field (measured in the field's font)."""
    return bool(page.evaluate("""() => {
      const input = document.getElementById("chat-text");
      const css = getComputedStyle(input);
      const ctx = document.createElement("canvas").getContext("2d");
      ctx.font = css.font;
      const room = input.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight);
      return ctx.measureText(input.placeholder).width <= room;
    }"""))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_refused_card_is_explained_in_words_and_the_chat_fits(
        server: ServerThread, browser: Any, lang: str) -> None:
    errors: list[str] = []
    said: list[str] = []
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = page_in(browser, lang, viewport, errors)
        table_with_a_bot(page, server.base, bot="random")
        page.wait_for_selector("#chat-text")
        assert placeholder_fits(page), (size, page.get_attribute("#chat-text", "placeholder"))
        message = refused_card(page)
        if message is not None:
            said.append(message)
            assert not NOTATION.search(message) and not RULES.search(message), message
            assert "(trump" not in message and "§" not in message, message
            assert bool(CYRILLIC.search(message)) == (lang == "ru"), message
            if lang == "ru":
                assert not re.search(r"[A-Za-z]{2,}", message), message
        shot(page, f"words-table-{lang}-{size}")
        page.context.close()
    assert said, "every card was playable on every turn tried"
    assert not errors, errors


def test_replay_and_profile_in_russian_name_the_bots_in_russian(server: ServerThread,
                                                                browser: Any) -> None:
    account = httpx.Client(base_url=server.base, timeout=10)
    r = account.post("/api/account/register", json={"username": "alice",
                                                     "password": "a long pass phrase"})
    assert r.status_code == 200, r.text
    made = create_table(account, players=2, seats=["random"], deck=24)
    alice = Client(server.base, made["table"], made["token"])
    alice.send({"type": "ready"})
    end = play_to_end({0: alice})
    alice.close()
    bot = end["seats"][1]
    assert bot["kind"] == "bot" and bot["name"].startswith("Bot ")  # English, as recorded
    ru = webtext.bundle("ru")["texts"]
    first = bot["name"].split()[1]
    russian = ru["bot.display"].format(name=ru[f"botname.{first}"], level=ru["bot.random"])

    errors: list[str] = []
    page = page_in(browser, "ru", DESKTOP, errors)
    page.goto(f"{server.base}/u/alice")
    page.wait_for_selector("#recent li a.replay")
    line = page.inner_text("#recent li")
    assert russian in line and "Bot" not in line, line
    assert "podkidnoy" not in line and "random" not in line, line
    shot(page, "words-profile-ru")

    page.click("#recent a.replay")
    page.wait_for_selector("#board .opponent")
    page.click("#first")
    page.click("#next")
    header = page.inner_text("header")
    shown = page.inner_text("#board") + "\n" + page.inner_text("#move")
    assert CYRILLIC.search(page.inner_text("header #variant"))
    assert "podkidnoy" not in header, header
    assert "Bot" not in shown and "random" not in shown, shown
    assert russian in page.inner_text("#board"), shown
    page.click("#last")
    assert "Bot" not in page.inner_text("#move"), page.inner_text("#move")
    shot(page, "words-replay-ru")
    assert not errors, errors


def play_by_clicks(page: Any, deadline: float) -> None:
    while wait_for_turn_or_end(page, timeout=120):
        assert time.time() < deadline, "the deal did not finish in time"
        n = page.evaluate("Number(document.body.dataset.n)")
        buttons = page.locator("#actions button")
        # prefer a take now and then, so that both a take and bito are seen
        pick = buttons.nth(buttons.count() - 1) if n % 3 == 0 else buttons.first
        pick.dispatch_event("click")
        page.wait_for_function(f"Number(document.body.dataset.n) > {n} || "
                               "document.body.dataset.status === 'over'", timeout=120000)


@pytest.mark.parametrize("lang, motion", [("ru", "no-preference"), ("en", "reduce")])
def test_the_end_screen_says_the_result_and_cards_fly_on_bito_and_take(
        server: ServerThread, browser: Any, lang: str, motion: str) -> None:
    errors: list[str] = []
    # the reduced-motion game is played on a phone-sized window: the end screen there too
    page = page_in(browser, lang, PHONE if motion == "reduce" else DESKTOP, errors,
                   reduced_motion=motion)
    page.add_init_script(GHOST_WATCH)
    # A 24-card deck: bito and a take, and the end screen, come in a short game as in a long
    link = table_with_a_bot(page, server.base, bot="random", deck="24")
    play_by_clicks(page, time.time() + 400)
    page.wait_for_selector("#end:not([hidden]) #end-title")
    texts = webtext.bundle(lang)["texts"]
    replay = httpx.get(f"{server.base}/api/tables/{link.rsplit('/', 1)[1]}/replay",
                       timeout=10).json()
    outcome = replay["outcome"]
    takes = [f["move"] for f in replay["frames"] if "take" in str(f.get("move") or "")]
    title = page.inner_text("#end-title")
    if outcome.get("draw"):
        assert title == texts["outcome.draw"]
    elif outcome["loser"] == 0:
        assert title == texts["end.you_fool"]
    else:
        assert title == texts["end.you_won"]
        assert page.inner_text("#end-result").strip()  # and who the fool is
    # every kind of result, said by the end screen's own function for made-up endings
    said = page.evaluate("""async () => {
      const m = await import("/static/js/between.js");
      const seats = [{ seat: 0, name: "Alice", kind: "human" },
                     { seat: 1, name: "Bot Boris (random)", kind: "bot", bot: "random" },
                     { seat: 2, name: "Carol", kind: "human" },
                     { seat: 3, name: "Dan", kind: "human" }];
      const say = (you, outcome) => m.resultWords({ you, seats, outcome });
      return {
        won: say(0, { loser: 1, draw: false }),
        fool: say(1, { loser: 1, draw: false }),
        draw: say(0, { loser: null, draw: true }),
        watcher: say(null, { loser: 1, draw: false }),
        team_won: say(0, { loser: 1, draw: false, teams: [[0, 2], [1, 3]], losing_team: 1 }),
        team_lost: say(3, { loser: 1, draw: false, teams: [[0, 2], [1, 3]], losing_team: 1 }),
      };
    }""")
    bot_ru = texts["bot.display"].format(name=texts["botname.Boris"], level=texts["bot.random"])
    fool_line = texts["outcome.fool"].format(name=bot_ru)
    assert said["won"] == {"headline": texts["end.you_won"], "lines": [fool_line]}
    assert said["fool"] == {"headline": texts["end.you_fool"], "lines": []}
    assert said["draw"]["headline"] == texts["outcome.draw"]
    assert said["watcher"] == {"headline": fool_line, "lines": []}
    team_line = texts["end.team_lost"].format(names=f"{bot_ru}, Dan")
    assert said["team_won"] == {"headline": texts["end.you_won"], "lines": [team_line, fool_line]}
    assert said["team_lost"]["headline"] == texts["end.you_lost"]
    assert said["team_lost"]["lines"] == [team_line, fool_line]
    end_text = page.inner_text("#end") + page.inner_text("#board")
    assert not ROLES.search(end_text), end_text
    assert bool(CYRILLIC.search(title)) == (lang == "ru"), title
    shot(page, f"words-end-{lang}")
    settled(page)  # every flight is over
    seen = page.evaluate("window.ghostsSeen")
    counts = page.evaluate("window.bitoMotion")
    if motion == "reduce":
        assert seen == [] and counts["started"] == 0, (seen, counts)
    else:
        assert any("ghost-bito" in g for g in seen), seen  # swept to the discard
        # a take: the cards fly to the bot's seat, or slide into the viewer's own hand
        if takes:
            assert any("ghost-take" in g for g in seen) or counts["take"] > 0, (seen, counts)
    assert page.eval_on_selector_all(".ghost-card", "g => g.length") == 0
    assert not errors, errors
