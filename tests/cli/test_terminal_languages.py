"""A whole game of each family at a real terminal (pexpect), in English and in Russian, with
and without colour; the saved record replayed in the same language ends in the same words.

The helpers are test_terminal_pty's: they only type; every assertion is about what a player
sees.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_terminal_pty import ANSI, drive, ended, first_move, spawn

pexpect = pytest.importorskip("pexpect")

#: One game per family: durak, shedding, tricks, bouts, social.
FAMILIES = [("podkidnoy", 2, 3), ("czech_fool", 3, 5), ("friese_fool", 4, 6),
            ("chinese", 3, 7), ("animal_sounds", 3, 3)]
WORDS = {
    "en": {"over": "Game over. Final position:", "result": "Result:", "header": "players, seed"},
    "ru": {"over": "Игра окончена. Итоговая позиция:", "result": "Итог:",
           "header": "игроков"},
}
#: Three English words in a row: a sentence left untranslated (the typed notation, bot kinds
#: and variant ids are single words).
ENGLISH = re.compile(r"\b[A-Za-z][a-z']+(?: [A-Za-z][a-z']+){2,}\b")


#: What ``bito replay`` printed for a record (its bytes) in a language. The games with and
#: without colour are the same game, saved byte for byte the same, and replay alike whatever
#: colour they were played in: the second of the two reads the first one's replay instead of
#: starting the same command on the same file again.
_REPLAYED: dict[tuple[bytes, str], str] = {}


def _replay(record: Path, lang: str) -> str:
    key = (record.read_bytes(), lang)
    if key not in _REPLAYED:
        child = spawn("replay", str(record), "--to-end", "--color", "never", "--lang", lang)
        _REPLAYED[key] = ended(child).replace("\r\n", "\n")
    return _REPLAYED[key]


@pytest.mark.parametrize("color", ["never", "always"])
@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize(("variant", "players", "seed"), FAMILIES)
def test_a_whole_game_in_each_language(variant: str, players: int, seed: int, lang: str,
                                       color: str, tmp_path: Path) -> None:
    if color == "always":
        pytest.importorskip("rich")
    record = tmp_path / "game.jsonl"
    raw, prompts = drive(spawn("play", "--variant", variant, "--players", str(players),
                               "--seed", str(seed), "--bots", "random", "--color", color,
                               "--lang", lang, "--save", str(record)), first_move)
    out = ANSI.sub("", raw)
    words = WORDS[lang]
    assert "Traceback" not in out and "internal error" not in out
    assert bool(ANSI.search(raw)) is (color == "always")
    assert words["over"] in out, out[-1500:]
    results = [ln for ln in out.splitlines() if ln.startswith(words["result"])]
    assert len(results) == 1, out[-1500:]
    assert words["header"] in out.splitlines()[0] and variant in out.splitlines()[0]
    assert prompts > 0
    if lang == "ru":
        assert re.search("[а-яё]", results[0]) and "Вы" in out
        for line in out.splitlines():
            if line.startswith(("Ваши ходы:", "   ", "  ", ">")) and not \
                    re.search("[а-яА-ЯёЁ]", line):
                continue  # move lists and hands: notation, which is typed as is
            sentence = ENGLISH.search(line)
            assert sentence is None, f"English left in Russian: {line!r}"
        assert "You " not in out and "Anna" not in out
    else:
        assert not re.search("[а-яА-ЯёЁ]", out.replace("дурак", ""))
    replayed = _replay(record, lang)
    assert [ln for ln in replayed.splitlines() if ln.startswith(words["result"])] == results


def test_russian_words_at_the_table() -> None:
    """взял takes, помощь helps, выход leaves: the Russian words a player types work."""
    def script(_: str, n: int) -> str:
        return {1: "помощь", 2: "взял"}.get(n, "выход")

    out, _ = drive(spawn("play", "--seed", "1", "--bots", "random", "--color", "never",
                         "--lang", "ru"), script)
    assert "Ход вводится номером" in out  # the help, in Russian
    assert "Вы берёте карты" in out
    assert "Партия остановлена (вы вышли)." in out


def test_the_locale_chooses_russian_and_the_option_wins() -> None:
    child = spawn("play", "--seed", "1", "--bots", "random", "--color", "never",
                  env={"BITO_LANG": "", "LANG": "ru_RU.UTF-8", "LC_ALL": ""})
    child.expect("\n> ")
    said = child.before or ""
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert "Ваш ход" in said and "Подкидной дурак" in said
    child = spawn("play", "--seed", "1", "--bots", "random", "--color", "never", "--lang",
                  "en", env={"BITO_LANG": "", "LANG": "ru_RU.UTF-8", "LC_ALL": ""})
    child.expect("\n> ")
    said = child.before or ""
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert "Your move" in said and "Throw-in fool" in said


def test_refusals_in_russian_name_the_reason() -> None:
    """The engines' refusals, said in Russian at the table: a card not held, notation that
    cannot be read, a move number out of range; in a Durak game and in a shedding game."""
    def script(_: str, n: int) -> str:
        return {1: "zz", 2: "As", 3: "99"}.get(n, "выход")

    durak, _ = drive(spawn("play", "--seed", "1", "--bots", "random", "--color", "never",
                           "--lang", "ru"), script)
    assert "Не удаётся прочитать ход: неизвестное достоинство 'z'" in durak
    assert "Так нельзя: у вас нет A♠." in durak and "выберите от 1 до" in durak
    czech, _ = drive(spawn("play", "--variant", "czech_fool", "--players", "3", "--seed", "5",
                           "--bots", "random", "--color", "never", "--lang", "ru"), script)
    assert "Здесь так не ходят: у вас нет A♠" in czech
    assert "own cards" not in czech and "Traceback" not in czech + durak


@pytest.mark.parametrize("spec", [
    "perevodnoy", "podkidnoy+blind_face_out", "podkidnoy+cunning", "podkidnoy+counter_throw",
    "podkidnoy+self_throw", "podkidnoy+poker", "polish_fool", "two_phase_japanese",
    "deck_duel_prelude", "chinese_pass_on", "believe_not_believe_2", "heaped", "chain_fool",
    "pharaoh", "ontoys_adjacent_rank", "team_fool"])
def test_no_english_phrase_is_left_in_a_russian_game(spec: str) -> None:
    """The engines' pictures and notes of the games whose words are most their own, said in
    Russian (piped, so quick: the screen is the same text as on a terminal)."""
    import subprocess
    import sys

    from test_terminal_pty import SRC

    players = "4" if spec == "team_fool" else "3"
    done = subprocess.run(
        [sys.executable, "-m", "bito", "play", "--lang", "ru", "--variant", spec, "--players",
         players, "--seed", "2", "--bots", "random", "--color", "never"], input="1\n" * 800,
        capture_output=True, text=True, timeout=120, check=False,
        env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"})
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-800:]
    two_words = re.compile(r"\b[A-Za-z][a-z']+ [A-Za-z][a-z']+\b")
    for line in done.stdout.splitlines():
        if not re.search("[а-яА-ЯёЁ]", line) and line.startswith(("   ", "  ", ">")):
            continue  # move lists and hands: notation, typed as is
        assert not two_words.search(line), f"English left in Russian: {line!r}"
