//! Catalogue use cases (filled below).
