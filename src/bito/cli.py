"""The ``bito`` command: ``play``, ``variants``, ``sim``, ``replay`` and ``bench``.

Each subcommand is a thin layer over a library function, so that everything the command can do
a script can do too. Conventions (GUIDE.md §6): ``--help`` everywhere, ``--json`` where the
output is data (exactly one JSON document on stdout, nothing else), progress on stderr, exit
code 0 on success, 1 when the work ran but found a problem (a simulated game raised an error),
2 for bad input (unknown variant, malformed record, impossible seat count).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bito import __version__
from bito.cli_checks import (
    UsageError,
    at_least,
    bot_names_given,
    capped_workers,
    finite,
    positive,
)
from bito.errors import BitoError, RecordError, RulesError
from bito.i18n import (
    LANGUAGES,
    N_,
    _,
    description_text,
    lang_from_argv,
    language,
    language_from_env,
    ngettext,
    option_help,
    set_language,
    summary_text,
    variant_name,
)
from bito.progress import ProgressBar

if TYPE_CHECKING:
    from bito.games.protocol import PlayRules

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
#: Ctrl-C: the shell's convention (128 + SIGINT), the same for every command.
EXIT_INTERRUPTED = 130

#: ``--lang``'s help, said before the language is known (so in both).
LANG_HELP = ("language of the game and the messages: en or ru (default: BITO_LANG, else the "
             "locale; язык: ru — русский)")


def _err(message: str) -> None:
    print(message, file=sys.stderr)


def _one_line(error: BaseException) -> str:
    """An error as one line: bad notation names its character instead of drawing a pointer
    under the text (the error convention of docs/cli.md is one line on stderr)."""
    from bito.errors import InvalidNotationError

    if isinstance(error, InvalidNotationError):
        return f"{error.reason} (character {error.position + 1} of {error.text[:80]!r})"
    return " ".join(str(error).split()) or type(error).__name__


def _check_output(option: str, path: str | None) -> Path | None:
    """Refuse an output file that cannot be written, before any game is played: its folder
    must exist and be writable, and the path must not be a folder. (A disk that fills up is
    only seen when writing; that is reported then, the same way.)"""
    if path is None:
        return None
    out = Path(path)
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(_("{option} {path}: no such folder {folder}").format(
            option=option, path=path, folder=repr(str(folder))))
    if out.is_dir():
        raise UsageError(_("{option} {path}: is a folder, not a file").format(option=option,
                                                                          path=path))
    if not os.access(folder, os.W_OK) or (out.exists() and not os.access(out, os.W_OK)):
        raise UsageError(_("{option} {path}: cannot write a file there").format(option=option,
                                                                            path=path))
    return out


#: Optional packages, by the extra that installs them (pyproject.toml).
_EXTRAS = {"numpy": "rl", "openskill": "arena", "matplotlib": "arena", "ray": "ray",
           "numba": "fast", "gymnasium": "rl", "pettingzoo": "rl", "pyspiel": "rl",
           "open_spiel": "rl", "torch": "train", "sb3_contrib": "train", "rich": "term",
           "fastapi": "web", "uvicorn": "web", "websockets": "web", "psycopg": "web",
           "psycopg_pool": "web", "prometheus_client": "web", "argon2": "web", "segno": "web"}


def _require(module: str, purpose: str) -> None:
    """Fail before any work when an optional package a choice needs is missing."""
    import importlib

    try:
        importlib.import_module(module)
    except ImportError:
        extra = _EXTRAS.get(module.split(".")[0])
        how = f": pip install 'bito[{extra}]'" if extra else ""
        raise UsageError(_("{purpose} needs the {package} package, which is not "
                           "installed{how}").format(purpose=purpose,
                                                    package=repr(module.split(".")[0]),
                                                    how=how)) from None


def _missing_extra(error: ImportError) -> str:
    """An ImportError in a user's words: the package that is missing and the command that
    installs it (a message that already says how, like the executors', is kept)."""
    said = _one_line(error)
    if "pip install" in said:
        return said
    package = (error.name or "").split(".")[0]
    extra = _EXTRAS.get(package)
    if not package or package == "bito":
        return said
    how = f"pip install 'bito[{extra}]'" if extra else f"pip install {package}"
    return _("this needs the {package} package, which is not installed: {how}").format(
        package=repr(package), how=how)


def _check_bots_build(names: Sequence[str], option: str = "--bots") -> None:
    """Build each named bot once, so a bot whose extra is missing (``dmc`` needs numpy) is
    reported before the games start rather than in the middle of them."""
    from bito.bots import make_bot

    for name in dict.fromkeys(names):
        try:
            make_bot(name, 0)
        except ImportError as e:
            raise UsageError(f"{option} {name}: {_missing_extra(e)}") from None


def _workers(command: str, executor: str | None, workers: int | None) -> int | None:
    """``--workers`` checked for an executor: at least 1, capped at this machine's CPUs where
    the workers run on it (a Ray cluster named by RAY_ADDRESS may have more), and the
    executor's package present (Ray is an extra), all before any game."""
    if executor == "ray":
        _require("ray", "--executor ray")
        if os.environ.get("RAY_ADDRESS"):
            at_least("--workers", workers, 1)
            return workers
    return capped_workers(command, "--workers", workers)


# --- shared helpers -----------------------------------------------------------------------


def _bot_list(text: str | None, seats: int, what: str) -> list[str]:
    """Parse ``a,b,c`` into exactly ``seats`` known bot names (one name fills every seat)."""
    from bito.bots import bot_names

    known = bot_names()
    names = bot_names_given(text)
    if names is None:
        default = "heuristic" if "heuristic" in known else "random"
        return [default] * seats
    for n in names:
        if n not in known:
            raise UsageError("--bots: " + _("unknown bot {name} (known: {known})").format(
                name=repr(n), known=", ".join(known)))
    _check_bots_build(names)
    if len(names) == 1:
        return names * seats
    if len(names) != seats:
        listed = ngettext("--bots lists {n} bot", "--bots lists {n} bots", len(names)).format(
            n=len(names))
        if what == "opponents":
            there = ngettext("there is {n} opponent: give one name per opponent or a single "
                             "name for all", "there are {n} opponents: give one name per "
                             "opponent or a single name for all", seats)
        else:
            there = ngettext("there is {n} seat: give one name per seat or a single name for "
                             "all", "there are {n} seats: give one name per seat or a single "
                             "name for all", seats)
        raise UsageError(_("{listed} but {there}").format(listed=listed,
                                                         there=there.format(n=seats)))
    return names


def _check_players(rules: Any, players: int, spec: str, option: str = "--players") -> None:
    """Explain an impossible seat count before the engine refuses it, naming the flag."""
    try:
        _seat_count(rules, players, spec)
    except UsageError as e:
        raise UsageError(f"{option}: {e}") from None


def _seat_count(rules: Any, players: int, spec: str) -> None:
    """Refuse a seat count the game cannot deal, in words (see :func:`_check_players`)."""
    from bito.games import family_for

    lo, hi = rules.players_min, rules.max_players
    if lo <= players <= hi:
        if family_for(rules).seats_partners(rules) and players % 2:
            raise UsageError(_("{spec} seats partners: an even number of players from {lo} "
                               "to {hi}, not {players}").format(spec=spec, lo=lo, hi=hi,
                                                                players=players))
        return
    if family_for(rules).deck_option is None:  # the game fixes its own deck
        raise UsageError(_("{spec} seats {lo} to {hi} players, not {players}").format(
            spec=spec, lo=lo, hi=hi, players=players))
    hint = ""
    if players > hi and rules.deck_size < 52:
        bigger = 52 // rules.deal_hand_size
        hint = _(" (a 52-card deck, deck.size=52, seats up to {n})").format(n=bigger)
    raise UsageError(_("{spec} with a {deck}-card deck seats {lo} to {hi} players, not "
                       "{players}{hint}").format(spec=spec, deck=rules.deck_size, lo=lo, hi=hi,
                                                 players=players, hint=hint))


def _on_its_base(spec: str) -> str:
    """A spec that starts with a house rule (``no_trump``, ``no_trump+royal``) is played on
    the game the catalogue ties that rule to (:attr:`Variant.default_base`, podkidnoy where it
    names none), said in one line on stderr; any other spec is returned as it is."""
    from bito.errors import BitoError
    from bito.rules import lookup

    first = spec.split("+", 1)[0].strip()
    try:
        entry = lookup(first.partition("=")[0])
    except BitoError:
        return spec  # an unknown name: resolving it says so
    if entry.kind != "modifier" or entry.default_base is None:
        return spec
    played = f"{entry.default_base}+{spec.strip()}"
    _err(_("bito: {rule} is a house rule; playing it on {base}: {played}").format(
        rule=entry.id, base=entry.default_base, played=played))
    return played


def _resolve(spec: str, deck: int | None = None, rules_file: str | None = None) -> Any:
    """Resolve a variant spec (or a house-rules file, which names its own base), its errors
    naming the flag they come from: ``--variant``, ``--rules`` or ``--deck``."""
    try:
        return _resolve_spec(spec, deck, rules_file)
    except RulesError as e:
        raise UsageError(f"{'--rules' if rules_file else '--variant'}: {_one_line(e)}") from None


def _resolve_spec(spec: str, deck: int | None, rules_file: str | None) -> Any:
    """:func:`_resolve` without the flag's name."""
    from bito.games import family_for, is_event
    from bito.rules.house import load_house_rules

    if rules_file is None and is_event(spec):
        raise UsageError(_("{spec} is an event over many games, not one game: run "
                           "`bito tournament --variant GAME`").format(spec=spec))
    if rules_file is not None:
        if spec != "podkidnoy":
            raise UsageError(_("give either --variant or --rules (the file names its base)"))
        spec = load_house_rules(rules_file).spec
    spec = _on_its_base(spec)
    family = family_for(spec)
    if deck is None:
        return family.resolve(spec)
    key = family.deck_option
    if key is None:
        raise UsageError(_("--deck is a Durak option; this game sets its own deck options"))
    alone = family.resolve(spec)
    try:
        return family.resolve(f"{spec}+{key}={deck}")
    except RulesError as e:
        if e.key != key:
            raise
        # the spec sets the deck itself (an option, or a variant with its own deck): name
        # the two places, not the one option the --deck flag is turned into
        raise UsageError(_("--deck {deck} clashes with --variant {spec}, whose {key} is "
                           "{size}: give the deck size once").format(
            deck=deck, spec=spec, key=key,
            size=getattr(alone.rules, key.replace(".", "_"), "?"))) from None


# --- play ---------------------------------------------------------------------------------


def _dummy_seat(rules: PlayRules, players: int) -> int:
    """The seat of a playing dummy (#57), which no person or bot takes; -1 for none."""
    from bito.games import family_for

    return family_for(rules).dummy_seat(rules, players)


def match_verdict(names: Sequence[str], fools: Sequence[int]) -> str:
    """The end of ``bito play --deals N``: who lost the match (the fool most often), or a
    tie, in words."""
    from bito.tui_words import is_you, shown

    most = max(fools)
    if most == 0:
        return _("Nobody was the fool in any deal: the match is drawn.")
    losers = [n for n, k in zip(names, fools, strict=True) if k == most]
    if len(losers) > 1:
        return ngettext("{names} were the fool {n} time each: the match is drawn between them.",
                        "{names} were the fool {n} times each: the match is drawn between "
                        "them.", most).format(
            names=_(" and ").join(_("you") if is_you(n) else shown(n) for n in losers), n=most)
    who = losers[0]
    if is_you(who):
        return ngettext("You were the fool most often ({n} time): you lose the match.",
                        "You were the fool most often ({n} times): you lose the match.",
                        most).format(n=most)
    return ngettext("{name} was the fool most often ({n} time) and loses the match.",
                    "{name} was the fool most often ({n} times) and loses the match.",
                    most).format(name=shown(who), n=most)


def _hinter(seed: int) -> Any:
    """The strong bot's hint helper for a Durak game (``--hint`` and the in-game ``hint``),
    or None where this installation cannot build it."""
    try:
        from bito.bots.hints import Hinter

        return Hinter(seed)
    except (ImportError, ValueError):
        return None


def _printer(color: str) -> Any:
    """The terminal's output (bito.term): colour as ``--color`` says, ASCII cards where the
    output cannot show suits; a one-line notice on stderr when colour was asked for but Rich
    is not installed."""
    from bito.term import Printer

    printer = Printer(color)
    if printer.missing_rich:
        _err(_("bito: --color always needs the 'rich' package (pip install 'bito[term]'); "
               "printing without colour"))
    return printer


#: Bots that search with the compiled playouts when the fast extra is installed.
_SEARCH_BOTS = frozenset({"medium", "strong", "analysis", "search"})


def _prepare_search(bots: Sequence[str], hint: bool, out: Callable[[str], None]) -> None:
    """Load the search bots' compiled playouts and endgame search before the game, saying so
    when any of them is not in numba's cache yet (loading then compiles it, half a minute or
    more), instead of pausing silently on the first move."""
    if not (hint or _SEARCH_BOTS.intersection(bots)):
        return
    from bito import kernel

    if not kernel.available():
        return
    from bito.bots.rollouts import COMPILE_SECONDS, compiled_search_cached, load_kernel_greedy

    if not compiled_search_cached():
        low, high = COMPILE_SECONDS
        out(_("Preparing the fast search: compiling it once for this machine (about {low} to "
              "{high} seconds; later games start at once)...").format(low=low, high=high))
    load_kernel_greedy()


def _family_hinter(seed: int) -> Any:
    """The strong bot's move as a hint, for the games the Durak hinter does not analyse."""
    try:
        from bito.tui_families import strong_hint

        return strong_hint(seed)
    except (ImportError, ValueError):
        return None


def cmd_play(args: argparse.Namespace) -> int:
    from bito.games.durak import new_game, next_match_context
    from bito.tui import TerminalGame, table_seats

    resolved = _resolve(args.variant, args.deck, args.rules)
    rules = resolved.rules
    if args.players is None:  # each game starts at a seat count it accepts (friese_fool: 4)
        args.players = max(2, rules.players_min)
        from bito.games import family_for

        if family_for(rules).seats_partners(rules) and args.players % 2:
            args.players += 1
    _check_players(rules, args.players, resolved.spec)
    if not 0 <= args.seat < args.players:
        raise UsageError(_("--seat must be 0 to {last}, not {seat}").format(
            last=args.players - 1, seat=args.seat))
    dummy = _dummy_seat(rules, args.players)
    if args.seat == dummy:
        raise UsageError(_("seat {seat} is the dummy's (#57): sit anywhere else").format(
            seat=dummy))
    bots = _bot_list(args.bots, args.players - 1 - (dummy >= 0), "opponents")
    save = _check_output("--save", args.save)
    if args.deals < 1:
        raise UsageError(_("--deals must be at least 1"))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    from bito.games import family_for
    from bito.games import new_game as new_family_game

    out = _printer(args.color)
    _prepare_search(bots, args.hint, out)
    match = family_for(rules).match_of_deals
    if not match and args.deals > 1:
        out(_("(--deals is ignored: this game plays its rounds inside one game)"))
        args.deals = 1
    state = (new_game(rules, args.players, seed=seed) if match
             else new_family_game(resolved.spec, args.players, seed=seed))
    seats = table_seats(args.players, args.seat, bots, seed, dummy)
    def hinter() -> Any:
        """The strong bot's hints: the Durak hinter's analysis, or its move elsewhere."""
        return _hinter(seed) if match else _family_hinter(seed)

    fools = [0] * args.players
    for number in range(args.deals):
        path = save
        if save is not None and args.deals > 1:
            path = save.with_name(f"{save.stem}-{number + 1}{save.suffix}")
        if args.deals > 1:
            out("\n" + _("=== Deal {n} of {total} ===").format(n=number + 1, total=args.deals))
        hint = hinter() if args.hint else None
        result = TerminalGame(state, seats, args.seat, output=out, save=path, hint=hint,
                              auto=not args.no_auto, hinter=hinter,
                              spec=resolved.spec).run()
        if not result.finished:
            if result.quit_reason == "interrupted":  # Ctrl-C: saved, then the shell's code
                return EXIT_INTERRUPTED
            break
        outcome = result.game.state.outcome
        if outcome is not None and outcome.loser is not None:
            fools[outcome.loser] += 1
        if args.deals > 1:
            tally = ", ".join(f"{_(seat.name)}: {n}"
                              for seat, n in zip(seats, fools, strict=True))
            if number + 1 < args.deals:
                out(_("Times each player was the fool so far: {tally}.").format(tally=tally))
            else:
                out(_("Times each player was the fool in {n} deals: {tally}.").format(
                    n=args.deals, tally=tally))
                out(match_verdict([seat.name for seat in seats], fools))
        if number + 1 < args.deals:
            state = new_game(rules, args.players, seed=seed + number + 1,
                             match=next_match_context(result.game.state))
    return EXIT_OK


# --- variants -----------------------------------------------------------------------------


def _wrap(text: str, indent: str = "  ") -> str:
    return textwrap.fill(text, width=92, initial_indent=indent, subsequent_indent=indent)


def _value_text(value: Any) -> str:
    if isinstance(value, tuple | list):
        return ",".join(str(v) for v in value) or _("(none)")
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _option_lines(options: dict[str, Any]) -> list[str]:
    from bito.rules import OPTION_SPECS

    lines = []
    for key, value in options.items():
        spec = OPTION_SPECS.get(key)
        helptext = f"  ({option_help(spec.help)})" if spec else ""
        lines.append(f"  {key} = {_value_text(value)}{helptext}")
    return lines


def _describe_variant(v: Any) -> list[str]:
    """The rules of one registry entry in words."""
    from bito.rules import OPTION_SPECS

    lines = [f"{v.id} (#{v.number}): {variant_name(v)}"]
    if len(v.names) > 1:
        lines.append("  " + _("also called: {names}").format(names=", ".join(
            n for n in v.names if n != variant_name(v))))
    kind = _(_kind_words(v))
    lines.append("  " + _("family {family}, {kind}").format(family=v.family, kind=kind)
                 + (_(", based on {base}").format(base=v.base) if v.base else ""))
    lines.append("")
    lines.append(_wrap(summary_text(v)))
    lines.append("")
    described = description_text(v)
    if described == v.description and language() != "en":  # not translated yet: say so
        lines.append("  " + _("In detail (the rules catalogue's text, in English):"))
    lines.append(_wrap(described))
    lines.append("")
    from bito.games import family_for, is_event

    if v.kind == "game" and is_event(v.id):  # #64: many games, run by its own command
        lines.append(_("This is an event over many games, not one game: run it with"))
        lines.append("  bito tournament --variant GAME --entrants N --table N")
        lines.append(_("(`bito tournament --help` lists its options)."))
    elif v.kind == "game":
        family = family_for(v.id)
        options = family.described_options(v.id)
        if not family.lists_changed_options:
            lines.append(_("Options (change one with +key=value):"))
            lines += _option_lines(options)
        elif options:
            lines.append(_("Options that differ from the defaults (podkidnoy):"))
            lines += _option_lines(options)
        else:
            lines.append(_("Options: the defaults (this is the base game)."))
    else:
        if v.applies_to:
            lines.append(_("Applies to: {games}  (stack it on one: {base}+{id}; named alone it "
                           "plays on {base})").format(games=", ".join(v.applies_to),
                                                      base=v.default_base, id=v.id))
        if v.options:
            lines.append(_("Sets:"))
            lines += _option_lines(dict(v.options))
        if v.parameter:
            spec = OPTION_SPECS.get(v.parameter)
            choices = " | ".join(_value_text(c) for c in spec.choices) if spec and \
                spec.choices else _("a value")
            default = (_("; without a value: {value}").format(
                value=_value_text(v.parameter_default)) if v.parameter_default is not None
                else _("; a value is required"))
            lines.append(_("Value: {id}=VALUE sets {option} to {choices}{default}").format(
                id=v.id, option=v.parameter, choices=choices, default=default))
    # v.references cites the catalogue's sources (VARIANTS.md, the seed texts), documents a
    # player does not have: they stay in --json, for the people who keep the catalogue.
    return lines


def _describe_spec(spec: str) -> list[str]:
    """A stacked spec (``perevodnoy+uncapped_after_stock``): the game, each part, the result."""
    from bito.rules import resolve

    r = resolve(spec)
    lines = _describe_variant(r.game)
    for mod, key, value in r.modifiers:
        lines.append("")
        if mod is None:
            lines.append("+ " + _("option {key} = {value}").format(key=key, value=value))
        else:
            lines.append(f"+ {mod.id}" + (f"={value}" if value else "") +
                         f": {summary_text(mod)}")
    lines.append("")
    lines.append(_("Resulting options that differ from the defaults ({spec}):").format(
        spec=spec))
    lines += _option_lines(r.rules.changed_options()) or ["  " + _("(none)")]
    return lines


def _options_json() -> list[dict[str, Any]]:
    from bito.rules import OPTION_SPECS, Rules

    base = Rules()
    out = []
    for spec in OPTION_SPECS.values():
        default = getattr(base, spec.attr)
        out.append({"key": spec.key, "choices": list(spec.choices) if spec.choices else None,
                    "default": list(default) if isinstance(default, tuple) else default,
                    "help": spec.help, "ref": spec.ref})
    return out


def _playable(v: Any) -> bool:
    """Whether the engine plays this variant today (on its first accepted base, for a
    modifier); see bito.rules.options.PENDING."""
    from bito.rules import resolve
    from bito.rules.options import pending_options

    spec = _dealt_spec(v)
    try:
        return not pending_options(resolve(spec).rules)
    except Exception:
        return False


def _dealt_spec(v: Any) -> str:
    """What is dealt for an entry: a game as named; a house rule on its default base, with
    its first value where it needs one (``podkidnoy+next_game_leader=loser``)."""
    spec = v.id if v.kind == "game" else f"{v.default_base}+{v.id}"
    if v.parameter and v.parameter_default is None:
        choices = _choices(v.parameter)
        spec += f"={_value_text(choices[0])}" if choices else ""
    return spec


def _choices(key: str) -> tuple[Any, ...]:
    from bito.rules import OPTION_SPECS

    return OPTION_SPECS[key].choices or ()


def cmd_variants(args: argparse.Namespace) -> int:
    from bito.rules import all_variants, lookup, resolve

    if args.options:
        opts = _options_json()
        if args.json:
            print(json.dumps(opts, ensure_ascii=False, indent=2))
            return EXIT_OK
        for o in opts:
            choices = (" | ".join(_value_text(c) for c in o["choices"]) if o["choices"]
                       else _("a number or list"))
            print(f"{o['key']}  [{choices}]  " + _("default {value}").format(
                value=_value_text(o["default"])))
            ref = f" ({o['ref']})" if o["ref"] and "(#" not in o["help"] else ""
            print(_wrap(f"{option_help(o['help'])}{ref}", "    "))
        return EXIT_OK
    if args.id:
        if "+" in args.id:
            r = resolve(args.id)
            if args.json:
                data = r.game.to_json()
                data["spec"] = args.id
                data["rules"] = {k: list(v) if isinstance(v, tuple) else v
                                 for k, v in r.rules.changed_options().items()}
                print(json.dumps(data, ensure_ascii=False, indent=2))
            else:
                print("\n".join(_describe_spec(args.id)))
            return EXIT_OK
        v = lookup(args.id)
        if args.json:
            data = v.to_json()
            data["description"] = v.description
            data.update({k: x for k, x in _entry_json(v).items() if k not in data})
            from bito.games import is_event

            if v.kind == "game" and not is_event(v.id):
                from bito.games import family_for

                data["rules"] = {k: list(x) if isinstance(x, tuple) else x
                                 for k, x in family_for(v.id).described_options(v.id).items()}
            print(json.dumps(data, ensure_ascii=False, indent=2))
        else:
            print("\n".join(_describe_variant(v)))
        return EXIT_OK
    variants = all_variants()
    if args.json:
        print(json.dumps([_entry_json(v) for v in variants], ensure_ascii=False, indent=2))
        return EXIT_OK
    width = max(len(v.id) for v in variants)
    russian = language() == "ru"
    for v in variants:
        kind = _(_kind_words(v))
        waiting = "  " + _("(not playable yet)") if not _playable(v) else ""
        names = variant_name(v) if russian else " / ".join(v.names)
        seats = _seats_text(v)
        print(f"#{v.number:<3} {v.id:<{width}}  {v.family:<8} {kind:<12} {seats:<13} "
              f"{names}{waiting}")
        print(f"     {summary_text(v)}")
    print()
    print(_(VARIANTS_FOOTER))
    return EXIT_OK


#: The end of ``bito variants``: how games and house rules combine, in words.
VARIANTS_FOOTER = N_("""\
A "game" plays on its own: bito play --variant perevodnoy. A "house rule" changes a game and
is stacked on one with +: bito play --variant perevodnoy+no_trump (several stack:
podkidnoy+no_trump+royal). Named alone, a house rule plays on its usual game, podkidnoy unless
it only fits another (bito play --variant no_trump plays podkidnoy+no_trump). An "event" is
many games: the tournament runs with bito tournament --variant GAME. Options stack the same way
(podkidnoy+deck.size=52). `bito variants ID` prints one entry's rules in words; `bito variants
--options` lists every option.""")


def _seat_range(v: Any) -> tuple[int, int] | None:
    """The seats a game accepts (None for a house rule or an event)."""
    from bito.games import family_for, is_event

    if v.kind != "game" or is_event(v.id):
        return None
    rules = family_for(v.id).rules_for(v.id)
    return int(rules.players_min), int(rules.max_players)


def _seats_text(v: Any) -> str:
    """``2-6 players`` for a game; blank for a house rule (it seats what its game seats)."""
    seats = _seat_range(v)
    if seats is None:
        return ""
    return _("{lo}-{hi} players").format(lo=seats[0], hi=seats[1])


def _kind_words(v: Any) -> str:
    """How an entry is played, in the list's words: game, house rule, or event."""
    from bito.games import is_event

    if v.kind == "modifier":
        return N_("house rule")
    return N_("event") if is_event(v.id) else N_("game")


def _entry_json(v: Any) -> dict[str, Any]:
    """One entry of ``bito variants --json``, saying truthfully how it is played:
    ``plays_alone`` (``bito play --variant ID`` deals it as named), ``plays_as`` (the spec
    that is dealt: a house rule's default base, stacked), ``playable`` (the engine plays it
    today), ``house_rule`` and ``event`` (run by ``bito tournament``, not ``bito play``)."""
    from bito.games import is_event

    event = v.kind == "game" and is_event(v.id)
    house = v.kind == "modifier"
    data = {**v.to_json(), "house_rule": house, "event": event,
            "default_base": v.default_base, "playable": False if event else _playable(v)}
    data["plays_alone"] = v.kind == "game" and not event and data["playable"]
    data["plays_as"] = (_dealt_spec(v) if house and data["playable"] else
                        v.id if data["plays_alone"] else None)
    seats = _seat_range(v)
    data["players"] = list(seats) if seats is not None else None
    data["how_to_play"] = ("bito tournament --variant GAME" if event else
                           f"bito play --variant {data['plays_as']}" if data["plays_as"] else
                           None)
    return data


# --- sim ----------------------------------------------------------------------------------


def column(label: str, width: int) -> int:
    """A table column's width: ``width``, or the label's (translated, it may be longer) and
    two spaces, so the columns stay apart in every language."""
    return max(width, len(label) + 2)


def format_sim(data: dict[str, Any], bots: Sequence[str]) -> str:
    """The readable table for ``bito sim``."""
    games = int(data["games"])
    lines = [ngettext("{variant}, {players} players, {games} game, bots {bots}",
                      "{variant}, {players} players, {games} games, bots {bots} (seats rotate "
                      "every game)", games).format(variant=data["variant"],
                                                  players=data["players"], games=games,
                                                  bots=",".join(bots)), ""]
    heads = (_("bot"), _("seat-games"), _("losses"), _("non-loss rate"))
    w = (column(heads[0], 14) - 2, column(heads[1], 11), column(heads[2], 9),
         column(heads[3], 15))
    lines.append(f"{heads[0]:<{w[0] + 2}}{heads[1]:>{w[1]}}{heads[2]:>{w[2]}}"
                 f"{heads[3]:>{w[3]}}")
    losses = data.get("losses_by_bot", {})
    non_losses = data.get("non_losses_by_bot", {})
    counted = data.get("seat_games_by_bot", {})
    for name in dict.fromkeys(bots):
        seat_games = int(counted.get(name, games * list(bots).count(name)))
        lost = int(losses.get(name, 0))
        share = non_losses.get(name, 1 - lost / seat_games if seat_games else None)
        rate = f"{100 * share:.1f}%" if share is not None else "-"
        lines.append(f"{name:<{w[0] + 2}}{seat_games:>{w[1]}}{lost:>{w[2]}}{rate:>{w[3]}}")
    lines.append("")
    lines.append(_("draws {draws}   mean actions per game {actions}   games per second "
                   "{rate}   errors {errors}").format(
        draws=data["draws"], actions=f"{float(data['mean_actions']):.1f}",
        rate=f"{float(data['games_per_second']):.1f}", errors=data["errors"]))
    if data.get("dummy_losses"):
        lines.append(ngettext("the dummy was the fool in {n} game (nobody's loss; its seat "
                              "counts for no bot, #57)",
                              "the dummy was the fool in {n} games (nobody's loss; its seat "
                              "counts for no bot, #57)", int(data["dummy_losses"])).format(
            n=data["dummy_losses"]))
    return "\n".join(lines)


def cmd_sim(args: argparse.Namespace) -> int:
    resolved = _resolve(args.variant, None, args.rules)
    _check_players(resolved.rules, args.players, resolved.spec)
    from bito.games import family_for

    if args.deals > 1 and not family_for(resolved.rules).match_of_deals:
        raise UsageError(_("--deals is for Durak games; this game plays its rounds inside "
                           "one game (see its rounds option)"))
    if args.games < 1:
        raise UsageError(_("{option} must be at least {n}").format(option="--games", n=1))
    if args.deals < 1:
        raise UsageError(_("--deals must be at least 1"))
    bots = _bot_list(args.bots, args.players, "seats")
    workers = _workers("sim", args.executor, args.workers)
    try:
        from bito.sim import run_sim
    except ImportError as e:
        raise UsageError(_("simulation is not available in this installation ({why})").format(
            why=e)) from None
    bar: ProgressBar | None = None
    progress: Callable[..., None] | None = None
    if not args.no_progress:
        bar = ProgressBar(args.games, sys.stderr)
        progress = bar
    try:
        stats = run_sim(resolved.spec, args.players, args.games, bots, seed=args.seed,
                        progress=progress, deals=args.deals,
                        executor=None if args.executor == "local" and not workers
                        else args.executor, workers=workers)
    finally:
        if bar is not None:
            bar.close()
    data = stats.to_json()
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(format_sim(data, bots))
    if int(data.get("errors", 0)) > 0:
        _err("bito sim: " + ngettext("{n} game raised an error", "{n} games raised an error",
                                     int(data["errors"])).format(n=data["errors"]))
        return EXIT_FAILED
    return EXIT_OK


# --- tournament ---------------------------------------------------------------------------


def cmd_tournament(args: argparse.Namespace) -> int:
    """#64: an elimination event between bots; prints the standings."""
    resolved = _resolve(args.variant, None, None)
    from bito.games import family_for

    if not family_for(resolved.rules).match_of_deals:  # its tables play matches of deals
        raise UsageError(_("a tournament plays a Durak-family game at every table"))
    if args.entrants < 2:
        raise UsageError(_("{option} must be at least {n}").format(option="--entrants", n=2))
    if args.table < 2:
        raise UsageError(_("{option} must be at least {n}").format(option="--table", n=2))
    _check_players(resolved.rules, min(args.table, args.entrants), resolved.spec,
                   "--table" if args.table <= args.entrants else "--entrants")
    from bito.bots import bot_names
    from bito.tournament import run_tournament

    names = bot_names_given(args.bots) or ["heuristic", "random"]
    for name in names:
        if name not in bot_names():
            raise UsageError("--bots: " + _("unknown bot {name} (known: {known})").format(
                name=repr(name), known=", ".join(bot_names())))
    _check_bots_build(names)
    entrants = [names[i % len(names)] for i in range(args.entrants)]
    result = run_tournament(resolved.spec, entrants, table=args.table, seed=args.seed)
    data = result.to_json()
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
        return EXIT_OK
    stages = ngettext("{n} stage", "{n} stages", int(data["stages"])).format(n=data["stages"])
    deals = ngettext("{n} deal", "{n} deals", int(data["deals"])).format(n=data["deals"])
    print(_("Tournament of {variant}: {entrants} entrants, tables of up to {table}, {stages}, "
            "{deals} (seed {seed})").format(
        variant=data["variant"], entrants=data["entrants"], table=data["table_size"],
        stages=stages, deals=deals, seed=data["seed"]))
    print()
    heads = (_("place"), _("entrant"), _("bot"), _("out in stage"))
    w = (column(heads[0], 7) - 2, column(heads[1], 9) - 2, column(heads[2], 12),
         column(heads[3], 12))
    print(f"{heads[0]:>{w[0]}}  {heads[1]:>{w[1]}}  {heads[2]:<{w[2]}}{heads[3]:>{w[3]}}")
    winner = _("winner")
    for row in data["standings"]:
        stage = row["out_in_stage"]
        print(f"{row['place']:>{w[0]}}  {row['entrant']:>{w[1]}}  {row['bot']:<{w[2]}}"
              f"{winner if stage is None else stage:>{w[3]}}")
    return EXIT_OK


# --- replay -------------------------------------------------------------------------------


def _frames(record: Any) -> tuple[list[str], list[str], str]:
    """(move lines, pictures, final result line) for stepping through a record; frame ``i`` is
    the position after ``i`` moves. A censored record shows the seat's censored positions."""
    from bito.tui import result_text

    header = record.header
    players = int(header["players"])
    raw_names = header.get("names") or []
    names = ([str(n) for n in raw_names] if len(raw_names) == players
             else [_("seat {n}").format(n=i) for i in range(players)])
    total = len(record.actions)
    moves = [_("Start of the game (move 0 of {total})").format(total=total)]
    if record.censored_for is not None:
        for i, (seat, action) in enumerate(record.actions, 1):
            moves.append(_("Move {i} of {total}: {move}  ({said})").format(
                i=i, total=total, move=action, said=f"{names[seat]}: {action.pretty()}"))
        pictures = [_("as seat {n} saw it: {view}").format(n=record.censored_for, view=v)
                    for v in record.views]
        o = record.outcome
        result = (result_text(o.get("loser"), bool(o.get("draw")), o.get("order", []), names,
                              str(o.get("reason", "")), o.get("teams") or ())
                  if o else _("End of the record: the game was not finished."))
        return moves, pictures, result
    from bito.games import family_for
    from bito.tui_families import family_frames

    states = record.replay()
    frames = _FAMILY_FRAMES.get(family_for(header["variant"]).name, family_frames)
    return frames(record, states, names, moves)


def _durak_frames(record: Any, states: Sequence[Any], names: Sequence[str], moves: list[str]
                  ) -> tuple[list[str], list[str], str]:
    """``bito replay`` of a Durak record: the terminal's pictures, each move in words."""
    from bito.tui import describe_action, render_full, result_text

    total = len(record.actions)
    for i, (seat, action) in enumerate(record.actions, 1):
        before = states[i - 1]
        if not before.rules.deal_owner_sees_hand:  # #58: a blind play with the card it turned up
            shown = before.action_seen_by(action, None)
            moves.append(f"Move {i} of {total}: {shown}  ({names[seat]}: {shown.pretty()})")
            continue
        said = describe_action(names[seat], action, before.phase)
        moves.append(_("Move {i} of {total}: {move}  ({said})").format(
            i=i, total=total, move=action, said=said))
    pictures = [render_full(st, names) for st in states]
    final = states[-1].outcome
    result = (result_text(final.loser, final.draw, final.order, names, final.reason,
                          final.teams)
              if final is not None
              else _("End of the record: the game was not finished."))
    return moves, pictures, result


#: How ``bito replay`` shows each family's records, by family name (the terminal's renderers
#: live here, above the engines); a family not listed is shown by its states' own text.
_FAMILY_FRAMES: dict[str, Callable[[Any, Sequence[Any], Sequence[str], list[str]],
                                   tuple[list[str], list[str], str]]] = {
    "durak": _durak_frames}


def cmd_replay(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        from bito.record import MAX_RECORD

        with path.open("rb") as f:
            raw = f.read(MAX_RECORD + 1)  # never the whole of a huge file
        if len(raw) > MAX_RECORD:
            raise UsageError(_("{path}: a record is at most {n} bytes").format(path=path,
                                                                            n=MAX_RECORD))
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise UsageError(_("cannot read {path}: not UTF-8 text (byte {n})").format(
            path=path, n=e.start)) from None
    except OSError as e:
        raise UsageError(_("cannot read {path}: {why}").format(
            path=path, why=e.strerror or type(e).__name__)) from None
    try:
        from bito.record import load_record
    except ImportError as e:
        raise UsageError(_("records are not available in this installation ({why})").format(
            why=e)) from None
    try:
        record = load_record(text)
        moves, pictures, result = _frames(record)
    except RecordError as e:
        raise UsageError(_("{path}: malformed record: {why}").format(path=path, why=e)) from None
    except BitoError as e:
        raise UsageError(_("{path}: the record does not replay: {why}").format(
            path=path, why=e)) from None
    out = _printer(args.color)
    h = record.header
    total = len(moves) - 1
    from bito.tui_words import shown

    names = ", ".join(shown(str(n)) for n in h.get("names") or [])
    seed = _(", seed {seed}").format(seed=h["seed"]) if "seed" in h else ""
    out(ngettext("{file}: {variant}, {players} players ({names}){seed}, {total} move",
                 "{file}: {variant}, {players} players ({names}){seed}, {total} moves",
                 total).format(
        file=path.name, variant=h["variant"], players=h["players"], names=names, seed=seed,
        total=total))

    def show(i: int) -> None:
        out(moves[i])
        out(pictures[i])
        if i == total:
            out(result)

    if args.list:
        for line in moves[1:]:
            out(f"  {line}")
    if args.to_end:
        show(total)
        return EXIT_OK
    i = 0
    show(i)
    keys = _("Enter/n next, b back, NUMBER jump, s start, e end, q quit")
    while True:
        try:
            cmd = input(f"[{keys}] > ").strip().lower()
        except EOFError:
            out()
            return EXIT_OK
        except KeyboardInterrupt:  # as every command: Ctrl-C exits 130
            out()
            return EXIT_INTERRUPTED
        if cmd in ("", "n", "next", "f"):
            if i == total:
                out(_("Already at the end."))
                continue
            i += 1
        elif cmd in ("b", "p", "back", "prev"):
            if i == 0:
                out(_("Already at the start."))
                continue
            i -= 1
        elif cmd in ("s", "start"):
            i = 0
        elif cmd in ("e", "end"):
            i = total
        elif cmd.isdigit():
            i = min(int(cmd), total)
        elif cmd in ("q", "quit", "exit"):
            return EXIT_OK
        else:
            out(_("Unknown key {key}: {keys}").format(key=repr(cmd), keys=keys))
            continue
        show(i)


# --- arena --------------------------------------------------------------------------------


def _check_arena_bots(args: argparse.Namespace, bots: Sequence[str]) -> None:
    """The arena's bots and their budget, the same whether it plays a book or its own
    deals: each name known, workers, thinking time and playouts positive."""
    from bito.bots import bot_names

    unknown = [b for b in bots if b not in bot_names()]
    if unknown:
        raise UsageError("--bots: " + _("unknown bot {name} (known: {known})").format(
            name=repr(unknown[0]), known=", ".join(bot_names())))
    positive("--think-ms", args.think_ms)
    at_least("--playouts", args.playouts, 1)
    at_least("--pairs", args.pairs, 1)
    name = args.executor or ("process" if args.workers and args.workers > 1 else "local")
    args.workers = _workers("arena", name, args.workers)


def _check_sprt(args: argparse.Namespace, bots: Sequence[str]) -> None:
    """The SPRT's two hypotheses: numbers, and H1 above H0 (else no game can decide)."""
    finite("--elo0", args.elo0)
    finite("--elo1", args.elo1)
    given = [f for f, v in (("--elo0", args.elo0 != 0.0), ("--elo1", args.elo1 != 35.0)) if v]
    if not args.sprt:
        if given:
            raise UsageError(_("{option} goes with --sprt").format(option=given[0]))
        return
    if args.gauntlet:
        raise UsageError(_("--sprt and --gauntlet are two ways of playing: choose one"))
    if not args.elo1 > args.elo0:
        raise UsageError(_("--elo1 must be greater than --elo0 (got --elo0 {elo0} and --elo1 "
                           "{elo1})").format(elo0=f"{args.elo0:g}", elo1=f"{args.elo1:g}"))


def cmd_arena(args: argparse.Namespace) -> int:
    """``bito arena``: bots against bots on duplicate deals, with ratings and intervals."""
    from bito.arena import run_arena
    from bito.executors import make_executor

    if args.book is not None:
        return _arena_book(args)
    args.variant = args.variant or "podkidnoy"
    args.pairs = 100 if args.pairs is None else args.pairs
    args.players = 2 if args.players is None else args.players
    args.seed = 0 if args.seed is None else args.seed
    resolved = _resolve(args.variant, None, None)
    _check_players(resolved.rules, args.players, resolved.spec)
    bots = [b.strip() for b in (args.bots or "").split(",") if b.strip()]
    if len(bots) < 2:
        raise UsageError(_("--bots needs at least two names, e.g. random,easy,medium,strong"))

    _check_arena_bots(args, bots)
    mode = "sprt" if args.sprt else "gauntlet" if args.gauntlet else "round-robin"
    _check_sprt(args, bots)
    try:  # the tables the mode seats (SPRT and gauntlet need their own number of bots)
        from bito.arena.run import tables_for

        tables_for(bots, args.players, mode)
    except ValueError as e:
        raise UsageError(f"--bots: {e}") from None
    if args.plot and not args.plot.lower().endswith((".png", ".svg")):
        raise UsageError(_("--plot {file}: the file must end in .png or .svg").format(
            file=args.plot))
    _check_output("--plot", args.plot)
    if args.plot:
        _require("matplotlib", "--plot")
    if args.players >= 3:
        _require("openskill", _("rating {n}-player tables (OpenSkill)").format(
            n=args.players))
    _check_bots_build(bots)
    name = args.executor or ("process" if args.workers and args.workers > 1 else "local")
    try:
        executor = make_executor(name, args.workers)
    except (ValueError, ImportError) as e:
        raise UsageError(f"--executor {name}: {e}") from None  # the library's own words
    bar = None if args.no_progress else ProgressBar(1, sys.stderr)
    try:
        result = run_arena(resolved.spec, args.players, bots, args.pairs, seed=args.seed,
                           mode=mode, think_ms=args.think_ms, executor=executor,
                           progress=bar, elo0=args.elo0, elo1=args.elo1,
                           playouts=args.playouts)
    except ValueError as e:
        raise UsageError(str(e)) from None
    finally:
        if bar is not None:
            bar.close()
        executor.close()
    if args.plot:
        from bito.arena.plot import plot_ratings

        unit = _("Elo (random = 0)") if args.players == 2 else "OpenSkill mu"
        plot_ratings(result.ratings(), args.plot,
                     ngettext("{spec}, {players} players, {pairs} deal",
                              "{spec}, {players} players, {pairs} deals", result.pairs).format(
                         spec=resolved.spec, players=args.players, pairs=result.pairs), unit)
    data = result.to_json()
    print(json.dumps(data, ensure_ascii=False) if args.json else result.table_text())
    return EXIT_FAILED if data["errors"] else EXIT_OK


def _arena_book(args: argparse.Namespace) -> int:
    """``bito arena --book NAME --bots B1,...``: each bot against the book's reference
    opponents on its fixed deals (:mod:`bito.arena.book`)."""
    from bito.arena.book import BOOKS, book_table, get_book, score_on_book
    from bito.executors import make_executor

    if args.book == "list":
        for b in BOOKS.values():
            print(f"{b.name:<20} {b.variant}, {b.players} players, {b.deals} deals, against "
                  f"{', '.join(b.opponents)}: {b.note}")
        return EXIT_OK
    try:
        book = get_book(args.book)
    except ValueError as e:
        raise UsageError(f"--book: {e}") from None
    for option, given in (("--variant", args.variant), ("--players", args.players),
                          ("--gauntlet", args.gauntlet or None), ("--sprt", args.sprt or None),
                          ("--plot", args.plot), ("--seed", args.seed)):
        if given is not None:
            raise UsageError(_("{option} does not go with --book: the book fixes the game, the "
                               "deals and the opponents").format(option=option))
    bots = [b.strip() for b in (args.bots or "").split(",") if b.strip()]
    if not bots:
        raise UsageError(_("--bots names the bots to score, e.g. heuristic,dmc"))
    _check_arena_bots(args, bots)
    _check_bots_build([*bots, *book.opponents])
    name = args.executor or ("process" if args.workers and args.workers > 1 else "local")
    try:
        executor = make_executor(name, args.workers)
    except (ValueError, ImportError) as e:
        raise UsageError(f"--executor {name}: {e}") from None
    bar = None if args.no_progress else ProgressBar(1, sys.stderr)
    try:
        scores = score_on_book(book, bots, args.pairs, executor=executor, progress=bar,
                               think_ms=args.think_ms, playouts=args.playouts)
    except ValueError as e:
        raise UsageError(str(e)) from None
    finally:
        if bar is not None:
            bar.close()
        executor.close()
    errors = sum(s.errors for s in scores)
    if args.json:
        print(json.dumps({"book": book.name, "variant": book.variant, "players": book.players,
                          "deals": scores[0].deals, "book_deals": book.deals,
                          "opponents": list(book.opponents), "par": (book.players - 1)
                          / book.players, "scores": [s.to_json() for s in scores],
                          "errors": errors}))
    else:
        print(book_table(book, scores))
    return EXIT_FAILED if errors else EXIT_OK


# --- bench --------------------------------------------------------------------------------


def cmd_bench(args: argparse.Namespace) -> int:
    from bito.bench import format_table, run_bench

    at_least("--games", args.games, 1)
    positive("--seconds", args.seconds)
    at_least("--repeat", args.repeat, 1)
    at_least("--verify", args.verify, 1)
    for n in args.envs or ():
        at_least("--envs", n, 1)
    if args.envs and not args.vector:
        raise UsageError(_("--envs goes with --vector"))
    if args.workers is not None and args.verify is None:
        raise UsageError(_("--workers goes with --verify"))
    args.workers = capped_workers("bench", "--workers", args.workers)
    if args.engine:  # every engine named is known before the first is timed
        from bito.bench import engine_names

        unknown = [e for e in args.engine if e not in engine_names()]
        if unknown:
            raise UsageError(_("--engine {name}: unknown engine (known: {known})").format(
                name=unknown[0], known=", ".join(engine_names())))

    def progress(row: dict[str, Any]) -> None:
        if not args.json:
            _err(f"  {row['name']} ({row['engine']}): "
                 + _("{rate} games/s").format(rate=f"{row['games_per_second']:.1f}"))

    if args.verify is not None:
        return _bench_verify(args)
    if args.vector:
        return _bench_vector(args)
    try:
        report = run_bench(games=args.games, seconds=args.seconds, seed=args.seed,
                           engines=args.engine or ["reference"], progress=progress,
                           repeat=args.repeat)
    except ValueError as e:
        raise UsageError(str(e)) from None
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        print(format_table(report))
    return EXIT_OK


def _bench_vector(args: argparse.Namespace) -> int:
    """``bito bench --vector``: the compiled vector environment's learner steps per second over
    N, beside the single environment's (:mod:`bito.env.vector_bench`)."""
    _require("numpy", "--vector")
    _require("numba", "--vector")
    _require("gymnasium", "--vector")
    from bito.env.vector_bench import DEFAULT_ENVS, format_vector_bench, run_vector_bench

    envs = args.envs or list(DEFAULT_ENVS)
    try:
        report = run_vector_bench(envs, seconds=args.seconds or 1.0)
    except ValueError as e:
        raise UsageError(str(e)) from None
    print(json.dumps(report) if args.json else format_vector_bench(report))
    return EXIT_OK


def _bench_verify(args: argparse.Namespace) -> int:
    """``bito bench --verify N``: the kernel against the reference engine, move by move."""
    from bito.bench import format_verify, run_verify
    from bito.kernel import available

    if not available():
        raise UsageError(_("--verify needs the kernel: pip install 'bito[fast]'"))
    from bito.kernel.verify import VERIFIED

    bar = None if args.json else ProgressBar(args.verify * len(VERIFIED), sys.stderr)
    try:
        report = run_verify(args.verify, seed=args.seed,
                            executor="process" if args.workers else "local",
                            workers=args.workers, progress=bar)
    except ValueError as e:
        raise UsageError(str(e)) from None
    finally:
        if bar is not None:
            bar.close()
    print(json.dumps(report, ensure_ascii=False) if args.json else format_verify(report))
    if report["disagreements"]:
        _err("bito bench --verify: " + ngettext(
            "{n} game disagrees", "{n} games disagree", int(report["disagreements"])).format(
            n=report["disagreements"]))
        return EXIT_FAILED
    return EXIT_OK


# --- serve --------------------------------------------------------------------------------


def _check_serve(args: argparse.Namespace) -> None:
    """``bito serve``'s numbers and names, each refused by its flag before the server starts
    (the server's own start-up, the database and the port, is bito.server's)."""
    if not 1 <= args.port <= 65535:
        raise UsageError(_("--port must be 1 to 65535, not {port}").format(port=args.port))
    positive("--timer", args.timer)
    finite("--bot-delay", args.bot_delay)
    if args.bot_delay < 0:
        raise UsageError(_("{option} must not be negative").format(option="--bot-delay"))
    at_least("--timeouts-to-bot", args.timeouts_to_bot, 1)
    at_least("--tables-per-hour", args.tables_per_hour, 1)
    positive("--bot-time-cap", args.bot_time_cap)
    positive("--ready-timeout", args.ready_timeout)
    positive("--session-days", args.session_days)
    at_least("--spectators-per-table", args.spectators_per_table, 0)
    at_least("--spectators-per-address", args.spectators_per_address, 0)
    at_least("--bot-workers", args.bot_workers, 0)
    if args.bot_workers:  # 0: the server's own choice, one per core but one
        args.bot_workers = capped_workers("serve", "--bot-workers", args.bot_workers)
    if args.bot_levels is not None:
        from bito.bots import bot_names

        names = bot_names_given(args.bot_levels, "--bot-levels") or []
        unknown = [n for n in names if n not in bot_names()]
        if unknown:
            raise UsageError("--bot-levels: " + _("unknown bot {name} (known: {known})").format(
                name=repr(unknown[0]), known=", ".join(bot_names())))


def _checked_serve(start: Callable[[argparse.Namespace], int]
                   ) -> Callable[[argparse.Namespace], int]:
    """``bito serve``: the flags checked here, then the server started by bito.server."""
    def serve(args: argparse.Namespace) -> int:
        _check_serve(args)
        return start(args)

    return serve


# --- the parser ---------------------------------------------------------------------------


class TranslatedHelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Help that speaks the chosen language: every option's help, description and epilog is
    looked up in the catalogue when it is shown, so a module that builds its own options
    (``bito serve``'s, in bito.server) needs no call of ``_`` of its own (tools/i18n.py
    extracts argparse's ``help=``/``description=`` texts wherever they are written)."""

    def add_text(self, text: str | None) -> None:
        if text and text != argparse.SUPPRESS:
            head, sep, commands = text.partition("\n")
            # an epilog of examples: its heading is a word, the commands are typed as they are
            text = _(head) + sep + commands if head == "examples:" else _(text)
        super().add_text(text)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        # argparse's documented hook for changing a help text (ArgumentDefaultsHelpFormatter)
        text = super()._get_help_string(action)
        return _(text) if text and text != argparse.SUPPRESS else text


def build_parser() -> argparse.ArgumentParser:
    fmt = TranslatedHelpFormatter
    p = argparse.ArgumentParser(
        prog="bito", formatter_class=fmt,
        description=_("Durak and its family of card games: play, simulate, replay, "
                      "benchmark."),
        epilog=_("examples:") + "\n  bito play\n  bito play --variant perevodnoy --players 3\n"
               "  bito variants\n  bito sim --variant podkidnoy --players 2 --games 1000 "
               "--bots heuristic,random\n  bito replay game.jsonl\n  bito bench")
    p.add_argument("--version", action="version", version=f"bito {__version__}")
    p.add_argument("--lang", choices=LANGUAGES, help=LANG_HELP)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser(
        "play", help=_("play against bots in the terminal"), formatter_class=fmt,
        description=_("Play a game against bots in the terminal. Type a move by its number or "
                      "in notation (6h, Th>6h, =6s, take, pass); 'help' explains, 'quit' "
                      "leaves (saving with --save)."),
        epilog=_("examples:") + "\n  bito play\n  bito play --variant perevodnoy --players 3 "
               "--bots heuristic,random\n  bito play --deck 52 --players 8 --seed 7 "
               "--save game.jsonl\n  bito play --variant podkidnoy+throw_in.by=neighbours")
    play.add_argument("--variant", default="podkidnoy", metavar="SPEC",
                      help=_("variant spec, e.g. podkidnoy, perevodnoy+uncapped_after_stock "
                           "(see `bito variants`; default podkidnoy)"))
    play.add_argument("--rules", metavar="FILE",
                      help=_("a house-rules TOML file (base variant + options; see "
                           "docs/variants.md)"))
    play.add_argument("--players", type=int, default=None, metavar="N",
                      help=_("number of players (default: 2, or the fewest the game seats; "
                             "`bito variants` lists each game's range)"))
    play.add_argument("--deck", type=int, choices=(24, 32, 36, 52),
                      help=_("deck size (sets the option deck.size)"))
    play.add_argument("--bots", metavar="A,B,...",
                      help=_("bot per opponent seat, in seat order; one name fills every seat "
                           "(default heuristic if installed, else random)"))
    play.add_argument("--seed", type=int, help=_("deal seed (default: a random one, printed)"))
    play.add_argument("--seat", type=int, default=0, metavar="N",
                      help=_("your seat (default 0)"))
    play.add_argument("--deals", type=int, default=1, metavar="N",
                      help=_("play a match of N deals: the fool deals next and the first "
                           "attacker follows next_game_leader (default 1)"))
    play.add_argument("--save", metavar="FILE",
                      help=_("write the game record here at the end (also if you quit)"))
    play.add_argument("--hint", action="store_true",
                      help=_("before each of your moves, show what the strong bot would play "
                           "and its estimated chance of not being the fool per move"))
    play.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                      help=_("colour the cards: auto (a terminal, unless NO_COLOR is set), "
                           "always or never; needs the term extra (rich). Cards print as Th, "
                           "7d where the output cannot show suit symbols (default auto)"))
    play.add_argument("--no-auto", action="store_true",
                      help=_("ask for every move, even when it is your only legal one (by "
                           "default a forced move is played for you, with a notice)"))
    play.set_defaults(func=cmd_play)

    var = sub.add_parser(
        "variants", help=_("list variants, or show one's rules"), formatter_class=fmt,
        description=_("List every registered variant and house rule, or print one's rules."),
        epilog=_("examples:") + "\n  bito variants\n  bito variants perevodnoy\n"
               "  bito variants 'perevodnoy+uncapped_after_stock'\n  bito variants --json\n"
               "  bito variants --options")
    var.add_argument("id", nargs="?", metavar="ID",
                     help=_("a variant id, name or alias, or a spec with +modifiers"))
    var.add_argument("--json", action="store_true", help=_("print JSON"))
    var.add_argument("--options", action="store_true",
                     help=_("list every rules option with its allowed values and help"))
    var.set_defaults(func=cmd_variants)

    sim = sub.add_parser(
        "sim", help=_("play bot games headless and count results"), formatter_class=fmt,
        description=_("Play bot-vs-bot games with seats rotating every game; report losses per "
                      "bot, draws, mean actions, speed and errors (exit 1 if any game raised)."),
        epilog=_("examples:") + "\n  bito sim --variant podkidnoy --players 2 --games 2000 "
               "--bots heuristic,random\n  bito sim --variant perevodnoy --players 4 "
               "--games 100 --bots random --json")
    sim.add_argument("--variant", default="podkidnoy", metavar="SPEC",
                     help=_("variant spec (default podkidnoy)"))
    sim.add_argument("--rules", metavar="FILE", help=_("a house-rules TOML file instead of "
                       "--variant"))
    sim.add_argument("--players", type=int, default=2, metavar="N", help=_("players (default 2)"))
    sim.add_argument("--games", type=int, default=100, metavar="K",
                     help=_("games to play (default 100)"))
    sim.add_argument("--bots", metavar="B1,B2,...",
                     help=_("one bot per seat, or one name for all (default heuristic or random)"))
    sim.add_argument("--seed", type=int, default=0, help=_("first deal seed (default 0)"))
    sim.add_argument("--deals", type=int, default=1, metavar="N",
                     help=_("play matches of N deals: the fool deals next and the first "
                            "attacker follows next_game_leader (default 1)"))
    sim.add_argument("--json", action="store_true", help=_("print one JSON object"))
    sim.add_argument("--no-progress", action="store_true", help=_("no progress bar on stderr"))
    sim.add_argument("--executor", choices=("local", "process", "ray"), default="local",
                     help=_("where the games run: this process, a process pool, or Ray (the "
                            "cluster in RAY_ADDRESS, else a local instance); same results "
                            "for the same seed (default local)"))
    sim.add_argument("--workers", type=int, metavar="N",
                     help=_("workers for --executor process/ray (default: all CPUs)"))
    sim.set_defaults(func=cmd_sim)

    tour = sub.add_parser(
        "tournament", help=_("an elimination tournament between bots (#64)"), formatter_class=fmt,
        description=_("Seat the entrants at tables, play one deal per table, eliminate every "
                      "table's fool; repeat until one player is left. Prints the standings."),
        epilog=_("examples:") + "\n  bito tournament --entrants 16 --table 4\n"
               "  bito tournament --variant perevodnoy --entrants 9 --table 3 "
               "--bots heuristic,random --json")
    tour.add_argument("--variant", default="podkidnoy", metavar="SPEC",
                      help=_("the game played at every table (default podkidnoy)"))
    tour.add_argument("--entrants", type=int, default=16, metavar="N",
                      help=_("players entering (default 16)"))
    tour.add_argument("--table", type=int, default=4, metavar="N",
                      help=_("most players at one table (default 4)"))
    tour.add_argument("--bots", metavar="A,B,...",
                      help=_("bot names, given to the entrants in turn (default heuristic,random)"))
    tour.add_argument("--seed", type=int, default=0, help=_("seed of the whole event (default 0)"))
    tour.add_argument("--json", action="store_true", help=_("print one JSON object"))
    tour.set_defaults(func=cmd_tournament)

    arena = sub.add_parser(
        "arena", help=_("rate bots against each other on duplicate deals"), formatter_class=fmt,
        description=_("Round-robin (default), gauntlet or SPRT between bots. Every deal is played "
                      "once per seat rotation (duplicate deals); draws count 1/2. Ratings: Elo "
                      "anchored at random = 0 for two players, OpenSkill for more; 95% "
                      "intervals throughout. Exit 1 if any game raised."),
        epilog=_("examples:") + "\n  bito arena --bots random,easy,medium,strong --pairs 100 "
               "--plot ladder.svg\n  bito arena --bots heuristic,random --pairs 2000 "
               "--workers 2 --json\n  bito arena --bots easy,strong --sprt --pairs 2000\n"
               "  bito arena --players 4 --bots strong,easy,easy,easy --pairs 200\n"
               "  bito arena --book podkidnoy-2p-v1 --bots heuristic,dmc --pairs 200")
    arena.add_argument("--variant", metavar="SPEC",
                       help=_("variant spec (default podkidnoy)"))
    arena.add_argument("--players", type=int, metavar="N",
                       help=_("players per table (default 2)"))
    arena.add_argument("--bots", metavar="B1,B2,...",
                       help=_("the bots (levels easy, medium, strong, analysis; or any bot "
                              "name); repeat a name to seat it twice at a table of 3 or more"))
    arena.add_argument("--pairs", type=int, metavar="N",
                       help=_("duplicate deals per table (each played in every seat rotation; "
                              "the most pairs with --sprt; default 100)"))
    arena.add_argument("--book", metavar="NAME",
                       help=_("score each of --bots against the reference opponents on the "
                              "first --pairs deals (default all) of a fixed book of deals; "
                              "--book list shows the books"))
    arena.add_argument("--gauntlet", action="store_true",
                       help=_("the first bot against each of the others (two players)"))
    arena.add_argument("--sprt", action="store_true",
                       help=_("with --bots A,B: play pairs until the SPRT says whether B is "
                              "stronger than A"))
    arena.add_argument("--elo0", type=float, default=0.0,
                       help=_("SPRT H0: B is this many Elo better (default 0)"))
    arena.add_argument("--elo1", type=float, default=35.0,
                       help=_("SPRT H1: B is this many Elo better (default 35)"))
    arena.add_argument("--think-ms", type=float, metavar="MS",
                       help=_("time per decision for the search bots (default: each level's)"))
    arena.add_argument("--playouts", type=int, metavar="N",
                       help=_("playouts per decision for the search bots, with no clock unless "
                              "--think-ms is given too: the games then do not depend on the "
                              "machine's speed or load"))
    arena.add_argument("--seed", type=int, help=_("deal seed (default 0)"))
    arena.add_argument("--workers", type=int, metavar="N",
                       help=_("worker processes (more than 1 uses a process pool)"))
    arena.add_argument("--executor", choices=("local", "process", "ray"),
                       help=_("where the games run (default: local, or process with --workers)"))
    arena.add_argument("--plot", metavar="FILE.png|FILE.svg",
                       help=_("write the ratings with their intervals as a plot"))
    arena.add_argument("--json", action="store_true", help=_("print one JSON object"))
    arena.add_argument("--no-progress", action="store_true", help=_("no progress bar on stderr"))
    arena.set_defaults(func=cmd_arena)

    rep = sub.add_parser(
        "replay", help=_("step through a saved game"), formatter_class=fmt,
        description=_("Step through a game record: Enter or n for the next move, b back, a "
                      "number to jump, s/e start/end, q to quit."),
        epilog=_("examples:") + "\n  bito replay game.jsonl\n  bito replay game.jsonl --to-end\n"
               "  bito replay game.jsonl --list --to-end")
    rep.add_argument("file", metavar="FILE", help=_("a record written by `bito play --save`"))
    rep.add_argument("--to-end", action="store_true",
                     help=_("print the final position and result without interaction"))
    rep.add_argument("--list", action="store_true", help=_("print every move first"))
    rep.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                     help=_("colour the cards, as for play (default auto)"))
    rep.set_defaults(func=cmd_replay)

    bench = sub.add_parser(
        "bench", help=_("measure random-game speed on one core"), formatter_class=fmt,
        description=_("Random-vs-random full games per second (deal included) and mean actions "
                      "per game for podkidnoy 2p, podkidnoy 4p and perevodnoy 2p."),
        epilog=_("examples:") + "\n  bito bench\n  bito bench --seconds 10 --json\n"
               "  bito bench --games 200\n  bito bench --games 3000 --repeat 9\n"
               "  bito bench --vector --envs 1 256 4096 --json")
    bench.add_argument("--games", type=int, metavar="N", help=_("games per case"))
    bench.add_argument("--seconds", type=float, metavar="S",
                       help=_("time per case (default 2 s when --games is not given)"))
    bench.add_argument("--seed", type=int, default=0, help=_("first deal seed (default 0)"))
    bench.add_argument("--engine", action="append", metavar="NAME",
                       help=_("engine to measure (repeatable; default reference)"))
    bench.add_argument("--repeat", type=int, default=1, metavar="K",
                       help=_("measure every case K times, in rounds, and report the median run "
                              "with every run's rate (for a machine whose speed wanders)"))
    bench.add_argument("--json", action="store_true", help=_("print one JSON object"))
    bench.add_argument("--verify", type=int, metavar="N",
                       help=_("instead of timing: play N random games per base game with random "
                              "options on the reference engine and check the kernel agrees on "
                              "every legal-action set and transition (exit 1 if not)"))
    bench.add_argument("--workers", type=int, metavar="N",
                       help=_("with --verify: worker processes (default: this process)"))
    bench.add_argument("--vector", action="store_true",
                       help=_("instead: learner steps per second of the compiled vector "
                              "environment at each --envs N, beside the single environment's "
                              "(--seconds per row, default 1)"))
    bench.add_argument("--envs", type=int, nargs="+", metavar="N",
                       help=_("with --vector: the env counts (default 1 16 256 1024 4096)"))
    bench.set_defaults(func=cmd_bench)

    # the sweep's options and its handler live in bito.sweep
    from bito import sweep as sweep_module

    sweep = sub.add_parser(
        "sweep", help=_("random games over every variant, checked at every step"),
        formatter_class=fmt,
        description=_("Random games over every registered game, house rule, seat count and "
                      "option stack, checked at every step, so that every variant survives "
                      "every move."),
        epilog=_("examples:") + "\n  bito sweep\n  bito sweep --games 100000 --jobs 2 --json\n"
               "  bito sweep --only 'podkidnoy+joker_gift*' --seconds 60")
    sweep_module.add_arguments(sweep)
    sweep.set_defaults(func=sweep_module.command)

    # `bito review`: its options and its handler live in bito.review
    from bito.review import add_review_parser

    add_review_parser(sub, fmt)

    from bito.server.serve import add_serve_parser

    add_serve_parser(sub, fmt)
    serve = sub.choices["serve"]
    serve.set_defaults(func=_checked_serve(serve.get_default("func")))
    for command in sub.choices.values():  # --lang after the command too: bito play --lang ru
        command.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS,
                             help=LANG_HELP)
    return p


#: argparse's own words (it reads them through gettext's default domain, which has no
#: Russian), for the help of every command.
ARGPARSE_WORDS = (N_("usage: "), N_("options"), N_("positional arguments"),
                  N_("show this help message and exit"),
                  N_("show program's version number and exit"),
                  N_("%(prog)s: error: %(message)s\n"),
                  # its error sentences (a wrong choice, a missing or unknown argument...)
                  N_("argument %(argument_name)s: %(message)s"),
                  N_("invalid choice: %(value)r (choose from %(choices)s)"),
                  N_("invalid %(type)s value: %(value)r"),
                  N_("the following arguments are required: %s"),
                  N_("unrecognized arguments: %s"),
                  N_("expected one argument"),
                  N_("expected at most one argument"),
                  N_("expected at least one argument"),
                  N_("ambiguous option: %(option)s could match %(matches)s"),
                  N_("not allowed with argument %s"),
                  N_("ignored explicit argument %r"),
                  N_("one of the arguments %s is required"),
                  N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
                  N_("unexpected option string: %s"),
                  N_("can't open '%(filename)s': %(error)s"))


def _argparse_words() -> None:
    """Let argparse say its own words (``usage:``, ``options``) from our catalogue."""
    argparse._ = _  # type: ignore[attr-defined]  # argparse looks ``_`` up when it speaks
    argparse.ngettext = ngettext  # type: ignore[attr-defined]


def _can_show(text: str) -> bool:
    """Whether stdout's encoding has these characters."""
    try:
        text.encode(getattr(sys.stdout, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _tolerant_output() -> None:
    """Card suits are non-ASCII; never crash on a terminal or pipe that cannot show them."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="replace")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``bito`` command; returns the exit code (the console script exits with it)."""
    _tolerant_output()
    args_given = sys.argv[1:] if argv is None else list(argv)
    chosen = lang_from_argv(args_given)
    set_language(chosen if chosen in LANGUAGES else language_from_env())
    if language() != "en" and not _can_show("Дурак"):
        # an ASCII terminal would show every Russian letter as '?': English, said once
        set_language("en")
        _err("bito: this terminal cannot show Russian letters; speaking English")
    if language() != "en":
        _argparse_words()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else EXIT_USAGE
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        result: int = args.func(args)
        return result
    except (UsageError, BitoError) as e:  # the one error path: one line, exit 2
        from bito.tui_words import engine_words  # the rules' refusals, said in the language

        _err(f"bito {args.command}: " + _("error: {why}").format(
            why=engine_words(_one_line(e))))
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_OK
    except ImportError as e:  # an optional package a choice needs: name it and its extra
        _err(f"bito {args.command}: " + _("error: {why}").format(why=_missing_extra(e)))
        return EXIT_USAGE
    except KeyboardInterrupt:
        _err(f"bito {args.command}: " + _("interrupted"))
        return EXIT_INTERRUPTED
    except Exception as e:  # a bug of ours: still one line, and a way to see more
        if os.environ.get("BITO_TRACEBACK"):
            raise
        _err(f"bito {args.command}: " + _("internal error: {error} (please report it; "
                                          "BITO_TRACEBACK=1 shows the traceback)").format(
            error=f"{type(e).__name__}: {_one_line(e)}"))
        return EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
