"""The dealer-free deck in memory (net/deck, docs/mental-poker.md): whole shuffles by 2-4
peers, deals, sub-deck piles, opening to one or to all, the audit, and every cheat named."""

from __future__ import annotations

import gc
import types

import nacl.bindings as na
import pytest
from hypothesis import given, settings, strategies as st

from net.deck import (BrokenDeck, DeckError, DeckPeer, KeyShare, Pass, Shuffle, Withheld, audit,
                      audit_round, card_points, check_claims, decode, joint_choice, secret_ok)
from net.deck.group import L, card_point, check_element, check_scalar, key_commitment, mul
from net.deck.shuffle import rekey_elements, shuffle_pass
from net.coin import commitment
from tests.net.deck_table import MATCH, Table, sid_of

ORDER_8 = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")
IDENTITY = bytes([1]) + bytes(31)


def deal_round_robin(t: Table, sid: bytes, n_cards: int) -> dict[int, list[int]]:
    n = len(t.peers)
    return {o: sorted(t.give(sid, k, o) for k in range(o, n_cards, n)) for o in range(n)}


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_whole_shuffle_and_deal(seats):
    t = Table(seats)
    sid = t.deck(36)
    finals = {p.shuffles[sid].final for p in t.peers}
    assert len(finals) == 1 and None not in finals
    # the final deck holds no input in the clear
    assert not set(next(iter(finals))) & set(card_points(MATCH, 36))
    hands = deal_round_robin(t, sid, 36)
    assert sorted(c for h in hands.values() for c in h) == list(range(36))
    for p in t.peers:  # each peer knows exactly its own positions
        assert {pos for (_, pos) in p.known} == set(range(p.seat, 36, seats))
    cards = audit(t.peers[0].shuffles[sid], t.reveals(sid))
    for p in t.peers:
        for (s, pos), c in p.known.items():
            assert cards[pos] == c


def test_shuffles_differ_and_are_not_the_identity():
    orders = []
    for _ in range(3):
        t = Table(2)
        sid = t.deck(12)
        orders.append(audit(t.peers[0].shuffles[sid], t.reveals(sid)))
    assert len(set(orders)) == 3 and tuple(range(12)) not in orders


def test_royals_two_player_round():
    """Deal 14 + 14 + 8 set aside, keep 7, piles re-shuffled by the other peer, draw, play a
    drawn card to all, the Thief's coin, then the round's audit."""
    t = Table(2)
    sid = t.deck(36)
    dealt = {0: list(range(0, 14)), 1: list(range(14, 28))}   # 28..35 set aside, never opened
    seen = {o: {k: t.give(sid, k, o) for k in ks} for o, ks in dealt.items()}
    for o in (0, 1):
        assert not any((sid, k) in t.peers[o].known for k in range(28, 36))
    piles = {o: t.pile(sid, o, dealt[o][7:], 1 + o) for o in (0, 1)}
    for o, pile in piles.items():
        me, other = t.peers[o], t.peers[1 - o]
        # the owner cannot open its own pile alone: the order is hidden from it too
        assert not me.can_open(pile, 0)
        drawn = t.give(pile, 0, o)
        assert drawn in {seen[o][k] for k in dealt[o][7:]}
        assert (pile, 0) not in other.known
        t.give(pile, 0, None)   # played: opened to all through the parent position
        assert other.open(pile, 0) == drawn
    # the Thief takes one of seat 1's hand positions by a joint coin
    s0, s1 = bytes([7]) * 32, bytes([9]) * 32
    assert secret_ok(MATCH, 5, 0, s0, commitment(MATCH, 5, 0, s0))
    assert not secret_ok(MATCH, 5, 1, s0, commitment(MATCH, 5, 0, s0))
    victim_positions = dealt[1][:7]
    k = victim_positions[joint_choice(MATCH, 5, [s0, s1], 7)]
    assert joint_choice(MATCH, 5, [s0, s1], 7) == joint_choice(MATCH, 5, [s0, s1], 7)
    t.give(sid, k, None)
    assert t.peers[0].open(sid, k) == seen[1][k]
    reveals = {s: t.reveals(s) for s in (sid, *piles.values())}
    cards = audit_round([t.peers[0].shuffles[s] for s in (sid, *piles.values())], reveals)
    assert sorted(cards[(sid, k)] for k in range(36)) == list(range(36))
    check_claims(cards, [(o, sid, k, c) for o in seen for k, c in seen[o].items()])
    with pytest.raises(DeckError) as e:
        check_claims(cards, [(1, sid, k, (seen[1][k] + 1) % 36)])
    assert e.value.seat == 1 and "claimed card" in e.value.reason


@pytest.mark.parametrize("seats,dealt_each,hand", [(2, 14, 7), (3, 12, 6), (4, 9, 5)])
def test_royals_round_for_every_table_size(seats, dealt_each, hand):
    """A whole round's deck work (ruling 4): deal, keep (each player keeps its lowest cards),
    each pile re-shuffled by the others, every pile card drawn by its owner, then every card
    played to all; nobody could open another's card before it was played; the audit agrees."""
    t = Table(seats)
    sid = t.deck(36)
    dealt = {o: list(range(o * dealt_each, (o + 1) * dealt_each)) for o in range(seats)}
    owners = {(sid, k): o for o, ks in dealt.items() for k in ks}
    seen = {o: {k: t.give(sid, k, o) for k in ks} for o, ks in dealt.items()}
    piles, drawn = {}, {}
    for o in range(seats):
        kept = sorted(dealt[o], key=lambda k: seen[o][k])[:hand]
        pile = t.pile(sid, o, [k for k in dealt[o] if k not in kept], 1 + o)
        piles[o] = pile
        drawn[o] = [t.give(pile, j, o) for j in range(dealt_each - hand)]
        owners.update({(pile, j): o for j in range(dealt_each - hand)})
        assert sorted(drawn[o]) == sorted(seen[o][k] for k in dealt[o] if k not in kept)
    assert leaks(t, owners) == []
    for o in range(seats):
        for j in range(dealt_each - hand):
            t.give(piles[o], j, None)
        for k in dealt[o]:
            t.give(sid, k, None)
    order = [sid, *piles.values()]
    cards = audit_round([t.peers[0].shuffles[s] for s in order], {s: t.reveals(s) for s in order})
    assert sorted(cards[(sid, k)] for k in range(36)) == list(range(36))
    check_claims(cards, [(o, s, pos, c) for o in range(seats) for (s, pos), c in t.peers[o].known.items()])
    assert set(cards[(sid, k)] for k in range(seats * dealt_each, 36)).isdisjoint(
        c for p in t.peers for c in p.known.values())   # the set-aside stayed unseen


# -- cheats -------------------------------------------------------------------------------------

def cheat_pass(t: Table, sid: bytes, mutate) -> int:
    """The peer whose turn it is makes its honest pass, ``mutate(pass, peer)`` changes it, the
    cheater keeps the changed one and sends it. Returns the cheater's seat."""
    sh = t.peers[0].shuffles[sid]
    kind, seat = sh.expect()
    cheater = t.peers[seat]
    mine = cheater.shuffles[sid]
    honest = DeckPeer(seat, cheater._seed)
    honest.shuffles[sid] = _copy(mine)
    p = mutate(honest.step(sid), cheater)
    mine.passes.append(p)
    for q in t.peers:
        if q.seat != seat:
            q.receive(p.to_bytes(), seat)
    return seat


def _copy(sh: Shuffle) -> Shuffle:
    c = Shuffle(sh.sid, sh.inputs, sh.origins, sh.shufflers, sh.keyers, sh.parent)
    c.passes = list(sh.passes)
    return c


def _replace(p: Pass, j: int, element: bytes) -> Pass:
    e = list(p.elements)
    e[j] = element
    return Pass(p.sid, p.step, p.seat, tuple(e), p.commitments)


def _start(seats=3, n=12):
    t = Table(seats)
    seat_list = list(range(seats))
    pts = card_points(MATCH, n)
    sid = t.start(lambda: Shuffle(sid_of(1, 0), pts, range(n), seat_list, seat_list))
    return t, sid


def test_substituted_card_is_named_by_the_audit():
    t, sid = _start()
    t.broadcast(0, t.peers[0].step(sid).to_bytes())
    foreign = card_point(b"another match", 3)
    cheater = cheat_pass(t, sid, lambda p, c: _replace(p, 4, mul(c.scalar(sid), foreign)))
    t.run(sid)
    broken = []
    for k in range(12):
        try:
            t.give(sid, k, k % 3)
        except BrokenDeck:
            broken.append(k)
    assert len(broken) == 1, "the substituted card opens to no card, the others open"
    with pytest.raises(DeckError) as e:
        audit(t.peers[2].shuffles[sid], t.reveals(sid))
    assert e.value.seat == cheater == 1 and "substituted" in e.value.reason


def test_duplicated_card_is_refused_at_once_and_a_disguised_one_by_the_audit():
    t, sid = _start()
    with pytest.raises(DeckError) as e:
        cheat_pass(t, sid, lambda p, c: _replace(p, 0, p.elements[1]))
    assert e.value.seat == 0 and "duplicated" in e.value.reason
    t, sid = _start()
    two = (2).to_bytes(32, "little")
    cheat_pass(t, sid, lambda p, c: _replace(p, 0, mul(two, p.elements[1])))
    t.run(sid)
    with pytest.raises(DeckError) as e:
        audit(t.peers[1].shuffles[sid], t.reveals(sid))
    assert e.value.seat == 0


def test_dropped_card_is_refused_naming_the_sender():
    t, sid = _start()
    with pytest.raises(DeckError) as e:
        cheat_pass(t, sid, lambda p, c: Pass(p.sid, p.step, p.seat, p.elements[:-1]))
    assert e.value.seat == 0 and "dropped" in e.value.reason
    assert t.peers[1].shuffles[sid].passes == []   # nothing applied


def test_false_permutation_in_the_reveal_is_named():
    t, sid = _start(2, 6)
    t.run(sid)
    rv = t.reveals(sid)
    r = rv[1]
    rv[1] = type(r)(r.sid, r.seat, r.scalar, (r.perm[0],) * 6, r.keys)
    with pytest.raises(DeckError) as e:
        audit(t.peers[0].shuffles[sid], rv)
    assert e.value.seat == 1 and "not a permutation" in e.value.reason


def test_wrong_key_is_refused_when_sent_naming_the_sender():
    t = Table(3)
    sid = t.deck(9)
    bad = KeyShare(sid, 2, 0, (12345).to_bytes(32, "little"))
    for p in t.peers[:2]:
        with pytest.raises(DeckError) as e:
            p.receive(bad.to_bytes(), 2)
        assert e.value.seat == 2 and "wrong key" in e.value.reason
        assert (2, 0) not in p.shuffles[sid].shares     # nothing kept
    with pytest.raises(DeckError) as e:   # not even a scalar
        t.peers[0].receive(KeyShare(sid, 2, 0, b"\xff" * 32).to_bytes(), 2)
    assert e.value.seat == 2
    with pytest.raises(DeckError):        # a key for a position of another keyer
        t.peers[0].receive(KeyShare(sid, 1, 0, t.peers[2].key(sid, 0)).to_bytes(), 1)


def test_mis_keyed_position_breaks_the_opening_and_the_audit_names_it():
    t, sid = _start()
    while t.peers[0].shuffles[sid].expect() != ("rekey", 1):
        nxt = t.peers[0].shuffles[sid].expect()
        t.broadcast(nxt[1], t.peers[nxt[1]].step(sid).to_bytes())
    other = (777).to_bytes(32, "little")

    def miskey(p, c):
        sh = c.shuffles[sid]
        e = list(p.elements)
        e[5] = rekey_elements([sh.deck(p.step)[5]], c.scalar(sid), [other])[0]
        return Pass(p.sid, p.step, p.seat, tuple(e), p.commitments)
    cheat_pass(t, sid, miskey)
    t.run(sid)
    with pytest.raises(BrokenDeck):
        t.give(sid, 5, 0)
    with pytest.raises(DeckError) as e:
        audit(t.peers[0].shuffles[sid], t.reveals(sid))
    assert e.value.seat == 1 and "mis-keyed" in e.value.reason


@pytest.mark.parametrize("element,why", [
    (IDENTITY, "identity"),
    (ORDER_8, "small order"),
    (b"\xed" + b"\xff" * 30 + b"\x7f", "non-canonical"),
    (bytes(31) + b"\x80", "order 4, sign bit"),
    (b"\x02" * 32, "not on the curve or not in the subgroup"),
])
def test_invalid_elements_are_refused_naming_the_sender(element, why):
    t, sid = _start()
    with pytest.raises(DeckError) as e:
        cheat_pass(t, sid, lambda p, c: _replace(p, 3, element))
    assert e.value.seat == 0 and "element 3" in e.value.reason, why


def test_a_small_order_tag_on_a_card_is_refused():
    """The attack validation stops: a card tagged with a component of order 8 (P + T8) is on
    the curve but not in the prime-order subgroup."""
    t, sid = _start()
    tagged = na.crypto_core_ed25519_add(card_point(MATCH, 0), ORDER_8)
    assert not na.crypto_core_ed25519_is_valid_point(tagged)
    with pytest.raises(DeckError) as e:
        cheat_pass(t, sid, lambda p, c: _replace(p, 0, tagged))
    assert e.value.seat == 0 and "prime-order" in e.value.reason


def test_out_of_turn_and_foreign_passes_are_refused():
    t, sid = _start()
    p = t.peers[1]
    honest = DeckPeer(1, p._seed)
    honest.shuffles[sid] = _copy(p.shuffles[sid])
    fake = shuffle_pass(sid, 0, 1, p.shuffles[sid].inputs, honest.scalar(sid), honest.perm(sid, 12))
    with pytest.raises(DeckError) as e:
        t.peers[0].receive(fake.to_bytes(), 1)
    assert e.value.seat == 1 and "out of turn" in e.value.reason
    with pytest.raises(DeckError) as e:
        t.peers[0].receive(fake.to_bytes(), 2)   # claims to be seat 1, came from seat 2
    assert e.value.seat == 2 and "another seat" in e.value.reason


def test_reroll_with_fresh_secrets_is_refused():
    """A peer that reconnects with fresh secrets to re-roll contradicts what it sent: its
    second pass for a step, or a key that does not open its commitment, names it. The same
    peer back from its journal resends the same bytes, which are ignored."""
    t, sid = _start()
    first = t.peers[0].step(sid)
    t.broadcast(0, first.to_bytes())
    resumed = DeckPeer.from_bytes(t.peers[0].to_bytes())
    assert resumed.shuffles[sid].passes == [first]
    again = DeckPeer(0, resumed._seed)   # only the seed kept: the same pass again
    again.add(Shuffle(sid, t.peers[0].shuffles[sid].inputs, range(12), [0, 1, 2], [0, 1, 2]))
    assert again.step(sid) == first
    t.peers[1].receive(first.to_bytes(), 0)   # a resent pass is ignored, not applied twice
    assert t.peers[1].shuffles[sid].passes == [first]
    fresh = DeckPeer(0)
    fresh.add(Shuffle(sid, t.peers[0].shuffles[sid].inputs, range(12), [0, 1, 2], [0, 1, 2]))
    with pytest.raises(DeckError) as e:
        t.peers[1].receive(fresh.step(sid).to_bytes(), 0)
    assert e.value.seat == 0 and "second, different pass" in e.value.reason
    t.run(sid)
    fresh_key = KeyShare(sid, 0, 4, DeckPeer(0).key(sid, 4))
    with pytest.raises(DeckError) as e:
        t.peers[2].receive(fresh_key.to_bytes(), 0)
    assert e.value.seat == 0


def test_withheld_reveal_is_named():
    t = Table(3)
    sid = t.deck(6)
    rv = t.reveals(sid)
    del rv[2]
    with pytest.raises(Withheld) as e:
        audit(t.peers[0].shuffles[sid], rv)
    assert e.value.seat == 2


def test_open_needs_every_key_and_learns_nothing_before():
    t = Table(3)
    sid = t.deck(6)
    t.broadcast(1, t.peers[1].share(sid, 0).to_bytes())
    with pytest.raises(KeyError):
        t.peers[0].open(sid, 0)
    assert t.peers[0].known == {} and not t.peers[0].can_open(sid, 0)


def test_set_up_errors():
    pts = card_points(MATCH, 3)
    with pytest.raises(ValueError):
        Shuffle(b"s", pts + pts[:1], range(4), [0], [0])
    with pytest.raises(ValueError):
        Shuffle(b"s", pts, range(3), [0, 1], [0])
    with pytest.raises(ValueError):
        DeckPeer(0, b"short")
    p = DeckPeer(0)
    p.add(Shuffle(b"s", pts, range(3), [0], [0]))
    with pytest.raises(ValueError):
        p.add(Shuffle(b"s", pts, range(3), [0], [0, 1]))
    with pytest.raises(DeckError):
        check_scalar(L.to_bytes(32, "little"), 3, "x")
    with pytest.raises(DeckError):
        check_scalar(bytes(32), 3, "x")
    with pytest.raises(DeckError):
        check_element(b"\x01", 3, "x")


def test_journal_round_trip_and_damage():
    t = Table(2)
    sid = t.deck(8)
    deal_round_robin(t, sid, 8)
    data = t.peers[1].to_bytes()
    back = DeckPeer.from_bytes(data)
    assert back.known == t.peers[1].known and back.shuffles[sid].final == t.peers[1].shuffles[sid].final
    assert back.reveal(sid) == t.peers[1].reveal(sid)
    for bad in (data[:-5], b"\x00" + data, data.replace(b"rose-king-deck-peer", b"rose-king-deck-pear")):
        with pytest.raises(ValueError):
            DeckPeer.from_bytes(bad)


# -- no peer holds another's unopened card ----------------------------------------------------

def held_bytes(root: object) -> set[bytes]:
    """Every bytes object reachable from ``root`` through its attributes and containers."""
    out, seen, stack = set(), set(), [root]
    while stack:
        o = stack.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        if isinstance(o, bytes):
            out.add(o)
        elif not isinstance(o, (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
                                int, str, float)):
            stack.extend(gc.get_referents(o))
    return out


def leaks(t: Table, owners: dict[tuple[bytes, int], int]) -> list[str]:
    """Which peer holds every keyer's key of a position it does not own (it could open another
    seat's card), or another peer's deck-wide scalar or seed."""
    found = []
    for p in t.peers:
        held = held_bytes(p)
        for q in t.peers:
            if q.seat != p.seat and (q._seed in held or any(q.scalar(s) in held for s in q.shuffles)):
                found.append(f"seat {p.seat} holds seat {q.seat}'s secrets")
        for (sid, pos), owner in owners.items():
            sh = p.shuffles[sid]
            if owner not in (p.seat, None) and all(
                    q == p.seat or t.peers[q].key(sid, pos) in held for q in sh.keyers):
                found.append(f"seat {p.seat} can open seat {owner}'s position {pos}")
        assert all(owners.get(k) in (p.seat, None) for k in p.known)
    return found


def test_no_peer_holds_another_seats_unopened_card():
    t = Table(4)
    sid = t.deck(36)
    owners = {(sid, k): k % 4 for k in range(36)}
    deal_round_robin(t, sid, 36)
    assert leaks(t, owners) == []
    # nor any byte on the wire: no owner's own key of a dealt position was ever sent
    wire = b"".join(data for _, data in t.sent)
    assert not any(t.peers[o].key(sid, k) in wire for (_, k), o in owners.items())
    assert all(t.peers[q].key(sid, k) in wire for (_, k), o in owners.items() for q in range(4) if q != o)


def test_the_leak_check_fails_on_a_leaky_deal():
    """A deliberately leaky variant: the owner sends its own key too when a card is dealt
    (as a program that "opens to the owner" by opening to all would)."""
    t = Table(3)
    sid = t.deck(9)
    owners = {(sid, k): k % 3 for k in range(9)}
    for (s, k), o in owners.items():
        t.give(s, k, o)
        t.broadcast(o, t.peers[o].share(s, k).to_bytes())   # the leak
    found = leaks(t, owners)
    assert len(found) == 2 * 9


# -- properties ---------------------------------------------------------------------------------

@settings(max_examples=15, deadline=None)
@given(seats=st.integers(2, 4), n=st.integers(1, 10), data=st.data())
def test_any_table_deals_a_permutation_and_the_audit_agrees(seats, n, data):
    t = Table(seats)
    sid = t.deck(n)
    owners = data.draw(st.lists(st.sampled_from([None, *range(seats)]), min_size=n, max_size=n))
    for k, o in enumerate(owners):
        t.give(sid, k, o)
    cards = audit(t.peers[0].shuffles[sid], t.reveals(sid))
    assert sorted(cards) == list(range(n))
    for k, o in enumerate(owners):
        for p in t.peers:
            if o in (None, p.seat):
                assert p.open(sid, k) == cards[k]
            else:
                assert (sid, k) not in p.known


@settings(max_examples=10, deadline=None)
@given(seats=st.integers(2, 4), cut=st.integers(0, 8), who=st.integers(0, 3))
def test_a_peer_resumed_from_its_journal_mid_shuffle_continues_identically(seats, cut, who):
    who %= seats
    seeds = [bytes([s + 1]) * 32 for s in range(seats)]
    ref = Table(peers=[DeckPeer(s, seeds[s]) for s in range(seats)])
    ref_sid = ref.deck(9)
    t = Table(peers=[DeckPeer(s, seeds[s]) for s in range(seats)])
    pts = card_points(MATCH, 9)
    sid = t.start(lambda: Shuffle(sid_of(1, 0), pts, range(9), range(seats), range(seats)))
    for _ in range(cut):
        nxt = t.peers[0].shuffles[sid].expect()
        if nxt is None:
            break
        t.broadcast(nxt[1], t.peers[nxt[1]].step(sid).to_bytes())
    t.peers[who] = DeckPeer.from_bytes(t.peers[who].to_bytes())
    t.run(sid)
    assert t.peers[who].shuffles[sid].final == ref.peers[who].shuffles[ref_sid].final


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200), st.integers(0, 255))
def test_decode_refuses_any_bytes_with_a_deck_error(data, sender):
    try:
        msg = decode(data, sender)
    except DeckError as e:
        assert e.seat == sender
    else:
        assert msg.seat == sender and decode(msg.to_bytes(), sender) == msg


def test_commitment_binds_seat_position_and_shuffle():
    k = (5).to_bytes(32, "little")
    c = key_commitment(b"sid", 1, 2, k)
    assert c != key_commitment(b"sie", 1, 2, k) != key_commitment(b"sid", 2, 2, k)
    assert c != key_commitment(b"sid", 1, 3, k)


@settings(max_examples=30, deadline=None)
@given(seats=st.integers(2, 4), n=st.integers(2, 8), data=st.data())
def test_any_tampered_pass_is_refused_or_named_and_never_deals_a_false_card(seats, n, data):
    """One step of a shuffle is tampered with (a foreign element, an element times 2, two
    elements swapped, a card dropped or repeated): either it is refused when received, naming
    its author, or every position opens to no card or to a card nobody else opens (never a
    duplicate), and the audit names the author."""
    t, sid = _start(seats, n)
    sh0 = t.peers[0].shuffles[sid]
    at = data.draw(st.integers(0, len(sh0.steps) - 1))
    how = data.draw(st.sampled_from(["foreign", "double", "swap", "drop", "repeat"]))
    j = data.draw(st.integers(0, n - 1))
    k = (j + 1) % n
    for _ in range(at):
        nxt = sh0.expect()
        t.broadcast(nxt[1], t.peers[nxt[1]].step(sid).to_bytes())
    cheater = sh0.expect()[1]

    def mutate(p, c):
        e = list(p.elements)
        if how == "foreign":
            e[j] = card_point(b"a foreign deck", j)
        elif how == "double":
            e[j] = mul((2).to_bytes(32, "little"), e[j])
        elif how == "swap":
            e[j], e[k] = e[k], e[j]
        elif how == "drop":
            e.pop()
        else:
            e[j] = e[k]
        return Pass(p.sid, p.step, p.seat, tuple(e), p.commitments)
    try:
        cheat_pass(t, sid, mutate)
    except DeckError as e:
        assert e.seat == cheater and how in ("drop", "repeat")
        return
    t.run(sid)
    opened = []
    for pos in range(n):
        try:
            t.give(sid, pos, None)
            opened.append(t.peers[0].open(sid, pos))
        except BrokenDeck:
            pass
    assert len(set(opened)) == len(opened)
    with pytest.raises(DeckError) as e:
        audit(t.peers[-1].shuffles[sid], t.reveals(sid))
    assert e.value.seat == cheater


POOL = [card_point(MATCH, 0), card_point(MATCH, 1), card_point(MATCH, 2), IDENTITY, ORDER_8, b"\x02" * 32, b"\x00" * 31]


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_any_pass_or_share_from_anyone_is_refused_with_a_deck_error_or_applied(data):
    """Structurally plausible messages with any step, seat, elements, positions and keys fed
    to a peer mid-shuffle or after it: a DeckError naming the sender, never another exception."""
    t, sid = _start(2, 3)
    done = data.draw(st.integers(0, 4))
    for _ in range(done):
        nxt = t.peers[0].shuffles[sid].expect()
        t.broadcast(nxt[1], t.peers[nxt[1]].step(sid).to_bytes())
    sender = data.draw(st.integers(0, 3))
    if data.draw(st.booleans()):
        msg = Pass(sid, data.draw(st.integers(0, 255)), sender,
                   tuple(data.draw(st.lists(st.sampled_from(POOL), max_size=4))),
                   tuple(data.draw(st.lists(st.binary(min_size=32, max_size=32), max_size=4))))
    else:
        msg = KeyShare(sid, sender, data.draw(st.integers(0, 5)),
                       data.draw(st.sampled_from([bytes(32), b"\xff" * 32, (3).to_bytes(32, "little"),
                                                  t.peers[sender % 2].key(sid, 0)])))
    receiver = t.peers[1 - sender % 2] if sender < 2 else t.peers[0]
    try:
        receiver.receive(msg.to_bytes(), sender)
    except DeckError as e:
        assert e.seat == sender


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_false_reveal_is_named(data):
    """A reveal with its scalar, permutation or one key changed (or cut) names its sender in
    the audit; the honest reveals alone pass."""
    t = Table(3)
    sid = t.deck(5)
    rv = t.reveals(sid)
    assert sorted(audit(t.peers[0].shuffles[sid], rv)) == list(range(5))
    who = data.draw(st.integers(0, 2))
    r = rv[who]
    field = data.draw(st.sampled_from(["scalar", "perm", "key", "cut", "no scalar"]))
    if field == "scalar":
        r = type(r)(r.sid, who, (data.draw(st.integers(0, 2**256 - 1))).to_bytes(32, "little"), r.perm, r.keys)
    elif field == "perm":
        perm = data.draw(st.lists(st.integers(0, 6), min_size=0, max_size=6))
        if tuple(perm) == r.perm:
            return
        r = type(r)(r.sid, who, r.scalar, tuple(perm), r.keys)
    elif field == "key":
        j = data.draw(st.integers(0, 4))
        keys = list(r.keys)
        keys[j] = data.draw(st.binary(min_size=32, max_size=32))
        if keys[j] == r.keys[j]:
            return
        r = type(r)(r.sid, who, r.scalar, r.perm, tuple(keys))
    elif field == "cut":
        r = type(r)(r.sid, who, r.scalar, r.perm, r.keys[:-1])
    else:
        r = type(r)(r.sid, who, b"", (), r.keys)
    rv[who] = decode(r.to_bytes(), who)
    with pytest.raises(DeckError) as e:
        audit(t.peers[1].shuffles[sid], rv)
    assert e.value.seat == who
