"""Regenerate Royals & Riots' card art: ``python -m assets.make_royals_art [FOLDER]``.

The 36 card faces (``royals_KING.png`` ... ``royals_BEGGAR.png``, named by the record's card
names), the card back (``royals_back.png``) and the two sides of the rank card
(``royals_side_royals.png``, ``royals_side_riots.png``) are drawn here with pygame-ce
primitives (no downloads, no third-party images), by the project, MIT like the project.
Speckle comes from the project's seeded :class:`Rng`, so two runs give identical files.

Each face shows, without words (the window names the card in the player's language):
the rank's colour and emblem (crown, shield, coin purse, sheaf), the number in both upper
corners (the King and the Queen: empty corners, where the window writes the letter of the
player's language), the points in a coin at the lower right, and a badge for a special card:
Guildmaster (a hammer on a gold seal), Prince (a small crown over the emblem), Rebels
(a torch), Thief (a mask), Executioner (an axe), Beggar (a bowl).
Cards are 96x136 logical pixels (the window scales them down for the other seats).
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from game.rng import Rng  # noqa: E402
from game.royals.engine import CARDS, Card, Rank  # noqa: E402

OUT = Path(__file__).resolve().parent
CARD_W, CARD_H = 96, 136
SS = 3  # drawn at 3x and smooth-scaled down (anti-aliasing)

INK = (48, 30, 18)
GOLD = (226, 180, 72)
GOLD_DARK = (150, 104, 30)
PAPER = (246, 234, 204)
PAPER_DARK = (214, 192, 146)

#: Frame colour of each rank (and of the rankless cards, key None); told apart by emblem too.
RANK_COLOURS: dict[Rank | None, tuple[int, int, int]] = {
    Rank.KING: (150, 30, 40), Rank.QUEEN: (170, 60, 120), Rank.ROYALS: (92, 48, 140),
    Rank.KNIGHTS: (46, 84, 150), Rank.MERCHANTS: (40, 120, 70), Rank.PEASANTS: (140, 92, 40),
    None: (56, 52, 58),
}


def _mix(a, b, t):
    return tuple(int(a[i] + (b[i] - a[i]) * t) for i in range(3))


def _speckle(surf: pygame.Surface, rng: Rng, n: int, base, spread: int, alpha: int = 30) -> None:
    w, h = surf.get_size()
    dots = pygame.Surface((w, h), pygame.SRCALPHA)
    for _ in range(n):
        x, y = rng.randbelow(w), rng.randbelow(h)
        d = rng.randbelow(2 * spread + 1) - spread
        col = tuple(max(0, min(255, c + d)) for c in base)
        pygame.draw.circle(dots, (*col, alpha), (x, y), 1 + rng.randbelow(3))
    surf.blit(dots, (0, 0))


def _blank(frame, rng: Rng) -> pygame.Surface:
    w, h = CARD_W * SS, CARD_H * SS
    s = pygame.Surface((w, h), pygame.SRCALPHA)
    rad = 10 * SS
    pygame.draw.rect(s, frame, (0, 0, w, h), border_radius=rad)
    inner = pygame.Rect(5 * SS, 5 * SS, w - 10 * SS, h - 10 * SS)
    paper = pygame.Surface(inner.size, pygame.SRCALPHA)
    steps = 30
    for i in range(steps):
        col = _mix(PAPER_DARK, PAPER, min(1.0, i / steps * 2.5))
        pygame.draw.rect(paper, col, (i * 2, i * 2, inner.w - 4 * i, inner.h - 4 * i), 2, border_radius=6 * SS)
    pygame.draw.rect(paper, PAPER, (steps * 2, steps * 2, inner.w - 4 * steps, inner.h - 4 * steps))
    _speckle(paper, rng, 900, (190, 160, 110), 30)
    mask = pygame.Surface(inner.size, pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=6 * SS)
    paper.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    s.blit(paper, inner)
    pygame.draw.rect(s, _mix(frame, (0, 0, 0), 0.4), (0, 0, w, h), 2 * SS, border_radius=rad)
    pygame.draw.rect(s, (*GOLD, 255), inner.inflate(-8 * SS, -8 * SS), SS, border_radius=5 * SS)
    return s


# ---------------------------------------------------------------------- emblems (centre (cx, cy), size r)
def crown(s, cx, cy, r, col=GOLD, line=GOLD_DARK) -> None:
    pts = [(cx - r, cy + r * 0.6), (cx - r, cy - r * 0.3), (cx - r * 0.5, cy + r * 0.1), (cx, cy - r * 0.6),
           (cx + r * 0.5, cy + r * 0.1), (cx + r, cy - r * 0.3), (cx + r, cy + r * 0.6)]
    pygame.draw.polygon(s, col, pts)
    pygame.draw.polygon(s, line, pts, max(2, int(r * 0.08)))
    for x, y in ((cx - r, cy - r * 0.3), (cx, cy - r * 0.6), (cx + r, cy - r * 0.3)):
        pygame.draw.circle(s, (230, 60, 60), (x, y), r * 0.14)
    pygame.draw.rect(s, line, (cx - r, cy + r * 0.45, 2 * r, r * 0.25))


def shield(s, cx, cy, r, col) -> None:
    pts = [(cx - r * 0.8, cy - r * 0.8), (cx + r * 0.8, cy - r * 0.8), (cx + r * 0.8, cy),
           (cx, cy + r), (cx - r * 0.8, cy)]
    pygame.draw.polygon(s, col, pts)
    pygame.draw.polygon(s, INK, pts, max(2, int(r * 0.08)))
    pygame.draw.line(s, (235, 235, 240), (cx, cy - r * 1.15), (cx, cy + r * 0.6), max(3, int(r * 0.14)))
    pygame.draw.line(s, GOLD_DARK, (cx - r * 0.45, cy - r * 0.45), (cx + r * 0.45, cy - r * 0.45), max(3, int(r * 0.16)))


def purse(s, cx, cy, r, col) -> None:
    pygame.draw.ellipse(s, col, (cx - r * 0.8, cy - r * 0.4, r * 1.6, r * 1.3))
    pygame.draw.ellipse(s, INK, (cx - r * 0.8, cy - r * 0.4, r * 1.6, r * 1.3), max(2, int(r * 0.08)))
    pygame.draw.polygon(s, col, [(cx - r * 0.35, cy - r * 0.3), (cx - r * 0.5, cy - r * 0.8),
                                 (cx + r * 0.5, cy - r * 0.8), (cx + r * 0.35, cy - r * 0.3)])
    pygame.draw.line(s, GOLD_DARK, (cx - r * 0.4, cy - r * 0.35), (cx + r * 0.4, cy - r * 0.35), max(3, int(r * 0.12)))
    pygame.draw.circle(s, GOLD, (cx, cy + r * 0.25), r * 0.3)
    pygame.draw.circle(s, GOLD_DARK, (cx, cy + r * 0.25), r * 0.3, max(2, int(r * 0.06)))


def sheaf(s, cx, cy, r, col) -> None:
    w = max(3, int(r * 0.1))
    for dx in (-0.45, -0.22, 0, 0.22, 0.45):
        top = (cx + dx * r * 1.4, cy - r * 0.9)
        pygame.draw.line(s, col, (cx + dx * r * 0.3, cy + r), top, w)
        pygame.draw.ellipse(s, (220, 180, 70), (top[0] - r * 0.1, top[1] - r * 0.3, r * 0.2, r * 0.42))
    pygame.draw.line(s, INK, (cx - r * 0.35, cy + r * 0.2), (cx + r * 0.35, cy + r * 0.2), w + 2)


def hammer_seal(s, cx, cy, r) -> None:
    """The Guildmaster's badge: a gold seal with a hammer."""
    pygame.draw.circle(s, GOLD, (cx, cy), r)
    pygame.draw.circle(s, GOLD_DARK, (cx, cy), r, max(2, int(r * 0.12)))
    pygame.draw.line(s, INK, (cx - r * 0.45, cy + r * 0.5), (cx + r * 0.25, cy - r * 0.2), max(3, int(r * 0.2)))
    pygame.draw.polygon(s, INK, [(cx - r * 0.05, cy - r * 0.6), (cx + r * 0.6, cy + r * 0.05),
                                 (cx + r * 0.35, cy + r * 0.3), (cx - r * 0.3, cy - r * 0.35)])


def torch(s, cx, cy, r) -> None:
    """The Rebels: a raised torch."""
    pygame.draw.line(s, (110, 70, 30), (cx - r * 0.3, cy + r), (cx + r * 0.1, cy - r * 0.2), max(4, int(r * 0.22)))
    for k, col in enumerate(((230, 80, 30), (250, 160, 40), (255, 230, 120))):
        f = 1 - k * 0.3
        pts = [(cx + r * 0.1 - r * 0.45 * f, cy - r * 0.2), (cx + r * 0.1, cy - r * (0.2 + 1.1 * f)),
               (cx + r * 0.1 + r * 0.45 * f, cy - r * 0.2)]
        pygame.draw.polygon(s, col, pts)
        pygame.draw.circle(s, col, (cx + r * 0.1, cy - r * 0.3), r * 0.4 * f)


def mask(s, cx, cy, r) -> None:
    """The Thief: a dark eye mask."""
    pygame.draw.ellipse(s, (30, 30, 36), (cx - r, cy - r * 0.45, r * 2, r * 0.9))
    for dx in (-0.45, 0.45):
        pygame.draw.ellipse(s, PAPER, (cx + dx * r - r * 0.25, cy - r * 0.18, r * 0.5, r * 0.32))
    pygame.draw.line(s, (30, 30, 36), (cx - r, cy - r * 0.1), (cx - r * 1.3, cy - r * 0.5), max(3, int(r * 0.1)))
    pygame.draw.line(s, (30, 30, 36), (cx + r, cy - r * 0.1), (cx + r * 1.3, cy - r * 0.5), max(3, int(r * 0.1)))


def axe(s, cx, cy, r) -> None:
    """The Executioner: a headsman's axe."""
    pygame.draw.line(s, (110, 70, 30), (cx - r * 0.6, cy + r), (cx + r * 0.3, cy - r), max(4, int(r * 0.16)))
    blade = [(cx + r * 0.05, cy - r * 0.7), (cx + r * 0.9, cy - r * 0.95), (cx + r * 1.0, cy + r * 0.1),
             (cx + r * 0.35, cy - r * 0.1)]
    pygame.draw.polygon(s, (190, 195, 205), blade)
    pygame.draw.polygon(s, INK, blade, max(2, int(r * 0.07)))


def bowl(s, cx, cy, r) -> None:
    """The Beggar: an empty bowl."""
    pygame.draw.ellipse(s, (120, 90, 60), (cx - r, cy - r * 0.5, r * 2, r * 1.4))
    pygame.draw.rect(s, PAPER, (cx - r - 2, cy - r * 0.6, r * 2 + 4, r * 0.7))
    pygame.draw.ellipse(s, (70, 50, 30), (cx - r, cy - r * 0.35, r * 2, r * 0.55))
    pygame.draw.ellipse(s, INK, (cx - r, cy - r * 0.35, r * 2, r * 0.55), max(2, int(r * 0.06)))
    pygame.draw.rect(s, (120, 90, 60), (cx - r * 0.3, cy + r * 0.75, r * 0.6, r * 0.2))


def emblem(s, card: Card, cx, cy, r) -> None:
    rank = card.rank
    col = RANK_COLOURS[rank]
    if rank in (Rank.KING, Rank.QUEEN):
        crown(s, cx, cy, r * (1.15 if rank is Rank.KING else 0.95))
        if rank is Rank.QUEEN:
            pygame.draw.circle(s, (240, 240, 250), (cx, cy + r * 0.95), r * 0.22)
            pygame.draw.circle(s, INK, (cx, cy + r * 0.95), r * 0.22, 3)
    elif rank is Rank.ROYALS:
        pygame.draw.circle(s, col, (cx, cy), r * 0.9)
        pygame.draw.circle(s, INK, (cx, cy), r * 0.9, 4)
        crown(s, cx, cy + r * 0.1, r * 0.55)
    elif rank is Rank.KNIGHTS:
        shield(s, cx, cy, r, col)
    elif rank is Rank.MERCHANTS:
        purse(s, cx, cy, r, col)
    elif rank is Rank.PEASANTS:
        sheaf(s, cx, cy, r, col)
    elif card.name == "THIEF":
        mask(s, cx, cy, r)
    elif card.name == "EXECUTIONER":
        axe(s, cx, cy, r)
    else:
        bowl(s, cx, cy, r)


def face(card: Card, rng: Rng) -> pygame.Surface:
    rank = card.rank
    col = RANK_COLOURS[rank]
    s = _blank(col, rng)
    w, h = s.get_size()
    font = pygame.font.Font(None, 44 * SS // 1)
    small = pygame.font.Font(None, 22 * SS)
    if card.number is not None and rank not in (Rank.KING, Rank.QUEEN):
        for x, anchor in ((14 * SS, "topleft"), (w - 14 * SS, "topright")):
            num = (font if card.number < 10 else pygame.font.Font(None, 34 * SS)).render(str(card.number), True, col)
            s.blit(num, num.get_rect(**{anchor: (x, 12 * SS)}))
    # the King's and Queen's corners stay empty: the window writes their letter in the player's
    # language there (game.client.royals.art.RoyalsArt.face: K/Q, K/D, R/D, K/V)
    emblem(s, card, w // 2, h // 2 + 2 * SS, 26 * SS)
    if card.is_prince:
        crown(s, w // 2, 30 * SS, 12 * SS, col=(250, 220, 120))
    if card.is_guildmaster:
        hammer_seal(s, 24 * SS, h - 24 * SS, 13 * SS)
    if card.is_rebels:
        torch(s, 26 * SS, h - 30 * SS, 14 * SS)
    # the points coin, lower right
    cx, cy, r = w - 24 * SS, h - 24 * SS, 14 * SS
    pts = card.points
    coin = (200, 70, 60) if pts < 0 else (GOLD if pts >= 3 else (205, 170, 100))
    pygame.draw.circle(s, coin, (cx, cy), r)
    pygame.draw.circle(s, GOLD_DARK, (cx, cy), r, 2 * SS)
    label = small.render(str(pts), True, INK if pts >= 0 else (255, 245, 235))
    s.blit(label, label.get_rect(center=(cx, cy + SS)))
    return pygame.transform.smoothscale(s, (CARD_W, CARD_H))


def back(rng: Rng) -> pygame.Surface:
    w, h = CARD_W * SS, CARD_H * SS
    s = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(s, (70, 24, 30), (0, 0, w, h), border_radius=10 * SS)
    for i in range(0, w + h, 9 * SS):  # diagonal lattice
        pygame.draw.line(s, (96, 40, 44), (i, 0), (i - h, h), 2 * SS)
        pygame.draw.line(s, (96, 40, 44), (i - h, 0), (i, h), 2 * SS)
    pygame.draw.rect(s, GOLD, (6 * SS, 6 * SS, w - 12 * SS, h - 12 * SS), 2 * SS, border_radius=7 * SS)
    pygame.draw.circle(s, (60, 20, 26), (w // 2, h // 2), 30 * SS)
    pygame.draw.circle(s, GOLD, (w // 2, h // 2), 30 * SS, 2 * SS)
    crown(s, w // 2, h // 2 - 4 * SS, 14 * SS)
    torch(s, w // 2 + 2 * SS, h // 2 + 18 * SS, 7 * SS)
    mask_ = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(mask_, (255, 255, 255, 255), (0, 0, w, h), border_radius=10 * SS)
    s.blit(mask_, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    return pygame.transform.smoothscale(s, (CARD_W, CARD_H))


def side(riots: bool, rng: Rng) -> pygame.Surface:
    """The rank card: the order of ranks from the top, crowns up (Royals) or torches up (Riots)."""
    w, h = 120 * SS, 170 * SS
    s = pygame.Surface((w, h), pygame.SRCALPHA)
    base = (120, 36, 24) if riots else (54, 44, 110)
    pygame.draw.rect(s, base, (0, 0, w, h), border_radius=12 * SS)
    pygame.draw.rect(s, GOLD, (5 * SS, 5 * SS, w - 10 * SS, h - 10 * SS), 2 * SS, border_radius=9 * SS)
    order = [Rank.KING, Rank.QUEEN, Rank.ROYALS, Rank.KNIGHTS, Rank.MERCHANTS, Rank.PEASANTS]
    if riots:
        order.reverse()
    rows = len(order)
    top, step = 38 * SS, 20 * SS
    if riots:
        torch(s, w // 2, 20 * SS, 11 * SS)
    else:
        crown(s, w // 2, 20 * SS, 12 * SS)
    for i, rank in enumerate(order):
        y = top + i * step
        pygame.draw.rect(s, RANK_COLOURS[rank], (16 * SS, y, w - 32 * SS, step - 4 * SS), border_radius=4 * SS)
        pygame.draw.rect(s, GOLD_DARK, (16 * SS, y, w - 32 * SS, step - 4 * SS), SS, border_radius=4 * SS)
        bar = int((w - 40 * SS) * (rows - i) / rows)
        pygame.draw.rect(s, (255, 240, 200), (20 * SS, y + 6 * SS, bar, 4 * SS))
    pygame.draw.polygon(s, GOLD, [(w - 12 * SS, top), (w - 6 * SS, top), (w - 9 * SS, top + rows * step - 6 * SS)])
    return pygame.transform.smoothscale(s, (120, 170))


def build(out: Path = OUT) -> list[Path]:
    pygame.display.init()
    pygame.font.init()
    rng = Rng(2026)
    out.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    for card in CARDS:
        p = out / f"royals_{card.name}.png"
        pygame.image.save(face(card, rng), p)
        paths.append(p)
    for name, surf in (("royals_back.png", back(rng)), ("royals_side_royals.png", side(False, rng)),
                       ("royals_side_riots.png", side(True, rng))):
        pygame.image.save(surf, out / name)
        paths.append(out / name)
    return paths


if __name__ == "__main__":
    paths = build(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
    print(f"wrote {len(paths)} images to {paths[0].parent}")
