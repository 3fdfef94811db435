"""A small generator of synthetic upstream and target trees whose provenance is known exactly.

Upstream modules are made of our own functions and classes with distinctive bodies: every
identifier, string and number is drawn from a seeded ``random.Random``, so the same seed always
gives the same code, and different lines almost never share text by chance.

A target file is a list of :class:`TLine` (text plus the upstream line it came from, or None for
a line of our own). Mutations (rename, edit literals, insert, dedent, re-wrap, reorder, split,
merge) transform such lists and keep the origins right, so :func:`expected` can tell for every
target line what a correct analyser must say: ``verbatim`` when the stripped text equals the
stripped text of its origin line, ``near`` when it has an origin but was edited, ``none``
otherwise (and for every blank line).
"""

from __future__ import annotations

import keyword
import random
import re
import textwrap
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

_SYLLABLES = ("ka", "zu", "mor", "tel", "vin", "qua", "rix", "bo", "lem", "xan", "ful", "dri",
              "sop", "gan", "wex", "ny", "pol", "hur", "jas", "cet", "ob", "tri", "mag", "vek")
_WORDS = ("amber", "lattice", "quorum", "meridian", "cobalt", "fathom", "tundra", "saffron",
          "vortex", "ember", "glacier", "harbor", "juniper", "kelp", "lumen", "marble", "nectar",
          "opal", "prism", "quill", "ripple", "sable", "thistle", "umber", "velvet", "willow")


class Names:
    """Fresh, unique, random identifiers (never keywords or builtins-looking short words)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def ident(self, parts: int = 3) -> str:
        while True:
            name = "".join(self.rng.choice(_SYLLABLES) for _ in range(parts))
            if name not in self.used and not keyword.iskeyword(name) and len(name) > 4:
                self.used.add(name)
                return name

    def cap(self) -> str:
        return self.ident(3).capitalize() + self.ident(2).capitalize()

    def number(self) -> int:
        return self.rng.randint(11, 9999)

    def word(self) -> str:
        return self.rng.choice(_WORDS) + "_" + self.ident(2)

    def sentence(self) -> str:
        words = [self.rng.choice(_WORDS) for _ in range(self.rng.randint(5, 8))]
        return (" ".join(words) + " " + self.ident(2)).capitalize() + "."


@dataclass
class Def:
    """A definition in an upstream module: 0-based half-open span of its lines."""

    name: str
    kind: str  # "function" | "class"
    start: int
    end: int
    methods: list[Def] = field(default_factory=list)


@dataclass
class UpModule:
    path: str  # POSIX path inside the upstream root
    lines: list[str]
    defs: list[Def]  # top-level, in order
    header_end: int  # lines[:header_end] are docstring, imports and constants
    calls: list[int] = field(default_factory=list)  # 0-based rows of one-line calls (re-wrappable)


@dataclass(frozen=True)
class TLine:
    text: str
    origin: tuple[str, int] | None = None  # (upstream path, 1-based line)


@dataclass(frozen=True)
class Expect:
    label: str  # verbatim | near | none
    upstream_path: str
    upstream_line: int  # 0 when none


def _statements(n: Names, params: list[str], helpers: Sequence[str], pkg: str, mods: Sequence[str],
                shape: random.Random | None = None) -> tuple[list[str], list[int]]:
    """A function body (unindented lines) and the indices of its one-line calls.

    ``shape`` picks which statements appear (default: the names' generator); two functions made
    with equally seeded shapes have the same statements in the same order, with other names.
    """
    rng = n.rng
    a, b, c = params
    v = [n.ident() for _ in range(5)]
    k, i, item = n.ident(), n.ident(), n.ident()
    helper = rng.choice(helpers) if helpers else n.ident()
    mod = rng.choice(mods) if mods else n.ident()
    pool = [
        [f"{v[0]} = {a} * {n.number()} + {b} - {n.number()}"],
        [f"{v[1]} = [{v[0]} + {k} * {n.number()} for {k} in range({n.number()})]"],
        [f"if {c} is not None:",
         f"    {v[1]}.append({helper}({c}, \"{n.word()}\"))"],
        [f"{v[2]} = {{\"{n.word()}\": {v[0]}, \"{n.word()}\": len({v[1]})}}"],
        [f"for {i}, {item} in enumerate({v[1]}):",
         f"    {v[2]}[\"{n.word()}_\" + str({i})] = {item} - {n.number()}"],
        ["#CALL#" + f"{v[3]} = {pkg}.{mod}.{helper}({a}, {b}, {n.ident()}=\"{n.word()}\", "
         f"{n.ident()}={n.number()})"],
        [f"{v[4]} = sorted({v[2]}.items(), key=lambda {k}: ({k}[1], \"{n.word()}\"))"],
        [f"while {v[0]} > {n.number()} and {b} is not None:",
         f"    {v[0]} = {v[0]} // {n.number()} + len(\"{n.word()}\")"],
        [f"assert {a} is not {b}, \"{n.sentence()}\""],
    ]
    # the first four define names used later; keep them, then add a random choice of the rest
    picker = shape or rng
    chosen = pool[:4] + picker.sample(pool[4:], picker.randint(2, len(pool) - 4))
    body: list[str] = []
    calls: list[int] = []
    for group in chosen:
        for line in group:
            if line.startswith("#CALL#"):
                calls.append(len(body))
                line = line[len("#CALL#"):]
            body.append(line)
    body.append(f"return {v[2]}, {v[0]}")
    return body, calls


def gen_function(n: Names, name: str, indent: str, method: bool, helpers: Sequence[str], pkg: str,
                 mods: Sequence[str], shape: random.Random | None = None) -> tuple[list[str], list[int]]:
    params = [n.ident() for _ in range(3)]
    head = ["self"] if method else []
    lines = [f"{indent}def {name}({', '.join(head + params[:2])}, {params[2]}=None):",
             f'{indent}    """{n.sentence()}"""']
    body, calls = _statements(n, params, helpers, pkg, mods, shape)
    calls = [len(lines) + k for k in calls]
    lines += [f"{indent}    {line}" for line in body]
    return lines, calls


def gen_module(n: Names, pkg: str, mod: str, others: Sequence[str], n_functions: int = 4,
               n_classes: int = 1, same_shape: bool = False) -> UpModule:
    """One upstream module ``{pkg}/{mod}.py`` with functions and classes of its own.

    With ``same_shape`` every function has the same statements (with other names and literals),
    like the many near-identical methods of real code.
    """
    rng = n.rng
    other = rng.choice(others) if others else mod
    imported = n.ident()
    lines = [f'"""{n.sentence()}"""', "", "from __future__ import annotations", "",
             f"import {pkg}.{other}", f"from {pkg}.{other} import {imported}", "",
             f"{n.ident().upper()} = {n.number()}", "", ""]
    header_end = len(lines)
    defs: list[Def] = []
    calls: list[int] = []
    names = [n.ident() for _ in range(n_functions)]
    helpers = [*names, imported]
    kinds = ["function"] * n_functions + ["class"] * n_classes
    rng.shuffle(kinds)
    fn_iter = iter(names)
    for kind in kinds:
        start = len(lines)
        if kind == "function":
            name = next(fn_iter)
            shape = random.Random(mod) if same_shape else None
            body, body_calls = gen_function(n, name, "", False, helpers, pkg, [other, mod], shape)
            calls += [start + k for k in body_calls]
            lines += body
            defs.append(Def(name, "function", start, len(lines)))
        else:
            name = n.cap()
            f1, f2, a, b = n.ident(), n.ident(), n.ident(), n.ident()
            lines += [f"class {name}:", f'    """{n.sentence()}"""', "",
                      f"    def __init__(self, {a}, {b}):",
                      f"        self.{f1} = {a}",
                      f"        self.{f2} = [{b}, {n.number()}, \"{n.word()}\"]"]
            methods = [Def("__init__", "function", start + 3, len(lines))]
            for _ in range(2):
                lines.append("")
                m_start = len(lines)
                m_name = n.ident()
                body, body_calls = gen_function(n, m_name, "    ", True, helpers, pkg, [other, mod])
                calls += [m_start + k for k in body_calls]
                lines += body
                methods.append(Def(m_name, "function", m_start, len(lines)))
            defs.append(Def(name, "class", start, len(lines), methods))
        lines += ["", ""]
    while lines and lines[-1] == "":
        lines.pop()
    return UpModule(f"{pkg}/{mod}.py", lines, defs, header_end, calls)


@dataclass
class Upstream:
    pkg: str
    modules: dict[str, UpModule]  # path -> module

    def files(self) -> dict[str, str]:
        out = {m.path: "\n".join(m.lines) + "\n" for m in self.modules.values()}
        out[f"{self.pkg}/__init__.py"] = f'"""The {self.pkg} package."""\n'
        return out

    def module(self, k: int) -> UpModule:
        return list(self.modules.values())[k]


def gen_upstream(seed: int, n_modules: int = 3, n_functions: int = 4, n_classes: int = 1,
                 pkg: str | None = None, same_shape: bool = False) -> Upstream:
    rng = random.Random(seed)
    n = Names(rng)
    pkg = pkg or n.ident(2) + "lib"
    mods = [n.ident(2) for _ in range(n_modules)]
    modules = {}
    for mod in mods:
        m = gen_module(n, pkg, mod, [x for x in mods if x != mod], n_functions, n_classes, same_shape)
        modules[m.path] = m
    return Upstream(pkg, modules)


# ---------------------------------------------------------------------------------------------
# Target files: lists of TLine, and mutations on them
# ---------------------------------------------------------------------------------------------


def copy_lines(m: UpModule, start: int = 0, end: int | None = None) -> list[TLine]:
    end = len(m.lines) if end is None else end
    return [TLine(m.lines[k], (m.path, k + 1)) for k in range(start, end)]


def copy_module(m: UpModule) -> list[TLine]:
    return copy_lines(m)


def copy_def(m: UpModule, d: Def) -> list[TLine]:
    return copy_lines(m, d.start, d.end)


def new_lines(texts: Iterable[str]) -> list[TLine]:
    return [TLine(t) for t in texts]


def own_code(n: Names, n_functions: int = 2) -> list[TLine]:
    """Functions of our own (no origin), in a style unlike the upstream's (other statement shapes),
    so that not even their abstract forms (names and literals abstracted) agree with upstream code.
    """
    out: list[TLine] = []
    for _ in range(n_functions):
        fn, path, fh, err, acc, key, row = (n.ident() for _ in range(7))
        body = [
            f"def {fn}({path}, *{row}s, **{key}s):",
            f"    {acc}: list[str] = []",
            "    try:",
            f"        with open({path}, encoding=\"{n.word()}\") as {fh}:",
            f"            {acc}.extend({fh}.read().split(\"{n.word()}\"))",
            f"    except OSError as {err}:",
            f"        raise RuntimeError(f\"{n.word()} {{{path}}}: {{{err}}}\") from {err}",
            f"    {key}s.setdefault(\"{n.word()}\", tuple({row}s)[:{n.number()}:{n.number()}])",
            f"    yield from ({row}.upper() for {row} in {acc} if {row} and not {row}.isspace())",
        ]
        out += new_lines(body) + new_lines(["", ""])
    return out


def replace_word(lines: list[TLine], old: str, new: str) -> list[TLine]:
    """Rename an identifier (whole word) everywhere; origins are kept."""
    pattern = re.compile(rf"(?<![\w]){re.escape(old)}(?![\w])")
    return [TLine(pattern.sub(new, t.text), t.origin) for t in lines]


_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")
_STRING = re.compile(r'"([a-z]+_[a-z]+)"')


def edit_literals(lines: list[TLine], rng: random.Random, share: float = 0.5) -> list[TLine]:
    """Change numbers and short strings on about ``share`` of the lines that have them."""
    out = []
    for t in lines:
        text = t.text
        if rng.random() < share:
            text = _NUMBER.sub(lambda m: str(int(m.group()) + rng.randint(1, 50)), text)
            text = _STRING.sub(lambda m: f'"{m.group(1)}x"', text)
        out.append(TLine(text, t.origin))
    return out


def insert_after(lines: list[TLine], index: int, texts: Sequence[str], indent_like: int | None = None
                 ) -> list[TLine]:
    """Insert lines of our own after ``lines[index]``, indented like line ``indent_like``."""
    ref = lines[index if indent_like is None else indent_like].text
    pad = ref[: len(ref) - len(ref.lstrip())]
    return lines[: index + 1] + [TLine(pad + t) for t in texts] + lines[index + 1 :]


def dedent(lines: list[TLine], by: int = 4) -> list[TLine]:
    return [TLine(t.text[by:] if t.text.startswith(" " * by) else t.text, t.origin) for t in lines]


def explode_call(line: TLine) -> list[TLine]:
    """``x = f(a, b, k=v)`` -> one argument per line; every piece keeps the call's origin."""
    text = line.text
    pad = text[: len(text) - len(text.lstrip())]
    head, _, rest = text.partition("(")
    args = rest.rstrip()[:-1].split(", ")
    out = [TLine(head + "(", line.origin)]
    out += [TLine(f"{pad}    {a},", line.origin) for a in args]
    out.append(TLine(pad + ")", line.origin))
    return out


def rewrap_calls(lines: list[TLine], rows: set[tuple[str, int]]) -> list[TLine]:
    out: list[TLine] = []
    for t in lines:
        out += explode_call(t) if t.origin in rows else [t]
    return out


def render(lines: Sequence[TLine]) -> str:
    return "".join(t.text + "\n" for t in lines)


def expected(lines: Sequence[TLine], upstream_files: dict[str, str]) -> list[Expect]:
    """What a correct analyser says about each target line."""
    split = {p: text.splitlines() for p, text in upstream_files.items()}
    out = []
    for t in lines:
        if t.origin is None or not t.text.strip():
            out.append(Expect("none", "", 0))
            continue
        path, line = t.origin
        same = t.text.strip() == split[path][line - 1].strip()
        out.append(Expect("verbatim" if same else "near", path, line))
    return out


def distinctive_functions(seed: int, n: int = 6) -> str:
    """``n`` small functions whose every line is evidence, none an idiom (names and numbers carry
    ``seed``): a module to copy whole or in part when a test needs copied code and nothing else."""
    return "\n".join(
        f"def transform_{seed}_{k}(value_{k}, scale_{seed}=0.{k}{seed}):\n"
        f"    intermediate_{k} = value_{k} * scale_{seed} + {k * 17 + seed}\n"
        f"    return intermediate_{k} - len(str(intermediate_{k})) // {k + 3}\n"
        for k in range(n)) + "\n"


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write ``{posix path: text or bytes}`` under ``root``; return root."""
    for path, content in files.items():
        full = root.joinpath(*path.split("/"))
        full.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            full.write_bytes(content)
        else:
            full.write_text(content, encoding="utf-8")
    return root


def dedent_src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def write_wheel(folder: Path, metadata: str, dist_info: dict[str, str] | None = None,
                files: dict[str, str] | None = None, name: str = "pkg", version: str = "1.0") -> Path:
    """A wheel ``<name>-<version>-py3-none-any.whl`` in ``folder``: ``metadata`` as its METADATA,
    ``dist_info`` as further files of its dist-info folder, and ``files`` (by default one
    ``<name>/__init__.py``)."""
    wheel = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr(f"{name}-{version}.dist-info/METADATA", metadata)
        for path, text in (dist_info or {}).items():
            z.writestr(f"{name}-{version}.dist-info/{path}", text)
        for path, text in (files or {f"{name}/__init__.py": "x = 1\n"}).items():
            z.writestr(path, text)
    return wheel
