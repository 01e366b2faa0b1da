"""A position is a game like any other: ``parse_position`` refuses exactly the rule sets and
seat counts ``new_game`` refuses (``setup.check_game``, one function for both), and a position
read without ``defender=`` opens the bout at the seat the engine itself would attack after a
bout (docs/variants.md, "Where rules meet: refused combinations and positions").
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bito.errors import InvalidNotationError, RulesError
from bito.games.durak import new_game
from bito.games.durak.teams import played_seat
from bito.rules import all_variants
from conftest import P, position_text

#: Rule mixes new_game refuses (each checked against new_game below, not assumed).
REFUSED = [
    ("perevodnoy+team.layout=opposite", 4),  # #54 with transfers: onto a partner
    ("double_fool", 3),  # #54: partners need an even table of at least 4
    ("team_fool", 5),  # #55 likewise
    ("podkidnoy+defense.face_down=true", 2),  # #59 with throw-ins
    ("perevodnoy+defense.face_down=true+throw_in.enabled=false", 2),  # #59 with transfers
    ("believe_not_believe+counter_throw", 2),  # #59 with #49
    ("podkidnoy+blind_face_out+joker_gift", 2),  # #58 with #24
    ("podkidnoy+tossing_dummy", 6),  # #56: seven hands of six from 36 cards
    ("podkidnoy+playing_dummy+dummy.seat=4", 3),  # #57: no such seat
]


def bare(spec: str, players: int) -> str:
    """The smallest position text for a table of ``players`` (empty hands)."""
    return f"{spec} players={players} trump=6h stock=6h hands={'/'.join(['-'] * players)}"


@pytest.mark.parametrize(("spec", "players"), REFUSED)
def test_a_position_new_game_refuses_is_refused_naming_the_same_key(
        spec: str, players: int) -> None:
    """GUIDE §3 (positions set up any position of a game): a rule mix or seat count that
    new_game refuses cannot be set up as a position either; the error is the position
    parser's, and it names the key new_game names."""
    with pytest.raises(RulesError) as refused:
        new_game(spec, players=players, seed=0)
    with pytest.raises(InvalidNotationError) as info:
        P(bare(spec, players))
    assert refused.value.key in info.value.reason


def test_the_face_down_counter_throw_position_of_the_report_is_refused() -> None:
    """#59 with #49 (S4:16, S0:191), as reported: the position is refused when read, before
    any call can reach the counter's bookkeeping."""
    text = ("believe_not_believe+counter_throw players=2 trump=7d stock=7dQhAh "
            "hands=7c9h9sQs/8cQcKc6dTdQdKdKh table=Tc<*,Ts<*,As<Jh phase=call attacker=1 "
            "defender=0 to_act=1 owned=-/TcTsAs")
    with pytest.raises(InvalidNotationError) as info:
        P(text)
    assert "defense.counter" in info.value.reason


MODIFIERS = sorted(v.id for v in all_variants() if v.family == "durak" and v.kind == "modifier"
                   and v.parameter is None)
GAMES = sorted(v.id for v in all_variants() if v.family == "durak" and v.kind == "game")


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(GAMES), st.lists(st.sampled_from(MODIFIERS), max_size=2, unique=True),
       st.integers(2, 8))
def test_positions_and_new_games_refuse_the_same_tables(game: str, mods: list[str],
                                                        players: int) -> None:
    """For random rule stacks and seat counts: if new_game deals, the dealt position reads
    back; if it refuses, the same table cannot be set up as a position."""
    spec = "+".join([game, *mods])
    try:
        state = new_game(spec, players=players, seed=3)
    except RulesError:
        with pytest.raises(InvalidNotationError):
            P(bare(spec, players))
        return
    assert position_text(P(position_text(state))) == position_text(state)


# --- the default defender ------------------------------------------------------------------


def test_double_fool_default_defender_passes_over_a_partner() -> None:
    """#54 (S0:265-269; "attack target: the next active opponent to the left (partners are
    skipped)"): partners sit opposite, 0 with 2 and 1 with 3. With seat 1 out, seat 0's next
    seat in play is his partner 2, so the bout goes to seat 3."""
    s = P("double_fool players=4 trump=6h stock=6h hands=7c8c/-/9cTc/JcQc attacker=0 out=1")
    assert s.defender == 3
    assert s.to_act == 0


def test_team_fool_default_defender_is_the_proxy_of_the_vacated_seat() -> None:
    """#55 (S1:65-67, S4:1: a player who goes out keeps his seat, played by his partner; A1
    the nearest partner in play counter-clockwise): teams alternate, 0 with 2 and 1 with 3.
    Seat 3 is out, so seat 2 attacks seat 3's place, which seat 1 plays."""
    s = P("team_fool players=4 trump=6h stock=6h hands=7c8c/9cTc/JcQc/- attacker=2 out=3")
    assert s.defender == 1
    assert played_seat(s) == 3


def test_without_teams_the_default_defender_is_the_next_seat_in_play() -> None:
    """§1 (S0:213 "you attack the player on your left"): seat 1 is out, so seat 0 attacks
    seat 2."""
    s = P("podkidnoy players=3 trump=6h stock=6h hands=7c8c/-/9cTc attacker=0 out=1")
    assert s.defender == 2

