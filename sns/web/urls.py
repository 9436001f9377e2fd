from django.urls import path

from . import (
    agreement_pages,
    auth_pages,
    boundary_pages,
    message_pages,
    post_pages,
    settings_pages,
    timeline_pages,
    user_pages,
)

app_name = "web"

urlpatterns = [
    path("", timeline_pages.home, name="home"),
    path("signup", auth_pages.signup, name="signup"),
    path("login", auth_pages.login_page, name="login"),
    path("logout", auth_pages.logout_page, name="logout"),
    path("agreement", agreement_pages.agreement, name="agreement"),
    path("settings", settings_pages.settings_page, name="settings"),
    path("settings/password", auth_pages.password_change, name="password"),
    path("compose", timeline_pages.compose, name="compose"),
    path("preview", timeline_pages.preview, name="preview"),
    path("search", timeline_pages.search, name="search"),
    path("posts/<str:post_hex>", post_pages.post_detail, name="post"),
    path("posts/<str:post_hex>/related", post_pages.post_related, name="post-related"),
    path("posts/<str:post_hex>/reply", post_pages.post_reply, name="post-reply"),
    path("posts/<str:post_hex>/edit", post_pages.post_edit, name="post-edit"),
    path("posts/<str:post_hex>/delete", post_pages.post_delete, name="post-delete"),
    path("posts/<str:post_hex>/like", post_pages.post_like, name="post-like"),
    path("posts/<str:post_hex>/unlike", post_pages.post_unlike, name="post-unlike"),
    path("users", user_pages.users_list, name="users"),
    path("users/<str:user_hex>", user_pages.profile, name="profile"),
    path("users/<str:user_hex>/follow", user_pages.follow, name="follow"),
    path("users/<str:user_hex>/unfollow", user_pages.unfollow, name="unfollow"),
    path("users/<str:user_hex>/block", user_pages.block, name="block"),
    path("users/<str:user_hex>/unblock", user_pages.unblock, name="unblock"),
    path("users/<str:user_hex>/stop-ai", boundary_pages.stop_ai, name="stop-ai"),
    path("settings/ai-boundaries", boundary_pages.boundaries_update, name="ai-boundaries"),
    path("settings/ai-stops/<str:user_hex>/undo", boundary_pages.stop_undo, name="ai-stop-undo"),
    path("messages", message_pages.inbox, name="messages"),
    path("messages/<str:user_hex>", message_pages.conversation, name="conversation"),
    path("messages/<str:user_hex>/accept", message_pages.accept, name="conversation-accept"),
    path("messages/<str:user_hex>/delete", message_pages.delete, name="conversation-delete"),
    path(
        "messages/<str:user_hex>/report/<str:message_hex>",
        message_pages.report,
        name="message-report",
    ),
    path("notifications", settings_pages.notifications, name="notifications"),
    path("notifications/mark", settings_pages.notification_mark, name="notification-mark"),
    path(
        "notifications/mark-all",
        settings_pages.notifications_mark_all,
        name="notifications-mark-all",
    ),
]
