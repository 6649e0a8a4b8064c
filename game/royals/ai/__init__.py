"""Computer players of Royals & Riots (:mod:`.levels`), their search (:mod:`.ismcts` on the
determinizations of :mod:`.determinize`), the baseline ``hard-2025`` of the strength figures
(:mod:`.baselines`) and the headless match runner (:mod:`.match`). Players see only their
seat's observation."""
