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
