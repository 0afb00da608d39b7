//! Cinema reports (spec section 1; issue 17, decision 0047): `GET /staff/reports/{report}`, Kupa's
//! own call, as JSON for the reports screen or as a CSV or XLSX file. Managers only; every figure
//! is of the caller's businesses. The files are written here from the app's table: labels in the
//! language asked, money in shekels, no personal data (a report holds sums only).

use axum::extract::{Path, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use kupa_app::error::{AppError, ErrorCode};
use kupa_app::staff::reports::{ColumnKind, Report, ReportKind};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::Staff;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::Query;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(report))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct ReportQuery {
    /// First business day, YYYY-MM-DD (default six days before `to`).
    #[param(max_length = 10)]
    pub from: Option<String>,
    /// Last business day, YYYY-MM-DD (default today's); at most 366 days in all.
    #[param(max_length = 10)]
    pub to: Option<String>,
    /// Comma-separated; default the user's. A business not the user's is refused.
    #[param(max_length = 500)]
    pub business_ids: Option<String>,
    /// json (default), csv or xlsx.
    #[param(max_length = 4)]
    pub format: Option<String>,
    /// The labels' language in a file: he (default) or en.
    #[param(max_length = 5)]
    pub lang: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportColumnDto {
    pub key: String,
    pub label: String,
    pub label_en: String,
    /// text (the row has `key` and `key` + "En"), date (YYYY-MM-DD), time (HH:MM), count, money
    /// (agorot) or percent (0–100).
    pub kind: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportResponse {
    /// attendance-venue, attendance-feature, top-features, products or points-of-sale.
    pub report: String,
    pub title: String,
    pub title_en: String,
    pub from: String,
    pub to: String,
    pub business_ids: Vec<i64>,
    pub columns: Vec<ReportColumnDto>,
    /// Each row: column key to value (text columns also `key` + "En").
    #[schema(value_type = Vec<Object>)]
    pub rows: Vec<Map<String, Value>>,
    /// The sums of the count and money columns (and occupancy from them); null for the top ten.
    #[schema(value_type = Option<Object>)]
    pub totals: Option<Map<String, Value>>,
}

impl ReportResponse {
    fn of(r: Report) -> ReportResponse {
        let (title, title_en) = r.kind.title();
        ReportResponse {
            report: r.kind.as_str().to_owned(),
            title: title.to_owned(),
            title_en: title_en.to_owned(),
            from: r.first.to_string(),
            to: r.last.to_string(),
            business_ids: r.business_ids,
            columns: r
                .columns
                .iter()
                .map(|c| ReportColumnDto {
                    key: c.key.to_owned(),
                    label: c.label.to_owned(),
                    label_en: c.label_en.to_owned(),
                    kind: c.kind.as_str().to_owned(),
                })
                .collect(),
            rows: r.rows,
            totals: r.totals,
        }
    }
}

/// A report of the caller's businesses over a range of business days, as JSON or a file.
#[utoipa::path(get, operation_id = "staffReport", path = "/staff/reports/{report}", tag = "pres-live",
    params(("report" = String, Path, max_length = 32, description = "attendance-venue, attendance-feature, top-features, products or points-of-sale"), ReportQuery),
    responses((status = 200, description = "The report (JSON; with format csv or xlsx, the file)", body = ReportResponse),
              (status = 401, description = "loginError", body = ErrorBody),
              (status = 403, description = "forbidden: the role (managers only), or a business not the user's", body = ErrorBody),
              (status = 404, description = "notFound: no such report", body = ErrorBody),
              (status = 422, description = "formValidation: a date not YYYY-MM-DD, from after to, more than 366 days, an unknown format", body = ErrorBody)))]
async fn report(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path(report): Path<String>,
    Query(q): Query<ReportQuery>,
) -> ApiResult<Response> {
    let kind = ReportKind::parse(&report)
        .ok_or_else(|| AppError::rejected(ErrorCode::NotFound, "no such report"))?;
    let format = q.format.as_deref().unwrap_or("json");
    if !matches!(format, "json" | "csv" | "xlsx") {
        return Err(AppError::rejected_with(
            ErrorCode::FormValidation,
            "format: json, csv or xlsx",
            serde_json::json!({ "field": "format", "fields": ["format"] }),
        )
        .into());
    }
    let businesses = super::refs::businesses(&caller, q.business_ids.as_deref())?;
    let (first, last) = state.reports.range(q.from.as_deref(), q.to.as_deref())?;
    let report = state
        .reports
        .report(&caller, kind, first, last, &businesses)
        .await?;
    let he = q.lang.as_deref() != Some("en");
    let file = |ext: &str| {
        format!(
            "attachment; filename=\"kupa-{}-{}-{}.{ext}\"",
            kind.as_str(),
            first,
            last
        )
    };
    match format {
        "csv" => Ok((
            [
                (CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
                (CONTENT_DISPOSITION, file("csv")),
                (CACHE_CONTROL, "private, no-store".to_owned()),
            ],
            csv(&report, he),
        )
            .into_response()),
        "xlsx" => Ok((
            [
                (
                    CONTENT_TYPE,
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet".to_owned(),
                ),
                (CONTENT_DISPOSITION, file("xlsx")),
                (CACHE_CONTROL, "private, no-store".to_owned()),
            ],
            xlsx(&report, he)?,
        )
            .into_response()),
        _ => Ok(axum::Json(ReportResponse::of(report)).into_response()),
    }
}

/// A cell's text: a name in the language asked, money in shekels with two decimals.
fn cell(row: &Map<String, Value>, key: &str, kind: ColumnKind, he: bool) -> String {
    match kind {
        ColumnKind::Text => {
            let en = row.get(&format!("{key}En")).and_then(Value::as_str);
            let he_name = row.get(key).and_then(Value::as_str).unwrap_or_default();
            if he { he_name } else { en.unwrap_or(he_name) }.to_owned()
        }
        ColumnKind::Money => {
            let agorot = row.get(key).and_then(Value::as_i64).unwrap_or(0);
            let sign = if agorot < 0 { "-" } else { "" };
            format!("{sign}{}.{:02}", agorot.abs() / 100, agorot.abs() % 100)
        }
        _ => match row.get(key) {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Number(n)) => n.to_string(),
            _ => String::new(),
        },
    }
}

/// A CSV field: quoted when it must be, and a leading formula character defused (a name typed
/// into the catalogue must not run in a spreadsheet).
fn csv_field(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '@']) || (s.starts_with('-') && s.parse::<f64>().is_err()) {
        format!("'{s}")
    } else {
        s.to_owned()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

/// UTF-8 with a byte-order mark (so that Excel reads Hebrew), a header row, the rows, the totals.
fn csv(r: &Report, he: bool) -> Vec<u8> {
    let mut out = String::from("\u{feff}");
    let header: Vec<String> = r
        .columns
        .iter()
        .map(|c| csv_field(if he { c.label } else { c.label_en }))
        .collect();
    out.push_str(&header.join(","));
    out.push_str("\r\n");
    let mut lines: Vec<&Map<String, Value>> = r.rows.iter().collect();
    let totals = r.totals.as_ref().map(|t| {
        let mut t = t.clone();
        if let Some(first) = r.columns.first() {
            t.insert(
                first.key.to_owned(),
                Value::from(if he { "סה״כ" } else { "Total" }),
            );
            t.insert(format!("{}En", first.key), Value::from("Total"));
        }
        t
    });
    lines.extend(totals.as_ref());
    for row in lines {
        let fields: Vec<String> = r
            .columns
            .iter()
            .map(|c| csv_field(&cell(row, c.key, c.kind, he)))
            .collect();
        out.push_str(&fields.join(","));
        out.push_str("\r\n");
    }
    out.into_bytes()
}

fn xlsx_error(e: rust_xlsxwriter::XlsxError) -> AppError {
    AppError::internal(format!("xlsx: {e}"))
}

/// One sheet named for the report: a bold header, numbers as numbers, money as shekels with
/// two decimals, right to left in Hebrew, the totals row last and bold.
fn xlsx(r: &Report, he: bool) -> Result<Vec<u8>, AppError> {
    use rust_xlsxwriter::{Format, Workbook};
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    let (title, title_en) = r.kind.title();
    let name: String = if he { title } else { title_en }.chars().take(31).collect();
    sheet.set_name(name).map_err(xlsx_error)?;
    sheet.set_right_to_left(he);
    let bold = Format::new().set_bold();
    let money = Format::new().set_num_format("#,##0.00");
    let bold_money = Format::new().set_bold().set_num_format("#,##0.00");
    for (i, c) in r.columns.iter().enumerate() {
        let col = i as u16;
        sheet
            .write_string_with_format(0, col, if he { c.label } else { c.label_en }, &bold)
            .map_err(xlsx_error)?;
        let width = if c.kind == ColumnKind::Text {
            28.0
        } else {
            14.0
        };
        sheet.set_column_width(col, width).map_err(xlsx_error)?;
    }
    let mut rows: Vec<(&Map<String, Value>, bool)> = r.rows.iter().map(|x| (x, false)).collect();
    let totals = r.totals.as_ref().map(|t| {
        let mut t = t.clone();
        if let Some(first) = r.columns.first() {
            t.insert(first.key.to_owned(), Value::from("סה״כ"));
            t.insert(format!("{}En", first.key), Value::from("Total"));
        }
        t
    });
    rows.extend(totals.as_ref().map(|t| (t, true)));
    for (n, (row, is_total)) in rows.into_iter().enumerate() {
        let line = n as u32 + 1;
        for (i, c) in r.columns.iter().enumerate() {
            let col = i as u16;
            let value = row.get(c.key);
            match (c.kind, value.and_then(Value::as_i64)) {
                (ColumnKind::Money, Some(agorot)) => {
                    let f = if is_total { &bold_money } else { &money };
                    sheet
                        .write_number_with_format(line, col, agorot as f64 / 100.0, f)
                        .map_err(xlsx_error)?;
                }
                (ColumnKind::Count | ColumnKind::Percent, Some(n)) => {
                    if is_total {
                        sheet.write_number_with_format(line, col, n as f64, &bold)
                    } else {
                        sheet.write_number(line, col, n as f64)
                    }
                    .map_err(xlsx_error)?;
                }
                (_, _) if value.is_some() => {
                    let text = cell(row, c.key, c.kind, he);
                    if is_total {
                        sheet.write_string_with_format(line, col, text, &bold)
                    } else {
                        sheet.write_string(line, col, text)
                    }
                    .map_err(xlsx_error)?;
                }
                _ => {}
            }
        }
    }
    book.save_to_buffer().map_err(xlsx_error)
}
