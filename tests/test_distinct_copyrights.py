"""A file's copyright lines are one per statement (lineage.licences.notices.distinct_copyrights)."""
from lineage.licences.notices import distinct_copyrights


def test_same_statement_twice_is_one() -> None:
    # the docstring's line with "All rights reserved." and the comment's without it
    lines = ["Copyright 2001-2006 Quillon P. Ward. All rights reserved.",
             "Copyright 2002-2006 Fernwick Foundation. All rights reserved.",
             "Copyright 2001-2006 Quillon P. Ward",
             "Copyright 2002-2006 Fernwick Foundation"]
    assert distinct_copyrights(lines) == tuple(lines[:2])


def test_other_years_or_holder_stay() -> None:
    lines = ["Copyright 2014 Quillon Ward", "Copyright 2015 Quillon Ward", "Copyright 2014 Fernwick Ltd"]
    assert distinct_copyrights(lines) == tuple(lines)
