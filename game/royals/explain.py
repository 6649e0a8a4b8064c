"""Why a decision is good and what it would do, from one seat's information only (no pygame).

The table's hints and previews call these with an :class:`~game.royals.engine.Observation`,
never with the full state, so no text here can give away a hidden card:

- :func:`resolve` — who would take the trick if it ended with the cards now in it (ruling 7's
  order: Rebels, Prince, Guildmaster, the highest card), the reason and the order in force;
- :func:`play_reason` — why playing a card is a good idea, as a sentence ("it takes the
  trick", "it wins while the Guildmaster is not out" ...), or None when there is nothing
  short and true to say;
- :func:`preview_execute` / :func:`preview_steal` — who takes the trick if the Executioner
  removes a card / if the Thief robs a seat (which takes back the card it played).

Sentences are in the current language (``game.i18n``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from game.i18n import N_, _
import game.royals.engine.kernel as K
from game.royals.engine import Card, Observation, Rank, team_of, trick_winner
from game.royals.engine.cards import ALL_CARDS_MASK, RANKED_MASK, mask_of, strength
from game.royals.phrases import SeatName, card_name

#: Why a trick goes to its winner (the same keys as the table's beats, ruling 7).
REASONS = {"highest": N_("highest card"), "guildmaster": N_("the Guildmaster makes the led rank's highest card win"),
           "revolution": N_("highest card in the revolution's order"),
           "restored": N_("highest card once the Prince ended the revolution")}


@dataclass(frozen=True)
class Resolution:
    """How a trick would end: ``winner`` seat (0: only rankless cards, nobody), ``reason``
    (a key of :data:`REASONS`), ``revolution`` the order in force after it."""

    winner: int
    reason: str
    revolution: bool


def resolve(kept: Iterable[tuple[int, Card]], led: Rank | None, revolution: bool) -> Resolution:
    """The end of a trick holding ``kept`` ((seat, card) after the Thief and the Executioner),
    with ``led`` the led rank (None after a rankless lead) and ``revolution`` the order in force
    before it (ruling 7: Rebels start or keep a revolution, a Prince then ends one, a Guildmaster
    of the led rank makes the highest card of that rank win, else the highest card wins)."""
    kept = list(kept)
    rev = revolution or any(c.is_rebels for _, c in kept)
    if rev and any(c.is_prince for _, c in kept):
        rev = False
    winner = trick_winner(kept, led, rev) or 0
    reason = "highest"
    if winner and led is not None and any(c.is_guildmaster and c.rank is led for _, c in kept):
        reason = "guildmaster"
    elif winner and rev:
        reason = "revolution"
    elif winner and revolution and not rev:
        reason = "restored"
    return Resolution(winner, reason, rev)


def _led_after(obs: Observation, card: Card) -> Rank | None:
    return obs.led if obs.trick_plays else card.rank


def outcome_of_play(obs: Observation, card: Card) -> Resolution:
    """Who would take the trick if it ended right after ``obs.seat`` plays ``card``."""
    return resolve(list(obs.trick) + [(obs.seat, card)], _led_after(obs, card), obs.revolution)


def preview_execute(obs: Observation, card: Card) -> Resolution:
    """Who takes the trick if the Executioner removes ``card`` from it."""
    return resolve([(s, c) for s, c in obs.trick if c != card], obs.led, obs.revolution)


def preview_steal(obs: Observation, target: int) -> Resolution:
    """Who takes the trick if the Thief robs ``target`` (who takes back the card it played)
    and the Executioner, if any, removes nothing yet."""
    return resolve([(s, c) for s, c in obs.trick if s != target], obs.led, obs.revolution)


def _guildmaster_out(obs: Observation, rank: Rank) -> bool:
    """Whether ``rank``'s Guildmaster can no longer come into this trick as far as ``obs.seat``
    knows: played (in this trick or before), in a loot, out of the game, or in its own hand or pile."""
    seen = [c for _, c in obs.trick_plays] + list(obs.removed) + list(obs.hand) + list(obs.pile)
    seen += [c for loot in obs.loot for c in loot]
    return any(c.is_guildmaster and c.rank is rank for c in seen)


def play_reason(obs: Observation, card: Card) -> str | None:
    """A short, true reason to play ``card`` now (the hint's "because"), in the current
    language; None when none of the simple reasons holds (the lead of a trick, mostly)."""
    seat = obs.seat
    if card.name == "BEGGAR":
        return _("it gets rid of the Beggar (−3 points)")
    if card.name == "THIEF":
        return _("the Thief can rob a hand after the trick")
    if card.name == "EXECUTIONER":
        return _("the Executioner can remove the best card of the trick")
    if not obs.trick_plays:
        return None
    res = outcome_of_play(obs, card)
    last = len(obs.trick_plays) == obs.players - 1
    # a Thief or an Executioner already in the trick may still change it after the last card
    settled = last and not any(c.name in ("THIEF", "EXECUTIONER") for _, c in obs.trick)
    if res.winner == seat:
        if settled:
            return _("it takes the trick")
        led = obs.led
        if led is not None and card.rank is led and not _guildmaster_out(obs, led):
            return _("it wins while the Guildmaster is not out")
        return _("it is the highest card so far")
    if settled and res.winner and obs.teams and team_of(res.winner) == team_of(seat):
        return _("your partner keeps the trick")
    if settled and lost_anyway(obs) and card.points == min(c.points for c in playable(obs)):
        return _("the trick is lost anyway, and it gives away the least")
    return None


def playable(obs: Observation) -> list[Card]:
    """The cards ``obs.seat`` may play now (ruling 6)."""
    return [a.card for a in obs.legal_actions() if a.card is not None]


def lost_anyway(obs: Observation) -> bool:
    """Whether no card ``obs.seat`` may play would take the trick as it stands."""
    return all(outcome_of_play(obs, c).winner != obs.seat for c in playable(obs))


def cards_out(obs: Observation) -> int:
    """The cards ``obs.seat`` has not seen leave play, as a mask: in the others' hands and piles
    and set aside (never its own hand or pile, a loot, a card out of the game or played)."""
    seen = mask_of(obs.hand) | mask_of(obs.pile) | mask_of(obs.removed) | mask_of(c for _, c in obs.trick_plays)
    for loot in obs.loot:
        seen |= mask_of(loot)
    return ALL_CARDS_MASK & ~seen


def lead_reason(obs: Observation, card: Card) -> str | None:
    """A short, true reason to lead ``card`` (the first card of a trick), in the current language:
    no card still out beats it in the order in force; it is the weakest card in hand (the strong
    ones wait); it leads the rank the seat holds most of. None when none holds."""
    rank = card.rank
    if rank is None:  # (rankless)
        return None
    beat = K.takers([(obs.seat, card.index)], int(rank), obs.revolution, cards_out(obs) & RANKED_MASK)
    if not beat:
        return _("no card still out beats it")
    ranked = [c for c in obs.hand if not c.is_rankless]
    if len(ranked) > 1 and all(strength(card.index, obs.revolution) <= strength(c.index, obs.revolution)
                               for c in ranked):
        return _("it is your weakest card; the strong ones wait")
    counts = {r: sum(1 for c in ranked if c.rank is r) for r in {c.rank for c in ranked}}
    if counts.get(card.rank, 0) >= 2 and counts[card.rank] == max(counts.values()):
        return _("you hold the most cards of its rank")
    return None


def hint_reason(obs: Observation, card: Card) -> str:
    """Every play hint's reason: :func:`play_reason`, else :func:`lead_reason` for a lead, else the
    card that gives away the fewest points when the trick cannot be won, else where the advice
    comes from (the strongest level's trial games from this seat's knowledge)."""
    why = play_reason(obs, card)
    if why is None and not obs.trick_plays:
        why = lead_reason(obs, card)
    if why is None and obs.trick_plays and outcome_of_play(obs, card).winner != obs.seat \
            and card.points == min(c.points for c in playable(obs)):
        why = _("it cannot win here and gives away the fewest points")
    return why or _("the hard computer's trial games favour it")


def hint_play_text(obs: Observation, card: Card) -> str:
    """The hint for playing ``card`` with its reason (:func:`hint_reason`): "Hint: play Royals 5,
    because it wins while the Guildmaster is not out.", in the current language."""
    return _("Hint: play {card}, because {why}.").format(card=card_name(card), why=hint_reason(obs, card))


def hint_steal_text(obs: Observation, target: int | None, name: SeatName) -> str:
    """The hint for the Thief's choice (``target`` None: not stealing) with its reason: who takes
    the trick then (:func:`preview_steal`, or the trick as it stands). ``name``: seat -> name."""
    if target is None:
        res = resolve(obs.trick, obs.led, obs.revolution)
        if res.winner:
            return _("Hint: don't steal: the trick stays with {name}.").format(name=name(res.winner))
        return _("Hint: don't steal: nobody takes the trick anyway.")
    res = preview_steal(obs, target)
    if res.winner:
        return _("Hint: rob {victim}: the trick then goes to {name}.").format(victim=name(target),
                                                                            name=name(res.winner))
    return _("Hint: rob {victim}: then nobody takes the trick.").format(victim=name(target))


def hint_keep_text(kept: Iterable[Card]) -> str:
    """The hint for the hand choice, with its reason: the marked cards are the strongest from the
    first trick on; keeping the Beggar lets the person choose when to give it away."""
    if any(c.name == "BEGGAR" for c in kept):
        return _("Hint: keep the marked cards, the strongest for the first tricks and the Beggar, to give it "
                 "away when you choose.")
    return _("Hint: keep the marked cards, the strongest for the first tricks.")
