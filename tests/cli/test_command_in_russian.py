"""Every text of the ``bito`` command in Russian (issue 22, item 5): the output of ``sim``,
``tournament``, ``arena``, ``bench`` and ``sweep``, the help of every subcommand (``serve``'s
too), argparse's own error sentences, the rules' refusals of a spec, and the catalogue's
summaries in ``bito variants``. Machine-readable output (``--json``) keeps its English keys.

A Russian line may hold notation, ids, bot names and numbers, which are typed as they are;
what it must not hold is an English sentence (three English words in a row).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bito import i18n
from bito.rules import all_variants

SRC = str(Path(__file__).resolve().parents[2] / "src")
#: Three English words in a row: a sentence left untranslated.
ENGLISH = re.compile(r"\b[A-Za-z][a-z']+(?: [A-Za-z][a-z']+){2,}\b")
CYRILLIC = re.compile("[а-яА-ЯёЁ]")
#: ``--lang``'s own help is said in both languages on purpose (it is read before the
#: language is known); it is the one English sentence a Russian help may hold.
LANG_HELP_WORDS = ("language of the game", "BITO_LANG, else the", "locale; язык")


def bito(*argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LANGUAGE", "LC_ALL")}
    env.update({"PYTHONPATH": SRC, "BITO_LANG": "en", "COLUMNS": "100",
                "PYTHONIOENCODING": "utf-8"})
    return subprocess.run([sys.executable, "-m", "bito", *argv], capture_output=True,
                          text=True, env=env, timeout=170, check=False)


def english_sentences(text: str) -> list[str]:
    return [line for line in text.splitlines()
            if ENGLISH.search(line) and not any(w in line for w in LANG_HELP_WORDS)
            and not line.strip().startswith("bito ")]  # an example: a command to type


@pytest.fixture(autouse=True)
def _english_after() -> object:
    yield
    i18n.set_language("en")


# --- the output of the commands -------------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ("sim", "--games", "6", "--bots", "heuristic,random"),
    ("tournament", "--entrants", "4", "--table", "2"),
    ("arena", "--bots", "random,heuristic", "--pairs", "3"),
    ("bench", "--games", "5"),
])
def test_command_output_speaks_russian(argv: tuple[str, ...]) -> None:
    done = bito("--lang", "ru", *argv)
    assert done.returncode == 0, done.stderr
    both = done.stdout + done.stderr
    assert CYRILLIC.search(done.stdout), done.stdout
    assert not english_sentences(both), english_sentences(both)
    assert "Traceback" not in both


def test_the_same_commands_still_speak_english() -> None:
    done = bito("--lang", "en", "sim", "--games", "4", "--no-progress")
    assert done.returncode == 0
    assert "non-loss rate" in done.stdout and "seats rotate every game" in done.stdout
    assert not CYRILLIC.search(done.stdout + done.stderr)


def test_json_keeps_its_english_keys_in_russian() -> None:
    ru = json.loads(bito("--lang", "ru", "sim", "--games", "3", "--json",
                         "--no-progress").stdout)
    en = json.loads(bito("--lang", "en", "sim", "--games", "3", "--json",
                         "--no-progress").stdout)
    assert sorted(ru) == sorted(en) and "losses_by_bot" in ru


def test_sweep_refusals_in_russian() -> None:
    done = bito("--lang", "ru", "sweep", "--games", "0")
    assert done.returncode == 2
    assert "--games" in done.stderr and "не меньше 1" in done.stderr, done.stderr
    done = bito("--lang", "ru", "sweep", "--only", "no-such-case*")
    assert done.returncode == 2 and "ни один случай" in done.stderr, done.stderr


# --- help -------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["", "play", "variants", "sim", "tournament", "arena",
                                     "replay", "bench", "sweep", "serve"])
def test_every_help_is_russian(command: str) -> None:
    done = bito("--lang", "ru", *([command] if command else []), "--help")
    assert done.returncode == 0
    assert done.stdout.startswith("использование:"), done.stdout[:200]
    assert "примеры:" in done.stdout and "опции:" in done.stdout
    assert not english_sentences(done.stdout), english_sentences(done.stdout)


def test_serve_help_names_its_default_database() -> None:
    """serve's --db help takes its default from argparse (%(default)s), in both languages."""
    for lang, words in (("en", "a SQLite file (default"), ("ru", "файл SQLite (по умолчанию")):
        out = " ".join(bito("--lang", lang, "serve", "--help").stdout.split())
        assert f"{words} bito-server.sqlite3)" in out, out


# --- argparse's own sentences and the rules' refusals ---------------------------------------


@pytest.mark.parametrize(("argv", "said"), [
    (("sim", "--executor", "nowhere"), "недопустимый выбор"),
    (("play", "--players", "three"), "недопустимое значение типа int"),
    (("replay",), "не хватает обязательных аргументов"),
    (("sim", "--no-such-option"), "неизвестные аргументы"),
    (("no-such-command",), "недопустимый выбор"),
    (("sim", "--variant", "no_such_game"), "такого варианта нет"),
    (("sim", "--games", "0"), "--games должно быть не меньше 1"),
    (("play", "--variant", "podkidnoy+deck.size=7"), "не из списка"),
    (("sim", "--rules", "/no/such/rules.toml"), "не удаётся прочитать"),
    (("replay", "/no/such/game.jsonl"), "не удаётся прочитать"),
])
def test_a_wrong_command_line_is_refused_in_russian(argv: tuple[str, ...], said: str) -> None:
    done = bito("--lang", "ru", *argv)
    assert done.returncode == 2
    assert said in done.stderr, done.stderr
    assert "ошибка:" in done.stderr
    first = done.stderr.split("(есть:")[0]  # the list of known ids is ids, not a sentence
    assert not english_sentences(first), english_sentences(first)


def test_argparse_errors_stay_english_in_english() -> None:
    done = bito("--lang", "en", "sim", "--executor", "nowhere")
    assert done.returncode == 2 and "invalid choice: 'nowhere'" in done.stderr


# --- the catalogue's summaries ----------------------------------------------------------------


def test_every_catalogue_entry_has_a_russian_summary() -> None:
    i18n.set_language("ru")
    missing = [v.id for v in all_variants()
               if i18n.summary_text(v) == v.summary or not CYRILLIC.search(i18n.summary_text(v))]
    assert not missing, missing


def test_every_catalogue_entry_has_a_russian_description() -> None:
    i18n.set_language("ru")
    missing = [v.id for v in all_variants() if not CYRILLIC.search(i18n.description_text(v))]
    assert not missing, missing
    done = bito("--lang", "ru", "variants", "heaped")
    assert "младший козырь" in done.stdout  # #69's description, in Russian
    assert "In detail" not in done.stdout and "rules catalogue's text" not in done.stdout
    data = json.loads(bito("--lang", "ru", "variants", "heaped", "--json").stdout)
    assert data["description"] == next(v.description for v in all_variants()
                                       if v.id == "heaped")


def test_bito_variants_lists_russian_summaries() -> None:
    done = bito("--lang", "ru", "variants")
    assert done.returncode == 0
    summaries = [line for line in done.stdout.splitlines() if line.startswith("     ")]
    assert len(summaries) == len(all_variants())
    assert all(CYRILLIC.search(line) for line in summaries)
    one = bito("--lang", "ru", "variants", "chinese").stdout
    assert "первым ходит тот, у кого 9♦" in one  # #65's summary, in Russian


def test_every_rules_option_has_a_russian_help() -> None:
    from bito.rules import OPTION_SPECS

    i18n.set_language("ru")
    missing = [s.key for s in OPTION_SPECS.values()
               if not CYRILLIC.search(i18n.option_help(s.help))]
    assert not missing, missing
    done = bito("--lang", "ru", "variants", "--options")
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    helps = [lines[i + 1] for i, line in enumerate(lines[:-1]) if not line.startswith(" ")]
    assert len(helps) == len(OPTION_SPECS) and all(CYRILLIC.search(h) for h in helps)
    # the JSON form keeps the catalogue's English
    data = json.loads(bito("--lang", "ru", "variants", "--options", "--json").stdout)
    assert [o["help"] for o in data] == [s.help for s in OPTION_SPECS.values()]


def test_the_web_export_carries_the_russian_summaries() -> None:
    data = i18n.catalogue("ru")
    assert set(data["summaries"]) == {v.id for v in all_variants()}
    assert all(CYRILLIC.search(text) for text in data["summaries"].values())
    english = i18n.catalogue("en")["summaries"]
    assert english == {v.id: v.summary for v in all_variants()}
