"""Operator endpoints: /health, the Prometheus /metrics and its aggregation, /db-stats
(docs/operations.md, "Health, metrics and database statistics")."""
