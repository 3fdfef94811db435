#!/usr/bin/env bash
# The main job: set up the environment, then measure sglang 0.5.23 against vLLM 0.32.0 (both
# pinned in corpora/sglang-vllm.json, fetched from PyPI into the user cache).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
out="${1:-out/sglang-vllm}"
start=$(date +%s)
.venv/bin/lineage corpus corpora/sglang-vllm.json --out "$out"
echo "main job: $(( $(date +%s) - start )) s wall; reports in $out"
# every figure that two report files state must agree (scripts/report_checks.py; 10-20 s)
.venv/bin/python scripts/report_checks.py "$out" > "$out.checks.txt" || { cat "$out.checks.txt"; exit 1; }
echo "report checks: every figure agrees across the report's files ($out.checks.txt)"
