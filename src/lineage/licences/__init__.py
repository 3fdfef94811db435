"""Licences and copyrights of both sides, and what copying obliges a target to do.

Stages: :mod:`declared` reads each source's declared licence and licence files while the source
is open; :mod:`files` reads one Python file's SPDX lines, copyright lines and licence notices
(with the rules of :mod:`notices`); :mod:`compat` is the compatibility table;
:mod:`obligations` builds the per-copied-file table from a comparison. Expressions go through
``license-expression`` (:mod:`expressions`).
"""

from lineage.licences.compat import Verdict, compatible
from lineage.licences.declared import LicenceFile, SourceLicence, read_source_licence
from lineage.licences.files import FileLicence, file_licence

__all__ = ["FileLicence", "LicenceFile", "SourceLicence", "Verdict", "compatible", "file_licence",
           "read_source_licence"]
