-- Video on demand (issue 19 item 2, decision 0053): the play sessions a purchase has opened.
-- One row per order with a video-on-demand presentation, written when its first play session
-- opens; playback_count only grows, by one conditional UPDATE per session, so concurrent opens
-- never spend more than the purchase's allowance (which the app computes from its tickets).
CREATE TABLE vod_playbacks (
    order_id TEXT PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
    playback_count BIGINT NOT NULL CONSTRAINT vod_playbacks_count_check CHECK (playback_count >= 0),
    last_playback_at BIGINT
);
