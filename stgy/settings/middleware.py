"""The middleware chain, in order, in a module of its own: a change to the chain is a
change to this file alone."""

MIDDLEWARE = [
    "stgy.security_headers.SecurityHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "stgy.ops.middleware.RequestMetricsMiddleware",  # after static files: routes only
    "sns.api.cors.ApiCorsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "sns.sessions.SlidingSessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # The API's hot reads answer here; the rest go on (sns/api/hot_reads.py).
    "sns.api.hot_reads.HotReadsMiddleware",
    # The API at the root of the hosts in STGY_API_ROOT_HOSTS (stgy/api_root.py); after
    # the hot reads, which the lean path (stgy/lean_handler.py) answers before it.
    "stgy.api_root.ApiRootHostMiddleware",
    "sns.auth.session.SessionAuthenticationMiddleware",
    # The member's language of the interface (sns/web/language.py).
    "sns.web.language.InterfaceLanguageMiddleware",
    # Our pages for Django's own 405 and, under DEBUG, 404 (sns/web/error_pages.py): inside
    # the chain, after the user and the language are known (and out of the way of the
    # outer steps the lean path takes, stgy/lean_handler.py).
    "sns.web.error_pages.ErrorPagesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "sns.input_limits.InputLimitsMiddleware",
    "agents.llm.deadline.WebDeadlineMiddleware",
]
