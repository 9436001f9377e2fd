from django.urls import path

from . import local_views

# Mounted at /storage/ (stgy/urls.py); sns/input_limits.py knows the upload path.
urlpatterns = [
    path("upload", local_views.upload, name="media-local-upload"),
    path("<str:bucket>/<path:key>", local_views.serve, name="media-local-file"),
]
