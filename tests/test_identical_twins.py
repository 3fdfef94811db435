"""Tests for lineage.match.identical_twins: a near line paired alone gives its upstream line to
the one free line identical to it between the same two paired lines.

Hand-made pairs whose truth is in their construction; thresholds come from MatchParams.
"""

from __future__ import annotations

from conftest import Runner, file_lines

from lineage.match import MatchParams

_UP = (
    "def dispatch_registered_hook(event_key, registered_hooks, payload_data, **options):\n"
    '    """Dispatch the registered hooks of one event on a piece of payload data."""\n'
    "    registered_hooks = registered_hooks or dict()\n"
    "    if event_key in registered_hooks:\n"
    "        registered_hooks = registered_hooks.get(event_key)\n"
    "        if hasattr(registered_hooks, '__call__'):\n"
    "            registered_hooks = [registered_hooks]\n"
    "        for single_hook in registered_hooks:\n"
    "            hook_result = single_hook(payload_data, **options)\n"
    "            if hook_result is not None:\n"
    "                payload_data = hook_result\n"
    "    return payload_data\n"
)
# The fork swapped the lookup and the test, and rewrote the test: the line at the lookup's place
# is now ``if registered_hooks:``, and the lookup itself stands one line up, unchanged.
_SWAPPED = _UP.replace(
    "    if event_key in registered_hooks:\n"
    "        registered_hooks = registered_hooks.get(event_key)\n",
    "    registered_hooks = registered_hooks.get(event_key)\n"
    "    if registered_hooks:\n",
)
_LOOKUP, _TEST = 4, 5  # target lines of the lookup and of the rewritten test
_UP_LOOKUP = 5  # the upstream line of the lookup


def _row(comparison, line: int) -> tuple[str, int | None]:
    row = file_lines(comparison, "pkg/hooks.py").loc[line]
    return row["match"], (int(row["upstream_line"]) if row["match"] != "none" else None)


def test_a_swapped_line_takes_its_upstream_line_back(run_compare: Runner) -> None:
    """The lookup is verbatim to its own line and the rewritten test is not credited with it.
    Inside a run, the run's own rule (identical lines before the diagonal,
    :func:`lineage.match.labels.run_pairs`) already pairs it so, with the twin rule off; before
    that rule the diagonal paired the test near with the lookup's upstream line."""
    up = [("up", {"up/hooks.py": _UP})]
    off = run_compare({"pkg/hooks.py": _SWAPPED}, up, params=MatchParams(identical_twin_rule=0))
    assert _row(off, _LOOKUP) == ("verbatim", _UP_LOOKUP)
    assert _row(off, _TEST)[1] != _UP_LOOKUP
    on = run_compare({"pkg/hooks.py": _SWAPPED}, up)
    assert _row(on, _LOOKUP) == ("verbatim", _UP_LOOKUP)
    assert _row(on, _TEST)[1] != _UP_LOOKUP
    # every other line keeps its pair
    a, b = file_lines(off, "pkg/hooks.py"), file_lines(on, "pkg/hooks.py")
    rest = [n for n in a.index if n not in (_LOOKUP, _TEST)]
    assert list(a.loc[rest, "match"]) == list(b.loc[rest, "match"])


def test_two_identical_free_lines_leave_the_pair_where_it_is(run_compare: Runner) -> None:
    """When the stretch holds the upstream line's text twice, free both times, position decides
    as before: the rule needs one identical line to move the pair to."""
    twice = _SWAPPED.replace(
        "    registered_hooks = registered_hooks.get(event_key)\n",
        "    registered_hooks = registered_hooks.get(event_key)\n"
        "    registered_hooks = registered_hooks.get(event_key)\n",
    )
    up = [("up", {"up/hooks.py": _UP})]
    off = file_lines(run_compare({"pkg/hooks.py": twice}, up, params=MatchParams(identical_twin_rule=0)),
                     "pkg/hooks.py")
    on = file_lines(run_compare({"pkg/hooks.py": twice}, up), "pkg/hooks.py")
    assert list(off["match"]) == list(on["match"])
    assert list(off["upstream_line"].fillna(-1)) == list(on["upstream_line"].fillna(-1))


_CALL = (
    "\n"
    "    def __call__(self, request):\n"
    "        if self.last_nonce_value:\n"
    "            request.headers['Authorization'] = self.build_digest_header(request.method, request.url)\n"
    "        request.register_hook('response', self.handle_unauthorised)\n"
    "        return request\n"
)
_CLASS_UP = (
    "class DigestChallengeAuth(AuthBase):\n"
    "    def build_digest_header(self, method, url):\n"
    "        realm = self.challenge_state['realm']\n"
    "        nonce = self.challenge_state['nonce']\n"
    "        return 'Digest %s' % compose_header(realm, nonce, method, url)\n"
    "\n"
    "    def handle_unauthorised(self, response, **kwargs):\n"
    '        """Answers a 401 challenge with a digest header if the server asked for one."""\n'
    "        attempts = getattr(self, 'unauthorised_attempts', 1)\n"
    "        challenge = response.headers.get('www-authenticate', '')\n"
    "        return self.retry_with_challenge(response, challenge, attempts, **kwargs)\n"
    + _CALL
)
# A new method with the same parameters was inserted before the old one, whose body was then
# rewritten and the method after it dropped: of that method only its header is left.
_CLASS_TARGET = (
    _CLASS_UP.split("    def handle_unauthorised")[0]
    + "    def handle_redirected(self, response, **kwargs):\n"
    "        if response.is_redirect:\n"
    "            self.unauthorised_attempts = 1\n"
    "\n"
    "    def handle_unauthorised(self, response, **kwargs):\n"
    "        if not 400 <= response.status_code < 500:\n"
    "            return response\n"
    "        return self.answer_challenge_once(response, kwargs)\n"
)
_NEW_HEADER, _OLD_HEADER, _UP_HEADER = 7, 11, 7


def test_an_inserted_method_gives_the_old_header_back(run_compare: Runner) -> None:
    """The inserted method's header sits at the old header's place and is similar to it; the old
    header, unchanged four lines on, is the copy."""
    _assert_header_moves(run_compare, "auth.py", _CLASS_UP, _CLASS_TARGET, MatchParams(identical_twin_rule=0),
                         _NEW_HEADER, _OLD_HEADER, _UP_HEADER)


def _assert_header_moves(run_compare: Runner, name: str, up_text: str, target_text: str, off_params: MatchParams,
                         new: int, old: int, up_line: int) -> None:
    """With ``off_params`` the new header (``new``) is near the upstream header (``up_line``) and
    the old one (``old``) none; by default the old one is verbatim with it and the new one none."""
    up = [("up", {f"up/{name}": up_text})]
    off = file_lines(run_compare({f"pkg/{name}": target_text}, up, params=off_params), f"pkg/{name}")
    on = file_lines(run_compare({f"pkg/{name}": target_text}, up), f"pkg/{name}")
    assert off.loc[new, "match"] == "near" and int(off.loc[new, "upstream_line"]) == up_line
    assert off.loc[old, "match"] == "none"
    assert on.loc[old, "match"] == "verbatim" and int(on.loc[old, "upstream_line"]) == up_line
    assert on.loc[new, "match"] == "none"


_KEYS_UP = (
    "    def keys(self):\n"
    '        """Dict-like keys() that returns a list of names of cookies from the jar.\n'
    '        See values() and items()."""\n'
    "        found_names = []\n"
    "        for cookie in iter(self):\n"
    "            found_names.append(cookie.name)\n"
    "        return found_names\n"
)
_JAR_UP = (
    "class CookieJarOfTheSession(object):\n"
    "    def set_the_cookie(self, name, value, **kwargs):\n"
    "        cookie = build_cookie_from_parts(name, value, **kwargs)\n"
    "        self.store_cookie_in_the_jar(cookie)\n"
    "        return cookie\n"
    "\n"
    + _KEYS_UP +
    "\n"
    "    def values(self):\n"
    '        """Dict-like values() that returns a list of values of cookies from the jar.\n'
    '        See keys() and items()."""\n'
    "        found_values = []\n"
    "        for cookie in iter(self):\n"
    "            found_values.append(cookie.value)\n"
    "        return found_values\n"
)
# An iterator version inserted above ``keys``, whose docstring and loop echo it; ``keys`` itself
# stays, its header unchanged, its body now a call of the new method.
_JAR_TARGET = _JAR_UP.replace(
    _KEYS_UP,
    "    def iterkeys(self):\n"
    '        """Dict-like iterkeys() that returns an iterator of names of cookies from the jar.\n'
    '        See itervalues() and iteritems()."""\n'
    "        for cookie in iter(self):\n"
    "            yield cookie.name\n"
    "\n"
    "    def keys(self):\n"
    '        """Dict-like keys() that returns a list of names of cookies from the\n'
    "        jar. See values() and items().\"\"\"\n"
    "        return list(self.iterkeys())\n",
)
_ITER_HEADER, _KEYS_HEADER, _UP_KEYS = 7, 13, 7


def test_a_header_of_another_name_gives_the_upstream_header_to_its_twin(run_compare: Runner) -> None:
    """``def iterkeys(self):`` took the old ``def keys(self):`` by position; the target's own
    identical ``def keys(self):`` lies past the paired docstring, outside the stretch: the
    upstream header is its (``identical_twin_headers``)."""
    _assert_header_moves(run_compare, "cookies.py", _JAR_UP, _JAR_TARGET, MatchParams(identical_twin_headers=0),
                         _ITER_HEADER, _KEYS_HEADER, _UP_KEYS)


_OTHER_KEYS = ("\n\nclass OtherJarOfTheSession(object):\n"
               "    def keys(self, prefix):\n"
               "        return [prefix + name for name in self.names_of_the_jar_in_order]\n")


def test_a_header_whose_name_is_defined_twice_keeps_its_stretch(run_compare: Runner) -> None:
    """``identical_twin_headers`` holds only for a name each file defines once: with a second
    ``keys`` (another class's) the name no longer says which definition is the old one, and the
    upstream header stays with ``iterkeys`` as the stretch has it."""
    up = [("up", {"up/cookies.py": _JAR_UP + _OTHER_KEYS})]
    on = file_lines(run_compare({"pkg/cookies.py": _JAR_TARGET + _OTHER_KEYS}, up), "pkg/cookies.py")
    assert on.loc[_ITER_HEADER, "match"] == "near" and int(on.loc[_ITER_HEADER, "upstream_line"]) == _UP_KEYS
    assert on.loc[_KEYS_HEADER, "match"] == "none"


def _twin_lab(blocked: frozenset[int]) -> object:
    """A stand-in labeller: target ``b = compute(x)`` (1) paired near with upstream ``b =
    compute(y)`` (1) between two verbatim pairs, the identical ``b = compute(y)`` (2) free; the
    target lines ``blocked`` may not be paired with the upstream file."""
    from types import SimpleNamespace

    import numpy as np

    from lineage.index import CODE
    from lineage.match.records import NEAR, NONE, VERBATIM

    up = ["a = 1", "b = compute(y)", "c = 3"]
    mine = ["a = 1", "b = compute(x)", "b = compute(y)", "c = 3"]
    result = SimpleNamespace(match=np.array([VERBATIM, NEAR, NONE, VERBATIM]), up_file=np.array([0, 0, -1, 0]),
                             up_row=np.array([0, 1, -1, 2]))
    return SimpleNamespace(result=result, t_rows=np.arange(4), t_lines=mine, p=MatchParams(),
                           upstream=SimpleNamespace(read_lines=lambda f: up),
                           upstream_lines=lambda f: (np.arange(3), up), target_kind=lambda tc: CODE,
                           upstream_kind=lambda f, uc: CODE, blocked_from=lambda f, tc: tc in blocked)


def test_a_twin_blocked_from_the_upstream_file_does_not_take_the_pair() -> None:
    """The identical free line takes the near line's upstream line, unless
    :mod:`lineage.match.class_names` blocked it from that upstream file: every rule after the
    block asks :meth:`FileLabeller.blocked_from`."""
    from lineage.match.identical_twins import identical_twin_moves

    assert identical_twin_moves(_twin_lab(frozenset())) == [(1, 2)]
    assert identical_twin_moves(_twin_lab(frozenset({2}))) == []
