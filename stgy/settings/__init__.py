"""STGY settings: every value is read once, through django-environ, in the part of this
package for its concern; this module puts the parts together.

The defaults give the embedded mode (SQLite under var/, tasks run in-process, AI off
unless a provider is chosen). Production sets DATABASE_URL, REDIS_URL, SECRET_KEY and
DEBUG=false; `.env.example` lists every variable.
"""

from .ai import *
from .api import *
from .core import *
from .data import *
from .limits import *
from .mail import *
from .middleware import *
from .ops import *
from .storage import *
from .tasks import *
from .web import *
