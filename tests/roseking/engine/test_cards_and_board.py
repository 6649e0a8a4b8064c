import pytest

from game.roseking.engine import (CARDS, CENTER, Card, Color, InvalidMoveError, Move, parse_square, square_name)
from game.roseking.engine.cards import TARGET


def test_square_names_follow_ruling_1():
    assert square_name(0) == "a1" and square_name(8) == "i1" and square_name(80) == "i9"
    assert square_name(CENTER) == "e5"
    assert all(parse_square(square_name(sq)) == sq for sq in range(81))


@pytest.mark.parametrize("bad", ["", "j1", "a0", "a10", "A1", "e", "55"])
def test_bad_square_names(bad):
    with pytest.raises(ValueError, match="not a square"):
        parse_square(bad)


def test_24_power_cards_one_per_direction_and_distance():
    assert len(CARDS) == 24
    assert [c.name for c in CARDS[:6]] == ["N1", "N2", "N3", "NE1", "NE2", "NE3"]
    assert {(c.direction, c.distance) for c in CARDS} == {
        (d, n) for d in ("N", "NE", "E", "SE", "S", "SW", "W", "NW") for n in (1, 2, 3)}
    assert Card.from_name("NE2") is CARDS[4]
    assert repr(Card.from_name("NE2")) == "Card.from_name('NE2')"
    assert sorted(CARDS, reverse=True)[0].name == "NW3"


@pytest.mark.parametrize("bad", ["N4", "N0", "n1", "NNE1", "", "X2"])
def test_bad_card_names(bad):
    with pytest.raises(ValueError, match="not a power card"):
        Card.from_name(bad)


@pytest.mark.parametrize("card,frm,to", [
    ("N1", "e5", "e6"), ("N3", "e5", "e8"), ("NE2", "e5", "g7"), ("E3", "e5", "h5"),
    ("SE1", "e5", "f4"), ("S2", "e5", "e3"), ("SW3", "e5", "b2"), ("W1", "e5", "d5"), ("NW2", "e5", "c7"),
    ("N3", "e7", None), ("W1", "a5", None), ("SE1", "i1", None), ("NE1", "h8", "i9"),
])
def test_targets_are_board_directions(card, frm, to):
    """Ruling 2: N is towards rank 9, the same for both players; off the board gives None."""
    t = Card.from_name(card).target(parse_square(frm))
    assert (None if t is None else square_name(t)) == to


def test_target_table_never_wraps_around_an_edge():
    for sq in range(81):
        for c in CARDS:
            t = TARGET[sq * 24 + c.index]
            if t >= 0:
                df, dr = c.step
                assert t % 9 - sq % 9 == df * c.distance and t // 9 - sq // 9 == dr * c.distance


def test_move_notation_round_trips():
    for text in ["red play NE2", "white hero W1", "red draw S3", "white draw"]:
        assert str(Move.from_str(text)) == text
    assert Move.from_str("white draw").card is None
    assert eval(repr(Move.from_str("red hero NE2"))) == Move.from_str("red hero NE2")
    assert Move.from_str("red play N1").player is Color.RED


@pytest.mark.parametrize("bad,why", [
    ("blue play N1", "not a colour"), ("red jump N1", "unknown action"), ("red play", "needs a card"),
    ("red play N9", "not a power card"), ("red  play N1", "not a colour|unknown action|not a move"),
    ("red play N1 extra", "not a move"), ("", "not a move"), ("red hero", "needs a card"),
])
def test_bad_move_text(bad, why):
    with pytest.raises(InvalidMoveError, match=why):
        Move.from_str(bad)


def test_move_text_must_be_a_string():
    with pytest.raises(InvalidMoveError, match="must be a string"):
        Move.from_str(42)  # type: ignore[arg-type]
