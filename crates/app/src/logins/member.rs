//! Member number and ID number (memberLoginMethod byMemberNumberAndSsn).

use super::*;

impl CustomerLoginService {
    pub async fn login_with_member(
        &self,
        login_id: &str,
        member_number: &str,
        ssn: &str,
        captcha_token: &str,
        address: &str,
    ) -> AppResult<LoggedIn> {
        require_captcha(self.captcha.as_ref(), captcha_token).await?;
        let number = member_number.trim();
        if number.is_empty() || number.len() > 30 {
            return Err(bad_form("memberNumber", "required"));
        }
        let id = IsraeliId::parse(ssn).ok_or_else(|| {
            AppError::rejected(
                ErrorCode::InvalidSsnLogin,
                "the ID number's check digit fails",
            )
        })?;
        let (account, addr) = (account_key("member", number), address_key(address));
        self.guard(&[&account, &addr]).await?;
        let customer = self.creds.customer_of_member_number(number).await?;
        let matches = customer
            .as_ref()
            .and_then(|c| IsraeliId::parse(&c.ssn))
            .is_some_and(|on_file| on_file == id);
        let Some(customer) = customer.filter(|_| matches) else {
            self.count_failure(&[&account, &addr]).await?;
            return Err(failed());
        };
        self.creds.clear_failures(&account.stored).await?;
        self.bind(login_id, &customer, "memberNumber").await
    }
}
