"""The terminal game driven through a pseudo-terminal, as a person at a keyboard would drive it.

Each test starts ``python -m bito play`` under :mod:`pexpect` (a real pty: the program sees a
terminal, so line editing, colour detection and the output encoding are the real ones) and
answers its prompts. The helpers only type; every assertion is about what a player would see.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

SRC = str(Path(__file__).resolve().parents[2] / "src")
PROMPT = "\r\n> |^> |\n> "
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def spawn(*argv: str, env: dict[str, str] | None = None) -> pexpect.spawn:
    """``python -m bito ARGV`` on a pty of 200 columns, this checkout's code first."""
    environ = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    environ.update({"PYTHONPATH": SRC, "TERM": "xterm-256color", "COLUMNS": "200",
                    "BITO_LANG": "en"})  # English unless a test asks otherwise
    environ.update(env or {})
    child = pexpect.spawn(sys.executable, ["-m", "bito", *argv], env=environ,
                          encoding="utf-8", codec_errors="replace", timeout=60,
                          dimensions=(50, 200))
    # Type as soon as a prompt shows: pexpect's default pause of 50 ms before every line (for
    # programs that turn echo off after prompting, like a password prompt) came to half the
    # wall time of a whole game; the game reads lines with input(), which keeps what was
    # typed ahead anyway. Closing need not pause for the child's exit either: ended() waits
    # for it.
    child.delaybeforesend = None
    child.ptyproc.delayafterclose = 0.0
    return child


def ended(child: pexpect.spawn) -> str:
    """Wait for the program to print its last line and exit; what it printed since the last
    expect."""
    child.expect(pexpect.EOF)
    child.wait()
    child.close()
    return child.before or ""


def drive(child: pexpect.spawn, answer: Callable[[str, int], str], limit: int = 2000
          ) -> tuple[str, int]:
    """Answer every prompt with ``answer(screen so far, prompt number)`` until the program
    ends; returns (everything it printed, prompts answered)."""
    seen: list[str] = []
    prompts = 0
    while True:
        i = child.expect(["\n> ", pexpect.EOF])
        seen.append(child.before or "")
        if i == 1:
            break
        seen.append("\n> ")
        prompts += 1
        assert prompts < limit, "the game never ended"
        child.sendline(answer("".join(seen), prompts))
    child.wait()
    child.close()
    return "".join(seen).replace("\r\n", "\n"), prompts


def first_move(_: str, __: int) -> str:
    return "1"


def screens(out: str) -> list[str]:
    """The move lists shown before each prompt (the lines after 'Your move')."""
    return [part.split("\n> ")[0] for part in out.split("Your move (")[1:]]


def result(out: str) -> str:
    lines = [ln for ln in out.splitlines() if ln.startswith("Result:")]
    assert len(lines) == 1, out[-1500:]
    return lines[0]


# --- input and flow ------------------------------------------------------------------------


def test_forced_moves_are_played_for_you_and_change_nothing_else() -> None:
    """The same deal played twice, always choosing move 1: once with forced moves played
    automatically, once (--no-auto) asked for. The games are the same; the automatic one
    never asks when there is one move, and says so once for each move it played."""
    argv = ("play", "--seed", "21", "--bots", "random", "--players", "3")
    auto_out, auto_prompts = drive(spawn(*argv), first_move)
    asked_out, asked_prompts = drive(spawn(*argv, "--no-auto"), first_move)
    assert result(auto_out) == result(asked_out)
    for screen in screens(auto_out):
        assert "\n   2. " in screen, screen  # never asked with a single move
    single = [s for s in screens(asked_out) if "\n   2. " not in s]
    notices = auto_out.count("(your only move, played for you)")
    assert single, "a whole 3-player game without one forced move: pick another seed"
    assert notices == len(single)
    assert asked_prompts == auto_prompts + notices


def test_undo_takes_back_your_move_and_the_bots_replies() -> None:
    """undo before any choice is refused; after a move it returns to the very same screen.
    (A deal where you attack first, forced moves asked for: the bout is still open at the
    next prompt, so no card has been drawn from the stock since, which undo would refuse.)"""
    from bito.games import new_game

    seed = next(s for s in range(100) if new_game("podkidnoy", players=2, seed=s).to_act == 0)
    shown: dict[int, str] = {}

    def script(out: str, n: int) -> str:
        last = out.rsplit("\n--- bout", 1)[-1]
        shown[n] = last.split("\n> ")[0] if "\n> " in last else last
        return {1: "undo", 2: "1", 3: "undo", 4: "quit"}.get(n, "quit")

    out, _ = drive(spawn("play", "--seed", str(seed), "--bots", "random", "--no-auto"), script)
    assert "Nothing to undo: you have not chosen a move yet" in out
    assert "Took back your move" in out
    assert "unknown rank" not in out
    # the screen after the undo (shown at prompt 4) is the one the move was chosen from
    assert shown[4].split("\nYour move")[0].strip() == shown[2].split("\nYour move")[0].strip()


def test_a_card_that_does_not_beat_is_named_with_what_would() -> None:
    """A defender typing a card of the attacked suit that is too low hears which card it
    fails to beat and what would, not the throw-in rule."""
    order = "23456789TJQKA"
    for seed in range(60):
        child = spawn("play", "--seed", str(seed), "--bots", "random", "--color", "never")
        child.expect("\n> ")
        screen = child.before.replace("\r\n", "\n")
        led = re.search(r"\nAnna attacks (\S+)\n", screen)
        hand = re.search(r"Your hand[^:]*: (.*?)   ", screen)
        lower = []
        if led and hand and "*" not in led.group(1):
            attack = led.group(1).replace("10", "T")
            lower = [c for c in hand.group(1).split() if c[-1] == attack[-1]
                     and order.index(c.replace("10", "T")[0]) < order.index(attack[0])]
        if not lower:
            child.sendline("quit")
            child.expect(pexpect.EOF)
            continue
        card = lower[0]
        child.sendline(card.replace("10", "T")[0] + "cdhs"["♣♦♥♠".index(card[-1])])
        child.expect("\n> ")
        said = child.before.replace("\r\n", "\n")
        child.sendline("quit")
        child.expect(pexpect.EOF)
        assert f"{card} does not beat {led.group(1)}" in said  # type: ignore[union-attr]
        assert "or a trump" in said and "throw in" not in said
        return
    pytest.skip("no deal in 60 where the bot led a suit we hold a lower card of")


def test_fool_wild_card_is_typed_w1_and_a_bare_number_stays_a_move_number() -> None:
    """In Fool! the wild 1 is listed and typed as w1; typing 1 picks move 1 (another card
    when the wild is not first), and undo in a family game returns to the same choice."""
    typed: list[str] = []

    def script(out: str, n: int) -> str:
        moves = " ".join(re.findall(r"^\s+\d+\. (\S+)", out.rsplit("Your move", 1)[-1], re.M))
        if "w1" in moves and "w1" not in typed:
            typed.append("w1")
            return "w1"
        if n > 60:
            return "quit"
        return "1"

    out, _ = drive(spawn("play", "--variant", "friese_fool", "--players", "4", "--seed", "2",
                         "--bots", "random"), script)
    assert typed == ["w1"], "no wild 1 offered in 60 moves: pick another seed"
    assert "You play w1" in out
    assert re.search(r"^\s+\d+\. w1 ", out, re.M) and not re.search(r"^\s+\d+\. 1 ", out, re.M)


def test_undo_in_a_family_game() -> None:
    def script(_: str, n: int) -> str:
        return {1: "undo", 2: "1", 3: "undo"}.get(n, "quit")

    out, _ = drive(spawn("play", "--variant", "czech_fool", "--players", "3", "--seed", "4",
                         "--bots", "random"), script)
    assert "Nothing to undo: you have not chosen a move yet" in out
    assert "Took back your move" in out and "unknown" not in out
    views = [v.split("Your move")[0] for v in out.split("\n\n")[1:] if "Your move" in v]
    assert len(views) == 3 and views[2] == views[0] != views[1]  # back to the first choice


# --- colour and glyphs ---------------------------------------------------------------------


def first_screen(*argv: str, env: dict[str, str] | None = None) -> str:
    """Everything printed up to the first prompt, raw (escape codes kept)."""
    child = spawn("play", "--seed", "1", "--bots", "random", *argv, env=env)
    child.expect("\n> ")
    text = child.before or ""
    child.sendline("quit")
    ended(child)
    return text.replace("\r\n", "\n")


@pytest.mark.parametrize(("argv", "env", "coloured"), [
    (("--color", "always"), {}, True),
    (("--color", "never"), {}, False),
    ((), {}, True),                            # auto, on a terminal
    ((), {"NO_COLOR": "1"}, False),            # auto honours NO_COLOR
    (("--color", "always"), {"NO_COLOR": "1"}, True),  # the option wins over the variable
    ((), {"TERM": "dumb"}, False),
])
def test_colour_follows_the_option_no_color_and_the_terminal(
        argv: tuple[str, ...], env: dict[str, str], coloured: bool) -> None:
    pytest.importorskip("rich")
    text = first_screen(*argv, env=env)
    assert bool(ANSI.search(text)) is coloured
    plain = ANSI.sub("", text)
    assert "Your move" in plain and ("♥" in plain or "♦" in plain)
    if coloured:
        red = re.findall(r"\x1b\[([0-9;]*)m(?:10|[2-9JQKA])[♥♦]", text)
        black = re.findall(r"\x1b\[([0-9;]*)m(?:10|[2-9JQKA])[♣♠]", text)
        assert red and all("31" in codes for codes in red)   # red suits are red
        assert black and not any("31" in codes for codes in black)
        trump = re.search(r"trump card (\S+),", plain)
        assert trump is not None
        highlighted = re.search(r"\x1b\[([0-9;]*)m" + re.escape(trump.group(1)), text)
        assert highlighted is not None and "7" in highlighted.group(1).split(";")  # reverse
        assert re.search(r"\x1b\[[0-9;]*1[;0-9]*mYour move", text)  # your turn in bold


def test_ascii_fallback_when_the_terminal_cannot_show_suits() -> None:
    """PYTHONIOENCODING=ascii: no suit symbol (nor a '?' in its place) reaches the screen;
    cards read as notation the player can type back."""
    text = first_screen("--color", "never", env={"PYTHONIOENCODING": "ascii"})
    assert not re.search(r"[^\x00-\x7f]", text)
    hand = re.search(r"Your hand[^:]*: (.*?)   \(", text)
    assert hand is not None, text
    cards = hand.group(1).split()
    assert cards and all(re.fullmatch(r"[2-9TJQKA][cdhs]\*?", c) for c in cards), cards
    assert "?" not in text.split("Type 'help'")[1]
    trump = re.search(r"[Tt]rump (clubs|diamonds|hearts|spades)", text)
    assert trump is not None


# --- variants as listed --------------------------------------------------------------------


def test_a_house_rule_alone_is_a_whole_game_on_its_base() -> None:
    """bito play --variant no_trump: said in one line, dealt as podkidnoy+no_trump (no trump
    anywhere on the screens), played to a result."""
    out, prompts = drive(spawn("play", "--variant", "no_trump", "--seed", "8", "--bots",
                               "random", "--color", "never"), first_move)
    notices = [ln for ln in out.splitlines() if "is a house rule" in ln]
    assert notices == ["bito: no_trump is a house rule; playing it on podkidnoy: "
                       "podkidnoy+no_trump"]
    assert "No trumps" in out and "*" not in "".join(
        ln for ln in out.splitlines() if ln.lstrip().startswith("Your hand"))
    assert prompts > 0
    result(out)


# --- every family first-class --------------------------------------------------------------


def scores_in(result_line: str, label: str) -> dict[str, int]:
    """``label after N rounds: You 3, Anna -5`` from a Result line, by name."""
    m = re.search(label + r" after \d+ rounds?: ([^;.]*)", result_line)
    assert m is not None, result_line
    return {name: int(v) for name, v in (item.rsplit(" ", 1) for item in m.group(1).split(", "))}


@pytest.mark.parametrize(("variant", "players", "seed"), [
    ("czech_fool", 3, 5), ("friese_fool", 4, 6), ("chinese", 3, 7)])
def test_every_family_speaks_of_people_and_ends_in_words(
        variant: str, players: int, seed: int, tmp_path: Path) -> None:
    """A whole game of each non-Durak family at the terminal: names everywhere (never a seat
    number, never a raw dict), effects said in words, the end in words, and the replay of the
    saved record ends in the same words."""
    record = tmp_path / "game.jsonl"
    out, _ = drive(spawn("play", "--variant", variant, "--players", str(players), "--seed",
                         str(seed), "--bots", "random", "--color", "never", "--save",
                         str(record)), first_move)
    assert "Game over" in out, out[-1500:]
    assert not re.search(r"\bseat \d", out), re.search(r".*\bseat \d.*", out)
    assert "over: {" not in out and "{'" not in out
    for wrong in ("You is", "You wins", "You draws", "You takes", "You attacks", "You has"):
        assert wrong not in out
    final = result(out)
    names = {"You", "Anna", "Boris", "Vera"}
    fool = re.search(r"(\w+) (?:is|are) the fool", final)
    assert fool is not None and fool.group(1) in names
    header = out.split("\n")[0]
    assert variant in header and ":" in header  # the game's name and id
    if variant == "czech_fool":
        totals = scores_in(final, "penalty points")
        assert set(totals) == {"You", "Anna", "Boris"}
        assert max(totals, key=lambda n: totals[n]) == fool.group(1)  # most points: the fool
        assert "(a penalty)" in out and ("misses a turn" in out or "miss a turn" in out)
        assert re.search(r"Round 1 is over: \w+ goes? out first", out)
    if variant == "friese_fool":
        totals = scores_in(final, "scores")
        assert min(totals, key=lambda n: totals[n]) == fool.group(1)  # fewest points: fool
        assert "The Fool disc goes to" in out and "Round 1 is over." in out
        # the wild card is "wild 1" in the hand (typed w1), never a bare 1 like a move number
        assert not re.search(r"Your hand[^:]*:(?:.*, | )1(?=[ ,]|$)", out, re.M)
    if variant == "chinese":
        assert "(* = trump)" in out and re.search(r"Your hand[^:]*: .*\*", out)
    replayed = subprocess_replay(record)
    assert result(replayed) == final


def subprocess_replay(record: Path) -> str:
    child = spawn("replay", str(record), "--to-end", "--color", "never")
    return ended(child).replace("\r\n", "\n")


def test_family_help_is_the_games_own() -> None:
    def script(_: str, n: int) -> str:
        return "help" if n == 1 else "quit"

    czech, _ = drive(spawn("play", "--variant", "czech_fool", "--players", "2", "--seed", "1",
                           "--color", "never"), script)
    fool, _ = drive(spawn("play", "--variant", "friese_fool", "--players", "4", "--seed", "1",
                          "--color", "never"), script)
    assert "Mau-Mau" in czech and "Qh=s" in czech and "w1" not in czech
    assert "w1" in fool and "Fool disc" in fool and "Qh=s" not in fool
    assert "undo" in czech and "hint" in fool


def test_hint_in_game_and_where_the_strong_bot_cannot_help() -> None:
    """``hint`` names a legal move of the list; in a game the search cannot analyse (cards
    held face out, #58) it says so and the game goes on: never a traceback."""
    def script(_: str, n: int) -> str:
        return {1: "hint", 2: "1"}.get(n, "quit")

    out, _ = drive(spawn("play", "--seed", "1", "--bots", "random", "--color", "never"), script)
    hint = re.search(r"^Hint: .*?\((\S+)\)", out, re.M)
    moves = re.findall(r"^\s+\d+\. (\S+)", out.split("Hint:")[0], re.M)
    assert hint is not None and hint.group(1) in moves
    out, _ = drive(spawn("play", "--variant", "podkidnoy+blind_face_out", "--seed", "5",
                         "--bots", "random", "--color", "never"), script)
    assert "Traceback" not in out and "internal error" not in out
    assert re.search(r"^(Hint: |No hint here: )", out, re.M)
    assert "Game stopped (you quit)" in out
