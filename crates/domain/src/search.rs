//! Matching what a buyer types against names in Hebrew and English (the marketing pages' search,
//! decision 0051). Both sides are folded the same way: Hebrew points and cantillation marks
//! (niqqud, U+0591–U+05C7) are dropped, letters are lower-cased, punctuation becomes a space and
//! runs of spaces become one. So "שִׁירָה" finds "שירה", "THE" finds "The".

/// Hebrew cantillation marks and points, and the few punctuation marks between them (maqaf,
/// paseq, sof pasuq...): none changes which word it is.
fn is_hebrew_mark(c: char) -> bool {
    ('\u{0591}'..='\u{05C7}').contains(&c)
}

/// The folded form of a name or a query: no niqqud, lower case, words separated by one space.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = true;
    for c in text.chars() {
        if is_hebrew_mark(c) {
            continue;
        }
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
            space = false;
        } else if !space {
            out.push(' ');
            space = true;
        }
    }
    if out.ends_with(' ') {
        out.pop();
    }
    out
}

/// Whether every word of the (folded) query begins a word of one of the names, or the whole
/// query appears in one: "שיר" finds "שירה בגשם", "rain sing" finds "Singing in the Rain".
/// An empty query matches nothing.
pub fn matches(query: &str, names: &[&str]) -> bool {
    let q = fold(query);
    if q.is_empty() {
        return false;
    }
    names.iter().any(|name| {
        let n = fold(name);
        n.contains(&q)
            || q.split(' ')
                .all(|word| n.split(' ').any(|w| w.starts_with(word)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn niqqud_case_and_punctuation_fold_away() {
        assert_eq!(fold("שִׁירָה בַּגֶּשֶׁם"), "שירה בגשם");
        assert_eq!(fold("  The  LION-King! "), "the lion king");
        // The maqaf (U+05BE) joins Hebrew words; it folds away like the points.
        assert_eq!(fold("בית\u{05BE}ספר"), "ביתספר");
    }

    #[test]
    fn a_query_matches_with_or_without_niqqud_on_either_side() {
        assert!(matches("שירה", &["שִׁירָה בַּגֶּשֶׁם"]));
        assert!(matches("שִׁירָה", &["שירה בגשם"]));
        assert!(matches("rain sing", &["Singing in the Rain"]));
        assert!(matches("LION", &["מלך האריות", "The Lion King"]));
        assert!(!matches("lion", &["Singing in the Rain"]));
        assert!(!matches("  ", &["anything"]));
        assert!(!matches("ֹ", &["anything"]));
    }
}
