"""The next step summary.md advises per third party whose lines were set apart
(lineage.results.third_party): the rule, and the CLI end to end."""

from __future__ import annotations

import json
from pathlib import Path

import treegen
from packaging.specifiers import SpecifierSet

from lineage.cli import main
from lineage.index.project import _from_metadata, _from_pyproject
from lineage.markers import Marker
from lineage.results.third_party import (
    Declared,
    marker_module,
    names_third_party,
    next_step,
    release_in,
    requirement_for,
)

VLLM = Declared("vllm", "0.32.0", ("regex", "transformers<5.20.0,>=5.16.1",
                                   'protobuf==7.36.1; platform_machine == "s390x"', "protobuf>=5.29.6",
                                   "not a requirement ((("))
SGLANG = Declared("sglang", "0.5.23", ("transformers==5.19.0", "flash-linear-attention==0.3"))
RUN = [("vllm", {"vllm", "vllm-project/vllm"})]


def _text(name: str, upstreams=RUN, target: Declared | None = SGLANG, knob: bool = True) -> str | None:  # type: ignore[no-untyped-def]
    return next_step(name, ("vllm",), upstreams, [VLLM], target, knob).text()


def test_the_upstreams_requirement_names_the_distribution_and_its_lowest_release() -> None:
    step = next_step("transformers", ("vllm",), RUN, [VLLM], SGLANG)
    assert (step.distribution, step.version, step.required_by) == ("transformers", "5.16.1", "vllm 0.32.0")
    # the upstream's requirement, not the target's pin (5.19.0): the release the upstream was built against
    assert step.text() == ("add `--upstream pypi:transformers==5.16.1` to count what vllm added to it "
                           "(vllm 0.32.0 requires `transformers<5.20.0,>=5.16.1`; 5.16.1 is the lowest release "
                           "it allows)")
    # a pin is the release; a marker-less requirement first; names compared as PyPI compares them
    assert "pypi:protobuf==5.29.6" in str(_text("protobuf"))
    assert release_in(SpecifierSet("==4.46.3")) == ("4.46.3", True)
    assert release_in(SpecifierSet("<5")) is None and release_in(SpecifierSet("==4.46.*")) is None
    assert release_in(SpecifierSet(">=2,!=2")) is None  # a bound it excludes is no release of it
    assert requirement_for("Flash_Linear.Attention", SGLANG.requires) is not None


def test_a_requirement_without_a_release_names_the_distribution_only() -> None:
    assert _text("regex") == ("add `--upstream pypi:regex==VERSION` to count what vllm added to it (VERSION: "
                              "the release vllm used; vllm 0.32.0 requires `regex`, which names none)")


def test_the_upstreams_vendoring_record_names_the_release_it_carries() -> None:
    """wheel 0.43.0's ``wheel/vendored/vendor.txt`` pins ``packaging==24.0``; summary.md said "the
    release wheel used, which its metadata does not name" and quoted setuptools' requirement."""
    wheel = Declared("wheel", "0.43.0", (), (("packaging", "24.0", "wheel/vendored/vendor.txt"),))
    target = Declared("setuptools", "75.1.0", ('packaging; extra == "core"',))
    step = next_step("packaging", ("wheel",), [("wheel", {"wheel"})], [wheel], target)
    assert (step.distribution, step.version, step.required_by, step.pinned) == ("packaging", "24.0", "wheel 0.43.0",
                                                                                 True)
    assert step.text() == ("add `--upstream pypi:packaging==24.0` to count what wheel added to it (wheel 0.43.0 "
                           "vendors `packaging==24.0`: `wheel/vendored/vendor.txt`)")
    # before the upstream's requirement; another upstream's record is no statement of this one's
    with_req = Declared("vllm", "0.32.0", VLLM.requires, (("Transformers", "5.17.0", "vllm/_vendor/vendor.txt"),))
    assert next_step("transformers", ("vllm",), RUN, [with_req], SGLANG).version == "5.17.0"
    other = Declared("other", "1.0", (), (("tml-fa4", "1.0", "other/vendor.txt"),))
    assert next_step("tml_fa4", ("vllm",), RUN, [VLLM, other], None).distribution is None


def test_the_targets_requirement_names_the_distribution_but_not_the_upstreams_release() -> None:
    step = next_step("flash_linear_attention", ("vllm",), RUN, [VLLM], SGLANG)
    assert (step.distribution, step.version, step.required_by) == ("flash-linear-attention", None, "sglang 0.5.23")
    assert "`--upstream pypi:flash-linear-attention==VERSION`" in str(step.text())
    assert "sglang 0.5.23 requires `flash-linear-attention==0.3`" in str(step.text())


def test_no_distribution_is_invented() -> None:
    generic = "add the third party's release as a further `--upstream` to count what vllm added to it"
    # a vendored folder's name, a repository's, a copyright holder: no requirement names them
    for name in ("tml_fa4", "Liger-Kernel", "NVIDIA CORPORATION & AFFILIATES"):
        step = next_step(name, ("vllm",), RUN, [VLLM], SGLANG)
        assert step.distribution is None and step.text() == generic
    # another upstream's requirement is no statement of this one's
    other = Declared("other", "1.0", ("tml-fa4==1.0",))
    assert next_step("tml_fa4", ("vllm",), RUN, [VLLM, other], None).text() == generic


def test_a_third_party_that_is_an_upstream_needs_no_step() -> None:
    run = [*RUN, ("transformers", {"transformers"})]
    step = next_step("transformers", ("vllm",), run, [VLLM], SGLANG)
    assert step.upstream_of_run == "transformers" and step.text() is None
    # unless the rule that gives the upstream its own lines back is off
    assert _text("transformers", run, knob=False) == ("add `--set origin_third_party_lines=1` to count what "
                                                      "vllm added to it")
    assert "and `--set origin_third_party_lines=1` to count" in str(_text("tml_fa4", knob=False))


def test_the_requirements_are_read_from_the_metadata() -> None:
    meta = (b"Metadata-Version: 2.1\nName: up\nRequires-Dist: transformers<5,>=4.46\n"
            b"Requires-Dist: regex\nRequires-Dist: regex\n")
    assert _from_metadata(meta).requires == ("regex", "transformers<5,>=4.46")
    toml = b'[project]\nname = "up"\ndependencies = ["thirdlib>=1.2,<2", 3]\n'
    assert _from_pyproject(toml).requires == ("thirdlib>=1.2,<2",)


def test_summary_reads_the_pin_from_the_upstreams_vendor_txt(tmp_path: Path) -> None:
    # the upstream vendors thirdlib under a vendor.txt pin; the target copied the file naming nothing
    helper = treegen.distinctive_functions(43)
    upstream = {"up/__init__.py": "", "up/own.py": treegen.distinctive_functions(44),
                "up/_vendor/vendor.txt": "thirdlib==1.3\n", "up/_vendor/thirdlib/__init__.py": "",
                "up/_vendor/thirdlib/m.py": helper, "pyproject.toml": '[project]\nname = "up"\n'}
    t = treegen.write_tree(tmp_path / "tgt-src", {"tgt/__init__.py": "", "tgt/m.py": helper,
                                                  "pyproject.toml": '[project]\nname = "tgt"\n'})
    u = treegen.write_tree(tmp_path / "up", upstream)
    out = tmp_path / "out"
    assert main(["compare", str(t), str(u), "--out", str(out), "--no-html", "--formats", "none", "-q",
                 "--no-cache", "--jobs", "1"]) == 0
    [party] = json.loads((out / "summary.json").read_text())["third_parties"]
    assert (party["name"], party["distribution"], party["version"]) == ("thirdlib", "thirdlib", "1.3")
    assert "`up/_vendor/vendor.txt`" in party["next_step"]
    assert "The upstream's own vendoring record" in (out / "summary.md").read_text()


def test_summary_advises_the_third_party_until_it_is_an_upstream(tmp_path: Path) -> None:
    # the upstream's model adapted from thirdlib (its header says so), which its pyproject requires;
    # the target copied it naming nothing: its lines are set apart as thirdlib's, and summary.md
    # says to add thirdlib's release; with thirdlib an upstream, the advice is gone
    helper = treegen.distinctive_functions(41)
    own = treegen.distinctive_functions(42).replace("return intermediate_", "return -intermediate_")
    upstream = {"up/__init__.py": "", "up/models/m.py": "# Adapted from https://github.com/thirdorg/thirdlib/"
                "blob/main/m.py\n" + helper + own,
                "pyproject.toml": '[project]\nname = "up"\ndependencies = ["thirdlib>=1.2,<2"]\n'}
    t = treegen.write_tree(tmp_path / "tgt-src", {"tgt/__init__.py": "", "tgt/m.py": helper + own,
                                                  "pyproject.toml": '[project]\nname = "tgt"\n'})
    u = treegen.write_tree(tmp_path / "up", upstream)
    third = treegen.write_tree(tmp_path / "thirdlib", {"thirdlib/__init__.py": "", "thirdlib/m.py": helper})

    def run(*extra: str) -> tuple[str, dict]:  # type: ignore[type-arg]
        out = tmp_path / f"out{len(extra)}"
        assert main(["compare", str(t), str(u), "--out", str(out), "--no-html", "--formats", "none", "-q",
                     "--no-cache", "--jobs", "1", *extra]) == 0
        return (out / "summary.md").read_text(), json.loads((out / "summary.json").read_text())

    md, summary = run()
    assert "vendoring record" not in md  # said only when a record named the release
    advice = ("add `--upstream pypi:thirdlib==1.2` to count what up added to it (up requires "
              "`thirdlib<2,>=1.2`; 1.2 is the lowest release it allows)")
    row = next(line for line in md.splitlines() if line.startswith("| thirdlib |"))
    assert row.endswith(f"| {advice} |")
    [party] = summary["third_parties"]
    assert party["name"] == "thirdlib" and party["through"] == ["up"] and party["next_step"] == advice
    assert party["files"] == 1 and party["code_lines"] == summary["shared"]["third_party"]["code_lines"] > 0
    assert (party["distribution"], party["version"], party["upstream_of_run"]) == ("thirdlib", "1.2", None)

    md, summary = run("--upstream", str(third))
    assert "pypi:thirdlib" not in md and "further `--upstream` to count" not in md
    assert summary["per_upstream"]["up"]["lines"] > 0  # the remedy: the upstream's own lines, copied
    parties = {p["name"]: p for p in summary["third_parties"]}
    # the third party's own lines that stay shared with it: said to come from an upstream of the run
    assert parties and all(p["next_step"] is None and p["upstream_of_run"] == "thirdlib" for p in parties.values())
    assert all("is an upstream of this run" in line for line in md.splitlines() if line.startswith("| thirdlib |"))


PIP = Declared("pip", "24.2", ())
SETUPTOOLS = Declared("setuptools", "72.1.0", ('jaraco.text>=3.7; extra == "core"',), (
    ("jaraco.context", "5.3.0", "setuptools/_vendor/jaraco.context-5.3.0.dist-info/METADATA"),
    ("jaraco.text", "3.12.1", "setuptools/_vendor/jaraco.text-3.12.1.dist-info/METADATA")))
PIP_RUN = [("pip", {"pip"})]
# what setuptools 72.1.0 against pip 24.2 holds: the target files sharing the "jaraco" lines are
# its vendored jaraco/text/__init__.py and its vendored wheel's metadata.py
COVERING = (("jaraco.text", "3.12.1", "setuptools/_vendor/jaraco.text-3.12.1.dist-info/METADATA"),
            ("wheel", "0.43.0", "setuptools/_vendor/wheel-0.43.0.dist-info/METADATA"))


def test_the_targets_vendoring_record_names_the_release_of_its_files() -> None:
    """pip's ``_jaraco_text.py`` ("Functions brought over from jaraco.text.") sets its lines apart
    as third party ``jaraco``; summary.md could name no distribution, though setuptools' own
    ``jaraco.text-3.12.1.dist-info`` covers the target file sharing them."""
    step = next_step("jaraco", ("pip",), PIP_RUN, [PIP], SETUPTOOLS, modules=("jaraco.text",), covering=COVERING)
    assert (step.distribution, step.version, step.required_by, step.pinned, step.by_upstream) == (
        "jaraco.text", "3.12.1", "setuptools 72.1.0", True, False)
    assert step.text() == ("add `--upstream pypi:jaraco.text==3.12.1` to count what pip added to it "
                           "(setuptools 72.1.0 vendors `jaraco.text==3.12.1`: "
                           "`setuptools/_vendor/jaraco.text-3.12.1.dist-info/METADATA`)")
    # without the package its marker names, "jaraco" is no distribution (and its requirement's
    # name is jaraco.text, not jaraco): nothing is guessed
    bare = next_step("jaraco", ("pip",), PIP_RUN, [PIP], SETUPTOOLS, covering=COVERING)
    assert bare.distribution is None
    # a record of the target that covers none of the files sharing the lines says nothing of them
    assert next_step("jaraco", ("pip",), PIP_RUN, [PIP], SETUPTOOLS, modules=("jaraco.text",),
                     covering=COVERING[1:]).distribution is None


def test_the_upstreams_record_wins_over_the_targets_and_two_releases_name_none() -> None:
    # both pin: the release the upstream's copy was made from is the base of what it added
    pip = Declared("pip", "24.2", (), (("packaging", "24.1", "pip/_vendor/vendor.txt"),))
    covering = (("packaging", "24.0", "setuptools/_vendor/wheel/vendored/vendor.txt"),)
    step = next_step("packaging", ("pip",), PIP_RUN, [pip], SETUPTOOLS, covering=covering)
    assert (step.version, step.required_by, step.recorded_in) == ("24.1", "pip 24.2", "pip/_vendor/vendor.txt")
    # the target's files sharing the lines are two releases (setuptools' packaging 24.1 and its
    # vendored wheel's 24.0): no one release is named by the records; the requirement speaks then
    two = (("packaging", "24.1", "setuptools/_vendor/packaging-24.1.dist-info/METADATA"), *covering)
    target = Declared("setuptools", "72.1.0", ("packaging>=24",))
    step = next_step("packaging", ("pip",), PIP_RUN, [PIP], target, covering=two)
    assert (step.recorded_in, step.version, step.required_by) == (None, None, "setuptools 72.1.0")
    # one release written two ways (PEP 440) is one release
    same = (("packaging", "24.0", "a/vendor.txt"), ("packaging", "24.0.0", "b/vendor.txt"))
    assert next_step("packaging", ("pip",), PIP_RUN, [PIP], target, covering=same).recorded_in == "a/vendor.txt"


def test_a_record_names_the_third_party_by_the_package_its_marker_reads() -> None:
    assert names_third_party("jaraco.text", "jaraco", ("jaraco.text",))
    assert names_third_party("Jaraco-Text", "jaraco", ("jaraco.text.layouts",))  # a module of the package
    assert not names_third_party("jaraco.context", "jaraco", ("jaraco.text",))  # another of the namespace
    assert not names_third_party("jaraco.text", "jaraco", ())
    assert not names_third_party("transformers", "jaraco", ("transformers.models",))  # not this party's module
    assert names_third_party("Packaging", "packaging")
    # the upstream's own record, by the same rule
    pip = Declared("pip", "24.2", (), (("jaraco.text", "3.4.0", "pip/_vendor/vendor.txt"),))
    assert next_step("jaraco", ("pip",), PIP_RUN, [pip], None, modules=("jaraco.text",)).version == "3.4.0"
    # an upstream of the run named by that package is the third party: nothing to add
    run = [*PIP_RUN, ("jaraco-text", {"jaraco-text", "jaraco.text", "jaraco_text"})]
    step = next_step("jaraco", ("pip",), run, [PIP], SETUPTOOLS, modules=("jaraco.text",), covering=COVERING)
    assert step.upstream_of_run == "jaraco-text" and step.text() is None


def test_marker_module_reads_a_dotted_source_of_the_third_party() -> None:
    def marker(path: str, kind: str = "taken_from", repository: str = "") -> Marker:
        return Marker(line=1, kind=kind, text="t", path=path, repository=repository)

    assert marker_module(marker("jaraco/text.py"), "jaraco") == "jaraco.text"
    assert marker_module(marker("jaraco/text/__init__.py"), "jaraco") == "jaraco.text"
    assert marker_module(marker("jaraco/text/layouts.py"), "jaraco") == "jaraco.text.layouts"
    assert marker_module(marker("jaraco.py"), "jaraco") == ""  # the name itself: no package below it
    assert marker_module(marker("other/text.py"), "jaraco") == ""  # not this third party's
    assert marker_module(marker("jaraco/text.py", repository="https://github.com/jaraco/jaraco.text"), "jaraco") == ""
    assert marker_module(marker("jaraco/text.py", kind="copyright"), "jaraco") == ""
    assert marker_module(marker("jaraco/my-text.py"), "jaraco") == ""  # no module name


def test_summary_names_the_distribution_from_the_targets_dist_info(tmp_path: Path) -> None:
    # the upstream carries functions "brought over from thirdns.text" under no record of its own;
    # the target vendors thirdns.text 3.1 with its dist-info, whose RECORD lists the file
    helper = treegen.distinctive_functions(45)
    upstream = {"up/__init__.py": "", "up/own.py": treegen.distinctive_functions(46),
                "up/utils/_thirdns_text.py": '"""Functions brought over from thirdns.text."""\n' + helper,
                "pyproject.toml": '[project]\nname = "up"\n'}
    info = "tgt/_vendor/thirdns.text-3.1.dist-info"
    target = {"tgt/__init__.py": "", "tgt/_vendor/thirdns/text/__init__.py": helper,
              f"{info}/METADATA": "Metadata-Version: 2.1\nName: thirdns.text\nVersion: 3.1\n",
              f"{info}/RECORD": "thirdns/text/__init__.py,,\n",
              "tgt/_vendor/thirdns.context-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: thirdns.context\n"
                                                                     "Version: 1.0\n",
              "pyproject.toml": '[project]\nname = "tgt"\n'}
    t = treegen.write_tree(tmp_path / "tgt-src", target)
    u = treegen.write_tree(tmp_path / "up", upstream)
    out = tmp_path / "out"
    assert main(["compare", str(t), str(u), "--out", str(out), "--no-html", "--formats", "none", "-q",
                 "--no-cache", "--jobs", "1"]) == 0
    [party] = json.loads((out / "summary.json").read_text())["third_parties"]
    assert (party["name"], party["distribution"], party["version"], party["required_by"]) == (
        "thirdns", "thirdns.text", "3.1", "tgt-src")
    md = (out / "summary.md").read_text()
    row = next(line for line in md.splitlines() if line.startswith("| thirdns "))
    assert row.startswith("| thirdns (`thirdns.text`) |")
    assert "`--upstream pypi:thirdns.text==3.1`" in row and f"`{info}/METADATA`" in row
    assert "else the target's records of the target files sharing its lines" in md


def test_the_standard_library_is_advised_as_cpythons_lib_not_a_pypi_release() -> None:
    """Code set apart as the Python standard library's (a marker "copied from shutil.which") has
    no PyPI release to add: the step names CPython's ``Lib/`` as a folder upstream, not "the third
    party's release"; a requirement of that name (none is real) would still be taken as declared."""
    text = _text("Python standard library")
    assert text == ("add CPython's `Lib/` (a checkout of the version the marker names: no PyPI release holds the "
                    "standard library) as a further `--upstream` to count what vllm added to it")
    assert "--set origin_third_party_lines=1" in str(_text("Python standard library", knob=False))
    other = _text("jaraco")
    assert other is not None and other.startswith("add the third party's release as a further `--upstream`")
