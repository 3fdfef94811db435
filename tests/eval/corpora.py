"""Fetch the pinned upstream corpora of ``corpora.toml`` into the cache.

Each corpus is a pure-Python wheel from PyPI.  It is downloaded once with
``pip download --no-deps --only-binary=:all: NAME==VERSION``, its sha256 is checked against
the pin, and its ``.py`` files are unpacked into ``<cache>/eval/corpora/NAME-VERSION/``.  The
cache is ``$LINEAGE_CACHE_DIR`` or ``~/.cache/lineage``.  Nothing fetched is ever committed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from lineage.errors import SourceError
from lineage.sources import open_source

CORPORA_FILE = Path(__file__).with_name("corpora.toml")
FIXTURE_UPSTREAM = Path(__file__).with_name("fixture_upstream")


class CorpusError(RuntimeError):
    """A corpus could not be fetched or did not match its pin."""


@dataclass(frozen=True)
class Corpus:
    name: str
    version: str
    filename: str
    sha256: str
    role: str = "positive"
    style: str = ""
    donor: str = ""

    @property
    def key(self) -> str:
        return f"{self.name}-{self.version}"


def cache_root() -> Path:
    """``$LINEAGE_CACHE_DIR`` or ``~/.cache/lineage``."""
    env = os.environ.get("LINEAGE_CACHE_DIR")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "lineage"


def eval_cache(root: Path | None = None) -> Path:
    return (root or cache_root()) / "eval"


def load_config(path: Path = CORPORA_FILE) -> tuple[dict[str, Corpus], tuple[str, str]]:
    """Corpora by name, and the negative control's (target, upstream) names."""
    data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    corpora = {}
    for entry in data.get("corpus", []):
        corpus = Corpus(**entry)
        corpora[corpus.name] = corpus
    negative = data.get("negative_control", {})
    pair = (negative.get("target", ""), negative.get("upstream", ""))
    for name in (*pair, *(c.donor for c in corpora.values() if c.donor)):
        if name and name not in corpora:
            raise CorpusError(f"{path}: {name!r} is referenced but not defined")
    return corpora, pair


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with Path(path).open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch_wheel(corpus: Corpus, cache: Path | None = None) -> Path:
    """The wheel file, fetched through lineage's own pinned PyPI source (``pip download``,
    checked against the sha256 pin, kept in the download cache under ``cache``)."""
    spec = f"pypi:{corpus.name}=={corpus.version}#sha256={corpus.sha256}"
    try:
        with open_source(spec, cache) as source:
            wheel = Path(source.info.location)
    except SourceError as exc:
        raise CorpusError(str(exc)) from None
    if wheel.name != corpus.filename:
        raise CorpusError(f"{corpus.name}=={corpus.version}: pip fetched {wheel.name}, the pin names {corpus.filename}")
    return wheel


def unpack_python(wheel: Path, dest: Path) -> Path:
    """Extract the ``.py`` files of a wheel (not its ``.dist-info``/``.data``) to ``dest``."""
    if (dest / ".complete").exists():
        return dest
    staging = Path(tempfile.mkdtemp(prefix=dest.name + ".", dir=dest.parent))
    try:
        with zipfile.ZipFile(wheel) as archive:
            for info in archive.infolist():
                name = PurePosixPath(info.filename)
                if info.is_dir() or name.suffix != ".py":
                    continue
                if name.is_absolute() or ".." in name.parts:
                    continue
                if any(part.endswith((".dist-info", ".data")) for part in name.parts):
                    continue
                out = staging.joinpath(*name.parts)
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(archive.read(info))
        (staging / ".complete").write_text(wheel.name + "\n")
        if dest.exists():
            shutil.rmtree(dest)
        staging.rename(dest)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return dest


def corpus_dir(corpus: Corpus, cache: Path | None = None) -> Path:
    """The unpacked tree of a corpus (fetching and unpacking it if needed)."""
    dest = eval_cache(cache) / "corpora" / corpus.key
    if (dest / ".complete").exists():
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    return unpack_python(fetch_wheel(corpus, cache), dest)


def main(argv: list[str] | None = None) -> int:
    """Fetch every corpus and print where it is."""
    import argparse

    parser = argparse.ArgumentParser(description="Fetch the accuracy-suite corpora.")
    parser.add_argument("--cache-dir", type=Path, default=None)
    args = parser.parse_args(argv)
    corpora, _ = load_config()
    for corpus in corpora.values():
        print(f"{corpus.key:24s} {corpus_dir(corpus, args.cache_dir)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
