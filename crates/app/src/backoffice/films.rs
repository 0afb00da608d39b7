//! A film's form in the back office and its rules: what a manager types, checked field by field
//! (422 `formValidation` with `params.fields`: field → rule, the shape the customer area's
//! profile answers in), then written whole.

use std::collections::BTreeMap;

use super::*;

/// What a manager sends for a film (the catalogue file's fields a person edits; the generated
/// poster's colours are kept, or drawn for a new film).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FilmForm {
    pub name: String,
    pub name_en: String,
    pub synopsis: String,
    pub synopsis_en: String,
    pub category_id: i64,
    /// Minutes, more than 0.
    pub runtime: i64,
    pub classification: String,
    pub classification_en: String,
    pub original_language: String,
    pub original_language_en: String,
    pub dubbing: String,
    pub dubbing_en: String,
    pub subtitles: String,
    pub subtitles_en: String,
    /// YYYY-MM-DD.
    pub release_date: String,
    /// An https address, or empty.
    pub trailer_url: String,
}

/// The rules' names, as the form shows them.
pub mod rule {
    pub const REQUIRED: &str = "required";
    pub const MAX: &str = "max";
    pub const MIN: &str = "min";
    pub const DATE: &str = "date";
    pub const HTTPS: &str = "https";
    pub const CATEGORY: &str = "category";
    pub const LOCATION: &str = "location";
    pub const COLOUR: &str = "colour";
}

/// The longest runtime taken: ten hours (a marathon of a trilogy is an event of its own).
pub const MAX_RUNTIME_MINUTES: i64 = 600;

/// The generated posters' colours, for a new film (taken in turn, so neighbours differ).
const POSTER_COLOURS: [(&str, &str); 6] = [
    ("#1f2a44", "#b3395b"),
    ("#0b3d2e", "#6bbf59"),
    ("#3d2316", "#c2733d"),
    ("#2b1d4f", "#8e6bd8"),
    ("#102a43", "#3e8ed0"),
    ("#4a1c1c", "#e07a5f"),
];

/// An https address with a host and nothing a link should not carry.
pub fn is_https_url(s: &str) -> bool {
    let Some(rest) = s.strip_prefix("https://") else {
        return false;
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':'))
        && !s
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '"' || c == '<')
        && s.chars().count() <= 500
}

fn is_real_date(s: &str) -> bool {
    s.len() == 10 && s.parse::<jiff::civil::Date>().is_ok()
}

impl FilmForm {
    /// Every field trimmed.
    pub fn trimmed(mut self) -> FilmForm {
        for f in [
            &mut self.name,
            &mut self.name_en,
            &mut self.synopsis,
            &mut self.synopsis_en,
            &mut self.classification,
            &mut self.classification_en,
            &mut self.original_language,
            &mut self.original_language_en,
            &mut self.dubbing,
            &mut self.dubbing_en,
            &mut self.subtitles,
            &mut self.subtitles_en,
            &mut self.release_date,
            &mut self.trailer_url,
        ] {
            *f = f.trim().to_owned();
        }
        self
    }

    /// Every broken rule, field → rule (empty when the film may be written).
    pub fn problems(&self, categories: &[i64]) -> BTreeMap<&'static str, &'static str> {
        let mut p = BTreeMap::new();
        let long = |s: &str, max: usize| s.chars().count() > max;
        for (field, value) in [("name", &self.name), ("nameEn", &self.name_en)] {
            if value.is_empty() {
                p.insert(field, rule::REQUIRED);
            } else if long(value, 200) {
                p.insert(field, rule::MAX);
            }
        }
        for (field, value) in [
            ("synopsis", &self.synopsis),
            ("synopsisEn", &self.synopsis_en),
        ] {
            if long(value, 2000) {
                p.insert(field, rule::MAX);
            }
        }
        for (field, value) in [
            ("classification", &self.classification),
            ("classificationEn", &self.classification_en),
            ("originalLanguage", &self.original_language),
            ("originalLanguageEn", &self.original_language_en),
            ("dubbing", &self.dubbing),
            ("dubbingEn", &self.dubbing_en),
            ("subtitles", &self.subtitles),
            ("subtitlesEn", &self.subtitles_en),
        ] {
            if long(value, 50) {
                p.insert(field, rule::MAX);
            }
        }
        if !categories.contains(&self.category_id) {
            p.insert("categoryId", rule::CATEGORY);
        }
        if self.runtime < 1 {
            p.insert("runtime", rule::MIN);
        } else if self.runtime > MAX_RUNTIME_MINUTES {
            p.insert("runtime", rule::MAX);
        }
        if self.release_date.is_empty() {
            p.insert("releaseDate", rule::REQUIRED);
        } else if !is_real_date(&self.release_date) {
            p.insert("releaseDate", rule::DATE);
        }
        if !self.trailer_url.is_empty() && !is_https_url(&self.trailer_url) {
            p.insert("trailerUrl", rule::HTTPS);
        }
        p
    }

    /// The film these fields make, over `base` (its id, poster colours and poster kept).
    fn onto(self, base: Feature) -> Feature {
        Feature {
            name: self.name,
            name_en: self.name_en,
            category_id: self.category_id,
            original_language: self.original_language,
            dubbing: self.dubbing,
            subtitles: self.subtitles,
            original_language_en: self.original_language_en,
            dubbing_en: self.dubbing_en,
            subtitles_en: self.subtitles_en,
            release_date: self.release_date,
            runtime: self.runtime,
            classification: self.classification,
            classification_en: self.classification_en,
            synopsis: self.synopsis,
            synopsis_en: self.synopsis_en,
            trailer_url: self.trailer_url,
            ..base
        }
    }
}

/// A film as the audit keeps it: what a manager edits, never the poster's bytes.
pub fn film_doc(f: &Feature) -> serde_json::Value {
    serde_json::json!({
        "id": f.id,
        "name": f.name,
        "nameEn": f.name_en,
        "categoryId": f.category_id,
        "runtime": f.runtime,
        "classification": f.classification,
        "classificationEn": f.classification_en,
        "originalLanguage": f.original_language,
        "originalLanguageEn": f.original_language_en,
        "dubbing": f.dubbing,
        "dubbingEn": f.dubbing_en,
        "subtitles": f.subtitles,
        "subtitlesEn": f.subtitles_en,
        "releaseDate": f.release_date,
        "synopsis": f.synopsis,
        "synopsisEn": f.synopsis_en,
        "trailerUrl": f.trailer_url,
    })
}

fn invalid(problems: BTreeMap<&'static str, &'static str>) -> AppError {
    AppError::rejected_with(
        ErrorCode::FormValidation,
        format!(
            "the film's {} not valid",
            problems.keys().copied().collect::<Vec<_>>().join(", ")
        ),
        serde_json::json!({ "fields": problems }),
    )
}

impl BackOfficeService {
    /// Every film (the chain's), newest first, and the categories a film may have.
    pub async fn films(
        &self,
        caller: &Caller,
    ) -> AppResult<(Vec<FilmRecord>, Vec<FeatureCategory>)> {
        manager(caller)?;
        let mut films = self.store.films(self.clock.now_ms()).await?;
        films.sort_by_key(|f| std::cmp::Reverse(f.feature.id));
        Ok((films, self.store.categories().await?))
    }

    /// One film the caller may read (every manager reads every film).
    pub async fn film(&self, caller: &Caller, id: i64) -> AppResult<FilmRecord> {
        manager(caller)?;
        self.store
            .films(self.clock.now_ms())
            .await?
            .into_iter()
            .find(|f| f.feature.id == id)
            .ok_or_else(|| not_found("film"))
    }

    /// A film the caller may change, or `notFound` / `forbidden`.
    async fn own_film(&self, caller: &Caller, id: i64) -> AppResult<FilmRecord> {
        let film = self.film(caller, id).await?;
        if !may_change_film(caller, &film) {
            return Err(not_yours("film"));
        }
        Ok(film)
    }

    async fn checked(&self, form: FilmForm) -> AppResult<FilmForm> {
        let form = form.trimmed();
        let categories: Vec<i64> = self
            .store
            .categories()
            .await?
            .iter()
            .map(|c| c.id)
            .collect();
        let problems = form.problems(&categories);
        if !problems.is_empty() {
            return Err(invalid(problems));
        }
        Ok(form)
    }

    /// Adds a film to the chain's catalogue; no poster yet (the generated one is shown).
    pub async fn add_film(&self, caller: &Caller, form: FilmForm) -> AppResult<FilmRecord> {
        manager(caller)?;
        let form = self.checked(form).await?;
        let count = self.store.films(0).await?.len();
        let (from, to) = POSTER_COLOURS[count % POSTER_COLOURS.len()];
        let film = form.onto(Feature {
            poster_from: from.to_owned(),
            poster_to: to.to_owned(),
            ..Feature::default()
        });
        let id = self.store.add_film(&film, self.by(caller)).await?;
        self.changed();
        tracing::info!(
            feature_id = id,
            staff_user_id = caller.user.id,
            "film added"
        );
        self.film(caller, id).await
    }

    /// Changes a film's fields; its poster stays.
    pub async fn change_film(
        &self,
        caller: &Caller,
        id: i64,
        form: FilmForm,
    ) -> AppResult<FilmRecord> {
        let old = self.own_film(caller, id).await?;
        let form = self.checked(form).await?;
        let film = form.onto(old.feature);
        match self
            .store
            .change_film(&film, self.gap_ms, self.clock.now_ms(), self.by(caller))
            .await?
        {
            FilmWritten::Done => {}
            FilmWritten::Gone => return Err(not_found("film")),
            FilmWritten::Overlaps(other) => {
                return Err(AppError::rejected_with(
                    ErrorCode::ScreeningOverlap,
                    "with this runtime a screening of the film would overlap the next one of its hall",
                    serde_json::json!({ "presentationId": other, "fields": { "runtime": "overlap" } }),
                ));
            }
        }
        self.changed();
        tracing::info!(
            feature_id = id,
            staff_user_id = caller.user.id,
            "film changed"
        );
        self.film(caller, id).await
    }

    /// Makes the poster's sizes from an upload and keeps them as the film's poster.
    pub async fn upload_poster(
        &self,
        caller: &Caller,
        id: i64,
        content_type: String,
        bytes: Vec<u8>,
    ) -> AppResult<FilmRecord> {
        self.own_film(caller, id).await?;
        let size = bytes.len();
        // Decoding and resizing take a CPU for a moment: not on the threads that serve calls.
        let poster = tokio::task::spawn_blocking(move || make_poster(id, &content_type, &bytes))
            .await
            .map_err(AppError::internal)??;
        if !self.store.set_poster(&poster, self.by(caller)).await? {
            return Err(not_found("film"));
        }
        self.changed();
        tracing::info!(
            feature_id = id,
            version = %poster.version,
            bytes = size,
            staff_user_id = caller.user.id,
            "poster uploaded"
        );
        self.film(caller, id).await
    }

    /// One size of a film's uploaded poster, for anyone (the storefront's image).
    pub async fn poster(&self, id: i64, width: i64) -> AppResult<(String, SizedImage)> {
        self.store
            .poster_image(id, width)
            .await?
            .ok_or_else(|| not_found("poster"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn good() -> FilmForm {
        FilmForm {
            name: "סרט".into(),
            name_en: "A film".into(),
            category_id: 1,
            runtime: 95,
            release_date: "2030-06-01".into(),
            ..FilmForm::default()
        }
    }

    #[test]
    fn a_whole_film_has_no_problem() {
        assert!(good().problems(&[1]).is_empty());
        let with_trailer = FilmForm {
            trailer_url: "https://videos.example/trailer?id=1".into(),
            ..good()
        };
        assert!(with_trailer.problems(&[1]).is_empty());
    }

    #[test]
    fn each_broken_rule_is_named_by_its_field() {
        let bad = FilmForm {
            name: String::new(),
            name_en: "x".repeat(201),
            category_id: 7,
            runtime: 0,
            release_date: "2030-02-30".into(),
            trailer_url: "http://videos.example/t".into(),
            ..good()
        };
        let p = bad.problems(&[1]);
        assert_eq!(p["name"], rule::REQUIRED);
        assert_eq!(p["nameEn"], rule::MAX);
        assert_eq!(p["categoryId"], rule::CATEGORY);
        assert_eq!(p["runtime"], rule::MIN);
        assert_eq!(p["releaseDate"], rule::DATE);
        assert_eq!(p["trailerUrl"], rule::HTTPS);
        let long = FilmForm {
            runtime: MAX_RUNTIME_MINUTES + 1,
            ..good()
        };
        assert_eq!(long.problems(&[1])["runtime"], rule::MAX);
    }

    #[test]
    fn a_trailer_link_is_https_with_a_host_and_nothing_odd() {
        for ok in ["https://a.example", "https://a.example:8443/x/y?z=1#t"] {
            assert!(is_https_url(ok), "{ok}");
        }
        for bad in [
            "http://a.example",
            "https://",
            "https:///x",
            "javascript:alert(1)",
            "https://a.example/x y",
            "https://a\"b.example",
            "ftp://a.example",
        ] {
            assert!(!is_https_url(bad), "{bad}");
        }
    }
}
