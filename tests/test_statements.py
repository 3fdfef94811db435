"""Tests for lineage.match.statements: logical lines and the lines of an edited statement."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from lineage.index import CODE, COMMENT
from lineage.match.statements import (
    _line_tokens,
    added_arguments,
    best_in_order,
    code_tokens,
    code_tokens_reference,
    kept_arguments,
    limit_statements,
    line_partners,
    line_tokens,
    name_share,
    only_added_or_dropped,
    piece_text,
    statement_ids,
    statement_ids_reference,
    statement_key,
    string_words,
    whole_statements,
    words,
)


def test_statement_ids_join_lines_while_a_bracket_is_open() -> None:
    lines = ["def f(", "    a,", "    b='(',", "):", "    # a comment (", "    x = [1,", "         2]",
             "    y = 1 + \\", "        2", "    return x"]
    kinds = [CODE] * 4 + [COMMENT] + [CODE] * 5
    ids = statement_ids(lines, kinds, max_lines=30)
    assert ids.tolist() == [0, 0, 0, 0, -1, 1, 1, 2, 2, 3]


def test_a_def_line_starts_a_statement_and_long_statements_are_dropped() -> None:
    lines = ["x = call('unclosed", "def g(self):", "    return (", "        1,", "        2,", "    )"]
    ids = statement_ids(lines, [CODE] * len(lines), max_lines=3)
    assert ids.tolist() == [0, 1, -1, -1, -1, -1]


_PIECES = ["x = f(", "a,", ")", "]", "y = [1,", "def g(self):", "@deco", "z = 1 + \\", "return z", ")(", "# c ("]


@given(st.lists(st.tuples(st.sampled_from(_PIECES), st.sampled_from([CODE, CODE, COMMENT])), max_size=40),
       st.integers(1, 8))
def test_a_limit_cut_from_the_unlimited_ids_is_the_limited_pass(rows: list[tuple[str, int]], limit: int) -> None:
    """The fill reads a file's statements once, unlimited, and cuts them to each length limit:
    the same ids as a pass over the text under that limit, for any lines."""
    lines, kinds = [r[0] for r in rows], [r[1] for r in rows]
    unlimited = statement_ids(lines, kinds, max_lines=len(lines) + 1)
    # against the reference pass, whose length limit is its own (statement_ids itself now cuts
    # the compiled scan's ids with limit_statements: comparing with it would prove nothing)
    limited = statement_ids_reference(lines, kinds, max_lines=limit)
    assert limit_statements(unlimited, limit).tolist() == limited.tolist()


# Lines that exercise the scan's cases: brackets in strings and after comments, prefixes, escapes,
# backslash continuations, definitions, decorators, Unicode spaces and letters, unbalanced closers.
_SCAN_PIECES = ["x = f(", "a,", ")", "]", "}", "{", "y = [1,", "def g(self):", "async def h(", "@deco(",
                "class K(", "z = 1 + \\", "return z", ")(", "# c (", "s = '(' + \"[\"", "t = f'{x}(' # (",
                "u = rb\"\\\"(\"", "v = 'unclosed (", "\u3000w = (", "def\u00a0x(", "  @", "\\", "ré = (1,"]


@given(st.lists(st.tuples(st.lists(st.sampled_from(_SCAN_PIECES), min_size=1, max_size=3).map(" ".join),
                          st.sampled_from([CODE, CODE, CODE, COMMENT, 0])), max_size=40),
       st.integers(1, 8))
def test_the_compiled_scan_is_the_reference_pass(rows: list[tuple[str, int]], limit: int) -> None:
    import lineage.match.statements as statements

    assert statements._lineforms is not None  # built by the set-up, like the indexer's pass
    lines, kinds = [r[0] for r in rows], [r[1] for r in rows]
    for max_lines in (limit, len(lines) + 1):
        assert statement_ids(lines, kinds, max_lines).tolist() == \
            statement_ids_reference(lines, kinds, max_lines).tolist()


_TOKEN_ALPHABET = list("abrRbBuUfFtT_xyz019.'\"\\#*/<>=-+:!%&|^@()[]{},; \t\f\v") + [
    "\u00e9", "\u00b2", "\u0663", "\u2003", "\u3000", "\u00a0", "\x1c", "\U0001f600",
    "\x1d", "\x1e", "\x1f", "\x85", "\u2028", "\x00", "\n", "\r", "\ud800", "\udfff"]


@given(st.text(alphabet=st.sampled_from(_TOKEN_ALPHABET), max_size=60))
def test_the_compiled_tokens_are_the_reference_tokens(text: str) -> None:
    assert code_tokens(text) == code_tokens_reference(text)
    _line_tokens.cache_clear()
    assert list(_line_tokens(text)) == [t.replace("'", '"') for t in code_tokens_reference(text)]


def test_tokens_stop_at_a_comment_and_unify_quotes() -> None:
    assert code_tokens("x = f('#', b)  # c (") == ["x", "=", "f", "(", "'#'", ",", "b", ")"]
    assert line_tokens("x = f('#', b)  # c (") == ["x", "=", "f", "(", '"#"', ",", "b", ")"]


def test_statement_key_ignores_breaks_quotes_and_the_trailing_comma() -> None:
    assert statement_key(["f(", "    'a',", "    b,", ")"]) == statement_key(['f("a", b)'])


def test_line_partners_keep_old_words_and_brackets_and_drop_new_arguments() -> None:
    up = ["def ban(self, user_id, guild_id, delete_message_days=1, reason=None):"]
    mine = ["def ban(", "    self,", "    user_id: Snowflake,", "    guild_id: Snowflake,",
            "    brand_new_flag: NewThing = DEFAULT,", "    reason: Optional[str] = None,", ") -> Response[None]:"]
    assert line_partners(mine, up, 0.5) == [0, 0, 0, 0, None, 0, 0]


def test_line_partners_follow_the_upstream_lines_in_order() -> None:
    up = ["r = Route('GET', '/guilds/{guild_id}/members',", "          guild_id=guild_id)"]
    mine = ["r = Route(", '    "GET",', '    "/guilds/{guild_id}/members",', "    guild_id=guild_id,", ")"]
    assert line_partners(mine, up, 0.5) == [0, 0, 0, 1, 1]


def test_best_in_order_and_whole_statements() -> None:
    scores = np.array([[0.9, 0.1], [0.95, 0.2], [0.1, 0.7]])
    assert best_in_order(scores, 0.6) == [(1, 0), (2, 1)]
    ids = np.array([0, 0, 1, -1, 2, 2])
    sizes = np.bincount(ids[ids >= 0])
    assert whole_statements(ids, sizes, [1, 2, 3, 4, 5]) == [[2], [4, 5]]


def test_strip_annotations_of_defs_and_annotated_assignments() -> None:
    from lineage.match.statements import annotation_free, line_tokens, strip_annotations

    assert annotation_free('self.tts: bool = data["tts"]') == annotation_free("self.tts = data['tts']")
    assert annotation_free("def copy(self) -> CooldownMapping:") == annotation_free("def copy(self):")
    assert annotation_free("async def f(self, a: int = 3, *args: Any, **kw: Dict[str, int]) -> X:") == \
        annotation_free("async def f(self, a=3, *args, **kw):")
    assert annotation_free("    reason: Optional[str] = None,") == annotation_free("reason=None")
    for kept in ("x: int", "else:", "x[1:2] = 3", "return {a: b for a in c}", "lambda x: x"):
        assert strip_annotations(line_tokens(kept)) == line_tokens(kept)
    assert statement_key(["def ban(", "    self,", "    user_id: Snowflake,", ") -> None:"], annotations=False) == \
        statement_key(["def ban(self, user_id):"])


def test_a_line_of_several_parameters_loses_each_annotation() -> None:
    """Black may keep several annotated parameters on one line: each loses its own annotation,
    so the line keeps the words it had upstream (``self, *, name=None, reason=None``)."""
    line = "self, *, name: Optional[str] = None, reason: Optional[str] = None"
    assert words(line, strip=True) == ["self", "name", "None", "reason", "None"]
    assert piece_text("self, channel_id: Snowflake, **fields: Any") == "self , channel_id , ** fields"
    assert piece_text(") -> Response[None]:") == ") :"
    # a dict entry keyed by a string and a call are left as they are
    assert piece_text('"key": value,') == '"key" : value ,'
    assert words("emit(a, b=c)", strip=True) == ["emit", "a", "b", "c"]
    up = ["async def clone(self, *, name=None, reason=None):"]
    mine = ["async def clone(", "    self, *, name: Optional[str] = None, reason: Optional[str] = None",
            ") -> Channel:"]
    assert line_partners(mine, up, 0.75, strip=True) == [0, 0, 0]


def test_line_partners_keep_a_keyword_whose_value_was_edited() -> None:
    """With ``kept_keywords``, a keyword argument the upstream call passes too is a copy of the
    line passing it, its value renamed (``embed=embed_payload`` <- ``embed=embed``), and so is
    a parameter whose default changed; a keyword the upstream never passes stays new."""
    up = ["data = await send_files(channel.id, files=files, embed=embed,", "                        nonce=nonce)"]
    mine = ["data = await send_files(", "    channel.id,", "    embed=embed_payload,", "    flags=flag_value,",
            "    nonce=nonce,", ")"]
    assert line_partners(mine, up, 0.75) == [0, 0, None, None, 1, 1]
    assert line_partners(mine, up, 0.75, kept_keywords=True) == [0, 0, 0, None, 1, 1]
    sig_up = ["async def ban(self, user, *, delete_message_days=1):"]
    sig = ["async def ban(", "    self,", "    user: Snowflake,", "    *,",
           "    delete_message_days: Optional[int] = 0,", ") -> None:"]
    assert line_partners(sig, sig_up, 0.75, strip=True)[4] is None
    assert line_partners(sig, sig_up, 0.75, strip=True, kept_keywords=True)[4] == 0
    # the statement's first line (an assignment's target) never counts as a kept keyword
    assert line_partners(["embed = make(", "    x,", ")"], ["f(embed=1, x)"], 0.75, kept_keywords=True)[0] is None


def test_kept_arguments_are_the_upstream_arguments_in_order_then_added_ones() -> None:
    """A piece of a statement Black broke open whose first parts are arguments of one bracket of
    the upstream line, consecutive and in order, and whose later parts each hold a word (an
    argument added), with the kept parts holding the share of its words asked for."""
    call = "return self.request(Route('GET', '/guilds/{guild_id}/bans', guild_id=guild_id))"
    piece = 'Route("GET", "/guilds/{guild_id}/bans", guild_id=guild_id), params=params'
    assert kept_arguments(piece, call, 0.4)  # 5 of its 7 words kept
    assert not kept_arguments(piece, call, 0.8)
    sig = "def load_extension(self, name, *, package=None):"
    assert kept_arguments("self, name: str, *, package: Optional[str] = None, extras: Optional[Dict] = None", sig, 0.4)
    # the kept parts must open the line, in the upstream order, one after another upstream
    assert not kept_arguments("extras: Optional[Dict] = None, self, name", sig, 0.1)
    assert not kept_arguments("name, self, extras=None", sig, 0.1)
    assert not kept_arguments("self, package=None, extras=None", sig, 0.1)  # ``name`` left out between
    # nothing added (the word share's case), or an added part without a word
    assert not kept_arguments("self, name", sig, 0.1)
    assert not kept_arguments("self, name, *", sig, 0.1)
    # a new parameter after a kept ``self`` alone: a third of the words
    assert not kept_arguments("self, webhook_id: int, token: str,", "def delete_webhook(self, *, reason=None):", 0.4)
    assert not kept_arguments("webhook_id: int,", "def delete_webhook(self, *, reason=None):", 0.1)
    # a closing bracket the piece did not open ends it; quotes do not matter
    assert kept_arguments("x, 'a', flag=True):", 'def f(x, "a"):', 0.4)
    # ``min_words``: ``self`` alone, half of ``self, layer_type``, is every method's
    other = "def get_layer_input_config(self, config: dict[str, Any], prefix: str):"
    assert kept_arguments("self, layer_type: str", other, 0.4, min_words=1)
    assert not kept_arguments("self, layer_type: str", other, 0.4, min_words=2)


def test_line_partners_take_a_piece_with_an_argument_added_only_with_the_share() -> None:
    """``kept_arguments_share`` (``fill_kept_arguments_min_share``): the middle piece of a call
    that gained a keyword fails the word share (5 of 7) but keeps the call's argument."""
    up = ["return self.request(Route('GET', '/guilds/{guild_id}/bans', guild_id=guild_id))"]
    mine = ["return self.request(",
            '    Route("GET", "/guilds/{guild_id}/bans", guild_id=guild_id), params=params', ")"]
    assert line_partners(mine, up, 0.75, strip=True) == [0, None, 0]
    assert line_partners(mine, up, 0.75, strip=True, kept_arguments_share=0.4) == [0, 0, 0]
    # a parameter line that keeps nothing stays new with the rule on
    sig_up = ["def delete_webhook(self, *, reason=None):"]
    sig = ["def delete_webhook(", "    self,", "    webhook_id: int,", "    *,", "    reason: Optional[str] = None,",
           ") -> Response[None]:"]
    assert line_partners(sig, sig_up, 0.75, strip=True, kept_arguments_share=0.4)[2] is None


def test_line_partners_take_a_positional_argument_named_only_with_the_rule() -> None:
    """``named_arguments`` (``fill_statement_named_arguments``): Black broke a call open and the
    fork named its positional arguments (``overwrites=overwrites,`` <- ``overwrites`` of
    ``_create_channel(name, overwrites, ChannelType.text, category, ...)``). Each such line has
    half its words in the upstream statement (the name once), so the word share reads it as new;
    its value is a whole argument of the upstream call."""
    up = ["data = await self._create_channel(name, overwrites, ChannelType.text, category, reason=reason)"]
    mine = ["data = await self._create_channel(", "    name,", "    overwrites=overwrites,",
            "    channel_type=ChannelType.text,", "    category=category,", "    reason=reason,", ")"]
    assert line_partners(mine, up, 0.75, strip=True) == [0, 0, None, None, None, 0, 0]
    assert line_partners(mine, up, 0.75, strip=True, named_arguments=True) == [0] * 7
    # a value the upstream passes nowhere, a constant any call passes, or a part of an argument
    # (``ChannelType`` of ``ChannelType.text``) names nothing
    for line in ("    overwrites=new_overwrites,", "    flag=True,", "    kind=ChannelType,"):
        assert line_partners([mine[0], line, ")"], ["f(x, True, ChannelType.text, overwrites)"], 0.75,
                             strip=True, named_arguments=True)[1] is None
    # nor does the receiver alone: ruamel.yaml adds ``dumper=self,`` to each ``Base.__init__(self,
    # ...)`` call PyYAML makes; ``self.stream`` still names ``self.stream``
    base = ["Emitter.__init__(self, stream, canonical=canonical)"]
    for line, partner in (("    dumper=self,", None), ("    loader=cls,", None), ("    source=self.stream,", 0)):
        assert line_partners(["Emitter.__init__(", line, ")"], [base[0].replace("stream,", "self.stream, cls,")],
                             0.75, strip=True, named_arguments=True)[1] == partner


def test_string_words_cut_each_string_into_its_words() -> None:
    assert string_words('f"<{self.__class__.__name__} id={self.id}>"') == [
        "self", "__class__", "__name__", "id", "self", "id"]
    assert string_words("'%s has connected: %d' % (name, 2)") == ["s", "has", "connected", "d", "name", "2"]
    assert string_words("reason: Optional[str] = 'gone',", strip=True) == ["reason", "gone"]


def test_line_partners_count_a_messages_words_with_the_string_rule() -> None:
    """``string_words`` (``fill_statement_string_words``): a message moved from ``.format`` into
    f-strings and re-wrapped is one word a line to the word share, none of them the upstream's;
    counted word by word inside its strings, each piece keeps its words, and goes to the
    upstream line sharing most of them. A message the edit added to a statement without one
    (its fields name the statement's own words) stays new."""
    up = ["return '<{0.__class__.__name__} id={0.id} name={0.name!r} ' \\",
          "       'owner={0.owner!r}>'.format(self)"]
    mine = ["return (", '    f"<{self.__class__.__name__} id={self.id} name={self.name!r} "',
            '    f"owner={self.owner!r}>"', ")"]
    assert line_partners(mine, up, 0.75, strip=True) == [0, None, None, 0]
    assert line_partners(mine, up, 0.75, strip=True, string_words=True) == [0, 0, 1, 1]
    # a string of new words stays new
    assert line_partners([mine[0], '    f"<{self.id} a brand new message text>"', ")"], up, 0.75,
                         strip=True, string_words=True)[1] is None
    added = ["assert param_data.shape == loaded_weight.shape, (", '    f"{param_data.shape=}, {loaded_weight.shape=}"',
             ")"]
    assert line_partners(added, ["assert param_data.shape == loaded_weight.shape"], 0.75, strip=True,
                         string_words=True)[1] is None


def test_line_partners_take_a_first_line_assigning_the_same_target_with_the_rule() -> None:
    """``kept_target`` (``fill_statement_kept_target``): the first line of a statement a fork typed
    and broke open, the call it assigns edited (``data: List[MessagePayload] = await
    self.state.http.logs_from(`` <- ``data = await self.logs_from(...)``, 4 of 6 words), copies
    the upstream first line when both assign the same target and their values share a name
    other than ``self``; another operation on the same variable does not."""
    up = ["data = await self.logs_from(self.channel.id, retrieve, before=before)"]
    mine = ["data: List[MessagePayload] = await self.state.http.logs_from(",
            "    self.channel.id, retrieve, before=before", ")"]
    assert line_partners(mine, up, 0.75, strip=True) == [None, 0, 0]
    assert line_partners(mine, up, 0.75, strip=True, kept_target=True) == [0, 0, 0]
    other = ["hidden = tensor_model_parallel_all_gather(hidden, 0)"]
    assert line_partners(["hidden = self._apply_latent_projection(", "    hidden, 0", ")"], other, 0.75,
                         strip=True, kept_target=True)[0] is None
    # another target, or a line after the statement's first, is not the rule's
    assert line_partners(["result: List[MessagePayload] = await self.state.http.logs_from(", mine[1], ")"], up,
                         0.75, strip=True, kept_target=True)[0] is None


def test_added_arguments_are_whole_arguments_inside_the_brackets() -> None:
    """A call or signature that gained whole arguments, nothing else changed (quotes and a
    trailing comma aside), is its upstream line edited; a renamed callee, an argument edited,
    text added outside the brackets or a piece that is no whole argument is not."""
    assert added_arguments("raise ConnectionError(e, request=request)", "raise ConnectionError(e)")
    assert added_arguments('def default_user_agent(name="python-requests"):', "def default_user_agent():")
    assert added_arguments("def get_netrc_auth(url, raise_errors=False):", "def get_netrc_auth(url):")
    assert added_arguments("f(a, b, c)", "f(a, c)")  # in the middle
    assert added_arguments("f(x, 'a', y=1),", 'f("a")')  # quotes, a trailing comma, two places
    # an added last argument holding brackets: the upstream ``)`` is the line's last, not the inner one
    assert added_arguments("foo(a, b=bar())", "foo(a)")
    assert added_arguments("raise SSLError(e, request=Request(url))", "raise SSLError(e)")
    assert added_arguments("self.attn(q, k, v, batch, get_layer(i))", "self.attn(q, k, v)")
    assert added_arguments("x = f(a, g(b), c)", "x = f(a, c)")
    assert not added_arguments("foo(a)(b)", "foo(a)")  # a second call: no argument of the first
    assert not added_arguments("raise ReadTimeout(e, request=request)", "raise Timeout(e)")
    assert not added_arguments("f(ab)", "f(a)")  # a name edited
    assert not added_arguments("x = f(a) + 1", "x = f(a)")  # outside the brackets
    assert not added_arguments("f(a, (b)", "f(a)")  # unbalanced
    assert not added_arguments("g(1, f(a))", "f(a)")  # at the top level
    assert not added_arguments("f(a)", "f(a)")  # nothing added
    assert not added_arguments("f(a, b)", "f(a, b, c)")  # an argument dropped


def test_only_added_or_dropped_when_no_token_was_replaced() -> None:
    assert only_added_or_dropped('if hasattr(o, "__len__"):', "if hasattr(o, '__len__'):")
    assert only_added_or_dropped("class BaseAdapter:", "class BaseAdapter(object):")
    assert only_added_or_dropped("from .cookies import cookiejar_from_dict",
                                 "from .cookies import RequestsCookieJar, cookiejar_from_dict")
    assert not only_added_or_dropped("self._stdin = self._process.stdin", "self._stdout = self._process.stdout")
    assert not only_added_or_dropped('if quant_method == "fp8":', 'if quant_method == "NVFP4":')


def test_line_partners_take_a_line_that_only_gained_arguments() -> None:
    """With ``arguments``, a one-line signature that gained a parameter (half its words new, so
    below the word share) copies the upstream line it grew from."""
    mine, up = ['def default_user_agent(name="python-requests"):'], ["def default_user_agent():"]
    assert line_partners(mine, up, 0.75) == [None]
    assert line_partners(mine, up, 0.75, arguments=True) == [0]


def test_line_partners_keep_a_dict_entry_whose_value_was_edited() -> None:
    """With ``kept_keys``, a dict entry whose literal key the upstream statement gives too is a
    copy of the line giving it (the entry kept, its value edited); a new key stays new."""
    up = ["return CaseInsensitiveDict({", "    'User-Agent': default_user_agent(),",
          "    'Accept-Encoding': ', '.join(('gzip', 'deflate', 'compress')),", "})"]
    mine = ["return CaseInsensitiveDict(", "    {", '        "User-Agent": default_user_agent(),',
            '        "Accept-Encoding": DEFAULT_ACCEPT_ENCODING,', '        "Connection": "keep-alive",', "    }", ")"]
    assert line_partners(mine, up, 0.75, kept_keywords=True)[3] is None
    partners = line_partners(mine, up, 0.75, kept_keys=True)
    assert partners[3] == 2
    assert partners[4] is None


def test_line_tokens_are_memoised_but_each_caller_gets_its_own_list() -> None:
    first = line_tokens("x = foo('a', [1, 2])  # note")
    first.append("mutated")
    again = line_tokens("x = foo('a', [1, 2])  # note")
    assert again == ["x", "=", "foo", "(", '"a"', ",", "[", "1", ",", "2", "]", ")"]
    assert again is not first


def test_the_compiled_scan_takes_any_kinds_the_reference_takes() -> None:
    """Kinds as a strided view (no C buffer) or of a wide dtype (257 is not CODE) give the
    reference's ids, not an error or a wrapped kind."""
    lines = ["x = (", "y", ")", "z = 1"]
    strided = np.array([CODE, 0, CODE, 0, CODE, 0, CODE, 0], np.uint8)[::2]  # a Side's kind is uint8
    assert statement_ids(lines, strided, 9).tolist() == statement_ids_reference(lines, strided, 9).tolist()
    kinds = np.array([CODE, 256 + CODE, CODE, CODE], np.int64)
    assert statement_ids(lines, kinds, 9).tolist() == statement_ids_reference(lines, kinds, 9).tolist()


def _whole_statements_by_line(ids: np.ndarray, sizes: np.ndarray, lines: list[int]) -> list[list[int]]:
    """whole_statements line by line, as it was written first."""
    members: dict[int, list[int]] = {}
    for line in lines:
        if ids[line] >= 0:
            members.setdefault(int(ids[line]), []).append(line)
    return [found for sid, found in members.items() if sizes[sid] == len(found)]


@given(st.lists(st.integers(-1, 5), max_size=30), st.data())
def test_whole_statements_reads_the_ids_as_line_by_line(raw: list[int], data) -> None:
    ids = np.array(raw, np.int64)
    sizes = np.bincount(ids[ids >= 0], minlength=6)
    lines = sorted(data.draw(st.sets(st.integers(0, max(0, len(raw) - 1)), max_size=len(raw)))) if raw else []
    for chosen in (lines, range(len(raw))):
        assert whole_statements(ids, sizes, chosen) == _whole_statements_by_line(ids, sizes, list(chosen))


def test_line_partners_give_an_identical_line_its_own_partner() -> None:
    """With ``identical``, ``) -> None:`` copies the identical upstream line, not the parameter
    line above it that the target's line above holds verbatim (aphrodite-engine's layer norm
    dropped ``var_hidden_size`` from vLLM's signature); without, it names ``eps: float = 1e-6,``."""
    up = ["    def __init__(", "        self,", "        hidden_size: int,", "        eps: float = 1e-6,",
          "        var_hidden_size: Optional[int] = None,", "    ) -> None:"]
    mine = ["    def __init__(", "        self,", "        hidden_size: int,", "        eps: float = 1e-6,",
            "    ) -> None:"]
    assert line_partners(mine, up, 0.75, strip=True) == [0, 1, 2, 3, 3]
    assert line_partners(mine, up, 0.75, strip=True, identical=True) == [0, 1, 2, 3, 5]


def test_line_partners_close_a_signature_with_the_upstream_closing_line() -> None:
    """A closing line whose return annotation was edited has no words without it; with
    ``identical`` the upstream closing line, also wordless without its annotation, is its
    partner, where before the previous line's partner (held whole by that line) was. A wordless
    line that closes nothing (``*,``) does not take a closing line, nor a line held whole."""
    up = ["def _greedy_sample(", "    selected_seq_groups: List[SequenceGroupToSample],",
          "    samples: torch.Tensor,", ") -> SampleResultType:"]
    mine = [*up[:3], ") -> List[Tuple[List[int], List[int]]]:"]
    assert line_partners(mine, up, 0.75, strip=True)[3] == 2
    assert line_partners(mine, up, 0.75, strip=True, identical=True)[3] == 3
    up = ["def from_metadata(", "    cls,", "    dtype: torch.dtype,", ") -> Tuple[int, bool]:"]
    mine = ["def from_metadata(", "    cls,", "    dtype: torch.dtype,", "    *,", "    extra: int = 0,",
            ") -> Tuple[int, bool]:"]
    assert line_partners(mine, up, 0.75, strip=True)[3] == 2
    assert line_partners(mine, up, 0.75, strip=True, identical=True)[3] is None


def test_line_partners_leave_a_line_held_whole_to_its_target_line() -> None:
    """A re-wrapped argument line shares most words with the call's first line, which the
    target holds verbatim: with ``identical`` it goes with the argument lines it re-wraps."""
    up = ["hidden_states, residual = layer(", "    positions,", "    hidden_states,", "    residual,", ")"]
    mine = ["hidden_states, residual = layer(", "    positions, hidden_states, forward_batch, residual", ")"]
    assert line_partners(mine, up, 0.75) == [0, 0, 4]
    assert line_partners(mine, up, 0.75, identical=True) == [0, 1, 4]


def test_line_partners_give_no_partner_when_no_line_left_shares_a_word() -> None:
    """A list of test entries that gained one: the new entry's ``'info_dict': {`` holds a word
    of the upstream statement, but each upstream line holding it is held whole by its identical
    target line, so no line left shares a word with it and it has no partner (before, it took
    the first line left after the previous partner, an ``'md5': ...`` line with none of its
    words)."""
    up = ["_TESTS = [{", "    'url': 'http://example.invalid/a',", "    'md5': 'abc123',",
          "    'info_dict': {", "        'id': 'a',", "    },", "}, {", "    'url': 'http://example.invalid/b',",
          "    'only_matching': True,", "}]"]
    mine = [*up[:7], "    'info_dict': {", "    'only_matching': True,", "}]"]
    partners = line_partners(mine, up, 0.75, identical=True)
    assert partners[:7] == [0, 1, 2, 3, 4, 5, 6]
    assert partners[7] is None  # before: 7, the other entry's url line
    assert partners[8:] == [8, 9]
    # without identical partners the line shares its word with the upstream entry's line
    assert line_partners(mine, up, 0.75)[7] == 3


def test_name_share_counts_names_not_receivers_throwaways_keywords_or_literals() -> None:
    """``fill_body_min_name_share``'s measure: the target line's names (each as often as it
    occurs) that the upstream line holds, without ``self``, ``cls``, ``_``, keywords, literals
    or the target's annotation; None for a line of no name."""
    assert name_share("both, _ = self.both_proj(x)", "left, _ = self.left_proj(x)") == 1 / 3
    assert name_share("self.fused = FusedLayer(", "self.left = ColumnLayer(") == 0.0
    # ``x`` twice against once: one of them is found
    assert name_share("x, _ = self.out_proj(x)", "x, _ = self.out_proj(left * right)") == 2 / 3
    assert name_share("return 80", "return 75") is None
    assert name_share("return cls(self)", "return None") is None
    # the annotation is the edit, not a name of the line
    assert name_share("width: Optional[int] = None,", "width=None,") == 1.0


# Pieces of lines that reach every branch of strip_annotations: defs (async, nested brackets,
# return annotations, defaults), annotated targets (attributes, subscripts, keywords that are no
# name), slices, dict entries, lambdas, walrus, trailing commas, comments and quotes.
_ANNOTATION_PIECES = ["def", "async", "f", "(", ")", "[", "]", "{", "}", ":", ",", "=", "->", "*", "**",
                      "self", ".", "x", "_y2", "if", "else", "lambda", "None", "int", "Dict", "1", ":=",
                      "'a'", '"b"', "# c: d", "ré", "\u00b2x", "x\u0663", "\u3000", " ", "\\", "==", "é_"]


@given(st.lists(st.sampled_from(_ANNOTATION_PIECES), max_size=24).map(" ".join)
       | st.lists(st.sampled_from(_ANNOTATION_PIECES), max_size=24).map("".join)
       | st.text(alphabet=st.sampled_from(_TOKEN_ALPHABET), max_size=60))
def test_the_compiled_annotation_free_is_the_reference(text: str) -> None:
    import lineage.match.statements as statements

    assert statements._annotation_free is not None  # built by the set-up, like the indexer's pass
    assert statements.annotation_free_of(text) == statements.annotation_free_reference(text)


def test_the_compiled_annotation_free_strips_what_the_rule_strips() -> None:
    from lineage.match.statements import annotation_free_of

    assert annotation_free_of("  self.a[0].b: Dict[str, int] = {'k': 1},  # note") == 'self . a [ 0 ] . b = { "k" : 1 }'
    assert annotation_free_of("async def f(a: int = 3, *b: X) -> Y[Z]:") == "async def f ( a = 3 , * b ) :"
    assert annotation_free_of("if x: y = 1") == "if x : y = 1"  # a keyword is no target
    assert annotation_free_of("x: int") == "x : int"  # a bare annotation is a statement of its own
    assert annotation_free_of("# only a comment") == ""
    assert annotation_free_of(",") == ""
