"""The idiom rule (lineage.match.idioms): file pairs that share only common forms form no region."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from conftest import Runner, file_lines
from hypothesis import given
from hypothesis import strategies as st

from lineage.match import MatchParams
from lineage.match.idioms import form_file_counts, is_argument_line, is_constant_statement, is_convention_line
from lineage.match.imports import is_absolute_import


@pytest.mark.parametrize(("line", "argument"), [
    ("num_hidden_layers: int = 40,", True),
    ('hidden_act="silu",', True),
    ("dim=dim,", True),
    ("rope_theta: float = -1.5", True),
    ("1, 2, 3, 4,", True),
    ('"gate_proj",', True),
    ("self.eps = config.rms_norm_eps", True),
    ("x = torch.empty(n, dtype=torch.int32)", False),
    ("for name, loaded_weight in weights:", False),
    ("return x * 2", False),
    ("partition_weight_shape: tuple[int, int]", False),  # a field: the author's name
    ("important_value = compute(x)", False),
])
def test_argument_lines(line: str, argument: bool) -> None:
    assert is_argument_line(line) is argument


@pytest.mark.parametrize(("line", "absolute"), [
    ("from fancylib.ops.paged_decode import (", True),
    ("import torch.distributed as dist", True),
    ("from . import utils", False),  # relative: the upstream's own module layout
    ("from ._make import Factory", False),
    ("important_value = compute(x)", False),
])
def test_absolute_imports(line: str, absolute: bool) -> None:
    assert is_absolute_import(line) is absolute
    assert not is_argument_line(line)


_DEFAULTS = "".join(f"        param_{k}: int = {k},\n" for k in range(24))


def _config(name: str) -> str:
    return f"class {name}Config:\n    def __init__(\n        self,\n{_DEFAULTS}    ):\n        pass\n"


def test_keyword_defaults_found_in_many_files_form_no_region(run_compare: Runner) -> None:
    """24 keyword defaults written alike in five upstream configs: without the rule they pair with
    one of them; with it, nothing is copied (no line is distinctive)."""
    upstream = {f"up/configs/{n}.py": _config(n.capitalize()) for n in ("alpha", "beta", "gamma", "delta", "eps")}
    target = {"mine/config.py": _config("Mine")}
    rule_off = MatchParams(idiom_min_evidence=0.0, idiom_min_lines=1)
    off = file_lines(run_compare(target, [("up", upstream)], params=rule_off), "mine/config.py")
    assert (off["match"] == "verbatim").sum() >= 20
    on = file_lines(run_compare(target, [("up", upstream)]), "mine/config.py")
    assert set(on["match"]) == {"none"}


def test_a_distinctive_copy_of_the_same_shape_is_kept(run_compare: Runner) -> None:
    """The same block with two rare lines (about two distinctive lines' worth of tokens, like
    ``region_min_weight``): a region, although every keyword default is common."""
    body = _config("Only").replace("        pass\n", "        self.table = build_lookup_table(param_0, param_1)\n"
                                   "        self.size = len(self.table) * param_2\n")
    upstream = {"up/configs/only.py": body, "up/configs/other.py": _config("Other")}
    target = {"mine/config.py": body.replace("OnlyConfig", "MineConfig")}
    frame = file_lines(run_compare(target, [("up", upstream)]), "mine/config.py")
    assert (frame["match"] == "verbatim").sum() >= 20


@given(st.lists(st.tuples(st.integers(0, 40), st.integers(-3, 3), st.integers(-3, 3)), max_size=200))
def test_form_file_counts_counts_files_per_form(rows: list[tuple[int, int, int]]) -> None:
    rows.sort()  # lines are grouped by file, as in a Side
    side = SimpleNamespace(file_of=np.array([r[0] for r in rows], np.int32),
                           h_norm=np.array([r[1] for r in rows], np.int64),
                           h_abs=np.array([r[2] for r in rows], np.int64))
    text_forms, text_counts, abs_forms, abs_counts = form_file_counts(side)  # type: ignore[arg-type]
    for forms, counts, column in ((text_forms, text_counts, 1), (abs_forms, abs_counts, 2)):
        expected = {form: len({r[0] for r in rows if r[column] == form}) for form in {r[column] for r in rows}}
        assert forms.tolist() == sorted(expected) and counts.tolist() == [expected[f] for f in sorted(expected)]
        assert forms.dtype == np.int64


_CALL = ("    out = paged_decode_kernel(q, k, v, recommended_splits,\n"
         + "".join(f"        arg_{k}=value_{k},\n" for k in range(12)) + "    )\n    return out\n")
# Common lines: the signature, ``)`` and ``return out`` are in five upstream files.
_COMMON = {f"up/ops/plain_{k}.py": f"def attend(q, k, v):\n    out = helper_{k}(\n        q,\n    )\n    return out\n"
           for k in range(5)}

# The target's own code beside the copy: enough that the file is neither a whole identical file
# nor one that follows the upstream file over nearly all its lines (both are exempt:
# lineage.match.claims.identical_files, lineage.match.near_identical).
_MINE = ("\n\nMY_OWN_SETTING = 1\n\n\ndef my_own_helper(values):\n    total = sum(values)\n"
         "    return total / max(len(values), 1)\n")


def _caller(first: str) -> str:
    return f"{first}\n    recommended_splits,\n    paged_decode_kernel,\n)\n\n\ndef attend(q, k, v):\n{_CALL}"


def test_an_import_of_the_same_library_is_no_evidence(run_compare: Runner) -> None:
    """Two files calling one rare API: they import it alike and pass the same keywords. The import
    line is not distinctive, so the pair has one distinctive line (the call) and forms no region;
    the same files with rare non-import lines in its place (with the call, as many as
    ``idiom_min_lines`` asks) do."""
    imports = "from fancylib.ops.triton.gluon.paged_decode_gluon_kernels import ("
    upstream = {"up/ops/attn.py": _caller(imports), **_COMMON}
    on = file_lines(run_compare({"mine/calls.py": _caller(imports) + _MINE}, [("up", upstream)]), "mine/calls.py")
    assert set(on["match"]) == {"none"}
    rare = "".join(f"plan_{k} = prepare_paged_decode_plan_stage_{k}(recommended_splits, q, k, v)\n"
                   for k in range(MatchParams().idiom_min_lines - 2))
    rare += "table = build_lookup_table_for_paged_decode(recommended_splits, paged_decode_kernel, fancy=("
    upstream["up/ops/attn.py"] = _caller(rare)
    kept = file_lines(run_compare({"mine/calls.py": _caller(rare) + _MINE}, [("up", upstream)]), "mine/calls.py")
    assert (kept["match"] == "verbatim").sum() >= 10


def test_a_renamed_package_s_imports_are_evidence(run_compare: Runner) -> None:
    """A fork that renamed its package: its ``__init__.py`` holds only imports and the names they
    bring in. The imports of the renamed package are found by their abstract form, the relative
    one by its text; both name the upstream's own modules, so they establish the pair."""
    names = "".join(f"    name_{k},\n" for k in range(12))
    init = ("from {pkg} import (\n" + names + ")\nfrom {pkg}._next_gen import asdict, astuple\n\n"
            "from . import converters, exceptions, filters, setters, validators\n")
    upstream = {"attrs/__init__.py": init.format(pkg="attr"), **_COMMON}
    lines = file_lines(run_compare({"acorn/__init__.py": init.format(pkg="attr_fork")}, [("up", upstream)]),
                       "acorn/__init__.py")
    code = lines[lines["kind"] == "code"]
    assert (code["match"] != "none").all(), code[code["match"] == "none"]


_KERNEL = ("import triton\n\n\n@triton.jit\n"
           "def {name}({a}, {b}, {c}, {d}, N: tl.constexpr, BLOCK: tl.constexpr):\n"
           "{first}"
           "    {vals} = tl.load({a} + {offs} * N + {b}, {offs} < N, 0).to(tl.float32)\n"
           "{last}")
_UP_KERNEL = _KERNEL.format(
    name="_norm_row", a="x", b="col", c="w", d="y", offs="cols", vals="values",
    first="    cols = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n",
    last="    tl.store(y + cols, values * w, mask=cols < N)\n")
_MY_KERNEL = _KERNEL.format(
    name="_post_mix", a="X", b="h", c="scale", d="Out", offs="idx", vals="acc",
    first="    token = tl.program_id(1)\n    idx = token * 4 + tl.arange(0, BLOCK) // 2\n",
    last="    acc = tl.sum(acc * acc, axis=0) / N\n    tl.atomic_add(Out + token, acc * scale)\n")


def test_a_pair_found_only_by_abstract_forms_needs_more_lines(run_compare: Runner) -> None:
    """Two small triton kernels written with other names share two rare abstract forms (the
    signature, the masked load) and no text but ``import triton`` and ``@triton.jit``: no region
    (sglang's ``mhc_post_split_h.py`` against a vLLM query-quant kernel). Renamed code with more
    such lines keeps its regions (the synthetic rename cases)."""
    upstream = {"up/ops/norm_row.py": _UP_KERNEL, **_COMMON}
    target = {"mine/post_mix.py": _MY_KERNEL + _MINE}
    # the weak-pair rule off: it would drop the pair's lines too, and this tests the idiom rule
    on = file_lines(run_compare(target, [("up", upstream)], params=MatchParams(weak_pair_min_run=0)),
                    "mine/post_mix.py")
    assert set(on["match"]) == {"none"}
    off = file_lines(run_compare(target, [("up", upstream)],
                                 params=MatchParams(idiom_min_abstract_lines=1, weak_pair_min_run=0)),
                     "mine/post_mix.py")
    assert (off["match"] != "none").sum() >= 3


@pytest.mark.parametrize(("line", "convention"), [
    ("def __lt__(self, other):", True),
    ("def __hash__(self):", True),
    ("def __init__(", True),  # its parameters follow on other lines
    ("def __init__(self):", True),
    ("async def __aenter__(self):", True),
    ("def __exit__(self, *args) -> None:", True),
    ("def __call__(self, *args, **kwargs) -> _R: ...", True),
    ("_T = TypeVar('_T')", True),
    ('_T_co = typing.TypeVar("_T_co", covariant=True)', True),
    ("P = ParamSpec('P')", True),
    ("def __init__(self, func, max_rate):", False),  # a constructor's parameters are the author's
    ("def __contains__(self, value: object) -> bool: ...", False),  # annotated: written by someone
    ("def __init__(self, x=1):", False),
    ("def keys(self):", False),  # the name is the author's
    ("Alias = TypeVar('Other')", False),
    ("return self.casefold() < other.casefold()", False),
    ("def __init__(self):  # nothing to set up", True),  # a comment is no code
    ("def __class_getitem__(cls, item):", True),
    ("def __my_custom_kernel__(self, ttt, uuu):", False),  # no name of the data model
    ("def __call__(self, x, y, z, w, alpha, beta):", False),  # the author's many parameters
    ("T = TypeVar('T', bound=SomeDistinctiveClass)", False),  # the bound is the author's type
    ("AnyStr = TypeVar('AnyStr', str, bytes)", False),  # constraints too
])
def test_convention_lines(line: str, convention: bool) -> None:
    assert is_convention_line(line) is convention


@pytest.mark.parametrize(("line", "row"), [
    ("return 1 << 12", True),
    ("return 0x40", True),
    ("return -1", True),
    ("return 'abc'", True),
    ("yield (1 << 3) | 4", True),
    ("return 2**10", True),
    ("return True", False),  # every predicate ends so: no row of a table
    ("return None", False),
    ("return x", False),  # a name
    ("return f(1)", False),
    ("x = 1 << 3", False),  # an assignment names its target
    ("return 1, 2", False),
])
def test_constant_statements(line: str, row: bool) -> None:
    assert is_constant_statement(line) is row


_FOLDED = '''class FoldedCase(str):
    """A string that compares without regard to case."""

    def __lt__(self, other):
        return self.casefold() < other.casefold()

    def __gt__(self, other):
        return self.casefold() > other.casefold()

    def __eq__(self, other):
        return self.casefold() == other.casefold()

    def __ne__(self, other):
        return self.casefold() != other.casefold()

    def __hash__(self):
        return hash(self.casefold())
'''
_ENTRY = '''class EntryPoint:
    """An entry point of a distribution, immutable."""

    def __init__(self, name, value, group):
        vars(self).update(name=name, value=value, group=group)

    def _key(self):
        return self.name, self.value, self.group

    def __lt__(self, other):
        return self._key() < other._key()

    def __eq__(self, other):
        return self._key() == other._key()

    def __hash__(self):
        return hash(self._key())
'''


def test_data_model_signatures_are_no_evidence_against_a_small_upstream(run_compare: Runner) -> None:
    """A class comparing by another key than a small upstream's: the dunder signatures are in one
    upstream file of two, so rare there, and with the bodies' shared shapes they made a region
    (importlib_metadata's EntryPoint against jaraco.text's FoldedCase); they are convention."""
    upstream = {"up/text.py": _FOLDED, "up/other.py": "def helper(values):\n    return sorted(values)\n"}
    target = {"mine/entry.py": _ENTRY}
    off = file_lines(run_compare(target, [("up", upstream)], params=MatchParams(idiom_conventions=0)),
                     "mine/entry.py")
    assert (off["match"] != "none").sum() >= 4
    on = file_lines(run_compare(target, [("up", upstream)]), "mine/entry.py")
    assert set(on["match"]) == {"none"}


_FLAG_INIT = ("    def __init__(self, **kwargs):\n"
              "        self.value = self.DEFAULT_VALUE\n"
              "        for key, value in kwargs.items():\n"
              "            if key not in self.VALID_FLAGS:\n"
              "                raise TypeError(f'{key!r} is not a valid flag name.')\n"
              "            setattr(self, key, value)\n\n"
              "    def __iter__(self):\n"
              "        for name, value in self.__class__.__dict__.items():\n"
              "            if isinstance(value, alias_flag_value):\n"
              "                continue\n"
              "            if isinstance(value, flag_value):\n"
              "                yield (name, self._has_flag(value.flag))\n\n")


def _flag_table(name: str, words: list[str], first_bit: int) -> str:
    """A flag class of our own: one ``@flag_value`` property per word, its bits in order."""
    rows = "".join(f"    @flag_value\n    def {word}(self):\n"
                   f"        \"\"\":class:`bool`: Whether the {word.replace('_', ' ')} switch is on.\"\"\"\n"
                   f"        return 1 << {first_bit + k}\n\n" for k, word in enumerate(words))
    return f"@fill_with_flags()\nclass {name}(BaseFlags):\n" + _FLAG_INIT + rows


def test_a_table_s_rows_name_no_other_file(run_compare: Runner) -> None:
    """A fork added a flag class (bits 12 to 18, its own names and docstrings) to its own
    ``flags.py``; the upstream's ``permissions.py`` has a flag table of the same bits in the same
    order, and its ``__init__``/``__iter__`` lines are ``flags.py``'s, so the pair has evidence
    enough. The rows (``return 1 << 12``) and the decorators between them formed a region with
    ``permissions.py``; with ``idiom_table_min_lines`` a chain of table rows needs distinctive
    lines of its own, and the new class stays none."""
    perms = [f"perm_{w}" for w in ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
                                   "india", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa",
                                   "quebec", "romeo", "sierra", "tango")]
    intents = [f"intent_{w}" for w in ("guilds", "members", "bans", "emojis", "hooks", "invites")]
    apps = [f"app_{w}" for w in ("presence", "presence_limited", "members", "members_limited",
                                 "pending_limit", "embedded", "content")]
    up_flags = _flag_table("Intents", intents, 0)
    up = {"pkg/flags.py": up_flags, "pkg/permissions.py": _flag_table("Permissions", perms, 0)}
    text = up_flags + "\n" + _flag_table("AppFlags", apps, 12)
    start = up_flags.count("\n") + 2
    rows = [k for k, line in enumerate(text.split("\n"), 1) if k >= start and "return 1 <<" in line]
    frame = file_lines(run_compare({"pkg/flags.py": text}, [("up", up)]), "pkg/flags.py")
    assert len(rows) == 7 and set(frame.loc[rows, "match"]) == {"none"}
    assert set(frame.loc[frame.line < start - 1, "upstream_path"]) - {""} <= {"pkg/flags.py"}
    off = file_lines(run_compare({"pkg/flags.py": text}, [("up", up)], params=MatchParams(idiom_table_min_lines=0)),
                     "pkg/flags.py")
    assert (off.loc[rows, "upstream_path"] == "pkg/permissions.py").sum() >= 5
