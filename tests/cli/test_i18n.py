"""The message catalogues: complete, compiled, chosen by --lang or the locale.

tools/i18n.py extracts the texts from the code the same way these tests do, so a text added
to the code without a Russian translation, or a ``.po`` edited without compiling its ``.mo``,
fails here (docs/i18n.md says how to fix either).
"""

from __future__ import annotations

import gettext
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from bito import i18n
from bito.rules import all_variants

ROOT = Path(__file__).resolve().parents[2]
SRC = str(ROOT / "src")


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bito_i18n_tool", ROOT / "tools" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


TOOL = _tool()


@pytest.fixture(autouse=True)
def _english_after() -> object:
    yield
    i18n.set_language("en")


def test_every_text_of_the_code_is_in_both_catalogues() -> None:
    code = TOOL.extract()
    assert len(code) > 300  # the extraction found the terminal's and the command's texts
    for lang in ("en", "ru"):
        entries = TOOL.read_po(TOOL.po_path(lang))
        missing = [key for key in code if key not in entries]
        assert not missing, f"{lang}: run python tools/i18n.py update: {missing[:5]}"
        stale = [key for key in entries if key[1] and key not in code]
        assert not stale, f"{lang}: texts the code no longer has: {stale[:5]}"


def test_no_russian_entry_is_empty_or_fuzzy() -> None:
    entries = TOOL.read_po(TOOL.po_path("ru"))
    bad = [key for key, e in entries.items() if key[1] and (e.fuzzy or not all(e.strs))]
    assert not bad, bad[:5]
    plural = [e for e in entries.values() if e.plural is not None]
    assert plural and all(len(e.strs) == 3 for e in plural)  # 1 карта, 2 карты, 5 карт


def test_each_mo_says_what_its_po_says() -> None:
    """The committed .mo are the compiled .po (so an installed bito, which reads only the
    .mo, says what the translators wrote)."""
    for lang in ("en", "ru"):
        po = TOOL.po_path(lang)
        mo = po.with_suffix(".mo")
        assert mo.read_bytes() == TOOL.mo_bytes(TOOL.read_po(po), TOOL.header_of(po)), \
            f"run python tools/i18n.py compile ({lang})"
        with mo.open("rb") as f:
            catalogue = gettext.GNUTranslations(f)
        if lang == "ru":
            assert catalogue.gettext("Your moves:") == "Ваши ходы:"
            assert catalogue.ngettext("You draw {n} card", "You draw {n} cards", 5) == \
                "Вы берёте {n} карт"


def test_translations_keep_the_fields_they_fill() -> None:
    """A translation that drops or misspells a {field} would raise at the table."""
    import string

    for key, e in TOOL.read_po(TOOL.po_path("ru")).items():
        if not key[1]:
            continue
        want = {f for _, f, _, _ in string.Formatter().parse(e.msgid) if f}
        for s in e.strs:
            got = {f for _, f, _, _ in string.Formatter().parse(s) if f}
            assert got <= want | {f for _, f, _, _ in string.Formatter().parse(
                e.plural or "") if f}, (e.msgid, s)


def test_every_game_and_house_rule_has_a_russian_name() -> None:
    i18n.set_language("ru")
    for v in all_variants():
        name = i18n.variant_name(v)
        assert any("А" <= ch <= "я" or ch in "Ёё" for ch in name), (v.id, name)
    i18n.set_language("en")
    assert i18n.variant_name(next(v for v in all_variants() if v.id == "podkidnoy")) == \
        "Throw-in fool"


@pytest.mark.parametrize(("env", "lang"), [
    ({}, "en"),
    ({"LANG": "ru_RU.UTF-8"}, "ru"),
    ({"LANG": "en_US.UTF-8"}, "en"),
    ({"LANG": "en_US.UTF-8", "LC_ALL": "ru_RU.UTF-8"}, "ru"),
    ({"LC_MESSAGES": "ru_UA.UTF-8"}, "ru"),
    ({"LANGUAGE": "ru:en", "LANG": "C"}, "ru"),
    ({"LANG": "ru_RU.UTF-8", "BITO_LANG": "en"}, "en"),
    ({"BITO_LANG": "ru"}, "ru"),
    ({"BITO_LANG": "klingon"}, "en"),
])
def test_the_language_comes_from_bito_lang_else_the_locale(env: dict[str, str],
                                                           lang: str) -> None:
    assert i18n.language_from_env(env) == lang


def _bito(*argv: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    environ = {"PATH": "/usr/bin:/bin", "PYTHONPATH": SRC, "PYTHONIOENCODING": "utf-8", **env}
    return subprocess.run([sys.executable, "-m", "bito", *argv], env=environ,
                          capture_output=True, text=True, timeout=120, check=False)


def test_lang_option_and_locale_default_on_the_command_line() -> None:
    ru = _bito("variants", env={"LANG": "ru_RU.UTF-8"})
    assert ru.returncode == 0 and "Подкидной дурак" in ru.stdout and "домашнее правило" in ru.stdout
    en = _bito("variants", "--lang", "en", env={"LANG": "ru_RU.UTF-8"})  # the option wins
    assert "Throw-in fool" in en.stdout and "домашнее" not in en.stdout
    before = _bito("--lang", "ru", "variants", env={"LANG": "C"})  # before the command too
    assert "Переводной дурак" in before.stdout
    bad = _bito("play", "--lang", "xx", env={})
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    helped = _bito("play", "--help", "--lang", "ru", env={})
    assert "Партия с ботами" in helped.stdout


def test_the_catalogue_as_json_for_the_web_app() -> None:
    out = subprocess.run([sys.executable, "-m", "bito.i18n", "json", "ru"],
                         env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"},
                         capture_output=True, text=True, timeout=120, check=True).stdout
    data = json.loads(out)
    assert data["language"] == "ru" and data["plural_forms"].startswith("nplurals=3")
    assert data["messages"]["Your moves:"] == "Ваши ходы:"
    assert data["variants"]["podkidnoy"] == "Подкидной дурак"
    assert len(data["plurals"]["You draw {n} card"]) == 3


def test_russian_move_words() -> None:
    from bito.tui_words import family_move_words, move_words

    assert move_words("взял") == "take" and move_words("Отбой") == "pass"
    assert move_words("перевод 6s") == "=6s" and move_words("беру") == "беру"  # read as is
    assert family_move_words("тяну") == "draw" and family_move_words("7h") == "7h"


def test_every_rule_an_engine_refuses_by_has_a_sentence() -> None:
    """In Russian a refusal is said by its rule's sentence where the engine's own words have
    no translation: a rule named by string has its sentence in bito.tui_words.RULE_WORDS, and
    a typed reason (bito.errors.Reason) brings its own, translated."""
    import re

    from bito.errors import Reason
    from bito.games.durak.installed import HOOKS  # every rule module, with its reasons
    from bito.tui_words import RULE_WORDS

    keys: set[str] = set()
    for path in (ROOT / "src" / "bito" / "games").rglob("*.py"):
        keys |= set(re.findall(r'(?:\berr|IllegalActionError)\(\s*"([^"]+)"',
                               path.read_text(encoding="utf-8")))
    assert len(keys) > 20
    assert not keys - set(RULE_WORDS), sorted(keys - set(RULE_WORDS))
    assert HOOKS
    kinds: list[type[Reason]] = []
    waiting = list(Reason.__subclasses__())
    while waiting:
        kind = waiting.pop()
        kinds.append(kind)
        waiting += kind.__subclasses__()
    worded = [m for kind in kinds for m in kind if m.words]
    assert len(worded) > 40
    i18n.set_language("ru")
    untranslated = [m for m in worded if i18n._(m.words) == m.words]
    i18n.set_language("en")
    assert untranslated == []
