from django.urls import path

from . import db_stats_views, views

# Where the original serves them: at the root of the API (/api/health, /backend/health).
urlpatterns = [
    path("health", views.HealthView.as_view(), name="health"),
    path("metrics", views.MetricsView.as_view(), name="metrics"),
    path("metrics/clear", views.MetricsClearView.as_view(), name="metrics-clear"),
    path("metrics/aggregation", views.MetricsAggregationView.as_view(), name="metrics-aggregation"),
    path(
        "metrics/aggregation/clear",
        views.MetricsAggregationClearView.as_view(),
        name="metrics-aggregation-clear",
    ),
    path("db-stats", db_stats_views.DbStatsView.as_view(), name="db-stats"),
    path("db-stats/enable", db_stats_views.DbStatsEnableView.as_view(), name="db-stats-enable"),
    path("db-stats/disable", db_stats_views.DbStatsDisableView.as_view(), name="db-stats-disable"),
    path("db-stats/clear", db_stats_views.DbStatsClearView.as_view(), name="db-stats-clear"),
    path("db-stats/slow-queries", db_stats_views.SlowQueriesView.as_view(), name="db-stats-slow-queries"),
    path(
        "db-stats/slow-queries/<str:query_id>/explain",
        db_stats_views.SlowQueryExplainView.as_view(),
        name="db-stats-explain",
    ),
]
