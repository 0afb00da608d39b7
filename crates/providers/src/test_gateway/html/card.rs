//! The card pages: the card form, its 3-D Secure step, and paying with a saved card.

use kupa_app::orders::Payment;

use super::{
    Field, Lang, ONE_SUBMIT, alert, amount_of, error_text, esc, field, fill, form, page, summary,
};

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
