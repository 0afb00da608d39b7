//! Text written into HTML: the one escaping every page and mail Kupa writes by hand uses (the
//! confirmation mail, the test gateway's pages, the outbox page).

/// Escapes text for HTML content and for attribute values in double or single quotes.
pub fn escape(s: &str) -> String {
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

#[cfg(test)]
mod tests {
    #[test]
    fn markup_and_quotes_are_text() {
        assert_eq!(
            super::escape(r#"<b a="1" b='2'>&</b>"#),
            "&lt;b a=&quot;1&quot; b=&#39;2&#39;&gt;&amp;&lt;/b&gt;"
        );
        assert_eq!(super::escape("שורה 4"), "שורה 4");
    }
}
