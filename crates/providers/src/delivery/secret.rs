//! A password or key read from the environment or from a file: never printed, `Debug` included.

use std::fmt;

#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Secret {
        Secret(value.into())
    }

    /// The secret itself, for the one call that sends it to its provider.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// `NAME` from `lookup`, else the contents of the file named by `NAME_FILE` (a trailing line
    /// break dropped: files made with `echo` end with one). None when neither is set.
    pub fn from_env_or_file(
        name: &str,
        lookup: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Option<Secret>, String> {
        if let Some(v) = lookup(name).filter(|v| !v.is_empty()) {
            return Ok(Some(Secret(v)));
        }
        let file_var = format!("{name}_FILE");
        let Some(path) = lookup(&file_var).filter(|v| !v.is_empty()) else {
            return Ok(None);
        };
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("{file_var}: cannot read {path}: {e}"))?;
        let value = text.trim_end_matches(['\r', '\n']).to_owned();
        if value.is_empty() {
            return Err(format!("{file_var}: {path} is empty"));
        }
        Ok(Some(Secret(value)))
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(redacted)")
    }
}

#[cfg(test)]
mod tests {
    use super::Secret;

    #[test]
    fn a_secret_never_shows_in_debug_output() {
        let s = Secret::new("hunter2-token");
        let shown = format!("{s:?} {:?}", Some(&s));
        assert!(!shown.contains("hunter2"), "{shown}");
        assert_eq!(s.expose(), "hunter2-token");
    }

    #[test]
    fn a_secret_comes_from_the_variable_or_else_from_its_file() {
        let path = std::env::temp_dir().join(format!("kupa-secret-{}", std::process::id()));
        std::fs::write(&path, "from-the-file\n").unwrap();
        let p = path.display().to_string();
        let both = |k: &str| match k {
            "X" => Some("from-the-env".to_owned()),
            "X_FILE" => Some(p.clone()),
            _ => None,
        };
        assert_eq!(
            Secret::from_env_or_file("X", &both)
                .unwrap()
                .unwrap()
                .expose(),
            "from-the-env"
        );
        let file_only = |k: &str| (k == "X_FILE").then(|| p.clone());
        assert_eq!(
            Secret::from_env_or_file("X", &file_only)
                .unwrap()
                .unwrap()
                .expose(),
            "from-the-file"
        );
        assert_eq!(Secret::from_env_or_file("X", &|_| None).unwrap(), None);
        let missing = |k: &str| (k == "X_FILE").then(|| "/nonexistent/kupa-secret".to_owned());
        assert!(
            Secret::from_env_or_file("X", &missing)
                .unwrap_err()
                .contains("X_FILE")
        );
        std::fs::remove_file(path).unwrap();
    }
}
