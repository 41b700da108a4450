-- relaycheck relay file: the reference relay, written as named SQL statements.
-- Start your own from this file (relaycheck sql template > my-relay.sql), keep the names, change the SQL to
-- your relay's tables and statements, then: relaycheck sql all --sql my-relay.sql --db postgres
--
-- Each statement starts with "-- name: NAME". "-- name: NAME [postgres]" or "[h2]" is that database's own
-- version of it (the portable one is used where a database has none). Named parameters (:now, :token, ...)
-- are bound by relaycheck; which ones each statement gets is listed above it. The clock is always :now, in
-- logical ticks: a relay that reads the database's clock (now(), CURRENT_TIMESTAMP) cannot be checked
-- deterministically and is refused. relaycheck owns the transactions: never COMMIT or ROLLBACK here.
--
-- Column names relaycheck reads back: claim-select returns event_id, aggregate_id, seq, quantity, payload;
-- claim-granted returns lease_token, lease_expiry (NULL: never expires); snapshot returns those five and
-- status ('PENDING' or 'DELIVERED'), lease_owner, lease_token, lease_expiry; claim-token and snapshot-token
-- return one number, the last fencing token issued. Alias your own columns with AS.
--
-- "-- option: NAME" lines say what your relay is, as an adapter's optional methods do:
--   claim-in-two-transactions  the claim reads its candidates in one transaction and leases them in a later one
--   fenced-by-owner            no token column: ack and release match while the row's owner is :poller; relaycheck
--                              issues the fencing tokens itself (in tables relaycheck_lease and relaycheck_token);
--                              leave out claim-token, claim-token-write and snapshot-token, never use :token; the
--                              snapshot holds a lease while lease_owner is set (no lease_token column needed)
--   fenced-by-row-version      a version column is the token: claim-lease and release write version + 1, ack and
--                              release match :token against it; claim-granted returns it as lease_token, snapshot as
--                              version; leave out claim-token, claim-token-write and snapshot-token
--   does-not-promise-INVARIANT e.g. does-not-promise-aggregate-order: still checked and reported, never a failure

-- name: schema
CREATE TABLE outbox (
  event_id     VARCHAR(64)  PRIMARY KEY,
  aggregate_id VARCHAR(64)  NOT NULL,
  seq          INT          NOT NULL UNIQUE,
  quantity     INT          NOT NULL,
  payload      VARCHAR(200) NOT NULL,
  status       VARCHAR(10)  NOT NULL CHECK (status IN ('PENDING', 'DELIVERED')),
  lease_owner  VARCHAR(64),
  lease_token  BIGINT,
  lease_expiry INT
);
CREATE INDEX outbox_status_seq ON outbox (status, seq);
-- a table counter, not a SEQUENCE: it is transactional, so a rolled-back claim issues no token
CREATE TABLE fencing_token (id INT PRIMARY KEY, last_token BIGINT NOT NULL);
INSERT INTO fencing_token VALUES (1, 0);

-- name: clear
DELETE FROM outbox;
UPDATE fencing_token SET last_token = 0;

-- in the producer's transaction, next to its business write. Gets :event :aggregate :seq :quantity :payload
-- name: produce
INSERT INTO outbox (event_id, aggregate_id, seq, quantity, payload, status)
VALUES (:event, :aggregate, :seq, :quantity, :payload, 'PENDING')

-- the claim's candidates, in delivery order: pending, lease absent or expired, and no earlier pending row of the
-- same aggregate (head-of-aggregate: what keeps each aggregate's order). Gets :now :batch :poller :lease_ticks
-- and :cursor (a relay that reads "rows after the last sequence I saw" uses it: relaycheck keeps that cursor, the
-- highest sequence the relay has claimed; the reference claims by status and has no cursor) and :app_now (the
-- poller's own clock, off from the database's :now by its skew: judge leases on :now, the database's clock)
-- name: claim-select
SELECT o.event_id, o.aggregate_id, o.seq, o.quantity, o.payload
FROM outbox o
WHERE o.status = 'PENDING'
  AND (o.lease_token IS NULL OR o.lease_expiry <= :now)
  AND NOT EXISTS (SELECT 1 FROM outbox e WHERE e.aggregate_id = o.aggregate_id AND e.status = 'PENDING' AND e.seq < o.seq)
ORDER BY o.seq
FETCH FIRST :batch ROWS ONLY
FOR UPDATE SKIP LOCKED

-- the last token issued, locked for the rest of the claim. Gets :now :poller
-- name: claim-token
SELECT last_token FROM fencing_token WHERE id = 1 FOR UPDATE

-- one candidate leased with a fresh token (:token is the last one + 1), re-checking that it is still claimable.
-- 1 row: leased; 0 rows: someone else took it. Gets :event :poller :token :expiry :now :lease_ticks :app_now
-- name: claim-lease
UPDATE outbox o SET lease_owner = :poller, lease_token = :token, lease_expiry = :expiry
WHERE o.event_id = :event
  AND o.status = 'PENDING'
  AND (o.lease_token IS NULL OR o.lease_expiry <= :now)
  AND NOT EXISTS (SELECT 1 FROM outbox e WHERE e.aggregate_id = o.aggregate_id AND e.status = 'PENDING' AND e.seq < o.seq)

-- the lease a claim-lease wrote, as the row holds it. Gets :event :poller :now
-- name: claim-granted
SELECT lease_token, lease_expiry FROM outbox WHERE event_id = :event

-- the counter moved to the highest token the claim issued. Gets :token :now :poller
-- name: claim-token-write
UPDATE fencing_token SET last_token = :token WHERE id = 1

-- the fenced acknowledgement: 1 row ACKED, 0 rows STALE. Gets :event :token :now :poller
-- name: ack
UPDATE outbox SET status = 'DELIVERED', lease_owner = NULL, lease_token = NULL, lease_expiry = NULL
WHERE event_id = :event AND lease_token = :token AND status = 'PENDING'

-- the fenced release after a failed delivery. Gets :event :token :now :poller
-- name: release
UPDATE outbox SET lease_owner = NULL, lease_token = NULL, lease_expiry = NULL
WHERE event_id = :event AND lease_token = :token AND status = 'PENDING'

-- optional: the heartbeat that extends the lease a poller works under (leave it out if your relay never renews).
-- Fenced by token and re-checking expiry: 1 row renewed; 0 rows: the lease was taken over or lapsed, the poller
-- gives up its batch. Gets :event :token :now :poller :expiry :lease_ticks
-- name: renew
UPDATE outbox SET lease_expiry = :expiry
WHERE event_id = :event AND lease_token = :token AND status = 'PENDING' AND lease_expiry > :now

-- optional: the outbox cleanup job that purges handled rows (leave it out if your relay never deletes rows).
-- relaycheck runs it between the relay's transactions, where the model's schedule has a Cleanup step
-- (scenario outbox-cleanup). It must take only DELIVERED rows: a PENDING row, leased to a poller at work or waiting
-- for a retry, is an event not delivered yet. May hold several statements (an archive copy, then the delete).
-- Gets :now
-- name: cleanup
DELETE FROM outbox WHERE status = 'DELIVERED'

-- every row, in sequence order, in relaycheck's terms
-- name: snapshot
SELECT event_id, aggregate_id, seq, quantity, payload, status, lease_owner, lease_token, lease_expiry
FROM outbox ORDER BY seq

-- name: snapshot-token
SELECT last_token FROM fencing_token WHERE id = 1
