//! Cinema reports (issue 17, decision 0047) over HTTP, on SQLite and (when KUPA_TEST_POSTGRES_URL
//! is set) PostgreSQL: rows that match orders bought the real way, the CSV and the XLSX read
//! back, the manager role and `businessIds` on every report, and the range checked.

use crate::common::paying::*;
use crate::common::staff::*;
use crate::common::*;
use axum::http::StatusCode;
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_app::staff::Role;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

const REPORTS: [&str; 5] = [
    "attendance-venue",
    "attendance-feature",
    "top-features",
    "products",
    "points-of-sale",
];

/// A ₪50 gift card with two large popcorns and a water, paid by card: ₪118, a chain order.
async fn gift_with_snacks(app: &TestApp) {
    let who = log_in(app, &buyer(7), "0524318876").await;
    let email = "reports@example.com";
    let gift = json!([{ "SystemVoucherId": 2, "Prices": [{ "SystemVoucherPriceId": 21, "selectedQuantity": 1 }] }]);
    let r = cart(app, &who, json!({ "vouchers": gift, "products": [{ "id": 3, "quantity": 2 }, { "id": 7, "quantity": 1 }],
        "customerInfo": { "firstName": "נועה", "lastName": "ברק", "email": email, "verifyEmailAddress": email,
                          "mobileNumber": "+972524318876", "acceptedTerms": [1, 2, 3] } })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let form = pay_form(app, &who, "vouchers", 11800).await;
    let id = form.body["paymentIdentifier"].as_str().unwrap().to_owned();
    pay_card(app, &who, &id, "4242+4242+4242+4242").await;
    let body = json!({ "cart": { "vouchers": [{}] }, "recaptchaToken": CAPTCHA_TEST_TOKEN });
    let done = app
        .call_as(&who, "POST", "/api/payment/commit", Some(&body.to_string()))
        .await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
}

fn rows_of(r: &Reply) -> Vec<Value> {
    ok(r)["rows"].as_array().unwrap().clone()
}

/// The cells of an .xlsx's first sheet, row by row, read back with Python's standard library
/// (an .xlsx is a zip of XML; strings are kept apart in sharedStrings.xml), an empty cell as "".
fn xlsx_cells(bytes: &[u8]) -> Vec<Vec<String>> {
    let path = std::env::temp_dir().join(format!("kupa-report-{}.xlsx", rand_suffix()));
    std::fs::write(&path, bytes).unwrap();
    let script = r#"
import sys, zipfile, json, xml.etree.ElementTree as ET
ns = {'m': 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'}
z = zipfile.ZipFile(sys.argv[1])
strings = []
if 'xl/sharedStrings.xml' in z.namelist():
    for si in ET.fromstring(z.read('xl/sharedStrings.xml')).findall('m:si', ns):
        strings.append(''.join(t.text or '' for t in si.iter('{%s}t' % ns['m'])))
rows = []
for row in ET.fromstring(z.read('xl/worksheets/sheet1.xml')).iter('{%s}row' % ns['m']):
    cells = []
    for c in row.findall('m:c', ns):
        v = c.find('m:v', ns)
        text = '' if v is None else v.text
        if c.get('t') == 's':
            text = strings[int(text)]
        letters = ''.join(ch for ch in c.get('r') if ch.isalpha())
        col = 0
        for ch in letters:
            col = col * 26 + ord(ch) - 64
        cells += [''] * (col - 1 - len(cells))
        cells.append(text)
    rows.append(cells)
print(json.dumps(rows))
"#;
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(&path)
        .output()
        .expect("python3 reads the xlsx");
    std::fs::remove_file(&path).ok();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn rand_suffix() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        ^ u64::from(std::process::id())
}

api_tests! {

async fn report_rows_match_the_orders_and_their_files_say_the_same(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    add(&app, "m@chain.example", Role::Manager, &[1], false).await;
    let m = staff_login(&app, "m@chain.example").await;
    let bought = buy_with_refs(&app, &buyer(1), 0, [None, None]).await.1;
    gift_with_snacks(&app).await;
    let p = &bought.presentation;
    let (pid, date) = (p["id"].as_i64().unwrap(), date_of(p));
    let today = kupa_app::staff::live::business_date(kupa_app::ports::Clock::now_ms(app.clock.as_ref())).to_string();
    let range = |from: &str, to: &str| format!("from={from}&to={to}");

    // Attendance: the screening's row sold the two seats, its revenue the tickets' prices.
    let paid: i64 = rows(db, "SELECT CAST(SUM(t.price) AS TEXT) FROM order_tickets t JOIN orders o ON o.id = t.order_id WHERE o.status = 'paid'").await[0].parse().unwrap();
    for (report, first_key) in [("attendance-venue", "location"), ("attendance-feature", "feature")] {
        let r = get(&app, &m, &format!("/api/staff/reports/{report}?{}", range(&date, &date))).await;
        assert_eq!(ok(&r)["columns"][0]["key"], first_key, "{}", r.text);
        let row = rows_of(&r).into_iter().find(|x| x["presentationId"] == pid).unwrap_or_else(|| panic!("{}", r.text));
        assert_eq!((row["sold"].as_i64(), row["revenue"].as_i64()), (Some(2), Some(paid)), "{}", r.text);
        assert_eq!(r.body["totals"]["sold"], 2, "no other seat sold that day: {}", r.text);
        if report == "attendance-venue" {
            example(&app, "staffReport", "ReportResponse", &r);
        }
    }
    let r = get(&app, &m, &format!("/api/staff/reports/top-features?{}", range(&date, &date))).await;
    let top = rows_of(&r);
    assert_eq!((top.len(), top[0]["rank"].as_i64(), top[0]["sold"].as_i64()), (1, Some(1), Some(2)), "{}", r.text);
    assert_eq!(top[0]["feature"], p["featureName"], "{}", r.text);
    // Products and points of sale are by the day of payment: today.
    let r = get(&app, &m, &format!("/api/staff/reports/products?{}", range(&today, &today))).await;
    let products: Vec<(String, i64, i64)> = rows_of(&r).iter()
        .map(|x| (x["productEn"].as_str().unwrap().to_owned(), x["quantity"].as_i64().unwrap(), x["revenue"].as_i64().unwrap())).collect();
    assert_eq!(products.len(), 2, "{}", r.text);
    assert_eq!((products[0].1, products[0].2), (2, 5800), "the popcorns first: {}", r.text);
    assert_eq!((products[1].0.as_str(), products[1].1, products[1].2), ("Mineral water", 1, 1000));
    let r = get(&app, &m, &format!("/api/staff/reports/points-of-sale?{}", range(&today, &today))).await;
    let web = rows_of(&r).into_iter().find(|x| x["channelEn"] == "Website").unwrap_or_else(|| panic!("{}", r.text));
    let totals: i64 = rows(db, "SELECT CAST(SUM(total) AS TEXT) FROM orders WHERE status = 'paid'").await[0].parse().unwrap();
    assert_eq!((web["orders"].as_i64(), web["tickets"].as_i64(), web["revenue"].as_i64()), (Some(2), Some(2), Some(totals)), "{}", r.text);

    // The CSV: a byte-order mark, English labels, the screening's row, money in shekels.
    let r = get(&app, &m, &format!("/api/staff/reports/attendance-venue?{}&format=csv&lang=en", range(&date, &date))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(r.headers["content-disposition"].to_str().unwrap().contains(&format!("kupa-attendance-venue-{date}-{date}.csv")));
    assert!(r.bytes.starts_with(b"\xEF\xBB\xBF"), "BOM");
    let lines: Vec<&str> = r.text.trim_start_matches('\u{feff}').lines().collect();
    assert_eq!(lines[0], "Cinema,Hall,Date,Time,Feature,Capacity,Sold,Occupancy,Revenue");
    let shekels = format!("{}.{:02}", paid / 100, paid % 100);
    let screening: Vec<&str> = lines[1..lines.len() - 1].iter()
        .map(|l| l.split(',').collect::<Vec<&str>>())
        .filter(|f| f[6] == "2")
        .map(|f| f[8])
        .collect();
    assert_eq!(screening, vec![shekels.as_str()], "{}", r.text);
    assert!(lines.last().unwrap().starts_with("Total,"), "{}", r.text);
    assert!(lines.last().unwrap().ends_with(&shekels), "{}", r.text);

    // The XLSX, read back: the Hebrew header, the sold seats as a number, the revenue in shekels.
    let r = get(&app, &m, &format!("/api/staff/reports/attendance-venue?{}&format=xlsx", range(&date, &date))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(r.headers["content-type"].to_str().unwrap().contains("spreadsheetml"));
    let cells = xlsx_cells(&r.bytes);
    assert_eq!(cells[0][0], "קולנוע");
    assert_eq!(cells[0][6], "נמכרו");
    let total_row = cells.last().unwrap();
    assert_eq!(total_row[0], "סה״כ");
    assert_eq!(total_row[6], "2");
    assert_eq!(total_row[8].parse::<f64>().unwrap(), paid as f64 / 100.0);
    // Every report writes both files.
    for report in REPORTS {
        for format in ["csv", "xlsx"] {
            let r = get(&app, &m, &format!("/api/staff/reports/{report}?{}&format={format}", range(&today, &today))).await;
            assert_eq!(r.status, StatusCode::OK, "{report} {format}: {}", r.text);
            assert!(!r.bytes.is_empty());
        }
    }
}

async fn reports_are_for_managers_of_their_own_businesses(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    add(&app, "tlv@chain.example", Role::Manager, &[1], false).await;
    add(&app, "haifa@chain.example", Role::Manager, &[2], false).await;
    add(&app, "usher@chain.example", Role::Usher, &[1], false).await;
    add(&app, "agent@chain.example", Role::TicketReferenceAgent, &[1], false).await;
    let tlv = staff_login(&app, "tlv@chain.example").await;
    let haifa = staff_login(&app, "haifa@chain.example").await;
    let p = buy_two(&app, &buyer(1), 0).await;
    let (pid, date) = (p["id"].as_i64().unwrap(), date_of(&p));
    for report in REPORTS {
        let uri = format!("/api/staff/reports/{report}?from={date}&to={date}");
        // Nobody logged in, and the roles that may not.
        let r = app.get(&uri).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"), "{uri}");
        for who in ["usher@chain.example", "agent@chain.example"] {
            let c = staff_login(&app, who).await;
            let r = get(&app, &c, &uri).await;
            assert_eq!((r.status, code(&r)), (StatusCode::FORBIDDEN, "forbidden"), "{who} {uri}: {}", r.text);
        }
        // Another business's manager sees none of business 1's screening, and may not name it.
        let r = get(&app, &haifa, &uri).await;
        assert_eq!(r.status, StatusCode::OK, "{uri}: {}", r.text);
        assert!(!r.text.contains(&format!("\"presentationId\":{pid}")), "{uri}: {}", r.text);
        for word in ["Tel Aviv Port", "נמל תל אביב"] {
            assert!(!r.text.contains(word), "{uri} shows business 1's {word}: {}", r.text);
        }
        let r = get(&app, &haifa, &format!("{uri}&businessIds=1")).await;
        assert_eq!((r.status, code(&r)), (StatusCode::FORBIDDEN, "forbidden"), "{uri}: {}", r.text);
        let r = get(&app, &tlv, &format!("{uri}&businessIds=1&format=csv")).await;
        assert_eq!(r.status, StatusCode::OK, "{uri}: {}", r.text);
    }
    let r = get(&app, &tlv, &format!("/api/staff/reports/attendance-venue?from={date}&to={date}")).await;
    assert!(rows_of(&r).iter().any(|x| x["presentationId"] == pid));
    // The range and the names checked.
    for (query, field) in [("from=2026-02-30", "from"), ("from=2026-03-02&to=2026-03-01", "from"),
                           ("from=2025-01-01&to=2026-03-01", "from"), ("to=yesterday", "to")] {
        let r = get(&app, &tlv, &format!("/api/staff/reports/products?{query}")).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{query}: {}", r.text);
        assert_eq!(r.body["error"]["params"]["field"], field, "{query}: {}", r.text);
    }
    let r = get(&app, &tlv, "/api/staff/reports/products?format=pdf").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", r.text);
    let r = get(&app, &tlv, "/api/staff/reports/everything").await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{}", r.text);
}

}
