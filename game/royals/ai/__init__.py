"""Computer players of Royals & Riots (:mod:`.levels`), their search (:mod:`.search`) and the
headless match runner (:mod:`.match`). Players see only their seat's observation."""
