"""Tests for lineage.match.lone_pairs: a free line (``else:``, a decorator, ``try:``, ``except``,
brackets alone) paired through the statement it belongs to, after the lone-line rules.

Each case is a small hand-made pair of trees whose truth is in its construction; thresholds come
from MatchParams, never typed in here.
"""

from __future__ import annotations

from dataclasses import replace

from conftest import Runner, file_lines
from test_lone import _CERT_TARGET, _CERT_UP

from lineage.match import MatchParams


def test_the_else_of_a_copied_statement_takes_the_upstream_else(run_compare: Runner) -> None:
    """The outer ``else:`` (18) continues the copied ``if url.lower()...`` (5): once the new
    inner ``else:`` gives the upstream ``else:`` (15) back, it is paired with it
    (``lone_clause_pairs``); off, it stays none."""
    target, up = {"pkg/adapters.py": _CERT_TARGET}, {"pkg/adapters.py": _CERT_UP}
    on = file_lines(run_compare(target, [("up", up)]), "pkg/adapters.py")
    assert on.loc[18, "match"] == "verbatim" and int(on.loc[18, "upstream_line"]) == 15
    off = file_lines(run_compare(target, [("up", up)], params=MatchParams(lone_clause_pairs=0)), "pkg/adapters.py")
    assert off.loc[18, "match"] == "none"


_RESPONSE_UP = ("class ResponseOfTheSession:\n"
                "    def raise_for_the_status_code(self):\n"
                "        status_error_message = self._format_status_message(self.status_code)\n"
                "        if status_error_message:\n"
                "            raise HTTPStatusProblem(status_error_message, response=self)\n"
                "\n"
                "    @property\n"
                "    def apparent_text_encoding(self):\n"
                "        return detect_the_encoding_of(self.content_bytes_read)['encoding']\n")
# A new property inserted above the copied one: the alignment gives the upstream ``@property``
# to the new one (7), which lone_decorators drops; the copied property's own (11) is free.
_RESPONSE_TARGET = _RESPONSE_UP.replace(
    "    @property\n    def apparent_text_encoding",
    "    @property\n    def is_a_permanent_redirect(self):\n"
    "        return 'location' in self.header_map and self.status_code in (301, 308)\n\n"
    "    @property\n    def apparent_text_encoding")


def test_a_copied_definition_takes_its_own_decorator(run_compare: Runner) -> None:
    """``lone_decorator_pairs``: the copied ``apparent_text_encoding`` (12) takes the upstream
    ``@property`` (7) above it once the new property's decorator gave it up; off, it stays none."""
    target, up = {"pkg/models.py": _RESPONSE_TARGET}, {"pkg/models.py": _RESPONSE_UP}
    off = file_lines(run_compare(target, [("up", up)], params=MatchParams(lone_decorator_pairs=0)), "pkg/models.py")
    assert off.loc[12, "match"] == "verbatim" and off.loc[11, "match"] == "none" and off.loc[7, "match"] == "none"
    on = file_lines(run_compare(target, [("up", up)]), "pkg/models.py")
    assert on.loc[11, "match"] == "verbatim" and int(on.loc[11, "upstream_line"]) == 7
    assert on.loc[7, "match"] == "none"


_SNI_UP = ("import warnings_of_the_package\n\n"
           "# Attempt to enable the fallback for SNI support of the connection pool library.\n"
           "try:\n"
           "    from .packages.urllib3_vendored.contrib import pyopenssl_backend\n"
           "    pyopenssl_backend.inject_into_the_connection_pool_library()\n"
           "except ImportError:\n"
           "    pass\n")
# A new ``try:`` above (6) takes the upstream ``try:`` by place, and lone_clauses' sibling rule
# drops it; the import was wrapped in new code inside the kept ``try:`` (11).
_SNI_HEAD = ("import warnings_of_the_package\n\n"
             "try:\n"
             "    from charset_detection_library import __version__ as charset_detection_version\n"
             "except ImportError:\n"
             "    charset_detection_version = None\n\n"
             "# Enable the pool library's fallback when the standard library lacks SNI.\n"
             "try:\n")
_SNI_TARGET = (_SNI_HEAD
               + "    try:\n"
               "        import ssl\n"
               "    except ImportError:\n"
               "        ssl = None\n"
               "    if not getattr(ssl, 'HAS_SNI', False):\n"
               "        from urllib3_unvendored.contrib import pyopenssl_backend\n"
               "        pyopenssl_backend.inject_into_the_connection_pool_library()\n"
               "except ImportError:\n"
               "    pass\n")


def test_a_try_is_paired_by_its_block(run_compare: Runner) -> None:
    """``lone_try_pairs``: the kept ``try:`` (9), whose block's first paired line (16) lies in the
    upstream ``try:``'s block, is that ``try:`` (4); off, it stays none."""
    target, up = {"pkg/__init__.py": _SNI_TARGET}, {"pkg/__init__.py": _SNI_UP}
    off = file_lines(run_compare(target, [("up", up)], params=MatchParams(lone_try_pairs=0)), "pkg/__init__.py")
    assert off.loc[16, "match"] == "verbatim" and off.loc[9, "match"] == "none" and off.loc[3, "match"] == "none"
    on = file_lines(run_compare(target, [("up", up)]), "pkg/__init__.py")
    assert on.loc[9, "match"] == "verbatim" and int(on.loc[9, "upstream_line"]) == 4


# The kept ``try:`` (11) now stands inside a new one (9) whose block opens with new code, its
# import unvendored: the first paired line of the outer block (13) lies inside the inner ``try:``.
_SNI_NESTED = (_SNI_HEAD
               + "    import ssl_wrapper_of_the_package_for_sni\n"
               "    try:\n"
               "        from urllib3_unvendored.contrib import pyopenssl_backend\n"
               "        pyopenssl_backend.inject_into_the_connection_pool_library()\n"
               "    except ImportError:\n"
               "        pass\n"
               "except AttributeError:\n"
               "    ssl_wrapper_of_the_package_for_sni = None\n")


def test_a_try_whose_first_paired_line_is_in_a_nested_try_is_not_it(run_compare: Runner) -> None:
    """``lone_try_pairs``: the upstream ``try:`` (4) goes to the inner ``try:`` (11) that holds the
    copied import, not to the new outer one (9), whose first paired line is the inner's."""
    target, up = {"pkg/__init__.py": _SNI_NESTED}, {"pkg/__init__.py": _SNI_UP}
    on = file_lines(run_compare(target, [("up", up)]), "pkg/__init__.py")
    assert on.loc[11, "match"] == "verbatim" and int(on.loc[11, "upstream_line"]) == 4
    assert on.loc[9, "match"] == "none"
    off = file_lines(run_compare(target, [("up", up)], params=MatchParams(lone_try_pairs=0)), "pkg/__init__.py")
    assert off.loc[11, "match"] == "none"


def _clause_lab(first_up_row: int, blocked: frozenset[int] = frozenset()) -> object:
    """A stand-in labeller: target ``if x:`` (1) paired near with upstream ``if x:`` (1), its
    block's first line (2) with upstream row ``first_up_row``, its ``else:`` (3) free; the
    target lines ``blocked`` may not be paired with the upstream file."""
    from types import SimpleNamespace

    import numpy as np

    from lineage.index import CODE
    from lineage.match.records import NEAR, NONE

    up = ["def a(x):", "    if x:", "        y = 1", "    else:", "        y = 2", "def b(z):", "    return z"]
    mine = ["def c(x):", "    if x:", "        w = 3", "    else:", "        w = 4"]
    match = np.array([NONE, NEAR, NEAR, NONE, NONE])
    result = SimpleNamespace(match=match, up_file=np.zeros(5, np.int64), up_row=np.array([0, 1, first_up_row, 0, 0]),
                             region=np.zeros(5, np.int64))
    side = SimpleNamespace(file_start=np.array([0]), kind=np.full(8, CODE))
    return SimpleNamespace(result=result, t_rows=np.arange(5), t_file=0, t_lines=mine, target=side, upstream=side,
                           upstream_lines=lambda f: (np.arange(7), up), target_kinds=lambda: np.full(5, CODE),
                           upstream_kinds=lambda f: np.full(7, CODE), blocked_from=lambda f, tc: tc in blocked,
                           stripped=lambda: [t.strip() for t in mine])


def test_a_clause_pairs_only_when_its_headers_block_is_copied_too() -> None:
    """``lone_clause_pairs``: the free ``else:`` takes the upstream ``if``'s ``else:`` when the
    header's block's first paired line lies in the upstream header's block; paired with a line
    of another function (a header paired near by position), it takes nothing."""
    from lineage.match.lone_pairs import clause_pairs

    assert clause_pairs(_clause_lab(2)) == [(3, 0, 3, 1)]
    assert clause_pairs(_clause_lab(6)) == []


def test_a_clause_blocked_from_the_upstream_file_stays_free() -> None:
    """A line :mod:`lineage.match.class_names` blocked from the upstream file (its class yielded
    that file to the class of the upstream name) is not paired with it by the clause rule
    either: every rule after the block asks :meth:`FileLabeller.blocked_from`."""
    from lineage.match.lone_pairs import clause_pairs

    assert clause_pairs(_clause_lab(2, blocked=frozenset({3}))) == []


_SEND_HEAD = ("def send_prepared_request(adapter_state, prepared_request, stream_flag):\n"
              "    connection_pool = adapter_state.connection_for(prepared_request.url)\n"
              "    adapter_state.verify_certificate(connection_pool, prepared_request.url)\n"
              "    try:\n"
              "        raw_response = connection_pool.open_url(prepared_request.method, prepared_request.url)\n")
_SEND_TAIL = ("        raise TransportConnectionFailure(raised_error, request=prepared_request)\n"
              "    return adapter_state.build_response(prepared_request, raw_response)\n")


def test_an_except_is_paired_by_its_block(run_compare: Runner) -> None:
    """``lone_except_pairs``: the ``except`` (6) whose exception the target changed, its block's
    line (7) kept, is the upstream clause (6), near; off, it stays none."""
    up = {"pkg/adapters.py": _SEND_HEAD + "    except socket_module.error as raised_error:\n" + _SEND_TAIL}
    target = {"pkg/adapters.py": _SEND_HEAD + "    except (ProtocolFault, OSError):\n" + _SEND_TAIL}
    off = file_lines(run_compare(target, [("up", up)], params=MatchParams(lone_except_pairs=0)), "pkg/adapters.py")
    assert off.loc[7, "match"] == "verbatim" and off.loc[6, "match"] == "none"
    on = file_lines(run_compare(target, [("up", up)]), "pkg/adapters.py")
    assert on.loc[6, "match"] == "near" and int(on.loc[6, "upstream_line"]) == 6


_COOKIE_UP = ("def create_session_cookie(cookie_name, cookie_value, **extra_fields):\n"
              "    cookie_fields = dict(\n"
              "        version=0,\n"
              "        name=cookie_name,\n"
              "        value=cookie_value,\n"
              "        rest={'HttpOnly': None},\n"
              "        rfc2109=False,)\n"
              "    unknown_fields = set(extra_fields) - set(cookie_fields)\n"
              "    return build_cookie_object(**cookie_fields)\n")
_COOKIE_TARGET = ("def create_session_cookie(cookie_name, cookie_value, **extra_fields):\n"
                  "    cookie_fields = {\n"
                  "        'version': 0,\n"
                  "        'name': cookie_name,\n"
                  "        'value': cookie_value,\n"
                  "        'rest': {'HttpOnly': None},\n"
                  "        'rfc2109': False,\n"
                  "    }\n"
                  "    unknown_fields = set(extra_fields) - set(cookie_fields)\n"
                  "    return build_cookie_object(**cookie_fields)\n")


def test_a_closing_bracket_is_paired_with_the_line_that_closes_its_partner(run_compare: Runner) -> None:
    """``lone_bracket_pairs``: the ``}`` (8) of a ``dict(...)`` call turned into a literal, its
    opener (2) and content paired, goes with the upstream line that closes ``dict(`` (7), near;
    off, it stays none. That line shares no text with it (similarity 0), so under the stated
    ``near_floor_similarity`` (0.3, which every rule's pairs are held to since 2026-12-06) the pair
    is undone: the rule is seen here with the floor at 0. So is the statement rule's
    (``fill_statement_string_words``: ``'rfc2109': False,`` keeps the words of ``rfc2109=False,)``
    counted inside its string, and the ``}`` after it goes with that line, similarity 0 too),
    turned off here to see this rule alone."""
    target, up = {"pkg/cookies.py": _COOKIE_TARGET}, {"pkg/cookies.py": _COOKIE_UP}
    no_floor = MatchParams(near_floor_similarity=0.0, fill_statement_string_words=0)
    off = file_lines(run_compare(target, [("up", up)], params=replace(no_floor, lone_bracket_pairs=0)),
                     "pkg/cookies.py")
    assert off.loc[2, "match"] != "none" and off.loc[8, "match"] == "none"
    on = file_lines(run_compare(target, [("up", up)], params=no_floor), "pkg/cookies.py")
    assert on.loc[8, "match"] == "near" and int(on.loc[8, "upstream_line"]) == 7
    held = file_lines(run_compare(target, [("up", up)]), "pkg/cookies.py")
    assert held.loc[8, "match"] == "none" and held.loc[2, "match"] != "none"


def test_a_bracket_whose_content_is_new_stays_none(run_compare: Runner) -> None:
    """``lone_bracket_min_share``: an import list re-sorted with new names keeps its first line,
    not its ``)``: fewer than that share of the lines between the brackets are paired."""
    head = "import os_path_helpers_of_the_package\n"
    tail = ("\n\ndef resolve_configuration_value(configuration_key, fallback_value):\n"
            "    configured_value = lookup_configuration(configuration_key)\n"
            "    return configured_value if configured_value is not None else fallback_value\n")
    up = {"pkg/models.py": head + "from .exceptions import (\n    HTTPError, RequestException, MissingSchema,\n"
          "    ChunkedEncodingError)\n" + tail}
    target = {"pkg/models.py": head + "from .exceptions import (\n    ConnectTimeoutFailure,\n"
              "    ContentDecodingFailure,\n    InvalidJSONPayload,\n    StreamConsumedFailure,\n)\n" + tail}
    on = file_lines(run_compare(target, [("up", up)]), "pkg/models.py")
    assert on.loc[2, "match"] == "verbatim" and on.loc[7, "match"] == "none"
    low = file_lines(run_compare(target, [("up", up)], params=MatchParams(lone_bracket_min_share=0.0)),
                     "pkg/models.py")
    assert low.loc[7, "match"] == "near"
