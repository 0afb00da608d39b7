//! The seat arbiter (decision 0059) over HTTP, on SQLite and PostgreSQL: buyers racing for best
//! available all served, random locks, unlocks, expiries, picks and sales against a simple model,
//! a restart that reads holds and sales back, and two nodes deciding one seat at the same moment.

use kupa_domain::ids::{PresentationId, SessionId};
use std::collections::{BTreeSet, HashMap};

use crate::common::paying::{pay_by_card, priced_cart_for, row_end_pair};
use crate::common::*;
use axum::http::StatusCode;
use kupa_app::ports::{ClaimStore, Clock};
use kupa_store::testing::TestDb;

fn sid(s: &str) -> SessionId {
    SessionId::from(s)
}

fn ms(at: &str) -> i64 {
    at.parse::<jiff::Timestamp>()
        .unwrap_or_else(|e| panic!("{at}: {e}"))
        .as_millisecond()
}

/// A small deterministic generator (xorshift), so a failing sequence can be run again.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// What a place is, in the model: held by a buyer until a deadline, or sold.
#[derive(Debug, Clone, PartialEq)]
enum Owner {
    Held(usize, i64),
    Sold,
}

struct Model {
    places: HashMap<SeatAddress, Owner>,
}

impl Model {
    /// Whether `who` may take the place now: free, expired, or already theirs.
    fn free_for(&self, at: SeatAddress, who: usize, now: i64) -> bool {
        match self.places.get(&at) {
            None => true,
            Some(Owner::Held(w, until)) => *w == who || *until <= now,
            Some(Owner::Sold) => false,
        }
    }

    fn live_holds(&self, who: usize, now: i64) -> usize {
        self.places
            .values()
            .filter(|o| matches!(o, Owner::Held(w, until) if *w == who && *until > now))
            .count()
    }
}

api_tests! {
async fn sixty_buyers_asking_best_available_at_once_are_each_given_seats_side_by_side(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = app.on_sale_in(1).await;
    let buyers: Vec<String> = (1..=60).map(buyer).collect();
    let answers = futures_util::future::join_all(
        buyers.iter().map(|b| app.best_available(b, p.id, "quantity=4&isLock=1")),
    )
    .await;
    let mut taken = BTreeSet::new();
    for (i, a) in answers.iter().enumerate() {
        assert_eq!(a.status, StatusCode::OK, "buyer {i} was not served: {}", a.text);
        let m = &a.ok().matches[0];
        assert!(m.is_locked);
        assert_eq!(m.seats.len(), 4);
        assert!(
            m.seats.windows(2).all(|w| w[0].section_id == w[1].section_id && w[0].y == w[1].y && w[1].x == w[0].x + 1),
            "side by side: {m:?}"
        );
        for s in &m.seats {
            assert!(taken.insert(s.key()), "{} given twice", s.key());
        }
    }
    let claims = db.db.claims(PresentationId(p.id)).await.unwrap();
    assert_eq!(claims.len(), 240, "every seat given is held, and no other");
    for c in &claims {
        assert!(taken.contains(&SeatAddress::new(c.section_id, c.x, c.y)));
    }
}

async fn random_locks_unlocks_expiries_picks_and_sales_match_a_simple_model(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = app
        .presentations()
        .await
        .into_iter()
        .find(|p| p.venue_id == 1 && p.is_on_sale && app.starts_after(p, 48))
        .expect("a presentation days ahead in the big hall");
    let plan = app.seat_plan(&p).await;
    // Seats to lock and unlock: row ends away from the pairs that are sold.
    let pool: Vec<SeatAddress> = (6..12)
        .flat_map(|r| {
            let (a, b) = row_end_pair(&plan, r);
            [a.key(), b.key()]
        })
        .collect();
    let buyers: Vec<String> = (1..=4).map(buyer).collect();
    let mut model = Model { places: HashMap::new() };
    let mut sold_rows = BTreeSet::new();
    let mut dice = Dice(0x9e37_79b9_7f4a_7c15);
    for step in 0..160 {
        let now = app.clock.now_ms();
        let who = dice.below(buyers.len());
        match dice.below(20) {
            0..=8 => {
                // Lock a seat of the pool, or now and then one that was sold.
                let sold: Vec<SeatAddress> = model
                    .places
                    .iter()
                    .filter(|(_, o)| **o == Owner::Sold)
                    .map(|(k, _)| *k)
                    .collect();
                let at = if !sold.is_empty() && dice.below(6) == 0 {
                    sold[dice.below(sold.len())]
                } else {
                    pool[dice.below(pool.len())]
                };
                if model.live_holds(who, now) >= 8 {
                    continue;
                }
                let expected = model.free_for(at, who, now);
                let r = app.lock(&buyers[who], &p, at).await;
                if expected {
                    let lock = r.expect(&format!("step {step}: buyer {who} may lock {at}"));
                    model.places.insert(at, Owner::Held(who, ms(&lock.expires_at)));
                } else {
                    assert_eq!(r.refused(), (StatusCode::CONFLICT, "lock_seat_error"), "step {step}: {at} is not free for buyer {who}");
                }
            }
            9..=13 => {
                let at = pool[dice.below(pool.len())];
                // A release deletes the buyer's own hold, expired or not, until a sweeper took it.
                let expected = matches!(model.places.get(&at), Some(Owner::Held(w, _)) if *w == who);
                let r = app.unlock(&buyers[who], &p, at).await;
                if expected {
                    r.expect(&format!("step {step}: buyer {who} lets {at} go"));
                    model.places.remove(&at);
                } else {
                    assert_eq!(r.refused(), (StatusCode::CONFLICT, "unlock_seat_error"), "step {step}: {at} is not buyer {who}'s");
                }
            }
            14..=15 => {
                // Time passes; now and then the sweeper runs.
                app.clock.advance_ms(dice.below(300) as i64 * 1000);
                if dice.below(2) == 0 {
                    let now = app.clock.now_ms();
                    app.state.booking.sweep_expired_holds().await.unwrap();
                    model.places.retain(|_, o| !matches!(o, Owner::Held(_, until) if *until <= now));
                }
            }
            16..=17 => {
                if model.live_holds(who, now) > 6 {
                    continue;
                }
                let r = app.best_available(&buyers[who], p.id, "quantity=2&isLock=1").await;
                let m = r.expect(&format!("step {step}: best available for buyer {who}")).matches.remove(0);
                let until = ms(m.expires_at.as_deref().expect("held until"));
                for s in &m.seats {
                    assert!(model.free_for(s.key(), who, now), "step {step}: best available gave {} which is not free for buyer {who}", s.key());
                    model.places.insert(s.key(), Owner::Held(who, until));
                }
            }
            _ => {
                // A new buyer buys a free pair at a row end (its neighbours free too).
                let Some(row) = (0..4).find(|r| {
                    let (a, b) = row_end_pair(&plan, *r);
                    !sold_rows.contains(r) && model.free_for(a.key(), usize::MAX, now) && model.free_for(b.key(), usize::MAX, now)
                }) else {
                    continue;
                };
                let who = buyer(1000 + step);
                let k = priced_cart_for(&app, &who, serde_json::to_value(&p).unwrap(), row, None, "he").await;
                pay_by_card(&app, &who, k).await;
                let (a, b) = row_end_pair(&plan, row);
                model.places.insert(a.key(), Owner::Sold);
                model.places.insert(b.key(), Owner::Sold);
                sold_rows.insert(row);
            }
        }
    }
    // The database holds what the model holds: every sale, every live hold, nothing else live.
    let now = app.clock.now_ms();
    let claims = db.db.claims(PresentationId(p.id)).await.unwrap();
    let db_sold: BTreeSet<SeatAddress> = claims.iter().filter(|c| c.sold).map(|c| SeatAddress::new(c.section_id, c.x, c.y)).collect();
    let db_live: BTreeSet<SeatAddress> = claims.iter().filter(|c| !c.sold && c.expires_at_ms > now).map(|c| SeatAddress::new(c.section_id, c.x, c.y)).collect();
    let model_sold: BTreeSet<SeatAddress> = model.places.iter().filter(|(_, o)| **o == Owner::Sold).map(|(k, _)| *k).collect();
    let model_live: BTreeSet<SeatAddress> = model.places.iter().filter(|(_, o)| matches!(o, Owner::Held(_, until) if *until > now)).map(|(k, _)| *k).collect();
    assert_eq!(db_sold, model_sold, "sales");
    assert_eq!(db_live, model_live, "live holds");
    assert!(!model_sold.is_empty() && !model_live.is_empty(), "the sequence sold and held something");
}

async fn a_restarted_node_reads_holds_and_sales_back_before_it_decides(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = app.on_sale_in(1).await;
    let plan = app.seat_plan(&p).await;
    let (held, _) = row_end_pair(&plan, 6);
    app.lock(&buyer(1), &p, held.key()).await.ok();
    let paid = pay_by_card(&app, &buyer(2), priced_cart_for(&app, &buyer(2), serde_json::to_value(&p).unwrap(), 0, None, "he").await).await;
    let sold: Vec<SeatAddress> = paid.k.seats.iter().map(|s| SeatAddress::new(s["si"].as_i64().unwrap(), s["x"].as_i64().unwrap(), s["y"].as_i64().unwrap())).collect();
    // A new process on the same database: its arbiter starts empty.
    let restarted = app.another_node(db, test_settings()).await;
    let r = restarted.lock(&buyer(3), &p, held.key()).await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "lock_seat_error"), "the hold survived the restart");
    for s in &sold {
        let r = restarted.lock(&buyer(3), &p, *s).await;
        assert_eq!(r.refused(), (StatusCode::CONFLICT, "lock_seat_error"), "the sale survived the restart");
    }
    let best = restarted.best_available(&buyer(4), p.id, "quantity=2&isLock=1").await.ok().matches.remove(0);
    assert!(best.seats.iter().all(|s| s.key() != held.key() && !sold.contains(&s.key())));
    // The holder still owns the seat after the restart, and may let it go there.
    restarted.unlock(&buyer(1), &p, held.key()).await.ok();
    restarted.lock(&buyer(3), &p, held.key()).await.expect("released, so free");
}

async fn two_nodes_deciding_the_same_seat_at_the_same_moment_give_it_to_one(db: &TestDb) {
    let a = TestApp::new(db, test_settings()).await;
    let b = a.another_node(db, test_settings()).await;
    let p = a.on_sale_in(1).await;
    let plan = a.seat_plan(&p).await;
    let mut wins = [0, 0];
    for (i, seat) in plan.seats.iter().filter(|s| !s.hc && !s.lv && s.sf.is_none()).take(24).enumerate() {
        let (x, y) = (buyer(10 + 2 * i as u32), buyer(11 + 2 * i as u32));
        let (ra, rb) = tokio::join!(a.lock(&x, &p, seat.key()), b.lock(&y, &p, seat.key()));
        match (ra.status, rb.status) {
            (StatusCode::OK, StatusCode::CONFLICT) => wins[0] += 1,
            (StatusCode::CONFLICT, StatusCode::OK) => wins[1] += 1,
            other => panic!("seat {}: {other:?}: {} / {}", seat.key(), ra.text, rb.text),
        }
        let claims = db.db.claims(PresentationId(p.id)).await.unwrap();
        assert_eq!(claims.iter().filter(|c| (c.section_id, c.x, c.y) == (seat.si, seat.x, seat.y)).count(), 1);
    }
    eprintln!("node a won {}, node b {}", wins[0], wins[1]);
    // The loser's node learnt the seat is taken: a third buyer there is refused too.
    let seat = plan.seats.iter().find(|s| !s.hc && !s.lv && s.sf.is_none()).unwrap().key();
    assert_eq!(a.lock(&buyer(99), &p, seat).await.refused(), (StatusCode::CONFLICT, "lock_seat_error"));
    assert_eq!(b.lock(&buyer(99), &p, seat).await.refused(), (StatusCode::CONFLICT, "lock_seat_error"));
}

// A sale, a cancellation or a seat change goes through the arbiter (issue 21 item 1): while it is
// written, the seats it gives a session are that session's in memory, even past the hold's
// deadline, so no other buyer is handed them in between; once written, memory has what the write
// did; a write that fails leaves memory as it was and reads the hall again.
async fn a_seat_being_sold_is_not_handed_to_another_buyer_while_the_sale_is_written(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = app.on_sale_in(1).await;
    let plan = app.seat_plan(&p).await;
    let (seat, other) = row_end_pair(&plan, 4);
    let (seat, other) = (seat.key(), other.key());
    let pid = PresentationId(p.id);
    let arbiter = app.state.booking.arbiter();
    let now = app.clock.now_ms();
    let held = arbiter.hold(pid, &[seat, other], &sid("seller"), now, now + 1_000, None).await.unwrap();
    assert_eq!(held, kupa_app::booking::arbiter::HoldDecision::Held);
    let seller = [(pid, seat), (pid, other)];
    let selling = arbiter.begin_settle(&[], Some((&sid("seller"), &seller)), now).await.unwrap();
    assert!(!selling.refused());
    // The hold's deadline passes while the sale is being written: memory still refuses the seat.
    let later = now + 2_000;
    let r = arbiter.hold(pid, &[seat], &sid("another"), later, later + 60_000, None).await.unwrap();
    assert_eq!(r, kupa_app::booking::arbiter::HoldDecision::Taken, "not handed out mid-sale");
    let view = |at: SeatAddress| {
        let arbiter = arbiter.clone();
        async move { arbiter.with_view(pid, &sid("another"), later, |v| v(&at)).await.unwrap() }
    };
    selling.end([(pid, seat, kupa_app::booking::Settled::Sold), (pid, other, kupa_app::booking::Settled::Sold)]);
    assert_eq!(view(seat).await, kupa_domain::catalogue::SeatState::Sold);
    // A sale that is not written (it failed, or the database refused it): memory goes back to
    // what it had, and the hall is read again before the next decision.
    let (third, _) = row_end_pair(&plan, 5);
    let third = third.key();
    arbiter.hold(pid, &[third], &sid("late"), later, later + 1_000, None).await.unwrap();
    let sale = [(pid, third)];
    drop(arbiter.begin_settle(&[], Some((&sid("late"), &sale)), later).await.unwrap());
    let after = later + 5_000;
    let r = arbiter.hold(pid, &[third], &sid("another"), after, after + 60_000, None).await.unwrap();
    assert_eq!(r, kupa_app::booking::arbiter::HoldDecision::Held, "the hold that ran out is free again");
    // A seat change to a seat memory knows another buyer holds is refused before any write.
    let change = [(pid, third)];
    let moving = arbiter.begin_settle(&[(pid, seat)], Some((&sid("mover"), &change)), after).await.unwrap();
    assert!(moving.refused(), "held by another, through this arbiter");
    drop(moving);
    let claims = db.db.claims(pid).await.unwrap();
    let of = |at: SeatAddress| claims.iter().find(|c| c.address() == at).map(|c| c.session_id.clone());
    assert_eq!(of(third), Some(sid("another")), "the refused change wrote nothing");
}
}
