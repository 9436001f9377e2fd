"""`run_all --compare-original`: set the original up for a size, run the side by side,
and put its table into bench/README.md (between the original markers) and
bench/results/<size>/original/original.md."""

from __future__ import annotations

import json
from pathlib import Path

from ..common import ROOT
from .compare import render
from .setup import ensure

MARK_BEGIN = "<!-- original:begin -->"
MARK_END = "<!-- original:end -->"


def compare_original(size: str, template: str, out_dir: Path, run_bench, prefix: str, seed: int) -> dict:
    info = ensure(template, f"{prefix}_{size}_node")
    print(f"[run_all] the original ({info['commit'][:12]}) on {info['db']}: {info['posts']} posts", flush=True)
    # A folder of its own: bench/report.py renders every *.json directly in out_dir.
    out_dir = out_dir / "original"
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = run_bench("original.compare", size, seed, out_dir)
    data = json.loads((out_dir / "original.compare.json").read_text())
    if "endpoints" not in data:
        raise SystemExit(f"the side by side failed: {data.get('error', '')[-1000:]}")
    data["original_commit"] = info["commit"]
    command = f".venv/bin/python -m bench.run_all --size {size} --compare-original"
    table = render(data, command) + (
        f"\nThe original: estraier/stgy at {info['commit'][:12]}, one Node process; "
        f"raw runs in `bench/results/{size}/original/original.compare.json`.\n")
    (out_dir / "original.md").write_text(table)
    readme = ROOT / "bench" / "README.md"
    text = readme.read_text()
    if size != "tiny" and MARK_BEGIN in text and MARK_END in text:  # tiny is a smoke run
        head, rest = text.split(MARK_BEGIN, 1)
        _, tail = rest.split(MARK_END, 1)
        readme.write_text(f"{head}{MARK_BEGIN}\n{table}{MARK_END}{tail}")
    return meta
