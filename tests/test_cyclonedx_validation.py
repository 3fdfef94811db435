"""The CycloneDX writer's validation with remembered occurrences (lineage.report.cyclonedx.validation_error):
the same answer as the whole document's validation, invalid BOMs still refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cyclonedx.output.json import JsonV1Dot6
from cyclonedx.schema import SchemaVersion
from cyclonedx.validation.json import JsonStrictValidator

from lineage.report import cyclonedx
from lineage.report.cyclonedx import cyclonedx_bom, validation_error

BODY = "".join(f"def helper_{k}(value):\n    total = value * {k} + {k * 7}\n    return total - {k}\n\n\n"
               for k in range(12))


@pytest.fixture
def bom_text(run_compare) -> str:
    target = {"tgt/a.py": BODY, "tgt/b.py": "# Adapted from up.mod\n" + BODY, "tgt/own.py": "x = 1\n"}
    comparison = run_compare(target, [("up", {"up/mod.py": BODY})])
    text = JsonV1Dot6(cyclonedx_bom(comparison)).output_as_string(indent=2)
    assert len(_occurrences(json.loads(text))) == 2
    return text


def _occurrences(bom: dict) -> list[dict]:
    return bom["metadata"]["component"]["pedigree"]["ancestors"][0]["evidence"]["occurrences"]


def _edited(text: str, edit) -> str:
    bom = json.loads(text)
    edit(bom)
    return json.dumps(bom, indent=2)


def _validated(monkeypatch) -> list[dict]:
    """The documents the library's validator is given, parsed."""
    seen: list[dict] = []
    real = cyclonedx._validator()

    class Spy:
        def validate_str(self, data: str):
            seen.append(json.loads(data))
            return real.validate_str(data)

    monkeypatch.setattr(cyclonedx, "_validator", lambda: Spy())
    return seen


def test_remembered_occurrences_are_left_out_and_the_rest_validated(bom_text: str, tmp_path: Path,
                                                                      monkeypatch) -> None:
    cache = tmp_path / "cache"
    seen = _validated(monkeypatch)
    assert validation_error(bom_text, cache) is None  # nothing remembered: the whole BOM
    assert seen[-1] == json.loads(bom_text)
    assert validation_error(bom_text, cache) is None
    assert _occurrences(seen[-1]) == [] and seen[-1]["serialNumber"] == json.loads(bom_text)["serialNumber"]
    one_more = _edited(bom_text, lambda b: _occurrences(b).append(
        {"bom-ref": "upstream-1-region-000009", "location": "tgt/new.py", "line": 3}))
    assert validation_error(one_more, cache) is None
    assert _occurrences(seen[-1]) == [{"bom-ref": "upstream-1-region-000009", "location": "tgt/new.py", "line": 3}]


@pytest.mark.parametrize("damage", ["negative line", "extra property", "serial number", "top-level property"])
def test_invalid_boms_are_refused_with_occurrences_remembered(bom_text: str, tmp_path: Path, damage: str) -> None:
    cache = tmp_path / "cache"
    assert validation_error(bom_text, cache) is None  # every occurrence of it remembered
    edits = {
        "negative line": lambda b: _occurrences(b)[0].update(line=-1),
        "extra property": lambda b: _occurrences(b)[1].update(colour="red"),  # additionalProperties: false
        "serial number": lambda b: b.update(serialNumber="not-a-urn"),
        "top-level property": lambda b: b.update(lineage=True),
    }
    bad = _edited(bom_text, edits[damage])
    strict = JsonStrictValidator(SchemaVersion.V1_6)
    assert strict.validate_str(bad) is not None  # the whole document's validation refuses it
    assert validation_error(bad, cache) is not None
    assert validation_error(bad) is not None
    assert validation_error(bad, cache) is not None  # an invalid BOM remembers nothing


def test_a_damaged_memo_is_dropped(bom_text: str, tmp_path: Path, monkeypatch) -> None:
    cache = tmp_path / "cache"
    assert validation_error(bom_text, cache) is None
    (entry,) = (cache / "elements-v1" / "cyclonedx-valid").rglob("*.rec")
    entry.write_bytes(entry.read_bytes()[:-3])
    seen = _validated(monkeypatch)
    assert validation_error(bom_text, cache) is None
    assert seen[-1] == json.loads(bom_text)  # validated whole
    assert entry.is_file()  # and remembered again


def test_the_reporter_remembers_only_with_a_cache(run_compare, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # the same timestamp in both BOMs
    target = {"tgt/a.py": BODY}
    comparison = run_compare(target, [("up", {"up/mod.py": BODY})])
    comparison.write(tmp_path / "plain", html=False, formats=["cyclonedx"])
    assert not list(tmp_path.rglob("elements-v1"))
    comparison.write(tmp_path / "cached", html=False, formats=["cyclonedx"], csv_cache=tmp_path / "cache")
    assert list((tmp_path / "cache" / "elements-v1" / "cyclonedx-valid").rglob("*.rec"))
    name = "lineage.cdx.json"
    assert (tmp_path / "plain" / name).read_bytes() == (tmp_path / "cached" / name).read_bytes()


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_rerun_with_remembered_occurrences_writes_the_reports_of_a_run_without_cache(
        tmp_path: Path, monkeypatch, jobs: int) -> None:
    """The changed-file rerun (every cache on, the BOM's occurrences remembered by the first run)
    writes every report file byte for byte as a run without any cache; with one process the
    rerun's validation is seen to leave the remembered occurrences out."""
    from lineage.compare_and_write import compare_and_write
    from lineage.settings import RunSettings
    from tests.test_table_reuse import MAX_BYTES, _append, _reports, _trees

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    target, upstream = _trees(tmp_path)
    cache = tmp_path / "cache"

    def run(out: str, where: Path, use_cache: bool = True) -> None:
        settings = RunSettings(cache_dir=where, jobs=jobs, use_cache=use_cache, max_file_bytes=MAX_BYTES)
        compare_and_write(str(target), [str(upstream)], tmp_path / out, settings=settings, html=False)

    run("first", cache)
    seen = _validated(monkeypatch)
    for number, path in enumerate(["app/mixed.py", "app/copied.py"]):
        _append(path, f"\n# one more line {number}\n")(target, upstream)
        run(f"warm{number}", cache)
        run(f"plain{number}", tmp_path / f"none{number}", use_cache=False)
        warm, plain = _reports(tmp_path / f"warm{number}"), _reports(tmp_path / f"plain{number}")
        assert set(warm) == set(plain) and "lineage.cdx.json" in warm
        for file in plain:
            assert warm[file] == plain[file], (number, file)
    if jobs == 1:  # warm0, plain0, warm1, plain1: the warm runs validated no remembered occurrence
        whole = [len(_occurrences(json.loads((tmp_path / f"plain{n}" / "lineage.cdx.json").read_text())))
                 for n in (0, 1)]
        assert [len(_occurrences(doc)) for doc in seen] == [0, whole[0], 0, whole[1]] and min(whole) > 0


@pytest.mark.parametrize("malformed", [[], {"metadata": []}, {"metadata": {"component": {"pedigree": {
    "ancestors": [1, {"evidence": []}, {"evidence": {"occurrences": {}}}]}}}}])
def test_a_malformed_bom_is_refused_not_a_crash(tmp_path: Path, malformed) -> None:
    assert validation_error(json.dumps(malformed), tmp_path / "cache") is not None


def test_a_rerun_makes_only_the_occurrences_it_has_not_kept(tmp_path: Path, monkeypatch) -> None:
    """After every edit, a rerun makes the library's objects only of the occurrences whose JSON
    no run kept (and the first of each upstream), and writes the BOM of a run without any cache."""
    from lineage.compare_and_write import compare_and_write
    from lineage.settings import RunSettings
    from tests.test_table_reuse import EDITS, MAX_BYTES, _reports, _trees

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    made: list[str] = []
    real = cyclonedx.Occurrence

    def counting(**fields):
        made.append(fields["bom_ref"])
        return real(**fields)

    monkeypatch.setattr(cyclonedx, "Occurrence", counting)
    target, upstream = _trees(tmp_path)
    cache = tmp_path / "cache"

    def run(out: str, where: Path, use_cache: bool = True) -> list[dict]:
        settings = RunSettings(cache_dir=where, jobs=1, use_cache=use_cache, max_file_bytes=MAX_BYTES)
        compare_and_write(str(target), [str(upstream)], tmp_path / out, settings=settings, html=False)
        return _occurrences(json.loads((tmp_path / out / "lineage.cdx.json").read_text()))

    run("first", cache)
    fewer = 0
    for number, (name, edit, _) in enumerate(EDITS):
        edit(target, upstream)
        plain = run(f"plain{number}", tmp_path / f"none{number}", use_cache=False)
        made.clear()
        run(f"warm{number}", cache)
        assert _reports(tmp_path / f"warm{number}") == _reports(tmp_path / f"plain{number}"), name
        assert made and made[0].endswith("-000001") and len(made) <= len(plain), name
        fewer += len(made) < len(plain)
    assert fewer >= len(EDITS) - 2  # a few edits make every occurrence afresh (a new context)
