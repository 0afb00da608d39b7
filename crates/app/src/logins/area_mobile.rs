//! The customer area's mobile login (the number remembered for the session, the update branch
//! of a customer without one), and the guest orders a proven number brings along.

use super::*;

impl CustomerLoginService {
    /// POST /customer-area/mobile-login: sends the code and remembers the number for this buyer
    /// session. A logged-in customer without a mobile number is in the update branch: the code
    /// goes to the new number, which becomes theirs once proven. At checkout a number no customer
    /// has gets a code too (a proven number suffices there).
    pub async fn area_request_code(
        &self,
        session_id: &str,
        current_login: Option<&str>,
        mobile: &MobileNumber,
        checkout: bool,
        captcha_token: &str,
    ) -> AppResult<()> {
        let updating = self
            .customers
            .customer_of_login(current_login)
            .await?
            .is_some_and(|a| a.customer.mobile.trim().is_empty());
        if updating
            && self
                .catalogue
                .customer_by_mobile(mobile.as_str())
                .await?
                .is_some()
        {
            return Err(AppError::rejected(
                ErrorCode::MobileNumberTaken,
                "another customer has this number",
            ));
        }
        self.mobile_login
            .request_code(mobile, captcha_token, checkout || updating)
            .await?;
        self.creds
            .remember_area_mobile(session_id, mobile.as_str(), checkout, self.clock.now_ms())
            .await?;
        Ok(())
    }

    /// POST /customer-area/mobile-login-validation: checks the code against the number the first
    /// call remembered for this session.
    pub async fn area_validate_code(
        &self,
        session_id: &str,
        login_id: &str,
        current_login: Option<&str>,
        code: &str,
    ) -> AppResult<AreaLogin> {
        let Some((number, _checkout)) = self.creds.area_mobile(session_id).await? else {
            return Err(AppError::rejected_with(
                ErrorCode::InvalidSmsCode,
                "no code was sent on this session",
                serde_json::json!({ "reason": "none" }),
            ));
        };
        let mobile = MobileNumber::parse(&number)
            .ok_or_else(|| AppError::internal("a remembered number does not parse"))?;
        let current = self.customers.customer_of_login(current_login).await?;
        let mut logged_in = self
            .mobile_login
            .validate_code(login_id, &mobile, code)
            .await?;
        self.creds.forget_area_mobile(session_id).await?;
        let mut updated = false;
        if let Some(current) = current.filter(|c| c.customer.mobile.trim().is_empty())
            && logged_in.account.is_none()
            && self
                .creds
                .set_customer_mobile(current.customer.id, mobile.as_str())
                .await?
        {
            tracing::info!(
                customer_id = current.customer.id,
                "mobile number added to the account"
            );
            let customer = self.customer(current.customer.id).await?;
            logged_in = self.bind(login_id, &customer, "smsUpdate").await?;
            updated = true;
        }
        self.join_verified_orders(&logged_in).await?;
        Ok(AreaLogin {
            logged_in,
            mobile_number_updated: updated,
        })
    }

    /// After an SMS login of a customer: their guest orders whose checkout proved the same number
    /// join their account (the number is proven twice, so nobody else's tickets come along).
    pub async fn join_verified_orders(&self, logged_in: &LoggedIn) -> AppResult<u64> {
        let Some(account) = &logged_in.account else {
            return Ok(0);
        };
        if logged_in.login.mobile.is_empty() {
            return Ok(0);
        }
        let joined = self
            .creds
            .join_verified_orders(account.customer.id, &logged_in.login.mobile)
            .await?;
        if joined > 0 {
            tracing::info!(
                customer_id = account.customer.id,
                joined,
                "guest orders joined the account"
            );
        }
        Ok(joined)
    }

    /// The reservation a guest's login (by reservation number) may read.
    pub async fn reservation_of_login(&self, login_id: Option<&str>) -> AppResult<Option<String>> {
        match login_id {
            Some(id) => Ok(self
                .creds
                .reservation_of_login(id, self.clock.now_ms())
                .await?),
            None => Ok(None),
        }
    }
}
