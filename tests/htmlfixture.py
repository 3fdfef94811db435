"""A small comparison for the HTML report's tests: a copied file with edits, a file whose name
and code hold ``<script>``, a marked file without copies, and long unchanged stretches."""

from __future__ import annotations

from pathlib import Path

import treegen

from lineage.api import Comparison, compare
from lineage.match import MatchParams
from lineage.settings import RunSettings

# What an injected script would set if it ever ran.
PWNED = "window.__lineage_pwned = 1"
EVIL_NAME = "app/x<script>" + PWNED + "</script>.py"

UPSTREAM_SCHEDULER = '''\
"""A toy scheduler, the upstream's."""

import heapq
from dataclasses import dataclass, field


@dataclass(order=True)
class Request:
    priority: int
    arrival: float
    request_id: str = field(compare=False)
    prompt_tokens: list[int] = field(default_factory=list, compare=False)


class Scheduler:
    """Orders waiting requests by priority, then by arrival time."""

    def __init__(self, max_batch_tokens: int = 8192, max_waiting: int = 1024) -> None:
        self.max_batch_tokens = max_batch_tokens
        self.max_waiting = max_waiting
        self.waiting: list[Request] = []
        self.running: dict[str, Request] = {}

    def add(self, request: Request) -> None:
        if len(self.waiting) >= self.max_waiting:
            raise RuntimeError(f"queue full: {len(self.waiting)} requests are waiting")
        heapq.heappush(self.waiting, request)

    def schedule(self) -> list[Request]:
        """Take requests while their prompts fit in the token budget."""
        batch: list[Request] = []
        budget = self.max_batch_tokens
        while self.waiting and len(self.waiting[0].prompt_tokens) <= budget:
            request = heapq.heappop(self.waiting)
            budget -= len(request.prompt_tokens)
            self.running[request.request_id] = request
            batch.append(request)
        return batch

    def finish(self, request_id: str) -> Request:
        return self.running.pop(request_id)

    def abort(self, request_id: str) -> bool:
        """Drop a request wherever it is; True when it was found."""
        if self.running.pop(request_id, None) is not None:
            return True
        for k, request in enumerate(self.waiting):
            if request.request_id == request_id:
                self.waiting.pop(k)
                heapq.heapify(self.waiting)
                return True
        return False
'''

UPSTREAM_EVIL = '''\
def banner() -> str:
    """Return the banner shown on the status page of the service."""
    text = "<script>''' + PWNED + '''</script>"
    html = "<b>" + text + "</b>"
    return html.replace("<b>", "<strong>").replace("</b>", "</strong>")
'''


def own_lines(prefix: str, count: int, indent: str = "") -> list[str]:
    """Code of the target's own, unlike anything upstream."""
    out = []
    for k in range(count):
        out.append(f"{indent}def {prefix}_helper_{k}(value_{k}: int) -> int:")
        out.append(f"{indent}    return value_{k} * {k + 3} + {k * 7 % 11}  # {prefix} step {k}")
        out.append("")
    return out


def target_files() -> dict[str, str]:
    up = UPSTREAM_SCHEDULER.splitlines()
    # the target: its own code, then the scheduler with a renamed field and one changed line
    copied = [line.replace("max_batch_tokens", "token_budget") for line in up]
    copied = [line.replace('f"queue full: {len(self.waiting)} requests are waiting"',
                           'f"too many waiting requests ({len(self.waiting)})"') for line in copied]
    # two regions: the class up to schedule(), then (after methods of the target's own) the rest
    split = copied.index("    def finish(self, request_id: str) -> Request:")
    scheduler = ["# Adapted from https://github.com/example/upstreamlib/blob/v1.0/upstreamlib/scheduler.py",
                 *own_lines("local", 14), *copied[:split], *own_lines("mid", 8, "    "), *copied[split:], "",
                 *own_lines("tail", 10)]
    evil = UPSTREAM_EVIL.splitlines()
    return {
        "app/scheduler.py": "\n".join(scheduler) + "\n",
        EVIL_NAME: "\n".join(["# status page helpers", *own_lines("evil", 3), *evil]) + "\n",
        "app/marked_only.py": "# Copied from https://github.com/example/upstreamlib/blob/v1.0/upstreamlib/gone.py\n"
                              + "\n".join(own_lines("marked", 20)) + "\n",
        "app/own.py": "\n".join(own_lines("own", 5)) + "\n",
    }


def build(base: Path) -> Comparison:
    upstream = treegen.write_tree(base / "upstreamlib", {
        "upstreamlib/__init__.py": "",
        "upstreamlib/scheduler.py": UPSTREAM_SCHEDULER,
        "upstreamlib/status.py": UPSTREAM_EVIL,
    })
    target = treegen.write_tree(base / "target", target_files())
    return compare(str(target), [str(upstream)], params=MatchParams(), settings=RunSettings(use_cache=False, jobs=1))
