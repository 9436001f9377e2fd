"""Build the original STGY backend and load one of our generated communities into it.

    python -m bench.original.setup --from-db stgy_bench_orig_web20k_s1_tpl --db stgy_bench_orig_web20k_node

Steps (each skipped when its result is already there, unless --rebuild / --reload):
1. export `backend/`, `packages/` and `postgres/` of the original's git repository
   (STGY_ORIGINAL_REPO, default the local mirror; a `git clone` of the public
   estraier/stgy works as well) at STGY_ORIGINAL_REV into var/original/src
   (git-ignored: none of the original's code is kept in this repository);
2. `npm install` there (its own lock file; the workspace list cut to the backend and
   its packages, and its `engines: node>=24` waived: it runs on the Node 20 in /usr/bin)
   and `tsc` builds of the packages and the backend;
3. its schema (postgres/init/01-schema.sql) into a fresh database on the same
   PostgreSQL server as ours, without the statements that change the whole server
   (ALTER SYSTEM, extensions for statistics), which must not touch a shared cluster;
4. our community copied table by table with COPY: users (+ secrets, details), posts
   (+ details, tags, empty summaries as its createPost writes them), likes, follows,
   blocks. The ids are the same 64-bit integers in both schemas. Counters come from the
   original's own triggers. Humans get the bench password hashed the way the original
   hashes it (scrypt, its default STGY_PASSWORD_CONFIG); AI users an unusable one.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import secrets
import shutil
import subprocess
import time
from pathlib import Path

from ..common import ROOT, db_comment, db_exists, drop_db, pg_url, psql

REPO = os.environ.get("STGY_ORIGINAL_REPO", "/work/.mirror/estraier+stgy/repo")
REV = os.environ.get("STGY_ORIGINAL_REV", "HEAD")
WORKDIR = ROOT / "var" / "original"
SRC = WORKDIR / "src"
BENCH_PASSWORD = "bench-password"  # the generator's password of every human
# The original's default STGY_PASSWORD_CONFIG "scrypt:12:20:4096:8:1": salt bytes,
# key bytes, N, r, p; stored as key followed by salt.
SCRYPT = {"salt": 12, "key": 20, "n": 4096, "r": 8, "p": 1}
# Files the mirror may hold only as pointers (the full geocoder data): not needed to
# serve posts; the server is pointed at the package's small test file instead.
EXCLUDE = ["packages/geocoder/data/geo-japan.ndjson"]
GEO_FILE = SRC / "packages" / "geocoder" / "test-data" / "geo-japan-test.ndjson"
MARKER = "stgy-bench original"


def run(cmd: list[str], cwd: Path, log: Path) -> None:
    with open(log, "a") as out:
        out.write(f"$ {' '.join(cmd)}\n")
        out.flush()
        proc = subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}); see {log}")


def export_source(repo: str = REPO, rev: str = REV) -> str:
    """The original's tree at `rev` in var/original/src; returns the commit."""
    commit = subprocess.run(["git", "-C", repo, "rev-parse", f"{rev}^{{commit}}"], check=True,
                            capture_output=True, text=True).stdout.strip()
    if SRC.exists():
        shutil.rmtree(SRC)
    SRC.mkdir(parents=True)
    paths = ["package.json", "package-lock.json", ".npmrc", "backend", "packages", "postgres"]
    # A mirror without the large file's blob still names it on stderr ("invalid
    # object") though the path is excluded; the archive goes on and is complete.
    with open(WORKDIR / "setup.log", "a") as log:
        archive = subprocess.Popen(["git", "-C", repo, "archive", commit, *paths,
                                    *[f":(exclude){p}" for p in EXCLUDE]], stdout=subprocess.PIPE, stderr=log)
        subprocess.run(["tar", "-x", "-C", str(SRC)], stdin=archive.stdout, check=True)
        archive.wait()
    missing = [p for p in ("backend/src/index.ts", "postgres/init/01-schema.sql") if not (SRC / p).exists()]
    if missing:
        raise SystemExit(f"the export of {repo}@{rev} lacks {missing}")
    manifest = json.loads((SRC / "package.json").read_text())
    manifest["workspaces"] = ["packages/*", "backend"]  # not the frontend nor ttts
    manifest.pop("engines", None)
    (SRC / "package.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return commit


def build(log: Path) -> None:
    run(["npm", "install", "--engine-strict=false", "--no-audit", "--no-fund", "--include=dev"], SRC, log)
    for workspace in ("packages/markdown", "packages/geocoder", "packages/track", "backend"):
        run(["npm", "run", "build", "--workspace", workspace], SRC, log)


def built() -> bool:
    return (SRC / "backend" / "dist" / "index.js").exists() and (SRC / ".stgy-bench-commit").exists()


_SERVER_WIDE = re.compile(
    r"^\s*(CREATE EXTENSION|ALTER SYSTEM|SELECT pg_reload_conf|SELECT current_database\(\) AS db \\gset|"
    r"ALTER DATABASE :)", re.I)


def schema_sql() -> str:
    lines = (SRC / "postgres" / "init" / "01-schema.sql").read_text().splitlines()
    return "\n".join(line for line in lines if not _SERVER_WIDE.match(line)) + "\n"


def create_db(db: str) -> None:
    drop_db(db)
    psql(f'CREATE DATABASE "{db}"')
    proc = subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", db, "-v", "ON_ERROR_STOP=1", "-q", "-f", "-"],
        input=schema_sql(), text=True, capture_output=True)
    if proc.returncode:
        raise SystemExit(f"the original's schema failed on {db}: {proc.stderr[-2000:]}")
    # The original sets these for its database in the lines dropped above.
    psql(f"ALTER DATABASE \"{db}\" SET timezone = 'UTC'")


def password_hash(password: str) -> bytes:
    salt = secrets.token_bytes(SCRYPT["salt"])
    key = hashlib.scrypt(password.encode(), salt=salt, n=SCRYPT["n"], r=SCRYPT["r"], p=SCRYPT["p"],
                         dklen=SCRYPT["key"])
    return key + salt


# (target table and columns, SELECT on our schema). Order matters: users before what
# refers to them, posts in id order (a reply's parent is checked by a trigger).
def copies(human_hash: bytes) -> list[tuple[str, str]]:
    unusable = "\\x" + secrets.token_hex(SCRYPT["salt"] + SCRYPT["key"])
    human = "\\x" + human_hash.hex()
    return [
        ("users (id, updated_at, snippet, nickname, avatar, locale, timezone, ai_model, is_admin, is_frozen, "
         "block_strangers)",
         "SELECT id, updated_at, left(snippet, 4096), nickname, avatar, locale, timezone, ai_model, is_admin, "
         "is_frozen, block_strangers FROM sns_user ORDER BY id"),
        ("user_secrets (user_id, email, password)",
         f"SELECT id, email, CASE WHEN ai_model IS NULL THEN '{human}' ELSE '{unusable}' END::bytea "
         "FROM sns_user ORDER BY id"),
        ("user_details (user_id, introduction, ai_personality)",
         "SELECT id, introduction, ai_personality FROM sns_user ORDER BY id"),
        ("user_follows (follower_id, followee_id, created_at)",
         "SELECT follower_id, followee_id, created_at FROM sns_follow"),
        ("user_blocks (blocker_id, blockee_id, created_at)",
         "SELECT blocker_id, blockee_id, created_at FROM sns_block"),
        ("posts (id, owned_by, reply_to, published_at, updated_at, snippet, locale, allow_likes, allow_replies)",
         "SELECT id, owned_by, reply_to, published_at, updated_at, left(snippet, 4096), locale, "
         "allow_likes, allow_replies FROM sns_post ORDER BY id"),
        ("post_details (post_id, content)", "SELECT id, content FROM sns_post ORDER BY id"),
        ("post_tags (post_id, name, is_root)", "SELECT post_id, name, is_root FROM sns_posttag"),
        ("post_likes (post_id, liked_by, created_at)", "SELECT post_id, liked_by, created_at FROM sns_like"),
    ]


def convert(source_db: str, db: str) -> dict[str, int]:
    import psycopg

    counts: dict[str, int] = {}
    started = time.monotonic()
    with psycopg.connect(pg_url(source_db)) as src, psycopg.connect(pg_url(db)) as dst:
        for target, select in copies(password_hash(BENCH_PASSWORD)):
            with src.cursor().copy(f"COPY ({select}) TO STDOUT") as out, \
                    dst.cursor().copy(f"COPY {target} FROM STDIN") as into:
                for block in out:
                    into.write(block)
            table = target.split()[0]
            counts[table] = dst.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        dst.execute("INSERT INTO ai_post_summaries (post_id, source_updated_at, summary) "
                    "SELECT id, id_to_timestamp(id), NULL FROM posts")
        dst.commit()
    with psycopg.connect(pg_url(db), autocommit=True) as dst:
        dst.execute("VACUUM ANALYZE")
    counts["seconds"] = round(time.monotonic() - started, 1)
    return counts


def ensure(source_db: str, db: str, *, rebuild: bool = False, reload: bool = False) -> dict:
    """Build the original (once) and load `source_db` into `db` (once per source)."""
    WORKDIR.mkdir(parents=True, exist_ok=True)
    log = WORKDIR / "setup.log"
    commit = (SRC / ".stgy-bench-commit").read_text().strip() if built() else ""
    if rebuild or not commit:
        print(f"[original] exporting {REPO}@{REV} to {SRC}, npm install, tsc (log {log})", flush=True)
        commit = export_source()
        build(log)
        (SRC / ".stgy-bench-commit").write_text(commit + "\n")
    comment = db_comment(db) if db_exists(db) else ""
    wanted = f"{MARKER} {source_db} {commit}"
    if comment.startswith(wanted) and not reload:
        info = json.loads(comment[len(wanted):])
    else:
        print(f"[original] loading {source_db} into {db}", flush=True)
        create_db(db)
        info = convert(source_db, db)
        psql(f"COMMENT ON DATABASE \"{db}\" IS '{wanted}{json.dumps(info)}'")
    return {"commit": commit, "db": db, "source_db": source_db, **info}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="build the original STGY backend and load a community into it")
    parser.add_argument("--from-db", required=True, help="our generated community (a stgy_bench_* database)")
    parser.add_argument("--db", required=True, help="the original's database (must start with stgy_bench)")
    parser.add_argument("--rebuild", action="store_true", help="export and build the original again")
    parser.add_argument("--reload", action="store_true", help="load the community again")
    args = parser.parse_args(argv)
    print(json.dumps(ensure(args.from_db, args.db, rebuild=args.rebuild, reload=args.reload), indent=2))


if __name__ == "__main__":
    main()
