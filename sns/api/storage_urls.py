from django.urls import path

from . import storage_views

# Mounted at /storage/ (stgy/urls.py); sns/input_limits.py knows the upload path.
urlpatterns = [
    path("upload", storage_views.upload, name="media-local-upload"),
    path("<str:bucket>/<path:key>", storage_views.serve, name="media-local-file"),
]
