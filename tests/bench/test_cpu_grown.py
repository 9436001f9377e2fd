"""bench/web's PostgreSQL CPU per run: the backends' growth, pid by pid, so a backend
that ends during a run (a web worker closing an old connection) is not subtracted."""

from bench.common import cpu_grown


def test_an_ended_backend_is_left_out_and_a_new_one_counts_whole():
    before = {101: 7.5, 102: 3.0}
    after = {102: 3.5, 103: 1.25}  # 101 ended; 103 opened during the run
    assert cpu_grown(before, after) == 1.75


def test_nothing_run_is_nothing_grown():
    assert cpu_grown({5: 2.0}, {5: 2.0}) == 0.0
