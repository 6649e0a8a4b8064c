"""Scenario tests: every ruling (1-10), every addendum point (A1-A7) at the engine level, and
each example of the Dutch rule text."""

import pytest

from game.royals.engine import (CARDS, POINTS, Card, IllegalMoveError, Phase, Rank, State, strength,
                                trick_winner)
from game.royals.engine.state import _lowest_scorer, _starting_team, _team_pick

from .helpers import names, play


def pos(players, hands, piles=None, **kw):
    return State.from_position(players, {s: h.split() for s, h in hands.items()},
                               {s: p.split() for s, p in (piles or {}).items()}, **kw)


# ---------------------------------------------------------------- rulings 1-3
def test_ruling1_the_36_cards_and_named_cards():
    assert len(CARDS) == 36 and len({c.name for c in CARDS}) == 36
    by_rank = {r: [c for c in CARDS if c.rank == r] for r in Rank}
    assert [len(by_rank[r]) for r in Rank] == [1, 1, 7, 7, 7, 10]
    assert [c.name for c in CARDS if c.rank is None] == ["THIEF", "EXECUTIONER", "BEGGAR"]
    assert [c.name for c in CARDS if c.is_prince] == ["R3", "R5"]
    assert [c.name for c in CARDS if c.is_rebels] == ["P7"]
    assert [c.name for c in CARDS if c.is_guildmaster] == ["R4", "K4", "M4", "P4"]
    with pytest.raises(ValueError, match="unknown card"):
        Card.from_name("K8")


def test_ruling2_points_table():
    pts = {c.name: c.points for c in CARDS}
    assert {n for n, p in pts.items() if p == 3} == {"KING", "QUEEN", "R3", "R5", "P7"}
    assert pts["THIEF"] == pts["EXECUTIONER"] == 0 and pts["BEGGAR"] == -3
    assert sum(POINTS) == 40
    assert all(p == 1 for n, p in pts.items() if n not in {"KING", "QUEEN", "R3", "R5", "P7", "THIEF",
                                                          "EXECUTIONER", "BEGGAR"})


def test_ruling3_hierarchy_normal_and_reversed():
    order = [c.index for c in CARDS if c.rank is not None]
    assert sorted(order, key=lambda i: -strength(i, False)) == order  # King first ... P10 last
    assert sorted(order, key=lambda i: -strength(i, True)) == order[::-1]  # P10 first ... King last
    c = Card.from_name
    # the text's example: Peasant 1 beats Peasant 2, Merchant 7 beats Peasant 1
    assert trick_winner([(1, c("P2")), (2, c("P1"))], Rank.PEASANTS, False) == 2
    assert trick_winner([(1, c("P1")), (2, c("M7"))], Rank.PEASANTS, False) == 2
    assert trick_winner([(1, c("P1")), (2, c("P2"))], Rank.PEASANTS, True) == 2
    assert trick_winner([(1, c("KING")), (2, c("P10"))], Rank.KING, True) == 2
    assert trick_winner([(1, c("BEGGAR")), (2, c("THIEF"))], None, False) is None


# ---------------------------------------------------------------- ruling 4: set-up
@pytest.mark.parametrize("players,dealt,kept,aside", [(2, 14, 7, 8), (3, 12, 6, 0), (4, 9, 5, 0)])
def test_ruling4_setup_sizes_choice_and_piles(players, dealt, kept, aside):
    from game.royals.engine import Action, Rng
    s = State(players)
    assert s.chance().kind is Phase.START
    s.push(s.chance().sample(Rng(1)))
    deal = s.chance().sample(Rng(2))
    assert [len(g) for g in deal.groups] == [dealt] * players + [aside]
    s.push_checked(deal)
    assert s.phase is Phase.KEEP and s.to_act == 1 and not s.revolution
    g = deal.groups[0]
    with pytest.raises(IllegalMoveError, match="wrong hand size"):
        s.push_checked(Action.keep(1, g[:kept - 1]))
    other = deal.groups[1][0]
    with pytest.raises(IllegalMoveError, match="not a subset of the deal"):
        s.push_checked(Action.keep(1, list(g[:kept - 1]) + [other]))
    for seat in range(1, players + 1):
        s.push_checked(Action.keep(seat, deal.groups[seat - 1][:kept]))
    assert s.phase is Phase.PILE and s.chance().kind is Phase.PILE
    with pytest.raises(IllegalMoveError, match="bad pile"):
        s.push_checked(Action.pile(1, g[:dealt - kept]))
    for seat in range(1, players + 1):
        ev = s.chance()
        assert ev.seat == seat and set(ev.cards) == set(deal.groups[seat - 1][kept:])
        s.push_checked(Action.pile(seat, deal.groups[seat - 1][kept:][::-1]))
    assert s.phase is Phase.PLAY and s.to_act == s.starter
    o = s.observation(1)
    assert set(o.pile) == set(g[kept:]) and o.hand == tuple(sorted(g[:kept]))


def test_ruling4_bad_deal():
    from game.royals.engine import Action
    s = play(State(3), "start 1")
    with pytest.raises(IllegalMoveError, match="bad deal: P1 is dealt twice"):
        s.push_checked(Action.deal([CARDS[:12], CARDS[12:24], CARDS[23:35], ()]))
    with pytest.raises(IllegalMoveError, match="bad deal"):
        s.push_checked(Action.deal([CARDS[:12], CARDS[12:24], CARDS[24:36], CARDS[:1]]))


# ---------------------------------------------------------------- rulings 5-6: trick, draw, follow
def test_ruling5_seat_order_and_draw_from_own_pile():
    s = pos(3, {1: "K5 P1", 2: "K6 P2", 3: "K7 P3"}, {1: "R1", 2: "R2", 3: "R6"}, leader=2)
    assert s.to_act == 2
    with pytest.raises(IllegalMoveError, match="wrong seat"):
        s.push_str("1 play K5")
    play(s, "2 play K6")
    assert names(s.hand(2)) == ["R2", "P2"] and s.piles[1] == []
    assert s.to_act == 3
    play(s, "3 play K7", "1 play K5")
    assert s.leader == 1 and s.trick_no == 2 and names(s.hand(1)) == ["R1", "P1"]


def test_ruling6_must_follow_with_any_card_of_the_led_rank():
    s = pos(3, {1: "K6 P1 P2", 2: "K3 K7 R1", 3: "M1 M2 THIEF"})
    play(s, "1 play K6")
    with pytest.raises(IllegalMoveError, match="^must follow Knights$"):
        s.push_str("2 play R1")
    with pytest.raises(IllegalMoveError, match="^not in hand$"):
        s.push_str("2 play K5")
    assert sorted(a.card.name for a in s.legal_actions()) == ["K3", "K7"]
    play(s, "2 play K7")
    assert sorted(a.card.name for a in s.legal_actions()) == ["M1", "M2", "THIEF"]  # no Knights: free


def test_ruling6_rankless_cards_may_always_be_played():
    s = pos(3, {1: "K6 P1", 2: "K3 EXECUTIONER", 3: "K1 BEGGAR"})
    play(s, "1 play K6", "2 play EXECUTIONER", "3 play BEGGAR")
    assert s.phase is Phase.EXECUTE


def test_ruling6_rankless_lead_no_rank_and_no_guildmaster():
    s = pos(3, {1: "BEGGAR P1", 2: "K4 K1", 3: "R6 K2"})
    play(s, "1 play BEGGAR")
    assert s.observation(2).led is None
    assert len(s.legal_actions()) == 2
    play(s, "2 play K4", "3 play R6")  # seat 3 may play a Royal although it holds a Knight
    assert s.leader == 3 and names([CARDS[i] for i in range(36) if s.loot[2] >> i & 1]) == ["R6", "K4", "BEGGAR"]


def test_ruling6_led_rank_stays_when_the_first_card_leaves_the_trick():
    s = pos(4, {1: "K5 P1", 2: "THIEF P2", 3: "R1 P3", 4: "K4 P5"})
    play(s, "1 play K5", "2 play THIEF", "3 play R1", "4 play K4", "2 steal 1 P1")
    assert names(s.hand(1)) == ["K5"]  # took K5 back; P1 stolen
    assert s.loot[1] == (1 << Card.from_name("P1").index)
    assert s.leader == 4  # Knights are still asked, the Knights' Guildmaster works: K4 beats R1


# ---------------------------------------------------------------- rule text examples
def test_text_example_guildmaster_fien_roy_ellen_sven():
    s = pos(4, {1: "M1 P9", 2: "M5 P8", 3: "K5 P10", 4: "M4 P6"})
    play(s, "1 play M1", "2 play M5", "3 play K5", "4 play M4")
    assert s.leader == 1 and s.round_points()[0] == 4


def test_text_example_guildmaster_without_it_the_higher_rank_wins():
    s = pos(4, {1: "M1 P9", 2: "M5 P8", 3: "K5 P10", 4: "M6 P6"})
    play(s, "1 play M1", "2 play M5", "3 play K5", "4 play M6")
    assert s.leader == 3


def test_text_example_guildmaster_of_another_rank_pim_lisanne_jeroen_lois():
    s = pos(4, {1: "P1 M1", 2: "K4 M2", 3: "R2 M3", 4: "P4 M5"})
    play(s, "1 play P1", "2 play K4", "3 play R2", "4 play P4")
    assert s.leader == 1


def test_text_example_revolution_bob_gerard_tom_sofie():
    s = pos(4, {1: "K2 M1", 2: "P7 M2", 3: "K6 M3", 4: "P9 M5"})
    play(s, "1 play K2", "2 play P7", "3 play K6", "4 play P9")
    assert s.revolution and s.leader == 4


# ---------------------------------------------------------------- ruling 7: resolution
def test_resolution_order_thief_returns_the_executioner_then_rebels_and_prince():
    # Thief robs the Executioner's player: the Executioner goes back, nothing is executed;
    # Rebels start a revolution and the Prince in the same trick ends it: normal order.
    s = pos(4, {1: "R3 P1", 2: "THIEF P2", 3: "P7 P3", 4: "EXECUTIONER P5"})
    play(s, "1 play R3", "2 play THIEF", "3 play P7", "4 play EXECUTIONER")
    assert s.phase is Phase.STEAL and s.to_act == 2
    play(s, "2 steal 4 P5")
    assert s.phase is Phase.PLAY and not s.revolution and s.leader == 1
    assert names(s.hand(4)) == ["EXECUTIONER"]


def test_resolution_order_executed_prince_leaves_the_revolution():
    s = pos(4, {1: "R3 P1", 2: "THIEF P2", 3: "P7 P3", 4: "EXECUTIONER P5"})
    play(s, "1 play R3", "2 play THIEF", "3 play P7", "4 play EXECUTIONER", "2 steal none")
    assert s.phase is Phase.EXECUTE and s.to_act == 4
    with pytest.raises(IllegalMoveError, match="^cannot execute itself$"):
        s.push_str("4 execute EXECUTIONER")
    with pytest.raises(IllegalMoveError, match="^card not in the trick$"):
        s.push_str("4 execute P1")
    with pytest.raises(IllegalMoveError, match="the Executioner must choose first"):
        s.push_str("1 play P1")
    play(s, "4 execute R3")
    assert s.revolution and s.leader == 3  # only the Rebels are ranked
    assert (s.removed >> Card.from_name("R3").index) & 1


def test_resolution_executed_rebels_start_nothing_and_only_rankless_remain():
    s = pos(4, {1: "R3 P1", 2: "THIEF P2", 3: "P7 P3", 4: "EXECUTIONER P5"})
    play(s, "1 play R3", "2 play THIEF", "3 play P7", "4 play EXECUTIONER", "2 steal 1 P1")
    assert names(s.hand(1)) == ["R3"]  # the Prince went back to its player
    play(s, "4 execute P7")
    assert not s.revolution
    assert s.leader == 1 and s.to_act == 1 and s.round_points() == (0, 1, 0, 0)  # nobody won the trick


def test_all_rankless_trick_nobody_wins_and_the_same_leader_leads():
    s = pos(3, {1: "BEGGAR P1", 2: "THIEF P2", 3: "EXECUTIONER P3"}, leader=1)
    play(s, "1 play BEGGAR", "2 play THIEF", "3 play EXECUTIONER", "2 steal none", "3 execute BEGGAR")
    assert s.leader == 1 and s.to_act == 1 and s.trick_no == 2
    assert s.round_points() == (0, 0, 0) and s.removed.bit_count() == 3


def test_executed_beggar_costs_nobody():
    s = pos(2, {1: "KING P1", 2: "EXECUTIONER BEGGAR"}, leader=2)
    play(s, "2 play BEGGAR", "1 play KING")
    assert s.round_points() == (0, 0)  # KING 3 + BEGGAR -3 in seat 1's loot
    s = pos(2, {1: "KING BEGGAR", 2: "EXECUTIONER P1"})
    play(s, "1 play BEGGAR", "2 play EXECUTIONER", "2 execute BEGGAR")
    assert s.round_points() == (0, 0) and s.leader == 1


def test_beggar_costs_its_winner_three():
    s = pos(2, {1: "KING P1", 2: "BEGGAR P2"})
    play(s, "1 play KING", "2 play BEGGAR")
    assert s.round_points() == (0, 0)
    play(s, "1 play P1", "2 play P2")
    assert s.round_scores == [(2, 0)]  # the round is over: KING 3 - BEGGAR 3 + P1 + P2
    s = pos(2, {1: "KING P1", 2: "BEGGAR P2"}, leader=2)
    play(s, "2 play BEGGAR", "1 play P1")
    assert s.round_points() == (-2, 0)


def test_revolution_lasts_across_tricks_until_a_prince():
    s = pos(3, {1: "K2 P10 R1 M1", 2: "P7 P9 R5 M2", 3: "K6 P8 R2 M3"})
    play(s, "1 play K2", "2 play P7", "3 play K6")
    assert s.revolution and s.leader == 2  # P7 beats the Knights in the reversed order
    play(s, "2 play P9", "3 play P8", "1 play P10")
    assert s.revolution and s.leader == 1  # P10 is the highest card now
    play(s, "1 play R1", "2 play R5", "3 play R2")
    assert not s.revolution and s.leader == 1  # the Prince ended it: R1 is highest again


def test_prince_without_revolution_does_nothing_and_rebels_with_prince_leave_normal():
    s = pos(2, {1: "R5 P1", 2: "R6 P2"})
    play(s, "1 play R5", "2 play R6")
    assert not s.revolution and s.leader == 1
    s = pos(2, {1: "R5 P1", 2: "P7 P2"})
    play(s, "1 play R5", "2 play P7")
    assert not s.revolution and s.leader == 1
    s = pos(2, {1: "R5 P1", 2: "P7 P2"}, revolution=True)
    play(s, "1 play R5", "2 play P7")
    assert not s.revolution and s.leader == 1


def test_thief_rules():
    s = pos(3, {1: "THIEF P1", 2: "K1 P2", 3: "K2 P3"})
    play(s, "1 play THIEF", "2 play K1", "3 play K2")
    with pytest.raises(IllegalMoveError, match="^cannot steal from yourself$"):
        s.push_str("1 steal 1 P1")
    with pytest.raises(IllegalMoveError, match="^card not in that hand$"):
        s.push_str("1 steal 2 P3")
    with pytest.raises(IllegalMoveError, match="the Thief must choose first"):
        s.push_str("1 play P1")
    assert sorted(str(a) for a in s.legal_actions()) == ["1 steal 2", "1 steal 3", "1 steal none"]
    s.push_str("1 steal 2")  # the decision; the card is a chance outcome
    ev = s.chance()
    assert ev.kind is Phase.STOLEN and [str(a) for a in ev.outcomes()] == ["1 steal 2 P2"]
    s.push(ev.outcomes()[0])
    assert s.leader == 3 and names(s.hand(2)) == ["K1"] and s.round_points() == (1, 0, 1)
    s.hands[1] = 0  # an impossible position, only to see the reason
    s2 = pos(3, {1: "THIEF P1", 2: "K1 P2", 3: "K2 P3"})
    play(s2, "1 play THIEF", "2 play K1", "3 play K2")
    s2.hands[1] = 0
    with pytest.raises(IllegalMoveError, match="^target has no cards$"):
        s2.push_str("1 steal 2 P2")
    s3 = pos(3, {1: "K5", 2: "K6", 3: "K7"})
    with pytest.raises(IllegalMoveError, match="^no Thief in this trick$"):
        s3.push_str("1 steal 2 K6")


def test_A5_thief_in_the_last_trick_has_no_function():
    s = pos(3, {1: "THIEF", 2: "K1", 3: "K2"})
    play(s, "1 play THIEF", "2 play K1", "3 play K2")
    assert s.phase is not Phase.STEAL and s.round == 2  # the round ended at once


# ---------------------------------------------------------------- rulings 8-10, A1
def test_ruling8_9_round_scores_and_next_starter():
    s = pos(3, {1: "KING", 2: "P10", 3: "P9"})
    play(s, "1 play KING", "2 play P10", "3 play P9")
    assert s.round_scores == [(5, 0, 0)] and s.round == 2 and s.phase is Phase.DEAL
    assert s.starter == 2  # seats 2 and 3 tie lowest: first from the previous starter (1)
    s = pos(3, {1: "KING", 2: "P10", 3: "P9"}, leader=3)
    play(s, "3 play P9", "1 play KING", "2 play P10")
    assert s.starter == 3
    assert _lowest_scorer((4, 2, 9), 1) == 2 and _lowest_scorer((2, 2, 2, 2), 4) == 4


def test_ruling9_teams_lower_team_starts_and_chooses_its_member():
    s = pos(4, {1: "KING", 2: "P10", 3: "P9", 4: "P8"}, teams=True)
    play(s, "1 play KING", "2 play P10", "3 play P9", "4 play P8")
    assert s.phase is Phase.START and s.to_act == 2  # team 2+4 scored less; a computer picks seat 2
    assert [str(a) for a in s.legal_actions()] == ["start 2", "start 4"]
    with pytest.raises(IllegalMoveError, match="wrong starter"):
        s.push_str("start 1")
    play(s, "start 4")
    assert s.starter == 4 and s.phase is Phase.DEAL


def test_A1_tied_teams_the_starters_team_starts_again():
    assert _starting_team((1, 2, 2, 1), 2) == 1
    assert _starting_team((1, 2, 2, 1), 3) == 0
    assert _starting_team((5, 1, 5, 9), 1) == 0
    assert _team_pick((3, 0, 3, 0), 3, 0) == 3 and _team_pick((3, 0, 3, 0), 1, 1) == 2
    assert _team_pick((3, 0, 3, 0), 4, 1) == 4 and _team_pick((4, 0, 3, 0), 1, 0) == 3


def test_ruling10_match_end_highest_total_and_shared_win():
    s = pos(2, {1: "KING", 2: "P10"}, round=3, round_scores=[(10, 12), (10, 10)])
    play(s, "1 play KING", "2 play P10")
    out = s.outcome()
    assert s.is_over() and out.scores == (24, 22) and out.winners == (1,)
    with pytest.raises(IllegalMoveError, match="^match already over$"):
        s.push_str("1 play KING")
    s = pos(2, {1: "KING", 2: "P10"}, round=3, round_scores=[(10, 14), (10, 10)])
    play(s, "1 play KING", "2 play P10")
    assert s.outcome().winners == (1, 2)


def test_ruling10_teams_score_is_the_sum_of_members():
    s = pos(4, {1: "P10", 2: "KING", 3: "P9", 4: "P8"}, teams=True, round=3,
            round_scores=[(5, 1, 5, 1), (0, 0, 0, 0)])
    play(s, "1 play P10", "2 play KING", "3 play P9", "4 play P8")
    out = s.outcome()
    assert out.team_scores == (10, 8) and out.winners == (1, 3)
    assert out.result() == {"scores": [5, 7, 5, 1], "winners": [1, 3], "teams": [10, 8]}


def test_push_pop_restores_every_field():
    s = pos(3, {1: "THIEF P1 K2", 2: "K1 P2 EXECUTIONER", 3: "K3 P3 P7"}, {1: "R1", 2: "R2", 3: "R4"})
    before = s.copy()
    texts = ["1 play THIEF", "2 play EXECUTIONER", "3 play P7", "1 steal 3 K3", "2 execute THIEF"]
    play(s, *texts)
    for _ in texts:
        s.pop()
    assert s == before


def test_action_notation_round_trips_and_errors():
    from game.royals.engine import Action, InvalidMoveError
    for text in ("2 play K4", "1 steal 2 M3", "1 steal 2", "1 steal none", "2 execute R3", "start 3",
                 "1 keep K4,THIEF,R3", "1 pile R6,P10", "deal K4,THIEF/K1/P7,BEGGAR/"):
        assert str(Action.from_str(text)) == text
        assert eval(repr(Action.from_str(text))) == Action.from_str(text)
    for bad, reason in (("0 play K4", "unknown seat"), ("x play K4", "unknown seat"), ("1 play K9", "unknown card"),
                        ("1 dance K4", "unknown action"), ("1 play", "not an action"), ("", "not an action")):
        with pytest.raises(InvalidMoveError, match=reason):
            Action.from_str(bad)


def test_only_the_seat_to_act_has_legal_actions():
    s = pos(3, {1: "K5 P1", 2: "K6 P2", 3: "K7 P3"})
    assert s.observation(1).legal_actions() and not s.observation(2).legal_actions()
    assert not s.observation(3).legal_actions()


def test_from_position_refuses_impossible_positions():
    with pytest.raises(ValueError, match="twice"):
        pos(2, {1: "K5", 2: "K5"})
    with pytest.raises(ValueError, match="same number"):
        pos(2, {1: "K5 K6", 2: "K7"})
    with pytest.raises(ValueError, match="teams need 4"):
        State(3, teams=True)
    with pytest.raises(ValueError, match="2 to 4"):
        State(5)
