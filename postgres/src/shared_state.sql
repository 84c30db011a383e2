-- The state toolpack's replicas share (migration 1). UNLOGGED: nothing here outlives a
-- crash usefully. Every time is the database's clock.

-- Upstream answers by the SHA-256 of their request (method, URL, query, plain headers,
-- body; never the API key).
CREATE UNLOGGED TABLE toolpack_shared_cache (
    key_hash BYTEA PRIMARY KEY,
    request TEXT NOT NULL,
    status INTEGER NOT NULL,
    headers TEXT NOT NULL,
    body BYTEA NOT NULL,
    as_of TIMESTAMPTZ NOT NULL,
    fresh_until TIMESTAMPTZ NOT NULL,
    stale_until TIMESTAMPTZ NOT NULL,
    bytes INTEGER NOT NULL
);
CREATE INDEX toolpack_shared_cache_stale_until ON toolpack_shared_cache (stale_until);

-- The replica fetching a request for every replica, until when.
CREATE UNLOGGED TABLE toolpack_shared_claims (
    key_hash BYTEA PRIMARY KEY,
    replica BIGINT NOT NULL,
    until TIMESTAMPTZ NOT NULL
);

-- Tokens granted of each key's budget, by lease.
CREATE UNLOGGED TABLE toolpack_budget_leases (
    family TEXT NOT NULL,
    key_id TEXT NOT NULL,
    granted_at TIMESTAMPTZ NOT NULL,
    tokens INTEGER NOT NULL
);
CREATE INDEX toolpack_budget_leases_by_key ON toolpack_budget_leases (family, key_id, granted_at);

-- A key the upstream asked to wait (Retry-After), until when.
CREATE UNLOGGED TABLE toolpack_budget_pauses (
    family TEXT NOT NULL,
    key_id TEXT NOT NULL,
    until TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (family, key_id)
);

-- Replicas that leased tokens, when last.
CREATE UNLOGGED TABLE toolpack_replicas (
    replica BIGINT PRIMARY KEY,
    seen_at TIMESTAMPTZ NOT NULL
);

-- Each caller's limit of each tool (GCRA: the theoretical arrival time of its next call).
CREATE UNLOGGED TABLE toolpack_caller_limits (
    tool TEXT NOT NULL,
    caller TEXT NOT NULL,
    tat TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (tool, caller)
);

-- Up to p_want tokens of a key's budget of p_per_window per window, for p_replica; with
-- none, how long until some. Leases of one key take turns (an advisory lock).
CREATE FUNCTION toolpack_lease(
    p_family TEXT, p_key TEXT, p_per_window INTEGER, p_want INTEGER, p_window_ms BIGINT,
    p_replica BIGINT,
    OUT granted INTEGER, OUT wait_ms BIGINT, OUT replicas INTEGER
) LANGUAGE plpgsql AS $$
DECLARE
    now_ TIMESTAMPTZ;
    window_ INTERVAL := p_window_ms * INTERVAL '1 millisecond';
    used INTEGER;
    oldest TIMESTAMPTZ;
    paused TIMESTAMPTZ;
BEGIN
    INSERT INTO toolpack_replicas AS r VALUES (p_replica, clock_timestamp())
        ON CONFLICT (replica) DO UPDATE SET seen_at = excluded.seen_at;
    SELECT count(*) INTO replicas FROM toolpack_replicas
        WHERE seen_at > clock_timestamp() - INTERVAL '1 minute';
    PERFORM pg_advisory_xact_lock(hashtextextended(p_family || chr(31) || p_key, 61));
    now_ := clock_timestamp();
    SELECT until INTO paused FROM toolpack_budget_pauses
        WHERE family = p_family AND key_id = p_key;
    IF paused IS NOT NULL AND paused > now_ THEN
        granted := 0;
        wait_ms := greatest(1, ceil(extract(epoch FROM paused - now_) * 1000))::BIGINT;
        RETURN;
    END IF;
    DELETE FROM toolpack_budget_leases
        WHERE family = p_family AND key_id = p_key AND granted_at <= now_ - window_;
    SELECT coalesce(sum(tokens), 0), min(granted_at) INTO used, oldest
        FROM toolpack_budget_leases WHERE family = p_family AND key_id = p_key;
    granted := least(p_want, p_per_window - used);
    IF granted > 0 THEN
        INSERT INTO toolpack_budget_leases VALUES (p_family, p_key, now_, granted);
        wait_ms := 0;
    ELSE
        granted := 0;
        wait_ms := greatest(1, ceil(extract(epoch FROM oldest + window_ - now_) * 1000))::BIGINT;
    END IF;
END $$;

-- The upstream asked a key to wait p_ms: no lease of it until then.
CREATE FUNCTION toolpack_pause(p_family TEXT, p_key TEXT, p_ms BIGINT) RETURNS VOID
LANGUAGE sql AS $$
    INSERT INTO toolpack_budget_pauses AS p
        VALUES (p_family, p_key, clock_timestamp() + p_ms * INTERVAL '1 millisecond')
        ON CONFLICT (family, key_id) DO UPDATE SET until = greatest(p.until, excluded.until);
$$;

-- The answer kept for a request (fresh or only good in place of an error); without a
-- fresh one, p_replica claims the fetch for p_claim_ms unless another replica holds it.
CREATE FUNCTION toolpack_cache_lookup(
    p_hash BYTEA, p_replica BIGINT, p_claim_ms BIGINT,
    OUT status INTEGER, OUT headers TEXT, OUT body BYTEA, OUT as_of TIMESTAMPTZ,
    OUT fresh_ms BIGINT, OUT stale_ms BIGINT, OUT claimed BOOLEAN
) LANGUAGE plpgsql AS $$
DECLARE
    now_ TIMESTAMPTZ := clock_timestamp();
    fresh_until_ TIMESTAMPTZ;
    stale_until_ TIMESTAMPTZ;
BEGIN
    SELECT c.status, c.headers, c.body, c.as_of, c.fresh_until, c.stale_until
        INTO status, headers, body, as_of, fresh_until_, stale_until_
        FROM toolpack_shared_cache c WHERE c.key_hash = p_hash AND c.stale_until > now_;
    claimed := false;
    IF status IS NOT NULL THEN
        fresh_ms := greatest(0, floor(extract(epoch FROM fresh_until_ - now_) * 1000))::BIGINT;
        stale_ms := greatest(0, floor(extract(epoch FROM stale_until_ - now_) * 1000))::BIGINT;
        IF fresh_ms > 0 THEN
            RETURN;
        END IF;
    END IF;
    INSERT INTO toolpack_shared_claims AS c
        VALUES (p_hash, p_replica, now_ + p_claim_ms * INTERVAL '1 millisecond')
        ON CONFLICT (key_hash) DO UPDATE SET replica = excluded.replica, until = excluded.until
        WHERE c.until <= now_ OR c.replica = p_replica;
    claimed := FOUND;
END $$;

-- Keeps an answer for every replica and ends p_replica's claim on it.
CREATE FUNCTION toolpack_cache_put(
    p_hash BYTEA, p_request TEXT, p_status INTEGER, p_headers TEXT, p_body BYTEA,
    p_as_of TIMESTAMPTZ, p_fresh_ms BIGINT, p_stale_ms BIGINT, p_replica BIGINT
) RETURNS VOID LANGUAGE sql AS $$
    INSERT INTO toolpack_shared_cache AS c VALUES (
        p_hash, p_request, p_status, p_headers, p_body, p_as_of,
        clock_timestamp() + p_fresh_ms * INTERVAL '1 millisecond',
        clock_timestamp() + (p_fresh_ms + p_stale_ms) * INTERVAL '1 millisecond',
        octet_length(p_request) + octet_length(p_headers) + octet_length(p_body) + 256
    ) ON CONFLICT (key_hash) DO UPDATE SET
        request = excluded.request, status = excluded.status, headers = excluded.headers,
        body = excluded.body, as_of = excluded.as_of, fresh_until = excluded.fresh_until,
        stale_until = excluded.stale_until, bytes = excluded.bytes;
    DELETE FROM toolpack_shared_claims WHERE key_hash = p_hash AND replica = p_replica;
$$;

-- Ends p_replica's claim on a request without an answer to share.
CREATE FUNCTION toolpack_cache_release(p_hash BYTEA, p_replica BIGINT) RETURNS VOID
LANGUAGE sql AS $$
    DELETE FROM toolpack_shared_claims WHERE key_hash = p_hash AND replica = p_replica;
$$;

-- Forgets answers past even their stale bound, then the least fresh until the cache holds
-- at most p_capacity bytes; and the claims, pauses, limits and replicas that ended.
CREATE FUNCTION toolpack_trim(p_capacity BIGINT) RETURNS VOID LANGUAGE sql AS $$
    DELETE FROM toolpack_shared_cache WHERE stale_until <= clock_timestamp();
    DELETE FROM toolpack_shared_cache WHERE key_hash IN (
        SELECT key_hash FROM (
            SELECT key_hash, sum(bytes) OVER (ORDER BY fresh_until DESC, key_hash) AS running
            FROM toolpack_shared_cache
        ) held WHERE running > p_capacity
    );
    DELETE FROM toolpack_shared_claims WHERE until <= clock_timestamp();
    DELETE FROM toolpack_budget_pauses WHERE until <= clock_timestamp();
    DELETE FROM toolpack_caller_limits WHERE tat <= clock_timestamp() - INTERVAL '1 minute';
    DELETE FROM toolpack_replicas WHERE seen_at <= clock_timestamp() - INTERVAL '10 minutes';
$$;

-- One call of p_tool for p_caller under p_per_second a second (a burst of as many), over
-- every replica (GCRA; concurrent calls of one caller take turns on its row).
CREATE FUNCTION toolpack_caller_permit(p_tool TEXT, p_caller TEXT, p_per_second INTEGER)
RETURNS BOOLEAN LANGUAGE plpgsql AS $$
DECLARE
    now_ TIMESTAMPTZ := clock_timestamp();
    step INTERVAL := INTERVAL '1 second' / p_per_second;
    next_ TIMESTAMPTZ;
BEGIN
    INSERT INTO toolpack_caller_limits AS l VALUES (p_tool, p_caller, now_ + step)
        ON CONFLICT (tool, caller) DO UPDATE SET tat = greatest(l.tat, now_) + step
        WHERE greatest(l.tat, now_) + step <= now_ + INTERVAL '1 second'
        RETURNING tat INTO next_;
    RETURN next_ IS NOT NULL;
END $$;
