"""The web app's languages (issue 19 item 7): the ``web`` gettext domain, the choice of
language (cookie, then ``Accept-Language``), the texts served to the browser, and error
frames that carry a stable code and the sentence in the connection's language.
"""

from __future__ import annotations

import importlib.util
import re
import string
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("fastapi")

from bito.rules import all_variants
from bito.server import webtext
from bito.server.refusals import error_words
from server_kit import Client, ServerThread, create_table, join, scripted

ROOT = Path(__file__).resolve().parents[2]
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bito_i18n_tool_web", ROOT / "tools" / "i18n.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


TOOL = _tool()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    srv = ServerThread(str(tmp_path / "i18n.sqlite3"), scripted(bot_delay=0.0))
    yield srv
    srv.stop()


# --- the catalogues ----------------------------------------------------------------------

def test_every_web_key_is_in_both_catalogues_and_translated() -> None:
    code = TOOL.extract("web")
    assert {key for key, _ in code} == set(webtext.TEXTS)  # the extraction sees every text
    for lang in ("en", "ru"):
        entries = TOOL.read_po(TOOL.po_path(lang, "web"))
        missing = [k for k in code if k not in entries]
        assert not missing, f"{lang}: run python tools/i18n.py update: {missing[:5]}"
    ru = TOOL.read_po(TOOL.po_path("ru", "web"))
    formatter = string.Formatter()
    for (key, english), entry in ((k, ru[k]) for k in code):
        assert entry.strs[0] and not entry.fuzzy, key
        fields = {f for _, f, _, _ in formatter.parse(entry.strs[0]) if f}
        known = {f for _, f, _, _ in formatter.parse(english) if f}
        assert fields <= known, f"{key}: {fields - known} not in the English"


def test_tools_check_covers_the_web_domain() -> None:
    assert "web" in TOOL.DOMAINS
    assert not [p for p in TOOL.problems() if "web" in p], TOOL.problems()


def test_the_compiled_web_catalogue_is_what_the_server_reads() -> None:
    bundle = webtext.bundle("ru")
    ru = TOOL.read_po(TOOL.po_path("ru", "web"))
    for key in webtext.TEXTS:
        assert bundle["texts"][key] == ru[(key, webtext.TEXTS[key])].strs[0]
    assert webtext.bundle("en")["texts"] == webtext.TEXTS


def test_game_names_are_the_rules_catalogues_russian_names() -> None:
    """VARIANTS.md names the base games in Russian (line 31: throw-in, **podkidnoy**,
    «подкидной»); the web app shows the registry's Russian name of each entry that has one."""
    names = webtext.bundle("ru")["variants"]
    checked = 0
    for entry in all_variants():
        russian = [n for n in entry.names if CYRILLIC.search(n)]
        if russian:
            assert names[entry.id] == russian[0] or CYRILLIC.search(names[entry.id]), entry.id
            checked += 1
    assert checked > 10
    assert "подкидной" in names["podkidnoy"].lower()
    assert webtext.bundle("en")["variants"]["podkidnoy"] != names["podkidnoy"]


# --- choosing the language -------------------------------------------------------------

@pytest.mark.parametrize(("cookie", "accept", "chosen"), [
    (None, "ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7", "ru"),
    (None, "en-US,en;q=0.9,ru;q=0.8", "en"),
    (None, "de-DE, ru;q=0.3, en;q=0.2", "ru"),
    (None, "en;q=0.1, ru;q=0.5", "ru"),
    (None, "ru;q=0, en", "en"),
    (None, "fr, de", "en"),
    (None, None, "en"),
    ("en", "ru-RU,ru", "en"),
    ("ru", "en-US", "ru"),
    ("xx", "ru", "ru"),
])
def test_the_cookie_then_accept_language_choose(cookie: str | None, accept: str | None,
                                                chosen: str) -> None:
    assert webtext.choose_language(cookie, accept) == chosen


@given(st.text(max_size=200), st.one_of(st.none(), st.text(max_size=20)))
def test_any_header_gives_a_language_bito_speaks(accept: str, cookie: str | None) -> None:
    assert webtext.choose_language(cookie, accept) in webtext.LANGUAGE_NAMES


# --- what the server sends -------------------------------------------------------------

def test_the_texts_endpoint_follows_header_and_cookie(server: ServerThread) -> None:
    ru = server.http.get("/i18n/web.json", headers={"Accept-Language": "ru-RU,ru;q=0.9"})
    assert ru.status_code == 200
    assert ru.json()["language"] == "ru"
    assert ru.json()["texts"] == webtext.bundle("ru")["texts"]
    assert "Accept-Language" in ru.headers["vary"]
    en = server.http.get("/i18n/web.json", headers={"Accept-Language": "ru",
                                                    "Cookie": "bito_lang=en"})
    assert en.json()["language"] == "en"
    assert en.json()["texts"]["lobby.create"] == webtext.TEXTS["lobby.create"]
    assert server.http.get("/i18n/web.json?lang=ru").json()["language"] == "ru"


def test_api_errors_carry_a_code_and_the_requests_language(server: ServerThread) -> None:
    body = {"name": "Alice", "players": 99}
    en = server.http.post("/api/tables", json=body)
    ru = server.http.post("/api/tables", json=body, headers={"Accept-Language": "ru"})
    assert en.status_code == ru.status_code == 400
    assert en.json()["code"] == ru.json()["code"] == "players"
    assert "99" in en.json()["error"] and not CYRILLIC.search(en.json()["error"])
    assert "99" in ru.json()["error"] and CYRILLIC.search(ru.json()["error"])
    gone = server.http.get("/api/tables/nosuch", headers={"Cookie": "bito_lang=ru"})
    assert gone.status_code == 404 and gone.json()["code"] == "no_table"
    assert CYRILLIC.search(gone.json()["error"])


def test_error_frames_carry_a_code_and_the_connections_language(server: ServerThread) -> None:
    made = create_table(server.http, players=2, seats=["open"])
    bob = join(server.http, made["table"], "Bob")
    alice_ws = Client(server.base, made["table"], made["token"],
                      headers={"Accept-Language": "ru-RU,ru;q=0.9"})
    bob_ws = Client(server.base, made["table"], bob["token"],
                    headers={"Accept-Language": "en-GB"})
    try:
        for c in (alice_ws, bob_ws):
            c.state()
            c.send({"type": "ready"})
        frame = alice_ws.wait(lambda m: m["type"] == "state" and m.get("view") is not None)
        to_act = frame["view"]["to_act"]
        mover, idle = (alice_ws, bob_ws) if to_act == 0 else (bob_ws, alice_ws)
        idle_frame = idle.latest()
        if idle_frame is None or idle_frame.get("view") is None:  # (Alice's was read above)
            idle_frame = idle.wait(lambda m: m["type"] == "state" and m.get("view") is not None)
        idle.send({"type": "act", "action": idle_frame["view"]["hand"][0]["c"]})
        said = idle.error()
        assert said["code"] == "not_your_turn"
        # in the idle seat's own language: Alice asked for Russian, Bob for English
        assert bool(CYRILLIC.search(said["message"])) == (idle is alice_ws)
        assert ("Alice" if mover is alice_ws else "Bob") in said["message"]  # who is to act

        mover.send({"type": "act", "action": "7x"})  # not notation
        bad = mover.error()
        assert bad["code"] == "notation" and "^" in bad["message"]
        assert bool(CYRILLIC.search(bad["message"])) == (mover is alice_ws)

        # An engine's refusal: a take while leading (podkidnoy 1: only the defender takes).
        mover.send({"type": "act", "action": "take"})
        refused = mover.error()
        assert refused["code"] == "illegal.take"  # the engine's rule key, stable
        assert bool(CYRILLIC.search(refused["message"])) == (mover is alice_ws)

        alice_ws.send({"type": "nonsense"})
        shape = alice_ws.error()
        assert shape["code"] == "message" and shape["field"] == "type"
    finally:
        alice_ws.close()
        bob_ws.close()


def test_an_illegal_move_in_russian_names_the_rule() -> None:
    from bito.errors import IllegalActionError

    error = IllegalActionError("take", "only the defender takes")
    code, en = error_words(error, "en")
    code_ru, ru = error_words(error, "ru")
    assert code == code_ru == "illegal.take"
    assert en == error.detail  # a player's words, without the rule's name (issue 34)
    assert CYRILLIC.search(ru) and not re.search(r"[a-z]{4,}", ru)


def test_a_freed_seat_is_told_in_its_own_language(tmp_path: Path) -> None:
    """The host frees a seat that never pressed Ready: its Russian connection hears why in
    Russian, under a stable code (the frame is sent by the table, not as a reply)."""
    srv = ServerThread(str(tmp_path / "kick.sqlite3"), scripted(ready_timeout=0.3))
    try:
        made = create_table(srv.http, players=2, seats=["open"])
        bob = join(srv.http, made["table"], "Bob")
        host = Client(srv.base, made["table"], made["token"])
        b = Client(srv.base, made["table"], bob["token"], headers={"Cookie": "bito_lang=ru"})
        host.state()
        b.state()
        tries = 0
        while tries < 50:  # until the ready-check's time is up (the server says so)
            host.send({"type": "kick", "seat": 1})
            got = host.wait(lambda m: m["type"] == "error" or
                            (m["type"] == "state" and m["seats"][1]["kind"] == "open"))
            if got["type"] == "state":
                break
            tries += 1
            time.sleep(0.05)
        told = b.error()
        assert told["code"] == "kicked" and told["request"] == "kick"
        assert CYRILLIC.search(told["message"])
        host.close()
        b.close()
    finally:
        srv.stop()


# --- the table's newer parts (chat, rematch, bot names) ----------------------------------
def test_chat_refusals_are_said_in_each_connections_language(server: ServerThread) -> None:
    from bito.server.chat import MAX_TEXT

    made = create_table(server.http, players=2, seats=["open"])
    bob = join(server.http, made["table"], "Bob")
    alice_ws = Client(server.base, made["table"], made["token"],
                      headers={"Cookie": f"{webtext.COOKIE}=ru"})
    bob_ws = Client(server.base, made["table"], bob["token"],
                    headers={"Accept-Language": "en-GB"})
    try:
        for c in (alice_ws, bob_ws):
            c.state()
        for c in (alice_ws, bob_ws):
            c.send({"type": "chat", "text": "x" * (MAX_TEXT + 1)})
            said = c.error()
            assert said["code"] == "chat" and said["field"] == "text"
            assert str(MAX_TEXT) in said["message"] and str(MAX_TEXT + 1) in said["message"]
            assert bool(CYRILLIC.search(said["message"])) == (c is alice_ws), said
            c.send({"type": "chat", "reaction": "<b>"})
            said = c.error()
            assert said["code"] == "chat" and said["field"] == "reaction"
            assert bool(CYRILLIC.search(said["message"])) == (c is alice_ws), said
        # A rematch before the end: a refusal with its own code, in Russian for Alice.
        alice_ws.send({"type": "rematch", "agree": True})
        said = alice_ws.error()
        assert said["code"] == "rematch_not_over" and CYRILLIC.search(said["message"])
    finally:
        alice_ws.close()
        bob_ws.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_chat_and_rematch_refusal_has_its_own_code(lang: str) -> None:
    from bito.server.chat import MAX_TEXT, REACTIONS, ChatError, clean_text

    refusals = []
    for bad in ({"text": "x" * (MAX_TEXT + 5)}, {"text": "  "}, {"text": "\x07"}, {},
                {"reaction": "?"}):
        with pytest.raises(ChatError) as caught:
            clean_text({"type": "chat", **bad})
        refusals.append(str(caught.value))
    codes = [error_words(r, lang)[0] for r in refusals]
    assert codes == ["chat_too_long", "chat_empty", "chat_control", "chat_text_missing",
                     "chat_reaction"]
    said = error_words(refusals[-1], lang)[1]
    assert all(r in said for r in REACTIONS)  # the allowed reactions carried over
    # quick match's refusal is not mistaken for "no table <id>"
    full = "no table fits and too many new tables from this address: try again in 42 s"
    code, said = error_words(full, lang)
    assert code == "no_table_fits" and "42" in said
    assert (said == full) == (lang == "en")
    # every coded sentence has its text in the catalogue
    assert all(f"error.{code}" in webtext.TEXTS for code, _ in webtext.ERRORS)


def test_every_bot_first_name_has_a_web_text() -> None:
    from bito.server.rooms import BOT_NAMES

    bundle = webtext.bundle("ru")["texts"]
    for name in BOT_NAMES:
        assert CYRILLIC.search(bundle[f"botname.{name}"]), name


@pytest.mark.parametrize("refusal, code", [
    ("the table moved on meanwhile: look again and choose", "moved_on"),
    ("the table filled up meanwhile; you can watch it", "filled_up"),
    ("the database is not answering (connection refused); nothing was lost, try again",
     "db_unavailable"),
    ("the server is shutting down", "shutting_down"),
])
def test_the_several_process_refusals_have_codes_and_russian(refusal: str, code: str) -> None:
    """Issue 18's refusals (another process was quicker; the database is away) keep the web
    catalogue's promise: a stable code, the raised sentence in English, Russian in Russian."""
    from bito.server.db import DatabaseUnavailable
    from bito.server.rooms import RoomError

    error: Exception = (DatabaseUnavailable(refusal) if code in ("db_unavailable",
                                                                 "shutting_down")
                        else RoomError(refusal))
    assert error_words(error, "en") == (code, refusal)
    got, ru = error_words(error, "ru")
    assert got == code and CYRILLIC.search(ru) and not re.search(r"[a-z]{4,}", ru)


def test_malformed_messages_are_refused_in_the_connections_language(
        server: ServerThread) -> None:
    """Issue 19 item 7: a malformed message keeps the code ``message`` (the client program's
    fault) but names the field and the problem in the page's language."""
    made = create_table(server.http, players=2, seats=["open"])
    ru_ws = Client(server.base, made["table"], made["token"],
                   headers={"Accept-Language": "ru-RU,ru;q=0.9"})
    en_ws = Client(server.base, made["table"], headers={"Accept-Language": "en"})
    try:
        ru_ws.state()
        en_ws.state()
        ru_ws.send({"type": "kick", "seat": "one"})
        said = ru_ws.error()
        assert said["code"] == "message" and said["field"] == "seat"
        assert said["message"] == webtext.text("ru", "message.seat", kind="kick")
        assert CYRILLIC.search(said["message"]) and '"seat"' in said["message"]
        ru_ws.send("{not json")
        bad = ru_ws.error()
        assert bad["code"] == "message" and CYRILLIC.search(bad["message"])
        assert re.search(r"\d", bad["message"])  # the column is kept
        ru_ws.send({"type": "act"})
        assert '"action"' in ru_ws.error()["message"]
        # English stays the server's own sentence, word for word.
        en_ws.send({"type": 7})
        english = en_ws.error()
        assert english["field"] == "type" and not CYRILLIC.search(english["message"])
        assert english["message"].startswith('"type": expected a text')
    finally:
        ru_ws.close()
        en_ws.close()


def test_every_malformed_message_sentence_has_its_russian_pattern() -> None:
    """Each ``MessageError`` sentence messages.py can raise is matched by a pattern, so none
    falls back to English for a Russian page."""
    import ast

    source = (Path(webtext.__file__).parent / "messages.py").read_text(encoding="utf-8")
    sentences: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "MessageError":
            parts = node.args[1]
            if isinstance(parts, ast.Constant):
                sentences.append(str(parts.value))
            elif isinstance(parts, ast.JoinedStr):  # f-strings: fields filled with samples
                sentences.append("".join(str(v.value) if isinstance(v, ast.Constant)
                                         else "the message" for v in parts.values))
    assert len(sentences) >= 12
    for sentence in sentences:
        said = webtext.message_words(sentence.replace("at column the message", "at column 3")
                                     .replace("(the message characters", "(5 characters")
                                     .replace("most the message)", "most 4)"), "ru")
        assert CYRILLIC.search(said), sentence


@given(st.text(max_size=200))
def test_message_words_never_fail_and_keep_unknown_sentences(sentence: str) -> None:
    """Whatever a malformed message made the server say, the translation step answers: the
    sentence itself in English, and in Russian either a catalogue text or the sentence."""
    assert webtext.message_words(sentence, "en") == sentence
    said = webtext.message_words(sentence, "ru")
    known = any(p.match(sentence) for _, p in webtext.MESSAGE_ERRORS)
    assert said == sentence or known
    assert isinstance(said, str) and (said or not sentence)
