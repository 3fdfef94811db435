"""Licence expressions parsed from several threads at once (the sources of a comparison are
opened side by side, each reading its licence files) come out as from one thread."""

from __future__ import annotations

import threading

import pytest
from license_expression import get_spdx_licensing

from lineage.licences import expressions


def test_threads_parsing_at_once_with_a_fresh_licensing_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    # a Licensing whose tokenizer is not built yet: the first parses build it, as in a new process
    monkeypatch.setattr(expressions, "_LICENSING", get_spdx_licensing())
    texts = ["Apache-2.0", "MIT", "GPL-2.0-or-later", "BSD-3-Clause OR MIT", "Apache-2.0 AND MIT",
             "LGPL-2.1-only", "ISC", "MPL-2.0"]
    expected = {t: t for t in texts}
    results: dict[str, str] = {}
    start = threading.Barrier(len(texts))

    def parse_one(text: str) -> None:
        start.wait()
        results[text] = expressions.parse.__wrapped__(text).render()  # not the memo: each parses

    threads = [threading.Thread(target=parse_one, args=(t,)) for t in texts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == expected
