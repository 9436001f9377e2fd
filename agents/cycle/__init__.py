"""The AI-user activity cycle (docs/agent-cycle.md): a fixed chain of stages in which
code chooses what to read and what is allowed, and the LLM only writes impressions,
interests, posts and replies."""

STAGES = (
    "select_posts",
    "post_impressions",
    "peer_impressions",
    "likes_and_replies",
    "interest_update",
    "new_post",
    "follow_management",
)
