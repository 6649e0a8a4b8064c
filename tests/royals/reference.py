"""A plain Royals & Riots engine written for clarity, straight from the rulings of
docs/royals-rules.md (1-10, A1-A7): card names as strings, hands as sets, piles as lists,
one method per rule, no speed tricks. It shares no code with ``game.royals.engine``.

It is the yardstick of the rules kernel: tests/royals/test_kernel.py plays random
matches in both and compares them action by action, and ``bench/royals.py`` times record
validation in both.

Actions use the record's notation (docs/royals-record-format.md) plus the engine's set-up
actions: ``start 2``, ``deal A,B/C,D/`` (each seat's dealt cards, then the aside),
``1 keep ...``, ``1 pile ...`` (top first), ``1 play K4``, ``1 steal 2`` then ``1 steal 2 M3``
(or at once), ``1 steal none``, ``2 execute R3``.
"""

from __future__ import annotations

ORDER = (["KING", "QUEEN"] + [f"R{i}" for i in range(1, 8)] + [f"K{i}" for i in range(1, 8)]
         + [f"M{i}" for i in range(1, 8)] + [f"P{i}" for i in range(1, 11)])  # ruling 3, strongest first
RANKLESS = ["THIEF", "EXECUTIONER", "BEGGAR"]
ALL_CARDS = ORDER + RANKLESS
PRINCES = {"R3", "R5"}
REBELS = "P7"
GUILDMASTERS = {"Royals": "R4", "Knights": "K4", "Merchants": "M4", "Peasants": "P4"}
SIZES = {2: (14, 7, 8), 3: (12, 6, 0), 4: (9, 5, 0)}  # dealt, kept, aside (ruling 4)


def rank(card: str) -> str | None:
    """Ruling 1: the rank of a card, None for Thief, Executioner and Beggar."""
    if card in RANKLESS:
        return None
    if card == "KING":
        return "King"
    if card == "QUEEN":
        return "Queen"
    return {"R": "Royals", "K": "Knights", "M": "Merchants", "P": "Peasants"}[card[0]]


def points(card: str) -> int:
    """Ruling 2."""
    if card in ("KING", "QUEEN", REBELS) or card in PRINCES:
        return 3
    if card == "BEGGAR":
        return -3
    if card in ("THIEF", "EXECUTIONER"):
        return 0
    return 1


def strength(card: str, revolution: bool) -> int:
    """Ruling 3: higher wins; a revolution reverses the whole order."""
    place = ORDER.index(card)
    return place if revolution else len(ORDER) - place


class RefMatch:
    """A whole match of 3 rounds for 2-4 seats (ruling 10), played by action texts."""

    def __init__(self, players: int, teams: bool = False) -> None:
        self.players = players
        self.teams = teams
        self.round = 1
        self.round_scores: list[list[int]] = []
        self.phase = "start"
        self.to_act = 0          # the deciding seat; 0 when chance is to act
        self.starter = 0
        self.new_round_places()

    def new_round_places(self) -> None:
        n = self.players
        self.dealt: list[list[str]] = [[] for _ in range(n)]
        self.aside: list[str] = []
        self.kept: list[set[str]] = [set() for _ in range(n)]
        self.hands: list[set[str]] = [set() for _ in range(n)]
        self.piles: list[list[str]] = [[] for _ in range(n)]  # top first
        self.loot: list[set[str]] = [set() for _ in range(n)]
        self.removed: set[str] = set()
        self.trick: list[tuple[int, str]] = []   # cards still in the trick
        self.played = 0                          # cards played into this trick
        self.led: str | None = None
        self.revolution = False
        self.leader = self.starter
        self.trick_no = 1
        self.pile_seat = 0
        self.thief_target = 0

    # ------------------------------------------------------------ questions
    def is_over(self) -> bool:
        return self.phase == "over"

    def round_points(self) -> list[int]:
        return [sum(points(c) for c in loot) for loot in self.loot]

    def scores(self) -> list[int]:
        total = [sum(r[i] for r in self.round_scores) for i in range(self.players)]
        if self.phase not in ("over", "start", "deal"):
            total = [t + p for t, p in zip(total, self.round_points())]
        return total

    def winners(self) -> list[int]:
        s = self.scores()
        if self.teams:
            team = [s[0] + s[2], s[1] + s[3]]
            return [seat for seat in range(1, 5) if team[(seat - 1) % 2] == max(team)]
        return [seat for seat in range(1, self.players + 1) if s[seat - 1] == max(s)]

    def playable(self, seat: int) -> list[str]:
        """Ruling 6: a seat holding the led rank must play one of it (or a rankless card)."""
        hand = self.hands[seat - 1]
        if self.played and self.led is not None:
            follow = [c for c in hand if rank(c) == self.led]
            if follow:
                return follow + [c for c in hand if rank(c) is None]
        return list(hand)

    def legal_texts(self) -> list[str]:
        """Every decision open to the seat to act (not the hand choice, not chance outcomes)."""
        s = self.to_act
        if self.phase == "play":
            return [f"{s} play {c}" for c in self.playable(s)]
        if self.phase == "steal":
            return [f"{s} steal none"] + [f"{s} steal {t}" for t in range(1, self.players + 1)
                                          if t != s and self.hands[t - 1]]
        if self.phase == "execute":
            return [f"{s} execute {c}" for _, c in self.trick if c != "EXECUTIONER"]
        if self.phase == "start" and s:
            return [f"start {m}" for m in range(1, 5) if (m - s) % 2 == 0]
        return []

    def is_legal(self, text: str) -> bool:
        """Whether the action may be taken now (chance outcomes included)."""
        parts = text.split(" ")
        n = self.players
        if self.phase == "over":
            return False
        if self.phase == "start":
            if parts[0] != "start" or len(parts) != 2 or parts[1] not in [str(s) for s in range(1, n + 1)]:
                return False
            return not self.to_act or f"start {parts[1]}" in self.legal_texts()
        if self.phase == "deal":
            if parts[0] != "deal" or len(parts) != 2:
                return False
            groups = [g.split(",") if g else [] for g in parts[1].split("/")]
            dealt, _, aside = SIZES[n]
            cards = [c for g in groups for c in g]
            return (len(groups) == n + 1 and all(len(g) == dealt for g in groups[:n]) and len(groups[n]) == aside
                    and all(c in ALL_CARDS for c in cards) and len(set(cards)) == len(cards))
        if len(parts) < 3 or parts[0] not in [str(s) for s in range(1, n + 1)]:
            return False
        seat, verb = int(parts[0]), parts[1]
        if self.phase == "keep":
            if verb != "keep" or seat != self.to_act:
                return False
            cards = parts[2].split(",") if parts[2] else []
            return (len(cards) == SIZES[n][1] and len(set(cards)) == len(cards)
                    and all(c in self.dealt[seat - 1] for c in cards))
        if self.phase == "pile":
            if verb != "pile" or seat != self.pile_seat:
                return False
            cards = parts[2].split(",") if parts[2] else []
            want = [c for c in self.dealt[seat - 1] if c not in self.kept[seat - 1]]
            return sorted(cards) == sorted(want)
        if self.phase == "stolen":
            # the outcome; the engine also takes the pending decision repeated ("1 steal 2"), a no-op
            return (verb == "steal" and seat == self.to_act and len(parts) in (3, 4) and parts[2] == str(self.thief_target)
                    and (len(parts) == 3 or parts[3] in self.hands[self.thief_target - 1]))
        if self.phase == "steal" and verb == "steal" and len(parts) == 4:
            return (f"{seat} steal {parts[2]}" in self.legal_texts() and parts[3] in self.hands[int(parts[2]) - 1])
        return text in self.legal_texts()

    # ------------------------------------------------------------ doing
    def apply(self, text: str) -> None:
        """Apply a legal action (check it with :meth:`is_legal` first)."""
        parts = text.split(" ")
        if parts[0] == "start":
            self.starter = self.leader = int(parts[1])
            self.phase, self.to_act = "deal", 0
            return
        if parts[0] == "deal":
            groups = [g.split(",") if g else [] for g in parts[1].split("/")]
            self.dealt = groups[:self.players]
            self.aside = groups[self.players]
            self.phase, self.to_act = "keep", 1
            return
        seat, verb = int(parts[0]), parts[1]
        if verb == "keep":
            self.kept[seat - 1] = set(parts[2].split(","))
            self.hands[seat - 1] = set(self.kept[seat - 1])
            if seat < self.players:
                self.to_act = seat + 1
            else:
                self.phase, self.to_act, self.pile_seat = "pile", 0, 1
        elif verb == "pile":
            self.piles[seat - 1] = parts[2].split(",") if parts[2] else []
            if seat < self.players:
                self.pile_seat = seat + 1
            else:
                self.pile_seat = 0
                self.phase, self.to_act, self.leader = "play", self.starter, self.starter
        elif verb == "play":
            self.play(seat, parts[2])
        elif verb == "steal":
            if parts[2] == "none":
                self.after_thief()
            elif len(parts) == 3:
                self.phase, self.thief_target = "stolen", int(parts[2])
            else:
                self.steal(seat, int(parts[2]), parts[3])
        elif verb == "execute":
            self.trick = [(s, c) for s, c in self.trick if c != parts[2]]
            self.removed.add(parts[2])
            self.finish_trick()

    def play(self, seat: int, card: str) -> None:
        """Rulings 5 and 6: play, draw from one's own pile, pass on or resolve."""
        self.hands[seat - 1].discard(card)
        if self.played == 0:
            self.led = rank(card)
        self.trick.append((seat, card))
        self.played += 1
        if self.piles[seat - 1]:
            self.hands[seat - 1].add(self.piles[seat - 1].pop(0))
        if self.played < self.players:
            self.to_act = seat % self.players + 1
            return
        thieves = [s for s, c in self.trick if c == "THIEF"]
        if thieves and any(self.hands[t - 1] for t in range(1, self.players + 1) if t != thieves[0]):
            self.phase, self.to_act = "steal", thieves[0]   # ruling 7 (1), optional
            return
        self.after_thief()

    def steal(self, thief: int, target: int, card: str) -> None:
        """Ruling 7 (1): the card goes to the thief's loot, the victim takes its card back."""
        self.hands[target - 1].discard(card)
        self.loot[thief - 1].add(card)
        mine = [(s, c) for s, c in self.trick if s == target]
        if mine:
            self.trick.remove(mine[0])
            self.hands[target - 1].add(mine[0][1])
        self.thief_target = 0
        self.after_thief()

    def after_thief(self) -> None:
        """Ruling 7 (2): the Executioner must pick another card still in the trick."""
        execs = [s for s, c in self.trick if c == "EXECUTIONER"]
        if execs and len(self.trick) > 1:
            self.phase, self.to_act = "execute", execs[0]
            return
        self.finish_trick()

    def finish_trick(self) -> None:
        """Ruling 7 (3)-(5): Rebels, Prince, Guildmaster, the winner; then ruling 8."""
        cards = [c for _, c in self.trick]
        if REBELS in cards:
            self.revolution = True
        if self.revolution and PRINCES & set(cards):
            self.revolution = False
        ranked = [(s, c) for s, c in self.trick if rank(c) is not None]
        if self.led is not None and GUILDMASTERS.get(self.led) in cards:
            ranked = [(s, c) for s, c in ranked if rank(c) == self.led]
        if ranked:
            winner = max(ranked, key=lambda sc: strength(sc[1], self.revolution))[0]
            self.loot[winner - 1].update(cards)
            self.leader = winner
        else:
            self.removed.update(cards)
        self.trick, self.played, self.led = [], 0, None
        if any(self.hands):
            self.trick_no += 1
            self.phase, self.to_act = "play", self.leader
            return
        self.end_round()

    def end_round(self) -> None:
        """Rulings 8-10 and A1: score, then the next round's starter, or the end."""
        scores = self.round_points()
        self.round_scores.append(scores)
        if self.round == 3:
            self.phase, self.to_act = "over", 0
            return
        prev = self.starter
        in_seat_order = [(prev - 1 + k) % self.players + 1 for k in range(self.players)]
        self.round += 1
        if self.teams:
            team = [scores[0] + scores[2], scores[1] + scores[3]]
            side = (prev - 1) % 2 if team[0] == team[1] else (0 if team[0] < team[1] else 1)
            members = [s for s in in_seat_order if (s - 1) % 2 == side]
            low = min(scores[s - 1] for s in members)
            self.starter = 0
            self.phase, self.to_act = "start", [s for s in members if scores[s - 1] == low][0]
        else:
            low = min(scores)
            self.starter = [s for s in in_seat_order if scores[s - 1] == low][0]
            self.phase, self.to_act = "deal", 0
        self.new_round_places()

    def status(self) -> str:
        """``rose-king check``'s line after ``PATH: `` for this position."""
        join = lambda xs: ",".join(str(x) for x in xs)  # noqa: E731
        if self.phase == "over":
            s = self.scores()
            teams = f" teams={s[0] + s[2]},{s[1] + s[3]}" if self.teams else ""
            return f"ok finished scores={join(s)}{teams} winners={join(self.winners())} rounds=3"
        if self.phase in ("start", "deal"):
            to_act, trick = (self.to_act if self.phase == "start" else self.starter), 1
        else:
            to_act, trick = self.to_act, self.trick_no
        return f"ok in-progress round={self.round} trick={trick} to-act={to_act or 'none'} scores={join(self.scores())}"


def validate(record: dict) -> str:
    """Check a record (a parsed ``royals-riots-record``): its status line, or ``error ...``."""
    players = record.get("players")
    if record.get("format") != "royals-riots-record" or not isinstance(players, list) or not 2 <= len(players) <= 4:
        return "error not a record"
    m = RefMatch(len(players), bool(record.get("teams", False)))
    for r, rnd in enumerate(record.get("rounds", []), 1):
        if m.round != r or m.phase not in ("start", "deal"):
            return f"error round {r}"
        setup = []
        if m.phase == "start":
            setup.append(f"start {rnd['starter']}")
        elif m.starter != rnd["starter"]:
            return f"error round {r}"
        setup.append("deal " + "/".join(",".join(g) for g in rnd["deal"] + [rnd.get("aside", [])]))
        setup += [f"{s} keep {','.join(h)}" for s, h in enumerate(rnd["hand"], 1)]
        setup += [f"{s} pile {','.join(p)}" for s, p in enumerate(rnd["pile"], 1)]
        for text in setup:
            if not m.is_legal(text):
                return f"error round {r}"
            m.apply(text)
        for j, text in enumerate(rnd["actions"], 1):
            parts = text.split(" ")
            if m.round != r or (len(parts) == 3 and parts[1] == "steal" and parts[2] != "none") \
                    or not m.is_legal(text):
                return f"error round {r} action {j}"
            m.apply(text)
    result = record.get("result")
    if result is not None:
        if not m.is_over() or result.get("scores") != m.scores() or result.get("winners") != m.winners():
            return "error result"
    return m.status()
