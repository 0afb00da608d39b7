use serde::{Deserialize, Serialize};

/// An amount in integer minor units (agorot for ILS). Never a float.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[cfg_attr(feature = "sqlx", derive(sqlx::Type), sqlx(transparent))]
#[serde(transparent)]
pub struct Money(pub i64);

impl Money {
    pub const ZERO: Money = Money(0);

    pub fn minor(self) -> i64 {
        self.0
    }

    /// `percent_bp` is in basis points (1 % = 100), rounded half up to the agora.
    pub fn percent_bp(self, percent_bp: i64) -> Money {
        let scaled = self.0 * percent_bp;
        Money((scaled + 5_000).div_euclid(10_000))
    }

    /// "₪42.50" style, for logs, PDFs and mails; the web app formats on its own.
    pub fn display_ils(self) -> String {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        format!("{sign}₪{}.{:02}", abs / 100, abs % 100)
    }
}

impl std::ops::Add for Money {
    type Output = Money;
    fn add(self, rhs: Money) -> Money {
        Money(self.0 + rhs.0)
    }
}

impl std::ops::Sub for Money {
    type Output = Money;
    fn sub(self, rhs: Money) -> Money {
        Money(self.0 - rhs.0)
    }
}

impl std::ops::Mul<i64> for Money {
    type Output = Money;
    fn mul(self, rhs: i64) -> Money {
        Money(self.0 * rhs)
    }
}

impl std::ops::Neg for Money {
    type Output = Money;
    fn neg(self) -> Money {
        Money(-self.0)
    }
}

impl std::ops::AddAssign for Money {
    fn add_assign(&mut self, rhs: Money) {
        self.0 += rhs.0;
    }
}

impl std::ops::SubAssign for Money {
    fn sub_assign(&mut self, rhs: Money) {
        self.0 -= rhs.0;
    }
}

impl<'a> std::iter::Sum<&'a Money> for Money {
    fn sum<I: Iterator<Item = &'a Money>>(iter: I) -> Money {
        iter.copied().sum()
    }
}

impl std::iter::Sum for Money {
    fn sum<I: Iterator<Item = Money>>(iter: I) -> Money {
        iter.fold(Money::ZERO, |a, b| a + b)
    }
}

/// The one currency the demo chain sells in; the catalogue may declare others.
pub const DEFAULT_CURRENCY: &str = "ILS";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_rounds_half_up_to_the_agora() {
        assert_eq!(Money(4250).percent_bp(1000), Money(425));
        assert_eq!(Money(5).percent_bp(1000), Money(1)); // 0.5 agora rounds up
        assert_eq!(Money(4).percent_bp(1000), Money(0));
    }

    #[test]
    fn shekel_display_has_two_decimals() {
        assert_eq!(Money(4250).display_ils(), "₪42.50");
        assert_eq!(Money(7).display_ils(), "₪0.07");
        assert_eq!(Money(-1200).display_ils(), "-₪12.00");
    }
}
