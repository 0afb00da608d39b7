//! What each protected call tells the captcha provider (decision 0062): the buyer's address,
//! as the session layer found it, and the action names the page may give the call's token.
//! reCAPTCHA v3 and Turnstile return the action the page named with their verdict; a token made
//! for one call (say a login) is then refused on another (a seat lock).

use axum::extract::Request;
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use kupa_app::ports::{CaptchaCall, with_captcha_call};

use crate::session::BuyerSession;

/// Each call whose spec parameters carry `recaptchaToken`, with the actions its token may name:
/// the names the web app uses (`web/src`, `captcha('…')`), and the operation's id for the calls
/// the web app does not make. `{}` stands for one path segment. docs/api.md lists them.
const ACTIONS: &[(Method, &str, &[&str])] = &[
    (Method::POST, "/seats/seatplanV2", &["seatplan"]),
    (Method::GET, "/seats/seats-status", &["seatsStatus"]),
    (Method::PUT, "/seats/lock-seat", &["lockSeat"]),
    (Method::PUT, "/seats/unlock-seat", &["unlockSeat"]),
    (Method::PUT, "/membership/lock-seat", &["lockSeat"]),
    (Method::PUT, "/membership/unlock-seat", &["unlockSeat"]),
    (Method::PUT, "/enroll/{}/lock-seat", &["lockSeat"]),
    (Method::PUT, "/enroll/{}/unlock-seat", &["unlockSeat"]),
    (Method::GET, "/seats/best-available", &["bestAvailable"]),
    (Method::GET, "/presentations/{}/ticket", &["ticketByCode"]),
    (Method::POST, "/cart/token", &["cartToken"]),
    (Method::GET, "/payment/form/{}", &["payment"]),
    (Method::POST, "/reservations/{}/pay", &["payment"]),
    (Method::POST, "/payment/commit", &["commit"]),
    (Method::GET, "/payment/voucher", &["voucher"]),
    (Method::POST, "/customer/mobile-login", &["mobileLogin"]),
    (
        Method::POST,
        "/customer-area/mobile-login",
        &["mobile_login"],
    ),
    (Method::POST, "/customer/login", &["login"]),
    (Method::POST, "/customer/register", &["register"]),
    (
        Method::POST,
        "/customer/password-reset",
        &["password_reset"],
    ),
    (Method::POST, "/customer/member-login", &["member_login"]),
    (
        Method::POST,
        "/customer/reservation-login",
        &["reservation_login"],
    ),
    (Method::POST, "/customer/mail-login", &["mail_login"]),
    (
        Method::POST,
        "/customer-area/email-change",
        &["email_change"],
    ),
    (
        Method::POST,
        "/customer-area/mobile-change",
        &["mobile_change"],
    ),
    (
        Method::POST,
        "/inquiries",
        &["inquiry_contact", "inquiry_birthday", "inquiry_job"],
    ),
];

/// The actions a call's token may name; empty for a call without a captcha. `path` is below
/// `/api`.
pub fn actions_of(method: &Method, path: &str) -> &'static [&'static str] {
    ACTIONS
        .iter()
        .find(|(m, pattern, _)| m == method && matches(pattern, path))
        .map(|(_, _, actions)| *actions)
        .unwrap_or(&[])
}

fn matches(pattern: &str, path: &str) -> bool {
    let mut want = pattern.split('/');
    let mut have = path.split('/');
    loop {
        match (want.next(), have.next()) {
            (None, None) => return true,
            (Some("{}"), Some(seg)) if !seg.is_empty() => {}
            (Some(w), Some(h)) if w == h => {}
            _ => return false,
        }
    }
}

/// Runs each /api request with its [`CaptchaCall`]; inside the session layer, whose
/// [`BuyerSession`] carries the address (the peer, or X-Forwarded-For's when trusted).
pub async fn middleware(req: Request, next: Next) -> Response {
    let Some(path) = req.uri().path().strip_prefix("/api") else {
        return next.run(req).await;
    };
    let call = CaptchaCall {
        remote_ip: req
            .extensions()
            .get::<BuyerSession>()
            .map(|s| s.address().to_owned())
            .filter(|a| a != "unknown"),
        actions: actions_of(req.method(), path),
    };
    with_captcha_call(call, next.run(req)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_with_ids_finds_its_actions() {
        assert_eq!(
            actions_of(&Method::PUT, "/enroll/12/lock-seat"),
            &["lockSeat"]
        );
        assert_eq!(actions_of(&Method::GET, "/payment/form/he"), &["payment"]);
        assert!(actions_of(&Method::GET, "/payment/form/he/x").is_empty());
        assert!(actions_of(&Method::GET, "/seats/lock-seat").is_empty());
        assert!(actions_of(&Method::PUT, "/enroll//lock-seat").is_empty());
    }

    /// Every operation of the API document that takes `recaptchaToken` (a parameter, or a field
    /// of its JSON body) has its actions here, and nothing here is a call without one.
    #[test]
    fn every_call_with_a_captcha_token_has_its_actions() {
        let doc = serde_json::to_value(crate::openapi()).unwrap();
        let schemas = &doc["components"]["schemas"];
        let mut protected = Vec::new();
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (method, op) in item.as_object().unwrap() {
                let in_params = op["parameters"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|p| p["name"] == "recaptchaToken");
                let in_body = op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
                    .as_str()
                    .and_then(|r| r.rsplit('/').next())
                    .is_some_and(|name| {
                        schemas[name]["properties"].get("recaptchaToken").is_some()
                    });
                if in_params || in_body {
                    let m = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
                    // The document's `{id}` segments stand for any value.
                    let concrete: String = path
                        .split('/')
                        .map(|s| if s.starts_with('{') { "1" } else { s })
                        .collect::<Vec<_>>()
                        .join("/");
                    protected.push((m, concrete));
                }
            }
        }
        let missing: Vec<_> = protected
            .iter()
            .filter(|(m, p)| actions_of(m, p).is_empty())
            .collect();
        assert!(missing.is_empty(), "no captcha action for {missing:?}");
        for (m, pattern, _) in ACTIONS {
            let concrete = pattern.replace("{}", "1");
            assert!(
                protected.iter().any(|(pm, pp)| pm == m && *pp == concrete),
                "{m} {pattern} takes no recaptchaToken in the document"
            );
        }
    }
}
