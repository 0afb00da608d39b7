-- The outbox worker (decision 0057). With a real SMS provider or SMTP server configured, every
-- message is written to its outbox first and sent by a worker that claims it with a lease, so a
-- provider outage loses nothing and two nodes never send the same row at once. Without one the
-- outboxes are the destination, as before: their rows stay 'recorded'.
--   status: recorded (nothing to send) | queued (waits for next_attempt_at) | sending (claimed
--   until lease_until by lease_token) | sent (at sent_at, provider_id from the provider) | failed
--   (gave up: last_error says why; never a secret).
ALTER TABLE sms_outbox ADD COLUMN status TEXT NOT NULL DEFAULT 'recorded'
    CONSTRAINT sms_outbox_status_check CHECK (status IN ('recorded', 'queued', 'sending', 'sent', 'failed'));
ALTER TABLE sms_outbox ADD COLUMN attempts BIGINT NOT NULL DEFAULT 0;
ALTER TABLE sms_outbox ADD COLUMN max_attempts BIGINT NOT NULL DEFAULT 0;
ALTER TABLE sms_outbox ADD COLUMN next_attempt_at BIGINT;
ALTER TABLE sms_outbox ADD COLUMN lease_until BIGINT;
ALTER TABLE sms_outbox ADD COLUMN lease_token TEXT;
ALTER TABLE sms_outbox ADD COLUMN last_error TEXT;
ALTER TABLE sms_outbox ADD COLUMN sent_at BIGINT;
ALTER TABLE sms_outbox ADD COLUMN provider_id TEXT;
CREATE INDEX sms_outbox_due_idx ON sms_outbox (status, next_attempt_at);

ALTER TABLE mail_outbox ADD COLUMN status TEXT NOT NULL DEFAULT 'recorded'
    CONSTRAINT mail_outbox_status_check CHECK (status IN ('recorded', 'queued', 'sending', 'sent', 'failed'));
ALTER TABLE mail_outbox ADD COLUMN attempts BIGINT NOT NULL DEFAULT 0;
ALTER TABLE mail_outbox ADD COLUMN max_attempts BIGINT NOT NULL DEFAULT 0;
ALTER TABLE mail_outbox ADD COLUMN next_attempt_at BIGINT;
ALTER TABLE mail_outbox ADD COLUMN lease_until BIGINT;
ALTER TABLE mail_outbox ADD COLUMN lease_token TEXT;
ALTER TABLE mail_outbox ADD COLUMN last_error TEXT;
ALTER TABLE mail_outbox ADD COLUMN sent_at BIGINT;
ALTER TABLE mail_outbox ADD COLUMN provider_id TEXT;
CREATE INDEX mail_outbox_due_idx ON mail_outbox (status, next_attempt_at);

-- The bytes of a queued mail's attachments (the tickets PDF), kept only until the mail is sent
-- or given up: the worker then deletes them. position follows mail_outbox.attachments.
CREATE TABLE mail_outbox_attachments (
    mail_id BIGINT NOT NULL CONSTRAINT mail_outbox_attachments_mail_fkey REFERENCES mail_outbox (id) ON DELETE CASCADE,
    position BIGINT NOT NULL,
    bytes BYTEA NOT NULL,
    CONSTRAINT mail_outbox_attachments_pkey PRIMARY KEY (mail_id, position)
);
