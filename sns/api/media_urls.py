from django.urls import path

from . import media_views, track_views

# /media/{userId}/... (docs/media.md §1); fixed segments before images/<path:rest> and
# tracks/<path:rest>.
urlpatterns = [
    path("media/<str:user_id>/images", media_views.ImagesView.as_view(), name="media-images"),
    path("media/<str:user_id>/images/quota", media_views.ImagesQuotaView.as_view(), name="media-images-quota"),
    path("media/<str:user_id>/images/presigned", media_views.ImagesPresignedView.as_view(),
         name="media-images-presigned"),
    path("media/<str:user_id>/images/finalize", media_views.ImagesFinalizeView.as_view(),
         name="media-images-finalize"),
    path("media/<str:user_id>/images/import", media_views.ImagesImportView.as_view(),
         name="media-images-import"),
    path("media/<str:user_id>/images/<path:rest>", media_views.ImageView.as_view(), name="media-image"),
    path("media/<str:user_id>/tracks", track_views.TracksView.as_view(), name="media-tracks"),
    path("media/<str:user_id>/tracks/quota", track_views.TracksQuotaView.as_view(), name="media-tracks-quota"),
    path("media/<str:user_id>/tracks/presigned", track_views.TracksPresignedView.as_view(),
         name="media-tracks-presigned"),
    path("media/<str:user_id>/tracks/finalize", track_views.TracksFinalizeView.as_view(),
         name="media-tracks-finalize"),
    path("media/<str:user_id>/tracks/<path:rest>", track_views.TrackView.as_view(), name="media-track"),
    path("media/<str:user_id>/profiles/<str:slot>/presigned", media_views.ProfilePresignedView.as_view(),
         name="media-profile-presigned"),
    path("media/<str:user_id>/profiles/<str:slot>/finalize", media_views.ProfileFinalizeView.as_view(),
         name="media-profile-finalize"),
    path("media/<str:user_id>/profiles/<str:slot>", media_views.ProfileView.as_view(), name="media-profile"),
]
