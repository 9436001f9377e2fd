from django.urls import path

from . import call_traces, views

app_name = "agents"

urlpatterns = [
    path("activity", views.activity, name="activity"),
    path("runs/<int:run_id>", views.run_detail, name="run"),
    path("llm-check", views.llm_check, name="llm-check"),
    path("pin/<str:user_hex>", views.own_tier_pin, name="own-tier-pin"),
    path("calls/<int:trace_id>", call_traces.call_trace, name="call-trace"),
    path("calls/<int:trace_id>/replay", call_traces.call_replay, name="call-replay"),
]
