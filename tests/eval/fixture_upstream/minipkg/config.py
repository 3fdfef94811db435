"""Load layered settings from INI-like text, the environment and defaults."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from minipkg.tokenizer import tokenize

logger = logging.getLogger("minipkg.config")

DEFAULTS = {
    "cache_size": 128,
    "precision": 4,
    "verbose": False,
    "name": "minipkg",
}
ENV_PREFIX = "MINIPKG_"


class ConfigError(Exception):
    """The settings text could not be understood."""


class Config:
    """A read-only mapping of settings with typed accessors."""

    def __init__(self, values: dict[str, object] | None = None) -> None:
        self._values = dict(DEFAULTS)
        if values:
            self._values.update(values)

    def __getitem__(self, key: str) -> object:
        return self._values[key]

    def __contains__(self, key: object) -> bool:
        return key in self._values

    def get_int(self, key: str, default: int = 0) -> int:
        """Return the setting as an integer, or ``default`` when it is unset."""
        value = self._values.get(key, default)
        try:
            return int(value)  # type: ignore[arg-type]
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"{key} is not an integer: {value!r}") from exc

    def get_bool(self, key: str, default: bool = False) -> bool:
        """Return the setting as a boolean; yes/on/true/1 count as true."""
        value = self._values.get(key, default)
        if isinstance(value, bool):
            return value
        return str(value).strip().lower() in {"1", "yes", "on", "true"}

    def merged(self, other: dict[str, object]) -> Config:
        """Return a new config where ``other`` overrides these values."""
        combined = dict(self._values)
        combined.update(other)
        return Config(combined)

    def as_dict(self) -> dict[str, object]:
        return dict(self._values)


def parse_settings(text: str) -> dict[str, object]:
    """Parse ``key = value`` lines; ``#`` starts a comment, sections are ignored."""
    values: dict[str, object] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line or (line.startswith("[") and line.endswith("]")):
            continue
        tokens = tokenize(line)
        if len(tokens) < 3 or not tokens[1].is_operator("="):
            raise ConfigError(f"line {number}: expected 'key = value', got {raw!r}")
        key = tokens[0].text
        value_text = line.split("=", 1)[1].strip()
        values[key] = _coerce(value_text)
    return values


def _coerce(text: str) -> object:
    # Quoted values stay strings; bare numbers become ints or floats.
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def load_config(path: str | Path | None = None, environ: dict[str, str] | None = None) -> Config:
    """Build a :class:`Config` from defaults, an optional file and the environment."""
    values: dict[str, object] = {}
    if path is not None:
        file_path = Path(path)
        logger.debug("reading settings from %s", file_path)
        values.update(parse_settings(file_path.read_text(encoding="utf-8")))
    environ = os.environ if environ is None else environ
    for name, raw in sorted(environ.items()):
        if name.startswith(ENV_PREFIX):
            key = name[len(ENV_PREFIX) :].lower()
            values[key] = _coerce(raw)
    return Config(values)
