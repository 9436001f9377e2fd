import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stgy.settings")
application = get_wsgi_application()

# What is loaded by now (Django, the apps, their modules) lives as long as the worker;
# frozen, it is left out of the garbage collector's full passes, each of which otherwise
# paused a request for 50-70 ms every hundred-odd page views (the p99 of a page).
gc.freeze()
