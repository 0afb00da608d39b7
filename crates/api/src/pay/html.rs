//! The test gateway's pages as HTML: one small self-contained document each (inline CSS, no
//! external assets), in Hebrew (right to left) or English, readable at 360 px inside an iframe.
//! Every value is escaped; no page ever writes a card number or security code back.

use kupa_app::orders::{Payment, PaymentMethod, PaymentStatus};
use kupa_domain::money::Money;
use kupa_providers::test_gateway::{cards, installment_plan};

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

/// Every word the pages show. `{amount}`, `{last4}`, `{n}`, `{first}`, `{each}`, `{rest}` are filled in.
pub struct Texts {
    title: &'static str,
    merchant: &'static str,
    test_banner: &'static str,
    amount: &'static str,
    one_payment: &'static str,
    equal_payments: &'static str,
    unequal_payments: &'static str,
    card_number: &'static str,
    expiry: &'static str,
    cvv: &'static str,
    holder_id: &'static str,
    optional: &'static str,
    pay: &'static str,
    fix_fields: &'static str,
    err_card_number: &'static str,
    err_expiry: &'static str,
    err_cvv: &'static str,
    err_holder_id: &'static str,
    err_3ds_code: &'static str,
    err_blik_code: &'static str,
    err_choice: &'static str,
    test_cards: &'static str,
    test_card_rows: [(&'static str, &'static str); 7],
    test_cards_other: &'static str,
    three_ds_title: &'static str,
    three_ds_text: &'static str,
    three_ds_code: &'static str,
    three_ds_hint: &'static str,
    confirm: &'static str,
    blik_title: &'static str,
    blik_text: &'static str,
    blik_code: &'static str,
    blik_hint: &'static str,
    continue_: &'static str,
    waiting_title: &'static str,
    waiting_text: &'static str,
    open_bank_app: &'static str,
    check_again: &'static str,
    bank_title: &'static str,
    bank_request: &'static str,
    bank_approve: &'static str,
    bank_reject: &'static str,
    bank_approved: &'static str,
    bank_rejected: &'static str,
    bank_nothing: &'static str,
    redirect_text: &'static str,
    continue_to: &'static str,
    provider_test_page: &'static str,
    payu_pay: &'static str,
    payu_3ds: &'static str,
    payu_error: &'static str,
    paypal_text: &'static str,
    paypal_approve: &'static str,
    paypal_cancel: &'static str,
    closed_title: &'static str,
    closed_captured: &'static str,
    closed_authorized: &'static str,
    closed_declined: &'static str,
    closed_failed: &'static str,
    closed_expired: &'static str,
    closed_refunded: &'static str,
    closed_wrong_step: &'static str,
    nothing_changed: &'static str,
    back_to_shop: &'static str,
    not_found_title: &'static str,
    not_found_text: &'static str,
    error_title: &'static str,
    error_text: &'static str,
    done_title: &'static str,
    done_paid: &'static str,
    done_not_paid: &'static str,
}

/// `\u{2066}…\u{2069}` (left-to-right isolate) keeps "3-D Secure" in order inside Hebrew text:
/// a term that starts with a digit is otherwise split by the bidi algorithm.
const HE: Texts = Texts {
    title: "תשלום",
    merchant: "Kupa · קופה",
    test_banner: "שער תשלום לבדיקות: לא יחויב כסף אמיתי",
    amount: "סכום לתשלום",
    one_payment: "תשלום אחד",
    equal_payments: "{n} תשלומים של {each}",
    unequal_payments: "{n} תשלומים: הראשון {first}, ואחריו {rest} של {each}",
    card_number: "מספר כרטיס",
    expiry: "תוקף (MM/YY)",
    cvv: "קוד אבטחה (CVV)",
    holder_id: "תעודת זהות של בעל הכרטיס",
    optional: "(לא חובה)",
    pay: "לתשלום {amount}",
    fix_fields: "יש לתקן את השדות המסומנים.",
    err_card_number: "מספר הכרטיס אינו תקין.",
    err_expiry: "התוקף אינו תקין, או שהכרטיס פג תוקף.",
    err_cvv: "קוד האבטחה אינו תקין (3 ספרות, 4 באמריקן אקספרס).",
    err_holder_id: "מספר תעודת הזהות אינו תקין.",
    err_3ds_code: "יש להזין את קוד האימות.",
    err_blik_code: "קוד BLIK הוא 6 ספרות.",
    err_choice: "יש לבחור אחת מהאפשרויות.",
    test_cards: "כרטיסי בדיקה",
    test_card_rows: [
        (cards::APPROVED_VISA, "מאושר (ויזה)"),
        (cards::APPROVED_ISRAELI_VISA, "מאושר (ויזה ישראלית)"),
        (cards::APPROVED_ISRACARD, "מאושר (ישראכרט)"),
        (cards::DECLINED, "נדחה"),
        (cards::INSUFFICIENT_FUNDS, "נדחה: אין מספיק יתרה"),
        (
            cards::THREE_D_SECURE,
            "אימות \u{2066}3-D Secure\u{2069} (קוד 1234)",
        ),
        (cards::NO_RESPONSE, "המנפיק לא עונה"),
    ],
    test_cards_other: "כל תוקף עתידי, וקוד אבטחה בן 3 ספרות (4 באמריקן אקספרס). כל מספר תקין אחר מאושר.",
    three_ds_title: "אימות \u{2066}3-D Secure\u{2069}",
    three_ds_text: "הבנק של הכרטיס המסתיים ב-{last4} מבקש לאשר את התשלום של {amount}. הזינו את הקוד שנשלח אליכם.",
    three_ds_code: "קוד אימות",
    three_ds_hint: "בבדיקות: הקוד 1234 עובר, וכל קוד אחר נדחה.",
    confirm: "אישור",
    blik_title: "תשלום ב-BLIK",
    blik_text: "פתחו את אפליקציית הבנק, צרו קוד BLIK והזינו אותו כאן.",
    blik_code: "קוד BLIK (6 ספרות)",
    blik_hint: "בבדיקות: כל 6 ספרות; הקוד 777777 נדחה בידי הבנק.",
    continue_: "המשך",
    waiting_title: "ממתינים לאישור באפליקציית הבנק",
    waiting_text: "אשרו את התשלום של {amount} באפליקציית הבנק בטלפון. הדף יתעדכן מעצמו.",
    open_bank_app: "פתיחת אפליקציית הבנק (בדיקות)",
    check_again: "בדיקה שוב",
    bank_title: "אפליקציית הבנק",
    bank_request: "Kupa מבקשת לחייב {amount} ב-BLIK.",
    bank_approve: "אישור התשלום",
    bank_reject: "דחייה",
    bank_approved: "התשלום אושר. אפשר לחזור לאתר.",
    bank_rejected: "התשלום נדחה.",
    bank_nothing: "אין בקשת תשלום שממתינה לאישור.",
    redirect_text: "תועברו לעמוד של {provider} כדי לשלם {amount}.",
    continue_to: "המשך אל {provider}",
    provider_test_page: "{provider}: עמוד בדיקה",
    payu_pay: "תשלום",
    payu_3ds: "כשל באימות \u{2066}3-D Secure\u{2069}",
    payu_error: "שגיאה אצל PayU",
    paypal_text: "לאשר תשלום של {amount} ל-Kupa?",
    paypal_approve: "אישור התשלום",
    paypal_cancel: "ביטול",
    closed_title: "התשלום הזה סגור",
    closed_captured: "התשלום כבר התקבל וההזמנה אושרה.",
    closed_authorized: "התשלום אושר, וההזמנה בתהליך סיום.",
    closed_declined: "התשלום נדחה.",
    closed_failed: "התשלום נכשל.",
    closed_expired: "הזמן לתשלום הזה עבר.",
    closed_refunded: "התשלום הוחזר.",
    closed_wrong_step: "הצעד הזה אינו שייך לתשלום הזה.",
    nothing_changed: "לא בוצע שום שינוי.",
    back_to_shop: "חזרה לאתר",
    not_found_title: "התשלום לא נמצא",
    not_found_text: "הקישור שגוי, או שהתשלום שייך לדפדפן אחר.",
    error_title: "אירעה שגיאה",
    error_text: "לא בוצע חיוב. נסו שוב בעוד רגע.",
    done_title: "התשלום הסתיים",
    done_paid: "התשלום התקבל.",
    done_not_paid: "התשלום לא הושלם.",
};

const EN: Texts = Texts {
    title: "Payment",
    merchant: "Kupa",
    test_banner: "Test payment gateway: no real money is charged",
    amount: "Amount to pay",
    one_payment: "One payment",
    equal_payments: "{n} payments of {each}",
    unequal_payments: "{n} payments: the first {first}, then {rest} of {each}",
    card_number: "Card number",
    expiry: "Expiry (MM/YY)",
    cvv: "Security code (CVV)",
    holder_id: "Cardholder's ID number",
    optional: "(optional)",
    pay: "Pay {amount}",
    fix_fields: "Please correct the marked fields.",
    err_card_number: "The card number is not valid.",
    err_expiry: "The expiry date is not valid, or the card has expired.",
    err_cvv: "The security code is not valid (3 digits, 4 for American Express).",
    err_holder_id: "The ID number is not valid.",
    err_3ds_code: "Enter the verification code.",
    err_blik_code: "A BLIK code has 6 digits.",
    err_choice: "Choose one of the options.",
    test_cards: "Test cards",
    test_card_rows: [
        (cards::APPROVED_VISA, "approved (Visa)"),
        (cards::APPROVED_ISRAELI_VISA, "approved (Israeli Visa)"),
        (cards::APPROVED_ISRACARD, "approved (Isracard)"),
        (cards::DECLINED, "declined"),
        (cards::INSUFFICIENT_FUNDS, "declined: insufficient funds"),
        (cards::THREE_D_SECURE, "3-D Secure (code 1234)"),
        (cards::NO_RESPONSE, "the issuer does not answer"),
    ],
    test_cards_other: "Any future expiry and a 3-digit security code (4 for American Express). Any other valid number is approved.",
    three_ds_title: "3-D Secure check",
    three_ds_text: "The bank of the card ending {last4} asks you to confirm the payment of {amount}. Enter the code it sent you.",
    three_ds_code: "Verification code",
    three_ds_hint: "Testing: 1234 passes, any other code is declined.",
    confirm: "Confirm",
    blik_title: "Pay with BLIK",
    blik_text: "Open your bank's app, create a BLIK code and enter it here.",
    blik_code: "BLIK code (6 digits)",
    blik_hint: "Testing: any 6 digits; 777777 is refused by the bank.",
    continue_: "Continue",
    waiting_title: "Waiting for your bank app",
    waiting_text: "Confirm the payment of {amount} in your bank's app on your phone. This page updates by itself.",
    open_bank_app: "Open the bank app (testing)",
    check_again: "Check again",
    bank_title: "Bank app",
    bank_request: "Kupa asks to charge {amount} with BLIK.",
    bank_approve: "Approve payment",
    bank_reject: "Reject",
    bank_approved: "Payment approved. You can go back to the shop.",
    bank_rejected: "Payment rejected.",
    bank_nothing: "There is no payment request waiting for approval.",
    redirect_text: "You will continue to {provider}'s page to pay {amount}.",
    continue_to: "Continue to {provider}",
    provider_test_page: "{provider}: test page",
    payu_pay: "Pay",
    payu_3ds: "3-D Secure fails",
    payu_error: "PayU error",
    paypal_text: "Approve a payment of {amount} to Kupa?",
    paypal_approve: "Approve payment",
    paypal_cancel: "Cancel",
    closed_title: "This payment is closed",
    closed_captured: "This payment was already received and the order is confirmed.",
    closed_authorized: "This payment was approved; the order is being completed.",
    closed_declined: "This payment was declined.",
    closed_failed: "This payment failed.",
    closed_expired: "The time for this payment has run out.",
    closed_refunded: "This payment was refunded.",
    closed_wrong_step: "This step does not belong to this payment.",
    nothing_changed: "Nothing was changed.",
    back_to_shop: "Back to the shop",
    not_found_title: "Payment not found",
    not_found_text: "The link is wrong, or the payment belongs to another browser.",
    error_title: "Something went wrong",
    error_text: "Nothing was charged. Please try again in a moment.",
    done_title: "Payment finished",
    done_paid: "The payment was received.",
    done_not_paid: "The payment was not completed.",
};

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
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
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
    money(p.amount, &p.currency)
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
        let (first, each) = installment_plan(p.amount, n);
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

/// What the card form keeps when it comes back with errors: never the number or the code.
#[derive(Debug, Default)]
pub struct CardKept<'a> {
    pub expiry: &'a str,
    pub holder_id: &'a str,
}

pub fn card_form(lang: Lang, p: &Payment, errors: &[&str], kept: &CardKept) -> String {
    let t = lang.t();
    let err = |f: &str| errors.contains(&f).then(|| error_text(t, f));
    let fields = format!(
        "{}<div class=\"row\">{}{}</div>{}",
        field(
            t,
            Field {
                id: "cardNumber",
                label: t.card_number,
                optional: false,
                value: "",
                error: err("cardNumber"),
                attrs: " dir=\"ltr\" inputmode=\"numeric\" autocomplete=\"cc-number\" maxlength=\"23\" placeholder=\"•••• •••• •••• ••••\""
            }
        ),
        field(
            t,
            Field {
                id: "expiry",
                label: t.expiry,
                optional: false,
                value: kept.expiry,
                error: err("expiry"),
                attrs: " dir=\"ltr\" inputmode=\"numeric\" autocomplete=\"cc-exp\" maxlength=\"7\" placeholder=\"MM/YY\""
            }
        ),
        field(
            t,
            Field {
                id: "cvv",
                label: t.cvv,
                optional: false,
                value: "",
                error: err("cvv"),
                attrs: " dir=\"ltr\" inputmode=\"numeric\" autocomplete=\"cc-csc\" maxlength=\"4\""
            }
        ),
        field(
            t,
            Field {
                id: "holderId",
                label: t.holder_id,
                optional: true,
                value: kept.holder_id,
                error: err("holderId"),
                attrs: " dir=\"ltr\" inputmode=\"numeric\" autocomplete=\"off\" maxlength=\"9\""
            }
        ),
    );
    let button = format!(
        "<button type=\"submit\">{}</button>",
        fill(&esc(t.pay), &[("amount", &amount_of(p))])
    );
    let cards_list: String = t
        .test_card_rows
        .iter()
        .map(|(n, what)| {
            format!(
                "<li><code>{}</code><span>{}</span></li>",
                spaced(n),
                esc(what)
            )
        })
        .collect();
    let help = format!(
        "<details><summary>{}</summary><ul>{cards_list}</ul><p class=\"hint\">{}</p></details>",
        esc(t.test_cards),
        esc(t.test_cards_other)
    );
    let body = format!(
        "<h1>{}</h1>{}{}{}{help}",
        esc(t.title),
        summary(lang, p),
        alert(t, errors),
        form(&format!("/pay/{}/card", p.id), &(fields + &button))
    );
    page(lang, t.title, &body, Some(ONE_SUBMIT), false)
}

/// A card number in groups of four, for reading.
fn spaced(n: &str) -> String {
    if n.len() != 16 {
        return n.to_owned(); // Isracard's 9 digits read as one group
    }
    n.as_bytes()
        .chunks(4)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn three_ds_form(lang: Lang, p: &Payment, errors: &[&str]) -> String {
    let t = lang.t();
    let last4 = p.card_last4.clone().unwrap_or_default();
    let text = fill(
        &esc(t.three_ds_text),
        &[
            ("last4", &format!("<bdi>{}</bdi>", esc(&last4))),
            ("amount", &amount_of(p)),
        ],
    );
    let input = field(
        t,
        Field {
            id: "code",
            label: t.three_ds_code,
            optional: false,
            value: "",
            error: errors.contains(&"code").then_some(t.err_3ds_code),
            attrs: " dir=\"ltr\" inputmode=\"numeric\" autocomplete=\"one-time-code\" maxlength=\"12\"",
        },
    );
    let body = format!(
        "<h1>{}</h1><p>{text}</p>{}{}<p class=\"hint\">{}</p>",
        esc(t.three_ds_title),
        alert(t, errors),
        form(
            &format!("/pay/{}/3ds", p.id),
            &format!("{input}<button type=\"submit\">{}</button>", esc(t.confirm))
        ),
        esc(t.three_ds_hint)
    );
    page(lang, t.three_ds_title, &body, Some(ONE_SUBMIT), false)
}

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

/// A saved card as the saved-card page lists it: never more than the brand, last four, expiry.
pub struct SavedCardChoice<'a> {
    pub token: &'a str,
    pub brand: &'a str,
    pub last4: &'a str,
    pub expiry_month: u32,
    pub expiry_year: i32,
    pub expired: bool,
}

struct SavedTexts {
    title: &'static str,
    choose: &'static str,
    expired: &'static str,
    err_card: &'static str,
    login_title: &'static str,
    login_text: &'static str,
    no_cards_title: &'static str,
    no_cards_text: &'static str,
}

fn saved_texts(lang: Lang) -> &'static SavedTexts {
    match lang {
        Lang::He => &SavedTexts {
            title: "תשלום בכרטיס שמור",
            choose: "בחירת כרטיס",
            expired: "פג תוקף",
            err_card: "יש לבחור כרטיס שמור בתוקף.",
            login_title: "נדרשת התחברות",
            login_text: "כדי לשלם בכרטיס שמור יש להתחבר עם מספר הנייד ולהתחיל את התשלום מחדש. התשלום הזה לא בוצע.",
            no_cards_title: "אין כרטיסים שמורים",
            no_cards_text: "אין לך כרטיסים שמורים. אפשר לחזור ולשלם בכרטיס אשראי. התשלום הזה לא בוצע.",
        },
        Lang::En => &SavedTexts {
            title: "Pay with a saved card",
            choose: "Choose a card",
            expired: "expired",
            err_card: "Choose a saved card that has not expired.",
            login_title: "Please log in",
            login_text: "To pay with a saved card, log in with your mobile number and start the payment again. This payment was not made.",
            no_cards_title: "No saved cards",
            no_cards_text: "You have no saved cards. Go back and pay by card. This payment was not made.",
        },
    }
}

/// The saved-card page: the customer's cards (brand, •••• last four, expiry) and the security code.
pub fn saved_card_form(
    lang: Lang,
    p: &Payment,
    cards: &[SavedCardChoice],
    errors: &[&str],
) -> String {
    let t = lang.t();
    let st = saved_texts(lang);
    let first_live = cards.iter().position(|c| !c.expired);
    let card_error = errors.contains(&"card");
    let choices: String = cards
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let checked = if Some(i) == first_live { " checked" } else { "" };
            let disabled = if c.expired { " disabled" } else { "" };
            let expired = if c.expired {
                format!(" <small>({})</small>", esc(st.expired))
            } else {
                String::new()
            };
            format!(
                "<label for=\"card-{i}\"><input type=\"radio\" id=\"card-{i}\" name=\"card\" value=\"{token}\"{checked}{disabled}>\
                 <span><bdi dir=\"ltr\">{brand} •••• {last4}</bdi> · <bdi dir=\"ltr\">{mm:02}/{yy:02}</bdi>{expired}</span></label>",
                token = esc(c.token),
                brand = esc(&c.brand.to_uppercase()),
                last4 = esc(c.last4),
                mm = c.expiry_month,
                yy = c.expiry_year.rem_euclid(100),
            )
        })
        .collect();
    let card_err = if card_error {
        format!(
            "<p class=\"err\" id=\"card-error\">{}</p>",
            esc(st.err_card)
        )
    } else {
        String::new()
    };
    let fields = format!(
        "<fieldset class=\"cards\"><legend>{}</legend>{choices}{card_err}</fieldset>{}",
        esc(st.choose),
        field(
            t,
            Field {
                id: "cvv",
                label: t.cvv,
                optional: false,
                value: "",
                error: errors.contains(&"cvv").then_some(t.err_cvv),
                attrs: " dir=\"ltr\" inputmode=\"numeric\" autocomplete=\"cc-csc\" maxlength=\"4\""
            }
        )
    );
    let button = format!(
        "<button type=\"submit\">{}</button>",
        fill(&esc(t.pay), &[("amount", &amount_of(p))])
    );
    let body = format!(
        "<h1>{}</h1>{}{}{}",
        esc(st.title),
        summary(lang, p),
        alert(t, errors),
        form(&format!("/pay/{}/saved-card", p.id), &(fields + &button))
    );
    page(lang, st.title, &body, Some(ONE_SUBMIT), false)
}

/// Why a saved-card payment cannot go on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SavedCardMessage {
    /// No customer is logged in on the buyer session.
    LogIn,
    /// The customer has no saved card.
    NoCards,
}

/// A saved-card payment that cannot go on (it has failed): says why and links back to the shop.
pub fn saved_card_unavailable(
    lang: Lang,
    p: &Payment,
    why: SavedCardMessage,
    return_url: &str,
) -> String {
    let t = lang.t();
    let st = saved_texts(lang);
    let (title, text) = match why {
        SavedCardMessage::LogIn => (st.login_title, st.login_text),
        SavedCardMessage::NoCards => (st.no_cards_title, st.no_cards_text),
    };
    let body = format!(
        "<h1>{}</h1>{}<p role=\"alert\">{}</p><a class=\"btn\" href=\"{}\" target=\"_top\">{}</a>",
        esc(title),
        summary(lang, p),
        esc(text),
        esc(return_url),
        esc(t.back_to_shop)
    );
    page(lang, title, &body, None, false)
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
            session_id: "s".into(),
            method,
            amount: 10_000,
            currency: "ILS".into(),
            installments,
            status: PaymentStatus::Created,
            card_brand: None,
            card_last4: None,
            card_bin: None,
            save_card: false,
            failure_code: None,
            locale: "he".into(),
            return_url: "/order/1".into(),
            created_at_ms: 0,
            updated_at_ms: 0,
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
