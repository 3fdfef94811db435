"""Tests for lineage.fork.drift_rules: the line rules of drift over hand-made line tables (no git)."""

from __future__ import annotations

from collections import Counter

import pytest

from lineage.errors import LineageError
from lineage.fork.drift_rules import (
    FileChange,
    TargetLines,
    TouchedCommit,
    Verdict,
    _gone_from_target,
    classify,
    count_change,
    count_move,
    counterparts,
    file_change,
    judge,
    learn_pairing,
    pr_number,
    renamer,
    stripped_lines,
)
from lineage.fork.params import DriftParams, drift_params_from_settings

PAIRING = learn_pairing([("t/m.py", "m.py")], ["m.py"])


def _base(path: str) -> Counter[str]:
    """The upstream at BASE: m.py holds one line."""
    return Counter({"x = 1": 1}) if path == "m.py" else Counter()


def test_pr_numbers() -> None:
    assert pr_number("Fix typos (#648)") == "648"
    assert pr_number("Merge pull request #12 from a/b") == "12"
    assert pr_number("Revert \"x (#3)\" (#5)") == "5"
    assert pr_number("no number here #7") == ""


def test_counts_are_a_multiset_against_the_parent() -> None:
    # `return None` is in the file before and after: not telling while other lines changed.
    change = FileChange("m.py", "m.py", Counter({"return None": 2, "x = 1": 1}),
                        Counter({"return None": 3, "y = 2": 1}))
    assert count_change(change, Counter({"return None": 2, "x = 1": 1})) == (1, 0, 1, 0, 0, 0)
    assert count_change(change, Counter({"return None": 3, "y = 2": 1})) == (1, 1, 1, 1, 0, 0)
    # A later applied commit removed `y = 2` and added `x = 1` back: neither is missing.
    assert count_change(change, Counter({"return None": 3, "x = 1": 1}), None,
                        Counter({"y = 2": 1}), Counter({"x = 1": 1})) == (1, 0, 1, 0, 1, 1)
    # `x = 1` came with a commit of the range the target did not take (BASE lacks it): its
    # absence from the target is no evidence, so it is not counted.
    assert count_change(change, Counter({"return None": 2}), None, None, None, Counter()) == (1, 0, 0, 0, 0, 0)
    # A change of ambiguous texts only is counted on them: the third copy is there.
    alone = FileChange("m.py", "m.py", Counter({"return None": 2}), Counter({"return None": 3}))
    assert count_change(alone, Counter({"return None": 3})) == (1, 1, 0, 0, 0, 0)
    params = DriftParams()
    assert classify(2, 2, 1, 1, params) == "applied"
    assert classify(10, 1, 0, 0, params) == "missing"
    assert classify(10, 5, 0, 0, params) == "partial"
    assert classify(0, 0, 0, 0, params) == "not_applicable"
    with pytest.raises(LineageError):
        DriftParams(applied_min_share=0.1, missing_max_share=0.2)


def test_folder_map_and_renames() -> None:
    pairing = learn_pairing([("vendor/pkg/a.py", "src/pkg/a.py"), ("src/forked/b.py", "src/pkg/b.py")],
                            ["src/pkg/a.py", "src/pkg/b.py"])
    assert pairing.folders == {("src",): ("vendor",), ("src", "pkg"): ("src", "forked")}
    assert pairing.mapped("src/pkg/new.py") == "src/forked/new.py"
    assert pairing.mapped("tests/t.py") == ""
    assert pairing.renames == {"pkg": "forked"}


def test_a_few_files_moved_elsewhere_do_not_outvote_their_folder() -> None:
    """nextcord keeps ext/commands/ and moved three of its modules' code into
    ext/application_checks/ (paired by file name only): new upstream files of ext/commands map
    to nextcord's ext/commands, and ``commands`` is no renamed package."""
    names = ["bot.py", "context.py", "converter.py", "cooldowns.py", "help.py", "view.py"]
    pairs = [(f"nextcord/ext/commands/{n}", f"discord/ext/commands/{n}") for n in names]
    pairs += [(f"nextcord/ext/application_checks/{n}", f"discord/ext/commands/{n}")
              for n in ("core.py", "errors.py", "__init__.py")]
    pairs += [(f"nextcord/{n}", f"discord/{n}") for n in ("abc.py", "client.py")]
    pairing = learn_pairing(pairs, [u for _, u in pairs])
    assert pairing.mapped("discord/ext/commands/hybrid.py") == "nextcord/ext/commands/hybrid.py"
    assert pairing.renames == {"discord": "nextcord"}


def test_a_folder_goes_where_its_own_files_went_not_its_subfolders() -> None:
    """aphrodite-engine 0.6.3 keeps vLLM's ``model_executor/layers`` files in
    ``aphrodite/modeling/layers`` and moved the bigger ``layers/quantization`` up to
    ``aphrodite/quantization``: the subfolder's files outvoted the folder's own, and a new file of
    ``layers`` was expected at ``aphrodite/``. A folder none of whose own files is paired still
    follows its subfolders."""
    own = [(f"aphrodite/modeling/layers/{n}.py", f"vllm/model_executor/layers/{n}.py") for n in ("linear", "pooler")]
    moved = [(f"aphrodite/quantization/{n}.py", f"vllm/model_executor/layers/quantization/{n}.py")
             for n in ("awq", "gptq", "fp8", "marlin", "squeezellm")]
    pairing = learn_pairing(own + moved, [u for _, u in own + moved])
    assert pairing.mapped("vllm/model_executor/layers/sampler.py") == "aphrodite/modeling/layers/sampler.py"
    assert pairing.mapped("vllm/model_executor/layers/quantization/hqq.py") == "aphrodite/quantization/hqq.py"
    only_moved = learn_pairing(moved, [u for _, u in moved])
    assert only_moved.mapped("vllm/model_executor/layers/sampler.py") == "aphrodite/sampler.py"


def test_a_line_a_later_applied_commit_removed_again_is_superseded() -> None:
    target = TargetLines({"t/m.py": Counter({"x = 1": 1, "b = 2": 1})})
    adds = FileChange("m.py", "m.py", Counter({"x = 1": 1}), Counter({"x = 1": 1, "a = 1": 1}))
    swaps = FileChange("m.py", "m.py", Counter({"x = 1": 1, "a = 1": 1}), Counter({"x = 1": 1, "b = 2": 1}))
    first, second = judge([TouchedCommit([adds], PAIRING), TouchedCommit([swaps], PAIRING)], target, _base,
                          DriftParams())
    # `a = 1` was never at BASE and the first commit is not applied: its removal proves nothing.
    assert second == Verdict(1, 1, 0, 0, 0, 0, "applied", "t/m.py")
    # The target lacks `a = 1` because the applied second commit removed it again: not missing.
    assert first == Verdict(1, 0, 0, 0, 1, 0, "not_applicable", "t/m.py")


def test_a_removed_copy_is_absent_only_below_the_count_the_target_had() -> None:
    """discord.py 96e6261d61 changes `oldest_first: Optional[bool] = False,` to `= None,` in
    channel.py twice: once in TextChannel.purge (there at the fork point, and in disnake 2.1.3
    unchanged) and once in VoiceChannel.purge, added after it (disnake never had it). The target
    holding one copy where the parent held two read as one copy gone, and the commit, of which the
    fork holds nothing, as partial."""
    old, new = "oldest_first: Optional[bool] = False,", "oldest_first: Optional[bool] = None,"
    change = FileChange("m.py", "m.py", Counter({old: 2}), Counter({new: 2}))
    base = Counter({old: 1})
    assert count_change(change, Counter({old: 1}), at_base=base) == (2, 0, 1, 0, 0, 0)
    assert classify(*count_change(change, Counter({old: 1}), at_base=base)[:4], DriftParams()) == "missing"
    # the target took it: its one copy is gone, the other it never had is not counted
    assert count_change(change, Counter({new: 1}), at_base=base) == (2, 1, 1, 1, 0, 0)
    # with both copies at BASE, a target holding one lacks the other (as before)
    assert count_change(change, Counter({old: 1}), at_base=Counter({old: 2})) == (2, 0, 2, 1, 0, 0)
    # without BASE's lines every absence below the parent's count counts (as before)
    assert count_change(change, Counter({old: 1})) == (2, 0, 2, 1, 0, 0)
    # the same rule proves a commit applied on absences alone (judge's first pass)
    assert not _gone_from_target(change, base, ["t/m.py"], TargetLines({"t/m.py": Counter({old: 1})}))
    assert _gone_from_target(change, base, ["t/m.py"], TargetLines({"t/m.py": Counter({new: 2})}))



def test_an_added_copy_is_present_beyond_the_count_the_target_had() -> None:
    """An upstream commit after BASE adds `total = compute(1)` (the target never took it), a later
    one another copy; a target holding one copy carries the later commit, and the copy the parent
    gained after the fork does not hide it. Through judge: the earlier commit (its other line
    missing) proves nothing, so the later one is counted beyond BASE's count (0)."""
    line, other = "total = compute ( 1 )", "alpha = first ( )"
    first = FileChange("m.py", "m.py", Counter({"x = 1": 1}), Counter({"x = 1": 1, line: 1, other: 1}))
    second = FileChange("m.py", "m.py", first.after, Counter({"x = 1": 1, line: 2, other: 1}))
    held = Counter({"x = 1": 1, line: 1})
    assert count_change(second, held, at_base=Counter({"x = 1": 1})) == (1, 1, 0, 0, 0, 0)
    # against the parent's count (no BASE given, as judge's first pass counts): not present
    assert count_change(second, held) == (1, 0, 0, 0, 0, 0)
    # with the earlier commit's copy shown (applied), the target must hold two
    assert count_change(second, held, at_base=Counter({"x = 1": 1, line: 1})) == (1, 0, 0, 0, 0, 0)
    # a short text (fewer than fallback_min_tokens tokens) counts beyond the parent's count: its
    # copies above BASE's may be the fork's own (discord.py 6dc314628e's `*,`, which disnake lacks)
    star = FileChange("m.py", "m.py", Counter({"* ,": 1}), Counter({"* ,": 2}))
    assert count_change(star, Counter({"* ,": 1}), at_base=Counter(), min_tokens=3) == (1, 0, 0, 0, 0, 0)
    assert count_change(star, Counter({"* ,": 1}), at_base=Counter(), min_tokens=2) == (1, 1, 0, 0, 0, 0)
    verdicts = judge([TouchedCommit([first], PAIRING), TouchedCommit([second], PAIRING)],
                     TargetLines({"t/m.py": held}), _base, DriftParams())
    assert [v.status for v in verdicts] == ["partial", "applied"]

def test_a_change_of_held_texts_alone_is_counted_on_its_longer_ones() -> None:
    """discord.py 9c109ae59b wraps `raise e` in `try:` / `finally:` and adds `await
    maybe_coroutine(self.cog_unload)`, every text already in cog.py: no telling line, so the
    change is counted on them. disnake's cog.py holds none of it but one `try:` more than the
    parent (its own code): 1 of 3 present read partial. The keyword lines are left to the call."""
    call = "await maybe_coroutine ( self . cog_unload )"
    change = FileChange("m.py", "m.py", Counter({"try :": 7, "finally :": 1, call: 1}),
                        Counter({"try :": 8, "finally :": 2, call: 2}))
    fork = Counter({"try :": 8, "finally :": 1, "self . cog_unload ( )": 1})
    assert count_change(change, fork) == (3, 1, 0, 0, 0, 0)  # every text, as before (min_tokens 1)
    assert count_change(change, fork, min_tokens=3) == (1, 0, 0, 0, 0, 0)
    assert classify(*count_change(change, fork, min_tokens=DriftParams().fallback_min_tokens)[:4],
                    DriftParams()) == "missing"
    # a change of short texts only is still counted on them
    short = FileChange("m.py", "m.py", Counter({"try :": 1}), Counter({"try :": 2}))
    assert count_change(short, Counter({"try :": 2}), min_tokens=3) == (1, 1, 0, 0, 0, 0)


def test_absences_alone_never_apply_a_chain_the_target_never_had() -> None:
    target = TargetLines({"t/m.py": Counter({"x = 1": 1})})
    adds = FileChange("m.py", "m.py", Counter({"x = 1": 1}), Counter({"x = 1": 1, "z = 9": 1}))
    removes = FileChange("m.py", "m.py", Counter({"x = 1": 1, "z = 9": 1}), Counter({"x = 1": 1}))
    first, second = judge([TouchedCommit([adds], PAIRING), TouchedCommit([removes], PAIRING)], target, _base,
                          DriftParams())
    assert (first.status, second.status) == ("missing", "not_applicable")
    assert (second.removed, second.absent) == (0, 0)


def test_counterparts_through_the_folder_map() -> None:
    new = FileChange("", "n.py", Counter(), Counter({"y = 2": 1}))
    # The target holds the folder the new file maps to, not the file: its lines count as missing.
    assert counterparts(new, PAIRING, TargetLines({"t/m.py": Counter()})) == ([], True)
    # ... and once it holds the file, that file is the counterpart.
    assert counterparts(new, PAIRING, TargetLines({"t/m.py": Counter(), "t/n.py": Counter()})) == (["t/n.py"], True)
    elsewhere = FileChange("", "other/n.py", Counter(), Counter({"y = 2": 1}))
    assert counterparts(elsewhere, PAIRING, TargetLines({"t/m.py": Counter()})) == ([], False)


def test_a_target_folder_without_test_modules_has_no_place_for_a_new_upstream_test() -> None:
    # keras 3.0.0's wheel against keras-core's repository: a merge adding backend_utils_test.py
    # beside backend_utils.py was "missing"; a wheel ships no tests (a test helper elsewhere,
    # keras/src/testing/test_utils.py, gives no other folder a place for them)
    new_test = FileChange("", "m_test.py", Counter(), Counter({"assert y == 2": 1}))
    gone_test = FileChange("test_m.py", "", Counter({"assert y == 2": 1}), Counter())
    wheel = TargetLines({"t/m.py": Counter(), "t/testing/test_utils.py": Counter()})
    assert counterparts(new_test, PAIRING, wheel) == ([], False)
    assert counterparts(gone_test, PAIRING, wheel) == ([], False)
    verdict, = judge([TouchedCommit([new_test], PAIRING)], wheel, _base, DriftParams())
    assert verdict.status == "not_applicable"
    # a target that holds test modules has a place for them, as for any new file
    checkout = TargetLines({"t/m.py": Counter(), "t/m_other_test.py": Counter()})
    assert counterparts(new_test, PAIRING, checkout) == ([], True)


def test_an_alias_module_is_not_the_counterpart_a_removal_is_judged_against() -> None:
    """nextcord keeps discord/abc.py as an alias (``from nextcord.abc import *``) that pairs
    with discord.py's abc.py as nextcord/abc.py does. An upstream commit removing a line
    nextcord/abc.py still holds is not applied because the alias lacks that line."""
    pairing = learn_pairing([("nextcord/abc.py", "discord/abc.py"), ("discord/abc.py", "discord/abc.py")],
                            ["discord/abc.py"])
    before = Counter({"class Snowflake:": 1, "def created_at(self):": 1, "x = old_value()": 1})
    removes = FileChange("discord/abc.py", "discord/abc.py", before, before - Counter({"x = old_value()": 1}))
    target = TargetLines({"discord/abc.py": Counter({"from nextcord . abc import *": 1}),
                          "nextcord/abc.py": before.copy()})
    found, _ = counterparts(removes, pairing, target)
    assert set(found) == {"discord/abc.py", "nextcord/abc.py"}
    verdict, = judge([TouchedCommit([removes], pairing)], target, lambda path: before.copy(), DriftParams())
    assert (verdict.status, verdict.target_files) == ("missing", "nextcord/abc.py")


def test_a_file_the_fork_split_in_two_is_judged_against_both_halves() -> None:
    """The fork split big.py into a.py (60 lines) and b.py (40): a change inside b's part is
    applied when b.py took it and missing when it did not, whichever half holds more lines."""
    part_a = Counter({f"a{i} = {i}": 1 for i in range(60)})
    part_b = Counter({f"b{i} = {i}": 1 for i in range(40)})
    before = part_a + part_b
    edit = Counter({"b5 = 55": 1}) - Counter()
    change = FileChange("pkg/big.py", "pkg/big.py", before, before - Counter({"b5 = 5": 1}) + edit)
    pairing = learn_pairing([("pkg/a.py", "pkg/big.py"), ("pkg/b.py", "pkg/big.py")], ["pkg/big.py"])
    statuses = []
    for took in (True, False):
        half = part_b - Counter({"b5 = 5": 1}) + edit if took else part_b.copy()
        target = TargetLines({"pkg/a.py": part_a.copy(), "pkg/b.py": half})
        verdict, = judge([TouchedCommit([change], pairing)], target, lambda path: before.copy(), DriftParams())
        statuses.append((verdict.status, verdict.target_files))
    assert statuses == [("applied", "pkg/a.py pkg/b.py"), ("missing", "pkg/a.py pkg/b.py")]


def test_lines_are_counted_in_a_form_no_formatter_changes() -> None:
    """A fork that ran black holds ``x = {"a": 1}`` where the upstream wrote ``x = {'a':1}``; a
    comma is no formatting (packaging's 791ccff8 ends an implicit concatenation with one)."""
    assert stripped_lines(b"x = {'a':1}\n") == stripped_lines(b'x = {"a": 1}\n')
    assert stripped_lines(b"x = 'a'\n") != stripped_lines(b"x = 'b'\n")
    assert stripped_lines(b'    "1.0+AbC"\n') != stripped_lines(b'    "1.0+AbC",\n')
    # inside a multi-line string, quotes are the string's text: a query's quoting fix is a change
    query = b'Q = """\nSELECT * FROM t WHERE name = %s\n"""\n'
    assert stripped_lines(query % b'"x"') != stripped_lines(query % b"'x'")
    assert stripped_lines(query % b"'x'")["SELECT * FROM t WHERE name = 'x'"] == 1


def test_renamer_replaces_whole_package_names_only() -> None:
    rename = renamer({"pkg": "forked"})
    assert rename is not None and renamer({}) is None
    assert rename("from pkg.a import b") == "from forked.a import b"
    assert rename("import mypkg, x.pkg") == "import mypkg, x.pkg"


def test_drift_params_are_knobs() -> None:
    assert drift_params_from_settings(["applied_min_share=1"]).applied_min_share == 1.0
    for bad in ("applied_min_share=1.5", "missing_max_share=x", "nope=1", "missing_max_share=0.95"):
        with pytest.raises(LineageError, match="--drift-set"):
            drift_params_from_settings([bad])


def test_nested_package_rename_reads_import_lines_in_the_targets_module_names() -> None:
    # aphrodite-engine renamed vllm -> aphrodite and moved modules within it (vllm/sequence.py ->
    # aphrodite/common/sequence.py); only the file names are shared, so no package rename is
    # learnt for "vllm" (the pairs share two or more parts), and the old renamer read
    # "vllm" as "common" (the one file whose folder alone changed)
    # vllm/__init__.py pairs with nothing (aphrodite's is its own); the package's name is its
    # folder's in the folder map, not where its top-level modules went (aphrodite/common)
    pairs = [("aphrodite/attention/layer.py", "vllm/attention/layer.py"),
             ("aphrodite/lora/layers.py", "vllm/lora/layers.py"),
             ("aphrodite/spec_decode/util.py", "vllm/spec_decode/util.py"),
             ("aphrodite/common/config.py", "vllm/config.py"),
             ("aphrodite/common/sequence.py", "vllm/sequence.py"),
             ("aphrodite/modeling/layers/sampler.py", "vllm/model_executor/layers/sampler.py"),
             ("aphrodite/modeling/models/gpt2.py", "vllm/model_executor/models/gpt2.py"),
             ("aphrodite/modeling/models/opt.py", "vllm/model_executor/models/opt.py")]
    packages = ["", "/attention", "/lora", "/spec_decode"]
    upstream = [u for _, u in pairs] + [f"vllm{p}/__init__.py" for p in [*packages, "/model_executor",
                                        "/model_executor/layers", "/model_executor/models"]]
    target = [t for t, _ in pairs] + [f"aphrodite{p}/__init__.py" for p in [*packages, "/common", "/modeling",
                                      "/modeling/layers", "/modeling/models"]]
    pairing = learn_pairing(pairs, upstream, target_paths=target)
    assert pairing.modules[("vllm",)] == ("aphrodite",)
    assert pairing.modules[("vllm", "sequence")] == ("aphrodite", "common", "sequence")
    assert pairing.modules[("vllm", "model_executor", "models")] == ("aphrodite", "modeling", "models")
    rename = renamer(pairing.renames, pairing.modules)
    assert rename is not None
    assert rename("from vllm . sequence import IntermediateTensors , SamplerOutput") == \
        "from aphrodite . common . sequence import IntermediateTensors , SamplerOutput"
    assert rename("from vllm . model_executor . layers . sampler import Sampler") == \
        "from aphrodite . modeling . layers . sampler import Sampler"
    assert rename("import vllm . envs as envs") == "import aphrodite . envs as envs"  # the package's map
    assert rename("x = self . vllm . sequence") == "x = self . vllm . sequence"  # an attribute, not a module
    assert rename("see vllm.sequence") == "see aphrodite.common.sequence"  # text inside a string
    # vLLM 0.6.0 moved SamplerOutput's import; a fork that kept the old import lacks the commit:
    # its removed line is still there under the fork's module name, not absent
    change = FileChange("m.py", "m.py",
                        Counter({"from vllm . sequence import IntermediateTensors , SamplerOutput": 1}),
                        Counter({"from vllm . sequence import IntermediateTensors": 1}))
    fork = Counter({"from aphrodite . common . sequence import IntermediateTensors , SamplerOutput": 1})
    assert count_change(change, fork, rename)[2:4] == (1, 0)
    assert classify(*count_change(change, fork, rename)[:4], DriftParams()) == "missing"


def test_module_name_starts_at_the_first_package() -> None:
    from lineage.fork.drift_rules import module_name
    known = frozenset({"src/pkg/__init__.py", "src/pkg/sub/__init__.py"})
    assert module_name("src/pkg/sub/a.py", known) == ("pkg", "sub", "a")
    assert module_name("src/pkg/__init__.py", known) == ("pkg",)
    assert module_name("scripts/run.py", known) == ()  # in no package
    assert module_name("src/pkg/my-script.py", known) == ()  # not importable


def test_a_change_that_only_moves_lines_is_judged_by_their_order() -> None:
    old = ["a", "b", "c", "d", "e", "f"]
    new = ["a", "d", "e", "b", "c", "f"]  # d and e moved before b (or b and c after e)
    change = file_change("m.py", "m.py", old, new)
    assert change.moves_only and change.before == change.after
    assert count_move(change, new) == (2, 2)
    assert count_move(change, old) == (2, 0)
    # the fork holds its own lines between: the order still tells
    assert count_move(change, ["a", "x", "d", "e", "y", "b", "c", "f"]) == (2, 2)
    # a line the fork holds twice (or not at all) places nothing: judged on the others
    assert count_move(change, ["a", "d", "d", "e", "b", "c", "f"]) == (1, 1)
    assert count_move(change, ["a", "b", "c", "f"]) == (0, 0)
    # lines read in the target's names (a renamed package's imports)
    assert count_move(change, [t.upper() for t in new], str.upper) == (2, 2)
    # a fork that put them elsewhere: neither order, not counted
    assert count_move(change, ["d", "a", "b", "c", "f", "e"]) == (0, 0)
    # a change of counts is no move (its lines are counted by count_change); nor is an unchanged file
    assert not file_change("m.py", "m.py", old, [*new, "g"]).moves_only
    assert not file_change("m.py", "m.py", old, old).moves_only
    # through judge: the counts of a move are its lines, each removed from one place and added at another
    target = TargetLines({"t/m.py": Counter(new)}, {"t/m.py": new})
    assert judge([TouchedCommit([change], PAIRING)], target, _base, DriftParams()) == [
        Verdict(2, 2, 2, 2, 0, 0, "applied", "t/m.py")]
    lacked = TargetLines({"t/m.py": Counter(old)}, {"t/m.py": old})
    assert judge([TouchedCommit([change], PAIRING)], lacked, _base, DriftParams())[0].status == "missing"
