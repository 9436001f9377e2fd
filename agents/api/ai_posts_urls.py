from django.urls import path

from . import ai_posts_views as views

# Fixed segments come before "ai-posts/<id>".
urlpatterns = [
    path("ai-posts", views.AiPostsView.as_view(), name="ai-posts"),
    path("ai-posts/search-seed", views.SearchSeedView.as_view(), name="ai-posts-search-seed"),
    path(
        "ai-posts/recommendations",
        views.RecommendationsView.as_view(),
        name="ai-posts-recommendations",
    ),
    path(
        "ai-posts/recommendations/posts",
        views.RecommendedPostsView.as_view(),
        name="ai-posts-recommended-posts",
    ),
    path(
        "ai-posts/recommendations/posts/for-user/<str:user_id>",
        views.RecommendedPostsForUserView.as_view(),
        name="ai-posts-for-user",
    ),
    path(
        "ai-posts/recommendations/posts/for-post/<str:post_id>",
        views.RelatedPostsView.as_view(),
        name="ai-posts-for-post",
    ),
    path("ai-posts/<str:post_id>", views.AiPostView.as_view(), name="ai-post"),
]
