"""Licences and copyrights as text: SPDX expressions (:mod:`expressions`, through
``license-expression``), licence notice texts (:mod:`notices`), the compatibility table
(:mod:`compat`), and each source's declared licence and licence files (:mod:`declared`, read
while the source is open, by :func:`lineage.index.index_tree`).

What copying obliges a target to do is a conclusion of a comparison, so it is computed above the
index, in :mod:`lineage.results.file_licences` (one Python file's licence, copyright lines and
modification notice) and :mod:`lineage.results.obligations` (the per-copied-file table). This
package reads no index.
"""

from lineage.licences.compat import Verdict, compatible
from lineage.licences.declared import SourceLicence, read_source_licence
from lineage.licences.licence_file import LicenceFile

__all__ = ["LicenceFile", "SourceLicence", "Verdict", "compatible", "read_source_licence"]
