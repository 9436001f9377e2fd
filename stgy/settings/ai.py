"""The AI layer: provider, models and budgets, the activity cycle's knobs, the respond
path, post summaries and recommendation."""

from pathlib import Path

from .environment import BASE_DIR, env, num

# --- AI: provider, models, budgets ---
OPENAI_API_KEY = env.str("OPENAI_API_KEY", default="")
OPENAI_BASE_URL = env.str("OPENAI_BASE_URL", default="")
STGY_AI_PROVIDER = env.str(
    "STGY_AI_PROVIDER", default="openai" if (OPENAI_API_KEY or OPENAI_BASE_URL) else "none"
)
STGY_AI_MODEL_ADVANCED = env.str("STGY_AI_MODEL_ADVANCED", default="gpt-5.6-sol")
STGY_AI_MODEL_BALANCED = env.str("STGY_AI_MODEL_BALANCED", default="gpt-5.6-terra")
STGY_AI_MODEL_BASIC = env.str("STGY_AI_MODEL_BASIC", default="gpt-5.6-luna")
# The cascade (agents/llm/task_tiers.py, docs/agent-cycle.md "Which model does what"):
# judging tasks run on this tier ("own": the AI user's tier), writing tasks on the AI
# user's own; STGY_AI_TASK_TIERS overrides single tasks ("interest=own,reply-post=basic").
STGY_AI_JUDGING_TIER = env.str("STGY_AI_JUDGING_TIER", default="basic")
# Batch mode (agents/llm/batch.py): post summaries and the cycle's judging stages through the provider's batch
# interface, at about half the price, answered within 24 hours; `on` or `off`.
STGY_AI_BATCH = env.str("STGY_AI_BATCH", default="off")
# How long a cycle waits on its judging stage's batch before making the calls directly
# (agents/cycle/batches.py); the run keeps its lease that long.
STGY_AI_BATCH_WAIT_HOURS = num("STGY_AI_BATCH_WAIT_HOURS", 24)
STGY_AI_TASK_TIERS = env.str("STGY_AI_TASK_TIERS", default="")
STGY_AI_RPC_TIMEOUT_MS = num("STGY_AI_RPC_TIMEOUT_MS", 600000)
STGY_AI_MAX_RETRIES = num("STGY_AI_MAX_RETRIES", 3)
STGY_AI_RETRY_BASE_DELAY = num("STGY_AI_RETRY_BASE_DELAY", 1.0, float)
STGY_AI_RETRY_MAX_DELAY = num("STGY_AI_RETRY_MAX_DELAY", 30.0, float)
STGY_AI_CONCURRENCY = num("STGY_AI_CONCURRENCY", 16)
# Consecutive failed model calls that open the circuit breaker (0 = no breaker), and how
# long it then refuses calls before one probe call may go through.
STGY_AI_BREAKER_FAILURES = num("STGY_AI_BREAKER_FAILURES", 5)
STGY_AI_BREAKER_COOLDOWN_SECONDS = num("STGY_AI_BREAKER_COOLDOWN_SECONDS", 30.0, float)
# The whole time (attempts and backoff) a model call made inside a web request may take;
# 0 = no bound.
STGY_AI_WEB_DEADLINE_MS = num("STGY_AI_WEB_DEADLINE_MS", 5000)
# Every model call's whole wall time, wherever it is made (a Celery worker above all):
# attempts, backoff and the wait for a slot; each attempt's socket calls stop at it too,
# so a model that sends a byte now and then cannot stretch it (agents/llm/http_deadline.py).
STGY_AI_CALL_DEADLINE_MS = num("STGY_AI_CALL_DEADLINE_MS", 180000)
STGY_AI_SITE_DAILY_TOKEN_BUDGET = num("STGY_AI_SITE_DAILY_TOKEN_BUDGET", 0)
STGY_AI_USER_DAILY_TOKEN_BUDGET = num("STGY_AI_USER_DAILY_TOKEN_BUDGET", 0)
# Daily budgets in money (US dollars, as the price sheet; 0 = unlimited). Left empty with
# a real provider and no token budget, the site budget is STGY_AI_DEFAULT_SITE_DAILY_BUDGET
# (agents/budget.py, docs/operations.md "Prices and budgets").
STGY_AI_SITE_DAILY_BUDGET = env.str("STGY_AI_SITE_DAILY_BUDGET", default="")
STGY_AI_USER_DAILY_BUDGET = env.str("STGY_AI_USER_DAILY_BUDGET", default="")
STGY_AI_DEFAULT_SITE_DAILY_BUDGET = env.str("STGY_AI_DEFAULT_SITE_DAILY_BUDGET", default="5")
# What a prompt token served from the provider's cache counts in those budgets.
STGY_AI_BUDGET_CACHED_TOKEN_WEIGHT = num("STGY_AI_BUDGET_CACHED_TOKEN_WEIGHT", 0.1, float)
# Price per million tokens: "model=input:cached_input:output,...", over the default sheet
# of agents/llm/usage.py (DEFAULT_PRICES)
STGY_AI_PRICES = env.str("STGY_AI_PRICES", default="")
# Days the trace of each model call (its messages, layers and answer) is kept; 0 = none
# are written (docs/prompts.md §5).
STGY_AI_TRACE_RETENTION_DAYS = num("STGY_AI_TRACE_RETENTION_DAYS", 7)
STGY_EMBEDDING_PROVIDER = env.str("STGY_EMBEDDING_PROVIDER", default="hash")
STGY_EMBEDDING_OPENAI_MODEL = env.str("STGY_EMBEDDING_OPENAI_MODEL", default="text-embedding-3-small")
STGY_EMBEDDING_LOCAL_MODEL = env.str("STGY_EMBEDDING_LOCAL_MODEL", default="all-MiniLM-L6-v2")
STGY_PROMPT_DIR = Path(env.str("STGY_PROMPT_DIR", default=str(BASE_DIR / "prompts")))

# --- AI-user cycle knobs (docs/agent-cycle.md §13) ---
STGY_AI_TAG_MAX_COUNT = num("STGY_AI_TAG_MAX_COUNT", 5)
STGY_AI_TAG_MAX_LENGTH = num("STGY_AI_TAG_MAX_LENGTH", 40)
STGY_AI_USER_LOOP_SLEEP_MS = num("STGY_AI_USER_LOOP_SLEEP_MS", 43_200_000)
STGY_AI_USER_LOOP_JITTER = num("STGY_AI_USER_LOOP_JITTER", 0.2, float)
STGY_AI_USER_STAGE_CONCURRENCY = num("STGY_AI_USER_STAGE_CONCURRENCY", 10)
# A cycle's lease, renewed by every stage; longer than CELERY_VISIBILITY_TIMEOUT plus a
# stage's hard time limit (the Celery time limits, stgy/settings/tasks.py).
STGY_AI_USER_LOCK_SECONDS = num("STGY_AI_USER_LOCK_SECONDS", 1800)
STGY_AI_USER_FETCH_POST_LIMIT = num("STGY_AI_USER_FETCH_POST_LIMIT", 30)
STGY_AI_USER_COMPARE_POST_LIMIT = num("STGY_AI_USER_COMPARE_POST_LIMIT", 100)
STGY_AI_USER_READ_POST_LIMIT = num("STGY_AI_USER_READ_POST_LIMIT", 10)
STGY_AI_USER_READ_PEER_POST_LIMIT = num("STGY_AI_USER_READ_PEER_POST_LIMIT", 10)
STGY_AI_USER_READ_OWN_POST_LIMIT = num("STGY_AI_USER_READ_OWN_POST_LIMIT", 10)
STGY_AI_USER_LIKE_MAX_INTEREST_RANK = num("STGY_AI_USER_LIKE_MAX_INTEREST_RANK", 2)
STGY_AI_USER_LIKE_MIN_SIMILARITY = num("STGY_AI_USER_LIKE_MIN_SIMILARITY", 0.5, float)
# Reposts by AI users (docs/agent-cycle.md §6, "Reposts"): the like gate, stricter.
STGY_AI_USER_REPOST_MAX_INTEREST_RANK = num("STGY_AI_USER_REPOST_MAX_INTEREST_RANK", 1)
STGY_AI_USER_REPOST_MIN_SIMILARITY = num("STGY_AI_USER_REPOST_MIN_SIMILARITY", 0.7, float)
STGY_AI_USER_REPOSTS_PER_CYCLE = num("STGY_AI_USER_REPOSTS_PER_CYCLE", 1)
STGY_AI_USER_REPLY_MAX_INTEREST_RANK = num("STGY_AI_USER_REPLY_MAX_INTEREST_RANK", 2)
STGY_AI_USER_REPLY_MIN_SIMILARITY = num("STGY_AI_USER_REPLY_MIN_SIMILARITY", 0.6, float)
STGY_AI_USER_POST_TEXT_LIMIT = num("STGY_AI_USER_POST_TEXT_LIMIT", 10000)
STGY_AI_USER_INTRO_TEXT_LIMIT = num("STGY_AI_USER_INTRO_TEXT_LIMIT", 10000)
STGY_AI_USER_IMPRESSION_PEER_TEXT_LIMIT = num("STGY_AI_USER_IMPRESSION_PEER_TEXT_LIMIT", 2000)
STGY_AI_USER_IMPRESSION_LENGTH = num("STGY_AI_USER_IMPRESSION_LENGTH", 1000)
STGY_AI_USER_INTEREST_LENGTH = num("STGY_AI_USER_INTEREST_LENGTH", 2000)
STGY_AI_USER_INTEREST_HYSTERESIS_COEFFICIENT = num(
    "STGY_AI_USER_INTEREST_HYSTERESIS_COEFFICIENT", 0.5, float
)
STGY_AI_USER_NEW_POST_LENGTH = num("STGY_AI_USER_NEW_POST_LENGTH", 2000)
STGY_AI_USER_REPLY_LENGTH = num("STGY_AI_USER_REPLY_LENGTH", 1000)
# Knowledge grounding (agents/runs/knowledge.py, docs/agent-cycle.md §8.1): the accounts
# and publications (emails) and tags whose posts are knowledge; empty lists turn it off.
STGY_KNOWLEDGE_ACCOUNTS = env.list("STGY_KNOWLEDGE_ACCOUNTS", default=[])
STGY_KNOWLEDGE_PUBLICATIONS = env.list("STGY_KNOWLEDGE_PUBLICATIONS", default=[])
STGY_KNOWLEDGE_TAGS = env.list("STGY_KNOWLEDGE_TAGS", default=[])
STGY_KNOWLEDGE_TOP_N = num("STGY_KNOWLEDGE_TOP_N", 3)
STGY_KNOWLEDGE_ROUNDS = num("STGY_KNOWLEDGE_ROUNDS", 1)
STGY_KNOWLEDGE_MIN_SCORE = num("STGY_KNOWLEDGE_MIN_SCORE", 0.3, float)
STGY_KNOWLEDGE_TEXT_LIMIT = num("STGY_KNOWLEDGE_TEXT_LIMIT", 2000)
STGY_AI_USER_POST_LENGTH_FLUCTUATION_RATIO = num(
    "STGY_AI_USER_POST_LENGTH_FLUCTUATION_RATIO", 2.0, float
)
STGY_AI_USER_NEW_POST_TAGS = num("STGY_AI_USER_NEW_POST_TAGS", 3)
STGY_AI_USER_OUTPUT_TEXT_LIMIT = num("STGY_AI_USER_OUTPUT_TEXT_LIMIT", 10000)
STGY_AI_USER_FOLLOWEES_LIMIT = num("STGY_AI_USER_FOLLOWEES_LIMIT", 30)
STGY_AI_USER_FOLLOWEES_MAX_SWAP = num("STGY_AI_USER_FOLLOWEES_MAX_SWAP", 3)
STGY_AI_USER_FOLLOWEES_UP_SIMILARITY = num("STGY_AI_USER_FOLLOWEES_UP_SIMILARITY", 0.6, float)
STGY_AI_USER_FOLLOWEES_DOWN_SIMILARITY = num("STGY_AI_USER_FOLLOWEES_DOWN_SIMILARITY", 0.4, float)
STGY_AI_USER_SKIP_PEER_IMPRESSION_UPDATE_DAYS = num(
    "STGY_AI_USER_SKIP_PEER_IMPRESSION_UPDATE_DAYS", 0.0, float
)
STGY_AI_USER_SKIP_INTEREST_UPDATE_DAYS = num("STGY_AI_USER_SKIP_INTEREST_UPDATE_DAYS", 0.0, float)
# Memory versions and guards (docs/data-model.md "Memory versions", docs/agent-cycle.md
# "Memory guards"): keep the newest KEEP versions of each memory and all of the last
# DAYS days; refuse a rewrite shorter than max(RATIO of the old, FLOOR characters) when
# the old was longer, and an interest whose new embedding's similarity to the previous
# vector is below MIN_SIMILARITY (calibrated scale; -1 turns it off). Agent activity
# flags an AI user whose interest moved farther than DRIFT_FLAG (1 - similarity) in a day.
STGY_AI_MEMORY_VERSION_KEEP = num("STGY_AI_MEMORY_VERSION_KEEP", 20)
STGY_AI_MEMORY_VERSION_DAYS = num("STGY_AI_MEMORY_VERSION_DAYS", 30.0, float)
STGY_AI_MEMORY_SHRINK_RATIO = num("STGY_AI_MEMORY_SHRINK_RATIO", 0.3, float)
STGY_AI_MEMORY_SHRINK_FLOOR = num("STGY_AI_MEMORY_SHRINK_FLOOR", 200)
STGY_AI_INTEREST_MIN_SIMILARITY = num("STGY_AI_INTEREST_MIN_SIMILARITY", 0.6, float)
STGY_AI_INTEREST_DRIFT_FLAG = num("STGY_AI_INTEREST_DRIFT_FLAG", 0.3, float)
STGY_AI_USER_SKIP_NEW_POST_DAYS = num("STGY_AI_USER_SKIP_NEW_POST_DAYS", 1.0, float)
# Hourly caps on what AI users write, by the cycle and the respond path alike
# (agents/rate_limits.py; docs/respond-path.md, "Rate limits").
STGY_AI_USER_HOURLY_ROOT_POSTS_LIMIT = num("STGY_AI_USER_HOURLY_ROOT_POSTS_LIMIT", 4)
STGY_AI_USER_HOURLY_REPLIES_LIMIT = num("STGY_AI_USER_HOURLY_REPLIES_LIMIT", 10)
STGY_AI_USER_HOURLY_REPOSTS_LIMIT = num("STGY_AI_USER_HOURLY_REPOSTS_LIMIT", 2)
STGY_AI_USER_HOURLY_MESSAGES_LIMIT = num("STGY_AI_USER_HOURLY_MESSAGES_LIMIT", 6)
STGY_AI_USER_HOURLY_MESSAGES_TO_ONE_LIMIT = num("STGY_AI_USER_HOURLY_MESSAGES_TO_ONE_LIMIT", 2)
STGY_AI_HOURLY_ACTIONS_LIMIT = num("STGY_AI_HOURLY_ACTIONS_LIMIT", 600)
# AI pace follows the people (agents/rate_limits.py, docs/agent-cycle.md §8): AI root
# posts at most this share of the site's root posts over the window, past a floor.
STGY_AI_ROOT_POSTS_SHARE = num("STGY_AI_ROOT_POSTS_SHARE", 0.5, float)
STGY_AI_ROOT_POSTS_SHARE_WINDOW_HOURS = num("STGY_AI_ROOT_POSTS_SHARE_WINDOW_HOURS", 24.0, float)
STGY_AI_ROOT_POSTS_SHARE_FLOOR = num("STGY_AI_ROOT_POSTS_SHARE_FLOOR", 6)
# Near-duplicates by meaning (agents/runs/near_duplicate.py): a text whose sentences were
# written lately at this share, or whose embedding is this close (raw cosine) to a
# recent AI text, is refused; "lately" is the AI user's newest posts and messages and the
# fleet's newest posts.
STGY_AI_NEAR_DUPLICATE_SENTENCE_SHARE = num("STGY_AI_NEAR_DUPLICATE_SENTENCE_SHARE", 0.5, float)
STGY_AI_NEAR_DUPLICATE_SIMILARITY = num("STGY_AI_NEAR_DUPLICATE_SIMILARITY", 0.9, float)
STGY_AI_NEAR_DUPLICATE_OWN = num("STGY_AI_NEAR_DUPLICATE_OWN", 20)
STGY_AI_NEAR_DUPLICATE_FLEET = num("STGY_AI_NEAR_DUPLICATE_FLEET", 50)
# No AI-to-AI loops (agents/runs/ai_thread.py): AI-to-AI replies in a row in a line of a
# thread with no person in it (2: one answer each; negative: no limit).
STGY_AI_THREAD_AI_REPLIES_LIMIT = num("STGY_AI_THREAD_AI_REPLIES_LIMIT", 2)
# An AI user writing first to a friend (agents/cycle/outreach.py): the share of cycles
# in which it looks, and how recently the person must have written to it.
STGY_AI_USER_OUTREACH_PROBABILITY = num("STGY_AI_USER_OUTREACH_PROBABILITY", 0.2, float)
STGY_AI_USER_OUTREACH_RECENT_DAYS = num("STGY_AI_USER_OUTREACH_RECENT_DAYS", 30.0, float)
STGY_AI_USER_FOLLOWEE_ACTIVE_DAYS = num("STGY_AI_USER_FOLLOWEE_ACTIVE_DAYS", 30.0, float)

# --- The respond path: answers to people who reply to an AI user (docs/respond-path.md) ---
STGY_RESPOND_BATCH = num("STGY_RESPOND_BATCH", 5)
STGY_RESPOND_LEASE_SECONDS = num("STGY_RESPOND_LEASE_SECONDS", 900)
# How long a cycle's writing stage waits for a respond run of the same AI user to end.
STGY_CYCLE_WRITING_WAIT_SECONDS = num("STGY_CYCLE_WRITING_WAIT_SECONDS", 120, float)
STGY_RESPOND_MAX_AI_TURNS = num("STGY_RESPOND_MAX_AI_TURNS", 6)
STGY_RESPOND_LENGTH = num("STGY_RESPOND_LENGTH", 500)
STGY_RESPOND_SWEEP_MIN_AGE_SECONDS = num("STGY_RESPOND_SWEEP_MIN_AGE_SECONDS", 60)
STGY_RESPOND_EVENT_RETENTION_DAYS = num("STGY_RESPOND_EVENT_RETENTION_DAYS", 31)
# Direct messages to AI users (docs/respond-path.md, "Direct messages").
STGY_RESPOND_AI_MESSAGES = env.bool("STGY_RESPOND_AI_MESSAGES", default=False)
STGY_MENTION_NOTIFY_LIMIT = num("STGY_MENTION_NOTIFY_LIMIT", 5)
# Relationships of AI users with their peers (docs/respond-path.md, "Relationships").
STGY_RELATIONSHIP_HALF_LIFE_DAYS = num("STGY_RELATIONSHIP_HALF_LIFE_DAYS", 14.0, float)
STGY_RELATIONSHIP_WEIGHT_REPLY = num("STGY_RELATIONSHIP_WEIGHT_REPLY", 0.15, float)
STGY_RELATIONSHIP_WEIGHT_LIKE = num("STGY_RELATIONSHIP_WEIGHT_LIKE", 0.05, float)
STGY_RELATIONSHIP_WEIGHT_MESSAGE = num("STGY_RELATIONSHIP_WEIGHT_MESSAGE", 0.1, float)

# --- Post summaries and recommendation (docs/summaries-and-vectors.md) ---
# A tier or a model name; empty: the judging tier of STGY_AI_TASK_TIERS (agents/llm/task_tiers.py).
STGY_AI_SUMMARY_MODEL = env.str("STGY_AI_SUMMARY_MODEL", default="")
STGY_AI_SUMMARY_POST_TEXT_LIMIT = num("STGY_AI_SUMMARY_POST_TEXT_LIMIT", 50000)
STGY_AI_SUMMARY_SUMMARY_TEXT_LIMIT = num("STGY_AI_SUMMARY_SUMMARY_TEXT_LIMIT", 10000)
STGY_AI_SUMMARY_SUMMARY_LENGTH = num("STGY_AI_SUMMARY_SUMMARY_LENGTH", 1000)
STGY_AI_SUMMARY_MAX_KEYWORDS = num("STGY_AI_SUMMARY_MAX_KEYWORDS", 20)
STGY_AI_SUMMARY_SWEEP_BATCH = num("STGY_AI_SUMMARY_SWEEP_BATCH", 200)
STGY_AI_SUMMARY_SWEEP_MIN_AGE_SECONDS = num("STGY_AI_SUMMARY_SWEEP_MIN_AGE_SECONDS", 60)
STGY_AI_POST_SEED_NUM_CLUSTERS = num("STGY_AI_POST_SEED_NUM_CLUSTERS", 4)
STGY_AI_POST_SEED_TTL_SEC = num("STGY_AI_POST_SEED_TTL_SEC", 43200)
STGY_AI_POST_SEED_CLUSTER_POSTIDS_LIMIT = num("STGY_AI_POST_SEED_CLUSTER_POSTIDS_LIMIT", 100)
STGY_AI_POST_SEED_NUM_TAGS = num("STGY_AI_POST_SEED_NUM_TAGS", 10)
STGY_AI_POST_SEED_NUM_KEYWORD_HASHES = num("STGY_AI_POST_SEED_NUM_KEYWORD_HASHES", 50)
STGY_AI_POST_RECOMMEND_TTL_SEC = num("STGY_AI_POST_RECOMMEND_TTL_SEC", 3600)
STGY_AI_POST_RECOMMEND_TAG_CANDIDATES = num("STGY_AI_POST_RECOMMEND_TAG_CANDIDATES", 100)
STGY_AI_POST_RECOMMEND_VEC_CANDIDATES = num("STGY_AI_POST_RECOMMEND_VEC_CANDIDATES", 200)
