"""The middleware chain, in order, in a module of its own: a change to the chain is a
change to this file alone."""

MIDDLEWARE = [
    "stgy.security_headers.SecurityHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "stgy.ops.middleware.RequestMetricsMiddleware",  # after static files: routes only
    "sns.api.cors.ApiCorsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "sns.auth.sliding.SlidingSessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # The API's hot reads answer here, after every middleware above (each leaves its mark
    # on their answers) and before every one below (none does); the rest go on
    # (sns/api/hot_reads.py, docs/architecture.md §9 "The lean path"). A middleware added
    # above costs every hot read: tests/sns/test_hot_reads_served.py lists those expected.
    "sns.api.hot_reads.HotReadsMiddleware",
    # The API at the root of the hosts in STGY_API_ROOT_HOSTS (stgy/api_root.py); the hot
    # reads' paths, under /api/ and /backend/, are the same views on those hosts.
    "stgy.api_root.ApiRootHostMiddleware",
    "sns.auth.session.SessionAuthenticationMiddleware",
    # The member's language of the interface (sns/web/language.py).
    "sns.web.language.InterfaceLanguageMiddleware",
    # Our pages for Django's own 405 and, under DEBUG, 404 (sns/web/error_pages.py): inside
    # the chain, after the user and the language are known.
    "sns.web.error_pages.ErrorPagesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "sns.input_limits.InputLimitsMiddleware",
    "agents.llm.deadline.WebDeadlineMiddleware",
]
