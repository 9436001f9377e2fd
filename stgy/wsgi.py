"""The WSGI application gunicorn serves: Django's own handler.

The API's hot reads are answered by `sns.api.hot_reads.HotReadsMiddleware`, inside
Django's middleware chain (docs/architecture.md §9, "The lean path")."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stgy.settings")
application = get_wsgi_application()

# What is loaded by now (Django, the apps, their modules, the middleware instances) lives
# as long as the worker. Frozen (moved to the collector's permanent generation), it is left
# out of every collection, so the collector's passes walk only what requests allocate:
# without it each full pass walked all of it and paused a request for 50-70 ms every
# hundred-odd page views (the p99 of a page).
gc.freeze()
