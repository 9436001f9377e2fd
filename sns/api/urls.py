from django.urls import path

from . import (
    accounts_views,
    agreement_views,
    auth_views,
    boundaries_views,
    geo_views,
    link_snippets_views,
    messages_views,
    mutes_views,
    notifications_views,
    posts_views,
    publication_views,
    reports_views,
    search_views,
    shares_views,
    tokens_views,
    users_views,
)

# Fixed segments ("search", "by-followees", "liked", "pub-by-ids") come before "posts/<id>".
urlpatterns = [
    path("auth", auth_views.AuthView.as_view(), name="auth"),
    path("auth/switch-user", auth_views.SwitchUserView.as_view(), name="auth-switch-user"),
    # sign-up, e-mail change and password reset by mailed code (docs/accounts.md)
    path("signup/start", accounts_views.SignupStartView.as_view(), name="signup-start"),
    path("signup/verify", accounts_views.SignupVerifyView.as_view(), name="signup-verify"),
    path(
        "users/password/reset/start",
        accounts_views.PasswordResetStartView.as_view(),
        name="password-reset-start",
    ),
    path(
        "users/password/reset/verify",
        accounts_views.PasswordResetVerifyView.as_view(),
        name="password-reset-verify",
    ),
    path("users/<str:user_id>/email/start", accounts_views.EmailStartView.as_view(), name="user-email-start"),
    path("users/<str:user_id>/email/verify", accounts_views.EmailVerifyView.as_view(), name="user-email-verify"),
    # users (docs/api.md §2)
    path("users", users_views.UsersView.as_view(), name="users"),
    # search, KWIC, counts (docs/api.md, "Search"): fixed paths before "users/<id>"
    path("users/search", search_views.UserSearchView.as_view(), name="users-search"),
    path("users/kwic", search_views.UserKwicView.as_view(), name="users-kwic"),
    path("users/count", search_views.UsersCountView.as_view(), name="users-count"),
    path(
        "users/friends/by-nickname-prefix",
        search_views.FriendsByNicknamePrefixView.as_view(),
        name="users-friends-by-nickname-prefix",
    ),
    path(
        "users/agreement/<str:term_id>",
        agreement_views.UserAgreementView.as_view(),
        name="user-agreement",
    ),
    path("users/<str:user_id>", users_views.UserView.as_view(), name="user"),
    path("users/<str:user_id>/lite", users_views.UserLiteView.as_view(), name="user-lite"),
    path("users/<str:user_id>/password", users_views.UserPasswordView.as_view(), name="user-password"),
    path("users/<str:user_id>/follow", users_views.UserFollowView.as_view(), name="user-follow"),
    path("users/<str:user_id>/followees", users_views.UserFolloweesView.as_view(), name="user-followees"),
    path("users/<str:user_id>/followers", users_views.UserFollowersView.as_view(), name="user-followers"),
    path("users/<str:user_id>/block", users_views.UserBlockView.as_view(), name="user-block"),
    path("users/<str:user_id>/blockees", users_views.UserBlockeesView.as_view(), name="user-blockees"),
    # mutes (beside the original contract; docs/mutes.md)
    path("users/<str:user_id>/mute", mutes_views.UserMuteView.as_view(), name="user-mute"),
    path("users/<str:user_id>/mutees", mutes_views.UserMuteesView.as_view(), name="user-mutees"),
    path("users/<str:user_id>/muted-words", mutes_views.UserMutedWordsView.as_view(), name="user-muted-words"),
    # personal access tokens (beside the original contract; docs/api.md)
    path("users/<str:user_id>/tokens", tokens_views.UserTokensView.as_view(), name="user-tokens"),
    path(
        "users/<str:user_id>/tokens/<str:token_id>",
        tokens_views.UserTokenView.as_view(),
        name="user-token",
    ),
    # public sites (docs/api.md §9, docs/publication.md)
    path(
        "users/<str:user_id>/pub-config",
        publication_views.UserPubConfigView.as_view(),
        name="user-pub-config",
    ),
    path(
        "users/<str:user_id>/pub-ranking",
        publication_views.UserPubRankingView.as_view(),
        name="user-pub-ranking",
    ),
    path(
        "users/<str:user_id>/pub-stats",
        publication_views.UserPubStatsView.as_view(),
        name="user-pub-stats",
    ),
    # AI boundaries (beside the original contract; docs/messages.md)
    path(
        "users/<str:user_id>/ai-boundaries",
        boundaries_views.AiBoundariesView.as_view(),
        name="user-ai-boundaries",
    ),
    path(
        "users/<str:user_id>/ai-stops", boundaries_views.AiStopsView.as_view(), name="user-ai-stops"
    ),
    path(
        "users/<str:user_id>/ai-stops/<str:ai_user_id>",
        boundaries_views.AiStopView.as_view(),
        name="user-ai-stop",
    ),
    # posts (docs/api.md §3)
    path("posts", posts_views.PostsView.as_view(), name="posts"),
    path("posts/search", search_views.PostSearchView.as_view(), name="posts-search"),
    path("posts/kwic", search_views.PostKwicView.as_view(), name="posts-kwic"),
    path("posts/kwic-pub", search_views.PostKwicPubView.as_view(), name="posts-kwic-pub"),
    path("posts/count", search_views.PostsCountView.as_view(), name="posts-count"),
    path("posts/by-followees", posts_views.PostsByFolloweesView.as_view(), name="posts-by-followees"),
    path("posts/liked", posts_views.PostsLikedView.as_view(), name="posts-liked"),
    path("posts/pub-by-ids", publication_views.PubPostsByIdsView.as_view(), name="posts-pub-by-ids"),
    path(
        "posts/pub-by-user/<str:user_id>",
        publication_views.PubPostsByUserView.as_view(),
        name="posts-pub-by-user",
    ),
    path("posts/pub/<str:post_id>", publication_views.PubPostView.as_view(), name="posts-pub"),
    path("posts/<str:post_id>", posts_views.PostView.as_view(), name="post"),
    path("posts/<str:post_id>/lite", posts_views.PostLiteView.as_view(), name="post-lite"),
    path("posts/<str:post_id>/like", posts_views.PostLikeView.as_view(), name="post-like"),
    path("posts/<str:post_id>/likers", posts_views.PostLikersView.as_view(), name="post-likers"),
    # reposts, quotes, bookmarks (beside the original contract; docs/shares.md)
    path("posts/<str:post_id>/repost", shares_views.PostRepostView.as_view(), name="post-repost"),
    path("posts/<str:post_id>/reposters", shares_views.PostRepostersView.as_view(), name="post-reposters"),
    path("posts/<str:post_id>/quote", shares_views.PostQuoteView.as_view(), name="post-quote"),
    path("posts/<str:post_id>/shares", shares_views.PostSharesView.as_view(), name="post-shares"),
    path("posts/<str:post_id>/bookmark", shares_views.PostBookmarkView.as_view(), name="post-bookmark"),
    path("bookmarks", shares_views.BookmarksView.as_view(), name="bookmarks"),
    path("notifications/shares", shares_views.NotificationsSharesView.as_view(), name="notifications-shares"),
    # reports of posts and replies (ours, beside the original contract; docs/pages.md §3)
    path("posts/<str:post_id>/report", reports_views.PostReportView.as_view(), name="post-report"),
    # geocoding (docs/api.md, "Geo")
    path("geo/encode", geo_views.GeoEncodeView.as_view(), name="geo-encode"),
    path("geo/decode", geo_views.GeoDecodeView.as_view(), name="geo-decode"),
    # link previews (docs/api.md, "Link previews")
    path(
        "link-snippets/resolve",
        link_snippets_views.LinkSnippetResolveView.as_view(),
        name="link-snippets-resolve",
    ),
    # notifications (docs/api.md §4)
    path("notifications/feed", notifications_views.NotificationsFeedView.as_view(), name="notifications-feed"),
    path("notifications/mark", notifications_views.NotificationMarkView.as_view(), name="notifications-mark"),
    path(
        "notifications/mark-all",
        notifications_views.NotificationMarkAllView.as_view(),
        name="notifications-mark-all",
    ),
    # direct messages (beside the original contract; docs/messages.md)
    path(
        "messages/conversations",
        messages_views.ConversationsView.as_view(),
        name="messages-conversations",
    ),
    path(
        "messages/conversations/<str:user_id>",
        messages_views.ConversationView.as_view(),
        name="messages-conversation",
    ),
    path(
        "messages/conversations/<str:user_id>/accept",
        messages_views.ConversationAcceptView.as_view(),
        name="messages-conversation-accept",
    ),
    path(
        "messages/unread-count",
        messages_views.UnreadCountView.as_view(),
        name="messages-unread-count",
    ),
    path(
        "messages/<str:message_id>/report",
        messages_views.MessageReportView.as_view(),
        name="message-report",
    ),
    # agreement terms (docs/api.md, agreement terms); "latest" before "<id>"
    path("agreement-terms", agreement_views.AgreementTermsView.as_view(), name="agreement-terms"),
    path(
        "agreement-terms/latest",
        agreement_views.AgreementTermLatestView.as_view(),
        name="agreement-term-latest",
    ),
    path(
        "agreement-terms/<str:term_id>",
        agreement_views.AgreementTermView.as_view(),
        name="agreement-term",
    ),
]
