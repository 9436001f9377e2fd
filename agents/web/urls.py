from django.urls import path

from . import views

app_name = "agents"

urlpatterns = [
    path("activity", views.activity, name="activity"),
    path("runs/<int:run_id>", views.run_detail, name="run"),
    path("llm-check", views.llm_check, name="llm-check"),
    path("pin/<str:user_hex>", views.own_tier_pin, name="own-tier-pin"),
]
