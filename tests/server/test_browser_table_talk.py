"""Issue 19 in a real browser (Playwright driving Debian's Chromium, never a downloaded one):
two contexts chatting (text stays text, reactions, mute), a rematch to a second deal with the
score, and the clearer table (one's own seat box, play order, the game's name with its house
rules on hover, the empty discard, *taking* on the board, distinct bot names, the end screen
naming the fool, the overlay while the connection is lost). Screenshots go to the test's
``tmp_path`` (and to ``$BITO_ARTIFACTS``/``build/test-artifacts`` like the other browser
tests)."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
sync_api = pytest.importorskip("playwright.sync_api")

from bito.server.rooms import Settings  # noqa: E402
from browser_kit import need_chromium, shot  # noqa: E402
from server_kit import ServerThread  # noqa: E402

need_chromium()


#: Notes each text the taking banner (``#taking``) shows, watched from the page's own DOM
#: before the app loads.
TAKING_WATCH = """
window.takingSeen = [];
new MutationObserver(() => {
  const banner = document.getElementById("taking");
  if (banner && !window.takingSeen.includes(banner.textContent)) {
    window.takingSeen.push(banner.textContent);
  }
}).observe(document, { childList: true, subtree: true, characterData: true });
"""


def status(page: object) -> str:
    return str(page.evaluate("document.body.dataset.status"))  # type: ignore[attr-defined]


def my_turn(page: object) -> bool:
    return bool(page.evaluate("document.body.dataset.myTurn") == "true")  # type: ignore[attr-defined]


def n_of(page: object) -> int:
    return int(page.evaluate("Number(document.body.dataset.n || 0)"))  # type: ignore[attr-defined]


def play_first_buttons(pages: list[object], seconds: float = 120,
                       before: object = None) -> None:
    """Whoever is to act clicks his first move button, until the deal is over. ``before``
    (page, actions) may make a move itself and return True."""
    end = time.time() + seconds
    while time.time() < end:
        if status(pages[0]) == "over":
            return
        seen = [n_of(p) for p in pages]  # (read before whose turn it is)
        ready = [p for p in pages if my_turn(p)]
        if not ready:
            # A page a frame behind the others catches up; all at one frame, it is a bot's
            # turn, and its move shows as the next frame.
            lagging = pages[seen.index(min(seen))]
            past = max(seen) - (min(seen) != max(seen))
            with contextlib.suppress(sync_api.TimeoutError):
                lagging.wait_for_function(  # type: ignore[attr-defined]
                    f"Number(document.body.dataset.n) > {past} || "
                    "document.body.dataset.status === 'over'", timeout=5000)
            continue
        page = ready[0]
        n = n_of(page)
        actions = page.eval_on_selector_all(  # type: ignore[attr-defined]
            "#actions button", "bs => bs.map(b => b.dataset.action)")
        if not actions:
            page.wait_for_timeout(30)  # type: ignore[attr-defined]
            continue
        if before is None or not before(page, actions):  # type: ignore[operator]
            page.click("#actions button")  # type: ignore[attr-defined]
        page.wait_for_function(  # type: ignore[attr-defined]
            f"Number(document.body.dataset.n) > {n} || document.body.dataset.status === 'over'",
            timeout=20000)
    raise AssertionError("the deal did not finish in time")


def test_two_friends_chat_then_agree_a_rematch_and_see_the_score(
        tmp_path: Path, browser: object) -> None:
    server = ServerThread(str(tmp_path / "talk.sqlite3"), Settings(timer=120, bot_delay=0.05))
    errors: list[str] = []
    try:
        # (reduced motion, a setting people use: a click lands without waiting for a card
        # under it to stop sliding; the flights are test_browser_motion's to check)
        alice_ctx = browser.new_context(viewport={"width": 1200, "height": 900},  # type: ignore[attr-defined]
                                        reduced_motion="reduce")
        bob_ctx = browser.new_context(viewport={"width": 1000, "height": 900},  # type: ignore[attr-defined]
                                      reduced_motion="reduce")
        alice, bob = alice_ctx.new_page(), bob_ctx.new_page()
        for page in (alice, bob):
            page.on("pageerror", lambda e: errors.append(str(e)))
        alice.goto(server.base + "/")
        alice.fill("#name", "Alice")
        alice.select_option("#players", "2")
        alice.select_option("#deck", "24")
        alice.check("#opt-neighbours")
        assert alice.inner_text("#spec-preview") == "+throw_in.by=neighbours"
        alice.click("#create-button")
        alice.wait_for_selector("#waiting input.share")
        link = alice.input_value("#waiting input.share")
        bob.goto(link)
        bob.fill("#join-name", "Bob")
        bob.click("#join-button")
        bob.wait_for_selector("#ready")

        # Chat: markup arrives as the characters typed, reactions, and a mute.
        alice.fill("#chat-text", "<b>hello</b> Bob")
        alice.press("#chat-text", "Enter")
        bob.wait_for_selector("#chat-log li .chat-text")
        assert bob.inner_text("#chat-log li .chat-text") == "<b>hello</b> Bob"
        assert bob.inner_text("#chat-log li .chat-sender") == "Alice"
        assert bob.eval_on_selector_all("#chat-log b", "bs => bs.length") == 0
        bob.click("#reactions [data-reaction='👍']")
        # A reaction is drawn by the app (no emoji font needed), its words for screen readers.
        alice.wait_for_selector("#chat-log .chat-text[data-reaction='👍'] svg.reaction-picture")
        assert "good" in alice.inner_text("#chat-log .chat-text[data-reaction='👍'] .sr-only")
        alice.click("#chat-log li[data-sender='seat 1'] button.mute")
        bob.fill("#chat-text", "you will not see this")
        bob.click("#chat-send")
        bob.wait_for_function("document.querySelectorAll('#chat-log li').length === 3")
        alice.wait_for_function("document.querySelectorAll('#chat-log li').length === 3")
        assert not alice.is_visible("#chat-log li:nth-child(3)")  # muted on Alice's side only
        assert bob.is_visible("#chat-log li:nth-child(3)")
        shot(alice, also=tmp_path, name="talk-1-chat")

        alice.click("#ready")
        bob.click("#ready")
        for page in (alice, bob):
            page.wait_for_selector("#hand .hand-card")
        first = alice.url
        play_first_buttons([alice, bob])
        for page in (alice, bob):
            page.wait_for_selector("#end:not([hidden]) #rematch")
        title = alice.inner_text("#end-title")
        outcome = server.http.get(f"/api/tables/{first.rsplit('/', 1)[1]}").json()["outcome"]
        fools = [0, 0]
        if outcome["loser"] is not None:
            fools[outcome["loser"]] += 1
            # The headline speaks to its reader (Alice is seat 0); Bob's page names the fool.
            assert title == ("You lost: you are the fool." if outcome["loser"] == 0
                             else "You won!"), title
            if outcome["loser"] == 0:
                assert "Alice is the fool" in bob.inner_text("#end-result")
        else:
            assert "draw" in title
        shot(bob, also=tmp_path, name="talk-2-end")
        alice.click("#rematch")
        bob.wait_for_function(
            "document.getElementById('end-votes').textContent.includes('agreed: Alice')")
        bob.click("#rematch")
        for page in (alice, bob):
            page.wait_for_url(first + ".2")
            page.wait_for_selector("#hand .hand-card")
        score = alice.inner_text("#score")
        assert score.startswith("Deal 2")
        assert f"Alice {fools[0]}" in score and f"Bob {fools[1]}" in score
        assert "seat 1" in bob.inner_text("#you")  # the same seat, without joining again
        # The talk goes on at the next deal (kept in memory), and Alice's mute with it.
        alice.wait_for_function("document.querySelectorAll('#chat-log li').length === 3")
        assert not alice.is_visible("#chat-log li:nth-child(3)")
        shot(alice, also=tmp_path, name="talk-3-second-deal")
        # The connection goes mid-deal: the board is disabled and the clock explained.
        server.stop()
        alice.wait_for_selector("#offline:not([hidden])", timeout=10000)
        assert "move clock keeps running" in alice.inner_text("#offline")
        assert alice.evaluate("document.getElementById('game').inert") is True
        shot(alice, also=tmp_path, name="talk-4-offline")
        assert not errors, errors
        alice_ctx.close()
        bob_ctx.close()
    finally:
        server.stop()


def test_the_clearer_table_against_two_bots(tmp_path: Path, browser: object) -> None:
    server = ServerThread(str(tmp_path / "clear.sqlite3"), Settings(timer=120, bot_delay=0.05))
    errors: list[str] = []
    try:
        ctx = browser.new_context(viewport={"width": 1200, "height": 900},  # type: ignore[attr-defined]
                                  reduced_motion="reduce")
        # Every text the taking banner showed, noted by the page itself as it is drawn: the
        # throwers' answers may end the take within a frame, before a look from here.
        ctx.add_init_script(TAKING_WATCH)  # type: ignore[attr-defined]
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.base + "/")
        page.fill("#name", "Alice")
        page.select_option("#players", "3")
        page.select_option("#deck", "24")
        page.select_option("#seats select[data-seat='1']", "heuristic")
        page.select_option("#seats select[data-seat='2']", "heuristic")
        page.click("#create-button")
        page.wait_for_selector("#ready")
        page.click("#ready")
        page.wait_for_selector("#hand .hand-card")
        # The game's name in words; the house rules (not the raw spec) on hover.
        assert page.inner_text("#variant") == "Throw-in fool"
        hover = page.get_attribute("#variant", "title") or ""
        assert "cards in the deck" in hover and "24" in hover and "deck.size" not in hover
        assert "+" not in page.inner_text("#variant")
        # Seats in play order after one's own (1, then 2), the direction shown, own box last.
        order = page.eval_on_selector_all("#board .opponents .opponent",
                                          "bs => bs.map(b => b.dataset.seat)")
        assert order == ["1", "2"]
        assert page.eval_on_selector_all("#board .opponents .direction", "a => a.length") == 1
        assert page.is_visible("#board .my-seat[data-seat='0']")
        assert "You" in page.inner_text("#board .my-seat")
        bots = page.eval_on_selector_all("#board .opponents .who",
                                         "ws => ws.map(w => w.textContent)")
        assert all("(heuristic)" in b for b in bots) and bots[0].split(" (")[0] != \
            bots[1].split(" (")[0]
        # The empty discard is an empty place, not a card back labelled 0.
        assert page.eval_on_selector_all("[data-pile=discard] .card", "c => c.length") == 0
        assert page.is_visible("[data-pile=discard] .card-place")
        assert "empty" in page.inner_text("[data-pile=discard] .pile-name")
        page.wait_for_function("document.body.dataset.myTurn === 'true'", timeout=20000)
        assert "your turn" in page.inner_text("#board .my-seat.acting")
        shot(page, also=tmp_path, name="clear-1-dealt")

        seen: dict[str, str] = {}

        def take_once(p: object, actions: list[str]) -> bool:
            if "take" not in actions or "taking" in seen:
                return False
            # (a bot's earlier take is not this one)
            p.evaluate("window.takingSeen = []")  # type: ignore[attr-defined]
            p.keyboard.press("t")  # type: ignore[attr-defined]
            try:
                p.wait_for_function("window.takingSeen.length > 0",  # type: ignore[attr-defined]
                                    timeout=10000)
                seen["taking"] = p.evaluate("window.takingSeen[0]")  # type: ignore[attr-defined]
                shot(p, also=tmp_path, name="clear-2-taking")
            except sync_api.TimeoutError:
                seen["missed"] = "the bout ended at once"  # nobody could throw in
            return True

        play_first_buttons([page], seconds=150, before=take_once)
        assert seen.get("taking") == "Alice takes", seen
        page.wait_for_selector("#end:not([hidden])")
        table = page.url.rsplit("/", 1)[1]
        frame = server.http.get(f"/api/tables/{table}").json()
        loser = frame["outcome"]["loser"]
        if loser is not None:
            fool = frame["seats"][loser]["name"]
            mine = frame["seats"][0]["name"]
            if fool == mine:
                assert page.inner_text("#end-title") == "You lost: you are the fool."
            else:
                assert page.inner_text("#end-title") == "You won!"
                assert f"{fool} is the fool (дурак)." in page.inner_text("#end-result")
        assert page.is_visible("#rematch") and page.is_visible("#leave")
        shot(page, also=tmp_path, name="clear-3-end")
        # The connection goes: the overlay explains it and the board is disabled.
        server.stop()
        page.wait_for_selector("#offline:not([hidden])", timeout=10000)
        assert "Connection lost" in page.inner_text("#offline")
        assert page.evaluate("document.getElementById('game').inert") is True
        shot(page, also=tmp_path, name="clear-4-offline")
        assert not errors, errors
        ctx.close()
    finally:
        server.stop()


def test_lobby_filters_and_quick_match(tmp_path: Path, browser: object) -> None:
    server = ServerThread(str(tmp_path / "lobby.sqlite3"), Settings(timer=30, bot_delay=0.05))
    try:
        open_table = server.http.post("/api/tables", json={
            "name": "Host", "players": 2, "deck": 24, "public": True, "timer": 10}).json()
        ctx = browser.new_context(viewport={"width": 1200, "height": 900})  # type: ignore[attr-defined]
        page = ctx.new_page()
        page.goto(server.base + "/")
        row = f"#public-tables li[data-table='{open_table['table']}']"
        page.wait_for_selector(row)
        assert "Throw-in fool" in page.inner_text(row) and "24 cards" in page.inner_text(row)
        page.select_option("#f-deck", "36")
        page.wait_for_selector(row, state="detached")
        assert "none fits" in page.inner_text("#public-tables")
        page.select_option("#f-deck", "24")
        page.select_option("#f-speed", "slow")
        page.wait_for_selector(row, state="detached")
        page.select_option("#f-speed", "fast")
        page.wait_for_selector(row)
        shot(page, also=tmp_path, name="lobby-1-filters")
        # Quick match with the same game, seats and deck sits at that table.
        page.fill("#name", "Quick")
        page.select_option("#players", "2")
        page.select_option("#deck", "24")
        page.click("#quick-match")
        page.wait_for_url(server.base + open_table["link"])
        page.wait_for_selector("#ready")
        assert "seat 1" in page.inner_text("#you")
        ctx.close()
    finally:
        server.stop()
