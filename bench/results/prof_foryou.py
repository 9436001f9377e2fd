import time, sys
from bench.common import django_setup
django_setup(sys.argv[1], ALLOWED_HOSTS="testserver,127.0.0.1")
from django.core.cache import cache
from sns.models import User
from agents.recommend import recommended_posts_for_user
import cProfile, pstats
users = list(User.objects.filter(ai_model__isnull=True, is_admin=False).order_by("-followee_count")[:3])
for u in users:
    cache.delete(f"recommend-user-posts:{u.id}"); cache.delete(f"recommend-user-seeds:{u.id}")
    t = time.perf_counter(); cpu=time.process_time(); r = recommended_posts_for_user(u, limit=1); print(f"cold for-you {1000*(time.perf_counter()-t):.0f} ms wall {1000*(time.process_time()-cpu):.0f} ms cpu, {len(r)} posts")
    t = time.perf_counter(); r = recommended_posts_for_user(u, limit=1); print(f"warm for-you {1000*(time.perf_counter()-t):.1f} ms")
u = users[0]
cache.delete(f"recommend-user-posts:{u.id}"); cache.delete(f"recommend-user-seeds:{u.id}")
pr = cProfile.Profile(); pr.enable(); recommended_posts_for_user(u, limit=1); pr.disable()
pstats.Stats(pr).sort_stats("cumulative").print_stats(25)
