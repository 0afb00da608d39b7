//! The catalogue file's checks: every id unique in its table, every reference pointing at a row
//! that exists, the ticket codes and reference options sensible. Run before anything is written.

use std::collections::{BTreeMap, HashSet};

use kupa_domain::money::Money;

use super::{CatalogueFileError, err};
use crate::model::*;

pub(super) fn unique<T>(
    what: &str,
    items: &[T],
    key: impl Fn(&T) -> i64,
) -> Result<HashSet<i64>, CatalogueFileError> {
    let mut seen = HashSet::new();
    for item in items {
        let k = key(item);
        if k <= 0 {
            return Err(err(format!("{what}: ids must be positive, got {k}")));
        }
        if !seen.insert(k) {
            return Err(err(format!("{what}: id {k} appears twice")));
        }
    }
    Ok(seen)
}

pub(super) fn check_references(d: &CatalogueData) -> Result<(), CatalogueFileError> {
    let need = |what: &str,
                set: &HashSet<i64>,
                id: i64,
                owner: String|
     -> Result<(), CatalogueFileError> {
        if set.contains(&id) {
            Ok(())
        } else {
            Err(err(format!("{owner}: unknown {what} {id}")))
        }
    };
    let locations = unique("locations", &d.locations, |l| l.id)?;
    let venues = unique("venues", &d.venues, |v| v.id)?;
    let seatplans = unique("seatplans", &d.seatplans, |s| s.id)?;
    unique("sections", &d.sections, |s| s.id)?;
    // One seat per place of a plan: the database's keys say so too, and a load that named a place
    // twice would keep one of them silently (decision 0074).
    let mut places = HashSet::new();
    for s in &d.seats {
        if !places.insert((s.seatplan_id, s.x, s.y)) {
            return Err(err(format!(
                "seats: seat plan {} has two seats at x {} y {}",
                s.seatplan_id, s.x, s.y
            )));
        }
    }
    let categories = unique("categories", &d.categories, |c| c.id)?;
    let features = unique("features", &d.features, |f| f.id)?;
    let groups = unique("ticketGroups", &d.ticket_groups, |g| g.id)?;
    let tickets = unique("tickets", &d.tickets, |t| t.id)?;
    unique("products", &d.products, |p| p.id)?;
    unique("serviceCharges", &d.service_charges, |s| s.id)?;
    unique("presentations", &d.presentations, |p| p.id.get())?;
    let customers = unique("customers", &d.customers, |c| c.id)?;
    let memberships = unique("memberships", &d.memberships, |m| m.id)?;
    check_memberships(&d.memberships)?;
    unique("members", &d.members, |m| m.id)?;
    unique("miniSites", &d.mini_sites, |m| m.id)?;
    for v in &d.venues {
        need(
            "location",
            &locations,
            v.location_id,
            format!("venue {}", v.id),
        )?;
    }
    for s in &d.seatplans {
        need("venue", &venues, s.venue_id, format!("seatplan {}", s.id))?;
    }
    for s in &d.sections {
        need(
            "ticket group",
            &groups,
            s.ticket_group_id,
            format!("section {}", s.id),
        )?;
    }
    let mut places = HashSet::new();
    for s in &d.seats {
        if !places.insert((s.seatplan_id, s.x, s.y)) {
            return Err(err(format!(
                "seatplan {}: two seats at x={} y={}",
                s.seatplan_id, s.x, s.y
            )));
        }
    }
    for f in &d.features {
        need(
            "category",
            &categories,
            f.category_id,
            format!("feature {}", f.id),
        )?;
    }
    for t in &d.tickets {
        need(
            "ticket group",
            &groups,
            t.ticket_group_id,
            format!("ticket {}", t.id),
        )?;
        if let Some(r) = t.requires_ticket_id {
            need("ticket", &tickets, r, format!("ticket {}", t.id))?;
        }
        if t.price < Money::ZERO || t.multiply_factor < 0 {
            return Err(err(format!(
                "ticket {}: negative price or multiply factor",
                t.id
            )));
        }
        // A pass ticket is paid from a series pass alone: a member ticket at no money, a
        // positive amount, and not also a points ticket.
        if let Some(b) = t.member_balance_price
            && (b <= Money::ZERO
                || t.price != Money::ZERO
                || !t.member_only
                || t.loyalty_points_price.is_some())
        {
            return Err(err(format!(
                "ticket {}: a pass ticket (memberBalancePrice) is member-only, priced 0, takes a positive amount and is not a points ticket",
                t.id
            )));
        }
    }
    let plan_venue: BTreeMap<i64, i64> = d.seatplans.iter().map(|s| (s.id, s.venue_id)).collect();
    for p in &d.presentations {
        need(
            "feature",
            &features,
            p.feature_id,
            format!("presentation {}", p.id),
        )?;
        need(
            "seatplan",
            &seatplans,
            p.seatplan_id,
            format!("presentation {}", p.id),
        )?;
        if plan_venue.get(&p.seatplan_id) != Some(&p.venue_id) {
            return Err(err(format!(
                "presentation {}: seatplan {} is not of venue {}",
                p.id, p.seatplan_id, p.venue_id
            )));
        }
        if let Some(g) = p.ticket_group_id {
            need("ticket group", &groups, g, format!("presentation {}", p.id))?;
        }
    }
    for m in &d.members {
        need(
            "customer",
            &customers,
            m.customer_id,
            format!("member {}", m.id),
        )?;
        need(
            "membership",
            &memberships,
            m.membership_id,
            format!("member {}", m.id),
        )?;
    }
    for p in &d.products {
        for l in p.location_ids.iter().chain(&p.location_id) {
            need("location", &locations, *l, format!("product {}", p.id))?;
        }
    }
    for m in &d.mini_sites {
        for f in &m.feature_ids {
            need("feature", &features, *f, format!("mini-site {}", m.id))?;
        }
        if let Some(l) = m.location_id {
            need("location", &locations, l, format!("mini-site {}", m.id))?;
        }
        check_mini_site(m)?;
    }
    check_ticket_codes(d, &tickets)?;
    check_seasons(d, &memberships, &groups)?;
    Ok(())
}

/// A season belongs to a membership, names ticket groups that exist and presentations that exist
/// and share one hall and seat plan (a member seat is the same seat in each), and is sensible on its
/// own ([`crate::memberships::Season::problems`]).
fn check_seasons(
    d: &CatalogueData,
    memberships: &HashSet<i64>,
    groups: &HashSet<i64>,
) -> Result<(), CatalogueFileError> {
    unique("seasons", &d.seasons, |s| s.id)?;
    for s in &d.seasons {
        let owner = format!("season {}", s.id);
        if !memberships.contains(&s.membership_id) {
            return Err(err(format!(
                "{owner}: unknown membership {}",
                s.membership_id
            )));
        }
        if let Some(problem) = s.problems() {
            return Err(err(format!("{owner}: {problem}")));
        }
        if let Some(g) = s.ticket_groups().iter().find(|g| !groups.contains(g)) {
            return Err(err(format!("{owner}: unknown ticket group {g}")));
        }
        let mut plans = HashSet::new();
        for id in s.presentation_ids() {
            let p = d
                .presentations
                .iter()
                .find(|p| p.id == id)
                .ok_or_else(|| err(format!("{owner}: unknown presentation {id}")))?;
            plans.insert((p.venue_id, p.seatplan_id));
        }
        if plans.len() > 1 {
            return Err(err(format!(
                "{owner}: its presentations must share one hall and seat plan"
            )));
        }
    }
    // A seated membership's seats are in a season of its own: the member bought with it is
    // enrolled there.
    for m in &d.memberships {
        let Some(seats) = m.seats else { continue };
        let season = d
            .seasons
            .iter()
            .find(|s| s.id == seats.season_id)
            .ok_or_else(|| {
                err(format!(
                    "membership {}: unknown season {} (seats)",
                    m.id, seats.season_id
                ))
            })?;
        if season.membership_id != m.id {
            return Err(err(format!(
                "membership {}: season {} (seats) is membership {}'s",
                m.id, season.id, season.membership_id
            )));
        }
    }
    Ok(())
}

fn check_ticket_codes(d: &CatalogueData, tickets: &HashSet<i64>) -> Result<(), CatalogueFileError> {
    unique("ticketCodes", &d.ticket_codes, |c| c.id)?;
    let mut keys = HashSet::new();
    for c in &d.ticket_codes {
        let owner = format!("ticket code {}", c.id);
        let key = kupa_domain::tickets::normalise_code(&c.code);
        if key.is_empty() {
            return Err(err(format!("{owner}: the code is empty")));
        }
        if !keys.insert(key) {
            return Err(err(format!(
                "{owner}: code {:?} appears twice (case and spaces are ignored)",
                c.code
            )));
        }
        let ticket = d
            .tickets
            .iter()
            .find(|t| t.id == c.ticket_id)
            .ok_or_else(|| err(format!("{owner}: unknown ticket {}", c.ticket_id)))?;
        let by_code = d
            .ticket_groups
            .iter()
            .any(|g| g.id == ticket.ticket_group_id && g.is_by_code_enabled);
        if !by_code {
            return Err(err(format!(
                "{owner}: ticket {} is in group {}, which does not take codes (isByCodeEnabled)",
                ticket.id, ticket.ticket_group_id
            )));
        }
        if c.usage_limit.is_some_and(|l| l < 0)
            || c.used_count < 0
            || c.usage_limit.is_some_and(|l| c.used_count > l)
        {
            return Err(err(format!(
                "{owner}: usedCount must be between 0 and usageLimit"
            )));
        }
        if c.balance.is_some_and(|b| b < Money::ZERO) || c.min_tickets < 0 {
            return Err(err(format!("{owner}: negative balance or minTickets")));
        }
        if !c.card_prefix.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err(format!("{owner}: cardPrefix must be digits")));
        }
        if c.kind == kupa_domain::tickets::CodeKind::CreditCardBenefit && c.card_prefix.is_empty() {
            return Err(err(format!(
                "{owner}: a credit-card benefit needs the issuer's cardPrefix"
            )));
        }
        if let (Some(from), Some(to)) = (&c.valid_from, &c.valid_to)
            && from > to
        {
            return Err(err(format!("{owner}: validFrom is after validTo")));
        }
    }
    let mut options = HashSet::new();
    for o in &d.ref_prompt_options {
        let owner = format!(
            "reference option {:?} of ticket {}",
            o.reference, o.ticket_id
        );
        if !tickets.contains(&o.ticket_id) {
            return Err(err(format!("{owner}: unknown ticket")));
        }
        let prompts = d
            .tickets
            .iter()
            .any(|t| t.id == o.ticket_id && !t.ref_prompt.is_empty());
        if !prompts {
            return Err(err(format!("{owner}: the ticket has no refPrompt")));
        }
        if o.reference.trim().is_empty() || o.quantity < 0 {
            return Err(err(format!(
                "{owner}: needs a reference and a quantity of 0 or more"
            )));
        }
        if !options.insert((o.ticket_id, o.reference.clone(), o.reference2.clone())) {
            return Err(err(format!("{owner}: appears twice")));
        }
    }
    Ok(())
}

/// What the memberships page sells must make sense: each price id once in its membership, prices
/// not negative, a currency of three capital letters, reference patterns that compile, a
/// validity of 1 to 120 months, and a top-up only of a series (issue 15).
fn check_memberships(memberships: &[Membership]) -> Result<(), CatalogueFileError> {
    for m in memberships {
        let owner = format!("membership {}", m.id);
        if !(1..=120).contains(&m.valid_months) {
            return Err(err(format!("{owner}: validMonths must be 1 to 120")));
        }
        if m.top_up && !m.is_series() {
            return Err(err(format!(
                "{owner}: only a series (typeId 2) can be topped up"
            )));
        }
        if m.price < Money::ZERO {
            return Err(err(format!("{owner}: a price cannot be negative")));
        }
        unique(&format!("{owner} prices"), &m.prices, |p| p.id)?;
        for p in &m.prices {
            if p.price < Money::ZERO || p.value.is_some_and(|v| v < Money::ZERO) {
                return Err(err(format!("{owner}: price {} cannot be negative", p.id)));
            }
            if let Some(c) = &p.currency
                && !(c.len() == 3 && c.chars().all(|c| c.is_ascii_uppercase()))
            {
                return Err(err(format!(
                    "{owner}: price {}: currency {c:?} is not a code like ILS",
                    p.id
                )));
            }
            for prompt in [&p.reference1, &p.reference2].into_iter().flatten() {
                if let Some(pattern) = &prompt.pattern
                    && !crate::memberships::pattern_compiles(pattern)
                {
                    return Err(err(format!(
                        "{owner}: price {}: the reference pattern {pattern:?} is not a regular expression",
                        p.id
                    )));
                }
            }
        }
    }
    Ok(())
}

/// A mini-site's url is one path word; its banner is on the site; its colours
/// are `#rrggbb` and readable at WCAG AA's 4.5:1: its text on its background, white on its primary
/// colour (the buttons) and the primary colour on the background and on the white cards.
fn check_mini_site(m: &MiniSite) -> Result<(), CatalogueFileError> {
    use kupa_domain::colour::{TEXT_CONTRAST, contrast, parse_hex};
    let what = format!("mini-site {}", m.id);
    let word = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-';
    if m.url.is_empty() || m.url.len() > 64 || !m.url.chars().all(word) || m.url.starts_with('-') {
        return Err(err(format!(
            "{what}: url must be 1 to 64 of a-z, 0-9 and - (not first), got {:?}",
            m.url
        )));
    }
    // The site's content security policy loads images from the site only.
    if let Some(image) = &m.image_url
        && (!image.starts_with('/') || image.starts_with("//"))
    {
        return Err(err(format!(
            "{what}: imageUrl must be a path on the site (/…)"
        )));
    }
    let Some(c) = &m.colors else { return Ok(()) };
    let colour = |name: &str, v: &str| {
        parse_hex(v).ok_or_else(|| err(format!("{what}: colors.{name} must be #rrggbb, got {v:?}")))
    };
    let (primary, background, text) = (
        colour("primary", &c.primary)?,
        colour("background", &c.background)?,
        colour("text", &c.text)?,
    );
    for (pair, ratio) in [
        ("text on background", contrast(text, background)),
        ("white on primary", contrast([255, 255, 255], primary)),
        ("primary on background", contrast(primary, background)),
        (
            "primary on white (the cards)",
            contrast(primary, [255, 255, 255]),
        ),
    ] {
        if ratio < TEXT_CONTRAST {
            return Err(err(format!(
                "{what}: colors: {pair} has a contrast of {ratio:.2}, below {TEXT_CONTRAST}"
            )));
        }
    }
    Ok(())
}
