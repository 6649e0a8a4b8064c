"""Scenario tests, one or more per ruling (docs/rules.md)."""

import pytest

from game.roseking.engine import (CARDS, DRAW, HERO, PLAY, RED, WHITE, Card, IllegalMoveError, Move, Rng, State,
                         Termination, parse_square, square_name)
from game.roseking.engine.cards import ALL_CARDS_MASK

from .helpers import mv

# From a corner on rank 1, every S*, SW* and W* card leaves the board.
BLOCKED_ON_RANK_1 = ["S1", "S2", "S3", "SW1", "SW2"]


def cards(*names):
    return [Card.from_name(n) for n in names]


def new_game():
    return State(cards("N1", "NE2", "E3", "S1", "W2"), cards("SE1", "SW3", "NW1", "N3", "E1"))


# ---------------------------------------------------------------- ruling 1 and 3: set-up
def test_setup():
    s = new_game()
    assert s.crown == parse_square("e5") and s.stones == [0, 0]
    assert s.turn is RED and s.heroes == [4, 4]
    assert len(s.draw_pile_cards()) == 14 and s.discard_pile == 0
    assert s.stones_left == 52 and s.ply == 0 and not s.is_game_over()
    assert [c.name for c in s.hand(RED)] == ["N1", "NE2", "E3", "S1", "W2"]


@pytest.mark.parametrize("red,white,why", [
    (("N1", "N2", "N3", "NE1"), ("E1", "E2", "E3", "SE1", "SE2"), "exactly 5"),
    (("N1", "N1", "N3", "NE1", "NE2"), ("E1", "E2", "E3", "SE1", "SE2"), "same card twice"),
    (("N1", "N2", "N3", "NE1", "NE2"), ("N1", "E2", "E3", "SE1", "SE2"), "both hands hold N1"),
])
def test_bad_deal(red, white, why):
    with pytest.raises(ValueError, match=why):
        State(cards(*red), cards(*white))


def test_random_deal_is_reproducible_and_a_real_shuffle():
    a, b = State.random(Rng(9)), State.random(Rng(9))
    assert a.deal == b.deal
    assert len({State.random(Rng(seed)).deal for seed in range(50)}) == 50


# ---------------------------------------------------------------- ruling 4: play
def test_play_places_a_stone_under_the_crown_and_discards():
    s = new_game()
    s.push_checked(mv("red play NE2"))
    g7 = parse_square("g7")
    assert s.crown == g7 and s.owner(g7) is RED and s.stones_placed == 1
    assert "NE2" not in [c.name for c in s.hand(RED)]
    assert s.discard_pile_cards() == cards("NE2") and s.discard_top == Card.from_name("NE2").index
    assert s.turn is WHITE


def test_crown_jumps_over_stones():
    s = State.from_position(red=["e6"], white=["e5"], crown="e5", red_hand=["N2"], white_hand=["S1"])
    s.push_checked(mv("red play N2"))
    assert square_name(s.crown) == "e7" and s.owner(parse_square("e6")) is RED


def test_play_must_land_on_the_board():
    s = State.from_position(red=["e8"], crown="e8", red_hand=["N3", "N1"], white_hand=["S1"])
    with pytest.raises(IllegalMoveError, match="off the board: N3 from e8 leaves the board"):
        s.push_checked(mv("red play N3"))
    assert s.ply == 0 and square_name(s.crown) == "e8"


def test_play_needs_an_empty_square():
    s = State.from_position(red=["e5"], white=["e6"], crown="e5", red_hand=["N1", "N2"], white_hand=["S1"])
    before = s.state_hash()
    with pytest.raises(IllegalMoveError, match="square occupied: e6"):
        s.push_checked(mv("red play N1"))
    assert s.state_hash() == before


def test_play_needs_the_card_in_hand():
    s = new_game()
    with pytest.raises(IllegalMoveError, match="not in hand: SE1"):
        s.push_checked(mv("red play SE1"))


def test_wrong_player_and_game_over():
    s = new_game()
    with pytest.raises(IllegalMoveError, match="wrong player to move"):
        s.push_checked(mv("white play SE1"))
    done = State.from_position(red=["a1"], crown="a1", red_hand=BLOCKED_ON_RANK_1,
                               white_hand=["W1", "W2", "W3", "SE1", "SE2"])
    assert done.termination is Termination.BLOCKED
    with pytest.raises(IllegalMoveError, match="game already over"):
        done.push_checked(mv("red play S1"))
    assert done.legal_moves() == []


# ---------------------------------------------------------------- ruling 4: draw
def test_draw_only_with_fewer_than_five_cards():
    s = new_game()
    with pytest.raises(IllegalMoveError, match="hand full"):
        s.push_checked(mv("red draw N2"))
    assert Move(RED, DRAW) not in s.legal_moves()
    s.push_checked(mv("red play N1"))
    s.push_checked(mv("white play S1" if False else "white play E1"))
    assert Move(RED, DRAW) in s.legal_moves()


def test_draw_brings_a_card_from_the_draw_pile():
    s = State.from_position(red=["e5"], crown="e5", red_hand=["N1", "N2", "N3", "NE1"], white_hand=["S1"])
    assert Card.from_name("E1") in s.chance_outcomes()
    with pytest.raises(IllegalMoveError, match="card not in the draw pile: S1"):
        s.push_checked(mv("red draw S1"))
    with pytest.raises(IllegalMoveError, match="needs its card"):
        s.push_checked(Move(RED, DRAW, None))
    s.push_checked(mv("red draw E1"))
    assert Card.from_name("E1") in s.hand(RED) and Card.from_name("E1") not in s.chance_outcomes()
    assert s.stones_placed == 1 and square_name(s.crown) == "e5"


# ---------------------------------------------------------------- ruling 4: hero
def test_hero_flips_an_opponent_stone_without_placing_one():
    s = State.from_position(red=["e5"], white=["e6", "e7"], crown="e5", red_hand=["N1", "N2"],
                            white_hand=["S1"], turn=RED)
    assert Move(RED, HERO, Card.from_name("N1")) in s.legal_moves()
    s.push_checked(mv("red hero N1"))
    e6 = parse_square("e6")
    assert s.owner(e6) is RED and s.crown == e6
    assert s.stones_placed == 3 and s.heroes == [3, 4]
    assert Card.from_name("N1") in s.discard_pile_cards()


@pytest.mark.parametrize("red,white,why", [
    (["e5"], [], "hero needs an opponent's stone: e6 is empty"),
    (["e5", "e6"], [], "hero needs an opponent's stone: e6 holds the mover's own stone"),
])
def test_hero_targets_only_opponent_stones(red, white, why):
    s = State.from_position(red=red, white=white, crown="e5", red_hand=["N1", "N2"], white_hand=["S1"])
    with pytest.raises(IllegalMoveError, match=why):
        s.push_checked(mv("red hero N1"))
    assert s.heroes == [4, 4]


def test_hero_cards_are_used_once():
    s = State.from_position(red=["e5"], white=["e6"], crown="e5", red_hand=["N1", "N2"],
                            white_hand=["S1"], heroes=(0, 4))
    with pytest.raises(IllegalMoveError, match="no hero cards left"):
        s.push_checked(mv("red hero N1"))
    assert Move(RED, HERO, Card.from_name("N1")) not in s.legal_moves()


def test_the_last_hero_card_then_none():
    s = State.from_position(red=["e5"], white=["e6", "e8"], crown="e5", red_hand=["N1", "N2", "E1"],
                            white_hand=["S1"], heroes=(1, 4))
    s.push_checked(mv("red hero N1"))
    assert s.heroes == [0, 4] and square_name(s.crown) == "e6"
    s.push_checked(mv("white draw W1"))
    with pytest.raises(IllegalMoveError, match="no hero cards left"):
        s.push_checked(mv("red hero N2"))
    assert Move(RED, HERO, Card.from_name("N2")) not in s.legal_moves()


# ---------------------------------------------------------------- ruling 5: eager reshuffle
def test_eager_reshuffle_when_the_last_card_is_drawn():
    hands = {"red_hand": ["N1", "N2", "N3", "NE1"], "white_hand": ["S1", "S2", "S3", "SE1", "SE2"]}
    rest = [c.name for c in CARDS if c.name not in hands["red_hand"] + hands["white_hand"]]
    last, discard = rest[-1], rest[:-1]  # draw pile holds one card
    s = State.from_position(red=["e5"], crown="e5", discard=discard, **hands)
    assert [c.name for c in s.chance_outcomes()] == [last]
    s.push_checked(mv(f"red draw {last}"))
    assert [c.name for c in s.chance_outcomes()] == sorted(discard, key=lambda n: Card.from_name(n).index)
    assert s.discard_pile == 0 and s.discard_top == -1
    s.pop()
    assert [c.name for c in s.chance_outcomes()] == [last] and s.discard_top == Card.from_name(discard[-1]).index


def test_a_player_with_fewer_than_five_cards_can_always_draw():
    for seed in range(30):
        rng = Rng(seed)
        s = State.random(rng)
        while not s.is_game_over():
            if len(s.hand(s.turn)) < 5:
                assert s.chance_outcomes(), "draw pile empty"
            m = rng.choice(s.legal_moves())
            s.push(m if m.card else m.with_outcome(rng.choice(s.chance_outcomes())))


# ---------------------------------------------------------------- ruling 6: compulsory moves and passes
def test_forced_hero_is_the_only_legal_move():
    # Red holds 5 cards; from a1 only N1 stays on the board, and a1->a2 holds a white stone.
    s = State.from_position(red=["a1"], white=["a2"], crown="a1", red_hand=["N1"] + BLOCKED_ON_RANK_1[:4],
                            white_hand=["E1"])
    assert s.legal_moves() == [Move(RED, HERO, Card.from_name("N1"))]


def test_pass_then_the_opponent_moves_again_several_times():
    s = State.from_position(red=["a1"], crown="a1", red_hand=BLOCKED_ON_RANK_1,
                            white_hand=["E1", "E2", "E3"], turn=WHITE)
    for card, sq in (("E1", "b1"), ("E2", "d1"), ("E3", "g1")):
        s.push_checked(mv(f"white play {card}"))
        assert s.turn is WHITE and s.passed(), "red must pass"
        assert square_name(s.crown) == sq and not s.has_legal_move(RED)
    assert not s.is_game_over() and s.legal_moves() == [Move(WHITE, DRAW)]
    with pytest.raises(IllegalMoveError, match="wrong player"):
        s.push_checked(mv("red play S1"))


def test_the_player_who_was_passed_moves_again_when_possible():
    s = State.from_position(red=["a1"], crown="a1", red_hand=BLOCKED_ON_RANK_1,
                            white_hand=["E1", "N2"], turn=WHITE)
    s.push_checked(mv("white play N2"))  # crown to a3: red's S2 now reaches a1? occupied; S1 reaches a2
    assert s.turn is RED and not s.passed()
    assert Move(RED, PLAY, Card.from_name("S1")) in s.legal_moves()


# ---------------------------------------------------------------- ruling 7: the end
def test_game_ends_at_once_with_the_52nd_stone():
    squares = [square_name(sq) for sq in range(81) if sq % 9 < 6][:51]  # files a-f, 51 stones
    red, white = squares[::2], squares[1::2]
    s = State.from_position(red=red, white=white, crown="f6", red_hand=["E1", "N1"],
                            white_hand=["W1", "S1"], turn=RED)
    assert s.stones_placed == 51 and not s.is_game_over()
    s.push_checked(mv("red play E1"))
    assert s.termination is Termination.STONES and s.stones_left == 0
    assert s.legal_moves() == [] and s.outcome() is not None
    s.pop()
    assert not s.is_game_over() and s.turn is RED


def test_game_ends_when_neither_player_can_move():
    s = State.from_position(red=["a1"], crown="a1", red_hand=BLOCKED_ON_RANK_1,
                            white_hand=["W1", "W2", "W3", "SE1"], turn=WHITE)
    assert s.legal_moves() == [Move(WHITE, DRAW)]
    s.push_checked(mv("white draw SE2"))
    assert s.termination is Termination.BLOCKED and s.outcome().termination is Termination.BLOCKED


def test_position_with_both_blocked_is_over():
    s = State.from_position(red=["a1"], crown="a1", red_hand=BLOCKED_ON_RANK_1,
                            white_hand=["W1", "W2", "W3", "SE1", "SE2"])
    assert s.is_game_over() and s.outcome().termination is Termination.BLOCKED


@pytest.mark.parametrize("kwargs,why", [
    ({"red": ["a1", "a1"]}, "twice"),
    ({"red_hand": ["N1", "N1"]}, "twice"),
    ({"red_hand": ["N1", "N2", "N3", "NE1", "NE2", "NE3"]}, "more than 5"),
    ({"red": ["a1"], "crown": "e5"}, "crown must stand on a stone"),
    ({"heroes": (5, 4)}, "heroes"),
    ({"red_hand": [c.name for c in CARDS[:5]], "white_hand": [c.name for c in CARDS[5:10]],
      "discard": [c.name for c in CARDS[10:]]}, "draw pile would be empty"),
])
def test_impossible_positions_are_refused(kwargs, why):
    with pytest.raises(ValueError, match=why):
        State.from_position(**kwargs)


def test_cards_in_from_position_are_conserved():
    s = State.from_position(red=["e5"], red_hand=["N1"], white_hand=["S1"], discard=["E1", "W1"])
    assert s.hands[0] | s.hands[1] | s.draw_pile | s.discard_pile == ALL_CARDS_MASK
    assert s.discard_top == Card.from_name("W1").index
