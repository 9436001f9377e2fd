import cProfile, pstats, time, sys
from bench.common import django_setup
django_setup("stgy_bench_tiny", ALLOWED_HOSTS="testserver,127.0.0.1")
from django.test import Client
from sns.models import User, Post
from django.db import connection
from django.test.utils import CaptureQueriesContext
u = User.objects.filter(ai_model__isnull=True, is_admin=False).order_by("-followee_count").first()
c = Client(); c.force_login(u)
path = sys.argv[1] if len(sys.argv) > 1 else "/"
if path == "post":
    path = "/posts/" + Post.objects.order_by("-reply_count").first().hex_id
r = c.get(path); print(r.status_code, len(r.content))
for i in range(3):
    t = time.perf_counter(); cpu = time.process_time()
    with CaptureQueriesContext(connection) as q:
        r = c.get(path)
    print(f"{path}: {1000*(time.perf_counter()-t):.1f} ms wall, {1000*(time.process_time()-cpu):.1f} ms cpu, {len(q.captured_queries)} queries")
pr = cProfile.Profile(); pr.enable(); c.get(path); pr.disable()
pstats.Stats(pr).sort_stats("cumulative").print_stats(35)
