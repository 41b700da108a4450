-- the job service's relay: rows locked by the worker's id until a deadline, no fencing token
-- option: fenced-by-owner

-- name: schema
CREATE TABLE jobs (id VARCHAR(64) PRIMARY KEY, sku VARCHAR(64) NOT NULL, pos INT NOT NULL, units INT NOT NULL,
  body VARCHAR(200) NOT NULL, state VARCHAR(8) NOT NULL, locked_by VARCHAR(64), locked_until INT)

-- name: clear
DELETE FROM jobs

-- name: produce
INSERT INTO jobs (id, sku, pos, units, body, state) VALUES (:event, :aggregate, :seq, :quantity, :payload, 'NEW')

-- name: claim-select
SELECT j.id AS event_id, j.sku AS aggregate_id, j.pos AS seq, j.units AS quantity, j.body AS payload FROM jobs j
WHERE j.state = 'NEW' AND (j.locked_by IS NULL OR j.locked_until <= :now)
  AND NOT EXISTS (SELECT 1 FROM jobs e WHERE e.sku = j.sku AND e.state = 'NEW' AND e.pos < j.pos)
ORDER BY j.pos FETCH FIRST :batch ROWS ONLY FOR UPDATE SKIP LOCKED

-- name: claim-lease
UPDATE jobs SET locked_by = :poller, locked_until = :expiry
WHERE id = :event AND state = 'NEW' AND (locked_by IS NULL OR locked_until <= :now)

-- name: claim-granted
SELECT locked_until AS lease_expiry FROM jobs WHERE id = :event

-- name: ack
UPDATE jobs SET state = 'DONE', locked_by = NULL, locked_until = NULL WHERE id = :event AND state = 'NEW' AND locked_by = :poller

-- name: release
UPDATE jobs SET locked_by = NULL, locked_until = NULL WHERE id = :event AND state = 'NEW' AND locked_by = :poller

-- name: snapshot
SELECT id AS event_id, sku AS aggregate_id, pos AS seq, units AS quantity, body AS payload,
  CASE WHEN state = 'DONE' THEN 'DELIVERED' ELSE 'PENDING' END AS status, locked_by AS lease_owner,
  locked_until AS lease_expiry
FROM jobs ORDER BY pos
