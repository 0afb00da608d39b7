//! The demo chain's past (decision 0026): realistic sales for the presentations of the 14 days
//! before now, written as the order path's finalisation leaves them: a paid order with its
//! captured card payment, its ticket lines and its seats' claims turned sold. Fuller in the
//! evening and at the weekend, middle seats first, orders of one to four seats paid in the week
//! before the screening. Deterministic (seeded by the presentation), in batches, in one
//! transaction a week; run only when `--demo` has just loaded the chain, and by the on-sale
//! benchmark's year of sales (`kupa-loadgen --scenarios year`).

use std::collections::HashMap;

use kupa_app::customer_info::CustomerInfo;
use kupa_app::error::StoreResult;

use crate::rows::Get;
use crate::{Db, db_err};

/// What the seed wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HistoryReport {
    pub presentations: usize,
    pub orders: usize,
    pub tickets: usize,
}

const DAY_MS: i64 = 86_400_000;
/// Rows per statement: under SQLite's 32766 bound values at 21 columns.
const BATCH: usize = 1500;

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn hex(&mut self) -> String {
        format!("{:016x}{:016x}", self.next(), self.next())
    }
}

struct Show {
    id: i64,
    seatplan_id: i64,
    starts_at: i64,
}

struct Seat {
    section_id: i64,
    x: i64,
    y: i64,
    row_name: String,
    seat_name: String,
    section_name: String,
    section_name_en: String,
    ticket_group_id: i64,
}

struct Tk {
    id: i64,
    group: i64,
    name: String,
    name_en: String,
    price: i64,
    service_charge: i64,
}

fn show(r: &impl Get) -> Result<Show, sqlx::Error> {
    Ok(Show {
        id: r.i("id")?,
        seatplan_id: r.i("seatplan_id")?,
        starts_at: r.i("starts_at")?,
    })
}

fn seat(r: &impl Get) -> Result<(i64, Seat), sqlx::Error> {
    Ok((
        r.i("seatplan_id")?,
        Seat {
            section_id: r.i("section_id")?,
            x: r.i("x")?,
            y: r.i("y")?,
            row_name: r.s("row_name")?,
            seat_name: r.s("seat_name")?,
            section_name: r.s("section_name")?,
            section_name_en: r.s("section_name_en")?,
            ticket_group_id: r.i("ticket_group_id")?,
        },
    ))
}

fn ticket(r: &impl Get) -> Result<Tk, sqlx::Error> {
    Ok(Tk {
        id: r.i("id")?,
        group: r.i("ticket_group_id")?,
        name: r.s("name")?,
        name_en: r.s("name_en")?,
        price: r.i("price")?,
        service_charge: r.i("service_charge")?,
    })
}

/// A product a seeded order may buy.
struct Pr {
    id: i64,
    name: String,
    name_en: String,
    price: i64,
}

fn product(r: &impl Get) -> Result<Pr, sqlx::Error> {
    Ok(Pr {
        id: r.i("id")?,
        name: r.s("name")?,
        name_en: r.s("name_en")?,
        price: r.i("price")?,
    })
}

/// A seeded order's product line.
struct Bought {
    order_id: String,
    product: usize,
    quantity: i64,
}

struct Order {
    id: String,
    number: String,
    channel: &'static str,
    products_total: i64,
    session: String,
    presentation_id: i64,
    customer: String,
    tickets_total: i64,
    charges: i64,
    paid_at: i64,
    payment_id: String,
}

struct Line {
    order_id: String,
    line: i64,
    presentation_id: i64,
    seat_index: usize,
    seatplan_id: i64,
    ticket: usize,
    document_key: String,
    paid_at: i64,
    session: String,
}

const FIRST_NAMES: [&str; 8] = [
    "נועה",
    "איתי",
    "מאיה",
    "יונתן",
    "תמר",
    "אורי",
    "שירה",
    "דניאל",
];
const LAST_NAMES: [&str; 6] = ["כהן", "לוי", "מזרחי", "פרץ", "ביטון", "אברהם"];

/// Writes the sales of the presentations that started in the 14 days before `now_ms`.
pub async fn seed_demo_history(db: &Db, now_ms: i64) -> StoreResult<HistoryReport> {
    seed_history(db, now_ms - 14 * DAY_MS, now_ms, now_ms).await
}

/// Writes the sales of the presentations starting in [from_ms, to_ms), paid before `now_ms`, a
/// week of presentations per transaction (the on-sale benchmark's year of sales is millions of
/// tickets), then fills the sales summary from them.
pub async fn seed_history(
    db: &Db,
    from_ms: i64,
    to_ms: i64,
    now_ms: i64,
) -> StoreResult<HistoryReport> {
    let mut report = HistoryReport::default();
    let mut numbers = std::collections::HashSet::new();
    let mut start = from_ms;
    while start < to_ms {
        let end = (start + 7 * DAY_MS).min(to_ms);
        seed_range(db, (start, end), now_ms, &mut numbers, &mut report).await?;
        start = end;
    }
    if let crate::Pool::Postgres(p) = &db.pool {
        // What a bulk load is followed by (autovacuum does it later on its own): fresh statistics,
        // without which the planner guesses a few rows per table and the summary's rebuild takes
        // nested scans of whole tables; and the visibility map, without which counting a
        // screening's sold seats from the index still reads every claim's row.
        sqlx::raw_sql("VACUUM ANALYZE")
            .execute(p)
            .await
            .map_err(db_err)?;
    }
    crate::rebuild_sales_summary(db).await?;
    Ok(report)
}

async fn seed_range(
    db: &Db,
    (from_ms, to_ms): (i64, i64),
    now_ms: i64,
    numbers: &mut std::collections::HashSet<u64>,
    report: &mut HistoryReport,
) -> StoreResult<()> {
    let shows: Vec<Show> = fetch_all!(
        db,
        "SELECT p.id, p.seatplan_id, p.starts_at FROM presentations p JOIN venues v ON v.id = p.venue_id \
         WHERE p.starts_at >= $1 AND p.starts_at < $2 AND v.venue_type_id < 101 ORDER BY p.starts_at, p.id",
        [from_ms, to_ms],
        show
    )?;
    let seats: Vec<(i64, Seat)> = fetch_all!(
        db,
        "SELECT s.seatplan_id, s.section_id, s.x, s.y, s.row_name, s.seat_name, c.name AS section_name, \
         c.name_en AS section_name_en, c.ticket_group_id FROM seats s JOIN sections c ON c.id = s.section_id \
         WHERE c.kind = 'reserved' AND s.sofa_id IS NULL AND s.handicap = FALSE AND s.companion = FALSE \
         ORDER BY s.seatplan_id, s.y, s.x",
        [],
        seat
    )?;
    let tickets: Vec<Tk> = fetch_all!(
        db,
        "SELECT id, ticket_group_id, name, name_en, price, service_charge FROM tickets \
         WHERE ref_prompt = '' AND member_only = FALSE AND needs_senior_id = FALSE AND requires_ticket_id IS NULL \
         AND multiply_factor = 1 AND by_code_only = FALSE AND price > 0 ORDER BY sort, id",
        [],
        ticket
    )?;
    let products: Vec<Pr> = fetch_all!(
        db,
        "SELECT id, name, name_en, price FROM products WHERE price > 0 ORDER BY id",
        [],
        product
    )?;
    let mut by_plan: HashMap<i64, Vec<&Seat>> = HashMap::new();
    for (plan, s) in &seats {
        by_plan.entry(*plan).or_default().push(s);
    }
    let mut orders = Vec::new();
    let mut lines = Vec::new();
    let mut bought = Vec::new();
    for show in &shows {
        let Some(plan) = by_plan.get(&show.seatplan_id) else {
            continue;
        };
        let mut rng = Rng(show.id as u64 * 7919 + 17);
        let local =
            kupa_domain::time::ms_to_timestamp(show.starts_at).to_zoned(kupa_domain::time::zone());
        let evening = local.hour() >= 19;
        let weekend = matches!(
            local.weekday(),
            jiff::civil::Weekday::Thursday
                | jiff::civil::Weekday::Friday
                | jiff::civil::Weekday::Saturday
        );
        let mut fill = 8 + rng.below(27) as usize;
        if evening {
            fill += 22;
        }
        if weekend {
            fill += 12;
        }
        let wanted = plan.len() * fill.min(97) / 100;
        // Middle seats first: by distance from the plan's middle, with a little noise.
        let (mx, my) = (
            plan.iter().map(|s| s.x).sum::<i64>() / plan.len() as i64,
            plan.iter().map(|s| s.y).sum::<i64>() * 2 / (3 * plan.len() as i64),
        );
        let mut order: Vec<(i64, usize)> = plan
            .iter()
            .enumerate()
            .map(|(i, s)| {
                (
                    (s.x - mx).abs() * 2 + (s.y - my).abs() * 3 + rng.below(6) as i64,
                    i,
                )
            })
            .collect();
        order.sort();
        let mut taken = 0;
        while taken < wanted {
            let size = (1 + rng.below(4) as usize).min(wanted - taken);
            let paid_at = (show.starts_at - 600_000 - rng.below(7 * DAY_MS as u64) as i64)
                .min(now_ms - 60_000);
            let id = rng.hex();
            let session = rng.hex();
            let first = FIRST_NAMES[rng.below(8) as usize];
            let last = LAST_NAMES[rng.below(6) as usize];
            let customer = CustomerInfo {
                first_name: first.into(),
                last_name: last.into(),
                email: format!("guest{}@example.com", rng.below(100_000)),
                ..CustomerInfo::default()
            };
            let (mut total, mut charges) = (0, 0);
            for k in 0..size {
                let seat_index = order[taken + k].1;
                let group = plan[seat_index].ticket_group_id;
                let options: Vec<usize> = tickets
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| t.group == group)
                    .map(|(i, _)| i)
                    .collect();
                let Some(&t) = options
                    .get(if rng.below(4) == 0 { 1 } else { 0 })
                    .or(options.first())
                else {
                    continue;
                };
                total += tickets[t].price;
                charges += tickets[t].service_charge;
                lines.push(Line {
                    order_id: id.clone(),
                    line: k as i64 + 1,
                    presentation_id: show.id,
                    seat_index,
                    seatplan_id: show.seatplan_id,
                    ticket: t,
                    document_key: rng.hex(),
                    paid_at,
                    session: session.clone(),
                });
                report.tickets += 1;
            }
            taken += size;
            // About a third of the orders add snacks; most sell on the web, some through a
            // mini-site or a partner.
            let mut products_total = 0;
            if !products.is_empty() && rng.below(3) == 0 {
                let first = rng.below(products.len() as u64) as usize;
                for k in 0..1 + rng.below(2) as usize {
                    let product = (first + k * 3) % products.len();
                    if k > 0 && product == first {
                        break;
                    }
                    let quantity = 1 + rng.below(size as u64) as i64;
                    products_total += quantity * products[product].price;
                    bought.push(Bought {
                        order_id: id.clone(),
                        product,
                        quantity,
                    });
                }
            }
            let channel = match rng.below(20) {
                0 | 1 => "miniSite",
                2 => "partnerApi",
                _ => "web",
            };
            let mut n = rng.below(100_000_000);
            while !numbers.insert(n) {
                n = rng.below(100_000_000);
            }
            orders.push(Order {
                number: format!("{:04}-{:04}", n / 10_000, n % 10_000),
                payment_id: rng.hex(),
                id,
                session,
                channel,
                products_total,
                presentation_id: show.id,
                customer: serde_json::to_string(&customer).unwrap_or_else(|_| "{}".into()),
                tickets_total: total,
                charges,
                paid_at,
            });
        }
        report.presentations += 1;
    }
    report.orders += orders.len();
    crate::on_pool!(db, |p| {
        let mut tx = crate::BeginWrite::begin_write(p).await.map_err(db_err)?;
        for chunk in orders.chunks(BATCH) {
            let mut q = sqlx::QueryBuilder::new(
                "INSERT INTO orders (id, reservation_number, session_id, status, is_hold, customer_id, customer, \
                 locale, tickets_total, products_total, service_charge_total, service_charge_name, total, currency, payment_id, \
                 created_at, updated_at, paid_at, committed_at, channel) ",
            );
            q.push_values(chunk, |mut b, o| {
                b.push_bind(o.id.clone())
                    .push_bind(o.number.clone())
                    .push_bind(o.session.clone())
                    .push_bind("paid")
                    .push_bind(false)
                    .push_bind(None::<i64>)
                    .push_bind(o.customer.clone())
                    .push_bind("he")
                    .push_bind(o.tickets_total)
                    .push_bind(o.products_total)
                    .push_bind(o.charges)
                    .push_bind("דמי טיפול")
                    .push_bind(o.tickets_total + o.products_total + o.charges)
                    .push_bind("ILS")
                    .push_bind(o.payment_id.clone())
                    .push_bind(o.paid_at - 240_000)
                    .push_bind(o.paid_at)
                    .push_bind(o.paid_at)
                    .push_bind(o.paid_at)
                    .push_bind(o.channel);
            });
            q.build().execute(&mut *tx).await.map_err(db_err)?;
            let mut q = sqlx::QueryBuilder::new(
                "INSERT INTO order_presentations (order_id, presentation_id, position) ",
            );
            q.push_values(chunk, |mut b, o| {
                b.push_bind(o.id.clone())
                    .push_bind(o.presentation_id)
                    .push_bind(0i64);
            });
            q.build().execute(&mut *tx).await.map_err(db_err)?;
            let mut q = sqlx::QueryBuilder::new(
                "INSERT INTO payments (id, order_id, session_id, method, amount, currency, installments, status, card_brand, \
                 card_last4, card_bin, save_card, locale, return_url, created_at, updated_at) ",
            );
            q.push_values(chunk, |mut b, o| {
                b.push_bind(o.payment_id.clone())
                    .push_bind(o.id.clone())
                    .push_bind(o.session.clone())
                    .push_bind("card")
                    .push_bind(o.tickets_total + o.products_total + o.charges)
                    .push_bind("ILS")
                    .push_bind(1i64)
                    .push_bind("captured")
                    .push_bind("visa")
                    .push_bind("4242")
                    .push_bind("424242")
                    .push_bind(false)
                    .push_bind("he")
                    .push_bind("/")
                    .push_bind(o.paid_at - 120_000)
                    .push_bind(o.paid_at);
            });
            q.build().execute(&mut *tx).await.map_err(db_err)?;
        }
        for chunk in bought.chunks(BATCH) {
            let mut q = sqlx::QueryBuilder::new(
                "INSERT INTO order_products (order_id, product_id, name, name_en, quantity, unit_price) ",
            );
            q.push_values(chunk, |mut b, l| {
                let p = &products[l.product];
                b.push_bind(l.order_id.clone())
                    .push_bind(p.id)
                    .push_bind(p.name.clone())
                    .push_bind(p.name_en.clone())
                    .push_bind(l.quantity)
                    .push_bind(p.price);
            });
            q.build().execute(&mut *tx).await.map_err(db_err)?;
        }
        for chunk in lines.chunks(BATCH) {
            let mut q = sqlx::QueryBuilder::new(
                "INSERT INTO order_tickets (order_id, line, presentation_id, section_id, x, y, section_name, row_name, seat_name, \
                 ticket_id, ticket_name, ticket_name_en, price, service_charge, is_sub_ticket, document_key, section_name_en) ",
            );
            q.push_values(chunk, |mut b, l| {
                let s = by_plan[&l.seatplan_id][l.seat_index];
                let t = &tickets[l.ticket];
                b.push_bind(l.order_id.clone())
                    .push_bind(l.line)
                    .push_bind(l.presentation_id)
                    .push_bind(s.section_id)
                    .push_bind(s.x)
                    .push_bind(s.y)
                    .push_bind(s.section_name.clone())
                    .push_bind(s.row_name.clone())
                    .push_bind(s.seat_name.clone())
                    .push_bind(t.id)
                    .push_bind(t.name.clone())
                    .push_bind(t.name_en.clone())
                    .push_bind(t.price)
                    .push_bind(t.service_charge)
                    .push_bind(false)
                    .push_bind(l.document_key.clone())
                    .push_bind(s.section_name_en.clone());
            });
            q.build().execute(&mut *tx).await.map_err(db_err)?;
            let mut q = sqlx::QueryBuilder::new(
                "INSERT INTO seat_claims (presentation_id, section_id, x, y, session_id, state, expires_at, order_id, updated_at) ",
            );
            q.push_values(chunk, |mut b, l| {
                let s = by_plan[&l.seatplan_id][l.seat_index];
                b.push_bind(l.presentation_id)
                    .push_bind(s.section_id)
                    .push_bind(s.x)
                    .push_bind(s.y)
                    .push_bind(l.session.clone())
                    .push_bind("sold")
                    .push_bind(l.paid_at)
                    .push_bind(l.order_id.clone())
                    .push_bind(l.paid_at);
            });
            q.build().execute(&mut *tx).await.map_err(db_err)?;
        }
        tx.commit().await.map_err(db_err)?;
        Ok::<(), kupa_app::StoreError>(())
    })?;
    Ok(())
}
