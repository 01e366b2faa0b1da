"""The languages bito speaks: message catalogues read with the standard library's gettext.

Every sentence the terminal games and the ``bito`` command print is written in English in the
code, wrapped in :func:`_` (or marked with :func:`N_` where a table holds it and :func:`_`
translates it when it is shown); the catalogues under ``bito/locale/<lang>/LC_MESSAGES/``
translate it. ``bito.po`` is the source a translator edits; ``bito.mo`` is its compiled form,
committed beside it and shipped as package data, so an installed bito needs nothing beyond
Python to speak Russian (tests/i18n checks that each ``.mo`` says what its ``.po`` says).
docs/i18n.md tells how to add a language and how to update the catalogues.

The language is chosen once per command: ``bito --lang ru|en``, else ``BITO_LANG``, else the
locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``: one starting with ``ru`` means
Russian), else English.

Game and variant names: the rules catalogue names most entries in Russian itself (``Подкидной
дурак``); :func:`variant_name` takes that name, or the catalogue's ``variant`` context
(``msgctxt "variant"``, ``msgid`` the entry's id) for the entries the rules catalogue names
only in English.
"""

from __future__ import annotations

import gettext
import json
import os
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

DOMAIN = "bito"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
#: The languages with a catalogue; English is the language of the code (its catalogue is the
#: template every other one follows).
LANGUAGES = ("en", "ru")
DEFAULT = "en"
#: The context of the catalogue entries that name a rules-catalogue entry (msgid: its id).
VARIANT_CONTEXT = "variant"
#: The context of the rules catalogue's one-line summaries (msgid: the English summary).
SUMMARY_CONTEXT = "summary"
#: The context of the rules options' help texts (msgid: the English help).
OPTION_CONTEXT = "option"
#: The context of the rules catalogue's long descriptions (msgid: the English description).
DESCRIPTION_CONTEXT = "description"

_translations: gettext.NullTranslations = gettext.NullTranslations()
_language = DEFAULT


def _load(lang: str) -> gettext.NullTranslations:
    try:
        return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])
    except (OSError, ValueError):  # a missing or damaged catalogue: the code's English
        return gettext.NullTranslations()


def set_language(lang: str) -> None:
    """Speak ``lang`` (one of :data:`LANGUAGES`; anything else means English) from now on."""
    global _translations, _language
    _language = lang if lang in LANGUAGES else DEFAULT
    _translations = _load(_language) if _language != DEFAULT else gettext.NullTranslations()


def language() -> str:
    """The language spoken now (``en`` or ``ru``)."""
    return _language


def language_from_env(environ: Mapping[str, str] | None = None) -> str:
    """``BITO_LANG``, else the locale's message language, as one of :data:`LANGUAGES`."""
    env = os.environ if environ is None else environ
    chosen = env.get("BITO_LANG", "").strip().lower()
    if chosen:
        return chosen if chosen in LANGUAGES else DEFAULT
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "").strip()
        if value:
            first = value.split(":")[0].lower()
            return "ru" if first.startswith("ru") else DEFAULT
    return DEFAULT


def lang_from_argv(argv: Iterable[str]) -> str | None:
    """The value of ``--lang`` wherever it stands on the command line (the language must be
    known before the parser, whose help is translated, is built); None when absent."""
    args = list(argv)
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            return args[i + 1].lower()
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1].lower()
    return None


def _(message: str) -> str:
    """``message`` in the language spoken now."""
    return _translations.gettext(message)


def N_(message: str) -> str:
    """Marks a text for the catalogue where it is defined; :func:`_` translates it where it is
    shown (tables of texts built at import time, before the language is chosen)."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a text with a count, in its two English forms, where it is defined (a table);
    :func:`ngettext` chooses the form for the count where it is shown."""
    return singular, plural


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a sentence for ``n`` (Russian has three: 1 карта, 2 карты, 5 карт)."""
    return _translations.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return _translations.pgettext(context, message)


_CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def variant_name(entry: Any) -> str:
    """A rules-catalogue entry's name in the language spoken now: in Russian the catalogue's
    own Russian name where it has one, else the message catalogue's; in English its first
    name."""
    names = [str(n) for n in getattr(entry, "names", ()) or ()]
    english = next((n for n in names if not _CYRILLIC.search(n)), entry.id)
    if _language == "ru":
        named = pgettext(VARIANT_CONTEXT, entry.id)
        if named != entry.id:
            return named
        russian = next((n for n in names if _CYRILLIC.search(n)), None)
        if russian is not None:
            return russian
    return english


def summary_text(entry: Any) -> str:
    """A rules-catalogue entry's one-line summary in the language spoken now (the English
    summary where the message catalogue has none for it)."""
    summary = str(getattr(entry, "summary", ""))
    return pgettext(SUMMARY_CONTEXT, summary) if summary else summary


def description_text(entry: Any) -> str:
    """A rules-catalogue entry's description in the language spoken now (the English
    description where the message catalogue has none for it)."""
    text = str(getattr(entry, "description", ""))
    return pgettext(DESCRIPTION_CONTEXT, text) if text else text


def option_help(help_text: str) -> str:
    """A rules option's help (``bito.rules.OPTION_SPECS``) in the language spoken now."""
    return pgettext(OPTION_CONTEXT, help_text) if help_text else help_text


def catalogue(lang: str) -> dict[str, Any]:
    """The whole catalogue of ``lang`` as plain data, for the web app (``python -m bito.i18n
    json ru``): ``messages`` (English text -> translation), ``plurals`` (English singular ->
    the forms), ``variants`` (id -> name) and ``summaries`` (id -> the one-line summary),
    read from the compiled catalogue."""
    trans = _load(lang) if lang != DEFAULT else gettext.NullTranslations()
    raw: dict[Any, str] = getattr(trans, "_catalog", {})
    messages: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    variants: dict[str, str] = {}
    summaries: dict[str, str] = {}
    for key, value in raw.items():
        if isinstance(key, tuple):  # (msgid, n) of a plural entry
            msgid, n = key
            forms = plurals.setdefault(str(msgid), [])
            forms.extend([""] * (n + 1 - len(forms)))
            forms[n] = value
        elif not key:
            continue  # the header
        elif "\x04" in key:
            context, msgid = key.split("\x04", 1)
            if context == VARIANT_CONTEXT:
                variants[msgid] = value
        else:
            messages[key] = value
    try:
        from bito.rules import all_variants
    except ImportError:
        pass
    else:
        saved = _language
        set_language(lang)
        try:
            for entry in all_variants():
                variants[entry.id] = variant_name(entry)
                summaries[entry.id] = summary_text(entry)
        finally:
            set_language(saved)
    return {"language": lang, "plural_forms": trans.info().get("plural-forms", ""),
            "messages": messages, "plurals": plurals, "variants": variants,
            "summaries": summaries}


def main(argv: list[str] | None = None) -> int:
    """``python -m bito.i18n json LANG``: the catalogue as JSON on stdout."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] != "json" or args[1] not in LANGUAGES:
        print(f"usage: python -m bito.i18n json {{{'|'.join(LANGUAGES)}}}", file=sys.stderr)
        return 2
    print(json.dumps(catalogue(args[1]), ensure_ascii=False, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
