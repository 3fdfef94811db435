"""The :class:`Comparison`: one comparison's tables and the conclusions drawn from them.

It is data with derived figures; it knows no output format. The reporters
(:mod:`lineage.report`) take it and render; :class:`lineage.api.Comparison` adds ``write`` and
``summary`` on top for callers of the API.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pandas as pd

from lineage.results import figures
from lineage.results.figures import Numbers

if TYPE_CHECKING:
    import pyarrow as pa

    from lineage.index import FileIndex, TreeIndex
    from lineage.match import MatchParams
    from lineage.match.renames import FolderVote
    from lineage.results.reuse import LinesTable, RowKeys
    from lineage.results.third_party import Party


@dataclass
class Comparison:
    """Everything one comparison produced: the tables, and what is needed to reproduce them.

    A rerun that reused the last run's rows (:mod:`lineage.results.reuse`) may hand the lines
    table over as ``lines_table``, with ``lines=None``: ``lines`` is then made from it when first
    read, and until then the figures and obligations read ``paired_lines``, its rows they
    select from (:func:`lineage.results.reuse.paired_rows`), and lines.csv its parts
    (:meth:`lines_rows`). Once ``lines`` was read, everything reads it, edits included."""

    target: TreeIndex
    upstreams: list[TreeIndex]
    params: MatchParams
    lines: pd.DataFrame
    files: pd.DataFrame
    functions: pd.DataFrame
    regions: pd.DataFrame
    upstream_names: list[str]
    timings: dict[str, float] = field(default_factory=dict)
    options: dict[str, object] = field(default_factory=dict)
    match_cache_hits: int = 0  # target files whose labels came from the match cache
    match_cache_misses: int = 0
    table_rows_reused: int = 0  # target files whose table rows came from the last run's (lineage.results.reuse)
    # upstream files that are third-party code or came from the target (lineage.match.origin)
    origins: pd.DataFrame = field(default_factory=pd.DataFrame)
    target_names: list[str] = field(default_factory=list)  # names that identify the target
    # which lines-table rows are whose, under which key (with the table cache; lineage.report.lines_csv)
    row_keys: RowKeys | None = None
    # pairs of folders enough target files voted for as a rename, learnt or not (summary.json
    # ``folder_renames``; lineage.match.renames.folder_votes)
    folder_votes: list[FolderVote] = field(default_factory=list)
    lines_table: LinesTable | None = field(default=None, repr=False, compare=False)
    paired_lines: pd.DataFrame | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.lines is None and self.lines_table is not None:
            del self.lines  # made on first read (__getattr__)

    def __getattr__(self, name: str) -> object:
        # only for attributes the instance lacks: ``lines`` before it is first read
        table = self.__dict__.get("lines_table")
        if name == "lines" and table is not None:
            from lineage.results.schema import typed

            self.lines = typed(table.frame(), "lines")
            return self.lines
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def _paired_or_lines(self) -> pd.DataFrame:
        """What the figures and obligations select their rows from: ``paired_lines`` while
        ``lines`` was never read (so nobody can have edited it), else ``lines``."""
        if self.paired_lines is not None and "lines" not in self.__dict__:
            return self.paired_lines
        return self.lines

    @property
    def n_line_rows(self) -> int:
        """Rows of the lines table, without reading it whole."""
        if "lines" not in self.__dict__ and self.lines_table is not None:
            return self.lines_table.num_rows
        return len(self.lines)

    def lines_rows(self) -> pa.Table | LinesTable:
        """The lines table as Arrow rows for lines.csv: the parts while it was never read, else
        the table converted (:func:`lineage.report.lines_csv.write_lines_csv` takes either)."""
        if "lines" not in self.__dict__ and self.lines_table is not None:
            return self.lines_table
        import pyarrow as pa

        return pa.Table.from_pandas(self.lines, preserve_index=False)

    @functools.cached_property
    def obligations(self) -> pd.DataFrame:
        """Per copied file: licences, copyright holders, notices kept or missing (lineage.licences).
        Made here, or by ``obligations_from`` when set (a report worker's, which takes the table
        its parent made: :func:`lineage.report._write_all`)."""
        made = self.__dict__.pop("obligations_from", None)
        if made is not None:
            return made()
        from lineage.match.origin import THIRD_PARTY, vendored_paths
        from lineage.results.obligations import build_obligations

        whole = self.origins[self.origins["first_line"].isna()] if len(self.origins) else self.origins
        not_own: dict[str, set[str]] = {}
        # of them, another project's code by its place (a vendored folder or a vendoring record: no
        # marker line), by that project's name; a file whose header says it was adapted from
        # another project is the upstream's adaptation, under the upstream's licence (vLLM's
        # mimo_audio.py, "Ported from SGLang's mimo_audio.py", whose header names MiMo-Audio-Tokenizer)
        third_party: dict[str, dict[str, str]] = {}
        for upstream, path, origin, name, line in zip(
                whole.get("upstream", []), whole.get("upstream_path", []), whole.get("origin", []),
                whole.get("name", []), whole.get("line", []), strict=True):
            not_own.setdefault(str(upstream), set()).add(str(path))
            if origin == THIRD_PARTY and pd.isna(line):
                third_party.setdefault(str(upstream), {})[str(path)] = str(name) or "another project"
        return build_obligations(self.target, self.upstreams, self.upstream_names, self._paired_or_lines, self.files,
                                 self.params.licence_head_lines,
                                 release_holder_files=self.params.licence_release_holder_files, not_own=not_own,
                                 target_not_own=vendored_paths(self.target.files, self.params.vendor_folder_names),
                                 third_party=third_party, own_organisations=self.own_organisations)

    @functools.cached_property
    def own_organisations(self) -> dict[str, str]:
        """Per upstream label, the organisation holding both the target's copyright and (by its
        own account) that upstream's files (:func:`lineage.results.obligations.own_organisation`;
        "" for none): read by the obligations table and by summary.md's sentence about it."""
        from lineage.results.obligations import own_organisation

        return {label: own_organisation(self.target, tree)
                for label, tree in zip(self.upstream_names, self.upstreams, strict=True)}

    @functools.cached_property
    def own_projects(self) -> dict[str, str]:
        """Per upstream label, why that upstream is a release of the target's own project
        (:func:`lineage.index.project.one_project_evidence`; "" when it is not): read by
        summary.json's ``own_project``, summary.md, obligations.md, ATTRIBUTION.md and SARIF."""
        from lineage.index.project import one_project_evidence

        return {label: one_project_evidence(self.target.project, tree.project)
                for label, tree in zip(self.upstream_names, self.upstreams, strict=True)}

    def headline(self) -> list[str]:
        return figures.headline(self.files, self.upstream_names)

    @property
    def groups(self) -> dict[str, pd.DataFrame]:
        """The review lists as rows of the files table (:func:`lineage.results.figures.review_groups`)."""
        return figures.review_groups(self.files)

    @property
    def lists(self) -> dict[str, list[str]]:
        """The review lists as sorted target paths."""
        return figures.review_lists(self.groups)

    @property
    def file_counts(self) -> dict[str, int]:
        return figures.file_counts(self.files, self.groups)

    @property
    def numbers(self) -> dict[str, Numbers]:
        """Line counts of all, marked and unmarked files."""
        return figures.file_numbers(self.files, self.groups)

    @property
    def per_upstream(self) -> dict[str, dict[str, int]]:
        return figures.per_upstream(self._paired_or_lines)

    @property
    def vendored(self) -> list[dict[str, object]]:
        """Per vendoring record that marks files: its pin, the release compared, the copied code
        (:func:`lineage.results.figures.vendored_copies`)."""
        versions = {label: str(u.info.details.get("version", "") or u.info.details.get("commit", ""))
                    for u, label in zip(self.upstreams, self.upstream_names, strict=True)}
        return figures.vendored_copies(self.files, versions)

    @property
    def vendored_not_compared(self) -> list[dict[str, object]]:
        """Per vendoring record of the target that marks no file here: the files it speaks for
        and the ``--upstream`` that would compare them
        (:func:`lineage.results.figures.vendored_not_compared`)."""
        return figures.vendored_not_compared(self.target.vendoring, self.files)

    @property
    def shared(self) -> dict[str, object]:
        return figures.shared_figures(self.files, self._paired_or_lines)

    @property
    def declared_reuse(self) -> list[dict[str, object]]:
        """The sentences of the target's description (its metadata's, else its README) that state
        reuse from an upstream and name it (:mod:`lineage.markers.description`), per upstream in
        the run's order: ``upstream``, ``path``, ``line``, ``kind``, ``text``. A name the target
        carries too names neither (a release compared with an older one of itself), save the
        distribution name of an upstream of another project (:func:`forked_distribution_names`)."""
        from lineage.index.project import stated_reuse

        out: list[dict[str, object]] = []
        for tree, label in zip(self.upstreams, self.upstream_names, strict=True):
            out += [{"upstream": label, "path": s.path, "line": s.line, "kind": s.kind, "text": s.text}
                    for s in stated_reuse(self.target.project, self.target_names, tree.project, tree.info.label)]
        return out

    @property
    def declared_reuse_from_target(self) -> list[dict[str, object]]:
        """The sentences of an upstream's description that state reuse and name the target
        (:mod:`lineage.markers.description`), per upstream in the run's order, as
        :attr:`declared_reuse`: the code may have gone from the target to that upstream
        (aioredis 2.0.1: "Port redis-py's client implementation to aioredis", against redis 5.2.0,
        whose sync client files read as copied from aioredis). A name the upstream carries too
        names neither."""
        from lineage.markers.description import statements_naming

        target = ({n.lower() for n in self.target_names} | self.target.project.names(authors=False)
                  | {self.target.info.label.lower()})
        out: list[dict[str, object]] = []
        for tree, label in zip(self.upstreams, self.upstream_names, strict=True):
            names = target - tree.project.names() - {label.lower()}
            out += [{"upstream": label, "path": s.path, "line": s.line, "kind": s.kind, "text": s.text}
                    for s in statements_naming(tree.project.reuse, names)]
        return out

    def third_parties(self, shared: dict[str, object] | None = None) -> list[Party]:
        """Per third party whose lines were set apart: its counts and the next step
        (:mod:`lineage.results.third_party`); ``shared``: :attr:`shared`, when the caller has it."""
        from lineage.index.project import upstream_names
        from lineage.results import third_party

        shared = shared if shared is not None else self.shared
        by_name = shared["third_party"].get("by_name", {})  # type: ignore[index]
        if not by_name:
            return []
        lines = self._paired_or_lines
        rows = figures.rows_where(lines, lines["shared_origin"].str.startswith("third_party:"),
                                  ["shared_origin", "shared_path"]).drop_duplicates()
        pairs = [(str(o).split(":", 1)[1], str(p)) for o, p in zip(rows["shared_origin"], rows["shared_path"],
                                                                    strict=True)]
        held = self.origins[self.origins["origin"] == "third_party"] if len(self.origins) else self.origins
        origins = [(str(u), str(p), str(n)) for u, p, n in zip(held.get("upstream", []), held.get("upstream_path", []),
                                                               held.get("name", []), strict=True)]
        through = third_party.through_upstreams(pairs, origins, self.upstream_names)

        def declared(tree: TreeIndex, label: str) -> third_party.Declared:
            version = str(tree.info.details.get("version", "") or "")
            pins = tuple((r.name, r.version, r.source) for r in tree.vendoring if r.version)
            return third_party.Declared(label, version, tree.project.requires, pins)

        return third_party.third_parties(
            by_name, through,
            [(label, upstream_names(u)) for u, label in zip(self.upstreams, self.upstream_names, strict=True)],
            [declared(u, label) for u, label in zip(self.upstreams, self.upstream_names, strict=True)],
            declared(self.target, self.target.info.label), bool(self.params.origin_third_party_lines),
            self._marker_modules(held), self._covering_records(lines))

    def _marker_modules(self, held: pd.DataFrame) -> dict[str, tuple[str, ...]]:
        """Per third party, the dotted packages its origin markers read as their source, without a
        URL (``jaraco.text`` for pip's "Functions brought over from jaraco.text."): ``held``, the
        third-party rows of :attr:`origins`, names each marker's upstream file and line."""
        from lineage.results.third_party import marker_module

        trees = dict(zip(self.upstream_names, self.upstreams, strict=True))
        files: dict[str, dict[str, FileIndex]] = {}
        out: dict[str, set[str]] = {}
        for upstream, path, name, line in zip(held.get("upstream", []), held.get("upstream_path", []),
                                              held.get("name", []), held.get("line", []), strict=True):
            if pd.isna(line) or str(upstream) not in trees:
                continue  # a folder's or a record's origin: no marker
            if str(upstream) not in files:
                files[str(upstream)] = {f.path: f for f in trees[str(upstream)].files}
            f = files[str(upstream)].get(str(path))
            for m in f.markers if f is not None else ():
                module = marker_module(m, str(name)) if m.line == int(line) else ""
                if module:
                    out.setdefault(str(name), set()).add(module)
        return {name: tuple(sorted(found)) for name, found in out.items()}

    def _covering_records(self, lines: pd.DataFrame) -> dict[str, tuple[tuple[str, str, str], ...]]:
        """Per third party, the pins (name, version, source) of the target's vendoring records that
        speak for a target file sharing its lines (:func:`lineage.index.vendoring.records_covering`)."""
        from lineage.index.vendoring import records_covering

        records = [r for r in self.target.vendoring if r.version]
        if not records:
            return {}
        rows = figures.rows_where(lines, lines["shared_origin"].str.startswith("third_party:"),
                                  ["shared_origin", "target_path"]).drop_duplicates()
        paths: dict[str, set[str]] = {}
        for origin, path in zip(rows["shared_origin"], rows["target_path"], strict=True):
            paths.setdefault(str(origin).split(":", 1)[1], set()).add(str(path))
        return {name: tuple((r.name, r.version, r.source) for r in records_covering(records, sorted(found)))
                for name, found in paths.items()}
