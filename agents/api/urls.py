from django.urls import path

from . import ai_views, memory_version_views, memory_views, person_memory_views

urlpatterns = [
    # What AI users remember about a person (the person's, beside sns's /users/<id>/ routes).
    path("users/<str:user_id>/ai-memory", person_memory_views.PersonMemoryView.as_view(), name="user-ai-memory"),
    path("ai-models", ai_views.AiModelsView.as_view(), name="ai-models"),
    path("ai-models/<str:label>", ai_views.AiModelView.as_view(), name="ai-model"),
    path("ai-users", ai_views.AiUsersView.as_view(), name="ai-users"),
    # Fixed names before the id pattern.
    path("ai-users/chat", ai_views.AiChatView.as_view(), name="ai-users-chat"),
    path("ai-users/features", ai_views.AiFeaturesView.as_view(), name="ai-users-features"),
    path("ai-users/<str:user_id>", ai_views.AiUserView.as_view(), name="ai-user"),
    path("ai-users/<str:user_id>/interests", memory_views.InterestsView.as_view(), name="ai-user-interests"),
    path(
        "ai-users/<str:user_id>/peer-impressions",
        memory_views.PeerImpressionsView.as_view(),
        name="ai-user-peer-impressions",
    ),
    path(
        "ai-users/<str:user_id>/interests/versions",
        memory_version_views.InterestVersionsView.as_view(),
        name="ai-user-interest-versions",
    ),
    path(
        "ai-users/<str:user_id>/interests/versions/<str:version_id>/restore",
        memory_version_views.InterestVersionRestoreView.as_view(),
        name="ai-user-interest-version-restore",
    ),
    path(
        "ai-users/<str:user_id>/peer-impressions/<str:peer_id>",
        memory_views.PeerImpressionView.as_view(),
        name="ai-user-peer-impression",
    ),
    path(
        "ai-users/<str:user_id>/peer-impressions/<str:peer_id>/versions",
        memory_version_views.PeerImpressionVersionsView.as_view(),
        name="ai-user-peer-impression-versions",
    ),
    path(
        "ai-users/<str:user_id>/peer-impressions/<str:peer_id>/versions/<str:version_id>/restore",
        memory_version_views.PeerImpressionVersionRestoreView.as_view(),
        name="ai-user-peer-impression-version-restore",
    ),
    path(
        "ai-users/<str:user_id>/post-impressions",
        memory_views.PostImpressionsView.as_view(),
        name="ai-user-post-impressions",
    ),
    path(
        "ai-users/<str:user_id>/post-impressions/<str:post_id>",
        memory_views.PostImpressionView.as_view(),
        name="ai-user-post-impression",
    ),
]
