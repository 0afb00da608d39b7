//! The typed client of the API tests: a method per call the tests make most, answering the API's
//! own response types (`kupa_api::wire`), so a test reads `lock.expires_at` where it indexed
//! `r.body["expiresAt"]`. Calls a test expects to succeed answer the type itself; calls whose
//! refusals are tested answer an [`Answer`], which is `ok()` or `refused()`.

use std::marker::PhantomData;
use std::ops::Deref;

use axum::http::StatusCode;
pub use kupa_api::wire::*;
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
pub use kupa_domain::seating::SeatAddress;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::{Reply, TestApp};

/// The reply of a call whose body, when it succeeds, is a `T`. Derefs to the raw [`Reply`]
/// (status, headers, text), for what the type does not say and for [`super::example`].
pub struct Answer<T> {
    reply: Reply,
    answer: PhantomData<fn() -> T>,
}

impl<T> Deref for Answer<T> {
    type Target = Reply;
    fn deref(&self) -> &Reply {
        &self.reply
    }
}

impl<T: DeserializeOwned> Answer<T> {
    fn new(reply: Reply) -> Answer<T> {
        Answer {
            reply,
            answer: PhantomData,
        }
    }

    /// The answer of a call that had to succeed; panics with the status and body otherwise.
    #[track_caller]
    pub fn ok(&self) -> T {
        assert!(
            self.status.is_success(),
            "expected a {}, got {} {}",
            short_name::<T>(),
            self.status,
            self.text
        );
        serde_json::from_str(&self.text)
            .unwrap_or_else(|e| panic!("not a {}: {e}\n{}", short_name::<T>(), self.text))
    }

    /// As [`Answer::ok`], saying why the call had to succeed.
    #[track_caller]
    pub fn expect(&self, why: &str) -> T {
        assert!(
            self.status.is_success(),
            "{why}: got {} {}",
            self.status,
            self.text
        );
        self.ok()
    }

    /// The status and error code of a call that had to be refused; panics when it succeeded.
    #[track_caller]
    pub fn refused(&self) -> (StatusCode, &str) {
        assert!(
            !self.status.is_success(),
            "expected a refusal, got {} {}",
            self.status,
            self.text
        );
        (self.status, super::code(&self.reply))
    }

    /// The whole error of a refused call (its message and params too).
    #[track_caller]
    pub fn error(&self) -> ErrorDetail {
        self.refused();
        serde_json::from_str::<ErrorBody>(&self.text)
            .unwrap_or_else(|e| panic!("not an error body: {e}\n{}", self.text))
            .error
    }
}

fn short_name<T>() -> &'static str {
    let full = std::any::type_name::<T>();
    full.rsplit("::").next().unwrap_or(full)
}

/// Where a seat is, whichever answer named it.
pub trait Placed {
    fn key(&self) -> SeatAddress;
}

impl Placed for SeatShort {
    fn key(&self) -> SeatAddress {
        SeatAddress {
            section_id: self.si,
            x: self.x,
            y: self.y,
        }
    }
}

impl Placed for SeatStatusShort {
    fn key(&self) -> SeatAddress {
        SeatAddress {
            section_id: self.si,
            x: self.x,
            y: self.y,
        }
    }
}

impl Placed for LockedSeat {
    fn key(&self) -> SeatAddress {
        SeatAddress {
            section_id: self.section_id,
            x: self.x,
            y: self.y,
        }
    }
}

/// The body of PUT /api/seats/lock-seat and unlock-seat for the seat at `at`, as the web app
/// sends it (without the ticket group, which the section decides).
pub fn seat_body(p: &Presentation, at: SeatAddress) -> Value {
    json!({ "recaptchaToken": CAPTCHA_TEST_TOKEN, "seat": {
        "PresentationId": p.id, "VenueId": p.venue_id, "VenueSeatplanId": p.seatplan_id,
        "VenueSectionId": at.section_id, "XCoordinate": at.x, "YCoordinate": at.y } })
}

/// `body` with the fields of `extra` set (a confirmation, another captcha token).
pub fn with(mut body: Value, extra: Value) -> Value {
    if let (Some(b), Value::Object(e)) = (body.as_object_mut(), extra) {
        b.extend(e);
    }
    body
}

impl TestApp {
    async fn json_as<T: DeserializeOwned>(
        &self,
        who: &str,
        method: &str,
        uri: &str,
        body: Option<&Value>,
    ) -> Answer<T> {
        let text = body.map(Value::to_string);
        Answer::new(self.call_as(who, method, uri, text.as_deref()).await)
    }

    /// POST /api/test/clock: moves the server's clock forward (test mode), as end-to-end tests do.
    pub async fn advance_clock_ms(&self, ms: i64) {
        let r = self
            .post("/api/test/clock", &json!({ "advanceMs": ms }).to_string())
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }

    /// GET /api/presentations/: everything listed, in start order.
    pub async fn presentations(&self) -> Vec<Presentation> {
        Answer::<PresentationListResponse>::new(self.get("/api/presentations/").await)
            .ok()
            .presentations
    }

    /// GET /api/seats/presentations?date=: the presentations of one day (Jerusalem).
    pub async fn presentations_on(&self, day: jiff::civil::Date) -> Vec<Presentation> {
        let r = self
            .get(&format!("/api/seats/presentations?date={day}"))
            .await;
        Answer::<PresentationsByDateResponse>::new(r)
            .ok()
            .presentations
    }

    /// The presentation starts at least `hours` after the server's now.
    pub fn starts_after(&self, p: &Presentation, hours: i64) -> bool {
        let start: jiff::Timestamp = p.date_time.parse().unwrap();
        start.as_millisecond()
            > kupa_app::ports::Clock::now_ms(self.clock.as_ref()) + hours * 3_600_000
    }

    /// The first presentation on sale in the venue that starts a day or more from now, so
    /// moving the clock past a hold's expiry cannot close its sale.
    pub async fn on_sale_in(&self, venue: i64) -> Presentation {
        self.presentations()
            .await
            .into_iter()
            .find(|p| p.venue_id == venue && p.is_on_sale && self.starts_after(p, 24))
            .unwrap_or_else(|| panic!("no presentation on sale in venue {venue}"))
    }

    /// The first presentation whose sale has not opened yet (the demo chain's premiere).
    pub async fn not_yet_on_sale(&self) -> Presentation {
        self.presentations()
            .await
            .into_iter()
            .find(|p| p.sale_state == "notYetStarted")
            .expect("a presentation whose sale has not started")
    }

    /// POST /api/seats/seatplanV2: the seat plan of the presentation's hall, short form.
    pub async fn seat_plan(&self, p: &Presentation) -> SeatplanV2 {
        let r = self
            .post(
                &format!(
                    "/api/seats/seatplanV2?venueId={}&seatplanId={}",
                    p.venue_id, p.seatplan_id
                ),
                &json!({ "recaptchaToken": CAPTCHA_TEST_TOKEN }).to_string(),
            )
            .await;
        Answer::<SeatplanV2Response>::new(r).ok().seatplan
    }

    /// GET /api/seats/seats-statusV2 as `who` sees it.
    pub async fn seat_status(&self, who: &str, presentation: i64) -> SeatsStatusV2Response {
        self.json_as::<SeatsStatusV2Response>(
            who,
            "GET",
            &format!("/api/seats/seats-statusV2?presentationId={presentation}"),
            None,
        )
        .await
        .ok()
    }

    /// The state of the seat at `at` as `who` sees it.
    pub async fn seat_state(
        &self,
        who: &str,
        presentation: i64,
        at: SeatAddress,
    ) -> SeatStatusShort {
        self.seat_status(who, presentation)
            .await
            .seats
            .into_iter()
            .find(|s| s.key() == at)
            .unwrap_or_else(|| panic!("no {at} in presentation {presentation}"))
    }

    /// PUT /api/seats/lock-seat: `who` holds the seat at `at`.
    pub async fn lock(&self, who: &str, p: &Presentation, at: SeatAddress) -> Answer<LockResponse> {
        self.lock_with(who, &seat_body(p, at)).await
    }

    /// PUT /api/seats/lock-seat with this body ([`seat_body`], [`with`] what else).
    pub async fn lock_with(&self, who: &str, body: &Value) -> Answer<LockResponse> {
        self.json_as(who, "PUT", "/api/seats/lock-seat", Some(body))
            .await
    }

    /// PUT /api/seats/unlock-seat: `who` lets the seat at `at` go.
    pub async fn unlock(
        &self,
        who: &str,
        p: &Presentation,
        at: SeatAddress,
    ) -> Answer<UnlockResponse> {
        self.unlock_with(who, &seat_body(p, at)).await
    }

    /// PUT /api/seats/unlock-seat with this body.
    pub async fn unlock_with(&self, who: &str, body: &Value) -> Answer<UnlockResponse> {
        self.json_as(who, "PUT", "/api/seats/unlock-seat", Some(body))
            .await
    }

    /// POST /api/seats/extend: more time for the step `who` is in.
    pub async fn extend(&self, who: &str, presentation: i64) -> Answer<CheckoutResponse> {
        let body = json!({ "presentationId": presentation });
        self.json_as(who, "POST", "/api/seats/extend", Some(&body))
            .await
    }

    /// GET /api/seats/my-holds: what `who` holds of the presentation.
    pub async fn my_holds(&self, who: &str, presentation: i64) -> Answer<MyHoldsResponse> {
        self.json_as(
            who,
            "GET",
            &format!("/api/seats/my-holds?presentationId={presentation}"),
            None,
        )
        .await
    }

    /// GET /api/seats/best-available for the presentation, with the test captcha and `query`
    /// (`quantity=3&maxMatches=5`, ...).
    pub async fn best_available(
        &self,
        who: &str,
        presentation: i64,
        query: &str,
    ) -> Answer<BestAvailableResponse> {
        self.json_as(
            who,
            "GET",
            &format!("/api/seats/best-available?presentationId={presentation}&recaptchaToken={CAPTCHA_TEST_TOKEN}&{query}"),
            None,
        )
        .await
    }

    /// GET /api/presentations/{id}/ticketGroups, for a member when `member` is given.
    pub async fn ticket_groups(
        &self,
        presentation: i64,
        member: Option<&str>,
    ) -> Answer<TicketGroupsResponse> {
        let uri = match member {
            Some(m) => {
                format!("/api/presentations/{presentation}/ticketGroups?membershipLoyaltyId={m}")
            }
            None => format!("/api/presentations/{presentation}/ticketGroups"),
        };
        Answer::new(self.get(&uri).await)
    }

    /// GET /api/presentations/{id}/ticket with the test captcha and `query` (`ticketCode=...`).
    pub async fn ticket_by_code(
        &self,
        presentation: i64,
        query: &str,
    ) -> Answer<TicketByCodeResponse> {
        let r = self
            .get(&format!(
                "/api/presentations/{presentation}/ticket?recaptchaToken={CAPTCHA_TEST_TOKEN}&{query}"
            ))
            .await;
        Answer::new(r)
    }

    /// POST /api/cart: `who` prices this cart (the web app's body: cart, step, locale).
    pub async fn post_cart(&self, who: &str, body: &Value) -> Answer<CartResponse> {
        self.json_as(who, "POST", "/api/cart", Some(body)).await
    }

    /// GET /api/payment/form/{locale}: starts paying `total` of `who`'s priced cart; `query` adds
    /// the rest (`method=card&numberOfPayments=1`, or nothing).
    pub async fn payment_form(
        &self,
        who: &str,
        locale: &str,
        presentation: i64,
        total: i64,
        query: &str,
    ) -> Answer<PaymentFormResponse> {
        self.json_as(
            who,
            "GET",
            &format!("/api/payment/form/{locale}?presentationId={presentation}&total={total}&recaptchaToken={CAPTCHA_TEST_TOKEN}&{query}"),
            None,
        )
        .await
    }

    /// GET /api/payment/status/{id}, as `who`.
    pub async fn payment_status(&self, who: &str, id: &str) -> Answer<PaymentStatusResponse> {
        self.json_as(who, "GET", &format!("/api/payment/status/{id}"), None)
            .await
    }

    /// POST /api/payment/commit: `who`'s paid order of the presentation becomes a reservation.
    pub async fn commit(&self, who: &str, presentation: i64) -> Answer<CommitResponse> {
        let body = json!({ "cart": { "presentations": [{ "presentationId": presentation }] },
                           "recaptchaToken": CAPTCHA_TEST_TOKEN });
        self.json_as(who, "POST", "/api/payment/commit", Some(&body))
            .await
    }

    /// GET /api/reservations/{id}: the confirmation screen's reservation, as `who` reads it.
    pub async fn reservation(&self, who: &str, id: &str) -> Answer<ReservationResponse> {
        self.json_as(who, "GET", &format!("/api/reservations/{id}"), None)
            .await
    }
}
