"""Fork auditing: which upstream release a codebase forked from (:mod:`.forkpoint`) and which
upstream changes since then it carries (:mod:`.drift`). Candidates are expanded by
:mod:`.candidates`."""
