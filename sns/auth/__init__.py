"""Who is asking: the session's user from its auth record and the middleware that sets it
(`session`), a personal access token's user (`token`), Django's authentication backend
(`backend`), the one password rule (`passwords`) and the cache deletes Redis missed
(`tombstones`). Reads and checks: it stands on the models and the vocabulary only."""
