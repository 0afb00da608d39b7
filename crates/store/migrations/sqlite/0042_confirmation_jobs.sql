-- Confirmations out of the request (issue 21 item 5, decision 0061). The transaction that marks
-- an order paid writes a job here; a worker on any node claims it with a lease, makes the
-- confirmation (the tickets or vouchers PDF, the mail) and, in one transaction, writes the mail to
-- the outbox and marks the job done, so a retry after a crash never mails twice.
--   what: orderConfirmation (a tickets order: screenings, films at home) | giftConfirmation
--   (vouchers, donations, memberships).
--   status: queued (waits for next_attempt_at) | making (claimed until lease_until by
--   lease_token) | done (at done_at; its mail is in mail_outbox) | failed (gave up: last_error).
CREATE TABLE confirmation_jobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id TEXT NOT NULL,
    lang TEXT NOT NULL,
    what TEXT NOT NULL CONSTRAINT confirmation_jobs_what_check CHECK (what IN ('orderConfirmation', 'giftConfirmation')),
    status TEXT NOT NULL DEFAULT 'queued'
        CONSTRAINT confirmation_jobs_status_check CHECK (status IN ('queued', 'making', 'done', 'failed')),
    attempts BIGINT NOT NULL DEFAULT 0,
    max_attempts BIGINT NOT NULL,
    next_attempt_at BIGINT NOT NULL,
    lease_until BIGINT,
    lease_token TEXT,
    last_error TEXT,
    created_at BIGINT NOT NULL,
    done_at BIGINT
);
CREATE INDEX confirmation_jobs_due_idx ON confirmation_jobs (status, next_attempt_at);
CREATE INDEX confirmation_jobs_order_idx ON confirmation_jobs (order_id);
