"""Keep bito's message catalogues (src/bito/locale/) up to date, with the standard library only.

    python tools/i18n.py update     # extract the texts from the code into every bito.po
    python tools/i18n.py compile    # bito.po -> bito.mo (commit both)
    python tools/i18n.py check      # what tests/i18n checks: nothing missing, empty, fuzzy, stale

Two domains: ``bito`` (the terminal and the command: ``bito.po``) and ``web`` (the web app's
pages: ``web.po``, its texts listed in ``bito/server/webtext.py`` as ``web_text(key,
English)``, the key stored as ``msgctxt``).

``update`` reads the code (the calls ``_("...")``, ``N_("...")``, ``ngettext("...", "...", n)``,
the terminal's ``_by(name, "You ...", "{name} ...")`` and argparse's ``help="..."`` and
``description="..."`` wherever they are written) and the rules catalogue (the entries it names
only in English, as ``msgctxt "variant"``; every entry's summary and description, as
``msgctxt "summary"`` and ``"description"``; every rules option's help, as ``msgctxt
"option"``), then rewrites each language's ``bito.po``:
translations kept, new texts added with an empty translation (to fill in), texts the code no
longer has dropped. GNU gettext (xgettext/msgmerge/msgfmt) or Babel work on the same files;
this script only saves installing them. See docs/i18n.md.
"""

from __future__ import annotations

import ast
import re
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "bito"
LOCALE = SRC / "locale"
#: The languages with a catalogue (English is the code's own; its catalogue is identity).
LANGUAGES = ("en", "ru")
PLURAL_FORMS = {
    "en": "nplurals=2; plural=(n != 1);",
    "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
          "(n%100<10 || n%100>=20) ? 1 : 2);",
}
#: Call names whose string arguments are texts: name -> (singular index, plural index or
#: None, context index or None); ``_by`` carries two texts.
KEYWORDS: dict[str, list[tuple[int, int | None, int | None]]] = {
    "_": [(0, None, None)], "N_": [(0, None, None)],
    "ngettext": [(0, 1, None)], "Nn_": [(0, 1, None)], "pgettext": [(1, None, 0)],
    "_by": [(1, None, None), (2, None, None)],
}
VARIANT_CONTEXT = "variant"
#: The context of the rules catalogue's summaries (msgid: the English summary itself, so a
#: changed summary shows up as a text to translate).
SUMMARY_CONTEXT = "summary"
#: The context of the rules options' help texts (msgid: the English help).
OPTION_CONTEXT = "option"
#: The context of the rules catalogue's long descriptions (msgid: the English description).
DESCRIPTION_CONTEXT = "description"
#: Keyword arguments whose string literal is a text wherever they are written: argparse's
#: option help and descriptions, which bito.cli's help formatter translates when shown.
ARGPARSE_KEYWORDS = frozenset({"help", "description"})
#: The modules that build the ``bito`` command's options (paths under src/bito); other
#: scripts' options (benchmarks, tools) are not the command's and stay English.
ARGPARSE_FILES = frozenset({"cli.py", "sweep.py", "server/serve.py"})
#: The catalogues' domains: ``bito`` (the terminal and the command, read from the whole code)
#: and ``web`` (the web app's texts, one module: ``web_text("key", "English")``, the key
#: stored as the entry's context).
DOMAINS = ("bito", "web")
WEB_SOURCE = SRC / "server" / "webtext.py"
WEB_KEYWORDS: dict[str, list[tuple[int, int | None, int | None]]] = {
    "web_text": [(1, None, 0)]}


@dataclass
class Entry:
    msgid: str
    plural: str | None = None
    context: str | None = None
    strs: list[str] = field(default_factory=lambda: [""])
    fuzzy: bool = False
    refs: list[str] = field(default_factory=list)

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.context, self.msgid)


def _const(args: list[ast.expr], i: int | None) -> str | None:
    """The string literal at ``args[i]``, if there is one."""
    if i is None or i >= len(args):
        return None
    a = args[i]
    return a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None


def extract(domain: str = "bito") -> dict[tuple[str | None, str], Entry]:
    """Every text the code marks for ``domain``, in order of appearance, with where it is."""
    found: dict[tuple[str | None, str], Entry] = {}
    web = domain == "web"
    keywords = WEB_KEYWORDS if web else KEYWORDS
    for path in [WEB_SOURCE] if web else sorted(SRC.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(SRC).as_posix()
        if not web and (path == WEB_SOURCE or ("bito.i18n" not in text and path.name != "i18n.py"
                                               and where not in ARGPARSE_FILES)):
            continue
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.Call):
                continue
            for kw in node.keywords:  # argparse's texts, translated where shown (bito.cli)
                msgid = (_const([kw.value], 0) if kw.arg in ARGPARSE_KEYWORDS
                         and where in ARGPARSE_FILES else None)
                if msgid and msgid != "==SUPPRESS==":
                    entry = Entry(msgid)
                    ref = f"{path.relative_to(ROOT / 'src')}:{node.lineno}"
                    found.setdefault(entry.key, entry).refs.append(ref)
            if not isinstance(node.func, ast.Name):
                continue
            for single, plural, ctx in keywords.get(node.func.id, []):
                msgid = _const(node.args, single)
                if msgid is None:
                    continue
                entry = Entry(msgid, _const(node.args, plural), _const(node.args, ctx))
                if plural is not None and entry.plural is None:
                    continue
                ref = f"{path.relative_to(ROOT / 'src')}:{node.lineno}"
                found.setdefault(entry.key, entry).refs.append(ref)
    if web:
        return found
    sys.path.insert(0, str(ROOT / "src"))
    from bito.rules import all_variants

    cyrillic = re.compile(r"[А-Яа-яЁё]")
    for v in all_variants():
        if not any(cyrillic.search(n) for n in v.names):
            e = Entry(v.id, None, VARIANT_CONTEXT, refs=[f"rules catalogue #{v.number}"])
            found.setdefault(e.key, e)
    for v in all_variants():  # the summaries and descriptions `bito variants` prints
        for text, where_from in ((v.summary, SUMMARY_CONTEXT),
                                 (v.description, DESCRIPTION_CONTEXT)):
            e = Entry(text, None, where_from, refs=[f"rules catalogue #{v.number}"])
            found.setdefault(e.key, e)
    from bito.rules import OPTION_SPECS

    for spec in OPTION_SPECS.values():  # the options' help, `bito variants --options`
        e = Entry(spec.help, None, OPTION_CONTEXT, refs=[f"rules option {spec.key}"])
        found.setdefault(e.key, e)
    return found


def _unquote(s: str) -> str:
    return bytes(s[1:-1], "utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")


def read_po(path: Path) -> dict[tuple[str | None, str], Entry]:
    """A ``.po`` file's entries by (context, msgid); the header is the msgid ``""``."""
    entries: dict[tuple[str | None, str], Entry] = {}
    part = ""
    fuzzy = False
    fields: dict[str, str] = {}

    def flush() -> None:
        nonlocal fields, fuzzy
        if "msgid" in fields:
            n = max((int(k[7:-1]) for k in fields if k.startswith("msgstr[")), default=-1)
            strs = [fields.get(f"msgstr[{i}]", "") for i in range(n + 1)] if n >= 0 else \
                [fields.get("msgstr", "")]
            e = Entry(fields["msgid"], fields.get("msgid_plural"), fields.get("msgctxt"),
                      strs, fuzzy)
            entries[e.key] = e
        fields = {}
        fuzzy = False

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            flush()
            continue
        if line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
            continue
        if line.startswith("#"):
            continue
        if line.startswith('"'):
            fields[part] += _unquote(line)
            continue
        key, _, rest = line.partition(" ")
        if key in ("msgctxt", "msgid") and "msgid" in fields:
            flush()
        part = key
        fields[part] = _unquote(rest.strip())
    flush()
    return entries


def _quote(text: str) -> str:
    body = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    lines = body.split("\n")
    if len(lines) == 1:
        return f'"{lines[0]}"'
    parts = [line + "\\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    return '""\n' + "\n".join(f'"{p}"' for p in parts)


def write_po(path: Path, lang: str, entries: list[Entry]) -> None:
    header = (f"Project-Id-Version: bito\\n\"\n\"Language: {lang}\\n\"\n"
              "\"MIME-Version: 1.0\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n"
              "\"Content-Transfer-Encoding: 8bit\\n\"\n"
              f"\"Plural-Forms: {PLURAL_FORMS[lang]}\\n")
    out = [f"# bito's messages in {lang}. Edit the msgstr lines; then run "
           "python tools/i18n.py compile.",
           "# English (en) is the language of the code: its msgstr lines stay empty.",
           'msgid ""', 'msgstr ""', f'"{header}"', ""]
    for e in entries:
        out += [f"#: {ref}" for ref in e.refs[:3]]
        if e.fuzzy:
            out.append("#, fuzzy")
        if e.context is not None:
            out.append(f"msgctxt {_quote(e.context)}")
        out.append(f"msgid {_quote(e.msgid)}")
        if e.plural is not None:
            out.append(f"msgid_plural {_quote(e.plural)}")
            for i, s in enumerate(e.strs):
                out.append(f"msgstr[{i}] {_quote(s)}")
        else:
            out.append(f"msgstr {_quote(e.strs[0])}")
        out.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(out), encoding="utf-8")


def po_path(lang: str, domain: str = "bito") -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"


def update() -> None:
    for domain in DOMAINS:
        update_domain(domain)


def update_domain(domain: str) -> None:
    code = extract(domain)
    for lang in LANGUAGES:
        path = po_path(lang, domain)
        old = read_po(path) if path.exists() else {}
        nplurals = 3 if lang == "ru" else 2
        merged = []
        for key, e in code.items():
            had = old.get(key)
            strs = had.strs if had is not None else [""] * (nplurals if e.plural else 1)
            merged.append(Entry(e.msgid, e.plural, e.context, strs,
                                had.fuzzy if had else False, e.refs))
        write_po(path, lang, merged)
        print(f"{path.relative_to(ROOT)}: {len(merged)} texts, "
              f"{sum(1 for m in merged if not all(m.strs))} without a translation")


def mo_bytes(entries: dict[tuple[str | None, str], Entry], header: str) -> bytes:
    """The GNU ``.mo`` form of translated entries (empty and fuzzy ones left out, as msgfmt
    does)."""
    pairs: dict[bytes, bytes] = {b"": header.encode("utf-8")}
    for e in entries.values():
        if not e.msgid or e.fuzzy or not all(e.strs):
            continue
        key = e.msgid if e.context is None else f"{e.context}\x04{e.msgid}"
        if e.plural is not None:
            key += "\0" + e.plural
        pairs[key.encode("utf-8")] = "\0".join(e.strs).encode("utf-8")
    keys = sorted(pairs)
    ids = strs = b""
    offsets = []
    for k in keys:
        offsets.append((len(ids), len(k), len(strs), len(pairs[k])))
        ids += k + b"\0"
        strs += pairs[k] + b"\0"
    start = 7 * 4 + 16 * len(keys)
    id_table = b"".join(struct.pack("<II", ln, start + o) for o, ln, _, _ in offsets)
    str_start = start + len(ids)
    str_table = b"".join(struct.pack("<II", ln, str_start + o) for _, _, o, ln in offsets)
    head = struct.pack("<7I", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + 8 * len(keys), 0, 0)
    return head + id_table + str_table + ids + strs


def header_of(path: Path) -> str:
    e = read_po(path).get((None, ""))
    return e.strs[0] if e else ""


def compile_all() -> None:
    for lang, domain in ((lang, d) for d in DOMAINS for lang in LANGUAGES):
        path = po_path(lang, domain)
        entries = read_po(path)
        path.with_suffix(".mo").write_bytes(mo_bytes(entries, header_of(path)))
        print(f"{path.with_suffix('.mo').relative_to(ROOT)} written")


def problems() -> list[str]:
    """What a catalogue lacks: texts of the code missing from it; in every language but
    English, empty or fuzzy translations; a ``.mo`` that does not say what its ``.po`` says."""
    import gettext

    found = []
    for lang, domain in ((lang, d) for d in DOMAINS for lang in LANGUAGES):
        code = extract(domain)
        path = po_path(lang, domain)
        if not path.exists():
            found.append(f"{lang}: {path.relative_to(ROOT)} is missing (update)")
            continue
        entries = read_po(path)
        for key in code:
            if key not in entries:
                found.append(f"{lang}: missing {key!r}")
            elif lang != "en" and (entries[key].fuzzy or not all(entries[key].strs)):
                found.append(f"{lang}: untranslated or fuzzy {key!r}")
        for key in entries:
            if key[1] and key not in code:
                found.append(f"{lang}: stale (no longer in the code) {key!r}")
        mo = path.with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != mo_bytes(entries, header_of(path)):
            found.append(f"{lang}: {mo.relative_to(ROOT)} does not match its .po (compile)")
        else:
            with mo.open("rb") as f:
                gettext.GNUTranslations(f)  # it loads
    return found


def main(argv: list[str]) -> int:
    if argv == ["update"]:
        update()
    elif argv == ["compile"]:
        compile_all()
    elif argv == ["check"]:
        found = problems()
        print("\n".join(found) or "catalogues complete")
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
