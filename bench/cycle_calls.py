"""bench/cycle_calls: Python function calls per AI-user cycle, per stage — the cycles of
bench/cycle_overhead (same users, same seed, the `offline` stand-in), counted with a
profile hook instead of timed. The count does not move with the machine's load, as the CPU
milliseconds do when other work shares the cores; the stand-in's own calls are left out, as
its CPU is there. Counted after the warm-up cycles.

    python -m bench.cycle_calls --db stgy_bench_medium_copy --cycles 30
"""

from __future__ import annotations

import sys
import threading
from collections import defaultdict

from . import cycle_overhead


def run(*, cycles: int, warmup: int, seed: int) -> dict:
    meters: list = []
    counts: dict[str, int] = defaultdict(int)
    measured = [0]

    class CountedMeter(cycle_overhead.Meter):
        def __init__(self) -> None:
            super().__init__()
            meters.append(self)

    def hook(frame, event, arg) -> None:
        if event in ("call", "c_call") and meters and not getattr(meters[-1].in_standin, "on", False):
            counts[meters[-1].stage] += 1

    measure = cycle_overhead.measure_cycle

    def measure_counted(meter, user_id):
        result = measure(meter, user_id)
        measured[0] += 1
        if measured[0] == warmup:
            counts.clear()  # the warm-up's one-off work (imports, caches) is not a cycle's
        return result

    original_meter = cycle_overhead.Meter
    cycle_overhead.Meter, cycle_overhead.measure_cycle = CountedMeter, measure_counted
    sys.setprofile(hook)
    threading.setprofile(hook)
    try:
        result = cycle_overhead.run(cycles=cycles, warmup=warmup, seed=seed)
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
        cycle_overhead.Meter, cycle_overhead.measure_cycle = original_meter, measure
    done = result["cycles"]
    per_stage = {stage: round(counts[stage] / done) for stage in result["per_stage"]}
    return {"bench": "cycle_calls", "database": result["database"], "cycles": done,
            "calls_per_cycle": per_stage, "total": sum(per_stage.values())}


def print_report(result: dict) -> None:
    print(f"cycle_calls on {result['database']}: {result['cycles']} cycles, Python calls per cycle")
    for stage, count in result["calls_per_cycle"].items():
        print(f"{stage:<18} {count:>8,}")
    print(f"{'TOTAL':<18} {result['total']:>8,}")


def main(argv: list[str] | None = None) -> dict:
    return cycle_overhead.cycles_main(argv, "Python function calls per AI-user cycle, per stage", run, print_report)


if __name__ == "__main__":
    main()
