"""Steps 4-5 of the git cases' truth (tests/eval/real/gaps.py) on tiny files made here."""

from __future__ import annotations

from tests.eval.real import align, gaps

OLD = [
    "import os",
    "",
    "def send(self, request, stream=False, timeout=None, verify=True):",
    "    log.debug('sending %s', request)",
    "    return self.adapter.send(request)",
    "",
    "def close(self):",
    "    self.pool.clear()",
]
NEW = [
    "import os",
    "",
    "def send(",
    "    self, request, stream=False, timeout=None, verify=True,",
    "):",
    '    _log.debug("sending %s", request)',
    "    return self.adapter.send(request)",
    "",
    "def brand_new_helper(x):",
    "    return x * 2",
    "",
    "def close(self):",
    "    self.pool.clear()",
]
BLAME = {1: 1, 7: 5, 12: 7, 13: 8}  # target line -> upstream line, as blame would say


def _blame_rows(path: str, upstream: str) -> dict[int, dict]:
    return {n: {"target_path": path, "line": n, "expected": "verbatim", "upstream_path": upstream,
                "upstream_line": u, "category": "same_file" if path == upstream else "moved"}
            for n, u in BLAME.items()}


def test_rewrapped_and_edited_lines_between_blame_lines_are_near_copies() -> None:
    rows = gaps.gap_rows("pkg/a.py", NEW, {"pkg/a.py": OLD}, _blame_rows("pkg/a.py", "pkg/a.py"), None)
    got = {n: (row["category"], row["expected"], row["upstream_line"]) for n, row in rows.items()}
    # The signature Black broke over three lines: each piece maps to the line of its first token.
    assert got[3] == got[4] == got[5] == ("rewrapped", "near", 3)
    # Quotes and a renamed logger: edited in place, still similar to the line it replaced.
    assert got[6] == ("edited", "near", 4)
    # New code between copied lines is not a copy; blame's own rows are kept as they were.
    assert 9 not in rows and 10 not in rows
    assert got[7] == ("same_file", "verbatim", 5)


def test_step_5_only_in_a_later_version_of_the_same_file() -> None:
    # The same lines, but blame found them in another file, and the file holds far more code of
    # its own (blame keeps under a tenth of its lines): only blame's rows (and step 4).
    padded = NEW + [f"def own_helper_{k}(x):\n    return x + {k}" for k in range(40)]
    rows = gaps.gap_rows("pkg/new.py", padded, {"pkg/a.py": OLD}, _blame_rows("pkg/new.py", "pkg/a.py"), None)
    assert sorted(rows) == sorted(BLAME)


def test_step_6b_a_file_written_from_another_aligns_its_functions_of_the_same_name() -> None:
    # A tenth or more of its lines kept from pkg/a.py: ``send``, defined once in each file, is
    # aligned as a later version of it (step 5 inside the function); the new helper stays new.
    rows = gaps.gap_rows("pkg/new.py", NEW, {"pkg/a.py": OLD}, _blame_rows("pkg/new.py", "pkg/a.py"), None)
    assert sorted(rows) == sorted([*BLAME, 3, 4, 5, 6])
    assert rows[6]["category"] == "edited" and rows[6]["upstream_line"] == 4


def test_reformat_rule_reads_the_forks_name_as_the_upstreams() -> None:
    old = ["from upkg import core", "x = 1", "y = 'a'", "z = 2"]
    new = ["from forkpkg import core", "x = 1", 'y = "a"', "z = 2"]
    blame = {2: 2, 4: 4}
    rows = {n: {"target_path": "forkpkg/m.py", "line": n, "expected": "verbatim", "upstream_path": "upkg/m.py",
                "upstream_line": u, "category": "same_file"} for n, u in blame.items()}
    got = gaps.gap_rows("forkpkg/m.py", new, {"upkg/m.py": old}, rows, ("forkpkg", "upkg"))
    assert got[1]["category"] == "renamed" and got[3]["category"] == "reformatted"


def test_rerun_on_its_own_output_gives_the_same_rows() -> None:
    once = gaps.gap_rows("pkg/a.py", NEW, {"pkg/a.py": OLD}, _blame_rows("pkg/a.py", "pkg/a.py"), None)
    assert gaps.gap_rows("pkg/a.py", NEW, {"pkg/a.py": OLD}, once, None) == once


def test_increasing_chain_drops_a_line_moved_up_instead_of_what_follows() -> None:
    # A greedy chain would keep (0, 50) and lose every later anchor.
    assert align.increasing_chain([(0, 50), (1, 1), (2, 2), (3, 3)]) == [(1, 1), (2, 2), (3, 3)]


def test_statements_drop_the_magic_trailing_comma_and_unify_quotes() -> None:
    one = gaps.statements(["f(a, 'b')"], lambda t: t)
    three = gaps.statements(["f(", "    a,", '    "b",', ")"], lambda t: t)
    assert [t for t, _ in one[0]] == [t for t, _ in three[0]]


def test_an_edited_multi_line_statement_is_copied_except_the_text_the_edit_added() -> None:
    old = ["import os", "SLOTS = ('alpha', 'beta', 'gamma')", "def end():", "    pass"]
    new = ["import os", "SLOTS = (", '    "alpha",', '    "beta",', '    "delta_added_later",', ")",
           "def end():", "    pass"]
    rows = {n: {"target_path": "m.py", "line": n, "expected": "verbatim", "upstream_path": "m.py",
                "upstream_line": u, "category": "same_file"} for n, u in {1: 1, 7: 3, 8: 4}.items()}
    got = gaps.gap_rows("m.py", new, {"m.py": old}, rows, None)
    assert {n: got[n]["category"] for n in (2, 3, 4, 6)} == dict.fromkeys((2, 3, 4, 6), "edited")
    assert all(got[n]["upstream_line"] == 2 for n in (2, 3, 4, 6))
    assert 5 not in got  # the slot the edit added is new text


def test_step_7_reads_the_names_of_an_import_in_sorted_order() -> None:
    # isort sorted the names inside the import as well as moving it: still that import.
    old = ["import os", "from .errors import InvalidArgument, ClientException", "", "def run():", "    pass"]
    new = ["from .errors import ClientException, InvalidArgument", "import os", "", "def run():", "    pass"]
    rows = {n: {"target_path": "m.py", "line": n, "expected": "verbatim", "upstream_path": "m.py",
                "upstream_line": u, "category": "same_file"} for n, u in {2: 1, 4: 4, 5: 5}.items()}
    got = gaps.gap_rows("m.py", new, {"m.py": old}, rows, None)
    assert got[1]["category"] == "reordered" and got[1]["upstream_line"] == 2


def test_step_5c_a_header_pairs_with_the_header_of_the_same_qualified_name() -> None:
    # The function moved below another, its signature re-wrapped and typed, its body rewritten:
    # the diff never puts the two headers opposite each other; step 5c pairs them by their
    # qualified name. The parameter added with a default of None shares no other word with the
    # old signature: it stays new.
    old = ["import os", "", "def connect(url, timeout=None):", "    return os.connect_somewhere(url)", "",
           "def helper_that_stays():", "    return compute_the_helper_value()"]
    new = ["import os", "", "def helper_that_stays():", "    return compute_the_helper_value()", "",
           "def connect(", "    url: str,", "    timeout: Optional[float] = None,",
           "    retries: Optional[int] = None,", ") -> None:", "    return open_a_brand_new_socket(url, retries)"]
    rows = {n: {"target_path": "m.py", "line": n, "expected": "verbatim", "upstream_path": "m.py",
                "upstream_line": u, "category": "same_file"} for n, u in {1: 1, 3: 6, 4: 7}.items()}
    got = gaps.gap_rows("m.py", new, {"m.py": old}, rows, None)
    assert all(got[n]["upstream_line"] == 3 and got[n]["category"] in ("edited", "annotated") for n in (6, 7, 8, 10))
    assert 9 not in got  # retries=None: added
    assert 11 not in got


def test_step_6c_a_class_moved_under_a_like_name_is_aligned_whole() -> None:
    # blame kept the docstring of MissingRole in ApplicationMissingRole, in a new file; the
    # methods, each edited, had no blame line: the class moved is aligned as a later version.
    old = ["class MissingRole(CheckFailure):", '    """Exception raised when the command invoker lacks a role.',
           "", "    This inherits from CheckFailure and carries the role that was missing.", '    """',
           "    def __init__(self, missing_role):", "        self.missing_role = missing_role",
           "        message = 'Role {0!r} is required to run this command.'.format(missing_role)",
           "        super().__init__(message)"]
    new = ["class ApplicationMissingRole(ApplicationCheckFailure):",
           '    """Exception raised when the command invoker lacks a role.', "",
           "    This inherits from CheckFailure and carries the role that was missing.", '    """',
           "    def __init__(self, missing_role: Union[str, int]) -> None:",
           "        self.missing_role: Union[str, int] = missing_role",
           '        message = f"Role {missing_role!r} is required to run this command."',
           "        super().__init__(message)"]
    rows = {n: {"target_path": "pkg/app_errors.py", "line": n, "expected": "verbatim", "upstream_path": "pkg/errors.py",
                "upstream_line": n, "category": "moved"} for n in (2, 4, 9)}
    got = gaps.gap_rows("pkg/app_errors.py", new, {"pkg/errors.py": old}, rows, None)
    assert {n: got[n]["upstream_line"] for n in (1, 6, 7, 8)} == {1: 1, 6: 6, 7: 7, 8: 8}


def test_step_6d_a_function_copied_within_its_file_is_aligned_with_the_one_it_copies() -> None:
    # TextChannel.purge stays in place (blame lines in order); VoiceChannel.purge was written
    # after OLD by copying it: blame credits two of its lines to TextChannel.purge, off the
    # in-order chain. Its re-wrapped signature and its edited call (edited in the first copy
    # too) are copies; ``ret.append(message)``, whose upstream line the first copy keeps
    # verbatim, is the file's own edit of that copy (the rule of issue 8's truth set).
    old = ["class TextChannel:", "    async def purge(self, limit=100, check=None, bulk=True):",
           "        ret = self.collect_the_messages_to_delete(limit)", "        ret.append(msg)",
           "        return await self.delete_them_in_bulk(ret, bulk)", "",
           "class VoiceChannel:", "    def bitrate_of_the_channel(self):", "        return self.bitrate_value"]
    new = ["class TextChannel:", "    async def purge(self, limit=100, check=None, bulk=True) -> list:",
           "        ret = self.collect_the_messages_to_delete(limit)", "        ret.append(msg)",
           "        return await self.delete_them_in_bulk(ret, bulk=bulk)", "",
           "class VoiceChannel:", "    def bitrate_of_the_channel(self):", "        return self.bitrate_value", "",
           "    async def purge(", "        self, limit=100, check=None, bulk=True", "    ):",
           "        ret = self.collect_the_messages_to_delete(limit)", "        ret.append(message)",
           "        return await self.delete_them_in_bulk(ret, bulk=bulk)"]
    blame = {1: 1, 3: 3, 4: 4, 7: 7, 8: 8, 9: 9, 14: 3}
    rows = {n: {"target_path": "m.py", "line": n, "expected": "verbatim", "upstream_path": "m.py",
                "upstream_line": u, "category": "same_file"} for n, u in blame.items()}
    assert 11 not in gaps.gap_rows("m.py", new, {"m.py": old}, dict(rows), None)  # one blame line: no copy
    rows[16] = {**rows[14], "line": 16, "upstream_line": 5}  # a second line blame keeps: a copy
    rows[16]["expected"] = "near"  # (the test's blame row stands for ``-w``'s whitespace-blind match)
    got = gaps.gap_rows("m.py", new, {"m.py": old}, rows, None)
    assert {n: got[n]["upstream_line"] for n in (11, 12, 13)} == {11: 2, 12: 2, 13: 2}
    assert 15 not in got  # ``ret.append(msg)`` is the first copy's, verbatim


def test_step_6b_a_name_defined_in_several_classes_pairs_with_its_closest_definition() -> None:
    # The file written from pkg/a.py: ``request`` is defined twice there (an abstract one and the
    # requests one); the target's is the rewrite of the requests one, the closest in text.
    old = ["class Adapter:", "    def request(self, verb, url):", "        raise NotImplementedError()", "",
           "class RequestsAdapter(Adapter):", "    def request(self, verb, url, payload=None):",
           "        response = self.session.request(verb, url, data=payload)",
           "        remaining = response.headers.get('X-Ratelimit-Remaining')",
           "        return response.json_payload_of_the_response()", "",
           "def helper_one():", "    return compute_the_first_helper_value()",
           "def helper_two():", "    return compute_the_second_helper_value()"]
    new = ["class SyncAdapter:", "    def request(self, verb, url, payload=None, reason=None):",
           "        response = self.session.request(verb, url, data=payload, reason=reason)",
           '        remaining = response.headers.get("X-Ratelimit-Remaining")',
           "        return response.json_payload_of_the_response()", "",
           "def helper_one():", "    return compute_the_first_helper_value()",
           "def helper_two():", "    return compute_the_second_helper_value()"]
    rows = {n: {"target_path": "pkg/sync.py", "line": n, "expected": "verbatim", "upstream_path": "pkg/a.py",
                "upstream_line": u, "category": "moved"} for n, u in {7: 11, 8: 12, 9: 13, 10: 14}.items()}
    got = gaps.gap_rows("pkg/sync.py", new, {"pkg/a.py": old}, rows, None)
    assert {n: got[n]["upstream_line"] for n in (2, 3, 4)} == {2: 6, 3: 7, 4: 8}


def test_step_5c_compares_headers_without_a_return_annotation_broken_over_lines() -> None:
    # The signature typed with a return annotation of five lines: its parameters and the
    # header's own brackets pair with the old one-line signature; the annotation's lines are new.
    old = ["import os", "", "def command(name=None, cls=None, **attrs):", '    """Make a command."""',
           "    return make_the_command(name, cls, attrs)"]
    new = ["import os", "", "def command(", "    name: str = MISSING,", "    cls: Type[CommandT] = MISSING,",
           "    **attrs: Any,", ") -> Callable[", "    [", "        Callable[Concatenate[ContextT, P], Coro[Any]],",
           "    ],", "    CommandT,", "]:", '    """Make a command."""', "    return build_it_now(name, attrs)"]
    rows = {n: {"target_path": "m.py", "line": n, "expected": "verbatim", "upstream_path": "m.py",
                "upstream_line": u, "category": "same_file"} for n, u in {1: 1, 13: 4}.items()}
    got = gaps.gap_rows("m.py", new, {"m.py": old}, rows, None)
    assert all(got[n]["upstream_line"] == 3 for n in (3, 4, 5, 6, 7, 12))
    assert not {8, 9, 10, 11} & set(got)


def test_step_6d_a_second_copy_takes_upstream_lines_its_first_copy_holds_edited() -> None:
    # ``VoiceChannel.purge`` copies ``TextChannel.purge`` (three blame lines off the chain): its
    # edited ``count = ...`` line pairs with the upstream line the first copy holds edited too
    # (only a verbatim holder keeps an upstream line to itself), and its signature, verbatim,
    # with the one the first copy holds verbatim.
    old = ["class TextChannel:", "    async def purge(self, limit=100, check=None, bulk=True):",
           "        ret = self.collect_the_messages_to_delete(limit)", "        ret.append(msg)",
           "        count = self.count_the_deleted_messages(limit)",
           "        return await self.delete_them_in_bulk(ret, bulk)", "",
           "class VoiceChannel:", "    def bitrate_of_the_channel(self):", "        return self.bitrate_value"]
    first = old[:4] + ["        count = self.count_the_deleted_messages(limit=limit)"] + old[5:]
    new = first + ["", "    async def purge(self, limit=100, check=None, bulk=True):",
                   "        ret = self.collect_the_messages_to_delete(limit)", "        ret.append(msg)",
                   "        count = self.count_the_deleted_messages(limit=limit, check=check)",
                   "        return await self.delete_them_in_bulk(ret, bulk)"]
    blame = {1: 1, 2: 2, 3: 3, 4: 4, 6: 6, 8: 8, 9: 9, 10: 10, 13: 3, 14: 4, 16: 6}
    rows = {n: {"target_path": "m.py", "line": n, "expected": "verbatim", "upstream_path": "m.py",
                "upstream_line": u, "category": "same_file"} for n, u in blame.items()}
    got = gaps.gap_rows("m.py", new, {"m.py": old}, rows, None)
    assert (got[5]["upstream_line"], got[5]["category"]) == (5, "edited")
    assert (got[15]["upstream_line"], got[15]["category"]) == (5, "edited")
    assert (got[12]["upstream_line"], got[12]["expected"]) == (2, "verbatim")


_NATIVE = ["import os", "", "def keep(a):", "    return a + 1", "", "def native(s):", "    if isinstance(s, str):",
           "        out = s", "    else:", "        out = s.decode()", "    return out"]


def test_step_5_leaves_out_a_function_that_moved_to_another_file() -> None:
    # ``to_native_string`` moved to another target file (blame credits two of its lines there);
    # the new function now standing where it stood is not its edit, nor is its ``else:``.
    new = ["import os", "", "def keep(a):", "    return a + 1", "", "def check(h):", "    if isinstance(h, bytes):",
           "        v = h", "    else:", "        raise ValueError(h)"]
    rows = {n: {"target_path": "pkg/a.py", "line": n, "expected": "verbatim", "upstream_path": "pkg/a.py",
                "upstream_line": n, "category": "same_file"} for n in (1, 3, 4)}
    assert {7, 9} <= set(gaps.gap_rows("pkg/a.py", new, {"pkg/a.py": _NATIVE}, dict(rows), None))
    got = gaps.gap_rows("pkg/a.py", new, {"pkg/a.py": _NATIVE}, dict(rows), None, {"pkg/a.py": {7, 10}})
    assert sorted(got) == [1, 3, 4]


def test_step_8_an_else_is_a_copy_only_with_its_statement() -> None:
    # The old ``if url: ... else:`` was rewritten without it; the new function below holds an
    # ``else:`` of its own statement, which the diff put opposite the old one: not a copy. The
    # ``else:`` of an ``if`` that is the old one edited stays.
    old = ["def auth(url):", "    p = parse(url)", "    if url:", "        return p.user", "    else:",
           "        return ''"]
    new = ["def auth(url):", "    p = parse(url)", "    return p.user or ''", "", "def check(h):",
           "    if isinstance(h, bytes):", "        v = h", "    else:", "        raise ValueError(h)"]
    rows = {n: {"target_path": "pkg/a.py", "line": n, "expected": "verbatim", "upstream_path": "pkg/a.py",
                "upstream_line": n, "category": "same_file"} for n in (1, 2)}
    assert 8 not in gaps.gap_rows("pkg/a.py", new, {"pkg/a.py": old}, dict(rows), None)
    edited = new[:5] + ["    if url or h:", "        return h.user", "    else:", "        raise ValueError(h)"]
    assert gaps.gap_rows("pkg/a.py", edited, {"pkg/a.py": old}, dict(rows), None)[8]["upstream_line"] == 5


def test_step_8b_the_else_of_a_copied_header_is_the_old_statements_else() -> None:
    # The ``if`` block moved out of the ``try: ... else:`` to the top, dedented; blame kept its
    # lines off the in-order chain (the ``try`` is longer), not the ``else:`` between them.
    old = ["def edit(fields):", "    log(fields)", "    try:", "        ch = fields.pop('ch')", "    except KeyError:",
           "        pass", "    else:", "        if ch is None:", "            fields['id'] = ch", "        else:",
           "            fields['id'] = ch.id", "    return fields"]
    new = ["def edit(fields):", "    if ch is None:", "        fields['id'] = ch", "    else:",
           "        fields['id'] = ch.id", "    log(fields)", "    try:", "        ch = fields.pop('ch')",
           "    except KeyError:", "        pass", "    return fields"]
    blame = ((1, 1), (2, 8), (3, 9), (5, 11), (6, 2), (7, 3), (8, 4), (9, 5), (10, 6), (11, 12))
    rows = {n: {"target_path": "pkg/a.py", "line": n, "expected": "verbatim", "upstream_path": "pkg/a.py",
                "upstream_line": u, "category": "same_file"} for n, u in blame}
    got = gaps.gap_rows("pkg/a.py", new, {"pkg/a.py": old}, rows, None)
    assert got[4]["upstream_line"] == 10 and got[4]["category"] == "realigned"


def test_step_5a_a_row_added_to_a_kept_table_is_no_edit_of_a_kept_row() -> None:
    # Blame keeps every old row of the lookup (whitespace realigned) and its braces: a row added
    # since finds all its words in the kept rows, which are those rows' own, so it stays new.
    old = ["def category(self):", "    lookup = {",
           "        Action.guild_update:   Category.update,",
           "        Action.channel_create: Category.create,",
           "    }", "    return lookup[self]"]
    new = ["def category(self):", "    lookup = {",
           "        Action.guild_update:      Category.update,",
           "        Action.channel_create:    Category.create,",
           "        Action.thread_create:     Category.create,",
           "    }", "    return lookup[self]"]
    blame = {1: 1, 2: 2, 3: 3, 4: 4, 6: 5, 7: 6}
    rows = {n: {"target_path": "m.py", "line": n, "expected": "verbatim", "upstream_path": "m.py",
                "upstream_line": u, "category": "same_file"} for n, u in blame.items()}
    assert 5 not in gaps.gap_rows("m.py", new, {"m.py": old}, rows, None)


def test_step_5_keeps_a_function_blame_also_keeps_here() -> None:
    # Two lines of ``native`` credited to another target file, but blame keeps one of its lines
    # here too: the function was copied, not moved, and the old file still aligns it (its
    # ``else:``).
    new = ["import os", "", "def keep(a):", "    return a + 1", "", "def native(s):", "    if isinstance(s, bytes):",
           "        out = s", "    else:", "        raise ValueError(s)"]
    rows = {n: {"target_path": "pkg/a.py", "line": n, "expected": "verbatim", "upstream_path": "pkg/a.py",
                "upstream_line": n, "category": "same_file"} for n in (1, 3, 4, 6)}
    got = gaps.gap_rows("pkg/a.py", new, {"pkg/a.py": _NATIVE}, dict(rows), None, {"pkg/a.py": {7, 10}})
    assert got[9]["upstream_line"] == 9


def test_step_5a_an_edited_row_names_no_row_blame_keeps() -> None:
    # Blame keeps three rows of the lookup and its braces; the fourth row was edited and two
    # rows added below. The edited row's first token also opens the kept rows: it names its own
    # old row, not a kept one (which blame credits to its own line).
    rows_old = ["        Action.guild_update: Category.update,", "        Action.channel_create: Category.create,",
                "        Action.channel_update: Category.update,", "        Action.channel_delete: Category.delete,"]
    old = ["def category(self):", "    lookup = {", *rows_old, "    }", "    return lookup[self]"]
    new = ["def category(self):", "    lookup = {", *rows_old[:3], "        Action.channel_delete: Category.remove,",
           "        Action.thread_create: Category.create,", "        Action.thread_update: Category.update,",
           "    }", "    return lookup[self]"]
    blame = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 9: 7, 10: 8}
    rows = {n: {"target_path": "m.py", "line": n, "expected": "verbatim", "upstream_path": "m.py",
                "upstream_line": u, "category": "same_file"} for n, u in blame.items()}
    got = gaps.gap_rows("m.py", new, {"m.py": old}, rows, None)
    assert (got[6]["upstream_line"], got[6]["category"]) == (6, "edited")


def test_step_8_an_else_after_a_new_elif_stays_by_its_block() -> None:
    # A new ``elif`` before the old ``else:``: its clause header is new, but the first line of its
    # block is the old ``else:``'s block's, so the ``else:`` the gap steps paired stays.
    old = ["def pick(x):", "    if x > 1:", "        y = 1", "    else:", "        y = compute_the_default(x)",
           "    return y"]
    new = ["def pick(x):", "    if x > 1:", "        y = 1", "    elif x < 0:", "        y = -1", "    else:",
           "        y = compute_the_default(x)", "    return y"]
    blame = {1: 1, 2: 2, 3: 3, 7: 5, 8: 6}
    rows = {n: {"target_path": "pkg/a.py", "line": n, "expected": "verbatim", "upstream_path": "pkg/a.py",
                "upstream_line": u, "category": "same_file"} for n, u in blame.items()}
    assert gaps.gap_rows("pkg/a.py", new, {"pkg/a.py": old}, rows, None)[6]["upstream_line"] == 4



def test_step_5a_an_extended_call_keeps_its_old_arguments() -> None:
    # The one-line call gained five keyword arguments and was exploded one a line: the whole is
    # under the cutoff against the old line, its first line alone is not; the arguments it kept
    # are copies, those added and the closing bracket are new.
    old = ["async def invite(self, *, reason=None, **fields):",
           "    data = await self._state.http.create_invite(self.id, reason=reason, **fields)",
           "    return Invite.from_incomplete(data=data, state=self._state)"]
    new = ["async def invite(self, *, reason=None, **fields):",
           "    data = await self._state.http.create_invite(",
           "        self.id,", "        reason=reason,", "        max_age=max_age,", "        max_uses=max_uses,",
           "        temporary=temporary,", "        unique=unique,", "        target_type=target_type,",
           "        target_user_id=target_user.id if target_user else None,",
           "        target_application_id=target_application_id,",
           "    )",
           "    return Invite.from_incomplete(data=data, state=self._state)"]
    rows = {n: {"target_path": "m.py", "line": n, "expected": "verbatim", "upstream_path": "m.py",
                "upstream_line": u, "category": "same_file"} for n, u in {1: 1, 13: 3}.items()}
    got = gaps.gap_rows("m.py", new, {"m.py": old}, rows, None)
    assert {n: (got[n]["category"], got[n]["upstream_line"]) for n in (2, 3, 4)} == dict.fromkeys((2, 3, 4),
                                                                                                ("edited", 2))
    assert not set(got) & set(range(5, 13))


def test_step_5a_an_extended_statement_needs_a_kept_first_line() -> None:
    # The call moved onto another object: its first line, alike by its characters, names a word
    # the old one lacks, so the statement is no extension of it (step 5b judges that line
    # alone), and ``self.id,`` and ``message_id,`` are not kept from it.
    old = ["def delete(self):", "    return self.adapter.delete_message(self.id, message_id)", "def end():",
           "    pass"]
    new = ["def delete(self):", "    return self.client.delete_message(", "        self.id,", "        message_id,",
           "        token=self.token,", "        session=self.session,", "        thread_id=thread_id,",
           "        reason=reason,", "    )", "def end():", "    pass"]
    rows = {n: {"target_path": "m.py", "line": n, "expected": "verbatim", "upstream_path": "m.py",
                "upstream_line": u, "category": "same_file"} for n, u in {1: 1, 10: 3, 11: 4}.items()}
    got = gaps.gap_rows("m.py", new, {"m.py": old}, rows, None)
    assert 3 not in got and 4 not in got


def test_step_8c_an_except_edited_in_place_is_the_old_clause() -> None:
    # ``Response.ok``: the ``try:`` and both blocks kept, the exception narrowed in place (ratio
    # 0.55, under step 5b's cutoff); the block says which clause it is. An ``except`` whose block
    # opens with a line of another old block (the ``try:``'s) is none of it.
    old = ["def ok(self):", "    try:", "        self.raise_for_status()", "    except RequestException:",
           "        return False", "    return True"]
    new = ["def ok(self):", "    try:", "        self.raise_for_status()", "    except HTTPError:",
           "        return False", "    return True"]
    rows = {n: {"target_path": "m.py", "line": n, "expected": "verbatim", "upstream_path": "m.py",
                "upstream_line": n, "category": "same_file"} for n in (1, 2, 3, 5, 6)}
    got = gaps.gap_rows("m.py", new, {"m.py": old}, dict(rows), None)
    assert got[4]["upstream_line"] == 4 and got[4]["category"] == "edited" and got[4]["expected"] == "near"
    moved = ["def ok(self):", "    try:", "        pass", "    except HTTPError:",
             "        self.raise_for_status()", "    return True"]
    rows = {n: {"target_path": "m.py", "line": n, "expected": "verbatim", "upstream_path": "m.py",
                "upstream_line": u, "category": "same_file"} for n, u in ((1, 1), (2, 2), (5, 3), (6, 6))}
    assert 4 not in gaps.gap_rows("m.py", moved, {"m.py": old}, rows, None)


def test_step_5a_a_statement_keeps_the_arguments_of_an_old_statement_of_several_lines() -> None:
    # ``edit_channel``'s ``valid_keys``: the old two-line tuple kept whole, in order, and
    # extended by more keys than it had (the whole under 0.6 against the old statement); its
    # first line alone is too short against the old statement for the extended-statement rule.
    # The kept keys and the first line are copies, the keys added and the closing bracket new.
    # The same names in another order (a list of another class's slots sharing some) are no
    # such statement.
    old = ["def edit(self):", "    valid_keys = ('name', 'parent_id', 'topic',", "                  'bitrate', 'nsfw')",
           "    return valid_keys"]
    added = ["archived", "locked", "flags", "invitable", "default_sort_order", "default_forum_layout",
             "available_tags", "default_reaction_emoji", "video_quality_mode"]
    new = ["def edit(self):", "    valid_keys = (", *(f'        "{key}",' for key in
                                                   ["name", "parent_id", "topic", "bitrate", "nsfw", *added]),
           "    )", "    return valid_keys"]
    rows = {n: {"target_path": "m.py", "line": n, "expected": "verbatim", "upstream_path": "m.py",
                "upstream_line": u, "category": "same_file"} for n, u in {1: 1, len(new): 4}.items()}
    got = gaps.gap_rows("m.py", new, {"m.py": old}, dict(rows), None)
    assert {n: (got[n]["category"], got[n]["upstream_line"]) for n in range(2, 8)} == {
        2: ("edited", 2), 3: ("edited", 2), 4: ("edited", 2), 5: ("edited", 2), 6: ("edited", 3), 7: ("edited", 3)}
    assert not set(got) & set(range(8, len(new)))
    shuffled = new[:2] + [new[4], new[2], new[6], new[3], new[5]] + new[7:]
    assert not set(gaps.gap_rows("m.py", shuffled, {"m.py": old}, dict(rows), None)) & set(range(2, len(new)))


def test_step_7_a_line_repeated_once_free_in_each_version_of_its_unit() -> None:
    # ``import discord`` stands twice in the old file (a module import and one in a template
    # string); blame keeps the template's, and the module import, renamed and moved below
    # another by isort, is the other. A line of another unit (the old ``a``'s, opposite a new
    # ``c`` no line of which pairs with it) stays new though it stands once free in each.
    old = ["import discord", "import aiohttp", "TEMPLATE = \'\'\'", "import discord", "\'\'\'",
           "def a():", "    return self.value_of_the_thing_x", "def b():", "    return self.value_of_the_thing_x"]
    new = ["import aiohttp", "import nextcord", "TEMPLATE = \'\'\'", "import nextcord", "\'\'\'",
           "def b():", "    return self.value_of_the_thing_x", "def c():", "    return self.value_of_the_thing_x"]
    rows = {n: {"target_path": "m.py", "line": n, "expected": "verbatim", "upstream_path": "m.py",
                "upstream_line": u, "category": "same_file"} for n, u in {1: 2, 3: 3, 4: 4, 5: 5, 6: 8, 7: 9}.items()}
    got = gaps.gap_rows("m.py", new, {"m.py": old}, dict(rows), ("nextcord", "discord"))
    assert got[2]["upstream_line"] == 1 and got[2]["category"] == "reordered"
    assert 9 not in got


def test_a_functions_decorators_are_lines_of_the_function() -> None:
    # ``ForumChannel._sorting_bucket`` written after OLD from ``TextChannel``'s: blame keeps its
    # ``@property`` and its ``return`` off the in-order chain, two lines of the function with its
    # decorator (one without), so step 6d aligns the two and the annotated header is a copy.
    old = ["class TextChannel:", "    @property", "    def _sorting_bucket(self):",
           "        return ChannelType.text.value", "", "class VoiceChannel:", "    def bitrate_of_it(self):",
           "        return self.bitrate_value"]
    new = ["class TextChannel:", "    @property", "    def _sorting_bucket(self) -> int:",
           "        return ChannelType.text.value", "", "class VoiceChannel:", "    def bitrate_of_it(self):",
           "        return self.bitrate_value", "", "class ForumChannel:", "    @property",
           "    def _sorting_bucket(self) -> int:", "        return ChannelType.text.value"]
    blame = {1: 1, 2: 2, 4: 4, 6: 6, 7: 7, 8: 8, 11: 2, 13: 4}
    rows = {n: {"target_path": "m.py", "line": n, "expected": "verbatim", "upstream_path": "m.py",
                "upstream_line": u, "category": "same_file"} for n, u in blame.items()}
    got = gaps.gap_rows("m.py", new, {"m.py": old}, rows, None)
    assert got[12]["upstream_line"] == 3 and got[12]["category"] == "annotated"


def test_step_6_a_function_of_the_same_name_comes_first() -> None:
    # ``application_checks``' ``bot_has_role`` holds two docstring lines of the old
    # ``bot_has_role`` and, by blame's pick among equal lines, three of ``has_role``'s: it is
    # ``bot_has_role`` moved, and its annotated header a copy of that one's.
    old = ["def has_role(item):", '    """Check a role.', "", "    Parameters", "    ----------",
           "    item: the role to look for in the list", '    """', "    return check(member_predicate)", "",
           "def bot_has_role(item):", '    """Check a role of the bot itself.', "    The bot needs it.", "",
           "    Parameters", "    ----------", "    item: the role to look for in the list", '    """',
           "    return check(bot_predicate)"]
    new = ["def bot_has_role(item: Union[int, str]) -> AC:", '    """Check a role of the bot itself.',
           "    The bot needs it.", "", "    Parameters", "    ----------",
           "    item: the role to look for in the list",
           '    """', "    return check(bot_predicate)"]
    blame = {2: ("b.py", 11), 3: ("b.py", 12), 5: ("b.py", 4), 6: ("b.py", 5), 7: ("b.py", 6)}
    rows = {n: {"target_path": "a.py", "line": n, "expected": "verbatim", "upstream_path": path,
                "upstream_line": u, "category": "moved"} for n, (path, u) in blame.items()}
    got = gaps.gap_rows("a.py", new, {"b.py": old}, rows, None)
    assert got[1]["upstream_line"] == 10 and got[1]["category"] == "annotated"
    assert got[9]["upstream_line"] == 18


def test_step_5c_a_class_header_pairs_with_the_header_of_the_same_name() -> None:
    # ``VocalGuildChannel`` moved below ``StageChannel``, its bases' ``discord.`` dropped: the
    # in-order chain goes through ``StageChannel``, and the moved header stood opposite nothing.
    old = ["class VocalGuildChannel(discord.abc.Connectable, discord.abc.GuildChannel, Hashable):",
           "    def bitrate_of_it(self):", "        return self.bitrate_value", "",
           "class StageChannel(Hashable):", "    def topic_of_it(self):", "        return self.topic_value"]
    new = ["class StageChannel(Hashable):", "    def topic_of_it(self):", "        return self.topic_value", "",
           "class VocalGuildChannel(abc.Connectable, abc.GuildChannel, Hashable):",
           "    def bitrate_of_it(self):", "        return self.bitrate_value"]
    rows = {n: {"target_path": "m.py", "line": n, "expected": "verbatim", "upstream_path": "m.py",
                "upstream_line": u, "category": "same_file"} for n, u in {1: 5, 2: 6, 3: 7, 6: 2, 7: 3}.items()}
    got = gaps.gap_rows("m.py", new, {"m.py": old}, rows, None)
    assert got[5]["upstream_line"] == 1 and got[5]["category"] == "edited"


def test_step_7c_an_item_moved_inside_a_kept_statement() -> None:
    # A file written from another (no step 5 against an own file): its ``__all__`` kept two
    # items in order (step 4, re-quoted), moved one up and added one. The moved item is the
    # old one; the added one is new.
    old = ["import asyncio", "__all__ = (", "    'check',", "    'has_role',", "    'check_any',", "    'dm_only',",
           ")"]
    new = ["import asyncio", "__all__ = (", '    "has_role",', '    "check",', '    "check_any",', '    "is_nsfw",',
           ")"]
    rows = {1: {"target_path": "a.py", "line": 1, "expected": "verbatim", "upstream_path": "b.py",
                "upstream_line": 1, "category": "moved"}}
    got = gaps.gap_rows("a.py", new, {"b.py": old}, rows, None)
    assert got[4]["upstream_line"] == 3 and got[4]["category"] == "reordered"  # the one step 4 left
    assert 6 not in got
