"""What a player reads at the terminal (issue 33 item 3): no citation of the rules' sources
or sections, no developers' notes, help that matches each game, and the news a player needs.

* Every message catalogue entry (both languages, both domains) is free of the internal
  patterns: a source's line citation (``S3:25-28``), a catalogue section (``§4.1``), "NOT
  FROM THE SEEDS", a module path (``bito.rules.options.OPTION_SPECS``).
* A short sweep over every game: every card of the hand of the seat to act, typed as a move
  (and as a cover of each card on a Durak table), is read and played; each refusal, as the
  terminal says it, is free of those patterns too, and never names the rule's internal key
  in front (``suit call: ...``).
* Each family's help plays its own examples: the moves it offers "for example" are legal
  where the help is asked for, and the examples written in its text read as moves of the
  game and put down no more cards than the game's moves do (Cheat's help once showed
  ``7h+7s``, a move the game refuses: its cards go down one at a time).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from bito.cards import card_str, cards_of
from bito.errors import BitoError, IllegalActionError
from bito.games.family import family_for
from bito.rules.registry import all_variants
from bito.tui import TerminalGame, explain_for_you, result_text, table_seats
from bito.tui_families import FAMILY_HELP, family_help, outcome_line
from bito.tui_words import INTERNAL, OPTION_KEY, refusal_words

RULE_KEYS = ("suit call", "priority", "follow colour", "own cards", "English ace", "one card",
             "not allowed", "must play", "match", "claim size", "empty claim")
"""Rule names the families' engines give their refusals: the engine's keys, never said."""
LOCALE = Path(__file__).resolve().parents[2] / "src" / "bito" / "locale"
GAMES = sorted(v.id for v in all_variants() if v.kind == "game" and v.family != "meta"
               and (v.family != "durak" or v.id in ("podkidnoy", "perevodnoy", "team_fool",
                                                     "simple", "estonian")))


def _po_texts(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    out = []
    for block in re.findall(r'(?:msgid|msgstr(?:\[\d\])?) ((?:"(?:[^"\\]|\\.)*"\s*)+)', text):
        out.append("".join(re.findall(r'"((?:[^"\\]|\\.)*)"', block)))
    return out


def test_no_catalogue_entry_cites_the_sources_or_the_code() -> None:
    files = sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))
    assert len(files) >= 4
    bad = [(f.parent.parent.name, t[:90]) for f in files for t in _po_texts(f)
           if INTERNAL.search(t)]
    assert bad == []


def _said(state: Any, text: str) -> str | None:
    """What the terminal says when ``text`` is typed in ``state`` (None: the move plays):
    the families' screen itself, fed the text, for the families; the Durak screen's
    explanation for Durak."""
    family = family_for(state)
    seat = state.to_act
    if family.name != "durak":
        lines: list[str] = []
        answers = iter([text, "quit"])
        seats = table_seats(state.players, seat, ["random"] * (state.players - 1), 0)
        TerminalGame(state, seats, seat, input_fn=lambda _: next(answers),
                     output=lines.append, auto=False).run()
        refusals = [line for line in lines if line.startswith("Not a move here")]
        return refusals[0] if refusals else None
    try:
        action = family.parse_action(text)
        state.apply(action)
    except IllegalActionError as e:
        try:
            return explain_for_you(state, action, seat)
        except BitoError:
            return refusal_words(e.detail, e.rule)
    except BitoError as e:
        return refusal_words(" ".join(str(getattr(e, "reason", "") or e).split()))
    return None


def _typed(state: Any) -> list[str]:
    view = state.view(state.to_act)
    hand = getattr(view, "hand", 0)
    if family_for(state).name == "tricks":
        from bito.games.tricks.fool import card_text

        return [card_text(c) for c in cards_of(hand)]
    cards = [card_str(c) for c in cards_of(hand)]
    table = [card_str(c) for c in getattr(view, "attack", ()) if c >= 0]
    return cards + [f"{c}>{t}" for c in cards[:4] for t in table] + ["take", "pass", "draw"]


@pytest.mark.parametrize("spec", GAMES)
def test_no_refusal_a_player_reads_cites_the_sources(spec: str) -> None:
    family = family_for(spec)
    rules = family.rules_for(spec)
    players = 4 if family.seats_partners(rules) else max(rules.players_min, 3)
    players = min(players, rules.max_players)
    refused = 0
    for seed in range(2):
        state = family.new_game(spec, players, seed=seed)
        rng = random.Random(seed)
        for step in range(60):
            if state.is_over:
                break
            if step % 6 == 0:
                for text in _typed(state):
                    said = _said(state, text)
                    if said is None:
                        continue
                    refused += 1
                    assert not INTERNAL.search(said), (spec, text, said)
                    assert not any(f"{key}:" in said for key in RULE_KEYS), (spec, said)
            state = state.apply(rng.choice(state.legal_actions()))
    assert refused > 0  # the sweep did meet refusals


FAMILY_SPECS = {"maumau": "czech_fool", "adjacent": "ontoys_adjacent_rank", "fool": "friese_fool",
                "animal": "animal_sounds", "cheat": "believe_not_believe_2",
                "chinese": "chinese", "bouts": "heaped"}


def test_every_help_of_the_terminal_is_checked_here() -> None:
    assert set(FAMILY_HELP) == set(FAMILY_SPECS)


def _examples(help_text: str) -> list[str]:
    said = re.search(r"for example: (.*)\.", help_text)
    assert said, help_text
    return [part.split(" (")[0] for part in said.group(1).split("), ")]


@pytest.mark.parametrize("key,spec", sorted(FAMILY_SPECS.items()))
def test_each_help_plays_its_own_examples(key: str, spec: str) -> None:
    family = family_for(spec)
    rules = family.rules_for(spec)
    players = max(rules.players_min, 3) if rules.max_players >= 3 else 2
    widest = 0
    static: list[str] = []
    for seed in range(3):
        state = family.new_game(spec, players, seed=seed)
        rng = random.Random(seed)
        for _ in range(80):
            if state.is_over:
                break
            legal = state.legal_actions()
            widest = max([widest, *(len(getattr(a, "cards", ())) for a in legal)])
            text = family_help(state)
            for example in _examples(text):
                assert family.parse_action(example) in legal, (spec, example)
            static = re.findall(r"e\.g\.\s+([^\s,;.)]+)|: ([^\s,;]+=[a-z])\b|: (\S+>\S+);",
                                text.split("for example:")[0])
            state = state.apply(rng.choice(legal))
    written = [next(g for g in groups if g) for groups in static]
    assert written, "the help shows how a move is typed"
    for example in written:
        action = family.parse_action(example)  # reads as a move of this game
        assert len(getattr(action, "cards", ())) <= max(widest, 1), (spec, example)


@pytest.mark.parametrize("spec", GAMES)
def test_the_result_a_player_reads_names_no_option_key(spec: str) -> None:
    """A game's end in words (a draw by an end rule included) cites no source and names no
    option key in brackets (``no fool (end.idle_bouts)``)."""
    family = family_for(spec)
    rules = family.rules_for(spec)
    players = 4 if family.seats_partners(rules) else rules.players_min
    names = [f"P{i}" for i in range(players)]
    for seed in range(3):
        state = family.new_game(spec, players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
        o = state.outcome
        said = (result_text(o.loser, o.draw, o.order, names, o.reason, o.teams)
                if family.name == "durak" else outcome_line(o, names))
        assert not INTERNAL.search(said) and not OPTION_KEY.search(said), said


@pytest.mark.parametrize("takes", ["nobody_laughed", "somebody_laughed", "laugher"])
def test_the_animal_sounds_help_names_who_really_picks_up(takes: str) -> None:
    """#60 A1 (``animal.takes_pile``): the help says who picks the pile up, and in play that
    is who does: the player who made the sound, or the first to laugh."""
    spec = f"animal_sounds+animal.takes_pile={takes}"
    family = family_for(spec)
    takers: set[str] = set()
    for seed in range(6):
        state = family.new_game(spec, 3, seed=seed)
        rng = random.Random(seed)
        while not state.is_over and len(takers) < 2:
            before = state
            action = rng.choice(state.legal_actions())
            state = state.apply(action)
            if before.pile and not state.pile:
                grew = [s for s in range(3) if state.hands[s].bit_count()
                        > before.hands[s].bit_count()]
                if before.skipper in grew:
                    takers.add("skipper")
                elif action.kind == "laugh" and before.to_act in grew:
                    takers.add("laugher")
    help_text = " ".join(family_help(family.new_game(spec, 3, seed=0)).split())
    assert takers, "nobody picked the pile up"
    says_skipper = "the player who made the sound takes the pile" in help_text
    says_laugher = "laughs first takes the pile" in help_text
    assert says_skipper == ("skipper" in takers) and says_laugher == ("laugher" in takers), (
        takers, help_text)
