//! The other methods' pages: the Blik code and the bank app (the buyer's phone), and the
//! stand-ins for PayU's and PayPal's pages.

use kupa_app::orders::{Payment, PaymentMethod};

use super::{Field, Lang, ONE_SUBMIT, alert, amount_of, esc, field, fill, form, page, summary};

pub fn blik_form(lang: Lang, p: &Payment, errors: &[&str]) -> String {
    let t = lang.t();
    let input = field(
        t,
        Field {
            id: "code",
            label: t.blik_code,
            optional: false,
            value: "",
            error: errors.contains(&"code").then_some(t.err_blik_code),
            attrs: " dir=\"ltr\" inputmode=\"numeric\" autocomplete=\"one-time-code\" maxlength=\"7\"",
        },
    );
    let body = format!(
        "<h1>{}</h1>{}<p>{}</p>{}{}<p class=\"hint\">{}</p>",
        esc(t.blik_title),
        summary(lang, p),
        esc(t.blik_text),
        alert(t, errors),
        form(
            &format!("/pay/{}/blik", p.id),
            &format!(
                "{input}<button type=\"submit\">{}</button>",
                esc(t.continue_)
            )
        ),
        esc(t.blik_hint)
    );
    page(lang, t.blik_title, &body, Some(ONE_SUBMIT), false)
}

/// Blik, after the code: waits for the bank app, asking the status call every two seconds.
pub fn waiting(lang: Lang, p: &Payment) -> String {
    let t = lang.t();
    let result = format!("/pay/{}/result", p.id);
    let body = format!(
        "<h1>{}</h1>{}<div class=\"spinner\" aria-hidden=\"true\"></div><p role=\"status\" aria-live=\"polite\">{}</p>\
         <a class=\"btn secondary\" href=\"{bank}\" target=\"_blank\" rel=\"noopener\">{}</a>\
         <a class=\"btn secondary\" href=\"{result}\">{}</a>",
        esc(t.waiting_title),
        summary(lang, p),
        fill(&esc(t.waiting_text), &[("amount", &amount_of(p))]),
        esc(t.open_bank_app),
        esc(t.check_again),
        bank = esc(&format!("/pay/{}/bank-app", p.id)),
    );
    let script = format!(
        "(function(){{var u='/api/payment/status/{id}';function tick(){{fetch(u,{{credentials:'same-origin',cache:'no-store'}}).then(function(r){{return r.ok?r.json():null}}).then(function(s){{if(s&&s.status!=='awaitingBank'){{location.replace('{result}')}}else{{setTimeout(tick,2000)}}}}).catch(function(){{setTimeout(tick,4000)}})}}setTimeout(tick,2000)}})()",
        id = p.id,
        result = result
    );
    page(lang, t.waiting_title, &body, Some(&script), false)
}

pub fn bank_app(lang: Lang, p: &Payment) -> String {
    let t = lang.t();
    let buttons = format!(
        "<div class=\"stack\"><button type=\"submit\" name=\"decision\" value=\"approve\">{}</button>\
         <button type=\"submit\" name=\"decision\" value=\"reject\" class=\"danger\">{}</button></div>",
        esc(t.bank_approve),
        esc(t.bank_reject)
    );
    let body = format!(
        "<h1>{}</h1>{}<p>{}</p>{}",
        esc(t.bank_title),
        summary(lang, p),
        fill(&esc(t.bank_request), &[("amount", &amount_of(p))]),
        form(&format!("/pay/{}/bank-app", p.id), &buttons)
    );
    page(lang, t.bank_title, &body, Some(ONE_SUBMIT), true)
}

/// What the phone says after an answer, or when there is nothing to answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BankMessage {
    Approved,
    Rejected,
    /// Approved, but the payment did not complete (the seats were lost and it was refunded).
    NotCompleted,
    Nothing,
}

/// The phone's answer page: the bank app has no shop to go back to.
pub fn bank_app_message(lang: Lang, message: BankMessage) -> String {
    let t = lang.t();
    let text = match message {
        BankMessage::Approved => t.bank_approved,
        BankMessage::Rejected => t.bank_rejected,
        BankMessage::NotCompleted => t.done_not_paid,
        BankMessage::Nothing => t.bank_nothing,
    };
    let body = format!(
        "<h1>{}</h1><p role=\"status\">{}</p>",
        esc(t.bank_title),
        esc(text)
    );
    page(lang, t.bank_title, &body, None, true)
}

fn provider_name(method: PaymentMethod) -> &'static str {
    match method {
        PaymentMethod::Paypal => "PayPal",
        _ => "PayU",
    }
}

/// PayU and PayPal on the gateway's own page: a button on to the provider.
pub fn redirect_intro(lang: Lang, p: &Payment) -> String {
    let t = lang.t();
    let provider = provider_name(p.method);
    let path = if p.method == PaymentMethod::Paypal {
        "paypal"
    } else {
        "payu"
    };
    let body = format!(
        "<h1>{}</h1>{}<p>{}</p><a class=\"btn\" href=\"/pay/{}/{path}\">{}</a>",
        esc(t.title),
        summary(lang, p),
        fill(
            &esc(t.redirect_text),
            &[("provider", provider), ("amount", &amount_of(p))]
        ),
        esc(&p.id),
        esc(&fill(t.continue_to, &[("provider", provider)]))
    );
    page(lang, t.title, &body, None, false)
}

pub fn payu_page(lang: Lang, p: &Payment, error: bool) -> String {
    let t = lang.t();
    let title = fill(t.provider_test_page, &[("provider", "PayU")]);
    let buttons = format!(
        "<div class=\"stack\"><button type=\"submit\" name=\"outcome\" value=\"pay\">{}</button>\
         <button type=\"submit\" name=\"outcome\" value=\"3ds\" class=\"secondary\">{}</button>\
         <button type=\"submit\" name=\"outcome\" value=\"error\" class=\"danger\">{}</button></div>",
        esc(t.payu_pay),
        esc(t.payu_3ds),
        esc(t.payu_error)
    );
    let alert = if error {
        format!(
            "<p class=\"alert\" role=\"alert\">{}</p>",
            esc(t.err_choice)
        )
    } else {
        String::new()
    };
    let body = format!(
        "<h1>{}</h1>{}{alert}{}",
        esc(&title),
        summary(lang, p),
        form(&format!("/pay/{}/payu", p.id), &buttons)
    );
    page(lang, &title, &body, Some(ONE_SUBMIT), false)
}

pub fn paypal_page(lang: Lang, p: &Payment, error: bool) -> String {
    let t = lang.t();
    let title = fill(t.provider_test_page, &[("provider", "PayPal")]);
    let buttons = format!(
        "<div class=\"stack\"><button type=\"submit\" name=\"decision\" value=\"approve\">{}</button>\
         <button type=\"submit\" name=\"decision\" value=\"cancel\" class=\"secondary\">{}</button></div>",
        esc(t.paypal_approve),
        esc(t.paypal_cancel)
    );
    let alert = if error {
        format!(
            "<p class=\"alert\" role=\"alert\">{}</p>",
            esc(t.err_choice)
        )
    } else {
        String::new()
    };
    let body = format!(
        "<h1>{}</h1>{}<p>{}</p>{alert}{}",
        esc(&title),
        summary(lang, p),
        fill(&esc(t.paypal_text), &[("amount", &amount_of(p))]),
        form(&format!("/pay/{}/paypal", p.id), &buttons)
    );
    page(lang, &title, &body, Some(ONE_SUBMIT), false)
}
