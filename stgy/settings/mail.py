"""Mail and e-mail verification (docs/accounts.md)."""

from .environment import VAR_DIR, env, num

# --- Mail and e-mail verification (docs/accounts.md) ---
# Default: every mail printed on the console and kept as a file under var/mail/.
# Production: EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend and EMAIL_HOST...
# Unset or empty (as .env.example leaves them) means the default.
EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="") or "stgy.mail.ConsoleAndFileEmailBackend"
EMAIL_FILE_PATH = env.str("EMAIL_FILE_PATH", default="") or str(VAR_DIR / "mail")
EMAIL_HOST = env.str("EMAIL_HOST", default="") or "localhost"
EMAIL_PORT = num("EMAIL_PORT", 25)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
EMAIL_USE_SSL = env.bool("EMAIL_USE_SSL", default=False)
EMAIL_TIMEOUT = num("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="") or "noreply@stgy.jp"
STGY_MAIL_ADDRESS_LIMIT_PER_MIN = num("STGY_MAIL_ADDRESS_LIMIT_PER_MIN", 2)
STGY_MAIL_DOMAIN_LIMIT_PER_MIN = num("STGY_MAIL_DOMAIN_LIMIT_PER_MIN", 10)
STGY_MAIL_GLOBAL_LIMIT_PER_MIN = num("STGY_MAIL_GLOBAL_LIMIT_PER_MIN", 100)
# Mails one client address (an IPv6 one by its /64) may ask for, checked before the
# limits above so that one client cannot use up the site's (sns/core/mail_limits.py).
STGY_MAIL_CLIENT_LIMIT_PER_MIN = num("STGY_MAIL_CLIENT_LIMIT_PER_MIN", 5)
STGY_MAIL_CLIENT_LIMIT_PER_HOUR = num("STGY_MAIL_CLIENT_LIMIT_PER_HOUR", 30)
STGY_HOURLY_GLOBAL_SIGNUP_COUNT_LIMIT = num("STGY_HOURLY_GLOBAL_SIGNUP_COUNT_LIMIT", 60)
STGY_VERIFICATION_TTL_SECONDS = num("STGY_VERIFICATION_TTL_SECONDS", 900)
STGY_VERIFICATION_MAX_ATTEMPTS = num("STGY_VERIFICATION_MAX_ATTEMPTS", 5)
# Seconds after logging in during which a session may change its own password without
# giving the current one (GitHub's "sudo mode"; sns/reads/access.py, docs/accounts.md §6).
STGY_PASSWORD_CHANGE_RECENT_LOGIN_SECONDS = num("STGY_PASSWORD_CHANGE_RECENT_LOGIN_SECONDS", 600)
