"""The real cases' truth builders on tiny inputs made here (no network, no fetched code)."""

from __future__ import annotations

import gzip
import textwrap
from pathlib import Path

import git
import pytest

from tests.eval.real import align, cases, gittruth, vendored

OLD_A = textwrap.dedent(
    """\
    import os


    def load(path):
        with open(path) as fh:
            data = fh.read()
        return data.split('\\n')


    def save(path, rows):
        text = "\\n".join(rows)
        raise ValueError("cannot save to a read-only archive here")
    """
)
NEW_A = textwrap.dedent(
    """\
    import os
    import sys


    def load(path):
        with open(path) as fh:
            data = fh.read()
        return data.split("\\n")


    def save(path, rows):
        text = "\\t".join(rows)
        raise ValueError("cannot save to a read-only archive here")
    """
)
NEW_B = "def brand_new(x):\n    return x * 2\n"


def _commit(repo: git.Repo, root: Path, files: dict[str, str], message: str) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
        repo.index.add([rel])
    actor = git.Actor("test", "test@example.invalid")
    repo.index.commit(message, author=actor, committer=actor)


@pytest.fixture()
def history(tmp_path: Path) -> gittruth.Repo:
    root = tmp_path / "repo"
    repo = git.Repo.init(root)
    _commit(repo, root, {"src/pkg/a.py": OLD_A}, "old")
    repo.create_tag("old")
    _commit(repo, root, {"src/pkg/a.py": NEW_A, "src/pkg/b.py": NEW_B}, "new")
    repo.create_tag("new")
    return gittruth.Repo(root)


def test_blame_truth_marks_unchanged_reformatted_and_new_lines(history: gittruth.Repo) -> None:
    # The releases lay the files out without src/, as wheels do.
    target = {"pkg/a.py": NEW_A.encode(), "pkg/b.py": NEW_B.encode()}
    upstream = {"pkg/a.py": OLD_A.encode()}
    truth, files, counts = gittruth.build_truth(history, "old", "new", target, upstream, jobs=1)
    by_line = {(row["target_path"], row["line"]): row for row in truth}
    # Unchanged lines: verbatim, at their old place (line numbers shift by the new import).
    assert by_line[("pkg/a.py", 1)]["upstream_line"] == 1
    assert by_line[("pkg/a.py", 5)] | {} == {
        "target_path": "pkg/a.py",
        "line": 5,
        "expected": "verbatim",
        "upstream_path": "pkg/a.py",
        "upstream_line": 4,
        "category": "same_file",
    }
    assert by_line[("pkg/a.py", 13)]["upstream_line"] == 12
    # Only the quotes changed: blame says new, the reformat rule pairs it as near.
    assert by_line[("pkg/a.py", 8)]["expected"] == "near"
    assert by_line[("pkg/a.py", 8)]["category"] == "reformatted"
    assert by_line[("pkg/a.py", 8)]["upstream_line"] == 7
    # A line edited in place, still similar to the line it replaced: a near copy (step 5b).
    assert by_line[("pkg/a.py", 12)]["expected"] == "near"
    assert by_line[("pkg/a.py", 12)]["category"] == "edited"
    assert by_line[("pkg/a.py", 12)]["upstream_line"] == 11
    # Added lines, and every line of a file created after OLD, are not copies.
    assert ("pkg/a.py", 2) not in by_line
    assert not [key for key in by_line if key[0] == "pkg/b.py"]
    assert counts["target_files_scored"] == 2
    assert {(row["side"], row["path"]) for row in files} == {
        ("target", "pkg/a.py"),
        ("target", "pkg/b.py"),
        ("upstream", "pkg/a.py"),
    }


def test_rename_rule_pairs_lines_changed_only_by_the_package_name(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    repo = git.Repo.init(root)
    old = "from upkg import core\n\n\ndef run(argument_one, argument_two):\n    return core.go(argument_one)\n"
    new = "from forkpkg import core\n\n\ndef run(argument_one, argument_two):\n    return core.go(argument_one)\n"
    _commit(repo, root, {"upkg/m.py": old}, "old")
    repo.create_tag("old")
    repo.index.remove(["upkg/m.py"], working_tree=True)
    _commit(repo, root, {"forkpkg/m.py": new}, "rename")
    repo.create_tag("new")
    truth, _, _ = gittruth.build_truth(
        gittruth.Repo(root),
        "old",
        "new",
        {"forkpkg/m.py": new.encode()},
        {"upkg/m.py": old.encode()},
        rename=("forkpkg", "upkg"),
        jobs=1,
    )
    rows = {row["line"]: row for row in truth}
    assert rows[1]["category"] == "renamed" and rows[1]["expected"] == "near"
    assert rows[4]["category"] == "same_file" and rows[4]["upstream_path"] == "upkg/m.py"


def test_diff_pairs_equal_blocks_and_similar_changed_lines() -> None:
    ours = ["import urllib3", "x = 1", "totally new statement here()", "y = 2"]
    theirs = ["from pip._vendor import urllib3", "x = 1", "y = 2"]
    assert align.diff_pairs(ours, theirs) == [(0, 0, False), (1, 1, True), (3, 2, True)]


def test_vendored_truth_categories() -> None:
    target = {
        "v/_vendor/p/m.py": "from v._vendor.p import q\nA = 1\nPATCHED = True\n",
        "v/_vendor/__init__.py": "X = 1\n",
    }
    upstream = {"p/m.py": "from p import q\nA = 1\n"}
    rows = vendored.truth_rows(target, upstream, "v/_vendor/")
    got = [(r["target_path"], r["line"], r["operator"], r["expected"]) for r in rows]
    assert got == [
        ("v/_vendor/__init__.py", 1, "not_vendored", "none"),
        ("v/_vendor/p/m.py", 1, "changed", "near"),
        ("v/_vendor/p/m.py", 2, "equal", "verbatim"),
        ("v/_vendor/p/m.py", 3, "unpaired", "none"),
    ]


def test_git_truth_refuses_files_that_changed_since_the_truth_was_made() -> None:
    case = cases.load_manifest()["survival"]
    row = cases.read_files_csv(case.dir / "files.csv")[0]
    with pytest.raises(cases.RealCaseError, match="sha256"):
        cases.git_truth_rows(case, {}, {}, {(row["side"], row["path"]): "0" * 64})


def test_committed_truth_tables_are_positions_only() -> None:
    for name in ("survival", "renamed_fork"):
        case = cases.load_manifest()[name]
        with gzip.open(case.dir / cases.TRUTH_FILE, "rt", encoding="utf-8") as fh:
            header = fh.readline().rstrip("\n")
        assert header.split(",") == cases.GIT_TRUTH_COLUMNS


@pytest.mark.slow
@pytest.mark.parametrize("name", ["vendored", "survival", "renamed_fork"])
def test_real_case_builds_from_pypi(name: str, tmp_path: Path) -> None:
    case = cases.load_manifest()[name]
    cases.write_case(case, tmp_path)
    truth = (tmp_path / "truth.csv").read_text().splitlines()
    assert len(truth) > 1000
    assert any(line.split(",")[2] == "1" for line in truth[1:])


OLD_TYPED = textwrap.dedent(
    """\
    import os


    class Member:
        def __init__(self, data, state):
            self.deaf = data.get("deaf", False)
            self.nick = data.get("nick")
            self._state = state

        def dispatch(self, event, *args, **kwargs):
            return self._state.dispatch(event, *args, **kwargs)

        def ready(self):
            if self._state is not None:  # the state is set by the client
                return True
            return False
    """
)
NEW_TYPED = textwrap.dedent(
    """\
    import os


    class Member:
        def __init__(self, data, state):
            self.deaf: bool = data.get("deaf", False)
            self.nick: Optional[str] = data.get("nick")
            self._state = state

        def dispatch(self, event: str, *args: Any, **kwargs: Any) -> None:
            return self._state.dispatch(event, *args, **kwargs)

        def ready(self):
            if self._state is not None:
                return True
            return False
    """
)


def test_annotations_and_trailing_comments_are_cut_before_comparing() -> None:
    from tests.eval.real import gaps

    lines = [
        "def dispatch(self, event: str, *args: Any, **kwargs: Any) -> None:",
        "    self.deaf: bool = data.get('deaf', False)  # a note",
        "    x: int",
        "    f = lambda q: q",
        "    d = {'a': 1}",
    ]
    assert gaps.without_annotations(lines) == [
        "def dispatch(self, event, *args, **kwargs):",
        "    self.deaf = data.get('deaf', False)",
        "    x: int",  # a bare declaration keeps its annotation
        "    f = lambda q: q",
        "    d = {'a': 1}",
    ]


def test_a_parameters_annotation_broken_over_lines_is_cut_and_the_text_still_parses() -> None:
    """A parameter's annotation broken over lines (``method: Optional[`` / ``Union[...]`` / ``]
    = None,``) loses its tokens on every row, inside the signature's brackets, so the header
    compares as the upstream's (since 2026-12-05, evening); a return annotation broken over
    lines is left alone: outside brackets a line break ends the statement."""
    import ast

    from tests.eval.real import gaps

    lines = [
        "async def from_probe(",
        "    cls,",
        "    method: Optional[",
        "        Union[str, Callable[[str, str], Tuple[str, int]]]",
        "    ] = None,",
        "    **kwargs: Any,",
        ") -> Callable[",
        "    [int],",
        "    str,",
        "]:",
        "    pass",
    ]
    free = gaps.without_annotations(lines)
    assert [line.strip() for line in free[:6]] == ["async def from_probe(", "cls,", "method", "", "= None,",
                                                   "**kwargs,"]
    assert free[6:] == lines[6:]
    ast.parse("\n".join(free))

def test_lines_changed_only_by_annotations_or_a_comment_are_copies(tmp_path: Path) -> None:
    truth = _truth_of(tmp_path, {"pkg/m.py": OLD_TYPED}, {"pkg/m.py": NEW_TYPED})
    rows = {line: row for (_, line), row in truth.items()}
    # self.nick: Optional[str] = ... is at ratio < 0.6 with its origin, but only annotated.
    for line, origin in ((6, 6), (7, 7), (10, 10)):
        assert (rows[line]["category"], rows[line]["expected"], rows[line]["upstream_line"]) == (
            "annotated", "near", origin
        )
    assert (rows[14]["category"], rows[14]["upstream_line"]) == ("reformatted", 14)


OLD_CALL = textwrap.dedent(
    """\
    class Session:
        def request(self, method, url,
            params=None,
            data=None,
            headers=None):
            return self.send(method, url)
    """
)
NEW_CALL = textwrap.dedent(
    """\
    class Session:
        def request(
            self,
            method,
            url,
            params=None,
            data=None,
            headers=None,
            timeout=30,
        ):
            return self.send(method, url)
    """
)


def test_a_statement_holding_an_unchanged_line_pairs_its_other_lines(tmp_path: Path) -> None:
    truth = _truth_of(tmp_path, {"pkg/s.py": OLD_CALL}, {"pkg/s.py": NEW_CALL})
    rows = {line: row for (_, line), row in truth.items()}
    assert rows[6]["category"] == "same_file"  # blame: params=None, unchanged (up to whitespace)
    # the signature's other pieces, edited around it; each credited to the upstream line
    # holding its first token
    for line, origin in ((2, 2), (3, 2), (4, 2), (5, 2), (10, 5)):
        assert (rows[line]["category"], rows[line]["upstream_line"]) == ("edited", origin)
    assert 9 not in rows  # timeout=30, is new


def test_blame_finds_lines_copied_by_a_commit_that_did_not_touch_their_file(tmp_path: Path) -> None:
    old_util = textwrap.dedent(
        """\
        def to_native_string(string, encoding="ascii"):
            '''Given a string object, regardless of type, returns a native string.'''
            if isinstance(string, builtin_str):
                out = string
            else:
                out = string.decode(encoding)
            return out
        """
    )
    root = tmp_path / "repo"
    repo = git.Repo.init(root)
    _commit(repo, root, {"pkg/utils.py": old_util, "pkg/other.py": "X = 1\n"}, "old")
    repo.create_tag("old")
    _commit(repo, root, {"pkg/internal.py": "HEADER = 'internal helpers'\n"}, "a new file")
    _commit(repo, root, {"pkg/other.py": "X = 2\n"}, "unrelated change")
    new_internal = "HEADER = 'internal helpers'\n\n\n" + old_util
    _commit(repo, root, {"pkg/internal.py": new_internal}, "copy the helper (utils.py untouched)")
    repo.create_tag("new")
    truth, _, _ = gittruth.build_truth(
        gittruth.Repo(root), "old", "new", {"pkg/internal.py": new_internal.encode()},
        {"pkg/utils.py": old_util.encode()}, jobs=1,
    )
    rows = {row["line"]: row for row in truth}
    assert [rows[n]["upstream_line"] for n in range(4, 10)] == [1, 2, 3, 4, 5, 6]
    assert {rows[n]["category"] for n in range(4, 10)} == {"moved"}


def _truth_of(tmp_path: Path, old: dict[str, str], new: dict[str, str]) -> dict[tuple[str, int], dict]:
    """Build the truth of a two-commit history (``old`` then ``new``, with a file list each)."""
    root = tmp_path / "repo"
    repo = git.Repo.init(root)
    _commit(repo, root, old, "old")
    repo.create_tag("old")
    for rel in set(old) - set(new):
        repo.index.remove([rel], working_tree=True)
    _commit(repo, root, new, "new")
    repo.create_tag("new")
    truth, _, _ = gittruth.build_truth(
        gittruth.Repo(root), "old", "new", {k: v.encode() for k, v in new.items()},
        {k: v.encode() for k, v in old.items()}, jobs=1,
    )
    return {(row["target_path"], row["line"]): row for row in truth}


def test_a_message_rewritten_as_an_f_string_keeps_its_words(tmp_path: Path) -> None:
    old = textwrap.dedent(
        """\
        def check_the_permission_overwrite(perm):
            if not isinstance(perm, PermissionOverwrite):
                raise InvalidArgument('Expected PermissionOverwrite received {0.__name__}'.format(type(perm)))
            return perm.pair_of_allow_and_deny_values()
        """
    )
    new = textwrap.dedent(
        """\
        def check_the_permission_overwrite(perm):
            if not isinstance(perm, PermissionOverwrite):
                raise InvalidArgument(
                    f"Expected PermissionOverwrite received {perm.__class__.__name__}"
                )
            return perm.pair_of_allow_and_deny_values()
        """
    )
    rows = _truth_of(tmp_path, {"pkg/m.py": old}, {"pkg/m.py": new})
    # the message's words are the old message's: its line is the copy, like the call's brackets
    assert rows[("pkg/m.py", 4)]["category"] == "edited" and rows[("pkg/m.py", 4)]["upstream_line"] == 3
    assert rows[("pkg/m.py", 3)]["category"] == "edited"


def test_a_file_written_from_another_pairs_its_functions_of_the_same_name(tmp_path: Path) -> None:
    old = textwrap.dedent(
        """\
        class WebhookAdapter:
            def request_the_webhook_endpoint(self, verb, url, payload=None):
                response = self.session.request(verb, url, json=payload, timeout=self.timeout_seconds)
                response.raise_for_status_if_the_server_failed()
                return response.json_payload_of_the_response()

            def edit_webhook(self, *, reason=None, **payload):
                return self.request('PATCH', self._request_url, payload=payload, reason=reason)

            def __repr__(self):
                return '<WebhookAdapter url=%r>' % self._request_url
        """
    )
    new = textwrap.dedent(
        """\
        class RequestsBackend:
            def request_the_webhook_endpoint(self, verb, url, payload=None):
                response = self.session.request(verb, url, json=payload, timeout=self.timeout_seconds)
                response.raise_for_status_if_the_server_failed()
                return response.json_payload_of_the_response()

            def edit_webhook(self, payload, *, reason=None):
                return self.request("PATCH", self._request_url_of, payload=payload, reason=reason)

            def __repr__(self):
                return '<SyncWebhookAdapter url=%r>' % self._request_url
        """
    )
    rows = _truth_of(tmp_path, {"pkg/webhook.py": old}, {"pkg/webhook.py": old, "pkg/sync.py": new})
    assert rows[("pkg/sync.py", 3)]["category"] == "moved"  # blame: kept from webhook.py
    # edit_webhook, defined once in the file sync.py was written from, is its later version
    assert rows[("pkg/sync.py", 8)]["category"] == "edited" and rows[("pkg/sync.py", 8)]["upstream_line"] == 8
    assert ("pkg/sync.py", 11) not in rows  # a dunder is the language's name, not the file's


def test_a_header_pairs_only_with_a_header_of_a_like_name(tmp_path: Path) -> None:
    old = textwrap.dedent(
        """\
        class Member:
            def kick_this_member_from_guild(self, reason=None):
                return self.guild.kick(self, reason=reason)

            async def edit(self, *, reason=None, **fields):
                return fields

            def _unique(iterable):
                return list(iterable)

            def a_long_unchanged_method_name(self):
                return self._state.something_unchanged()
        """
    )
    new = textwrap.dedent(
        """\
        class Member:
            def kick_this_member_from_guild(self, reason=None):
                return self.guild.kick(self, reason=reason)

            async def timeout(self, until: int, *, reason: Optional[str] = None) -> None:
                return until

            def unique(iterable: Iterable[T]) -> List[T]:
                return list(iterable)

            def a_long_unchanged_method_name(self):
                return self._state.something_unchanged()
        """
    )
    rows = _truth_of(tmp_path, {"pkg/m.py": old}, {"pkg/m.py": new})
    assert ("pkg/m.py", 5) not in rows  # another method: not an edit of edit()
    assert rows[("pkg/m.py", 8)]["category"] == "edited" and rows[("pkg/m.py", 8)]["upstream_line"] == 8


def test_imports_reordered_and_functions_moved_to_another_file(tmp_path: Path) -> None:
    old_m = textwrap.dedent(
        """\
        import zlib
        import asyncio
        from .enums import ChannelType, try_enum


        def message_helper_that_stays_here(data):
            return data['value']
        """
    )
    new_m = textwrap.dedent(
        """\
        import asyncio
        import zlib
        from .enums import ChannelType, try_enum


        def message_helper_that_stays_here(data):
            return data["value"]
        """
    )
    old_u = textwrap.dedent(
        """\
        def to_native_string(string, encoding='ascii'):
            '''Given a string object, regardless of type, returns a native string.'''
            out = None
            if isinstance(string, builtin_str):
                out = string.translate(NATIVE_TABLE)
            else:
                if is_py2:
                    out = string.encode(encoding)
                else:
                    out = string.decode(encoding)
            return out
        """
    )
    new_i = textwrap.dedent(
        """\
        HEADER_VALIDATORS = {}


        def to_native_string(string, encoding="ascii"):
            '''Given a string object, regardless of type, returns a native string.'''
            if isinstance(string, builtin_str):
                out = string.translate(NATIVE_TABLE)
            else:
                out = string.decode(encoding or "ascii")

            return out
        """
    )
    rows = _truth_of(tmp_path, {"pkg/m.py": old_m, "pkg/utils.py": old_u},
                     {"pkg/m.py": new_m, "pkg/internal.py": new_i})
    # isort's swap: a unique import of the file's own old version (blame: under 20 characters).
    assert rows[("pkg/m.py", 1)]["category"] in ("reordered", "same_file")
    assert rows[("pkg/m.py", 2)]["category"] in ("reordered", "same_file")
    assert {rows[("pkg/m.py", n)]["upstream_line"] for n in (1, 2)} == {1, 2}
    # Blame finds two lines of to_native_string in the new file (moved with the rest): the
    # function's other lines, edited around them, are copies of that function's lines.
    moved = {n: rows.get(("pkg/internal.py", n)) for n in range(4, 12)}
    assert moved[10] is None  # blank
    assert all(moved[n]["upstream_path"] == "pkg/utils.py" for n in (4, 5, 6, 7, 8, 9, 11))
    assert [moved[n]["category"] for n in (5, 6, 7)] == ["moved"] * 3
    assert (moved[4]["category"], moved[4]["upstream_line"]) == ("reformatted", 1)
    assert (moved[9]["category"], moved[9]["upstream_line"]) == ("edited", 10)  # step 6
    assert moved[11]["upstream_line"] == 11
    assert ("pkg/internal.py", 1) not in rows


def test_arguments_sorted_by_name_are_the_arguments_they_were(tmp_path: Path) -> None:
    old = textwrap.dedent(
        """\
        def make_the_cookie_of_a_morsel(morsel):
            expires_at_this_time = compute_the_expiry_time(morsel)
            return create_cookie(
                name=morsel.key,
                value=morsel.value,
                port=None,
                comment=morsel['comment'],
                comment_url=bool(morsel['comment']),
                rest={'HttpOnly': morsel['httponly']},
            )
        """
    )
    new = textwrap.dedent(
        """\
        def make_the_cookie_of_a_morsel(morsel):
            expires_at_this_time = compute_the_expiry_time(morsel)
            return create_cookie(
                comment=morsel["comment"],
                comment_url=bool(morsel["comment"]),
                name=morsel.key,
                port=None,
                rest={"HttpOnly": morsel["httponly"]},
                value=morsel.value,
            )
        """
    )
    rows = _truth_of(tmp_path, {"pkg/c.py": old}, {"pkg/c.py": new})
    # each argument line pairs with the same argument, wherever the sort put it (``rest=``, in
    # an equal block of the diff, is step 4's reformatted line; ``name=`` and ``port=``, blame's)
    for line, origin in ((4, 7), (5, 8), (9, 5)):
        assert (rows[("pkg/c.py", line)]["category"], rows[("pkg/c.py", line)]["upstream_line"]) == (
            "reordered", origin)
    assert [rows[("pkg/c.py", line)]["upstream_line"] for line in (6, 7, 8)] == [4, 6, 9]


def test_a_module_constant_moved_to_another_file_with_its_short_pieces(tmp_path: Path) -> None:
    old_s = textwrap.dedent(
        """\
        from .status_codes import codes

        REDIRECT_STATUS_CODES_OF_THE_SESSION = (
            codes.moved_permanently_here,  # 301
            codes.found_somewhere_else,  # 302
            codes.see_the_other_one,  # 303
            codes.temporary_moved,  # 307
        )
        DEFAULT_REDIRECT_LIMIT = 30


        def resolve_the_redirects_of_a_response(resp):
            return resp.follow_every_redirect_there_is()
        """
    )
    old_m = textwrap.dedent(
        """\
        CONTENT_CHUNK_SIZE_OF_RESPONSES = 10 * 1024


        def iterate_over_the_content_chunks(resp):
            return resp.read_the_content_in_chunks(CONTENT_CHUNK_SIZE_OF_RESPONSES)
        """
    )
    new_s = textwrap.dedent(
        """\
        def resolve_the_redirects_of_a_response(resp):
            return resp.follow_every_redirect_there_is()
        """
    )
    new_m = textwrap.dedent(
        """\
        REDIRECT_STATUS_CODES_OF_THE_SESSION = (
            codes.moved_permanently_here,  # 301
            codes.found_somewhere_else,  # 302
            codes.see_the_other_one,  # 303
            codes.temporary_redirect,  # 307
        )

        DEFAULT_REDIRECT_LIMIT = 30
        CONTENT_CHUNK_SIZE_OF_RESPONSES = 10 * 1024


        def iterate_over_the_content_chunks(resp):
            return resp.read_the_content_in_chunks(CONTENT_CHUNK_SIZE_OF_RESPONSES)
        """
    )
    rows = _truth_of(tmp_path, {"pkg/sessions.py": old_s, "pkg/models.py": old_m},
                     {"pkg/sessions.py": new_s, "pkg/models.py": new_m})
    moved = {n: rows.get(("pkg/models.py", n)) for n in range(1, 9)}
    assert [moved[n]["category"] for n in (1, 2, 3, 4)] == ["moved"] * 4  # blame: 40 characters and more
    # the statement moved: its edited element and its closer (blocks under blame's minimum)
    assert (moved[5]["category"], moved[5]["upstream_path"], moved[5]["upstream_line"]) == (
        "edited", "pkg/sessions.py", 7)
    assert (moved[6]["upstream_path"], moved[6]["upstream_line"]) == ("pkg/sessions.py", 8)
    # a module constant standing once in each file, moved with it
    assert (moved[8]["category"], moved[8]["upstream_path"], moved[8]["upstream_line"]) == (
        "reordered", "pkg/sessions.py", 9)


def test_a_function_split_out_and_moved_within_its_file_is_aligned_with_its_origin(tmp_path: Path) -> None:
    old = textwrap.dedent(
        """\
        class Session:
            def request_the_resource(self, url, proxies, verify):
                prepared_request_object = self.prepare_the_request(url)
                # Gather clues from the surrounding environment.
                if self.trust_env_settings_here:
                    env_proxies = get_environ_proxies(url) or {}
                    for (k, v) in env_proxies.items():
                        proxies.setdefault(k, v)
                # Merge all the keyword arguments.
                proxies = merge_setting(proxies, self.proxies_of_session)
                return self.send_the_request(prepared_request_object, proxies, verify)

            def send_the_request(self, request, proxies, verify):
                adapter_for_request = self.get_adapter_of_the_url(request.url)
                started_at_this_moment = preferred_clock_of_the_session()
                response_of_adapter = adapter_for_request.send(request, proxies=proxies, verify=verify)
                response_of_adapter.elapsed = preferred_clock_of_the_session() - started_at_this_moment
                dispatch_the_response_hooks(response_of_adapter, self.hooks_of_session)
                return response_of_adapter
        """
    )
    new = textwrap.dedent(
        """\
        class Session:
            def request_the_resource(self, url, proxies, verify):
                prepared_request_object = self.prepare_the_request(url)
                proxies = self.merge_environment_settings(url, proxies)
                return self.send_the_request(prepared_request_object, proxies, verify)

            def send_the_request(self, request, proxies, verify):
                adapter_for_request = self.get_adapter_of_the_url(request.url)
                started_at_this_moment = preferred_clock_of_the_session()
                response_of_adapter = adapter_for_request.send(request, proxies=proxies, verify=verify)
                response_of_adapter.elapsed = preferred_clock_of_the_session() - started_at_this_moment
                dispatch_the_response_hooks(response_of_adapter, self.hooks_of_session)
                return response_of_adapter

            def merge_environment_settings(self, url, proxies):
                # Gather clues from the surrounding environment.
                if self.trust_env_settings_here:
                    env_proxies = get_environ_proxies(url, no_proxy=None)
                    for k, v in env_proxies.items():
                        proxies.setdefault(k, v)
                # Merge all the keyword arguments.
                proxies = merge_setting(proxies, self.proxies_of_session)
                return proxies
        """
    )
    rows = _truth_of(tmp_path, {"pkg/s.py": old}, {"pkg/s.py": new})
    assert rows[("pkg/s.py", 17)]["category"] == "same_file"  # blame followed the block (-M)
    assert rows[("pkg/s.py", 17)]["upstream_line"] == 5
    # the lines edited between blame's lines, aligned with the function they came from
    assert (rows[("pkg/s.py", 19)]["category"], rows[("pkg/s.py", 19)]["upstream_line"]) == ("edited", 7)
    assert (rows[("pkg/s.py", 20)]["expected"], rows[("pkg/s.py", 20)]["upstream_line"]) == ("verbatim", 8)


def test_agreed_sample_takes_code_lines_both_the_truth_and_lineage_call_copied(tmp_path: Path) -> None:
    from tests.eval.real import agreed_sample

    (tmp_path / "truth.csv").write_text(
        "target_path,line,copied,expected,upstream_path,upstream_line,operator,kind\n"
        "a.py,1,1,verbatim,a.py,1,same_file,code\n"
        "a.py,2,1,near,a.py,2,edited,code\n"
        "a.py,3,0,none,,,new,code\n"
        "a.py,4,1,verbatim,a.py,4,same_file,comment\n",
        encoding="utf-8",
    )
    lines = tmp_path / "lines.csv"
    lines.write_text(
        "target_path,line,kind,match,upstream_path,upstream_line\n"
        "a.py,1,code,verbatim,a.py,1\n"   # both copied: drawn
        "a.py,2,code,none,,\n"            # a miss: not agreed
        "a.py,3,code,near,a.py,3\n"       # a false copy: not agreed
        "a.py,4,comment,verbatim,a.py,4\n"  # agreed, but not code
        "a.py,5,code,verbatim,a.py,5\n",  # no truth row: none by the truth
        encoding="utf-8",
    )
    rows, truth = agreed_sample.agreed_lines(tmp_path, lines)
    assert [(r["target_path"], r["line"]) for r in rows] == [("a.py", "1")]
    assert truth[("a.py", 2)]["expected"] == "near"
