"""Issue 13, first step: the Royals & Riots LAN building blocks of net/royals.py, in memory.

A driver plays the host's part (its engine holds the whole match and runs the joint coin of
every seat: commit all, reveal to the host) and sends each joiner, as real frames, exactly
the messages :func:`net.royals.messages_for` allows. The joiners decode those bytes, keep
what they heard and check the host's round-end reveal with :func:`net.royals.check_round`.
A joiner's computer chooses from the joiner's own :class:`~game.royals.engine.SeatView`, fed
only the messages that joiner received (never from the host engine's view of that seat).
The match machines built on these blocks are tested in tests/net/test_royals_match.py.
"""

from __future__ import annotations

import pytest

import hashlib
import re
from pathlib import Path

from game.rng import Rng
from game.royals.ai.levels import make_player
from game.royals.engine import CARD_NAMES, CARDS, PLAY, Action, Record, SeatView, State
from game.royals.plugin import GAME
from net.coin import commitment
from net.framing import FrameDecoder, encode_frame
from net.royals import (SCHEMAS, Heard, PlayError, card_names_in, check_round, coin_outcome, messages_for,
                        open_coin, peer_of)

GAME_ID = bytes(range(16))


class Joiner:
    """A joiner's side of the test: the bytes it received, what it heard, its own copy."""

    def __init__(self, seat: int, players: int) -> None:
        self.seat = seat
        self.decoder = FrameDecoder(SCHEMAS)
        self.received = bytearray()
        self.heard = Heard(seat)
        self.state = State(players)  # advanced only by checked round reveals
        self.view = SeatView(seat, players)  # what this seat knows: its computer chooses from it

    def receive(self, msg: dict) -> None:
        data = encode_frame(msg, SCHEMAS)
        self.received += data
        for m in self.decoder.feed(data):
            self.heard.hear(m)
            if m["t"] in ("act", "you", "hidden"):
                self.view.hear(m)


class Match:
    """The host's side: the whole match, the coins, the round reveals."""

    def __init__(self, players: int = 4, levels=("greedy", "random", "greedy", "random"), seed: int = 3) -> None:
        self.state = State(players)
        self.ais = {s: make_player(levels[s - 1], seed * 10 + s) for s in range(1, players + 1)}
        self.joiners = {s: Joiner(s, players) for s in range(2, players + 1)}
        self.host_copy = State(players)
        self.round_actions: list[str] = []
        self.round_secrets: list[bytes] = []
        self.round_first = 0
        self.reveals: list[dict] = []
        self.tamper = None  # a function(reveal) -> reveal, for the lying host

    def coin(self) -> Action:
        ply = self.state.ply
        parts = [open_coin(GAME_ID, ply, s) for s in range(1, self.state.players + 1)]
        commits = [c for _, c in parts]
        for s, j in self.joiners.items():
            j.heard.my_secrets[ply] = parts[s - 1][0]
            j.receive({"t": "commits", "for": ply, "c": commits})
        secrets = [s for s, _ in parts]
        for s, secret in enumerate(secrets, 1):  # the host checks each reveal it gets
            assert commitment(GAME_ID, ply, peer_of(s), secret) == commits[s - 1]
        self.round_secrets += secrets
        return coin_outcome(self.state.chance(), GAME_ID, ply, secrets)

    def step(self) -> None:
        before = self.state.copy()
        event = self.state.chance()
        if event is not None:
            a = self.coin()
        else:
            seat = self.state.to_act
            a = self.choose(seat)
            if seat in self.joiners:
                self.joiners[seat].heard.own[before.ply] = str(a)
        self.state.push_checked(a)
        self.round_actions.append(str(a))
        for s, j in self.joiners.items():
            for m in messages_for(before, a, self.state, s):
                j.receive(m)
        if self.state.round != before.round or self.state.is_over():
            self.end_round(before.round)

    def choose(self, seat: int) -> Action:
        """Seat ``seat``'s computer decides: the host's seat from the host engine, a joiner's
        from that joiner's own SeatView (checked to equal the true observation)."""
        if seat in self.joiners:
            obs = self.joiners[seat].view.observation()
            assert obs == self.state.observation(seat)
            return self.ais[seat].choose(obs)
        return self.ais[seat].choose(self.state.observation(seat))

    def end_round(self, rnd: int) -> None:
        reveal = {"t": "round", "round": rnd, "first": self.round_first, "actions": self.round_actions,
                  "secrets": self.round_secrets}
        if self.tamper is not None:
            reveal = self.tamper(reveal)
        check_round(self.host_copy, GAME_ID, reveal)
        for j in self.joiners.values():
            j.receive(reveal)
            check_round(j.state, GAME_ID, reveal, j.heard)
            j.view.reset(j.state)
        self.reveals.append(reveal)
        self.round_first, self.round_actions, self.round_secrets = self.state.ply, [], []

    def play(self, until=None) -> None:
        while not self.state.is_over() and (until is None or not until(self)):
            self.step()


def record_of(state: State) -> dict:
    return Record.from_state(state, ["Ann", "Bo", "Cy", "Di"][:state.players], date="2026-11-23").to_dict()


def test_four_peers_play_a_whole_match_and_agree():
    m = Match()
    m.play()
    assert len(m.reveals) == 3
    records = [record_of(m.state), record_of(m.host_copy)] + [record_of(j.state) for j in m.joiners.values()]
    assert all(r == records[0] for r in records)
    assert GAME.check(records[0]).startswith("ok finished")


@pytest.mark.parametrize("players", [2, 3])
def test_fewer_seats_play_to_the_end(players):
    m = Match(players, seed=players)
    m.play()
    assert all(record_of(j.state) == record_of(m.state) for j in m.joiners.values())


def test_no_joiner_receives_another_seats_cards_before_they_are_played():
    """After every action, decode the bytes each joiner received since the last round reveal
    and scan every string in them (binaries are checked to be 32-byte coin material) for the name of every card it may not know yet (in another seat's hand or pile, or set
    aside), except cards everyone saw go back into a hand (a Thief's victim's card)."""
    m = Match(seed=5)
    since = {s: 0 for s in m.joiners}  # the round-end reveal shows the whole round, on purpose
    scanned = 0
    while not m.state.is_over():
        rnd = m.state.round
        m.step()
        if m.state.round != rnd or m.state.is_over():
            since = {s: len(j.received) for s, j in m.joiners.items()}
            continue
        for s, j in m.joiners.items():
            obs = m.state.observation(s)
            hidden = {c.name for c in CARDS if (m.state.aside >> c.index) & 1}
            for other in range(1, m.state.players + 1):
                if other != s:
                    hidden |= {c.name for c in m.state.hand(other)} | {c.name for c in m.state.pile(other)}
                    hidden -= {c.name for c in obs.known[other - 1]}
            leaked = set()
            for msg in FrameDecoder(SCHEMAS).feed(bytes(j.received[since[s]:])):
                for key, v in msg.items():
                    for x in v if isinstance(v, list) else [v]:
                        if isinstance(x, bytes):  # binaries are coin material only, never cards
                            assert len(x) == 32 and key in ("c", "secrets"), (key, x)
                        elif isinstance(x, str):
                            leaked |= card_names_in(x) & hidden
            assert not leaked, (s, leaked, m.round_actions[-1])
            scanned += 1
    assert scanned > 100


def cheat_off_suit(m: Match) -> bool:
    """Stop when a joiner is to play, holds the led rank and also another card it may not play."""
    s = m.state
    if s.is_chance() or s.to_act == 1 or s.phase.value != "play" or not s.trick_plays:
        return False
    hand, legal = s.hands[s.to_act - 1], s.legal_plays()
    return legal != hand


def test_a_joiner_playing_off_suit_is_caught_by_every_honest_peer():
    m = Match(seed=7)
    m.play(until=cheat_off_suit)
    seat = m.state.to_act
    bad = next(c for c in m.state.hand(seat) if not (m.state.legal_plays() >> c.index) & 1)
    ply = m.state.ply
    # the host's engine refuses it at once
    with pytest.raises(Exception):
        m.state.push_checked(Action(PLAY, seat, card=bad))
    # a host colluding with the cheat reveals it at the round end: every other peer names the seat
    m.state.push(Action(PLAY, seat, card=bad))
    m.joiners[seat].heard.own[ply] = str(Action(PLAY, seat, card=bad))
    m.round_actions.append(str(Action(PLAY, seat, card=bad)))
    rnd = m.state.round
    while m.state.round == rnd and not m.state.is_over():  # the host plays every seat to the round's end
        before = m.state.copy()
        a = m.coin() if m.state.chance() else m.ais[m.state.to_act].choose(m.state.observation(m.state.to_act))
        if m.state.chance() is None and m.state.to_act in m.joiners:
            m.joiners[m.state.to_act].heard.own[before.ply] = str(a)
        m.state.push(a)
        m.round_actions.append(str(a))
    reveal = {"t": "round", "round": rnd, "first": m.round_first, "actions": m.round_actions,
              "secrets": m.round_secrets}
    for j in m.joiners.values():
        with pytest.raises(PlayError) as e:
            check_round(j.state, GAME_ID, reveal, j.heard)
        assert e.value.seat == seat and e.value.ply == ply and e.value.code == "illegal"
        assert "follow" in e.value.reason, e.value.reason
        assert f"seat {seat}" in str(e.value) and bad.name in str(e.value)


def lying_deal(reveal: dict) -> dict:
    """The host swaps two cards between seat 1's and seat 2's dealt cards in the reveal."""
    acts = list(reveal["actions"])
    i = next(k for k, a in enumerate(acts) if a.startswith("deal "))
    groups = [g.split(",") for g in acts[i][5:].split("/")]
    groups[0][0], groups[1][0] = groups[1][0], groups[0][0]
    acts[i] = "deal " + "/".join(",".join(g) for g in groups)
    return {**reveal, "actions": acts}


def lying_secret(reveal: dict) -> dict:
    """The host reveals another secret for its own part of the first coin."""
    return {**reveal, "secrets": [bytes(32)] + reveal["secrets"][1:]}


@pytest.mark.parametrize("lie", [lying_deal, lying_secret])
def test_a_lying_host_reveal_is_caught_by_every_joiner(lie):
    m = Match(seed=11)
    m.play(until=lambda m: m.state.round == 1 and m.state.phase.value == "play" and m.state.trick_no == 2)
    reveal_round = 1
    while m.state.round == reveal_round:
        before = m.state.copy()
        a = m.coin() if m.state.chance() else m.choose(m.state.to_act)
        if before.chance() is None and before.to_act in m.joiners:
            m.joiners[before.to_act].heard.own[before.ply] = str(a)
        m.state.push_checked(a)
        m.round_actions.append(str(a))
        for s, j in m.joiners.items():
            for msg in messages_for(before, a, m.state, s):
                j.receive(msg)
    reveal = lie({"t": "round", "round": 1, "first": 0, "actions": m.round_actions, "secrets": m.round_secrets})
    for j in m.joiners.values():
        with pytest.raises(PlayError) as e:
            check_round(j.state, GAME_ID, reveal, j.heard)
        assert e.value.code == "coin" and e.value.seat == 1


def test_a_reveal_with_another_joiners_changed_secret_names_that_seat():
    m = Match(seed=13)
    m.play(until=lambda m: m.state.round == 2)
    reveal = dict(m.reveals[0])
    secrets = list(reveal["secrets"])
    secrets[2] = bytes(32)  # seat 3's part of the first coin
    reveal["secrets"] = secrets
    with pytest.raises(PlayError) as e:
        check_round(State(4), GAME_ID, reveal, m.joiners[2].heard)
    assert e.value.seat == 3 and e.value.code == "coin"
    with pytest.raises(PlayError) as e:  # seat 3 itself sees its own secret changed
        check_round(State(4), GAME_ID, reveal, m.joiners[3].heard)
    assert e.value.code == "coin"


def test_a_decision_put_in_a_joiners_mouth_is_caught_by_that_joiner():
    m = Match(seed=17)
    m.play(until=lambda m: m.state.round == 2)
    j = m.joiners[3]
    ply = next(p for p in sorted(j.heard.own))
    j.heard.own[ply] = "3 play NOTHING"
    with pytest.raises(PlayError) as e:
        check_round(State(4), GAME_ID, m.reveals[0], j.heard)
    assert e.value.seat == 1 and "seat 3 (ours)" in str(e.value) and "did not make" in str(e.value)


def test_every_royals_message_is_a_valid_frame_and_bad_ones_are_refused():
    for msg in [{"t": "commits", "for": 3, "c": [bytes(32)] * 4}, {"t": "act", "ply": 9, "a": "1 play K4"},
                {"t": "you", "ply": 1, "cards": "K4,M3"}, {"t": "hidden", "ply": 2, "seat": 3},
                {"t": "round", "round": 1, "first": 0, "actions": ["start 2"], "secrets": [bytes(32)] * 4}]:
        assert FrameDecoder(SCHEMAS).feed(encode_frame(msg, SCHEMAS)) == [msg]
    from net.framing import FrameError
    for bad in [{"t": "commits", "for": 3, "c": [bytes(31)] * 4}, {"t": "hidden", "ply": 2, "seat": 5},
                {"t": "commits", "for": 3, "c": [bytes(32)] * 5}]:
        with pytest.raises(FrameError):
            encode_frame(bad, SCHEMAS)


def test_coin_outcome_needs_every_seat_and_depends_on_each():
    s = State(4)
    secrets = [bytes([i]) * 32 for i in range(1, 5)]
    a = coin_outcome(s.chance(), GAME_ID, 0, secrets)
    assert str(a) == str(coin_outcome(s.chance(), GAME_ID, 0, secrets))
    s.push(a)
    deal = s.chance()
    outs = {str(coin_outcome(deal, GAME_ID, 1, secrets[:k] + [bytes(32)] + secrets[k + 1:])) for k in range(4)}
    assert len(outs) == 4 and str(coin_outcome(deal, GAME_ID, 1, secrets)) not in outs
    assert len(CARDS) == 36


def test_the_documented_royals_vectors_follow_from_the_layouts():
    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()

    def vector(label):
        m = re.search(rf"^{re.escape(label)}\s+(.+)$", doc, re.M)
        assert m, label
        return m.group(1).strip()

    gid, sec = bytes(range(16)), [bytes([i]) * 32 for i in range(1, 5)]
    p0, p1 = (0).to_bytes(4, "big", signed=True), (1).to_bytes(4, "big", signed=True)
    rng = Rng(int.from_bytes(hashlib.sha256(b"rose-king-lan coin" + gid + p0 + b"".join(sec)).digest()[:8], "big"))
    assert vector("royals start coin (for 0)") == f"start {1 + rng.randbelow(4)}"
    c = hashlib.sha256(b"rose-king-lan commit" + gid + p1 + bytes([peer_of(3)]) + sec[2]).hexdigest()
    assert vector("royals commitment (for 1, seat 3)") == c == commitment(gid, 1, 2, sec[2]).hex()
    d = hashlib.sha256(b"rose-king-lan coin" + gid + p1 + b"".join(sec)).digest()
    assert vector("royals deal digest (for 1)") == d.hex()
    cards = list(CARD_NAMES)
    Rng(int.from_bytes(d[:8], "big")).shuffle(cards)
    text = "deal " + "/".join(",".join(cards[i * 9:(i + 1) * 9]) for i in range(4)) + "/"
    assert vector("royals deal (for 1)") == text
    s = State(4)
    s.push(coin_outcome(s.chance(), gid, 0, sec))
    assert str(coin_outcome(s.chance(), gid, 1, sec)) == text


def test_a_reveal_out_of_order_is_refused():
    m = Match(seed=19)
    m.play(until=lambda m: m.state.round == 2)
    j = m.joiners[4]
    with pytest.raises(PlayError) as e:  # round 1 again, on a copy already past it
        check_round(j.state, GAME_ID, m.reveals[0], j.heard)
    assert e.value.code == "order"


def test_a_false_draw_told_to_a_joiner_shows_in_the_round_check():
    m = Match(seed=23)
    m.play(until=lambda m: m.state.round == 2)
    j = m.joiners[2]
    ply = next(p for p in sorted(j.heard.yous) if p in j.heard.acts and j.heard.acts[p].startswith("2 play"))
    j.heard.yous[ply] = ["KING" if j.heard.yous[ply] != ["KING"] else "QUEEN"]
    with pytest.raises(PlayError) as e:
        check_round(State(4), GAME_ID, m.reveals[0], j.heard)
    assert e.value.seat == 1 and e.value.code == "coin" and "we were told we drew" in e.value.reason
