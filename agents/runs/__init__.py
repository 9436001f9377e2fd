"""What every run of an AI user shares, whether a cycle (agents/cycle/) or a respond run
(agents/respond/): both import this package, it imports neither
(docs/architecture.md §3; tests/stgy/test_import_graph.py holds it).

- `lease.py`: the two leases on the user's AgentState row (the cycle's, and the
  respond lease that is also the writing turn) and the loop interval;
- `turn.py`: the writing turn; `owed.py`: whether answers are owed, and the respond
  task's enqueue;
- `record.py`: where a stage's run record is written (with the lease's renewal, the
  turn's release and the stage's usage rows), and the record as JSON;
- `llm_calls.py`: `run_job` / `run_jobs`, through which every model call of a cycle
  stage or a respond run goes; `usage_held.py`: a stage's usage rows, and its calls' traces, held for its record;
- `inputs.py` (with `viewable.py`): the prompt inputs both assemble (profile excerpt,
  reply context, summaries, impressions, conversation turns);
- `contact.py`: the person's boundaries and the back-off rule;
- `stale.py`: the stale-lease sweep that ends runs whose worker died.
"""
