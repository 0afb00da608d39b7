//! The test gateway's pages as HTML: one small self-contained document each (inline CSS, no
//! external assets), in Hebrew (right to left) or English, readable at 360 px inside an iframe.
//! Every value is escaped; no page ever writes a card number or security code back.

mod card;
mod texts;
mod wallets;

use kupa_app::orders::{Payment, PaymentMethod, PaymentStatus};
use kupa_domain::money::Money;

pub use card::{
    CardKept, SavedCardChoice, SavedCardMessage, card_form, saved_card_form,
    saved_card_unavailable, three_ds_form,
};
use texts::{EN, HE, Texts};
pub use wallets::{
    BankMessage, bank_app, bank_app_message, blik_form, paypal_page, payu_page, redirect_intro,
    waiting,
};

use super::installment_plan;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    He,
    En,
}

impl Lang {
    /// Hebrew for `he`; every other locale reads English (the gateway speaks two languages).
    pub fn of(locale: &str) -> Lang {
        if locale == "he" { Lang::He } else { Lang::En }
    }

    fn code(self) -> &'static str {
        match self {
            Lang::He => "he",
            Lang::En => "en",
        }
    }

    fn dir(self) -> &'static str {
        match self {
            Lang::He => "rtl",
            Lang::En => "ltr",
        }
    }

    pub fn t(self) -> &'static Texts {
        match self {
            Lang::He => &HE,
            Lang::En => &EN,
        }
    }
}

const STYLE: &str = r#"
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:#f3f4f6;color:#111827;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans Hebrew","Noto Sans",Arial,sans-serif}
main{max-width:440px;margin:0 auto;padding:12px}
.banner{margin:0 0 10px;padding:6px 10px;border-radius:8px;background:#fef3c7;color:#78350f;font-size:.8125rem;text-align:center}
.box{background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:18px}
.merchant{margin:0;color:#4b5563;font-size:.875rem}
h1{margin:2px 0 12px;font-size:1.25rem;line-height:1.3}
.sum{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:baseline;gap:4px 12px;margin:0 0 4px;padding:12px;border-radius:8px;background:#f9fafb}
.sum dt{color:#4b5563;font-size:.875rem}
.sum dd{margin:0;font-weight:700}
.sum .amount{font-size:1.5rem}
.plan{margin:0 0 8px;color:#4b5563;font-size:.875rem}
label{display:block;margin:14px 0 4px;font-weight:600}
label small{font-weight:400;color:#4b5563}
input{display:block;width:100%;min-height:48px;padding:10px 12px;border:1px solid #6b7280;border-radius:8px;background:#fff;color:inherit;font:inherit;font-size:1.0625rem}
[dir=rtl] input[dir=ltr]{text-align:right}
input:focus{outline:3px solid #93c5fd;outline-offset:1px;border-color:#1d4ed8}
input[aria-invalid=true]{border-color:#b91c1c;background:#fef2f2}
.row{display:flex;gap:12px}
.row>div{flex:1;min-width:0}
.err{margin:4px 0 0;color:#b91c1c;font-size:.875rem}
.alert{margin:0 0 8px;padding:10px 12px;border-radius:8px;background:#fef2f2;color:#991b1b;font-weight:600}
button,.btn{display:block;width:100%;min-height:48px;margin:18px 0 0;padding:12px;border:1px solid #1d4ed8;border-radius:8px;background:#1d4ed8;color:#fff;font:inherit;font-weight:700;text-align:center;text-decoration:none;cursor:pointer}
button:focus-visible,.btn:focus-visible,a:focus-visible,summary:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}
button:disabled{opacity:.6;cursor:progress}
.secondary{background:#fff;color:#1d4ed8}
.danger{background:#fff;color:#b91c1c;border-color:#b91c1c}
.stack button{margin-top:10px}
.muted{color:#4b5563;font-size:.875rem}
.hint{margin:10px 0 0;color:#4b5563;font-size:.875rem}
details{margin:14px 0 0;font-size:.875rem;color:#374151}
summary{cursor:pointer;color:#1d4ed8;font-weight:600}
details ul{margin:6px 0 0;padding:0;list-style:none}
details li{display:flex;flex-wrap:wrap;gap:0 8px;padding:3px 0;border-bottom:1px solid #f3f4f6}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;direction:ltr;unicode-bidi:isolate}
.spinner{width:36px;height:36px;margin:8px auto 12px;border:4px solid #dbeafe;border-top-color:#1d4ed8;border-radius:50%;animation:spin 1s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.spinner{animation:none}}
.center{text-align:center}
fieldset{margin:14px 0 0;padding:0;border:0}
legend{padding:0;font-weight:600}
.cards label{display:flex;align-items:center;gap:10px;margin:8px 0 0;padding:10px 12px;border:1px solid #d1d5db;border-radius:8px;font-weight:400}
.cards input{display:inline-block;width:auto;min-height:0;margin:0}
.phone{background:#0f172a;color:#f8fafc;border:0}
.phone .merchant,.phone .muted{color:#cbd5e1}
.phone .sum{background:#1e293b}
.phone .sum dt{color:#cbd5e1}
"#;

/// Escapes text for HTML content and attribute values.
pub fn esc(s: &str) -> String {
    kupa_domain::html::escape(s)
}

/// An amount in its currency: `₪42.50` for shekels, `42.50 EUR` otherwise; isolated for bidi.
pub fn money(amount: i64, currency: &str) -> String {
    let text = if currency == "ILS" {
        Money(amount).display_ils()
    } else {
        let abs = amount.unsigned_abs();
        let sign = if amount < 0 { "-" } else { "" };
        format!("{sign}{}.{:02} {currency}", abs / 100, abs % 100)
    };
    format!("<bdi dir=\"ltr\">{}</bdi>", esc(&text))
}

fn amount_of(p: &Payment) -> String {
    money(p.amount.minor(), &p.currency)
}

fn fill(template: &str, pairs: &[(&str, &str)]) -> String {
    pairs.iter().fold(template.to_owned(), |acc, (k, v)| {
        acc.replace(&format!("{{{k}}}"), v)
    })
}

/// A whole page around `body`. `script` is inline JavaScript, if any.
fn page(lang: Lang, title: &str, body: &str, script: Option<&str>, phone: bool) -> String {
    let t = lang.t();
    let script = script
        .map(|s| format!("<script>{s}</script>"))
        .unwrap_or_default();
    let class = if phone { "box phone" } else { "box" };
    format!(
        "<!doctype html><html lang=\"{lang}\" dir=\"{dir}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\"><title>{title} · Kupa</title><style>{STYLE}</style></head>\
         <body><main><p class=\"banner\" role=\"note\">{banner}</p><div class=\"{class}\">\
         <p class=\"merchant\">{merchant}</p>{body}</div></main>{script}</body></html>",
        lang = lang.code(),
        dir = lang.dir(),
        title = esc(title),
        banner = esc(t.test_banner),
        merchant = esc(t.merchant),
    )
}

/// The amount and, for cards, the number of payments.
fn summary(lang: Lang, p: &Payment) -> String {
    let t = lang.t();
    let mut out = format!(
        "<dl class=\"sum\"><dt>{}</dt><dd class=\"amount\">{}</dd></dl>",
        esc(t.amount),
        amount_of(p)
    );
    if matches!(p.method, PaymentMethod::Card | PaymentMethod::SavedCard) {
        let n = p.installments.max(1);
        let (first, each) = installment_plan(p.amount.minor(), n);
        let plan = if n == 1 {
            esc(t.one_payment)
        } else {
            let n_s = n.to_string();
            let rest = (n - 1).to_string();
            let (first, each) = (money(first, &p.currency), money(each, &p.currency));
            let template = if first == each {
                t.equal_payments
            } else {
                t.unequal_payments
            };
            fill(
                &esc(template),
                &[
                    ("n", &n_s),
                    ("rest", &rest),
                    ("first", &first),
                    ("each", &each),
                ],
            )
        };
        out.push_str(&format!("<p class=\"plan\">{plan}</p>"));
    }
    out
}

fn error_text(t: &Texts, field: &str) -> &'static str {
    match field {
        "cardNumber" => t.err_card_number,
        "expiry" => t.err_expiry,
        "cvv" => t.err_cvv,
        "holderId" => t.err_holder_id,
        "choice" => t.err_choice,
        _ => t.err_3ds_code,
    }
}

/// The "fix these fields" alert at the top of a form.
fn alert(t: &Texts, errors: &[&str]) -> String {
    if errors.is_empty() {
        String::new()
    } else {
        format!(
            "<p class=\"alert\" role=\"alert\" id=\"form-error\">{}</p>",
            esc(t.fix_fields)
        )
    }
}

struct Field<'a> {
    id: &'a str,
    label: &'a str,
    optional: bool,
    value: &'a str,
    error: Option<&'a str>,
    /// Extra attributes (autocomplete, inputmode, maxlength, dir ...).
    attrs: &'a str,
}

fn field(t: &Texts, f: Field) -> String {
    let optional = if f.optional {
        format!(" <small>{}</small>", esc(t.optional))
    } else {
        String::new()
    };
    let required = if f.optional { "" } else { " required" };
    let (invalid, described, err) = match f.error {
        Some(e) => (
            " aria-invalid=\"true\"",
            format!(" aria-describedby=\"{}-error\"", f.id),
            format!("<p class=\"err\" id=\"{}-error\">{}</p>", f.id, esc(e)),
        ),
        None => ("", String::new(), String::new()),
    };
    format!(
        "<div><label for=\"{id}\">{label}{optional}</label><input id=\"{id}\" name=\"{id}\" value=\"{value}\"{attrs}{required}{invalid}{described}>{err}</div>",
        id = f.id,
        label = esc(f.label),
        value = esc(f.value),
        attrs = f.attrs,
    )
}

/// Disables the submit buttons once a form is sent, so a double tap sends it once.
const ONE_SUBMIT: &str = "document.querySelectorAll('form').forEach(function(f){f.addEventListener('submit',function(){setTimeout(function(){f.querySelectorAll('button').forEach(function(b){b.disabled=true})},0)})})";

fn form(action: &str, inner: &str) -> String {
    format!(
        "<form method=\"post\" action=\"{}\" novalidate>{inner}</form>",
        esc(action)
    )
}

/// A payment that does not take this step: says why, changes nothing, and offers the way back.
pub fn closed(lang: Lang, p: &Payment) -> String {
    let t = lang.t();
    let why = match p.status {
        PaymentStatus::Captured => t.closed_captured,
        PaymentStatus::Authorized => t.closed_authorized,
        PaymentStatus::Declined => t.closed_declined,
        PaymentStatus::Failed => t.closed_failed,
        PaymentStatus::Expired => t.closed_expired,
        PaymentStatus::Refunded => t.closed_refunded,
        PaymentStatus::Created
        | PaymentStatus::Challenge
        | PaymentStatus::AwaitingBank
        | PaymentStatus::Redirected => t.closed_wrong_step,
    };
    let target = if p.status.is_open() {
        format!("/pay/{}", p.id)
    } else {
        format!("/pay/{}/result", p.id)
    };
    let body = format!(
        "<h1>{}</h1>{}<p role=\"status\">{}</p><p class=\"muted\">{}</p><a class=\"btn secondary\" href=\"{}\">{}</a>",
        esc(t.closed_title),
        summary(lang, p),
        esc(why),
        esc(t.nothing_changed),
        esc(&target),
        esc(if p.status.is_open() {
            t.continue_
        } else {
            t.back_to_shop
        })
    );
    page(lang, t.closed_title, &body, None, false)
}

pub fn not_found(lang: Lang) -> String {
    let t = lang.t();
    let body = format!(
        "<h1>{}</h1><p>{}</p>",
        esc(t.not_found_title),
        esc(t.not_found_text)
    );
    page(lang, t.not_found_title, &body, None, false)
}

pub fn error(lang: Lang) -> String {
    let t = lang.t();
    let body = format!(
        "<h1>{}</h1><p>{}</p>",
        esc(t.error_title),
        esc(t.error_text)
    );
    page(lang, t.error_title, &body, None, false)
}

/// The end of a payment inside an iframe: tells the parent page, and offers the way on.
pub fn done_in_frame(lang: Lang, p: &Payment, return_url: &str) -> String {
    let t = lang.t();
    let paid = matches!(
        p.status,
        PaymentStatus::Captured | PaymentStatus::Authorized
    );
    let body = format!(
        "<h1>{}</h1><p role=\"status\">{}</p><a class=\"btn\" href=\"{}\" target=\"_top\">{}</a>",
        esc(t.done_title),
        esc(if paid { t.done_paid } else { t.done_not_paid }),
        esc(return_url),
        esc(t.continue_)
    );
    let message = serde_json::json!({
        "type": "kupa-payment",
        "paymentId": p.id,
        "status": p.status.as_str(),
        "failureCode": if paid { None } else { p.failure_code.clone() },
        "declineReason": p.decline_reason_for_buyer(),
    });
    // JSON inside a script: `<` is escaped so no value can close the script element.
    let script = format!(
        "if(window.parent!==window){{window.parent.postMessage({},location.origin)}}",
        message.to_string().replace('<', "\\u003c")
    );
    page(lang, t.done_title, &body, Some(&script), false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payment(method: PaymentMethod, installments: i64) -> Payment {
        Payment {
            id: "ab".repeat(16),
            order_id: "o".into(),
            method,
            installments,
            return_url: "/order/1".into(),
            ..crate::testing::payment()
        }
    }

    #[test]
    fn pages_are_in_the_payments_language_and_direction() {
        let he = card_form(
            Lang::He,
            &payment(PaymentMethod::Card, 1),
            &[],
            &CardKept::default(),
        );
        assert!(he.contains("lang=\"he\" dir=\"rtl\"") && he.contains("מספר כרטיס"));
        let en = card_form(
            Lang::En,
            &payment(PaymentMethod::Card, 1),
            &[],
            &CardKept::default(),
        );
        assert!(en.contains("lang=\"en\" dir=\"ltr\"") && en.contains("Card number"));
        assert_eq!(Lang::of("ru"), Lang::En);
    }

    #[test]
    fn every_input_has_a_label_and_errors_are_tied_to_their_fields() {
        let html = card_form(
            Lang::En,
            &payment(PaymentMethod::Card, 3),
            &["cvv"],
            &CardKept {
                expiry: "12/30",
                holder_id: "",
            },
        );
        for id in ["cardNumber", "expiry", "cvv", "holderId"] {
            assert!(html.contains(&format!("<label for=\"{id}\">")), "{id}");
            assert!(
                html.contains(&format!("<input id=\"{id}\" name=\"{id}\"")),
                "{id}"
            );
        }
        assert!(
            html.contains("aria-describedby=\"cvv-error\"") && html.contains("id=\"cvv-error\"")
        );
        assert!(html.contains("role=\"alert\""));
        assert!(html.contains("value=\"12/30\""));
        assert!(html.contains("3 payments: the first"), "{html}");
    }

    #[test]
    fn values_are_escaped() {
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        let html = card_form(
            Lang::En,
            &payment(PaymentMethod::Card, 1),
            &["expiry"],
            &CardKept {
                expiry: "\"><script>",
                holder_id: "",
            },
        );
        assert!(!html.contains("\"><script>") && html.contains("&quot;&gt;&lt;script&gt;"));
    }

    #[test]
    fn the_frame_message_cannot_close_its_script() {
        let mut p = payment(PaymentMethod::Card, 1);
        p.failure_code = Some("</script><b>".into());
        let html = done_in_frame(Lang::En, &p, "/order/1?x=1");
        assert!(!html.contains("</script><b>"));
        assert!(html.contains("\"type\":\"kupa-payment\""));
    }

    #[test]
    fn money_is_isolated_for_right_to_left_text() {
        assert_eq!(money(4250, "ILS"), "<bdi dir=\"ltr\">₪42.50</bdi>");
        assert_eq!(money(4250, "EUR"), "<bdi dir=\"ltr\">42.50 EUR</bdi>");
    }
}
