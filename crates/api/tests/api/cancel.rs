//! Cancelling a reservation over HTTP (POST /api/reservations/{id}/cancel), on SQLite and (when
//! KUPA_TEST_POSTGRES_URL is set) PostgreSQL: whole and partial, the window, the payment methods
//! not refunded online, the charge in agorot, the refund ledger and the test gateway's books,
//! vouchers given back, a provider that fails and the sweeper that retries, and races (two
//! cancels, a cancel and a commit) that must refund once. Orders are bought the real way.

use std::sync::Arc;

use crate::common::paying::*;
use crate::common::*;
use axum::http::StatusCode;
use kupa_api::ApiSettings;
use kupa_app::orders::{CancellationFee, CancellationPolicy, OrderStore, PaymentMethod};
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

fn with_policy(fee: &str, window_minutes: i64, not_online: Vec<PaymentMethod>) -> ApiSettings {
    ApiSettings {
        cancellation: CancellationPolicy {
            fee: CancellationFee::parse(fee).unwrap(),
            window_minutes,
            not_refundable_online: not_online,
            ..CancellationPolicy::default()
        },
        ..test_settings()
    }
}

/// Two seats in row end `row` bought by card.
async fn bought(app: &TestApp, who: &str, row: usize) -> PaidCart {
    let k = priced_cart_at(app, who, row, None, "he").await;
    pay_by_card(app, who, k).await
}

async fn cancel(app: &TestApp, who: &str, id: &str, body: Value) -> Reply {
    app.call_as(
        who,
        "POST",
        &format!("/api/reservations/{id}/cancel"),
        Some(&body.to_string()),
    )
    .await
}

async fn reservation(app: &TestApp, who: &str, id: &str) -> Value {
    reservation_as(app, who, id).await
}

fn line_value(seat: &Value) -> i64 {
    seat["price"].as_i64().unwrap() + seat["serviceCharge"].as_i64().unwrap()
}

async fn refund_rows(db: &TestDb) -> Vec<String> {
    rows(db, "SELECT target || '|' || CAST(amount AS TEXT) || '|' || status FROM refunds ORDER BY created_at, id").await
}

api_tests! {
    async fn live_sales_and_reports_follow_a_partial_then_a_whole_cancellation(db: &TestDb) {
        use crate::common::staff::{add, get, ok, staff_login};
        let app = TestApp::new(db, with_policy("fixed:500:perTicket", 60, vec![])).await;
        add(&app, "m@chain.example", kupa_app::staff::Role::Manager, &[1], false).await;
        let m = staff_login(&app, "m@chain.example").await;
        let dana = log_in(&app, &buyer(24), "0524318876").await;
        let b = bought(&app, &dana, 0).await;
        let pid = b.k.presentation["id"].as_i64().unwrap();
        let paid = rows(db, "SELECT CAST(paid_at AS TEXT) FROM orders WHERE status = 'paid'").await;
        let paid_day = kupa_app::staff::live::business_date(paid[0].parse().unwrap()).to_string();
        let res = reservation(&app, &dana, &b.reservation).await;
        let price = |line: i64| res["seats"].as_array().unwrap().iter().find(|s| s["line"] == line).unwrap()["price"].as_i64().unwrap();
        let figures = |d: &Value| {
            let types = d["ticketTypes"].as_array().unwrap();
            (
                types.iter().map(|t| t["Tickets"].as_i64().unwrap()).sum::<i64>(),
                types.iter().map(|t| t["Revenue"].as_i64().unwrap()).sum::<i64>(),
                d["presentation"]["Revenue"].as_i64().unwrap(),
                d["salesByDay"].as_array().unwrap().iter().map(|x| x["Tickets"].as_i64().unwrap()).sum::<i64>(),
            )
        };
        let location = |rows_: &Value| {
            let port = rows_["rows"].as_array().unwrap().iter().find(|x| x["LocationId"] == 2).cloned();
            port.map(|p| (p["Tickets"].as_i64().unwrap(), p["Revenue"].as_i64().unwrap(), p["Orders"].as_i64().unwrap()))
        };
        let data = format!("/api/PRES-live/v2/presentationData?presentationId={pid}");
        let day = format!("/api/PRES-live/locationTicketSales/data/{paid_day}/0");
        // The points-of-sale report of the day: (orders, tickets, revenue) of the web.
        let points = format!("/api/staff/reports/points-of-sale?from={paid_day}&to={paid_day}");
        let web = |r: &Value| {
            let row = r["rows"].as_array().unwrap().iter().find(|x| x["channel"] == "אתר").cloned();
            row.map(|x| (x["orders"].as_i64().unwrap(), x["tickets"].as_i64().unwrap(), x["revenue"].as_i64().unwrap()))
        };
        let all = price(1) + price(2);
        assert_eq!(figures(ok(&get(&app, &m, &data).await)), (2, all, all, 2));
        assert_eq!(location(ok(&get(&app, &m, &day).await)), Some((2, all, 1)));
        assert_eq!(web(ok(&get(&app, &m, &points).await)), Some((1, 2, b.k.total)));
        // A node starting on this database (sales and a summary) starts, and leaves the summary be.
        db.db.migrate().await.unwrap();
        assert_eq!(figures(ok(&get(&app, &m, &data).await)), (2, all, all, 2));

        // One ticket cancelled: its line comes off; the order still counts, once.
        let r = cancel(&app, &dana, &b.reservation, json!({ "itemsToCancel": [1] })).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(figures(ok(&get(&app, &m, &data).await)), (1, price(2), price(2), 1));
        assert_eq!(location(ok(&get(&app, &m, &day).await)), Some((1, price(2), 1)));
        // A partial cancellation takes its ticket off the point of sale; the order stays paid.
        assert_eq!(web(ok(&get(&app, &m, &points).await)), Some((1, 1, b.k.total)));
        // A rebuild from the orders says the same as what the finalisation and the cancel kept.
        let cells = "SELECT presentation_id || '|' || sale_day || '|' || ticket_id || '|' || tickets || '|' || revenue || '|' || orders \
                     FROM sales_summary WHERE tickets <> 0 OR orders <> 0 ORDER BY 1";
        let channels = "SELECT sale_day || '|' || business_id || '|' || channel || '|' || orders || '|' || tickets || '|' || revenue \
                        || '|' || service_charges FROM channel_summary ORDER BY 1";
        let kept = rows(db, cells).await;
        let kept_channels = rows(db, channels).await;
        assert_eq!(kept.len(), 1, "both seats are one ticket type: {kept:?}");
        assert_eq!(kept_channels.len(), 1, "{kept_channels:?}");
        kupa_store::rebuild_sales_summary(&db.db).await.unwrap();
        assert_eq!(rows(db, cells).await, kept);
        assert_eq!(rows(db, channels).await, kept_channels);

        // The other: nothing of the order is left in the figures, and the summary says so too.
        let r = cancel(&app, &dana, &b.reservation, json!({})).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(figures(ok(&get(&app, &m, &data).await)), (0, 0, 0, 0));
        assert_eq!(location(ok(&get(&app, &m, &day).await)), None);
        let left = rows(db, "SELECT CAST(SUM(tickets) AS TEXT) || '|' || CAST(SUM(revenue) AS TEXT) || '|' || CAST(SUM(orders) AS TEXT) FROM sales_summary").await;
        assert_eq!(left, vec!["0|0|0".to_owned()]);
        // A cancelled order is no longer a paid one: its point of sale has nothing left of it.
        assert_eq!(web(ok(&get(&app, &m, &points).await)), None);
        let left = rows(db, "SELECT CAST(SUM(orders) AS TEXT) || '|' || CAST(SUM(tickets) AS TEXT) || '|' || CAST(SUM(revenue) AS TEXT) FROM channel_summary").await;
        assert_eq!(left, vec!["0|0|0".to_owned()]);

    }

    async fn a_logged_in_buyer_takes_the_refund_as_voucher_credit_once_and_redeems_it_like_a_gift_card(db: &TestDb) {
        let app = TestApp::new(db, with_policy("fixed:500:perTicket", 60, vec![])).await;
        let dana = log_in(&app, &buyer(21), "0524318876").await;
        let b = bought(&app, &dana, 0).await;
        let owner = rows(db, "SELECT CAST(customer_id AS TEXT) FROM orders WHERE status = 'paid'").await;
        assert_eq!(owner.len(), 1);
        assert!(!owner[0].is_empty(), "a logged-in buyer's order has its customer");
        let credit = b.k.total - 1000;
        assert_eq!(reservation(&app, &dana, &b.reservation).await["cancellationTerms"]["creditOffered"], true);

        // The dry run answers the same figures as credit, and issues nothing.
        let r = cancel(&app, &dana, &b.reservation, json!({ "refundToTransactionCredit": true, "dryRun": true })).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(r.body["cancellation"]["credit"], json!({ "reference": "", "amount": credit }));
        assert_eq!(r.body["cancellation"]["refunds"], json!([{ "to": "credit", "amount": credit, "status": "done" }]));
        assert!(rows(db, "SELECT reference FROM system_vouchers").await.is_empty());

        let r = cancel(&app, &dana, &b.reservation, json!({ "refundToTransactionCredit": true })).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let c = r.body["cancellation"].clone();
        let reference = c["credit"]["reference"].as_str().unwrap().to_owned();
        assert!(reference.starts_with("KV-") && reference.len() == 22, "{reference}");
        assert_eq!((c["refund"].as_i64(), c["credit"]["amount"].as_i64(), c["refundPending"].as_bool()), (Some(credit), Some(credit), Some(false)));
        assert_eq!(c["refunds"], json!([{ "to": "credit", "amount": credit, "status": "done", "reference": reference }]));

        // Nothing asked of the provider, now or by the sweeper; the ledger has the credit, done.
        assert_eq!((app.gateway.refunded(&b.payment), app.gateway.refund_count(&b.payment)), (0, 0));
        app.advance_clock_ms(31_000).await;
        assert_eq!(app.state.orders.sweep_pending_refunds().await.unwrap(), 0);
        assert_eq!(app.gateway.refund_count(&b.payment), 0);
        assert_eq!(refund_rows(db).await, vec![format!("credit|{credit}|done")]);
        assert_eq!(rows(db, "SELECT reference || '|' || CAST(customer_id AS TEXT) || '|' || source FROM system_vouchers").await,
                   vec![format!("{reference}|{}|credit", owner[0])], "one voucher, the order's customer's");

        // Retried: nothing left to cancel, and still one voucher.
        let r = cancel(&app, &dana, &b.reservation, json!({ "refundToTransactionCredit": true })).await;
        assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "NOTHING_TO_CANCEL"), "{}", r.text);
        assert_eq!(rows(db, "SELECT reference FROM system_vouchers").await, vec![reference.clone()]);

        // The customer area lists it; the reservation shows where its refund went.
        let r = app.call_as(&dana, "GET", "/api/customer-area/system-vouchers", None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let v = r.body["systemVouchers"].as_array().unwrap().iter().find(|v| v["reference"] == reference.as_str()).cloned().expect("the credit voucher listed");
        assert_eq!((v["source"].as_str(), v["status"].as_str(), v["value"].as_i64(), v["balance"].as_i64(), v["price"].as_i64()),
                   (Some("credit"), Some("active"), Some(credit), Some(credit), Some(0)), "{v}");
        assert_eq!(v["reservationIdentifier"], b.reservation.as_str());
        let res = reservation(&app, &dana, &b.reservation).await;
        assert_eq!(res["cancellations"][0]["credit"]["reference"], reference.as_str(), "{res}");

        // The mail says the refund went to credit, with the reference.
        let mail = app.get("/api/test/outbox/mail?to=dana@example.com").await;
        let texts: Vec<&str> = mail.body["messages"].as_array().unwrap().iter().filter_map(|m| m["text"].as_str()).collect();
        assert!(texts.iter().any(|t| t.contains(&reference) && t.contains("זיכוי")), "{texts:?}");

        // Anyone may redeem it, as a gift card: its balance on GET /payment/voucher.
        let r = app.call_as(&buyer(22), "GET", &format!("/api/payment/voucher?reference={reference}&recaptchaToken={CAPTCHA_TEST_TOKEN}"), None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(r.body["payment"]["balance"].as_i64(), Some(credit));

        // Credit is spent, never paid out to the card as well.
        let r = app.call_as(&dana, "POST", &format!("/api/system-vouchers/{reference}/cancel"),
                            Some(&json!({ "reservationIdentifier": b.reservation }).to_string())).await;
        assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "SYSTEM_VOUCHER_NOT_ACTIVE"), "{}", r.text);
        assert_eq!(app.gateway.refund_count(&b.payment), 0);
    }

    async fn a_partial_cancel_as_credit_credits_only_those_lines_and_the_rest_may_go_to_the_card(db: &TestDb) {
        let app = TestApp::new(db, with_policy("fixed:500:perTicket", 60, vec![])).await;
        let dana = log_in(&app, &buyer(23), "0524318876").await;
        let b = bought(&app, &dana, 0).await;
        let res = reservation(&app, &dana, &b.reservation).await;
        let line1 = res["seats"].as_array().unwrap().iter().find(|s| s["line"] == 1).map(line_value).unwrap();
        let r = cancel(&app, &dana, &b.reservation, json!({ "itemsToCancel": [1], "refundToTransactionCredit": true })).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(r.body["cancellation"]["lines"], json!([1]));
        assert_eq!(r.body["cancellation"]["credit"]["amount"].as_i64(), Some(line1 - 500), "{}", r.text);
        let reference = r.body["cancellation"]["credit"]["reference"].as_str().unwrap().to_owned();
        assert_eq!(rows(db, "SELECT code || '|' || CAST(balance AS TEXT) FROM ticket_codes WHERE code LIKE 'KV-%'").await,
                   vec![format!("{reference}|{}", line1 - 500)]);
        assert_eq!(app.gateway.refund_count(&b.payment), 0);

        // The other ticket back to the card: the card gets the rest, never what became credit.
        let r = cancel(&app, &dana, &b.reservation, json!({})).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert!(r.body["cancellation"].get("credit").is_none(), "{}", r.text);
        assert_eq!(app.gateway.refunded(&b.payment), b.k.total - line1 - 500);
        assert_eq!(rows(db, "SELECT CAST(COUNT(*) AS TEXT) FROM system_vouchers").await, vec!["1"]);
        let ledger: i64 = rows(db, "SELECT CAST(amount AS TEXT) FROM refunds").await.iter().map(|a| a.parse::<i64>().unwrap()).sum();
        assert_eq!(ledger, b.k.total - 1000, "credit and card together: all but the charge, once");
    }

    async fn racing_cancels_as_credit_issue_one_voucher(db: &TestDb) {
        let app = Arc::new(TestApp::new(db, with_policy("fixed:500:perTicket", 60, vec![])).await);
        let dana = log_in(&app, &buyer(24), "0524318876").await;
        let b = bought(&app, &dana, 0).await;
        let mut tasks = Vec::new();
        for n in 0..4 {
            let (app, who, id) = (app.clone(), dana.clone(), b.reservation.clone());
            // Two whole cancels as credit, one to the card, and one of line 1 as credit.
            let body = match n {
                0 | 1 => json!({ "refundToTransactionCredit": true }),
                2 => json!({}),
                _ => json!({ "itemsToCancel": [1], "refundToTransactionCredit": true }),
            };
            tasks.push(tokio::spawn(async move { cancel(&app, &who, &id, body).await }));
        }
        let mut credited = 0;
        let mut refunded = 0;
        for t in tasks {
            let r = t.await.unwrap();
            match r.status {
                StatusCode::OK => {
                    refunded += r.body["cancellation"]["refund"].as_i64().unwrap();
                    credited += r.body["cancellation"]["credit"]["amount"].as_i64().unwrap_or(0);
                }
                _ => assert_eq!(code(&r), "NOTHING_TO_CANCEL", "{}", r.text),
            }
        }
        assert_eq!(refunded, b.k.total - 1000, "each ticket refunded once");
        assert_eq!(app.gateway.refunded(&b.payment) + credited, b.k.total - 1000, "card and credit never both");
        let balances: i64 = rows(db, "SELECT CAST(c.balance AS TEXT) FROM system_vouchers v JOIN ticket_codes c ON c.code_key = v.code_key").await
            .iter().map(|a| a.parse::<i64>().unwrap()).sum();
        assert_eq!(balances, credited, "one voucher per credit cancellation, with what it credited");
        let credits = rows(db, "SELECT CAST(COUNT(*) AS TEXT) FROM refunds WHERE target = 'credit'").await;
        let vouchers = rows(db, "SELECT CAST(COUNT(*) AS TEXT) FROM system_vouchers").await;
        assert_eq!(credits, vouchers);
    }

    async fn a_guests_reservation_cannot_take_credit_and_nothing_moves(db: &TestDb) {
        let app = TestApp::new(db, with_policy("none", 60, vec![])).await;
        let who = buyer(25);
        let b = bought(&app, &who, 0).await;
        assert_eq!(reservation(&app, &who, &b.reservation).await["cancellationTerms"]["creditOffered"], false, "not offered to a guest");
        for body in [json!({ "refundToTransactionCredit": true, "dryRun": true }), json!({ "refundToTransactionCredit": true })] {
            let r = cancel(&app, &who, &b.reservation, body).await;
            assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "refundToCreditUnavailable"), "{}", r.text);
        }
        assert!(refund_rows(db).await.is_empty());
        assert!(rows(db, "SELECT reference FROM system_vouchers").await.is_empty());
        assert_eq!(reservation(&app, &who, &b.reservation).await["status"], "paid");
    }
    async fn a_whole_cancel_frees_the_seats_voids_the_tickets_and_refunds_all_but_the_charge(db: &TestDb) {
        let app = TestApp::new(db, with_policy("fixed:500:perTicket", 60, vec![])).await;
        let who = buyer(1);
        let b = bought(&app, &who, 0).await;
        let before = reservation(&app, &who, &b.reservation).await;
        assert_eq!(before["status"], "paid");
        assert_eq!(before["cancellationTerms"]["cancellable"], true);
        assert_eq!((before["cancellationTerms"]["feeKind"].as_str(), before["cancellationTerms"]["feeAmount"].as_i64()), (Some("fixed"), Some(500)));
        for s in &b.k.seats {
            assert_eq!(seat_state(&app, &b.k, s).await, "sold");
        }

        // A stranger is told there is no such reservation, and nothing moves.
        let r = cancel(&app, &buyer(77), &b.reservation, json!({})).await;
        assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{}", r.text);

        // The dry run answers the figures and writes nothing.
        let r = cancel(&app, &who, &b.reservation, json!({ "dryRun": true })).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let preview = r.body["cancellation"].clone();
        assert_eq!((preview["value"].as_i64(), preview["fee"].as_i64()), (Some(b.k.total), Some(1000)));
        assert_eq!(preview["refund"].as_i64(), Some(b.k.total - 1000));
        assert_eq!((preview["dryRun"].as_bool(), preview["id"].as_str()), (Some(true), Some("")));
        assert!(refund_rows(db).await.is_empty());
        assert_eq!(app.gateway.refunded(&b.payment), 0);

        let r = cancel(&app, &who, &b.reservation, json!({})).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        example(&app, "cancelReservation", "CancelReservationResponse", &r);
        let c = r.body["cancellation"].clone();
        assert_eq!(c["lines"], json!([1, 2]));
        assert_eq!((c["whole"].as_bool(), c["fee"].as_i64(), c["refund"].as_i64()), (Some(true), Some(1000), Some(b.k.total - 1000)));
        assert_eq!(c["refunds"], json!([{ "to": "payment", "amount": b.k.total - 1000, "status": "done" }]));
        assert_eq!(c["refundPending"], false);
        assert_eq!(app.gateway.refunded(&b.payment), b.k.total - 1000, "the gateway's own books");

        for s in &b.k.seats {
            assert_ne!(seat_state(&app, &b.k, s).await, "sold", "on sale again at once");
        }
        let after = reservation(&app, &who, &b.reservation).await;
        assert_eq!(after["status"], "cancelled");
        assert_eq!(after["refundedTotal"].as_i64(), Some(b.k.total - 1000));
        assert_eq!(after["cancellationTerms"]["cancellable"], false);
        assert_eq!(after["cancellations"].as_array().unwrap().len(), 1);
        for seat in after["seats"].as_array().unwrap() {
            assert!(seat["cancelledAt"].is_string());
            let doc = app.get(&format!("/api/edocument/{}", seat["documentKey"].as_str().unwrap())).await;
            assert_eq!(doc.body["state"], "cancelled", "{}", doc.text);
        }

        // Again: nothing is left, and nothing more is refunded.
        let r = cancel(&app, &who, &b.reservation, json!({})).await;
        assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "NOTHING_TO_CANCEL"), "{}", r.text);
        example(&app, "cancelReservation", "ErrorBody", &r);
        assert_eq!(refund_rows(db).await.len(), 1);
        assert_eq!(app.gateway.refund_count(&b.payment), 1);
        // The seats sell again to another buyer.
        let other = buyer(2);
        let p: Presentation = serde_json::from_value(b.k.presentation.clone()).unwrap();
        let s: SeatShort = serde_json::from_value(b.k.seats[0].clone()).unwrap();
        app.lock(&other, &p, s.key()).await.ok();
    }

    async fn a_partial_cancel_takes_one_ticket_and_a_per_order_charge_is_kept_once(db: &TestDb) {
        let app = TestApp::new(db, with_policy("fixed:700:perOrder", 60, vec![])).await;
        let who = buyer(3);
        let b = bought(&app, &who, 1).await;
        let res = reservation(&app, &who, &b.reservation).await;
        let seats = res["seats"].as_array().unwrap().clone();
        assert_eq!(seats.len(), 2);

        let r = cancel(&app, &who, &b.reservation, json!({ "itemsToCancel": [seats[0]["line"]] })).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let first = r.body["cancellation"].clone();
        assert_eq!((first["whole"].as_bool(), first["value"].as_i64(), first["fee"].as_i64()), (Some(false), Some(line_value(&seats[0])), Some(700)));
        assert_eq!(first["refund"].as_i64(), Some(line_value(&seats[0]) - 700));
        let mid = reservation(&app, &who, &b.reservation).await;
        assert_eq!(mid["status"], "paid");
        assert!(mid["seats"][0]["cancelledAt"].is_string() && mid["seats"][1]["cancelledAt"].is_null());
        let states: Vec<String> = futures_states(&app, &b).await;
        assert!(states[0] != "sold" && states[1] == "sold", "{states:?}");

        // The same line again: nothing to cancel; a line not of the order: refused.
        let r = cancel(&app, &who, &b.reservation, json!({ "itemsToCancel": [seats[0]["line"]] })).await;
        assert_eq!(code(&r), "NOTHING_TO_CANCEL", "{}", r.text);
        let r = cancel(&app, &who, &b.reservation, json!({ "itemsToCancel": [99] })).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", r.text);

        // The rest: the per-order charge was kept already; the rest of the order comes back whole.
        let r = cancel(&app, &who, &b.reservation, json!({ "itemsToCancel": null })).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let second = r.body["cancellation"].clone();
        assert_eq!((second["whole"].as_bool(), second["fee"].as_i64()), (Some(true), Some(0)));
        assert_eq!(first["refund"].as_i64().unwrap() + second["refund"].as_i64().unwrap(), b.k.total - 700);
        assert_eq!(app.gateway.refunded(&b.payment), b.k.total - 700);
        assert_eq!(app.gateway.refund_count(&b.payment), 2);
    }

    async fn a_percent_charge_per_ticket_is_rounded_half_up_in_agorot(db: &TestDb) {
        let app = TestApp::new(db, with_policy("percent:12.5:perTicket", 60, vec![])).await;
        let who = buyer(4);
        let b = bought(&app, &who, 2).await;
        let res = reservation(&app, &who, &b.reservation).await;
        let expected: i64 = res["seats"].as_array().unwrap().iter().map(|s| (line_value(s) * 1250 + 5000) / 10000).sum();
        let r = cancel(&app, &who, &b.reservation, json!({ "dryRun": true })).await;
        assert_eq!(r.body["cancellation"]["fee"].as_i64(), Some(expected), "{}", r.text);
        assert_eq!(r.body["cancellation"]["refund"].as_i64(), Some(b.k.total - expected));
    }

    async fn cancellations_close_with_the_window_and_some_methods_are_not_refunded_online(db: &TestDb) {
        // A window longer than the wait for the screening: closed already.
        let app = TestApp::new(db, with_policy("none", 60 * 24 * 365, vec![])).await;
        let who = buyer(5);
        let b = bought(&app, &who, 0).await;
        let r = cancel(&app, &who, &b.reservation, json!({})).await;
        assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "TICKET_CANCELLATIONS_ARE_NO_LONGER_POSSIBLE"), "{}", r.text);
        assert!(r.body["error"]["params"]["until"].is_string());
        assert_eq!(reservation(&app, &who, &b.reservation).await["cancellationTerms"]["cancellable"], false);

        // Card payments not refunded online: the box office settles.
        let app = app.another_node(db, with_policy("none", 60, vec![PaymentMethod::Card])).await;
        let r = cancel(&app, &who, &b.reservation, json!({})).await;
        assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "BALANCE_IS_DUE"), "{}", r.text);
        // A guest's reservation has no customer area to hold credit.
        let app = app.another_node(db, with_policy("none", 60, vec![])).await;
        let r = cancel(&app, &who, &b.reservation, json!({ "refundToTransactionCredit": true })).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "refundToCreditUnavailable"), "{}", r.text);
        assert!(refund_rows(db).await.is_empty());
        // With the usual window the same reservation may be cancelled.
        let r = cancel(&app, &who, &b.reservation, json!({ "dryRun": true })).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }

    async fn a_ticket_admitted_at_the_door_is_for_the_box_office(db: &TestDb) {
        let app = TestApp::new(db, with_policy("none", 60, vec![])).await;
        let who = buyer(6);
        let b = bought(&app, &who, 0).await;
        execute(db, "UPDATE order_tickets SET scanned_at = 1 WHERE line = 1").await;
        let r = cancel(&app, &who, &b.reservation, json!({})).await;
        assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "TICKET_CANCELLATIONS_ARE_NO_LONGER_POSSIBLE"), "{}", r.text);
        assert_eq!(r.body["error"]["params"]["reason"], "boxOfficeOnly");
        let r = cancel(&app, &who, &b.reservation, json!({ "itemsToCancel": [2] })).await;
        assert_eq!(r.status, StatusCode::OK, "the other ticket may go: {}", r.text);
    }

    async fn a_code_use_spent_by_a_cancelled_ticket_comes_back(db: &TestDb) {
        let app = TestApp::new(db, with_policy("none", 60, vec![])).await;
        let who = buyer(11);
        let k = priced_cart_at(&app, &who, 0, Some("GIFT-2026"), "he").await;
        let b = pay_by_card(&app, &who, k).await;
        let used = || rows(db, "SELECT CAST(used_count AS TEXT) FROM ticket_codes WHERE code_key = 'gift-2026'");
        assert_eq!(used().await, vec!["1"]);
        // The other ticket first: the code stays spent.
        let r = cancel(&app, &who, &b.reservation, json!({ "itemsToCancel": [2] })).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(used().await, vec!["1"]);
        let r = cancel(&app, &who, &b.reservation, json!({ "itemsToCancel": [1] })).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(used().await, vec!["0"], "the single-use code may be used again");
    }

    async fn a_voucher_and_a_card_each_get_their_own_part_back(db: &TestDb) {
        let app = TestApp::new(db, with_policy("none", 60, vec![])).await;
        let who = buyer(7);
        let k = priced_cart_at(&app, &who, 0, None, "he").await;
        // The same cart again, with a ₪50 voucher paying part of it.
        let res_body = voucher_cart(&app, &who, &k).await;
        assert_eq!(res_body["cart"]["voucherPayments"][0]["amount"], 5000, "{res_body}");
        let total = res_body["cart"]["total"].as_i64().unwrap();
        let k = Paying { total, ..k };
        let b = pay_by_card(&app, &who, k).await;
        let card = db.db.payment(&b.payment).await.unwrap().unwrap();
        assert_eq!(card.amount.minor(), total - 5000);
        assert_eq!(rows(db, "SELECT CAST(balance AS TEXT) FROM ticket_codes WHERE code_key = 'value-5000'").await, vec!["0"]);

        let r = cancel(&app, &who, &b.reservation, json!({ "itemsToCancel": [1] })).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let first = r.body["cancellation"].clone();
        let refund = first["refund"].as_i64().unwrap();
        let to_card = (refund * card.amount.minor() * 2 + total) / (2 * total);
        assert_eq!(first["refunds"], json!([
            { "to": "payment", "amount": to_card, "status": "done" },
            { "to": "voucher", "amount": refund - to_card, "status": "done" },
        ]), "in proportion to what each paid");
        let r = cancel(&app, &who, &b.reservation, json!({})).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(app.gateway.refunded(&b.payment), card.amount.minor(), "the card gets back all it paid");
        assert_eq!(rows(db, "SELECT CAST(balance AS TEXT) FROM ticket_codes WHERE code_key = 'value-5000'").await, vec!["5000"], "the voucher all it paid");
        let ledger = refund_rows(db).await;
        assert_eq!(ledger.len(), 4, "{ledger:?}");
    }

    async fn a_refund_the_provider_fails_stays_pending_and_the_sweeper_retries_it(db: &TestDb) {
        let app = TestApp::new(db, with_policy("fixed:500:perTicket", 60, vec![])).await;
        let who = buyer(8);
        let b = bought(&app, &who, 0).await;
        app.gateway.fail_refunds(true);
        let r = cancel(&app, &who, &b.reservation, json!({})).await;
        assert_eq!(r.status, StatusCode::OK, "the cancellation stands: {}", r.text);
        assert_eq!(r.body["cancellation"]["refundPending"], true);
        assert_eq!(r.body["cancellation"]["refunds"][0]["status"], "pending");
        for s in &b.k.seats {
            assert_ne!(seat_state(&app, &b.k, s).await, "sold");
        }
        let res = reservation(&app, &who, &b.reservation).await;
        assert_eq!(res["cancellations"][0]["refundPending"], true, "the customer sees it pending");

        // Too soon to retry; then retried while the provider still fails; then confirmed.
        assert_eq!(app.state.orders.sweep_pending_refunds().await.unwrap(), 0);
        app.advance_clock_ms(31_000).await;
        assert_eq!(app.state.orders.sweep_pending_refunds().await.unwrap(), 0);
        assert_eq!(rows(db, "SELECT CAST(attempts AS TEXT) FROM refunds").await, vec!["2"]);
        app.gateway.fail_refunds(false);
        assert_eq!(app.state.orders.sweep_pending_refunds().await.unwrap(), 0, "not before its retry time");
        app.advance_clock_ms(31_000).await;
        assert_eq!(app.state.orders.sweep_pending_refunds().await.unwrap(), 1);
        assert_eq!(app.gateway.refunded(&b.payment), b.k.total - 1000);
        let res = reservation(&app, &who, &b.reservation).await;
        assert_eq!(res["cancellations"][0]["refunds"][0]["status"], "done");
        app.advance_clock_ms(31_000).await;
        assert_eq!(app.state.orders.sweep_pending_refunds().await.unwrap(), 0, "done is done");
        assert_eq!(app.gateway.refund_count(&b.payment), 1);
    }

    async fn two_cancels_at_once_refund_once(db: &TestDb) {
        let app = Arc::new(TestApp::new(db, with_policy("fixed:500:perTicket", 60, vec![])).await);
        let who = buyer(9);
        let b = bought(&app, &who, 0).await;
        let mut tasks = Vec::new();
        for n in 0..4 {
            let (app, who, id) = (app.clone(), who.clone(), b.reservation.clone());
            // Two whole cancels, and two of line 1.
            let body = if n % 2 == 0 { json!({}) } else { json!({ "itemsToCancel": [1] }) };
            tasks.push(tokio::spawn(async move { cancel(&app, &who, &id, body).await }));
        }
        let mut refunded = 0;
        for t in tasks {
            let r = t.await.unwrap();
            match r.status {
                StatusCode::OK => refunded += r.body["cancellation"]["refund"].as_i64().unwrap(),
                _ => assert_eq!(code(&r), "NOTHING_TO_CANCEL", "{}", r.text),
            }
        }
        assert_eq!(rows(db, "SELECT CAST(COUNT(*) AS TEXT) FROM order_tickets WHERE cancelled_at IS NOT NULL").await, vec!["2"]);
        assert_eq!(refunded, b.k.total - 1000, "each ticket refunded once");
        assert_eq!(app.gateway.refunded(&b.payment), b.k.total - 1000);
        let ledger: i64 = rows(db, "SELECT CAST(amount AS TEXT) FROM refunds").await.iter().map(|a| a.parse::<i64>().unwrap()).sum();
        assert_eq!(ledger, b.k.total - 1000);
    }

    async fn a_cancel_racing_the_payment_and_its_commit_refunds_at_most_once(db: &TestDb) {
        let app = Arc::new(TestApp::new(db, with_policy("none", 60, vec![])).await);
        let who = buyer(10);
        let k = priced_cart_at(&app, &who, 0, None, "he").await;
        let presentation = k.presentation["id"].as_i64().unwrap();
        let payment = start_payment_with(&app, &who, &k, "card", "he", 1, false).await;
        let order_id = db.db.payment(&payment).await.unwrap().unwrap().order_id;
        // The card form (which finalises), the commit and two cancels, all at once.
        let pay = {
            let (app, who, payment) = (app.clone(), who.clone(), payment.clone());
            tokio::spawn(async move {
                app.form_as(&who, "POST", &format!("/pay/{payment}/card"), Some(&card_form("4242+4242+4242+4242", &good_expiry(&app), "987"))).await
            })
        };
        let mut cancels = Vec::new();
        for _ in 0..2 {
            let (app, who, id) = (app.clone(), who.clone(), order_id.clone());
            cancels.push(tokio::spawn(async move { cancel(&app, &who, id.as_str(), json!({})).await }));
        }
        let commit = {
            let (app, who) = (app.clone(), who.clone());
            tokio::spawn(async move { app.commit(&who, presentation).await.status })
        };
        assert_eq!(pay.await.unwrap().status, StatusCode::SEE_OTHER);
        let _ = commit.await.unwrap();
        let mut cancelled = 0;
        for c in cancels {
            let r = c.await.unwrap();
            if r.status == StatusCode::OK {
                cancelled += 1;
            } else {
                assert!(["NOTHING_TO_CANCEL", "notFound"].contains(&code(&r)), "{}", r.text);
            }
        }
        assert!(cancelled <= 1);
        // Whatever the order, a cancel after all of it settles the rest.
        let r = cancel(&app, &who, order_id.as_str(), json!({})).await;
        if cancelled == 1 {
            assert_eq!(code(&r), "NOTHING_TO_CANCEL", "{}", r.text);
        } else {
            assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        }
        assert_eq!(app.gateway.refunded(&payment), k.total, "refunded once, in full");
        assert_eq!(app.gateway.refund_count(&payment), 1);
        assert_eq!(db.db.payment(&payment).await.unwrap().unwrap().status.as_str(), "captured", "never voided as well");
        for s in &k.seats {
            assert_ne!(seat_state(&app, &k, s).await, "sold");
        }
    }
}

async fn futures_states(app: &TestApp, b: &PaidCart) -> Vec<String> {
    let mut out = Vec::new();
    for s in &b.k.seats {
        out.push(
            seat_state(app, &b.k, s)
                .await
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        );
    }
    out
}

/// The buyer's held seats priced again, with the ₪50 voucher VALUE-5000 paying part.
async fn voucher_cart(app: &TestApp, who: &str, k: &Paying) -> Value {
    let lines = regular_lines(app, k).await;
    let cart = json!({
        "cart": {
            "presentations": [{ "presentationId": k.presentation["id"], "seats": lines }],
            "customerInfo": { "firstName": "דנה", "lastName": "לוי", "email": "dana@example.com", "verifyEmailAddress": "dana@example.com",
                              "mobileNumber": "+972524318876", "acceptedTerms": [1, 2, 3] },
            "voucherPayments": [{ "reference": "VALUE-5000" }],
        },
        "step": "customerInfo",
        "locale": "he",
    });
    let r = app
        .call_as(who, "POST", "/api/cart", Some(&cart.to_string()))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.body
}
