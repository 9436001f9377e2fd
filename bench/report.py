"""The Markdown results table, rendered from bench/results/<size>/*.json."""

from __future__ import annotations

import json
from pathlib import Path

ORDER = ("small", "web20k", "medium", "large")
WEB_ORIGINAL = {
    "GET /api/posts?limit=20": "≥ 1.3 × the original (side by side)",
    "GET /api/posts/by-followees": "≥ 1.3 × the original (side by side)",
    "GET /api/posts/{id}": "≥ 1.3 × the original (side by side)",
    "home timeline (page /)": "≥ 400 req/s, one-client p99 ≤ 12 ms at 1M posts",
    "post page (/posts/{id})": "≥ 400 req/s, one-client p99 ≤ 12 ms at 1M posts",
}


def _load(results: Path) -> dict[str, dict]:
    sizes = {}
    for size in ORDER:
        folder = results / size
        if not folder.is_dir():
            continue
        data = {}
        for path in folder.glob("*.json"):
            try:
                data[path.stem] = json.loads(path.read_text())
            except ValueError:
                continue
        if data:
            sizes[size] = data
    return sizes


def _f(value, fmt: str = ",.0f", unit: str = "") -> str:
    if value is None or value != value:  # None or NaN
        return "—"
    return f"{value:{fmt}}{unit}"


def _cmd(data: dict) -> str:
    meta = data.get("_meta") or {}
    return f"`{meta['command']}`" if meta.get("command") else ""


def render(results: Path) -> str:
    sizes = _load(results)
    if not sizes:
        return "_No results yet: run `python -m bench.run_all --size small`._\n"
    names = list(sizes)
    lines: list[str] = []

    def header(title: str, first: str = "Figure", target: bool = True) -> None:
        lines.append(f"\n#### {title}\n")
        cols = [first] + (["Target"] if target else []) + names
        lines.append("| " + " | ".join(cols) + " |")
        lines.append("|" + "---|" * len(cols))

    def row(label: str, target: str | None, getter) -> None:
        cells = []
        for size in names:
            try:
                cells.append(getter(sizes[size]))
            except (KeyError, TypeError, IndexError, ZeroDivisionError):
                cells.append("—")
        lines.append("| " + " | ".join([label] + ([target] if target is not None else []) + cells) + " |")

    # ------------------------------------------------------------ communities
    header("Communities", "", target=False)
    for label, key in (("users", "users"), ("posts", "posts"), ("likes", "likes"), ("follows", "follows"),
                       ("database size", "db_size"), ("generated in (s)", "generate_seconds")):
        row(label, None, lambda d, k=key: _f(_run(d)["community"][k]) if isinstance(_run(d)["community"][k], (int, float))
            else str(_run(d)["community"][k]))

    # ------------------------------------------------------------ cycle overhead
    header("bench/cycle_overhead — per AI-user cycle, instant LLM stand-in (offline provider)")
    row("non-LLM CPU ms, p50 (p90)", "≤ 80", lambda d: f"{_f(_co(d)['cpu_ms']['p50'], '.0f')} ({_f(_co(d)['cpu_ms']['p90'], '.0f')})")
    row("SQL queries, p50 (max)", "≤ 60", lambda d: f"{_f(_co(d)['queries']['p50'])} ({_f(_co(d)['queries']['max'])})")
    row("DB time ms, p50", "", lambda d: _f(_co(d)["db_ms"]["p50"], ".0f"))
    row("wall ms without LLM, p50", "", lambda d: _f(_co(d)["wall_ms"]["p50"], ".0f"))
    row("posts read per cycle, p50", "", lambda d: _f(d["cycle_overhead"]["reads"]["p50"]))
    stages = None
    for d in sizes.values():
        if "cycle_overhead" in d and "per_stage" in d["cycle_overhead"]:
            stages = list(d["cycle_overhead"]["per_stage"])
            break
    for stage in stages or []:
        row(f"&nbsp;&nbsp;{stage}: CPU ms / queries (p50)", "", lambda d, s=stage: (
            f"{_f(d['cycle_overhead']['per_stage'][s]['cpu_ms']['p50'], '.1f')} / "
            f"{_f(d['cycle_overhead']['per_stage'][s]['queries']['p50'])}"))
    row("command", "", lambda d: _cmd(d["cycle_overhead"]))

    # ------------------------------------------------------------ token economy
    header("bench/token_economy — LLM tokens per cycle (design estimate: ~115k in / ~24k out)")
    row("LLM calls per cycle, mean", "", lambda d: _f(_te(d)["calls"]["mean"], ".1f"))
    row("prompt tokens per cycle, mean (p90)", "",
        lambda d: f"{_f(_te(d)['prompt_tokens']['mean'])} ({_f(_te(d)['prompt_tokens']['p90'])})")
    row("completion tokens per cycle at asked length, mean", "(24k)", lambda d: _f(_te(d)["completion_tokens_expected"]["mean"]))
    row("completion tokens written by the stand-in, mean", "", lambda d: _f(_te(d)["completion_tokens_standin"]["mean"]))
    row("prompt bytes shared with the previous call (prefix)", "", lambda d: _f(d["token_economy"]["prefix_share_overall"] * 100, ".0f", " %"))
    row("provider-cacheable prompt tokens per cycle, mean", "", lambda d: _f(_te(d)["provider_cacheable_tokens"]["mean"]))
    row("provider-cacheable share of prompt tokens", "≥ 60 %",
        lambda d: _f(d["token_economy"].get("cacheable_share_overall", 0) * 100, ".0f", " %"))
    row("billed-equivalent input tokens per cycle (cached at the cached price), mean", "≤ 12k",
        lambda d: _f(_te(d)["billed_equivalent_tokens"]["mean"]) if "billed_equivalent_tokens" in _te(d) else "—")
    row("prompt tokens per post read (impression call), p50 (p90)", "", lambda d: (
        f"{_f(d['token_economy']['per_post_read']['impression_prompt_tokens']['p50'])} "
        f"({_f(d['token_economy']['per_post_read']['impression_prompt_tokens']['p90'])})"))
    row("cycle prompt tokens ÷ posts read", "", lambda d: _f(d["token_economy"]["per_post_read"]["cycle_prompt_tokens_per_read"]))
    row("tokenizer", "", lambda d: d["token_economy"]["tokenizer"])
    row("command", "", lambda d: _cmd(d["token_economy"]))

    # ------------------------------------------------------------ throughput
    header("bench/throughput — real Celery workers + Redis, LLM stand-in server at 2 s")
    row("cycles per hour (best setting)", "≥ 5,000", lambda d: _f(d["throughput"]["best"]["cycles_per_hour"]))
    row("worker pool of the best setting", "", lambda d: f"{d['throughput']['best']['pool']}, {d['throughput']['best']['inflight']} in flight")
    row("cycle wall time p50 (p90), s", "", lambda d: (
        f"{_f(d['throughput']['best']['cycle_wall_s']['p50'], '.1f')} ({_f(d['throughput']['best']['cycle_wall_s']['p90'], '.1f')})"))
    row("cycle wall ÷ LLM latency, p50", "≤ 6", lambda d: _f(d["throughput"]["best"]["wall_over_latency_p50"], ".1f", "×"))
    row("CPU ms per cycle: workers / PostgreSQL / stand-in", "", lambda d: "{workers} / {postgres} / {standin}".format(
        **{k: _f(v) for k, v in d["throughput"]["best"]["cpu_ms_per_cycle"].items()}))
    row("our CPU share of the 2 cores (machine busy)", "", lambda d: (
        f"{_f(d['throughput']['best']['ours_share_of_2_cores'] * 100, '.0f', ' %')} "
        f"({_f(d['throughput']['best']['machine_busy'] * 100, '.0f', ' %')})"))
    row("failed stages in the window", "", lambda d: _f(d["throughput"]["best"]["failed_stages"]))
    row("all settings (cycles/h)", "", lambda d: "; ".join(
        f"{s['pool']}: {_f(s['cycles_per_hour'])}" for s in d["throughput"]["settings"]))
    row("command", "", lambda d: _cmd(d["throughput"]))

    # ------------------------------------------------------------ respond latency
    header("bench/respond_latency — a person's reply to the AI answer, real workers, LLM at 2 s")
    rl = lambda d: d["respond_latency"]  # noqa: E731
    row("answer latency p50 · p95 · p99, s", "p95 ≤ 60", lambda d: " · ".join(
        _f(rl(d)["answer_latency_s"][q], ".1f") for q in ("p50", "p95", "p99")))
    row("events · conversations · AI users", "", lambda d: (
        f"{_f(rl(d)['events'])} · {_f(rl(d)['conversations'])} · {_f(rl(d)['ai_users'])}"))
    row("shares of events", "", lambda d: ", ".join(
        f"{k} {v * 100:.1f} %" for k, v in rl(d)["shares"].items()))
    row("beside them: cycles in flight · finished", "", lambda d: (
        f"{rl(d)['cycles_inflight']} · {_f(rl(d)['cycles_finished'])}"))
    row("command", "", lambda d: _cmd(rl(d)))

    # ------------------------------------------------------------ web
    header("bench/web — 32 concurrent clients (wrk), gunicorn 4 sync workers, median of runs")
    endpoints = None
    for d in sizes.values():
        if "web" in d and "endpoints" in d["web"]:
            endpoints = list(d["web"]["endpoints"])
            break
    for name in endpoints or []:
        row(f"{name}: req/s · p50 · p99 ms", WEB_ORIGINAL.get(name, ""), lambda d, n=name: (
            f"{_f(d['web']['endpoints'][n]['median']['rps'])} · {_f(d['web']['endpoints'][n]['median']['p50_ms'], '.1f')} · "
            f"{_f(d['web']['endpoints'][n]['median']['p99_ms'], '.1f')}"))
    for name in endpoints or []:
        row(f"{name}, one client: p50 · p99 ms", "p99 ≤ 50 ms at 1M posts" if name.endswith(")") else "", lambda d, n=name: (
            f"{_f(d['web']['endpoints'][n]['single_client']['p50_ms'], '.1f')} · "
            f"{_f(d['web']['endpoints'][n]['single_client']['p99_ms'], '.1f')}"))
    row("command", "", lambda d: _cmd(d["web"]))

    # ------------------------------------------------------------ memory
    header("bench/memory — resident memory (RSS)")
    row("web worker: after start / warm / after load, MB", "", lambda d: (
        f"{d['memory']['web']['rss_mb_after_start']} / {d['memory']['web']['rss_mb_after_warmup']} / "
        f"{d['memory']['web']['rss_mb_after_load']}"))
    for n in (1, 10, 50):
        row(f"Celery worker, {n} concurrent cycles: median / peak MB", "", lambda d, n=n: next(
            f"{c['rss_mb_median']} / {c['rss_mb_peak']}" for c in d["memory"]["celery"] if c["n"] == n))
    row("growth over consecutive cycles (after the first 100), MB", "", lambda d: (
        f"{d['memory']['growth']['growth_mb_after_first_100']} over {d['memory']['growth']['cycles']} cycles "
        f"({d['memory']['growth']['points'][0]['rss_mb']} → {d['memory']['growth']['points'][-1]['rss_mb']})"))
    row("command", "", lambda d: _cmd(d["memory"]))

    # ------------------------------------------------------------ provenance
    header("Runs", "", target=False)
    row("finished (UTC)", None, lambda d: _run(d)["finished_at"])
    row("git describe", None, lambda d: _run(d)["git"])
    row("machine", None, lambda d: "{cpus} CPUs, {ram_gb} GB, PostgreSQL {postgres}".format(**_run(d)["machine"]))
    row("load average before each bench", None, lambda d: ", ".join(
        f"{k} {v['loadavg_before']:.1f}" for k, v in _run(d)["benches"].items()))
    row("command", None, lambda d: f"`.venv/bin/python -m bench.run_all --size {_run(d)['size']}`")
    return "\n".join(lines).lstrip("\n") + "\n"


def _run(d: dict) -> dict:
    return d["run"]


def _co(d: dict) -> dict:
    return d["cycle_overhead"]["per_cycle"]


def _te(d: dict) -> dict:
    return d["token_economy"]["per_cycle"]


if __name__ == "__main__":
    import sys

    from .common import RESULTS

    sys.stdout.write(render(RESULTS))
