"""Ruling 8: territories, scores, the rulebook examples, and every tie-break."""

import pytest

from game.roseking.engine import RED, WHITE, State, Termination, decide, score_of, territories

from .helpers import line, mask


def separated(sizes, rank0=0):
    """Territories of the given sizes (each <= 9) on alternate ranks, or two per rank when short."""
    names = []
    rank = rank0
    for size in sizes:
        names += line(rank, 0, size)
        rank += 2
    return names


def test_rulebook_example_8_2_1_is_69():
    assert score_of(mask(separated([8, 2, 1]))) == 69


def test_rulebook_example_5_2_2_1_is_34():
    assert score_of(mask(separated([5, 2, 2, 1]))) == 34


def test_rulebook_example_2_3_1_11_2_1_is_140():
    eleven = line(0, 0, 9) + line(1, 0, 2)            # an L of 11 on ranks 1-2
    rest = line(3, 0, 2) + line(3, 3, 3) + line(3, 7, 1) + line(5, 0, 2) + line(5, 3, 1)
    m = mask(eleven + rest)
    assert sorted(t.bit_count() for t in territories(m)) == [1, 1, 2, 2, 3, 11]
    assert score_of(m) == 140


def test_corners_do_not_connect():
    diagonal = mask(["a1", "b2", "c3"])
    assert [t.bit_count() for t in territories(diagonal)] == [1, 1, 1] and score_of(diagonal) == 3


def test_edges_do_not_wrap_around_the_board():
    assert score_of(mask(["i1", "a2"])) == 2  # i1 and a2 are adjacent bits, not squares
    assert score_of(mask(["i1", "i2"])) == 4


def test_higher_score_wins():
    assert decide(mask(separated([3])), mask(separated([2], 1))) == (RED, "score")


def test_equal_score_larger_territory_wins():
    red = mask(line(0, 0, 5))                      # 25
    white = mask(line(2, 0, 4) + line(4, 0, 3))    # 16 + 9 = 25
    assert score_of(red) == score_of(white) == 25
    assert decide(red, white) == (RED, "largest territory")
    assert decide(white, red) == (WHITE, "largest territory")


def test_equal_score_and_largest_more_stones_wins():
    red = mask(line(0, 0, 4) + line(2, 0, 3))                                  # 16 + 9 = 25, 7 stones
    white = mask(line(4, 0, 4) + line(6, 0, 2) + line(6, 3, 2) + line(8, 0, 1))  # 16+4+4+1 = 25, 9 stones
    assert decide(red, white) == (WHITE, "stones")


def test_all_equal_is_a_draw():
    red, white = mask(line(0, 0, 3)), mask(line(2, 0, 3))
    assert decide(red, white) == (None, "draw")
    assert decide(0, 0) == (None, "draw")


def test_outcome_of_a_finished_position():
    s = State.from_position(red=["a1", "a2", "a3"], white=["c1"], crown="a1",
                            red_hand=["S1", "S2", "S3", "SW1", "SW2"], white_hand=["W1", "W2", "W3", "SE1", "SE2"])
    out = s.outcome()
    assert out.termination is Termination.BLOCKED
    assert (out.red_score, out.white_score, out.winner, out.decided_by) == (9, 1, RED, "score")
    assert out.result() == {"red": 9, "white": 1, "winner": "red"}


@pytest.mark.parametrize("sizes", [[1], [9], [4, 4], [1, 1, 1, 1, 1]])
def test_score_is_sum_of_squares(sizes):
    assert score_of(mask(separated(sizes))) == sum(n * n for n in sizes)
