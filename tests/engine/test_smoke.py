from game.engine import Rng, State


def test_random_game_reaches_an_outcome():
    rng = Rng(3)
    s = State.random(rng)
    while not s.is_game_over():
        m = rng.choice(s.legal_moves())
        if m.card is None:
            m = m.with_outcome(rng.choice(s.chance_outcomes()))
        s.push_checked(m)
    assert s.outcome() is not None
