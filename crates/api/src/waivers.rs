//! The waiver of a children's voucher (issue 15 item 6, decision 0041): what `POST /cart` takes
//! with `vouchers`, the masked copy its buyer reads back on `GET /gift-orders/{id}`, and
//! `GET /staff/waivers/{orderId}`, the whole waiver with its signature for a manager of the
//! voucher's business.

use axum::extract::State;
use kupa_app::vouchers::waiver::{ChildInput, MaskedWaiver, WaiverInput};
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::Path;
use crate::staff::Staff;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(staff_waiver))
}

/// The waiver a voucher class with a `waiver` needs (decision 0041): the children who will use
/// the voucher, the parent's signature drawn on the page, and the signer's name.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CartWaiverIn {
    /// At least one; each of the class's ages on the day of purchase (Asia/Jerusalem).
    #[schema(max_items = 10)]
    pub children: Vec<WaiverChildIn>,
    /// The signature as drawn: `data:image/png;base64,…`, at most 48 000 characters.
    #[schema(max_length = 48000)]
    pub signature: String,
    #[schema(max_length = 100)]
    pub signer_name: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WaiverChildIn {
    #[schema(max_length = 100)]
    pub name: String,
    /// YYYY-MM-DD.
    #[schema(max_length = 10)]
    pub birth_date: String,
}

// Personal data: a request's Debug (should anything print it) says only how many children.
impl std::fmt::Debug for CartWaiverIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "CartWaiverIn {{ {} children, redacted }}",
            self.children.len()
        )
    }
}

impl std::fmt::Debug for WaiverChildIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WaiverChildIn { redacted }")
    }
}

impl CartWaiverIn {
    pub fn to_app(&self) -> WaiverInput {
        WaiverInput {
            children: self
                .children
                .iter()
                .map(|c| ChildInput {
                    name: c.name.clone(),
                    birth_date: c.birth_date.clone(),
                })
                .collect(),
            signature: self.signature.clone(),
            signer_name: self.signer_name.clone(),
        }
    }
}

/// The waiver as its buyer sees it back: each child's first name and birth year; never the full
/// birth date, the signer or the signature.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MaskedWaiverDto {
    pub children: Vec<MaskedChildDto>,
    /// When it was signed (UTC).
    pub signed_at: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MaskedChildDto {
    pub first_name: String,
    pub birth_year: i64,
}

impl MaskedWaiverDto {
    pub fn of(w: &MaskedWaiver) -> MaskedWaiverDto {
        MaskedWaiverDto {
            children: w
                .children
                .iter()
                .map(|c| MaskedChildDto {
                    first_name: c.first_name.clone(),
                    birth_year: c.birth_year,
                })
                .collect(),
            signed_at: ms_to_rfc3339(w.signed_at_ms),
        }
    }
}

/// The whole waiver, for a manager of the voucher's business.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StaffWaiverResponse {
    pub order_id: String,
    pub reservation_number: String,
    /// The voucher class whose waiver it is, and its business.
    pub system_voucher_id: i64,
    pub business_id: i64,
    pub children: Vec<StaffWaiverChild>,
    pub signer_name: String,
    /// `data:image/png;base64,…`
    pub signature: String,
    /// When it was signed (UTC).
    pub signed_at: String,
    /// The last day it is kept (YYYY-MM-DD, Asia/Jerusalem); the sweeper deletes it after.
    pub keep_until: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StaffWaiverChild {
    pub name: String,
    pub birth_date: String,
}

/// A paid voucher order's waiver, whole, with its signature: for a manager of the voucher's
/// business only (decision 0041). Every read is logged (who, which order; nothing it says).
#[utoipa::path(get, operation_id = "staffWaiver", path = "/staff/waivers/{orderId}", tag = "staff",
    params(("orderId" = String, Path, max_length = 64, description = "The order's reservation identifier")),
    responses((status = 200, description = "The waiver", body = StaffWaiverResponse),
              (status = 401, description = "loginError: no staff login", body = ErrorBody),
              (status = 403, description = "forbidden: managers only", body = ErrorBody),
              (status = 404, description = "notFound: no waiver of a paid order of this manager's businesses", body = ErrorBody)))]
async fn staff_waiver(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path(order_id): Path<String>,
) -> ApiResult<axum::Json<StaffWaiverResponse>> {
    let stored = state.orders.staff_waiver(&caller, &order_id.into()).await?;
    let w = &stored.waiver;
    Ok(axum::Json(StaffWaiverResponse {
        order_id: stored.order_id.clone(),
        reservation_number: stored.reservation_number.clone(),
        system_voucher_id: w.class_id,
        business_id: w.business_id,
        children: w
            .children
            .iter()
            .map(|c| StaffWaiverChild {
                name: c.name.clone(),
                birth_date: c.birth_date.to_string(),
            })
            .collect(),
        signer_name: w.signer_name.clone(),
        signature: w.signature_data_url(),
        signed_at: ms_to_rfc3339(w.signed_at_ms),
        keep_until: w.keep_until.to_string(),
    }))
}
