"""Royals & Riots: a trick-taking card game for 2-4 players (4 also in two teams), 36 cards, 3 rounds.

``engine`` holds the rules, actions and record (pure Python, no pygame); ``ai`` the computer
players and the match runner; ``plugin`` its entry in :mod:`game.registry`.
"""
