"""Shared helpers for engine tests."""

from game.roseking.engine import Move, Rng, State, square_name


def line(rank: int, start: int, length: int) -> list[str]:
    """Square names of a horizontal run on ``rank`` (0..8) from file ``start``."""
    return [square_name(rank * 9 + f) for f in range(start, start + length)]


def mask(names) -> int:
    from game.roseking.engine import parse_square
    return sum(1 << parse_square(n) for n in names)


def random_game(seed: int, checked: bool = True, upto: int | None = None) -> State:
    """A uniformly random game (chance included) from a seeded deal."""
    rng = Rng(seed)
    s = State.random(rng)
    while not s.is_game_over() and (upto is None or s.ply < upto):
        m = rng.choice(s.legal_moves())
        if m.card is None:
            m = m.with_outcome(rng.choice(s.chance_outcomes()))
        (s.push_checked if checked else s.push)(m)
    return s


def mv(text: str) -> Move:
    return Move.from_str(text)
