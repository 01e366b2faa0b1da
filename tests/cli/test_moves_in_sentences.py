"""The terminal of the bout games (China fool, the heap and chain games, Polish fool, the
preludes) says each move as a sentence, as the Durak games do -- "Boris attacks with 7♥",
"You cover 7♥ with 9♥", "Anna takes", "Bito: ..." -- never "Boris: attack 7♥"; and every
family's header
says why its first player plays first, by that family's own rule (issue 22).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from terminal_kit import play_at_terminal
from test_terminal_pty import drive, first_move, spawn

from bito import i18n
from bito.cards import card_pretty, cards_of, rank_of, suit_of
from bito.games import new_game

pexpect = pytest.importorskip("pexpect")

#: A move printed as "Name: <engine words>" for a Durak-notation action.
RAW_BOUT_MOVE = re.compile(r"^\S+: (attack|cover|take|pass|transfer)\b")
EN_SENTENCE = re.compile(r"^(You (attack with|throw in|cover|take|pass|transfer|turn up)"
                         r"|\S+ (attacks with|throws in|covers|takes|passes|transfers|turns up))"
                         r"\b.*$")
RU_SENTENCE = re.compile(r"^(Вы (ходите|подкидываете|кроете|берёте|пасуете|переводите|"
                         r"открываете)|\S+ (ходит|подкидывает|кроет|берёт|пасует|переводит|"
                         r"открывает))\b.*$")


@pytest.fixture(autouse=True)
def _english_after() -> object:
    yield
    i18n.set_language("en")


def play(variant: str, players: int, seed: int, lang: str,
         answer: Callable[[str], str] = lambda _: "1") -> list[str]:
    """The lines of one game at the terminal, the human always choosing move 1."""
    i18n.set_language(lang)
    lines: list[str] = []
    def write(text: str = "") -> None:
        lines.extend(str(text).split("\n"))

    play_at_terminal(variant, players, seed, answer, write)
    return lines


def moves_of(lines: list[str], lang: str) -> list[str]:
    """The lines that announce a bout move (they open with a player's name or "You")."""
    sentence = EN_SENTENCE if lang == "en" else RU_SENTENCE
    return [ln for ln in lines if sentence.match(ln)]


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize(("variant", "players", "seed"), [
    ("chinese", 3, 3), ("chinese_pass_on", 3, 1), ("heaped", 3, 2), ("chain_fool", 3, 4),
    ("polish_fool", 3, 3), ("deck_duel_prelude", 2, 5)])
def test_bout_moves_are_sentences(variant: str, players: int, seed: int, lang: str) -> None:
    lines = play(variant, players, seed, lang)
    raw = [ln for ln in lines if RAW_BOUT_MOVE.match(ln)]
    assert not raw, raw[:5]
    said = moves_of(lines, lang)
    assert len(said) >= 10, lines[:40]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_china_fool_game_covers_takes_and_says_bito(lang: str) -> None:
    """#65 (S0:83) plays bouts as podkidnoy does: covers name both cards, a failed defence
    is a take, and a bout that ends in the discard pile is announced as bito right after the
    pass that closed it."""
    lines = play("chinese", 3, 3, lang)
    covers = "covers" if lang == "en" else "кроет"
    assert any(re.search(rf"{covers} \S+ (with|картой) \S+$", ln) for ln in lines)
    takes = ("takes" if lang == "en" else "берёт")
    assert any(ln.endswith(takes) for ln in lines)
    bito = "Bito:" if lang == "en" else "Бито:"
    bito_at = [i for i, ln in enumerate(lines) if ln.strip().startswith(bito)]
    assert bito_at, lines[:60]
    passed = ("pass", "passes") if lang == "en" else ("пасуете", "пасует")
    for i in bito_at:
        assert any(word in lines[i - 1] for word in passed), lines[i - 2:i + 1]


def test_a_bout_game_at_a_real_terminal_in_russian() -> None:
    out, prompts = drive(spawn("play", "--variant", "chinese", "--players", "3", "--seed", "7",
                               "--bots", "random", "--color", "never", "--lang", "ru"),
                         first_move)
    assert prompts > 0
    lines = [ln.strip() for ln in out.splitlines()]
    assert not [ln for ln in lines if RAW_BOUT_MOVE.match(ln)]
    assert sum(1 for ln in lines if RU_SENTENCE.match(ln)) >= 10
    assert "Первым ходит" in out or "Вы ходите первым" in out


# --- why the first player plays first ---------------------------------------------------------


def header(variant: str, players: int, seed: int, lang: str = "en") -> str:
    """The line of the header that names the first player."""
    lines = play(variant, players, seed, lang, answer=lambda _: "quit")
    first = [ln for ln in lines[:4] if "play first" in ln or "plays first" in ln
             or "ходите первым" in ln or "Первым ходит" in ln]
    assert len(first) == 1, lines[:4]
    return first[0]


NAMES = ("You", "Anna", "Boris", "Vera", "Gleb", "Dasha")


def named(line: str) -> str:
    return "You" if line.startswith("You ") else line.split(" plays first")[0]


@pytest.mark.parametrize("seed", range(6))
def test_china_fool_header_names_the_nine_of_diamonds_holder(seed: int) -> None:
    """#65, S0:83: "the 9♦ holder starts"."""
    state = new_game("chinese", 3, seed=seed)
    nine = next(c for c in cards_of(sum(state.hands)) if card_pretty(c) == "9♦")
    holder = next(s for s in range(3) if state.hands[s] >> nine & 1)
    line = header("chinese", 3, seed)
    assert "the holder of the 9♦ attacks first" in line
    assert named(line) == NAMES[holder]


@pytest.mark.parametrize("seed", range(6))
def test_heaped_header_shows_the_lowest_trump(seed: int) -> None:
    """#69 (S1:82-84): "first_attacker: lowest trump"; the header shows it, as in Durak."""
    state = new_game("heaped", 3, seed=seed)
    line = header("heaped", 3, seed)
    trumps = [(rank_of(c), s, c) for s in range(3) for c in cards_of(state.hands[s])
              if suit_of(c) == state.trump_suit]
    if not trumps:
        assert "nobody holds a trump" in line
        return
    _rank, seat, card = min(trumps)
    assert f"the holder of the lowest trump, {card_pretty(card)}, leads first" in line
    assert named(line) == NAMES[seat]


@pytest.mark.parametrize(("variant", "players", "words"), [
    ("polish_fool", 3, "the player on the dealer's left starts"),
    ("chain_fool", 3, "the player on the dealer's left starts"),
    ("friese_fool", 4, "the player on the dealer's left starts"),
    ("czech_fool", 3, "the first player is chosen by lot"),
    ("two_phase_japanese", 2, "the first player is chosen by lot"),
    ("believe_not_believe_2", 3, "the player on the dealer's left starts"),
])
def test_other_families_say_their_rule(variant: str, players: int, words: str) -> None:
    """Polish fool and the chain game (#72/#71, S1), Fool! (#95, S2: the dealer's left leads
    the first trick), Cheat: the dealer's left; the Mau-Mau family (S1:17) and the preludes'
    first drawer: by lot."""
    for seed in range(3):
        line = header(variant, players, seed)
        assert words in line, line
        state = new_game(variant, players, seed=seed)
        dealer = getattr(state, "dealer", None)
        if "dealer's left" in words and dealer is not None:
            assert named(line) == NAMES[(dealer + 1) % players]
            assert f"chosen by lot: {'you' if dealer == 0 else NAMES[dealer]})" in line


def test_animal_sounds_header_shows_the_lowest_card() -> None:
    """Animal sounds (S0:169): the holder of a six nearest the dealer's left opens."""
    for seed in range(3):
        state = new_game("animal_sounds", 3, seed=seed)
        line = header("animal_sounds", 3, seed)
        card = line.split("opens: ")[1].rstrip(". ").split(".")[0]
        assert card.startswith("6")
        assert any(card_pretty(c) == card for c in cards_of(state.hands[state.to_act]))


@pytest.mark.parametrize("variant", ["chinese", "heaped", "polish_fool", "czech_fool",
                                     "friese_fool", "animal_sounds"])
def test_headers_say_why_in_russian(variant: str) -> None:
    players = 4 if variant == "friese_fool" else 3
    line = header(variant, players, 1, "ru")
    assert re.search(r"(Первым ходит \S+|Вы ходите первым): \w", line), line
    assert not re.search(r"\b[a-z]{4,} [a-z]{2,} [a-z]{2,}\b", line), line


# --- the other families' moves ------------------------------------------------------------------

#: A move printed as "Name: <engine words>", the form every family has left behind.
NAME_COLON_MOVE = re.compile(r"^(You|Anna|Boris|Vera): ")
#: The sentences of the families' moves, in both languages.
FAMILY_MOVES = {
    "en": re.compile(r"^(You|\S+) (plays?(?! first)|puts? down|draws? from the stock|pass(es)?|"
                     r"ends? (your|the) claim|says?: I doubt it|makes? (your|the) animal's "
                     r"sound|laughs?)\b"),
    "ru": re.compile(r"^\S+ (кладёт|кладёте|берёт из колоды|берёте из колоды|пасует|пасуете|"
                     r"заканчивает заявку|заканчиваете заявку|говорит: «Не верю!»|говорите: "
                     r"«Не верю!»|издаёт звук своего|издаёте звук своего|смеётся|смеётесь)"),
}


@pytest.mark.parametrize(("variant", "players", "seed", "verb"), [
    ("czech_fool", 3, 3, "plays"), ("friese_fool", 4, 3, "plays"),
    ("believe_not_believe_2", 3, 3, "ends the claim"), ("animal_sounds", 3, 3, "plays")])
def test_every_family_says_its_moves_in_sentences(variant: str, players: int, seed: int,
                                                  verb: str) -> None:
    """The same game in both languages: no "Name: move" line in English, and one sentence
    per move in each language (the same count, as it is the same game)."""
    en = play(variant, players, seed, "en")
    left = [ln for ln in en if NAME_COLON_MOVE.match(ln)]
    assert not left, left[:5]
    assert sum(1 for ln in en if verb in ln) >= 3
    ru = play(variant, players, seed, "ru")
    said = {lang: sum(1 for ln in lines if FAMILY_MOVES[lang].match(ln))
            for lang, lines in (("en", en), ("ru", ru))}
    assert said["en"] >= 10 and said["ru"] == said["en"], said


def test_a_doubt_that_hands_over_the_pile_is_said_once() -> None:
    """Cheat: the loser of a doubt takes the pile; the engine's note says so, and the screen
    does not also call it a penalty draw."""
    for seed in range(6):
        lines = play("believe_not_believe_2", 3, seed, "en")
        for i, line in enumerate(lines):
            if "doubted" in line and "takes the pile" in line:
                assert not any("draws" in ln for ln in lines[max(0, i - 2):i]), lines[i - 2:i + 1]


def test_the_fool_disc_coming_to_you_is_said_to_you() -> None:
    """Fool! (#95): the Fool disc's holder sits out the next trick; said to the player."""
    lines = play("friese_fool", 4, 3, "en")
    mine = [ln for ln in lines if "The Fool disc goes to you" in ln]
    assert mine and all(ln.endswith("you sit out the next trick.") for ln in mine)
    assert not any("goes to You" in ln for ln in lines)


def test_a_preludes_second_phase_tells_throw_ins_from_attacks() -> None:
    """#68 (deck flip, then throw-in fool): in phase 2 a card added to an open bout is a
    throw-in, as in podkidnoy, and a bout's first card an attack."""
    lines = play("deck_duel_prelude", 3, 1, "en")
    start = next(i for i, ln in enumerate(lines) if ln.startswith("Phase 2"))
    later = lines[start:]
    assert any(re.match(r"^(You throw in|\S+ throws in) ", ln) for ln in later)
    assert any(re.match(r"^(You attack with|\S+ attacks with) ", ln) for ln in later)
