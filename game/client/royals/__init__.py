"""Royals & Riots' scenes: the table (:mod:`.scene`), its animations (:mod:`.anims`), the set-up
(:mod:`.setup`), the match at this machine (:mod:`.table`, no pygame), computer thinking off the
loop (:mod:`.thinking`), the card art (:mod:`.art`), how to play (:mod:`.howto`), saves and
replay (:mod:`.saving`), and the shell's entry (:mod:`.plugin`)."""
