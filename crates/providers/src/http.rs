//! What the adapters of real providers share on the wire (CardCom, PayU and PayPal; the SMS
//! provider and the captcha's siteverify for the client and the words of a lost answer): the
//! checks their configurations have in common, the HTTP client, a request sent and its whole
//! answer read, and why no answer came, in words that never carry what was sent.
//!
//! What an answer means stays each provider's own: its statuses, its error shapes and how they
//! become a payment's failure code are in its module.

use std::time::Duration;

use kupa_app::orders::Payment;
use reqwest::{Client, ClientBuilder, RequestBuilder};

use crate::delivery::secret::Secret;

/// How long a payment provider's call may take, connection to last byte.
pub const PAYMENT_TIMEOUT: Duration = Duration::from_secs(20);

/// A variable's value, trimmed; `None` when it is unset or blank.
pub fn setting(lookup: &dyn Fn(&str) -> Option<String>, name: &str) -> Option<String> {
    lookup(name)
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
}

/// A secret the provider cannot work without: `name`, or the contents of the file `name_FILE`.
pub fn required_secret(
    lookup: &dyn Fn(&str) -> Option<String>,
    name: &str,
) -> Result<Secret, String> {
    Secret::from_env_or_file(name, lookup)?
        .ok_or_else(|| format!("{name} (or {name}_FILE) must be set"))
}

/// An address the buyer may be sent to, or a provider may be called at: `https://`, or the
/// loopback (the tests' local fakes).
pub fn is_https_or_loopback(url: &str) -> bool {
    url.starts_with("https://") || url.starts_with("http://127.0.0.1")
}

/// The shop's public address (KUPA_PUBLIC_URL) as a provider that sends the buyer back, or posts
/// to the shop, needs it: `https://` (or the loopback), without its trailing `/`.
pub fn public_url(provider: &str, public_url: &str) -> Result<String, String> {
    if !is_https_or_loopback(public_url) {
        return Err(format!(
            "{provider} needs KUPA_PUBLIC_URL to be the shop's https:// address"
        ));
    }
    Ok(public_url.trim_end_matches('/').to_owned())
}

/// The buyer's way back from a provider's page: the payment's return path (a path of this site
/// only, else `/`) below `public_url`, with the payment's id and `extra_query` (`&name=value`)
/// before any fragment.
pub fn back_url(public_url: &str, p: &Payment, extra_query: &str) -> String {
    let path = if p.return_url.starts_with('/') && !p.return_url.starts_with("//") {
        p.return_url.as_str()
    } else {
        "/"
    };
    let (path, fragment) = match path.split_once('#') {
        Some((path, f)) => (path, format!("#{f}")),
        None => (path, String::new()),
    };
    let sep = if path.contains('?') { '&' } else { '?' };
    format!(
        "{public_url}{path}{sep}paymentId={}{extra_query}{fragment}",
        p.id
    )
}

/// A provider's HTTP client: `timeout` for a whole call.
pub fn client(provider: &str, timeout: Duration) -> Result<Client, String> {
    build(provider, Client::builder().timeout(timeout))
}

/// A provider's HTTP client from a builder of its own (redirects not followed, a connect
/// timeout); the error names the provider.
pub fn build(provider: &str, builder: ClientBuilder) -> Result<Client, String> {
    builder
        .build()
        .map_err(|e| format!("the HTTP client for {provider}: {e}"))
}

/// No answer came: a timeout, a connection that failed, or another transport error. Its words
/// are one of three fixed ones: reqwest's own error text names the address called, whose path
/// may hold an order's id and whose query a key, so it is never passed on or logged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoAnswer(pub &'static str);

impl NoAnswer {
    pub fn of(e: &reqwest::Error) -> NoAnswer {
        NoAnswer(if e.is_timeout() {
            "timeout"
        } else if e.is_connect() {
            "connection failed"
        } else {
            "transport error"
        })
    }
}

impl std::fmt::Display for NoAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

/// `body` (JSON text) as the request's body.
pub fn with_json(request: RequestBuilder, body: String) -> RequestBuilder {
    request
        .header("content-type", "application/json")
        .body(body)
}

/// A provider's answer, read whole.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: Vec<u8>,
}

impl Answer {
    /// The body as `T`, when it is that JSON.
    pub fn json<T: serde::de::DeserializeOwned>(&self) -> Option<T> {
        serde_json::from_slice(&self.body).ok()
    }

    /// The body as JSON, `Null` when it is empty or not JSON.
    pub fn value(&self) -> serde_json::Value {
        self.json().unwrap_or(serde_json::Value::Null)
    }
}

/// Sends `request` and reads its whole answer; a request that got no answer, or whose answer
/// broke off, is [`NoAnswer`].
pub async fn send(request: RequestBuilder) -> Result<Answer, NoAnswer> {
    let r = request.send().await.map_err(|e| NoAnswer::of(&e))?;
    let status = r.status().as_u16();
    let body = r.bytes().await.map_err(|e| NoAnswer::of(&e))?;
    Ok(Answer {
        status,
        body: body.to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payment(return_url: &str) -> Payment {
        Payment {
            return_url: return_url.into(),
            ..crate::testing::payment()
        }
    }

    #[test]
    fn the_way_back_is_a_path_of_this_site_with_the_payment_before_its_fragment() {
        let shop = "https://tickets.example";
        assert_eq!(
            back_url(shop, &payment("/order/7?step=pay#top"), ""),
            "https://tickets.example/order/7?step=pay&paymentId=pay_1#top"
        );
        assert_eq!(
            back_url(shop, &payment("/memberships"), "&cancelled=1"),
            "https://tickets.example/memberships?paymentId=pay_1&cancelled=1"
        );
        for elsewhere in ["https://evil.example/x", "//evil.example/x", "evil"] {
            assert_eq!(
                back_url(shop, &payment(elsewhere), ""),
                "https://tickets.example/?paymentId=pay_1",
                "{elsewhere}"
            );
        }
    }

    #[test]
    fn the_shops_address_must_be_https_or_the_loopback() {
        assert_eq!(
            public_url("PayU", "https://tickets.example/").unwrap(),
            "https://tickets.example"
        );
        assert!(public_url("PayU", "http://127.0.0.1:8080").is_ok());
        assert_eq!(
            public_url("PayU", "http://tickets.example").unwrap_err(),
            "PayU needs KUPA_PUBLIC_URL to be the shop's https:// address"
        );
    }

    #[tokio::test]
    async fn no_answer_says_why_in_fixed_words_that_never_carry_the_address() {
        // Nothing listens on the discard port of the loopback: the connection is refused.
        let c = client("a provider", Duration::from_secs(2)).unwrap();
        let e = send(c.get("http://127.0.0.1:9/orders/secret-order?key=hunter2"))
            .await
            .unwrap_err();
        assert_eq!(e, NoAnswer("connection failed"));
        assert!(!format!("{e} {e:?}").contains("hunter2"));
    }
}
