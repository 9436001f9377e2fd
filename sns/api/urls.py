from django.urls import path

from . import auth_views

urlpatterns = [
    path("auth", auth_views.AuthView.as_view(), name="auth"),
    path("auth/switch-user", auth_views.SwitchUserView.as_view(), name="auth-switch-user"),
]
