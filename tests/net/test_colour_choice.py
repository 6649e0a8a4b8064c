"""The host's colour choice (issue 15): carried in the host's hello, fixed before any
commitment, honoured on both sides, checked again in a game copy (sync)."""

from __future__ import annotations

import pytest

from game.roseking.ai import make_player
from game.roseking.engine import Color, State
from net.coin import coin_digest
from net.framing import encode_frame
from net.journal import Journal
from net.loopback import Pair
from net.roseking import Connection, GameStarted, Role, setup_from_coin


def setup_digest(p: Pair) -> bytes:
    t = p.host.game.coins[-1]
    return coin_digest(p.host.game.game_id, -1, (t[2], t[3]))


def play(p: Pair, plies: int) -> None:
    players = {p.host: make_player("random", 7), p.join: make_player("random", 8)}
    while p.host.game.state.ply < plies:
        m = p.mover()
        m.play(players[m].choose(m.game.state))
        p.pump()


def seed_where_the_coin_alone_gives(color: Color) -> int:
    for seed in range(1, 200):
        p = Pair(seed)
        p.pump()
        if p.host.color is color:
            return seed
    raise AssertionError("no seed")


@pytest.mark.parametrize("choice", ["red", "white"])
def test_a_chosen_colour_is_the_hosts_on_both_sides_and_the_coin_still_deals(choice):
    chosen = Color.from_name(choice)
    for seed in range(1, 9):  # whatever the coin says about colours
        p = Pair(seed, colour=choice)
        p.pump()
        assert p.host.color is chosen and p.join.color is chosen.other
        assert p.host.game.host_color is chosen and p.join.game.host_color is chosen
        assert p.host_journal.host_colour == choice and p.join_journal.host_colour == choice
        # the deal is the coin's, exactly as without a choice
        _, red, white = setup_from_coin(setup_digest(p))
        assert p.host.game.state.state_hash() == State(red, white).state_hash()
        assert p.join.game.hashes == p.host.game.hashes
        names = (p.host.game.red_name, p.host.game.white_name)
        assert names == (("Alice", "Bob") if chosen is Color.RED else ("Bob", "Alice"))


def test_random_is_the_coins_choice_as_before():
    seen = set()
    for seed in range(1, 12):
        p = Pair(seed)
        p.pump()
        assert p.host.game.host_color is setup_from_coin(setup_digest(p))[0]
        seen.add(p.host.color)
    assert seen == {Color.RED, Color.WHITE}


def test_a_resumed_game_keeps_its_colours_whatever_the_new_hello_says():
    seed = seed_where_the_coin_alone_gives(Color.RED)
    p = Pair(seed, colour="white")
    p.pump()
    play(p, 4)
    q = p.reconnect()  # the new connections offer no choice ("" = random)
    assert q.host.color is Color.WHITE and q.host.game.state.ply == 4
    assert Journal.from_json(p.host_journal.to_json().encode()).host_colour == "white"


def test_a_choice_survives_a_set_up_coin_interrupted_before_the_reveals():
    seed = seed_where_the_coin_alone_gives(Color.RED)
    p = Pair(seed, colour="white")
    p.join.receive_data(p.host.data_to_send())  # the host's hello: the joiner commits
    p.host.receive_data(p.join.data_to_send())  # the joiner's hello and commitment: the host commits, reveals
    assert p.host.game is None and p.join.game is None
    host_j = Journal.from_json(p.host_journal.to_json().encode())
    join_j = Journal.from_json(p.join_journal.to_json().encode())
    assert host_j.host_colour == join_j.host_colour == "white"
    q = Pair(seed + 5, host_j, join_j)  # reconnect from the journals, no choice offered now
    q.pump()
    assert q.host.color is Color.WHITE and q.join.color is Color.RED


def test_a_copy_whose_colours_contradict_the_choice_is_refused():
    seed = seed_where_the_coin_alone_gives(Color.RED)
    p = Pair(seed, colour="white")
    p.pump()
    play(p, 6)
    assert p.host.color is Color.WHITE
    seat = Journal.from_json(p.join.journal.to_json().encode())  # the joiner kept its journal, lost the record
    g = p.host.game
    g.host_color = Color.RED  # what the coin alone would say: the copy lies about the choice
    g.red_name, g.white_name = g.white_name, g.red_name
    q = Pair(9, p.host_journal, seat)
    q.pump()
    closed = q.closed(q.join)
    assert closed is not None and closed.code == "sync" and "choice (white)" in closed.reason, closed
    assert seat.game is None  # nothing adopted


def test_an_honest_copy_with_a_chosen_colour_is_adopted():
    seed = seed_where_the_coin_alone_gives(Color.RED)
    p = Pair(seed, colour="white")
    p.pump()
    play(p, 6)
    seat = Journal.from_json(p.join.journal.to_json().encode())
    q = Pair(9, p.host_journal, seat)
    q.pump()
    started = next(e for e in q.events[q.join] if isinstance(e, GameStarted))
    assert started.adopted and seat.game.host_color is Color.WHITE and seat.game.hashes == p.host.game.hashes


def test_only_the_host_chooses():
    with pytest.raises(ValueError):
        Connection(Role.JOIN, "Bob", colour="red")
    with pytest.raises(ValueError):
        Connection(Role.HOST, "Alice", colour="blue")
    host = Connection(Role.HOST, "Alice")
    join = Connection(Role.JOIN, "Bob")
    hello = None
    from net.framing import FrameDecoder, SCHEMAS
    hello = FrameDecoder(SCHEMAS).feed(join.data_to_send())[0]
    hello["colour"] = "red"  # a joiner that tries to pick the host's colour
    host.data_to_send()
    ev = host.receive_data(encode_frame(hello))
    assert ev[-1].code == "schema" and "only the host" in ev[-1].reason
