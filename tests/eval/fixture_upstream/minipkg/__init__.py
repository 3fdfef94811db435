"""minipkg: a small toolkit used as the offline upstream of the accuracy suite.

The modules are deliberately ordinary: a tokenizer, a config loader, an LRU
cache, some math helpers and a text formatter.
"""

from minipkg.cache import LRUCache
from minipkg.config import Config, load_config
from minipkg.mathutil import clamp, mean, median
from minipkg.tokenizer import Token, tokenize

__all__ = [
    "Config",
    "LRUCache",
    "Token",
    "clamp",
    "load_config",
    "mean",
    "median",
    "tokenize",
]

__version__ = "0.3.1"
